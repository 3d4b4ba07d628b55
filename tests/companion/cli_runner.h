// Runs the built `hexdice` binary for command-line tests: exit code, stdout, stderr.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace hexdice::testing {

struct CmdResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `args` is appended to the binary path as-is (shell syntax).
inline CmdResult run_hexdice(const std::string& args) {
  static int counter = 0;
  const auto err_path = std::filesystem::temp_directory_path() /
                        ("hexdice_cli_err_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  const std::string cmd = std::string(HEXDICE_BIN_DIR) + "/hexdice " + args + " 2>" + err_path.string();
  CmdResult r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err_path);
  std::filesystem::remove(err_path);
  return r;
}

// Writes text to a fresh temp file and returns its path.
inline std::string temp_file(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / ("hexdice_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// An empty directory of its own under the temp directory: <prefix>_<pid>_<name>.
inline std::filesystem::path temp_dir(const std::string& prefix, const std::string& name) {
  const auto p = std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

// How often `what` stands in `text`.
inline int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Runs `hexdice ARGS...` with its stdout going to the file `out`, and SIGKILLs it as soon as
// `out` holds `what` at least `times` times (or after `timeout`, on a slow machine): the
// crash tests' "pull the plug mid-game". True when it was killed, false when it had
// already finished (the test's sequence was too short) or could not be started.
inline bool run_hexdice_killed_when(const std::vector<std::string>& args, const std::filesystem::path& out,
                                    const std::string& what, int times, std::chrono::seconds timeout) {
  const pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    const std::string bin = std::string(HEXDICE_BIN_DIR) + "/hexdice";
    std::vector<char*> argv{const_cast<char*>(bin.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    FILE* f = std::freopen(out.c_str(), "w", stdout);
    (void)f;
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (count_of(slurp(out), what) < times && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFSIGNALED(status);
}

inline int line_count(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace hexdice::testing
