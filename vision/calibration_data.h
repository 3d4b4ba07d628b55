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

// Where a calibration came from (added by the calibration library, issue 3; all
// optional: a file without it is "version 0", accepted with a NoMetadata note).
struct CalibrationMeta {
  int version = 0;                 // file format version (0 = no metadata)
  std::string created_utc;         // ISO 8601 UTC, newest part
  std::string camera_created_utc;  // when the intrinsics were measured
  std::string camera_source;       // "frames:DIR", "camera:0", ...
  double camera_rms_px = 0;        // reprojection RMS of the intrinsics
  int camera_frames = 0;           // frames used
  std::string colors_created_utc;  // when the colours were sampled
  std::string colors_source;       // image they were sampled from
  std::string layout_hash;         // sheet the colours were sampled on (calibration::layout_hash)
  cv::Size colors_image_size;      // frame size of that image
};

struct CalibrationData {
  std::optional<CameraIntrinsics> camera;
  std::vector<ColorSample> colors;  // empty = the built-in six colours
  CalibrationMeta meta;             // added: provenance for staleness checks
};

}  // namespace hexdice::vision
