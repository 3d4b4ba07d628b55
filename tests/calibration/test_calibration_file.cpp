// The calibration file: round trip, merging, strict loading, and the stale / mismatch check.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "calibration/calibration.h"
#include "vision/sheet.h"
#include "vision/reader_io.h"

namespace hexdice::calibration {
namespace {

namespace fs = std::filesystem;

vision::CalibrationData sample_data() {
  vision::CalibrationData d;
  vision::CameraIntrinsics ci;
  ci.camera_matrix = cv::Matx33d(1012.5, 0, 641.25, 0, 1010.75, 359.5, 0, 0, 1);
  ci.dist_coeffs = (cv::Mat_<double>(1, 5) << -0.12, 0.034, 0.0011, -0.0007, 0);
  ci.image_size = {1280, 720};
  CameraCalibration cam;
  cam.intrinsics = ci;
  cam.rms_px = 0.31;
  cam.frames_used = 12;
  set_camera(d, cam, "frames:/tmp/x", vision::CharucoSpec{});
  ColorCalibration col;
  col.colors = {{"red", {0.21f, 0.18f, 0.83f}}, {"alice", {0.7f, 0.36f, 0.1f}}};
  col.image_size = {1280, 720};
  set_colors(d, col, vision::standard_sheet(), "colours.jpg");
  return d;
}

std::chrono::system_clock::time_point at(const std::string& iso) {
  std::tm tm{};
  strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

TEST(CalibrationFile, RoundTripKeepsEverything) {
  const auto d = sample_data();
  const std::string text = calibration_to_json_text(d);
  const auto back = calibration_from_json_text(text);
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_TRUE(back->camera.has_value());
  for (int i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(back->camera->camera_matrix.val[i], d.camera->camera_matrix.val[i]);
  ASSERT_EQ(back->camera->dist_coeffs.total(), 5u);
  EXPECT_DOUBLE_EQ(back->camera->dist_coeffs.at<double>(0), -0.12);
  EXPECT_EQ(back->camera->image_size, cv::Size(1280, 720));
  ASSERT_EQ(back->colors.size(), 2u);
  EXPECT_EQ(back->colors[1].name, "alice");
  EXPECT_NEAR(back->colors[1].bgr_rel[0], 0.7f, 1e-4);
  EXPECT_EQ(back->meta.version, kCalibrationVersion);
  EXPECT_EQ(back->meta.camera_source, "frames:/tmp/x");
  EXPECT_DOUBLE_EQ(back->meta.camera_rms_px, 0.31);
  EXPECT_EQ(back->meta.camera_frames, 12);
  EXPECT_EQ(back->meta.layout_hash, layout_hash(vision::standard_sheet()));
  EXPECT_EQ(back->meta.colors_source, "colours.jpg");
  EXPECT_EQ(back->meta.colors_image_size, cv::Size(1280, 720));
  EXPECT_EQ(back->meta.camera_created_utc, d.meta.camera_created_utc);
  // The reader's own loader (vision/reader_io.h) reads the same file.
  const auto reader = vision::calibration_from_json_text(text);
  ASSERT_TRUE(reader.ok()) << reader.error();
  ASSERT_TRUE(reader->camera.has_value());
  EXPECT_DOUBLE_EQ(reader->camera->camera_matrix(0, 0), 1012.5);
  EXPECT_EQ(reader->colors.size(), 2u);
  // And it is a second round trip fixed point.
  EXPECT_EQ(calibration_to_json_text(*back), text);
}

TEST(CalibrationFile, SaveAndLoadThroughDiskAndMergeColours) {
  const fs::path p = fs::temp_directory_path() / ("hexdice_calib_" + std::to_string(::getpid()) + ".json");
  auto d = sample_data();
  ASSERT_TRUE(save_calibration(d, p.string()).ok());
  auto back = load_calibration(p.string());
  ASSERT_TRUE(back.ok()) << back.error();
  ColorCalibration more;
  more.colors = {{"red", {0.3f, 0.2f, 0.9f}}, {"green", {0.2f, 0.5f, 0.15f}}};
  set_colors(*back, more, vision::standard_sheet(), "again.jpg");
  ASSERT_EQ(back->colors.size(), 3u);  // red replaced, alice kept, green added
  EXPECT_NEAR(back->colors[0].bgr_rel[2], 0.9f, 1e-6);
  EXPECT_EQ(back->colors[1].name, "alice");
  EXPECT_EQ(back->colors[2].name, "green");
  EXPECT_TRUE(back->camera.has_value());  // the camera part survives a colour update
  fs::remove(p);
  EXPECT_FALSE(load_calibration(p.string()).ok());
  EXPECT_FALSE(save_calibration(d, "/nonexistent-dir/x.json").ok());
}

TEST(CalibrationFile, BadFilesGiveOneClearError) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "not valid JSON"},
      {"{\"camera_matrix\": [1,2,3]", "not valid JSON"},
      {"[]", "not a JSON object"},
      {R"({"format": "hexdice-charuco"})", "not a hexdice calibration file"},
      {R"({"format": "hexdice-calibration", "version": 7})", "version 7"},
      {R"({"camera_matrix": [1,0,0,0,1,0,0,0]})", "9 finite numbers"},
      {R"({"camera_matrix": [-5,0,1,0,5,1,0,0,1]})", "focal lengths"},
      {R"({"camera_matrix": [5,0,1,0,5,1,1,0,1]})", "[fx 0 cx; 0 fy cy; 0 0 1]"},
      {R"({"camera_matrix": [5,0,1,0,5,1,0,0,1], "dist_coeffs": [0.1, 0.2, 0.3]})", "dist_coeffs"},
      {R"({"camera_matrix": [5,0,1,0,5,1,0,0,1], "image_size": [640]})", "image_size"},
      {R"({"dist_coeffs": [0,0,0,0]})", "without camera_matrix"},
      {R"({"colors": {"red": 1}})", "colors must be an array"},
      {R"({"colors": [{"name": "red", "bgr_rel": [1, 2]}]})", "3 finite numbers"},
      {R"({"colors": [{"name": "red", "bgr_rel": [1, 2, 9]}]})", "out of range"},
      {R"({"colors": [{"name": "", "bgr_rel": [1, 1, 1]}]})", "empty name"},
      {R"({"colors": [{"name": "a", "bgr_rel": [1, 1, 1]}, {"name": "a", "bgr_rel": [1, 1, 1]}]})", "twice"},
      {R"({"colors": [{"bgr_rel": [1, 1, 1]}]})", "calibration:"},
      {R"({"created": "yesterday"})", "bad time"},
  };
  for (const auto& [text, want] : bad) {
    const auto r = calibration_from_json_text(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().find(want), std::string::npos) << text << " -> " << r.error();
    EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
  }
  // A minimal hand-written file (no metadata) is accepted.
  EXPECT_TRUE(calibration_from_json_text(R"({"colors": [{"name": "red", "bgr_rel": [0.2, 0.2, 0.8]}]})").ok());
}

TEST(CalibrationCheck, FreshMatchingCalibrationIsOk) {
  const auto d = sample_data();
  const auto layout = vision::standard_sheet();
  const auto r = check_calibration(d, {1280, 720}, &layout);
  EXPECT_TRUE(r.ok()) << r.summary();
}

TEST(CalibrationCheck, SizeAndAspectMismatch) {
  const auto d = sample_data();
  auto r = check_calibration(d, {1920, 1080}, nullptr);
  EXPECT_TRUE(r.has(CheckIssue::SizeMismatch)) << r.summary();
  EXPECT_FALSE(r.has(CheckIssue::AspectMismatch));
  r = check_calibration(d, {640, 480}, nullptr);
  EXPECT_TRUE(r.has(CheckIssue::AspectMismatch)) << r.summary();
  EXPECT_NE(r.summary().find("1280x720"), std::string::npos);
  EXPECT_NE(r.summary().find("640x480"), std::string::npos);
}

TEST(CalibrationCheck, LayoutMismatch) {
  const auto d = sample_data();
  auto other = vision::make_sheet(4, "a4x2");
  ASSERT_TRUE(other.ok()) << other.error();
  EXPECT_NE(layout_hash(*other), layout_hash(vision::standard_sheet()));
  const auto r = check_calibration(d, {}, &*other);
  EXPECT_TRUE(r.has(CheckIssue::LayoutMismatch)) << r.summary();
  EXPECT_EQ(layout_hash(vision::standard_sheet()), layout_hash(vision::standard_sheet()));
}

TEST(CalibrationCheck, StaleAfterTheConfiguredDays) {
  auto d = sample_data();
  d.meta.camera_created_utc = "2026-01-10T12:00:00Z";
  d.meta.colors_created_utc = "2026-11-20T12:00:00Z";
  CheckParams p;
  p.now = at("2026-11-29T12:00:00");
  p.stale_days = 90;
  auto r = check_calibration(d, {}, nullptr, p);
  ASSERT_EQ(r.issues.size(), 1u) << r.summary();
  EXPECT_EQ(r.issues[0].kind, CheckIssue::Stale);
  EXPECT_NE(r.issues[0].message.find("camera calibration is 323 days old"), std::string::npos) << r.summary();
  p.stale_days = 5;
  r = check_calibration(d, {}, nullptr, p);
  EXPECT_EQ(r.issues.size(), 2u) << r.summary();  // the colours too
  p.stale_days = 400;
  EXPECT_TRUE(check_calibration(d, {}, nullptr, p).ok());
}

TEST(CalibrationCheck, FileWithoutMetadataIsNoted) {
  const auto d = vision::calibration_from_json_text(R"({"camera_matrix": [900,0,640,0,900,360,0,0,1], "image_size": [1280,720]})");
  ASSERT_TRUE(d.ok());
  const auto r = check_calibration(*d, {1280, 720}, nullptr);
  EXPECT_TRUE(r.has(CheckIssue::NoMetadata));
  EXPECT_EQ(r.issues.size(), 1u);
}

}  // namespace
}  // namespace hexdice::calibration
