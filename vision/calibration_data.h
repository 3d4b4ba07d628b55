// What the reader takes from calibration (camera intrinsics, colour samples). Filled by
// the calibration step (a later issue) or left empty: every field is optional and the
// reader falls back to documented estimates (register.h: focal length from the
// homography; read.h: built-in colour prototypes white-balanced on the sheet's paper).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace hexdice::vision {

struct CameraIntrinsics {
  cv::Matx33d camera_matrix = cv::Matx33d::eye();  // fx 0 cx; 0 fy cy; 0 0 1 (pixels)
  cv::Mat dist_coeffs;                             // OpenCV order k1 k2 p1 p2 [k3...]; empty = none
  cv::Size image_size;                             // size the intrinsics were measured at (0 = any)
};

// One colour the referee knows, as seen on white-balanced images: mean BGR of a die's
// top face divided by the paper white (so 1.0 = paper white), per channel.
struct ColorSample {
  std::string name;   // "red", "blue", ... or a player's calibrated colour name
  cv::Vec3f bgr_rel;  // relative to paper white, 0..~1.2
};

struct CalibrationData {
  std::optional<CameraIntrinsics> camera;
  std::vector<ColorSample> colors;  // empty = the built-in six colours
};

}  // namespace hexdice::vision
