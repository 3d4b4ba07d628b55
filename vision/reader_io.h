// File helpers of the reader: images that may be missing, empty or corrupt (never a
// crash: a Result with one clear message), the calibration file, scene labels.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "core/hex.h"
#include "core/result.h"
#include "vision/calibration_data.h"

namespace hexdice::vision {

// Decodes an image (BGR). Errors: unreadable file, empty file, undecodable bytes, a PNG or
// JPEG cut short, and a PNG or JPEG header declaring no pixels or more than kMaxImagePixels
// (checked before decoding: libjpeg fills a frame its data does not cover with grey).
inline constexpr std::uint64_t kMaxImagePixels = 200'000'000;
// `warning` (when given): "PATH: " and decode_image's warning on a picture read whole, "" when
// none (the command line prints it as one `hexdice: warning:` line; robust21).
Result<cv::Mat> load_image(const std::string& path, std::string* warning = nullptr);
// Where a caller that loads many files hands each file's warning (load_image's, "PATH: ..."):
// the command line prints it as one `hexdice: warning:` line and goes on (robust22); empty:
// the warning is dropped.
using WarningSink = std::function<void(const std::string&)>;
// load_image, its warning (if any) handed to `warn`.
Result<cv::Mat> load_image(const std::string& path, const WarningSink& warn);
// `warning` (when given): the decoder's first warning on a picture it read whole (libpng's
// "iCCP: known incorrect sRGB profile"), "" when none; nothing is printed (robust21).
Result<cv::Mat> decode_image(const std::vector<unsigned char>& bytes, std::string* warning = nullptr);
// load_image for what reads the dice's colours (`hexdice read`, `dice`, `board-read`,
// `calibrate colors`): also refuses a grey image (every pixel's three channels equal, as a
// grey PNG or JPEG decodes), whose yellow dice the reader would report as white (robust18).
Result<cv::Mat> load_colour_image(const std::string& path, std::string* warning = nullptr);
// Whether any pixel of a CV_8UC3 (or CV_8UC4: its first three) image has channels that
// differ (false for other types).
bool has_colour(const cv::Mat& bgr);
// Why a camera frame cannot be read for its dice (empty when it can): no pixels, not 8 bits
// a channel, one channel (a grey camera mode), or three/four channels none of whose pixels
// has any colour. read_board converts a grey frame and reads it (a yellow die as a sure
// white one, robust18): the live loop (companion FrameReader) asks this first and never
// reads such a frame (robust20).
std::string frame_unusable(const cv::Mat& frame);

// Calibration JSON: {"camera_matrix": [9 numbers], "dist_coeffs": [...], "image_size": [w, h],
// "colors": [{"name": "red", "bgr_rel": [b, g, r]}]}; every key optional.
Result<CalibrationData> calibration_from_json_text(const std::string& text);

// One die of a labelled scene. Accepted label files (JSON): an observation
// ({"board_found", "cells": [...]}) or {"dice": [...]}; each entry q, r, color, face, guard.
// A separate entry with guard=true in a cell that also has a unit is the token itself.
struct TruthCell {
  Hex hex;
  std::string color;
  int face = 0;
  bool guard = false;
  // Rendered labels (scene_gen.py round 14 on): how many of the top's nine pip places the
  // hand hides, its centre clear (0 when the label does not say).
  int pip_lattice_hidden = 0;
};
struct SceneTruth {
  bool board_found = true;
  std::vector<TruthCell> cells;  // one per occupied cell (unit), guard folded in
};
Result<SceneTruth> scene_truth_from_json(const nlohmann::json& j);

}  // namespace hexdice::vision
