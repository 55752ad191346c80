#pragma once
// A POSIX file descriptor owned by one object: closed when the object goes out of scope, unless it was
// released (handed on) or reset first. Move-only.
#include <unistd.h>

#include <utility>

namespace reversi {

class UniqueFd {
public:
    explicit UniqueFd(int fd) noexcept : fd_(fd) {}
    UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        if (this != &other) {
            reset();
            fd_ = other.release();
        }
        return *this;
    }
    ~UniqueFd() { reset(); }

    [[nodiscard]] int get() const noexcept { return fd_; }
    // The descriptor, no longer owned: the caller closes it.
    int release() noexcept { return std::exchange(fd_, -1); }
    // Closes the descriptor now.
    void reset() noexcept {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_;
};

}  // namespace reversi
