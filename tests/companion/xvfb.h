// Xvfb for the window tests: one server on a free display per test, stopped at the end.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

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

}  // namespace hexdice::testing
