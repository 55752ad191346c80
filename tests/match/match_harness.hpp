#pragma once
// Helpers for tests that run the real reversi-match binary against the test doubles in fakes/.
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace reversi::match_test {

namespace fs = std::filesystem;

inline std::string fakes_dir() { return (fs::path(__FILE__).parent_path() / "fakes").string(); }
inline std::string match_binary() { return std::string(REVERSI_BINARY_DIR) + "/tools/reversi-match"; }
inline std::string engine_binary() { return std::string(REVERSI_BINARY_DIR) + "/protocol/reversi-engine"; }

inline bool have_python() { return std::system("command -v python3 >/dev/null 2>&1") == 0; }

inline fs::path scratch_root() {
    return fs::temp_directory_path() / ("reversi-match-test-" + std::to_string(::getpid()));
}

// Removes this test process's scratch files when it exits.
struct ScratchCleanup {
    ~ScratchCleanup() {
        std::error_code ec;
        fs::remove_all(scratch_root(), ec);
    }
};
inline ScratchCleanup scratch_cleanup;

// A fresh directory for one test's files.
inline std::string scratch_dir(const std::string& name) {
    const fs::path dir = scratch_root() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir.string();
}

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::vector<std::string> read_lines(const std::string& path) {
    std::vector<std::string> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) out.push_back(line);
    return out;
}

// The number of complete (newline-ended) lines in the file at `path`.
inline int complete_lines(const std::string& path) {
    const std::string text = read_text(path);
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

struct RunResult {
    int exit_code = -1;
    std::string out;  // stdout
    std::string err;  // stderr
};

// Starts `binary` with `args` (no shell), stdout/stderr into files under `dir`, in the test's working folder
// or, with `enter_dir`, in `dir` (relative paths are read there). Returns the pid.
inline pid_t start_program(const std::string& binary, const std::vector<std::string>& args, const std::string& dir,
                           bool enter_dir = false) {
    std::vector<std::string> argv = {binary};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const std::string out_path = dir + "/stdout.txt";
    const std::string err_path = dir + "/stderr.txt";
    std::fflush(stdout);  // or the child would write the parent's buffered output again
    std::fflush(stderr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!std::freopen(out_path.c_str(), "w", stdout) || !std::freopen(err_path.c_str(), "w", stderr)) ::_exit(126);
        if (enter_dir && ::chdir(dir.c_str()) != 0) ::_exit(126);
        ::execv(cargv[0], cargv.data());
        ::_exit(127);
    }
    return pid;
}

inline pid_t start_match(const std::vector<std::string>& args, const std::string& dir) {
    return start_program(match_binary(), args, dir);
}

inline RunResult wait_match(pid_t pid, const std::string& dir) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    RunResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_text(dir + "/stdout.txt");
    r.err = read_text(dir + "/stderr.txt");
    return r;
}

inline RunResult run_match(const std::vector<std::string>& args, const std::string& dir) {
    return wait_match(start_match(args, dir), dir);
}

// A fake UCI-style engine: "cmd=python3 <fakes>/fake_uci.py <extra>"
inline std::string fake_uci(const std::string& extra = "") {
    return "cmd=python3 " + fakes_dir() + "/fake_uci.py " + extra;
}
inline std::string fake_nboard() { return "cmd=python3 " + fakes_dir() + "/fake_nboard.py"; }

// Replays a GGF file with the test doubles' own rules (fakes/check_ggf.py): every move legal, every
// finished game over and scored right. 0 when all is well.
inline int check_ggf(const std::string& path) {
    return std::system(("python3 " + fakes_dir() + "/check_ggf.py " + path + " >/dev/null").c_str());
}

// The raw JSON value of `"key": value` in the summary (numbers, arrays, objects on one line).
inline std::string json_field(const std::string& json, const std::string& key) {
    const std::string tag = "\n  \"" + key + "\": ";
    const auto at = json.find(tag);
    if (at == std::string::npos) return "<missing " + key + ">";
    const auto begin = at + tag.size();
    std::string value = json.substr(begin, json.find('\n', begin) - begin);
    if (!value.empty() && value.back() == ',') value.pop_back();
    return value;
}

inline int json_int(const std::string& json, const std::string& key) {
    return std::atoi(json_field(json, key).c_str());
}

inline double json_double(const std::string& json, const std::string& key) {
    return std::atof(json_field(json, key).c_str());
}

}  // namespace reversi::match_test
