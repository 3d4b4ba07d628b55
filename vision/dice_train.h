// The real labelled dice photos (shared/data/real-dice: labels.csv + images/) and the
// trainer of the dice classifier (dice_classifier.h) on them: `hexdice dice-train`.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "core/result.h"
#include "vision/dice.h"

namespace hexdice::vision {

struct RealLabel {
  cv::Rect box;  // image pixels
  int face = 0;
  bool top_face = false;  // box_kind "top_face" (the box frames the upward face only), else the whole die
};

struct RealImage {
  std::string name;    // file name inside images/
  std::string path;    // full path
  std::string source;  // "byler", "penlington", ... (file-name prefix before '_')
  std::vector<RealLabel> labels;
};

// Reads labels.csv (a directory holding it + images/, or the CSV itself) and keeps the
// images of `split`: all | even | odd (images sorted by name, alternating from 0), or
// even-fit | even-val: the even images without / only every fourth one (model selection
// inside even, odd untouched).
Result<std::vector<RealImage>> load_real_images(const std::string& dir_or_csv, const std::string& split);

// The trainers' pass over the photos (both trainers, forest and network): each photo loaded
// (load_image, img) and brought to the finder's working size (dice_work_image with params,
// work; scale: work px per photo px), then given to visit; a photo without a working image is
// skipped. count: the photos visited (logged every 50). Stops at the first error, loading's
// or visit's.
using WorkImageVisit = std::function<Status(const RealImage& im, const cv::Mat& img, const cv::Mat& work, double scale)>;
Status for_each_work_image(const std::vector<RealImage>& photos, const DiceParams& params, std::ostream* log, int& count,
                           const WorkImageVisit& visit);

struct DiceTrainArgs {
  std::string real;           // as load_real_images
  std::string split = "all";  // train on these images
  std::string out;            // model file (.yml.gz)
  int trees = 40;             // trees of the random forest
  int max_depth = 14;         // their maximum depth
  int augment = 2;            // extra jittered/rotated copies of each positive patch
  int negatives_per_image = 25;
  unsigned seed = 1;
  DiceParams params;  // candidate generation (must match the finder's)
};

struct DiceTrainReport {
  int images = 0, positives = 0, negatives = 0, labels = 0, labels_with_candidate = 0;
  double train_accuracy = 0;  // on the (augmented) training patches
};

// Deterministic for given arguments (fixed seed, single-threaded training).
Result<DiceTrainReport> train_dice_model(const DiceTrainArgs& args, std::ostream* log);

}  // namespace hexdice::vision
