// The learned part of the sheet-free dice finder (dice.h): a random forest
// (cv::ml::RTrees) over rotation-invariant ring features of a square grey patch centred
// on a die candidate. Seven classes: 0 = not a die (background, a side
// face, a patch off the die's centre), 1..6 = the upward face. Trained by
// train_dice_model() on the real labelled photos (hexdice dice-train); the shipped model
// is data/dice_model.yml.gz.
#pragma once

#include <array>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "core/result.h"

namespace hexdice::vision {

// Patch geometry, fixed (the model is trained for it).
constexpr int kDiePatch = 32;          // patch side in pixels
constexpr float kDiePatchPad = 1.25f;  // the patch covers the candidate side times this

// Grey patch (kDiePatch square, CV_8U) centred on `centre` of `gray`, covering
// side * kDiePatchPad, rotated by `angle_deg` (0 = upright). Borders replicate.
cv::Mat die_patch(const cv::Mat& gray, cv::Point2f centre, float side, float angle_deg = 0);
// Feature vector (1 x N, CV_32F) of a patch made by die_patch.
cv::Mat die_features(const cv::Mat& patch);

class DiceClassifier {
 public:
  static Result<std::shared_ptr<const DiceClassifier>> load(const std::string& path);
  // Class scores (index 0 = not a die, 1..6 = face): fractions of the trees voting, for the
  // patch and up to its three quarter turns averaged (`turns`: 1..4; pip layouts are
  // symmetric under them and the features nearly invariant, so 1 scores about the same).
  std::array<float, 7> scores(const cv::Mat& gray, cv::Point2f centre, float side, int turns = 4) const;
  std::array<float, 7> scores_of_features(const cv::Mat& rows) const;  // rows: N x F, averaged

  struct Impl;
  std::shared_ptr<Impl> impl;
};

// Where the shipped model lives: $HEXDICE_DICE_MODEL if set, else data/dice_model.yml.gz
// of the source tree this binary was built from.
std::string default_dice_model_path();

}  // namespace hexdice::vision
