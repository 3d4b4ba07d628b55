// train_dice_cnn (dice_cnn.h): the face network trained on the real labelled photos.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/dice_cnn.h"
#include "vision/dice_train.h"
#include "vision/reader_io.h"

namespace hexdice::vision {

namespace {

// A training die: a wide colour crop round it (the die's side kCanonSide pixels at the
// centre of a kCanonSize square), cut once; each epoch cuts a new augmented patch of it.
constexpr int kCanonSize = 104;
constexpr float kCanonSide = 40.0f;

struct Sample {
  cv::Mat crop;  // CV_8UC3 kCanonSize square
  int cls = 0;
  bool hard = false;  // a finder box the finder read wrong
  int repeats = 1;    // cnn_sample_repeats
};

cv::Mat canon_crop(const cv::Mat& bgr, cv::Point2f c, float side) {
  // cnn_patch covers side * kCnnPad; ask for a side that makes the crop's die kCanonSide.
  const float want = side * kCanonSize / kCanonSide;
  return cnn_patch(bgr, c, want / kCnnPad, 0, false, kCanonSize);
}

class Rand {
 public:
  explicit Rand(unsigned seed) : g_(seed) {}
  double u() { return static_cast<double>(g_()) / 4294967296.0; }
  double u(double a, double b) { return a + (b - a) * u(); }
  int i(int n) { return static_cast<int>(u() * n) % n; }
  bool p(double q) { return u() < q; }
  std::mt19937& gen() { return g_; }

 private:
  std::mt19937 g_;
};

// Label-preserving changes of look: colour channel order, inversion (light pips on dark
// or dark on light), contrast/brightness/gamma, blur, lost resolution, noise, JPEG.
// Synthetic glints: 1..3 white spots or short arcs somewhere on the die (the patch's middle
// three quarters), blurred, blended over the patch (the ring light's reflection on a glossy
// die beside or over its pips).
void add_glints(cv::Mat& p, Rand& r) {
  const int n = 1 + r.i(3);
  const float side = static_cast<float>(p.cols) / kCnnPad;
  const cv::Point2f c(p.cols / 2.0f, p.rows / 2.0f);
  cv::Mat m = cv::Mat::zeros(p.size(), CV_32F);
  for (int k = 0; k < n; ++k) {
    const cv::Point2f at = c + cv::Point2f(static_cast<float>(r.u(-0.4, 0.4)) * side, static_cast<float>(r.u(-0.4, 0.4)) * side);
    const float s = static_cast<float>(r.u(0.04, 0.14)) * side;
    if (r.p(0.5)) {
      cv::ellipse(m, cv::RotatedRect(at, cv::Size2f(s * static_cast<float>(r.u(1, 2.5)), s), static_cast<float>(r.u(0, 180))), cv::Scalar(1), -1, cv::LINE_AA);
    } else {
      const double a0 = r.u(0, 360);
      cv::ellipse(m, at, cv::Size(std::max(2, static_cast<int>(s * 2.5f)), std::max(2, static_cast<int>(s * 2.5f))), 0, a0, a0 + r.u(40, 120),
                  cv::Scalar(1), std::max(1, static_cast<int>(std::lround(s * 0.6f))), cv::LINE_AA);
    }
  }
  cv::GaussianBlur(m, m, cv::Size(0, 0), r.u(0.5, 1.5));
  const float strength = static_cast<float>(r.u(0.5, 1.0));
  for (int y = 0; y < p.rows; ++y) {
    auto* row = p.ptr<cv::Vec3b>(y);
    const float* mr = m.ptr<float>(y);
    for (int x = 0; x < p.cols; ++x) {
      const float a = std::min(1.0f, mr[x] * strength);
      for (int ch = 0; ch < 3; ++ch) row[x][ch] = cv::saturate_cast<uchar>(row[x][ch] * (1 - a) + 250.0f * a);
    }
  }
}

// Colour jitter: per-channel gain, a hue turn, a saturation change.
void colour_jitter(cv::Mat& p, Rand& r) {
  if (r.p(0.5)) {
    std::vector<cv::Mat> ch;
    cv::split(p, ch);
    for (auto& c : ch) c.convertTo(c, -1, r.u(0.8, 1.25));
    cv::merge(ch, p);
  }
  if (r.p(0.5)) {
    cv::Mat hsv;
    cv::cvtColor(p, hsv, cv::COLOR_BGR2HSV);
    const int dh = static_cast<int>(std::lround(r.u(-6, 6)));  // OpenCV hue: 2 degrees a step
    const double sat = r.u(0.6, 1.4);
    for (int y = 0; y < hsv.rows; ++y) {
      auto* row = hsv.ptr<cv::Vec3b>(y);
      for (int x = 0; x < hsv.cols; ++x) {
        row[x][0] = static_cast<uchar>((row[x][0] + dh + 180) % 180);
        row[x][1] = cv::saturate_cast<uchar>(row[x][1] * sat);
      }
    }
    cv::cvtColor(hsv, p, cv::COLOR_HSV2BGR);
  }
}

void photometric(cv::Mat& p, Rand& r) {
  if (r.p(0.5)) {
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int* pm = perms[r.i(6)];
    std::vector<cv::Mat> ch;
    cv::split(p, ch);
    cv::merge(std::vector<cv::Mat>{ch[static_cast<std::size_t>(pm[0])], ch[static_cast<std::size_t>(pm[1])], ch[static_cast<std::size_t>(pm[2])]}, p);
  }
  if (r.p(0.1)) {
    cv::Mat g;
    cv::cvtColor(p, g, cv::COLOR_BGR2GRAY);
    cv::cvtColor(g, p, cv::COLOR_GRAY2BGR);
  }
  if (r.p(0.25)) cv::bitwise_not(p, p);
  {
    const double contrast = r.u(0.6, 1.4), bright = r.u(-35, 35), gamma = std::exp(r.u(-0.35, 0.35));
    cv::Mat lut(1, 256, CV_8U);
    for (int v = 0; v < 256; ++v) {
      const double g = 255.0 * std::pow(v / 255.0, gamma);
      lut.at<uchar>(v) = cv::saturate_cast<uchar>((g - 128) * contrast + 128 + bright);
    }
    cv::LUT(p, lut, p);
  }
  if (r.p(0.3)) cv::GaussianBlur(p, p, cv::Size(0, 0), r.u(0.3, 1.0));
  if (r.p(0.2)) {
    const double f = r.u(0.45, 0.8);
    cv::Mat s;
    cv::resize(p, s, cv::Size(), f, f, cv::INTER_AREA);
    cv::resize(s, p, p.size(), 0, 0, cv::INTER_LINEAR);
  }
  if (r.p(0.4)) {
    cv::Mat n(p.size(), CV_16SC3);
    const double sd = r.u(1, 7);
    short* d = n.ptr<short>();
    for (std::size_t k = 0; k < n.total() * 3; ++k) {
      // Sum of uniforms: about normal, deterministic.
      const double z = (r.u() + r.u() + r.u() - 1.5) * 2.0;
      d[k] = static_cast<short>(std::lround(z * sd));
    }
    cv::Mat q;
    p.convertTo(q, CV_16SC3);
    q += n;
    q.convertTo(p, CV_8UC3);
  }
  if (r.p(0.2)) {
    std::vector<uchar> buf;
    cv::imencode(".jpg", p, buf, {cv::IMWRITE_JPEG_QUALITY, static_cast<int>(r.u(35, 90))});
    p = cv::imdecode(buf, cv::IMREAD_COLOR);
  }
}

cv::Mat augmented(const Sample& s, Rand& r, int size, bool strong) {
  const double lo = strong ? 0.75 : 0.85, hi = strong ? 1.3 : 1.18, sh = strong ? 0.15 : 0.1;
  const float scale = static_cast<float>(std::exp(r.u(std::log(lo), std::log(hi))));
  const cv::Point2f shift(static_cast<float>(r.u(-sh, sh)) * kCanonSide, static_cast<float>(r.u(-sh, sh)) * kCanonSide);
  const cv::Point2f c(kCanonSize / 2.0f, kCanonSize / 2.0f);
  cv::Mat p = cnn_patch(s.crop, c + shift, kCanonSide * scale, static_cast<float>(r.u(0, 360)), r.p(0.5), size);
  if (strong) {
    if (s.cls > 0 && r.p(0.35)) add_glints(p, r);
    colour_jitter(p, r);
    if (r.p(0.25)) cv::GaussianBlur(p, p, cv::Size(0, 0), r.u(0.5, 1.6));
  }
  photometric(p, r);
  return p;
}

}  // namespace

Result<int> cnn_sample_repeats(const DiceCnnTrainArgs& a, const std::string& source, int cls, bool hard) {
  if (cls <= 0) return 1;
  int n = std::max(1, a.copies) * (hard ? std::max(1, a.hard_weight) : 1);
  if (a.source_weight.empty()) return n;
  std::size_t at = 0;
  while (at <= a.source_weight.size()) {  // "a=1," has an empty last item: an error
    std::size_t end = a.source_weight.find(',', at);
    if (end == std::string::npos) end = a.source_weight.size();
    const std::string item = a.source_weight.substr(at, end - at);
    const std::size_t eq = item.find('=');
    int w = 0;
    if (eq == std::string::npos || eq == 0) return Error{"--source-weight: expected SOURCE=N, got \"" + item + "\""};
    try {
      std::size_t used = 0;
      w = std::stoi(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) w = 0;
    } catch (...) {
      w = 0;
    }
    if (w < 1 || w > 100) return Error{"--source-weight: the weight of \"" + item.substr(0, eq) + "\" must be 1..100"};
    if (item.substr(0, eq) == source) n *= w;
    at = end + 1;
  }
  return n;
}

Result<DiceCnnTrainReport> train_dice_cnn(const DiceCnnTrainArgs& a, std::ostream* log) {
  if (a.out.empty()) return Error{"dice-train --cnn needs --out FILE"};
  if (auto w = cnn_sample_repeats(a, "", 1, false); !w) return Error{w.error()};
  auto images = load_real_images(a.real, a.split);
  if (!images) return Error{images.error()};
  DiceCnnTrainReport rep;
  Rand rng(a.seed);
  std::vector<Sample> samples;
  DiceParams det = a.params;
  if (!a.detector_model.empty()) {
    det.use_model = true;
    det.model_path = a.detector_model;
  }
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  const Status pass = for_each_work_image(*images, a.params, log, rep.images, [&](const RealImage& im, const cv::Mat& img,
                                                                                const cv::Mat& work, double scale) -> Status {
    std::vector<cv::Point2f> lc;
    std::vector<float> ls;
    for (const auto& l : im.labels) {
      const cv::Point2f c(static_cast<float>((l.box.x + l.box.width / 2.0) * scale), static_cast<float>((l.box.y + l.box.height / 2.0) * scale));
      const float side = static_cast<float>(std::max(l.box.width, l.box.height) * scale) * (l.top_face ? kCnnTopFaceScale : 1.0f);
      lc.push_back(c);
      ls.push_back(side);
      samples.push_back({canon_crop(work, c, side), l.face, false, *cnn_sample_repeats(a, im.source, l.face, false)});
      ++rep.positives;
    }
    if (!a.detector_model.empty()) {
      auto found = find_dice_checked(img, det);
      if (!found) return Error{found.error()};
      for (const auto& d : *found) {
        const cv::Point2f c(static_cast<float>((d.box.x + d.box.width / 2.0) * scale), static_cast<float>((d.box.y + d.box.height / 2.0) * scale));
        const float side = static_cast<float>(std::max(d.box.width, d.box.height) * scale);
        int best = -1;
        double best_d = 1e9;
        for (std::size_t l = 0; l < lc.size(); ++l) {
          const double dist = cv::norm(lc[l] - c);
          if (dist <= 0.5 * std::max(ls[l], side) && dist < best_d) best_d = dist, best = static_cast<int>(l);
        }
        if (best < 0) continue;
        const float ratio = side / ls[static_cast<std::size_t>(best)];
        if (ratio < 0.6f || ratio > 1.6f) continue;  // a box of another size than the die: no lesson
        const int face = im.labels[static_cast<std::size_t>(best)].face;
        // Hard: read wrong by the finder, or by its pips and forest alone (the network may
        // have learnt this very box: the finder's own face is then in-sample).
        const bool hard = d.face != face || d.base_face != face;
        samples.push_back({canon_crop(work, c, side), face, hard, *cnn_sample_repeats(a, im.source, face, hard)});
        ++rep.detector_positives;
        rep.hard_positives += hard;
      }
    }
    if (a.negatives_per_image > 0) {
      const auto cands = dice_candidates(work, a.params);
      std::vector<std::size_t> neg;
      for (std::size_t k = 0; k < cands.size(); ++k) {
        bool near = false;
        for (std::size_t l = 0; l < lc.size(); ++l)
          if (cv::norm(lc[l] - cands[k].centre) <= 0.6 * std::max(ls[l], cands[k].side)) near = true;
        if (!near) neg.push_back(k);
      }
      for (std::size_t i = neg.size(); i > 1; --i) std::swap(neg[i - 1], neg[static_cast<std::size_t>(rng.i(static_cast<int>(i)))]);
      if (neg.size() > static_cast<std::size_t>(a.negatives_per_image)) neg.resize(static_cast<std::size_t>(a.negatives_per_image));
      for (std::size_t k : neg) {
        samples.push_back({canon_crop(work, cands[k].centre, cands[k].side), 0});
        ++rep.negatives;
      }
    }
    return Status::Ok();
  });
  if (!pass) return Error{pass.error()};
  // Validation patches: the labelled boxes of the val images, cut as at run time.
  std::vector<cv::Mat> val_patch;
  std::vector<int> val_face;
  int val_patch_side = a.arch.patch;
  if (!a.init.empty()) {
    auto from = DiceCnn::load(a.init);
    if (!from) return Error{from.error()};
    val_patch_side = (*from)->arch().patch;
  }
  if (!a.val_split.empty()) {
    auto vims = load_real_images(a.real, a.val_split);
    if (!vims) return Error{vims.error()};
    for (const auto& im : *vims) {
      auto img = load_image(im.path);
      if (!img) return Error{img.error()};
      double scale = 1;
      const cv::Mat work = dice_work_image(*img, a.params, scale);
      for (const auto& l : im.labels) {
        const cv::Point2f c(static_cast<float>((l.box.x + l.box.width / 2.0) * scale), static_cast<float>((l.box.y + l.box.height / 2.0) * scale));
        const float side = static_cast<float>(std::max(l.box.width, l.box.height) * scale) * (l.top_face ? kCnnTopFaceScale : 1.0f);
        val_patch.push_back(cnn_patch(work, c, side, 0, false, val_patch_side));
        val_face.push_back(l.face);
      }
    }
  }
  if (rep.positives == 0) {
    cv::setNumThreads(threads);
    return Error{"no training dice"};
  }
  if (log)
    *log << "training dice: " << rep.positives << " labelled boxes, " << rep.detector_positives << " finder boxes (" << rep.hard_positives << " read wrong), "
         << rep.negatives << " negatives; val boxes " << val_patch.size() << '\n';

  DiceCnn net(a.arch, a.seed);
  if (!a.init.empty()) {
    auto from = DiceCnn::load(a.init);
    if (!from) {
      cv::setNumThreads(threads);
      return Error{from.error()};
    }
    if (!(*from)->members().empty()) {
      cv::setNumThreads(threads);
      return Error{"--init: " + a.init + " is an ensemble; start from one network"};
    }
    net = **from;
    if (log) *log << "starting from " << a.init << " (" << net.num_params() << " weights)\n";
  }
  const std::size_t np = net.num_params();
  std::vector<float> grad(np);
  CnnAdam adam;
  std::vector<float> in(static_cast<std::size_t>(net.input_size()));
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < samples.size(); ++i)
    for (int k = 0; k < samples[i].repeats; ++k) order.push_back(i);
  long step = 0;
  const int batch = std::max(1, a.batch);
  const long steps_per_epoch = static_cast<long>((order.size() + static_cast<std::size_t>(batch) - 1) / static_cast<std::size_t>(batch));
  const long total_steps = steps_per_epoch * std::max(1, a.epochs);
  std::array<float, 7> pr{};
  for (int epoch = 1; epoch <= a.epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[static_cast<std::size_t>(rng.i(static_cast<int>(i)))]);
    double loss_sum = 0;
    int correct = 0;
    for (std::size_t at = 0; at < order.size(); at += static_cast<std::size_t>(batch)) {
      const std::size_t end = std::min(order.size(), at + static_cast<std::size_t>(batch));
      std::fill(grad.begin(), grad.end(), 0.0f);
      for (std::size_t k = at; k < end; ++k) {
        const Sample& s = samples[order[k]];
        const cv::Mat p = augmented(s, rng, net.arch().patch, a.strong_aug);
        DiceCnn::normalise(p, in.data());
        loss_sum += net.loss_and_grad(in.data(), s.cls, grad, pr.data());
        correct += static_cast<int>(std::max_element(pr.begin(), pr.end()) - pr.begin()) == s.cls;
      }
      // Cosine-decayed step (to lr/20).
      const double t = static_cast<double>(step++) / static_cast<double>(std::max(1L, total_steps - 1));
      const double lr = a.lr * (0.05 + 0.95 * 0.5 * (1 + std::cos(CV_PI * t)));
      adam.update(net, grad, 1.0f / static_cast<float>(end - at), lr, a.weight_decay);
    }
    rep.train_accuracy = static_cast<double>(correct) / static_cast<double>(order.size());
    if (!val_patch.empty()) {
      int ok = 0;
      for (std::size_t i = 0; i < val_patch.size(); ++i) {
        const auto s = net.scores_of_patch(val_patch[i], 1);
        ok += static_cast<int>(std::max_element(s.begin() + 1, s.end()) - s.begin()) == val_face[i];
      }
      rep.val_face_accuracy = static_cast<double>(ok) / static_cast<double>(val_patch.size());
      if (rep.val_face_accuracy > rep.best_val) rep.best_val = rep.val_face_accuracy, rep.best_epoch = epoch;
    }
    if (log) {
      *log << "epoch " << epoch << ": loss " << loss_sum / static_cast<double>(order.size()) << ", train accuracy "
           << rep.train_accuracy;
      if (!val_patch.empty()) *log << ", val face " << rep.val_face_accuracy;
      *log << '\n' << std::flush;
    }
  }
  cv::setNumThreads(threads);
  if (auto st = net.save(a.out, a.half); !st) return Error{st.error()};
  return rep;
}

}  // namespace hexdice::vision
