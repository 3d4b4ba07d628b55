#include "vision/die_face.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/mask_ops.h"

namespace hexdice::vision {

namespace {

constexpr float kA = 0.27f;  // pip offset from the centre, face-side units
constexpr int kCanon = 48;   // canonical crop size in pixels

// The points less their mean (returned in `mean` when asked).
std::vector<cv::Point2f> centred(std::vector<cv::Point2f> p, cv::Point2f* mean = nullptr) {
  cv::Point2f c(0, 0);
  for (const auto& q : p) c += q;
  c *= 1.0f / static_cast<float>(std::max<std::size_t>(1, p.size()));
  for (auto& q : p) q -= c;
  if (mean) *mean = c;
  return p;
}

double rms(const std::vector<cv::Point2f>& p) {
  double s = 0;
  for (const auto& q : p) s += q.dot(q);
  return std::sqrt(s / static_cast<double>(std::max<std::size_t>(1, p.size())));
}

double chamfer(const std::vector<cv::Point2f>& a, const std::vector<cv::Point2f>& b) {
  auto one_way = [](const std::vector<cv::Point2f>& x, const std::vector<cv::Point2f>& y) {
    double s = 0;
    for (const auto& p : x) {
      double best = std::numeric_limits<double>::max();
      for (const auto& q : y) best = std::min(best, static_cast<double>(cv::norm(p - q)));
      s += best;
    }
    return s / static_cast<double>(std::max<std::size_t>(1, x.size()));
  };
  return 0.5 * (one_way(a, b) + one_way(b, a));
}

}  // namespace

std::vector<cv::Point2f> pip_layout(int face, int variant) {
  const float a = kA;
  const bool v = variant % 2 == 1;
  switch (face) {
    case 1: return {{0, 0}};
    case 2: return v ? std::vector<cv::Point2f>{{-a, a}, {a, -a}} : std::vector<cv::Point2f>{{-a, -a}, {a, a}};
    case 3: return v ? std::vector<cv::Point2f>{{-a, a}, {0, 0}, {a, -a}}
                     : std::vector<cv::Point2f>{{-a, -a}, {0, 0}, {a, a}};
    case 4: return {{-a, -a}, {a, -a}, {-a, a}, {a, a}};
    case 5: return {{-a, -a}, {a, -a}, {0, 0}, {-a, a}, {a, a}};
    case 6: return v ? std::vector<cv::Point2f>{{-a, -a}, {0, -a}, {a, -a}, {-a, a}, {0, a}, {a, a}}
                     : std::vector<cv::Point2f>{{-a, -a}, {-a, 0}, {-a, a}, {a, -a}, {a, 0}, {a, a}};
    default: return {};
  }
}

namespace {
// cos / sin of 0, Step, ..., 180 - Step degrees, as the layout fits' loops computed them.
template <int Step>
struct TurnTable {
  std::array<float, 180 / Step> c{}, s{};
  TurnTable() {
    for (int deg = 0, i = 0; deg < 180; deg += Step, ++i) {
      c[static_cast<std::size_t>(i)] = std::cos(static_cast<float>(deg * CV_PI / 180));
      s[static_cast<std::size_t>(i)] = std::sin(static_cast<float>(deg * CV_PI / 180));
    }
  }
};
const TurnTable<3> kTurns;   // layout_fit: every 3 degrees
const TurnTable<2> kTurns2;  // metric_layout_fit: every 2 degrees (speed21)

// chamfer(a, b) of the same points with the same result: the nearest point by squared
// distance, one square root per point (sqrt is monotonic and correctly rounded, so the
// root of the least square is the least root), no allocation.
double chamfer_fast(const cv::Point2f* a, std::size_t na, const cv::Point2f* b, std::size_t nb) {
  auto one_way = [](const cv::Point2f* x, std::size_t nx, const cv::Point2f* y, std::size_t ny) {
    double s = 0;
    for (std::size_t i = 0; i < nx; ++i) {
      double best = std::numeric_limits<double>::max();
      for (std::size_t j = 0; j < ny; ++j) {
        const cv::Point2f d = x[i] - y[j];
        best = std::min(best, static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y);
      }
      s += std::sqrt(best);
    }
    return s / static_cast<double>(std::max<std::size_t>(1, nx));
  };
  if (nb > 8) return 0.5 * (one_way(a, na, b, nb) + one_way(b, nb, a, na));
  // (speed25) Both ways from one table of squared distances: b[j] - a[i] is -(a[i] - b[j])
  // exactly, so its squares are the same doubles; a row's and a column's minimum are exact in
  // any order (and skip NaN alike), the roots summed in the same order: the same result.
  double col[8];
  std::fill_n(col, nb, std::numeric_limits<double>::max());
  double sa = 0;
  for (std::size_t i = 0; i < na; ++i) {
    double best = std::numeric_limits<double>::max();
    for (std::size_t j = 0; j < nb; ++j) {
      const cv::Point2f d = a[i] - b[j];
      const double v = static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y;
      best = std::min(best, v);
      col[j] = std::min(col[j], v);
    }
    sa += std::sqrt(best);
  }
  double sb = 0;
  for (std::size_t j = 0; j < nb; ++j) sb += std::sqrt(col[j]);
  return 0.5 * (sa / static_cast<double>(std::max<std::size_t>(1, na)) + sb / static_cast<double>(std::max<std::size_t>(1, nb)));
}
}  // namespace

static double layout_fit_impl(const std::vector<cv::Point2f>& pips, double side, bool reference) {
  const int n = static_cast<int>(pips.size());
  if (n < 1 || n > 6 || side <= 0) return 1.0;
  // Every standard layout is centred on the face: the pips' centroid lies near the
  // crop centre (the crop frames the face or the whole die).
  cv::Point2f mean(0, 0);
  for (const auto& q : pips) mean += q;
  mean *= 1.0f / static_cast<float>(n);
  const double off = cv::norm(mean - cv::Point2f(static_cast<float>(side / 2), static_cast<float>(side / 2))) / side;
  const double centring = std::max(0.0, off - 0.06);
  if (n == 1) return centring;
  const auto p = centred(pips);
  const auto ref = pip_layout(n);
  const double rp = rms(p), rr = rms(ref);
  if (rp <= 0) return 1.0;
  // Spread check: pips of a real face lie about 0.27 side from the centre. Allow a
  // wide range (the crop may include side faces or be loose), penalise outside it.
  const double spread = rp / side / rr;
  double penalty = 0;
  if (spread < 0.45) penalty = 0.45 - spread;
  if (spread > 1.8) penalty = spread - 1.8;
  std::vector<cv::Point2f> pn(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) pn[i] = p[i] * static_cast<float>(rr / rp);
  double best = std::numeric_limits<double>::max();
  if (reference) {
    for (int deg = 0; deg < 180; deg += 3) {
      const float c = std::cos(static_cast<float>(deg * CV_PI / 180)), s = std::sin(static_cast<float>(deg * CV_PI / 180));
      std::vector<cv::Point2f> rot(ref.size());
      for (std::size_t i = 0; i < ref.size(); ++i) rot[i] = {c * ref[i].x - s * ref[i].y, s * ref[i].x + c * ref[i].y};
      best = std::min(best, chamfer(pn, rot));
    }
  } else {
    std::array<cv::Point2f, 6> rot;
    for (std::size_t t = 0; t < kTurns.c.size(); ++t) {
      const float c = kTurns.c[t], s = kTurns.s[t];
      for (std::size_t i = 0; i < ref.size(); ++i) rot[i] = {c * ref[i].x - s * ref[i].y, s * ref[i].x + c * ref[i].y};
      best = std::min(best, chamfer_fast(pn.data(), pn.size(), rot.data(), ref.size()));
    }
  }
  return best + penalty + centring;
}

double layout_fit(const std::vector<cv::Point2f>& pips, double side) { return layout_fit_impl(pips, side, false); }

static FaceReading read_face_components_impl(const cv::Mat& crop_bgr, const FaceParams& params, bool reference) {
  FaceReading out;
  if (crop_bgr.empty() || crop_bgr.type() != CV_8UC3 || crop_bgr.cols < 4 || crop_bgr.rows < 4) return out;
  cv::Mat canon;
  cv::resize(crop_bgr, canon, cv::Size(kCanon, kCanon), 0, 0,
             crop_bgr.cols > kCanon ? cv::INTER_AREA : cv::INTER_LINEAR);
  const int b = std::max(1, static_cast<int>(std::lround(params.border * kCanon)));
  const cv::Rect inner(b, b, kCanon - 2 * b, kCanon - 2 * b);
  // Body colour: per-channel median of the inner part (pips cover < 20% of a face).
  cv::Vec3f body;
  if (!reference) {
    // The same element as the sort below (index n/2 of each channel's sorted values),
    // from a histogram.
    std::array<std::array<int, 256>, 3> hist{};
    int n = 0;
    for (int y = inner.y; y < inner.y + inner.height; ++y) {
      const cv::Vec3b* row = canon.ptr<cv::Vec3b>(y);
      for (int x = inner.x; x < inner.x + inner.width; ++x, ++n)
        for (int k = 0; k < 3; ++k) ++hist[static_cast<std::size_t>(k)][row[x][k]];
    }
    for (int k = 0; k < 3; ++k) {
      int acc = 0, v = 0;
      while (v < 255 && acc + hist[static_cast<std::size_t>(k)][static_cast<std::size_t>(v)] <= n / 2)
        acc += hist[static_cast<std::size_t>(k)][static_cast<std::size_t>(v++)];
      body[k] = static_cast<float>(v);
    }
  } else {
    std::vector<uchar> ch[3];
    for (int y = inner.y; y < inner.y + inner.height; ++y)
      for (int x = inner.x; x < inner.x + inner.width; ++x) {
        const cv::Vec3b v = canon.at<cv::Vec3b>(y, x);
        for (int k = 0; k < 3; ++k) ch[k].push_back(v[k]);
      }
    for (int k = 0; k < 3; ++k) {
      auto mid = ch[k].begin() + static_cast<long>(ch[k].size() / 2);
      std::nth_element(ch[k].begin(), mid, ch[k].end());
      body[k] = *mid;
    }
  }
  out.body_bgr = body;
  // Distance from the body colour (pips either darker or lighter than the body).
  cv::Mat dist(kCanon, kCanon, CV_8U, cv::Scalar(0));
  const float disc_r2 = static_cast<float>(params.pip_disc * params.pip_disc * kCanon * kCanon);
  for (int y = inner.y; y < inner.y + inner.height; ++y) {
    int x = inner.x;
#if CV_SIMD128
    if (!reference) {
      // (speed25) 16 pixels at a time: the byte differences as floats (exact), the squares
      // summed in the same order, sqrt correctly rounded, rounded to the nearest even integer
      // as cvRound and saturated to bytes as saturate_cast; the disc's test by the same float
      // sums (ry * ry the same product); 0 outside it, as the zeros left there below.
      const cv::v_float32x4 vb0 = cv::v_setall_f32(body[0]), vb1 = cv::v_setall_f32(body[1]), vb2 = cv::v_setall_f32(body[2]);
      const cv::v_float32x4 vmid = cv::v_setall_f32((kCanon - 1) / 2.0f), vdisc = cv::v_setall_f32(disc_r2);
      const float ry = y - (kCanon - 1) / 2.0f;
      const cv::v_float32x4 vry2 = cv::v_setall_f32(ry * ry);
      const cv::v_int32x4 iota(0, 1, 2, 3), zero = cv::v_setzero_s32();
      const uchar* row = canon.ptr<uchar>(y);
      uchar* o = dist.ptr<uchar>(y);
      for (; x + 16 <= inner.x + inner.width; x += 16) {
        cv::v_uint8x16 c8[3];
        cv::v_load_deinterleave(row + 3 * x, c8[0], c8[1], c8[2]);
        cv::v_float32x4 f[3][4];
        for (int k = 0; k < 3; ++k) {
          cv::v_uint16x8 lo, hi;
          cv::v_expand(c8[k], lo, hi);
          cv::v_uint32x4 u[4];
          cv::v_expand(lo, u[0], u[1]);
          cv::v_expand(hi, u[2], u[3]);
          for (int q = 0; q < 4; ++q) f[k][q] = cv::v_cvt_f32(cv::v_reinterpret_as_s32(u[q]));
        }
        cv::v_int32x4 iv[4];
        for (int q = 0; q < 4; ++q) {
          const cv::v_float32x4 d0 = f[0][q] - vb0, d1 = f[1][q] - vb1, d2 = f[2][q] - vb2;
          const cv::v_int32x4 r = cv::v_round(cv::v_sqrt(d0 * d0 + d1 * d1 + d2 * d2));
          const cv::v_float32x4 rx = cv::v_cvt_f32(cv::v_setall_s32(x + 4 * q) + iota) - vmid;
          const cv::v_float32x4 out_disc = rx * rx + vry2 > vdisc;
          iv[q] = cv::v_select(cv::v_reinterpret_as_s32(out_disc), zero, r);
        }
        cv::v_store(o + x, cv::v_pack_u(cv::v_pack(iv[0], iv[1]), cv::v_pack(iv[2], iv[3])));
      }
    }
#endif
    for (; x < inner.x + inner.width; ++x) {
      const cv::Vec3b v = canon.at<cv::Vec3b>(y, x);
      const float d0 = v[0] - body[0], d1 = v[1] - body[1], d2 = v[2] - body[2];
      // Only a disc round the centre: box corners show background when the die is turned.
      const float rx = x - (kCanon - 1) / 2.0f, ry = y - (kCanon - 1) / 2.0f;
      if (rx * rx + ry * ry > disc_r2) continue;
      dist.at<uchar>(y, x) = cv::saturate_cast<uchar>(std::sqrt(d0 * d0 + d1 * d1 + d2 * d2));
    }
  }
  cv::Mat tmp;
  const double otsu = cv::threshold(dist(inner), tmp, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
  const double base = std::max(otsu, params.min_contrast);
  const double pip_d = params.pip_diameter * kCanon;
  const double pip_area = CV_PI * pip_d * pip_d / 4;
  double best_score = std::numeric_limits<double>::max();
  for (double f : {1.0, 0.75, 1.35, 0.55}) {
    const double t = std::max(params.min_contrast * 0.8, base * f);
    cv::Mat mask;
    cv::threshold(dist, mask, t, 255, cv::THRESH_BINARY);
    cv::Mat stats, cents;
    const int n = components_stats(mask, stats, cents);  // (no labels read: components_with_stats' stats)
    std::vector<cv::Point2f> pips;
    std::vector<double> areas;
    int too_big = 0;
    for (int i = 1; i < n; ++i) {
      const int area = stats.at<int>(i, cv::CC_STAT_AREA);
      const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
      if (area > params.pip_area_max * pip_area) { ++too_big; continue; }
      if (area < params.pip_area_min * pip_area) continue;
      if (std::max(w, h) > 2.2 * std::min(w, h) + 1) continue;  // streaks, edges
      pips.emplace_back(static_cast<float>(cents.at<double>(i, 0)), static_cast<float>(cents.at<double>(i, 1)));
      areas.push_back(area);
    }
    if (pips.empty() || pips.size() > 6) continue;
    // Pips of one die are about the same size.
    double amin = *std::min_element(areas.begin(), areas.end()), amax = *std::max_element(areas.begin(), areas.end());
    const double uneven = amax > 3.5 * amin ? 0.1 : 0.0;
    const double fit = layout_fit_impl(pips, kCanon, reference);
    const double score = fit + uneven + 0.05 * too_big;
    if (score < best_score) {
      best_score = score;
      out.face = static_cast<int>(pips.size());
      out.pips = pips;
      const double contrast = std::min(1.0, otsu / (2.0 * params.min_contrast));
      out.confidence = std::pow(0.5, score / params.fit_scale) * (0.5 + 0.5 * contrast);
    }
  }
  // Second reading: pips as blob-shaped peaks of the contrast map (difference of
  // Gaussians at pip scale, non-maximum suppression), which survives pips that touch
  // each other or the face edge, marbled bodies and soft focus. Its score is a layout fit
  // (>= 0) + 0.02, kept only below best_score: at best_score <= 0.02 it cannot win and is
  // not computed (the same reading; speed round 11).
  if (params.use_peaks && (reference || !(best_score <= 0.02))) {
    cv::Mat f, g1, g2;
    dist.convertTo(f, CV_32F);
    if (reference) {
      cv::GaussianBlur(f, g1, cv::Size(0, 0), pip_d * 0.3);
      cv::GaussianBlur(f, g2, cv::Size(0, 0), pip_d * 1.0);
    } else {
      // (speed21) The same filters with their kernels made once (gaussian_blur_f32: OpenCV
      // made both per call, in soft-float doubles, ~1.5 M instructions a 1080p frame).
      gaussian_blur_f32(f, g1, pip_d * 0.3, cv::BORDER_DEFAULT);
      gaussian_blur_f32(f, g2, pip_d * 1.0, cv::BORDER_DEFAULT);
    }
    const cv::Mat dog = g1 - g2;
    double dmax = 0;
    cv::minMaxLoc(dog(inner), nullptr, &dmax);
    const int nms = std::max(3, cvRound(pip_d * 1.1)) | 1;
    const cv::Mat nms_k = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(nms, nms));
    std::vector<std::pair<float, cv::Point2f>> peaks;
    if (reference) {
      cv::Mat dil;
      cv::dilate(dog, dil, nms_k);
      for (int y = inner.y; y < inner.y + inner.height; ++y)
        for (int x = inner.x; x < inner.x + inner.width; ++x) {
          const float v = dog.at<float>(y, x);
          if (v > 0 && v >= dil.at<float>(y, x)) peaks.emplace_back(v, cv::Point2f(static_cast<float>(x), static_cast<float>(y)));
        }
    } else {
      // v >= its dilation by the kernel <=> no pixel under the kernel (within the image:
      // dilate's default border never wins) is greater: asked only where v > 0, and
      // given up at the first greater one.
      // (speed21) The kernel's offsets nearest first: "a greater pixel under the kernel" does
      // not depend on the order they are asked in, and on a smooth map a pixel that is no
      // peak mostly has a greater neighbour next to it (the far offsets first cost ~2 M
      // instructions a 1080p frame).
      std::vector<cv::Point> offs;
      for (int ky = 0; ky < nms_k.rows; ++ky)
        for (int kx = 0; kx < nms_k.cols; ++kx)
          if (nms_k.at<uchar>(ky, kx)) offs.emplace_back(kx - nms_k.cols / 2, ky - nms_k.rows / 2);
      std::stable_sort(offs.begin(), offs.end(), [](const cv::Point& l, const cv::Point& r) { return l.dot(l) < r.dot(r); });
      for (int y = inner.y; y < inner.y + inner.height; ++y) {
        const float* row = dog.ptr<float>(y);
        for (int x = inner.x; x < inner.x + inner.width; ++x) {
          const float v = row[x];
          if (!(v > 0)) continue;
          bool peak = true;
          for (const cv::Point& o : offs) {
            const int xx = x + o.x, yy = y + o.y;
            if (xx < 0 || yy < 0 || xx >= dog.cols || yy >= dog.rows) continue;
            if (dog.at<float>(yy, xx) > v) { peak = false; break; }
          }
          if (peak) peaks.emplace_back(v, cv::Point2f(static_cast<float>(x), static_cast<float>(y)));
        }
      }
    }
    std::sort(peaks.begin(), peaks.end(), [](const auto& l, const auto& r) { return l.first > r.first; });
    const double floor_abs = params.min_contrast * 0.25;
    for (double rel : {0.45, 0.3, 0.6}) {
      std::vector<cv::Point2f> pips;
      for (const auto& [v, pt] : peaks)
        if (v >= rel * dmax && v >= floor_abs) pips.push_back(pt);
      if (pips.empty() || pips.size() > 6) continue;
      const double score = layout_fit_impl(pips, kCanon, reference) + 0.02;  // ties go to the component reading
      if (score < best_score) {
        best_score = score;
        out.face = static_cast<int>(pips.size());
        out.pips = pips;
        const double contrast = std::min(1.0, otsu / (2.0 * params.min_contrast));
        out.confidence = std::pow(0.5, score / params.fit_scale) * (0.5 + 0.5 * contrast);
      }
    }
  }
  // Pip centres back in the caller's crop pixels.
  const float sx = static_cast<float>(crop_bgr.cols) / kCanon, sy = static_cast<float>(crop_bgr.rows) / kCanon;
  for (auto& p : out.pips) p = {(p.x + 0.5f) * sx - 0.5f, (p.y + 0.5f) * sy - 0.5f};
  return out;
}

FaceReading read_face_components(const cv::Mat& crop_bgr, const FaceParams& params) {
  return read_face_components_impl(crop_bgr, params, false);
}
FaceReading read_face_components_reference(const cv::Mat& crop_bgr, const FaceParams& params) {
  return read_face_components_impl(crop_bgr, params, true);
}

FaceReader::FaceReader(cv::Mat crop_bgr, const FaceParams& params) : crop_(std::move(crop_bgr)), params_(params) {}

const FaceReading& FaceReader::lattice() {
  if (!lattice_done_) {
    lattice_ = read_face_lattice(crop_, params_), lattice_done_ = 1;
    // (robust25) lattice_agreed_min_response: a faint face the component counter agrees with.
    if (params_.lattice && lattice_.face == 0 && params_.lattice_agreed_min_response > 0 &&
        params_.lattice_agreed_min_response < params_.lattice_min_response) {
      FaceParams low = params_;
      low.lattice_min_response = params_.lattice_agreed_min_response;
      const FaceReading faint = read_face_lattice(crop_, low);
      if (faint.face > 0 && components().face == faint.face) lattice_ = faint;
    }
  }
  return lattice_;
}
const FaceReading& FaceReader::components() {
  if (!components_done_) components_ = read_face_components(crop_, params_), components_done_ = 1;
  return components_;
}

FaceReading FaceReader::read(double useful) {
  if (!params_.lattice) return components();
  // The fallback's readings are at most fallback_below < useful: none would be kept.
  if (params_.fallback_below > 0 && useful > params_.fallback_below) return lattice();
  FaceReading r = lattice();
  if (params_.fallback_below > 0 && r.confidence < params_.fallback_below) {
    // No standard layout stands out (a crop partly off the face, a face half hidden):
    // the component counter's guess, when it is more confident, at a confidence no
    // higher than the fallback threshold.
    const FaceReading& c = components();
    if (c.face > 0 && c.confidence > r.confidence) {
      r.face = c.face;
      r.pips = c.pips;
      r.confidence = std::min(c.confidence, params_.fallback_below);
    }
  }
  return r;
}

FaceReading FaceReader::read_above(double useful) {
  if (params_.lattice && params_.fallback_below > 0 && useful >= params_.fallback_below) return lattice();
  return read(useful);
}

FaceReading read_face(const cv::Mat& crop_bgr, const FaceParams& params, double useful) {
  return FaceReader(crop_bgr, params).read(useful);
}

FaceReading read_face(const cv::Mat& crop_bgr, const FaceParams& params) { return FaceReader(crop_bgr, params).read(); }

namespace {
// The rate (px per plane mm) find_plane_pips samples the plane at round centre_mm: twice the
// camera's own px/mm there (the larger singular value of plane_to_image's Jacobian: the
// plane's finest detail the image holds), at least 3 and at most params.px_per_mm (branch
// speed9; it sampled at px_per_mm = 6 whatever the camera, ~3.3x the camera's 1.7-1.9 px/mm
// at 720p, ~11x its pixels). A flat 4 let a false white 1 through on dev2; tied to the
// camera, 2x gives the same figures on the fixtures (docs/reader.md "Speed round 9"; kept in 11).
constexpr double kCameraFactor = 2.0, kMinPxPerMm = 3.0;
double plane_sample_px_per_mm(const cv::Matx33d& h, cv::Point2d c, const PlanePipParams& params) {
  const double w = h(2, 0) * c.x + h(2, 1) * c.y + h(2, 2);
  if (!(std::abs(w) > 1e-12)) return params.px_per_mm;
  const double u = (h(0, 0) * c.x + h(0, 1) * c.y + h(0, 2)) / w, v = (h(1, 0) * c.x + h(1, 1) * c.y + h(1, 2)) / w;
  const double a = (h(0, 0) - u * h(2, 0)) / w, b = (h(0, 1) - u * h(2, 1)) / w;
  const double cc = (h(1, 0) - v * h(2, 0)) / w, d = (h(1, 1) - v * h(2, 1)) / w;
  const double f2 = a * a + b * b + cc * cc + d * d, det = a * d - b * cc;
  const double smax = std::sqrt(0.5 * (f2 + std::sqrt(std::max(0.0, f2 * f2 - 4 * det * det))));
  if (!std::isfinite(smax)) return params.px_per_mm;
  return std::clamp(kCameraFactor * smax, std::min(kMinPxPerMm, params.px_per_mm), params.px_per_mm);
}

// What find_plane_pips' blob tests need at s px per plane mm: a pip's area (px); the
// parallax's direction du; a side face seen on this plane is foreshortened along the
// parallax to k = |d| / face of its size, its pips' second moment along d to k^2 of the one
// across, a top pip's are equal: split at k (their geometric mean) while the two are well
// apart (squeeze_test); the ring's width (px) and its kernel.
struct BlobTests {
  double pip_area;
  cv::Point2d du;
  double k;
  bool squeeze_test;
  int ring;
  cv::Mat ring_k;
};
BlobTests blob_tests_at(const PlanePipParams& params, cv::Point2d parallax_mm, double s) {
  const double pip_area = CV_PI * params.pip_mm * params.pip_mm / 4 * s * s;
  const double dn = cv::norm(parallax_mm);
  const cv::Point2d du = dn > 1e-9 ? parallax_mm * (1.0 / dn) : cv::Point2d(1, 0);
  const double k = dn / params.face_mm;
  const bool squeeze_test = k > 0.15 && k < 0.7;
  const int ring = std::max(1, static_cast<int>(std::lround(params.ring_mm * s)));
  const cv::Mat ring_k = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(2 * ring + 1, 2 * ring + 1));
  return {pip_area, du, k, squeeze_test, ring, ring_k};
}

// find_plane_pips' round test: a blob of these second moments (sdd along the parallax, spp
// across, sdp mixed) whose smaller principal moment is under 1/4 of its larger is elongated
// (a piece of a printed line, a squeezed side pip), not a pip's disc.
bool elongated(double sdd, double spp, double sdp) {
  const double tr = sdd + spp, det = sdd * spp - sdp * sdp;
  const double disc = std::sqrt(std::max(0.0, tr * tr / 4 - det));
  return tr / 2 - disc < 0.25 * (tr / 2 + disc);
}

// (speed36) find_plane_pips' pixels read: the spans [x0[y], x1[y]) of its n x n sample's
// search disc (centre mid = (n - 1) / 2, empty where x1 <= x0) grown by r pixels each way, across
// rows too (a box of side 2r + 1 round every pixel of them: any pixel of a blob's ring is
// within r of the blob in x and in y), cut to the sample. A disc's span widens towards its
// centre row (x0 = ceil(mid - w), x1 = floor(mid + w) + 1, w = sqrt(rc^2 - dy^2) in doubles:
// each step monotone in |dy|), so the union of the spans within r rows of y is the span of the
// row among them nearest the centre. Rows none reaches: gx0 = gx1 = 0.
void plane_disc_spans_grown(const std::vector<int>& x0, const std::vector<int>& x1, int n, int r, std::vector<int>& gx0,
                            std::vector<int>& gx1) {
  gx0.resize(static_cast<std::size_t>(n));
  gx1.resize(static_cast<std::size_t>(n));
  const int centre = (n - 1) / 2;  // a row nearest mid (with n even, the next one is as near)
  for (int y = 0; y < n; ++y) {
    const std::size_t yy = static_cast<std::size_t>(std::clamp(centre, std::max(0, y - r), std::min(n - 1, y + r)));
    const bool any = x1[yy] > x0[yy];
    gx0[static_cast<std::size_t>(y)] = any ? std::max(0, x0[yy] - r) : 0;
    gx1[static_cast<std::size_t>(y)] = any ? std::min(n, x1[yy] + r) : 0;
  }
}

// find_plane_pips' island test: the ring round the blob (grown, its dilation, less comp; both
// box-sized) has pixels and at least ring_fraction of them are of the other polarity (not
// lum_ok, the whole sample's mask, at box's offset).
bool ringed_by_other_polarity(const cv::Mat& comp, const cv::Mat& grown, const cv::Mat& lum_ok, const cv::Rect& box,
                              double ring_fraction) {
  int n_ring = 0, n_other = 0;
  for (int y = 0; y < box.height; ++y) {
    const uchar* g = grown.ptr<uchar>(y);
    const uchar* c = comp.ptr<uchar>(y);
    const uchar* l = lum_ok.ptr<uchar>(box.y + y);
    for (int x = 0; x < box.width; ++x)
      if (!c[x] && g[x]) {
        ++n_ring;
        if (!l[box.x + x]) ++n_other;
      }
  }
  return !(n_ring == 0 || n_other < ring_fraction * n_ring);
}
}  // namespace

std::vector<cv::Point2d> find_plane_pips(const cv::Mat& image_bgr, const cv::Matx33d& plane_to_image, cv::Point2d centre_mm,
                                         double radius_mm, bool dark_pips, float lum_threshold, cv::Point2d parallax_mm,
                                         const PlanePipParams& params) {
  auto all = find_plane_pips(image_bgr, plane_to_image, centre_mm, radius_mm, dark_pips, std::vector<float>{lum_threshold}, parallax_mm, params);
  return all.empty() ? std::vector<cv::Point2d>{} : all[0];
}

// As before the run labelling of branch speed5 (cv::connectedComponents' labels image, the
// blob's pixels found in it): kept to check the form below bit for bit (tests/vision/test_plane_pips.cpp).
std::vector<std::vector<cv::Point2d>> find_plane_pips_reference(const cv::Mat& image_bgr, const cv::Matx33d& plane_to_image,
                                                      cv::Point2d centre_mm, double radius_mm, bool dark_pips,
                                                      const std::vector<float>& lum_thresholds, cv::Point2d parallax_mm,
                                                      const PlanePipParams& params, PlaneSample* cache) {
  std::vector<std::vector<cv::Point2d>> all(lum_thresholds.size());
  if (image_bgr.empty() || image_bgr.type() != CV_8UC3 || radius_mm <= 0 || params.px_per_mm <= 0) return all;
  const double s = plane_sample_px_per_mm(plane_to_image, centre_mm, params);
  const int n = static_cast<int>(std::ceil(2 * radius_mm * s)) + 1;
  const cv::Point2d o = centre_mm - cv::Point2d(radius_mm, radius_mm);
  // Sample pixel (x, y) -> plane mm -> image.
  const double rc = radius_mm * s, mid = (n - 1) / 2.0;
  const bool reuse = cache && cache->radius_mm == radius_mm && cache->centre_mm == centre_mm && cache->lum.rows == n &&
                     cache->ring == std::numeric_limits<int>::max();  // a whole square's sampling only
  cv::Mat plane;
  if (!reuse) {
    const cv::Matx33d to_image = plane_to_image * cv::Matx33d(1 / s, 0, o.x, 0, 1 / s, o.y, 0, 0, 1);
    cv::warpPerspective(image_bgr, plane, cv::Mat(to_image), cv::Size(n, n), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                        cv::BORDER_REPLICATE);
  }
  cv::Mat lum_img = reuse ? cache->lum : cv::Mat(n, n, CV_16U);
  // The search disc's span on each row.
  std::vector<int> x0(static_cast<std::size_t>(n)), x1(static_cast<std::size_t>(n));
  for (int y = 0; y < n; ++y) {
    const double dy = y - mid, w2 = rc * rc - dy * dy;
    const double w = w2 >= 0 ? std::sqrt(w2) : -1;
    x0[static_cast<std::size_t>(y)] = w < 0 ? 0 : std::max(0, static_cast<int>(std::ceil(mid - w)));
    x1[static_cast<std::size_t>(y)] = w < 0 ? 0 : std::min(n, static_cast<int>(std::floor(mid + w)) + 1);
    if (reuse) continue;
    const cv::Vec3b* row = plane.ptr<cv::Vec3b>(y);
    ushort* l = lum_img.ptr<ushort>(y);
    for (int x = 0; x < n; ++x) l[x] = static_cast<ushort>(row[x][0] + 2 * row[x][1] + row[x][2]);
  }
  // The search disc as a mask (the spans above), for all thresholds.
  cv::Mat disc_mask(n, n, CV_8U, cv::Scalar(0));
  for (int y = 0; y < n; ++y) {
    const int a = x0[static_cast<std::size_t>(y)], b = x1[static_cast<std::size_t>(y)];
    if (b > a) std::memset(disc_mask.ptr<uchar>(y) + a, 255, static_cast<std::size_t>(b - a));
  }
  if (cache && !reuse) *cache = PlaneSample{lum_img, centre_mm, radius_mm, std::numeric_limits<int>::max()};  // the whole square
  for (std::size_t ti = 0; ti < lum_thresholds.size(); ++ti) {
  const float lum_threshold = lum_thresholds[ti];
  std::vector<cv::Point2d>& out = all[ti];
  // lum_ok: of the pips' polarity; on: that within the search disc. (OpenCV's vectorised
  // compare and and: the per-pixel loops they replace were ~2/3 of this function.)
  cv::Mat on, lum_ok;
  {
    const int t = static_cast<int>(std::ceil(lum_threshold));  // lum < t <=> lum < threshold (integer lum)
    const int tf = static_cast<int>(std::floor(lum_threshold));  // lum > tf <=> lum > threshold
    if (dark_pips) {
      if (t <= 0) lum_ok = cv::Mat(n, n, CV_8U, cv::Scalar(0));
      else if (t > 65535) lum_ok = cv::Mat(n, n, CV_8U, cv::Scalar(255));
      else cv::compare(lum_img, cv::Scalar(t), lum_ok, cv::CMP_LT);
    } else {
      if (tf < 0) lum_ok = cv::Mat(n, n, CV_8U, cv::Scalar(255));
      else if (tf >= 65535) lum_ok = cv::Mat(n, n, CV_8U, cv::Scalar(0));
      else cv::compare(lum_img, cv::Scalar(tf), lum_ok, cv::CMP_GT);
    }
    cv::bitwise_and(lum_ok, disc_mask, on);
  }
  cv::Mat labels, stats, cents;
  const int nc = components_with_stats(on, labels, stats, cents);
  const auto [pip_area, du, k, squeeze_test, ring, ring_k] = blob_tests_at(params, parallax_mm, s);
  for (int i = 1; i < nc; ++i) {
    const int area = stats.at<int>(i, cv::CC_STAT_AREA);
    const int bx = stats.at<int>(i, cv::CC_STAT_LEFT), by = stats.at<int>(i, cv::CC_STAT_TOP);
    const int bw = stats.at<int>(i, cv::CC_STAT_WIDTH), bh = stats.at<int>(i, cv::CC_STAT_HEIGHT);
    if (area < params.area_min * pip_area || area > params.area_max * pip_area) continue;
    if (std::max(bw, bh) > 2 * std::min(bw, bh) + 2) continue;
    const double cx = cents.at<double>(i, 0), cy = cents.at<double>(i, 1);
    // Cut by the search disc: not known whole.
    if (std::hypot(cx - mid, cy - mid) + 0.5 * std::max(bw, bh) > rc - 1) continue;
    // The shape tests first (they need only the blob's own pixels, in the same order as
    // before, so the same sums): most blobs that fail fail here, before the ring's dilation.
    const cv::Rect box = cv::Rect(bx - ring, by - ring, bw + 2 * ring, bh + 2 * ring) & cv::Rect(0, 0, n, n);
    double sdd = 0, spp = 0, sdp = 0;
    for (int y = 0; y < box.height; ++y) {
      const int* lb = labels.ptr<int>(box.y + y) + box.x;
      for (int x = 0; x < box.width; ++x) {
        if (lb[x] == i) {
          const double dx = box.x + x - cx, dy = box.y + y - cy;
          const double a = dx * du.x + dy * du.y, b = -dx * du.y + dy * du.x;
          sdd += a * a, spp += b * b, sdp += a * b;
        }
      }
    }
    if (squeeze_test && sdd < k * spp) continue;
    // Round: a pip is a disc (any side pip squeezed to under half its width is gone too); a
    // piece of a printed line broken up by the threshold is not, though its box is square.
    if (elongated(sdd, spp, sdp)) continue;
    // An island: its ring is of the other polarity (a pip on its die's body; a print mark
    // or the shadow's rim is not ringed by the body).
    cv::Mat comp = labels(box) == i, grown;
    cv::dilate(comp, grown, ring_k);
    if (!ringed_by_other_polarity(comp, grown, lum_ok, box, params.ring_fraction)) continue;
    out.emplace_back(o.x + cx / s, o.y + cy / s);
  }
  }
  return all;
}

std::vector<std::vector<cv::Point2d>> find_plane_pips(const cv::Mat& image_bgr, const cv::Matx33d& plane_to_image,
                                                      cv::Point2d centre_mm, double radius_mm, bool dark_pips,
                                                      const std::vector<float>& lum_thresholds, cv::Point2d parallax_mm,
                                                      const PlanePipParams& params, PlaneSample* cache) {
  std::vector<std::vector<cv::Point2d>> all(lum_thresholds.size());
  if (image_bgr.empty() || image_bgr.type() != CV_8UC3 || radius_mm <= 0 || params.px_per_mm <= 0) return all;
  const double s = plane_sample_px_per_mm(plane_to_image, centre_mm, params);
  const int n = static_cast<int>(std::ceil(2 * radius_mm * s)) + 1;
  const cv::Point2d o = centre_mm - cv::Point2d(radius_mm, radius_mm);
  // Sample pixel (x, y) -> plane mm -> image.
  const double rc = radius_mm * s, mid = (n - 1) / 2.0;
  const auto [pip_area, du, k, squeeze_test, ring, ring_k] = blob_tests_at(params, parallax_mm, s);
  const bool reuse = cache && cache->radius_mm == radius_mm && cache->centre_mm == centre_mm && cache->lum.rows == n && cache->ring >= ring;
  // Scratch kept between calls (one per thread): no allocation per call once warm.
  thread_local cv::Mat plane, lum_ok, comp, grown;
  thread_local RunLabels rl;
  thread_local std::vector<int> x0, x1, gx0, gx1;
  // The search disc's span on each row.
  x0.resize(static_cast<std::size_t>(n)), x1.resize(static_cast<std::size_t>(n));
  for (int y = 0; y < n; ++y) {
    const double dy = y - mid, w2 = rc * rc - dy * dy;
    const double w = w2 >= 0 ? std::sqrt(w2) : -1;
    x0[static_cast<std::size_t>(y)] = w < 0 ? 0 : std::max(0, static_cast<int>(std::ceil(mid - w)));
    x1[static_cast<std::size_t>(y)] = w < 0 ? 0 : std::min(n, static_cast<int>(std::floor(mid + w)) + 1);
  }
  // (speed36) Only the pixels the tests below read are sampled: the blobs lie within the disc's
  // spans (the labelling's), their island rings within `ring` of them (ring_k's box), so
  // the spans grown by `ring` each way (plane_disc_spans_grown) hold every pixel of lum_ok
  // that is read; the square's corners beyond them (~13% of it at 720p) are not warped
  // (their luminance is left 0). (speed37) Nor compared: lum_ok is made within them alone.
  plane_disc_spans_grown(x0, x1, n, ring, gx0, gx1);
  if (!reuse) {
    const cv::Matx33d to_image = plane_to_image * cv::Matx33d(1 / s, 0, o.x, 0, 1 / s, o.y, 0, 0, 1);
    // = cv::warpPerspective within the spans (mask_ops.h)
    warp_perspective_linear_spans(image_bgr, plane, to_image, cv::Size(n, n), cv::BORDER_REPLICATE, gx0.data(), gx1.data());
  }
  cv::Mat lum_img = reuse ? cache->lum : cv::Mat(n, n, CV_16U);
  if (!reuse)
    for (int y = 0; y < n; ++y) {
      ushort* l = lum_img.ptr<ushort>(y);
      const int a = gx0[static_cast<std::size_t>(y)], b = std::max(a, gx1[static_cast<std::size_t>(y)]);
      std::fill(l, l + a, ushort{0});
      bgr_lum_row(plane.ptr<uchar>(y) + 3 * a, b - a, l + a);  // b + 2g + r, 16 at a time (mask_ops.h)
      std::fill(l + b, l + n, ushort{0});
    }
  if (cache && !reuse) *cache = PlaneSample{lum_img, centre_mm, radius_mm, ring};
  for (std::size_t ti = 0; ti < lum_thresholds.size(); ++ti) {
    const float lum_threshold = lum_thresholds[ti];
    std::vector<cv::Point2d>& out = all[ti];
    // lum_ok: of the pips' polarity; the blobs are those of lum_ok within the search disc (its
    // spans given to the labelling). (speed37) Within the grown spans only (lum_compare_spans:
    // cv::compare's bytes there): the labelling reads the disc's spans, the island test the
    // ring's pixels (within the grown spans); the bytes beyond are left as they were, zeros
    // when the buffer is new (next_where's 16-byte loads may reach before a span: shifted out,
    // but never uninitialised).
    if (lum_ok.rows != n || lum_ok.cols != n || lum_ok.type() != CV_8U) {
      lum_ok.create(n, n, CV_8U);
      lum_ok.setTo(0);
    }
    lum_compare_spans(lum_img, lum_threshold, !dark_pips, gx0.data(), gx1.data(), lum_ok);
    // The blobs by runs (label_runs: cv::connectedComponents' components in its order, with
    // components_with_stats' statistics; a blob's pixels are its runs, no labels image).
    const int nc = label_runs(lum_ok, rl, x0.data(), x1.data());
    for (int i = 0; i < nc; ++i) {
      const RunComponent& st = rl.comps[static_cast<std::size_t>(i)];
      const int area = st.area;
      const int bx = st.left, by = st.top, bw = st.right - st.left + 1, bh = st.bottom - st.top + 1;
      if (area < params.area_min * pip_area || area > params.area_max * pip_area) continue;
      if (std::max(bw, bh) > 2 * std::min(bw, bh) + 2) continue;
      const double cx = st.cx, cy = st.cy;
      // Cut by the search disc: not known whole.
      if (std::hypot(cx - mid, cy - mid) + 0.5 * std::max(bw, bh) > rc - 1) continue;
      // The shape tests first: the blob's pixels in raster order (its runs), as the labels
      // image's scan of its box visited them, so the same sums.
      const int* rb = rl.comp_runs.data() + rl.comp_begin[static_cast<std::size_t>(i)];
      const int* re = rl.comp_runs.data() + rl.comp_begin[static_cast<std::size_t>(i) + 1];
      double sdd = 0, spp = 0, sdp = 0;
      for (const int* ri = rb; ri != re; ++ri) {
        const MaskRun& r = rl.runs[static_cast<std::size_t>(*ri)];
        const double dy = r.y - cy;
        for (int x = r.x0; x < r.x1; ++x) {
          const double dx = x - cx;
          const double a = dx * du.x + dy * du.y, b = -dx * du.y + dy * du.x;
          sdd += a * a, spp += b * b, sdp += a * b;
        }
      }
      if (squeeze_test && sdd < k * spp) continue;
      // Round: a pip is a disc (any side pip squeezed to under half its width is gone too); a
      // piece of a printed line broken up by the threshold is not, though its box is square.
      if (elongated(sdd, spp, sdp)) continue;
      // An island: its ring is of the other polarity (a pip on its die's body; a print mark
      // or the shadow's rim is not ringed by the body).
      const cv::Rect box = cv::Rect(bx - ring, by - ring, bw + 2 * ring, bh + 2 * ring) & cv::Rect(0, 0, n, n);
      comp.create(box.height, box.width, CV_8U);
      comp.setTo(cv::Scalar(0));
      for (const int* ri = rb; ri != re; ++ri) {
        const MaskRun& r = rl.runs[static_cast<std::size_t>(*ri)];
        std::memset(comp.ptr<uchar>(r.y - box.y) + (r.x0 - box.x), 255, static_cast<std::size_t>(r.x1 - r.x0));
      }
      morph(comp, grown, cv::MORPH_DILATE, ring_k);  // = cv::dilate (mask_ops.h)
      if (!ringed_by_other_polarity(comp, grown, lum_ok, box, params.ring_fraction)) continue;
      out.emplace_back(o.x + cx / s, o.y + cy / s);
    }
  }
  return all;
}

namespace {
// Mean distance (face units) of pips (plane mm, any order) from the standard layout of
// their count at the face's size, best turned; a large value when the scale is more than
// 20% off. angle_deg (when given): the best turn, modulo 90 (the square's axes).

double metric_layout_fit(const std::vector<cv::Point2d>& pips_mm, double face_mm, double* angle_deg = nullptr,
                         bool reference = false) {
  const int n = static_cast<int>(pips_mm.size());
  if (n < 1 || n > 6) return 1.0;
  if (n == 1) return 0.0;
  std::vector<cv::Point2f> p;
  for (const auto& q : pips_mm) p.emplace_back(static_cast<float>(q.x / face_mm), static_cast<float>(q.y / face_mm));
  p = centred(p);
  const auto ref = pip_layout(n);
  const double rp = rms(p), rr = rms(ref);
  if (rp <= 0 || rp < 0.8 * rr || rp > 1.2 * rr) return 1.0;
  double best = std::numeric_limits<double>::max();
  int best_deg = 0;
  if (reference) {
    for (int deg = 0; deg < 180; deg += 2) {
      const float c = std::cos(static_cast<float>(deg * CV_PI / 180)), sn = std::sin(static_cast<float>(deg * CV_PI / 180));
      std::vector<cv::Point2f> rot(ref.size());
      for (std::size_t i = 0; i < ref.size(); ++i) rot[i] = {c * ref[i].x - sn * ref[i].y, sn * ref[i].x + c * ref[i].y};
      const double d = chamfer(p, rot);
      if (d < best) best = d, best_deg = deg;
    }
  } else {
    // (speed21) The same turns from a table, chamfer_fast (chamfer's distances, no
    // allocation), the same first best.
    std::array<cv::Point2f, 6> rot;
    for (std::size_t t = 0; t < kTurns2.c.size(); ++t) {
      const float c = kTurns2.c[t], sn = kTurns2.s[t];
      for (std::size_t i = 0; i < ref.size(); ++i) rot[i] = {c * ref[i].x - sn * ref[i].y, sn * ref[i].x + c * ref[i].y};
      const double d = chamfer_fast(p.data(), p.size(), rot.data(), ref.size());
      if (d < best) best = d, best_deg = 2 * static_cast<int>(t);
    }
  }
  if (angle_deg) *angle_deg = best_deg % 90;
  return best;
}
}  // namespace

namespace {
// (robust41) The fit of pips_mm (plane mm, 3..5 of them) to the standard layout of one pip more
// with one of its pips missing (a pip the threshold lost): the least mean distance (face units,
// chamfer as metric_layout_fit's) over the missing pip and the turns, at the face's size (rms
// within 0.8..1.2 of the partial layout's). centre_mm: that layout's centre; angle_deg its turn.
double missing_pip_layout_fit(const std::vector<cv::Point2d>& pips_mm, double face_mm, cv::Point2d* centre_mm, double* angle_deg) {
  const int m = static_cast<int>(pips_mm.size());
  if (m < 3 || m > 5) return 1.0;
  std::vector<cv::Point2f> p;
  cv::Point2f mean;
  for (const auto& q : pips_mm) p.emplace_back(static_cast<float>(q.x / face_mm), static_cast<float>(q.y / face_mm));
  p = centred(p, &mean);
  const double rp = rms(p);
  const auto full = pip_layout(m + 1);
  double best = 1.0;
  for (std::size_t k = 0; k < full.size(); ++k) {
    std::vector<cv::Point2f> t;
    for (std::size_t j = 0; j < full.size(); ++j)
      if (j != k) t.push_back(full[j]);
    cv::Point2f tm;
    t = centred(t, &tm);
    const double rr = rms(t);
    if (rp <= 0 || rp < 0.8 * rr || rp > 1.2 * rr) continue;
    std::array<cv::Point2f, 5> rot;
    for (std::size_t a = 0; a < kTurns2.c.size(); ++a) {
      const float c = kTurns2.c[a], sn = kTurns2.s[a];
      for (std::size_t i = 0; i < t.size(); ++i) rot[i] = {c * t[i].x - sn * t[i].y, sn * t[i].x + c * t[i].y};
      const double d = chamfer_fast(p.data(), p.size(), rot.data(), t.size());
      if (d < best) {
        best = d;
        // The layout's centre: the pips' mean less the turned partial layout's mean.
        const cv::Point2f off(c * tm.x - sn * tm.y, sn * tm.x + c * tm.y);
        if (centre_mm) *centre_mm = cv::Point2d((mean.x - off.x) * face_mm, (mean.y - off.y) * face_mm);
        if (angle_deg) *angle_deg = (2 * static_cast<int>(a)) % 90;
      }
    }
  }
  return best;
}
}  // namespace

double metric_layout_fit_for_test(const std::vector<cv::Point2d>& pips_mm, double face_mm, double* angle_deg, bool reference) {
  return metric_layout_fit(pips_mm, face_mm, angle_deg, reference);
}

std::vector<TopFacePips> top_face_hypotheses(const std::vector<cv::Point2d>& pips_mm, cv::Point2d parallax_mm, double face_mm,
                                             int drop_min_pips, double missing_pip_fit) {
  std::vector<TopFacePips> out;
  if (pips_mm.empty() || face_mm <= 0) return out;
  // A face's pips lie within 0.27 * sqrt(2) = 0.38 face of its centre; a side face's nearest
  // pips are >= 0.5 face from it (beyond the top's edge): gather within 0.44 face.
  const double reach = 0.44 * face_mm;
  std::vector<unsigned> seen, valid;
  // Seeds: each pip, each pair's midpoint (a 2 or 4 has no pip at its centre; its
  // diagonal's midpoint is the centre), all the pips' centroid.
  std::vector<cv::Point2d> seeds(pips_mm.begin(), pips_mm.end());
  const std::size_t np = std::min<std::size_t>(pips_mm.size(), 32);
  cv::Point2d all(0, 0);
  for (std::size_t i = 0; i < np; ++i) {
    all += pips_mm[i];
    for (std::size_t j = i + 1; j < np; ++j) seeds.push_back(0.5 * (pips_mm[i] + pips_mm[j]));
  }
  seeds.push_back(all * (1.0 / static_cast<double>(np)));
  for (const auto& seed : seeds) {
    cv::Point2d m = seed;
    unsigned set = 0;
    for (int it = 0; it < 6; ++it) {
      unsigned now = 0;
      cv::Point2d sum(0, 0);
      int cnt = 0;
      for (std::size_t j = 0; j < pips_mm.size() && j < 32; ++j)
        if (cv::norm(pips_mm[j] - m) <= reach) now |= 1u << j, sum += pips_mm[j], ++cnt;
      if (cnt == 0) break;
      m = sum * (1.0 / cnt);
      if (now == set) break;
      set = now;
    }
    if (set == 0 || std::find(seen.begin(), seen.end(), set) != seen.end()) continue;
    seen.push_back(set);
    std::vector<cv::Point2d> members;
    for (std::size_t j = 0; j < pips_mm.size() && j < 32; ++j)
      if (set & (1u << j)) members.push_back(pips_mm[j]);
    double angle = 0;
    const double fit = metric_layout_fit(members, face_mm, &angle);
    if (fit > 0.06 && missing_pip_fit > 0 && members.size() >= 3 && members.size() <= 5) {
      // (robust41) A set of 3-5 pips that is no layout but a layout of one pip more less one of
      // its pips (missing_pip_fit): a pip the threshold lost (a glared black top's light pips
      // lifted with it, one of them under the threshold). Its centre is the whole layout's.
      cv::Point2d c(0, 0);
      double a = 0;
      const double f = missing_pip_layout_fit(members, face_mm, &c, &a);
      // Not the only reading of these pips: robust40's drop below is tried on them too (a speck
      // beside a 4 or a 3 can make it a 6 or a 5 less one pip), and the completed face stands for
      // no pips of its own, so it removes no part of itself below. It sorts first (one pip more).
      if (f <= missing_pip_fit) {
        out.push_back({c, static_cast<int>(members.size()) + 1, f, a, 1});
        valid.push_back(set);
      }
    }
    if (fit > 0.06) {
      // (robust40) A set of drop_min_pips-7 pips that is no layout, tried without each one of its
      // pips in turn: a speck of the sensor's noise or a glint on a black top, within the face's
      // reach, keeps its pips from their layout. The best-fitting such set, when it fits.
      if (drop_min_pips <= 0 || static_cast<int>(members.size()) < std::max(3, drop_min_pips) || members.size() > 7) continue;
      double best = 0.06, best_angle = 0;
      unsigned best_set = 0;
      cv::Point2d best_dropped(0, 0);
      std::vector<cv::Point2d> rest;
      for (std::size_t k = 0, bit = 0; k < members.size(); ++k) {
        while (!(set & (1u << bit))) ++bit;
        rest.clear();
        for (std::size_t j = 0; j < members.size(); ++j)
          if (j != k) rest.push_back(members[j]);
        double a = 0;
        const double f = metric_layout_fit(rest, face_mm, &a);
        if (f <= best && (best_set == 0 || f < best)) best = f, best_angle = a, best_set = set & ~(1u << bit), best_dropped = members[k];
        ++bit;
      }
      if (best_set == 0 || std::find(seen.begin(), seen.end(), best_set) != seen.end()) continue;
      seen.push_back(best_set);
      cv::Point2d c(0, 0);
      int cnt = 0;
      for (std::size_t j = 0; j < pips_mm.size() && j < 32; ++j)
        if (best_set & (1u << j)) c += pips_mm[j], ++cnt;
      out.push_back({c * (1.0 / cnt), cnt, best, best_angle, 0, 1, best_dropped});
      valid.push_back(best_set);
      continue;
    }
    out.push_back({m, static_cast<int>(members.size()), fit, angle});
    valid.push_back(set);
  }
  // A part of a face is no face: a set within another valid set goes (one corner of a 4).
  {
    std::vector<TopFacePips> kept;
    for (std::size_t i = 0; i < out.size(); ++i) {
      bool part = false;
      for (std::size_t j = 0; j < out.size() && !part; ++j)
        part = j != i && out[j].missing == 0 && valid[j] != valid[i] && (valid[i] & valid[j]) == valid[i];
      if (!part) kept.push_back(out[i]);
    }
    out.swap(kept);
  }
  const double dn = cv::norm(parallax_mm);
  const cv::Point2d du = dn > 1e-9 ? parallax_mm * (1.0 / dn) : cv::Point2d(0, 0);
  std::sort(out.begin(), out.end(), [&](const TopFacePips& a, const TopFacePips& b) {
    if (a.count != b.count) return a.count > b.count;
    return a.centre_mm.dot(du) < b.centre_mm.dot(du);
  });
  return out;
}

bool search_top_faces(const cv::Mat& image_bgr, const cv::Matx33d& plane_to_image, cv::Point2d centre_mm, double radius_mm,
                      bool dark_pips, const std::vector<float>& thresholds, cv::Point2d parallax_mm, double max_offset_mm,
                      PlaneSample& sample, const TopFaceVisit& visit, const TopFaceThreshold& on_threshold, int max_tries,
                      const PlanePipParams& params) {
  if (thresholds.empty()) return false;
  // The first threshold alone first (most dice are settled there), the others together
  // from the same sample only when needed.
  std::vector<std::vector<cv::Point2d>> pips_at = find_plane_pips(image_bgr, plane_to_image, centre_mm, radius_mm, dark_pips,
                                                                  std::vector<float>{thresholds[0]}, parallax_mm, params, &sample);
  for (std::size_t ti = 0; ti < thresholds.size(); ++ti) {
    if (ti == pips_at.size()) {
      const auto more = find_plane_pips(image_bgr, plane_to_image, centre_mm, radius_mm, dark_pips,
                                        std::vector<float>(thresholds.begin() + 1, thresholds.end()), parallax_mm, params, &sample);
      pips_at.insert(pips_at.end(), more.begin(), more.end());
    }
    const std::vector<cv::Point2d>& pips = pips_at[ti];
    const std::vector<TopFacePips> hyps = top_face_hypotheses(pips, parallax_mm, 16.0, params.drop_min_pips, params.missing_pip_fit);
    if (on_threshold) on_threshold(ti, pips, hyps);
    int tried = 0;
    for (const TopFacePips& h : hyps) {
      if (cv::norm(h.centre_mm - centre_mm) > max_offset_mm) continue;
      if (tried >= max_tries) break;
      ++tried;
      if (visit(ti, pips, h)) return true;
    }
  }
  return false;
}

std::string name_color(cv::Vec3f rel, const std::vector<ColorSample>& samples, int pip_polarity) {
  if (!samples.empty()) {
    // Nearest sample on lightness and chromaticity (illumination-robust-ish).
    auto feat = [](cv::Vec3f c) {
      const float s = c[0] + c[1] + c[2] + 1e-3f;
      return cv::Vec3f(s / 3.0f, 3.0f * c[1] / s, 3.0f * c[2] / s);
    };
    const cv::Vec3f f = feat(rel);
    double best = std::numeric_limits<double>::max();
    std::string name;
    for (const auto& s : samples) {
      const cv::Vec3f g = feat(s.bgr_rel);
      const double d = 0.5 * std::abs(f[0] - g[0]) + std::abs(f[1] - g[1]) + std::abs(f[2] - g[2]);
      if (d < best) { best = d; name = s.name; }
    }
    return name;
  }
  return builtin_color_name(builtin_color(rel, pip_polarity));
}

// (speed25) name_color's built-in colours without a std::string (the guard token's blue test asks
// ~20 000 pixels a frame): the same tests in the same order.
BuiltinColor builtin_color(cv::Vec3f rel, int pip_polarity) {
  const float bl = rel[0], g = rel[1], r = rel[2];
  const float mx = std::max({bl, g, r}), mn = std::min({bl, g, r});
  const float sat = mx > 1e-3f ? (mx - mn) / mx : 0.0f;
  // Glare from the light washes a coloured top face out towards white, so the grey
  // threshold is low: white-balanced white/black dice stay under ~0.1 saturation, the
  // palest glared coloured tops stay above ~0.16.
  if (mx < 0.30f && sat < 0.55f) return BuiltinColor::black;
  if (sat < 0.125f) {
    // Grey: light pips on a black die, dark pips on a white one; glare lifts a black top
    // to ~0.7 of the paper white and a shadow darkens a white one, so the pips decide
    // when known, lightness otherwise.
    if (pip_polarity != 0) return pip_polarity > 0 ? BuiltinColor::black : BuiltinColor::white;
    return mx < kGreySplit ? BuiltinColor::black : BuiltinColor::white;
  }
  // Hue in degrees (0 red, 60 yellow, 120 green, 240 blue).
  float h;
  if (mx == r) h = 60.0f * (g - bl) / (mx - mn);
  else if (mx == g) h = 60.0f * (bl - r) / (mx - mn) + 120.0f;
  else h = 60.0f * (r - g) / (mx - mn) + 240.0f;
  if (h < 0) h += 360.0f;
  if (h < 35.0f || h >= 300.0f) return BuiltinColor::red;
  if (h < 80.0f) return BuiltinColor::yellow;
  if (h < 175.0f) return BuiltinColor::green;
  return BuiltinColor::blue;
}

namespace {

// One pixel of builtin_color_row: read.cpp's colour_mask test as it was written there.
inline bool builtin_color_hit(const unsigned char* px, const cv::Vec3f& white, BuiltinColor want) {
  const cv::Vec3f rel_px(px[0] / white[0], px[1] / white[1], px[2] / white[2]);
  const float mx = std::max({rel_px[0], rel_px[1], rel_px[2]}), mn = std::min({rel_px[0], rel_px[1], rel_px[2]});
  if (mx <= 1e-3f || mx - mn < 0.125f * mx) return false;
  return builtin_color(rel_px) == want;
}

// One pixel of saturated_blue_row: read.cpp's guard-token test as it was written there.
inline bool saturated_blue_hit(const unsigned char* px, const cv::Vec3f& white, float min_sat) {
  const cv::Vec3f rel_px(px[0] / white[0], px[1] / white[1], px[2] / white[2]);
  if (!(rel_px[0] > rel_px[2])) return false;
  const float mx = std::max({rel_px[0], rel_px[1], rel_px[2]}), mn = std::min({rel_px[0], rel_px[1], rel_px[2]});
  return mx > 1e-3f && (mx - mn) >= min_sat * mx && builtin_color(rel_px) == BuiltinColor::blue;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HEXDICE_COLOUR_ROW_AVX2 1
// (speed44) An 8-bit mask as its 8 bytes 0 / 1 (bit k: byte k, little-endian as x86-64):
// the steps' hits stored in one 8-byte write, not a byte at a time.
constexpr std::array<std::uint64_t, 256> kBitBytes = [] {
  std::array<std::uint64_t, 256> t{};
  for (unsigned m = 0; m < 256; ++m)
    for (unsigned k = 0; k < 8; ++k) t[m] |= static_cast<std::uint64_t>((m >> k) & 1u) << (8 * k);
  return t;
}();
// builtin_color_row's 8-pixel steps: the three channels as floats (bytes, exact), divided by
// white's, max and min (exact in any order; a byte over a positive white is no NaN), the
// pre-test's and builtin_color's compares on the same floats: sat = (max - min) / max, the hue
// 60 (g - b) / (max - min) (+ 120, + 240 by the channel that is the max, as its == tests
// choose), + 360 below 0; no multiply and add fused (no FMA here). Lanes whose hue is not used
// (grey or black) may hold NaN or inf there: their name is set by the tests that come first
// in builtin_color. Where no pixel of the 8 is in the mask, nothing is computed.
// blue_sat > 0: the guard token's pre-test instead (blue over red, then saturated: max above
// 1e-3 and max - min at least blue_sat x max, as read.cpp's saturated() with a float).
__attribute__((target("avx2"), noinline)) int builtin_color_row_avx2(const unsigned char* bgr, const unsigned char* in, int n,
                                                                     const float* white, int want, float blue_sat,
                                                                     unsigned char* hit) {
  const __m128i zero16 = _mm_setzero_si128();
  const __m128i sb_lo = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i sb_hi = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i sg_lo = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i sg_hi = _mm_setr_epi8(-1, -1, -1, -1, -1, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i sr_lo = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i sr_hi = _mm_setr_epi8(-1, -1, -1, -1, -1, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256 wb = _mm256_set1_ps(white[0]), wg = _mm256_set1_ps(white[1]), wr = _mm256_set1_ps(white[2]);
  const __m256 c_eps = _mm256_set1_ps(1e-3f), c_8th = _mm256_set1_ps(0.125f), c_zero = _mm256_setzero_ps();
  const __m256 c_30 = _mm256_set1_ps(0.30f), c_55 = _mm256_set1_ps(0.55f), c_split = _mm256_set1_ps(kGreySplit);
  const __m256 c_60 = _mm256_set1_ps(60.0f), c_120 = _mm256_set1_ps(120.0f), c_240 = _mm256_set1_ps(240.0f),
               c_360 = _mm256_set1_ps(360.0f);
  const __m256 c_h35 = _mm256_set1_ps(35.0f), c_h300 = _mm256_set1_ps(300.0f), c_h80 = _mm256_set1_ps(80.0f),
               c_h175 = _mm256_set1_ps(175.0f);
  const __m256i k_black = _mm256_set1_epi32(static_cast<int>(BuiltinColor::black)),
                k_white = _mm256_set1_epi32(static_cast<int>(BuiltinColor::white)),
                k_red = _mm256_set1_epi32(static_cast<int>(BuiltinColor::red)),
                k_yellow = _mm256_set1_epi32(static_cast<int>(BuiltinColor::yellow)),
                k_green = _mm256_set1_epi32(static_cast<int>(BuiltinColor::green)),
                k_blue = _mm256_set1_epi32(static_cast<int>(BuiltinColor::blue)), k_want = _mm256_set1_epi32(want);
// m ? b : a, per 32-bit lane
#define HEXDICE_BLEND_I32(a, b, m) _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), (m)))
  int x = 0;
  for (; x + 8 <= n; x += 8) {
    const __m128i m8 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + x));
    const unsigned set = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(m8, zero16))) & 0xFFu;
    if (!set) {
      std::memset(hit + x, 0, 8);
      continue;
    }
    const unsigned char* p = bgr + 3 * x;  // 24 bytes: [p, p + 16) and [p + 8, p + 24)
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 8));
    const __m128i b8 = _mm_or_si128(_mm_shuffle_epi8(lo, sb_lo), _mm_shuffle_epi8(hi, sb_hi));
    const __m128i g8 = _mm_or_si128(_mm_shuffle_epi8(lo, sg_lo), _mm_shuffle_epi8(hi, sg_hi));
    const __m128i r8 = _mm_or_si128(_mm_shuffle_epi8(lo, sr_lo), _mm_shuffle_epi8(hi, sr_hi));
    const __m256 b = _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b8)), wb);
    const __m256 g = _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(g8)), wg);
    const __m256 r = _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(r8)), wr);
    const __m256 mx = _mm256_max_ps(_mm256_max_ps(b, g), r), mn = _mm256_min_ps(_mm256_min_ps(b, g), r);
    const __m256 d = _mm256_sub_ps(mx, mn);
    // The pre-test: !(mx <= 1e-3) && !(d < 0.125 mx); or b > r && mx > 1e-3 && d >= blue_sat mx.
    const __m256 pre =
        blue_sat > 0
            ? _mm256_and_ps(_mm256_cmp_ps(b, r, _CMP_GT_OQ),
                            _mm256_and_ps(_mm256_cmp_ps(mx, c_eps, _CMP_GT_OQ), _mm256_cmp_ps(d, _mm256_mul_ps(_mm256_set1_ps(blue_sat), mx), _CMP_GE_OQ)))
            : _mm256_and_ps(_mm256_cmp_ps(mx, c_eps, _CMP_NLE_UQ), _mm256_cmp_ps(d, _mm256_mul_ps(c_8th, mx), _CMP_NLT_UQ));
    // builtin_color.
    const __m256 sat = _mm256_blendv_ps(c_zero, _mm256_div_ps(d, mx), _mm256_cmp_ps(mx, c_eps, _CMP_GT_OQ));
    const __m256 is_r = _mm256_cmp_ps(mx, r, _CMP_EQ_OQ), is_g = _mm256_cmp_ps(mx, g, _CMP_EQ_OQ);
    const __m256 hr = _mm256_div_ps(_mm256_mul_ps(c_60, _mm256_sub_ps(g, b)), d);
    const __m256 hg = _mm256_add_ps(_mm256_div_ps(_mm256_mul_ps(c_60, _mm256_sub_ps(b, r)), d), c_120);
    const __m256 hb = _mm256_add_ps(_mm256_div_ps(_mm256_mul_ps(c_60, _mm256_sub_ps(r, g)), d), c_240);
    __m256 h = _mm256_blendv_ps(_mm256_blendv_ps(hb, hg, is_g), hr, is_r);
    h = _mm256_blendv_ps(h, _mm256_add_ps(h, c_360), _mm256_cmp_ps(h, c_zero, _CMP_LT_OQ));
    __m256i cls = k_blue;
    cls = HEXDICE_BLEND_I32(cls, k_green, _mm256_cmp_ps(h, c_h175, _CMP_LT_OQ));
    cls = HEXDICE_BLEND_I32(cls, k_yellow, _mm256_cmp_ps(h, c_h80, _CMP_LT_OQ));
    cls = HEXDICE_BLEND_I32(cls, k_red, _mm256_or_ps(_mm256_cmp_ps(h, c_h35, _CMP_LT_OQ), _mm256_cmp_ps(h, c_h300, _CMP_GE_OQ)));
    cls = HEXDICE_BLEND_I32(cls, HEXDICE_BLEND_I32(k_white, k_black, _mm256_cmp_ps(mx, c_split, _CMP_LT_OQ)), _mm256_cmp_ps(sat, c_8th, _CMP_LT_OQ));
    cls = HEXDICE_BLEND_I32(cls, k_black, _mm256_and_ps(_mm256_cmp_ps(mx, c_30, _CMP_LT_OQ), _mm256_cmp_ps(sat, c_55, _CMP_LT_OQ)));
    const __m256 ok = _mm256_and_ps(pre, _mm256_castsi256_ps(_mm256_cmpeq_epi32(cls, k_want)));
    const unsigned hits = static_cast<unsigned>(_mm256_movemask_ps(ok)) & set;
    std::memcpy(hit + x, &kBitBytes[hits], 8);  // hit[x + k] = (hits >> k) & 1
  }
  return x;
}
#undef HEXDICE_BLEND_I32
#endif

}  // namespace

int builtin_color_row(const unsigned char* bgr, const unsigned char* in, int n, cv::Vec3f white, BuiltinColor want,
                      unsigned char* hit, bool allow_avx2) {
  int x = 0;
#if defined(HEXDICE_COLOUR_ROW_AVX2)
  // (Every white channel positive and finite: a byte over it is no NaN, as the steps assume.)
  const bool white_ok = white[0] > 0 && white[1] > 0 && white[2] > 0 && std::isfinite(white[0]) && std::isfinite(white[1]) &&
                        std::isfinite(white[2]);
  if (allow_avx2 && white_ok && avx2_steps_on()) x = builtin_color_row_avx2(bgr, in, n, &white[0], static_cast<int>(want), 0.0f, hit);
#endif
  const int done = x;
  for (; x < n; ++x) hit[x] = in[x] && builtin_color_hit(bgr + 3 * x, white, want) ? 1 : 0;
  return done;
}

int saturated_blue_row(const unsigned char* bgr, const unsigned char* in, int n, cv::Vec3f white, float min_sat, unsigned char* hit,
                       bool allow_avx2) {
  int x = 0;
#if defined(HEXDICE_COLOUR_ROW_AVX2)
  const bool white_ok = white[0] > 0 && white[1] > 0 && white[2] > 0 && std::isfinite(white[0]) && std::isfinite(white[1]) &&
                        std::isfinite(white[2]);
  if (allow_avx2 && white_ok && min_sat > 0 && std::isfinite(min_sat) && avx2_steps_on())
    x = builtin_color_row_avx2(bgr, in, n, &white[0], static_cast<int>(BuiltinColor::blue), min_sat, hit);
#endif
  const int done = x;
  for (; x < n; ++x) hit[x] = in[x] && saturated_blue_hit(bgr + 3 * x, white, min_sat) ? 1 : 0;
  return done;
}

const char* builtin_color_name(BuiltinColor c) {
  switch (c) {
    case BuiltinColor::black: return "black";
    case BuiltinColor::white: return "white";
    case BuiltinColor::red: return "red";
    case BuiltinColor::yellow: return "yellow";
    case BuiltinColor::green: return "green";
    case BuiltinColor::blue: return "blue";
  }
  return "";
}

}  // namespace hexdice::vision
