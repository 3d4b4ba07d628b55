// Registration: find the printed sheet from its ArUco markers and map paper millimetres
// to image pixels, on the paper plane and on the plane of the dice's top faces.
#pragma once

#include <array>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/calibration_data.h"
#include "vision/sheet.h"

namespace hexdice::vision {

struct RegisterParams {
  // At least this many of the layout's markers must be seen (any two give 8 points).
  int min_markers = 2;
  // Marker detection runs on a copy downscaled so its long side is at most this many
  // pixels (faster; corners are then refined at full resolution). 0 = never downscale.
  int detect_max_side = 640;
  // Sub-pixel corner refinement window (half size, full-resolution pixels); 0 = off.
  int subpixel_window = 4;
  // Tracker: search first in windows around the last-known markers, grown by this many
  // marker sizes on each side; the whole frame when that finds fewer than min_markers.
  double track_margin = 1.0;
  // With a tracker: markers last seen at least this many pixels on a side at the whole
  // frame's detection scale (detect_max_side) are searched at that scale in their windows
  // too, and a marker missing from the downscaled frame is taken as covered, not small
  // (no full-size search but every 8th frame in a row without them). Smaller markers: windows and the full-size search at full
  // resolution, as before. 0 = always downscale; a huge value = never (the old tracker).
  double track_min_side_px = 20.0;
  // Reject a pose whose mean marker-corner reprojection error exceeds this (pixels).
  double max_reprojection_px = 6.0;
  // Focal length when no intrinsics are given and the homography cannot tell (a view
  // almost straight down): this factor times the image's long side (~ 60 deg field).
  double fallback_focal_factor = 0.9;
  // (exact13) Below this tilt of the sheet (degrees, measured with the fallback focal) the
  // homography's focal estimate is noise and the fallback is used: on the rendered sets the
  // estimate at 0.6-3 deg tilt was 1.1-3.1 x the true focal (2.3 x at 2 deg put the dice's
  // top plane 3-12 mm off), the fallback within 0.7-1.3 x; from 6 deg it was within ~5%
  // (but for a two-marker pose). 0 = always the estimate (when it is within 0.25-6 x the
  // long side, as before).
  double focal_min_tilt_deg = 6.0;
  // (speed29) The full-size search for the markers the downscaled copy missed: when the
  // copy found at least min_markers, only windows round where those markers' homography
  // puts each missing marker, grown by this many marker sides on each side, are searched
  // (with the whole frame's thresholds in pixels), not the whole frame at full size: on a
  // rendered wood-grain table that search was ~130 M of a 273 M read (dev19 2107).
  // 0 = the whole frame, as before.
  double full_search_margin = 1.0;
};

struct SheetPose {
  bool found = false;
  cv::Matx33d paper_to_image = cv::Matx33d::eye();  // mm on the paper plane -> pixels
  cv::Matx33d top_to_image = cv::Matx33d::eye();    // mm on the plane die_height above -> pixels
  double focal_px = 0;          // given or estimated focal length
  bool focal_estimated = false;  // true when estimated from the homography
  std::vector<int> marker_ids;   // markers used
  double reprojection_px = 0;    // mean corner error of the homography
  // Image corners of the markers used (ArUco order), for the tracker and overlays.
  std::vector<std::array<cv::Point2f, 4>> marker_corners;
  // (speed29) Diagnostics: pixels of the frame searched for markers at full size (0 when
  // the downscaled copy found every marker, or the frame is not downscaled).
  long full_size_searched_px = 0;
};

// What a video loop keeps between frames. Empty = no history (a still image).
struct TrackerState {
  bool has_pose = false;
  SheetPose last;       // last good pose, reused while markers are covered
  int frames_since_seen = 0;
  bool last_used_tracking = false;  // diagnostics: did the last call find markers near the old ones?
};

// Maps a point through a homography. Inline (the reader maps ~25k points a frame): the
// products summed as cv::Matx's h * (x, y, 1) sums them (from 0, in column order), so the
// result is the same bits as that product's.
inline cv::Point2d apply_h(const cv::Matx33d& h, cv::Point2d p) {
  double v[3];
  for (int i = 0; i < 3; ++i) {
    double s = 0;
    s += h(i, 0) * p.x;
    s += h(i, 1) * p.y;
    s += h(i, 2) * 1.0;
    v[i] = s;
  }
  if (std::abs(v[2]) < 1e-12) return {1e9, 1e9};
  return {v[0] / v[2], v[1] / v[2]};
}

// (Speed round 41) The nearest of some centres to a point, as the reader's per-pixel loop finds
// it: of centres[0 .. n), the first of least squared distance ((c.x - p.x)^2 + (c.y - p.y)^2,
// strictly less than the best so far, from 1e18), `own` when none is less (nearest_loop).
// nearest(p) returns the same index, and returns `own` without the loop where p lies within
// 0.495 of the least distance r from centres[own] to another centre (squared, 4 d^2 < 0.98 r^2):
// every other centre is then at least 0.505 r away (triangle inequality), a margin of 0.01 r^2
// in the squares that no rounding reaches, so `own` is the unique nearest. (A per-pixel loop over
// a cell's six neighbours: the guard token's print test, most of whose pixels lie in the cell.)
class NearestCentre {
 public:
  NearestCentre(std::vector<cv::Point2d> centres, std::size_t own) : c_(std::move(centres)), own_(own) {
    if (own_ >= c_.size()) return;
    double r2 = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < c_.size(); ++k)
      if (k != own_) r2 = std::min(r2, sq(c_[k] - c_[own_]));
    // (No other centre: the loop's answer is own's alone, found by the loop.)
    if (std::isfinite(r2) && r2 > 1e-6) fast_r2_ = 0.98 * r2;
  }
  std::size_t nearest_loop(cv::Point2d p) const {
    std::size_t under = own_;
    double bd = 1e18;
    for (std::size_t k = 0; k < c_.size(); ++k) {
      const double ex = c_[k].x - p.x, ey = c_[k].y - p.y;
      const double dk = ex * ex + ey * ey;
      if (dk < bd) bd = dk, under = k;
    }
    return under;
  }
  std::size_t nearest(cv::Point2d p) const {
    if (fast_r2_ > 0) {
      const double ex = c_[own_].x - p.x, ey = c_[own_].y - p.y;
      if (4 * (ex * ex + ey * ey) < fast_r2_) return own_;
    }
    return nearest_loop(p);
  }

 private:
  static double sq(cv::Point2d d) { return d.x * d.x + d.y * d.y; }
  std::vector<cv::Point2d> c_;
  std::size_t own_;
  double fast_r2_ = 0;  // 0: no shortcut
};

// Finds the sheet in a BGR or grey image. const and without side effects unless a
// tracker is given; then it searches near the last markers first and updates it. When
// the markers are covered (fewer than min_markers seen) and the tracker has a pose,
// the last pose is returned (found = true) and frames_since_seen counts up.
SheetPose register_sheet(const cv::Mat& image, const SheetLayout& layout,
                         const CalibrationData* calib = nullptr,
                         const RegisterParams& params = {}, TrackerState* tracker = nullptr);

// The plane `height_mm` above the paper from a paper homography and a focal length
// (pixels; principal point at the image centre unless intrinsics are given).
cv::Matx33d lift_homography(const cv::Matx33d& paper_to_image, double height_mm,
                            const cv::Matx33d& camera_matrix);
// Focal length from a plane homography assuming square pixels, zero skew and the
// principal point `pp`; <= 0 when the view is too close to fronto-parallel to tell.
double estimate_focal(const cv::Matx33d& paper_to_image, cv::Point2d pp);
// The angle (degrees) between the paper's normal and the optical axis for the focal f.
double plane_tilt_deg(const cv::Matx33d& paper_to_image, cv::Point2d pp, double f);
// The focal length without intrinsics: estimate_focal's when it is plausible (0.25-6 x
// the long side) and the sheet is tilted at least params.focal_min_tilt_deg (measured
// with the fallback), else params.fallback_focal_factor x the long side. *estimated says
// which.
double choose_focal(const cv::Matx33d& paper_to_image, cv::Size image_size, const RegisterParams& params,
                    bool* estimated = nullptr);

}  // namespace hexdice::vision
