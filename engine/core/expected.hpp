#pragma once
// Error values for parsers and other fallible calls: `Expected<T>` holds either a T or an Error with
// a message meant for a person. No exceptions cross these APIs.
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace reversi {

struct Error {
    std::string message;
};

template <class T>
class [[nodiscard]] Expected {
public:
    Expected(T value) : data_(std::move(value)) {}
    Expected(Error error) : data_(std::move(error)) {}

    [[nodiscard]] bool has_value() const noexcept { return data_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    [[nodiscard]] T& value() & {
        assert(has_value());
        return std::get<0>(data_);
    }
    [[nodiscard]] const T& value() const& {
        assert(has_value());
        return std::get<0>(data_);
    }
    [[nodiscard]] T&& value() && {
        assert(has_value());
        return std::get<0>(std::move(data_));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    [[nodiscard]] const Error& error() const {
        assert(!has_value());
        return std::get<1>(data_);
    }

private:
    std::variant<T, Error> data_;
};

inline Error make_error(std::string message) { return Error{std::move(message)}; }

}  // namespace reversi
