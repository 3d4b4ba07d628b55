// Synthetic views of the ChArUco board with known intrinsics and lens distortion:
// the board drawn by cv::aruco, each output pixel undistorted (cv::undistortPoints) and
// mapped through the plane homography K [r1 r2 t] back onto the drawing (cv::remap).
#pragma once

#include <cmath>
#include <vector>

#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/sheet_render.h"

namespace hexdice::testing {

struct SynthCameraTruth {
  cv::Size size{960, 540};
  cv::Matx33d k{780, 0, 483.5, 0, 776, 266.0, 0, 0, 1};
  std::vector<double> dist{-0.21, 0.07, 0.0012, -0.0008, 0.0};  // k1 k2 p1 p2 k3
};

struct BoardPose {
  double ax_deg, ay_deg, az_deg;  // board rotation about the camera's x, y, z axes
  double tx_mm, ty_mm, z_mm;      // board centre in camera coordinates
};

// The board drawing at `ppm` pixels per mm with a white margin of `margin_mm`.
inline cv::Mat board_drawing(const vision::CharucoSpec& spec, double ppm, double margin_mm) {
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_5X5_100);
  auto board = cv::aruco::CharucoBoard::create(spec.squares_x, spec.squares_y, static_cast<float>(spec.square_mm),
                                               static_cast<float>(spec.marker_mm), dict);
  cv::Mat b;
  board->draw(cv::Size(cvRound(spec.squares_x * spec.square_mm * ppm), cvRound(spec.squares_y * spec.square_mm * ppm)), b, 0, 1);
  const int m = cvRound(margin_mm * ppm);
  cv::copyMakeBorder(b, b, m, m, m, m, cv::BORDER_CONSTANT, cv::Scalar(255));
  cv::GaussianBlur(b, b, cv::Size(0, 0), 0.6);
  return b;
}

inline cv::Matx33d rotation(double ax, double ay, double az) {
  const double a = ax * CV_PI / 180, b = ay * CV_PI / 180, c = az * CV_PI / 180;
  const cv::Matx33d rx(1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a));
  const cv::Matx33d ry(std::cos(b), 0, std::sin(b), 0, 1, 0, -std::sin(b), 0, std::cos(b));
  const cv::Matx33d rz(std::cos(c), -std::sin(c), 0, std::sin(c), std::cos(c), 0, 0, 0, 1);
  return rz * ry * rx;
}

// One grey view (as BGR) of the board at `pose` through the truth camera.
inline cv::Mat render_view(const cv::Mat& drawing, const vision::CharucoSpec& spec, double ppm, double margin_mm,
                           const SynthCameraTruth& cam, const BoardPose& pose) {
  const double w = spec.squares_x * spec.square_mm, h = spec.squares_y * spec.square_mm;
  const cv::Matx33d r = rotation(pose.ax_deg, pose.ay_deg, pose.az_deg);
  // Board mm (x, y, 0), centred -> camera: R (p - c) + t. Homography board mm -> undistorted px.
  const cv::Vec3d t(pose.tx_mm, pose.ty_mm, pose.z_mm);
  const cv::Vec3d c(w / 2, h / 2, 0);
  const cv::Vec3d t0 = t - r * c;
  const cv::Matx33d rt(r(0, 0), r(0, 1), t0[0], r(1, 0), r(1, 1), t0[1], r(2, 0), r(2, 1), t0[2]);
  const cv::Matx33d h_mm_to_px = cam.k * rt;
  // Undistorted px -> drawing px.
  const cv::Matx33d mm_to_draw(ppm, 0, margin_mm * ppm, 0, ppm, margin_mm * ppm, 0, 0, 1);
  const cv::Matx33d px_to_draw = mm_to_draw * h_mm_to_px.inv();
  std::vector<cv::Point2f> pts;
  pts.reserve(static_cast<std::size_t>(cam.size.area()));
  for (int y = 0; y < cam.size.height; ++y)
    for (int x = 0; x < cam.size.width; ++x) pts.emplace_back(static_cast<float>(x), static_cast<float>(y));
  std::vector<cv::Point2f> und;
  cv::undistortPoints(pts, und, cam.k, cam.dist, cv::noArray(), cam.k);
  cv::Mat mx(cam.size, CV_32F), my(cam.size, CV_32F);
  for (int y = 0, i = 0; y < cam.size.height; ++y)
    for (int x = 0; x < cam.size.width; ++x, ++i) {
      const cv::Vec3d q = px_to_draw * cv::Vec3d(und[static_cast<std::size_t>(i)].x, und[static_cast<std::size_t>(i)].y, 1);
      mx.at<float>(y, x) = static_cast<float>(q[0] / q[2]);
      my.at<float>(y, x) = static_cast<float>(q[1] / q[2]);
    }
  cv::Mat out;
  cv::remap(drawing, out, mx, my, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(70));
  cv::cvtColor(out, out, cv::COLOR_GRAY2BGR);
  return out;
}

// A spread of poses: tilted both ways, the board near each corner of the frame.
inline std::vector<BoardPose> standard_poses() {
  return {{0, 0, 0, 0, 0, 520},         {25, 0, 5, -60, -30, 560},   {-25, 0, -8, 60, 30, 560},
          {0, 28, 90, 110, 40, 600},    {0, -28, 85, -110, -40, 600}, {20, 20, 10, 150, -70, 650},
          {-20, -22, -12, -150, 70, 650}, {18, -18, 95, 160, 80, 620}, {-18, 20, 80, -160, -80, 620},
          {30, 10, 180, 0, -90, 640},   {-30, -10, 175, 0, 90, 640},  {10, 30, -90, 40, 0, 500}};
}

}  // namespace hexdice::testing
