// A small convolutional network that reads the upward face of a die from a colour patch
// (the learned face reader of `hexdice dice`, beside the lattice pip reader and the random
// forest of dice_classifier.h). Written here, forward and backward (no framework):
//   patch 32x32 BGR (CnnArch::patch: any multiple of 8), per-patch normalised (each channel minus its mean, all over one std)
//   conv3x3(3->c1)+ReLU+maxpool2 -> conv3x3(c1->c2)+ReLU+maxpool2 -> conv3x3(c2->c3)+ReLU+
//   maxpool2 -> dense(c3*16 -> hidden)+ReLU -> dense(hidden -> 7) -> softmax.
// Seven classes as the forest: 0 = not a die, 1..6 = the face. Trained by train_dice_cnn()
// (`hexdice dice-train --cnn`) with Adam on cross-entropy, single-threaded and seeded
// (deterministic); the shipped model is data/dice_cnn.yml.gz (docs/dice.md).
#pragma once

#include <array>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "core/result.h"
#include "vision/dice.h"

namespace hexdice::vision {

constexpr int kCnnPatch = 32;     // default patch side in pixels (CnnArch::patch)
constexpr float kCnnPad = 1.3f;   // the patch covers the die's side times this
// A "top_face" label box (penlington) frames the upward face only; the network is
// trained on boxes like the finder's (about the top face plus a little), so such a
// box's side is taken times this (a "die" box as it is).
constexpr float kCnnTopFaceScale = 1.15f;

// Colour patch (size x size, CV_8UC3) centred on `centre` of `bgr`, covering
// side * kCnnPad, turned by angle_deg, mirrored first when `flip`. Borders replicate.
cv::Mat cnn_patch(const cv::Mat& bgr, cv::Point2f centre, float side, float angle_deg = 0, bool flip = false,
                  int size = kCnnPatch);

struct CnnArch {
  int c1 = 16, c2 = 32, c3 = 32;  // channels of the three conv layers
  int hidden = 64;                // units of the hidden dense layer
  int classes = 7;                // 0 = not a die, 1..6
  int patch = kCnnPatch;          // input side in pixels, a multiple of 8 (16..96): the dense
                                  // layer sees c3 x (patch/8)^2
  bool operator==(const CnnArch&) const = default;
};

class DiceCnn {
 public:
  explicit DiceCnn(const CnnArch& arch = {}, unsigned seed = 1);  // He-initialised weights

  // Cached by path. "A,B,..." (comma-separated files) loads an ensemble: scores() averages
  // the networks' probabilities, each reading its own patch. A file may hold an ensemble
  // (save() of one: "members" n, then each other network's keys prefixed "m1_", "m2_"...).
  static Result<std::shared_ptr<const DiceCnn>> load(const std::string& path);
  // The networks as one ensemble (copies; the first's weights are the object's own).
  static std::shared_ptr<const DiceCnn> ensemble(const std::vector<std::shared_ptr<const DiceCnn>>& nets);
  // cv::FileStorage (.yml.gz). half: the weights as float16 (half the file; the scores
  // move by the rounding, ~1e-3 relative), else float32 (bit-exact). An ensemble's
  // members are written with it.
  Status save(const std::string& path, bool half = false) const;

  // Class probabilities (softmax) of the patch cut round the die, averaged over `views`
  // dihedral views of the patch (1..8: identity, three quarter turns, then mirrored), and
  // over the ensemble's networks if there are more (members()).
  std::array<float, 7> scores(const cv::Mat& bgr, cv::Point2f centre, float side, int views = 1) const;
  // This network alone (not its ensemble members).
  std::array<float, 7> scores_of_patch(const cv::Mat& patch_bgr, int views = 1) const;

  const CnnArch& arch() const { return arch_; }
  // The other networks of an ensemble (load("A,B")): empty for one network.
  const std::vector<std::shared_ptr<const DiceCnn>>& members() const { return members_; }
  std::size_t num_params() const { return p_.size(); }

  // Training interface (train_dice_cnn, tests).
  // The network input of a patch (CV_8UC3 square, arch().patch wide): 3 x side x side
  // floats, CHW.
  static void normalise(const cv::Mat& patch_bgr, float* out);
  int input_size() const { return 3 * arch_.patch * arch_.patch; }
  // Forward and backward of one sample (input as normalise gives): returns the
  // cross-entropy loss and adds d loss / d params into `grad` (num_params() floats);
  // probs (classes floats) receives the softmax if non-null.
  float loss_and_grad(const float* input, int cls, std::vector<float>& grad, float* probs = nullptr) const;
  // Forward only.
  void forward(const float* input, float* probs) const;
  std::vector<float>& params() { return p_; }
  const std::vector<float>& params() const { return p_; }

 private:
  struct Work;
  void run(const float* input, Work& w) const;
  CnnArch arch_;
  std::vector<std::shared_ptr<const DiceCnn>> members_;
  std::vector<float> p_;  // all weights and biases, flat (layer offsets in off_)
  struct Offsets {
    std::size_t w1, b1, w2, b2, w3, b3, w4, b4, w5, b5, end;
  } off_{};
  void layout();
};

// Adam (b1 0.9, b2 0.999) with L2 weight decay: one step of `net` along `grad` (sums over
// a minibatch; `scale` = 1 / its size).
struct CnnAdam {
  std::vector<float> m, v;
  long step = 0;
  void update(DiceCnn& net, const std::vector<float>& grad, float scale, double lr, double weight_decay);
};

// Where the shipped network lives: $HEXDICE_DICE_CNN if set, else data/dice_cnn.yml.gz of
// the source tree this binary was built from.
std::string default_dice_cnn_path();

struct DiceCnnTrainArgs {
  std::string real;           // as load_real_images
  std::string split = "all";  // train on these images (all | even | odd | even-fit | even-val)
  std::string val_split;      // if set, report face accuracy on these images' labelled boxes per epoch
  std::string out;            // model file (.yml.gz)
  // The finder's own boxes as extra positives: find_dice with this forest model on the
  // training images, each detection matched to a label a training patch ("" = none).
  std::string detector_model;
  int epochs = 30;
  int batch = 32;
  double lr = 0.002;          // Adam step, cosine-decayed to lr/20 over the epochs
  double weight_decay = 1e-4;
  int negatives_per_image = 4;  // finder candidates far from every label, class 0
  int copies = 1;             // augmented copies of each positive per epoch
  bool half = false;          // write the weights as float16 (DiceCnn::save)
  // Start from this network's weights (its architecture replaces `arch`; "" = He init):
  // a longer run of a trained network at the cost of the extra epochs only.
  std::string init;
  // Stronger augmentation: scale x0.75..1.3 and shift +-15% (not 0.85..1.18, +-10%), a
  // colour jitter (per-channel gain 0.8..1.25, hue +-12 degrees, saturation x0.6..1.4), blur
  // more often and wider, and synthetic glints (1..3 white spots or arcs on the die, the
  // ring light's on glossy dice). Off: the round 11 augmentation, draw for draw.
  bool strong_aug = false;
  // Hard examples: a finder box (detector_model) whose face find_dice read wrong (with the
  // shipped network fused, or without it: pips and forest) is seen this many times as
  // often per epoch (1 = as the others).
  int hard_weight = 1;
  // Per-source weight: "SOURCE=N[,SOURCE=N]" (e.g. "byler=2"): the dice of the photos of
  // that source (RealImage::source) are seen N times as often per epoch (their copies x N;
  // "" = every source alike, draw for draw as before).
  std::string source_weight;
  unsigned seed = 1;
  CnnArch arch;
  DiceParams params;  // candidate generation (must match the finder's)
};

struct DiceCnnTrainReport {
  int images = 0, positives = 0, negatives = 0, detector_positives = 0, hard_positives = 0;
  double train_accuracy = 0;  // last epoch, augmented patches
  double val_face_accuracy = -1;  // last epoch, at the val images' labelled boxes (-1: none)
  int best_epoch = 0;
  double best_val = -1;
};

Result<DiceCnnTrainReport> train_dice_cnn(const DiceCnnTrainArgs& args, std::ostream* log);

// How many times per epoch a training patch is seen: negatives (cls 0) once; a die `copies`
// times, x hard_weight if hard, x its source's weight in `source_weight`. An error for a
// malformed source_weight.
Result<int> cnn_sample_repeats(const DiceCnnTrainArgs& args, const std::string& source, int cls, bool hard);

}  // namespace hexdice::vision
