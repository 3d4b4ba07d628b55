// Dice anywhere in an image, no sheet needed (the army roll in a tray, loose dice on a
// table): per die a box in image pixels, the face read from its pips, its colour.
// Classic CV: background model by a coarse median, colour/contrast foreground, blobs
// of die size (touching dice split by distance-transform peaks), pips counted per die
// by die_face.h and checked against the standard layouts.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "core/result.h"
#include "vision/die_face.h"

namespace hexdice::vision {

struct DiceParams {
  FaceParams face;
  // Images are analysed with the long side scaled to this many pixels (boxes are
  // reported in the original pixels).
  int work_side = 640;
  // Background: median of the image shrunk by this factor (a die is much smaller).
  int bg_shrink = 16;
  int bg_median = 5;
  // Foreground: BGR distance from the background above this.
  double fg_distance = 42.0;
  // Die side limits as fractions of the working image's long side.
  double min_side = 0.025;
  double max_side = 0.2;
  // The upright face crop is the die blob's rotated rectangle times this (side faces out).
  double face_shrink = 0.9;
  // Keep dice whose face reading confidence is at least this (0 = keep all).
  double min_confidence = 0.0;
};

struct DieDetection {
  cv::Rect box;  // image pixels
  int face = 0;  // 1..6
  std::string color;
  double confidence = 0;
};

std::vector<DieDetection> find_dice(const cv::Mat& image_bgr, const DiceParams& params = {});

// interfaces.md: [{"x0","y0","x1","y1","face","color","confidence"}].
nlohmann::json to_json(const std::vector<DieDetection>& dice);

}  // namespace hexdice::vision
