// The lattice face reader (read_face_lattice, die_face.h): fits the standard pip
// layouts to a crop instead of counting components.
//
// 1. Canonical 48 px crop; body colour = per-channel median of a central disc.
// 2. Pip response R = DoG(|pixel - body|): a blob-shaped difference from the body colour
//    of about pip size, whatever its polarity (white pips on red, black pips on white),
//    while large regions (glare patches, shadows, paper at a crop edge) cancel out.
// 3. Every standard layout is a subset of one 3x3 lattice (centre c, angle t, spacing a).
//    For each layout hypothesis (1, 2 / 2', 3 / 3', 4, 5, 6 / 6') the lattice pose is
//    searched (coarse grid, then two refinements) for the best margin: the weakest
//    response on its pips minus the strongest on the lattice's other positions.
// 4. A layout must also explain every strong response peak on the face: the margin uses
//    the strongest peak further than 0.45 a from its pips as well.
// 5. Face = the best margin; confidence = its separation from the best other face,
//    relative to its weakest pip, times a contrast term.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/die_face.h"
#include "vision/mask_ops.h"

namespace hexdice::vision {

namespace {

constexpr int kN = 48;  // canonical crop side

struct Hyp {
  int face;
  std::uint16_t on;  // bit k: lattice position k = (j + 1) * 3 + (i + 1), i, j in -1..1
};
constexpr std::array<Hyp, 9> kHyps{{
    {1, 1u << 4},
    {2, (1u << 0) | (1u << 8)},
    {2, (1u << 2) | (1u << 6)},
    {3, (1u << 0) | (1u << 4) | (1u << 8)},
    {3, (1u << 2) | (1u << 4) | (1u << 6)},
    {4, (1u << 0) | (1u << 2) | (1u << 6) | (1u << 8)},
    {5, (1u << 0) | (1u << 2) | (1u << 4) | (1u << 6) | (1u << 8)},
    {6, (1u << 0) | (1u << 2) | (1u << 3) | (1u << 5) | (1u << 6) | (1u << 8)},
    {6, (1u << 0) | (1u << 1) | (1u << 2) | (1u << 6) | (1u << 7) | (1u << 8)},
}};

struct Pose {
  float cx = 0, cy = 0, th = 0, a = 0;
};

constexpr float kOutside = -1000.0f;

struct Maps {
  cv::Mat r;     // pip response
  cv::Mat rmax;   // 3x3 maximum of r (tolerance to layouts a little off the lattice)
  cv::Mat rmax5;  // 5x5 maximum: the coarse search's tolerance
  std::vector<std::pair<float, cv::Point2f>> peaks;  // local maxima of r, strongest first
};

// A map padded by one pixel of kOutside on every side (kP x kP floats): a lattice
// sample's column or row -1 (outside the crop, as the bounds tests say) reads kOutside
// with no test (branch speed8).
constexpr int kP = kN + 2;
void pad_outside(const cv::Mat& m, std::array<float, kP * kP>& out) {
  out.fill(kOutside);
  for (int y = 0; y < kN; ++y) std::memcpy(out.data() + (y + 1) * kP + 1, m.ptr<float>(y), kN * sizeof(float));
}

inline float at(const cv::Mat& m, float x, float y) {
  const int ix = static_cast<int>(std::lround(x)), iy = static_cast<int>(std::lround(y));
  if (ix < 0 || iy < 0 || ix >= m.cols || iy >= m.rows) return kOutside;
  return m.at<float>(iy, ix);
}

void lattice_points(const Pose& p, std::array<cv::Point2f, 9>& pts) {
  const float c = std::cos(p.th) * p.a, s = std::sin(p.th) * p.a;
  for (int j = -1; j <= 1; ++j)
    for (int i = -1; i <= 1; ++i)
      pts[static_cast<std::size_t>((j + 1) * 3 + (i + 1))] = {p.cx + c * i - s * j, p.cy + s * i + c * j};
}

// Each hypothesis's lattice positions with and without a pip, as index lists.
struct HypLists {
  std::array<std::array<std::uint8_t, 9>, kHyps.size()> on{}, off{};
  std::array<int, kHyps.size()> n_on{}, n_off{};
  HypLists() {
    for (std::size_t h = 0; h < kHyps.size(); ++h)
      for (std::uint8_t k = 0; k < 9; ++k) {
        if (kHyps[h].on & (1u << k)) on[h][static_cast<std::size_t>(n_on[h]++)] = k;
        else off[h][static_cast<std::size_t>(n_off[h]++)] = k;
      }
  }
};
const HypLists kLists;

inline float margin_fast(const std::array<float, 9>& v, std::size_t h) {
  float mn = std::numeric_limits<float>::max(), mx = -std::numeric_limits<float>::max();
  for (int i = 0; i < kLists.n_on[h]; ++i) mn = std::min(mn, v[kLists.on[h][static_cast<std::size_t>(i)]]);
  for (int i = 0; i < kLists.n_off[h]; ++i) mx = std::max(mx, v[kLists.off[h][static_cast<std::size_t>(i)]]);
  return mn - mx;
}

// Margin of one hypothesis at one pose on the lattice samples alone.
inline float margin(const std::array<float, 9>& v, std::uint16_t on, float* min_on_out = nullptr) {
  float mn = std::numeric_limits<float>::max(), mx = -std::numeric_limits<float>::max();
  for (int k = 0; k < 9; ++k) {
    if (on & (1u << k)) mn = std::min(mn, v[static_cast<std::size_t>(k)]);
    else mx = std::max(mx, v[static_cast<std::size_t>(k)]);
  }
  if (min_on_out) *min_on_out = mn;
  return mn - mx;
}

// The 9 lattice samples; c, s = cos / sin of the angle times the spacing.
inline void sample_cs(const Maps& m, float cx, float cy, float c, float s, std::array<float, 9>& v, bool coarse = false) {
  const float* data = (coarse ? m.rmax5 : m.rmax).ptr<float>(0);
  std::size_t k = 0;
  for (int j = -1; j <= 1; ++j)
    for (int i = -1; i <= 1; ++i, ++k) {
      const float x = cx + c * static_cast<float>(i) - s * static_cast<float>(j) + 0.5f;
      const float y = cy + s * static_cast<float>(i) + c * static_cast<float>(j) + 0.5f;
      v[k] = (x >= 0 && y >= 0 && x < kN && y < kN) ? data[static_cast<int>(y) * kN + static_cast<int>(x)] : kOutside;
    }
}
inline void sample(const Maps& m, const Pose& p, std::array<float, 9>& v) {
  sample_cs(m, p.cx, p.cy, std::cos(p.th) * p.a, std::sin(p.th) * p.a, v);
}

// The strongest response peak on the face that the hypothesis at this pose leaves
// unexplained (further than 0.45 a from each of its pips).
// "On the face": within face_radius of the crop centre or lattice_radius of the lattice's.
float unexplained(const Maps& m, const Pose& p, std::uint16_t on, float face_radius, float lattice_radius) {
  std::array<cv::Point2f, 9> pts;
  lattice_points(p, pts);
  const float ex2 = 0.45f * p.a * 0.45f * p.a, fr2 = face_radius * face_radius, lr2 = lattice_radius * lattice_radius;
  const float mid = (kN - 1) / 2.0f;
  for (const auto& [val, q] : m.peaks) {
    const float dx = q.x - p.cx, dy = q.y - p.cy, ex = q.x - mid, ey = q.y - mid;
    if (dx * dx + dy * dy > lr2 && ex * ex + ey * ey > fr2) continue;
    bool near = false;
    for (int k = 0; k < 9 && !near; ++k)
      if (on & (1u << k)) {
        const cv::Point2f d = q - pts[static_cast<std::size_t>(k)];
        near = d.dot(d) <= ex2;
      }
    if (!near) return val;  // peaks are sorted strongest first
  }
  return -std::numeric_limits<float>::max();
}

// The coarse search (every hypothesis keeps its best pose): 4 spacings x 10 angles x the
// centres within smax on a 3 px grid. The reference form: each hypothesis's margin from
// its index lists at every pose.
void coarse_search_ref(const Maps& m, const FaceParams& params, float mid, float amin, float amax, float smax,
                       std::array<Pose, kHyps.size()>& best_pose, std::array<float, kHyps.size()>& best_m) {
  std::array<float, 9> v{};
  const int na = 4;
  const float sstep = 3.0f, tstep = static_cast<float>(CV_PI / 20);  // 3 px, 9 degrees
  for (int ia = 0; ia < na; ++ia) {
    const float a = amin + (amax - amin) * static_cast<float>(ia) / (na - 1);
    for (float th = 0; th < static_cast<float>(CV_PI / 2) - 1e-4f; th += tstep) {
      const float c = std::cos(th) * a, sn = std::sin(th) * a;
      for (float dy = -smax; dy <= smax + 1e-3f; dy += sstep)
        for (float dx = -smax; dx <= smax + 1e-3f; dx += sstep) {
          if (dx * dx + dy * dy > smax * smax * 1.01f) continue;
          sample_cs(m, mid + dx, mid + dy, c, sn, v, params.lattice_coarse5);
          for (std::size_t h = 0; h < kHyps.size(); ++h) {
            const float mg = margin_fast(v, h);
            if (mg > best_m[h]) {
              best_m[h] = mg;
              best_pose[h] = Pose{mid + dx, mid + dy, th, a};
            }
          }
        }
    }
  }
}

#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#define HEXDICE_LATTICE_AVX2 1
// (Round 20) coarse_search's poses at one spacing and angle, 8 centre columns at a time in
// AVX2: each lattice position's column at 8 centre columns and its row at 8 centre rows by
// the scalar loop's float sums in its order (((centre + c i) - s j) + 0.5, compared, cut to
// int), each lane's skip test (dx dx + dy dy > lim) likewise; the nine samples of each lane
// gathered from the padded map at the same indices (row + column), the nine margins from the
// same minima and maxima (a float minimum or maximum is one of its arguments; the maps hold
// no NaN and no -0, so _mm256_min_ps / max_ps give std::min / max's value), and each
// hypothesis's best updated lane by lane in the scalar loop's order (ix ascending, first
// strict improvement kept) where any lane beats it: the same best margins and poses, bit for
// bit. No FMA is enabled here, so no multiply and add are fused. HEXDICE_NO_AVX2=1 keeps the
// scalar loop. offs: n_off offsets, zeros after them up to a multiple of 8.
__attribute__((target("avx2"), noinline)) void coarse_angle_avx2(const float* data, const float* offs, int n_off, float mid,
                                                                 const float* ci, const float* si, float lim, float th, float a,
                                                                 std::array<Pose, kHyps.size()>& best_pose,
                                                                 std::array<float, kHyps.size()>& best_m) {
  const int n8 = (n_off + 7) / 8 * 8;
  alignas(32) int col_t[9][64], row_t[9][64];
  const __m256 v_mid = _mm256_set1_ps(mid), v_half = _mm256_set1_ps(0.5f), v_zero = _mm256_setzero_ps(),
               v_n = _mm256_set1_ps(static_cast<float>(kN));
  const __m256i v_out = _mm256_set1_epi32(-1), v_kp = _mm256_set1_epi32(kP);
  for (int x0 = 0; x0 < n8; x0 += 8) {
    const __m256 cc = _mm256_add_ps(v_mid, _mm256_loadu_ps(offs + x0));  // cx (and cy) of 8 centres
    for (int j = -1, k = 0; j <= 1; ++j)
      for (int i = -1; i <= 1; ++i, ++k) {
        const __m256 x = _mm256_add_ps(_mm256_sub_ps(_mm256_add_ps(cc, _mm256_set1_ps(ci[i + 1])), _mm256_set1_ps(si[j + 1])), v_half);
        const __m256 y = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(cc, _mm256_set1_ps(si[i + 1])), _mm256_set1_ps(ci[j + 1])), v_half);
        const __m256 xin = _mm256_and_ps(_mm256_cmp_ps(x, v_zero, _CMP_GE_OQ), _mm256_cmp_ps(x, v_n, _CMP_LT_OQ));
        const __m256 yin = _mm256_and_ps(_mm256_cmp_ps(y, v_zero, _CMP_GE_OQ), _mm256_cmp_ps(y, v_n, _CMP_LT_OQ));
        _mm256_store_si256(reinterpret_cast<__m256i*>(col_t[k] + x0),
                           _mm256_blendv_epi8(v_out, _mm256_cvttps_epi32(x), _mm256_castps_si256(xin)));
        _mm256_store_si256(reinterpret_cast<__m256i*>(row_t[k] + x0),
                           _mm256_mullo_epi32(_mm256_blendv_epi8(v_out, _mm256_cvttps_epi32(y), _mm256_castps_si256(yin)), v_kp));
      }
  }
  for (int iy = 0; iy < n_off; ++iy) {
    const float dy = offs[iy];
    const __m256 v_lim = _mm256_set1_ps(lim), v_dy2 = _mm256_set1_ps(dy * dy);
    for (int x0 = 0; x0 < n_off; x0 += 8) {
      const __m256 dx = _mm256_loadu_ps(offs + x0);
      const unsigned lanes = n_off - x0 >= 8 ? 0xFFu : (1u << (n_off - x0)) - 1u;
      const unsigned valid =
          ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), v_dy2), v_lim, _CMP_GT_OQ))) & lanes;
      if (!valid) continue;
      __m256 v[9];
      for (int k = 0; k < 9; ++k) {
        const __m256i idx = _mm256_add_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(col_t[k] + x0)), _mm256_set1_epi32(row_t[k][iy]));
        v[k] = _mm256_i32gather_ps(data, idx, 4);
      }
      const __m256 m08 = _mm256_min_ps(v[0], v[8]), M08 = _mm256_max_ps(v[0], v[8]);
      const __m256 m26 = _mm256_min_ps(v[2], v[6]), M26 = _mm256_max_ps(v[2], v[6]);
      const __m256 M17 = _mm256_max_ps(v[1], v[7]), M35 = _mm256_max_ps(v[3], v[5]);
      const __m256 m17 = _mm256_min_ps(v[1], v[7]), m35 = _mm256_min_ps(v[3], v[5]);
      const __m256 ME = _mm256_max_ps(M17, M35), MC = _mm256_max_ps(M08, M26), mC = _mm256_min_ps(m08, m26);
      const __m256 c4 = v[4];
      const __m256 mg[9] = {
          _mm256_sub_ps(c4, _mm256_max_ps(MC, ME)),
          _mm256_sub_ps(m08, _mm256_max_ps(_mm256_max_ps(M26, ME), c4)),
          _mm256_sub_ps(m26, _mm256_max_ps(_mm256_max_ps(M08, ME), c4)),
          _mm256_sub_ps(_mm256_min_ps(m08, c4), _mm256_max_ps(M26, ME)),
          _mm256_sub_ps(_mm256_min_ps(m26, c4), _mm256_max_ps(M08, ME)),
          _mm256_sub_ps(mC, _mm256_max_ps(ME, c4)),
          _mm256_sub_ps(_mm256_min_ps(mC, c4), ME),
          _mm256_sub_ps(_mm256_min_ps(mC, m35), _mm256_max_ps(M17, c4)),
          _mm256_sub_ps(_mm256_min_ps(mC, m17), _mm256_max_ps(M35, c4)),
      };
      // (speed34) Each hypothesis's lanes that beat its best, and first whether any lane of any
      // hypothesis does (mostly none once the first poses are in): the same compares.
      __m256 gt[kHyps.size()], any_gt = _mm256_setzero_ps();
      for (std::size_t h = 0; h < kHyps.size(); ++h) {
        gt[h] = _mm256_cmp_ps(mg[h], _mm256_set1_ps(best_m[h]), _CMP_GT_OQ);
        any_gt = _mm256_or_ps(any_gt, gt[h]);
      }
      if (!(static_cast<unsigned>(_mm256_movemask_ps(any_gt)) & valid)) continue;
      for (std::size_t h = 0; h < kHyps.size(); ++h) {
        unsigned up = static_cast<unsigned>(_mm256_movemask_ps(gt[h])) & valid;
        if (!up) continue;
        alignas(32) float mgl[8];
        _mm256_store_ps(mgl, mg[h]);
        for (; up; up &= up - 1) {
          const int l = __builtin_ctz(up);
          if (mgl[l] > best_m[h]) {
            best_m[h] = mgl[l];
            best_pose[h] = Pose{mid + offs[x0 + l], mid + dy, th, a};
          }
        }
      }
    }
  }
}

// (Round 20) One refinement step of hypothesis `on` (read_face_lattice_impl): the nine poses
// (the centre c moved by -ds, 0, ds in x and y) at one spacing and angle (cc, sn = cos, sin
// times the spacing). Lattice positions 0..7 in AVX2 lanes, position 8 alone: the scalar
// loop's coordinates by its float operations in its order (((x0 + cc i) - sn j) + 0.5 and
// ((y0 + sn i) + cc j) + 0.5, compared, cut to int), the samples gathered at the same
// indices, the pose's margin as the minimum over its pips less the maximum over the other
// positions (minima and maxima are exact in any order), the poses in the scalar order with
// the first strict improvement kept: the same best margin and pose, bit for bit.
__attribute__((target("avx2"), noinline)) void refine_angle_avx2(const float* data, const Pose& c, float ds, float cc, float sn,
                                                                 std::uint16_t on, float th, float a, Pose& best_pose,
                                                                 float& best_m) {
  const __m256 vi = _mm256_setr_ps(-1, 0, 1, -1, 0, 1, -1, 0), vj = _mm256_setr_ps(-1, -1, -1, 0, 0, 0, 1, 1);
  const __m256 v_ci = _mm256_mul_ps(_mm256_set1_ps(cc), vi), v_sj = _mm256_mul_ps(_mm256_set1_ps(sn), vj);
  const __m256 v_si = _mm256_mul_ps(_mm256_set1_ps(sn), vi), v_cj = _mm256_mul_ps(_mm256_set1_ps(cc), vj);
  const __m256 v_half = _mm256_set1_ps(0.5f), v_zero = _mm256_setzero_ps(), v_n = _mm256_set1_ps(static_cast<float>(kN));
  const __m256i v_out = _mm256_set1_epi32(-1), v_kp = _mm256_set1_epi32(kP);
  __m256i xs[3], ys[3];
  int xs8[3], ys8[3];
  for (int kk = -1; kk <= 1; ++kk) {
    const float x0 = c.cx + static_cast<float>(kk) * ds, y0 = c.cy + static_cast<float>(kk) * ds;
    const __m256 x = _mm256_add_ps(_mm256_sub_ps(_mm256_add_ps(_mm256_set1_ps(x0), v_ci), v_sj), v_half);
    const __m256 y = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(y0), v_si), v_cj), v_half);
    const __m256 xin = _mm256_and_ps(_mm256_cmp_ps(x, v_zero, _CMP_GE_OQ), _mm256_cmp_ps(x, v_n, _CMP_LT_OQ));
    const __m256 yin = _mm256_and_ps(_mm256_cmp_ps(y, v_zero, _CMP_GE_OQ), _mm256_cmp_ps(y, v_n, _CMP_LT_OQ));
    xs[kk + 1] = _mm256_blendv_epi8(v_out, _mm256_cvttps_epi32(x), _mm256_castps_si256(xin));
    ys[kk + 1] = _mm256_mullo_epi32(_mm256_blendv_epi8(v_out, _mm256_cvttps_epi32(y), _mm256_castps_si256(yin)), v_kp);
    // Position 8 (i = j = 1) as the scalar loop computes it.
    const float x8 = x0 + cc * 1.0f - sn * 1.0f + 0.5f, y8 = y0 + sn * 1.0f + cc * 1.0f + 0.5f;
    xs8[kk + 1] = x8 >= 0 && x8 < kN ? static_cast<int>(x8) : -1;
    ys8[kk + 1] = (y8 >= 0 && y8 < kN ? static_cast<int>(y8) : -1) * kP;
  }
  // Lanes off the pips read +max for the minimum, lanes on them -max for the maximum.
  alignas(32) float onl[8];
  for (int k = 0; k < 8; ++k) onl[k] = (on & (1u << k)) ? -1.0f : 0.0f;
  const __m256 on_m = _mm256_cmp_ps(_mm256_load_ps(onl), v_zero, _CMP_LT_OQ);
  const __m256 big = _mm256_set1_ps(std::numeric_limits<float>::max()), small = _mm256_set1_ps(-std::numeric_limits<float>::max());
  const bool on8 = (on & (1u << 8)) != 0;
  for (int ky = 0; ky < 3; ++ky)
    for (int kx = 0; kx < 3; ++kx) {
      const __m256 v = _mm256_i32gather_ps(data, _mm256_add_epi32(ys[ky], xs[kx]), 4);
      const float v8 = data[ys8[ky] + xs8[kx]];
      const __m256 vmn = _mm256_blendv_ps(big, v, on_m), vmx = _mm256_blendv_ps(v, small, on_m);
      __m128 mn = _mm_min_ps(_mm256_castps256_ps128(vmn), _mm256_extractf128_ps(vmn, 1));
      __m128 mx = _mm_max_ps(_mm256_castps256_ps128(vmx), _mm256_extractf128_ps(vmx, 1));
      mn = _mm_min_ps(mn, _mm_movehl_ps(mn, mn));
      mx = _mm_max_ps(mx, _mm_movehl_ps(mx, mx));
      mn = _mm_min_ss(mn, _mm_shuffle_ps(mn, mn, 1));
      mx = _mm_max_ss(mx, _mm_shuffle_ps(mx, mx, 1));
      float fmn = _mm_cvtss_f32(mn), fmx = _mm_cvtss_f32(mx);
      if (on8) fmn = std::min(fmn, v8);
      else fmx = std::max(fmx, v8);
      const float mg = fmn - fmx;
      if (mg > best_m) {
        best_m = mg;
        best_pose = Pose{c.cx + static_cast<float>(kx - 1) * ds, c.cy + static_cast<float>(ky - 1) * ds, th, a};
      }
    }
}
#endif

// The same search with the same results (bit for bit), ~3x cheaper: the poses in the same
// order with the same float operations (the loop variables accumulated as before), each
// lattice row's y, its bounds test and row offset once per centre row instead of per
// pose, and the nine margins from shared minima and maxima (a minimum or maximum of
// floats is exact whatever the order; the responses hold no NaN and no -0).
void coarse_search(const Maps& m, const FaceParams& params, float mid, float amin, float amax, float smax,
                   std::array<Pose, kHyps.size()>& best_pose, std::array<float, kHyps.size()>& best_m, bool allow_avx2 = true) {
  static thread_local std::array<float, kP * kP> padded;
  pad_outside(params.lattice_coarse5 ? m.rmax5 : m.rmax, padded);
  const float* data = padded.data() + kP + 1;  // (0, 0) of the crop
#if defined(HEXDICE_LATTICE_AVX2)
  const bool avx2 = allow_avx2 && avx2_steps_on();
#endif
  const int na = 4;
  const float sstep = 3.0f, tstep = static_cast<float>(CV_PI / 20);  // 3 px, 9 degrees
  float offs[64] = {};  // (zeros past n_off: coarse_angle_avx2's last lanes)
  int n_off = 0;
  for (float d = -smax; d <= smax + 1e-3f && n_off < 64; d += sstep) offs[n_off++] = d;
  const float lim = smax * smax * 1.01f;
  for (int ia = 0; ia < na; ++ia) {
    const float a = amin + (amax - amin) * static_cast<float>(ia) / (na - 1);
    for (float th = 0; th < static_cast<float>(CV_PI / 2) - 1e-4f; th += tstep) {
      const float c = std::cos(th) * a, sn = std::sin(th) * a;
      // c * i and s * i for i = -1, 0, 1, as sample_cs multiplies them.
      const float ci[3] = {c * -1.0f, c * 0.0f, c * 1.0f}, si[3] = {sn * -1.0f, sn * 0.0f, sn * 1.0f};
#if defined(HEXDICE_LATTICE_AVX2)
      if (avx2) {
        coarse_angle_avx2(data, offs, n_off, mid, ci, si, lim, th, a, best_pose, best_m);
        continue;
      }
#endif
      // Each lattice position's column at each centre column (the same float sums as per
      // pose; -1 = outside): they do not depend on the centre row (branch speed8).
      int col[64][9];
      for (int ix = 0; ix < n_off; ++ix) {
        const float cx = mid + offs[ix];
        for (int j = -1, k = 0; j <= 1; ++j)
          for (int i = -1; i <= 1; ++i, ++k) {
            const float x = cx + ci[i + 1] - si[j + 1] + 0.5f;
            col[ix][k] = x >= 0 && x < kN ? static_cast<int>(x) : -1;
          }
      }
      for (int iy = 0; iy < n_off; ++iy) {
        const float dy = offs[iy];
        const float cy = mid + dy;
        int row[9];
        for (int j = -1, k = 0; j <= 1; ++j)
          for (int i = -1; i <= 1; ++i, ++k) {
            const float y = cy + si[i + 1] + ci[j + 1] + 0.5f;
            row[k] = (y >= 0 && y < kN ? static_cast<int>(y) : -1) * kP;
          }
        for (int ix = 0; ix < n_off; ++ix) {
          const float dx = offs[ix];
          if (dx * dx + dy * dy > lim) continue;
          float v[9];
          for (int k = 0; k < 9; ++k) v[k] = data[row[k] + col[ix][k]];
          // Lattice positions: 0 2 6 8 corners, 4 centre, 1 7 / 3 5 the middles of the
          // rows / columns. The hypotheses' on-sets (kHyps): {4}, {0,8}, {2,6}, {0,4,8},
          // {2,4,6}, corners, corners+4, corners+3,5, corners+1,7.
          const float m08 = std::min(v[0], v[8]), M08 = std::max(v[0], v[8]);
          const float m26 = std::min(v[2], v[6]), M26 = std::max(v[2], v[6]);
          const float M17 = std::max(v[1], v[7]), M35 = std::max(v[3], v[5]);
          const float m17 = std::min(v[1], v[7]), m35 = std::min(v[3], v[5]);
          const float ME = std::max(M17, M35), MC = std::max(M08, M26), mC = std::min(m08, m26);
          const float c4 = v[4];
          const float mg[9] = {
              c4 - std::max(MC, ME),
              m08 - std::max(std::max(M26, ME), c4),
              m26 - std::max(std::max(M08, ME), c4),
              std::min(m08, c4) - std::max(M26, ME),
              std::min(m26, c4) - std::max(M08, ME),
              mC - std::max(ME, c4),
              std::min(mC, c4) - ME,
              std::min(mC, m35) - std::max(M17, c4),
              std::min(mC, m17) - std::max(M35, c4),
          };
          for (std::size_t h = 0; h < kHyps.size(); ++h)
            if (mg[h] > best_m[h]) {
              best_m[h] = mg[h];
              best_pose[h] = Pose{mid + dx, mid + dy, th, a};
            }
        }
      }
    }
  }
}


}  // namespace

// (Speed round 32) The pixel x of row y is in a hole when some hole has hx * hx + hy * hy
// <= h2 (hx = x - h.x, hy = y - h.y in float; read_face_lattice's body median as before).
// For one hole and row that test holds on one interval of x: fl(x - h.x) grows with x
// (rounding is monotone), its square grows with its magnitude and the sum with the square,
// so the sum falls up to h.x and rises after it. Within [x0, x1] its smallest value is at the
// integer column next to h.x (floor(h.x) or the one after, each clamped to [x0, x1]); the
// interval is that column grown while the same test holds, each column tested by the same
// float operations. A hole with hy * hy > h2 has no column (the sum is at least hy * hy); a
// hole whose x is far off or not a number is tested per column. per_pixel: every column
// tested against every hole that can meet the row (the reference, the loop as it was before).
// tests: += the float tests made.
std::uint64_t lattice_row_hole_columns(const std::vector<cv::Point2f>& holes, float h2, int y, int x0, int x1, bool per_pixel,
                                       long* tests) {
  CV_Assert(x0 >= 0 && x1 < 64);
  std::uint64_t cols = 0;
  long n_tests = 0;
  for (const auto& h : holes) {
    const float hy = static_cast<float>(y) - h.y;
    const float hy2 = hy * hy;
    auto inside = [&](int x) {
      ++n_tests;
      const float hx = static_cast<float>(x) - h.x;
      return hx * hx + hy2 <= h2;
    };
    if (x0 > x1 || !(hy2 <= h2)) continue;  // (both forms: the rows a hole cannot meet, as before)
    if (per_pixel || !(std::abs(h.x) < 1e6f)) {
      for (int x = x0; x <= x1; ++x)
        if (inside(x)) cols |= std::uint64_t{1} << x;
      continue;
    }
    const int f = static_cast<int>(std::floor(h.x));
    const int a = std::clamp(f, x0, x1), b = std::clamp(f + 1, x0, x1);
    int lo = inside(a) ? a : inside(b) ? b : -1;
    if (lo < 0) continue;
    int hi = lo;
    while (lo > x0 && inside(lo - 1)) --lo;
    while (hi < x1 && inside(hi + 1)) ++hi;
    cols |= (hi - lo == 63 ? ~std::uint64_t{0} : (std::uint64_t{1} << (hi - lo + 1)) - 1) << lo;
  }
  if (tests) *tests += n_tests;
  return cols;
}

static FaceReading read_face_lattice_impl(const cv::Mat& crop_bgr, const FaceParams& params, bool reference) {
  FaceReading out;
  if (crop_bgr.empty() || crop_bgr.type() != CV_8UC3 || crop_bgr.cols < 4 || crop_bgr.rows < 4) return out;
  cv::Mat canon;
  if (crop_bgr.cols == kN && crop_bgr.rows == kN) canon = crop_bgr;
  else
    cv::resize(crop_bgr, canon, cv::Size(kN, kN), 0, 0, crop_bgr.cols > kN ? cv::INTER_AREA : cv::INTER_LINEAR);
  const float mid = (kN - 1) / 2.0f;
  // Body colour: per-channel median of a central disc (pips cover < 20% of a face).
  auto median_disc = [&](cv::Point2f c, float radius, const std::vector<cv::Point2f>& holes, float hole_r) {
    // Per-channel histogram medians over a disc, minus small discs round `holes`.
    std::array<std::array<int, 256>, 3> hist{};
    int n = 0;
    const float r2 = radius * radius, h2 = hole_r * hole_r;
    const int y0 = std::max(0, static_cast<int>(c.y - radius)), y1 = std::min(kN - 1, static_cast<int>(c.y + radius) + 1);
    for (int y = y0; y <= y1; ++y) {
      const float dy = static_cast<float>(y) - c.y;
      if (dy * dy > r2) continue;
      const float w = std::sqrt(r2 - dy * dy);
      const int x0 = std::max(0, static_cast<int>(std::ceil(c.x - w))), x1 = std::min(kN - 1, static_cast<int>(std::floor(c.x + w)));
      const cv::Vec3b* row = canon.ptr<cv::Vec3b>(y);
      // (speed32) The columns in a hole by intervals (lattice_row_hole_columns); the reference
      // form tests every column against every hole, as before.
      const std::uint64_t hole_cols = holes.empty() ? 0 : lattice_row_hole_columns(holes, h2, y, x0, x1, reference);
      if (!hole_cols && !reference) {
        // (speed34) A row no hole meets: every column of the span, no per-column test.
        for (int x = x0; x <= x1; ++x) {
          ++hist[0][row[x][0]];
          ++hist[1][row[x][1]];
          ++hist[2][row[x][2]];
        }
        n += std::max(0, x1 - x0 + 1);
        continue;
      }
      for (int x = x0; x <= x1; ++x) {
        if ((hole_cols >> x) & 1u) continue;
        ++hist[0][row[x][0]];
        ++hist[1][row[x][1]];
        ++hist[2][row[x][2]];
        ++n;
      }
    }
    cv::Vec3f m(0, 0, 0);
    if (n == 0) return m;
    for (int k = 0; k < 3; ++k) {
      const int* h = hist[static_cast<std::size_t>(k)].data();
      int acc = 0, v = 0;
      // (speed34) 8 bins a step while all 8 are passed: the counts are >= 0, so when acc plus
      // the 8 is <= n / 2 each of the 8 single steps below would pass (and v stays < 255);
      // then bin by bin as before: the same v.
      if (!reference)
        for (int s8; v + 8 <= 255 && acc + (s8 = h[v] + h[v + 1] + h[v + 2] + h[v + 3] + h[v + 4] + h[v + 5] + h[v + 6] + h[v + 7]) <= n / 2;
             v += 8)
          acc += s8;
      while (v < 255 && acc + h[v] <= n / 2) acc += h[v++];
      m[k] = static_cast<float>(v);
    }
    return m;
  };
  const cv::Vec3f body0 = median_disc({mid, mid}, 0.40f * kN, {}, 0);
  out.body_bgr = body0;

  // Pip response: DoG of the distance from the body colour.
  Maps m;
  {
    // Against the local body colour (a median over about 1.5 pip diameters): a glare or
    // shadow gradient across the face does not swamp a faint pip.
    // Computed at a third of the resolution (5x5 median = 15 crop px, cheap) and
    // interpolated back.
    cv::Mat local;
    if (params.lattice_local_window > 0) {
      const int f = std::max(1, static_cast<int>(std::lround(params.pip_diameter * kN * params.lattice_local_window / 5.0)));
      cv::Mat small, med;
      if (reference) cv::resize(canon, small, cv::Size(kN / f, kN / f), 0, 0, cv::INTER_AREA);
      else resize_area_to(canon, small, cv::Size(kN / f, kN / f));  // the same bytes (mask_ops.h)
      median_blur5(small, med);  // = cv::medianBlur(small, med, 5), faster (mask_ops.h)
      if (reference) cv::resize(med, local, cv::Size(kN, kN), 0, 0, cv::INTER_LINEAR);
      else resize_linear_up_u8c3(med, local, cv::Size(kN, kN));  // the same bytes (mask_ops.h)
    }
    cv::Mat dist(kN, kN, CV_32F);
    for (int y = 0; y < kN; ++y) {
      const cv::Vec3b* row = canon.ptr<cv::Vec3b>(y);
      const cv::Vec3b* loc = local.empty() ? nullptr : local.ptr<cv::Vec3b>(y);
      float* d = dist.ptr<float>(y);
      int x = 0;
#if CV_SIMD128
      if (loc && !reference) {
        // The same values on 16 pixels at a time: the byte differences, their squares and the
        // squares' sum are integers under 2^24 (at most 3 * 255^2), exact in float whatever the
        // order, so they are summed in int32 (speed34: d0^2 + d1^2 by one multiply-add of the
        // interleaved differences, d2^2 by one of d2 and 0), converted once (exact), and the sqrt
        // is correctly rounded in both forms.
        const cv::v_int16x8 z16 = cv::v_setzero_s16();
        for (; x + 16 <= kN; x += 16) {
          cv::v_uint8x16 a8[3], b8[3];
          cv::v_load_deinterleave(reinterpret_cast<const uchar*>(row + x), a8[0], a8[1], a8[2]);
          cv::v_load_deinterleave(reinterpret_cast<const uchar*>(loc + x), b8[0], b8[1], b8[2]);
          cv::v_int16x8 df[3][2];  // channel c, pixels 0..7 / 8..15
          for (int c = 0; c < 3; ++c) {
            cv::v_uint16x8 al, ah, bl, bh;
            cv::v_expand(a8[c], al, ah);
            cv::v_expand(b8[c], bl, bh);
            df[c][0] = cv::v_reinterpret_as_s16(al) - cv::v_reinterpret_as_s16(bl);
            df[c][1] = cv::v_reinterpret_as_s16(ah) - cv::v_reinterpret_as_s16(bh);
          }
          for (int hh = 0; hh < 2; ++hh) {
            cv::v_int16x8 p01[2], p2[2];
            cv::v_zip(df[0][hh], df[1][hh], p01[0], p01[1]);
            cv::v_zip(df[2][hh], z16, p2[0], p2[1]);
            for (int q = 0; q < 2; ++q)
              cv::v_store(d + x + 8 * hh + 4 * q,
                          cv::v_sqrt(cv::v_cvt_f32(cv::v_dotprod(p01[q], p01[q]) + cv::v_dotprod(p2[q], p2[q]))));
          }
        }
      }
#endif
      for (; x < kN; ++x) {
        const cv::Vec3f ref = loc ? cv::Vec3f(loc[x][0], loc[x][1], loc[x][2]) : body0;
        const float d0 = row[x][0] - ref[0], d1 = row[x][1] - ref[1], d2 = row[x][2] - ref[2];
        d[x] = std::sqrt(d0 * d0 + d1 * d1 + d2 * d2);
      }
    }
    const double pip_px = params.pip_diameter * kN;
    cv::Mat g1, g2;
    // (gaussian_blur_f32: cv::GaussianBlur's bytes, its kernel made once; mask_ops.h)
    if (reference) cv::GaussianBlur(dist, g1, cv::Size(0, 0), std::max(0.8, 0.22 * pip_px), 0, cv::BORDER_REPLICATE);
    else gaussian_blur_f32(dist, g1, std::max(0.8, 0.22 * pip_px), cv::BORDER_REPLICATE);
    {
      // The wide Gaussian at half resolution.
      cv::Mat half, hb;
      cv::resize(dist, half, cv::Size(kN / 2, kN / 2), 0, 0, cv::INTER_AREA);
      if (reference) cv::GaussianBlur(half, hb, cv::Size(0, 0), std::max(1.0, 0.3 * pip_px), 0, cv::BORDER_REPLICATE);
      else gaussian_blur_f32(half, hb, std::max(1.0, 0.3 * pip_px), cv::BORDER_REPLICATE);
      if (reference) cv::resize(hb, g2, cv::Size(kN, kN), 0, 0, cv::INTER_LINEAR);
      else resize_linear_up_f32(hb, g2, cv::Size(kN, kN));  // the same floats (mask_ops.h)
    }
    const cv::Mat dog = g1 - g2;
    // Blob response: the DoG where it is blob-shaped. The face's rim, a shadow or glare
    // edge and paper at the crop's border make ridges of the DoG (one curvature near
    // zero), pips do not: the response is capped by the weaker curvature (scaled so a
    // pip-sized Gaussian blob keeps about its DoG value).
    if (reference) {
      m.r = cv::Mat(kN, kN, CV_32F, cv::Scalar(0));
      for (int y = 2; y < kN - 2; ++y) {
        const float* r = dog.ptr<float>(y);
        const float* up = dog.ptr<float>(y - 2);
        const float* dn = dog.ptr<float>(y + 2);
        float* o = m.r.ptr<float>(y);
        for (int x = 2; x < kN - 2; ++x) {
          if (!(r[x] > 0)) continue;
          const float rxx = r[x - 2] + r[x + 2] - 2 * r[x], ryy = up[x] + dn[x] - 2 * r[x];
          const float rxy = (dn[x + 2] - dn[x - 2] - up[x + 2] + up[x - 2]) / 4;
          const float tr = rxx + ryy, det = rxx * ryy - rxy * rxy;
          const float l2 = tr / 2 + std::sqrt(std::max(0.0f, tr * tr / 4 - det));  // the weaker curvature
          o[x] = std::max(0.0f, std::min(r[x], static_cast<float>(params.lattice_blob_gain) * -l2));
        }
      }
    } else {
      // (speed25) The same floats: each row by blob_response_row (4 pixels a step, 0 where the
      // DoG is not positive, mask_ops.h), the two-pixel border zeroed as the zeros above left it.
      m.r.create(kN, kN, CV_32F);
      const float gain = static_cast<float>(params.lattice_blob_gain);
      for (int y : {0, 1, kN - 2, kN - 1}) std::fill_n(m.r.ptr<float>(y), kN, 0.0f);
      for (int y = 2; y < kN - 2; ++y) {
        float* o = m.r.ptr<float>(y);
        o[0] = o[1] = o[kN - 2] = o[kN - 1] = 0.0f;
        blob_response_row(dog.ptr<float>(y - 2), dog.ptr<float>(y), dog.ptr<float>(y + 2), kN, gain, o);
      }
    }
    if (reference) cv::dilate(m.r, m.rmax, cv::Mat());
    else dilate3x3_f32(m.r, m.rmax);  // the same floats (mask_ops.h)
    cv::Mat& nms = m.rmax5;
    // The 5x5 maximum is the 3x3 maximum of the 3x3 maximum (the border never wins a
    // dilation): the same values as cv::dilate by a 5x5 rectangle, at a 3x3's cost.
    if (reference) cv::dilate(m.r, nms, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
    else dilate3x3_f32(m.rmax, nms);
    for (int y = 2; y < kN - 2; ++y) {
      const float* r = m.r.ptr<float>(y);
      const float* n = nms.ptr<float>(y);
      int x = 2;
#if CV_SIMD128
      // (speed25) The same test on 4 pixels at a time, the passing ones taken in x order: the
      // same peaks in the same order (most of the map is zero or below its maximum).
      if (!reference)
        for (; x + 4 <= kN - 2; x += 4) {
          const cv::v_float32x4 v = cv::v_load(r + x);
          int bits = cv::v_signmask((v > cv::v_setzero_f32()) & (v >= cv::v_load(n + x)));
          for (; bits; bits &= bits - 1) {
            const int xx = x + __builtin_ctz(static_cast<unsigned>(bits));
            m.peaks.emplace_back(r[xx], cv::Point2f(static_cast<float>(xx), static_cast<float>(y)));
          }
        }
#endif
      for (; x < kN - 2; ++x)
        if (r[x] > 0 && r[x] >= n[x]) m.peaks.emplace_back(r[x], cv::Point2f(static_cast<float>(x), static_cast<float>(y)));
    }
    std::sort(m.peaks.begin(), m.peaks.end(), [](const auto& l, const auto& r) { return l.first > r.first; });
  }

  // Coarse search: every hypothesis keeps its best pose.
  const float amin = static_cast<float>(params.lattice_min * kN), amax = static_cast<float>(params.lattice_max * kN);
  const float smax = static_cast<float>(params.lattice_shift * kN);
  std::array<Pose, kHyps.size()> best_pose{};
  std::array<float, kHyps.size()> best_m;
  best_m.fill(-std::numeric_limits<float>::max());
  std::array<float, 9> v{};
  if (reference) coarse_search_ref(m, params, mid, amin, amax, smax, best_pose, best_m);
  else coarse_search(m, params, mid, amin, amax, smax, best_pose, best_m);
  const int na = 4;
  const float sstep = 3.0f, tstep = static_cast<float>(CV_PI / 20);  // 3 px, 9 degrees
  // Refinement round by round, per hypothesis that has any margin at all (the others
  // cannot win: their final score is <= 0).
  // Only the four best hypotheses of the coarse search are refined.
  float fourth = -std::numeric_limits<float>::max();
  {
    std::array<float, kHyps.size()> sorted = best_m;
    std::sort(sorted.begin(), sorted.end(), std::greater<float>());
    fourth = sorted[3];
  }
  static thread_local std::array<float, kP * kP> rmax_padded;
  if (!reference) pad_outside(m.rmax, rmax_padded);
#if defined(HEXDICE_LATTICE_AVX2)
  const bool refine_avx2 = avx2_steps_on();
#endif
  for (std::size_t h = 0; h < kHyps.size(); ++h) {
    if (!(best_m[h] > 0) || (params.lattice_refine_top4 && best_m[h] < fourth)) continue;
    float ds = sstep / 2, dt = tstep / 2, da = (amax - amin) / (na - 1) / 2;
    for (int round = 0; round < 2; ++round, ds /= 2, dt /= 2, da /= 2) {
      const Pose c = best_pose[h];
      for (int ka = -1; ka <= 1; ++ka) {
        const float a = std::clamp(c.a + static_cast<float>(ka) * da, amin, amax);
        for (int kt = -1; kt <= 1; ++kt) {
          const float th = c.th + static_cast<float>(kt) * dt;
          const float cc = std::cos(th) * a, sn = std::sin(th) * a;
#if defined(HEXDICE_LATTICE_AVX2)
          if (!reference && refine_avx2) {
            refine_angle_avx2(rmax_padded.data() + kP + 1, c, ds, cc, sn, kHyps[h].on, th, a, best_pose[h], best_m[h]);
            continue;
          }
#endif
          if (!reference) {
            // sample_cs's coordinates, each once: x depends on the centre's column and
            // the position, y on its row and the position (the same float sums; -1 =
            // outside); then the same poses in the same order (branch speed8).
            int xs[3][9], ys[3][9];
            for (int kk = -1; kk <= 1; ++kk) {
              const float x0 = c.cx + static_cast<float>(kk) * ds, y0 = c.cy + static_cast<float>(kk) * ds;
              for (int j = -1, k = 0; j <= 1; ++j)
                for (int i = -1; i <= 1; ++i, ++k) {
                  const float x = x0 + cc * static_cast<float>(i) - sn * static_cast<float>(j) + 0.5f;
                  const float y = y0 + sn * static_cast<float>(i) + cc * static_cast<float>(j) + 0.5f;
                  xs[kk + 1][k] = x >= 0 && x < kN ? static_cast<int>(x) : -1;
                  ys[kk + 1][k] = (y >= 0 && y < kN ? static_cast<int>(y) : -1) * kP;
                }
            }
            const float* data = rmax_padded.data() + kP + 1;
            for (int ky = 0; ky < 3; ++ky)
              for (int kx = 0; kx < 3; ++kx) {
                for (int k = 0; k < 9; ++k)
                  v[static_cast<std::size_t>(k)] = data[ys[ky][k] + xs[kx][k]];
                const float mg = margin_fast(v, h);
                if (mg > best_m[h]) {
                  best_m[h] = mg;
                  best_pose[h] = Pose{c.cx + static_cast<float>(kx - 1) * ds, c.cy + static_cast<float>(ky - 1) * ds, th, a};
                }
              }
            continue;
          }
          for (int ky = -1; ky <= 1; ++ky)
            for (int kx = -1; kx <= 1; ++kx) {
              const float x = c.cx + static_cast<float>(kx) * ds, y = c.cy + static_cast<float>(ky) * ds;
              sample_cs(m, x, y, cc, sn, v);
              const float mg = margin_fast(v, h);
              if (mg > best_m[h]) {
                best_m[h] = mg;
                best_pose[h] = Pose{x, y, th, a};
              }
            }
        }
      }
    }
  }
  // Final scores: the lattice margin, also against unexplained peaks on the face.
  const float a_nominal = 0.27f * kN;
  const bool debug = std::getenv("HEXDICE_FACE_DEBUG") != nullptr;
  if (debug)
    for (const auto& [val, q] : m.peaks) std::fprintf(stderr, "PEAK %.1f %.1f %.1f\n", q.x, q.y, val);
  std::array<float, kHyps.size()> score{}, min_on{};
  int best = -1;
  for (std::size_t h = 0; h < kHyps.size(); ++h) {
    const Pose& p = best_pose[h];
    sample(m, p, v);
    float mn = 0;
    const float mg = margin(v, kHyps[h].on, &mn);
    // Every peak on the face must be explained, wherever the lattice is: the face of a
    // standard die at least, and further out when the lattice is spaced wider.
    const float un = unexplained(m, p, kHyps[h].on, static_cast<float>(params.lattice_face_radius * kN),
                                 std::max(1.55f * p.a, 1.45f * a_nominal));
    // Normalised (Michelson-like) contrast of the weakest pip over the strongest other
    // response: a pip in a glare patch is weak but still far above the empty places.
    const float off = std::max(mn - mg, un);
    score[h] = mn < params.lattice_min_response ? -1.0f : (mn - off) / (mn + std::max(0.0f, off));
    min_on[h] = mn;
    if (debug) {
      std::array<cv::Point2f, 9> q;
      lattice_points(p, q);
      for (int k = 0; k < 9; ++k) std::fprintf(stderr, " (%.1f,%.1f)=%.1f", q[k].x, q[k].y, v[k]);
      std::fprintf(stderr, "\n");
    }
    if (debug)
      std::fprintf(stderr, "FACE hyp %zu face %d pose %.1f %.1f %.0fdeg a %.1f margin %.1f min_on %.1f unexplained %.1f score %.1f\n", h,
                   kHyps[h].face, p.cx, p.cy, p.th * 180 / CV_PI, p.a, mg, mn, un, score[h]);
    if (best < 0 || score[h] > score[static_cast<std::size_t>(best)]) best = static_cast<int>(h);
  }
  const std::size_t b = static_cast<std::size_t>(best);
  float second = -std::numeric_limits<float>::max();
  for (std::size_t h = 0; h < kHyps.size(); ++h)
    if (kHyps[h].face != kHyps[b].face) second = std::max(second, score[h]);
  const float weakest = min_on[b];
  std::array<cv::Point2f, 9> pts;
  lattice_points(best_pose[b], pts);
  std::vector<cv::Point2f> pips;
  for (int k = 0; k < 9; ++k)
    if (kHyps[b].on & (1u << k)) pips.push_back(pts[static_cast<std::size_t>(k)]);
  // Body colour without the pips, on the face round the lattice centre.
  out.body_bgr = median_disc({best_pose[b].cx, best_pose[b].cy}, 0.42f * kN, pips, 0.11f * kN);
  if (out.body_bgr == cv::Vec3f(0, 0, 0)) out.body_bgr = body0;
  if (weakest < params.lattice_min_response || score[b] <= 0) {
    out.face = 0;
    out.confidence = 0;
    return out;
  }
  out.face = kHyps[b].face;
  const double sep = score[b] - std::max(0.0f, second);
  const double contrast = std::min(1.0, weakest / (3.0 * params.lattice_min_response));
  out.confidence = std::clamp(sep / params.lattice_full_separation, 0.0, 1.0) * (0.5 + 0.5 * contrast);
  {
    // Pip polarity: are the pips lighter or darker than the body (grey levels, 3x3 at
    // each pip centre against the body median)?
    double diff = 0;
    int n = 0;
    const float lb = (out.body_bgr[0] + out.body_bgr[1] + out.body_bgr[2]) / 3;
    for (const auto& p : pips)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int x = static_cast<int>(std::lround(p.x)) + dx, y = static_cast<int>(std::lround(p.y)) + dy;
          if (x < 0 || y < 0 || x >= kN || y >= kN) continue;
          const cv::Vec3b px = canon.at<cv::Vec3b>(y, x);
          diff += (px[0] + px[1] + px[2]) / 3.0 - lb;
          ++n;
        }
    if (n > 0 && std::abs(diff / n) >= params.polarity_min_difference) out.pip_polarity = diff > 0 ? 1 : -1;
  }
  const float sx = static_cast<float>(crop_bgr.cols) / kN, sy = static_cast<float>(crop_bgr.rows) / kN;
  for (auto& p : pips) p = {(p.x + 0.5f) * sx - 0.5f, (p.y + 0.5f) * sy - 0.5f};
  out.pips = pips;
  return out;
}

}  // namespace hexdice::vision

namespace hexdice::vision {
FaceReading read_face_lattice(const cv::Mat& crop_bgr, const FaceParams& params) {
  return read_face_lattice_impl(crop_bgr, params, false);
}
FaceReading read_face_lattice_reference(const cv::Mat& crop_bgr, const FaceParams& params) {
  return read_face_lattice_impl(crop_bgr, params, true);
}
}  // namespace hexdice::vision

namespace hexdice::vision {
LatticeCoarseBest lattice_coarse_search_for_test(const cv::Mat& map, const FaceParams& params, bool avx2) {
  CV_Assert(map.type() == CV_32FC1 && map.rows == kN && map.cols == kN);
  Maps m;
  m.rmax = map;
  m.rmax5 = map;
  const float mid = (kN - 1) / 2.0f;
  const float amin = static_cast<float>(params.lattice_min * kN), amax = static_cast<float>(params.lattice_max * kN);
  const float smax = static_cast<float>(params.lattice_shift * kN);
  std::array<Pose, kHyps.size()> best_pose{};
  std::array<float, kHyps.size()> best_m;
  best_m.fill(-std::numeric_limits<float>::max());
  coarse_search(m, params, mid, amin, amax, smax, best_pose, best_m, avx2);
  LatticeCoarseBest out;
  for (std::size_t h = 0; h < kHyps.size(); ++h) {
    out.margin[h] = best_m[h];
    out.pose[h] = {best_pose[h].cx, best_pose[h].cy, best_pose[h].th, best_pose[h].a};
  }
  return out;
}
}  // namespace hexdice::vision
