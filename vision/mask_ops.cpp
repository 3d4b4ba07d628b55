#include "vision/mask_ops.h"
#include "vision/mask_ops_ref.h"
#include "vision/register.h"

#include <algorithm>
#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HEXDICE_BILINEAR_AVX2 1  // every AVX2 step of this file (first bilinear3_run's), chosen at run time
#include <immintrin.h>
#endif
#endif

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

namespace hexdice::vision {

namespace {

// The statistics of cv::connectedComponentsWithStats from a labelling's runs (as OpenCV's
// CCStatsOp: min/max of x and y, the area, and the centroid as the integer sums of x and y
// over the area, in double), shared by components_with_stats and its reference.
struct CcStats {
  explicit CcStats(int n)
      : left(static_cast<std::size_t>(n), INT_MAX), top(static_cast<std::size_t>(n), INT_MAX),
        right(static_cast<std::size_t>(n), INT_MIN), bottom(static_cast<std::size_t>(n), INT_MIN),
        area(static_cast<std::size_t>(n), 0), sx(static_cast<std::size_t>(n), 0), sy(static_cast<std::size_t>(n), 0) {}
  // Pixels x0 .. x1 - 1 of row y are label k (rows visited in order): the sums of x over a
  // run in closed form.
  void add(std::size_t k, int y, int x0, int x1) {
    const unsigned len = static_cast<unsigned>(x1 - x0);
    if (x0 < left[k]) left[k] = x0;
    if (x1 - 1 > right[k]) right[k] = x1 - 1;
    if (y < top[k]) top[k] = y;
    bottom[k] = y;
    area[k] += len;
    sx[k] += static_cast<std::uint64_t>(x0 + x1 - 1) * len / 2;
    sy[k] += static_cast<std::uint64_t>(y) * len;
  }
  void write(int n, cv::Mat& stats, cv::Mat& centroids) const {
    stats.create(n, cv::CC_STAT_MAX, CV_32S);
    centroids.create(n, 2, CV_64F);
    for (int i = 0; i < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      int* row = stats.ptr<int>(i);
      if (area[k] == 0) {
        // An empty label (the background of an all-foreground mask): what OpenCV 4.6 gives.
        row[cv::CC_STAT_LEFT] = -1;
        row[cv::CC_STAT_TOP] = INT_MAX;
        row[cv::CC_STAT_WIDTH] = 0;
        row[cv::CC_STAT_HEIGHT] = 0;
      } else {
        row[cv::CC_STAT_LEFT] = left[k];
        row[cv::CC_STAT_TOP] = top[k];
        row[cv::CC_STAT_WIDTH] = right[k] - left[k] + 1;
        row[cv::CC_STAT_HEIGHT] = bottom[k] - top[k] + 1;
      }
      row[cv::CC_STAT_AREA] = static_cast<int>(area[k]);
      const double a = area[k];
      double* c = centroids.ptr<double>(i);
      c[0] = area[k] ? static_cast<double>(sx[k]) / a : std::numeric_limits<double>::quiet_NaN();
      c[1] = area[k] ? static_cast<double>(sy[k]) / a : std::numeric_limits<double>::quiet_NaN();
    }
  }
  std::vector<int> left, top, right, bottom;
  std::vector<unsigned> area;
  std::vector<std::uint64_t> sx, sy;
};

}  // namespace

int components_with_stats_ref(const cv::Mat& mask, cv::Mat& labels, cv::Mat& stats, cv::Mat& centroids,
                          int connectivity) {
  const int n = cv::connectedComponents(mask, labels, connectivity, CV_32S);
  CcStats st(n);  // run by run: a row's pixels of one label
  for (int y = 0; y < labels.rows; ++y) {
    const int* l = labels.ptr<int>(y);
    for (int x0 = 0; x0 < labels.cols;) {
      const int lab = l[x0];
      int x1 = x0 + 1;
      while (x1 < labels.cols && l[x1] == lab) ++x1;
      st.add(static_cast<std::size_t>(lab), y, x0, x1);
      x0 = x1;
    }
  }
  st.write(n, stats, centroids);
  return n;
}

namespace {

// mask_row_next (mask_ops.h): the transition found from the 16 comparisons' bits.
inline int next_where(const uchar* s, int x, int end, bool zero) {
#if CV_SIMD128
  const cv::v_uint8x16 z = cv::v_setzero_u8();
  for (; x + 16 <= end; x += 16) {
    unsigned m = static_cast<unsigned>(cv::v_signmask(cv::v_load(s + x) == z)) & 0xFFFFu;  // bit i: s[x + i] == 0
    if (!zero) m ^= 0xFFFFu;
    if (m) return x + __builtin_ctz(m);
  }
  if (x < end && end >= 16) {  // the last < 16: the row's last 16 (s[0] is the row's first)
    const int b = end - 16;
    unsigned m = static_cast<unsigned>(cv::v_signmask(cv::v_load(s + b) == z)) & 0xFFFFu;
    if (!zero) m ^= 0xFFFFu;
    m >>= (x - b);
    return m ? x + __builtin_ctz(m) : end;
  }
#endif
  while (x < end && ((s[x] == 0) != zero)) ++x;
  return x;
}

// The runs of one row's [x, end) (pixels != 0, or == 0 when `zeros`), appended as row y's.
void row_runs(const uchar* s, int x, int end, int y, bool zeros, std::vector<MaskRun>& runs) {
  while (x < end) {
    x = next_where(s, x, end, zeros);  // the first wanted pixel
    if (x >= end) break;
    const int x0 = x;
    x = next_where(s, x, end, !zeros);  // the first not wanted after it
    runs.push_back({y, x0, x});
  }
}

#if defined(HEXDICE_BILINEAR_AVX2)
bool use_avx2();
// Bit i: s[c + i] == 0, for the pixels of [c, end) among c .. c + 31 (end >= 32; a partial
// last 32 as the row's last 32 bytes, shifted).
__attribute__((target("avx2"))) inline std::uint64_t zero_bits32(const uchar* s, int c, int end) {
  const __m256i z = _mm256_setzero_si256();
  if (c + 32 <= end)
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + c)), z)));
  const int e = end - 32;
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + e)), z))) >>
         (c - e);
}
// (speed45) find_runs' rows (row_runs of each, r.row_start) from a bit mask of each row, 64
// pixels at a time: two 32-byte compares (a partial last 32 as the row's last 32 bytes,
// shifted: nothing read past a row's end or before its start), then each run's ends by
// counting zero bits; a run that reaches a block's end goes on in the next. The same runs as
// row_runs (MaskOps.FindRunsIsTheRefOnEveryMask). Rows under 32 pixels by row_runs.
__attribute__((target("avx2"), noinline)) void rows_runs_avx2(const cv::Mat& mask, bool zeros, const int* span_x0,
                                                              const int* span_x1, RunLabels& r) {
  const int w = mask.cols, h = mask.rows;
  std::vector<MaskRun>& runs = r.runs;
  int* const rs = r.row_start.data();
  const std::uint64_t flip = zeros ? 0 : ~std::uint64_t{0};
  for (int y = 0; y < h; ++y) {
    rs[y] = static_cast<int>(runs.size());
    const int x = span_x0 ? std::max(0, span_x0[y]) : 0, end = span_x1 ? std::min(w, span_x1[y]) : w;
    const uchar* s = mask.ptr<uchar>(y);
    if (x >= end) continue;
    if (end < 32) {
      row_runs(s, x, end, y, zeros, runs);
      continue;
    }
    int open = -1;  // the start of a run not yet ended
    for (int b = x; b < end; b += 64) {
      const int n = std::min(64, end - b);
      std::uint64_t m = (zero_bits32(s, b, end) | (n > 32 ? zero_bits32(s, b + 32, end) << 32 : 0)) ^ flip;  // bit i: b + i wanted
      if (n < 64) m &= (std::uint64_t{1} << n) - 1;
      int i = 0;
      while (true) {
        if (open < 0) {
          const std::uint64_t q = m >> i;
          if (!q) break;
          i += __builtin_ctzll(q);
          open = b + i;
        }
        const std::uint64_t q = ~m >> i;  // (set past n when n < 64)
        if (!q) break;
        const int t = i + __builtin_ctzll(q);
        if (t >= n) break;
        runs.push_back({y, open, b + t});
        open = -1;
        i = t;
      }
    }
    if (open >= 0) runs.push_back({y, open, end});
  }
}
#endif

int find_root(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    i = parent[static_cast<std::size_t>(i)];
  }
  return i;
}

// find_runs as it was before speed45 (its test's reference): the unions row by row as each
// row's runs are found, the parents pushed one by one.
// (was) The one run labeller's first half (every labelling here is built on it): the runs of a
// mask's nonzero pixels (zeros: its zero pixels), row by row, within the spans when given,
// each joined by union-find to the runs of the row above it touches (8: diagonally too).
// Afterwards r.root[k] is run k's component's first run in raster order (the least index:
// a union keeps the lesser root), whatever the order of the unions.
void find_runs_ref_impl(const cv::Mat& mask, bool zeros, int connectivity, RunLabels& r, const int* span_x0,
                        const int* span_x1) {
  const int w = mask.cols, h = mask.rows;
  r.runs.clear();
  r.row_start.resize(static_cast<std::size_t>(h) + 1);
  std::vector<int>& parent = r.root;
  parent.clear();
  const int reach = connectivity == 8 ? 1 : 0;
  int pb = 0;  // the row above's runs: [pb, cb)
  for (int y = 0; y < h; ++y) {
    const int cb = static_cast<int>(r.runs.size());
    r.row_start[static_cast<std::size_t>(y)] = cb;
    const int x0 = span_x0 ? std::max(0, span_x0[y]) : 0, x1 = span_x1 ? std::min(w, span_x1[y]) : w;
    row_runs(mask.ptr<uchar>(y), x0, x1, y, zeros, r.runs);
    const int ce = static_cast<int>(r.runs.size());
    for (int k = cb; k < ce; ++k) parent.push_back(k);
    int p = pb;
    for (int c = cb; c < ce; ++c) {
      const int cx0 = r.runs[static_cast<std::size_t>(c)].x0, cx1 = r.runs[static_cast<std::size_t>(c)].x1;
      // Runs of the row above that overlap [cx0 - reach, cx1 + reach).
      while (p < cb && r.runs[static_cast<std::size_t>(p)].x1 + reach <= cx0) ++p;
      for (int q = p; q < cb && r.runs[static_cast<std::size_t>(q)].x0 < cx1 + reach; ++q) {
        const int a = find_root(parent, q), b = find_root(parent, c);
        if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
      }
    }
    pb = cb;
  }
  r.row_start[static_cast<std::size_t>(h)] = static_cast<int>(r.runs.size());
  // Each parent is below its run: in index order, the parent's entry is already its root.
  for (std::size_t k = 0; k < parent.size(); ++k) parent[k] = parent[static_cast<std::size_t>(parent[k])];
}

// The one run labeller's first half (every labelling here is built on it): the runs of a
// mask's nonzero pixels (zeros: its zero pixels), row by row, within the spans when given,
// each joined by union-find to the runs of the row above it touches (8: diagonally too).
// Afterwards r.root[k] is run k's component's first run in raster order (the least index:
// a union keeps the lesser root), whatever the order of the unions.
// (speed45) Every row's runs first, then the parents at once and the unions row by row in
// the order they had when each row's were made as it was found (find_runs_ref_impl): each
// union reads only runs of its row and the row above, which the rows below do not touch.
void find_runs(const cv::Mat& mask, bool zeros, int connectivity, RunLabels& r, const int* span_x0 = nullptr,
               const int* span_x1 = nullptr) {
  const int w = mask.cols, h = mask.rows;
  r.runs.clear();
  r.row_start.resize(static_cast<std::size_t>(h) + 1);
  int* const rs = r.row_start.data();
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) {
    rows_runs_avx2(mask, zeros, span_x0, span_x1, r);
  } else
#endif
    for (int y = 0; y < h; ++y) {
      rs[y] = static_cast<int>(r.runs.size());
      const int x0 = span_x0 ? std::max(0, span_x0[y]) : 0, x1 = span_x1 ? std::min(w, span_x1[y]) : w;
      row_runs(mask.ptr<uchar>(y), x0, x1, y, zeros, r.runs);
    }
  const int nr = static_cast<int>(r.runs.size());
  rs[h] = nr;
  std::vector<int>& parent = r.root;
  parent.resize(static_cast<std::size_t>(nr));
  int* const par = parent.data();
  for (int k = 0; k < nr; ++k) par[k] = k;
  const MaskRun* const run = r.runs.data();
  const int reach = connectivity == 8 ? 1 : 0;
  for (int y = 1; y < h; ++y) {
    const int pb = rs[y - 1], cb = rs[y], ce = rs[y + 1];  // the row above's runs: [pb, cb)
    int p = pb;
    for (int c = cb; c < ce; ++c) {
      const int cx0 = run[c].x0, cx1 = run[c].x1;
      // Runs of the row above that overlap [cx0 - reach, cx1 + reach).
      while (p < cb && run[p].x1 + reach <= cx0) ++p;
      for (int q = p; q < cb && run[q].x0 < cx1 + reach; ++q) {
        const int a = find_root(parent, q), b = find_root(parent, c);
        if (a != b) par[std::max(a, b)] = std::min(a, b);
      }
    }
  }
  // Each parent is below its run: in index order, the parent's entry is already its root.
  for (int k = 0; k < nr; ++k) par[k] = par[par[k]];
}

// The one numbering rule, OpenCV 4.6's (its default algorithms, Spaghetti for 8-connectivity
// on 2x2 blocks, serial or in stripes of even rows, the 4-connected one on pixels): the
// components in the order of their first block (8) or pixel (4) in raster order. (Two
// components never share a 2x2 block, so no two have the same key.) After find_runs:
// r.run_comp[k] = run k's component, from 0 in that order; returns how many there are.
int number_runs(RunLabels& r, int connectivity, int cols) {
  const std::size_t nr = r.runs.size();
  r.run_comp.resize(nr);
  std::vector<std::pair<long, int>>& key = r.scratch_key;  // (key, component in order of first run)
  key.clear();
  const long w2 = (cols + 1) / 2;
  for (std::size_t k = 0; k < nr; ++k) {
    const MaskRun& q = r.runs[k];
    const int root = r.root[k];
    if (static_cast<std::size_t>(root) == k) {
      const int c = static_cast<int>(key.size());
      r.run_comp[k] = c;
      key.emplace_back(connectivity == 8 ? (q.y / 2) * w2 + q.x0 / 2 : static_cast<long>(q.y) * cols + q.x0, c);
    } else {
      const int c = r.run_comp[static_cast<std::size_t>(root)];
      r.run_comp[k] = c;
      // 4: the first run holds the first pixel; 8: the first block may be a later run's.
      if (connectivity == 8) {
        const long kk = (q.y / 2) * w2 + q.x0 / 2;
        if (kk < key[static_cast<std::size_t>(c)].first) key[static_cast<std::size_t>(c)].first = kk;
      }
    }
  }
  const std::size_t nc = key.size();
  bool sorted = true;
  for (std::size_t i = 1; i < nc && sorted; ++i) sorted = key[i - 1].first < key[i].first;
  if (!sorted) {
    std::sort(key.begin(), key.end());
    std::vector<int>& rank = r.scratch_rank;
    rank.resize(nc);
    for (std::size_t i = 0; i < nc; ++i) rank[static_cast<std::size_t>(key[i].second)] = static_cast<int>(i);
    for (std::size_t k = 0; k < nr; ++k) r.run_comp[k] = rank[static_cast<std::size_t>(r.run_comp[k])];
  }
  return static_cast<int>(nc);
}

// label_components' labels image (label = component + 1) from find_runs and number_runs.
int label_image(const cv::Mat& mask, cv::Mat& labels, int connectivity, RunLabels& r) {
  find_runs(mask, false, connectivity, r);
  const int n = number_runs(r, connectivity, mask.cols);
  const int w = mask.cols, h = mask.rows;
  labels.create(h, w, CV_32S);
  for (int y = 0; y < h; ++y) {
    int* l = labels.ptr<int>(y);
    std::memset(l, 0, static_cast<std::size_t>(w) * sizeof(int));
    for (int k = r.row_start[static_cast<std::size_t>(y)]; k < r.row_start[static_cast<std::size_t>(y) + 1]; ++k) {
      const MaskRun& q = r.runs[static_cast<std::size_t>(k)];
      std::fill(l + q.x0, l + q.x1, r.run_comp[static_cast<std::size_t>(k)] + 1);
    }
  }
  return n + 1;
}

}  // namespace

int mask_row_next(const uchar* s, int x, int end, bool zero) { return next_where(s, x, end, zero); }

void find_runs_checked(const cv::Mat& mask, bool zeros, int connectivity, RunLabels& r, const int* span_x0,
                       const int* span_x1) {
  find_runs(mask, zeros, connectivity, r, span_x0, span_x1);
}
void find_runs_ref(const cv::Mat& mask, bool zeros, int connectivity, RunLabels& r, const int* span_x0,
                   const int* span_x1) {
  find_runs_ref_impl(mask, zeros, connectivity, r, span_x0, span_x1);
}

int label_components(const cv::Mat& mask, cv::Mat& labels, int connectivity) {
  if (mask.type() != CV_8UC1 || mask.empty() || (connectivity != 8 && connectivity != 4))
    return cv::connectedComponents(mask, labels, connectivity, CV_32S);
  static thread_local RunLabels r;
  return label_image(mask, labels, connectivity, r);
}

int label_runs(const cv::Mat& mask, RunLabels& out, const int* span_x0, const int* span_x1) {
  CV_Assert(mask.type() == CV_8UC1);
  find_runs(mask, false, 8, out, span_x0, span_x1);
  const std::size_t nc = static_cast<std::size_t>(number_runs(out, 8, mask.cols));
  const std::size_t nr = out.runs.size();
  // Statistics as components_with_stats: the centroid from integer sums.
  std::vector<std::uint64_t>& sx = out.scratch_sx;
  std::vector<std::uint64_t>& sy = out.scratch_sy;
  sx.assign(nc, 0);
  sy.assign(nc, 0);
  out.comps.assign(nc, RunComponent{});
  out.comp_begin.assign(nc + 1, 0);
  for (std::size_t i = 0; i < nr; ++i) {
    const int c = out.run_comp[i];
    const MaskRun& r = out.runs[i];
    RunComponent& k = out.comps[static_cast<std::size_t>(c)];
    const int len = r.x1 - r.x0;
    if (k.area == 0) k.left = r.x0, k.top = r.y, k.right = r.x1 - 1;
    k.left = std::min(k.left, r.x0);
    k.right = std::max(k.right, r.x1 - 1);
    k.bottom = r.y;
    k.area += len;
    sx[static_cast<std::size_t>(c)] += static_cast<std::uint64_t>(r.x0 + r.x1 - 1) * static_cast<std::uint64_t>(len) / 2;
    sy[static_cast<std::size_t>(c)] += static_cast<std::uint64_t>(r.y) * static_cast<std::uint64_t>(len);
    ++out.comp_begin[static_cast<std::size_t>(c) + 1];
  }
  for (std::size_t c = 0; c < nc; ++c) {
    RunComponent& k = out.comps[c];
    k.cx = static_cast<double>(sx[c]) / k.area;
    k.cy = static_cast<double>(sy[c]) / k.area;
    out.comp_begin[c + 1] += out.comp_begin[c];
  }
  // Each component's runs, in raster order.
  out.comp_runs.resize(nr);
  std::vector<int>& fill = out.scratch_rank;
  fill.assign(out.comp_begin.begin(), out.comp_begin.end() - 1);
  for (std::size_t i = 0; i < nr; ++i)
    out.comp_runs[static_cast<std::size_t>(fill[static_cast<std::size_t>(out.run_comp[i])]++)] = static_cast<int>(i);
  return static_cast<int>(nc);
}

namespace {

// components_with_stats' statistics and centroids (label 0: what the runs leave) from the
// runs of find_runs and number_runs, n labels.
void stats_from_runs(const RunLabels& r, int n, int rows, int cols, cv::Mat& stats, cv::Mat& centroids) {
  CcStats st(n);
  auto add = [&](std::size_t k, int y, int x0, int x1) { st.add(k, y, x0, x1); };
  for (int y = 0; y < rows; ++y) {
    int prev = 0;  // end of the last run: background from there to the next run
    for (int k = r.row_start[static_cast<std::size_t>(y)]; k < r.row_start[static_cast<std::size_t>(y) + 1]; ++k) {
      const int x0 = r.runs[static_cast<std::size_t>(k)].x0, x1 = r.runs[static_cast<std::size_t>(k)].x1;
      if (x0 > prev) add(0, y, prev, x0);
      add(static_cast<std::size_t>(r.run_comp[static_cast<std::size_t>(k)]) + 1, y, x0, x1);
      prev = x1;
    }
    if (prev < cols) add(0, y, prev, cols);
  }
  st.write(n, stats, centroids);
}

}  // namespace

int components_with_stats(const cv::Mat& mask, cv::Mat& labels, cv::Mat& stats, cv::Mat& centroids,
                          int connectivity) {
  if (mask.type() != CV_8UC1 || mask.empty() || (connectivity != 8 && connectivity != 4))
    return components_with_stats_ref(mask, labels, stats, centroids, connectivity);
  static thread_local RunLabels r;
  const int n = label_image(mask, labels, connectivity, r);
  stats_from_runs(r, n, mask.rows, mask.cols, stats, centroids);
  return n;
}

int components_stats(const cv::Mat& mask, cv::Mat& stats, cv::Mat& centroids, int connectivity) {
  if (mask.type() != CV_8UC1 || mask.empty() || (connectivity != 8 && connectivity != 4)) {
    cv::Mat labels;
    return components_with_stats_ref(mask, labels, stats, centroids, connectivity);
  }
  static thread_local RunLabels r;
  return components_stats_runs(mask, stats, centroids, r, connectivity);
}

int components_stats_runs(const cv::Mat& mask, cv::Mat& stats, cv::Mat& centroids, RunLabels& runs, int connectivity) {
  CV_Assert(mask.type() == CV_8UC1 && (connectivity == 8 || connectivity == 4));
  find_runs(mask, false, connectivity, runs);
  const int n = number_runs(runs, connectivity, mask.cols) + 1;
  stats_from_runs(runs, n, mask.rows, mask.cols, stats, centroids);
  return n;
}

cv::Mat component_mask(const RunLabels& runs, int label, cv::Size size) {
  CV_Assert(runs.row_start.size() == static_cast<std::size_t>(size.height) + 1);
  if (label != 0) return runs_mask(runs, cv::Rect(cv::Point(0, 0), size), [label](int l) { return l == label; });
  cv::Mat out;
  cv::bitwise_not(runs_mask(runs, cv::Rect(cv::Point(0, 0), size), [](int) { return true; }), out);  // the background
  return out;
}

namespace {

// Batcher's odd-even merge sort of 32 wires, cut to the first 25 (the rest would be +inf:
// their comparators do nothing) and pruned to what decides wire 12, the median.
// (speed25) Made at compile time, so that the vector steps' loops over it unroll to constant
// wires (the 25 vectors then live in registers instead of an array indexed at run time): the
// same comparators in the same order.
struct Median25Net {
  std::array<std::pair<int, int>, 256> c{};
  int n = 0;
};
constexpr Median25Net median25_network_fixed() {
  std::array<std::pair<int, int>, 512> net{};
  int nn = 0;
  const int n = 32;
  for (int p = 1; p < n; p *= 2)
    for (int k = p; k >= 1; k /= 2)
      for (int j = k % p; j + k < n; j += 2 * k)
        for (int i = 0; i < std::min(k, n - j - k); ++i)
          if ((i + j) / (p * 2) == (i + j + k) / (p * 2)) net[static_cast<std::size_t>(nn++)] = {i + j, i + j + k};
  Median25Net used;
  std::array<bool, 32> need{};
  need[12] = true;
  for (int q = nn - 1; q >= 0; --q) {
    const auto [a, b] = net[static_cast<std::size_t>(q)];
    if (b >= 25 || !(need[static_cast<std::size_t>(a)] || need[static_cast<std::size_t>(b)])) continue;
    need[static_cast<std::size_t>(a)] = need[static_cast<std::size_t>(b)] = true;
    used.c[static_cast<std::size_t>(used.n++)] = net[static_cast<std::size_t>(q)];
  }
  for (int l = 0, r = used.n - 1; l < r; ++l, --r) std::swap(used.c[static_cast<std::size_t>(l)], used.c[static_cast<std::size_t>(r)]);
  return used;
}
constexpr Median25Net kMedian25 = median25_network_fixed();
constexpr int kMedian25Size = kMedian25.n;
static_assert(kMedian25Size == 113, "the pruned network of rounds 20-24");

#if defined(HEXDICE_BILINEAR_AVX2)
bool use_avx2();
// (Round 20) median_blur5's network on 32 bytes of an output row at a time in AVX2 (bytes b..
// b + 31 while b + 32 <= rw; each byte's median is its own, whatever the vector's width): the
// same comparators, the same medians. Returns the first byte not done.
__attribute__((target("avx2"), noinline)) int median5_row_avx2(const uchar* pad, std::size_t stride, int y, int cn, int rw, uchar* o) {
  int b = 0;
  for (; b + 32 <= rw; b += 32) {
    __m256i w[25];
    for (int dy = 0; dy < 5; ++dy)
      for (int dx = 0; dx < 5; ++dx)
        w[dy * 5 + dx] = _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(pad + static_cast<std::size_t>(y + dy) * stride + static_cast<std::size_t>(b + dx * cn)));
#pragma GCC unroll 128
    for (int c = 0; c < kMedian25Size; ++c) {
      const int i = kMedian25.c[static_cast<std::size_t>(c)].first, j = kMedian25.c[static_cast<std::size_t>(c)].second;
      const __m256i lo = _mm256_min_epu8(w[i], w[j]), hi = _mm256_max_epu8(w[i], w[j]);
      w[i] = lo;
      w[j] = hi;
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + b), w[12]);
  }
  return b;
}
#endif

}  // namespace

void median_blur5(const cv::Mat& src, cv::Mat& dst) {
  const int cn = src.channels();
  if (src.depth() != CV_8U || src.empty() || (cn != 1 && cn != 3 && cn != 4)) {
    cv::medianBlur(src, dst, 5);
    return;
  }
  // The source with 2 replicated pixels round it, and a vector's room past each row.
  const int rw = src.cols * cn, pw = (src.cols + 4) * cn;
  const std::size_t stride = static_cast<std::size_t>(pw + 16);
  std::vector<uchar> pad(stride * static_cast<std::size_t>(src.rows + 4), 0);
  // (speed25) A row copied whole and its end pixels twice on each side: the bytes the per-pixel
  // clamp gave.
  for (int y = -2; y < src.rows + 2; ++y) {
    const uchar* s = src.ptr<uchar>(std::clamp(y, 0, src.rows - 1));
    uchar* p = pad.data() + static_cast<std::size_t>(y + 2) * stride;
    std::memcpy(p + 2 * cn, s, static_cast<std::size_t>(rw));
    for (int k = 0; k < cn; ++k) {
      p[k] = p[cn + k] = s[k];
      p[(src.cols + 2) * cn + k] = p[(src.cols + 3) * cn + k] = s[(src.cols - 1) * cn + k];
    }
  }
  cv::Mat out(src.size(), src.type());
  for (int y = 0; y < src.rows; ++y) {
    uchar* o = out.ptr<uchar>(y);
    int b = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
    if (use_avx2()) b = median5_row_avx2(pad.data(), stride, y, cn, rw, o);
#endif
#if CV_SIMD128
    for (; b < rw; b += 16) {
      // Bytes b..b+15 of the output row (the last chunk may run past it into `tail`).
      cv::v_uint8x16 w[25];
      for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx)
          w[dy * 5 + dx] = cv::v_load(pad.data() + static_cast<std::size_t>(y + dy) * stride + static_cast<std::size_t>(b + dx * cn));
#pragma GCC unroll 128
      for (int c = 0; c < kMedian25Size; ++c) {
        const int i = kMedian25.c[static_cast<std::size_t>(c)].first, j = kMedian25.c[static_cast<std::size_t>(c)].second;
        const cv::v_uint8x16 lo = cv::v_min(w[i], w[j]), hi = cv::v_max(w[i], w[j]);
        w[i] = lo;
        w[j] = hi;
      }
      alignas(16) uchar tail[16];
      cv::v_store(tail, w[12]);
      std::copy_n(tail, std::min(16, rw - b), o + b);
    }
#endif
    for (; b < rw; ++b) {
      uchar w[25];
      for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx) w[dy * 5 + dx] = pad[static_cast<std::size_t>(y + dy) * stride + static_cast<std::size_t>(b + dx * cn)];
      std::nth_element(w, w + 12, w + 25);
      o[b] = w[12];
    }
  }
  dst = out;
}

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
// (speed34) dilate3x3_f32's two row steps 8 floats at a time in AVX2: per lane the SSE
// steps' maxima (a maximum of floats is one of its arguments, whatever the width). Each
// returns the first x not done.
__attribute__((target("avx2"), noinline)) int max3_along_row_avx2(const float* s, int w, float* o) {
  int x = 1;
  for (; x + 8 < w; x += 8)
    _mm256_storeu_ps(o + x, _mm256_max_ps(_mm256_max_ps(_mm256_loadu_ps(s + x - 1), _mm256_loadu_ps(s + x)), _mm256_loadu_ps(s + x + 1)));
  return x;
}
__attribute__((target("avx2"), noinline)) int max3_of_rows_avx2(const float* a, const float* b, const float* c, int w, float* o) {
  int x = 0;
  for (; x + 8 <= w; x += 8)
    _mm256_storeu_ps(o + x, _mm256_max_ps(_mm256_max_ps(_mm256_loadu_ps(a + x), _mm256_loadu_ps(b + x)), _mm256_loadu_ps(c + x)));
  return x;
}
}  // namespace
#endif

void dilate3x3_f32(const cv::Mat& src, cv::Mat& dst) {
  if (src.type() != CV_32FC1 || src.empty() || src.cols < 2 || src.isSubmatrix()) {
    cv::dilate(src, dst, cv::Mat());
    return;
  }
  const int w = src.cols, h = src.rows;
  // hm: each row's maximum over x-1..x+1 (inside the row); three rows kept in turn.
#if defined(HEXDICE_BILINEAR_AVX2)
  const bool avx2 = use_avx2();
#endif
  thread_local std::vector<float> buf;
  buf.resize(static_cast<std::size_t>(3 * w));
  auto row_max = [&](int y, float* o) {
    const float* s = src.ptr<float>(y);
    o[0] = std::max(s[0], s[1]);
    int x = 1;
#if defined(HEXDICE_BILINEAR_AVX2)
    if (avx2) x = max3_along_row_avx2(s, w, o);
#endif
#if CV_SIMD128
    for (; x + 4 < w; x += 4)
      cv::v_store(o + x, cv::v_max(cv::v_max(cv::v_load(s + x - 1), cv::v_load(s + x)), cv::v_load(s + x + 1)));
#endif
    for (; x < w - 1; ++x) o[x] = std::max(std::max(s[x - 1], s[x]), s[x + 1]);
    o[w - 1] = std::max(s[w - 2], s[w - 1]);
  };
  cv::Mat out(src.size(), CV_32FC1);
  float* rows[3] = {buf.data(), buf.data() + w, buf.data() + 2 * w};
  row_max(0, rows[1]);
  for (int y = 0; y < h; ++y) {
    // rows[0] = row y-1 (or y), rows[1] = row y, rows[2] = row y+1 (or y).
    if (y == 0) std::copy_n(rows[1], w, rows[0]);
    if (y + 1 < h) row_max(y + 1, rows[2]);
    else std::copy_n(rows[1], w, rows[2]);
    float* o = out.ptr<float>(y);
    const float *a = rows[0], *b = rows[1], *c = rows[2];
    int x = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
    if (avx2) x = max3_of_rows_avx2(a, b, c, w, o);
#endif
#if CV_SIMD128
    for (; x + 4 <= w; x += 4) cv::v_store(o + x, cv::v_max(cv::v_max(cv::v_load(a + x), cv::v_load(b + x)), cv::v_load(c + x)));
#endif
    for (; x < w; ++x) o[x] = std::max(std::max(a[x], b[x]), c[x]);
    std::swap(rows[0], rows[1]);  // row y becomes the row above
    std::swap(rows[1], rows[2]);  // row y+1 becomes the current row
  }
  dst = out;
}

void resize_area(const cv::Mat& src, cv::Mat& dst, double scale) {
  // As cv::resize: the size from the factor, and its test for an integer reduction.
  const cv::Size dsize(cv::saturate_cast<int>(src.cols * scale), cv::saturate_cast<int>(src.rows * scale));
  const double inv = 1.0 / scale;
  const int iscale = cv::saturate_cast<int>(inv);
  const bool exact3 = std::abs(inv - iscale) < DBL_EPSILON && iscale == 3 && src.type() == CV_8UC1 &&
                      dsize.width > 0 && dsize.height > 0 && src.cols == 3 * dsize.width && src.rows == 3 * dsize.height;
  if (!exact3) {
    cv::resize(src, dst, cv::Size(), scale, scale, cv::INTER_AREA);
    return;
  }
  cv::Mat out(dsize, CV_8UC1);
  const float k = 1.f / 9;  // OpenCV: float scale = 1.f / area; D = saturate_cast<uchar>(sum * scale)
  for (int y = 0; y < dsize.height; ++y) {
    const uchar* r0 = src.ptr<uchar>(3 * y);
    const uchar* r1 = src.ptr<uchar>(3 * y + 1);
    const uchar* r2 = src.ptr<uchar>(3 * y + 2);
    uchar* o = out.ptr<uchar>(y);
    int x = 0;
#if CV_SIMD128
    const cv::v_float32x4 vk = cv::v_setall_f32(k);
    for (; x + 16 <= dsize.width; x += 16) {
      // Bytes 3x, 3x+1, 3x+2 of each row: the three columns of 16 output pixels.
      cv::v_uint8x16 a[9];
      cv::v_load_deinterleave(r0 + 3 * x, a[0], a[1], a[2]);
      cv::v_load_deinterleave(r1 + 3 * x, a[3], a[4], a[5]);
      cv::v_load_deinterleave(r2 + 3 * x, a[6], a[7], a[8]);
      cv::v_uint16x8 lo = cv::v_setzero_u16(), hi = cv::v_setzero_u16();
      for (const auto& v : a) {
        cv::v_uint16x8 l, h;
        cv::v_expand(v, l, h);
        lo += l;
        hi += h;
      }
      cv::v_int32x4 q[4];
      {
        cv::v_uint32x4 s0, s1, s2, s3;
        cv::v_expand(lo, s0, s1);
        cv::v_expand(hi, s2, s3);
        const cv::v_uint32x4 s[4] = {s0, s1, s2, s3};
        for (int i = 0; i < 4; ++i) q[i] = cv::v_round(cv::v_cvt_f32(cv::v_reinterpret_as_s32(s[i])) * vk);
      }
      cv::v_store(o + x, cv::v_pack_u(cv::v_pack(q[0], q[1]), cv::v_pack(q[2], q[3])));
    }
#endif
    for (; x < dsize.width; ++x) {
      int sum = 0;
      for (const uchar* r : {r0, r1, r2}) sum += r[3 * x] + r[3 * x + 1] + r[3 * x + 2];
      o[x] = cv::saturate_cast<uchar>(static_cast<float>(sum) * k);
    }
  }
  dst = out;
}

namespace {
// OpenCV 4.6 resize()'s INTER_LINEAR column dx (scale_x = 1 / (dsize / size)): its first source
// column, returned, and fraction fx, clamped to the first column and the last (fx 0 there);
// xmax lowered to dx at the first column whose second source is past the image.
int linear_column(int dx, double scale_x, int sw, float& fx, int& xmax) {
  fx = static_cast<float>((dx + 0.5) * scale_x - 0.5);
  int sx = cvFloor(fx);
  fx -= static_cast<float>(sx);
  if (sx < 0) fx = 0, sx = 0;
  if (sx + 1 >= sw) {
    xmax = std::min(xmax, dx);
    if (sx >= sw - 1) fx = 0, sx = sw - 1;
  }
  return sx;
}
}  // namespace

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
bool use_ssse3();
// (Speed round 23) resize_linear_up_u8c3's row pass 4 elements a step: each element's two
// source bytes S[sx], S[sx + 3] picked by one pshufb (base[j], shuf[j]) as 16-bit pairs, times
// its (alpha0, alpha1) by pmaddwd: S[sx] alpha0 + S[sx + 3] alpha1, the scalar loop's ints. At
// and past xmax the tables hold sx = the last pixel, alpha (2048, 0): S[sx] 2048 as there, the
// byte past the row read from a zeroed pad (times 0).
__attribute__((target("ssse3"), noinline)) void resize_rows_ssse3(const cv::Mat& src, const int* base,
                                                                  const std::array<std::uint8_t, 16>* shuf, const short* alpha,
                                                                  int W, int* rows) {
  const int rb = src.cols * 3;
  alignas(16) uchar row[512 * 3 + 32];  // (src.cols <= dw <= 512)
  std::memset(row + rb, 0, 32);
  for (int y = 0; y < src.rows; ++y) {
    std::memcpy(row, src.ptr<uchar>(y), static_cast<std::size_t>(rb));
    int* D = rows + static_cast<std::size_t>(y) * static_cast<std::size_t>(W);
    for (int j = 0; j < W / 4; ++j) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + base[j]));
      const __m128i p = _mm_shuffle_epi8(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(shuf[j].data())));
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(alpha + 8 * j));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(D + 4 * j), _mm_madd_epi16(p, a));
    }
  }
}
}  // namespace
#endif

constexpr int INTER_RESIZE_COEF_SCALE_U8 = 2048;  // OpenCV's INTER_RESIZE_COEF_SCALE (1 << 11)
void resize_linear_up_u8c3(const cv::Mat& src, cv::Mat& dst, cv::Size dsize) {
#if !defined(__SSE2__)
  cv::resize(src, dst, dsize, 0, 0, cv::INTER_LINEAR);
  return;
#else
  const int sw = src.cols, sh = src.rows, dw = dsize.width, dh = dsize.height;
  // Whole enlargement factors with rows of whole 16-byte steps only (the lattice's 16 -> 48):
  // elsewhere (a tail of the row, other factors) these bytes were not matched to OpenCV's.
  if (src.type() != CV_8UC3 || src.empty() || dw < sw || dh < sh || dw % sw != 0 || dh % sh != 0 || (dw * 3) % 16 != 0 ||
      dw > 512 || dh > 512 || src.data == dst.data) {
    cv::resize(src, dst, dsize, 0, 0, cv::INTER_LINEAR);
    return;
  }
  constexpr int cn = 3;
  const int W = dw * cn;
  // The tables of cv::resize (resize.cpp, hal::resize: scale = 1 / (dsize / ssize) in doubles).
  struct Tabs {
    int sw = -1, sh = -1, dw = -1, dh = -1, xmax = 0;
    std::vector<int> xofs;
    std::vector<short> alpha;    // 2 per output element
    std::vector<int> y0, y1;     // the two source rows, clamped
    std::vector<short> beta;     // 2 per output row
    std::vector<int> cbase;      // (speed23) per 4 output elements: the first source byte they read
    std::vector<std::array<std::uint8_t, 16>> cshuf;  // and the pshufb picking their (S[sx], S[sx + 3]) as 16-bit pairs
    bool chunks_ok = false;
  };
  static thread_local Tabs t;
  if (t.sw != sw || t.sh != sh || t.dw != dw || t.dh != dh) {
    t.sw = sw, t.sh = sh, t.dw = dw, t.dh = dh;
    const double scale_x = 1. / (static_cast<double>(dw) / sw), scale_y = 1. / (static_cast<double>(dh) / sh);
    t.xofs.assign(static_cast<std::size_t>(W), 0);
    t.alpha.assign(static_cast<std::size_t>(2 * W), 0);
    int xmax = dw;
    for (int dx = 0; dx < dw; ++dx) {
      float fx;
      const int sx = linear_column(dx, scale_x, sw, fx, xmax);
      const short a0 = cv::saturate_cast<short>((1.f - fx) * INTER_RESIZE_COEF_SCALE_U8);
      const short a1 = cv::saturate_cast<short>(fx * INTER_RESIZE_COEF_SCALE_U8);
      for (int k = 0; k < cn; ++k) {
        t.xofs[static_cast<std::size_t>(dx * cn + k)] = sx * cn + k;
        t.alpha[static_cast<std::size_t>(2 * (dx * cn + k))] = a0;
        t.alpha[static_cast<std::size_t>(2 * (dx * cn + k) + 1)] = a1;
      }
    }
    t.xmax = xmax * cn;
    // (speed23) The row pass 4 elements at a time: their 8 source bytes lie within 16 bytes
    // from the lowest (4 elements span at most 2 pixels' channels at factor 1, + 3 for the
    // second tap).
    t.chunks_ok = true;
    t.cbase.assign(static_cast<std::size_t>(W / 4), 0);
    t.cshuf.assign(static_cast<std::size_t>(W / 4), {});
    for (int j = 0; j < W / 4; ++j) {
      int lo = INT_MAX;  // (not the first: a pixel's channel 2 may precede the next pixel's channel 0 at the same sx)
      for (int i = 0; i < 4; ++i) lo = std::min(lo, t.xofs[static_cast<std::size_t>(4 * j + i)]);
      t.cbase[static_cast<std::size_t>(j)] = lo;
      for (int i = 0; i < 4; ++i) {
        const int o = t.xofs[static_cast<std::size_t>(4 * j + i)] - lo;
        if (o + cn > 15) t.chunks_ok = false;  // (cannot happen at a whole factor; then the scalar loop)
        auto& c = t.cshuf[static_cast<std::size_t>(j)];
        c[static_cast<std::size_t>(4 * i)] = static_cast<std::uint8_t>(o), c[static_cast<std::size_t>(4 * i + 1)] = 0x80;
        c[static_cast<std::size_t>(4 * i + 2)] = static_cast<std::uint8_t>(o + cn), c[static_cast<std::size_t>(4 * i + 3)] = 0x80;
      }
    }
    t.y0.resize(static_cast<std::size_t>(dh)), t.y1.resize(static_cast<std::size_t>(dh));
    t.beta.resize(static_cast<std::size_t>(2 * dh));
    for (int dy = 0; dy < dh; ++dy) {
      float fy = static_cast<float>((dy + 0.5) * scale_y - 0.5);
      const int sy = cvFloor(fy);
      fy -= static_cast<float>(sy);
      t.y0[static_cast<std::size_t>(dy)] = std::clamp(sy, 0, sh - 1);
      t.y1[static_cast<std::size_t>(dy)] = std::clamp(sy + 1, 0, sh - 1);
      t.beta[static_cast<std::size_t>(2 * dy)] = cv::saturate_cast<short>((1.f - fy) * INTER_RESIZE_COEF_SCALE_U8);
      t.beta[static_cast<std::size_t>(2 * dy + 1)] = cv::saturate_cast<short>(fy * INTER_RESIZE_COEF_SCALE_U8);
    }
  }
  // The row pass of every source row once (OpenCV's rows are the same ints, whichever it reuses).
  static thread_local std::vector<int> rows;
  rows.resize(static_cast<std::size_t>(sh) * static_cast<std::size_t>(W));
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_ssse3() && t.chunks_ok) {
    resize_rows_ssse3(src, t.cbase.data(), t.cshuf.data(), t.alpha.data(), W, rows.data());
  } else
#endif
  for (int y = 0; y < sh; ++y) {
    const uchar* S = src.ptr<uchar>(y);
    int* D = rows.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(W);
    int dx = 0;
    for (; dx < t.xmax; ++dx) {
      const int sx = t.xofs[static_cast<std::size_t>(dx)];
      D[dx] = S[sx] * t.alpha[static_cast<std::size_t>(2 * dx)] + S[sx + cn] * t.alpha[static_cast<std::size_t>(2 * dx + 1)];
    }
    for (; dx < W; ++dx) D[dx] = S[t.xofs[static_cast<std::size_t>(dx)]] * INTER_RESIZE_COEF_SCALE_U8;
  }
  dst.create(dsize, CV_8UC3);
  const __m128i two = _mm_set1_epi16(2);
  for (int dy = 0; dy < dh; ++dy) {
    const int* R0 = rows.data() + static_cast<std::size_t>(t.y0[static_cast<std::size_t>(dy)]) * static_cast<std::size_t>(W);
    const int* R1 = rows.data() + static_cast<std::size_t>(t.y1[static_cast<std::size_t>(dy)]) * static_cast<std::size_t>(W);
    const short b0 = t.beta[static_cast<std::size_t>(2 * dy)], b1 = t.beta[static_cast<std::size_t>(2 * dy + 1)];
    const __m128i vb0 = _mm_set1_epi16(b0), vb1 = _mm_set1_epi16(b1);
    uchar* d = dst.ptr<uchar>(dy);
    int x = 0;
    // VResizeLinearVec_32s8u (OpenCV 4.6, 128-bit): v_pack of >> 4, v_mul_hi, saturating
    // v_add, v_rshr_pack_u<2>.
    auto half = [&](int at) {
      auto ld = [](const int* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
      const __m128i s0 = _mm_packs_epi32(_mm_srai_epi32(ld(R0 + at), 4), _mm_srai_epi32(ld(R0 + at + 4), 4));
      const __m128i s1 = _mm_packs_epi32(_mm_srai_epi32(ld(R1 + at), 4), _mm_srai_epi32(ld(R1 + at + 4), 4));
      return _mm_srai_epi16(_mm_adds_epi16(_mm_adds_epi16(_mm_mulhi_epi16(s0, vb0), _mm_mulhi_epi16(s1, vb1)), two), 2);
    };
    for (; x <= W - 16; x += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(d + x), _mm_packus_epi16(half(x), half(x + 8)));
    // The scalar rest (FixedPtCast<int, uchar, 22>).
    for (; x < W; ++x) d[x] = cv::saturate_cast<uchar>((R0[x] * b0 + R1[x] * b1 + (1 << 21)) >> 22);
  }
#endif
}

#if defined(HEXDICE_BILINEAR_AVX2) && CV_SIMD128
namespace {
bool use_avx2();
// (speed35) resize_linear_f32_part's column pass, 8 floats a step: r0 b0 + r1 b1 per lane (no
// FMA is enabled here). Returns the first float not done.
__attribute__((target("avx2"), noinline)) int vlinear_row_avx2(const float* r0, const float* r1, float b0, float b1, int n,
                                                               float* d) {
  const __m256 vb0 = _mm256_set1_ps(b0), vb1 = _mm256_set1_ps(b1);
  int x = 0;
  for (; x + 8 <= n; x += 8)
    _mm256_storeu_ps(d + x, _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(r0 + x), vb0), _mm256_mul_ps(_mm256_loadu_ps(r1 + x), vb1)));
  return x;
}
}  // namespace
#endif

namespace {
// A linear resize's column pass over n floats: d = r0 b0 + r1 b1, all in floats (8 a step in
// AVX2 when avx2, then 4 a step, then one at a time; the same operations per lane, no FMA), so
// every step gives cv::resize's bits. resize_linear_f32_part's and resize_linear_up_f32's.
void linear_column_pass(const float* r0, const float* r1, float b0, float b1, int n, float* d, [[maybe_unused]] bool avx2) {
  int x = 0;
#if defined(HEXDICE_BILINEAR_AVX2) && CV_SIMD128
  if (avx2) x = vlinear_row_avx2(r0, r1, b0, b1, n, d);
#endif
#if CV_SIMD128
  const cv::v_float32x4 vb0 = cv::v_setall_f32(b0), vb1 = cv::v_setall_f32(b1);
  for (; x + 4 <= n; x += 4) cv::v_store(d + x, cv::v_load(r0 + x) * vb0 + cv::v_load(r1 + x) * vb1);
#endif
  for (; x < n; ++x) d[x] = r0[x] * b0 + r1[x] * b1;
}
}  // namespace

void resize_linear_f32_part(const cv::Mat& src, cv::Mat& dst, cv::Size dsize, cv::Size part) {
  const int sw = src.cols, sh = src.rows, cn = src.channels();
  CV_Assert(part.width >= 0 && part.height >= 0 && part.width <= dsize.width && part.height <= dsize.height);
  if (src.depth() != CV_32F || cn > 4 || sw < 1 || sh < 1 || dsize.width < sw || dsize.height < sh) {
    cv::Mat big;
    cv::resize(src, big, dsize, 0, 0, cv::INTER_LINEAR);
    big(cv::Rect(0, 0, part.width, part.height)).copyTo(dst);
    return;
  }
  // OpenCV's positions and weights (resize(): scale = 1 / inv_scale, inv_scale = dsize / size).
  const double scale_x = 1. / (static_cast<double>(dsize.width) / sw), scale_y = 1. / (static_cast<double>(dsize.height) / sh);
  const int pw = part.width, ph = part.height;
  std::vector<int> xo(static_cast<std::size_t>(pw)), yo(static_cast<std::size_t>(ph));
  std::vector<float> xa(2 * static_cast<std::size_t>(pw)), yb(2 * static_cast<std::size_t>(ph));
  int xmax = pw;  // from here on a column takes its first source alone
  for (int dx = 0; dx < pw; ++dx) {
    float fx;
    const int sx = linear_column(dx, scale_x, sw, fx, xmax);
    xo[static_cast<std::size_t>(dx)] = sx * cn;
    xa[2 * static_cast<std::size_t>(dx)] = 1.f - fx;
    xa[2 * static_cast<std::size_t>(dx) + 1] = fx;
  }
  for (int dy = 0; dy < ph; ++dy) {
    float fy = static_cast<float>((dy + 0.5) * scale_y - 0.5);
    const int sy = cvFloor(fy);
    fy -= static_cast<float>(sy);
    yo[static_cast<std::size_t>(dy)] = sy;
    yb[2 * static_cast<std::size_t>(dy)] = 1.f - fy;
    yb[2 * static_cast<std::size_t>(dy) + 1] = fy;
  }
  // The row pass on every source row a part's row uses.
  const int rw = pw * cn;
  const int last_row = ph > 0 ? std::min(sh - 1, std::max(0, yo[static_cast<std::size_t>(ph) - 1] + 1)) : -1;
  // (speed39) Not zeroed first: each of these rows is written whole here, and the column pass
  // reads rows 0 .. last_row alone.
  const std::unique_ptr<float[]> rows(new float[static_cast<std::size_t>(last_row + 1) * static_cast<std::size_t>(rw)]);
  for (int y = 0; y <= last_row; ++y) {
    const float* S = src.ptr<float>(y);
    float* D = rows.get() + static_cast<std::size_t>(y) * static_cast<std::size_t>(rw);
    for (int dx = 0; dx < pw; ++dx) {
      const int sx = xo[static_cast<std::size_t>(dx)];
      const float a0 = xa[2 * static_cast<std::size_t>(dx)], a1 = xa[2 * static_cast<std::size_t>(dx) + 1];
      float* o = D + dx * cn;
      if (dx < xmax)
        for (int k = 0; k < cn; ++k) o[k] = S[sx + k] * a0 + S[sx + k + cn] * a1;
      else
        for (int k = 0; k < cn; ++k) o[k] = S[sx + k] * a0;
    }
  }
  cv::Mat out = dst.data == src.data ? cv::Mat() : dst;
  out.create(ph, pw, src.type());
#if defined(HEXDICE_BILINEAR_AVX2) && CV_SIMD128
  const bool avx2 = use_avx2();
#else
  const bool avx2 = false;
#endif
  for (int dy = 0; dy < ph; ++dy) {
    const int sy = yo[static_cast<std::size_t>(dy)];
    const float* R0 = rows.get() + static_cast<std::size_t>(std::clamp(sy, 0, sh - 1)) * static_cast<std::size_t>(rw);
    const float* R1 = rows.get() + static_cast<std::size_t>(std::clamp(sy + 1, 0, sh - 1)) * static_cast<std::size_t>(rw);
    const float b0 = yb[2 * static_cast<std::size_t>(dy)], b1 = yb[2 * static_cast<std::size_t>(dy) + 1];
    linear_column_pass(R0, R1, b0, b1, rw, out.ptr<float>(dy), avx2);
  }
  dst = out;
}

void resize_linear_up_f32(const cv::Mat& src, cv::Mat& dst, cv::Size dsize) {
  const int sw = src.cols, sh = src.rows, dw = dsize.width, dh = dsize.height;
  // (At other factors OpenCV's weights are not the ones below to the last bit.)
  if (src.type() != CV_32FC1 || sw < 1 || sh < 1 || dw != 2 * sw || dh != 2 * sh || sw > 1024 || sh > 1024) {
    cv::resize(src, dst, dsize, 0, 0, cv::INTER_LINEAR);
    return;
  }
  // Each output column's (row's) first source column (row) and its two weights, as OpenCV's
  // resizeGeneric computes them for INTER_LINEAR (at 2:1: 0.75 and 0.25, 1 and 0 at the ends).
  // The second source: the next one, but the same at the far end; and (rows only) at the
  // near end, where the position is before the first row, the first row twice (OpenCV's
  // column pass takes the rows sy, sy + 1 of the unclamped sy, each clamped: r0 1 + r0 0,
  // which keeps a -0, where its row pass takes s[0] 1 + s[1] 0).
  std::array<int, 2048> xo, xo1, yo, yo1;
  std::array<float, 2048> xa0, xa1, ya0, ya1;
  auto table = [](int s, int d, int* ofs, int* ofs1, float* w0, float* w1, bool rows) {
    const double scale = 1.0 / (static_cast<double>(d) / s);
    for (int i = 0; i < d; ++i) {
      float f = static_cast<float>((i + 0.5) * scale - 0.5);
      int si = cvFloor(f);
      f -= static_cast<float>(si);
      const bool before = si < 0;
      if (si < 0) f = 0, si = 0;
      if (si >= s - 1) f = 0, si = s - 1;
      ofs[i] = si;
      ofs1[i] = before && rows ? si : std::min(si + 1, s - 1);
      w0[i] = 1.f - f;
      w1[i] = f;
    }
  };
  table(sw, dw, xo.data(), xo1.data(), xa0.data(), xa1.data(), false);
  table(sh, dh, yo.data(), yo1.data(), ya0.data(), ya1.data(), true);
  // The row pass on every source row (a source row's pass is the same for every output row
  // that uses it): s[x0] a0 + s[x1] a1.
  thread_local std::vector<float> rows_buf;
  rows_buf.resize(static_cast<std::size_t>(sh) * static_cast<std::size_t>(dw));
  float* rows = rows_buf.data();
  for (int y = 0; y < sh; ++y) {
    const float* sr = src.ptr<float>(y);
    float* r = rows + static_cast<std::size_t>(y) * static_cast<std::size_t>(dw);
    int x = 0;
#if CV_SIMD128
    // Columns 2k + 1 and 2k + 2 (k + 1 < sw) take s[k], s[k + 1] with the weights 0.75, 0.25
    // and 0.25, 0.75 (at 2:1 the positions k + 0.25 and k + 0.75 are exact): 8 columns from
    // 4 k at a time, the same products and sums, interleaved.
    {
      const cv::v_float32x4 q3 = cv::v_setall_f32(0.75f), q1 = cv::v_setall_f32(0.25f);
      r[0] = sr[xo[0]] * xa0[0] + sr[xo1[0]] * xa1[0];
      x = 1;
      for (int k = 0; k + 5 <= sw; k += 4, x += 8) {
        const cv::v_float32x4 a = cv::v_load(sr + k), b = cv::v_load(sr + k + 1);
        const cv::v_float32x4 odd = a * q3 + b * q1, even = a * q1 + b * q3;
        cv::v_float32x4 lo, hi;
        cv::v_zip(odd, even, lo, hi);
        cv::v_store(r + x, lo);
        cv::v_store(r + x + 4, hi);
      }
    }
#endif
    for (; x < dw; ++x) {
      const int sx = xo[static_cast<std::size_t>(x)], sx1 = xo1[static_cast<std::size_t>(x)];
      r[x] = sr[sx] * xa0[static_cast<std::size_t>(x)] + sr[sx1] * xa1[static_cast<std::size_t>(x)];
    }
  }
  cv::Mat out = dst.data == src.data ? cv::Mat() : dst;  // (in place: a new map)
  out.create(dh, dw, CV_32FC1);
  // The column pass: r0 b0 + r1 b1, 4 floats at a time (the same operations per lane).
  for (int y = 0; y < dh; ++y) {
    const int sy = yo[static_cast<std::size_t>(y)], sy1 = yo1[static_cast<std::size_t>(y)];
    const float b0 = ya0[static_cast<std::size_t>(y)], b1 = ya1[static_cast<std::size_t>(y)];
    const float* r0 = rows + static_cast<std::size_t>(sy) * static_cast<std::size_t>(dw);
    const float* r1 = rows + static_cast<std::size_t>(sy1) * static_cast<std::size_t>(dw);
    linear_column_pass(r0, r1, b0, b1, dw, out.ptr<float>(y), false);
  }
  dst = out;
}

void resize_area_to(const cv::Mat& src, cv::Mat& dst, cv::Size dsize) {
  const bool exact3 = (src.type() == CV_8UC1 || src.type() == CV_8UC3) && dsize.width > 0 && dsize.height > 0 &&
                      src.cols == 3 * dsize.width && src.rows == 3 * dsize.height;
  if (!exact3) {
    cv::resize(src, dst, dsize, 0, 0, cv::INTER_AREA);
    return;
  }
  if (src.type() == CV_8UC1) {
    resize_area(src, dst, 1.0 / 3);  // its 3:1 path (the same size: 3 x dsize, exactly)
    return;
  }
  // CV_8UC3: OpenCV's integer-factor area reduction per channel (int sum of the 3x3
  // bytes of that channel, times 1.f / 9, rounded), one output byte at a time.
  cv::Mat out(dsize, CV_8UC3);
  const float k = 1.f / 9;
  // (Speed round 32) The same integers and floats in vector steps: the three rows' bytes
  // summed per column as 16-bit (at most 765), each output's three column sums added as
  // ints, then 4 at a time the int converted to float (exact), times k, rounded to nearest
  // by the current mode as cvRound, packed with saturation as saturate_cast (0 .. 255).
  const int nb = 9 * dsize.width, no = 3 * dsize.width;  // source bytes, output bytes a row
  static thread_local std::vector<ushort> col;
  static thread_local std::vector<int> sum3;
  col.resize(static_cast<std::size_t>(nb) + 16);
  sum3.resize(static_cast<std::size_t>(no) + 4);
  for (int y = 0; y < dsize.height; ++y) {
    const uchar* r0 = src.ptr<uchar>(3 * y);
    const uchar* r1 = src.ptr<uchar>(3 * y + 1);
    const uchar* r2 = src.ptr<uchar>(3 * y + 2);
    uchar* o = out.ptr<uchar>(y);
#if CV_SIMD128
    {
      int i = 0;
      for (; i + 16 <= nb; i += 16) {
        cv::v_uint16x8 a0, a1, b0, b1, c0, c1;
        cv::v_expand(cv::v_load(r0 + i), a0, a1);
        cv::v_expand(cv::v_load(r1 + i), b0, b1);
        cv::v_expand(cv::v_load(r2 + i), c0, c1);
        cv::v_store(col.data() + i, a0 + b0 + c0);
        cv::v_store(col.data() + i + 8, a1 + b1 + c1);
      }
      for (; i < nb; ++i) col[static_cast<std::size_t>(i)] = static_cast<ushort>(r0[i] + r1[i] + r2[i]);
      for (int x = 0; x < dsize.width; ++x)
        for (int c = 0; c < 3; ++c) {
          const ushort* q = col.data() + 9 * x + c;
          sum3[static_cast<std::size_t>(3 * x + c)] = q[0] + q[3] + q[6];
        }
      const cv::v_float32x4 vk = cv::v_setall_f32(k);
      int j = 0;
      for (; j + 8 <= no; j += 8) {
        const cv::v_int32x4 lo = cv::v_round(cv::v_cvt_f32(cv::v_load(sum3.data() + j)) * vk);
        const cv::v_int32x4 hi = cv::v_round(cv::v_cvt_f32(cv::v_load(sum3.data() + j + 4)) * vk);
        cv::v_pack_u_store(o + j, cv::v_pack(lo, hi));
      }
      for (; j < no; ++j) o[j] = cv::saturate_cast<uchar>(static_cast<float>(sum3[static_cast<std::size_t>(j)]) * k);
      continue;
    }
#endif
    for (int x = 0; x < dsize.width; ++x)
      for (int c = 0; c < 3; ++c) {
        const int i = 9 * x + c;  // byte of channel c of source column 3x
        const int sum = r0[i] + r0[i + 3] + r0[i + 6] + r1[i] + r1[i + 3] + r1[i + 6] + r2[i] + r2[i + 3] + r2[i + 6];
        o[3 * x + c] = cv::saturate_cast<uchar>(static_cast<float>(sum) * k);
      }
  }
  dst = out;
}

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
// The pshufb masks that pick one channel of 16 BGR pixels out of each of their three 16-byte
// pieces (shared by the SSSE3 and AVX2 colour-distance steps).
struct ChannelMasks {
  alignas(16) signed char m[3][3][16];  // [channel][source vector][pixel]: the byte's index or -128 (zero)
  ChannelMasks() {
    for (int k = 0; k < 3; ++k)
      for (int v = 0; v < 3; ++v)
        for (int j = 0; j < 16; ++j) {
          const int b = 3 * j + k;
          m[k][v][j] = static_cast<signed char>(b / 16 == v ? b % 16 : -128);
        }
  }
};
const ChannelMasks& channel_masks() {
  static const ChannelMasks t;
  return t;
}
// (Speed round 17) color_distance_mask's exact path for one row of n >= 16 pixels (speed27:
// the last part under 16 as the row's last 16; none when n < 16) with SSSE3: the three channels split by pshufb (not OpenCV's SSE2 deinterleave), the
// differences to the reference as 16-bit, b^2 + g^2 and r^2 by pmaddwd of (b, g) and (r, 0)
// pairs into 32-bit: the same integer sums (<= 3 * 255^2), compared with lim as before.
__attribute__((target("ssse3"), noinline)) void color_distance_row_ssse3(const uchar* p, uchar* o, int n, int r0, int r1, int r2,
                                                                        int lim, bool greater) {
  const ChannelMasks& masks = channel_masks();
  const __m128i z = _mm_setzero_si128(), vlim = _mm_set1_epi32(lim);
  const __m128i vr0 = _mm_set1_epi16(static_cast<short>(r0)), vr1 = _mm_set1_epi16(static_cast<short>(r1)),
                vr2 = _mm_set1_epi16(static_cast<short>(r2));
  __m128i mk[3][3];
  for (int k = 0; k < 3; ++k)
    for (int v = 0; v < 3; ++v) mk[k][v] = _mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[k][v]));
  const __m128i flip = greater ? z : _mm_set1_epi8(-1);
  // (Speed round 27) The last part under 16 pixels as the row's last 16 (the bytes before
  // it written again with the same values): the whole row when n >= 16.
  for (int x = 0; x + 16 <= n; x = x + 32 <= n || x + 16 == n ? x + 16 : n - 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 3 * x));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 3 * x + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 3 * x + 32));
    // (No lambdas here: they would not take the function's target.)
    const __m128i B = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, mk[0][0]), _mm_shuffle_epi8(b, mk[0][1])), _mm_shuffle_epi8(c, mk[0][2]));
    const __m128i G = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, mk[1][0]), _mm_shuffle_epi8(b, mk[1][1])), _mm_shuffle_epi8(c, mk[1][2]));
    const __m128i R = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, mk[2][0]), _mm_shuffle_epi8(b, mk[2][1])), _mm_shuffle_epi8(c, mk[2][2]));
    const __m128i b_lo = _mm_sub_epi16(_mm_unpacklo_epi8(B, z), vr0), b_hi = _mm_sub_epi16(_mm_unpackhi_epi8(B, z), vr0);
    const __m128i g_lo = _mm_sub_epi16(_mm_unpacklo_epi8(G, z), vr1), g_hi = _mm_sub_epi16(_mm_unpackhi_epi8(G, z), vr1);
    const __m128i r_lo = _mm_sub_epi16(_mm_unpacklo_epi8(R, z), vr2), r_hi = _mm_sub_epi16(_mm_unpackhi_epi8(R, z), vr2);
    const __m128i bg0 = _mm_unpacklo_epi16(b_lo, g_lo), bg1 = _mm_unpackhi_epi16(b_lo, g_lo);  // pixels 0-3, 4-7
    const __m128i bg2 = _mm_unpacklo_epi16(b_hi, g_hi), bg3 = _mm_unpackhi_epi16(b_hi, g_hi);  // 8-11, 12-15
    const __m128i rz0 = _mm_unpacklo_epi16(r_lo, z), rz1 = _mm_unpackhi_epi16(r_lo, z);
    const __m128i rz2 = _mm_unpacklo_epi16(r_hi, z), rz3 = _mm_unpackhi_epi16(r_hi, z);
    const __m128i s0 = _mm_add_epi32(_mm_madd_epi16(bg0, bg0), _mm_madd_epi16(rz0, rz0));
    const __m128i s1 = _mm_add_epi32(_mm_madd_epi16(bg1, bg1), _mm_madd_epi16(rz1, rz1));
    const __m128i s2 = _mm_add_epi32(_mm_madd_epi16(bg2, bg2), _mm_madd_epi16(rz2, rz2));
    const __m128i s3 = _mm_add_epi32(_mm_madd_epi16(bg3, bg3), _mm_madd_epi16(rz3, rz3));
    const __m128i g = _mm_packs_epi16(_mm_packs_epi32(_mm_cmpgt_epi32(s0, vlim), _mm_cmpgt_epi32(s1, vlim)),
                                      _mm_packs_epi32(_mm_cmpgt_epi32(s2, vlim), _mm_cmpgt_epi32(s3, vlim)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + x), _mm_xor_si128(g, flip));  // 255 where above (greater)
  }
}
// (Speed round 32) color_distance_row_ssse3's step on 32 pixels at a time in AVX2: the low
// 128-bit lane of each register holds what the SSSE3 step's register holds for pixels x ..
// x + 15, the high lane the same for x + 16 .. x + 31 (the 48 bytes of each loaded as three
// 16-byte pieces). pshufb, the unpacks, pmaddwd and the packs all work within a lane, so each
// lane computes the SSSE3 step's integers for its 16 pixels: the same sums and compares, the
// same bytes. n >= 32: the last part under 32 pixels as the run's last 32 (the bytes before it
// written again with the same values); returns the pixels written (n, or 0 when n < 32).
__attribute__((target("avx2"), noinline)) int color_distance_run_avx2(const uchar* p, uchar* o, int n, int r0, int r1, int r2,
                                                                     int lim, bool greater) {
  if (n < 32) return 0;
  const ChannelMasks& masks = channel_masks();
  const __m256i z = _mm256_setzero_si256(), vlim = _mm256_set1_epi32(lim);
  const __m256i vr0 = _mm256_set1_epi16(static_cast<short>(r0)), vr1 = _mm256_set1_epi16(static_cast<short>(r1)),
                vr2 = _mm256_set1_epi16(static_cast<short>(r2));
  __m256i mk[3][3];
  for (int k = 0; k < 3; ++k)
    for (int v = 0; v < 3; ++v) mk[k][v] = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[k][v])));
  const __m256i flip = greater ? z : _mm256_set1_epi8(-1);
  for (int x = 0; x + 32 <= n; x = x + 64 <= n || x + 32 == n ? x + 32 : n - 32) {
    const uchar* q = p + 3 * x;
    const __m256i a = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))),
                                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 48)), 1);
    const __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 16))),
                                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 64)), 1);
    const __m256i c = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 32))),
                                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 80)), 1);
    const __m256i B = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, mk[0][0]), _mm256_shuffle_epi8(b, mk[0][1])),
                                      _mm256_shuffle_epi8(c, mk[0][2]));
    const __m256i G = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, mk[1][0]), _mm256_shuffle_epi8(b, mk[1][1])),
                                      _mm256_shuffle_epi8(c, mk[1][2]));
    const __m256i R = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, mk[2][0]), _mm256_shuffle_epi8(b, mk[2][1])),
                                      _mm256_shuffle_epi8(c, mk[2][2]));
    const __m256i b_lo = _mm256_sub_epi16(_mm256_unpacklo_epi8(B, z), vr0), b_hi = _mm256_sub_epi16(_mm256_unpackhi_epi8(B, z), vr0);
    const __m256i g_lo = _mm256_sub_epi16(_mm256_unpacklo_epi8(G, z), vr1), g_hi = _mm256_sub_epi16(_mm256_unpackhi_epi8(G, z), vr1);
    const __m256i r_lo = _mm256_sub_epi16(_mm256_unpacklo_epi8(R, z), vr2), r_hi = _mm256_sub_epi16(_mm256_unpackhi_epi8(R, z), vr2);
    const __m256i bg0 = _mm256_unpacklo_epi16(b_lo, g_lo), bg1 = _mm256_unpackhi_epi16(b_lo, g_lo);
    const __m256i bg2 = _mm256_unpacklo_epi16(b_hi, g_hi), bg3 = _mm256_unpackhi_epi16(b_hi, g_hi);
    const __m256i rz0 = _mm256_unpacklo_epi16(r_lo, z), rz1 = _mm256_unpackhi_epi16(r_lo, z);
    const __m256i rz2 = _mm256_unpacklo_epi16(r_hi, z), rz3 = _mm256_unpackhi_epi16(r_hi, z);
    const __m256i s0 = _mm256_add_epi32(_mm256_madd_epi16(bg0, bg0), _mm256_madd_epi16(rz0, rz0));
    const __m256i s1 = _mm256_add_epi32(_mm256_madd_epi16(bg1, bg1), _mm256_madd_epi16(rz1, rz1));
    const __m256i s2 = _mm256_add_epi32(_mm256_madd_epi16(bg2, bg2), _mm256_madd_epi16(rz2, rz2));
    const __m256i s3 = _mm256_add_epi32(_mm256_madd_epi16(bg3, bg3), _mm256_madd_epi16(rz3, rz3));
    const __m256i g = _mm256_packs_epi16(_mm256_packs_epi32(_mm256_cmpgt_epi32(s0, vlim), _mm256_cmpgt_epi32(s1, vlim)),
                                         _mm256_packs_epi32(_mm256_cmpgt_epi32(s2, vlim), _mm256_cmpgt_epi32(s3, vlim)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + x), _mm256_xor_si256(g, flip));  // 255 where above (greater)
  }
  return n;
}
bool use_avx2();
// HEXDICE_NO_AVX2=1 (any value but empty or 0) keeps every run-time chosen step below on its
// SSE2 path: the SSSE3 colour mask and the AVX2 warp steps alike.
bool simd_steps_off() {
  const char* e = std::getenv("HEXDICE_NO_AVX2");
  return e && *e && *e != '0';
}
bool use_ssse3() {
  static const bool on = [] {
    if (simd_steps_off()) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("ssse3") != 0;
  }();
  return on;
}
}  // namespace
#endif

cv::Mat color_distance_mask(const cv::Mat& bgr, cv::Vec3f ref, double thr, bool greater, long* avx2_pixels) {
  CV_Assert(bgr.type() == CV_8UC3);
  cv::Mat m(bgr.size(), CV_8U);
  const float t2 = static_cast<float>(thr * thr);
  bool exact = t2 >= 0 && t2 < 16777216.0f;
  for (int k = 0; k < 3; ++k) exact = exact && ref[k] >= 0 && ref[k] <= 255 && ref[k] == std::floor(ref[k]);
  if (!exact) {
    for (int y = 0; y < bgr.rows; ++y) {
      const cv::Vec3b* p = bgr.ptr<cv::Vec3b>(y);
      uchar* o = m.ptr<uchar>(y);
      for (int x = 0; x < bgr.cols; ++x) {
        const float d0 = p[x][0] - ref[0], d1 = p[x][1] - ref[1], d2 = p[x][2] - ref[2];
        const bool g = d0 * d0 + d1 * d1 + d2 * d2 > t2;
        o[x] = (g == greater) ? 255 : 0;
      }
    }
    return m;
  }
  // Integer squares summed (<= 3 * 255^2): d2 > t2 <=> d2 > floor(t2).
  const int lim = static_cast<int>(std::floor(t2));
  const int r0 = static_cast<int>(ref[0]), r1 = static_cast<int>(ref[1]), r2 = static_cast<int>(ref[2]);
  // (Speed round 32) Each pixel's byte depends on that pixel alone: a continuous image (the
  // usual patch: not a view) is one run of rows x cols pixels, not rows runs of cols.
  const bool one_run = bgr.isContinuous() && m.isContinuous();
  const int rows = one_run ? 1 : bgr.rows, cols = one_run ? bgr.rows * bgr.cols : bgr.cols;
  // (Speed round 27) A row's last part under 16 pixels: its last 16 pixels again by the same
  // vector step (the bytes before it rewritten with the same values), not pixel by pixel.
  for (int y = 0; y < rows; ++y) {
    const uchar* p = bgr.ptr<uchar>(y);
    uchar* o = m.ptr<uchar>(y);
    int x = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
    if (use_avx2() && cols >= 32) {
      x = color_distance_run_avx2(p, o, cols, r0, r1, r2, lim, greater);
      if (avx2_pixels) *avx2_pixels += x;
    } else if (use_ssse3()) {
      color_distance_row_ssse3(p, o, cols, r0, r1, r2, lim, greater);
      x = cols >= 16 ? cols : 0;
    }
#endif
#if CV_SIMD128
    const cv::v_int16x8 vr[3] = {cv::v_setall_s16(static_cast<short>(r0)), cv::v_setall_s16(static_cast<short>(r1)),
                                 cv::v_setall_s16(static_cast<short>(r2))};
    const cv::v_int32x4 vlim = cv::v_setall_s32(lim);
    auto step = [&](int at) {  // pixels at .. at + 15
      cv::v_uint8x16 ch[3];
      cv::v_load_deinterleave(p + 3 * at, ch[0], ch[1], ch[2]);
      cv::v_int32x4 s[4] = {cv::v_setzero_s32(), cv::v_setzero_s32(), cv::v_setzero_s32(), cv::v_setzero_s32()};
      for (int k = 0; k < 3; ++k) {
        cv::v_uint16x8 lo, hi;
        cv::v_expand(ch[k], lo, hi);
        const cv::v_int16x8 dl = cv::v_reinterpret_as_s16(lo) - vr[k], dh = cv::v_reinterpret_as_s16(hi) - vr[k];
        cv::v_int32x4 a, b, c, d;
        cv::v_mul_expand(dl, dl, a, b);
        cv::v_mul_expand(dh, dh, c, d);
        s[0] += a;
        s[1] += b;
        s[2] += c;
        s[3] += d;
      }
      const cv::v_int8x16 g = cv::v_pack(cv::v_pack(cv::v_reinterpret_as_s32(s[0] > vlim), cv::v_reinterpret_as_s32(s[1] > vlim)),
                                         cv::v_pack(cv::v_reinterpret_as_s32(s[2] > vlim), cv::v_reinterpret_as_s32(s[3] > vlim)));
      const cv::v_uint8x16 u = cv::v_reinterpret_as_u8(g);  // 255 where above, 0 elsewhere
      cv::v_store(o + at, greater ? u : ~u);
    };
    for (; x + 16 <= cols; x += 16) step(x);
    if (x < cols && cols >= 16) {
      step(cols - 16);
      x = cols;
    }
#endif
    for (; x < cols; ++x) {
      const int d0 = p[3 * x] - r0, d1 = p[3 * x + 1] - r1, d2 = p[3 * x + 2] - r2;
      o[x] = ((d0 * d0 + d1 * d1 + d2 * d2 > lim) == greater) ? 255 : 0;
    }
  }
  return m;
}

namespace {

// A binary mask of at most 128 columns as one 128-bit word per row (bit x = column x).
__extension__ typedef unsigned __int128 Row128;

// false when the mask has a value other than 0 and 255.
bool pack_rows(const cv::Mat& src, std::vector<Row128>& rows) {
  rows.assign(static_cast<std::size_t>(src.rows), 0);
  for (int y = 0; y < src.rows; ++y) {
    const uchar* s = src.ptr<uchar>(y);
    Row128 r = 0;
    int x = 0;
#if CV_SIMD128
    // (Speed round 27) Each 16 pixels' bits into their 16-bit word of the row (x is a multiple
    // of 16 here, the row little-endian), not a 128-bit shift and OR per step.
    std::uint16_t words[8] = {};
    const cv::v_uint8x16 zero = cv::v_setzero_u8(), full = cv::v_setall_u8(255);
    for (; x + 16 <= src.cols; x += 16) {
      const cv::v_uint8x16 v = cv::v_load(s + x);
      if (!cv::v_check_all((v == zero) | (v == full))) return false;
      words[x / 16] = static_cast<std::uint16_t>(static_cast<unsigned>(cv::v_signmask(v)) & 0xFFFFu);
    }
    if (x < src.cols && src.cols >= 16) {  // the tail: the row's last 16 pixels, those from x kept
      const int b = src.cols - 16;
      const cv::v_uint8x16 v = cv::v_load(s + b);
      if (!cv::v_check_all((v == zero) | (v == full))) return false;  // (pixels before x passed already)
      words[x / 16] = static_cast<std::uint16_t>((static_cast<unsigned>(cv::v_signmask(v)) & 0xFFFFu) >> (x - b));
      x = src.cols;
    }
    static_assert(sizeof(words) == sizeof(Row128));
    std::memcpy(&r, words, sizeof(r));
#endif
    for (; x < src.cols; ++x) {
      if (s[x] != 0 && s[x] != 255) return false;
      if (s[x]) r |= static_cast<Row128>(1) << x;
    }
    rows[static_cast<std::size_t>(y)] = r;
  }
  return true;
}

// Byte k of bit_bytes()[v]: 0xFF where bit k of v is set.
const std::array<std::uint64_t, 256>& bit_bytes() {
  static const std::array<std::uint64_t, 256> table = [] {
    std::array<std::uint64_t, 256> t{};
    for (int v = 0; v < 256; ++v)
      for (int i = 0; i < 8; ++i)
        if (v & (1 << i)) t[static_cast<std::size_t>(v)] |= std::uint64_t{0xFF} << (8 * i);
    return t;
  }();
  return table;
}

// unpack_rows as it was before speed45: its path without AVX2 and its test's reference.
void unpack_rows_ref(const std::vector<Row128>& rows, int w, cv::Mat& dst) {
  const std::array<std::uint64_t, 256>& bytes = bit_bytes();
  dst.create(static_cast<int>(rows.size()), w, CV_8U);
  // In a continuous image a row's last 8 bytes may spill into the next row's first (written
  // after it): all but the last row are written 8 at a time to their end.
  // (Session 44's review) ... but never past the last row's end: a row of 1-3 px has fewer than
  // 8 bytes after it, and a full-width window's next bytes are its parent's.
  const bool spill = dst.isContinuous();
  const uchar* const last_end = dst.rows > 0 ? dst.ptr<uchar>(dst.rows - 1) + w : nullptr;
  for (int y = 0; y < dst.rows; ++y) {
    // (Speed round 27) The row's bytes (little-endian: byte k = pixels 8k .. 8k + 7), not a
    // 128-bit shift per 8 pixels.
    std::uint8_t rb[sizeof(Row128)];
    std::memcpy(rb, &rows[static_cast<std::size_t>(y)], sizeof(rb));
    uchar* o = dst.ptr<uchar>(y);
    int x = 0;
    const uchar* const limit = spill ? last_end : o + w;
    for (; x < w && o + x + 8 <= limit; x += 8) {
      const std::uint64_t v = bytes[rb[x / 8]];
      std::memcpy(o + x, &v, 8);
    }
    for (; x < w; ++x) o[x] = (rb[x / 8] >> (x % 8)) & 1 ? 255 : 0;
  }
}

#if defined(HEXDICE_BILINEAR_AVX2)
bool use_avx2();
// (speed45) unpack_rows' steps of every row, 32 pixels a step: the row's 4 bytes of bits
// broadcast, byte k of the 32 given bit k % 8 of byte k / 8 (pshufb), 255 where that bit is
// set (and, compare); a 32-byte store only while it ends by the row's end (spill: the last
// row's end); the rest 8 pixels a step from `bytes` (as unpack_rows_ref, within the same
// limit) and one at a time.
__attribute__((target("avx2"), noinline)) void unpack_rows_avx2(const Row128* rows, int w, cv::Mat& dst, bool spill,
                                                                const std::uint64_t* bytes) {
  const __m256i pick = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
                                        3, 3, 3);
  const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ull));
  const uchar* const last_end = dst.ptr<uchar>(dst.rows - 1) + w;  // (not dst.dataend: a window's is its parent's)
  for (int y = 0; y < dst.rows; ++y) {
    std::uint8_t rb[sizeof(Row128)];
    std::memcpy(rb, rows + y, sizeof(rb));
    uchar* o = dst.ptr<uchar>(y);
    const uchar* const limit = spill ? last_end : o + w;
    int x = 0;
    for (; x < w && o + x + 32 <= limit; x += 32) {
      std::uint32_t b4;
      std::memcpy(&b4, rb + x / 8, 4);
      const __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(b4)), pick);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + x), _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit));
    }
    for (; x < w && o + x + 8 <= limit; x += 8) std::memcpy(o + x, bytes + rb[x / 8], 8);
    for (; x < w; ++x) o[x] = (rb[x / 8] >> (x % 8)) & 1 ? 255 : 0;
  }
}
#endif

// A mask from its 128-bit rows (bit x = column x, none set at or past w), w <= 128.
// (speed45) 32 pixels a step in AVX2 (unpack_rows_avx2), else the loop it had (unpack_rows_ref):
// the same bytes (MaskOps.UnpackRowsIsTheRef).
void unpack_rows(const std::vector<Row128>& rows, int w, cv::Mat& dst) {
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2() && !rows.empty()) {
    dst.create(static_cast<int>(rows.size()), w, CV_8U);
    // In a continuous image a row's last bytes may spill into the next rows' first (written
    // after them): the steps may write up to the last row's end, else up to the row's.
    unpack_rows_avx2(rows.data(), w, dst, dst.isContinuous(), bit_bytes().data());
    return;
  }
#endif
  unpack_rows_ref(rows, w, dst);
}

#if defined(HEXDICE_BILINEAR_AVX2)
bool use_avx2();
// (Round 20) out[y] = out[y] OR (dilate) / AND src[y] for y < h, two 128-bit rows a step in
// AVX2 (the same bits); returns the first row not done.
__attribute__((target("avx2"), noinline)) int combine_rows_avx2(Row128* out, const Row128* src, int h, bool dilate) {
  int y = 0;
  if (dilate)
    for (; y + 2 <= h; y += 2) {
      __m256i* o = reinterpret_cast<__m256i*>(out + y);
      _mm256_storeu_si256(o, _mm256_or_si256(_mm256_loadu_si256(o), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + y))));
    }
  else
    for (; y + 2 <= h; y += 2) {
      __m256i* o = reinterpret_cast<__m256i*>(out + y);
      _mm256_storeu_si256(o, _mm256_and_si256(_mm256_loadu_si256(o), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + y))));
    }
  return y;
}
// (speed22) Two 128-bit rows per AVX2 register (row y in the low 128-bit lane, y + 1 in the
// high one; each lane's 64-bit halves are a row's bits 0-63 and 64-127): v >> s for a shift
// s in [0, 128) of each row, the carry from the high half into the low half taken by the
// lane's 8-byte shift (_mm256_srli_si256 works within a lane). Counts of 64 or more give 0,
// as the shift of a Row128 by s needs.
__attribute__((target("avx2"), always_inline)) inline __m256i shr_rows_avx2(__m256i v, int s) {
  if (s >= 64) return _mm256_srl_epi64(_mm256_srli_si256(v, 8), _mm_cvtsi32_si128(s - 64));
  return _mm256_or_si256(_mm256_srl_epi64(v, _mm_cvtsi32_si128(s)),
                         _mm256_sll_epi64(_mm256_srli_si256(v, 8), _mm_cvtsi32_si128(64 - s)));
}
// morph_rows' run rows two at a time: hrow[y] = (AND / OR of p[y] >> k, k in [0, len)) >> i,
// by the same doubling (the same bits). Returns the first row not done (ph rounded down to 2).
__attribute__((target("avx2"), noinline)) int run_rows_avx2(const Row128* p, int ph, int len, int i, bool dilate, Row128* hrow) {
  int y = 0;
  for (; y + 2 <= ph; y += 2) {
    __m256i acc = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + y));
    int c = 1;
    while (2 * c <= len) {
      const __m256i sh = shr_rows_avx2(acc, c);
      acc = dilate ? _mm256_or_si256(acc, sh) : _mm256_and_si256(acc, sh);
      c *= 2;
    }
    if (c < len) {
      const __m256i sh = shr_rows_avx2(acc, len - c);
      acc = dilate ? _mm256_or_si256(acc, sh) : _mm256_and_si256(acc, sh);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(hrow + y), shr_rows_avx2(acc, i));
  }
  return y;
}
#endif

// One erosion (AND; dilate false) or dilation (OR) of w-column rows; `border` outside.
// dst(x, y) = AND/OR over the kernel's ones (i, j) of src(x + i - ax, y + j - ay).
void morph_rows(const std::vector<Row128>& in, int w, std::vector<Row128>& out, bool dilate, const cv::Mat& kernel,
                cv::Point a, bool border) {
  const int h = static_cast<int>(in.size()), kw = kernel.cols, kh = kernel.rows, ph = h + kh - 1;
  const Row128 all = ~static_cast<Row128>(0);
  const Row128 wmask = w >= 128 ? all : (static_cast<Row128>(1) << w) - 1;
  const int pw = w + kw - 1;  // <= 128 (checked by the caller)
  const Row128 pmask = pw >= 128 ? all : (static_cast<Row128>(1) << pw) - 1;
  // The padded source: P(y', x') = in(y' - ay, x' - ax), `border` outside. (Scratch
  // vectors kept per thread: a read makes ~300 such calls.)
  static thread_local std::vector<Row128> p;
  p.resize(static_cast<std::size_t>(ph));
  const Row128 frame = border ? (pmask & ~(wmask << a.x)) : 0;
  for (int yp = 0; yp < ph; ++yp) {
    const int y = yp - a.y;
    p[static_cast<std::size_t>(yp)] = (y >= 0 && y < h) ? ((in[static_cast<std::size_t>(y)] << a.x) | frame) : (border ? pmask : 0);
  }
  // The kernel's rows as runs of ones (i0, length), each distinct run once; per run
  // H(y', x) = AND/OR of P(y', x + i) over the run.
  static thread_local std::vector<std::pair<int, int>> runs;
  static thread_local std::vector<std::vector<Row128>> hr;  // hr[r], r < runs.size(), in use
  runs.clear();
  out.assign(static_cast<std::size_t>(h), dilate ? 0 : all);
  for (int j = 0; j < kh; ++j) {
    const uchar* kr = kernel.ptr<uchar>(j);
    for (int i = 0; i < kw;) {
      if (!kr[i]) { ++i; continue; }
      int e = i;
      while (e < kw && kr[e]) ++e;
      const std::pair<int, int> run{i, e - i};
      std::size_t r = 0;
      while (r < runs.size() && runs[r] != run) ++r;
      if (r == runs.size()) {
        runs.push_back(run);
        if (hr.size() < runs.size()) hr.emplace_back();
        std::vector<Row128>& hrow = hr[r];
        hrow.resize(static_cast<std::size_t>(ph));
        // AND/OR of v >> k over k in [i, e): of v over [0, L) by doubling (the same bits: AND
        // and OR are associative and idempotent), then shifted by i. (Speed round 12: a
        // 7-wide run is 3 shifts, not 6.)
        const int len = e - i;
        int yp = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
        if (use_avx2()) yp = run_rows_avx2(p.data(), ph, len, i, dilate, hrow.data());
#endif
        for (; yp < ph; ++yp) {
          const Row128 v = p[static_cast<std::size_t>(yp)];
          Row128 acc = v;  // covers [0, c)
          int c = 1;
          while (2 * c <= len) {
            acc = dilate ? (acc | (acc >> c)) : (acc & (acc >> c));
            c *= 2;
          }
          if (c < len) acc = dilate ? (acc | (acc >> (len - c))) : (acc & (acc >> (len - c)));  // [0, c) and [len - c, len)
          hrow[static_cast<std::size_t>(yp)] = acc >> i;
        }
      }
      const std::vector<Row128>& hrow = hr[r];
      int y = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
      if (use_avx2()) y = combine_rows_avx2(out.data(), hrow.data() + j, h, dilate);
#endif
      for (; y < h; ++y) {
        Row128& o = out[static_cast<std::size_t>(y)];
        o = dilate ? (o | hrow[static_cast<std::size_t>(y + j)]) : (o & hrow[static_cast<std::size_t>(y + j)]);
      }
      i = e;
    }
  }
  for (auto& o : out) o &= wmask;
}

}  // namespace

// (speed45) Whether a CV_8UC1 matrix has a nonzero byte (= cv::countNonZero(m) != 0), stopping
// at the first: morph's kernels have one in their first row or column (0.2 M a 720p frame
// less than counting them all, 366 kernels).
bool any_nonzero_8u(const cv::Mat& m) {
  for (int y = 0; y < m.rows; ++y) {
    const uchar* p = m.ptr<uchar>(y);
    for (int x = 0; x < m.cols; ++x)
      if (p[x]) return true;
  }
  return false;
}

void morph(const cv::Mat& src, cv::Mat& dst, int op, const cv::Mat& kernel, cv::Point anchor, int border_value) {
  const bool known = op == cv::MORPH_ERODE || op == cv::MORPH_DILATE || op == cv::MORPH_OPEN || op == cv::MORPH_CLOSE;
  static thread_local std::vector<Row128> in, t, out;
  if (!known || src.type() != CV_8UC1 || src.empty() || kernel.type() != CV_8UC1 || kernel.empty() ||
      src.cols + kernel.cols - 1 > 128 || !any_nonzero_8u(kernel) ||
      !(border_value == -1 || border_value == 0 || border_value == 255) || !pack_rows(src, in)) {
    if (border_value >= 0)
      cv::morphologyEx(src, dst, op, kernel, anchor, 1, cv::BORDER_CONSTANT, cv::Scalar(border_value));
    else
      cv::morphologyEx(src, dst, op, kernel, anchor);
    return;
  }
  if (anchor.x < 0) anchor.x = kernel.cols / 2;
  if (anchor.y < 0) anchor.y = kernel.rows / 2;
  // Outside: the given value, else what never wins (1 for the erosion, 0 for the dilation).
  const bool erode_border = border_value >= 0 ? border_value == 255 : true;
  const bool dilate_border = border_value >= 0 ? border_value == 255 : false;
  const int w = src.cols;
  switch (op) {
    case cv::MORPH_ERODE: morph_rows(in, w, out, false, kernel, anchor, erode_border); break;
    case cv::MORPH_DILATE: morph_rows(in, w, out, true, kernel, anchor, dilate_border); break;
    case cv::MORPH_OPEN:
      morph_rows(in, w, t, false, kernel, anchor, erode_border);
      morph_rows(t, w, out, true, kernel, anchor, dilate_border);
      break;
    default:
      morph_rows(in, w, t, true, kernel, anchor, dilate_border);
      morph_rows(t, w, out, false, kernel, anchor, erode_border);
      break;
  }
  unpack_rows(out, w, dst);
}

namespace {
std::vector<Row128> rows_from_words(const std::uint64_t* words, int h) {
  std::vector<Row128> rows(static_cast<std::size_t>(h));
  for (int y = 0; y < h; ++y)
    rows[static_cast<std::size_t>(y)] = (static_cast<Row128>(words[2 * y + 1]) << 64) | words[2 * y];
  return rows;
}
}  // namespace

void unpack_mask_rows(const std::uint64_t* words, int h, int w, cv::Mat& dst) {
  CV_Assert(w >= 0 && w <= 128 && h >= 0);
  unpack_rows(rows_from_words(words, h), w, dst);
}
void unpack_mask_rows_ref(const std::uint64_t* words, int h, int w, cv::Mat& dst) {
  CV_Assert(w >= 0 && w <= 128 && h >= 0);
  unpack_rows_ref(rows_from_words(words, h), w, dst);
}

void occluder_diff_row_ref(const uchar* frame, const uchar* print, const uchar* pmin, const uchar* pmax, const float* light,
                           int n, const float ip[3], float dark, float c2, uchar* out, float* ratio) {
  const float ip0 = ip[0], ip1 = ip[1], ip2 = ip[2];
  const uchar* pr[3] = {print, pmin, pmax};
  for (int x = 0; x < n; ++x) {
    const uchar* px = frame + 3 * x;
    const float* lt = light + 3 * x;
    const float b = px[0] * ip0, g = px[1] * ip1, r = px[2] * ip2;
    const float lum = b + 2 * g + r;
    const uchar* lo = pmin + 3 * x;
    const float lum_lo = (lo[0] + 2 * lo[1] + lo[2]) / 255.0f;
    if (ratio) ratio[x] = lum / std::max(0.1f, lum_lo);
    bool d = lum < dark * lum_lo;
    if (!d && lum > 0.4f) {
      const float cb = px[0] / lt[0], cg = px[1] / lt[1], cr = px[2] / lt[2];
      const float isr = 1.0f / (cb + cg + cr + 1e-3f);
      d = true;
      for (const uchar* pp : pr) {
        const uchar* e = pp + 3 * x;
        const float ise = 1.0f / (e[0] + e[1] + e[2] + 1e-3f);
        const float d0 = cb * isr - e[0] * ise, d1 = cg * isr - e[1] * ise, d2 = cr * isr - e[2] * ise;
        if (d0 * d0 + d1 * d1 + d2 * d2 <= c2) {
          d = false;
          break;
        }
      }
    }
    out[x] = d ? 255 : 0;
  }
}

#if defined(HEXDICE_BILINEAR_AVX2) && CV_SIMD128
namespace {
bool use_avx2();
// Bytes 8 h .. 8 h + 7 of a channel as 8 floats (exact).
__attribute__((target("avx2"), always_inline)) inline __m256 widen8_avx2(const cv::v_uint8x16& v, int h) {
  const __m128i b = h ? _mm_srli_si128(v.val, 8) : v.val;
  return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b));
}
// (speed21) occluder_diff_row's step on 16 pixels at a time as two halves of 8 AVX2 floats:
// per lane the SSE step's float operations in its order (no FMA is enabled here, so no
// multiply and add are fused), the same early exit per half (once every lane that needs the
// colour test has matched, the other prints cannot change it). Returns the first pixel not
// done.
__attribute__((target("avx2"), noinline)) int occluder_diff_row_avx2(const uchar* frame, const uchar* print, const uchar* pmin,
                                                                    const uchar* pmax, const float* light, int n,
                                                                    const float ip[3], float dark, float c2, uchar* out) {
  const __m256 vip0 = _mm256_set1_ps(ip[0]), vip1 = _mm256_set1_ps(ip[1]), vip2 = _mm256_set1_ps(ip[2]);
  const __m256 two = _mm256_set1_ps(2.0f), c255 = _mm256_set1_ps(255.0f);
  const __m256 vdark = _mm256_set1_ps(dark), vc2 = _mm256_set1_ps(c2), lum_min = _mm256_set1_ps(0.4f);
  const __m256 one = _mm256_set1_ps(1.0f), eps = _mm256_set1_ps(1e-3f);
  const uchar* prs[3] = {print, pmin, pmax};
  int x = 0;
  for (; x + 16 <= n; x += 16) {
    cv::v_uint8x16 f8[3], p8[3][3];
    bool loaded[3] = {true, true, false};
    cv::v_load_deinterleave(frame + 3 * x, f8[0], f8[1], f8[2]);
    for (int j = 0; j < 2; ++j) cv::v_load_deinterleave(prs[j] + 3 * x, p8[j][0], p8[j][1], p8[j][2]);
    __m128i dm[2];
    for (int h = 0; h < 2; ++h) {
      const __m256 f0 = widen8_avx2(f8[0], h), f1 = widen8_avx2(f8[1], h), f2 = widen8_avx2(f8[2], h);
      const __m256 lo0 = widen8_avx2(p8[1][0], h), lo1 = widen8_avx2(p8[1][1], h), lo2 = widen8_avx2(p8[1][2], h);
      const __m256 b = _mm256_mul_ps(f0, vip0), g = _mm256_mul_ps(f1, vip1), r = _mm256_mul_ps(f2, vip2);
      const __m256 lum = _mm256_add_ps(_mm256_add_ps(b, _mm256_mul_ps(two, g)), r);
      const __m256 lum_lo = _mm256_div_ps(_mm256_add_ps(_mm256_add_ps(lo0, _mm256_mul_ps(two, lo1)), lo2), c255);
      const __m256 dk = _mm256_cmp_ps(lum, _mm256_mul_ps(vdark, lum_lo), _CMP_LT_OQ);
      const __m256 need = _mm256_andnot_ps(dk, _mm256_cmp_ps(lum, lum_min, _CMP_GT_OQ));
      __m256 d = dk;
      if (_mm256_movemask_ps(need)) {
        // The light of pixels x + 8 h .. + 7, channel by channel (two SSE deinterleaves).
        cv::v_float32x4 la[3], lb[3];
        cv::v_load_deinterleave(light + 3 * (x + 8 * h), la[0], la[1], la[2]);
        cv::v_load_deinterleave(light + 3 * (x + 8 * h + 4), lb[0], lb[1], lb[2]);
        const __m256 l0 = _mm256_set_m128(lb[0].val, la[0].val), l1 = _mm256_set_m128(lb[1].val, la[1].val),
                     l2 = _mm256_set_m128(lb[2].val, la[2].val);
        const __m256 cb = _mm256_div_ps(f0, l0), cg = _mm256_div_ps(f1, l1), cr = _mm256_div_ps(f2, l2);
        const __m256 isr = _mm256_div_ps(one, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(cb, cg), cr), eps));
        const __m256 sb = _mm256_mul_ps(cb, isr), sg = _mm256_mul_ps(cg, isr), sr = _mm256_mul_ps(cr, isr);
        __m256 match = _mm256_setzero_ps();
        for (int j = 0; j < 3; ++j) {
          if (!loaded[j]) {
            cv::v_load_deinterleave(prs[j] + 3 * x, p8[j][0], p8[j][1], p8[j][2]);
            loaded[j] = true;
          }
          const __m256 e0 = widen8_avx2(p8[j][0], h), e1 = widen8_avx2(p8[j][1], h), e2 = widen8_avx2(p8[j][2], h);
          const __m256 ise = _mm256_div_ps(one, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(e0, e1), e2), eps));
          const __m256 d0 = _mm256_sub_ps(sb, _mm256_mul_ps(e0, ise)), d1 = _mm256_sub_ps(sg, _mm256_mul_ps(e1, ise)),
                       d2 = _mm256_sub_ps(sr, _mm256_mul_ps(e2, ise));
          const __m256 dd = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(d0, d0), _mm256_mul_ps(d1, d1)), _mm256_mul_ps(d2, d2));
          match = _mm256_or_ps(match, _mm256_cmp_ps(dd, vc2, _CMP_LE_OQ));
          if (_mm256_movemask_ps(_mm256_or_ps(match, _mm256_xor_ps(need, _mm256_castsi256_ps(_mm256_set1_epi32(-1))))) == 0xFF) break;
        }
        d = _mm256_or_ps(d, _mm256_andnot_ps(match, need));
      }
      const __m256i di = _mm256_castps_si256(d);
      dm[h] = _mm_packs_epi32(_mm256_castsi256_si128(di), _mm256_extracti128_si256(di, 1));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + x), _mm_packs_epi16(dm[0], dm[1]));
  }
  return x;
}
// (speed35) occluder_ratio_row's step on the 16 pixels at x as two halves of 8 AVX2 floats
// (the reference loop's ratio, the per-lane float operations of occluder_diff_row_avx2's
// luminances).
__attribute__((target("avx2"), noinline)) void occluder_ratio_16_avx2(const uchar* frame, const uchar* pmin, int x,
                                                                     const float ip[3], float* ratio) {
  const __m256 vip0 = _mm256_set1_ps(ip[0]), vip1 = _mm256_set1_ps(ip[1]), vip2 = _mm256_set1_ps(ip[2]);
  const __m256 two = _mm256_set1_ps(2.0f), c255 = _mm256_set1_ps(255.0f), floor01 = _mm256_set1_ps(0.1f);
  cv::v_uint8x16 f8[3], p8[3];
  cv::v_load_deinterleave(frame + 3 * x, f8[0], f8[1], f8[2]);
  cv::v_load_deinterleave(pmin + 3 * x, p8[0], p8[1], p8[2]);
  for (int h = 0; h < 2; ++h) {
    const __m256 b = _mm256_mul_ps(widen8_avx2(f8[0], h), vip0), g = _mm256_mul_ps(widen8_avx2(f8[1], h), vip1),
                 r = _mm256_mul_ps(widen8_avx2(f8[2], h), vip2);
    const __m256 lum = _mm256_add_ps(_mm256_add_ps(b, _mm256_mul_ps(two, g)), r);
    const __m256 lum_lo = _mm256_div_ps(
        _mm256_add_ps(_mm256_add_ps(widen8_avx2(p8[0], h), _mm256_mul_ps(two, widen8_avx2(p8[1], h))), widen8_avx2(p8[2], h)), c255);
    _mm256_storeu_ps(ratio + x + 8 * h, _mm256_div_ps(lum, _mm256_max_ps(floor01, lum_lo)));
  }
}
}  // namespace
#endif

#if CV_SIMD128
namespace {
// 16 bytes as four groups of 4 floats (exact): occluder_diff_row's and occluder_ratio_row's widening.
void widen16_f32(const cv::v_uint8x16& v, cv::v_float32x4 f[4]) {
  cv::v_uint16x8 lo, hi;
  cv::v_expand(v, lo, hi);
  cv::v_uint32x4 a, b, c, d;
  cv::v_expand(lo, a, b);
  cv::v_expand(hi, c, d);
  f[0] = cv::v_cvt_f32(cv::v_reinterpret_as_s32(a));
  f[1] = cv::v_cvt_f32(cv::v_reinterpret_as_s32(b));
  f[2] = cv::v_cvt_f32(cv::v_reinterpret_as_s32(c));
  f[3] = cv::v_cvt_f32(cv::v_reinterpret_as_s32(d));
}
}  // namespace
#endif

void occluder_diff_row(const uchar* frame, const uchar* print, const uchar* pmin, const uchar* pmax, const float* light,
                       int n, const float ip[3], float dark, float c2, uchar* out, long* scalar_pixels) {
  int x = 0;
#if defined(HEXDICE_BILINEAR_AVX2) && CV_SIMD128
  if (use_avx2()) {
    x = occluder_diff_row_avx2(frame, print, pmin, pmax, light, n, ip, dark, c2, out);
    // (speed34) A tail under 16 of a row of 16 or more: the row's last 16 pixels again (each
    // output byte depends on its own pixel alone, so the bytes before the tail are
    // rewritten with the values they hold).
    if (x < n && n >= 16) {
      const int t = n - 16;
      x = t + occluder_diff_row_avx2(frame + 3 * t, print + 3 * t, pmin + 3 * t, pmax + 3 * t, light + 3 * t, 16, ip, dark, c2,
                                     out + t);
    }
  }
#endif
#if CV_SIMD128
  using cv::v_float32x4;
  const v_float32x4 vip0 = cv::v_setall_f32(ip[0]), vip1 = cv::v_setall_f32(ip[1]), vip2 = cv::v_setall_f32(ip[2]);
  const v_float32x4 two = cv::v_setall_f32(2.0f), c255 = cv::v_setall_f32(255.0f);
  const v_float32x4 vdark = cv::v_setall_f32(dark), vc2 = cv::v_setall_f32(c2), lum_min = cv::v_setall_f32(0.4f);
  const v_float32x4 one = cv::v_setall_f32(1.0f), eps = cv::v_setall_f32(1e-3f);
  const auto widen = widen16_f32;  // the 16 pixels' channel k as four groups of 4 floats (exact: bytes)
  // (speed34) The tail under 16 of a row of 16 or more as the row's last 16 again (as above).
  for (int next = x; next < n && n >= 16; next = x + 16) {
    x = std::min(next, n - 16);
    cv::v_uint8x16 c8[3];
    v_float32x4 f[3][4], p[3][3][4];  // frame channel k; print j channel k
    cv::v_load_deinterleave(frame + 3 * x, c8[0], c8[1], c8[2]);
    for (int k = 0; k < 3; ++k) widen(c8[k], f[k]);
    const uchar* prs[3] = {print, pmin, pmax};
    // The print's maximum only when a lane gets that far (speed16: mostly the print itself
    // or its minimum matches first).
    bool widened[3] = {true, true, false};
    for (int j = 0; j < 2; ++j) {
      cv::v_load_deinterleave(prs[j] + 3 * x, c8[0], c8[1], c8[2]);
      for (int k = 0; k < 3; ++k) widen(c8[k], p[j][k]);
    }
    cv::v_int32x4 dm[4];
    for (int q = 0; q < 4; ++q) {
      v_float32x4 l0, l1, l2;
      cv::v_load_deinterleave(light + 3 * (x + 4 * q), l0, l1, l2);
      const v_float32x4 b = f[0][q] * vip0, g = f[1][q] * vip1, r = f[2][q] * vip2;
      const v_float32x4 lum = b + two * g + r;
      // (lo0 + 2 lo1 + lo2) is an integer below 2^24: exact in float whichever way summed.
      const v_float32x4 lum_lo = (p[1][0][q] + two * p[1][1][q] + p[1][2][q]) / c255;
      const v_float32x4 dk = lum < vdark * lum_lo;
      // The lanes whose colour decides (not dark, lit enough); none: no colour test.
      const v_float32x4 need = ~dk & (lum > lum_min);
      v_float32x4 d = dk;
      if (cv::v_check_any(cv::v_reinterpret_as_s32(need))) {
        const v_float32x4 cb = f[0][q] / l0, cg = f[1][q] / l1, cr = f[2][q] / l2;
        const v_float32x4 isr = one / (cb + cg + cr + eps);
        const v_float32x4 sb = cb * isr, sg = cg * isr, sr = cr * isr;
        v_float32x4 match = cv::v_setzero_f32() != cv::v_setzero_f32();  // all false
        for (int j = 0; j < 3; ++j) {
          if (!widened[j]) {
            cv::v_load_deinterleave(prs[j] + 3 * x, c8[0], c8[1], c8[2]);
            for (int k = 0; k < 3; ++k) widen(c8[k], p[j][k]);
            widened[j] = true;
          }
          // e0 + e1 + e2: an exact integer as in the scalar code.
          const v_float32x4 ise = one / (p[j][0][q] + p[j][1][q] + p[j][2][q] + eps);
          const v_float32x4 d0 = sb - p[j][0][q] * ise, d1 = sg - p[j][1][q] * ise, d2 = sr - p[j][2][q] * ise;
          match = match | ((d0 * d0 + d1 * d1 + d2 * d2) <= vc2);
          // As the scalar loop stops at the first print that matches: once every lane that
          // needs it has matched, the other prints cannot change the result.
          if (cv::v_check_all(cv::v_reinterpret_as_s32(match | ~need))) break;
        }
        d = d | (need & ~match);
      }
      dm[q] = cv::v_reinterpret_as_s32(d);
    }
    cv::v_store(reinterpret_cast<schar*>(out + x), cv::v_pack(cv::v_pack(dm[0], dm[1]), cv::v_pack(dm[2], dm[3])));
  }
  if (n >= 16) x = n;
#endif
  if (scalar_pixels) *scalar_pixels += n - x;
  if (x < n)
    occluder_diff_row_ref(frame + 3 * x, print + 3 * x, pmin + 3 * x, pmax + 3 * x, light + 3 * x, n - x, ip, dark, c2,
                          out + x, nullptr);
}

void occluder_ratio_row(const uchar* frame, const uchar* pmin, int n, const float ip[3], float* ratio) {
  const float ip0 = ip[0], ip1 = ip[1], ip2 = ip[2];
  int x = 0;
#if CV_SIMD128
  // 16 pixels a step, the same float operations per lane as the loop below (and as
  // occluder_diff_row's vector steps); a tail under 16 of a row of 16 or more is the row's last
  // 16 again (each ratio depends on its own pixel alone).
  if (n >= 16) {
    using cv::v_float32x4;
    const v_float32x4 vip0 = cv::v_setall_f32(ip0), vip1 = cv::v_setall_f32(ip1), vip2 = cv::v_setall_f32(ip2);
    const v_float32x4 two = cv::v_setall_f32(2.0f), c255 = cv::v_setall_f32(255.0f), floor01 = cv::v_setall_f32(0.1f);
    const auto widen = widen16_f32;
#if defined(HEXDICE_BILINEAR_AVX2)
    const bool avx2 = use_avx2();
#endif
    for (int next = 0; next < n; next = x + 16) {
      x = std::min(next, n - 16);
#if defined(HEXDICE_BILINEAR_AVX2)
      if (avx2) {
        occluder_ratio_16_avx2(frame, pmin, x, ip, ratio);
        continue;
      }
#endif
      cv::v_uint8x16 c8[3];
      v_float32x4 f[3][4], p[3][4];
      cv::v_load_deinterleave(frame + 3 * x, c8[0], c8[1], c8[2]);
      for (int k = 0; k < 3; ++k) widen(c8[k], f[k]);
      cv::v_load_deinterleave(pmin + 3 * x, c8[0], c8[1], c8[2]);
      for (int k = 0; k < 3; ++k) widen(c8[k], p[k]);
      for (int q = 0; q < 4; ++q) {
        const v_float32x4 lum = f[0][q] * vip0 + two * (f[1][q] * vip1) + f[2][q] * vip2;
        const v_float32x4 lum_lo = (p[0][q] + two * p[1][q] + p[2][q]) / c255;
        cv::v_store(ratio + x + 4 * q, lum / cv::v_max(floor01, lum_lo));
      }
    }
    return;
  }
#endif
  for (; x < n; ++x) {
    const uchar* px = frame + 3 * x;
    const uchar* lo = pmin + 3 * x;
    const float b = px[0] * ip0, g = px[1] * ip1, r = px[2] * ip2;
    const float lum = b + 2 * g + r;
    const float lum_lo = (lo[0] + 2 * lo[1] + lo[2]) / 255.0f;
    ratio[x] = lum / std::max(0.1f, lum_lo);
  }
}

namespace {
// out[i] = the least (most, !least) of a[i], b[i], c[i], i in [0, n); 16 at a time.
void bytes3(const uchar* a, const uchar* b, const uchar* c, int n, bool least, uchar* out) {
  int i = 0;
#if CV_SIMD128
  if (least)
    for (; i + 16 <= n; i += 16) cv::v_store(out + i, cv::v_min(cv::v_min(cv::v_load(a + i), cv::v_load(b + i)), cv::v_load(c + i)));
  else
    for (; i + 16 <= n; i += 16) cv::v_store(out + i, cv::v_max(cv::v_max(cv::v_load(a + i), cv::v_load(b + i)), cv::v_load(c + i)));
  // A tail under 16 of a run of 16 or more: its last 16 again (out is none of a, b, c). Inside
  // the #if: without vectors i stays 0 and this would call itself for ever.
  if (i < n && n >= 16) return bytes3(a + n - 16, b + n - 16, c + n - 16, 16, least, out + n - 16);
#endif
  for (; i < n; ++i) out[i] = least ? std::min(std::min(a[i], b[i]), c[i]) : std::max(std::max(a[i], b[i]), c[i]);
}

// out[x] = 255 when 3735 b + 19235 g + 9798 r < sum_below for BGR pixel x of bgr, else 0, x in
// [0, n): 16 at a time (the sums as pairs of 16-bit products, exact in 32 bits).
void grey_below_row(const uchar* bgr, int n, int sum_below, uchar* out) {
  int x = 0;
#if CV_SIMD128
  const cv::v_int16x8 kbg(3735, 19235, 3735, 19235, 3735, 19235, 3735, 19235), kr(9798, 0, 9798, 0, 9798, 0, 9798, 0);
  const cv::v_int16x8 z16 = cv::v_setzero_s16();
  const cv::v_int32x4 below = cv::v_setall_s32(sum_below);
  for (int next = 0; next < n && n >= 16; next = x + 16) {
    x = std::min(next, n - 16);  // a tail under 16: the last 16 again
    cv::v_uint8x16 b8, g8, r8;
    cv::v_load_deinterleave(bgr + 3 * x, b8, g8, r8);
    cv::v_uint16x8 b[2], g[2], r[2];
    cv::v_expand(b8, b[0], b[1]);
    cv::v_expand(g8, g[0], g[1]);
    cv::v_expand(r8, r[0], r[1]);
    cv::v_int32x4 m[4];
    for (int h = 0; h < 2; ++h) {
      cv::v_int16x8 bg0, bg1, r0, r1;
      cv::v_zip(cv::v_reinterpret_as_s16(b[h]), cv::v_reinterpret_as_s16(g[h]), bg0, bg1);
      cv::v_zip(cv::v_reinterpret_as_s16(r[h]), z16, r0, r1);
      m[2 * h] = (cv::v_dotprod(bg0, kbg) + cv::v_dotprod(r0, kr)) < below;
      m[2 * h + 1] = (cv::v_dotprod(bg1, kbg) + cv::v_dotprod(r1, kr)) < below;
    }
    cv::v_store(reinterpret_cast<schar*>(out + x), cv::v_pack(cv::v_pack(m[0], m[1]), cv::v_pack(m[2], m[3])));
  }
  if (n >= 16) return;
#endif
  for (; x < n; ++x) out[x] = bgr[3 * x] * 3735 + bgr[3 * x + 1] * 19235 + bgr[3 * x + 2] * 9798 < sum_below ? 255 : 0;
}

// print's 3x3 minimum and maximum (cv::erode / cv::dilate by a 3 x 3 square, OpenCV's default
// border: outside the image never wins) on `box` (within the image), and `dark` = 255 where
// the minimum's grey level (cv::cvtColor's COLOR_BGR2GRAY in OpenCV 4.6, 8 bits: (3735 b +
// 19235 g + 9798 r + 16384) >> 15, its 15-bit coefficients) is below grey_below, else 0: the rows' 3-row extremes first (a row past the image's
// edge is the edge's own: a repeat never wins), then each pixel's and its two neighbours'
// (a pad past the image's edge that never wins: 255 for the minimum, 0 for the maximum).
void minmax3x3_box(const cv::Mat& print, const cv::Rect& box, int grey_below, cv::Mat& lo, cv::Mat& hi, cv::Mat& dark) {
  const int xa = std::max(0, box.x - 1), xb = std::min(print.cols, box.x + box.width + 1), nb = 3 * (xb - xa);
  thread_local std::vector<uchar> vlo, vhi;
  vlo.assign(static_cast<std::size_t>(nb) + 6, 255);
  vhi.assign(static_cast<std::size_t>(nb) + 6, 0);
  lo.create(box.height, box.width, CV_8UC3);
  hi.create(box.height, box.width, CV_8UC3);
  dark.create(box.height, box.width, CV_8U);
  const int j0 = 3 + 3 * (box.x - xa), n = 3 * box.width;  // box's first byte in vlo / vhi
  // (sum + 16384) >> 15 < grey_below <=> sum < grey_below << 15 - 16384 (sum >= 0)
  const int sum_below = grey_below * (1 << 15) - (1 << 14);
  for (int y = box.y; y < box.y + box.height; ++y) {
    const uchar* a = print.ptr<uchar>(std::max(0, y - 1)) + 3 * xa;
    const uchar* b = print.ptr<uchar>(y) + 3 * xa;
    const uchar* c = print.ptr<uchar>(std::min(print.rows - 1, y + 1)) + 3 * xa;
    bytes3(a, b, c, nb, true, vlo.data() + 3);
    bytes3(a, b, c, nb, false, vhi.data() + 3);
    uchar* l = lo.ptr<uchar>(y - box.y);
    bytes3(vlo.data() + j0 - 3, vlo.data() + j0, vlo.data() + j0 + 3, n, true, l);
    bytes3(vhi.data() + j0 - 3, vhi.data() + j0, vhi.data() + j0 + 3, n, false, hi.ptr<uchar>(y - box.y));
    grey_below_row(l, box.width, sum_below, dark.ptr<uchar>(y - box.y));
  }
}
}  // namespace

namespace {
// print_minmax_patches' boxes round `changed` (mask_ops.h).
std::vector<cv::Rect> patch_boxes(const cv::Rect& image, const std::vector<cv::Rect>& changed) {
  std::vector<cv::Rect> out;
  long area = 0;
  for (const cv::Rect& c : changed) {
    cv::Rect box = cv::Rect(c.x - 1, c.y - 1, c.width + 2, c.height + 2) & image;
    if (c.empty() || box.empty()) continue;
    // Its sides on multiples of 16 px, its right side the image's when within 16 px of it, and
    // at least 16 px wide where the image is: occluder_diff_patched's runs of a row are then
    // whole 16-pixel steps of occluder_diff_row, but for a row's last (a tail done again, as
    // in a whole row).
    int x0 = box.x / 16 * 16, x1 = (box.x + box.width + 15) / 16 * 16;
    if (x1 > image.width - 16) x1 = image.width;
    if (x1 - x0 < 16) x0 = std::max(0, x1 - 16);
    box = cv::Rect(x0, box.y, x1 - x0, box.height);
    out.push_back(box);
    area += box.area();
  }
  // Boxes over half the image (most cells tinted: a board drawn differently): the whole image
  // as one box (no runs to split the rows into).
  if (2 * area > image.area()) out.assign(1, image);
  return out;
}

// The fills drawn in order into `local`, the part of the print whose top left corner is `at`.
void draw_fills(cv::Mat& local, cv::Point at, const std::vector<PrintFill>& fills) {
  const cv::Rect lr(at, local.size());
  constexpr int kPat = 64;
  uchar pat[3 * kPat];  // the fill's colour kPat times: a run is copied from it
  for (const PrintFill& f : fills) {
    const cv::Rect in = f.rect & lr;
    if (in.empty()) continue;
    for (int i = 0; i < kPat; ++i) pat[3 * i] = f.colour[0], pat[3 * i + 1] = f.colour[1], pat[3 * i + 2] = f.colour[2];
    for (int y = in.y; y < in.y + in.height; ++y) {
      const uchar* m = f.mask.ptr<uchar>(y - f.rect.y) + (in.x - f.rect.x);
      uchar* o = local.ptr<uchar>(y - at.y) + 3 * (in.x - at.x);
      for (int x = next_where(m, 0, in.width, false); x < in.width;) {  // each run of drawn pixels
        const int e = next_where(m, x, in.width, true);
        for (int a = x; a < e; a += kPat) std::memcpy(o + 3 * a, pat, static_cast<std::size_t>(3 * std::min(kPat, e - a)));
        x = next_where(m, e, in.width, false);
      }
    }
  }
}
}  // namespace

PrintPatches print_minmax_patches(const cv::Mat& print, const std::vector<cv::Rect>& changed, int grey_below) {
  CV_Assert(print.type() == CV_8UC3);
  PrintPatches out;
  out.box = patch_boxes(cv::Rect(0, 0, print.cols, print.rows), changed);
  for (const cv::Rect& box : out.box) {
    out.pmin.emplace_back();
    out.pmax.emplace_back();
    out.dark.emplace_back();
    minmax3x3_box(print, box, grey_below, out.pmin.back(), out.pmax.back(), out.dark.back());
  }
  return out;
}

bool print_fill(cv::Size image, const std::vector<cv::Point>& poly, const cv::Scalar& colour, PrintFill& out) {
  if (poly.empty()) return false;
  const cv::Rect b = cv::boundingRect(poly);
  out.rect = cv::Rect(b.x - 1, b.y - 1, b.width + 2, b.height + 2);
  if ((out.rect & cv::Rect(0, 0, image.width, image.height)) != out.rect) return false;
  out.mask = cv::Mat(out.rect.size(), CV_8U, cv::Scalar(0));
  std::vector<cv::Point> moved;
  moved.reserve(poly.size());
  for (const cv::Point& p : poly) moved.push_back(p - out.rect.tl());
  cv::fillConvexPoly(out.mask, moved, cv::Scalar(255));
  const int w = out.mask.cols, h = out.mask.rows;
  for (int y = 0; y < h; ++y) {
    const uchar* m = out.mask.ptr<uchar>(y);
    if (m[0] || m[w - 1] || ((y == 0 || y == h - 1) && next_where(m, 0, w, false) < w)) return false;
  }
  for (int k = 0; k < 3; ++k) out.colour[k] = cv::saturate_cast<uchar>(colour[k]);
  return true;
}

cv::Vec3b print_fill_at(const cv::Mat& base, const std::vector<PrintFill>& fills, int x, int y) {
  for (auto f = fills.rbegin(); f != fills.rend(); ++f)
    if (f->rect.contains(cv::Point(x, y)) && f->mask.at<uchar>(y - f->rect.y, x - f->rect.x)) return f->colour;
  return base.at<cv::Vec3b>(y, x);
}

PrintPatches print_fill_patches(const cv::Mat& base, const std::vector<PrintFill>& fills, int grey_below) {
  CV_Assert(base.type() == CV_8UC3);
  PrintPatches out;
  const cv::Rect image(0, 0, base.cols, base.rows);
  std::vector<cv::Rect> changed;
  changed.reserve(fills.size());
  for (const PrintFill& f : fills) changed.push_back(f.rect);
  out.box = patch_boxes(image, changed);
  for (const cv::Rect& box : out.box) {
    // The box and the pixel round it (its 3x3 squares' reach; within the image, whose sides
    // minmax3x3_box then finds as the local part's own).
    const cv::Rect grown = cv::Rect(box.x - 1, box.y - 1, box.width + 2, box.height + 2) & image;
    cv::Mat local = base(grown).clone();
    draw_fills(local, grown.tl(), fills);
    const cv::Rect in(box.tl() - grown.tl(), box.size());
    out.pmin.emplace_back();
    out.pmax.emplace_back();
    out.dark.emplace_back();
    minmax3x3_box(local, in, grey_below, out.pmin.back(), out.pmax.back(), out.dark.back());
    out.print.push_back(local(in));
  }
  return out;
}

cv::Mat with_patches(const cv::Mat& base, const std::vector<cv::Rect>& box, const std::vector<cv::Mat>& parts) {
  cv::Mat out = base.clone();
  for (std::size_t i = 0; i < box.size() && i < parts.size(); ++i) parts[i].copyTo(out(box[i]));
  return out;
}

void occluder_diff_patched(const cv::Mat& frame, const cv::Mat& print, const cv::Mat& base_min, const cv::Mat& base_max,
                           const PrintPatches& p, const cv::Mat& light, const float ip[3], float dark, float c2, cv::Mat& diff) {
  const int w = frame.cols;
  // The boxes in order of their left side; a row's runs: up to each box's left side from the
  // base images, then the box (its part right of what is done) from its patch.
  std::vector<std::size_t> order(p.box.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p.box[a].x < p.box[b].x; });
  for (int y = 0; y < frame.rows; ++y) {
    const uchar* fr = frame.ptr<uchar>(y);
    const uchar* pr = print.ptr<uchar>(y);
    const uchar* mn = base_min.ptr<uchar>(y);
    const uchar* mx = base_max.ptr<uchar>(y);
    const float* lt = light.ptr<float>(y);
    uchar* o = diff.ptr<uchar>(y);
    auto run = [&](int x, int n, const uchar* pp, const uchar* lo, const uchar* hi) {
      occluder_diff_row(fr + 3 * x, pp, lo, hi, lt + 3 * x, n, ip, dark, c2, o + x);
    };
    int x = 0;
    for (const std::size_t i : order) {
      const cv::Rect& b = p.box[i];
      if (y < b.y || y >= b.y + b.height || b.x + b.width <= x) continue;
      if (b.x > x) run(x, b.x - x, pr + 3 * x, mn + 3 * x, mx + 3 * x), x = b.x;
      const int e = b.x + b.width, j = 3 * (x - b.x);
      // (speed39) The redrawn print from the box's part where print_fill_patches gave one.
      const uchar* pp = p.print.empty() ? pr + 3 * x : p.print[i].ptr<uchar>(y - b.y) + j;
      run(x, e - x, pp, p.pmin[i].ptr<uchar>(y - b.y) + j, p.pmax[i].ptr<uchar>(y - b.y) + j);
      x = e;
    }
    if (x < w) run(x, w - x, pr + 3 * x, mn + 3 * x, mx + 3 * x);
  }
}

namespace {

// A binary mask as rows of bits (nonzero = 1): pixel x of row y is bit (x & 63) of word
// 1 + (x >> 6) of the row; words 0 and nw + 1 pad it on both sides (a shift by up to 63
// reads them), and are 0, as are the bits past w, except inside erode_rect.
struct BitRows {
  int w = 0, h = 0, nw = 0, stride = 0;
  std::uint64_t last = 0;  // the last word's pixels
  std::vector<std::uint64_t> bits;
  BitRows(int w_, int h_)
      : w(w_), h(h_), nw((w_ + 63) / 64), stride(nw + 2),
        last(w_ % 64 ? ~std::uint64_t{0} >> (64 - w_ % 64) : ~std::uint64_t{0}),
        bits(static_cast<std::size_t>(h_) * static_cast<std::size_t>(nw + 2), 0) {}
  std::uint64_t* row(int y) { return bits.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(stride); }
  const std::uint64_t* row(int y) const { return bits.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(stride); }
};

BitRows pack_bits(const cv::Mat& m) {
  BitRows out(m.cols, m.rows);
  for (int y = 0; y < m.rows; ++y) {
    const uchar* p = m.ptr<uchar>(y);
    std::uint64_t* r = out.row(y);
    int x = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (; x + 16 <= m.cols; x += 16) {
      const unsigned z = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + x)), zero)));
      r[1 + (x >> 6)] |= static_cast<std::uint64_t>(~z & 0xffffu) << (x & 63);
    }
#endif
    for (; x < m.cols; ++x)
      if (p[x]) r[1 + (x >> 6)] |= std::uint64_t{1} << (x & 63);
  }
  return out;
}

// cv::dilate (erode = false) or cv::erode by a (2 rx + 1) x (2 ry + 1) rectangle, OpenCV's
// default border (outside never wins: 0 for the dilation, 1 for the erosion); rx, ry <= 63.
// The rows' pass into a scratch row set (pixel x + s of a row: word i >> s with word i + 1
// << (64 - s), x - s likewise; the pads supply what lies beyond), then the columns'.
void morph_rect_bits(const BitRows& in, BitRows& out, int rx, int ry, bool erode) {
  BitRows tmp(in.w, in.h);
  std::vector<std::uint64_t> r(static_cast<std::size_t>(in.stride));
  const std::uint64_t pad = erode ? ~std::uint64_t{0} : 0;
  for (int y = 0; y < in.h; ++y) {
    std::copy(in.row(y), in.row(y) + in.stride, r.begin());
    r[0] = r[static_cast<std::size_t>(in.nw) + 1] = pad;
    if (erode) r[static_cast<std::size_t>(in.nw)] |= ~in.last;
    std::uint64_t* o = tmp.row(y);
    const std::uint64_t* q = r.data();
    for (int i = 1; i <= in.nw; ++i) {
      std::uint64_t a = q[i];
      if (erode)
        for (int s = 1; s <= rx && a; ++s) a &= ((q[i] >> s) | (q[i + 1] << (64 - s))) & ((q[i] << s) | (q[i - 1] >> (64 - s)));
      else
        for (int s = 1; s <= rx; ++s) a |= (q[i] >> s) | (q[i + 1] << (64 - s)) | (q[i] << s) | (q[i - 1] >> (64 - s));
      o[i] = a;
    }
    o[in.nw] &= in.last;
  }
  for (int y = 0; y < in.h; ++y) {
    const int y0 = std::max(0, y - ry), y1 = std::min(in.h - 1, y + ry);
    std::uint64_t* o = out.row(y);
    for (int i = 1; i <= in.nw; ++i) {
      std::uint64_t a = tmp.row(y0)[i];
      if (erode)
        for (int yy = y0 + 1; yy <= y1 && a; ++yy) a &= tmp.row(yy)[i];
      else
        for (int yy = y0 + 1; yy <= y1; ++yy) a |= tmp.row(yy)[i];
      o[i] = a;
    }
  }
}

}  // namespace

bool occluder_core_possible_ref(const cv::Mat& diff, const cv::Mat& dark, int k) {
  if (k < 1) return true;
  cv::Mat d = diff.clone(), closed;
  cv::morphologyEx(d, closed, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
  d |= closed & dark;
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  cv::morphologyEx(d, d, cv::MORPH_CLOSE, k3);
  cv::morphologyEx(d, d, cv::MORPH_OPEN, k3);
  cv::Mat e;
  cv::erode(d, e, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * k + 1, 2 * k + 1)));
  return cv::countNonZero(e) > 0;
}

namespace {

// part's pixels (nonzero = 1) written over box's bits of r (box within r's image, part its
// size): 16 at a time where box's left side is on a multiple of 16 (print_minmax_patches'
// boxes but at the image's right side), else one by one.
void write_bits(BitRows& r, const cv::Rect& box, const cv::Mat& part) {
  for (int y = 0; y < box.height; ++y) {
    const uchar* p = part.ptr<uchar>(y);
    std::uint64_t* row = r.row(box.y + y);
    int x = 0;
#if defined(__SSE2__)
    if ((box.x & 15) == 0) {
      const __m128i zero = _mm_setzero_si128();
      for (; x + 16 <= box.width; x += 16) {
        const unsigned z = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + x)), zero)));
        const int gx = box.x + x, sh = gx & 63;
        std::uint64_t& wd = row[1 + (gx >> 6)];
        wd = (wd & ~(std::uint64_t{0xffff} << sh)) | (static_cast<std::uint64_t>(~z & 0xffffu) << sh);
      }
    }
#endif
    for (; x < box.width; ++x) {
      const int gx = box.x + x;
      const std::uint64_t bit = std::uint64_t{1} << (gx & 63);
      std::uint64_t& wd = row[1 + (gx >> 6)];
      wd = p[x] ? (wd | bit) : (wd & ~bit);
    }
  }
}

bool core_possible_bits(const BitRows& x, const BitRows& dk, int k) {
  BitRows a(x.w, x.h), b(x.w, x.h);
  // x |= close5(x) & dark
  morph_rect_bits(x, a, 2, 2, false);
  morph_rect_bits(a, b, 2, 2, true);
  for (std::size_t i = 0; i < b.bits.size(); ++i) b.bits[i] = x.bits[i] | (b.bits[i] & dk.bits[i]);
  // closed, then opened, by 3 x 3: dilated, eroded twice (once by 5 x 5: a rectangle's
  // erosions, clipped to the image, add up), dilated
  morph_rect_bits(b, a, 1, 1, false);
  morph_rect_bits(a, b, 2, 2, true);
  morph_rect_bits(b, a, 1, 1, false);
  std::swap(a, b);
  // chamfer_core_possible's square
  morph_rect_bits(b, a, k, k, true);
  for (std::uint64_t v : a.bits)
    if (v) return true;
  return false;
}

}  // namespace

bool occluder_core_possible(const cv::Mat& diff, const cv::Mat& dark, int k) {
  if (k < 1) return true;
  if (diff.type() != CV_8UC1 || dark.type() != CV_8UC1 || dark.size() != diff.size() || k > 63)
    return occluder_core_possible_ref(diff, dark, k);
  if (diff.empty()) return false;
  return core_possible_bits(pack_bits(diff), pack_bits(dark), k);
}

bool occluder_core_possible(const cv::Mat& diff, const cv::Mat& dark, const std::vector<cv::Rect>& box,
                            const std::vector<cv::Mat>& parts, int k) {
  if (box.empty()) return occluder_core_possible(diff, dark, k);
  if (k < 1) return true;
  const cv::Rect image(0, 0, dark.cols, dark.rows);
  bool fits = box.size() == parts.size();
  for (std::size_t i = 0; fits && i < box.size(); ++i)
    fits = (box[i] & image) == box[i] && parts[i].type() == CV_8UC1 && parts[i].size() == box[i].size();
  if (!fits || diff.type() != CV_8UC1 || dark.type() != CV_8UC1 || dark.size() != diff.size() || k > 63)
    return occluder_core_possible_ref(diff, with_patches(dark, box, parts), k);
  if (diff.empty()) return false;
  BitRows dk = pack_bits(dark);
  for (std::size_t i = 0; i < box.size(); ++i) write_bits(dk, box[i], parts[i]);
  return core_possible_bits(pack_bits(diff), dk, k);
}

void chamfer5_threshold_ref(const cv::Mat& src, double t, bool within, cv::Mat& out) {
  cv::Mat d;
  cv::distanceTransform(src, d, cv::DIST_L2, cv::DIST_MASK_5);
  out = within ? cv::Mat(d <= t) : cv::Mat(d > t);
}

namespace {

// chamfer5_threshold's kernel for (t, within): the half-width of each row dy = -R..R (-1: an
// empty row), from OpenCV's distance transform of a (2R + 1) square with its centre zero, the
// caller's compare applied to it; empty when a row is not an interval about 0, a half-width is
// over 63 or the ball reaches the square's edge (then the caller falls back).
std::vector<int> chamfer5_rows(double t, bool within) {
  if (!(t >= 0) || t > 200) return {};
  const int R = static_cast<int>(std::ceil(t)) + 2;
  cv::Mat one(2 * R + 1, 2 * R + 1, CV_8U, cv::Scalar(255)), kd;
  one.at<uchar>(R, R) = 0;
  cv::distanceTransform(one, kd, cv::DIST_L2, cv::DIST_MASK_5);
  // The offsets that decide: for `d > t` those failing it (a zero there makes d <= t), for
  // `d <= t` those passing it.
  const cv::Mat in = within ? cv::Mat(kd <= t) : cv::Mat(~cv::Mat(kd > t));
  std::vector<int> hw(static_cast<std::size_t>(2 * R + 1), -1);
  for (int y = 0; y <= 2 * R; ++y) {
    const uchar* p = in.ptr<uchar>(y);
    int lo = -1, hi = -1, n = 0;
    for (int x = 0; x <= 2 * R; ++x)
      if (p[x]) {
        if (lo < 0) lo = x;
        hi = x, ++n;
      }
    if (n == 0) continue;
    if (n != hi - lo + 1 || lo + hi != 2 * R || lo == 0 || y == 0 || y == 2 * R || R - lo > 63) return {};
    hw[static_cast<std::size_t>(y)] = R - lo;
  }
  if (hw[static_cast<std::size_t>(R)] < 0) return {};
  return hw;
}

}  // namespace

bool chamfer5_threshold(const cv::Mat& src, double t, bool within, cv::Mat& out) {
  // The kernels asked for in this thread so far (occluder_mask asks for the same two or three).
  struct Kept {
    double t;
    bool within;
    std::vector<int> hw;
  };
  static thread_local std::vector<Kept> kept;
  const std::vector<int>* hwp = nullptr;
  for (const Kept& k : kept)
    if (k.t == t && k.within == within) hwp = &k.hw;
  if (!hwp) {
    kept.push_back({t, within, chamfer5_rows(t, within)});
    hwp = &kept.back().hw;
  }
  const std::vector<int>& hw = *hwp;
  if (hw.empty() || src.type() != CV_8UC1 || src.empty()) {
    chamfer5_threshold_ref(src, t, within, out);
    return false;
  }
  const int R = static_cast<int>(hw.size() / 2);
  // `d > t`: the nonzero set eroded (outside: 1); `d <= t`: the zeros dilated (outside: 0).
  const bool erode = !within;
  BitRows in = pack_bits(src);
  if (within)
    for (int y = 0; y < in.h; ++y) {
      std::uint64_t* r = in.row(y);
      for (int i = 1; i <= in.nw; ++i) r[i] = ~r[i];
      r[in.nw] &= in.last;
    }
  int max_hw = 0;
  for (int v : hw) max_hw = std::max(max_hw, v);
  // Each row eroded (dilated) by every half-width that a kernel row has: level s = level s - 1
  // with the row shifted by +-s.
  std::vector<int> slot(static_cast<std::size_t>(max_hw) + 1, -1);
  int n_slots = 0;
  for (int v : hw)
    if (v >= 0 && slot[static_cast<std::size_t>(v)] < 0) slot[static_cast<std::size_t>(v)] = n_slots++;
  std::vector<BitRows> level(static_cast<std::size_t>(n_slots), BitRows(in.w, in.h));  // zeros
  std::vector<std::uint64_t*> at(static_cast<std::size_t>(max_hw) + 1);  // this row's word 0 of each level (nullptr: none)
  std::vector<std::uint64_t> r(static_cast<std::size_t>(in.stride));
  const std::uint64_t pad = erode ? ~std::uint64_t{0} : 0, ones = ~std::uint64_t{0};
  for (int y = 0; y < in.h; ++y) {
    std::copy(in.row(y), in.row(y) + in.stride, r.begin());
    r[0] = r[static_cast<std::size_t>(in.nw) + 1] = pad;
    if (erode) r[static_cast<std::size_t>(in.nw)] |= ~in.last;
    for (int s = 0; s <= max_hw; ++s) {
      const int k = slot[static_cast<std::size_t>(s)];
      at[static_cast<std::size_t>(s)] = k < 0 ? nullptr : level[static_cast<std::size_t>(k)].row(y);
    }
    const std::uint64_t* q = r.data();
    for (int i = 1; i <= in.nw; ++i) {
      const std::uint64_t keep = i == in.nw ? in.last : ones;
      // A word and both its neighbours all 0 (all 1): every level of it is that (the levels
      // start at 0: nothing to write for 0).
      if ((q[i - 1] | q[i] | q[i + 1]) == 0) continue;
      if ((q[i - 1] & q[i] & q[i + 1]) == ones) {
        for (int s = 0; s <= max_hw; ++s)
          if (std::uint64_t* l = at[static_cast<std::size_t>(s)]) l[i] = keep;
        continue;
      }
      std::uint64_t a = q[i];
      if (std::uint64_t* l = at[0]) l[i] = a & keep;
      for (int s = 1; s <= max_hw; ++s) {
        const std::uint64_t right = (q[i] >> s) | (q[i + 1] << (64 - s)), left = (q[i] << s) | (q[i - 1] >> (64 - s));
        if (erode) {
          a &= right & left;
          if (a == 0) break;  // and every wider level: 0, as they start
        } else {
          a |= right | left;
        }
        if (std::uint64_t* l = at[static_cast<std::size_t>(s)]) l[i] = a & keep;
      }
    }
  }
  // The kernel's rows: row y + dy's level of that row's half-width, ANDed (ORed); rows
  // outside the image are left out (they never win).
  BitRows res(in.w, in.h);
  for (int y = 0; y < in.h; ++y) {
    std::uint64_t* o = res.row(y);
    for (int i = 1; i <= in.nw; ++i) o[i] = erode ? ~std::uint64_t{0} : 0;
    for (int dy = -R; dy <= R; ++dy) {
      const int v = hw[static_cast<std::size_t>(dy + R)], yy = y + dy;
      if (v < 0 || yy < 0 || yy >= in.h) continue;
      const std::uint64_t* l = level[static_cast<std::size_t>(slot[static_cast<std::size_t>(v)])].row(yy);
      if (erode)
        for (int i = 1; i <= in.nw; ++i) o[i] &= l[i];
      else
        for (int i = 1; i <= in.nw; ++i) o[i] |= l[i];
    }
    o[in.nw] &= in.last;
  }
  // Back to bytes, 8 bits at a time (each bit to a byte of 0 or 255).
  static const std::array<std::uint64_t, 256> spread = [] {
    std::array<std::uint64_t, 256> tab{};
    for (int v = 0; v < 256; ++v)
      for (int b = 0; b < 8; ++b)
        if (v >> b & 1) tab[static_cast<std::size_t>(v)] |= std::uint64_t{0xff} << (8 * b);
    return tab;
  }();
  out.create(src.size(), CV_8U);
  for (int y = 0; y < res.h; ++y) {
    const std::uint64_t* b = res.row(y);
    uchar* p = out.ptr<uchar>(y);
    int x = 0;
    for (; x + 8 <= res.w; x += 8) {
      const std::uint64_t v = spread[static_cast<std::size_t>((b[1 + (x >> 6)] >> (x & 63)) & 0xff)];
      std::memcpy(p + x, &v, 8);
    }
    for (; x < res.w; ++x) p[x] = (b[1 + (x >> 6)] >> (x & 63)) & 1 ? 255 : 0;
  }
  return true;
}

void light_grid_ref(const std::vector<double>& ex, const std::vector<double>& ey, const std::vector<cv::Vec3f>& rho,
                    cv::Vec3f global, cv::Mat& grid) {
  CV_Assert(grid.type() == CV_32FC3);
  const std::size_t nk = rho.size();
  for (int gy = 0; gy < grid.rows; ++gy)
    for (int gx = 0; gx < grid.cols; ++gx) {
      cv::Vec3f acc(0, 0, 0);
      double wsum = 0;
      for (std::size_t k = 0; k < nk; ++k) {
        const double w = ex[static_cast<std::size_t>(gx) * nk + k] * ey[static_cast<std::size_t>(gy) * nk + k];
        acc += rho[k] * static_cast<float>(w);
        wsum += w;
      }
      grid.at<cv::Vec3f>(gy, gx) = wsum > 1e-3 ? acc * static_cast<float>(1.0 / wsum) : global;
    }
}

void light_grid(const std::vector<double>& ex, const std::vector<double>& ey, const std::vector<cv::Vec3f>& rho,
                cv::Vec3f global, cv::Mat& grid) {
#if defined(__SSE2__)
  CV_Assert(grid.type() == CV_32FC3);
  const std::size_t nk = rho.size();
  const int gw = grid.cols, g4 = (gw + 3) & ~3;
  if (nk == 0) return light_grid_ref(ex, ey, rho, global, grid);
  // ex by k, then by grid column: 4 columns' weights side by side (columns past gw: 0,
  // computed and not stored).
  std::vector<double> exk(nk * static_cast<std::size_t>(g4), 0.0);
  for (int gx = 0; gx < gw; ++gx)
    for (std::size_t k = 0; k < nk; ++k) exk[k * static_cast<std::size_t>(g4) + static_cast<std::size_t>(gx)] = ex[static_cast<std::size_t>(gx) * nk + k];
  for (int gy = 0; gy < grid.rows; ++gy) {
    const double* eyr = ey.data() + static_cast<std::size_t>(gy) * nk;
    float* out = grid.ptr<float>(gy);
    for (int gx = 0; gx < g4; gx += 4) {
      __m128 a0 = _mm_setzero_ps(), a1 = _mm_setzero_ps(), a2 = _mm_setzero_ps();
      __m128d s01 = _mm_setzero_pd(), s23 = _mm_setzero_pd();
      const double* e = exk.data() + gx;
      for (std::size_t k = 0; k < nk; ++k, e += g4) {
        const __m128d y = _mm_set1_pd(eyr[k]);
        const __m128d w01 = _mm_mul_pd(_mm_loadu_pd(e), y), w23 = _mm_mul_pd(_mm_loadu_pd(e + 2), y);
        s01 = _mm_add_pd(s01, w01);
        s23 = _mm_add_pd(s23, w23);
        const __m128 fw = _mm_movelh_ps(_mm_cvtpd_ps(w01), _mm_cvtpd_ps(w23));  // float(w), as static_cast
        a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_set1_ps(rho[k][0]), fw));
        a1 = _mm_add_ps(a1, _mm_mul_ps(_mm_set1_ps(rho[k][1]), fw));
        a2 = _mm_add_ps(a2, _mm_mul_ps(_mm_set1_ps(rho[k][2]), fw));
      }
      alignas(16) float c0[4], c1[4], c2[4];
      alignas(16) double ws[4];
      _mm_store_ps(c0, a0);
      _mm_store_ps(c1, a1);
      _mm_store_ps(c2, a2);
      _mm_store_pd(ws, s01);
      _mm_store_pd(ws + 2, s23);
      for (int j = 0; j < 4 && gx + j < gw; ++j) {
        const cv::Vec3f acc(c0[j], c1[j], c2[j]);
        const cv::Vec3f v = ws[j] > 1e-3 ? acc * static_cast<float>(1.0 / ws[j]) : global;
        float* o = out + 3 * (gx + j);
        o[0] = v[0], o[1] = v[1], o[2] = v[2];
      }
    }
  }
#else
  light_grid_ref(ex, ey, rho, global, grid);
#endif
}

void skin_row_ref(const uchar* bgr, int n, const float iw[3], float chroma, float hue_min, float hue_max, uchar* out) {
  const float iw0 = iw[0], iw1 = iw[1], iw2 = iw[2];
  for (int x = 0; x < n; ++x) {
    const uchar* px = bgr + 3 * x;
    const float b = px[0] * iw0, g = px[1] * iw1, r = px[2] * iw2;
    const float num = 60.0f * (g - b), den = r - b;
    const bool skin = (r > g) & (g >= b) & (r > 0.06f) & (den > chroma * r) & (num >= hue_min * den) & (num <= hue_max * den);
    out[x] = skin ? 255 : 0;
  }
}

#if CV_SIMD128
// 16 BGR pixels, each channel widened to four vectors of 32-bit lanes: w[channel][quarter].
inline void load_bgr16_u32(const uchar* bgr, cv::v_uint32x4 w[3][4]) {
  cv::v_uint8x16 c8[3];
  cv::v_load_deinterleave(bgr, c8[0], c8[1], c8[2]);
  for (int k = 0; k < 3; ++k) {
    cv::v_uint16x8 lo, hi;
    cv::v_expand(c8[k], lo, hi);
    cv::v_expand(lo, w[k][0], w[k][1]);
    cv::v_expand(hi, w[k][2], w[k][3]);
  }
}
#endif

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
bool use_avx2();
// (speed44) 8 BGR pixels (the 24 bytes from p, none past them) as each channel's 8 values in
// 32-bit lanes, in pixel order: c[0] b, c[1] g, c[2] r. Bytes 0-15 in the low lane (pixels
// 0-3 at 0-11), 8-23 in the high (pixels 4-7 at 4-15); one shuffle a channel (-1: zero).
__attribute__((target("avx2"), always_inline)) inline void load_bgr8_epi32(const uchar* p, __m256i c[3]) {
  const __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                            _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 8)), 1);
  for (int k = 0; k < 3; ++k)
    c[k] = _mm256_shuffle_epi8(v, _mm256_setr_epi8(k, -1, -1, -1, 3 + k, -1, -1, -1, 6 + k, -1, -1, -1, 9 + k, -1, -1, -1,  //
                                                   4 + k, -1, -1, -1, 7 + k, -1, -1, -1, 10 + k, -1, -1, -1, 13 + k, -1, -1, -1));
}
// An 8-lane mask (all ones or zero in each 32-bit lane, pixels 0-7) as 8 bytes 0xFF / 0 in
// pixel order, in the low half.
__attribute__((target("avx2"), always_inline)) inline __m128i mask8_bytes(__m256 m) {
  const __m256i w = _mm256_castps_si256(m);
  const __m128i h = _mm_packs_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
  return _mm_packs_epi16(h, h);
}
// skin_row's step on 8 pixels in AVX2 (no FMA enabled, so nothing is fused): the SSE step's
// float operations lane by lane in its order. Returns the first pixel not done.
__attribute__((target("avx2"), noinline)) int skin_row_avx2(const uchar* bgr, int n, const float iw[3], float chroma, float hue_min,
                                                            float hue_max, uchar* out) {
  const __m256 v0 = _mm256_set1_ps(iw[0]), v1 = _mm256_set1_ps(iw[1]), v2 = _mm256_set1_ps(iw[2]);
  const __m256 k60 = _mm256_set1_ps(60.0f), rmin = _mm256_set1_ps(0.06f), vch = _mm256_set1_ps(chroma);
  const __m256 hmin = _mm256_set1_ps(hue_min), hmax = _mm256_set1_ps(hue_max);
  int x = 0;
  for (; x + 8 <= n; x += 8) {
    __m256i w[3];
    load_bgr8_epi32(bgr + 3 * x, w);
    const __m256 b = _mm256_mul_ps(_mm256_cvtepi32_ps(w[0]), v0);
    const __m256 g = _mm256_mul_ps(_mm256_cvtepi32_ps(w[1]), v1);
    const __m256 r = _mm256_mul_ps(_mm256_cvtepi32_ps(w[2]), v2);
    const __m256 num = _mm256_mul_ps(k60, _mm256_sub_ps(g, b)), den = _mm256_sub_ps(r, b);
    __m256 m = _mm256_and_ps(_mm256_cmp_ps(r, g, _CMP_GT_OQ), _mm256_cmp_ps(g, b, _CMP_GE_OQ));
    m = _mm256_and_ps(m, _mm256_cmp_ps(r, rmin, _CMP_GT_OQ));
    m = _mm256_and_ps(m, _mm256_cmp_ps(den, _mm256_mul_ps(vch, r), _CMP_GT_OQ));
    m = _mm256_and_ps(m, _mm256_cmp_ps(num, _mm256_mul_ps(hmin, den), _CMP_GE_OQ));
    m = _mm256_and_ps(m, _mm256_cmp_ps(num, _mm256_mul_ps(hmax, den), _CMP_LE_OQ));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + x), mask8_bytes(m));
  }
  return x;
}
// shadow_row's step on 8 pixels in AVX2 (no FMA): the SSE step's operations lane by lane in
// its order, on the SSE step's own constants: ps the paper's sum, pcf its chromaticity,
// kmin_f / kmax_f the float bounds. Returns the first pixel not done.
__attribute__((target("avx2"), noinline)) int shadow_row_avx2(const uchar* bgr, const uchar* where, int n, float ps, const float pcf[3],
                                                              float kmin_f, float kmax_f, uchar* out) {
  const __m256 vps = _mm256_set1_ps(ps), eps = _mm256_set1_ps(1e-3f), lim = _mm256_set1_ps(0.0016f);
  const __m256 pc[3] = {_mm256_set1_ps(pcf[0]), _mm256_set1_ps(pcf[1]), _mm256_set1_ps(pcf[2])};
  const __m256 vkmin = _mm256_set1_ps(kmin_f), vkmax = _mm256_set1_ps(kmax_f);
  int x = 0;
  for (; x + 8 <= n; x += 8) {
    __m256i w[3];
    load_bgr8_epi32(bgr + 3 * x, w);
    const __m256 s = _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_add_epi32(w[0], w[1]), w[2])), eps);
    const __m256 k = _mm256_div_ps(s, vps);
    const __m256 c0 = _mm256_sub_ps(_mm256_div_ps(_mm256_cvtepi32_ps(w[0]), s), pc[0]);
    const __m256 c1 = _mm256_sub_ps(_mm256_div_ps(_mm256_cvtepi32_ps(w[1]), s), pc[1]);
    const __m256 c2 = _mm256_sub_ps(_mm256_div_ps(_mm256_cvtepi32_ps(w[2]), s), pc[2]);
    const __m256 d = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(c0, c0), _mm256_mul_ps(c1, c1)), _mm256_mul_ps(c2, c2));
    const __m256 m = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(d, lim, _CMP_LT_OQ), _mm256_cmp_ps(k, vkmin, _CMP_GE_OQ)),
                                   _mm256_cmp_ps(k, vkmax, _CMP_LE_OQ));
    // Where `where` is 0 the scalar loop leaves out[x] as it was.
    const __m128i wh = _mm_cmpeq_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(where + x)), _mm_setzero_si128());
    const __m128i old = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(out + x));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + x), _mm_blendv_epi8(mask8_bytes(m), old, wh));
  }
  return x;
}
}  // namespace
#endif

void skin_row(const uchar* bgr, int n, const float iw[3], float chroma, float hue_min, float hue_max, uchar* out) {
  int x = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) x = skin_row_avx2(bgr, n, iw, chroma, hue_min, hue_max, out);
#endif
#if CV_SIMD128
  using cv::v_float32x4;
  const v_float32x4 v0 = cv::v_setall_f32(iw[0]), v1 = cv::v_setall_f32(iw[1]), v2 = cv::v_setall_f32(iw[2]);
  const v_float32x4 k60 = cv::v_setall_f32(60.0f), rmin = cv::v_setall_f32(0.06f), vch = cv::v_setall_f32(chroma);
  const v_float32x4 hmin = cv::v_setall_f32(hue_min), hmax = cv::v_setall_f32(hue_max);
  for (; x + 16 <= n; x += 16) {
    cv::v_uint32x4 w[3][4];
    load_bgr16_u32(bgr + 3 * x, w);
    cv::v_int32x4 m[4];
    for (int q = 0; q < 4; ++q) {
      const v_float32x4 b = cv::v_cvt_f32(cv::v_reinterpret_as_s32(w[0][q])) * v0;
      const v_float32x4 g = cv::v_cvt_f32(cv::v_reinterpret_as_s32(w[1][q])) * v1;
      const v_float32x4 r = cv::v_cvt_f32(cv::v_reinterpret_as_s32(w[2][q])) * v2;
      const v_float32x4 num = k60 * (g - b), den = r - b;
      const v_float32x4 skin = (r > g) & (g >= b) & (r > rmin) & (den > vch * r) & (num >= hmin * den) & (num <= hmax * den);
      m[q] = cv::v_reinterpret_as_s32(skin);
    }
    cv::v_store(reinterpret_cast<schar*>(out + x), cv::v_pack(cv::v_pack(m[0], m[1]), cv::v_pack(m[2], m[3])));
  }
#endif
  if (x < n) skin_row_ref(bgr + 3 * x, n - x, iw, chroma, hue_min, hue_max, out + x);
}

void blob_response_row_ref(const float* up, const float* r, const float* dn, int n, float gain, float* out) {
  for (int x = 2; x < n - 2; ++x) {
    if (!(r[x] > 0)) {
      out[x] = 0;
      continue;
    }
    const float rxx = r[x - 2] + r[x + 2] - 2 * r[x], ryy = up[x] + dn[x] - 2 * r[x];
    const float rxy = (dn[x + 2] - dn[x - 2] - up[x + 2] + up[x - 2]) / 4;
    const float tr = rxx + ryy, det = rxx * ryy - rxy * rxy;
    const float l2 = tr / 2 + std::sqrt(std::max(0.0f, tr * tr / 4 - det));  // the weaker curvature
    out[x] = std::max(0.0f, std::min(r[x], gain * -l2));
  }
}

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
bool use_avx2();
// (speed25) blob_response_row's step on 8 pixels in AVX (no FMA is enabled here, so nothing is
// fused): the SSE step's operations lane by lane in its order. Returns the first pixel not done.
__attribute__((target("avx2"), noinline)) int blob_response_row_avx2(const float* up, const float* r, const float* dn, int n, float gain,
                                                                     float* out) {
  const __m256 two = _mm256_set1_ps(2.0f), four = _mm256_set1_ps(4.0f), zero = _mm256_setzero_ps(), vg = _mm256_set1_ps(gain);
  const __m256 sign = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0x80000000u)));
  int x = 2;
  for (; x + 8 <= n - 2; x += 8) {
    const __m256 c = _mm256_loadu_ps(r + x), l = _mm256_loadu_ps(r + x - 2), rr = _mm256_loadu_ps(r + x + 2);
    const __m256 u = _mm256_loadu_ps(up + x), d = _mm256_loadu_ps(dn + x);
    const __m256 rxx = _mm256_sub_ps(_mm256_add_ps(l, rr), _mm256_mul_ps(two, c));
    const __m256 ryy = _mm256_sub_ps(_mm256_add_ps(u, d), _mm256_mul_ps(two, c));
    const __m256 rxy = _mm256_div_ps(
        _mm256_add_ps(_mm256_sub_ps(_mm256_sub_ps(_mm256_loadu_ps(dn + x + 2), _mm256_loadu_ps(dn + x - 2)), _mm256_loadu_ps(up + x + 2)),
                      _mm256_loadu_ps(up + x - 2)),
        four);
    const __m256 tr = _mm256_add_ps(rxx, ryy), det = _mm256_sub_ps(_mm256_mul_ps(rxx, ryy), _mm256_mul_ps(rxy, rxy));
    const __m256 l2 = _mm256_add_ps(_mm256_div_ps(tr, two),
                                    _mm256_sqrt_ps(_mm256_max_ps(_mm256_sub_ps(_mm256_div_ps(_mm256_mul_ps(tr, tr), four), det), zero)));
    const __m256 v = _mm256_max_ps(_mm256_min_ps(_mm256_mul_ps(vg, _mm256_xor_ps(l2, sign)), c), zero);
    _mm256_storeu_ps(out + x, _mm256_and_ps(v, _mm256_cmp_ps(c, zero, _CMP_GT_OQ)));
  }
  return x;
}
}  // namespace
#endif

void blob_response_row(const float* up, const float* r, const float* dn, int n, float gain, float* out) {
  int x = 2;
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) x = blob_response_row_avx2(up, r, dn, n, gain, out);
#endif
#if CV_SIMD128
  // The reference's operations lane by lane in its order (no FMA: nothing is fused here);
  // std::max(0, v) = (0 < v ? v : 0) is v_max(v, 0) (v > 0 ? v : 0, also for NaN and -0),
  // std::min(r, q) = (q < r ? q : r) is v_min(q, r); lanes where !(r > 0) are 0 by the mask.
  using cv::v_float32x4;
  const v_float32x4 two = cv::v_setall_f32(2.0f), four = cv::v_setall_f32(4.0f), zero = cv::v_setzero_f32();
  const v_float32x4 vg = cv::v_setall_f32(gain);
  const cv::v_uint32x4 sign = cv::v_setall_u32(0x80000000u);
  for (; x + 4 <= n - 2; x += 4) {
    const v_float32x4 c = cv::v_load(r + x), l = cv::v_load(r + x - 2), rr = cv::v_load(r + x + 2);
    const v_float32x4 u = cv::v_load(up + x), d = cv::v_load(dn + x);
    const v_float32x4 rxx = (l + rr) - two * c, ryy = (u + d) - two * c;
    const v_float32x4 rxy = (((cv::v_load(dn + x + 2) - cv::v_load(dn + x - 2)) - cv::v_load(up + x + 2)) + cv::v_load(up + x - 2)) / four;
    const v_float32x4 tr = rxx + ryy, det = rxx * ryy - rxy * rxy;
    const v_float32x4 l2 = tr / two + cv::v_sqrt(cv::v_max(tr * tr / four - det, zero));
    const v_float32x4 neg_l2 = cv::v_reinterpret_as_f32(cv::v_reinterpret_as_u32(l2) ^ sign);  // -l2, exactly
    const v_float32x4 v = cv::v_max(cv::v_min(vg * neg_l2, c), zero);
    cv::v_store(out + x, v & (c > zero));
  }
#endif
  if (x < n - 2) blob_response_row_ref(up + x - 2, r + x - 2, dn + x - 2, n - x + 2, gain, out + x - 2);
}

void shadow_row_ref(const uchar* bgr, const uchar* where, int n, const float paper[3], double kmin, double kmax, uchar* out) {
  const float ps = paper[0] + paper[1] + paper[2] + 1e-3f;
  const float pc0 = paper[0] / ps, pc1 = paper[1] / ps, pc2 = paper[2] / ps;
  for (int x = 0; x < n; ++x) {
    if (!where[x]) continue;
    const uchar* p = bgr + 3 * x;
    const float s = p[0] + p[1] + p[2] + 1e-3f;
    const float k = s / ps;
    const float c0 = p[0] / s - pc0, c1 = p[1] / s - pc1, c2 = p[2] / s - pc2;
    const bool grey = c0 * c0 + c1 * c1 + c2 * c2 < 0.0016f;  // chromaticity within 0.04
    out[x] = (grey && k >= kmin && k <= kmax) ? 255 : 0;
  }
}

void shadow_row(const uchar* bgr, const uchar* where, int n, const float paper[3], double kmin, double kmax, uchar* out) {
  int x = 0;
#if CV_SIMD128
  using cv::v_float32x4;
  const float ps = paper[0] + paper[1] + paper[2] + 1e-3f;
  const float pcf[3] = {paper[0] / ps, paper[1] / ps, paper[2] / ps};
  const v_float32x4 vps = cv::v_setall_f32(ps), eps = cv::v_setall_f32(1e-3f), lim = cv::v_setall_f32(0.0016f);
  const v_float32x4 pc[3] = {cv::v_setall_f32(pcf[0]), cv::v_setall_f32(pcf[1]), cv::v_setall_f32(pcf[2])};
  // k >= kmin (a double) <=> k >= the least float not below kmin; k <= kmax likewise.
  float kmin_f = static_cast<float>(kmin), kmax_f = static_cast<float>(kmax);
  if (static_cast<double>(kmin_f) < kmin) kmin_f = std::nextafter(kmin_f, std::numeric_limits<float>::infinity());
  if (static_cast<double>(kmax_f) > kmax) kmax_f = std::nextafter(kmax_f, -std::numeric_limits<float>::infinity());
  const v_float32x4 vkmin = cv::v_setall_f32(kmin_f), vkmax = cv::v_setall_f32(kmax_f);
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) x = shadow_row_avx2(bgr, where, n, ps, pcf, kmin_f, kmax_f, out);
#endif
  for (; x + 16 <= n; x += 16) {
    cv::v_uint32x4 w[3][4];
    load_bgr16_u32(bgr + 3 * x, w);
    cv::v_int32x4 m[4];
    for (int q = 0; q < 4; ++q) {
      // p0 + p1 + p2 in integers (as the scalar code's int sum), then + 1e-3f.
      const cv::v_int32x4 isum = cv::v_reinterpret_as_s32(w[0][q] + w[1][q] + w[2][q]);
      const v_float32x4 s = cv::v_cvt_f32(isum) + eps;
      const v_float32x4 k = s / vps;
      const v_float32x4 c0 = cv::v_cvt_f32(cv::v_reinterpret_as_s32(w[0][q])) / s - pc[0];
      const v_float32x4 c1 = cv::v_cvt_f32(cv::v_reinterpret_as_s32(w[1][q])) / s - pc[1];
      const v_float32x4 c2 = cv::v_cvt_f32(cv::v_reinterpret_as_s32(w[2][q])) / s - pc[2];
      const v_float32x4 d = c0 * c0 + c1 * c1 + c2 * c2;
      m[q] = cv::v_reinterpret_as_s32((d < lim) & (k >= vkmin) & (k <= vkmax));
    }
    const cv::v_uint8x16 res = cv::v_reinterpret_as_u8(cv::v_pack(cv::v_pack(m[0], m[1]), cv::v_pack(m[2], m[3])));
    const cv::v_uint8x16 wh = cv::v_load(where + x) != cv::v_setzero_u8();
    // Where `where` is 0 the scalar loop leaves out[x] as it was.
    const cv::v_uint8x16 old = cv::v_load(out + x);
    cv::v_store(out + x, cv::v_select(wh, res, old));
  }
#endif
  if (x < n) shadow_row_ref(bgr + 3 * x, where + x, n - x, paper, kmin, kmax, out + x);
}

void fill_holes_labels(cv::Mat& mask) {
  CV_Assert(mask.type() == CV_8UC1);
  const int w = mask.cols, h = mask.rows;
  if (w == 0 || h == 0) return;
  // The zero pixels' 4-connected components (one labelling); those with a pixel on the
  // border are what the padded flood fill reaches: they stay 0, everything else is 255.
  cv::Mat labels;
  const int n = cv::connectedComponents(mask == 0, labels, 4, CV_32S);
  std::vector<uchar> outside(static_cast<std::size_t>(n), 0);
  for (int x = 0; x < w; ++x) outside[static_cast<std::size_t>(labels.at<int>(0, x))] = outside[static_cast<std::size_t>(labels.at<int>(h - 1, x))] = 1;
  for (int y = 0; y < h; ++y) outside[static_cast<std::size_t>(labels.at<int>(y, 0))] = outside[static_cast<std::size_t>(labels.at<int>(y, w - 1))] = 1;
  outside[0] = 0;  // label 0: the mask's own (nonzero) pixels
  for (int y = 0; y < h; ++y) {
    const int* l = labels.ptr<int>(y);
    uchar* m = mask.ptr<uchar>(y);
    for (int x = 0; x < w; ++x) m[x] = outside[static_cast<std::size_t>(l[x])] ? 0 : 255;
  }
}

void fill_holes_up_to(cv::Mat& mask, double max_area, int connectivity) {
  cv::Mat pad;
  cv::copyMakeBorder(mask, pad, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
  cv::floodFill(pad, cv::Point(0, 0), cv::Scalar(255));
  cv::Mat holes = ~pad(cv::Rect(1, 1, mask.cols, mask.rows));
  cv::Mat labels, stats, cents;
  const int n = cv::connectedComponentsWithStats(holes, labels, stats, cents, connectivity, CV_32S);
  for (int i = 1; i < n; ++i)
    if (stats.at<int>(i, cv::CC_STAT_AREA) > max_area) holes.setTo(0, labels == i);
  mask |= holes;
}

void fill_holes_fast(cv::Mat& mask) {
  CV_Assert(mask.type() == CV_8UC1);
  const int w = mask.cols, h = mask.rows;
  if (w == 0 || h == 0) return;
  // The zero pixels' runs, 4-connected (as fill_holes_labels' labelling); the components
  // with a run on the border stay 0, every other pixel becomes 255.
  static thread_local RunLabels r;
  find_runs(mask, true, 4, r);
  const int nr = static_cast<int>(r.root.size());
  std::vector<uchar> outside(static_cast<std::size_t>(nr), 0);
  for (int y = 0; y < h; ++y)
    for (int k = r.row_start[static_cast<std::size_t>(y)]; k < r.row_start[static_cast<std::size_t>(y) + 1]; ++k)
      if (y == 0 || y == h - 1 || r.runs[static_cast<std::size_t>(k)].x0 == 0 || r.runs[static_cast<std::size_t>(k)].x1 == w)
        outside[static_cast<std::size_t>(r.root[static_cast<std::size_t>(k)])] = 1;
  for (int y = 0; y < h; ++y) {
    uchar* m = mask.ptr<uchar>(y);
    std::memset(m, 255, static_cast<std::size_t>(w));
    for (int k = r.row_start[static_cast<std::size_t>(y)]; k < r.row_start[static_cast<std::size_t>(y) + 1]; ++k)
      if (outside[static_cast<std::size_t>(r.root[static_cast<std::size_t>(k)])])
        std::memset(m + r.runs[static_cast<std::size_t>(k)].x0, 0,
                    static_cast<std::size_t>(r.runs[static_cast<std::size_t>(k)].x1 - r.runs[static_cast<std::size_t>(k)].x0));
  }
}

void component_at(const cv::Mat& mask, cv::Point seed, cv::Mat& out) {
  CV_Assert(mask.type() == CV_8UC1);
  const int w = mask.cols, h = mask.rows;
  out.create(h, w, CV_8U);
  out.setTo(0);
  if (seed.x < 0 || seed.y < 0 || seed.x >= w || seed.y >= h || mask.at<uchar>(seed.y, seed.x) == 0) return;
  static thread_local RunLabels r;
  find_runs(mask, false, 8, r);
  int root = -1;
  for (int k = r.row_start[static_cast<std::size_t>(seed.y)]; k < r.row_start[static_cast<std::size_t>(seed.y) + 1]; ++k)
    if (r.runs[static_cast<std::size_t>(k)].x0 <= seed.x && seed.x < r.runs[static_cast<std::size_t>(k)].x1) root = r.root[static_cast<std::size_t>(k)];
  for (int y = 0; y < h; ++y) {
    uchar* o = out.ptr<uchar>(y);
    for (int k = r.row_start[static_cast<std::size_t>(y)]; k < r.row_start[static_cast<std::size_t>(y) + 1]; ++k)
      if (r.root[static_cast<std::size_t>(k)] == root)
        std::memset(o + r.runs[static_cast<std::size_t>(k)].x0, 255,
                    static_cast<std::size_t>(r.runs[static_cast<std::size_t>(k)].x1 - r.runs[static_cast<std::size_t>(k)].x0));
  }
}

void box_sum(const cv::Mat& src, int k, cv::Mat& dst) {
  CV_Assert(src.type() == CV_32FC1 && k >= 1);
  const int w = src.cols, h = src.rows, a = k / 2;
  // Separable window sums in double, zero outside (exact for such inputs, so the order of
  // the additions does not matter): each row's sums over [x - a, x - a + k), then each
  // column's of those.
  cv::Mat rows(h, w, CV_64F);
  for (int y = 0; y < h; ++y) {
    const float* s = src.ptr<float>(y);
    double* o = rows.ptr<double>(y);
    double acc = 0;
    for (int x = 0; x < std::min(w, k - a); ++x) acc += static_cast<double>(s[x]);  // window of x = 0
    for (int x = 0; x < w; ++x) {
      o[x] = acc;
      const int in = x - a + k, out = x - a;  // the window of x + 1 gains `in`, loses `out`
      if (in < w) acc += static_cast<double>(s[in]);
      if (out >= 0) acc -= static_cast<double>(s[out]);
    }
  }
  dst.create(src.size(), CV_32F);
  std::vector<double> acc(static_cast<std::size_t>(w), 0.0);
  for (int y = 0; y < std::min(h, k - a); ++y) {
    const double* r = rows.ptr<double>(y);
    for (int x = 0; x < w; ++x) acc[static_cast<std::size_t>(x)] += r[x];
  }
  for (int y = 0; y < h; ++y) {
    float* d = dst.ptr<float>(y);
    for (int x = 0; x < w; ++x) d[x] = static_cast<float>(acc[static_cast<std::size_t>(x)]);
    const int in = y - a + k, out = y - a;
    if (in < h) {
      const double* r = rows.ptr<double>(in);
      for (int x = 0; x < w; ++x) acc[static_cast<std::size_t>(x)] += r[x];
    }
    if (out >= 0) {
      const double* r = rows.ptr<double>(out);
      for (int x = 0; x < w; ++x) acc[static_cast<std::size_t>(x)] -= r[x];
    }
  }
}

namespace {
// (speed45) One step of box_sum_roi's column sums over n roi columns: d[i] = float(acc[i])
// when d is given, then acc[i] += in[i] when given, then acc[i] -= out[i] when given: per
// column the operations of the loops it replaces, in their order (box_sum_roi_ref).
void box_col_step(double* acc, const double* in, const double* out, float* d, int n) {
  for (int i = 0; i < n; ++i) {
    double v = acc[i];
    if (d) d[i] = static_cast<float>(v);
    if (in) v += in[i];
    if (out) v -= out[i];
    acc[i] = v;
  }
}
#if defined(HEXDICE_BILINEAR_AVX2)
bool use_avx2();
// The same, 4 columns a step (vcvtpd2ps rounds as cvtsd2ss, in the current mode; the adds
// and subtracts are each lane's own, no FMA), the last < 4 by box_col_step.
__attribute__((target("avx2"), noinline)) void box_col_step_avx2(double* acc, const double* in, const double* out, float* d,
                                                                 int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    __m256d v = _mm256_loadu_pd(acc + i);
    if (d) _mm_storeu_ps(d + i, _mm256_cvtpd_ps(v));
    if (in) v = _mm256_add_pd(v, _mm256_loadu_pd(in + i));
    if (out) v = _mm256_sub_pd(v, _mm256_loadu_pd(out + i));
    _mm256_storeu_pd(acc + i, v);
  }
  box_col_step(acc + i, in ? in + i : nullptr, out ? out + i : nullptr, d ? d + i : nullptr, n - i);
}
#endif
void box_col(double* acc, const double* in, const double* out, float* d, int n) {
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) {
    box_col_step_avx2(acc, in, out, d, n);
    return;
  }
#endif
  box_col_step(acc, in, out, d, n);
}
// (speed39) box_sum_roi's output: made src's size, zeros only outside the roi (every pixel
// inside it is written after); returns the roi cut to the image.
cv::Rect box_sum_roi_out(const cv::Mat& src, cv::Rect roi, cv::Mat& dst) {
  const int w = src.cols, h = src.rows;
  dst.create(src.size(), CV_32F);
  roi &= cv::Rect(0, 0, w, h);
  for (int y = 0; y < h; ++y) {
    float* d = dst.ptr<float>(y);
    if (roi.empty() || y < roi.y || y >= roi.y + roi.height) {
      std::fill(d, d + w, 0.0f);
    } else {
      std::fill(d, d + roi.x, 0.0f);
      std::fill(d + roi.x + roi.width, d + w, 0.0f);
    }
  }
  return roi;
}
}  // namespace

// (speed45) box_sum_roi_ref's sums in its order per pixel: each row's running sum with its
// two tests hoisted out of the loop (the columns where a pixel enters, where one leaves),
// the column sums 4 columns a step (box_col). MaskOps.BoxSumRoiIsTheRefOnAnyFloats.
void box_sum_roi(const cv::Mat& src, int k, cv::Rect roi, cv::Mat& dst) {
  CV_Assert(src.type() == CV_32FC1 && k >= 1);
  const int w = src.cols, h = src.rows, a = k / 2;
  roi = box_sum_roi_out(src, roi, dst);
  if (roi.empty()) return;
  const int y0 = std::max(0, roi.y - a), y1 = std::min(h, roi.y + roi.height - a + k - 1);
  const int W = roi.width;
  static thread_local std::vector<double> rows;
  rows.resize(static_cast<std::size_t>(std::max(0, y1 - y0)) * static_cast<std::size_t>(W));
  // Column i (x = roi.x + i) gains s[x - a + k] while that is < w, loses s[x - a] once that is >= 0.
  const int gain_end = std::clamp(w - roi.x + a - k, 0, W), lose_begin = std::clamp(a - roi.x, 0, W);
  const int m1 = std::min(gain_end, lose_begin), m2 = std::max(gain_end, lose_begin);
  for (int y = y0; y < y1; ++y) {
    const float* s = src.ptr<float>(y);
    double* o = rows.data() + static_cast<std::size_t>(y - y0) * static_cast<std::size_t>(W);
    double acc = 0;
    for (int x = std::max(0, roi.x - a); x < std::min(w, roi.x - a + k); ++x) acc += static_cast<double>(s[x]);
    const int gin = roi.x - a + k, gout = roi.x - a;  // s[gin + i] enters after column i, s[gout + i] leaves
    int i = 0;
    for (; i < m1; ++i) {
      o[i] = acc;
      acc += static_cast<double>(s[gin + i]);
    }
    if (gain_end > lose_begin) {
      for (; i < m2; ++i) {
        o[i] = acc;
        acc += static_cast<double>(s[gin + i]);
        acc -= static_cast<double>(s[gout + i]);
      }
    } else {
      for (; i < m2; ++i) o[i] = acc;
    }
    for (; i < W; ++i) {
      o[i] = acc;
      acc -= static_cast<double>(s[gout + i]);
    }
  }
  static thread_local std::vector<double> acc;
  acc.assign(static_cast<std::size_t>(W), 0.0);
  auto row = [&](int y) { return rows.data() + static_cast<std::size_t>(y - y0) * static_cast<std::size_t>(W); };
  for (int y = std::max(y0, roi.y - a); y < std::min(y1, roi.y - a + k); ++y) box_col(acc.data(), row(y), nullptr, nullptr, W);
  for (int y = roi.y; y < roi.y + roi.height; ++y) {
    const int in = y - a + k, out = y - a;
    box_col(acc.data(), in < y1 ? row(in) : nullptr, out >= y0 ? row(out) : nullptr, dst.ptr<float>(y) + roi.x, W);
  }
}

// The loops box_sum_roi replaces (speed45), for its test.
void box_sum_roi_ref(const cv::Mat& src, int k, cv::Rect roi, cv::Mat& dst) {
  CV_Assert(src.type() == CV_32FC1 && k >= 1);
  const int w = src.cols, h = src.rows, a = k / 2;
  roi = box_sum_roi_out(src, roi, dst);
  if (roi.empty()) return;
  // The rows some window of the roi takes in, each one's window sums at the roi's columns
  // (window of x: [x - a, x - a + k) within the image), then per roi column the sums of
  // those over [y - a, y - a + k): the same exact sums as box_sum.
  const int y0 = std::max(0, roi.y - a), y1 = std::min(h, roi.y + roi.height - a + k - 1);
  static thread_local std::vector<double> rows;
  // (speed39) Not zeroed first: every element is written below before it is read.
  rows.resize(static_cast<std::size_t>(std::max(0, y1 - y0)) * static_cast<std::size_t>(roi.width));
  for (int y = y0; y < y1; ++y) {
    const float* s = src.ptr<float>(y);
    double* o = rows.data() + static_cast<std::size_t>(y - y0) * static_cast<std::size_t>(roi.width);
    double acc = 0;
    for (int x = std::max(0, roi.x - a); x < std::min(w, roi.x - a + k); ++x) acc += static_cast<double>(s[x]);
    for (int i = 0; i < roi.width; ++i) {
      o[i] = acc;
      const int x = roi.x + i, in = x - a + k, out = x - a;
      if (in < w) acc += static_cast<double>(s[in]);
      if (out >= 0) acc -= static_cast<double>(s[out]);
    }
  }
  static thread_local std::vector<double> acc;
  acc.assign(static_cast<std::size_t>(roi.width), 0.0);
  auto row = [&](int y) { return rows.data() + static_cast<std::size_t>(y - y0) * static_cast<std::size_t>(roi.width); };
  for (int y = std::max(y0, roi.y - a); y < std::min(y1, roi.y - a + k); ++y) {
    const double* r = row(y);
    for (int i = 0; i < roi.width; ++i) acc[static_cast<std::size_t>(i)] += r[i];
  }
  for (int y = roi.y; y < roi.y + roi.height; ++y) {
    float* d = dst.ptr<float>(y) + roi.x;
    for (int i = 0; i < roi.width; ++i) d[i] = static_cast<float>(acc[static_cast<std::size_t>(i)]);
    const int in = y - a + k, out = y - a;
    if (in < y1) {
      const double* r = row(in);
      for (int i = 0; i < roi.width; ++i) acc[static_cast<std::size_t>(i)] += r[i];
    }
    if (out >= y0) {
      const double* r = row(out);
      for (int i = 0; i < roi.width; ++i) acc[static_cast<std::size_t>(i)] -= r[i];
    }
  }
}

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
// (speed31) warp_affine_nearest_window's row (a source under 32767 px a side) 8 pixels at a
// time: the same integer sums and shifts, the same unsigned bounds test (a lane inside both
// sides reads the source pixel, any other the border), the pixel gathered at row sy * (step /
// 4) + sx (the caller checks that every such index fits an int). Integers only: the same
// floats, bit for bit.
__attribute__((target("avx2"), noinline)) int warp_nearest_row_avx2(const float* base, int step4, const int* pa, const int* pb,
                                                                     int n, int X0, int Y0, int sw, int sh, float border,
                                                                     float* d) {
  const __m256i vx0 = _mm256_set1_epi32(X0), vy0 = _mm256_set1_epi32(Y0), vsw = _mm256_set1_epi32(sw),
                vsh = _mm256_set1_epi32(sh), vm1 = _mm256_set1_epi32(-1), vstep = _mm256_set1_epi32(step4);
  const __m256 vb = _mm256_set1_ps(border);
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i sx = _mm256_srai_epi32(_mm256_add_epi32(vx0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pa + i))), 10);
    const __m256i sy = _mm256_srai_epi32(_mm256_add_epi32(vy0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pb + i))), 10);
    // unsigned sx < sw (sw <= INT_MAX): 0 <= sx < sw.
    const __m256i in = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(sx, vm1), _mm256_cmpgt_epi32(vsw, sx)),
                                        _mm256_and_si256(_mm256_cmpgt_epi32(sy, vm1), _mm256_cmpgt_epi32(vsh, sy)));
    const __m256i idx = _mm256_add_epi32(_mm256_mullo_epi32(sy, vstep), sx);
    _mm256_storeu_ps(d + i, _mm256_mask_i32gather_ps(vb, base, idx, _mm256_castsi256_ps(in), 4));
  }
  return i;
}
}  // namespace
#endif

void warp_affine_nearest_window(const cv::Mat& src, const cv::Matx23d& m, cv::Size dsize, cv::Rect window, float border,
                                cv::Mat& dst) {
  CV_Assert(src.type() == CV_32FC1);
  dst.create(dsize, CV_32F);
  dst.setTo(border);
  window &= cv::Rect(0, 0, dsize.width, dsize.height);
  if (window.empty()) return;
  // cv::warpAffine's inversion of the matrix (no WARP_INVERSE_MAP), in its order.
  double M[6] = {m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2)};
  {
    double D = M[0] * M[4] - M[1] * M[3];
    D = D != 0 ? 1. / D : 0;
    const double A11 = M[4] * D, A22 = M[0] * D;
    M[0] = A11;
    M[1] *= -D;
    M[3] *= -D;
    M[4] = A22;
    const double b1 = -M[0] * M[2] - M[1] * M[5];
    const double b2 = -M[3] * M[2] - M[4] * M[5];
    M[2] = b1;
    M[5] = b2;
  }
  // hal::warpAffine: per dst column adelta = round(M0 x 2^10), bdelta = round(M3 x 2^10);
  // per dst row X0 = round((M1 y + M2) 2^10) + 2^9 (INTER_NEAREST's round_delta), Y0
  // likewise; the source pixel (X0 + adelta) >> 10, (Y0 + bdelta) >> 10, as a short; remap's
  // nearest lookup gives the border value outside the source.
  constexpr int kBits = 10, kScale = 1 << kBits, kRound = kScale / 2;
  static thread_local std::vector<int> ad, bd;
  ad.resize(static_cast<std::size_t>(window.width));
  bd.resize(static_cast<std::size_t>(window.width));
  for (int i = 0; i < window.width; ++i) {
    const int x = window.x + i;
    ad[static_cast<std::size_t>(i)] = cv::saturate_cast<int>(M[0] * x * kScale);
    bd[static_cast<std::size_t>(i)] = cv::saturate_cast<int>(M[3] * x * kScale);
  }
  const unsigned sw = static_cast<unsigned>(src.cols), sh = static_cast<unsigned>(src.rows);
  // The short that OpenCV stores a position in saturates; a source under 32767 px a side
  // is missed by a saturated position as by the unsaturated one, so it is not needed there.
  const bool small = src.cols < SHRT_MAX && src.rows < SHRT_MAX;
  const uchar* base = src.data;
  const std::size_t step = src.step;
  const int* pa = ad.data();
  const int* pb = bd.data();
#if defined(HEXDICE_BILINEAR_AVX2)
  // (speed31) The AVX2 row where every source index (row x step / 4 + column) fits an int.
  const bool row_avx2 = small && step % sizeof(float) == 0 &&
                        static_cast<double>(src.rows) * static_cast<double>(step / sizeof(float)) < static_cast<double>(INT_MAX) &&
                        use_avx2();
#endif
  for (int y = window.y; y < window.y + window.height; ++y) {
    const int X0 = cv::saturate_cast<int>((M[1] * y + M[2]) * kScale) + kRound;
    const int Y0 = cv::saturate_cast<int>((M[4] * y + M[5]) * kScale) + kRound;
    float* d = dst.ptr<float>(y) + window.x;
    if (small) {
      int i = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
      if (row_avx2)
        i = warp_nearest_row_avx2(reinterpret_cast<const float*>(base), static_cast<int>(step / sizeof(float)), pa, pb, window.width, X0,
                                  Y0, src.cols, src.rows, border, d);
#endif
      for (; i < window.width; ++i) {
        const unsigned sx = static_cast<unsigned>((X0 + pa[i]) >> kBits), sy = static_cast<unsigned>((Y0 + pb[i]) >> kBits);
        d[i] = sx < sw && sy < sh ? reinterpret_cast<const float*>(base + sy * step)[sx] : border;
      }
    } else {
      for (int i = 0; i < window.width; ++i) {
        const int sx = cv::saturate_cast<short>((X0 + pa[i]) >> kBits);
        const int sy = cv::saturate_cast<short>((Y0 + pb[i]) >> kBits);
        d[i] = static_cast<unsigned>(sx) < sw && static_cast<unsigned>(sy) < sh ? src.ptr<float>(sy)[sx] : border;
      }
    }
  }
}


namespace {

// One pixel of remap's bilinear interpolation of a CV_8UC3 source (all four taps inside):
// p points at the top-left tap, fx / fy the 1/32 px fractions. (sum of 32 x weights x taps
// + 2^14) >> 15 as (sum of weights x taps + 2^9) >> 10 (the weights are 32 x these).
#if defined(__SSE2__)
struct BilinearTabs {
  __m128i wx[32];  // [32 - fx] x 3, [fx] x 3, 0, 0 (16-bit)
  __m128i wy[32];  // (32 - fy, fy) x 4 (16-bit pairs for madd)
  __m128i wxb[32];  // (32 - fx, fx) x 8 (byte pairs for pmaddubsw)
  BilinearTabs() {
    for (int f = 0; f < 32; ++f) {
      wxb[f] = _mm_set1_epi16(static_cast<short>((f << 8) | (32 - f)));
      wx[f] = _mm_setr_epi16(static_cast<short>(32 - f), static_cast<short>(32 - f), static_cast<short>(32 - f),
                             static_cast<short>(f), static_cast<short>(f), static_cast<short>(f), 0, 0);
      wy[f] = _mm_set1_epi32((f << 16) | (32 - f));
    }
  }
};
const BilinearTabs& bilinear_tabs() {
  static const BilinearTabs t;
  return t;
}
inline std::uint32_t bilinear3(__m128i top, __m128i bot, int fx, int fy, const BilinearTabs& tb) {
  const __m128i z = _mm_setzero_si128();
  __m128i t = _mm_unpacklo_epi8(top, z);
  __m128i b = _mm_unpacklo_epi8(bot, z);
  t = _mm_mullo_epi16(t, tb.wx[fx]);
  b = _mm_mullo_epi16(b, tb.wx[fx]);
  t = _mm_add_epi16(t, _mm_srli_si128(t, 6));  // lanes 0-2: (32 - fx) p0 + fx p1 <= 8160
  b = _mm_add_epi16(b, _mm_srli_si128(b, 6));
  __m128i s = _mm_madd_epi16(_mm_unpacklo_epi16(t, b), tb.wy[fy]);
  s = _mm_srli_epi32(_mm_add_epi32(s, _mm_set1_epi32(512)), 10);
  s = _mm_packs_epi32(s, s);
  s = _mm_packus_epi16(s, s);
  return static_cast<std::uint32_t>(_mm_cvtsi128_si32(s));
}
// bilinear3 at n pixels whose four taps are all inside: source offsets ofs[i], fractions
// fxs[i], fys[i]; dst d (3 bytes a pixel). last_may_spill: the bytes after the last
// pixel may be written (they are the next pixel's, written later; the AVX2 steps write 2).
#if defined(HEXDICE_BILINEAR_AVX2)
// (Speed round 17) bilinear3_run's two-pixel step four pixels at a time in AVX2's two 128-bit
// lanes (pixels i, i + 2 in the low and high lane of the one register, i + 1, i + 3 of the
// other): every instruction of the SSE2 step works within a lane, so each lane computes what
// the SSE2 step computes for its two pixels, the same integers. Integer operations only (no
// float, so nothing for the compiler to fuse differently). Returns how many pixels it wrote,
// a multiple of 4, stopping where a pixel's taps near the image's last bytes or where
// pixel i + 3 may not spill its 4th byte (i + 3 >= n4); bilinear3_run does the rest.
// (Round 20) When no pixel of the run is near the image's last bytes (its largest offset is
// clear), the per-step test cannot stop it: the steps without the test (check = false).
// (Speed round 24) The same integers in fewer steps: per pixel its top and bottom rows' 8
// bytes in one 128-bit lane, `pshufb` puts each channel's two horizontal taps side by side
// (top c0, bottom c0, top c1, ...), `pmaddubsw` with the bytes (32 - fx, fx) gives
// (32 - fx) p0 + fx p1 per row and channel (unsigned pixels by signed weights of 0..32: at
// most 8160, no saturation), `pmaddwd` with (32 - fy, fy) the sum that the SSE2 step's
// madd gives. Each 256-bit register holds two pixels (i and i + 2, or i + 1 and i + 3), as
// before, so the packs leave pixel i's 3 bytes, a 0, pixel i + 1's 3 bytes, a 0 in the low
// lane; a `pshufb` drops the 0s and two 8-byte stores write the 12 bytes (the second store's
// last 2 bytes spill into pixel i + 4, which exists when i + 3 < n4 and is written later).
template <bool check>
__attribute__((target("avx2"), always_inline)) inline int bilinear3_steps_avx2(const uchar* S0, std::size_t sstep,
                                                                               const uchar* safe_end, const int* ofs, const int* fxs,
                                                                               const int* fys, int n4, uchar* d, const BilinearTabs& tb) {
  const __m256i half = _mm256_set1_epi32(512);
  // Lane bytes 0-7: the top row's 2 pixels (b g r b g r . .), 8-15 the bottom row's.
  const __m256i pairs = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 3, 8, 11, 1, 4, 9, 12, 2, 5, 10, 13, -1, -1, -1, -1));
  const __m256i compact = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 1, 2, 4, 5, 6, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
  int i = 0;
  for (; i + 3 < n4; i += 4, d += 12) {
    const uchar* p0 = S0 + ofs[i];
    const uchar* p1 = S0 + ofs[i + 1];
    const uchar* p2 = S0 + ofs[i + 2];
    const uchar* p3 = S0 + ofs[i + 3];
    if (check && (p0 + sstep > safe_end || p1 + sstep > safe_end || p2 + sstep > safe_end || p3 + sstep > safe_end)) break;
    auto rows = [sstep](const uchar* p) {
      return _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))),
                                           reinterpret_cast<const double*>(p + sstep)));
    };
    const __m256i q02 = _mm256_inserti128_si256(_mm256_castsi128_si256(rows(p0)), rows(p2), 1);
    const __m256i q13 = _mm256_inserti128_si256(_mm256_castsi128_si256(rows(p1)), rows(p3), 1);
    const __m256i wx02 = _mm256_inserti128_si256(_mm256_castsi128_si256(tb.wxb[fxs[i]]), tb.wxb[fxs[i + 2]], 1);
    const __m256i wx13 = _mm256_inserti128_si256(_mm256_castsi128_si256(tb.wxb[fxs[i + 1]]), tb.wxb[fxs[i + 3]], 1);
    const __m256i wy02 = _mm256_inserti128_si256(_mm256_castsi128_si256(tb.wy[fys[i]]), tb.wy[fys[i + 2]], 1);
    const __m256i wy13 = _mm256_inserti128_si256(_mm256_castsi128_si256(tb.wy[fys[i + 1]]), tb.wy[fys[i + 3]], 1);
    const __m256i h02 = _mm256_maddubs_epi16(_mm256_shuffle_epi8(q02, pairs), wx02);  // top c0, bottom c0, top c1, ...
    const __m256i h13 = _mm256_maddubs_epi16(_mm256_shuffle_epi8(q13, pairs), wx13);
    const __m256i s0 = _mm256_srli_epi32(_mm256_add_epi32(_mm256_madd_epi16(h02, wy02), half), 10);
    const __m256i s1 = _mm256_srli_epi32(_mm256_add_epi32(_mm256_madd_epi16(h13, wy13), half), 10);
    __m256i s = _mm256_packs_epi32(s0, s1);
    s = _mm256_shuffle_epi8(_mm256_packus_epi16(s, s), compact);  // low lane: pixels i, i + 1; high: i + 2, i + 3
    _mm_storel_epi64(reinterpret_cast<__m128i*>(d), _mm256_castsi256_si128(s));  // bytes 6, 7: overwritten next
    _mm_storel_epi64(reinterpret_cast<__m128i*>(d + 6), _mm256_extracti128_si256(s, 1));  // i + 3 < n4: 2 bytes spill
  }
  return i;
}
__attribute__((target("avx2"), noinline)) int bilinear3_run_avx2(const uchar* S0, std::size_t sstep, const uchar* safe_end,
                                                                 const int* ofs, const int* fxs, const int* fys, int n4,
                                                                 uchar* d, const BilinearTabs& tb) {
  const int n = n4 / 4 * 4;  // the pixels the steps can do
  __m256i mx = _mm256_set1_epi32(INT_MIN);
  int i = 0;
  for (; i + 8 <= n; i += 8) mx = _mm256_max_epi32(mx, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ofs + i)));
  alignas(32) int m8[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(m8), mx);
  int top = INT_MIN;
  for (int k = 0; k < 8; ++k) top = std::max(top, m8[k]);
  for (; i < n; ++i) top = std::max(top, ofs[i]);
  if (n > 0 && S0 + top + sstep <= safe_end)
    return bilinear3_steps_avx2<false>(S0, sstep, safe_end, ofs, fxs, fys, n4, d, tb);
  return bilinear3_steps_avx2<true>(S0, sstep, safe_end, ofs, fxs, fys, n4, d, tb);
}
bool use_avx2() {
  static const bool on = [] {
    if (simd_steps_off()) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return on;
}
// (Speed round 17) warp_perspective_linear's positions of one block (pixels xb + i, i = 0..bw
// rounded up to 4) 4 at a time in AVX2 doubles: per lane the SSE2 step's operations in its
// order (W = m20 i + W0, W ? 32 / W : 0, X = (X0 + m00 i) W, Y likewise, clamped to int,
// converted in the current rounding mode), the same doubles and ints; no FMA is enabled here,
// so no multiply and add are fused. Into xr, yr; returns whether a position was NaN.
// (speed36) From pixel i0 on (i = i0, i0 + 1, ...: each position is a function of its own i
// as a double, so the same values whatever i0 is).
__attribute__((target("avx2"), noinline)) bool warp_positions_avx2(double X0, double Y0, double W0, double m00, double m10,
                                                                   double m20, int i0, int bw, int* xr, int* yr) {
  const __m256d v_M0 = _mm256_set1_pd(m00), v_M3 = _mm256_set1_pd(m10), v_M6 = _mm256_set1_pd(m20);
  const __m256d v_X0 = _mm256_set1_pd(X0), v_Y0 = _mm256_set1_pd(Y0), v_W0 = _mm256_set1_pd(W0);
  const __m256d v_intmax = _mm256_set1_pd(static_cast<double>(INT_MAX)), v_intmin = _mm256_set1_pd(static_cast<double>(INT_MIN));
  const __m256d v_zero = _mm256_setzero_pd(), v_its = _mm256_set1_pd(32.0), v_4 = _mm256_set1_pd(4.0);
  __m256d v_x1 = _mm256_set_pd(i0 + 3, i0 + 2, i0 + 1, i0), nan_seen = v_zero;
  for (int i = i0; i < bw; i += 4) {
    __m256d w = _mm256_add_pd(_mm256_mul_pd(v_M6, v_x1), v_W0);
    w = _mm256_andnot_pd(_mm256_cmp_pd(w, v_zero, _CMP_EQ_OQ), _mm256_div_pd(v_its, w));
    const __m256d fx = _mm256_mul_pd(_mm256_add_pd(v_X0, _mm256_mul_pd(v_M0, v_x1)), w);
    const __m256d fy = _mm256_mul_pd(_mm256_add_pd(v_Y0, _mm256_mul_pd(v_M3, v_x1)), w);
    nan_seen = _mm256_or_pd(nan_seen, _mm256_cmp_pd(fx, fy, _CMP_UNORD_Q));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(xr + i), _mm256_cvtpd_epi32(_mm256_max_pd(v_intmin, _mm256_min_pd(v_intmax, fx))));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(yr + i), _mm256_cvtpd_epi32(_mm256_max_pd(v_intmin, _mm256_min_pd(v_intmax, fy))));
    v_x1 = _mm256_add_pd(v_x1, v_4);
  }
  return _mm256_movemask_pd(nan_seen) != 0;
}
// (Round 20) The SSE2 block loop's steps after the positions, 8 pixels at a time: each of
// AVX2's 128-bit lanes does for its 4 pixels what the SSE2 step does for 4 (packs, compares,
// unpacks, the byte shift and madd all work within a lane), so the same fractions, offsets
// and inside flags. Reads xr, yr and writes fxs, fys, ofs up to bw rounded up to 8 (the
// lanes past bw are left out of the flag). Returns whether every pixel below bw is inside.
__attribute__((target("avx2"), noinline)) bool warp_block_avx2(const int* xr, const int* yr, int bw, int* fxs, int* fys,
                                                               int* ofs, __m128i wh1, __m128i ofsk) {
  const __m256i v_31 = _mm256_set1_epi32(31), v_m1 = _mm256_set1_epi16(-1);
  const __m256i v_wh1 = _mm256_broadcastsi128_si256(wh1), v_ofsk = _mm256_broadcastsi128_si256(ofsk);
  // (Speed round 27) The inside flags of the full steps ANDed in a register, the last step's
  // lanes below bw tested alone (the same answer as testing every step's lanes below bw).
  __m256i in_all = _mm256_set1_epi32(-1);
  bool last_in = true;
  for (int i = 0; i < bw; i += 8) {
    const __m256i X = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr + i));
    const __m256i Y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(yr + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(fxs + i), _mm256_and_si256(X, v_31));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(fys + i), _mm256_and_si256(Y, v_31));
    const __m256i sxy16 = _mm256_packs_epi32(_mm256_srai_epi32(X, 5), _mm256_srai_epi32(Y, 5));
    const __m256i in16 = _mm256_and_si256(_mm256_cmpgt_epi16(sxy16, v_m1), _mm256_cmpgt_epi16(v_wh1, sxy16));
    const __m256i in32 = _mm256_and_si256(_mm256_unpacklo_epi16(in16, in16), _mm256_unpackhi_epi16(in16, in16));
    if (bw - i >= 8) {
      in_all = _mm256_and_si256(in_all, in32);
    } else {
      const unsigned valid = (1u << (bw - i)) - 1u;
      last_in = (static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(in32))) & valid) == valid;
    }
    const __m256i pairs = _mm256_unpacklo_epi16(sxy16, _mm256_srli_si256(sxy16, 8));  // per lane: sx0 sy0 sx1 sy1 ...
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(ofs + i), _mm256_madd_epi16(pairs, v_ofsk));
  }
  return last_in && _mm256_movemask_ps(_mm256_castsi256_ps(in_all)) == 0xFF;
}
#endif

// The SSE2 block steps after the positions (warp_block_avx2's twin, 4 pixels at a time): the
// 1/32 px fractions, (X >> 5, Y >> 5) saturated to shorts, inside where 0 <= sx < width1 and
// 0 <= sy < height1 (16-bit compares; the sizes are under 2^15 here or the offsets are not by
// madd and every pixel takes the per-pixel path), the offsets by madd. Reads xr, yr and writes
// fxs, fys, ofs up to bw rounded up to 4 (the lanes past bw are left out of the flag). Returns
// whether every pixel below bw is inside.
bool warp_block_sse2(const int* xr, const int* yr, int bw, int* fxs, int* fys, int* ofs, __m128i wh1, __m128i ofsk) {
  const __m128i v_31 = _mm_set1_epi32(31), v_m1 = _mm_set1_epi16(-1);
  unsigned all_in = 0xF;
  for (int i = 0; i < bw; i += 4) {
    const __m128i X = _mm_loadu_si128(reinterpret_cast<const __m128i*>(xr + i));
    const __m128i Y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(yr + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(fxs + i), _mm_and_si128(X, v_31));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(fys + i), _mm_and_si128(Y, v_31));
    const __m128i sxy16 = _mm_packs_epi32(_mm_srai_epi32(X, 5), _mm_srai_epi32(Y, 5));  // [sx0..3, sy0..3]
    const __m128i in16 = _mm_and_si128(_mm_cmpgt_epi16(sxy16, v_m1), _mm_cmpgt_epi16(wh1, sxy16));
    const __m128i in32 = _mm_and_si128(_mm_unpacklo_epi16(in16, in16), _mm_unpackhi_epi16(in16, in16));
    all_in &= static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(in32))) | (i + 4 > bw ? 0xFu << (bw - i) : 0u);
    const __m128i pairs = _mm_unpacklo_epi16(sxy16, _mm_srli_si128(sxy16, 8));  // sx0 sy0 sx1 sy1 ...
    _mm_storeu_si128(reinterpret_cast<__m128i*>(ofs + i), _mm_madd_epi16(pairs, ofsk));
  }
  return (all_in & 0xF) == 0xF;
}

__attribute__((noinline)) void bilinear3_run(const uchar* S0, std::size_t sstep, const uchar* safe_end, const int* ofs,
                                             const int* fxs, const int* fys, int n, uchar* d, bool last_may_spill) {
  const BilinearTabs& tb = bilinear_tabs();
  const int n4 = last_may_spill ? n : n - 1;
  int i = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2() && n4 >= 4) {
    i = bilinear3_run_avx2(S0, sstep, safe_end, ofs, fxs, fys, n4, d, tb);
    d += 3 * i;
  }
#endif
  // Two pixels a step where both are clear of the image's last bytes: their rows' taps in one
  // register each, the two sums packed together (the same integers as bilinear3).
  const __m128i z = _mm_setzero_si128(), half = _mm_set1_epi32(512);
  for (; i + 1 < n4; i += 2, d += 6) {
    const uchar* p0 = S0 + ofs[i];
    const uchar* p1 = S0 + ofs[i + 1];
    if (p0 + sstep > safe_end || p1 + sstep > safe_end) break;
    const __m128i T = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p0)),
                                         _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p1)));
    const __m128i B = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p0 + sstep)),
                                         _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p1 + sstep)));
    const __m128i wx0 = tb.wx[fxs[i]], wx1 = tb.wx[fxs[i + 1]];
    __m128i t0 = _mm_mullo_epi16(_mm_unpacklo_epi8(T, z), wx0), t1 = _mm_mullo_epi16(_mm_unpackhi_epi8(T, z), wx1);
    __m128i b0 = _mm_mullo_epi16(_mm_unpacklo_epi8(B, z), wx0), b1 = _mm_mullo_epi16(_mm_unpackhi_epi8(B, z), wx1);
    t0 = _mm_add_epi16(t0, _mm_srli_si128(t0, 6));
    t1 = _mm_add_epi16(t1, _mm_srli_si128(t1, 6));
    b0 = _mm_add_epi16(b0, _mm_srli_si128(b0, 6));
    b1 = _mm_add_epi16(b1, _mm_srli_si128(b1, 6));
    __m128i s0 = _mm_madd_epi16(_mm_unpacklo_epi16(t0, b0), tb.wy[fys[i]]);
    __m128i s1 = _mm_madd_epi16(_mm_unpacklo_epi16(t1, b1), tb.wy[fys[i + 1]]);
    s0 = _mm_srli_epi32(_mm_add_epi32(s0, half), 10);
    s1 = _mm_srli_epi32(_mm_add_epi32(s1, half), 10);
    __m128i s = _mm_packs_epi32(s0, s1);
    s = _mm_packus_epi16(s, s);  // bytes: pixel i's 3 + 1, pixel i + 1's 3 + 1
    const std::uint32_t v0 = static_cast<std::uint32_t>(_mm_cvtsi128_si32(s));
    const std::uint32_t v1 = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(s, 4)));
    std::memcpy(d, &v0, 4);      // its 4th byte: the next pixel's, written next
    std::memcpy(d + 3, &v1, 4);  // i + 1 < n4: its 4th byte may be written too
  }
  for (; i < n; ++i, d += 3) {
    const uchar* p = S0 + ofs[i];
    __m128i top, bot;
    if (p + sstep <= safe_end) {
      top = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
      bot = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + sstep));
    } else {  // the last bytes of the image: 6 bytes, not 8
      alignas(16) uchar buf[2][16] = {};
      std::memcpy(buf[0], p, 6);
      std::memcpy(buf[1], p + sstep, 6);
      top = _mm_load_si128(reinterpret_cast<const __m128i*>(buf[0]));
      bot = _mm_load_si128(reinterpret_cast<const __m128i*>(buf[1]));
    }
    const std::uint32_t v = bilinear3(top, bot, fxs[i], fys[i], tb);
    if (i < n4) std::memcpy(d, &v, 4);  // the next pixel overwrites the 4th byte
    else std::memcpy(d, &v, 3);
  }
}

// (Speed round 24) remapBilinear's steps for CV_8UC3 after the positions, shared by
// warp_perspective_linear and remap_linear_8uc3: the source, its border and sizes.
struct RemapSrc8u3 {
  const uchar* S0;
  std::size_t sstep;
  const uchar* safe_end;  // an 8-byte load from here or before stays inside
  int sw, sh;
  unsigned width1, height1;
  bool replicate, madd_ofs;
  uchar cval[3];
};
RemapSrc8u3 remap_src_8uc3(const cv::Mat& src, int border, const cv::Scalar& value) {
  RemapSrc8u3 r;
  r.S0 = src.data;
  r.sstep = src.step;
  r.safe_end = src.datalimit - 8;
  r.sw = src.cols, r.sh = src.rows;
  r.width1 = static_cast<unsigned>(std::max(r.sw - 1, 0)), r.height1 = static_cast<unsigned>(std::max(r.sh - 1, 0));
  r.replicate = border == cv::BORDER_REPLICATE;
  r.madd_ofs = r.sstep < 0x8000;
  for (int k = 0; k < 3; ++k) r.cval[k] = cv::saturate_cast<uchar>(value[k]);
  return r;
}
// bw dst pixels from d on, their positions xr, yr in 1/32 px, fractions fxs, fys, source
// offsets ofs (valid where inside); all_in: every one of them inside; more_after: the row
// has another pixel after them (written later).
void remap_block_8uc3(const RemapSrc8u3& r, const int* xr, const int* yr, const int* fxs, const int* fys, const int* ofs, int bw,
                      bool all_in, uchar* d, bool more_after) {
  const uchar* S0 = r.S0;
  const std::size_t sstep = r.sstep;
  const int sw = r.sw, sh = r.sh;
  if (all_in && r.madd_ofs) {  // the whole block inside (most blocks)
    bilinear3_run(S0, sstep, r.safe_end, ofs, fxs, fys, bw, d, more_after);
    return;
  }
  for (int i = 0; i < bw; ++i, d += 3) {
    const int fxi = fxs[i], fyi = fys[i];
    const int sx = cv::saturate_cast<short>(xr[i] >> 5), sy = cv::saturate_cast<short>(yr[i] >> 5);
    if (r.madd_ofs && static_cast<unsigned>(sx) < r.width1 && static_cast<unsigned>(sy) < r.height1) {
      bilinear3_run(S0, sstep, r.safe_end, ofs + i, fxs + i, fys + i, 1, d, i + 1 < bw || more_after);
      continue;
    }
    // remapBilinear's border path.
    const int w00 = (32 - fxi) * (32 - fyi), w01 = fxi * (32 - fyi), w10 = (32 - fxi) * fyi, w11 = fxi * fyi;
    if (r.replicate) {
      const int x0 = sx >= 0 ? (sx < sw ? sx : sw - 1) : 0, x1 = sx + 1 >= 0 ? (sx + 1 < sw ? sx + 1 : sw - 1) : 0;
      const int y0 = sy >= 0 ? (sy < sh ? sy : sh - 1) : 0, y1 = sy + 1 >= 0 ? (sy + 1 < sh ? sy + 1 : sh - 1) : 0;
      const uchar* a = S0 + static_cast<std::size_t>(y0) * sstep + static_cast<std::size_t>(x0) * 3;
      const uchar* b = S0 + static_cast<std::size_t>(y0) * sstep + static_cast<std::size_t>(x1) * 3;
      const uchar* c = S0 + static_cast<std::size_t>(y1) * sstep + static_cast<std::size_t>(x0) * 3;
      const uchar* e = S0 + static_cast<std::size_t>(y1) * sstep + static_cast<std::size_t>(x1) * 3;
      for (int k = 0; k < 3; ++k) d[k] = static_cast<uchar>((w00 * a[k] + w01 * b[k] + w10 * c[k] + w11 * e[k] + 512) >> 10);
    } else if (sx >= sw || sx + 1 < 0 || sy >= sh || sy + 1 < 0) {
      d[0] = r.cval[0], d[1] = r.cval[1], d[2] = r.cval[2];
    } else {
      auto tap = [&](int tx, int ty, int k) -> int {
        return tx >= 0 && tx < sw && ty >= 0 && ty < sh ? S0[static_cast<std::size_t>(ty) * sstep + static_cast<std::size_t>(tx) * 3 + k]
                                                         : r.cval[k];
      };
      for (int k = 0; k < 3; ++k)
        d[k] = static_cast<uchar>((w00 * tap(sx, sy, k) + w01 * tap(sx + 1, sy, k) + w10 * tap(sx, sy + 1, k) +
                                   w11 * tap(sx + 1, sy + 1, k) + 512) >> 10);
    }
  }
}
#endif

}  // namespace

namespace {
// warp_perspective_linear's steps, of whole rows (kSpans false: the spans are not read) or of
// the spans' pixels (warp_perspective_linear_spans).
template <bool kSpans>
void warp_linear_rows(const cv::Mat& src, cv::Mat& dst, const cv::Matx33d& m, cv::Size dsize, int border, const int* span_x0,
                      const int* span_x1, const cv::Scalar& value) {
  auto opencv = [&] {
    cv::warpPerspective(src, dst, cv::Mat(m), dsize, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, border, value);
  };
#if !defined(__SSE2__)
  opencv();
  return;
#else
  if (src.type() != CV_8UC3 || (border != cv::BORDER_REPLICATE && border != cv::BORDER_CONSTANT) || dsize.width <= 0 ||
      dsize.height <= 0 || src.empty()) {
    opencv();
    return;
  }
  // Into dst unless it shares memory with src (then into a new image).
  const bool shares = !dst.empty() && dst.datastart < src.datalimit && src.datastart < dst.datalimit;
  cv::Mat out = shares ? cv::Mat() : dst;
  out.create(dsize, CV_8UC3);
  const double M[9] = {m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2), m(2, 0), m(2, 1), m(2, 2)};
  const int width = dsize.width, height = dsize.height;
  const int bw0 = std::min(1024 / std::min(16, height), width);  // OpenCV's block width
  const int sw = src.cols, sh = src.rows;
  const unsigned width1 = static_cast<unsigned>(std::max(sw - 1, 0)), height1 = static_cast<unsigned>(std::max(sh - 1, 0));
  const std::size_t sstep = src.step;
  // Per block: each pixel's source offset (sx 3 + sy step, by madd of the 16-bit pair as
  // OpenCV's vector remap does: only for a step under 2^15), position and fractions.
  const RemapSrc8u3 rs = remap_src_8uc3(src, border, value);
  // (Speed round 27) For the whole row: each block's positions are OpenCV's (from the block's
  // own X0, Y0, W0), but the blocks wholly inside are sampled by one bilinear3_run per run of
  // them (the same bytes: each pixel's sum is its own, written left to right), not one call
  // and one ragged tail a block.
  static thread_local std::vector<int> buf_v;
  const std::size_t nb = static_cast<std::size_t>(width) + 8;  // (room for warp_block_avx2's last 8)
  buf_v.resize(5 * nb);
  int* const ofs_row = buf_v.data();  // source offsets (inside pixels)
  int* const xr_row = ofs_row + nb;   // X, Y: the positions in 1/32 px
  int* const yr_row = xr_row + nb;
  int* const fxs_row = yr_row + nb;   // X & 31, Y & 31
  int* const fys_row = fxs_row + nb;
  const __m128d v_M0 = _mm_set1_pd(M[0]), v_M3 = _mm_set1_pd(M[3]), v_M6 = _mm_set1_pd(M[6]);
  const __m128d v_intmax = _mm_set1_pd(static_cast<double>(INT_MAX)), v_intmin = _mm_set1_pd(static_cast<double>(INT_MIN));
  const __m128d v_zero = _mm_setzero_pd(), v_its = _mm_set1_pd(32.0), v_2 = _mm_set1_pd(2.0);
  const __m128i v_wh1 = _mm_unpacklo_epi64(_mm_set1_epi16(static_cast<short>(std::min<unsigned>(width1, 32767))),
                                           _mm_set1_epi16(static_cast<short>(std::min<unsigned>(height1, 32767))));
  const __m128i v_ofsk = _mm_set1_epi32(static_cast<int>((static_cast<unsigned>(sstep) << 16) | 3u));
  __m128d nan_seen = _mm_setzero_pd();
#if defined(HEXDICE_BILINEAR_AVX2)
  const bool avx2 = use_avx2();
#else
  const bool avx2 = false;
#endif
  bool nan_avx2 = false;
  for (int y = 0; y < height; ++y) {
    uchar* D = out.ptr<uchar>(y);
    // (speed36) The row's pixels [a, b) only: each block's positions from its own X0, Y0, W0 as
    // before, computed and sampled from the span's first pixel in it to its last.
    const int a = kSpans && span_x0 ? std::max(0, span_x0[y]) : 0, b = kSpans && span_x1 ? std::min(width, span_x1[y]) : width;
    if (a >= b) continue;
    int run0 = -1;  // the first pixel of the blocks inside not yet sampled
    for (int xb = kSpans ? a / bw0 * bw0 : 0; xb < b; xb += bw0) {
      const int lo = kSpans ? std::max(a, xb) : xb, hi = std::min(b, xb + bw0);  // the block's pixels sampled
      const int i0 = lo - xb, bw = hi - xb;  // positions i0 .. bw - 1 of the block
      int* const xr = xr_row + lo;  // (from the first pixel sampled)
      int* const yr = yr_row + lo;
      int* const fxs = fxs_row + lo;
      int* const fys = fys_row + lo;
      int* const ofs = ofs_row + lo;
      const double X0 = M[0] * xb + M[1] * y + M[2];
      const double Y0 = M[3] * xb + M[4] * y + M[5];
      const double W0 = M[6] * xb + M[7] * y + M[8];
      const __m128d v_X0 = _mm_set1_pd(X0), v_Y0 = _mm_set1_pd(Y0), v_W0 = _mm_set1_pd(W0);
      __m128d v_x1 = _mm_set_pd(i0 + 1, i0);
      unsigned all_in = 0xF;
#if defined(HEXDICE_BILINEAR_AVX2)
      if (avx2) {
        nan_avx2 |= warp_positions_avx2(X0, Y0, W0, M[0], M[3], M[6], i0, bw, xr_row + xb, yr_row + xb);
        all_in = warp_block_avx2(xr, yr, hi - lo, fxs, fys, ofs, v_wh1, v_ofsk) ? 0xF : 0;
      }
#endif
      for (int i = i0; i < bw && !avx2; i += 4) {
        // Two pixels' positions (OpenCV's operations): [X, X] and [Y, Y] as ints.
        auto two = [&](__m128i& xo, __m128i& yo) {
          __m128d w = _mm_add_pd(_mm_mul_pd(v_M6, v_x1), v_W0);
          w = _mm_andnot_pd(_mm_cmpeq_pd(w, v_zero), _mm_div_pd(v_its, w));
          const __m128d fx = _mm_mul_pd(_mm_add_pd(v_X0, _mm_mul_pd(v_M0, v_x1)), w);
          const __m128d fy = _mm_mul_pd(_mm_add_pd(v_Y0, _mm_mul_pd(v_M3, v_x1)), w);
          nan_seen = _mm_or_pd(nan_seen, _mm_cmpunord_pd(fx, fy));
          xo = _mm_cvtpd_epi32(_mm_max_pd(v_intmin, _mm_min_pd(v_intmax, fx)));
          yo = _mm_cvtpd_epi32(_mm_max_pd(v_intmin, _mm_min_pd(v_intmax, fy)));
          v_x1 = _mm_add_pd(v_x1, v_2);
        };
        __m128i xa, ya, xb2, yb2;
        two(xa, ya);
        two(xb2, yb2);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(xr + (i - i0)), _mm_unpacklo_epi64(xa, xb2));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(yr + (i - i0)), _mm_unpacklo_epi64(ya, yb2));
      }
      if (!avx2) all_in = warp_block_sse2(xr, yr, hi - lo, fxs, fys, ofs, v_wh1, v_ofsk) ? 0xF : 0;
      if ((all_in & 0xF) == 0xF && rs.madd_ofs) {  // (remap_block_8uc3's fast case) sampled with the run
        if (run0 < 0) run0 = lo;
        continue;
      }
      if (run0 >= 0) {
        bilinear3_run(rs.S0, rs.sstep, rs.safe_end, ofs_row + run0, fxs_row + run0, fys_row + run0, lo - run0, D + run0 * 3, true);
        run0 = -1;
      }
      remap_block_8uc3(rs, xr, yr, fxs, fys, ofs, hi - lo, false, D + lo * 3, hi < width);
    }
    // (A span ending before the row's end may write the next pixel's first bytes: outside it.)
    if (run0 >= 0)
      bilinear3_run(rs.S0, rs.sstep, rs.safe_end, ofs_row + run0, fxs_row + run0, fys_row + run0, b - run0, D + run0 * 3, b < width);
  }
  if (_mm_movemask_pd(nan_seen) != 0 || nan_avx2) {
    opencv();
    return;
  }
  dst = out;
#endif
}
}  // namespace

void warp_perspective_linear(const cv::Mat& src, cv::Mat& dst, const cv::Matx33d& m, cv::Size dsize, int border,
                             const cv::Scalar& value) {
  warp_linear_rows<false>(src, dst, m, dsize, border, nullptr, nullptr, value);
}

void warp_perspective_linear_spans(const cv::Mat& src, cv::Mat& dst, const cv::Matx33d& m, cv::Size dsize, int border,
                                   const int* span_x0, const int* span_x1, const cv::Scalar& value) {
  warp_linear_rows<true>(src, dst, m, dsize, border, span_x0, span_x1, value);
}

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
// (Speed round 24) remap's positions from float maps, 8 at a time: round(m 32) as
// _mm256_cvtps_epi32 (the current rounding mode, INT_MIN for NaN or out of range), as
// OpenCV's v_round(v_scale * v_load(m)) and cvRound(m * 32) give them.
__attribute__((target("avx2"), noinline)) void remap_positions_avx2(const float* mx, const float* my, int n, int* xr, int* yr) {
  const __m256 s = _mm256_set1_ps(32.0f);
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(xr + i), _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(mx + i), s)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(yr + i), _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(my + i), s)));
  }
  for (; i < n; ++i) {
    xr[i] = _mm_cvtss_si32(_mm_set_ss(mx[i] * 32.0f));
    yr[i] = _mm_cvtss_si32(_mm_set_ss(my[i] * 32.0f));
  }
}
}  // namespace
#endif

void remap_linear_8uc3(const cv::Mat& src, cv::Mat& dst, const cv::Mat& mapx, const cv::Mat& mapy, int border, const cv::Scalar& value) {
  auto opencv = [&] { cv::remap(src, dst, mapx, mapy, cv::INTER_LINEAR, border, value); };
#if !defined(__SSE2__)
  opencv();
  return;
#else
  if (src.type() != CV_8UC3 || src.empty() || (border != cv::BORDER_REPLICATE && border != cv::BORDER_CONSTANT) ||
      mapx.type() != CV_32FC1 || mapy.type() != CV_32FC1 || mapx.size() != mapy.size() || mapx.empty()) {
    opencv();
    return;
  }
  const bool shares = !dst.empty() && dst.datastart < src.datalimit && src.datastart < dst.datalimit;
  cv::Mat out = shares ? cv::Mat() : dst;
  out.create(mapx.size(), CV_8UC3);
  const int width = mapx.cols, height = mapx.rows;
  const RemapSrc8u3 rs = remap_src_8uc3(src, border, value);
  const std::size_t sstep = src.step;
  const __m128i v_wh1 = _mm_unpacklo_epi64(_mm_set1_epi16(static_cast<short>(std::min<unsigned>(rs.width1, 32767))),
                                           _mm_set1_epi16(static_cast<short>(std::min<unsigned>(rs.height1, 32767))));
  const __m128i v_ofsk = _mm_set1_epi32(static_cast<int>((static_cast<unsigned>(sstep) << 16) | 3u));
#if defined(HEXDICE_BILINEAR_AVX2)
  const bool avx2 = use_avx2();
#else
  const bool avx2 = false;
#endif
  const int bw0 = std::min(width, 1024);
  static thread_local std::vector<int> buf_v;
  const std::size_t nb = static_cast<std::size_t>(bw0) + 8;  // (room for the last 8 of a block)
  buf_v.assign(5 * nb, 0);
  int* ofs = buf_v.data();
  int* xr = ofs + nb;
  int* yr = xr + nb;
  int* fxs = yr + nb;
  int* fys = fxs + nb;
  for (int y = 0; y < height; ++y) {
    uchar* D = out.ptr<uchar>(y);
    const float* MX = mapx.ptr<float>(y);
    const float* MY = mapy.ptr<float>(y);
    for (int xb = 0; xb < width; xb += bw0) {
      const int bw = std::min(bw0, width - xb);
      bool all_in = true;
#if defined(HEXDICE_BILINEAR_AVX2)
      if (avx2) {
        remap_positions_avx2(MX + xb, MY + xb, bw, xr, yr);
        all_in = warp_block_avx2(xr, yr, bw, fxs, fys, ofs, v_wh1, v_ofsk);
      }
#endif
      if (!avx2) {
        int i = 0;
        const __m128 s = _mm_set1_ps(32.0f);
        for (; i + 4 <= bw; i += 4) {
          _mm_storeu_si128(reinterpret_cast<__m128i*>(xr + i), _mm_cvtps_epi32(_mm_mul_ps(_mm_loadu_ps(MX + xb + i), s)));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(yr + i), _mm_cvtps_epi32(_mm_mul_ps(_mm_loadu_ps(MY + xb + i), s)));
        }
        for (; i < bw; ++i) {
          xr[i] = _mm_cvtss_si32(_mm_set_ss(MX[xb + i] * 32.0f));
          yr[i] = _mm_cvtss_si32(_mm_set_ss(MY[xb + i] * 32.0f));
        }
        all_in = warp_block_sse2(xr, yr, bw, fxs, fys, ofs, v_wh1, v_ofsk);  // (as warp_perspective_linear's)
      }
      remap_block_8uc3(rs, xr, yr, fxs, fys, ofs, bw, all_in, D + xb * 3, xb + bw < width);
    }
  }
  dst = out;
#endif
}

namespace {
void homography_row_scalar(const cv::Matx33d& h, int u0, int ustep, double v, int n, float* px, float* py) {
  for (int i = 0; i < n; ++i) {
    const double u = u0 + i * ustep;
    const double w = 1.0 / (h(2, 0) * u + h(2, 1) * v + h(2, 2));
    px[i] = static_cast<float>((h(0, 0) * u + h(0, 1) * v + h(0, 2)) * w);
    py[i] = static_cast<float>((h(1, 0) * u + h(1, 1) * v + h(1, 2)) * w);
  }
}
#if defined(HEXDICE_BILINEAR_AVX2)
// 4 at a time in AVX doubles: per lane the scalar loop's operations in its order (products,
// then the sums left to right, the division, the product, the conversion to float in the
// current rounding mode); no FMA is enabled here, so nothing is fused.
__attribute__((target("avx2"), noinline)) void homography_row_avx2(const cv::Matx33d& h, int u0, int ustep, double v, int n,
                                                                   float* px, float* py) {
  const __m256d h00 = _mm256_set1_pd(h(0, 0)), h10 = _mm256_set1_pd(h(1, 0)), h20 = _mm256_set1_pd(h(2, 0));
  const __m256d a0 = _mm256_set1_pd(h(0, 1) * v), a1 = _mm256_set1_pd(h(1, 1) * v), a2 = _mm256_set1_pd(h(2, 1) * v);
  const __m256d h02 = _mm256_set1_pd(h(0, 2)), h12 = _mm256_set1_pd(h(1, 2)), h22 = _mm256_set1_pd(h(2, 2));
  const __m256d one = _mm256_set1_pd(1.0);
  const __m128i vstep = _mm_set1_epi32(ustep), vu0 = _mm_set1_epi32(u0);
  __m128i vi = _mm_setr_epi32(0, 1, 2, 3);
  const __m128i v4 = _mm_set1_epi32(4);
  int i = 0;
  for (; i + 4 <= n; i += 4, vi = _mm_add_epi32(vi, v4)) {
    const __m256d u = _mm256_cvtepi32_pd(_mm_add_epi32(vu0, _mm_mullo_epi32(vi, vstep)));
    const __m256d w = _mm256_div_pd(one, _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(h20, u), a2), h22));
    const __m256d x = _mm256_mul_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(h00, u), a0), h02), w);
    const __m256d y = _mm256_mul_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(h10, u), a1), h12), w);
    _mm_storeu_ps(px + i, _mm256_cvtpd_ps(x));
    _mm_storeu_ps(py + i, _mm256_cvtpd_ps(y));
  }
  homography_row_scalar(h, u0 + i * ustep, ustep, v, n - i, px + i, py + i);
}
#endif
}  // namespace

namespace {
// apply_h's points as T (float: the reader's maps; double: the test's exact comparison).
template <class T>
void apply_h_points_loop(const cv::Matx33d& h, const double* x, const double* y, int n, T* px, T* py) {
  for (int i = 0; i < n; ++i) {
    const cv::Point2d q = apply_h(h, {x[i], y[i]});
    px[i] = static_cast<T>(q.x);
    py[i] = static_cast<T>(q.y);
  }
}
#if defined(HEXDICE_BILINEAR_AVX2)
// (speed47) apply_h_points 4 at a time in AVX doubles: per lane apply_h's operations in its
// order (s = 0, s += h(i, 0) x, s += h(i, 1) y, s += h(i, 2); |w| < 1e-12: (1e9, 1e9); else the two
// divisions), then (float) the conversion in the current rounding mode; no FMA is enabled here.
template <class T>
__attribute__((target("avx2"), noinline)) int apply_h_points_avx2(const cv::Matx33d& h, const double* x, const double* y, int n,
                                                                  T* px, T* py) {
  const __m256d zero = _mm256_setzero_pd(), tiny = _mm256_set1_pd(1e-12), far = _mm256_set1_pd(1e9);
  const __m256d sign = _mm256_set1_pd(-0.0);
  __m256d hm[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) hm[r][c] = _mm256_set1_pd(h(r, c));
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d vx = _mm256_loadu_pd(x + i), vy = _mm256_loadu_pd(y + i);
    __m256d v[3];
    for (int r = 0; r < 3; ++r)
      v[r] = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(zero, _mm256_mul_pd(hm[r][0], vx)), _mm256_mul_pd(hm[r][1], vy)), hm[r][2]);
    const __m256d small = _mm256_cmp_pd(_mm256_andnot_pd(sign, v[2]), tiny, _CMP_LT_OQ);  // std::abs(w) < 1e-12
    // (Every lane is divided, the small ones too, and then replaced: the same values as apply_h's
    // early return, though a lane with w = 0 raises the divide-by-zero flag, which is never trapped.)
    const __m256d qx = _mm256_blendv_pd(_mm256_div_pd(v[0], v[2]), far, small);
    const __m256d qy = _mm256_blendv_pd(_mm256_div_pd(v[1], v[2]), far, small);
    if constexpr (std::is_same_v<T, float>) {
      _mm_storeu_ps(px + i, _mm256_cvtpd_ps(qx));
      _mm_storeu_ps(py + i, _mm256_cvtpd_ps(qy));
    } else {
      _mm256_storeu_pd(px + i, qx);
      _mm256_storeu_pd(py + i, qy);
    }
  }
  return i;
}
#endif
template <class T>
void apply_h_points_t(const cv::Matx33d& h, const double* x, const double* y, int n, T* px, T* py) {
  int i = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) i = apply_h_points_avx2(h, x, y, n, px, py);
#endif
  apply_h_points_loop(h, x + i, y + i, n - i, px + i, py + i);
}
}  // namespace

void apply_h_points(const cv::Matx33d& h, const double* x, const double* y, int n, float* px, float* py) {
  apply_h_points_t(h, x, y, n, px, py);
}
void apply_h_points_f64(const cv::Matx33d& h, const double* x, const double* y, int n, double* px, double* py) {
  apply_h_points_t(h, x, y, n, px, py);
}
void apply_h_points_ref(const cv::Matx33d& h, const double* x, const double* y, int n, float* px, float* py) {
  apply_h_points_loop(h, x, y, n, px, py);
}
void apply_h_points_f64_ref(const cv::Matx33d& h, const double* x, const double* y, int n, double* px, double* py) {
  apply_h_points_loop(h, x, y, n, px, py);
}

void homography_row(const cv::Matx33d& h, int u0, int ustep, double v, int n, float* px, float* py) {
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) {
    homography_row_avx2(h, u0, ustep, v, n, px, py);
    return;
  }
#endif
  homography_row_scalar(h, u0, ustep, v, n, px, py);
}

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
// (Speed round 23) sepFilter2D(src, dst, CV_32F, k, k, (-1, -1), 0, border) of a CV_32FC1 map
// with a symmetric kernel of 7 taps or more, as OpenCV 4.6's AVX2 dispatch computes it (its
// filter code is built with AVX2 and FMA3): the row pass RowVec_32f, per pixel s = 0, then
// s = fma(x[t], k[t], s) over the taps t = 0 .. n - 1 of the border-extended row; the column
// pass SymmColumnVec_32f, s = fma(r[y], k[c], 0), then s = fma(r[y + m] + r[y - m], k[c + m], s)
// for m = 1 .. c (c = n / 2), rows outside by borderInterpolate. Only for widths of whole
// 8-float steps (OpenCV's vector steps then cover every pixel: no scalar tail) and a whole
// Mat (a view's border reads its parent). OpenCV's own call costs ~110 000 instructions on
// the lattice reader's 48 x 48 map: its FilterEngine's set-up and row buffers dominate.
bool use_fma() {
  static const bool on = [] {
    if (!use_avx2()) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") != 0;
  }();
  return on;
}
// NV 8-float columns at x of one row: every tap's broadcast once for the NV accumulators.
template <int NV>
__attribute__((target("avx2,fma"), always_inline)) inline void sep_row_steps(const float* ext, const float* k, int n, float* r) {
  __m256 acc[NV];
#pragma GCC unroll 6
  for (int v = 0; v < NV; ++v) acc[v] = _mm256_setzero_ps();
  for (int t = 0; t < n; ++t) {
    const __m256 f = _mm256_broadcast_ss(k + t);
#pragma GCC unroll 6
    for (int v = 0; v < NV; ++v) acc[v] = _mm256_fmadd_ps(_mm256_loadu_ps(ext + t + 8 * v), f, acc[v]);
  }
#pragma GCC unroll 6
  for (int v = 0; v < NV; ++v) _mm256_storeu_ps(r + 8 * v, acc[v]);
}
template <int NV>
__attribute__((target("avx2,fma"), always_inline)) inline void sep_col_steps(const float* const* up, const float* const* dn, const float* r0,
                                                                        const float* ky, int c, int x, float* d) {
  __m256 acc[NV];
  const __m256 f0 = _mm256_broadcast_ss(ky);
#pragma GCC unroll 6
  for (int v = 0; v < NV; ++v) acc[v] = _mm256_fmadd_ps(_mm256_loadu_ps(r0 + x + 8 * v), f0, _mm256_setzero_ps());
  for (int m = 1; m <= c; ++m) {
    const __m256 f = _mm256_broadcast_ss(ky + m);
    const float* a = dn[m] + x;  // row y + m
    const float* b = up[m] + x;  // row y - m
#pragma GCC unroll 6
    for (int v = 0; v < NV; ++v)
      acc[v] = _mm256_fmadd_ps(_mm256_add_ps(_mm256_loadu_ps(a + 8 * v), _mm256_loadu_ps(b + 8 * v)), f, acc[v]);
  }
#pragma GCC unroll 6
  for (int v = 0; v < NV; ++v) _mm256_storeu_ps(d + x + 8 * v, acc[v]);
}
__attribute__((target("avx2,fma"), noinline)) void sep_filter_f32_fast_impl(const cv::Mat& src, cv::Mat& out, const float* k,
                                                                           int n, int border) {
  const int w = src.cols, h = src.rows, c = n / 2;
  static thread_local std::vector<float> ext_v, rows_v;
  static thread_local std::vector<int> ymap_v;
  ext_v.resize(static_cast<std::size_t>(w + n));
  rows_v.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  ymap_v.resize(static_cast<std::size_t>(h + 2 * c));
  float* ext = ext_v.data();
  float* rows = rows_v.data();
  int* ymap = ymap_v.data() + c;  // ymap[y] for y in [-c, h + c)
  for (int y = -c; y < h + c; ++y) ymap[y] = cv::borderInterpolate(y, h, border);
  int xl[64], xr[64];  // the extended row's border columns (n <= 129 here)
  for (int i = 0; i < c; ++i) xl[i] = cv::borderInterpolate(i - c, w, border), xr[i] = cv::borderInterpolate(w + i, w, border);
  // Each pixel's sum is over the taps in order whatever the grouping of columns: 48 floats
  // (6 accumulators) at a time, then the rest.
  for (int y = 0; y < h; ++y) {
    const float* s = src.ptr<float>(y);
    for (int i = 0; i < c; ++i) ext[i] = s[xl[i]], ext[c + w + i] = s[xr[i]];
    std::memcpy(ext + c, s, sizeof(float) * static_cast<std::size_t>(w));
    float* r = rows + static_cast<std::size_t>(y) * w;
    for (int x = 0; x < w; x += 48) {
      switch (std::min(6, (w - x) / 8)) {
        case 6: sep_row_steps<6>(ext + x, k, n, r + x); break;
        case 5: sep_row_steps<5>(ext + x, k, n, r + x); break;
        case 4: sep_row_steps<4>(ext + x, k, n, r + x); break;
        case 3: sep_row_steps<3>(ext + x, k, n, r + x); break;
        case 2: sep_row_steps<2>(ext + x, k, n, r + x); break;
        default: sep_row_steps<1>(ext + x, k, n, r + x); break;
      }
    }
  }
  const float* ky = k + c;
  const float* up[65];
  const float* dn[65];
  for (int y = 0; y < h; ++y) {
    float* d = out.ptr<float>(y);
    const float* r0 = rows + static_cast<std::size_t>(ymap[y]) * w;
    for (int m = 1; m <= c; ++m)
      dn[m] = rows + static_cast<std::size_t>(ymap[y + m]) * w, up[m] = rows + static_cast<std::size_t>(ymap[y - m]) * w;
    for (int x = 0; x < w; x += 48) {
      switch (std::min(6, (w - x) / 8)) {
        case 6: sep_col_steps<6>(up, dn, r0, ky, c, x, d); break;
        case 5: sep_col_steps<5>(up, dn, r0, ky, c, x, d); break;
        case 4: sep_col_steps<4>(up, dn, r0, ky, c, x, d); break;
        case 3: sep_col_steps<3>(up, dn, r0, ky, c, x, d); break;
        case 2: sep_col_steps<2>(up, dn, r0, ky, c, x, d); break;
        default: sep_col_steps<1>(up, dn, r0, ky, c, x, d); break;
      }
    }
  }
}
}  // namespace

bool sep_filter_f32_fast_applies(const cv::Mat& src, int n, int border) {
  if (!use_fma() || src.type() != CV_32FC1 || src.isSubmatrix() || src.cols % 8 != 0 || src.cols < 8 || src.rows < 1) return false;
  if (n < 7 || n % 2 == 0 || n > 129) return false;
  return border == cv::BORDER_REPLICATE || border == cv::BORDER_REFLECT_101;
}
void sep_filter_f32_fast(const cv::Mat& src, cv::Mat& dst, const float* k, int n, int border) {
  bool symmetric = true;
  for (int i = 0; i < n / 2; ++i) symmetric = symmetric && k[i] == k[n - 1 - i];
  if (!symmetric || !sep_filter_f32_fast_applies(src, n, border)) {  // OpenCV's own
    const cv::Mat kk(n, 1, CV_32F, const_cast<float*>(k));
    cv::sepFilter2D(src, dst, CV_32F, kk, kk, cv::Point(-1, -1), 0, border);
    return;
  }
  cv::Mat out(src.size(), CV_32F);  // (dst may be src)
  sep_filter_f32_fast_impl(src, out, k, n, border);
  dst = out;
}
#else
bool sep_filter_f32_fast_applies(const cv::Mat&, int, int) { return false; }
void sep_filter_f32_fast(const cv::Mat& src, cv::Mat& dst, const float* k, int n, int border) {
  const cv::Mat kk(n, 1, CV_32F, const_cast<float*>(k));
  cv::sepFilter2D(src, dst, CV_32F, kk, kk, cv::Point(-1, -1), 0, border);
}
#endif

void gaussian_blur_f32(const cv::Mat& src, cv::Mat& dst, double sigma, int border) {
  if (src.type() != CV_32FC1 || !(sigma > 0) || src.rows < 2 || src.cols < 2) {
    cv::GaussianBlur(src, dst, cv::Size(0, 0), sigma, 0, border);
    return;
  }
  thread_local std::vector<std::pair<double, cv::Mat>> kernels;  // (sigma, its kernel): a few
  const cv::Mat* k = nullptr;
  for (const auto& [s, m] : kernels)
    if (s == sigma) k = &m;
  if (!k) {
    if (kernels.size() >= 16) kernels.clear();
    kernels.emplace_back(sigma, cv::getGaussianKernel(cvRound(sigma * 4 * 2 + 1) | 1, sigma, CV_32F));
    k = &kernels.back().second;
  }
  if (sep_filter_f32_fast_applies(src, k->rows * k->cols, border)) {  // (speed23) the same floats, without the FilterEngine
    sep_filter_f32_fast(src, dst, k->ptr<float>(), k->rows * k->cols, border);
    return;
  }
  cv::sepFilter2D(src, dst, CV_32F, *k, *k, cv::Point(-1, -1), 0, border);
}

namespace {
// cv::cvtColor's BGR -> grey of one 8-bit pixel (OpenCV 4.6's bit-exact RGB2Gray<uchar>: the
// 15-bit coefficients B 3735, G 19235, R 9798 (sum 2^15), half of 2^15 added, shifted; the same
// byte for each of the 2^24 colours, MaskOps.BgrToGrayIsOpenCVs).
inline uchar bgr_gray_px(const uchar* p) { return static_cast<uchar>((p[0] * 3735 + p[1] * 19235 + p[2] * 9798 + 16384) >> 15); }
#if defined(HEXDICE_BILINEAR_AVX2)
// (speed43) bgr_gray_px 32 pixels a step: each 8 pixels' 24 bytes as two 16-byte loads (pixels
// 0-3 in the low lane, 4-7 in the high), pshufb puts (b, g) and (r, 1) in 16-bit pairs, two
// pmaddwd give b 3735 + g 19235 and r 9798 + 16384 (weights under 2^15, sums positive, under
// 2^23), the sum shifted by 15 (at most 255), packed to bytes and the lanes' dwords put in
// pixel order. bgr_gray_run_avx2 returns the pixels it wrote; the rest is bgr_gray_px's (a
// step's last load reaches 4 bytes past its 96).
// Eight pixels' grey levels (q: their 24 bytes, readable to q + 28) as 32-bit integers.
__attribute__((target("avx2"), always_inline)) inline __m256i bgr_gray_eight_avx2(const uchar* q, __m256i bg_idx, __m256i r_idx,
                                                                                 __m256i one_hi, __m256i k_bg, __m256i k_r) {
  const __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))),
                                            _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 12)), 1);
  const __m256i bg = _mm256_shuffle_epi8(v, bg_idx), r1 = _mm256_or_si256(_mm256_shuffle_epi8(v, r_idx), one_hi);
  return _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(bg, k_bg), _mm256_madd_epi16(r1, k_r)), 15);
}
__attribute__((target("avx2"), noinline)) std::ptrdiff_t bgr_gray_run_avx2(const uchar* p, uchar* o, std::ptrdiff_t n) {
  const __m256i bg_idx = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, -1, 1, -1, 3, -1, 4, -1, 6, -1, 7, -1, 9, -1, 10, -1));
  const __m256i r_idx = _mm256_broadcastsi128_si256(_mm_setr_epi8(2, -1, -1, -1, 5, -1, -1, -1, 8, -1, -1, -1, 11, -1, -1, -1));
  const __m256i one_hi = _mm256_set1_epi32(1 << 16);
  const __m256i k_bg = _mm256_set1_epi32((19235 << 16) | 3735), k_r = _mm256_set1_epi32((16384 << 16) | 9798);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  std::ptrdiff_t x = 0;
  for (; 3 * x + 100 <= 3 * n; x += 32) {
    const uchar* q = p + 3 * x;
    const __m256i s0 = bgr_gray_eight_avx2(q, bg_idx, r_idx, one_hi, k_bg, k_r);
    const __m256i s1 = bgr_gray_eight_avx2(q + 24, bg_idx, r_idx, one_hi, k_bg, k_r);
    const __m256i s2 = bgr_gray_eight_avx2(q + 48, bg_idx, r_idx, one_hi, k_bg, k_r);
    const __m256i s3 = bgr_gray_eight_avx2(q + 72, bg_idx, r_idx, one_hi, k_bg, k_r);
    // packs: low lane pixels 0-3, 8-11, (packus) 16-19, 24-27; high lane 4-7, 12-15, 20-23, 28-31.
    const __m256i w = _mm256_packus_epi16(_mm256_packs_epi32(s0, s1), _mm256_packs_epi32(s2, s3));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + x), _mm256_permutevar8x32_epi32(w, order));
  }
  return x;
}
#endif
}  // namespace

cv::Rect filled_circle_box(cv::Point c, int r, cv::Size size) {
  if (r < 0 || c.x - r < 0 || c.y - r < 0 || c.x + r >= size.width || c.y + r >= size.height) return {};
  return {c.x - r, c.y - r, 2 * r + 1, 2 * r + 1};
}

void bgr_to_gray(const cv::Mat& bgr, cv::Mat& gray) {
  if (bgr.type() != CV_8UC3 || bgr.empty() || !avx2_steps_on()) {
    cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
    return;
  }
  // Into gray unless it shares memory with bgr (then into a new image).
  const bool shares = !gray.empty() && gray.datastart < bgr.datalimit && bgr.datastart < gray.datalimit;
  cv::Mat out = shares ? cv::Mat() : gray;
  out.create(bgr.size(), CV_8UC1);
  // Continuous images as one row.
  const bool one = bgr.isContinuous() && out.isContinuous();
  const int rows = one ? 1 : bgr.rows;
  const std::ptrdiff_t n = one ? static_cast<std::ptrdiff_t>(bgr.rows) * bgr.cols : bgr.cols;
  for (int y = 0; y < rows; ++y) {
    const uchar* p = bgr.ptr<uchar>(y);
    uchar* o = out.ptr<uchar>(y);
    std::ptrdiff_t x = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
    x = bgr_gray_run_avx2(p, o, n);
#endif
    for (; x < n; ++x) o[x] = bgr_gray_px(p + 3 * x);
  }
  gray = out;
}

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
// (speed44) bgr_lum_row 8 pixels a step: b + 2 g + r in 32-bit lanes (at most 1020), packed
// to 16 bits in pixel order. Returns the first pixel not done.
__attribute__((target("avx2"), noinline)) int bgr_lum_row_avx2(const uchar* bgr, int n, ushort* out) {
  int x = 0;
  for (; x + 8 <= n; x += 8) {
    __m256i w[3];
    load_bgr8_epi32(bgr + 3 * x, w);
    const __m256i s = _mm256_add_epi32(_mm256_add_epi32(w[0], _mm256_add_epi32(w[1], w[1])), w[2]);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + x), _mm_packus_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1)));
  }
  return x;
}
}  // namespace
#endif

void bgr_lum_row(const uchar* bgr, int n, ushort* out) {
  int x = 0;
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) x = bgr_lum_row_avx2(bgr, n, out);
#endif
#if CV_SIMD128
  for (; x + 16 <= n; x += 16) {
    cv::v_uint8x16 b, g, r;
    cv::v_load_deinterleave(bgr + 3 * x, b, g, r);
    cv::v_uint16x8 b0, b1, g0, g1, r0, r1;
    cv::v_expand(b, b0, b1);
    cv::v_expand(g, g0, g1);
    cv::v_expand(r, r0, r1);
    cv::v_store(out + x, b0 + (g0 + g0) + r0);
    cv::v_store(out + x + 8, b1 + (g1 + g1) + r1);
  }
#endif
  for (; x < n; ++x) out[x] = static_cast<ushort>(bgr[3 * x] + 2 * bgr[3 * x + 1] + bgr[3 * x + 2]);
}

namespace {
// lum_compare_row's float bound as the integer range it is equivalent to: out = lo <= lum < hi.
// lum is an integer in [0, 1020]: lum < thr <=> lum < ceil(thr); lum > thr <=> lum >= floor(thr) + 1.
// As "lum >= lo": lo in [0, 1021] (1021: never, NaN included; 0: always).
std::pair<int, int> lum_bounds(float thr, bool above) {
  int lo = 0, hi = 1021;
  if (above) {
    if (!(thr >= 0.0f)) lo = std::isnan(thr) ? 1021 : 0;
    else lo = thr >= 1020.0f ? 1021 : static_cast<int>(std::floor(thr)) + 1;
  } else {
    if (!(thr <= 1021.0f)) hi = std::isnan(thr) ? 0 : 1021;
    else hi = thr <= 0.0f ? 0 : static_cast<int>(std::ceil(thr));
  }
  return {lo, hi};
}

// out[x] = 255 when lo <= lum[x] < hi (and where[x] passes: nonzero for want_set, else zero;
// where null: any), else 0, for x in [0, n); 16 at a time.
void lum_range_row(const ushort* lum, const uchar* where, int n, int lo, int hi, bool want_set, uchar* out) {
  int x = 0;
#if defined(__SSE2__)
  // (speed37) lum, lo - 1 and hi all lie in [-1, 1021]: the signed 16-bit compares are the
  // unsigned ones (SSE2 has no unsigned compare; OpenCV's v_uint16x8 emulates it, ~3x the steps).
  const __m128i vlo = _mm_set1_epi16(static_cast<short>(lo - 1)), vhi = _mm_set1_epi16(static_cast<short>(hi));
  const __m128i z = _mm_setzero_si128();
  auto step = [&](int at) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lum + at));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lum + at + 8));
    __m128i m = _mm_packs_epi16(_mm_and_si128(_mm_cmpgt_epi16(a, vlo), _mm_cmplt_epi16(a, vhi)),
                                _mm_and_si128(_mm_cmpgt_epi16(b, vlo), _mm_cmplt_epi16(b, vhi)));  // (-1 -> 255)
    if (where) {
      const __m128i clear = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(where + at)), z);
      m = want_set ? _mm_andnot_si128(clear, m) : _mm_and_si128(m, clear);
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + at), m);
  };
  for (; x + 16 <= n; x += 16) step(x);
  // A tail under 16 of a run of 16 or more: the run's last 16 again (each byte depends on its
  // own pixel alone, so the bytes before the tail are written again with the same values).
  if (x < n && n >= 16) step(n - 16), x = n;
#endif
  for (; x < n; ++x) {
    const bool in = lum[x] >= lo && lum[x] < hi && (!where || ((where[x] != 0) == want_set));
    out[x] = in ? 255 : 0;
  }
}
}  // namespace

void lum_compare_row(const ushort* lum, const uchar* where, int n, float thr, bool above, LumWhere rule, uchar* out) {
  const auto [lo, hi] = lum_bounds(thr, above);
  lum_range_row(lum, rule == LumWhere::Any ? nullptr : where, n, lo, hi, rule == LumWhere::Set, out);
}

#if defined(HEXDICE_BILINEAR_AVX2)
namespace {
// lum_range_row without `where`, 32 at a time (a span of 32 or more: its last 32 again for the
// tail, as lum_range_row's); the signed compares as there. A span under 32: lum_range_row.
__attribute__((target("avx2"), always_inline)) inline void lum_range_32_avx2(const ushort* l, __m256i vlo, __m256i vhi, uchar* o) {
  const __m256i p = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(l));
  const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(l + 16));
  const __m256i m = _mm256_packs_epi16(_mm256_and_si256(_mm256_cmpgt_epi16(p, vlo), _mm256_cmpgt_epi16(vhi, p)),
                                       _mm256_and_si256(_mm256_cmpgt_epi16(q, vlo), _mm256_cmpgt_epi16(vhi, q)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_permute4x64_epi64(m, 0xD8));  // packs works per 128-bit lane
}
__attribute__((target("avx2"), noinline)) void lum_range_spans_avx2(const cv::Mat& lum, int lo, int hi, const int* x0,
                                                                   const int* x1, cv::Mat& out) {
  const __m256i vlo = _mm256_set1_epi16(static_cast<short>(lo - 1)), vhi = _mm256_set1_epi16(static_cast<short>(hi));
  for (int y = 0; y < lum.rows; ++y) {
    const int a = std::max(0, x0[y]), n = std::min(lum.cols, x1[y]) - a;
    if (n <= 0) continue;
    const ushort* l = lum.ptr<ushort>(y) + a;
    uchar* o = out.ptr<uchar>(y) + a;
    if (n < 32) {
      lum_range_row(l, nullptr, n, lo, hi, false, o);
      continue;
    }
    int x = 0;
    for (; x + 32 <= n; x += 32) lum_range_32_avx2(l + x, vlo, vhi, o + x);
    if (x < n) lum_range_32_avx2(l + n - 32, vlo, vhi, o + n - 32);
  }
}
}  // namespace
#endif

void lum_compare_spans(const cv::Mat& lum, float thr, bool above, const int* x0, const int* x1, cv::Mat& out) {
  CV_Assert(lum.type() == CV_16U && out.type() == CV_8U && out.size() == lum.size());
  const auto [lo, hi] = lum_bounds(thr, above);
#if defined(HEXDICE_BILINEAR_AVX2)
  if (use_avx2()) {
    lum_range_spans_avx2(lum, lo, hi, x0, x1, out);
    return;
  }
#endif
  for (int y = 0; y < lum.rows; ++y) {
    const int a = std::max(0, x0[y]), b = std::min(lum.cols, x1[y]);
    if (b > a) lum_range_row(lum.ptr<ushort>(y) + a, nullptr, b - a, lo, hi, false, out.ptr<uchar>(y) + a);
  }
}

void disc_row_span(double cx, double cy, double r2, int y, int cols, int& x0, int& x1) {
  x0 = 0, x1 = -1;
  if (cols <= 0) return;
  const double dy = y - cy;
  auto inside = [&](int x) {
    const double dx = x - cx;
    return !(dx * dx + dy * dy > r2);
  };
  // (speed42) A row the disc does not reach: dx * dx + dy * dy rounds to at least dy * dy.
  if (dy * dy > r2) return;
  // The column nearest cx has the smallest |dx|: if it is not within, none is. (speed42) Within
  // the row by cvRound (round half to even: at a tie both columns are as near, the same |dx|),
  // not std::round's library call.
  const int xm = cx > 0 && cx < cols - 1 ? cvRound(cx)
                                         : static_cast<int>(std::clamp<double>(std::round(cx), 0.0, static_cast<double>(cols - 1)));
  if (!inside(xm)) return;
  const double rest = r2 - dy * dy, half = rest > 0 ? std::sqrt(rest) : 0.0;
  // Estimates of the ends, a in [0, xm] and b in [xm, cols - 1] (the loops below settle them
  // whatever they are; speed42: truncated, not std::floor / std::ceil).
  const double lo = cx - half, hi = cx + half;
  int a = lo <= 0 ? 0 : (lo >= xm ? xm : static_cast<int>(lo));
  int b = hi >= cols - 1 ? cols - 1 : (hi <= xm ? xm : static_cast<int>(hi) + 1);
  while (a > 0 && inside(a - 1)) --a;
  while (!inside(a)) ++a;  // (stops at xm at the latest)
  while (b < cols - 1 && inside(b + 1)) ++b;
  while (!inside(b)) --b;
  x0 = a, x1 = b;
}

ContrastSums contrast_sums_disc_ref(const cv::Mat& bgr, cv::Point2d c, double rad, float body, int polarity) {
  ContrastSums s;
  double& sw = s.sw;
  double& sx = s.sx;
  double& sy = s.sy;
  for (int y = std::max(0, cvFloor(c.y - rad)); y <= std::min(bgr.rows - 1, cvCeil(c.y + rad)); ++y) {
    const cv::Vec3b* row = bgr.ptr<cv::Vec3b>(y);
    for (int x = std::max(0, cvFloor(c.x - rad)); x <= std::min(bgr.cols - 1, cvCeil(c.x + rad)); ++x) {
      if ((x - c.x) * (x - c.x) + (y - c.y) * (y - c.y) > rad * rad) continue;
      const float d = static_cast<float>(row[x][0] + 2 * row[x][1] + row[x][2]) - body;
      const float w = polarity < 0 ? std::max(0.0f, -d) : std::max(0.0f, d);
      sw += w, sx += w * x, sy += w * y;
    }
  }
  return s;
}

ContrastSums contrast_sums_disc(const cv::Mat& bgr, cv::Point2d c, double rad, float body, int polarity) {
  ContrastSums s;
  const int y0 = std::max(0, cvFloor(c.y - rad)), y1 = std::min(bgr.rows - 1, cvCeil(c.y + rad));
  const int bx0 = std::max(0, cvFloor(c.x - rad)), bx1 = std::min(bgr.cols - 1, cvCeil(c.x + rad));
  const double r2 = rad * rad;
  // Whole-number contrasts: w <= 1020 and x, y < 16384, so w * x < 2^24 (exact in float) and
  // the sums stay far below 2^53 (exact in double, whatever the order).
  const bool whole = body >= 0.0f && body <= 1020.0f && body == std::floor(body) && bgr.cols <= 16384 && bgr.rows <= 16384;
  const int ib = whole ? static_cast<int>(body) : 0;
  std::int64_t iw = 0, ix = 0, iy = 0;
  for (int y = y0; y <= y1; ++y) {
    int a = 0, b = -1;
    disc_row_span(c.x, c.y, r2, y, bgr.cols, a, b);  // the test's passing columns: an interval
    a = std::max(a, bx0), b = std::min(b, bx1);
    if (a > b) continue;
    const cv::Vec3b* row = bgr.ptr<cv::Vec3b>(y);
    if (whole) {
      std::int64_t rw = 0, rx = 0;
      if (polarity < 0)
        for (int x = a; x <= b; ++x) {
          const int w = std::max(0, ib - (row[x][0] + 2 * row[x][1] + row[x][2]));
          rw += w, rx += static_cast<std::int64_t>(w) * x;
        }
      else
        for (int x = a; x <= b; ++x) {
          const int w = std::max(0, (row[x][0] + 2 * row[x][1] + row[x][2]) - ib);
          rw += w, rx += static_cast<std::int64_t>(w) * x;
        }
      iw += rw, ix += rx, iy += rw * y;
      continue;
    }
    for (int x = a; x <= b; ++x) {
      const float d = static_cast<float>(row[x][0] + 2 * row[x][1] + row[x][2]) - body;
      const float w = polarity < 0 ? std::max(0.0f, -d) : std::max(0.0f, d);
      s.sw += w, s.sx += w * x, s.sy += w * y;
    }
  }
  if (whole) s.sw = static_cast<double>(iw), s.sx = static_cast<double>(ix), s.sy = static_cast<double>(iy);
  return s;
}

bool avx2_steps_on() {
#if defined(HEXDICE_BILINEAR_AVX2)
  return use_avx2();
#else
  return false;
#endif
}

namespace {

// The quarter-pixel ends of the segments draw_thick_segments draws (none when culled).
template <class Draw>
void for_drawn_segments(const cv::Mat& mask, const std::vector<std::pair<cv::Point2d, cv::Point2d>>& segments,
                        cv::Point2d origin, int thickness, Draw&& draw) {
  for (const auto& [p0, p1] : segments) {
    const cv::Point2d a = p0 - origin, b = p1 - origin;
    if (std::max(a.x, b.x) < -thickness || std::max(a.y, b.y) < -thickness ||
        std::min(a.x, b.x) > mask.cols + thickness || std::min(a.y, b.y) > mask.rows + thickness)
      continue;
    draw(cv::Point(cvRound(a.x * 4), cvRound(a.y * 4)), cv::Point(cvRound(b.x * 4), cvRound(b.y * 4)));
  }
}

}  // namespace

void draw_thick_segments_ref(cv::Mat& mask, const std::vector<std::pair<cv::Point2d, cv::Point2d>>& segments,
                             cv::Point2d origin, int thickness) {
  for_drawn_segments(mask, segments, origin, thickness, [&](cv::Point a, cv::Point b) {
    cv::line(mask, a, b, cv::Scalar(255), thickness, cv::LINE_8, 2);
  });
}

void draw_thick_segments(cv::Mat& mask, const std::vector<std::pair<cv::Point2d, cv::Point2d>>& segments,
                         cv::Point2d origin, int thickness) {
  // Each line's ends in a fixed order (the smaller (x, y) first), then each distinct line once.
  std::vector<std::array<int, 4>> lines;
  lines.reserve(segments.size());
  for_drawn_segments(mask, segments, origin, thickness, [&](cv::Point a, cv::Point b) {
    if (std::make_pair(b.x, b.y) < std::make_pair(a.x, a.y)) std::swap(a, b);
    lines.push_back({a.x, a.y, b.x, b.y});
  });
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  for (const auto& l : lines)
    cv::line(mask, cv::Point(l[0], l[1]), cv::Point(l[2], l[3]), cv::Scalar(255), thickness, cv::LINE_8, 2);
}

cv::Point max_loc_masked(const cv::Mat& src, const cv::Mat& mask) {
  CV_Assert(src.type() == CV_32FC1 && mask.type() == CV_8UC1 && src.size() == mask.size());
  float best = -std::numeric_limits<float>::infinity();
  cv::Point at(-1, -1);
  for (int y = 0; y < src.rows; ++y) {
    const float* s = src.ptr<float>(y);
    const uchar* m = mask.ptr<uchar>(y);
    int x = 0;
    while (x < src.cols) {
      if (x + 8 <= src.cols) {  // 8 mask bytes at a time past the unmasked pixels
        std::uint64_t w;
        std::memcpy(&w, m + x, 8);
        if (w == 0) {
          x += 8;
          continue;
        }
      }
      const int end = std::min(src.cols, x + 8);
      for (; x < end; ++x)
        if (m[x] && s[x] > best) best = s[x], at = cv::Point(x, y);
    }
  }
  return at;
}

void mask_outer_points_ref(const cv::Mat& mask, std::vector<cv::Point>& pts) {
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(mask.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
  pts.clear();
  for (const auto& c : contours) pts.insert(pts.end(), c.begin(), c.end());
  if (pts.empty()) cv::findNonZero(mask, pts);
}

cv::Rect nonzero_box(const cv::Mat& mask) {
  CV_Assert(mask.type() == CV_8UC1);
  const int w = mask.cols;
  int x0 = w, x1 = -1, y0 = -1, y1 = -1;
  for (int y = 0; y < mask.rows; ++y) {
    const uchar* m = mask.ptr<uchar>(y);
    int a = 0;  // the row's first nonzero byte, 8 bytes a step past zeros
    for (; a + 8 <= w; a += 8) {
      std::uint64_t v;
      std::memcpy(&v, m + a, 8);
      if (v) break;
    }
    while (a < w && !m[a]) ++a;
    if (a == w) continue;
    int b = w - 1;  // its last, from the right
    for (; b - 7 > a; b -= 8) {
      std::uint64_t v;
      std::memcpy(&v, m + b - 7, 8);
      if (v) break;
    }
    while (!m[b]) --b;
    x0 = std::min(x0, a), x1 = std::max(x1, b);
    if (y0 < 0) y0 = y;
    y1 = y;
  }
  return y0 < 0 ? cv::Rect() : cv::Rect(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
}

void mask_outer_points(const cv::Mat& mask, std::vector<cv::Point>& pts, const cv::Rect* known_box) {
  pts.clear();
  const cv::Rect box = known_box ? *known_box : nonzero_box(mask);
  CV_DbgAssert(!known_box || *known_box == nonzero_box(mask));
  if (box.empty()) return;  // (no contour, no nonzero pixel)
  // findContours pads its image with a zero border: the box's pixels so padded are the whole
  // mask's round them (zeros beyond the box), the same contours in the same order, offset. (No
  // clone: findContours copies its input into that padded image and has not written to the
  // input since OpenCV 3.2.)
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(mask(box), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE, box.tl());
  for (const auto& c : contours) pts.insert(pts.end(), c.begin(), c.end());
  if (pts.empty()) cv::findNonZero(mask, pts);
}

}  // namespace hexdice::vision
