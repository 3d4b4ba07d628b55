#include "vision/dice_classifier.h"
#include "vision/patch_region.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>
#include <opencv2/objdetect.hpp>

#ifndef HEXDICE_DICE_MODEL_DEFAULT
#define HEXDICE_DICE_MODEL_DEFAULT "data/dice_model.yml.gz"
#endif

namespace hexdice::vision {

struct DiceClassifier::Impl {
  cv::Ptr<cv::ml::RTrees> forest;
};

cv::Mat die_patch(const cv::Mat& gray, cv::Point2f centre, float side, float angle_deg) {
  const float span = std::max(2.0f, side * kDiePatchPad);
  return warp_patch_region(cut_patch_region(gray, centre, span, kDiePatch), span, kDiePatch, angle_deg);
}

cv::Mat die_features(const cv::Mat& patch) {
  // Rotation-invariant: the patch as deviation from its median grey (pips stand out
  // whatever their polarity), sampled on rings around the centre; per ring the
  // magnitudes of the angular Fourier harmonics 0..kHarm (a turn of the die only shifts
  // the phase). Plus per-ring mean of the signed deviation (polarity of the centre).
  constexpr int kRings = 12, kAngles = 32, kHarm = 8;
  // Sample directions and harmonic weights, computed once (the same values as computing
  // them in the loop: the features, and so the trained forests, are unchanged).
  struct Tables {
    std::vector<float> ring_cos, ring_sin;  // per angle t
    std::vector<double> cos_kt, sin_kt;     // per (k, t)
    Tables() {
      for (int t = 0; t < kAngles; ++t) {
        const float ang = static_cast<float>(2 * CV_PI * t / kAngles);
        ring_cos.push_back(std::cos(ang));
        ring_sin.push_back(std::sin(ang));
      }
      for (int k = 0; k <= kHarm; ++k)
        for (int t = 0; t < kAngles; ++t) {
          const double ang = 2 * CV_PI * k * t / kAngles;
          cos_kt.push_back(std::cos(ang));
          sin_kt.push_back(std::sin(ang));
        }
    }
  };
  static const Tables tab;
  cv::Mat f32;
  patch.convertTo(f32, CV_32F);
  std::vector<float> v(f32.begin<float>(), f32.end<float>());
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  const float med = v[v.size() / 2];
  cv::Mat dev = f32 - med;
  cv::Scalar mean, sd;
  cv::meanStdDev(cv::abs(dev), mean, sd);
  const float norm = 1.0f / std::max(4.0f, static_cast<float>(mean[0] + sd[0]));
  cv::Mat feat(1, kRings * (kHarm + 2), CV_32F);
  const float c = (kDiePatch - 1) / 2.0f;
  for (int r = 0; r < kRings; ++r) {
    const float rad = (r + 0.5f) * (kDiePatch / 2.0f) / kRings;
    std::vector<float> ring(kAngles);
    float signed_sum = 0;
    for (int t = 0; t < kAngles; ++t) {
      const float x = c + rad * tab.ring_cos[static_cast<std::size_t>(t)], y = c + rad * tab.ring_sin[static_cast<std::size_t>(t)];
      const int x0 = std::clamp(static_cast<int>(x), 0, kDiePatch - 2), y0 = std::clamp(static_cast<int>(y), 0, kDiePatch - 2);
      const float fx = x - x0, fy = y - y0;
      const float val = (1 - fy) * ((1 - fx) * dev.at<float>(y0, x0) + fx * dev.at<float>(y0, x0 + 1)) +
                        fy * ((1 - fx) * dev.at<float>(y0 + 1, x0) + fx * dev.at<float>(y0 + 1, x0 + 1));
      ring[static_cast<std::size_t>(t)] = std::abs(val) * norm;
      signed_sum += val * norm;
    }
    for (int k = 0; k <= kHarm; ++k) {
      double re = 0, im = 0;
      const std::size_t row = static_cast<std::size_t>(k) * kAngles;
      for (int t = 0; t < kAngles; ++t) {
        re += ring[static_cast<std::size_t>(t)] * tab.cos_kt[row + static_cast<std::size_t>(t)];
        im += ring[static_cast<std::size_t>(t)] * tab.sin_kt[row + static_cast<std::size_t>(t)];
      }
      feat.at<float>(0, r * (kHarm + 2) + k) = static_cast<float>(std::sqrt(re * re + im * im) / kAngles);
    }
    feat.at<float>(0, r * (kHarm + 2) + kHarm + 1) = signed_sum / kAngles;
  }
  return feat;
}

Result<std::shared_ptr<const DiceClassifier>> DiceClassifier::load(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const DiceClassifier>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Error{"dice model not found: " + path};
  auto c = std::make_shared<DiceClassifier>();
  c->impl = std::make_shared<Impl>();
  try {
    c->impl->forest = cv::ml::RTrees::load(path);
  } catch (const cv::Exception& e) {
    return Error{"cannot load dice model " + path + ": " + e.what()};
  }
  if (!c->impl->forest || !c->impl->forest->isTrained() || c->impl->forest->getVarCount() != die_features(cv::Mat(kDiePatch, kDiePatch, CV_8U, cv::Scalar(0))).cols)
    return Error{"cannot load dice model " + path + " (not a dice forest of this version)"};
  std::shared_ptr<const DiceClassifier> out = c;
  cache[path] = out;
  return out;
}

std::array<float, 7> DiceClassifier::scores_of_features(const cv::Mat& rows) const {
  // Votes per class (first row of getVotes holds the class labels), as fractions of
  // the trees, averaged over the rows.
  std::array<float, 7> s{};
  cv::Mat votes;
  impl->forest->getVotes(rows, votes, 0);
  const int trees = std::max(1, static_cast<int>(impl->forest->getRoots().size()));
  for (int col = 0; col < votes.cols; ++col) {
    const int cls = votes.at<int>(0, col);
    if (cls < 0 || cls > 6) continue;
    for (int r = 1; r < votes.rows; ++r)
      s[static_cast<std::size_t>(cls)] += static_cast<float>(votes.at<int>(r, col)) / static_cast<float>(trees * (votes.rows - 1));
  }
  return s;
}

std::array<float, 7> DiceClassifier::scores(const cv::Mat& gray, cv::Point2f centre, float side, int turns) const {
  const cv::Mat patch = die_patch(gray, centre, side, 0);
  cv::Mat rows;
  cv::Mat p = patch;
  turns = std::clamp(turns, 1, 4);
  for (int turn = 0; turn < turns; ++turn) {
    rows.push_back(die_features(p));
    if (turn + 1 < turns) cv::rotate(p, p, cv::ROTATE_90_CLOCKWISE);
  }
  return scores_of_features(rows);
}

std::string default_dice_model_path() {
  if (const char* e = std::getenv("HEXDICE_DICE_MODEL"); e && *e) return e;
  return HEXDICE_DICE_MODEL_DEFAULT;
}

}  // namespace hexdice::vision
