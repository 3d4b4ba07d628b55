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
#include "vision/reader_synth.h"
#include "vision/sheet.h"
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

// "Calibrate colours" from the window: an image directory of synthetic photos (the
// reader's scene generator) under a warm colour cast, red on the N base f2 and blue on
// the S base f10 (default_color_cells). --calibrate-colours presses the button once the
// first picture is in, --save-calib "Save": the saved colours are the dice's body colours
// relative to the paper (the cast cancelled), and the Camera panel says so.
struct ColourRun {
  int rc = -1;
  std::string err;
  std::vector<std::string> camera;  // the Camera panel's labels
  fs::path calib;
};

ColourRun run_colours(const std::string& name, const std::vector<hexdice::vision::SynthDie>& dice, cv::Vec3d cast,
                      bool hide_markers = false, const std::string& press = "--calibrate-colours") {
  ColourRun out;
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  hexdice::testing::Xvfb x;
  if (!x.start()) { out.err = "Xvfb did not start"; return out; }
  const fs::path dir = fs::temp_directory_path() / ("hexdice_gui_colours_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "pics");
  hexdice::vision::SynthOptions so;
  so.cast = cast;
  so.brightness = 0.9;
  so.camera.tilt_deg = 10;
  if (hide_markers)
    for (const auto& m : hexdice::vision::standard_sheet().markers) so.hide_markers.push_back(m.id);
  for (unsigned k = 0; k < 3; ++k) {  // a few pictures, as a camera would give
    so.seed = 11 + k;
    const auto sc = hexdice::vision::render_synth_scene(hexdice::vision::standard_sheet(), dice, so);
    cv::imwrite((dir / "pics" / ("f" + std::to_string(k) + ".png")).string(), sc.image);
  }
  const fs::path ui = dir / "ui.json";
  out.calib = dir / "calib.json";
  const std::string cmd = "DISPLAY=" + x.display() + " XDG_CONFIG_HOME=" + dir.string() + " " + bin.string() +
                          " --source " + (dir / "pics").string() + " --db " + (dir / "games.sqlite").string() +
                          " --calib " + out.calib.string() + " " + press + " --save-calib --fps 0 --frames 3" +
                          " --screenshot " + (dir / "colours.png").string() + " --dump-ui " + ui.string() + " 2>" +
                          (dir / "err.txt").string();
  out.rc = std::system(cmd.c_str());
  out.err = hexdice::testing::slurp(dir / "err.txt");
  if (fs::exists(ui)) {
    auto w = read_dump(ui);
    out.camera = w["Camera"];
  }
  if (fs::exists(out.calib)) {  // keep the file for the checks, drop the rest
    fs::copy_file(out.calib, fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + "_calib.json"),
                  fs::copy_options::overwrite_existing);
    out.calib = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + "_calib.json");
  }
  fs::remove_all(dir);
  return out;
}

TEST(CompanionCalib, ColoursCalibratedFromTheWindowCancelTheCastAndAreSaved) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  if (!fs::exists(bin)) GTEST_SKIP() << "hexdice-companion not built (HEXDICE_GUI=OFF)";
  if (!hexdice::testing::on_path("Xvfb")) GTEST_SKIP() << "Xvfb not installed";
  using hexdice::vision::SynthDie;
  const std::vector<SynthDie> dice = {{{0, -4}, "red", 3}, {{0, 4}, "blue", 5}, {{2, -1}, "green", 2}};
  const ColourRun r = run_colours("ok", dice, {1.15, 1.0, 0.8});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto has = [&](const std::string& l) { return std::find(r.camera.begin(), r.camera.end(), l) != r.camera.end(); };
  EXPECT_TRUE(has("colours sampled: red, blue")) << ::testing::PrintToString(r.camera);
  EXPECT_TRUE(has("calibration saved")) << ::testing::PrintToString(r.camera);
  EXPECT_TRUE(has("calibrated"));  // the reader switched to the saved file
  ASSERT_TRUE(fs::exists(r.calib)) << r.err;
  auto data = hexdice::calibration::load_calibration(r.calib.string());
  ASSERT_TRUE(data.ok()) << data.error();
  EXPECT_FALSE(data->camera.has_value());  // only the colours were calibrated
  ASSERT_EQ(data->colors.size(), 2u);
  const cv::Vec3f paper(244, 245, 246);  // the synthetic sheet's paper
  for (const auto& c : data->colors) {
    ASSERT_TRUE(c.name == "red" || c.name == "blue") << c.name;
    const cv::Scalar body = hexdice::vision::synth_color_bgr(c.name);
    for (int k = 0; k < 3; ++k)  // relative to the paper: the 1.15 / 0.8 cast is gone
      EXPECT_NEAR(c.bgr_rel[k], body[k] / paper[k], 0.08) << c.name << " channel " << k;
  }
  fs::remove(r.calib);
}

// The sheet's markers covered (the dice are where they should be): the panel says the
// sheet was not found, and nothing is saved. (A bare base cell is not used here: whether
// the tinted base paper counts as "no die" was not reliable under a loaded parallel
// ctest run; see the report.)
TEST(CompanionCalib, ColourCalibrationWithoutTheSheetInViewSaysSoAndSavesNothing) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  if (!fs::exists(bin)) GTEST_SKIP() << "hexdice-companion not built (HEXDICE_GUI=OFF)";
  if (!hexdice::testing::on_path("Xvfb")) GTEST_SKIP() << "Xvfb not installed";
  using hexdice::vision::SynthDie;
  const ColourRun r = run_colours("nosheet", {{{0, -4}, "red", 3}, {{0, 4}, "blue", 5}}, {1, 1, 1}, true);
  EXPECT_NE(r.rc, 0);  // asked to save, nothing to save: one line that says why
  EXPECT_EQ(r.err, "hexdice: nothing saved: colour calibration: sheet markers not found (need at least 2)\n") << r.err;
  EXPECT_TRUE(hexdice::testing::any_contains(r.camera, "colours error: sheet markers not found"))
      << ::testing::PrintToString(r.camera);
  EXPECT_FALSE(hexdice::testing::any_starts(r.camera, "colours sampled"));
  EXPECT_FALSE(hexdice::testing::has(r.camera, "calibration saved"));
  EXPECT_FALSE(fs::exists(r.calib));
}

// "Calibrate camera" on a source with no ChArUco board in it (sheet photos): the run ends
// with the reason on one line and a non-zero exit, the panel shows it, nothing is saved.
TEST(CompanionCalib, CameraCalibrationWithoutChArUcoViewsSaysWhyAndSavesNothing) {
  const fs::path bin = fs::path(HEXDICE_BIN_DIR) / "hexdice-companion";
  if (!fs::exists(bin)) GTEST_SKIP() << "hexdice-companion not built (HEXDICE_GUI=OFF)";
  if (!hexdice::testing::on_path("Xvfb")) GTEST_SKIP() << "Xvfb not installed";
  const ColourRun r = run_colours("nocharuco", {{{0, -4}, "red", 3}}, {1, 1, 1}, false, "--calibrate-camera");
  EXPECT_NE(r.rc, 0);
  EXPECT_EQ(r.err, "hexdice: nothing saved: camera calibration: the source ended with 0 views kept; at least 5 are needed\n")
      << r.err;
  EXPECT_TRUE(hexdice::testing::any_contains(r.camera, "camera error: the source ended with 0 views kept"))
      << ::testing::PrintToString(r.camera);
  EXPECT_FALSE(hexdice::testing::has(r.camera, "calibration saved"));
  EXPECT_FALSE(fs::exists(r.calib));
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
