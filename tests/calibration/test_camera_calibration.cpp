// Camera intrinsics: synthetic views with known K and distortion, POV-Ray renders of the
// printed board with a known pinhole camera, and the failure modes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/calibration.h"
#include "synth_views.h"

namespace hexdice::calibration {
namespace {

namespace fs = std::filesystem;
using testing::BoardPose;
using testing::SynthCameraTruth;

const vision::CharucoSpec kSpec{};  // the A4 board of `hexdice board --charuco`
constexpr double kPpm = 2.5, kMargin = 12.0;

std::vector<CalibFrame> synth_frames(const SynthCameraTruth& cam, const std::vector<BoardPose>& poses) {
  static const cv::Mat drawing = testing::board_drawing(kSpec, kPpm, kMargin);
  std::vector<CalibFrame> out;
  for (std::size_t i = 0; i < poses.size(); ++i)
    out.push_back({testing::render_view(drawing, kSpec, kPpm, kMargin, cam, poses[i]), "synth " + std::to_string(i)});
  return out;
}

const std::vector<CalibFrame>& distorted_frames() {
  static const std::vector<CalibFrame> f = synth_frames(SynthCameraTruth{}, testing::standard_poses());
  return f;
}

TEST(CharucoDetect, FindsMostCornersOfAFrontalView) {
  const auto& f = distorted_frames();
  const auto d = detect_charuco(f[0].image, kSpec);
  // 6 x 9 = 54 inner corners on the A4 board; a frontal view near the centre shows them all.
  EXPECT_GE(d.corners.size(), 50u);
  EXPECT_EQ(d.corners.size(), d.ids.size());
  EXPECT_GE(d.markers, 30);
  EXPECT_TRUE(detect_charuco(cv::Mat(540, 960, CV_8UC3, cv::Scalar(128, 128, 128)), kSpec).corners.empty());
}

TEST(CameraCalibration, RecoversKnownIntrinsicsAndDistortion) {
  const SynthCameraTruth truth;
  const auto r = calibrate_camera(distorted_frames(), kSpec);
  ASSERT_TRUE(r.ok()) << r.error();
  const auto& k = r->intrinsics.camera_matrix;
  EXPECT_NEAR(k(0, 0), truth.k(0, 0), 0.01 * truth.k(0, 0));
  EXPECT_NEAR(k(1, 1), truth.k(1, 1), 0.01 * truth.k(1, 1));
  EXPECT_NEAR(k(0, 2), truth.k(0, 2), 4.0);
  EXPECT_NEAR(k(1, 2), truth.k(1, 2), 4.0);
  ASSERT_GE(r->intrinsics.dist_coeffs.total(), 4u);
  EXPECT_NEAR(r->intrinsics.dist_coeffs.at<double>(0), truth.dist[0], 0.03);
  EXPECT_NEAR(r->intrinsics.dist_coeffs.at<double>(1), truth.dist[1], 0.06);
  EXPECT_LT(r->rms_px, 0.5);
  EXPECT_EQ(r->intrinsics.image_size, truth.size);
  EXPECT_GE(r->frames_used, 10);
  EXPECT_GT(r->coverage, 0.5);
  for (const auto& f : r->frames)
    if (f.used) {
      EXPECT_GT(f.rms_px, 0);
    }
}

TEST(CameraCalibration, TooFewGoodFramesIsOneClearError) {
  std::vector<CalibFrame> few(distorted_frames().begin(), distorted_frames().begin() + 3);
  // Blank frames do not count.
  for (int i = 0; i < 4; ++i) few.push_back({cv::Mat(540, 960, CV_8UC3, cv::Scalar(200, 200, 200)), "blank"});
  const auto r = calibrate_camera(few, kSpec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("too few usable calibration frames: 3"), std::string::npos) << r.error();
  EXPECT_EQ(r.error().find('\n'), std::string::npos);
}

TEST(CameraCalibration, RejectsMixedSizesAndEmptyInput) {
  EXPECT_FALSE(calibrate_camera({}, kSpec).ok());
  std::vector<CalibFrame> mixed(distorted_frames().begin(), distorted_frames().begin() + 6);
  mixed.push_back({cv::Mat(720, 1280, CV_8UC3, cv::Scalar(0)), "other.jpg"});
  const auto r = calibrate_camera(mixed, kSpec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("other.jpg"), std::string::npos) << r.error();
}

TEST(CameraCalibration, ReportsRejectedFramesWithReasons) {
  auto frames = distorted_frames();
  frames.push_back({cv::Mat(540, 960, CV_8UC3, cv::Scalar(90, 90, 90)), "empty table"});
  const auto r = calibrate_camera(frames, kSpec);
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->frames.size(), frames.size());
  EXPECT_FALSE(r->frames.back().used);
  EXPECT_NE(r->frames.back().rejected.find("0 corners"), std::string::npos);
  EXPECT_EQ(r->frames_used, static_cast<int>(std::count_if(r->frames.begin(), r->frames.end(), [](const FrameReport& f) { return f.used; })));
}

TEST(CalibrationSession, KeepsDistinctViewsOnlyAndCalibrates) {
  CameraCalibrationSession s(kSpec, {}, 8);
  const auto& f = distorted_frames();
  bool kept = false;
  s.add_frame(f[0].image, &kept);
  EXPECT_TRUE(kept);
  s.add_frame(f[0].image, &kept);  // the same view again: not kept
  EXPECT_FALSE(kept);
  s.add_frame(cv::Mat(540, 960, CV_8UC3, cv::Scalar(90, 90, 90)), &kept);
  EXPECT_FALSE(kept);
  EXPECT_EQ(s.progress().frames_seen, 3);
  EXPECT_EQ(s.progress().frames_kept, 1);
  EXPECT_FALSE(s.progress().ready);
  EXPECT_FALSE(s.calibrate().ok());  // one view is not enough
  for (std::size_t i = 1; i < f.size(); ++i) s.add_frame(f[i].image);
  const auto p = s.progress();
  EXPECT_EQ(p.frames_kept, static_cast<int>(f.size()));
  EXPECT_TRUE(p.ready);
  EXPECT_GT(p.coverage, 0.5);
  auto fut = s.calibrate_async();
  const auto r = fut.get();
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_NEAR(r->intrinsics.camera_matrix(0, 0), SynthCameraTruth{}.k(0, 0), 0.01 * SynthCameraTruth{}.k(0, 0));
  s.reset();
  EXPECT_EQ(s.progress().frames_kept, 0);
}

// POV-Ray renders (tests/render/charuco_gen.py): a pinhole camera of known focal length.
TEST(CameraCalibration, PovRayViewsGiveTheRenderersIntrinsics) {
  const fs::path dir = fs::path(HEXDICE_SOURCE_DIR) / "tests/calibration/data/charuco_pov";
  std::ifstream in(dir / "truth.json");
  ASSERT_TRUE(in) << "missing " << (dir / "truth.json");
  const auto truth = nlohmann::json::parse(in);
  std::vector<CalibFrame> frames;
  for (const auto& v : truth["views"]) {
    cv::Mat img = cv::imread((dir / v["image"].get<std::string>()).string());
    ASSERT_FALSE(img.empty());
    frames.push_back({img, v["image"].get<std::string>()});
  }
  ASSERT_GE(frames.size(), 8u);
  // The board rendered is the one `hexdice board --charuco` printed (recorded by the renderer).
  const auto spec = charuco_spec_from_json_text(truth["charuco"].dump());
  ASSERT_TRUE(spec.ok()) << spec.error();
  const auto r = calibrate_camera(frames, *spec);
  ASSERT_TRUE(r.ok()) << r.error();
  const auto& k = r->intrinsics.camera_matrix;
  const double fx = truth["fx"].get<double>();
  EXPECT_NEAR(k(0, 0), fx, 0.02 * fx);
  EXPECT_NEAR(k(1, 1), truth["fy"].get<double>(), 0.02 * fx);
  EXPECT_NEAR(k(0, 2), truth["cx"].get<double>(), 12.0);
  EXPECT_NEAR(k(1, 2), truth["cy"].get<double>(), 12.0);
  EXPECT_LT(r->rms_px, 1.0);
  // The renderer has no lens distortion.
  EXPECT_LT(std::abs(r->intrinsics.dist_coeffs.at<double>(0)), 0.05);
}

TEST(CameraCalibration, WrongBoardSpecIsAnErrorAndAutoPicksTheRightOne) {
  // The synthetic views show the A4 board; calibrating them as the A3 board cannot fit.
  const auto wrong = calibrate_camera(distorted_frames(), vision::charuco_spec_for("a3"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().find("wrong --board"), std::string::npos) << wrong.error();
  vision::CharucoSpec used;
  const auto r = calibrate_camera_any(distorted_frames(), known_charuco_specs(), {}, &used);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(used.squares_x, 7);
  EXPECT_LT(r->rms_px, 0.5);
}

TEST(CharucoSpecFile, ReadsTheBoardFileAndRejectsNonsense) {
  const auto s = charuco_spec_from_json_text(vision::charuco_json_text(vision::charuco_spec_for("a3")));
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->squares_x, 10);
  EXPECT_EQ(s->squares_y, 14);
  EXPECT_DOUBLE_EQ(s->square_mm, 27.0);
  EXPECT_FALSE(charuco_spec_from_json_text("[1]").ok());
  EXPECT_FALSE(charuco_spec_from_json_text(R"({"squares_x": 2})").ok());
  EXPECT_FALSE(charuco_spec_from_json_text(R"({"marker_mm": 30})").ok());
  EXPECT_FALSE(charuco_spec_from_json_text(R"({"dictionary": "DICT_9X9"})").ok());
  EXPECT_FALSE(charuco_spec_from_json_text(R"({"format": "hexdice-board"})").ok());
}

}  // namespace
}  // namespace hexdice::calibration
