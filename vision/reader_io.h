// File helpers of the reader: images that may be missing, empty or corrupt (never a
// crash: a Result with one clear message), the calibration file, scene labels.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "core/hex.h"
#include "core/result.h"
#include "vision/calibration_data.h"

namespace hexdice::vision {

// Decodes an image (BGR). Errors: unreadable file, empty file, undecodable bytes.
Result<cv::Mat> load_image(const std::string& path);
Result<cv::Mat> decode_image(const std::vector<unsigned char>& bytes);

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
