#include "vision/dice_pips.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include <opencv2/imgproc.hpp>

namespace hexdice::vision {

namespace {

// Pip kinds: dark / light on grey, off the body colour, chroma, light on the brightest
// channel (Blob::kind).
constexpr int kKinds = 6;

// Ring test directions (16, every 22.5 degrees).
const std::array<float, 16> kRingCos = [] {
  std::array<float, 16> c{};
  for (int i = 0; i < 16; ++i) c[static_cast<std::size_t>(i)] = static_cast<float>(std::cos(i * CV_PI / 8));
  return c;
}();
const std::array<float, 16> kRingSin = [] {
  std::array<float, 16> c{};
  for (int i = 0; i < 16; ++i) c[static_cast<std::size_t>(i)] = static_cast<float>(std::sin(i * CV_PI / 8));
  return c;
}();

struct Blob {
  cv::Point2f p;
  float sigma = 0;
  float resp = 0;
  bool dark = true;
  int kind = 0;  // 0: dark on the grey patch, 1: light on the grey patch, 2: off the body colour, 3: chroma,
                 // 4: light on the brightest channel (max of B, G, R), 5: off the body's hue
  cv::Vec3f colour{0, 0, 0};  // BGR (or grey) at the centre, lightly smoothed
  float elong = 1;            // principal curvature ratio at its scale (PipParams::max_pip_shape_spread)
  float squash_tilt = 90;     // degrees between its sharpest curvature and the vertical (a flat dash: 0)
  float diameter() const { return 2.83f * sigma; }
};

// The region resampled to a canon x canon float patch of `image` (any channel count).
cv::Mat canonical_patch(const cv::Mat& image, const cv::Rect2f& region, int canon, double& scale, cv::Point2f& origin) {
  if (image.depth() != CV_8U || (image.channels() != 1 && image.channels() != 3)) return {};
  const float side = std::max({region.width, region.height, 4.0f});
  const cv::Point2f c(region.x + region.width / 2, region.y + region.height / 2);
  scale = side / canon;  // image pixels per patch pixel
  origin = c - cv::Point2f(side / 2, side / 2);
  // Integer crop with a margin, borders replicated, then resampled.
  const int x0 = static_cast<int>(std::floor(origin.x)) - 2, y0 = static_cast<int>(std::floor(origin.y)) - 2;
  const int w = static_cast<int>(std::ceil(side)) + 4;
  const cv::Rect want(x0, y0, w, w);
  const cv::Rect have = want & cv::Rect(0, 0, image.cols, image.rows);
  if (have.width < 2 || have.height < 2) return {};
  cv::Mat crop;
  cv::copyMakeBorder(image(have), crop, have.y - want.y, want.br().y - have.br().y, have.x - want.x, want.br().x - have.br().x,
                     cv::BORDER_REPLICATE);
  cv::Mat f;
  crop.convertTo(f, CV_32F);
  // Sub-pixel placement: patch pixel (i, j) samples the image at origin + (i + 0.5) * scale - 0.5.
  if (scale > 1.5) cv::GaussianBlur(f, f, cv::Size(0, 0), 0.45 * scale);
  const float s = static_cast<float>(scale);
  const cv::Matx23f m(s, 0, origin.x - static_cast<float>(x0) + 0.5f * s - 0.5f, 0, s,
                      origin.y - static_cast<float>(y0) + 0.5f * s - 0.5f);
  cv::Mat patch;
  cv::warpAffine(f, patch, m, cv::Size(canon, canon), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
  return patch;
}

// Colour-opponent channel: each pixel's BGR distance from the body colour (the median
// colour of the middle of the patch), over sqrt(3) so a grey step reads as on the grey
// patch. Pips stand out bright whatever their colour (red on black, yellow on green,
// black on marbled gold), where the grey patch may show almost no contrast.
// `given` (read_pips' body_colour) replaces that median when the two lie more than
// `max_shift` apart (the distance as the channel measures it); `used` receives the colour
// measured from.
cv::Mat body_distance(const cv::Mat& bgr_patch, const std::optional<cv::Vec3f>& given, double max_shift, cv::Vec3f& used) {
  const int n = bgr_patch.rows;
  std::array<std::vector<float>, 3> ch;
  const float c0 = (n - 1) / 2.0f, r = 0.3f * n;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if ((x - c0) * (x - c0) + (y - c0) * (y - c0) <= r * r) {
        const cv::Vec3f& v = bgr_patch.at<cv::Vec3f>(y, x);
        for (int k = 0; k < 3; ++k) ch[static_cast<std::size_t>(k)].push_back(v[k]);
      }
  cv::Vec3f body(0, 0, 0);
  for (int k = 0; k < 3; ++k) {
    auto& v = ch[static_cast<std::size_t>(k)];
    if (v.empty()) return {};
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    body[k] = v[v.size() / 2];
  }
  if (given && max_shift > 0) {
    const cv::Vec3f e = body - *given;
    if (std::sqrt(e.dot(e) / 3.0f) > max_shift) body = *given;
  }
  used = body;
  cv::Mat d(n, n, CV_32F);
  for (int y = 0; y < n; ++y) {
    const cv::Vec3f* p = bgr_patch.ptr<cv::Vec3f>(y);
    float* o = d.ptr<float>(y);
    for (int x = 0; x < n; ++x) {
      const cv::Vec3f e = p[x] - body;
      o[x] = std::sqrt(e.dot(e) / 3.0f);
    }
  }
  return d;
}

// The top face: the region of about the body colour (body distance below `t`) that covers
// most of the middle of the patch, its holes (the pips) filled, closed, its convex hull
// slightly grown. Side faces are lit differently and the background differs, so pips
// seen on a side face lie outside it. Empty when no such region is found.
cv::Mat top_face_mask(const cv::Mat& dist, double t, double close, double grow) {
  const int n = dist.rows;
  cv::Mat m = dist < t;
  const int cs = std::max(3, cvRound(close * n)) | 1;
  cv::morphologyEx(m, m, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {cs, cs}));
  cv::Mat labels, stats, cents;
  const int k = cv::connectedComponentsWithStats(m, labels, stats, cents, 8, CV_32S);
  if (k < 2) return {};
  std::vector<int> central(static_cast<std::size_t>(k), 0);
  const float c0 = (n - 1) / 2.0f, r = 0.22f * n;
  int disc = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if ((x - c0) * (x - c0) + (y - c0) * (y - c0) <= r * r) {
        ++disc;
        ++central[static_cast<std::size_t>(labels.at<int>(y, x))];
      }
  std::vector<cv::Point> pts;
  int covered = 0;
  for (int i = 1; i < k; ++i)
    if (central[static_cast<std::size_t>(i)] >= 0.1 * disc) {
      covered += central[static_cast<std::size_t>(i)];
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
          if (labels.at<int>(y, x) == i) pts.emplace_back(x, y);
    }
  if (covered < 0.3 * disc || pts.size() < 10) return {};
  std::vector<cv::Point> hull;
  cv::convexHull(pts, hull);
  cv::Mat out = cv::Mat::zeros(n, n, CV_8U);
  cv::fillConvexPoly(out, hull, cv::Scalar(255));
  if (cv::countNonZero(out) < 0.12 * n * n) return {};
  const int g = std::max(1, cvRound(grow * n));
  cv::dilate(out, out, cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * g + 1, 2 * g + 1}));
  return out;
}

// Blobs of `patch` of the given kinds (0 and 1: dark / light on grey; 2: bright on the
// body-distance patch; 3: bright on the chroma patch).
// The scale-normalised LoG responses of patch (dark-positive), one per scale of sigmas.
// Scale space by cascade: each scale blurs the previous one by the missing sigma (about half
// the kernel of blurring the patch afresh).
std::vector<cv::Mat> log_scale_space(const cv::Mat& patch, const PipParams& p, std::vector<float>& sigmas,
                                     std::vector<cv::Mat>* blurred = nullptr) {
  sigmas.clear();
  for (double s = p.min_sigma; s <= p.max_sigma_frac * p.canon; s *= p.sigma_step) sigmas.push_back(static_cast<float>(s));
  std::vector<cv::Mat> resp;
  cv::Mat prev = patch;
  float prev_s = 0;
  for (float s : sigmas) {
    cv::Mat g, l;
    cv::GaussianBlur(prev, g, cv::Size(0, 0), std::sqrt(s * s - prev_s * prev_s));
    prev = g;
    prev_s = s;
    if (blurred) blurred->push_back(g);
    cv::Laplacian(g, l, CV_32F, 3);
    resp.push_back(l * (s * s));
  }
  return resp;
}

// The median of a square single-channel float patch over the disc of radius 0.3 of its side
// round its centre (the middle of a die's face: its body); nothing when the disc is empty.
std::optional<float> middle_median(const cv::Mat& m) {
  std::vector<float> mid;
  const int n = m.rows;
  const float c0 = (n - 1) / 2.0f, r = 0.3f * n;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if ((x - c0) * (x - c0) + (y - c0) * (y - c0) <= r * r) mid.push_back(m.at<float>(y, x));
  if (mid.empty()) return std::nullopt;
  std::nth_element(mid.begin(), mid.begin() + static_cast<long>(mid.size() / 2), mid.end());
  return mid[mid.size() / 2];
}

// A blob's elongation on `g`, the patch blurred at its scale: the ratio of the principal
// curvatures (eigenvalues of the Hessian, central differences at its centre pixel) along
// its polarity, the larger over the smaller; a disc 1, a streak or a saddle kMaxElong. Also
// the tilt of its sharpest curvature from the vertical (degrees, 0..90): a pip squashed
// vertically, as a side face's pip seen by a camera looking down at a slant, has tilt 0.
constexpr float kMaxElong = 100;
void set_elongation(const cv::Mat& g, Blob& b) {
  const int x = std::clamp(cvRound(b.p.x), 1, g.cols - 2), y = std::clamp(cvRound(b.p.y), 1, g.rows - 2);
  auto at = [&](int dx, int dy) { return g.at<float>(y + dy, x + dx); };
  const float s = b.dark ? 1.0f : -1.0f;  // dark pips: a minimum, curvatures positive
  const float dxx = s * (at(1, 0) - 2 * at(0, 0) + at(-1, 0)), dyy = s * (at(0, 1) - 2 * at(0, 0) + at(0, -1));
  const float dxy = s * 0.25f * (at(1, 1) - at(1, -1) - at(-1, 1) + at(-1, -1));
  const float mid = 0.5f * (dxx + dyy), rad = std::sqrt(0.25f * (dxx - dyy) * (dxx - dyy) + dxy * dxy);
  const float lo = mid - rad, hi = mid + rad;
  b.elong = lo <= 0 || hi <= 0 ? kMaxElong : std::min(kMaxElong, hi / lo);
  // the larger eigenvalue's direction, from the x axis; its tilt from the vertical
  const float theta = 0.5f * std::atan2(2 * dxy, dxx - dyy) * 57.29578f;
  b.squash_tilt = 90 - std::abs(theta);
}

std::vector<Blob> log_blobs(const cv::Mat& patch, const PipParams& p, int kind_dark, int kind_light) {
  std::vector<float> sigmas;
  std::vector<cv::Mat> blurred;  // the patch at each scale (PipParams::max_pip_shape_spread)
  const std::vector<cv::Mat> resp =
      log_scale_space(patch, p, sigmas, p.max_pip_shape_spread > 0 ? &blurred : nullptr);  // dark-positive response per scale
  std::vector<Blob> out;
  std::vector<int> level;  // each blob's scale index
  const float c0 = (p.canon - 1) / 2.0f;
  const float r2 = static_cast<float>(p.search_radius * p.canon * p.search_radius * p.canon);
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  for (int pol = 0; pol < 2; ++pol) {
    const int kind = pol == 0 ? kind_dark : kind_light;
    if (kind < 0) continue;
    std::vector<cv::Mat> r(resp.size()), dil(resp.size());
    for (std::size_t k = 0; k < resp.size(); ++k) {
      r[k] = pol == 0 ? resp[k] : -resp[k];
      cv::dilate(r[k], dil[k], k3);
    }
    for (std::size_t k = 0; k < r.size(); ++k) {
      for (int y = 1; y < p.canon - 1; ++y) {
        const float* row = r[k].ptr<float>(y);
        const float* d0 = dil[k].ptr<float>(y);
        const float* dm = k > 0 ? dil[k - 1].ptr<float>(y) : nullptr;
        const float* dp = k + 1 < r.size() ? dil[k + 1].ptr<float>(y) : nullptr;
        for (int x = 1; x < p.canon - 1; ++x) {
          const float v = row[x];
          if (v < p.min_response || v < d0[x]) continue;
          if (dm && v < dm[x]) continue;
          if (dp && v < dp[x]) continue;
          const float dx = x - c0, dy = y - c0;
          if (dx * dx + dy * dy > r2) continue;
          // Sub-pixel centre: parabola through the neighbours.
          auto refine = [](float a, float b, float c) {
            const float den = a - 2 * b + c;
            return std::abs(den) > 1e-6f ? std::clamp(0.5f * (a - c) / den, -0.5f, 0.5f) : 0.0f;
          };
          const float ox = refine(row[x - 1], v, row[x + 1]);
          const float oy = refine(r[k].at<float>(y - 1, x), v, r[k].at<float>(y + 1, x));
          out.push_back({cv::Point2f(x + ox, y + oy), sigmas[k], v, pol == 0, kind});
          level.push_back(static_cast<int>(k));
        }
      }
    }
  }
  // Strongest first; a pip is surrounded by body all round: on a ring just outside it the
  // contrast to its centre keeps its sign everywhere (a die corner against the background,
  // a streak or a marbling edge does not). Tested lazily, strongest first, until 40 are
  // kept (the same blobs as testing all of them first).
  if (!blurred.empty())
    for (std::size_t i = 0; i < out.size(); ++i) set_elongation(blurred[static_cast<std::size_t>(level[i])], out[i]);
  std::stable_sort(out.begin(), out.end(), [](const Blob& a, const Blob& b) { return a.resp > b.resp; });
  cv::Mat sm;
  cv::GaussianBlur(patch, sm, cv::Size(0, 0), 1.0);
  auto ring_ok = [&](const Blob& b) {
    const float r = 1.414f * b.sigma;
    const float centre = sm.at<float>(std::clamp(cvRound(b.p.y), 0, p.canon - 1), std::clamp(cvRound(b.p.x), 0, p.canon - 1));
    std::array<float, 16> c{};
    for (int i = 0; i < 16; ++i) {
      const int x = std::clamp(cvRound(b.p.x + p.ring * r * kRingCos[static_cast<std::size_t>(i)]), 0, p.canon - 1);
      const int y = std::clamp(cvRound(b.p.y + p.ring * r * kRingSin[static_cast<std::size_t>(i)]), 0, p.canon - 1);
      const float v = sm.at<float>(y, x) - centre;
      c[static_cast<std::size_t>(i)] = b.dark ? v : -v;
    }
    std::sort(c.begin(), c.end());
    const float med = c[8];
    return med > 0 && c[1] >= p.ring_min * med;
  };
  // Same polarity, about the same place and size: keep the strongest.
  std::vector<Blob> kept;
  for (const auto& b : out) {
    bool dup = false;
    for (const auto& k : kept)
      if (k.kind == b.kind && cv::norm(k.p - b.p) < 0.5f * std::max(k.diameter(), b.diameter()) &&
          std::max(k.sigma, b.sigma) < 1.6f * std::min(k.sigma, b.sigma)) {
        dup = true;
        break;
      }
    if (dup || !ring_ok(b)) continue;
    kept.push_back(b);
    if (kept.size() >= 40) break;
  }
  return kept;
}

struct Fit {
  bool ok = false;
  double fit = 1;
  cv::Point2f c, u, v;  // centre, lattice basis (corner pip = c +- u +- v)
  float g = 0;          // spacing
};


// Polarity of colour-channel pips on the grey patch: darker than the patch median.
bool grey_dark_at(const cv::Mat& patch, const std::vector<cv::Point2f>& pts) {
  cv::Mat sorted = patch.reshape(1, 1).clone();
  cv::sort(sorted, sorted, cv::SORT_ASCENDING);
  const float med = sorted.at<float>(0, sorted.cols / 2);
  float sum = 0;
  for (const auto& q : pts)
    sum += patch.at<float>(std::clamp(cvRound(q.y), 0, patch.rows - 1), std::clamp(cvRound(q.x), 0, patch.cols - 1));
  return sum / static_cast<float>(std::max<std::size_t>(1, pts.size())) < med;
}

cv::Point2f perp(cv::Point2f a) { return {-a.y, a.x}; }
float len(cv::Point2f a) { return std::sqrt(a.dot(a)); }

// Perfect matchings of up to 6 indices minimising the sum of |q_i + q_j|.
void best_pairs(const std::vector<cv::Point2f>& q, std::vector<int> idx, std::vector<std::pair<int, int>>& cur,
                double cost, double& best, std::vector<std::pair<int, int>>& best_pairs_out) {
  if (idx.empty()) {
    if (cost < best) {
      best = cost;
      best_pairs_out = cur;
    }
    return;
  }
  const int a = idx[0];
  for (std::size_t j = 1; j < idx.size(); ++j) {
    const int b = idx[j];
    std::vector<int> rest;
    for (std::size_t k = 1; k < idx.size(); ++k)
      if (k != j) rest.push_back(idx[k]);
    cur.push_back({a, b});
    best_pairs(q, rest, cur, cost + len(q[static_cast<std::size_t>(a)] + q[static_cast<std::size_t>(b)]), best, best_pairs_out);
    cur.pop_back();
  }
}

Fit fit_layout(const std::vector<cv::Point2f>& pts, float d, const PipParams& p) {
  Fit f;
  const int n = static_cast<int>(pts.size());
  cv::Point2f c(0, 0);
  for (const auto& q : pts) c += q;
  c *= 1.0f / static_cast<float>(n);
  f.c = c;
  if (n == 1) {
    f.g = 1.5f * d;
    f.u = {f.g, 0};
    f.v = {0, f.g};
    f.ok = true;
    f.fit = 0;
    return f;
  }
  std::vector<cv::Point2f> q;
  for (const auto& x : pts) q.push_back(x - c);
  std::vector<int> idx;
  float centre_res = 0;
  int centre = -1;
  if (n % 2 == 1) {
    float bl = std::numeric_limits<float>::max();
    for (int i = 0; i < n; ++i)
      if (len(q[static_cast<std::size_t>(i)]) < bl) {
        bl = len(q[static_cast<std::size_t>(i)]);
        centre = i;
      }
    centre_res = bl;
  }
  for (int i = 0; i < n; ++i)
    if (i != centre) idx.push_back(i);
  std::vector<std::pair<int, int>> cur, pairs;
  double best = std::numeric_limits<double>::max();
  best_pairs(q, idx, cur, 0, best, pairs);
  std::vector<cv::Point2f> h;
  float worst = centre_res;
  for (const auto& [a, b] : pairs) {
    h.push_back((q[static_cast<std::size_t>(a)] - q[static_cast<std::size_t>(b)]) * 0.5f);
    worst = std::max(worst, 0.5f * len(q[static_cast<std::size_t>(a)] + q[static_cast<std::size_t>(b)]));
  }
  cv::Point2f a, b;
  if (h.size() == 1) {
    a = h[0];
    b = perp(a);
  } else {
    std::size_t ia = 0, ib = 1;
    if (h.size() == 3) {
      // The middle pair lies half way between the corner pairs (up to signs).
      float bm = std::numeric_limits<float>::max();
      std::size_t mid = 0;
      for (std::size_t m = 0; m < 3; ++m) {
        const cv::Point2f x = h[(m + 1) % 3], y = h[(m + 2) % 3];
        for (const cv::Point2f& e : {(x + y) * 0.5f, (x - y) * 0.5f}) {
          const float r = std::min(len(h[m] - e), len(h[m] + e));
          if (r < bm) {
            bm = r;
            mid = m;
          }
        }
      }
      ia = (mid + 1) % 3;
      ib = (mid + 2) % 3;
      worst = std::max(worst, bm);
    }
    a = h[ia];
    b = h[ib];
    const float la = len(a), lb = len(b);
    if (la < 1e-3f || lb < 1e-3f) return f;
    const float ratio = la / lb;
    if (ratio < 0.55f || ratio > 1.8f) return f;
    if (std::abs(a.dot(b)) / (la * lb) > 0.77f) return f;  // corner diagonals at least 40 degrees apart
  }
  f.u = (a + b) * 0.5f;
  f.v = (a - b) * 0.5f;
  if (h.size() >= 2) {
    // The face's sides: a square seen at most so obliquely (4, 5 and 6 fix the lattice).
    const float lu = len(f.u), lv = len(f.v);
    if (std::min(lu, lv) < p.min_side_ratio * std::max(lu, lv)) return f;
    if (std::abs(f.u.dot(f.v)) > p.max_side_cos * lu * lv) return f;
  }
  f.g = std::sqrt(len(a) * len(b)) / 1.4142f;
  if (f.g < 1e-3f) return f;
  if (f.g / d < p.min_spacing || f.g / d > p.max_spacing) return f;
  f.fit = worst / f.g;
  f.ok = f.fit <= p.max_fit;
  return f;
}

}  // namespace

PipRead read_pips(const cv::Mat& image, const cv::Rect2f& region, const PipParams& p, const std::optional<cv::Vec3f>& body_colour,
                  double body_shift) {
  PipRead out;
  if (image.empty() || p.canon < 16) return out;
  double scale = 1;
  cv::Point2f origin;
  const cv::Mat cpatch = canonical_patch(image, region, p.canon, scale, origin);
  // A point of the canonical patch in image pixels (a pixel's centre).
  const auto to_image = [&](cv::Point2f q) { return origin + (q + cv::Point2f(0.5f, 0.5f)) * static_cast<float>(scale); };
  if (cpatch.empty()) return out;
  cv::Mat patch;
  if (cpatch.channels() == 3) cv::cvtColor(cpatch, patch, cv::COLOR_BGR2GRAY);
  else patch = cpatch;
  const bool colour = cpatch.channels() == 3 && p.colour_channel;
  std::vector<Blob> blobs = log_blobs(patch, p, 0, 1);
  cv::Mat dist, top;
  if (colour) {
    cv::Vec3f used;
    dist = body_distance(cpatch, body_colour, body_shift, used);
    if (!dist.empty()) {
      out.body = used;
      std::vector<cv::Mat> ch;  // B, G, R
      if (p.chroma_channel || p.value_channel_max_body > 0 || p.hue_channel_min_body > 0) cv::split(cpatch, ch);
      const std::vector<Blob> more = log_blobs(dist, p, -1, 2);
      blobs.insert(blobs.end(), more.begin(), more.end());
      if (p.chroma_channel) {
        // Chroma (max - min of B, G, R): red pips on a dark, smoky or blue-marbled die
        // stand out, the white glint arcs and marbling beside them (grey, little chroma)
        // do not.
        const cv::Mat chroma = cv::max(cv::max(ch[0], ch[1]), ch[2]) - cv::min(cv::min(ch[0], ch[1]), ch[2]);
        // A chroma pip is saturated: its chroma exceeds the body's (the median of the
        // middle of the patch) by chroma_min_excess. The colour fringes JPEG leaves round
        // the black pips of a white die are faint chroma blobs, no pips.
        cv::Mat sm;
        cv::GaussianBlur(chroma, sm, cv::Size(0, 0), 1.0);
        const int n = chroma.rows;
        const float body = middle_median(chroma).value_or(0.0f);
        for (const Blob& b : log_blobs(chroma, p, -1, 3)) {
          const int x = std::clamp(cvRound(b.p.x), 0, n - 1), y = std::clamp(cvRound(b.p.y), 0, n - 1);
          if (sm.at<float>(y, x) - body >= p.chroma_min_excess) {
            blobs.push_back(b);
            blobs.back().resp *= static_cast<float>(p.chroma_weight);
          }
        }
      }
      if (p.hue_channel_min_body > 0) {
        // Off the body's hue: the opponent chroma (a, b) = (R - G, (R + G) / 2 - B) of each
        // pixel less its part along the body's (the median of the middle), halved: 0 on the
        // body's hue at any lightness or saturation (light marbling, glints fade towards
        // grey), |ab| for a pip of the opposite hue (red pips on a blue die).
        const cv::Mat a = ch[2] - ch[1], bb = (ch[2] + ch[1]) * 0.5 - ch[0];
        const std::optional<float> ma = middle_median(a), mb = middle_median(bb);
        const float len = ma && mb ? std::hypot(*ma, *mb) : 0.0f;
        if (len >= p.hue_channel_min_body) {
          cv::Mat mag;
          cv::magnitude(a, bb, mag);
          const cv::Mat off = (mag - (a * (*ma / len) + bb * (*mb / len))) * 0.5;
          for (Blob b : log_blobs(off, p, -1, 5)) {
            b.resp *= static_cast<float>(p.chroma_weight);
            blobs.push_back(b);
          }
        }
      }
      if (p.value_channel_max_body > 0) {
        // Brightest channel (max of B, G, R) on a dark body: a red pip of a smoky or
        // dark die is dim on grey (luma weighs red 0.3), bright in its own channel.
        const cv::Mat value = cv::max(cv::max(ch[0], ch[1]), ch[2]);
        const std::optional<float> body = middle_median(value);
        if (body && *body < p.value_channel_max_body) {
          const std::vector<Blob> light = log_blobs(value, p, -1, 4);
          blobs.insert(blobs.end(), light.begin(), light.end());
        }
      }
      if (p.top_face_distance > 0) {
        top = top_face_mask(dist, p.top_face_distance, p.top_face_close, p.top_face_grow);
        if (!top.empty()) {
          cv::Mat inside;
          if (p.edge_margin > 0) cv::distanceTransform(top, inside, cv::DIST_L2, 3);
          const double top_side = std::sqrt(static_cast<double>(cv::countNonZero(top)));
          std::vector<Blob> on;
          for (const auto& b : blobs) {
            const int x = std::clamp(cvRound(b.p.x), 0, p.canon - 1), y = std::clamp(cvRound(b.p.y), 0, p.canon - 1);
            if (!top.at<uchar>(y, x)) continue;
            if (p.edge_margin > 0 && inside.at<float>(y, x) < p.edge_margin * b.diameter()) continue;
            // Pip size relative to the face: no pip is half as wide as its face.
            if (p.max_pip_frac > 0 && b.diameter() > p.max_pip_frac * top_side) continue;
            on.push_back(b);
          }
          blobs.swap(on);
        }
      }
    }
  }
  if (p.max_colour_spread > 0) {
    cv::Mat sm;
    cv::GaussianBlur(cpatch, sm, cv::Size(0, 0), 1.0);
    for (auto& b : blobs) {
      const int x = std::clamp(cvRound(b.p.x), 0, p.canon - 1), y = std::clamp(cvRound(b.p.y), 0, p.canon - 1);
      if (sm.channels() == 3) b.colour = sm.at<cv::Vec3f>(y, x);
      else b.colour = cv::Vec3f::all(sm.at<float>(y, x));
    }
  }
  const float c0 = (p.canon - 1) / 2.0f;
  double best_score = 0;
  int best_kind = -1;
  std::array<PipRead, kKinds> six;  // the best "6" of each pip kind
  std::array<double, kKinds> six_score{};
  PipRead one;  // the best lone pip (PipParams::min_face)
  std::vector<std::pair<double, cv::Point2f>> lone;  // every lone-pip layout's score and pip, image pixels (PipParams::lone_pip_off_face)
  double one_score = 0;
  int one_kind = -1;  // its pip kind (PipParams::min_face_same_kind)
  for (int pol = 0; pol < (colour ? kKinds : 2); ++pol) {
    std::vector<const Blob*> same;
    for (const auto& b : blobs)
      if (b.kind == pol) same.push_back(&b);
    std::vector<std::vector<const Blob*>> tried;
    for (int r = 0; r < p.references && r < static_cast<int>(same.size()); ++r) {
      const Blob& ref = *same[static_cast<std::size_t>(r)];
      std::vector<const Blob*> cand;
      for (const Blob* b : same)
        if (b->sigma <= ref.sigma * p.size_ratio && b->sigma * p.size_ratio >= ref.sigma &&
            b->resp >= p.min_rel_response * ref.resp && static_cast<int>(cand.size()) < p.max_candidates)
          cand.push_back(b);
      // Another reference often selects the same candidates: their subsets score the same
      // (the score does not depend on the reference), so they are fitted once.
      if (std::find(tried.begin(), tried.end(), cand) != tried.end()) continue;
      tried.push_back(cand);
      const int n = static_cast<int>(cand.size());
      for (int mask = 1; mask < (1 << n); ++mask) {
        const int k = __builtin_popcount(static_cast<unsigned>(mask));
        if (k > 6) continue;
        std::vector<cv::Point2f> pts;
        float dsum = 0, rsum = 0;
        const Blob* round_pip = nullptr;  // the pair's roundest and most elongated pips (max_pip_shape_spread)
        const Blob* dash = nullptr;
        cv::Vec3f cmin = cv::Vec3f::all(1e9f), cmax = cv::Vec3f::all(-1e9f);
        for (int i = 0; i < n; ++i)
          if (mask & (1 << i)) {
            const Blob& b = *cand[static_cast<std::size_t>(i)];
            pts.push_back(b.p);
            dsum += b.diameter();
            rsum += b.resp;
            if (!round_pip || b.elong < round_pip->elong) round_pip = &b;
            if (!dash || b.elong >= dash->elong) dash = &b;
            for (int c = 0; c < 3; ++c) {
              cmin[c] = std::min(cmin[c], b.colour[c]);
              cmax[c] = std::max(cmax[c], b.colour[c]);
            }
          }
        // Dark pips: dark on the grey patch (kind 0), or colour-channel pips darker than the
        // patch's median (asked only when needed: grey_dark_at sorts the patch).
        const auto dark_pips = [&] { return pol == 0 || (pol >= 2 && grey_dark_at(patch, pts)); };
        // The pips of one face are of one colour: a lone red "1" with a glint, or a red
        // pip with the white marbling of a blue die, are no "2".
        if (k > 1 && p.max_colour_spread > 0) {
          const cv::Vec3f e = cmax - cmin;
          if (std::sqrt(e.dot(e) / 3.0f) > p.max_colour_spread) continue;
        }
        // ... and a pair is no round pip and a dash below it, squashed vertically: the top
        // face's lone pip and a side face's pip seen edge-on (penlington's white "1").
        if (k == 2 && p.max_pip_shape_spread > 0 && dash != round_pip && dash->elong > p.max_pip_shape_spread * round_pip->elong &&
            round_pip->elong <= p.round_pip_max_elong && dash->p.y > round_pip->p.y && dash->squash_tilt <= p.dash_max_tilt && dark_pips())
          continue;
        const float d = dsum / static_cast<float>(k);
        const Fit f = fit_layout(pts, d, p);
        if (!f.ok) continue;
        // Strays on the face reject the layout.
        const float det = f.u.x * f.v.y - f.u.y * f.v.x;
        if (std::abs(det) < 1e-6f) continue;
        bool stray = false;
        for (int i = 0; i < n && !stray; ++i) {
          if (mask & (1 << i)) continue;
          const cv::Point2f e = cand[static_cast<std::size_t>(i)]->p - f.c;
          const float lx = (e.x * f.v.y - e.y * f.v.x) / det, ly = (f.u.x * e.y - f.u.y * e.x) / det;
          if (std::abs(lx) < p.face_extent && std::abs(ly) < p.face_extent) stray = true;
        }
        if (stray) continue;
        const double off = cv::norm(f.c - cv::Point2f(c0, c0)) / p.canon;
        // A "2" sums two responses, so a lone strong pip with a weak neighbour (a side
        // face's pip at the outline, a glint, a marbling spot) outscored the lone "1":
        // a pair must beat it by 1 / two_weight.
        const double score = (p.mean_score ? rsum / k : rsum) * (1.0 - 0.5 * f.fit / p.max_fit) *
                             (1.0 - std::clamp(p.centre_weight * (off - p.centre_free), 0.0, 0.9)) *
                             (k == 2 ? p.two_weight : 1.0);
        auto fill = [&](PipRead& dst) {
          dst.face = k;
          dst.fit = f.fit;
          dst.strength = rsum / k;
          dst.dark_pips = dark_pips();
          dst.pip_diameter = static_cast<float>(d * scale);
          dst.centre = to_image(f.c);
          dst.spacing = static_cast<float>(f.g * scale);
          dst.pips.clear();
          for (const auto& q : pts) dst.pips.push_back(to_image(q));
        };
        if (k == 6 && p.six_shared_pips > 0 && score > six_score[static_cast<std::size_t>(pol)]) {
          six_score[static_cast<std::size_t>(pol)] = score;
          fill(six[static_cast<std::size_t>(pol)]);
        }
        if (k == 1 && p.lone_pip_off_face) lone.emplace_back(score, to_image(pts[0]));
        if (k == 1 && score > one_score) {
          one_score = score;
          one_kind = pol;
          fill(one);
        }
        out.face_score[static_cast<std::size_t>(k)] = std::max(out.face_score[static_cast<std::size_t>(k)], static_cast<float>(score));
        if (score > best_score) {
          best_score = score;
          best_kind = pol;
          fill(out);  // (leaves face_score)
        }
      }
    }
  }
  // Two rows of a six read as a "4" in one kind, the whole six in another: the six.
  if (p.six_shared_pips > 0 && out.face == 4) {
    for (int q = 0; q < kKinds; ++q) {
      const PipRead& s6 = six[static_cast<std::size_t>(q)];
      if (q == best_kind || s6.face != 6) continue;
      const float tol = 0.6f * std::max(out.pip_diameter, s6.pip_diameter);
      int shared = 0;
      for (const auto& a : out.pips) {
        bool near = false;
        for (const auto& b : s6.pips) near = near || cv::norm(a - b) < tol;
        shared += near ? 1 : 0;
      }
      if (shared >= p.six_shared_pips) {
        const auto scores = out.face_score;
        out = s6;
        out.face_score = scores;
        out.face_score[6] = std::max(scores[6], scores[4]);
        best_kind = q;  // the six's kind is the read's now (min_face_same_kind below)
        break;
      }
    }
  }
  // A four that may be two rows of a six whose third row was lost (PipParams::six_missing_pair):
  // the six is not ruled out.
  if (p.six_missing_pair > 0 && out.face == 4 && out.pips.size() == 4 && out.face_score[6] < out.face_score[4]) {
    const std::vector<cv::Point2f>& q = out.pips;
    // The lattice c +- u +- v: the pip nearest q[0] along each side.
    std::array<std::size_t, 3> o{1, 2, 3};
    std::sort(o.begin(), o.end(), [&](std::size_t a, std::size_t b) { return cv::norm(q[a] - q[0]) < cv::norm(q[b] - q[0]); });
    const cv::Point2f c = (q[0] + q[1] + q[2] + q[3]) * 0.25f;
    const cv::Point2f u = (q[o[0]] - q[0]) * 0.5f, v = (q[o[1]] - q[0]) * 0.5f;
    const float d = out.pip_diameter;
    const float tol = static_cast<float>(p.six_missing_pair) * d;
    auto pip_at = [&](cv::Point2f at) {
      for (const auto& b : blobs) {
        if (out.dark_pips ? b.kind == 1 : b.kind == 0) continue;  // the other polarity on grey
        const float bd = b.diameter() * static_cast<float>(scale);
        if (bd < 0.5f * d || bd > 2.0f * d) continue;
        if (cv::norm(to_image(b.p) - at) < tol) return true;
      }
      return false;
    };
    // Only a four clearly longer than wide: a square four's next pair would lie off its die.
    const cv::Point2f f = len(u) < len(v) ? u : v, e = len(u) < len(v) ? v : u;
    if (len(f) < p.six_missing_aspect * len(e) &&
        ((pip_at(c + 3 * f + e) && pip_at(c + 3 * f - e)) || (pip_at(c - 3 * f + e) && pip_at(c - 3 * f - e))))
      out.face_score[6] = out.face_score[4];
  }
  // A face of 2..6 pips far narrower than the square beside a far larger lone pip is glints
  // or specks beside that pip: the lone pip is the face, and the two swap their scores. The
  // lone pip must be of the face's pip kind (PipParams::min_face_same_kind).
  if (p.min_face > 0 && out.face >= 2 && one.face == 1 && 3.7 * out.spacing < p.min_face * p.canon * scale &&
      one.pip_diameter >= p.min_face_lone_pip * out.pip_diameter && (!p.min_face_same_kind || one_kind == best_kind)) {
    auto scores = out.face_score;
    std::swap(scores[1], scores[static_cast<std::size_t>(out.face)]);
    const auto body = out.body;
    out = one;
    out.face_score = scores;
    out.body = body;
  }
  // A pip of a 2, 4 or 6 alone is no "1": the 1's score is that of the best lone pip off the face.
  if (p.lone_pip_off_face && (out.face == 2 || out.face == 4 || out.face == 6)) {
    double s1 = 0;
    for (const auto& [s, at] : lone) {
      const bool on_face = std::any_of(out.pips.begin(), out.pips.end(), [&](const cv::Point2f& f) { return cv::norm(f - at) < 0.5f * out.pip_diameter; });
      if (!on_face) s1 = std::max(s1, s);
    }
    out.face_score[1] = static_cast<float>(s1);
  }
  if (p.nested_score != 1.0 && out.face >= 1 && out.face <= 6) {
    // The faces whose standard layout lies inside the read face's (bit f = face f).
    static constexpr std::array<unsigned, 7> kNested{0, 0, 0, 0b110, 0b100, 0b11110, 0b10100};
    for (int f = 1; f <= 6; ++f)
      if (kNested[static_cast<std::size_t>(out.face)] & (1u << f))
        out.face_score[static_cast<std::size_t>(f)] *= static_cast<float>(p.nested_score);
  }
  return out;
}

}  // namespace hexdice::vision
