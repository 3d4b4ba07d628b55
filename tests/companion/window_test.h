// Helpers of the window tests: an Xvfb server on a free display per test (stopped at the
// end), and the reader of the window's --dump-ui file (window title -> labels drawn).
#pragma once

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

// An Xvfb server on a free display, stopped by its own pid at the end.
class Xvfb {
 public:
  bool start() {
    for (int d = 90 + static_cast<int>(::getpid() % 50); d < 200; ++d) {
      if (std::filesystem::exists("/tmp/.X11-unix/X" + std::to_string(d)) || std::filesystem::exists("/tmp/.X" + std::to_string(d) + "-lock")) continue;
      pid_ = ::fork();
      if (pid_ == 0) {
        const std::string disp = ":" + std::to_string(d);
        ::execlp("Xvfb", "Xvfb", disp.c_str(), "-screen", "0", "1600x900x24", "-nolisten", "tcp",
                 static_cast<char*>(nullptr));
        ::_exit(127);
      }
      for (int i = 0; i < 100; ++i) {
        if (std::filesystem::exists("/tmp/.X11-unix/X" + std::to_string(d))) { display_ = ":" + std::to_string(d); return true; }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      stop();
    }
    return false;
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
