// `hexdice calibrate camera|colors|check` and `hexdice read --calib` warnings.
#include <gtest/gtest.h>

#include <filesystem>

#include <opencv2/imgcodecs.hpp>

#include "../companion/cli_runner.h"
#include "calibration/calibration.h"
#include "vision/sheet.h"
#include "vision/reader_synth.h"

namespace hexdice::calibration {
namespace {

namespace fs = std::filesystem;
using testing::CmdResult;
using testing::line_count;
using testing::run_hexdice;
using testing::slurp;

class CalibrateCli : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("hexdice_calibcli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
  }
  void TearDown() override { fs::remove_all(tmp_); }
  std::string p(const std::string& name) const { return (tmp_ / name).string(); }
  // A synthetic photo of the standard sheet with red dice on the N base row, blue on the S.
  std::string scene() const {
    const std::vector<vision::SynthDie> dice = {{{0, -4}, "red", 5}, {{0, 4}, "blue", 2}, {{2, -1}, "green", 3}};
    vision::SynthOptions o;
    o.seed = 4;
    const auto sc = vision::render_synth_scene(vision::standard_sheet(), dice, o);
    const std::string path = p("scene.png");
    cv::imwrite(path, sc.image);
    return path;
  }
  fs::path tmp_;
};

const std::string kPovDir = std::string(HEXDICE_SOURCE_DIR) + "/tests/calibration/data/charuco_pov";

TEST_F(CalibrateCli, CameraThenColoursThenCheckThenRead) {
  const std::string out = p("calib.json");
  CmdResult r = run_hexdice("calibrate camera --frames " + kPovDir + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("RMS reprojection error"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("board 10x14 squares of 27 mm"), std::string::npos) << r.out;  // found the A3 board
  auto d = load_calibration(out);
  ASSERT_TRUE(d.ok()) << d.error();
  ASSERT_TRUE(d->camera.has_value());
  EXPECT_EQ(d->camera->image_size, cv::Size(1280, 720));
  EXPECT_NE(d->meta.camera_source.find("frames:"), std::string::npos);
  EXPECT_GT(d->meta.camera_frames, 5);

  const std::string img = scene();
  r = run_hexdice("calibrate colors " + img + " --cells 'red=f2;blue=f10;green=2,-1' --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  d = load_calibration(out);
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_TRUE(d->camera.has_value());  // merged, not replaced
  ASSERT_EQ(d->colors.size(), 3u);
  EXPECT_EQ(d->colors[2].name, "green");
  EXPECT_GT(d->colors[2].bgr_rel[1], d->colors[2].bgr_rel[2]);

  r = run_hexdice("calibrate check " + out + " --image " + img);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ok"), std::string::npos);

  r = run_hexdice("read " + img + " --calib " + out + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // a fresh, matching calibration: no warning
  EXPECT_NE(r.out.find("\"green\""), std::string::npos) << r.out;
}

TEST_F(CalibrateCli, StaleOrMismatchedCalibrationWarnsOnceAndStillReads) {
  const std::string img = scene();
  const std::string stale = testing::temp_file(
      "stale_calib.json",
      R"({"format": "hexdice-calibration", "version": 1, "created": "2025-01-01T00:00:00Z",
          "camera_matrix": [1100, 0, 960, 0, 1100, 540, 0, 0, 1], "dist_coeffs": [], "image_size": [1920, 1080],
          "camera": {"created": "2025-01-01T00:00:00Z", "source": "camera:0", "rms_px": 0.4, "frames": 12}})");
  CmdResult r = run_hexdice("read " + img + " --calib " + stale + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("hexdice: warning: calibration", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("days old"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1920x1080"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("\"board_found\":true"), std::string::npos) << r.out;

  r = run_hexdice("calibrate check " + stale + " --image " + img);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("warning: camera calibration is"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warning: camera calibrated at 1920x1080 but frames are 1280x720"), std::string::npos) << r.out;
  r = run_hexdice("calibrate check " + stale + " --stale-days 100000");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  fs::remove(stale);
  // A hand-written file without metadata: `read` does not nag (check notes it).
  const std::string plain = testing::temp_file("plain_calib.json", R"({"colors": [{"name": "red", "bgr_rel": [0.17, 0.15, 0.77]}]})");
  r = run_hexdice("read " + img + " --calib " + plain + " --json");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  r = run_hexdice("calibrate check " + plain);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("no metadata"), std::string::npos) << r.out;
  fs::remove(plain);
}

TEST_F(CalibrateCli, BadInputIsOneLineAndWritesNothing) {
  const std::string out = p("never.json");
  // Too few frames: three views only.
  fs::create_directories(p("few"));
  for (const char* v : {"view_00.jpg", "view_01.jpg", "view_02.jpg"}) fs::copy_file(kPovDir + "/" + v, p("few/") + v);
  CmdResult r = run_hexdice("calibrate camera --frames " + p("few") + " --out " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("too few usable calibration frames"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // No images at all, a missing directory, both or neither source.
  fs::create_directories(p("empty"));
  r = run_hexdice("calibrate camera --frames " + p("empty") + " --out " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  r = run_hexdice("calibrate camera --frames " + p("nope") + " --out " + out);
  EXPECT_EQ(r.exit_code, 1);
  r = run_hexdice("calibrate camera --out " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(fs::exists(out));
  // A corrupt existing file is neither merged into nor overwritten.
  const std::string bad = p("bad.json");
  { std::ofstream(bad) << "{not json"; }
  r = run_hexdice("calibrate colors " + scene() + " --out " + bad);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_EQ(slurp(bad), "{not json");
  r = run_hexdice("calibrate check " + bad);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("hexdice: ", 0), 0u);
  // Colours: a cell off the map, an image without the sheet.
  r = run_hexdice("calibrate colors " + scene() + " --cells 'red=9,9' --out " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not on the map"), std::string::npos) << r.err;
  cv::imwrite(p("table.png"), cv::Mat(480, 640, CV_8UC3, cv::Scalar(40, 80, 120)));
  r = run_hexdice("calibrate colors " + p("table.png") + " --out " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("sheet markers not found"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace hexdice::calibration
