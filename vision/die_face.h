// Reading one die's top face: its pips, its count checked against the standard pip
// layouts, and its body colour. Shared by the board reader (read.h) and the sheet-free
// dice finder (dice.h). Const functions, no drawing.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/calibration_data.h"

namespace hexdice::vision {

struct FaceParams {
  // Expected pip diameter as a fraction of the top face's side (standard dice ~0.18).
  double pip_diameter = 0.18;
  // Pip components are accepted between these multiples of the expected pip area.
  double pip_area_min = 0.25;
  double pip_area_max = 3.0;
  // Fraction of the crop, on each side, ignored for pips (edges, bevels, side faces).
  double border = 0.06;
  // Pips are looked for within this radius of the crop centre (fraction of its side).
  double pip_disc = 0.47;
  // Minimum contrast (BGR distance) between pips and the body for any pip to count.
  double min_contrast = 30.0;
  // Layout fit: mean pip distance from the standard layout (in face-side units) that
  // halves the confidence.
  double fit_scale = 0.08;
  // Also read pips as difference-of-Gaussian peaks; keep whichever reading fits a
  // standard layout better.
  bool use_peaks = true;
};

struct FaceReading {
  int face = 0;               // 1..6, 0 = unreadable
  double confidence = 0;      // 0..1: layout fit x contrast
  cv::Vec3f body_bgr{0, 0, 0};  // median body colour (pips excluded)
  std::vector<cv::Point2f> pips;  // pip centres in crop pixels
};

// Reads a square crop (BGR) showing one top face, the face roughly filling it (any
// rotation). Tries both pip polarities and a few thresholds; keeps the reading whose
// pips fit a standard layout best.
FaceReading read_face(const cv::Mat& crop_bgr, const FaceParams& params = {});

// The standard layout of `face` (1..6) in face-side units, centre (0,0), pips on a
// 3x3 grid at +-0.27; `variant` 1 gives the other diagonal / the 90 degree turn.
std::vector<cv::Point2f> pip_layout(int face, int variant = 0);
// Mean distance (face-side units) between pips and the best-rotated standard layout of
// their count, pips given in crop pixels for a face of `side` pixels. Large = no fit.
double layout_fit(const std::vector<cv::Point2f>& pips, double side);

// Colour naming. `bgr_rel` is the body colour divided by the paper/background white.
// Uses calibrated samples when given, else the six built-in colours.
std::string name_color(cv::Vec3f bgr_rel, const std::vector<ColorSample>& samples = {});

}  // namespace hexdice::vision
