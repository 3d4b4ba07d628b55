// Runs hexdice-companion under Xvfb like a user would: a few frames on the history with a
// replay and the demo frame, a screenshot and the list of windows drawn. Skipped when the
// GUI is not built or Xvfb is not installed.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace fs = std::filesystem;

namespace {

bool on_path(const char* prog) {
  return std::system((std::string("command -v ") + prog + " >/dev/null 2>&1").c_str()) == 0;
}

// An Xvfb server on a free display, stopped by its own pid at the end.
class Xvfb {
 public:
  bool start() {
    for (int d = 90 + static_cast<int>(::getpid() % 50); d < 200; ++d) {
      if (fs::exists("/tmp/.X11-unix/X" + std::to_string(d)) || fs::exists("/tmp/.X" + std::to_string(d) + "-lock")) continue;
      pid_ = ::fork();
      if (pid_ == 0) {
        const std::string disp = ":" + std::to_string(d);
        ::execlp("Xvfb", "Xvfb", disp.c_str(), "-screen", "0", "1600x900x24", "-nolisten", "tcp",
                 static_cast<char*>(nullptr));
        ::_exit(127);
      }
      for (int i = 0; i < 100; ++i) {
        if (fs::exists("/tmp/.X11-unix/X" + std::to_string(d))) { display_ = ":" + std::to_string(d); return true; }
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

}  // namespace

TEST(CompanionGui, OpensOnHistoryAndDemoDrawsEveryPanelAndANonBlankPicture) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  if (!fs::exists(bin)) GTEST_SKIP() << "hexdice-companion not built (HEXDICE_GUI=OFF)";
  if (!on_path("Xvfb")) GTEST_SKIP() << "Xvfb not installed";
  Xvfb x;
  ASSERT_TRUE(x.start()) << "Xvfb did not start";
  const fs::path dir = fs::temp_directory_path() / ("hexdice_gui_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path png = dir / "shot.png", ui = dir / "ui.json", db = dir / "games.sqlite";
  const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() +
                          " --history --db " + db.string() + " --frames 8 --screenshot " + png.string() +
                          " --dump-ui " + ui.string() + " 2>" + (dir / "err.txt").string();
  const int rc = std::system(cmd.c_str());
  ASSERT_EQ(rc, 0) << cmd;

  const cv::Mat img = cv::imread(png.string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(img.empty());
  EXPECT_EQ(img.cols, 1600);
  EXPECT_EQ(img.rows, 900);
  cv::Mat grey;
  cv::cvtColor(img, grey, cv::COLOR_BGR2GRAY);
  cv::Scalar mean, stddev;
  cv::meanStdDev(grey, mean, stddev);
  EXPECT_GT(stddev[0], 15.0) << "the screenshot looks blank";
  // The demo picture is in it: many distinct colours, not just the flat UI theme.
  cv::Mat small;
  cv::resize(img, small, cv::Size(400, 225), 0, 0, cv::INTER_AREA);
  std::set<int> colours;
  for (int y = 0; y < small.rows; ++y)
    for (int xx = 0; xx < small.cols; ++xx) {
      const cv::Vec3b p = small.at<cv::Vec3b>(y, xx);
      colours.insert((p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3));
    }
  EXPECT_GT(colours.size(), 500u);

  std::ifstream in(ui);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::map<std::string, std::vector<std::string>> windows;
  for (const auto& w : j) windows[w.at("title").get<std::string>()] = w.at("labels").get<std::vector<std::string>>();
  for (const char* t : {"Board", "Live view", "History", "Turn", "Event log", "Alerts", "Players", "House rules", "Camera"})
    EXPECT_TRUE(windows.count(t)) << "window not drawn: " << t;
  // The board replays the latest sample game: units with their labels (name and armor).
  const auto& board = windows["Board"];
  ASSERT_FALSE(board.empty());
  EXPECT_EQ(board[0].rfind("Replay: ", 0), 0u) << board[0];
  int units = 0;
  for (const auto& l : board) units += l.find(" A") != std::string::npos;
  EXPECT_GT(units, 0);
  const auto& hist = windows["History"];
  EXPECT_NE(std::find(hist.begin(), hist.end(), "5 games"), hist.end());
  EXPECT_NE(std::find(hist.begin(), hist.end(), "replay"), hist.end());
  const auto& cam = windows["Camera"];
  EXPECT_NE(std::find(cam.begin(), cam.end(), "no camera"), cam.end());
  fs::remove_all(dir);
}
