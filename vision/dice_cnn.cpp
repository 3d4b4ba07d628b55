#include "vision/dice_cnn.h"
#include "vision/patch_region.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <numeric>
#include <random>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/dice_train.h"
#include "vision/reader_io.h"

#ifndef HEXDICE_DICE_CNN_DEFAULT
#define HEXDICE_DICE_CNN_DEFAULT "data/dice_cnn.yml.gz"
#endif

namespace hexdice::vision {

namespace fs = std::filesystem;

cv::Mat cnn_patch(const cv::Mat& bgr, cv::Point2f centre, float side, float angle_deg, bool flip, int size) {
  cv::Mat src = bgr;
  if (bgr.type() == CV_8UC1) cv::cvtColor(bgr, src, cv::COLOR_GRAY2BGR);
  else if (bgr.type() == CV_8UC4) cv::cvtColor(bgr, src, cv::COLOR_BGRA2BGR);
  const float span = std::max(2.0f, side * kCnnPad);
  PatchRegion r = cut_patch_region(src, centre, span, size);  // as die_patch
  if (flip) {
    cv::flip(r.region, r.region, 1);
    r.centre.x = static_cast<float>(r.region.cols) - r.centre.x;
  }
  return warp_patch_region(r, span, size, angle_deg);
}

// ---------------------------------------------------------------------------------------
// The network.

namespace {

// 3x3, padding 1: col[(c*9 + ky*3 + kx) * hw + y*w + x] = in[c][y+ky-1][x+kx-1] (0 outside).
void im2col(const float* in, int ch, int h, int w, float* col) {
  for (int c = 0; c < ch; ++c)
    for (int ky = 0; ky < 3; ++ky)
      for (int kx = 0; kx < 3; ++kx) {
        float* dst = col + static_cast<std::ptrdiff_t>((c * 9 + ky * 3 + kx)) * h * w;
        for (int y = 0; y < h; ++y) {
          const int sy = y + ky - 1;
          float* row = dst + y * w;
          if (sy < 0 || sy >= h) {
            std::fill(row, row + w, 0.0f);
            continue;
          }
          const float* srow = in + (static_cast<std::ptrdiff_t>(c) * h + sy) * w;
          for (int x = 0; x < w; ++x) {
            const int sx = x + kx - 1;
            row[x] = (sx >= 0 && sx < w) ? srow[sx] : 0.0f;
          }
        }
      }
}

// The adjoint of im2col: adds col back into `in` (zeroed by the caller).
void col2im(const float* col, int ch, int h, int w, float* in) {
  for (int c = 0; c < ch; ++c)
    for (int ky = 0; ky < 3; ++ky)
      for (int kx = 0; kx < 3; ++kx) {
        const float* src = col + static_cast<std::ptrdiff_t>((c * 9 + ky * 3 + kx)) * h * w;
        for (int y = 0; y < h; ++y) {
          const int sy = y + ky - 1;
          if (sy < 0 || sy >= h) continue;
          float* drow = in + (static_cast<std::ptrdiff_t>(c) * h + sy) * w;
          const float* row = src + y * w;
          for (int x = 0; x < w; ++x) {
            const int sx = x + kx - 1;
            if (sx >= 0 && sx < w) drow[sx] += row[x];
          }
        }
      }
}

// out[k][p] = b[k] + sum_j W[k][j] col[j][p]; then ReLU.
void conv_forward(const float* W, const float* b, const float* col, int cout, int kdim, int hw, float* out) {
  for (int k = 0; k < cout; ++k) {
    float* o = out + static_cast<std::ptrdiff_t>(k) * hw;
    std::fill(o, o + hw, b[k]);
    const float* wk = W + static_cast<std::ptrdiff_t>(k) * kdim;
    for (int j = 0; j < kdim; ++j) {
      const float wv = wk[j];
      const float* cj = col + static_cast<std::ptrdiff_t>(j) * hw;
      for (int p = 0; p < hw; ++p) o[p] += wv * cj[p];
    }
    for (int p = 0; p < hw; ++p) o[p] = std::max(o[p], 0.0f);
  }
}

// 2x2 max pooling of ch x h x w; idx receives the argmax's flat index into `in`.
void maxpool(const float* in, int ch, int h, int w, float* out, int* idx) {
  const int oh = h / 2, ow = w / 2;
  for (int c = 0; c < ch; ++c)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x) {
        int best = (c * h + 2 * y) * w + 2 * x;
        for (int dy = 0; dy < 2; ++dy)
          for (int dx = 0; dx < 2; ++dx) {
            const int i = (c * h + 2 * y + dy) * w + 2 * x + dx;
            if (in[i] > in[best]) best = i;
          }
        const int o = (c * oh + y) * ow + x;
        out[o] = in[best];
        idx[o] = best;
      }
}

// Dot product in eight interleaved partial sums (the compiler vectorises these; a single
// running sum it may not reorder). n is a multiple of 8 here (feature maps 32, 16, 8 wide).
float dot(const float* a, const float* b, int n) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int i = 0;
  for (; i + 8 <= n; i += 8)
    for (int l = 0; l < 8; ++l) acc[l] += a[i + l] * b[i + l];
  float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; i < n; ++i) s += a[i] * b[i];
  return s;
}

// Backward of conv+ReLU given dOut (post-ReLU gradient; masked here by out > 0):
// dW += dOut col^T, db += row sums, dcol = W^T dOut (if dcol).
void conv_backward(const float* W, const float* col, const float* out, float* dout, int cout, int kdim, int hw, float* dW,
                   float* db, float* dcol) {
  for (int k = 0; k < cout; ++k) {
    float* d = dout + static_cast<std::ptrdiff_t>(k) * hw;
    const float* o = out + static_cast<std::ptrdiff_t>(k) * hw;
    float sum = 0;
    for (int p = 0; p < hw; ++p) {
      d[p] = o[p] > 0 ? d[p] : 0.0f;
      sum += d[p];
    }
    db[k] += sum;
    float* dwk = dW + static_cast<std::ptrdiff_t>(k) * kdim;
    for (int j = 0; j < kdim; ++j) dwk[j] += dot(d, col + static_cast<std::ptrdiff_t>(j) * hw, hw);
  }
  if (!dcol) return;
  for (int j = 0; j < kdim; ++j) {
    float* dc = dcol + static_cast<std::ptrdiff_t>(j) * hw;
    std::fill(dc, dc + hw, 0.0f);
    for (int k = 0; k < cout; ++k) {
      const float wv = W[static_cast<std::ptrdiff_t>(k) * kdim + j];
      const float* d = dout + static_cast<std::ptrdiff_t>(k) * hw;
      for (int p = 0; p < hw; ++p) dc[p] += wv * d[p];
    }
  }
}

}  // namespace

struct DiceCnn::Work {
  std::vector<float> col1, a1, p1, col2, a2, p2, col3, a3, p3, h, z;
  std::vector<int> i1, i2, i3;
  explicit Work(const CnnArch& a) {
    const int kIn = a.patch;
    const int s1 = kIn * kIn, s2 = s1 / 4, s3 = s2 / 4, s4 = s3 / 4;
    col1.resize(static_cast<std::size_t>(27 * s1));
    a1.resize(static_cast<std::size_t>(a.c1 * s1));
    p1.resize(static_cast<std::size_t>(a.c1 * s2));
    i1.resize(p1.size());
    col2.resize(static_cast<std::size_t>(a.c1 * 9 * s2));
    a2.resize(static_cast<std::size_t>(a.c2 * s2));
    p2.resize(static_cast<std::size_t>(a.c2 * s3));
    i2.resize(p2.size());
    col3.resize(static_cast<std::size_t>(a.c2 * 9 * s3));
    a3.resize(static_cast<std::size_t>(a.c3 * s3));
    p3.resize(static_cast<std::size_t>(a.c3 * s4));
    i3.resize(p3.size());
    h.resize(static_cast<std::size_t>(a.hidden));
    z.resize(static_cast<std::size_t>(a.classes));
  }
};

void DiceCnn::layout() {
  const auto& a = arch_;
  const int kIn = a.patch;
  std::size_t o = 0;
  auto take = [&](std::size_t n) {
    const std::size_t at = o;
    o += n;
    return at;
  };
  const std::size_t flat = static_cast<std::size_t>(a.c3) * (kIn / 8) * (kIn / 8);
  off_.w1 = take(static_cast<std::size_t>(a.c1) * 27);
  off_.b1 = take(static_cast<std::size_t>(a.c1));
  off_.w2 = take(static_cast<std::size_t>(a.c2) * a.c1 * 9);
  off_.b2 = take(static_cast<std::size_t>(a.c2));
  off_.w3 = take(static_cast<std::size_t>(a.c3) * a.c2 * 9);
  off_.b3 = take(static_cast<std::size_t>(a.c3));
  off_.w4 = take(static_cast<std::size_t>(a.hidden) * flat);
  off_.b4 = take(static_cast<std::size_t>(a.hidden));
  off_.w5 = take(static_cast<std::size_t>(a.classes) * a.hidden);
  off_.b5 = take(static_cast<std::size_t>(a.classes));
  off_.end = o;
  p_.assign(o, 0.0f);
}

DiceCnn::DiceCnn(const CnnArch& arch, unsigned seed) : arch_(arch) {
  HEXDICE_CHECK(arch.c1 > 0 && arch.c2 > 0 && arch.c3 > 0 && arch.hidden > 0 && arch.classes == 7 && arch.patch >= 16 &&
                arch.patch <= 96 && arch.patch % 8 == 0);
  const int kIn = arch.patch;
  layout();
  std::mt19937 rng(seed);
  // He initialisation (normal, sd sqrt(2 / fan_in)) by Box-Muller on the raw generator
  // (std::normal_distribution's algorithm is the library's choice).
  auto normal = [&rng]() {
    const double u1 = (static_cast<double>(rng()) + 1.0) / 4294967297.0, u2 = static_cast<double>(rng()) / 4294967296.0;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * CV_PI * u2);
  };
  auto fill = [&](std::size_t from, std::size_t to, int fan_in) {
    const double sd = std::sqrt(2.0 / fan_in);
    for (std::size_t i = from; i < to; ++i) p_[i] = static_cast<float>(normal() * sd);
  };
  const int flat = arch_.c3 * (kIn / 8) * (kIn / 8);
  fill(off_.w1, off_.b1, 27);
  fill(off_.w2, off_.b2, arch_.c1 * 9);
  fill(off_.w3, off_.b3, arch_.c2 * 9);
  fill(off_.w4, off_.b4, flat);
  fill(off_.w5, off_.b5, arch_.hidden);
}

void DiceCnn::normalise(const cv::Mat& patch, float* out) {
  HEXDICE_CHECK(patch.type() == CV_8UC3 && patch.rows == patch.cols && patch.rows > 0);
  const int kIn = patch.rows;
  const int n = kIn * kIn;
  double mean[3] = {0, 0, 0};
  for (int y = 0; y < kIn; ++y) {
    const auto* row = patch.ptr<cv::Vec3b>(y);
    for (int x = 0; x < kIn; ++x)
      for (int c = 0; c < 3; ++c) mean[c] += row[x][c];
  }
  for (double& m : mean) m /= n;
  double var = 0;
  for (int y = 0; y < kIn; ++y) {
    const auto* row = patch.ptr<cv::Vec3b>(y);
    for (int x = 0; x < kIn; ++x)
      for (int c = 0; c < 3; ++c) {
        const double d = row[x][c] - mean[c];
        var += d * d;
      }
  }
  // Per channel minus its mean (the body's colour goes, the pips' contrast stays), all
  // over one standard deviation (floored: a flat patch is not blown up into noise).
  const double sd = std::max(8.0, std::sqrt(var / (3.0 * n)));
  for (int y = 0; y < kIn; ++y) {
    const auto* row = patch.ptr<cv::Vec3b>(y);
    for (int x = 0; x < kIn; ++x)
      for (int c = 0; c < 3; ++c) out[c * n + y * kIn + x] = static_cast<float>((row[x][c] - mean[c]) / sd);
  }
}

void DiceCnn::run(const float* input, Work& w) const {
  const auto& a = arch_;
  const int kIn = a.patch;
  const int s1 = kIn * kIn, s2 = s1 / 4, s3 = s2 / 4, s4 = s3 / 4;
  const float* P = p_.data();
  im2col(input, 3, kIn, kIn, w.col1.data());
  conv_forward(P + off_.w1, P + off_.b1, w.col1.data(), a.c1, 27, s1, w.a1.data());
  maxpool(w.a1.data(), a.c1, kIn, kIn, w.p1.data(), w.i1.data());
  im2col(w.p1.data(), a.c1, kIn / 2, kIn / 2, w.col2.data());
  conv_forward(P + off_.w2, P + off_.b2, w.col2.data(), a.c2, a.c1 * 9, s2, w.a2.data());
  maxpool(w.a2.data(), a.c2, kIn / 2, kIn / 2, w.p2.data(), w.i2.data());
  im2col(w.p2.data(), a.c2, kIn / 4, kIn / 4, w.col3.data());
  conv_forward(P + off_.w3, P + off_.b3, w.col3.data(), a.c3, a.c2 * 9, s3, w.a3.data());
  maxpool(w.a3.data(), a.c3, kIn / 4, kIn / 4, w.p3.data(), w.i3.data());
  const int flat = a.c3 * s4;
  for (int j = 0; j < a.hidden; ++j) {
    const float* wj = P + off_.w4 + static_cast<std::ptrdiff_t>(j) * flat;
    const float acc = P[off_.b4 + static_cast<std::size_t>(j)] + dot(wj, w.p3.data(), flat);
    w.h[static_cast<std::size_t>(j)] = std::max(acc, 0.0f);
  }
  for (int c = 0; c < a.classes; ++c) {
    const float* wc = P + off_.w5 + static_cast<std::ptrdiff_t>(c) * a.hidden;
    float acc = P[off_.b5 + static_cast<std::size_t>(c)];
    for (int j = 0; j < a.hidden; ++j) acc += wc[j] * w.h[static_cast<std::size_t>(j)];
    w.z[static_cast<std::size_t>(c)] = acc;
  }
  // Softmax in place.
  const float mx = *std::max_element(w.z.begin(), w.z.end());
  float sum = 0;
  for (float& v : w.z) sum += (v = std::exp(v - mx));
  for (float& v : w.z) v /= sum;
}

void DiceCnn::forward(const float* input, float* probs) const {
  thread_local std::unique_ptr<Work> work;
  thread_local CnnArch work_arch{0, 0, 0, 0, 0, 0};
  if (!work || !(work_arch == arch_)) {
    work = std::make_unique<Work>(arch_);
    work_arch = arch_;
  }
  run(input, *work);
  std::copy(work->z.begin(), work->z.end(), probs);
}

float DiceCnn::loss_and_grad(const float* input, int cls, std::vector<float>& grad, float* probs) const {
  HEXDICE_CHECK(grad.size() == p_.size() && cls >= 0 && cls < arch_.classes);
  const auto& a = arch_;
  thread_local std::unique_ptr<Work> wp;
  thread_local CnnArch work_arch{0, 0, 0, 0, 0, 0};
  if (!wp || !(work_arch == arch_)) {
    wp = std::make_unique<Work>(arch_);
    work_arch = arch_;
  }
  Work& w = *wp;
  const int kIn = a.patch;
  run(input, w);
  if (probs) std::copy(w.z.begin(), w.z.end(), probs);
  const float loss = -std::log(std::max(w.z[static_cast<std::size_t>(cls)], 1e-12f));
  const int s1 = kIn * kIn, s2 = s1 / 4, s3 = s2 / 4, s4 = s3 / 4;
  const int flat = a.c3 * s4;
  const float* P = p_.data();
  float* G = grad.data();
  std::vector<float> dz(w.z);
  dz[static_cast<std::size_t>(cls)] -= 1.0f;
  std::vector<float> dh(static_cast<std::size_t>(a.hidden), 0.0f);
  for (int c = 0; c < a.classes; ++c) {
    const float d = dz[static_cast<std::size_t>(c)];
    G[off_.b5 + static_cast<std::size_t>(c)] += d;
    float* gw = G + off_.w5 + static_cast<std::ptrdiff_t>(c) * a.hidden;
    const float* wc = P + off_.w5 + static_cast<std::ptrdiff_t>(c) * a.hidden;
    for (int j = 0; j < a.hidden; ++j) {
      gw[j] += d * w.h[static_cast<std::size_t>(j)];
      dh[static_cast<std::size_t>(j)] += d * wc[j];
    }
  }
  std::vector<float> dp3(static_cast<std::size_t>(flat), 0.0f);
  for (int j = 0; j < a.hidden; ++j) {
    if (w.h[static_cast<std::size_t>(j)] <= 0) continue;
    const float d = dh[static_cast<std::size_t>(j)];
    G[off_.b4 + static_cast<std::size_t>(j)] += d;
    float* gw = G + off_.w4 + static_cast<std::ptrdiff_t>(j) * flat;
    const float* wj = P + off_.w4 + static_cast<std::ptrdiff_t>(j) * flat;
    for (int i = 0; i < flat; ++i) {
      gw[i] += d * w.p3[static_cast<std::size_t>(i)];
      dp3[static_cast<std::size_t>(i)] += d * wj[i];
    }
  }
  // Layer 3.
  std::vector<float> da3(w.a3.size(), 0.0f);
  for (std::size_t i = 0; i < dp3.size(); ++i) da3[static_cast<std::size_t>(w.i3[i])] += dp3[i];
  std::vector<float> dcol3(w.col3.size());
  conv_backward(P + off_.w3, w.col3.data(), w.a3.data(), da3.data(), a.c3, a.c2 * 9, s3, G + off_.w3, G + off_.b3, dcol3.data());
  std::vector<float> dp2(w.p2.size(), 0.0f);
  col2im(dcol3.data(), a.c2, kIn / 4, kIn / 4, dp2.data());
  // Layer 2.
  std::vector<float> da2(w.a2.size(), 0.0f);
  for (std::size_t i = 0; i < dp2.size(); ++i) da2[static_cast<std::size_t>(w.i2[i])] += dp2[i];
  std::vector<float> dcol2(w.col2.size());
  conv_backward(P + off_.w2, w.col2.data(), w.a2.data(), da2.data(), a.c2, a.c1 * 9, s2, G + off_.w2, G + off_.b2, dcol2.data());
  std::vector<float> dp1(w.p1.size(), 0.0f);
  col2im(dcol2.data(), a.c1, kIn / 2, kIn / 2, dp1.data());
  // Layer 1.
  std::vector<float> da1(w.a1.size(), 0.0f);
  for (std::size_t i = 0; i < dp1.size(); ++i) da1[static_cast<std::size_t>(w.i1[i])] += dp1[i];
  conv_backward(P + off_.w1, w.col1.data(), w.a1.data(), da1.data(), a.c1, 27, s1, G + off_.w1, G + off_.b1, nullptr);
  return loss;
}

std::array<float, 7> DiceCnn::scores_of_patch(const cv::Mat& patch, int views) const {
  std::array<float, 7> out{};
  views = std::clamp(views, 1, 8);
  HEXDICE_CHECK(patch.rows == arch_.patch && patch.cols == arch_.patch);
  std::vector<float> in(static_cast<std::size_t>(input_size()));
  std::array<float, 7> pr{};
  // New buffers for the turned views (in place, cv::rotate would write into the caller's patch).
  cv::Mat p = patch;
  for (int v = 0; v < views; ++v) {
    cv::Mat next;
    if (v == 4) cv::flip(patch, next, 1);
    else if (v > 0) cv::rotate(p, next, cv::ROTATE_90_CLOCKWISE);
    if (v > 0) p = next;
    normalise(p, in.data());
    forward(in.data(), pr.data());
    for (int c = 0; c < 7; ++c) out[static_cast<std::size_t>(c)] += pr[static_cast<std::size_t>(c)] / static_cast<float>(views);
  }
  return out;
}

std::array<float, 7> DiceCnn::scores(const cv::Mat& bgr, cv::Point2f centre, float side, int views) const {
  auto out = scores_of_patch(cnn_patch(bgr, centre, side, 0, false, arch_.patch), views);
  if (members_.empty()) return out;
  for (const auto& m : members_) {
    const auto s = m->scores(bgr, centre, side, views);
    for (std::size_t c = 0; c < out.size(); ++c) out[c] += s[c];
  }
  for (float& v : out) v /= static_cast<float>(members_.size() + 1);
  return out;
}

namespace {

// One network's keys (prefix "" for the first, "m1_", "m2_", ... for an ensemble's others).
void write_net(cv::FileStorage& fs, const std::string& k, const CnnArch& a, const std::vector<float>& p, bool half) {
  fs << k + "c1" << a.c1 << k + "c2" << a.c2 << k + "c3" << a.c3 << k + "hidden" << a.hidden << k + "classes" << a.classes;
  fs << k + "patch" << a.patch;
  // The weights' bytes (little-endian float32): text floats would not read back bit-exact.
  cv::Mat f32(1, static_cast<int>(p.size()), CV_32F, const_cast<float*>(p.data()));
  if (half) {
    cv::Mat f16;
    f32.convertTo(f16, CV_16F);
    fs << k + "params_f16_raw" << cv::Mat(1, static_cast<int>(f16.total() * 2), CV_8U, f16.ptr());
  } else {
    fs << k + "params_raw" << cv::Mat(1, static_cast<int>(p.size() * sizeof(float)), CV_8U, f32.ptr());
  }
}

Result<std::pair<CnnArch, cv::Mat>> read_net(const cv::FileStorage& fs, const std::string& k, const std::string& path) {
  CnnArch a;
  cv::Mat params;
  try {
    a.patch = fs[k + "patch"];
    a.c1 = fs[k + "c1"];
    a.c2 = fs[k + "c2"];
    a.c3 = fs[k + "c3"];
    a.hidden = fs[k + "hidden"];
    a.classes = fs[k + "classes"];
    cv::Mat raw, raw16;
    fs[k + "params_raw"] >> raw;
    fs[k + "params_f16_raw"] >> raw16;
    if (!raw16.empty() && raw16.type() == CV_8U && raw16.total() % 2 == 0)
      cv::Mat(1, static_cast<int>(raw16.total() / 2), CV_16F, raw16.ptr()).convertTo(params, CV_32F);
    else if (!raw.empty() && raw.type() == CV_8U && raw.total() % sizeof(float) == 0)
      params = cv::Mat(1, static_cast<int>(raw.total() / sizeof(float)), CV_32F, raw.ptr()).clone();
    else
      fs[k + "params"] >> params;  // text floats (the first files)
  } catch (const cv::Exception& e) {
    return Error{"cannot load dice CNN " + path + ": " + e.what()};
  }
  if (a.c1 <= 0 || a.c2 <= 0 || a.c3 <= 0 || a.hidden <= 0 || a.classes != 7 || a.c1 > 256 || a.c2 > 256 || a.c3 > 256 ||
      a.hidden > 4096 || a.patch < 16 || a.patch > 96 || a.patch % 8 != 0)
    return Error{"cannot load dice CNN " + path + " (bad architecture)"};
  return std::make_pair(a, params);
}

}  // namespace

Status DiceCnn::save(const std::string& path, bool half) const {
  try {
    // The weights' bytes in base64 (cv::FileStorage reads either): a list of decimal bytes
    // gzipped to 1.6x the raw size (a 167k-weight network 1.09 MB), base64 to 1.0x.
    cv::FileStorage fs(path, cv::FileStorage::WRITE | cv::FileStorage::BASE64);
    if (!fs.isOpened()) return Error{"cannot write " + path};
    fs << "format" << "hexdice_dice_cnn_1";
    write_net(fs, "", arch_, p_, half);
    // An ensemble's other networks (a reader before round 15 loads the first only).
    if (!members_.empty()) {
      fs << "members" << static_cast<int>(members_.size());
      for (std::size_t m = 0; m < members_.size(); ++m)
        write_net(fs, "m" + std::to_string(m + 1) + "_", members_[m]->arch_, members_[m]->p_, half);
    }
  } catch (const cv::Exception& e) {
    return Error{"cannot write " + path + ": " + e.what()};
  }
  if (!fs::exists(path)) return Error{"cannot write " + path};
  return Status::Ok();
}

std::shared_ptr<const DiceCnn> DiceCnn::ensemble(const std::vector<std::shared_ptr<const DiceCnn>>& nets) {
  HEXDICE_CHECK(!nets.empty());
  auto ens = std::make_shared<DiceCnn>(*nets.front());
  for (std::size_t i = 1; i < nets.size(); ++i) {
    auto n = std::make_shared<DiceCnn>(*nets[i]);
    // Flatten: every network weighs the same.
    std::vector<std::shared_ptr<const DiceCnn>> inner;
    inner.swap(n->members_);
    ens->members_.push_back(n);
    for (const auto& m : inner) ens->members_.push_back(m);
  }
  return ens;
}

Result<std::shared_ptr<const DiceCnn>> DiceCnn::load(const std::string& path) {
  if (const auto comma = path.find(','); comma != std::string::npos) {
    static std::mutex emu;
    static std::map<std::string, std::shared_ptr<const DiceCnn>> ecache;
    {
      std::lock_guard<std::mutex> lock(emu);
      if (auto it = ecache.find(path); it != ecache.end()) return it->second;
    }
    auto first = load(path.substr(0, comma));
    if (!first) return Error{first.error()};
    auto rest = load(path.substr(comma + 1));
    if (!rest) return Error{rest.error()};
    auto out = ensemble({*first, *rest});
    std::lock_guard<std::mutex> lock(emu);
    ecache[path] = out;
    return out;
  }
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const DiceCnn>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return Error{"dice CNN not found: " + path};
  std::vector<std::pair<CnnArch, cv::Mat>> nets;
  try {
    cv::FileStorage fs(path, cv::FileStorage::READ);
    if (!fs.isOpened() || static_cast<std::string>(fs["format"]) != "hexdice_dice_cnn_1")
      return Error{"cannot load dice CNN " + path + " (not a dice CNN of this version)"};
    const int members = fs["members"].empty() ? 0 : static_cast<int>(fs["members"]);
    if (members < 0 || members > 16) return Error{"cannot load dice CNN " + path + " (bad member count)"};
    for (int m = 0; m <= members; ++m) {
      auto n = read_net(fs, m == 0 ? std::string() : "m" + std::to_string(m) + "_", path);
      if (!n) return Error{n.error()};
      nets.push_back(std::move(*n));
    }
  } catch (const cv::Exception& e) {
    return Error{"cannot load dice CNN " + path + ": " + e.what()};
  }
  std::vector<std::shared_ptr<const DiceCnn>> built;
  for (const auto& [a, params] : nets) {
    auto net = std::make_shared<DiceCnn>(a, 1);
    if (params.type() != CV_32F || params.total() != net->p_.size())
      return Error{"cannot load dice CNN " + path + " (weights do not fit the architecture)"};
    std::copy(params.ptr<float>(), params.ptr<float>() + params.total(), net->p_.begin());
    for (float v : net->p_)
      if (!std::isfinite(v)) return Error{"cannot load dice CNN " + path + " (non-finite weights)"};
    built.push_back(net);
  }
  std::shared_ptr<const DiceCnn> out = built.size() == 1 ? built.front() : ensemble(built);
  cache[path] = out;
  return out;
}

void CnnAdam::update(DiceCnn& net, const std::vector<float>& grad, float scale, double lr, double weight_decay) {
  std::vector<float>& P = net.params();
  const std::size_t np = P.size();
  HEXDICE_CHECK(grad.size() == np);
  if (m.size() != np) m.assign(np, 0.0f), v.assign(np, 0.0f), step = 0;
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  ++step;
  const double c1 = 1 - std::pow(b1, static_cast<double>(step)), c2 = 1 - std::pow(b2, static_cast<double>(step));
  const float wd = static_cast<float>(weight_decay);
  for (std::size_t i = 0; i < np; ++i) {
    const float g = grad[i] * scale + wd * P[i];
    m[i] = static_cast<float>(b1 * m[i] + (1 - b1) * g);
    v[i] = static_cast<float>(b2 * v[i] + (1 - b2) * g * g);
    P[i] -= static_cast<float>(lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps));
  }
}

std::string default_dice_cnn_path() {
  if (const char* e = std::getenv("HEXDICE_DICE_CNN"); e && *e) return e;
  return HEXDICE_DICE_CNN_DEFAULT;
}

}  // namespace hexdice::vision
