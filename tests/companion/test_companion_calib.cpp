// Calibration from the window (issue 5): hexdice-companion under Xvfb on the committed
// ChArUco views (tests/calibration/data/charuco_pov, POV-Ray, 1280x720) as its image
// source, --calibrate-camera pressing "Calibrate camera" and --save-calib "Save": the
// session keeps views from the capture thread, calibrates on its worker, saves a file that
// `hexdice calibrate check` accepts, and the Camera panel shows it. Skipped without the
// GUI or Xvfb.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/calibration.h"
#include "cli_runner.h"
#include "tests/companion/window_test.h"

namespace fs = std::filesystem;

namespace {

using hexdice::testing::read_dump;

TEST(CompanionCalib, CameraCalibratedFromTheWindowOnChArUcoViewsAndSaved) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  if (!fs::exists(bin)) GTEST_SKIP() << "hexdice-companion not built (HEXDICE_GUI=OFF)";
  if (!hexdice::testing::on_path("Xvfb")) GTEST_SKIP() << "Xvfb not installed";
  hexdice::testing::Xvfb x;
  ASSERT_TRUE(x.start()) << "Xvfb did not start";
  const fs::path dir = fs::temp_directory_path() / ("hexdice_gui_calib_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path views = fs::path(HEXDICE_SOURCE_DIR) / "tests/calibration/data/charuco_pov";
  const fs::path png = dir / "camera.png", ui = dir / "ui.json", calib = dir / "calib.json";
  const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() +
                          " --source " + views.string() + " --db " + (dir / "games.sqlite").string() + " --calib " +
                          calib.string() + " --calibrate-camera --save-calib --fps 0 --frames 3 --screenshot " +
                          png.string() + " --dump-ui " + ui.string() + " 2>" + (dir / "err.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << hexdice::testing::slurp(dir / "err.txt");
  // The file: loaded strictly, intrinsics near the renderer's truth, and `calibrate check` is happy.
  ASSERT_TRUE(fs::exists(calib)) << hexdice::testing::slurp(dir / "err.txt");
  auto data = hexdice::calibration::load_calibration(calib.string());
  ASSERT_TRUE(data.ok()) << data.error();
  ASSERT_TRUE(data->camera.has_value());
  std::ifstream tin(views / "truth.json");
  const auto truth = nlohmann::json::parse(tin);
  const double fx_true = 1280.0 / (2 * std::tan(truth["hfov_deg"].get<double>() * CV_PI / 360.0));
  EXPECT_NEAR(data->camera->camera_matrix(0, 0), fx_true, 0.03 * fx_true);
  EXPECT_EQ(data->camera->image_size, cv::Size(1280, 720));
  EXPECT_EQ(data->meta.camera_source.rfind("companion:", 0), 0u) << data->meta.camera_source;
  const auto check = hexdice::testing::run_hexdice("calibrate check " + calib.string());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  // The Camera panel: views kept, the RMS, saved, and the reader now calibrated.
  auto w = read_dump(ui);
  ASSERT_TRUE(w.count("Camera"));
  const auto& cam = w["Camera"];
  auto has = [&](const std::string& l) { return std::find(cam.begin(), cam.end(), l) != cam.end(); };
  EXPECT_TRUE(has("rms")) << "no RMS shown";
  EXPECT_TRUE(has("calibration saved"));
  EXPECT_TRUE(has("calibrated"));
  int views_kept = -1;
  for (const auto& l : cam)
    if (l.rfind("views ", 0) == 0) views_kept = std::atoi(l.c_str() + 6);
  EXPECT_GE(views_kept, 5);
  const cv::Mat img = cv::imread(png.string());
  ASSERT_FALSE(img.empty());
  fs::remove_all(dir);
}

// A corrupt --calib file: one clear line and a non-zero exit before any window opens.
TEST(CompanionCalib, CorruptCalibrationFileIsOneClearError) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  if (!fs::exists(bin)) GTEST_SKIP() << "hexdice-companion not built (HEXDICE_GUI=OFF)";
  const fs::path dir = fs::temp_directory_path() / ("hexdice_gui_badcalib_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "bad.json") << "{\"format\": \"hexdice-calibration\", \"version\": 1, \"camera_matrix\": [1, 2]}";
  const std::string cmd = "DISPLAY=:nonexistent " + bin.string() + " --calib " + (dir / "bad.json").string() +
                          " --frames 1 --screenshot " + (dir / "x.png").string() + " 2>" + (dir / "err.txt").string();
  const int rc = std::system(cmd.c_str());
  EXPECT_NE(rc, 0);
  const std::string err = hexdice::testing::slurp(dir / "err.txt");
  EXPECT_EQ(err.rfind("hexdice: --calib: ", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  fs::remove_all(dir);
}

}  // namespace
