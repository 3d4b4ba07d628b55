// Helpers of the window tests: an Xvfb server on a free display per test (stopped at the
// end), and the reader of the window's --dump-ui file (window title -> labels drawn).
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace hexdice::testing {

inline bool on_path(const char* prog) {
  return std::system((std::string("command -v ") + prog + " >/dev/null 2>&1").c_str()) == 0;
}

// An Xvfb server on a free display, stopped by its own pid at the end. Xvfb picks the
// display itself and writes its number to a pipe (-displayfd): choosing a display by its
// missing lock file raced when two tests started at once (the second server exited on
// the first's display, whose socket then made the second test take it for its own).
class Xvfb {
 public:
  bool start() {
    int fds[2];
    if (::pipe(fds) != 0) return false;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(fds[0]);
      const std::string fd = std::to_string(fds[1]);
      ::execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1600x900x24", "-nolisten", "tcp",
               static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    std::string number;
    if (pid_ > 0) {
      pollfd pfd{fds[0], POLLIN, 0};
      char c = 0;
      // Up to 10 s for the number and its newline.
      while (::poll(&pfd, 1, 10000) > 0 && ::read(fds[0], &c, 1) == 1 && c != '\n') number += c;
    }
    ::close(fds[0]);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) {
      stop();
      return false;
    }
    display_ = ":" + number;
    return true;
  }
  void stop() {
    if (pid_ > 0) { ::kill(pid_, SIGTERM); ::waitpid(pid_, nullptr, 0); }
    pid_ = -1;
  }
  ~Xvfb() { stop(); }
  const std::string& display() const { return display_; }

 private:
  pid_t pid_ = -1;
  std::string display_;
};

// The --dump-ui file: for each window drawn, its title and the labels drawn in it.
inline std::map<std::string, std::vector<std::string>> read_dump(const std::filesystem::path& ui) {
  std::ifstream in(ui);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::map<std::string, std::vector<std::string>> windows;
  for (const auto& w : j) windows[w.at("title").get<std::string>()] = w.at("labels").get<std::vector<std::string>>();
  return windows;
}

inline bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}
inline bool any_starts(const std::vector<std::string>& v, const std::string& prefix) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.rfind(prefix, 0) == 0; });
}
inline bool any_contains(const std::vector<std::string>& v, const std::string& part) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

}  // namespace hexdice::testing
