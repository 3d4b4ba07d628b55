#include "vision/read.h"

#include <time.h>

#include <algorithm>
#include <optional>
#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/mask_ops.h"
#include "vision/mask_ops_ref.h"
#include "vision/read_profile.h"
#include "vision/sheet_render.h"

namespace hexdice::vision {

// ---- Stage timing (vision/read_profile.h): off unless a sink is set on this thread ----
namespace {
thread_local ReadProfile* t_profile = nullptr;
thread_local ReadMark t_mark = nullptr;
// The name a ReadMark gives a pass (ReadProfile's member).
const char* pass_name(double ReadProfile::*slot) {
#define HEXDICE_PASS(x) \
  if (slot == &ReadProfile::x) return #x;
  HEXDICE_PASS(cell_patch_ms) HEXDICE_PASS(cell_unit_ms) HEXDICE_PASS(cell_white_ms) HEXDICE_PASS(cell_locate_ms)
  HEXDICE_PASS(cell_first_ms) HEXDICE_PASS(cell_other_ms) HEXDICE_PASS(cell_fine_ms) HEXDICE_PASS(cell_cover_ms)
  HEXDICE_PASS(cell_retry_ms) HEXDICE_PASS(cell_guard_ms)
#undef HEXDICE_PASS
  return "?";
}
double thread_cpu_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}
// Laps of one read_board call: lap(&ReadProfile::x) adds the time since the last lap to x.
// The per-cell stage's time has the read_face time taken out when the read ends.
class StageLaps {
 public:
  StageLaps() : sink_(t_profile), detail_(t_profile && t_profile->cell_detail), mark_(t_mark) {
    if (sink_) start_ = last_ = thread_cpu_ms();
  }
  ~StageLaps() {
    if (mark_ && !cells_open_) mark_(mark_part_, 0, 0);  // "after": the per-cell stage's end to the read's
    if (!sink_) return;
    const double now = thread_cpu_ms();
    p_.total_ms = now - start_;
    p_.cells_ms = std::max(0.0, p_.cells_ms - p_.face_ms);
    p_.reads = 1;
    sink_->add(p_);
  }
  StageLaps(const StageLaps&) = delete;
  StageLaps& operator=(const StageLaps&) = delete;
  bool on() const { return sink_ != nullptr; }
  void lap(double ReadProfile::*slot) {
    if (!sink_) return;
    const double now = thread_cpu_ms();
    p_.*slot += now - last_;
    last_ = now;
  }
  double now() const { return sink_ ? thread_cpu_ms() : 0.0; }
  void face(double since) {
    if (!sink_) return;
    p_.face_ms += thread_cpu_ms() - since;
    ++p_.face_calls;
  }
  ReadProfile& counts() { return p_; }
  // (ReadMark) The cell whose passes are entered next.
  void cell(int q, int r) { cell_q_ = q, cell_r_ = r; }
  // The per-cell stage's passes (ReadProfile::cell_detail): enter(x) charges the time since
  // the last enter, read_face's taken out, to the pass entered then; nullptr ends.
  void enter(double ReadProfile::*slot) {
    if (mark_) {
      mark_(mark_part_, mark_q_, mark_r_);
      mark_part_ = slot ? pass_name(slot) : "after", mark_q_ = cell_q_, mark_r_ = cell_r_;
      cells_open_ = slot != nullptr;
    }
    if (!detail_) return;
    const double now = thread_cpu_ms();
    if (cur_) p_.*cur_ += std::max(0.0, now - sub_last_ - (p_.face_ms - sub_face_));
    cur_ = slot, sub_last_ = now, sub_face_ = p_.face_ms;
  }

 private:
  ReadProfile* sink_;
  bool detail_;
  ReadProfile p_;
  double start_ = 0, last_ = 0;
  double ReadProfile::*cur_ = nullptr;
  double sub_last_ = 0, sub_face_ = 0;
  ReadMark mark_;
  const char* mark_part_ = "frame";  // the part the next mark ends
  bool cells_open_ = true;  // until the per-cell stage ends (enter(nullptr))
  int mark_q_ = 0, mark_r_ = 0;
  int cell_q_ = 0, cell_r_ = 0;  // the cell the passes entered from now on are of
};
}  // namespace

ReadProfile* set_read_profile(ReadProfile* sink) {
  ReadProfile* old = t_profile;
  t_profile = sink;
  return old;
}
ReadProfile* read_profile() { return t_profile; }
ReadMark set_read_mark(ReadMark mark) {
  const ReadMark old = t_mark;
  t_mark = mark;
  return old;
}

namespace {
// (speed22) read_at's reading for a caller that keeps it only above `useful` (the retries:
// a square must beat the best reading so far). With useful >= fallback_below the component
// counter's fallback (capped at fallback_below) cannot lift a reading above useful, so
// FaceReader::read_above does not run it. Used only where the one-polarity look's test
// (plain confidence < pip_polarity_below) cannot tell the two apart: both plain readings are
// then at or below useful < pip_polarity_below (retry_read_above; false = read() always).
bool read_above_applies(const ReadParams& params, double useful) {
  return params.retry_read_above && !(params.pip_polarity_below > 0 && useful >= params.pip_polarity_below);
}
FaceReading read_above_bar(FaceReader& reader, double useful, bool above) {
  return above ? reader.read_above(useful) : reader.read(useful);
}
}  // namespace

namespace {
// Element n / 2 of each channel's values in sorted order (their median): a value, whatever
// order nth_element leaves the rest in. (speed43) Up to 64 values in a buffer on the stack.
cv::Vec3f median_bgr_of(const cv::Vec3b* v, std::size_t n) {
  if (n == 0) return {0, 0, 0};
  std::array<uchar, 64> small;
  std::vector<uchar> large(n > small.size() ? n : 0);
  uchar* const c = n > small.size() ? large.data() : small.data();
  cv::Vec3f out;
  for (int k = 0; k < 3; ++k) {
    for (std::size_t i = 0; i < n; ++i) c[i] = v[i][k];
    std::nth_element(c, c + n / 2, c + n);
    out[k] = c[n / 2];
  }
  return out;
}
}  // namespace

cv::Vec3f median_bgr(const std::vector<cv::Vec3b>& v) { return median_bgr_of(v.data(), v.size()); }

cv::Vec3f brightest_quarter_ref(std::vector<cv::Vec3b> s) {
  std::sort(s.begin(), s.end(), [](cv::Vec3b a, cv::Vec3b b) { return a[0] + 2 * a[1] + a[2] < b[0] + 2 * b[1] + b[2]; });
  std::vector<cv::Vec3b> upper(s.begin() + static_cast<long>(s.size() * 3 / 4), s.end());
  cv::Vec3f out(0, 0, 0);  // (median_bgr as it was: a vector a channel)
  for (int k = 0; k < 3 && !upper.empty(); ++k) {
    std::vector<uchar> c(upper.size());
    for (std::size_t i = 0; i < upper.size(); ++i) c[i] = upper[i][k];
    auto mid = c.begin() + static_cast<long>(c.size() / 2);
    std::nth_element(c.begin(), mid, c.end());
    out[k] = *mid;
  }
  return out;
}

cv::Vec3f brightest_quarter(const std::vector<cv::Vec3b>& s) {
  // (speed43) Sorted with each sample's luminance beside it: std::sort's steps depend only on
  // the comparisons' answers, which are the same, so the samples end in the same order (ties
  // included) without the luminance computed twice a comparison; no copies of the vector.
  struct Keyed {
    int lum;
    cv::Vec3b v;
  };
  std::array<Keyed, 64> small;
  std::vector<Keyed> large(s.size() > small.size() ? s.size() : 0);
  Keyed* const k = s.size() > small.size() ? large.data() : small.data();
  for (std::size_t i = 0; i < s.size(); ++i) k[i] = {s[i][0] + 2 * s[i][1] + s[i][2], s[i]};
  std::sort(k, k + s.size(), [](const Keyed& a, const Keyed& b) { return a.lum < b.lum; });
  const std::size_t from = s.size() * 3 / 4, n = s.size() - from;
  std::array<cv::Vec3b, 64> upper_small;
  std::vector<cv::Vec3b> upper_large(n > upper_small.size() ? n : 0);
  cv::Vec3b* const upper = n > upper_small.size() ? upper_large.data() : upper_small.data();
  for (std::size_t i = 0; i < n; ++i) upper[i] = k[from + i].v;
  return median_bgr_of(upper, n);
}

bool sample(const cv::Mat& img, cv::Point2d p, cv::Vec3b& out) {
  const int x = cvRound(p.x), y = cvRound(p.y);
  if (x < 0 || y < 0 || x >= img.cols || y >= img.rows) return false;
  out = img.at<cv::Vec3b>(y, x);
  return true;
}

// How far (mm) the centre of a reading's fitted pips is from its crop's centre: a standard
// layout is centred on its face, so a crop on the face gives ~0, one that took in a side
// or cut the face gives more.
// Coloured dice carry pips of one polarity: white on red, green and blue dice, black on
// yellow ones (interfaces.md's standard dice; the renderer's). 0 = no rule (white and black
// dice are whiteblack's; a calibrated colour of another name).
// The radius (mm, on the top plane) of the disc the camera-resolution pip looks search round a
// cell's top: the farthest face centre plus a face's half-diagonal (0.27 of the die's 16 mm
// times sqrt 2) plus a margin. One value for every look, so they share one sampling of the
// disc (PlaneSample is keyed by its centre and radius).
// The box (mm: x0, y0, x1, y1) round the layout's cell centres.
static std::array<double, 4> cell_centres_box_mm(const SheetLayout& layout) {
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (const auto& c : layout.cells) {
    x0 = std::min(x0, c.centre.x); x1 = std::max(x1, c.centre.x);
    y0 = std::min(y0, c.centre.y); y1 = std::max(y1, c.centre.y);
  }
  return {x0, y0, x1, y1};
}

// (robust46) white_no_pip_body_ratio's look tries its ratio and this much either side of it: the
// best threshold differs die by die (harshR45 20010 (5,-1)'s 6 is a layout at 0.80 only, a blurred
// 5 at 0.85-0.90, a blurred 3 at 0.75).
constexpr double kBodyPipRatioStep = 0.05;
static double pip_look_reach_mm(const ReadParams& params) {
  return params.max_face_offset_mm + 0.27 * 16.0 * std::sqrt(2.0) + 1.5;
}

static int coloured_pip_polarity(const std::string& colour) {
  if (colour == "red" || colour == "green" || colour == "blue") return 1;
  if (colour == "yellow") return -1;
  return 0;
}

// The pips' polarity of a die of this colour: dark on white and yellow (-1), light on black and
// red, green, blue (1); 0 for an unknown name.
static int die_pip_polarity(const std::string& colour) {
  return colour == "white" ? -1 : colour == "black" ? 1 : coloured_pip_polarity(colour);
}

// A die body against its cell's own paper (each channel over the paper's): the tests for a
// die under the occluder judge it by the light on its cell, not by the lit sheet's white.
struct BodyOnPaper {
  cv::Vec3f rel;  // body / paper per channel
  float lum;      // (b + 2g + r) / 4 of rel
  float sat;      // (max - min) / max of rel
};
static BodyOnPaper body_on_paper(const cv::Vec3f& body, const cv::Vec3f& paper) {
  BodyOnPaper b;
  b.rel = cv::Vec3f(body[0] / std::max(paper[0], 1.0f), body[1] / std::max(paper[1], 1.0f), body[2] / std::max(paper[2], 1.0f));
  const cv::Vec3f& rp = b.rel;
  const float mx = std::max({rp[0], rp[1], rp[2]}), mn = std::min({rp[0], rp[1], rp[2]});
  b.lum = (rp[0] + 2 * rp[1] + rp[2]) / 4;
  b.sat = mx > 1e-3f ? (mx - mn) / mx : 0.0f;
  return b;
}

// (exact14, exact20) A body "of skin's hue" against the light on its cell (the occluder gate's
// no-die test): saturated by occluded_skin_min_saturation or more, red > green >= blue, its hue
// within hand_hue_min..max.
static bool skin_hued(const cv::Vec3f& body, const cv::Vec3f& paper, const ReadParams& params) {
  const BodyOnPaper bl = body_on_paper(body, paper);
  const cv::Vec3f& rp = bl.rel;
  const float hue_num = 60.0f * (rp[1] - rp[0]), hue_den = rp[2] - rp[0];
  return bl.sat >= params.occluded_skin_min_saturation && rp[2] > rp[1] && rp[1] >= rp[0] && hue_num >= params.hand_hue_min * hue_den &&
         hue_num <= params.hand_hue_max * hue_den;
}

// Saturated (the guard token's tests): rel (a colour relative to the white) not black and its
// spread max - min at least min_sat of its max. A template so that every caller keeps its own
// arithmetic: a float min_sat multiplies in float, params' double one in double.
template <class Sat>
static bool saturated(const cv::Vec3f& rel, Sat min_sat) {
  const float mx = std::max({rel[0], rel[1], rel[2]}), mn = std::min({rel[0], rel[1], rel[2]});
  return mx > 1e-3f && (mx - mn) >= min_sat * mx;
}
// A guard token's blue: saturated and named blue (name_color, no samples; builtin_color is its
// answer without the std::string, speed25).
template <class Sat>
static bool saturated_blue(const cv::Vec3f& rel, Sat min_sat) {
  return saturated(rel, min_sat) && builtin_color(rel) == BuiltinColor::blue;
}
// The crop with everything of the other polarity than the pips taken out: for light pips
// (polarity > 0) every pixel darker (luminance b + 2g + r) than the body becomes the body,
// for dark pips every lighter one. A pale, glared top's pips differ from it less than its
// own dark rim and side faces at the crop's edge, whose corners are blob-shaped too
// (docs/reader.md, colour3): on a die whose pips are light they are not pips.
static cv::Mat one_pip_polarity(const cv::Mat& crop, cv::Vec3f body, int polarity) {
  cv::Mat out = crop.clone();
  const int lb = cvRound(body[0] + 2 * body[1] + body[2]);
  const cv::Vec3b b(cv::saturate_cast<uchar>(body[0]), cv::saturate_cast<uchar>(body[1]), cv::saturate_cast<uchar>(body[2]));
  thread_local std::vector<ushort> lum;  // (speed33: the row's luminances 16 at a time)
  lum.resize(static_cast<std::size_t>(out.cols));
  for (int y = 0; y < out.rows; ++y) {
    cv::Vec3b* row = out.ptr<cv::Vec3b>(y);
    bgr_lum_row(out.ptr<uchar>(y), out.cols, lum.data());
    if (polarity > 0) {
      for (int x = 0; x < out.cols; ++x)
        if (lum[static_cast<std::size_t>(x)] < lb) row[x] = b;
    } else {
      for (int x = 0; x < out.cols; ++x)
        if (lum[static_cast<std::size_t>(x)] > lb) row[x] = b;
    }
  }
  return out;
}

// How much lighter (polarity > 0) or darker the reading's pips are than its body, in
// luminance (b + 2g + r) / 4 over 3x3 crop pixels round each pip: the weakest pip's.
static double pip_contrast(const cv::Mat& crop, const FaceReading& r, int polarity) {
  if (r.pips.empty()) return 0;
  const double lb = (r.body_bgr[0] + 2 * r.body_bgr[1] + r.body_bgr[2]) / 4.0;
  double weakest = 1e9;
  for (const auto& p : r.pips) {
    double sum = 0;
    int n = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = cvRound(p.x) + dx, y = cvRound(p.y) + dy;
        if (x < 0 || y < 0 || x >= crop.cols || y >= crop.rows) continue;
        const cv::Vec3b v = crop.at<cv::Vec3b>(y, x);
        sum += (v[0] + 2 * v[1] + v[2]) / 4.0, ++n;
      }
    if (n == 0) return 0;
    weakest = std::min(weakest, polarity * (sum / n - lb));
  }
  return weakest;
}

static double pip_offset_mm(const FaceReading& r, double crop_side_mm) {
  if (r.face <= 0 || r.pips.empty()) return 0;
  const double c0 = (kFaceCropPx - 1) / 2.0;
  cv::Point2d m(0, 0);
  for (const auto& q : r.pips) m += cv::Point2d(q.x - c0, q.y - c0);
  return cv::norm(m) / static_cast<double>(r.pips.size()) * crop_side_mm / kFaceCropPx;
}

// (exact20) The size of a face's pips (crop pixels) against its standard layout at the face's
// real size (1: where a face of crop_side_mm's die has them; 0: fewer than two pips): the
// root-mean-square distance of the pips from their centroid over the standard layout's.
static double pips_layout_scale(const std::vector<cv::Point2d>& pips, int face, double crop_side_mm) {
  if (face < 2 || static_cast<int>(pips.size()) != face) return 0;
  const std::vector<cv::Point2f> ref = pip_layout(face);
  cv::Point2d m(0, 0);
  for (const auto& q : pips) m += q;
  m *= 1.0 / static_cast<double>(pips.size());
  double s2 = 0, r2 = 0;
  for (const auto& q : pips) s2 += (q - m).dot(q - m);
  for (const auto& q : ref) r2 += static_cast<double>(q.x) * q.x + static_cast<double>(q.y) * q.y;
  const double face_px = kFaceCropPx * 16.0 / crop_side_mm;  // one face side in crop pixels
  return r2 > 0 ? std::sqrt(s2 / r2) / face_px : 0;
}

// A reading's pips where the crop shows them: the lattice places its pips on its own fitted
// grid, which may sit a few pixels off the pips themselves (a 2 near the crop's edge fitted at
// 0.81 of its size); each is moved to the centroid of its pip's contrast against the body
// (darker for dark pips, lighter for light ones) within 0.12 of the crop round it, three times.
// Then their size (pips_layout_scale). Pip polarity unknown: the lattice's own places.
static std::vector<cv::Point2d> pips_where_seen(const cv::Mat& crop, const FaceReading& r);
static double pip_layout_scale(const cv::Mat& crop, const FaceReading& r, double crop_side_mm) {
  if (r.face < 2 || static_cast<int>(r.pips.size()) != r.face) return 0;
  return pips_layout_scale(pips_where_seen(crop, r), r.face, crop_side_mm);
}

// pip_layout_scale's pips: each of the reading's pips moved to the centroid of its pip's
// contrast (pips of unknown polarity: the lattice's own places).
static std::vector<cv::Point2d> pips_where_seen(const cv::Mat& crop, const FaceReading& r) {
  std::vector<cv::Point2d> pips;
  for (const auto& q : r.pips) pips.emplace_back(q.x, q.y);
  if (r.pip_polarity != 0 && !crop.empty() && crop.type() == CV_8UC3) {
    const float body = r.body_bgr[0] + 2 * r.body_bgr[1] + r.body_bgr[2];
    const double rad = 0.12 * crop.cols;
    for (auto& c : pips)
      for (int it = 0; it < 3; ++it) {
        // (speed42) The disc's sums by rows' spans, in integers where exact (mask_ops.h): the
        // same doubles as the pixel-by-pixel loop (contrast_sums_disc_ref).
        const ContrastSums cs = contrast_sums_disc(crop, c, rad, body, r.pip_polarity);
        if (cs.sw <= 0) break;
        c = {cs.sx / cs.sw, cs.sy / cs.sw};
      }
  }
  return pips;
}

// (exact22) A part-covered face's count from the pip places it shows. The reading's pips (where
// the crop shows them, pips_where_seen) place the face's 3x3 grid of pip places at its real size
// (0.27 of the 16 mm side from the centre; the centroid of any standard layout is the face's
// centre; turned to the pips); each place shows the face when a ring round it (1.35..1.75 pip
// radii) is of the body's colour, and then holds a pip (its centre disc contrasting with the
// body in the pips' polarity) or none. The count is the one count of every standard layout (any
// of its turns) that agrees with every shown place; the places not shown (under a hand, an arm,
// off the crop) may hold anything. 0: no count or several, a place neither clearly a pip nor
// clearly none, or the pips off the grid.
struct ShownPlaces {
  int count = 0;           // the one count the shown places allow (0: none or several)
  int shown = 0, pips = 0;  // places showing the face, of them holding a pip
  char places[10] = "?????????";  // row by row: 'o' pip, '.' none, '?' not shown, '~' neither
  std::array<double, 9> ring{};   // each place's ring: the fraction of it of the body's colour
  double top_round = -1;          // the mean ring over the places without the reading's pips (-1: not looked at)
  std::array<double, 9> con{};    // each place's centre contrast with the body, in the pips' polarity (over its luminance)
  int read_mask = 0;              // the places of the reading's own pips (bit k: place k, row by row; 0: not looked at)
  std::array<cv::Point2d, 9> at{};  // each place's centre (crop pixels)
  double rms = -1;                // the reading's pips' distance from the grid's places (over the pitch; -1: not looked at)
  std::string why;                // (debug) the places' rings and contrasts
};
// (count_from_shown_places, count_from_any_placement, pip_contrast) A reading in its pips' polarity (the reading's, else
// `polarity`) with its pips where the crop shows them (pips_where_seen); nullopt when it has no
// face, no polarity, or the crop is not a BGR image.
struct SeenReading {
  FaceReading r;
  std::vector<cv::Point2d> pips;
};
static std::optional<SeenReading> seen_reading(const cv::Mat& crop, const FaceReading& reading, int polarity) {
  SeenReading out{reading, {}};
  if (out.r.pip_polarity == 0) out.r.pip_polarity = polarity;
  const FaceReading& r = out.r;
  if (r.face < 1 || static_cast<int>(r.pips.size()) != r.face || r.pip_polarity == 0 || crop.empty() || crop.type() != CV_8UC3)
    return std::nullopt;
  out.pips = pips_where_seen(crop, r);
  return out;
}
// A standard layout's pip places on the face's 3x3 grid, a bit a place, row by row.
static int layout_mask(int face, int variant) {
  int m = 0;
  for (const auto& q : pip_layout(face, variant))
    m |= 1 << ((static_cast<int>(std::lround(q.y / 0.27f)) + 1) * 3 + static_cast<int>(std::lround(q.x / 0.27f)) + 1);
  return m;
}
// The counts (bit f: face f) of the standard layouts, either turn, that agree with a 3x3 grid's
// shown places (`shown_mask`): a pip on exactly the shown places in `pip_mask`.
static int allowed_counts(int shown_mask, int pip_mask) {
  int counts = 0;
  for (int f = 1; f <= 6; ++f)
    for (int var = 0; var < 2; ++var)
      if ((layout_mask(f, var) & shown_mask) == pip_mask) counts |= 1 << f;
  return counts;
}
// The one count in `counts` (bit f: face f); 0 when none or several.
static int lone_count(int counts) {
  for (int f = 1; f <= 6; ++f)
    if (counts == 1 << f) return f;
  return 0;
}
// (count_from_shown_places, count_from_any_placement) One pip place at `p` (crop pixels) of a
// reading's face, pip radius `pr` px: `ring`, the fraction of a ring round it (1.35..1.75 pip
// radii) of the body's colour; `con`, its centre disc's contrast with the body in the pips'
// polarity, over the body's luminance.
struct PlaceLook {
  double ring = 0, con = 0;
};
// (exact33) The crop the places' rings are sampled on: the crop itself, or (`avg` > 0) its box
// mean over (2 avg + 1)^2 pixels (noise_ring_average).
static cv::Mat ring_crop_for(const cv::Mat& crop, int avg) {
  if (avg <= 0 || crop.empty()) return crop;
  cv::Mat out;
  cv::blur(crop, out, cv::Size(2 * avg + 1, 2 * avg + 1), cv::Point(-1, -1), cv::BORDER_REPLICATE);
  return out;
}
// `ring_crop`: the crop the rings are sampled on (the crop itself, or in a noisy frame the crop
// smoothed: ring_crop_for).
static PlaceLook look_at_place(const cv::Mat& crop, const FaceReading& r, cv::Point2d p, double pr, const cv::Mat& ring_crop) {
  const cv::Vec3f b = r.body_bgr;
  const float bsum = b[0] + b[1] + b[2] + 1e-3f, blum = b[0] + 2 * b[1] + b[2] + 1e-3f;
  auto px_on = [&](const cv::Mat& m, cv::Point2d q, cv::Vec3f& v) {
    const int x = cvRound(q.x), y = cvRound(q.y);
    if (x < 0 || y < 0 || x >= m.cols || y >= m.rows) return false;
    const cv::Vec3b c = m.at<cv::Vec3b>(y, x);
    v = cv::Vec3f(c[0], c[1], c[2]);
    return true;
  };
  auto px_at = [&](cv::Point2d q, cv::Vec3f& v) { return px_on(crop, q, v); };
  int n_body = 0, n_ring = 0;
  // (speed47) The 16 directions' cosines and sines once (were 810 sincos calls at 720p).
  static const auto dirs = cos_sin_table<16>(ReaderAngles::place_ring);
  for (const auto& [ct, st] : dirs) {
    for (double rr : {1.35 * pr, 1.75 * pr}) {
      ++n_ring;
      cv::Vec3f v;
      if (!px_on(ring_crop, p + rr * cv::Point2d(ct, st), v)) continue;
      const float sum = v[0] + v[1] + v[2] + 1e-3f, lum = v[0] + 2 * v[1] + v[2];
      bool same = lum >= 0.8f * blum && lum <= 1.25f * blum;
      for (int ch = 0; ch < 3 && same; ++ch) same = std::abs(v[ch] / sum - b[ch] / bsum) <= 0.04f;
      n_body += same;
    }
  }
  double sc = 0;
  int n_con = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      if (dx * dx + dy * dy > 4) continue;
      cv::Vec3f v;
      if (!px_at(p + cv::Point2d(dx * 0.25 * pr, dy * 0.25 * pr), v)) continue;
      sc += (v[0] + 2 * v[1] + v[2] - blum) * r.pip_polarity, ++n_con;
    }
  return {static_cast<double>(n_body) / n_ring, n_con > 0 ? sc / n_con / blum : 0};
}
// A place is shown when at least this share of its ring is of the body's colour.
constexpr double kShownRing = 0.75;
// The reading's pips lie on count_from_shown_places' grid when their distance from its places is
// at most this (over the pitch): the grid is clear (faint_pip_fill needs it too).
constexpr double kClearGridRms = 0.2;
// A top's pips lie within this of its centre (mm: 0.44 of the 16 mm face, its corner pips'
// reach with some slack); pips beyond are another die's or the paper's.
constexpr double kFaceReachMm = 0.44 * 16.0;
// A looked-at place against the reading's pips' contrast `ref`: '?' not shown (less than
// `ring_min` of its ring of the body's colour), 'o' a pip, '.' none, '~' neither.
static char place_class(const PlaceLook& l, double ref, double ring_min = kShownRing) {
  return l.ring < ring_min ? '?' : l.con >= 0.5 * ref ? 'o' : l.con <= 0.2 * ref ? '.' : '~';
}
// (exact34) `seen_at` (when given): whether a place's disc (crop pixels: centre, radius) is in the
// camera's view at all; a place out of it is not shown, whatever its ring holds (in_view_face_mm).
using PlaceSeen = std::function<bool(cv::Point2d, double)>;
static ShownPlaces count_from_shown_places(const cv::Mat& crop, const FaceReading& reading, int polarity, double crop_side_mm,
                                           bool debug, int ring_avg = 0, const PlaceSeen& seen_at = {}) {
  ShownPlaces out;
  const std::optional<SeenReading> seen = seen_reading(crop, reading, polarity);
  if (!seen) return out;
  const FaceReading& r = seen->r;
  const std::vector<cv::Point2d>& pips = seen->pips;
  const double face_px = kFaceCropPx * 16.0 / crop_side_mm, pitch = 0.27 * face_px, pr = 0.09 * face_px;
  cv::Point2d c(0, 0);
  for (const auto& q : pips) c += q;
  c *= 1.0 / static_cast<double>(pips.size());
  // The grid's turn: the pips' best fit (1 degree steps over a quarter turn); a lone pip: the square's.
  double best_t = 0, best_e = 1e18;
  if (pips.size() >= 2)
    for (int deg = 0; deg < 90; ++deg) {
      const double t = deg * CV_PI / 180, ct = std::cos(t), st = std::sin(t);
      double e = 0;
      for (const auto& q : pips) {
        const double u = ((q.x - c.x) * ct + (q.y - c.y) * st) / pitch, v = (-(q.x - c.x) * st + (q.y - c.y) * ct) / pitch;
        const double du = u - std::clamp(std::round(u), -1.0, 1.0), dv = v - std::clamp(std::round(v), -1.0, 1.0);
        e += du * du + dv * dv;
      }
      if (e < best_e) best_e = e, best_t = t;
    }
  else
    best_e = 0;
  const double rms = std::sqrt(best_e / static_cast<double>(pips.size()));
  out.rms = rms;
  const cv::Point2d ax(std::cos(best_t), std::sin(best_t)), ay(-std::sin(best_t), std::cos(best_t));
  // Each place: the fraction of its ring of the body's colour, its centre's contrast (over the body's luminance).
  const cv::Mat ring_crop = ring_crop_for(crop, ring_avg);
  std::array<double, 9> ring{}, con{};
  std::array<int, 9> read_pip{};
  for (int j = -1, k = 0; j <= 1; ++j)
    for (int i = -1; i <= 1; ++i, ++k) {
      const cv::Point2d p = c + pitch * (i * ax + j * ay);
      const PlaceLook pl = seen_at && !seen_at(p, 1.75 * pr) ? PlaceLook{} : look_at_place(crop, r, p, pr, ring_crop);
      ring[k] = pl.ring, con[k] = pl.con;
      out.at[k] = p;
    }
  out.ring = ring;
  out.con = con;
  // The reading's own pips' places (nearest).
  for (const auto& q : pips) {
    const double u = std::clamp(std::round((q - c).dot(ax) / pitch), -1.0, 1.0), v = std::clamp(std::round((q - c).dot(ay) / pitch), -1.0, 1.0);
    read_pip[static_cast<std::size_t>(v + 1) * 3 + static_cast<std::size_t>(u + 1)] = 1;
  }
  for (std::size_t k = 0; k < 9; ++k) out.read_mask |= read_pip[k] << k;
  {
    double sum = 0;
    int n = 0;
    for (std::size_t k = 0; k < 9; ++k)
      if (!read_pip[k]) sum += ring[k], ++n;
    out.top_round = n > 0 ? sum / n : -1;
  }
  // The pips' contrast: the median over the reading's pips on shown places.
  std::vector<double> ref_c;
  for (std::size_t k = 0; k < 9; ++k)
    if (read_pip[k] && ring[k] >= kShownRing) ref_c.push_back(con[k]);
  double ref = 0;
  if (!ref_c.empty()) {
    std::sort(ref_c.begin(), ref_c.end());
    ref = ref_c[ref_c.size() / 2];
  }
  int mask = 0, shown_mask = 0;
  std::string dbg;
  bool clear = rms <= kClearGridRms && ref >= 0.3;
  for (std::size_t k = 0; k < 9; ++k) {
    if (debug) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " %.2f/%.2f", ring[k], con[k]);
      dbg += buf;
    }
    const char pc = place_class({ring[k], con[k]}, ref);
    if (pc == '?') continue;
    out.places[k] = pc;
    if (pc == 'o') mask |= 1 << k, shown_mask |= 1 << k, ++out.pips, ++out.shown;
    else if (pc == '.') shown_mask |= 1 << k, ++out.shown;
    else clear = false;
    // The reading's own pips on shown pip places or on places not shown, never on a shown empty one.
    if (read_pip[k] && out.places[k] != 'o') clear = false;
  }
  out.count = clear ? lone_count(allowed_counts(shown_mask, mask)) : 0;
  if (debug) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "face %d rms %.2f turn %.0f ref %.2f %s shown %d pips %d count %d:", r.face, rms, best_t * 180 / CV_PI, ref,
                  out.places, out.shown, out.pips, out.count);
    out.why = buf + dbg;
  }
  return out;
}

// (robust43) A standard layout of pips found on the top plane, looked at in the face crop cut
// centred on it and turned to it: its nine places on the crop's axes (0.27 of the face from the
// centre), each place's centre contrast with the body in the pips' polarity (look_at_place).
// `mask`: the places of the layout's pips (`pips_px`, crop pixels; each within 0.35 pitch of its
// own place, else `mask` 0); `weakest`: the weakest contrast among them; `strongest`: the
// strongest among the other places; `shown`: the places whose ring is of the body's colour.
struct LayoutPlaces {
  int mask = 0, shown = 0;
  double weakest = 0, strongest = 0;
  std::array<cv::Point2d, 9> at{};
};
static LayoutPlaces look_at_layout_places(const cv::Mat& crop, const cv::Vec3f& body, int polarity, const std::vector<cv::Point2d>& pips_px,
                                          double crop_side_mm) {
  LayoutPlaces out;
  if (crop.empty() || crop.type() != CV_8UC3 || polarity == 0 || pips_px.empty()) return out;
  const double face_px = kFaceCropPx * 16.0 / crop_side_mm, pitch = 0.27 * face_px, pr = 0.09 * face_px;
  const cv::Point2d c((crop.cols - 1) / 2.0, (crop.rows - 1) / 2.0);
  int mask = 0;
  for (const cv::Point2d& q : pips_px) {
    const double u = (q.x - c.x) / pitch, v = (q.y - c.y) / pitch, iu = std::round(u), iv = std::round(v);
    if (std::abs(iu) > 1 || std::abs(iv) > 1 || std::hypot(u - iu, v - iv) > 0.35) return out;
    const int k = static_cast<int>(iv + 1) * 3 + static_cast<int>(iu + 1);
    if (mask >> k & 1) return out;
    mask |= 1 << k;
  }
  FaceReading r;
  r.body_bgr = body;
  r.pip_polarity = polarity;
  double weakest = 1e9, strongest = -1e9;
  for (int k = 0; k < 9; ++k) {
    const cv::Point2d p = c + pitch * cv::Point2d(k % 3 - 1, k / 3 - 1);
    const PlaceLook pl = look_at_place(crop, r, p, pr, crop);
    out.at[static_cast<std::size_t>(k)] = p;
    out.shown += pl.ring >= kShownRing;
    if (mask >> k & 1) weakest = std::min(weakest, pl.con);
    else strongest = std::max(strongest, pl.con);
  }
  out.mask = mask;
  out.weakest = weakest;
  out.strongest = strongest;
  return out;
}

// (exact30) A part of a face read as a smaller one (its pips not at a face's real size: a 6's
// column of three as a 3, a 4's side of two as a 2) still shows its pips where they are. Laid at
// the face's real size, the grid's place for the face's centre is not known: the reading's pips
// (where the crop shows them) fix the grid's turn and its lattice (the pips' differences, 1
// degree steps over a quarter turn; each pip within 0.2 pitch of a node), and every 3x3 window of
// that lattice holding all of them is a place the face may be. Each node of the windows is looked
// at (look_at_place: shown when its ring is of the body's colour, then a pip or none; else, or
// neither, unknown). A window allows the counts of the standard layouts (either turn) that agree
// with all its shown nodes; `count` is the one count every window allows together (the union of
// their counts one count), from `pips` shown pips of the reading (0: several counts or none).
// The true place is one of the windows, so its count is among the union: a lone count is the
// face's, as long as each shown node is seen right. (exact31) `on_face`: a window with a shown
// node outside it is not counted (that node, a pitch or more beyond the window's outer nodes, lies
// off the window's face, whose edge is 0.85 pitch beyond them); `windows` counts the windows kept.
struct AnyPlacement {
  int count = 0, pips = 0, windows = 0;
  std::string why;  // (debug)
};
static AnyPlacement count_from_any_placement(const cv::Mat& crop, const FaceReading& reading, int polarity, double crop_side_mm,
                                            bool on_face, bool debug, double own_pip_ring = 0) {
  AnyPlacement out;
  const std::optional<SeenReading> seen = seen_reading(crop, reading, polarity);
  if (!seen || seen->pips.size() < 2) return out;
  const FaceReading& r = seen->r;
  const std::vector<cv::Point2d>& pips = seen->pips;
  const double face_px = kFaceCropPx * 16.0 / crop_side_mm, pitch = 0.27 * face_px, pr = 0.09 * face_px;
  const cv::Point2d q0 = pips[0];
  auto lattice = [&](const cv::Point2d& q, double t) {
    const double ct = std::cos(t), st = std::sin(t);
    return cv::Point2d(((q.x - q0.x) * ct + (q.y - q0.y) * st) / pitch, (-(q.x - q0.x) * st + (q.y - q0.y) * ct) / pitch);
  };
  double best_t = 0, best_e = 1e18;
  for (int deg = 0; deg < 90; ++deg) {
    const double t = deg * CV_PI / 180;
    double e = 0;
    for (const auto& q : pips) {
      const cv::Point2d u = lattice(q, t);
      e += (u.x - std::round(u.x)) * (u.x - std::round(u.x)) + (u.y - std::round(u.y)) * (u.y - std::round(u.y));
    }
    if (e < best_e) best_e = e, best_t = t;
  }
  // The lattice's origin: pips[0] moved by the pips' mean offset from their nodes.
  cv::Point2d off(0, 0);
  std::vector<cv::Point> node;
  for (const auto& q : pips) {
    const cv::Point2d u = lattice(q, best_t);
    const cv::Point n(static_cast<int>(std::lround(u.x)), static_cast<int>(std::lround(u.y)));
    if (std::hypot(u.x - n.x, u.y - n.y) > 0.2) return out;
    // Two of the reading's pips on one place: not a face's layout at this size.
    if (std::find(node.begin(), node.end(), n) != node.end()) return out;
    off += cv::Point2d(u.x - n.x, u.y - n.y);
    node.push_back(n);
  }
  off *= 1.0 / static_cast<double>(pips.size());
  const cv::Point2d ax(std::cos(best_t), std::sin(best_t)), ay(-std::sin(best_t), std::cos(best_t));
  const cv::Point2d origin = q0 + pitch * (off.x * ax + off.y * ay);
  int x0 = node[0].x, x1 = x0, y0 = node[0].y, y1 = y0;
  for (const auto& n : node) x0 = std::min(x0, n.x), x1 = std::max(x1, n.x), y0 = std::min(y0, n.y), y1 = std::max(y1, n.y);
  if (x1 - x0 > 2 || y1 - y0 > 2) return out;
  // The nodes of every window: x1 - 2 .. x0 + 2 (and y); at most 5x5.
  const int nx = x0 - x1 + 5, ny = y0 - y1 + 5;
  std::vector<PlaceLook> looks(static_cast<std::size_t>(nx * ny));
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      looks[static_cast<std::size_t>(j * nx + i)] = look_at_place(crop, r, origin + pitch * ((x1 - 2 + i) * ax + (y1 - 2 + j) * ay), pr, crop);
  auto look = [&](cv::Point n) -> const PlaceLook& { return looks[static_cast<std::size_t>((n.y - y1 + 2) * nx + (n.x - x1 + 2))]; };
  // (exact36, own_pip_ring) A node holding one of the reading's own pips is shown at that lower
  // share of its ring: the pip was found there as a round blob at the face's size, and a ring
  // round a pip at the top's edge or beside the hand reaches past it.
  auto own = [&](cv::Point n) { return std::find(node.begin(), node.end(), n) != node.end(); };
  auto ring_min = [&](cv::Point n) { return own_pip_ring > 0 && own(n) ? std::min(kShownRing, own_pip_ring) : kShownRing; };
  // The pips' contrast: the median over the reading's pips on shown nodes.
  std::vector<double> ref_c;
  for (const auto& n : node)
    if (look(n).ring >= ring_min(n)) ref_c.push_back(look(n).con);
  if (ref_c.empty()) {
    if (debug) out.why = "none of its pips shown";
    return out;
  }
  std::sort(ref_c.begin(), ref_c.end());
  const double ref = ref_c[ref_c.size() / 2];
  if (ref < 0.3) return out;
  // Each node: 'o' a pip, '.' none, '?' not shown or neither.
  auto place = [&](cv::Point n) {
    const char c = place_class(look(n), ref, ring_min(n));
    return c == '~' ? '?' : c;
  };
  int low_ring = 0;  // (debug) the reading's pips shown by own_pip_ring alone
  for (const auto& n : node) {
    if (place(n) == '.') return out;  // a reading's pip on a shown empty node
    out.pips += place(n) == 'o';
    low_ring += place(n) == 'o' && look(n).ring < kShownRing;
  }
  int counts = 0;  // bit f: count f allowed by some window
  for (int wy = y1 - 2; wy <= y0; ++wy)
    for (int wx = x1 - 2; wx <= x0; ++wx) {
      // (exact31, on_face) A shown node outside the window lies off that window's face: not its place.
      bool off_face_shown = false;
      for (int j = 0; j < ny && on_face && !off_face_shown; ++j)
        for (int i = 0; i < nx && !off_face_shown; ++i) {
          const cv::Point n(x1 - 2 + i, y1 - 2 + j);
          off_face_shown = (n.x < wx || n.x > wx + 2 || n.y < wy || n.y > wy + 2) && place(n) != '?';
        }
      if (off_face_shown) continue;
      int mask = 0, shown_mask = 0;
      for (int j = 0, k = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i, ++k) {
          const char c = place({wx + i, wy + j});
          if (c != '?') shown_mask |= 1 << k;
          if (c == 'o') mask |= 1 << k;
        }
      ++out.windows;
      counts |= allowed_counts(shown_mask, mask);
    }
  out.count = lone_count(counts);
  if (debug) {
    std::string grid;
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) grid += place({x1 - 2 + i, y1 - 2 + j});
      grid += j + 1 < ny ? "/" : "";
    }
    char buf[200];
    std::snprintf(buf, sizeof buf, "face %d turn %.0f ref %.2f nodes %s windows %d pips %d (%d by their own ring) counts 0x%x count %d", r.face,
                  best_t * 180 / CV_PI, ref, grid.c_str(), out.windows, out.pips, low_ring, counts, out.count);
    out.why = buf;
  }
  return out;
}

// (robust28) How far a reading's pips stand out of its top: each pip (where the crop shows it,
// pips_where_seen) the mean luminance (B + 2G + R) of a disc of 0.6 pip radii round it against the
// body's, in the pips' polarity (the reading's, else its colour's), over the body's luminance; the
// lower median over the pips (`contrast`: a 1's pip, a 2's weaker one, a 6's third weakest) and the
// weakest (`min_contrast`). `measured` false: no face, no polarity. A sharp frame's pips: 0.3-1.0; a
// speck of a noisy frame's grain read as a pip: about its noise's share of the level.
struct PipContrast {
  bool measured = false;
  double contrast = 0, min_contrast = 0;
};
static PipContrast pip_contrast(const cv::Mat& crop, const FaceReading& reading, int polarity, double crop_side_mm) {
  PipContrast out;
  const std::optional<SeenReading> seen = seen_reading(crop, reading, polarity);
  if (!seen) return out;
  const FaceReading& r = seen->r;
  const std::vector<cv::Point2d>& pips = seen->pips;
  const double rin = 0.6 * 0.09 * crop.cols * 16.0 / crop_side_mm;  // 0.6 pip radii (a pip: 0.09 of the face's side)
  const float blum = r.body_bgr[0] + 2 * r.body_bgr[1] + r.body_bgr[2] + 1e-3f;
  std::vector<double> cons;
  for (const auto& c : pips) {
    double s = 0;
    int n = 0;
    for (int y = std::max(0, cvFloor(c.y - rin)); y <= std::min(crop.rows - 1, cvCeil(c.y + rin)); ++y) {
      const cv::Vec3b* row = crop.ptr<cv::Vec3b>(y);
      for (int x = std::max(0, cvFloor(c.x - rin)); x <= std::min(crop.cols - 1, cvCeil(c.x + rin)); ++x)
        if ((x - c.x) * (x - c.x) + (y - c.y) * (y - c.y) <= rin * rin) s += row[x][0] + 2 * row[x][1] + row[x][2], ++n;
    }
    if (n > 0) cons.push_back((s / n - blum) * r.pip_polarity / blum);
  }
  if (cons.empty()) return out;
  out.measured = true;
  std::sort(cons.begin(), cons.end());
  out.contrast = cons[(cons.size() - 1) / 2];
  out.min_contrast = cons.front();
  return out;
}

// (exact22) The occluder gate's look at a part-covered face: the count its shown pip places allow
// (count_from_shown_places, the pips' polarity the reading's or else its colour's) is the count
// read, from at least occluded_shown_min_pips shown pips. `debug_hex`: a PLACES line.
static bool shown_count_agrees(const CellObservation& co, const cv::Mat& crop, const FaceReading& fr, const ReadParams& params,
                               const Hex* debug_hex, const PlaceSeen& seen_at = {}) {
  const ShownPlaces sp =
      count_from_shown_places(crop, fr, die_pip_polarity(co.color), 16.0 * params.face_crop_scale, debug_hex != nullptr, 0, seen_at);
  bool agrees = sp.count > 0 && sp.count == co.face && sp.pips >= params.occluded_shown_min_pips;
  // (exact24) One shown pip: a reading of two pips or more (the grid laid on them), a coloured die (its body unlike the
  // paper and the grey of a pale die in the shade, which read "black" before the pale path names them white), most places shown.
  if (!agrees && params.occluded_shown_one_pip_min_shown > 0 && sp.count > 0 && sp.count == co.face && sp.pips == 1 &&
      fr.face >= 2 && co.color != "white" && co.color != "black" && sp.shown >= params.occluded_shown_one_pip_min_shown)
    agrees = true;
  if (debug_hex)
    std::fprintf(stderr, "PLACES %d,%d %s conf %.2f %s -> %s\n", debug_hex->q, debug_hex->r, co.color.c_str(), fr.confidence, sp.why.c_str(),
                 agrees ? "agrees" : "no");
  return agrees;
}

// The weakest contrast on a reading's own pip places (`sp`: count_from_shown_places' grid, every
// place, shown or not) and the strongest on the places without its pips.
static std::pair<double, double> pip_places_contrast(const ShownPlaces& sp) {
  double weakest = std::numeric_limits<double>::max(), strongest_empty = -std::numeric_limits<double>::max();
  for (std::size_t k = 0; k < 9; ++k)
    if (sp.read_mask >> k & 1) weakest = std::min(weakest, sp.con[k]);
    else strongest_empty = std::max(strongest_empty, sp.con[k]);
  return {weakest, strongest_empty};
}

// (robust30) A faint reading's pip places against its empty ones (blur_faint_empty_ratio): the
// weakest contrast on the reading's own pip places (count_from_shown_places' grid, every place,
// shown or not) is above `min_weakest` (0 for robust30's gate) and the strongest on the places
// without its pips at most `ratio` of it, with at least `min_shown` places showing the top
// (robust34's guess gate: guess_clear_min_pip, guess_clear_min_shown). A 5 whose faint centre
// pip the lattice lost is a 4 whose empty centre stands out almost as its pips do (harsh2 2504
// (-4,1): pips 0.12-0.14, centre 0.09); an empty cell's shadow read as a 1 has no pip (harsh4
// 2705 (5,-2): -0.07). A reading the grid cannot be laid on: not clear. `sp`: the reading's
// places (count_from_shown_places in its colour's polarity), laid
// once for both gates.
static bool faint_places_clear(const CellObservation& co, const ShownPlaces& sp, double ratio, const Hex* debug_hex, double min_weakest = 0,
                               int min_shown = 0) {
  const auto [weakest, strongest_empty] = pip_places_contrast(sp);
  const bool clear = sp.read_mask != 0 && weakest > min_weakest && strongest_empty <= ratio * weakest && sp.shown >= min_shown;
  if (debug_hex)
    std::fprintf(stderr, "FAINTPLACES %d,%d %s %d conf %.2f: weakest pip %.2f, strongest empty place %.2f, %d shown%s\n", debug_hex->q,
                 debug_hex->r, co.color.c_str(), co.face, co.confidence, sp.read_mask ? weakest : 0.0, sp.read_mask ? strongest_empty : 0.0,
                 sp.shown, clear ? "" : ": not clear");
  return clear;
}

// (robust36) A larger standard layout that holds a reading's pips on its 3x3 places (`sp`:
// count_from_shown_places of the reading of `face`) and whose added places show pips too faint
// for the readers (faint_pip_fill_ratio): each added place's contrast at least `ratio` of the
// reading's weakest pip (itself at least `min_pip`), every place outside the layout at most
// `empty` of the weakest added one. The largest such face; `face` 0: none (the reading's pips not
// on one layout of its face, each on its own place).
struct PipFill {
  int face = 0, mask = 0;
  bool on_layout = false;  // the reading's pips on its face's layout, on the grid (the rest measured)
  double weakest = 0, added = 0, empty = 0;  // (debug) the reading's weakest pip, the weakest added place, the strongest place outside
};
static PipFill faint_pip_fill(const ShownPlaces& sp, int face, double ratio, double empty, double min_pip) {
  PipFill out;
  // The pips on the grid's places, as count_from_shown_places' own clear grid: pips off the face's
  // size round onto the same places, and the places measured would not be the face's.
  if (face < 1 || face > 5 || (sp.read_mask != layout_mask(face, 0) && sp.read_mask != layout_mask(face, 1)) ||
      !(sp.rms >= 0 && sp.rms <= kClearGridRms))
    return out;
  out.on_layout = true;
  double weakest = std::numeric_limits<double>::max();
  for (std::size_t k = 0; k < 9; ++k)
    if (sp.read_mask >> k & 1) weakest = std::min(weakest, sp.con[k]);
  out.weakest = weakest;
  if (!(weakest >= min_pip)) return out;
  for (int g = face + 1; g <= 6; ++g)
    for (int var = 0; var < 2; ++var) {
      const int mask = layout_mask(g, var);
      if ((mask & sp.read_mask) != sp.read_mask) continue;
      double added = std::numeric_limits<double>::max(), strongest = -std::numeric_limits<double>::max();
      for (std::size_t k = 0; k < 9; ++k)
        if (!(mask >> k & 1)) strongest = std::max(strongest, sp.con[k]);
        else if (!(sp.read_mask >> k & 1)) added = std::min(added, sp.con[k]);
      if (added >= ratio * weakest && strongest <= empty * added) out.face = g, out.mask = mask, out.added = added, out.empty = strongest;
    }
  return out;
}

// (robust31) Richardson-Lucy: the estimate times the kernel's correlation of the crop over the
// estimate blurred by the kernel (a Gaussian: its own mirror image), from the crop itself. The
// crop is taken from 1..256 (no division by zero); the result rounded back to 0..255.
cv::Mat deblur_crop(const cv::Mat& crop_bgr, double sigma_px, int iterations) {
  if (iterations <= 0 || !(sigma_px > 0) || crop_bgr.empty()) return crop_bgr;
  cv::Mat seen, est, blurred, ratio;
  crop_bgr.convertTo(seen, CV_32F, 1.0, 1.0);
  est = seen.clone();
  for (int i = 0; i < iterations; ++i) {
    cv::GaussianBlur(est, blurred, cv::Size(), sigma_px, sigma_px, cv::BORDER_REPLICATE);
    cv::divide(seen, blurred, ratio);
    cv::GaussianBlur(ratio, ratio, cv::Size(), sigma_px, sigma_px, cv::BORDER_REPLICATE);
    cv::multiply(est, ratio, est);
  }
  cv::Mat out;
  est.convertTo(out, crop_bgr.type(), 1.0, -1.0);
  return out;
}

// (exact20) The light right beside a die, against its cell's paper estimate: the paper round the
// die's base (paper-plane mm: the top face's centre; a die stands straight), on a ring of
// radius_mm .. radius_mm + 3 (12 points a turn, three radii), each sample kept when of the cell
// paper's chromaticity (within chroma_tol of (b, g, r) / sum: the paper lit or shaded, not a
// die's colour, skin or a token) and 0.2..1.1 of its brightness; the median kept sample's
// luminance over the paper's (0: fewer than a third of the samples kept). The die's own cast
// shadow takes a side of the ring at most; the median is the light the die stands in. The
// paper estimate itself is its ring's brightest quarter: under an arm's half-shadow the lit
// side of that ring.
static double light_beside(const cv::Mat& image, const cv::Matx33d& paper_to_image, cv::Point2d base_mm, cv::Vec3f paper,
                           double radius_mm, double chroma_tol) {
  const float psum = paper[0] + paper[1] + paper[2], plum = paper[0] + 2 * paper[1] + paper[2];
  if (psum <= 0 || plum <= 0) return 0;
  std::vector<float> lums;
  int n = 0;
  for (int k = 0; k < 3; ++k)
    for (int a = 0; a < 12; ++a) {
      const double r = radius_mm + 1.5 * k, t = CV_PI / 6 * (a + 0.5 * k);
      const cv::Vec3d v = paper_to_image * cv::Vec3d(base_mm.x + r * std::cos(t), base_mm.y + r * std::sin(t), 1.0);
      ++n;
      cv::Vec3b px;
      if (v[2] <= 0 || !sample(image, {v[0] / v[2], v[1] / v[2]}, px)) continue;
      const float sum = static_cast<float>(px[0] + px[1] + px[2]), lum = static_cast<float>(px[0] + 2 * px[1] + px[2]);
      if (sum <= 0 || lum < 0.2f * plum || lum > 1.1f * plum) continue;
      bool same = true;
      for (int c = 0; c < 3; ++c) same = same && std::abs(px[c] / sum - paper[c] / psum) <= chroma_tol;
      if (same) lums.push_back(lum);
    }
  if (lums.size() * 3 < static_cast<std::size_t>(n)) return 0;
  std::nth_element(lums.begin(), lums.begin() + lums.size() / 2, lums.end());
  return lums[lums.size() / 2] / plum;
}

// The angle (degrees) to cut the crop of the face some pips lie on: 2-3 pips lie on the
// pip grid's diagonal (the face is turned 45 degrees from it), 4-6 give their minimum
// rectangle; 0 otherwise.
template <typename P>
static double pip_grid_angle_deg(const std::vector<P>& pips) {
  double ang_deg = 0, far = 0;
  if (pips.size() == 2 || pips.size() == 3) {
    for (const auto& a : pips)
      for (const auto& b : pips)
        if (cv::norm(a - b) > far) far = cv::norm(a - b), ang_deg = std::atan2(b.y - a.y, b.x - a.x) * 180 / CV_PI - 45;
  } else if (pips.size() >= 4) {
    const std::vector<cv::Point2f> pf(pips.begin(), pips.end());
    ang_deg = cv::minAreaRect(pf).angle;
  }
  return ang_deg;
}

// cut_face_crop's crop pixel (u, v) -> top-plane mm: centre + R(angle) * (u - c, v - c) * side / canon.
static cv::Matx33d face_crop_to_mm(cv::Point2d centre_mm, double angle_deg, double side_mm, int canon) {
  const double sc = side_mm / canon, ang = angle_deg * CV_PI / 180;
  const double ca = std::cos(ang) * sc, sa = std::sin(ang) * sc, c0 = (canon - 1) / 2.0;
  return cv::Matx33d(ca, -sa, centre_mm.x - ca * c0 + sa * c0, sa, ca, centre_mm.y - sa * c0 - ca * c0, 0, 0, 1);
}

cv::Mat cut_face_crop(const cv::Mat& image, const cv::Matx33d& top_to_image, cv::Point2d centre_mm, double angle_deg,
                      double side_mm, int canon) {
  cv::Mat crop;
  warp_perspective_linear(image, crop, top_to_image * face_crop_to_mm(centre_mm, angle_deg, side_mm, canon), cv::Size(canon, canon),
                          cv::BORDER_REPLICATE);  // = cv::warpPerspective
  return crop;
}

namespace {

constexpr double kSqrt3 = 1.7320508075688772;


// Paper colour near a cell: samples on the paper plane just inside its border. Dice,
// their shadows and grid lines darken some samples; the paper is taken as the median of the
// brightest quarter (by luminance), so most samples may be covered.
// The median of the brightest quarter (by luminance) of the samples: brightest_quarter (read.h).
// die_free (when given): the same without samples of a die's lit top, see below.
// A body colour relative to the white (per channel). (exact18) Channels at the sensor's top
// (clip, 0..255; 0 = off) say only "at least this bright": when two or more are there, each
// is taken as bright as the brightest of them relative to the white (a glared yellow top at
// 171 251 252 under a cool white 150 157 176 is 1.14 1.60 1.43 plainly, a hue of 82 deg:
// "green"; its red is clipped, as its green is: 1.14 1.60 1.60, yellow).
cv::Vec3f relative_to_white(cv::Vec3f body, cv::Vec3f white, double clip) {
  cv::Vec3f rel(body[0] / white[0], body[1] / white[1], body[2] / white[2]);
  if (clip <= 0) return rel;
  int n = 0;
  float top = 0;
  for (int k = 0; k < 3; ++k)
    if (body[k] >= clip) ++n, top = std::max(top, rel[k]);
  if (n >= 2)
    for (int k = 0; k < 3; ++k)
      if (body[k] >= clip) rel[k] = top;
  return rel;
}

cv::Vec3f cell_paper(const cv::Mat& img, const cv::Matx33d& h, Point c, double hex_size, double tol = 0, cv::Vec3f* die_free = nullptr) {
  // (speed27) The 18 directions' cosines and sines once (the same doubles for every cell).
  static const auto dirs = cos_sin_table<18>(ReaderAngles::cell_paper);
  std::vector<cv::Vec3b> s;
  s.reserve(2 * dirs.size());
  const double inscribed = hex_size * kSqrt3 / 2;
  for (double rad : {0.8 * inscribed, 0.9 * inscribed})
    for (const auto& [ca, sa] : dirs) {
      cv::Vec3b v;
      if (sample(img, apply_h(h, {c.x + rad * ca, c.y + rad * sa}), v)) s.push_back(v);
    }
  // A die's lit top in the ring may be brighter than the paper (a glared yellow top): the
  // brightest quarter is then the die. Without the samples far (> tol) from the median
  // chromaticity of all (the paper's: shadows keep it) that are also more saturated than it
  // (a white top keeps the old estimate), when enough are left and that moves the estimate's
  // chromaticity by more than tol (docs/reader.md, colour3).
  const cv::Vec3f plain = brightest_quarter(s);
  if (die_free) *die_free = plain;
  if (die_free && tol > 0 && s.size() >= 8) {
    auto chroma = [](cv::Vec3b v) {
      const float t = std::max(1.0f, static_cast<float>(v[0] + v[1] + v[2]));
      return cv::Vec3f(v[0] / t, v[1] / t, v[2] / t);
    };
    std::vector<cv::Vec3f> cs;
    cs.reserve(s.size());
    for (const auto& v : s) cs.push_back(chroma(v));
    cv::Vec3f med;
    std::vector<float> ch(cs.size());
    for (int k = 0; k < 3; ++k) {
      for (std::size_t i = 0; i < cs.size(); ++i) ch[i] = cs[i][k];
      std::nth_element(ch.begin(), ch.begin() + static_cast<long>(ch.size() / 2), ch.end());
      med[k] = ch[ch.size() / 2];
    }
    auto sat = [](cv::Vec3f q) { return (std::max({q[0], q[1], q[2]}) - std::min({q[0], q[1], q[2]})) / std::max({q[0], q[1], q[2]}); };
    const float med_sat = sat(med);
    const float sat_gain = 0.1f;
    std::vector<cv::Vec3b> kept;
    kept.reserve(s.size());  // (speed43) one allocation, not one per doubling
    for (std::size_t i = 0; i < s.size(); ++i) {
      const cv::Vec3f& q = cs[i];
      if (std::max({std::abs(q[0] - med[0]), std::abs(q[1] - med[1]), std::abs(q[2] - med[2])}) <= tol || sat(q) <= med_sat + sat_gain) kept.push_back(s[i]);
    }
    if (kept.size() >= 8 && kept.size() < s.size()) {
      const cv::Vec3f& all = plain;
      const cv::Vec3f paper = brightest_quarter(kept);
      // Only where the die's colour moved the estimate off the paper's chromaticity.
      const cv::Vec3f a = chroma(cv::Vec3b(cv::saturate_cast<uchar>(all[0]), cv::saturate_cast<uchar>(all[1]), cv::saturate_cast<uchar>(all[2]))),
                      b = chroma(cv::Vec3b(cv::saturate_cast<uchar>(paper[0]), cv::saturate_cast<uchar>(paper[1]), cv::saturate_cast<uchar>(paper[2])));
      if (std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])}) > tol) *die_free = paper;
    }
  }
  return plain;
}

// Holes of a mask filled: what a flood fill from outside does not reach (mask_ops.h: the
// padded cv::floodFill's result, without the copies).
void fill_holes(cv::Mat& mask) { fill_holes_fast(mask); }

// Shadows on the paper (and grey side faces): the paper colour scaled down, same
// chromaticity.
cv::Mat shadow_mask(const cv::Mat& patch, cv::Vec3f paper, double kmin, double kmax, const cv::Mat& where) {
  cv::Mat m(patch.size(), CV_8U, cv::Scalar(0));
  const float pp[3] = {paper[0], paper[1], paper[2]};
  // Per pixel where `where` is set: chromaticity within 0.04 of the paper's, brightness
  // kmin..kmax of it (mask_ops.h, 16 pixels at a time).
  for (int y = 0; y < patch.rows; ++y) shadow_row(patch.ptr<uchar>(y), where.ptr<uchar>(y), patch.cols, pp, kmin, kmax, m.ptr<uchar>(y));
  return m;
}

// 255 where the pixel is further than thr from ref (greater) or within it (mask_ops.h).
cv::Mat dist_mask(const cv::Mat& patch, cv::Vec3f ref, double thr, bool greater) {
  return color_distance_mask(patch, ref, thr, greater);
}

// The patch pixels within thr of `colour` (dist_mask) whose paper point (patch_to_mm, then
// minus d) satisfies `where`: the table beyond the sheet, the sheet's margin beyond the grid.
template <class Where>
cv::Mat colour_mask_where(const cv::Mat& patch, cv::Vec3f colour, double thr, const cv::Matx33d& patch_to_mm,
                          cv::Point2d d, const Where& where) {
  cv::Mat m = dist_mask(patch, colour, thr, false);
  for (int y = 0; y < patch.rows; ++y) {
    uchar* r = m.ptr<uchar>(y);
    for (int x = 0; x < patch.cols; ++x)
      if (r[x] && !where(apply_h(patch_to_mm, {static_cast<double>(x), static_cast<double>(y)}) - d)) r[x] = 0;
  }
  return m;
}

// The table beyond the sheet (exact10, docs/reader.md): the patch pixels (top-plane px,
// patch_to_mm -> top-plane mm) whose paper point (mm - d) lies outside the sheet show the
// table, not paper, so they differ from the cell's paper and were foreground: beside a die
// at the sheet's edge they joined its blob, and its top face was looked for on the table.
// Those of the table's own colour (within thr of the median of image samples on the paper
// plane 4-16 mm beyond the sheet's nearest edge, +-40 mm along it) are returned (255); an
// empty Mat when no paper point of the patch is off the sheet or the table is not seen.
cv::Mat table_mask(const cv::Mat& image, const cv::Matx33d& paper_to_image, const SheetLayout& layout, const cv::Mat& patch,
                   const cv::Matx33d& patch_to_mm, cv::Point2d d, Point cell_centre, double thr) {
  const double w = layout.width_mm, h = layout.height_mm;
  auto off = [&](cv::Point2d q) { return q.x < 0 || q.y < 0 || q.x > w || q.y > h; };
  // Corners first: no pixel off the sheet, nothing to do (most cells).
  bool any = false;
  for (cv::Point2d c : {cv::Point2d(0, 0), cv::Point2d(patch.cols - 1, 0), cv::Point2d(0, patch.rows - 1),
                        cv::Point2d(patch.cols - 1, patch.rows - 1)})
    any = any || off(apply_h(patch_to_mm, c) - d);
  if (!any) return {};
  // The nearest edge's outward normal; samples beyond it along the edge.
  const double dist[4] = {cell_centre.x, w - cell_centre.x, cell_centre.y, h - cell_centre.y};
  const int e = static_cast<int>(std::min_element(dist, dist + 4) - dist);
  std::vector<cv::Vec3b> s;
  for (double out = 4; out <= 16; out += 4)
    for (double along = -40; along <= 40; along += 4) {
      const cv::Point2d q = e == 0 ? cv::Point2d(-out, cell_centre.y + along)
                            : e == 1 ? cv::Point2d(w + out, cell_centre.y + along)
                            : e == 2 ? cv::Point2d(cell_centre.x + along, -out)
                                     : cv::Point2d(cell_centre.x + along, h + out);
      cv::Vec3b v;
      if (sample(image, apply_h(paper_to_image, q), v)) s.push_back(v);
    }
  if (s.size() < 12) return {};
  return colour_mask_where(patch, median_bgr(s), thr, patch_to_mm, d, off);
}

// The sheet's margin beyond the grid (exact13, docs/reader.md): as table_mask, for the paper
// round the grid. A die in an outer cell is seen against the paper beyond the grid's rim on
// the side away from the camera; that paper is untinted, so on a tinted cell it differs from
// the cell's paper, was foreground and joined the die's blob (dev5 602: a black 1's top square
// slid onto it, read as a white 1). The patch pixels whose paper point (mm - d) lies on the
// sheet but in no cell and whose colour is within thr of that margin's (the median of image
// samples on the paper plane in no cell, 1.15-1.6 hex sizes round the cell centre) are
// returned (255); an empty Mat when no paper point of the patch is beyond the grid, or the
// margin's paper is the cell's own (an untinted cell: the margin is not foreground there).
cv::Mat margin_mask(const cv::Mat& image, const cv::Matx33d& paper_to_image, const SheetLayout& layout, const cv::Mat& patch,
                    const cv::Matx33d& patch_to_mm, cv::Point2d d, Point cell_centre, cv::Vec3f cell_paper, double thr) {
  const double w = layout.width_mm, h = layout.height_mm;
  auto margin = [&](cv::Point2d q) { return q.x >= 0 && q.y >= 0 && q.x <= w && q.y <= h && !layout.cell_at({q.x, q.y}); };
  bool any = false;
  for (cv::Point2d c : {cv::Point2d(0, 0), cv::Point2d(patch.cols - 1, 0), cv::Point2d(0, patch.rows - 1),
                        cv::Point2d(patch.cols - 1, patch.rows - 1)})
    any = any || margin(apply_h(patch_to_mm, c) - d);
  if (!any) return {};
  std::vector<cv::Vec3b> s;
  // (speed47) The 36 directions' cosines and sines once (were 1960 sincos calls at 720p).
  static const auto dirs = cos_sin_table<36>(ReaderAngles::margin_ring);
  for (double rr = 1.15; rr <= 1.61; rr += 0.15)
    for (const auto& [ca, sa] : dirs) {
      const cv::Point2d q(cell_centre.x + rr * layout.hex_size_mm * ca, cell_centre.y + rr * layout.hex_size_mm * sa);
      cv::Vec3b v;
      if (margin(q) && sample(image, apply_h(paper_to_image, q), v)) s.push_back(v);
    }
  if (s.size() < 8) return {};
  const cv::Vec3f paper = median_bgr(s);
  if (cv::norm(paper - cell_paper) <= thr) return {};
  return colour_mask_where(patch, paper, thr, patch_to_mm, d, margin);
}

}  // namespace

// Clears, in a mask on the paper plane at s px/mm, what is printed but is no cell: the
// markers and the white/grey patches (3 mm round them), and the outer 5 mm, which shows the
// table beyond the paper when the registration is a little off. The hand and occluder
// masks both leave these out.
static void blank_print_marks(cv::Mat& mask, const SheetLayout& layout, double s) {
  auto blank = [&](Point a, Point b, double grow) {
    cv::rectangle(mask, cv::Point(cvFloor((a.x - grow) * s), cvFloor((a.y - grow) * s)),
                  cv::Point(cvCeil((b.x + grow) * s), cvCeil((b.y + grow) * s)), cv::Scalar(0), cv::FILLED);
  };
  for (const auto& m : layout.markers) {
    Point a{1e9, 1e9}, b{-1e9, -1e9};
    for (const auto& c : m.corners) {
      a = {std::min(a.x, c.x), std::min(a.y, c.y)};
      b = {std::max(b.x, c.x), std::max(b.y, c.y)};
    }
    blank(a, b, 3.0);
  }
  blank(layout.white_patch[0], layout.white_patch[1], 3.0);
  blank(layout.grey_patch[0], layout.grey_patch[1], 3.0);
  cv::rectangle(mask, cv::Rect(0, 0, mask.cols, mask.rows), cv::Scalar(0), std::max(1, cvRound(10.0 * s)));
}

// Whether cv::distanceTransform(mask, DIST_L2, DIST_MASK_5) can exceed r anywhere (a
// core of the hand and occluder masks): false only when it cannot. Its 5x5 chamfer
// weights are 1, 1.4 and 2.1969, so a pixel further than r from every zero pixel has
// no zero pixel within k = floor((r - 0.5) / 1.4) in both x and y (such a pixel is at
// most 1.4 k <= r - 0.5 away); the erosion by that square (cv::erode's border never
// wins, as outside the image is no zero for distanceTransform either) is then not
// empty. Tested against the distance transform (HandMask.CoreTestNeverMissesACore).
int chamfer_core_half_side(double r) { return static_cast<int>(std::floor((r - 0.5) / 1.4)); }
bool chamfer_core_possible(const cv::Mat& mask, double r) {
  const int k = chamfer_core_half_side(r);
  if (k < 1) return true;
  cv::Mat e;
  cv::erode(mask, e, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * k + 1, 2 * k + 1)));
  return cv::countNonZero(e) > 0;
}

// (speed30) A distance map's threshold, `d > t` (!within) or `d <= t` (within) of src's
// distance from its zeros (mask_ops.h): with chamfer_bits as bit erosions or dilations, without
// the map; ReadProfile::distance_maps counts the maps OpenCV made (chamfer_bits off, or a
// threshold the bit path falls back on).
static cv::Mat distance_threshold(const cv::Mat& src, double t, bool within, const ReadParams& params) {
  cv::Mat m;
  const bool bits = params.chamfer_bits && chamfer5_threshold(src, t, within, m);
  if (!params.chamfer_bits) chamfer5_threshold_ref(src, t, within, m);
  if (ReadProfile* prof = read_profile(); prof && !bits) ++prof->distance_maps;
  return m;
}

// Hands and arms over the sheet, on the paper plane at params.hand_px_per_mm (255 =
// covered, already grown by hand_margin_mm); empty when nothing is found. Markers and the
// colour patches are printed dark/grey on purpose and are left out.
static cv::Mat hand_mask(const cv::Mat& sheet, const SheetLayout& layout, cv::Vec3f white, const ReadParams& params) {
  const double s = params.hand_px_per_mm;
  const cv::Size size = sheet.size();
  if (size.area() <= 0) return {};
  cv::Mat mask(size, CV_8U);  // (speed39) not zeroed first: skin_row writes every pixel
  const float iw[3] = {1.0f / white[0], 1.0f / white[1], 1.0f / white[2]};
  const float chroma = static_cast<float>(params.hand_chroma);
  const float hue_min = static_cast<float>(params.hand_hue_min), hue_max = static_cast<float>(params.hand_hue_max);
  // Skin: red > green > blue with the hue (0 red, 60 yellow) in hand_hue_min..max
  // whatever the shading; dice are red (hue ~0), yellow (~55), green, blue, white or
  // black, and printed tints are pale. 16 pixels at a time (mask_ops.h).
  for (int y = 0; y < size.height; ++y) skin_row(sheet.ptr<uchar>(y), size.width, iw, chroma, hue_min, hue_max, mask.ptr<uchar>(y));
  blank_print_marks(mask, layout, s);
  // No hand-sized area of skin at all (the usual frame): nothing more to do.
  if (cv::countNonZero(mask) < params.hand_min_area_mm2 * s * s * 0.5) return {};
  const cv::Mat raw = mask.clone();
  cv::Mat raw_closed_small;
  cv::morphologyEx(raw, raw_closed_small, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3)));
  // Fingers and gaps between them belong together.
  const int k = std::max(3, cvRound(7.0 * s)) | 1;
  cv::morphologyEx(mask, mask, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(k, k)));
  // A hand or an arm is thick: a disc of hand_core_mm fits inside its palm or forearm
  // somewhere. Dice, guard tokens and their shadows are at most ~16 x 27 mm on this plane
  // (35 deg tilt), so even a crowd of them on neighbouring cells has no such core (the
  // gaps between cells are paper).
  cv::Mat core;
  {
    // Without the finger closing: gaps between dice must stay open here. The threshold of the
    // distance from the mask's zeros is its erosion by a disc of that radius (distance_threshold).
    if (!chamfer_core_possible(raw, 0.5 * params.hand_core_mm * s)) return {};  // (no core: as below, cheaper)
    core = distance_threshold(raw, 0.5 * params.hand_core_mm * s, false, params);
  }
  if (cv::countNonZero(core) == 0) return {};
  cv::Mat labels, stats, centroids;
  const int n = components_with_stats(mask, labels, stats, centroids);  // = cv::connectedComponentsWithStats (mask_ops.h)
  const double min_px = params.hand_min_area_mm2 * s * s;
  std::vector<uchar> big(static_cast<std::size_t>(n), 0);
  bool any = false;
  {
    cv::Mat core_labels(labels.size(), CV_32S, cv::Scalar(0));
    labels.copyTo(core_labels, core);
    std::vector<int> hist(static_cast<std::size_t>(n), 0);
    for (int y = 0; y < size.height; ++y) {
      const int* l = core_labels.ptr<int>(y);
      for (int x = 0; x < size.width; ++x) ++hist[static_cast<std::size_t>(l[x])];
    }
    for (int i = 1; i < n; ++i)
      if (hist[static_cast<std::size_t>(i)] > 0 && stats.at<int>(i, cv::CC_STAT_AREA) > min_px) big[static_cast<std::size_t>(i)] = 1, any = true;
  }
  if (!any) return {};
  cv::Mat lut(1, n, CV_8U);
  for (int i = 0; i < n; ++i) lut.at<uchar>(0, i) = big[static_cast<std::size_t>(i)] ? 255 : 0;
  cv::Mat hand(size, CV_8U);
  for (int y = 0; y < size.height; ++y) {
    const int* l = labels.ptr<int>(y);
    uchar* out = hand.ptr<uchar>(y);
    for (int x = 0; x < size.width; ++x) out[x] = lut.at<uchar>(0, l[x]);
  }
  // Only the hand's own pixels (the closing bridged finger gaps, which may show dice).
  hand &= raw_closed_small;
  if (params.hand_margin_mm > 0) {
    const int g = std::max(1, cvRound(params.hand_margin_mm * s)) * 2 + 1;
    cv::dilate(hand, hand, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(g, g)));
  }
  if (const char* dbg = std::getenv("HEXDICE_HAND_DEBUG")) {
    // (exact15) The skin mask beside the frame on the paper plane: the raw skin pixels grey,
    // the hand's (grown) white.
    cv::Mat m3, both;
    cv::Mat shown = raw / 2;
    shown.setTo(255, hand);
    cv::cvtColor(shown, m3, cv::COLOR_GRAY2BGR);
    cv::hconcat(std::vector<cv::Mat>{sheet, m3}, both);
    cv::imwrite(std::string(dbg) + "_skin.png", both);
  }
  return hand;
}

// The expected print of the sheet on the paper plane at s px/mm (BGR, paper = 255):
// the Hex Dice drawing rendered at 3x and averaged down. Cached per layout geometry (a
// video loop reads the same sheet every frame); drawing it costs more than a read.
struct ExpectedPrint {
  cv::Mat print;       // BGR, paper = 255
  cv::Mat pmin, pmax;  // its 3x3 minimum and maximum (registration tolerance)
  cv::Mat dark;        // pmin's grey level < 200: printed lines and names
  std::vector<cv::Vec3f> cell_print;  // each cell's print colour (cell_paper of the print), per layout cell
};
static ExpectedPrint expected_print(const SheetLayout& layout, double s, cv::Size size) {
  static std::mutex mu;
  static std::vector<std::pair<std::string, ExpectedPrint>> cache;
  std::string key = layout.paper + ' ' + std::to_string(layout.width_mm) + ' ' + std::to_string(layout.height_mm) + ' ' +
                    std::to_string(layout.radius) + ' ' + std::to_string(layout.hex_size_mm) + ' ' +
                    std::to_string(layout.centre_mm.x) + ' ' + std::to_string(layout.centre_mm.y) + ' ' +
                    std::to_string(layout.cells.size()) + ' ' + std::to_string(layout.marker_size_mm) + ' ' + std::to_string(s);
  for (const auto& m : layout.markers) key += ' ' + std::to_string(m.id) + ':' + std::to_string(m.corners[0].x) + ',' + std::to_string(m.corners[0].y);
  const std::lock_guard<std::mutex> lock(mu);
  for (const auto& [k, m] : cache)
    if (k == key && m.print.size() == size) return m;
  cv::Mat big = render_sheet(layout, s * 25.4 * 3);
  if (big.empty()) return {};
  ExpectedPrint out;
  cv::resize(big, out.print, size, 0, 0, cv::INTER_AREA);
  // What occluder_mask derives from the print, once per sheet (a frame whose cells show
  // the drawing's own tints, the usual one, uses these as they are).
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  cv::erode(out.print, out.pmin, k3);
  cv::dilate(out.print, out.pmax, k3);
  cv::Mat grey;
  cv::cvtColor(out.pmin, grey, cv::COLOR_BGR2GRAY);
  out.dark = grey < 200;
  // Each cell's printed tint, as the colour names' light reads it (cell_paper of the print
  // at the cell): the same every frame, ~15 000 instructions a cell (round 15).
  out.cell_print.reserve(layout.cells.size());
  for (const auto& c : layout.cells)
    out.cell_print.push_back(cell_paper(out.print, cv::Matx33d(s, 0, 0, 0, s, 0, 0, 0, 1), c.centre, layout.hex_size_mm));
  if (cache.size() >= 4) cache.erase(cache.begin());
  cache.emplace_back(key, out);
  return out;
}

// Whatever hides the sheet, from the print (issue 3): on the paper plane at hand_px_per_mm,
// a pixel differs from the expected print when, relative to the paper's white, it is
// darker than occluder_dark x the print (an arm's shadow, a dark sleeve) or its
// chromaticity is more than occluder_chroma from the print's (skin of any tone, a
// coloured sleeve), both against the print's 3x3 neighbourhood (registration). A cell
// whose own paper has another tint than the drawing while all its printed edges are seen
// (a board drawn differently, e.g. Wizard Hex) takes its measured tint as the print.
// What is thick (an opening by a disc of occluder_core_mm: an arm, a sleeve, a palm, the
// shadow of an arm; never a die, its sides and shadow, nor a cluster of dice on
// neighbouring cells, which leave paper between them) and larger than
// occluder_min_area_mm2 is returned (255), grown by hand_margin_mm; empty when none.
static cv::Mat occluder_mask(const cv::Mat& sheet, const SheetLayout& layout, cv::Vec3f paper,
                             const std::vector<cv::Vec3f>& cell_papers, const std::vector<int>& edges,
                             const ReadParams& params) {
  const double s = params.hand_px_per_mm;
  const cv::Size size(cvCeil(layout.width_mm * s), cvCeil(layout.height_mm * s));
  if (size.area() <= 0 || size.area() > 4'000'000 || params.occluder_core_mm <= 0) return {};
  const ExpectedPrint expected = expected_print(layout, s, size);
  cv::Mat print = expected.print;  // shared with the cache: copied before a cell is tinted
  if (print.empty()) return {};
  bool tinted = false;
  std::vector<cv::Rect> redrawn;  // (speed38) what each tinted cell's fill may have changed
  // (speed39) The tinted cells' fills, each on its own small mask (print_fill, mask_ops.h),
  // while `print` stays the cached drawing: no copy of the whole print (~0.38 M instructions).
  // `whole`: a fill print_fill could not vouch for (at the sheet's side); the whole print is
  // then copied and filled, as before.
  std::vector<PrintFill> fills;
  std::vector<std::pair<std::vector<cv::Point>, cv::Scalar>> filled;  // the same fills' points and tints
  bool whole = false;
  // A fill drawn into the whole print, and the box it may have changed: fillConvexPoly draws
  // within its points' bounding box (grown by 1 px here all the same).
  auto fill_whole = [&](const std::vector<cv::Point>& q, const cv::Scalar& t) {
    cv::fillConvexPoly(print, q, t);
    const cv::Rect drawn = cv::boundingRect(q);
    redrawn.emplace_back(drawn.x - 1, drawn.y - 1, drawn.width + 2, drawn.height + 2);
  };
  // The print's colour at the centre of cell i, when at least min_edges of its printed
  // edges are seen and that centre lies on the print.
  auto seen_print = [&](std::size_t i, int min_edges, cv::Vec3b& e) {
    if (i >= edges.size() || edges[i] < min_edges) return false;
    const Point c = layout.cells[i].centre;
    const int x = cvRound(c.x * s), y = cvRound(c.y * s);
    if (x < 0 || y < 0 || x >= size.width || y >= size.height) return false;
    e = whole ? print.at<cv::Vec3b>(y, x) : print_fill_at(print, fills, x, y);
    return true;
  };
  // Cells printed in another tint than the drawing (all six edges seen: the print is
  // there, nothing lies over it): the measured tint is the print.
  for (std::size_t i = 0; i < layout.cells.size() && i < cell_papers.size(); ++i) {
    cv::Vec3b e;
    if (!seen_print(i, 6, e)) continue;
    const Point c = layout.cells[i].centre;
    cv::Vec3f m;
    for (int k = 0; k < 3; ++k) m[k] = std::min(255.0f, 255.0f * cell_papers[i][k] / paper[k]);
    const float se = e[0] + e[1] + e[2] + 1e-3f, sm = m[0] + m[1] + m[2] + 1e-3f;
    float d2 = 0;
    for (int k = 0; k < 3; ++k) d2 += (e[k] / se - m[k] / sm) * (e[k] / se - m[k] / sm);
    if (d2 < 0.02f * 0.02f) continue;
    // A shadow is no tint: only a cell as bright as its drawing is taken as printed so.
    if (m[0] + 2 * m[1] + m[2] < params.occluder_dark * 1.1 * (e[0] + 2 * e[1] + e[2])) continue;
    std::vector<cv::Point> poly;
    const auto corners = layout.cell_corners(layout.cells[i].hex);
    for (const auto& q : corners)  // shrunk by 1.5 mm: the grid line stays the drawing's
      poly.emplace_back(cvRound((c.x + (q.x - c.x) * (1 - 1.5 / layout.hex_size_mm)) * s),
                        cvRound((c.y + (q.y - c.y) * (1 - 1.5 / layout.hex_size_mm)) * s));
    tinted = true;
    const cv::Scalar tint(m[0], m[1], m[2]);
    if (!whole) {
      PrintFill f;
      if (print_fill(size, poly, tint, f)) {
        fills.push_back(std::move(f));
        filled.emplace_back(poly, tint);
        continue;
      }
      // The whole print after all: the fills so far drawn into its copy, in their order.
      print = print.clone(), whole = true;
      for (const auto& [q, t] : filled) fill_whole(q, t);
    }
    fill_whole(poly, tint);
  }
  if (sheet.size() != size) return {};
  cv::Mat pmin = expected.pmin, print_dark = expected.dark;
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  // (speed38) The tinted print's 3x3 minimum and maximum and its dark lines (the minimum's grey
  // level < 200, as expected_print's) differ from the drawing's only round the cells redrawn:
  // computed there alone (print_minmax_patches, mask_ops.h), the rest read from the cached
  // sheet's, where the whole print's erosion, dilation, grey level and compare cost ~1.6 M
  // instructions a frame.
  PrintPatches patches;
  if (tinted) {
    // (speed39) Without the whole print's copy: from the cached drawing and the fills.
    patches = whole ? print_minmax_patches(print, redrawn, 200) : print_fill_patches(print, fills, 200);
    if (std::getenv("HEXDICE_HAND_DEBUG"))
      std::fprintf(stderr, "FILL %zu tinted cells on %zu patches%s\n", whole ? redrawn.size() : fills.size(), patches.box.size(),
                   whole ? " (the whole print copied: a fill at the sheet's side)" : "");
  }
  // The light's colour where each part of the sheet lies (a lamp's colour changes over the
  // sheet; the shade of an arm is lit by the room): from the cells whose print is seen
  // (five or six edges), their paper over their print, smoothed over ~45 mm, on a 10 mm
  // grid. Colour is compared under this local light; darkness against the paper's white.
  cv::Mat light;  // CV_32FC3, per channel, sum 3
  {
    std::vector<cv::Point2d> at;
    std::vector<cv::Vec3f> rho;
    for (std::size_t i = 0; i < layout.cells.size() && i < cell_papers.size(); ++i) {
      cv::Vec3b e;
      if (!seen_print(i, 5, e)) continue;
      const Point c = layout.cells[i].centre;
      cv::Vec3f r;
      for (int k = 0; k < 3; ++k) r[k] = cell_papers[i][k] / std::max(20.0f, static_cast<float>(e[k]));
      const float sum = r[0] + r[1] + r[2];
      if (sum <= 0) continue;
      at.emplace_back(c.x, c.y);
      rho.push_back(r * (3.0f / sum));
    }
    const double step = 10.0, sigma = 45.0;
    const int gw = std::max(1, cvCeil(layout.width_mm / step)) + 1, gh = std::max(1, cvCeil(layout.height_mm / step)) + 1;
    cv::Mat grid(gh, gw, CV_32FC3);
    cv::Vec3f global(1, 1, 1);
    {
      const float sum = paper[0] + paper[1] + paper[2];
      global = cv::Vec3f(paper[0], paper[1], paper[2]) * (3.0f / sum);
    }
    // The Gaussian is separable: exp(-(dx^2 + dy^2) / 2s^2) = ex(gx, k) * ey(gy, k).
    const std::size_t nk = at.size();
    std::vector<double> ex(static_cast<std::size_t>(gw) * nk), ey(static_cast<std::size_t>(gh) * nk);
    for (int gx = 0; gx < gw; ++gx)
      for (std::size_t k = 0; k < nk; ++k) {
        const double dx = gx * step - at[k].x;
        ex[static_cast<std::size_t>(gx) * nk + k] = std::exp(-dx * dx / (2 * sigma * sigma));
      }
    for (int gy = 0; gy < gh; ++gy)
      for (std::size_t k = 0; k < nk; ++k) {
        const double dy = gy * step - at[k].y;
        ey[static_cast<std::size_t>(gy) * nk + k] = std::exp(-dy * dy / (2 * sigma * sigma));
      }
    light_grid(ex, ey, rho, global, grid);  // the weighted means (mask_ops.h, 4 grid columns at a time)
    // (speed35) Only the part on the sheet: the same floats as cv::resize's (mask_ops.h).
    const cv::Size full(cvRound((gw - 1) * step * s) + 1, cvRound((gh - 1) * step * s) + 1);
    resize_linear_f32_part(grid, light, full, cv::Size(std::min(full.width, size.width), std::min(full.height, size.height)));
    if (light.size() != size) cv::copyMakeBorder(light, light, 0, size.height - light.rows, 0, size.width - light.cols, cv::BORDER_REPLICATE);
  }
  cv::Mat diff(size, CV_8U);  // (speed39) not zeroed first: occluder_diff_patched writes every pixel
  const float ip[3] = {1.0f / paper[0], 1.0f / paper[1], 1.0f / paper[2]};
  const float dark = static_cast<float>(params.occluder_dark);
  const float c2 = static_cast<float>(params.occluder_chroma * params.occluder_chroma);
  // Per pixel (mask_ops.h, 16 at a time): darker than dark x the print's 3x3 minimum, or
  // (lit enough) its chromaticity under the local light far from the print's, its 3x3
  // minimum's and maximum's (registration). The luminance ratio is wanted only for an
  // arm's penumbra, below: computed there (occluder_ratio_row, the same float operations)
  // when there is an arm.
  // (speed38) The minimum and maximum from the patches round the tinted cells, else the drawing's.
  occluder_diff_patched(sheet, print, expected.pmin, expected.pmax, patches, light, ip, dark, c2, diff);
  blank_print_marks(diff, layout, s);
  const char* dbg = std::getenv("HEXDICE_HAND_DEBUG");
  const double r = 0.5 * params.occluder_core_mm * s;
  // The usual frame has no arm: no pixel of diff, as the closings and the opening below
  // leave it, further than r from its zeros, which a square erosion (cheaper than the
  // distance transform: chamfer_core_possible) tells first; (speed16) all of it done on rows
  // of bits (occluder_core_possible, mask_ops.h: the same answer as OpenCV's calls, ~2x
  // fewer instructions), before OpenCV's morphology is run for the mask itself.
  // (speed39) The tinted dark lines read from the patches (no copy of the whole dark mask).
  if (!dbg && !occluder_core_possible(diff, expected.dark, patches.box, patches.dark, chamfer_core_half_side(r))) return {};
  // Past here (an arm may be there) the whole tinted dark mask: a new buffer, as expected.dark
  // shares its data with the cached sheet's (the next frame, or another thread, would see this
  // frame's tints as the sheet's).
  if (tinted) print_dark = with_patches(expected.dark, patches.box, patches.dark);
  // The printed lines and names are not compared (the 3x3 tolerance keeps them as
  // print): where the print is dark, what differs round them stands for them too, or the
  // grid would cut an arm's shadow into cell-sized pieces.
  {
    cv::Mat closed;
    cv::morphologyEx(diff, closed, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
    diff |= closed & print_dark;
  }
  // Single noisy pixels (JPEG, the grain of a soft shadow) do not matter; holes in a
  // shadow's grain are closed.
  cv::morphologyEx(diff, diff, cv::MORPH_CLOSE, k3);
  cv::morphologyEx(diff, diff, cv::MORPH_OPEN, k3);
  // (speed30) Each distance map below is only compared with a threshold (distance_threshold).
  const cv::Mat core = distance_threshold(diff, r, false, params);  // distance from diff's zeros > r
  if (cv::countNonZero(core) == 0 && !dbg) return {};
  // The opening: every pixel within r of the core (a disc of the core's size fits there).
  cv::Mat thick = distance_threshold(~core, r + 0.5, true, params);
  thick &= diff;
  cv::Mat labels, stats, cents;
  const int n = components_with_stats(thick, labels, stats, cents);  // = cv::connectedComponentsWithStats (mask_ops.h)
  const double min_px = params.occluder_min_area_mm2 * s * s;
  cv::Mat out(size, CV_8U, cv::Scalar(0));
  bool any = false;
  for (int i = 1; i < n; ++i)
    if (stats.at<int>(i, cv::CC_STAT_AREA) > min_px) out.setTo(255, labels == i), any = true;
  // The soft edge of an arm's shadow (an area light, a room): paper darker than
  // occluder_penumbra x its print (the grain averaged over 5 mm), joined to the arm or its
  // shadow and within occluder_penumbra_mm of it. Grainy half-shadow is what the cells'
  // paper test reads as grey dice.
  if (any && params.occluder_penumbra > 0) {
    cv::Mat smooth, soft;
    cv::Mat ratio(size, CV_32F);  // luminance over the print's 3x3 minimum (paper's white = 1)
    if (!patches.box.empty()) pmin = with_patches(expected.pmin, patches.box, patches.pmin);  // the whole minimum, tinted
    // (speed35) The ratio alone (occluder_ratio_row), without the colour test the mask above took.
    for (int y = 0; y < size.height; ++y) occluder_ratio_row(sheet.ptr<uchar>(y), pmin.ptr<uchar>(y), size.width, ip, ratio.ptr<float>(y));
    cv::blur(ratio, smooth, cv::Size(5, 5));
    soft = smooth < params.occluder_penumbra;
    soft &= distance_threshold(out == 0, params.occluder_penumbra_mm * s, true, params);
    soft |= out;
    // Keep the soft parts connected to the arm.
    cv::Mat sl;
    const int sn = label_components(soft, sl, 8);  // = cv::connectedComponents (mask_ops.h)
    std::vector<uchar> keep(static_cast<std::size_t>(sn), 0);
    for (int y = 0; y < size.height; ++y) {
      const uchar* o = out.ptr<uchar>(y);
      const int* l = sl.ptr<int>(y);
      for (int x = 0; x < size.width; ++x)
        if (o[x]) keep[static_cast<std::size_t>(l[x])] = 1;
    }
    for (int y = 0; y < size.height; ++y) {
      const int* l = sl.ptr<int>(y);
      uchar* o = out.ptr<uchar>(y);
      for (int x = 0; x < size.width; ++x)
        if (l[x] > 0 && keep[static_cast<std::size_t>(l[x])]) o[x] = 255;
    }
    // The markers and patches stay out.
    for (const auto& m : layout.markers) {
      Point a{1e9, 1e9}, b{-1e9, -1e9};
      for (const auto& c : m.corners) {
        a = {std::min(a.x, c.x), std::min(a.y, c.y)};
        b = {std::max(b.x, c.x), std::max(b.y, c.y)};
      }
      cv::rectangle(out, cv::Point(cvFloor((a.x - 3) * s), cvFloor((a.y - 3) * s)),
                    cv::Point(cvCeil((b.x + 3) * s), cvCeil((b.y + 3) * s)), cv::Scalar(0), cv::FILLED);
    }
  }
  if (!any && !dbg) return {};
  if (params.hand_margin_mm > 0) {
    const int g = std::max(1, cvRound(params.hand_margin_mm * s)) * 2 + 1;
    cv::dilate(out, out, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(g, g)));
  }
  if (dbg) {
    // One picture: the frame on the paper plane, the expected print, what differs, what is thick.
    cv::Mat d3, t3, all;
    cv::cvtColor(diff, d3, cv::COLOR_GRAY2BGR);
    cv::cvtColor(out, t3, cv::COLOR_GRAY2BGR);
    cv::Mat named;
    cv::resize(sheet, named, cv::Size(), 2, 2, cv::INTER_LINEAR);
    for (const auto& c : layout.cells)
      cv::putText(named, std::to_string(c.hex.q) + "," + std::to_string(c.hex.r),
                  cv::Point(cvRound(c.centre.x * s * 2) - 14, cvRound(c.centre.y * s * 2) + 4), cv::FONT_HERSHEY_PLAIN, 0.8,
                  cv::Scalar(0, 0, 255), 1);
    if (!patches.print.empty()) print = with_patches(print, patches.box, patches.print);  // (speed39) the tinted print
    cv::resize(print, print, cv::Size(), 2, 2, cv::INTER_NEAREST);
    cv::resize(d3, d3, cv::Size(), 2, 2, cv::INTER_NEAREST);
    cv::resize(t3, t3, cv::Size(), 2, 2, cv::INTER_NEAREST);
    cv::hconcat(std::vector<cv::Mat>{named, d3, t3}, all);
    cv::imwrite(std::string(dbg) + ".png", all);
    if (!any) return {};
  }
  return out;
}

// How many of each cell's six printed edges are seen (0..6): the grid line is looked
// for at five points along each edge, across +-1 mm (registration), as a pixel darker by
// grid_line_contrast than the paper 2.5 mm to both sides. Dice hide at most a couple of
// their cell's edges (their top face seen at a slant); a hand or an arm over the sheet
// hides every edge under it.
// The print-edge tests' sample points, in the image: for each cell listed, each of its six
// edges, kEdgeAlong points spread over the edge's middle 60%, each at every offset in `across`
// (mm along the edge's normal), one after the other into mx / my (which hold them all).
static constexpr int kEdgeAlong = 5;
static void edge_sample_maps(const SheetLayout& layout, const std::vector<std::size_t>& cells, const cv::Matx33d& hp,
                             const std::vector<double>& across, cv::Mat& mx, cv::Mat& my) {
  float* px = mx.ptr<float>(0);
  float* py = my.ptr<float>(0);
  // (speed47) Each cell's points on the paper first, then through hp at once (apply_h_points:
  // apply_h's floats, 4 a step with AVX2).
  static thread_local std::vector<double> qx, qy;
  const std::size_t per_cell = static_cast<std::size_t>(6 * kEdgeAlong) * across.size();
  qx.resize(per_cell);
  qy.resize(per_cell);
  std::size_t k = 0;
  for (std::size_t ci : cells) {
    const auto corners = layout.cell_corners(layout.cells[ci].hex);
    std::size_t j = 0;
    for (int e = 0; e < 6; ++e) {
      const Point a = corners[static_cast<std::size_t>(e)], b = corners[static_cast<std::size_t>((e + 1) % 6)];
      const double len = std::hypot(b.x - a.x, b.y - a.y);
      const double nx = -(b.y - a.y) / len, ny = (b.x - a.x) / len;
      for (int i = 0; i < kEdgeAlong; ++i) {
        const double t = 0.2 + 0.6 * i / (kEdgeAlong - 1);
        for (double o : across) {
          qx[j] = a.x + (b.x - a.x) * t + nx * o;
          qy[j] = a.y + (b.y - a.y) * t + ny * o;
          ++j;
        }
      }
    }
    apply_h_points(hp, qx.data(), qy.data(), static_cast<int>(per_cell), px + k, py + k);
    k += per_cell;
  }
}

static std::vector<int> visible_edges(const cv::Mat& grey, const SheetLayout& layout, const cv::Matx33d& hp,
                                      double contrast) {
  constexpr int kAlong = kEdgeAlong;
  const std::vector<double> across = {-1.0, -0.5, 0.0, 0.5, 1.0, -2.5, 2.5};
  constexpr int kAcross = 7;
  const std::size_t per_cell = 6 * kAlong * kAcross;
  // One row per cell: remap's maps must stay below SHRT_MAX columns, which one row of all
  // the cells' samples passed from 157 cells on (radius 7 and larger maps threw, robust18).
  cv::Mat mx(static_cast<int>(layout.cells.size()), static_cast<int>(per_cell), CV_32F), my(mx.size(), CV_32F);
  std::vector<std::size_t> all(layout.cells.size());
  for (std::size_t ci = 0; ci < all.size(); ++ci) all[ci] = ci;
  edge_sample_maps(layout, all, hp, across, mx, my);
  cv::Mat v;
  cv::remap(grey, v, mx, my, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
  std::vector<int> out(layout.cells.size(), 0);
  const uchar* p = v.ptr<uchar>(0);
  for (std::size_t ci = 0; ci < layout.cells.size(); ++ci) {
    int seen = 0;
    for (int e = 0; e < 6; ++e) {
      int hits = 0;
      for (int i = 0; i < kAlong; ++i) {
        const uchar* q = p + ci * per_cell + static_cast<std::size_t>((e * kAlong + i) * kAcross);
        const double line = std::min({q[0], q[1], q[2], q[3], q[4]});
        const double side = std::min(q[5], q[6]);
        if (side > 8 && line < (1.0 - contrast) * side) ++hits;
      }
      seen += hits >= 2;
    }
    out[ci] = seen;
  }
  return out;
}

// visible_edges again for the cells listed, the grid line looked for across +-slack_mm
// (not +-1 mm): a pose from two markers at the far side of the sheet misplaces the print
// by more than a millimetre there. Per sample point the darkest offset within the slack,
// against the paper 2.5 mm to both sides of that offset; an edge is seen when at least
// min_hits of its five points find the line at offsets within 1 mm of each other (a line,
// not grain).
static std::vector<int> visible_edges_slack(const cv::Mat& grey, const SheetLayout& layout, const cv::Matx33d& hp,
                                            double contrast, const std::vector<std::size_t>& cells, double slack_mm,
                                            int min_hits, bool debug, std::vector<cv::Point2d>* shifts = nullptr) {
  constexpr int kAlong = kEdgeAlong;
  const double step = 0.5;
  const int n_line = 2 * static_cast<int>(std::lround(slack_mm / step)) + 1;  // offsets -slack..slack
  const int pad = static_cast<int>(std::lround(2.5 / step));
  const int n_across = n_line + 2 * pad;  // -slack-2.5 .. slack+2.5
  const std::size_t per_cell = static_cast<std::size_t>(6 * kAlong * n_across);
  std::vector<int> out(cells.size(), 0);
  if (cells.empty()) return out;
  // One row per sample point (remap's maps stay below SHRT_MAX columns).
  cv::Mat mx(static_cast<int>(cells.size() * 6 * kAlong), n_across, CV_32F), my(mx.size(), CV_32F);
  std::vector<double> across(static_cast<std::size_t>(n_across));
  for (int j = 0; j < n_across; ++j) across[static_cast<std::size_t>(j)] = (j - pad) * step - slack_mm;
  edge_sample_maps(layout, cells, hp, across, mx, my);
  cv::Mat v;
  cv::remap(grey, v, mx, my, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
  const uchar* p = v.ptr<uchar>(0);
  for (std::size_t n = 0; n < cells.size(); ++n) {
    // Per edge: the offset of its line (mm along its normal) when found.
    double off[6];
    bool found[6];
    cv::Point2d normal[6];
    const auto corners = layout.cell_corners(layout.cells[cells[n]].hex);
    for (int e = 0; e < 6; ++e) {
      const Point a = corners[static_cast<std::size_t>(e)], b = corners[static_cast<std::size_t>((e + 1) % 6)];
      const double len = std::hypot(b.x - a.x, b.y - a.y);
      normal[e] = {-(b.y - a.y) / len, (b.x - a.x) / len};
      int offs[kAlong], hits = 0;
      for (int i = 0; i < kAlong; ++i) {
        const uchar* q = p + n * per_cell + static_cast<std::size_t>((e * kAlong + i) * n_across);
        int best = pad;
        for (int j = pad; j < pad + n_line; ++j)
          if (q[j] < q[best]) best = j;
        const double side = std::min(q[best - pad], q[best + pad]);
        if (side > 8 && q[best] < (1.0 - contrast) * side) offs[hits++] = best;
      }
      found[e] = false;
      for (int a2 = 0; a2 < hits && !found[e]; ++a2) {
        int close = 0, sum = 0;
        for (int b2 = 0; b2 < hits; ++b2)
          if (std::abs(offs[b2] - offs[a2]) * step <= 1.0) ++close, sum += offs[b2];
        if (close >= min_hits) {
          found[e] = true;
          off[e] = (static_cast<double>(sum) / close - pad) * step - slack_mm;
        }
      }
    }
    // The lines found must agree on one shift of the print (a pose error, locally a
    // translation): the shift through each pair of non-parallel found edges, and the
    // most edges within 1 mm of one of them (a die's outline or shadow is not fitted).
    int seen = 0;
    cv::Point2d d(0, 0);
    for (int e1 = 0; e1 < 6; ++e1)
      for (int e2 = e1 + 1; e2 < 6; ++e2) {
        if (!found[e1] || !found[e2] || e2 == e1 + 3) continue;
        const double det = normal[e1].x * normal[e2].y - normal[e1].y * normal[e2].x;
        const cv::Point2d t((off[e1] * normal[e2].y - off[e2] * normal[e1].y) / det,
                            (normal[e1].x * off[e2] - normal[e2].x * off[e1]) / det);
        int agree = 0;
        for (int e = 0; e < 6; ++e) agree += found[e] && std::abs(normal[e].dot(t) - off[e]) <= 1.0;
        if (agree > seen) seen = agree, d = t;
      }
    out[n] = seen;
    if (shifts) shifts->push_back(d);
    if (debug)
      std::fprintf(stderr, "EDGES2 %d,%d %d shift %.1f,%.1f found %d%d%d%d%d%d\n", layout.cells[cells[n]].hex.q, layout.cells[cells[n]].hex.r,
                   seen, d.x, d.y, found[0], found[1], found[2], found[3], found[4], found[5]);
  }
  return out;
}

cv::Vec3f white_reference(const cv::Mat& image, const SheetLayout& layout, const cv::Matx33d& hp,
                          std::vector<cv::Vec3f>* cell_papers, std::vector<cv::Vec3f>* die_free_papers, double chroma_tolerance) {
  cv::Vec3f white(0, 0, 0);
  {
    std::vector<cv::Vec3b> s;
    const auto& wp = layout.white_patch;
    if (wp[1].x > wp[0].x && wp[1].y > wp[0].y)
      for (int i = 1; i < 6; ++i)
        for (int j = 1; j < 4; ++j) {
          cv::Vec3b v;
          if (sample(image, apply_h(hp, {wp[0].x + (wp[1].x - wp[0].x) * i / 6, wp[0].y + (wp[1].y - wp[0].y) * j / 4}), v))
            s.push_back(v);
        }
    if (s.size() >= 8) white = median_bgr(s);
  }
  std::vector<cv::Vec3f> papers(layout.cells.size());
  std::vector<cv::Vec3b> all;
  for (std::size_t i = 0; i < layout.cells.size(); ++i) {
    cv::Vec3f df;
    papers[i] = cell_paper(image, hp, layout.cells[i].centre, layout.hex_size_mm, chroma_tolerance, die_free_papers ? &df : nullptr);
    if (die_free_papers) die_free_papers->push_back(df);
    all.emplace_back(cv::saturate_cast<uchar>(papers[i][0]), cv::saturate_cast<uchar>(papers[i][1]),
                     cv::saturate_cast<uchar>(papers[i][2]));
  }
  const cv::Vec3f paper_median = median_bgr(all);
  // A white patch darker than the paper is not trusted (covered, shadowed).
  if (white[0] + white[1] + white[2] < 0.8f * (paper_median[0] + paper_median[1] + paper_median[2])) white = paper_median;
  for (int k = 0; k < 3; ++k) white[k] = std::max(white[k], 20.0f);
  if (cell_papers) *cell_papers = std::move(papers);
  return white;
}

// Each cell's six neighbours on the map: their indices in layout.cells, -1 where the map ends
// (the small-cell rules look at a cell's neighbours).
using CellNeighbours = std::vector<std::array<int, 6>>;
static CellNeighbours cell_neighbours(const SheetLayout& layout) {
  std::map<Hex, int> index;
  for (std::size_t i = 0; i < layout.cells.size(); ++i) index[layout.cells[i].hex] = static_cast<int>(i);
  CellNeighbours out(layout.cells.size());
  for (std::size_t i = 0; i < layout.cells.size(); ++i)
    for (int d = 0; d < 6; ++d) {
      const auto it = index.find(hexdice::neighbor(layout.cells[i].hex, d));
      out[i][static_cast<std::size_t>(d)] = it == index.end() ? -1 : it->second;
    }
  return out;
}

// (robust21) Each cell's paper on a map of small cells: a 16 mm die covers most of its cell's
// ring at 0.8-0.9 of the inscribed radius there (radius 9 on A3: 6.9-7.7 mm from the centre,
// inside a centred die's 8 mm half side), so cell_paper's brightest quarter of it was the
// die's top or sides, and the die read as paper (no die). A die covers little of its
// neighbours' rings, so a cell's paper is the per-channel median of its own and those of its
// neighbours printed in the same tint (their print within 12 levels), when it has at least
// two such neighbours: right while fewer than half of them are covered. `print`: each cell's
// printed colour (ExpectedPrint::cell_print); nothing changes when it is not there.
static void small_cell_papers(const SheetLayout& layout, const CellNeighbours& nbrs, const std::vector<cv::Vec3f>& print,
                              std::vector<cv::Vec3f>& papers) {
  if (print.size() != layout.cells.size() || papers.size() != layout.cells.size() || nbrs.size() != layout.cells.size()) return;
  const std::vector<cv::Vec3f> own = papers;
  std::vector<float> ch;
  for (std::size_t i = 0; i < layout.cells.size(); ++i) {
    std::vector<std::size_t> same{i};
    for (const int j : nbrs[i]) {
      if (j < 0) continue;
      const cv::Vec3f a = print[i], b = print[static_cast<std::size_t>(j)];
      if (std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])}) <= 12.0f) same.push_back(static_cast<std::size_t>(j));
    }
    if (same.size() < 3) continue;
    for (int k = 0; k < 3; ++k) {
      ch.clear();
      for (std::size_t j : same) ch.push_back(own[j][k]);
      std::nth_element(ch.begin(), ch.begin() + static_cast<long>(ch.size() / 2), ch.end());
      papers[i][k] = ch[ch.size() / 2];
    }
  }
}

// (robust21) On a map of small cells a die standing in its cell hides all six of its cell's
// printed edges from the camera (its top and sides reach past them), and the printed-edge
// test took the cell for one under a hand: hidden. A hand (an arm, a sleeve) hides the print
// of a patch of cells; a die hides its own cell's edges and at most one or two of each
// neighbour's. The cells failing the test (at most max_edges of 6 seen) none of whose
// neighbours in view fails it are returned (1): those are read (the skin and occluder masks
// still judge them).
// (robust23) ... or a group of at most max_group such cells, neighbours of each other, with no
// other such cell beside the group: two dice side by side hide each other's edges.
static std::vector<uchar> lone_edgeless_cells(const SheetLayout& layout, const std::vector<int>& seen, const std::vector<uchar>& covered,
                                              int max_edges, int max_group = 1) {
  std::vector<uchar> out(layout.cells.size(), 0);
  if (seen.size() != layout.cells.size()) return out;
  const CellNeighbours nbrs = cell_neighbours(layout);
  auto fails = [&](int j) { return j >= 0 && !covered[static_cast<std::size_t>(j)] && seen[static_cast<std::size_t>(j)] <= max_edges; };
  std::vector<uchar> done(layout.cells.size(), 0);
  std::vector<int> group;
  for (std::size_t i = 0; i < layout.cells.size(); ++i) {
    if (done[i] || !fails(static_cast<int>(i))) continue;
    // The connected group of failing cells round i (stopped once larger than max_group).
    group.assign(1, static_cast<int>(i));
    done[i] = 1;
    for (std::size_t k = 0; k < group.size(); ++k)
      for (const int j : nbrs[static_cast<std::size_t>(group[k])])
        if (fails(j) && !done[static_cast<std::size_t>(j)]) {
          done[static_cast<std::size_t>(j)] = 1;
          group.push_back(j);
        }
    if (static_cast<int>(group.size()) <= std::max(1, max_group))
      for (const int g : group) out[static_cast<std::size_t>(g)] = 1;
  }
  return out;
}

std::vector<MarkerEdgeSpread> marker_edge_spreads(const cv::Mat& grey, const SheetPose& pose, double marker_size_mm) {
  std::vector<MarkerEdgeSpread> edges;
  if (grey.empty() || grey.type() != CV_8UC1 || marker_size_mm <= 0) return edges;
  auto at = [&](cv::Point2d q, double& v) {
    const int x0 = static_cast<int>(std::floor(q.x)), y0 = static_cast<int>(std::floor(q.y));
    if (x0 < 0 || y0 < 0 || x0 + 1 >= grey.cols || y0 + 1 >= grey.rows) return false;
    const double fx = q.x - x0, fy = q.y - y0;
    const uchar* r0 = grey.ptr<uchar>(y0);
    const uchar* r1 = grey.ptr<uchar>(y0 + 1);
    v = (1 - fy) * ((1 - fx) * r0[x0] + fx * r0[x0 + 1]) + fy * ((1 - fx) * r1[x0] + fx * r1[x0 + 1]);
    return true;
  };
  for (const auto& mc : pose.marker_corners) {
    cv::Point2d ctr(0, 0);
    double side = 0;
    for (int k = 0; k < 4; ++k) {
      ctr += cv::Point2d(mc[static_cast<std::size_t>(k)]) * 0.25;
      side += cv::norm(cv::Point2d(mc[static_cast<std::size_t>((k + 1) % 4)]) - cv::Point2d(mc[static_cast<std::size_t>(k)])) / 4.0;
    }
    const double ppm = side / marker_size_mm;
    if (ppm < 0.5) continue;
    const double reach = 2.0 * ppm;  // px either side of the edge
    const int n = std::max(8, static_cast<int>(std::lround(2 * reach / 0.5)));
    const double step = 2 * reach / n;
    for (int k = 0; k < 4; ++k) {
      const cv::Point2d a(mc[static_cast<std::size_t>(k)]), b(mc[static_cast<std::size_t>((k + 1) % 4)]);
      const double len = cv::norm(b - a);
      if (len < 4) continue;
      const cv::Point2d dir = (b - a) / len;
      cv::Point2d nrm(-dir.y, dir.x);
      if (nrm.dot((a + b) * 0.5 - ctr) < 0) nrm = -nrm;  // outward: black inside, the quiet zone out
      std::vector<double> prof(static_cast<std::size_t>(n + 1), 0.0);
      int used = 0;
      for (const double t : {0.25, 0.375, 0.5, 0.625, 0.75}) {
        const cv::Point2d p = a + (b - a) * t;
        std::vector<double> one(static_cast<std::size_t>(n + 1));
        bool ok = true;
        for (int s = 0; s <= n && ok; ++s) ok = at(p + nrm * (-reach + s * step), one[static_cast<std::size_t>(s)]);
        if (!ok) continue;
        for (int s = 0; s <= n; ++s) prof[static_cast<std::size_t>(s)] += one[static_cast<std::size_t>(s)];
        ++used;
      }
      if (used < 3) continue;
      for (double& v : prof) v /= used;
      double in = 0, out = 0;
      const int q = std::max(2, n / 5);
      for (int s = 0; s < q; ++s) in += prof[static_cast<std::size_t>(s)] / q, out += prof[static_cast<std::size_t>(n - s)] / q;
      const double height = out - in;
      if (height < 20) continue;  // no clear step (glare on the marker, a shadow over its quiet zone)
      double slope = 0;
      for (int s = 2; s + 2 <= n; ++s)  // central difference over 2 steps on a [1 2 1] smoothing
        slope = std::max(slope, ((prof[static_cast<std::size_t>(s + 1)] * 2 + prof[static_cast<std::size_t>(s + 2)] + prof[static_cast<std::size_t>(s)]) -
                                 (prof[static_cast<std::size_t>(s - 1)] * 2 + prof[static_cast<std::size_t>(s - 2)] + prof[static_cast<std::size_t>(s)])) /
                                    (4.0 * 2 * step));
      if (slope <= 0) continue;
      edges.push_back({k % 2, nrm, height / slope, ppm});
    }
  }
  return edges;
}

// The upper median of v (v reordered): the patch and cell noise measures and the marker blur.
template <typename T>
static T upper_median(std::vector<T>& v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

double marker_edge_blur_mm(const cv::Mat& grey, const SheetPose& pose, double marker_size_mm) {
  std::vector<double> dir_mm[2];
  for (const MarkerEdgeSpread& e : marker_edge_spreads(grey, pose, marker_size_mm))
    dir_mm[e.axis].push_back(e.spread_px / e.px_per_mm);
  double worst = 0;
  for (auto& v : dir_mm) {
    if (v.empty()) continue;
    worst = std::max(worst, upper_median(v));
  }
  return worst;
}

FrameBlur frame_blur_ellipse(const cv::Mat& grey, const std::vector<MarkerEdgeSpread>& edges, const std::vector<cv::Point2d>& region) {
  FrameBlur fb;
  if (grey.empty() || grey.type() != CV_8UC1 || region.size() < 3) return fb;
  std::vector<cv::Point> poly;
  for (const cv::Point2d& p : region) poly.emplace_back(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
  const cv::Rect box = cv::boundingRect(poly) & cv::Rect(1, 1, grey.cols - 2, grey.rows - 2);
  if (box.width < 16 || box.height < 16) return fb;
  for (auto& p : poly) p -= box.tl();
  cv::Mat mask = cv::Mat::zeros(box.size(), CV_8U);
  cv::fillConvexPoly(mask, poly, cv::Scalar(255));
  // 3x3 Sobel gradients, their products summed over the region (the structure tensor).
  double xx = 0, yy = 0, xy = 0;
  for (int y = 0; y < box.height; ++y) {
    const uchar* m = mask.ptr<uchar>(y);
    const uchar* up = grey.ptr<uchar>(box.y + y - 1) + box.x;
    const uchar* mid = grey.ptr<uchar>(box.y + y) + box.x;
    const uchar* down = grey.ptr<uchar>(box.y + y + 1) + box.x;
    for (int x = 0; x < box.width; ++x) {
      if (!m[x]) continue;
      const double gx = (up[x + 1] + 2.0 * mid[x + 1] + down[x + 1]) - (up[x - 1] + 2.0 * mid[x - 1] + down[x - 1]);
      const double gy = (down[x - 1] + 2.0 * down[x] + down[x + 1]) - (up[x - 1] + 2.0 * up[x] + up[x + 1]);
      xx += gx * gx, yy += gy * gy, xy += gx * gy;
    }
  }
  const double tr = xx + yy, root = std::sqrt(std::max(0.0, (xx - yy) * (xx - yy) / 4 + xy * xy));
  if (!(tr > 0)) return fb;
  fb.aniso = 2 * root / tr;
  const double across = 0.5 * std::atan2(2 * xy, xx - yy);  // the gradients' strongest direction
  fb.dir = {-std::sin(across), std::cos(across)};            // the blur's: across it
  // w^2 = base^2 + along^2 (dir . n)^2 over the marker edges, least squares.
  double n = 0, sx = 0, sxx = 0, sw = 0, sxw = 0;
  for (const MarkerEdgeSpread& e : edges) {
    const double c = fb.dir.dot(e.normal), x2 = c * c, w2 = e.spread_px * e.spread_px;
    n += 1, sx += x2, sxx += x2 * x2, sw += w2, sxw += x2 * w2;
  }
  const double det = n * sxx - sx * sx;
  if (n < 2 || !(det > 0)) return fb;
  double base2 = (sxx * sw - sx * sxw) / det, along2 = (n * sxw - sx * sw) / det;
  if (base2 < 0) base2 = 0, along2 = sxx > 0 ? sxw / sxx : 0;
  if (along2 < 0) along2 = 0, base2 = sw / n;
  fb.base_px = std::sqrt(base2), fb.along_px = std::sqrt(along2);
  fb.spread = n * n > 0 ? det / (n * n) : 0;
  return fb;
}

double patch_noise(const cv::Mat& grey, const std::array<Point, 2>& wp, const cv::Matx33d& hp, double inset_mm, double* level_out) {
  if (level_out) *level_out = 0.0;
  if (grey.empty() || grey.type() != CV_8UC1 || wp[1].x - wp[0].x <= 2 * inset_mm || wp[1].y - wp[0].y <= 2 * inset_mm) return 0.0;
  const double x0 = wp[0].x + inset_mm, x1 = wp[1].x - inset_mm, y0 = wp[0].y + inset_mm, y1 = wp[1].y - inset_mm;
  std::vector<cv::Point> quad;
  for (const cv::Point2d c : {cv::Point2d(x0, y0), cv::Point2d(x1, y0), cv::Point2d(x1, y1), cv::Point2d(x0, y1)}) {
    const cv::Point2d q = apply_h(hp, c);
    quad.emplace_back(static_cast<int>(std::lround(q.x)), static_cast<int>(std::lround(q.y)));
  }
  const cv::Rect box = cv::boundingRect(quad) & cv::Rect(0, 0, grey.cols, grey.rows);
  if (box.width < 16 || box.height < 16) return 0.0;
  for (auto& q : quad) q -= box.tl();
  cv::Mat mask = cv::Mat::zeros(box.size(), CV_8U);
  cv::fillConvexPoly(mask, quad, cv::Scalar(255));
  cv::erode(mask, mask, cv::Mat(), cv::Point(-1, -1), 2);  // the 5x5 mean's window inside the patch
  cv::Mat f, local;
  grey(box).convertTo(f, CV_32F);
  cv::blur(f, local, cv::Size(5, 5), cv::Point(-1, -1), cv::BORDER_REPLICATE);
  std::vector<float> dev, level;
  for (int y = 0; y < f.rows; ++y) {
    const uchar* m = mask.ptr<uchar>(y);
    const float* a = f.ptr<float>(y);
    const float* b = local.ptr<float>(y);
    for (int x = 0; x < f.cols; ++x)
      if (m[x]) dev.push_back(std::abs(a[x] - b[x])), level.push_back(a[x]);
  }
  if (dev.size() < 100) return 0.0;
  const double lum = upper_median(level);
  if (level_out) *level_out = lum;
  // 1.4826 x the median absolute deviation is a Gaussian's sigma; x 5/sqrt(24): the pixel's own
  // share of its 5x5 mean taken back.
  return lum > 8 ? 1.4826 * 5.0 / std::sqrt(24.0) * upper_median(dev) / lum : 0.0;
}

double cells_paper_noise(const cv::Mat& grey, const SheetLayout& layout, const cv::Matx33d& hp, double half_mm, double* level_out) {
  if (level_out) *level_out = 0.0;
  std::vector<double> noise, level;
  for (const auto& cell : layout.cells) {
    const Point c = cell.centre;
    double lum = 0.0;
    const double n = patch_noise(grey, {{{c.x - half_mm, c.y - half_mm}, {c.x + half_mm, c.y + half_mm}}}, hp, 0.0, &lum);
    // A measured cell counts at noise 0 too: paper clipped flat at the sensor's top has none, and
    // left out it would leave the textured cells (dice, shade) to stand for the paper's level.
    if (lum > 8) noise.push_back(n), level.push_back(lum);
  }
  if (noise.empty()) return 0.0;
  if (level_out) *level_out = upper_median(level);
  return upper_median(noise);
}

// What the test of one guard blob (token_blob_ok) needs of its cell: in the cell loop, and kept for
// (exact43) the look after it, when every die's footprint is known (guard_other_feet).
// (exact25, exact47) A colour (v, the sum of its channels sv) of its paper in shade: shadow_min..1.05
// of the paper's brightness and within chroma_max of its chromaticity (every channel's share of
// the sum). T is the caller's arithmetic: float in the guard look's pixel test (guard_print_chroma),
// double on a taken-out blob's mean (token_small_blob_print_chroma). ratio and chroma, when asked
// for, are filled whatever the answer (the debug lines).
template <class T>
static bool paper_in_shade(const std::array<T, 3>& v, T sv, const cv::Vec3f& paper, double shadow_min, T chroma_max, T* ratio = nullptr,
                           T* chroma = nullptr) {
  const T sp = static_cast<T>(paper[0] + paper[1] + paper[2]) + static_cast<T>(1e-3);
  const T k = sv / sp;
  if (ratio) *ratio = k;
  const bool lit = k >= shadow_min && k <= static_cast<T>(1.05);
  if (!lit && !chroma) return false;
  const T c = std::max({std::abs(v[0] / sv - paper[0] / sp), std::abs(v[1] / sv - paper[1] / sp), std::abs(v[2] / sv - paper[2] / sp)});
  if (chroma) *chroma = c;
  return lit && c <= chroma_max;
}

struct GuardBlobCell {
  Hex hex;
  cv::Point2d centre;                    // the cell's centre (mm)
  cv::Point2d displacement;              // its parallax d (mm)
  std::vector<cv::Point2d> near_offsets;  // the other near cells' centres less this one's (mm)
  cv::Matx33d rect_to_mm;                // the top plane's pixels -> mm
  cv::Point roi_tl;                      // the patch's corner on that plane
  cv::Mat patch;                         // the cell's patch (a small blob's mean colour in a noisy frame)
  cv::Vec3f colour_base, paper, tint;
  bool noisy = false;
  cv::Point2d die_offset;                // (exact47) the die's top centre less the cell centre (mm; guard_room_shift)
};

// One blob's test: a token's size, standing in this cell, solid.
static bool token_blob_ok(const GuardBlobCell& gc, const ReadParams& params, double guard_area, const RunLabels& lab, const cv::Mat& st,
                          const cv::Mat& cen, int i, const char* tag, double core_min, bool debug) {
  const double area = st.at<int>(i, cv::CC_STAT_AREA);
  // Where the token stands: its blob's centre is its top (seen 6/16 of d along the
  // parallax) plus whatever of its sides is lit blue (up to ~0.85 d): the nearest
  // point of that range to the cell centre.
  const cv::Point2d raw = apply_h(gc.rect_to_mm, {cen.at<double>(i, 0) + gc.roi_tl.x, cen.at<double>(i, 1) + gc.roi_tl.y}) - gc.centre;
  const cv::Point2d a = raw - 0.375 * gc.displacement, ab = -0.475 * gc.displacement;
  const double t = ab.dot(ab) > 1e-9 ? std::clamp(-a.dot(ab) / ab.dot(ab), 0.0, 1.0) : 0.0;
  const cv::Point2d g = a + t * ab;
  // (exact47) A die with its token beside it stands off the centre, the token on the other side
  // (guard_room_shift): the token's place is also measured from the centre moved away from the die.
  const cv::Point2d g_room = g + params.guard_room_shift * gc.die_offset;
  const bool placed = cv::norm(g) <= params.guard_max_offset_mm || (params.guard_room_shift > 0 && cv::norm(g_room) <= params.guard_max_offset_mm);
  bool ok = area >= params.guard_area_min * guard_area && area <= 2.5 * guard_area && placed;
  // (robust22) ... and inside its own printed hexagon: no other cell's centre nearer. On
  // a small map (hexes under 14 mm) a die in the next cell stands within
  // guard_max_offset_mm, and a piece of its blue top was read as this die's guard.
  if (ok && params.guard_in_own_cell)
    for (const cv::Point2d& o : gc.near_offsets)
      if (cv::norm(g - o) < cv::norm(g)) ok = false;
  double core = -1;  // (only measured for a blob that passes the rest)
  if (ok && core_min > 0) {
    // The blob's thickest point: its largest inscribed disc (distance to its edge).
    const cv::Rect bb(st.at<int>(i, cv::CC_STAT_LEFT) - 1, st.at<int>(i, cv::CC_STAT_TOP) - 1, st.at<int>(i, cv::CC_STAT_WIDTH) + 2,
                      st.at<int>(i, cv::CC_STAT_HEIGHT) + 2);
    cv::Mat one = runs_mask(lab, bb, [i](int l) { return l == i; });  // (the labels == i within bb, 0 outside the image)
    // (exact32) The token's pip, a hole inside its blob, is the token's (guard_core_hole).
    // Holes of under guard_core_hole guard faces: a whole number of pixels under t is at
    // most ceil(t) - 1 of them.
    if (params.guard_core_hole > 0) fill_holes_up_to(one, std::ceil(params.guard_core_hole * guard_area) - 1, 4);
    cv::Mat dist;
    cv::distanceTransform(one, dist, cv::DIST_L2, cv::DIST_MASK_PRECISE);
    double dmax = 0;
    cv::minMaxLoc(dist, nullptr, &dmax);
    core = 2 * dmax / std::sqrt(area);
    ok = core >= core_min;
  }
  // (exact32) In a noisy frame a blob of part of a token's size is deep blue in the mean
  // (guard_part_area): the pale print's noise makes blobs that small.
  const cv::Vec3f& cb = gc.colour_base;
  if (ok && gc.noisy && area < params.guard_part_area * guard_area) {
    const cv::Scalar mc = cv::mean(gc.patch, component_mask(lab, i, gc.patch.size()));
    ok = saturated_blue(cv::Vec3f(static_cast<float>(mc[0] / cb[0]), static_cast<float>(mc[1] / cb[1]), static_cast<float>(mc[2] / cb[2])),
                        static_cast<float>(params.guard_part_saturation));
  }
  if (debug) {
    const cv::Scalar mc = cv::mean(gc.patch, component_mask(lab, i, gc.patch.size()));
    const cv::Vec3f rb(static_cast<float>(mc[0] / cb[0]), static_cast<float>(mc[1] / cb[1]), static_cast<float>(mc[2] / cb[2]));
    const float bmx = std::max({rb[0], rb[1], rb[2]}), bmn = std::min({rb[0], rb[1], rb[2]});
    const cv::Vec3f& pc = gc.paper;
    std::fprintf(stderr,
                 "GUARD%s %d,%d area %.2f core %.2f/%.2f at %.2f %.2f (%.2f from the die's room, die at %.1f %.1f) %s cell %.1f %.1f d %.1f %.1f rel %.2f %.2f %.2f sat %.2f paper %.2f %.2f "
                 "%.2f tint %.0f %.0f %.0f\n",
                 tag, gc.hex.q, gc.hex.r, area / guard_area, core, core_min, g.x, g.y, cv::norm(g_room), gc.die_offset.x, gc.die_offset.y, ok ? "yes" : "no", gc.centre.x, gc.centre.y,
                 gc.displacement.x, gc.displacement.y, rb[0], rb[1], rb[2], bmx > 0 ? (bmx - bmn) / bmx : 0.0f, pc[0] / cb[0], pc[1] / cb[1],
                 pc[2] / cb[2], gc.tint[0], gc.tint[1], gc.tint[2]);
  }
  return ok;
}

// HEXDICE_READ_DUMP=q,r (docs/reader.md): whether this cell's patch and masks are written to
// /tmp/rd_*.png.
static bool dump_cell(const Hex& h) {
  const char* dump = std::getenv("HEXDICE_READ_DUMP");
  return dump && std::to_string(h.q) + "," + std::to_string(h.r) == dump;
}

Observation read_board(const cv::Mat& image_in, const SheetLayout& layout, const CalibrationData* calib,
                       const ReadParams& params, TrackerState* tracker) {
  StageLaps laps;
  Observation obs;
  if (image_in.empty() || image_in.cols < 16 || image_in.rows < 16) {
    obs.why_not_found = "empty image";
    return obs;
  }
  cv::Mat image;
  if (image_in.type() == CV_8UC3) image = image_in;
  else if (image_in.type() == CV_8UC1) cv::cvtColor(image_in, image, cv::COLOR_GRAY2BGR);
  else if (image_in.type() == CV_8UC4) cv::cvtColor(image_in, image, cv::COLOR_BGRA2BGR);
  else {
    obs.why_not_found = "unsupported pixel format";
    return obs;
  }
  if (calib && calib->camera && calib->camera->dist_coeffs.total() >= 4) {
    cv::Mat und;
    cv::Matx33d k = calib->camera->camera_matrix;
    const cv::Size cs = calib->camera->image_size;
    if (cs.width > 0 && cs != image.size()) {
      const double sx = static_cast<double>(image.cols) / cs.width, sy = static_cast<double>(image.rows) / cs.height;
      k(0, 0) *= sx; k(0, 2) *= sx; k(1, 1) *= sy; k(1, 2) *= sy;
    }
    cv::undistort(image, und, k, calib->camera->dist_coeffs);
    image = und;
  }
  // One grey copy for the registration and the printed-edge test (each converted the
  // frame on its own: ~0.2 ms at 720p, ~0.5 ms at 1080p).
  cv::Mat grey;
  bgr_to_gray(image, grey);  // = cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY) (mask_ops.h)
  obs.pose = register_sheet(grey, layout, calib, params.reg, tracker);
  laps.lap(&ReadProfile::register_ms);
  if (!obs.pose.found) {
    obs.why_not_found = "sheet markers not found";
    return obs;
  }
  const cv::Matx33d& hp = obs.pose.paper_to_image;
  const cv::Matx33d& ht = obs.pose.top_to_image;
  if (layout.cells.empty()) {
    obs.board_found = true;
    return obs;
  }
  const bool debug = std::getenv("HEXDICE_READ_DEBUG") != nullptr;
  // (robust24) The frame's blur at the markers (blur_edge_mm), measured only when the rule is on.
  const double frame_blur_mm = params.blur_edge_mm > 0 || debug ? marker_edge_blur_mm(grey, obs.pose, layout.marker_size_mm) : 0.0;
  if (debug) std::fprintf(stderr, "BLUR %.2f mm at the markers\n", frame_blur_mm);
  if (debug)
    std::fprintf(stderr, "MARKERS %zu used, %ld px searched at full size\n", obs.pose.marker_ids.size(),
                 obs.pose.full_size_searched_px);
  const bool blurred = params.blur_edge_mm > 0 && frame_blur_mm >= params.blur_edge_mm;
  // (robust32) The blur's direction and length (debug only: a line kernel from it read one die
  // more on the harsh sets, docs/reader.md round 32).
  if (debug) {
    const auto [cx0, cy0, cx1, cy1] = cell_centres_box_mm(layout);
    std::vector<cv::Point2d> region;
    for (const cv::Point2d c : {cv::Point2d(cx0, cy0), cv::Point2d(cx1, cy0), cv::Point2d(cx1, cy1), cv::Point2d(cx0, cy1)}) region.push_back(apply_h(hp, c));
    const FrameBlur frame_blur = frame_blur_ellipse(grey, marker_edge_spreads(grey, obs.pose, layout.marker_size_mm), region);
    std::fprintf(stderr, "BLURDIR %.1f deg aniso %.3f along %.2f px base %.2f px spread %.3f\n",
                 std::atan2(frame_blur.dir.y, frame_blur.dir.x) * 180 / CV_PI, frame_blur.aniso, frame_blur.along_px, frame_blur.base_px, frame_blur.spread);
  }
  // (robust27) A noisy frame (noise_grey_level, noise_white_level): the sensor's noise a large
  // share of the light on both of the sheet's blank patches, measured only when the rule is on.
  const bool noise_rule = params.noise_grey_level > 0 && params.noise_white_level > 0;
  double grey_level = 0.0, white_level = 0.0;
  double grey_noise = noise_rule || debug ? patch_noise(grey, layout.grey_patch, hp, 4.0, &grey_level) : 0.0;
  double white_noise = noise_rule || debug ? patch_noise(grey, layout.white_patch, hp, 4.0, &white_level) : 0.0;
  // (robust39) A patch out of the frame measures nothing, and a white patch the gain clipped no
  // noise: the noise is then measured on the cells' paper (noise_cells_half_mm), for the white
  // patch's measure, and for the grey patch's times noise_paper_to_grey. Not when the grey patch
  // is seen and under its level: that frame is not noisy whatever the white measures (the cells
  // cost ~13 M instructions at 720p).
  const bool grey_unseen = grey_level <= 0;
  const bool white_unseen = white_level <= 0 || (params.noise_clipped_level > 0 && white_level >= params.noise_clipped_level);
  if ((noise_rule || debug) && params.noise_cells_half_mm > 0 && (grey_unseen || (white_unseen && grey_noise >= params.noise_grey_level))) {
    double paper_level = 0.0;
    const double paper_noise = cells_paper_noise(grey, layout, hp, params.noise_cells_half_mm, &paper_level);
    const bool seen = paper_noise > 0 && (params.noise_clipped_level <= 0 || paper_level < params.noise_clipped_level);
    if (debug)
      std::fprintf(stderr, "NOISECELLS %.4f of the cells' paper at %.1f (grey patch %.4f at %.1f, white %.4f at %.1f)%s\n", paper_noise, paper_level,
                   grey_noise, grey_level, white_noise, white_level, seen ? ": taken" : "");
    if (seen) {
      // A clipped white patch can under-read the noise, never over-read it: the larger measure stands.
      if (white_unseen) white_noise = std::max(white_noise, paper_noise);
      if (grey_unseen) grey_noise = paper_noise * params.noise_paper_to_grey;
    }
  }
  const bool noisy = noise_rule && grey_noise >= params.noise_grey_level && white_noise >= params.noise_white_level;
  if (debug) std::fprintf(stderr, "NOISE %.4f of the grey patch, %.4f of the white%s\n", grey_noise, white_noise, noisy ? ": a noisy frame" : "");
  // (exact33) In a noisy frame the pip places' rings are sampled on the face crop's box mean (noise_ring_average).
  // Only the 1's shown-top test (one_top_shown) takes it: the occluder gate's looks at the places
  // keep single pixels, so a hand's edge is not averaged into a body-coloured ring.
  const int ring_avg = noisy ? std::clamp(params.noise_ring_average, 0, 8) : 0;
  // (robust25) The face reader's parameters for this frame: in a blurred one a faint face two
  // readers agree on is read (blur_agreed_min_response).
  FaceParams face_params = params.face;
  if (blurred && params.blur_agreed_min_response > 0) face_params.lattice_agreed_min_response = params.blur_agreed_min_response;
  // (exact20) A reading's pips at its face's real size (pip_layout_scale within
  // face_scale_min..face_scale_max); a 1, or no face, has no size and is not.
  auto face_scale_ok = [&](double scale) { return scale > 0 && scale >= params.face_scale_min && scale <= params.face_scale_max; };
  // The print where the pose puts it (the printed-edge test below, computed here once).
  // When several cells in the frame show none of their grid there but do show it a few
  // mm away, all on one smooth shift (a pose from two or three markers at one side of the
  // sheet, extrapolated across it, is off by 4-9 mm at the far side), the pose is refitted
  // to the grid: each cell whose six edges agree on a shift is a point pair, with the
  // markers' corners. Not with a camera calibration (its intrinsics are kept as they are).
  std::vector<int> edges_first;
  bool refined = false;
  if (params.hand_max_edges >= 0 || params.occluder_core_mm > 0) edges_first = visible_edges(grey, layout, hp, params.grid_line_contrast);
  if (params.grid_refine && params.edge_slack_mm > 0 && params.hand_max_edges >= 0 && !(calib && calib->camera)) {
    std::vector<std::size_t> failing, all;
    for (std::size_t i = 0; i < layout.cells.size(); ++i) {
      const cv::Point2d q = apply_h(hp, {layout.cells[i].centre.x, layout.cells[i].centre.y});
      if (q.x < 0 || q.y < 0 || q.x >= image.cols || q.y >= image.rows) continue;
      all.push_back(i);
      if (edges_first[i] <= params.hand_max_edges) failing.push_back(i);
    }
    if (static_cast<int>(failing.size()) >= params.grid_refine_min_cells) {
      std::vector<cv::Point2d> shift;
      const std::vector<int> seen = visible_edges_slack(grey, layout, hp, params.grid_line_contrast, all, params.edge_slack_mm,
                                                        params.edge_slack_hits, debug, &shift);
      std::vector<double> off_far;  // the failing cells' shifts (mm), where found
      std::vector<double> off_all;  // every agreeing cell's shift (mm)
      std::vector<cv::Point2f> src, dst;
      for (std::size_t n = 0; n < all.size(); ++n) {
        const std::size_t i = all[n];
        if (seen[n] < 5) continue;
        const cv::Point2d c(layout.cells[i].centre.x, layout.cells[i].centre.y);
        src.emplace_back(c);
        dst.emplace_back(apply_h(hp, c + shift[n]));
        off_all.push_back(std::hypot(shift[n].x, shift[n].y));
        if (edges_first[i] <= params.hand_max_edges) off_far.push_back(std::hypot(shift[n].x, shift[n].y));
      }
      std::sort(off_far.begin(), off_far.end());
      std::sort(off_all.begin(), off_all.end());
      // (exact13) ... or the cells whose print is seen at all say the pose is off: the failing
      // cells are mostly under dice (no edges to measure), while the print round them, seen on
      // every edge, is shifted by millimetres (a pose from two markers at one side).
      const bool far_off = static_cast<int>(off_far.size()) >= params.grid_refine_min_cells && off_far[off_far.size() / 2] >= 1.5;
      const bool all_off = params.grid_refine_all_shift_mm > 0 && off_all.size() >= 8 &&
                           off_all[off_all.size() / 2] >= params.grid_refine_all_shift_mm;
      if (debug)
        std::fprintf(stderr, "SHIFTS failing %zu (median %.2f mm), agreeing %zu (median %.2f mm)\n", off_far.size(),
                     off_far.empty() ? 0.0 : off_far[off_far.size() / 2], off_all.size(), off_all.empty() ? 0.0 : off_all[off_all.size() / 2]);
      if ((far_off || all_off) && src.size() >= 8) {
        const std::size_t n_grid = src.size();
        for (std::size_t m = 0; m < obs.pose.marker_ids.size(); ++m)
          for (const auto& mk : layout.markers)
            if (mk.id == obs.pose.marker_ids[m])
              for (int k = 0; k < 4; ++k) {
                src.emplace_back(static_cast<float>(mk.corners[static_cast<std::size_t>(k)].x), static_cast<float>(mk.corners[static_cast<std::size_t>(k)].y));
                dst.push_back(obs.pose.marker_corners[m][static_cast<std::size_t>(k)]);
              }
        cv::Mat inl;
        const cv::Mat h = cv::findHomography(src, dst, cv::RANSAC, 3.0, inl);
        // Kept when most grid pairs fit it and so do the corners of two markers at least
        // (a marker cut by the frame's edge may be the one that misled the pose), less one
        // (grid_refine_min_corners: one corner found off may be what misled a two-marker pose).
        int grid_in = 0, marker_in = 0;
        if (!h.empty()) {
          for (std::size_t k = 0; k < n_grid; ++k) grid_in += inl.at<uchar>(static_cast<int>(k)) != 0;
          for (std::size_t k = n_grid; k < src.size(); ++k) {
            marker_in += cv::norm(apply_h(cv::Matx33d(h), cv::Point2d(src[k])) - cv::Point2d(dst[k])) <= 4.0;
          }
        }
        if (debug) std::fprintf(stderr, "REFINE cells %zu failing %zu grid pairs %zu inliers %d marker corners %d of %zu\n", all.size(), failing.size(), n_grid, grid_in, marker_in, src.size() - n_grid);
        if (!h.empty() && grid_in >= 0.8 * static_cast<double>(n_grid) && marker_in >= params.grid_refine_min_corners) {
          const cv::Matx33d hm(h);
          const cv::Point2d pp((image.cols - 1) / 2.0, (image.rows - 1) / 2.0);
          // (The refitted homography's estimate when it can tell; else the pose's focal as it was.)
          bool estimated = false;
          double f = choose_focal(hm, image.size(), params.reg, &estimated);
          if (!estimated) f = obs.pose.focal_px;
          obs.pose.paper_to_image = hm;
          obs.pose.focal_px = f;
          obs.pose.top_to_image = lift_homography(hm, layout.die_height_mm, cv::Matx33d(f, 0, pp.x, 0, f, pp.y, 0, 0, 1));
          edges_first = visible_edges(grey, layout, hp, params.grid_line_contrast);
          refined = true;
        }
      }
    }
  }
  if (debug)
    std::fprintf(stderr, "POSE focal %.1f px (%s), reprojection %.2f px%s\n", obs.pose.focal_px,
                 calib && calib->camera ? "calibrated" : obs.pose.focal_estimated ? "from the homography" : "fallback",
                 obs.pose.reprojection_px, refined ? ", refitted to the grid" : "");
  // Visibility, per cell: its die's top face (the 16 mm square round the cell centre on
  // the top plane, plus 2 mm) and the cell's paper centre inside the frame. Cells out of
  // view are listed in Observation::hidden and not read; the board is found when the
  // markers give a pose and at least min_visible_fraction of the cells are in view.
  std::vector<uchar> in_view(layout.cells.size(), 1);
  // (exact34) Cells whose centre is in view and their top's square round it not: read, their die
  // reported only when the face found has its pip places inside the frame (in_view_face_mm).
  std::vector<uchar> view_partial(layout.cells.size(), 0);
  std::vector<uchar> view_face_in(layout.cells.size(), 0);  // ... and its face found inside the frame
  const double view_margin = params.edge_margin_px;
  auto in_frame = [&](cv::Point2d p) {
    return p.x >= view_margin && p.y >= view_margin && p.x < image.cols - view_margin && p.y < image.rows - view_margin;
  };
  int visible = 0;
  {
    for (std::size_t i = 0; i < layout.cells.size(); ++i) {
      const cv::Point2d c(layout.cells[i].centre.x, layout.cells[i].centre.y);
      const bool centre_in = in_frame(apply_h(hp, c)) && in_frame(apply_h(ht, c));
      bool in = centre_in;
      const double t = params.in_view_top_mm;
      for (double dx : {-t, t})
        for (double dy : {-t, t}) in = in && in_frame(apply_h(ht, c + cv::Point2d(dx, dy)));
      in_view[i] = in ? 1 : 0;
      view_partial[i] = params.in_view_face_mm > 0 && centre_in && !in ? 1 : 0;
      visible += in ? 1 : 0;
    }
  }
  const std::string view_why = "view: its top face (+-" + std::to_string(params.in_view_top_mm).substr(0, 4) + " mm) or paper centre not inside the frame";
  if (visible == 0 || visible < params.min_visible_fraction * static_cast<double>(layout.cells.size())) {
    obs.why_not_found = "map only partly in view (" + std::to_string(visible) + " of " +
                        std::to_string(layout.cells.size()) + " cells)";
    return obs;
  }
  for (std::size_t i = 0; i < layout.cells.size(); ++i)
    if (!in_view[i] && !view_partial[i]) {
      obs.hidden.push_back(layout.cells[i].hex);
      obs.hidden_why[layout.cells[i].hex] = view_why;
    }
  obs.board_found = true;
  // params.stop_when_covered: a cell in view found covered ends the read (cells empty).
  const std::size_t out_of_view = obs.hidden.size();
  auto stop_here = [&] { return params.stop_when_covered && obs.hidden.size() > out_of_view; };
  // HEXDICE_READ_DEBUG (above): one line per die read (DBG), per cell skipped and why (SKIP).

  // White reference (the white patch, else the median paper) and each cell's own paper.
  std::vector<cv::Vec3f> papers;
  std::vector<cv::Vec3f> die_free_papers;  // the cells' paper without a die's lit top (per-cell look only)
  const cv::Vec3f white = white_reference(image, layout, hp, &papers, params.paper_chroma_tolerance > 0 ? &die_free_papers : nullptr,
                                          params.paper_chroma_tolerance);
  // (robust26) A dim frame: the sheet's white darker than dim_white_level (dim_min_confidence).
  const double white_lum = (white[0] + 2.0 * white[1] + white[2]) / 4.0;
  const bool dark_frame = params.dim_white_level > 0 && params.dim_min_confidence > 0 && white_lum < params.dim_white_level;
  // (robust27) ... or a noisy one: a webcam in a dim room raises its gain, and its frame is not
  // dark but noisy; the weak readings are as much the noise's (noise_grey_level).
  const bool dim = dark_frame || (noisy && params.dim_min_confidence > 0);
  if (debug) std::fprintf(stderr, "DIM white %.1f%s\n", white_lum, dim ? ": a dim frame" : "");
  // (robust23) The cells' own papers, for the sheet's paper (their median) that the hand and
  // occluder masks judge darkness against (small_cell_paper_own_median).
  std::vector<cv::Vec3f> own_papers;
  if (params.small_cell_paper_hex_mm > 0 && layout.hex_size_mm < params.small_cell_paper_hex_mm) {
    if (params.small_cell_paper_own_median) own_papers = papers;
    const double s = params.hand_px_per_mm;
    const cv::Size size(cvCeil(layout.width_mm * s), cvCeil(layout.height_mm * s));
    if (size.area() > 0 && size.area() <= 4'000'000) {
      const std::vector<cv::Vec3f>& print = expected_print(layout, s, size).cell_print;
      const CellNeighbours nbrs = cell_neighbours(layout);
      small_cell_papers(layout, nbrs, print, papers);
      if (!die_free_papers.empty()) small_cell_papers(layout, nbrs, print, die_free_papers);
    }
  }
  laps.lap(&ReadProfile::white_ms);

  // Where each cell's paper point appears on the top-face plane, relative to the cell:
  // the direction and length of the dice's visible sides there (mm).
  std::vector<cv::Point2d> displacement(layout.cells.size());
  {
    const cv::Matx33d top_inv = ht.inv();
    for (std::size_t i = 0; i < layout.cells.size(); ++i) {
      const cv::Point2d c(layout.cells[i].centre.x, layout.cells[i].centre.y);
      displacement[i] = apply_h(top_inv, apply_h(hp, c)) - c;
    }
  }
  // Hands: a cell whose die's top face would be seen mostly through a hand (more than
  // hand_cover_fraction of a 5x5 grid over its 16 mm square) is not read and is listed
  // in Observation::hidden; elsewhere the hand's pixels are removed from each cell's
  // foreground, so a die beside the hand is still read and the hand is never a die.
  // covered: 0 = read, 1 = hidden (out of view, or its printed edges gone), 2 = under the
  // skin or occluder mask: most such cells with a die are in an arm's shadow, where the
  // die is still plainly seen. They are read, and reported only when the die is beyond
  // doubt (occluded_min_confidence, a body colour no shadow and no skin has); otherwise
  // they stay hidden.
  std::vector<uchar> covered(layout.cells.size(), 0);
  std::vector<uchar> near_hand(layout.cells.size(), 0);  // cell centre within hand_near_mm of a hand
  std::vector<uchar> under_skin_cell(layout.cells.size(), 0);  // its die's top seen through the skin mask
  for (std::size_t i = 0; i < layout.cells.size(); ++i) covered[i] = in_view[i] || view_partial[i] ? 0 : 1;
  cv::Mat hm, skin;  // hm: every cue's mask (skin, occluder); skin: the skin cue's alone
  std::vector<int> edges;
  if (params.hand_max_edges >= 0 || params.occluder_core_mm > 0) edges = edges_first;
  std::vector<uchar> edges_covered(layout.cells.size(), 0);  // (exact25) hidden "edges" (edges_read_no_hand)
  if (params.hand_max_edges >= 0) {
    // The cells whose print is not found where the pose puts it are looked at again with
    // slack (edge_slack_mm); only the covered decision takes the second count.
    std::vector<int> seen = edges;
    if (params.edge_slack_mm > 0 && refined) {
      std::vector<std::size_t> again;
      for (std::size_t i = 0; i < layout.cells.size(); ++i)
        if (edges[i] <= params.hand_max_edges && !covered[i] && !view_partial[i]) again.push_back(i);
      const std::vector<int> e2 = visible_edges_slack(grey, layout, hp, params.grid_line_contrast, again, params.edge_slack_mm,
                                                      params.edge_slack_hits, debug);
      for (std::size_t n = 0; n < again.size(); ++n) seen[again[n]] = std::max(seen[again[n]], e2[n]);
    }
    // (robust33) In a blurred frame a cell failing the test is looked at again at the lower
    // blur_grid_line_contrast: the blur spreads the thin printed line and takes its contrast.
    if (blurred && !noisy && params.blur_grid_line_contrast > 0 && params.blur_grid_line_contrast < params.grid_line_contrast) {
      std::vector<std::size_t> again;
      for (std::size_t i = 0; i < layout.cells.size(); ++i)
        if (seen[i] <= params.hand_max_edges && !covered[i] && !view_partial[i]) again.push_back(i);
      if (!again.empty()) {
        const std::vector<int> e3 = visible_edges(grey, layout, hp, params.blur_grid_line_contrast);
        const std::vector<int> e4 = params.edge_slack_mm > 0 && refined
                                        ? visible_edges_slack(grey, layout, hp, params.blur_grid_line_contrast, again, params.edge_slack_mm,
                                                              params.edge_slack_hits, false)
                                        : std::vector<int>(again.size(), 0);
        for (std::size_t n = 0; n < again.size(); ++n) {
          const std::size_t i = again[n];
          if (debug && std::max(e3[i], e4[n]) > seen[i])
            std::fprintf(stderr, "BLUREDGES %d,%d %d -> %d of its edges at contrast %.3f\n", layout.cells[i].hex.q, layout.cells[i].hex.r,
                         seen[i], std::max(e3[i], e4[n]), params.blur_grid_line_contrast);
          seen[i] = std::max({seen[i], e3[i], e4[n]});
        }
      }
    }
    const std::vector<uchar> lone = params.small_cell_lone_edges_hex_mm > 0 && layout.hex_size_mm < params.small_cell_lone_edges_hex_mm
                                        ? lone_edgeless_cells(layout, seen, covered, params.hand_max_edges,
                                                              params.small_cell_edgeless_group)
                                        : std::vector<uchar>();
    for (std::size_t i = 0; i < layout.cells.size(); ++i)
      // (exact34) Not a cell at the frame's edge (in_view_face_mm): part of its print is out of the
      // frame, not covered (nor is it covered for stop_when_covered); its die's face decides.
      if (seen[i] <= params.hand_max_edges && !covered[i] && !view_partial[i] && (lone.empty() || !lone[i])) {
        if (debug) std::fprintf(stderr, "COVER %d,%d edges %d\n", layout.cells[i].hex.q, layout.cells[i].hex.r, seen[i]);
        covered[i] = 1;  // nothing of the print seen round it: not a shadow
        edges_covered[i] = 1;
        // (exact23) On a map of standard cells, read all the same under the occluder gate
        // (reported only beyond doubt); small cells are the lone-edge rule's (above).
        if (params.edges_read_occluded_hex_mm > 0 && layout.hex_size_mm >= params.edges_read_occluded_hex_mm &&
            params.occluded_min_confidence > 0)
          covered[i] = 2;
        obs.hidden.push_back(layout.cells[i].hex);
        obs.hidden_why[layout.cells[i].hex] = "edges: " + std::to_string(seen[i]) + " of its 6 printed edges seen";
      }
  }
  laps.lap(&ReadProfile::edges_ms);
  if (stop_here()) return obs;
  if (params.hand_min_area_mm2 > 0 || params.occluder_core_mm > 0) {
    // Against the paper itself (the white patch may be whiter or bluer than the paper).
    std::vector<cv::Vec3b> pv;
    for (const auto& pc : own_papers.empty() ? papers : own_papers)
      pv.emplace_back(cv::saturate_cast<uchar>(pc[0]), cv::saturate_cast<uchar>(pc[1]), cv::saturate_cast<uchar>(pc[2]));
    cv::Vec3f paper = median_bgr(pv);
    for (int k = 0; k < 3; ++k) paper[k] = std::max(paper[k], 20.0f);
    // The frame on the paper plane at hand_px_per_mm, once for both masks.
    cv::Mat sheet;
    {
      const double s = params.hand_px_per_mm;
      const cv::Size size(cvCeil(layout.width_mm * s), cvCeil(layout.height_mm * s));
      if (size.area() > 0 && size.area() <= 4'000'000) {
        const cv::Matx33d mm_from_px(1 / s, 0, 0, 0, 1 / s, 0, 0, 0, 1);
        // = cv::warpPerspective(..., INTER_LINEAR | WARP_INVERSE_MAP, BORDER_CONSTANT, paper) (mask_ops.h)
        warp_perspective_linear(image, sheet, hp * mm_from_px, size, cv::BORDER_CONSTANT, cv::Scalar(paper[0], paper[1], paper[2]));
      }
    }
    if (params.hand_min_area_mm2 > 0 && !sheet.empty()) hm = hand_mask(sheet, layout, paper, params);
    skin = hm;
    if (params.occluder_core_mm > 0 && !sheet.empty()) {
      const cv::Mat om = occluder_mask(sheet, layout, paper, papers, edges, params);
      if (!om.empty()) {
        if (hm.empty()) hm = om;
        // (exact15) Into a new matrix: `hm = hm | om` wrote into the buffer `skin` shares,
        // and the skin count of the debug lines and the occluder's hidden reasons was the
        // whole mask's.
        else hm = cv::Mat(hm | om);
      }
    }
    // (exact25) No hand in the frame: a cell whose printed edges dice hide is read under the
    // occluder gate (edges_read_no_hand).
    // (Maps of standard cells only: hexes of 13 mm and more, small_cell_lone_edges_hex_mm's default; on smaller
    // ones a die hides its own cell's edges anyway and the small-cell rules decide, whatever their switches say.)
    if (params.edges_read_no_hand && params.occluded_min_confidence > 0 && layout.hex_size_mm >= 13.0 &&
        (hm.empty() || cv::countNonZero(hm) == 0))
      for (std::size_t i = 0; i < layout.cells.size(); ++i)
        if (edges_covered[i] && covered[i] == 1) {
          covered[i] = 2;
          if (debug) std::fprintf(stderr, "NOHAND %d,%d edges hidden, no hand in the frame: read under the occluder gate\n", layout.cells[i].hex.q, layout.cells[i].hex.r);
        }
    if (!hm.empty()) {
      const double s = params.hand_px_per_mm;
      const cv::Matx33d paper_inv = hp.inv();
      auto hit = [&](cv::Point2d mm) {
        const int x = cvRound(mm.x * s), y = cvRound(mm.y * s);
        return x >= 0 && y >= 0 && x < hm.cols && y < hm.rows && hm.at<uchar>(y, x) != 0;
      };
      auto hit_skin = [&](cv::Point2d mm) {
        const int x = cvRound(mm.x * s), y = cvRound(mm.y * s);
        return !skin.empty() && x >= 0 && y >= 0 && x < skin.cols && y < skin.rows && skin.at<uchar>(y, x) != 0;
      };
      for (std::size_t i = 0; i < layout.cells.size(); ++i) {
        const cv::Point2d c(layout.cells[i].centre.x, layout.cells[i].centre.y);
        int n_hit = 0, n_all = 0, p_hit = 0, p_all = 0, n_skin = 0;
        for (double dx = -7.0; dx <= 7.01; dx += 3.5)
          for (double dy = -7.0; dy <= 7.01; dy += 3.5) {
            // The top face as the camera sees it, taken back to the paper plane.
            const cv::Point2d seen = apply_h(paper_inv, apply_h(ht, c + cv::Point2d(dx, dy)));
            n_hit += hit(seen);
            n_skin += hit_skin(seen);
            ++n_all;
            // The cell's own paper (its reference colour): a shadow or an arm over it
            // makes every later test on this cell unreliable.
            p_hit += hit(c + cv::Point2d(dx * 1.5, dy * 1.5));
            ++p_all;
          }
        const bool under_skin = n_skin > params.hand_cover_fraction * n_all;
        if (under_skin) under_skin_cell[i] = 1;
        if ((n_hit > params.hand_cover_fraction * n_all || p_hit > params.hand_paper_cover_fraction * p_all) && !covered[i]) {
          if (debug)
            std::fprintf(stderr, "COVER %d,%d top %d/%d paper %d/%d skin %d\n", layout.cells[i].hex.q, layout.cells[i].hex.r, n_hit,
                         n_all, p_hit, p_all, n_skin);
          covered[i] = params.occluded_min_confidence <= 0 ? 1 : 2;
          obs.hidden.push_back(layout.cells[i].hex);
          obs.hidden_why[layout.cells[i].hex] = "occluder: top " + std::to_string(n_hit) + "/" + std::to_string(n_all) + " paper " +
                                                std::to_string(p_hit) + "/" + std::to_string(p_all) + " skin " +
                                                std::to_string(n_skin) + " on the mask, no die read there";
        }
      }
      if (params.hand_near_mm >= std::hypot(layout.width_mm, layout.height_mm)) {
        // The whole sheet (the default): an arm's shadow need not touch the arm (a lamp
        // behind it casts it a hand's breadth away), a soft one is too faint for the
        // occluder mask, and nothing is committed while an arm is in view anyway.
        std::fill(near_hand.begin(), near_hand.end(), 1);
      } else if (params.hand_near_mm > 0) {
        cv::Mat free = hm == 0, dist;
        cv::distanceTransform(free, dist, cv::DIST_L2, cv::DIST_MASK_5);
        for (std::size_t i = 0; i < layout.cells.size(); ++i) {
          const int x = cvRound(layout.cells[i].centre.x * s), y = cvRound(layout.cells[i].centre.y * s);
          if (x >= 0 && y >= 0 && x < dist.cols && y < dist.rows)
            near_hand[i] = dist.at<float>(y, x) <= params.hand_near_mm * s;
        }
      }
    }
  }

  if (laps.on() && !hm.empty()) ++laps.counts().hand_found;
  laps.lap(&ReadProfile::hand_ms);
  if (stop_here()) return obs;
  // The top-face plane, rectified: cells' bounding box (mm) at px_per_mm.
  const double ppm = params.px_per_mm, hs = layout.hex_size_mm;
  const auto [cx0, cy0, cx1, cy1] = cell_centres_box_mm(layout);
  const double x0 = cx0 - hs - 15, y0 = cy0 - hs - 15, x1 = cx1 + hs + 15, y1 = cy1 + hs + 15;
  const cv::Size rsize(cvCeil((x1 - x0) * ppm), cvCeil((y1 - y0) * ppm));
  if (rsize.area() <= 0 || rsize.area() > 40'000'000) {
    obs.why_not_found = "layout too large";
    obs.board_found = false;
    return obs;
  }
  const cv::Matx33d rect_to_mm(1 / ppm, 0, x0, 0, 1 / ppm, y0, 0, 0, 1);
  // Patches of that plane are warped per cell, on demand (most cells are empty).
  const cv::Rect rect_bounds(0, 0, rsize.width, rsize.height);
  auto warp_patch = [&](const cv::Rect& r) {
    cv::Mat out;
    const cv::Matx33d shift(1, 0, r.x, 0, 1, r.y, 0, 0, 1);
    warp_perspective_linear(image, out, ht * rect_to_mm * shift, r.size(), cv::BORDER_REPLICATE);  // = cv::warpPerspective
    return out;
  };
  // The printed grid lines as they appear on this plane (they lie on the paper, so
  // they are seen displaced): segments in plane pixels, masked out of the foreground.
  std::vector<std::pair<cv::Point2d, cv::Point2d>> grid_segments;
  {
    const cv::Matx33d paper_to_rect = rect_to_mm.inv() * ht.inv() * hp;
    // (speed47) The 7 corner angles' cosines and sines once (were 2 x 546 sincos calls at 720p).
    static const auto corner = cos_sin_table<7>(ReaderAngles::hex_corner);
    for (const auto& c : layout.cells)
      for (std::size_t i = 0; i < 6; ++i) {
        const auto& [c0, s0] = corner[i];
        const auto& [c1, s1] = corner[i + 1];
        grid_segments.emplace_back(apply_h(paper_to_rect, {c.centre.x + hs * c0, c.centre.y + hs * s0}),
                                   apply_h(paper_to_rect, {c.centre.x + hs * c1, c.centre.y + hs * s1}));
      }
  }
  const int grid_thick = std::max(1, cvRound(params.grid_line_mm * ppm));
  const int open_px = std::max(1, cvRound(params.open_mm * ppm));
  const cv::Mat open_k = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(open_px | 1, open_px | 1));
  const int close_px = std::max(3, cvRound(3.5 * ppm)) | 1;
  const cv::Mat close_k = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(close_px, close_px));
  const double face_px = 16.0 * ppm;
  const double unit_area = face_px * face_px;
  const double guard_area = params.guard_side_mm * ppm * params.guard_side_mm * ppm;

  // Quick empty test, for every cell at once: a unit's top face covers most of the 8 mm
  // square round the cell centre on the top plane (even when pushed aside by a guard
  // token); cells where little of it differs from the paper are empty. The squares of all
  // cells are sampled from the image in one remap.
  std::vector<uchar> core_occupied(layout.cells.size(), 0);
  {
    const int q = cvRound(4.0 * ppm), side_px = 2 * q;
    std::vector<std::size_t> todo;
    for (std::size_t ci = 0; ci < layout.cells.size(); ++ci)
      if (covered[ci] != 1) todo.push_back(ci);
    if (!todo.empty() && side_px > 0) {
      cv::Mat mx(side_px, side_px * static_cast<int>(todo.size()), CV_32F), my(mx.size(), CV_32F);
      const cv::Matx33d to_img = ht * rect_to_mm;
      for (std::size_t k = 0; k < todo.size(); ++k) {
        const CellMm& cell = layout.cells[todo[k]];
        const int cx = cvRound((cell.centre.x - x0) * ppm), cy = cvRound((cell.centre.y - y0) * ppm);
        for (int j = 0; j < side_px; ++j) {
          float* px = mx.ptr<float>(j) + k * static_cast<std::size_t>(side_px);
          float* py = my.ptr<float>(j) + k * static_cast<std::size_t>(side_px);
          // u = cx - q + i, v = cy - q + j through to_img (mask_ops.h: the same floats as the loop)
          homography_row(to_img, cx - q, 1, cy - q + j, side_px, px, py);
        }
      }
      cv::Mat cores;
      remap_linear_8uc3(image, cores, mx, my, cv::BORDER_REPLICATE);  // = cv::remap(..., INTER_LINEAR, ...)
      for (std::size_t k = 0; k < todo.size(); ++k) {
        const cv::Rect r(static_cast<int>(k) * side_px, 0, side_px, side_px);
        const cv::Mat cm = dist_mask(cores(r), papers[todo[k]], params.paper_distance, true);
        const int core_differs = cv::countNonZero(cm);
        core_occupied[todo[k]] = core_differs >= params.occupied_core_fraction * r.area();
        if (debug)
          std::fprintf(stderr, "CORE %d,%d %.2f of the core differs from its paper %.0f %.0f %.0f\n", layout.cells[todo[k]].hex.q,
                       layout.cells[todo[k]].hex.r, core_differs / static_cast<double>(r.area()), papers[todo[k]][0], papers[todo[k]][1],
                       papers[todo[k]][2]);
        if (!core_occupied[todo[k]] && params.core_dark_fraction > 0) {
          // A white die's top is paper-coloured, so it fails the test above; its pips do
          // not: dark dimples (luminance under core_dark_ratio of the paper's) on
          // core_dark_fraction of the core. Printed text and grid lines do not reach the
          // core of an empty cell; what does pass is looked at by the full test below.
          const cv::Vec3f pp = papers[todo[k]];
          const float dark_lum = static_cast<float>(params.core_dark_ratio) * (pp[0] + 2 * pp[1] + pp[2]);
          // (speed33: the core's luminances 16 at a time, compared as one run, counted once)
          thread_local std::vector<ushort> lum;
          thread_local std::vector<uchar> is_dark;
          lum.resize(static_cast<std::size_t>(r.area()));
          is_dark.resize(static_cast<std::size_t>(r.area()));
          for (int y = 0; y < r.height; ++y)
            bgr_lum_row(cores.ptr<uchar>(y) + 3 * r.x, r.width, lum.data() + static_cast<std::size_t>(y) * r.width);
          lum_compare_row(lum.data(), nullptr, r.area(), dark_lum, false, LumWhere::Any, is_dark.data());
          const int dark = cv::countNonZero(cv::Mat(1, r.area(), CV_8U, is_dark.data()));
          core_occupied[todo[k]] = dark >= params.core_dark_fraction * r.area();
        }
      }
    }
  }
  // White dice whose pips miss the 8 mm core (a 2, 3 or 4 has its pips 4-6 mm from the face
  // centre, and the die may stand 7 mm off the cell centre): their paper-coloured top passes
  // for paper, but every face shows at least one dark, round, pip-sized dimple. Where the
  // core test failed, the disc of core_pip_reach_mm round the cell centre (top plane) is
  // looked at for one: darker than core_dark_ratio x the cell's paper, off the printed grid
  // lines (drawn where they appear on this plane), its area and shape a pip's. The printed
  // names are light (165/255, above the ratio) and so not dark. What passes goes to the full
  // test below, which decides (a pip alone is no die there).
  if (params.core_pip_reach_mm > 0) {
    const int rp = cvRound(params.core_pip_reach_mm * ppm), side_px = 2 * rp + 1, stride = side_px + 1;
    std::vector<std::size_t> todo;
    for (std::size_t ci = 0; ci < layout.cells.size(); ++ci)
      if (covered[ci] != 1 && !core_occupied[ci]) todo.push_back(ci);
    const cv::Matx33d to_img = ht * rect_to_mm;
    // Samples of tiles (side_px square round each cell centre, rect-plane pixels, every
    // `step`-th) into one map: tiles one below the other (each tile's samples together in
    // the frame, so the lookups stay in cache), a gap row between them.
    auto sample_tiles = [&](const std::vector<std::size_t>& cells, int step, cv::Mat& out, std::vector<cv::Point>& origin) {
      const int n = (side_px + step - 1) / step, st = n + 1;
      // (speed39) Rows k st .. k st + n - 1 are each homography_row's n points; only each
      // tile's last row (k st + n, between the tiles) is set to -1e4 (outside the image).
      cv::Mat mx(st * static_cast<int>(cells.size()), n, CV_32F), my(mx.size(), CV_32F);
      origin.resize(cells.size());
      for (std::size_t k = 0; k < cells.size(); ++k) {
        std::fill(mx.ptr<float>(static_cast<int>(k) * st + n), mx.ptr<float>(static_cast<int>(k) * st + n) + n, -1e4f);
        std::fill(my.ptr<float>(static_cast<int>(k) * st + n), my.ptr<float>(static_cast<int>(k) * st + n) + n, -1e4f);
        const CellMm& cell = layout.cells[cells[k]];
        origin[k] = {cvRound((cell.centre.x - x0) * ppm) - rp, cvRound((cell.centre.y - y0) * ppm) - rp};
        for (int j = 0; j < n; ++j) {
          float* px = mx.ptr<float>(static_cast<int>(k) * st + j);
          float* py = my.ptr<float>(static_cast<int>(k) * st + j);
          // u = origin.x + i step, v = origin.y + j step through to_img (mask_ops.h)
          homography_row(to_img, origin[k].x, step, origin[k].y + j * step, n, px, py);
        }
      }
      remap_linear_8uc3(image, out, mx, my, cv::BORDER_CONSTANT, cv::Scalar(255, 255, 255));  // = cv::remap(..., INTER_LINEAR, ...)
      return st;
    };
    if (!todo.empty() && rp > 2) {
      // On the printed grid: the paper point seen through a rect-plane pixel within
      // grid_line_mm / 2 of its cell's border (the cells are the Voronoi regions of their
      // centres: the nearest centre's hexagon holds it). Only dark pixels are asked.
      const cv::Matx33d rect_to_paper = hp.inv() * ht * rect_to_mm;
      std::array<cv::Point2d, 6> normal;
      double inscribed = 0;
      {
        const auto corners = layout.cell_corners(layout.cells[0].hex);
        const cv::Point2d c0(layout.cells[0].centre.x, layout.cells[0].centre.y);
        for (std::size_t e = 0; e < 6; ++e) {
          const cv::Point2d m = 0.5 * (cv::Point2d(corners[e].x, corners[e].y) + cv::Point2d(corners[(e + 1) % 6].x, corners[(e + 1) % 6].y)) - c0;
          inscribed = cv::norm(m);
          normal[e] = m * (1.0 / std::max(1e-9, inscribed));
        }
      }
      std::vector<std::vector<std::size_t>> near(layout.cells.size());
      auto on_grid = [&](std::size_t ci, int x, int y) {
        if (near[ci].empty())
          for (std::size_t k = 0; k < layout.cells.size(); ++k)
            if (std::pow(layout.cells[k].centre.x - layout.cells[ci].centre.x, 2) +
                    std::pow(layout.cells[k].centre.y - layout.cells[ci].centre.y, 2) <
                std::pow(2.2 * hs, 2))
              near[ci].push_back(k);
        const cv::Point2d q = apply_h(rect_to_paper, {static_cast<double>(x), static_cast<double>(y)});
        double best = 1e18;
        cv::Point2d rel;
        for (std::size_t k : near[ci]) {
          const cv::Point2d r(q.x - layout.cells[k].centre.x, q.y - layout.cells[k].centre.y);
          if (r.dot(r) < best) best = r.dot(r), rel = r;
        }
        double out = -1e18;
        for (const auto& n : normal) out = std::max(out, rel.dot(n));
        return inscribed - out < 0.5 * params.grid_line_mm;
      };
      auto dark_lum = [&](std::size_t ci) {
        const cv::Vec3f pp = papers[ci];
        return static_cast<float>(params.core_dark_ratio) * (pp[0] + 2 * pp[1] + pp[2]);
      };
      // (exact20) ... and a light one (core_light_ratio): a channel brighter than that x the
      // paper's (a white pip on a tinted cell; on the untinted paper, its ring's brightest
      // quarter, nothing is).
      // Per cell, the channel levels a light pixel exceeds (v > ratio x paper, for a whole v:
      // v > floor(ratio x paper)); none at 255 or more (a bright paper's cell has no light pip).
      const double light_ratio = params.core_light_ratio;
      std::vector<std::array<int, 3>> light_level(layout.cells.size(), {255, 255, 255});
      std::vector<char> can_light(layout.cells.size(), 0);
      if (light_ratio > 0)
        for (const std::size_t ci : todo) {
          for (int c = 0; c < 3; ++c) light_level[ci][c] = static_cast<int>(std::min(255.0, std::floor(light_ratio * papers[ci][c])));
          can_light[ci] = light_level[ci][0] < 255 || light_level[ci][1] < 255 || light_level[ci][2] < 255;
        }
      auto is_light = [&](std::size_t ci, const cv::Vec3b& v) {
        const std::array<int, 3>& t = light_level[ci];
        return v[0] > t[0] || v[1] > t[1] || v[2] > t[2];
      };
      // First every 4th pixel (2 mm; a pip is ~3 mm, ~6 px across): only tiles with a dark sample off the
      // grid (or a light one) are looked at in full.
      std::vector<std::size_t> cand;
      {
        constexpr int kStep = 4;
        cv::Mat coarse;
        std::vector<cv::Point> origin;
        const int st = sample_tiles(todo, kStep, coarse, origin);
        const int n = st - 1;
        for (std::size_t k = 0; k < todo.size(); ++k) {
          const float dl = dark_lum(todo[k]);
          bool any = false;
          const bool lt = can_light[todo[k]];
          for (int j = 0; j < n && !any; ++j) {
            const cv::Vec3b* row = coarse.ptr<cv::Vec3b>(static_cast<int>(k) * st + j);
            for (int i = 0; i < n && !any; ++i)
              any = ((row[i][0] + 2 * row[i][1] + row[i][2]) < dl && !on_grid(todo[k], origin[k].x + i * kStep, origin[k].y + j * kStep)) ||
                    (lt && is_light(todo[k], row[i]));
          }
          if (any) cand.push_back(todo[k]);
        }
      }
      if (!cand.empty()) {
        cv::Mat tiles;
        std::vector<cv::Point> origin;
        sample_tiles(cand, 1, tiles, origin);
        cv::Mat dark(tiles.size(), CV_8U, cv::Scalar(0)), light;
        for (const std::size_t ci : cand)
          if (can_light[ci] && light.empty()) light = cv::Mat(tiles.size(), CV_8U, cv::Scalar(0));
        std::vector<ushort> lum(static_cast<std::size_t>(side_px));
        for (std::size_t k = 0; k < cand.size(); ++k) {
          const float dl = dark_lum(cand[k]);
          for (int y = 0; y < side_px; ++y) {
            const cv::Vec3b* row = tiles.ptr<cv::Vec3b>(static_cast<int>(k) * stride + y);
            uchar* o = dark.ptr<uchar>(static_cast<int>(k) * stride + y);
            // (speed33) The dark pixels a row at a time (bgr_lum_row, lum_compare_row), then the
            // grid test on those alone (for_each_set skips the rest 16 at a time). for_each_set
            // has found a run's end before it visits the run, so clearing a visited byte is safe.
            bgr_lum_row(reinterpret_cast<const uchar*>(row), side_px, lum.data());
            lum_compare_row(lum.data(), nullptr, side_px, dl, false, LumWhere::Any, o);
            for_each_set(o, side_px, [&](int x) {
              if (on_grid(cand[k], origin[k].x + x, origin[k].y + y)) o[x] = 0;
            });
            if (can_light[cand[k]]) {
              uchar* ol = light.ptr<uchar>(static_cast<int>(k) * stride + y);
              for (int x = 0; x < side_px; ++x) ol[x] = is_light(cand[k], row[x]) ? 255 : 0;
            }
          }
        }
        for (const cv::Mat* mask : {&dark, &light}) {
        if (mask->empty()) continue;
        const bool light_pips = mask == &light;
        cv::Mat ps, pc;
        const int pn = components_stats(*mask, ps, pc);  // = cv::connectedComponentsWithStats' stats (mask_ops.h)
        const double pip_px = 0.18 * face_px, pip_area = CV_PI * pip_px * pip_px / 4;
        const int nt = static_cast<int>(cand.size());
        for (int i = 1; i < pn; ++i) {
          const int area = ps.at<int>(i, cv::CC_STAT_AREA);
          const int w = ps.at<int>(i, cv::CC_STAT_WIDTH), h = ps.at<int>(i, cv::CC_STAT_HEIGHT);
          if (area < 0.3 * pip_area || area > 2.5 * pip_area || std::max(w, h) > 2 * std::min(w, h) + 1) continue;
          const double cx = pc.at<double>(i, 0), cy = pc.at<double>(i, 1);
          const int k = static_cast<int>(cy) / stride;
          if (k < 0 || k >= nt) continue;
          if (std::hypot(cx - rp, cy - k * stride - rp) > rp) continue;
          const std::size_t ci = cand[static_cast<std::size_t>(k)];
          if (debug && !core_occupied[ci])
            std::fprintf(stderr, "COREPIP %d,%d %s pip at %.1f %.1f mm\n", layout.cells[ci].hex.q, layout.cells[ci].hex.r,
                         light_pips ? "light" : "dark", (cx - rp) / ppm, (cy - k * stride - rp) / ppm);
          core_occupied[ci] = 1;
        }
        }
      }
    }
  }
  laps.lap(&ReadProfile::empty_ms);
  std::vector<uchar> reread_ok(layout.cells.size(), 0);  // covered == 2, its die reported
  std::vector<int> reported_polarity(layout.cells.size(), 0);  // the final reading's pip polarity (polarity_check)
  std::vector<double> reported_scale(layout.cells.size(), 0.0);  // (exact20) its pips' size (pip_layout_scale; face_scale_gate)
  std::vector<double> one_top(layout.cells.size(), -1.0);  // (exact26) a 1's top seen round its pip (one_top_shown); -1: not looked at
  std::vector<char> one_top_clear(layout.cells.size(), 0);  // (robust47) a 1's empty places clear of its pip (one_top_clear_ratio)
  std::vector<uchar> shown_agreed(layout.cells.size(), 0);  // (exact22) its count the one its shown pip places allow
  std::vector<uchar> regridded(layout.cells.size(), 0);  // (exact30) its count from its pips at the real size (occluded_shown_any_place)
  // (exact18) The dark-pip look (white dice) was made on the cell and found not one pip at any
  // threshold it reached (white_no_pip_below).
  std::vector<char> no_dark_pip(layout.cells.size(), 0);
  // (robust46) The count whose layout white_no_pip_body_ratio's look found (0: none): a reading
  // still of that count is not "no pip".
  std::vector<int> body_pips_face(layout.cells.size(), 0);
  // (exact28) A lone dark pip on a top of the paper's colour (white_one_lone_pip).
  std::vector<uchar> lone_white_one(layout.cells.size(), 0);
  std::vector<cv::Point2d> lone_pip_mm(layout.cells.size());  // (exact29) that pip (top-plane mm)
  std::vector<uchar> white_read_apart(layout.cells.size(), 0);  // (exact29) a white reading with no pip on it (white_one_apart_mm)
  // (robust26) In a dim frame, a weak reading's count read by both the lattice and the counter (dim_min_confidence).
  std::vector<char> dim_agreed(layout.cells.size(), 0);
  std::vector<char> faint_unclear(layout.cells.size(), 0);  // (robust30) blur_faint_empty_ratio
  std::vector<char> guess_clear(layout.cells.size(), 0);    // (robust34) guess_clear_ratio
  std::vector<char> weak_clear(layout.cells.size(), 0);     // (exact40) weak_guess_clear_ratio
  std::vector<char> one_clear(layout.cells.size(), 0);      // (exact39) noise_one_clear_ratio
  std::vector<char> one_top_seen(layout.cells.size(), 0);   // (robust48) noise_one_colour_contrast: its places show its top
  // (robust28) In a noisy frame that is not dark, each reading's pip contrast (pip_contrast; NaN: not
  // measured). Dark noisy frames keep the dim rule alone: there a right blue 2 had a pip at no contrast
  // (scenes_harsh 2404, blurred too). dim_min_confidence 0 turns it off with the dim and noise rules
  // (their one switch; dark_frame is false then). noise_rules: that switch and frame, shared by
  // every noise rule below.
  const bool noise_rules = noisy && !dark_frame && params.dim_min_confidence > 0;
  const bool noise_faint_rule = noise_rules && params.noise_pip_contrast > 0;
  // (exact39) ... and for the unsure 1s' rule (noise_one_min_confidence) when a 1 whose pip stands
  // far out of the noise is kept (noise_one_sure_contrast).
  const bool noise_one_contrast_rule = noise_rules && params.noise_one_min_confidence > 0 && params.noise_one_sure_contrast > 0;
  std::vector<double> pip_contrast_of(layout.cells.size(), std::numeric_limits<double>::quiet_NaN());
  // (exact41) ... and a reading with a pip place the noise outdoes (noise_pip_place_min).
  const bool noise_place_rule = noise_rules && params.noise_pip_place_min > 0;
  std::vector<char> place_faint(layout.cells.size(), 0);
  // (robust44) A white reading with an empty place darker than its weakest pip (white_empty_over_pip).
  std::vector<char> white_empty_dark(layout.cells.size(), 0);
  // The dice's own cells: their paper without a glared top taken for it (not under or
  // beside a hand, where most samples are the hand and its shade, not paper).
  for (std::size_t ci = 0; ci < die_free_papers.size(); ++ci)
    if (covered[ci] != 2 && !near_hand[ci]) papers[ci] = die_free_papers[ci];
  // The light on each cell, for naming its die's colours (misread4, docs/reader.md): its
  // paper against the lit paper of its tint, times the white. The sheet's light is the lit
  // paper of the untinted cells; a white patch that disagrees with it (under an arm, in its
  // shade: darker than colour_white_check x it or further than colour_shade_chroma in
  // chromaticity) is not the white colours are named against, that light is. A cell in
  // shade (its light darker than colour_shade_below x the white) names against its own
  // light when that is of the white's colour; else the white.
  std::vector<cv::Vec3f> colour_white(layout.cells.size(), white);
  // (exact20) The light on each cell (below: its paper over its tint's lit paper, times the
  // white: the print's tint divided out), for the skin test under the occluder; the paper itself
  // where that is not known.
  std::vector<cv::Vec3f> paper_light(papers.begin(), papers.end());
  cv::Vec3f colour_base = white;  // the sheet's white or light, without the cells' shade (the guard search)
  // (exact25) The lit paper of each cell's tint (0 0 0: untinted, or too few cells of it in view): guard_print_tint.
  std::vector<cv::Vec3f> tint_paper(layout.cells.size(), cv::Vec3f(0, 0, 0));
  if (params.colour_shade_below > 0 || params.colour_white_check > 0) {
    const double s = params.hand_px_per_mm;
    const cv::Size size(cvCeil(layout.width_mm * s), cvCeil(layout.height_mm * s));
    const ExpectedPrint ep = size.area() > 0 && size.area() <= 4'000'000 ? expected_print(layout, s, size) : ExpectedPrint{};
    auto chroma = [](cv::Vec3f v) { return v * (1.0f / std::max(1.0f, v[0] + v[1] + v[2])); };
    auto lum = [](cv::Vec3f v) { return v[0] + 2 * v[1] + v[2]; };
    auto chroma_off = [&](cv::Vec3f a, cv::Vec3f b) {
      const cv::Vec3f dc = chroma(a) - chroma(b);
      return std::max({std::abs(dc[0]), std::abs(dc[1]), std::abs(dc[2])});
    };
    // Each cell's print (its tint) and the lit paper of each tint: the upper quartile of the
    // papers of the cells of that print not under a hand (the photo of a tint is not the
    // print's colour times the light: the printer, the paper and the camera's curve differ).
    std::vector<cv::Vec3f> print(layout.cells.size(), cv::Vec3f(0, 0, 0));
    std::vector<int> tint(layout.cells.size(), -1);
    std::vector<std::pair<int, std::vector<cv::Vec3f>>> lit;  // print key -> papers not under a hand
    for (std::size_t ci = 0; ci < layout.cells.size() && !ep.print.empty(); ++ci) {
      if (covered[ci] != 0 && covered[ci] != 2) continue;
      print[ci] = ep.cell_print[ci];  // = cell_paper(ep.print, (s px/mm), cell centre, hex_size_mm), kept with the print
      const bool untinted = std::min({print[ci][0], print[ci][1], print[ci][2]}) >= 245.0f;
      tint[ci] = untinted ? 0 : 1 + cvRound(print[ci][0] / 8) * 1024 + cvRound(print[ci][1] / 8) * 32 + cvRound(print[ci][2] / 8);
      // (exact34) Not a cell at the frame's edge (in_view_face_mm): its paper is read only for its own die.
      if (covered[ci] != 0 || view_partial[ci]) continue;
      auto it = std::find_if(lit.begin(), lit.end(), [&](const auto& e) { return e.first == tint[ci]; });
      if (it == lit.end()) lit.push_back({tint[ci], {}}), it = lit.end() - 1;
      it->second.push_back(papers[ci]);
    }
    // (Each tint's papers sorted by lum once; lit_paper is asked once per cell.)
    for (auto& [k, v] : lit) std::sort(v.begin(), v.end(), [&](cv::Vec3f a, cv::Vec3f b) { return lum(a) < lum(b); });
    auto lit_paper = [&](int key, std::size_t min_cells, cv::Vec3f& out) {
      for (const auto& [k, v] : lit)
        if (k == key && v.size() >= min_cells) {
          out = v[v.size() * 3 / 4];
          return true;
        }
      return false;
    };
    cv::Vec3f base = white;
    cv::Vec3f sheet_light;
    const bool have_sheet_light = lit_paper(0, 4, sheet_light);
    if (params.colour_white_check > 0 && have_sheet_light) {
      if (debug)
        std::fprintf(stderr, "LIGHT sheet %.0f %.0f %.0f from the untinted cells, white %.0f %.0f %.0f\n", sheet_light[0], sheet_light[1],
                     sheet_light[2], white[0], white[1], white[2]);
      if (lum(white) < params.colour_white_check * lum(sheet_light) || chroma_off(white, sheet_light) > params.colour_shade_chroma) {
        base = sheet_light;
        if (debug)
          std::fprintf(stderr, "WHITE %.0f %.0f %.0f not the sheet's light %.0f %.0f %.0f: colours named against that\n", white[0],
                       white[1], white[2], base[0], base[1], base[2]);
      }
    }
    // The light on a cell: its paper against its tint's lit paper, times the white (the
    // print's colour when its tint has too few cells in view).
    std::vector<cv::Vec3f> light(layout.cells.size(), cv::Vec3f(0, 0, 0));
    for (std::size_t ci = 0; ci < layout.cells.size(); ++ci) {
      if (tint[ci] < 0) continue;
      cv::Vec3f ref;
      if (lit_paper(tint[ci], 3, ref))
        for (int k = 0; k < 3; ++k) light[ci][k] = papers[ci][k] * base[k] / std::max(ref[k], 20.0f);
      else
        for (int k = 0; k < 3; ++k) light[ci][k] = papers[ci][k] * 255.0f / std::max(print[ci][k], 20.0f);
    }
    colour_base = base;
    for (std::size_t ci = 0; ci < layout.cells.size(); ++ci)
      if (lum(light[ci]) > 0) paper_light[ci] = light[ci];
    if (params.guard_print_tint)
      for (std::size_t ci = 0; ci < layout.cells.size(); ++ci)
        if (tint[ci] > 0 && !lit_paper(tint[ci], 3, tint_paper[ci]))  // (too few cells of it: its print in the sheet's light)
          for (int k = 0; k < 3; ++k) tint_paper[ci][k] = print[ci][k] * base[k] / 255.0f;
    for (std::size_t ci = 0; ci < layout.cells.size(); ++ci) {
      colour_white[ci] = base;
      // (exact20) Under the occluder too, but only the light's brightness: a white die in an arm's
      // shade read against the lit sheet's white is grey or black (dev11 1216 (3,-3): a white 1,
      // 0.52 of the white and 0.84 of its shaded paper, named black, its dark pip never looked
      // for). The shade's own colour is not the die's light there: the paper in an arm's shadow
      // took a blue cast that the die's top did not (1216 (1,-2): a white 3 named blue).
      const bool occ = covered[ci] == 2;
      if (params.colour_shade_below <= 0 || !core_occupied[ci] || (occ && !params.colour_shade_occluded) || lum(light[ci]) <= 0) continue;
      const bool shade = lum(light[ci]) < params.colour_shade_below * lum(base);
      const bool same_colour = chroma_off(light[ci], base) <= params.colour_shade_chroma;
      if (shade && same_colour) colour_white[ci] = occ ? base * (lum(light[ci]) / lum(base)) : light[ci];
      if (debug)
        std::fprintf(stderr, "SHADE %d,%d light %.2f %.2f %.2f of white, %.2f of the sheet's, tint %d%s\n", layout.cells[ci].hex.q,
                     layout.cells[ci].hex.r, light[ci][0] / white[0], light[ci][1] / white[1], light[ci][2] / white[2],
                     lum(light[ci]) / lum(base), tint[ci], !shade ? "" : same_colour ? " used" : " (another colour: not used)");
    }
  }
  // A cell under the occluder that is not read to the end: why, for the scorer.
  auto note_occluded = [&](std::size_t ci, const char* what) {
    if (covered[ci] == 2) obs.hidden_why[layout.cells[ci].hex] += std::string("; ") + what;
  };
  // (exact43) Each die's footprint as its cell's guard look drew it (its top square, on the top plane's
  // pixels, swept along d), and the cells whose guard look found no token: looked at again after the
  // loop with the other dice's footprints taken out (guard_other_feet).
  struct DieFoot {
    bool set = false;
    cv::Point2d centre;  // the top square's centre (top-plane px)
    float angle = 0;
    cv::Point2d d;  // towards its base (px)
  };
  struct GuardAgain {
    std::size_t ci;
    GuardBlobCell cell;
    cv::Mat blue;  // the guard look's blue mask, closed and opened
  };
  std::vector<DieFoot> feet(layout.cells.size());
  std::vector<GuardAgain> guard_again;
  for (std::size_t ci = 0; ci < layout.cells.size(); ++ci) {
    laps.cell(layout.cells[ci].hex.q, layout.cells[ci].hex.r);
    laps.enter(&ReadProfile::cell_patch_ms);
    const CellMm& cell = layout.cells[ci];
    const cv::Vec3f& cwhite = colour_white[ci];  // colours are named against this light
    if (covered[ci] == 1 || !core_occupied[ci]) {
      if (debug) std::fprintf(stderr, "SKIP %d,%d %s\n", layout.cells[ci].hex.q, layout.cells[ci].hex.r, covered[ci] ? "covered" : "core");
      continue;
    }
    const cv::Point cc(cvRound((cell.centre.x - x0) * ppm), cvRound((cell.centre.y - y0) * ppm));
    // The patch covers the cell's disc swept along d (where its die's sides are seen):
    // the bounding box of the two discs, not a square round the longer reach.
    const int rad = cvRound(hs * ppm * 0.98) + 2;
    const cv::Point dd(cvRound(displacement[ci].x * ppm), cvRound(displacement[ci].y * ppm));
    const cv::Rect roi = cv::Rect(cv::Point(std::min(cc.x, cc.x + dd.x) - rad, std::min(cc.y, cc.y + dd.y) - rad),
                                  cv::Point(std::max(cc.x, cc.x + dd.x) + rad + 1, std::max(cc.y, cc.y + dd.y) + rad + 1)) &
                         rect_bounds;
    if (roi.area() <= 0) continue;
    const cv::Matx33d patch_to_mm = rect_to_mm * cv::Matx33d(1, 0, roi.x, 0, 1, roi.y, 0, 0, 1);  // patch px -> top-plane mm
    const cv::Matx33d mm_to_patch = patch_to_mm.inv();  // top-plane mm -> patch px
    // Quick empty test: a unit's top face covers most of the 8 mm square round the
    // cell centre (even when pushed aside by a guard token): skip cells where little of
    // it differs from the paper.
    if (!core_occupied[ci]) continue;
    if (laps.on()) ++laps.counts().cells_examined;
    const cv::Mat patch = warp_patch(roi);
    cv::Mat grid(patch.size(), CV_8U, cv::Scalar(0));
    draw_thick_segments(grid, grid_segments, cv::Point2d(roi.x, roi.y), grid_thick);  // each shared edge once
    const cv::Point2d centre(cc.x - roi.x, cc.y - roi.y);
    cv::Mat fg = dist_mask(patch, papers[ci], params.paper_distance, true);
    // Only this cell: pixels inside its inscribed circle (+ a little, dice may overhang).
    cv::Mat disc(patch.size(), CV_8U, cv::Scalar(0));
    cv::line(disc, cv::Point(cvRound(centre.x), cvRound(centre.y)),
             cv::Point(cvRound(centre.x + displacement[ci].x * ppm), cvRound(centre.y + displacement[ci].y * ppm)),
             cv::Scalar(255), 2 * cvRound(hs * ppm * 0.98));
    fg &= disc;
    // The table beyond the sheet's edge, of the table's colour, is no die (table_distance).
    if (params.table_distance > 0)
      if (const cv::Mat tm = table_mask(image, hp, layout, patch, patch_to_mm, displacement[ci], cell.centre, params.table_distance);
          !tm.empty()) {
        if (debug) std::fprintf(stderr, "TABLE %d,%d %d px of the table taken out\n", cell.hex.q, cell.hex.r, cv::countNonZero(fg & tm));
        fg &= ~tm;
      }
    // ... nor is the sheet's margin beyond the grid, of the margin's colour (margin_distance;
    // not under the occluder: in an arm's shade the margin sampled round the cell is no
    // measure of the paper behind the die).
    if (params.margin_distance > 0 && covered[ci] != 2)
      if (const cv::Mat mm = margin_mask(image, hp, layout, patch, patch_to_mm, displacement[ci], cell.centre, papers[ci], params.margin_distance);
          !mm.empty()) {
        if (debug) std::fprintf(stderr, "MARGIN %d,%d %d px of the margin taken out\n", cell.hex.q, cell.hex.r, cv::countNonZero(fg & mm));
        fg &= ~mm;
      }
    // The grid lines drawn on this plane may cross a guard token (it stands across the
    // cell's flats, near the border): its pixels there are kept for the guard test.
    const cv::Mat fg_on_grid = fg & grid;
    fg &= ~grid;
    // A cell under the occluder (its die in an arm's shadow) keeps what the masks cover:
    // the die is in them (the skin cue too takes some shadows for skin). An arm that does
    // lie over the cell joins the die's blob, which is then too large for a unit: hidden.
    static const cv::Mat none;
    const cv::Mat& not_fg = covered[ci] == 2 ? none : hm;
    if (!not_fg.empty()) {
      const double s = params.hand_px_per_mm;
      const cv::Matx33d shift(1, 0, roi.x, 0, 1, roi.y, 0, 0, 1);
      const cv::Matx33d to_hand = cv::Matx33d(s, 0, 0, 0, s, 0, 0, 0, 1) * hp.inv() * ht * rect_to_mm * shift;
      cv::Mat hp_patch;
      cv::warpPerspective(not_fg, hp_patch, cv::Mat(to_hand), roi.size(), cv::INTER_NEAREST | cv::WARP_INVERSE_MAP,
                          cv::BORDER_CONSTANT, cv::Scalar(0));
      fg &= ~hp_patch;
    }
    if (cv::countNonZero(fg) < params.unit_area_min * unit_area * 0.5) {
      if (debug) std::fprintf(stderr, "SKIP %d,%d fg\n", cell.hex.q, cell.hex.r);
      note_occluded(ci, "too little differs from its paper");
      continue;  // quick empty check
    }
    laps.enter(&ReadProfile::cell_unit_ms);
    // Only where fg is: every later use of the shadow mask is within it.
    const cv::Mat shadow = shadow_mask(patch, papers[ci], params.shadow_min, params.shadow_max, fg);
    cv::Mat fg_all = fg.clone();  // shadows kept: grey dice have shadow-like side faces
    fg &= ~shadow;
    const cv::Mat fg_raw = fg.clone();
    auto clean = [&](cv::Mat& mk) {
      morph(mk, mk, cv::MORPH_CLOSE, close_k);
      morph(mk, mk, cv::MORPH_OPEN, open_k);
    };
    clean(fg);
    // Seen from the side, a die's visible side faces run from its top face towards
    // its base, which lies displaced by `d` on this plane. Eroding the die's blob by the
    // segment [0, d] leaves the top face alone (a convex face swept along d, un-swept).
    const cv::Point2d d = displacement[ci] * ppm;
    // (speed42) The unit's blob (the labels image's unit_label pixels, labels == unit_label), made
    // from find_unit's runs when it has one (component_mask, mask_ops.h): no labels image.
    cv::Mat unit_mask;
    int unit_label = -1;
    double unit_area_px = 0;
    auto find_unit = [&](const cv::Mat& mask) {
      cv::Mat tops;
      const int kx = cvRound(std::abs(d.x)), ky = cvRound(std::abs(d.y));
      if (kx + ky >= 2) {
        cv::Mat kern(ky + 1, kx + 1, CV_8U, cv::Scalar(0));
        const cv::Point a0(d.x >= 0 ? 0 : kx, d.y >= 0 ? 0 : ky), a1(d.x >= 0 ? kx : 0, d.y >= 0 ? ky : 0);
        cv::line(kern, a0, a1, cv::Scalar(1), 1, cv::LINE_8);
        morph(mask, tops, cv::MORPH_ERODE, kern, a0, 0);
      } else {
        tops = mask;
      }
      cv::Mat stats, cents;
      static thread_local RunLabels unit_runs;
      const int n = components_stats_runs(tops, stats, cents, unit_runs);
      for (int i = 1; i < n; ++i) {
        const double area = stats.at<int>(i, cv::CC_STAT_AREA);
        const cv::Point2d c(cents.at<double>(i, 0), cents.at<double>(i, 1));
        if (area < params.unit_area_min * unit_area || area > params.unit_area_max * unit_area) continue;
        if (cv::norm(c - centre) > params.unit_max_offset_mm * ppm) continue;
        if (area > unit_area_px) {
          unit_area_px = area;
          unit_label = i;
        }
      }
      if (unit_label >= 0) unit_mask = component_mask(unit_runs, unit_label, tops.size());  // = labels == unit_label
    };
    // Pip-sized, roundish blobs of a mask near the cell centre (patch pixels). With
    // reject_side, blobs squeezed along the parallax direction d are left out: a side
    // face seen on the top plane is foreshortened along d (to |d| / face_px of its size),
    // so its pips are too, while the top face's pips are round.
    auto pip_blobs = [&](const cv::Mat& mask, bool reject_side) {
      const double dn = cv::norm(d);
      const bool shape = reject_side && dn > 0.15 * face_px && dn < 0.8 * face_px;
      // (Speed round 40) The labels are read only for the shape test: without it, the stats alone.
      cv::Mat pl, ps, pc;
      const int pn = shape ? components_with_stats(mask, pl, ps, pc) : components_stats(mask, ps, pc);
      const double pip_px = 0.18 * face_px, pip_area = CV_PI * pip_px * pip_px / 4;
      std::vector<cv::Point2d> pips;
      if (pn <= 1) return pips;
      // Second moments per component along d and across it.
      const cv::Point2d du = dn > 1e-6 ? d * (1.0 / dn) : cv::Point2d(1, 0);
      std::vector<double> sdd(static_cast<std::size_t>(pn), 0.0), spp(static_cast<std::size_t>(pn), 0.0);
      if (shape)
        for (int y = 0; y < pl.rows; ++y) {
          const int* l = pl.ptr<int>(y);
          for (int x = 0; x < pl.cols; ++x) {
            if (l[x] <= 0) continue;
            const double dx = x - pc.at<double>(l[x], 0), dy = y - pc.at<double>(l[x], 1);
            const double a = dx * du.x + dy * du.y, b = -dx * du.y + dy * du.x;
            sdd[static_cast<std::size_t>(l[x])] += a * a, spp[static_cast<std::size_t>(l[x])] += b * b;
          }
        }
      for (int i = 1; i < pn; ++i) {
        const int area = ps.at<int>(i, cv::CC_STAT_AREA);
        const int w = ps.at<int>(i, cv::CC_STAT_WIDTH), h = ps.at<int>(i, cv::CC_STAT_HEIGHT);
        if (area < 0.3 * pip_area || area > 2.5 * pip_area || std::max(w, h) > 2 * std::min(w, h) + 1) continue;
        if (shape && sdd[static_cast<std::size_t>(i)] < params.side_pip_squeeze * spp[static_cast<std::size_t>(i)]) continue;
        pips.emplace_back(pc.at<double>(i, 0), pc.at<double>(i, 1));
      }
      return pips;
    };
    // White dice's pips: dark (under core_dark_ratio x the paper's luminance), pip-sized,
    // roundish blobs off the grid lines, near the cell centre (patch pixels).
    // The patch pixels within a face's pips' reach of the cell centre (a die's centre within
    // max_face_offset_mm, its pips within the pip grid's half-diagonal of it) whose luminance
    // b + 2g + r is above (or below) thr and whose byte of `where` passes the rule
    // (lum_compare_row, mask_ops.h; speed33: a row at a time, not a test per pixel).
    auto near_centre_mask = [&](const cv::Mat& where, float thr, bool above, LumWhere rule) {
      const double reach2 = std::pow((params.max_face_offset_mm + 0.27 * 16.0 * 1.5) * ppm, 2);
      cv::Mat out(patch.size(), CV_8U);  // (speed39) zeroed outside each row's span alone: lum_compare_row writes the span
      thread_local std::vector<ushort> lum;  // the span's b + 2g + r (speed27: 16 at a time)
      lum.resize(static_cast<std::size_t>(patch.cols));
      for (int y = 0; y < patch.rows; ++y) {
        const uchar* w = where.ptr<uchar>(y);
        uchar* o = out.ptr<uchar>(y);
        int span_x0 = 0, span_x1 = -1;  // the row's pixels within reach (round 20: not tested pixel by pixel)
        disc_row_span(centre.x, centre.y, reach2, y, patch.cols, span_x0, span_x1);
        if (span_x1 < span_x0) {
          std::memset(o, 0, static_cast<std::size_t>(patch.cols));
          continue;
        }
        std::memset(o, 0, static_cast<std::size_t>(span_x0));
        std::memset(o + span_x1 + 1, 0, static_cast<std::size_t>(patch.cols - span_x1 - 1));
        bgr_lum_row(patch.ptr<uchar>(y) + 3 * span_x0, span_x1 - span_x0 + 1, lum.data());
        lum_compare_row(lum.data(), w + span_x0, span_x1 - span_x0 + 1, thr, above, rule, o + span_x0);
      }
      return out;
    };
    // The centre of the face the pips lie on: their centroid (a standard layout is centred
    // on its face), when there are 1-6, all on one face (at most the pip grid's
    // half-diagonal from it) and on a face where a die can stand; none otherwise.
    auto pips_face_centre = [&](const std::vector<cv::Point2d>& pips) -> std::optional<cv::Point2d> {
      if (pips.empty() || pips.size() > 6) return std::nullopt;
      cv::Point2d m(0, 0);
      for (const auto& q : pips) m += q;
      m *= 1.0 / static_cast<double>(pips.size());
      double spread = 0;
      for (const auto& q : pips) spread = std::max(spread, cv::norm(q - m));
      if (spread > 0.27 * face_px * 1.5 || cv::norm(m - centre) > params.max_face_offset_mm * ppm) return std::nullopt;
      return m;
    };
    // (The same for every call of one cell: the no-blob looks and each locate of a white body
    // ask for it; the plain form is found once, kept.)
    std::optional<std::vector<cv::Point2d>> dark_pips_kept;
    auto dark_pips = [&](bool reject_side = false) {
      if (!reject_side && dark_pips_kept) return *dark_pips_kept;
      const cv::Vec3f pp = papers[ci];
      const float dark_lum = static_cast<float>(params.core_dark_ratio) * (pp[0] + 2 * pp[1] + pp[2]);
      // Off the grid lines (grid set), darker than dark_lum.
      cv::Mat dm, back;
      if (params.pip_grid_restore) {
        // (The dark pixels on the band too, from the same pass.)
        const cv::Mat dark = near_centre_mask(grid, dark_lum, false, LumWhere::Any);
        dm = dark & ~grid;
        back = dark & grid;
      } else {
        dm = near_centre_mask(grid, dark_lum, false, LumWhere::Clear);
      }
      if (params.pip_grid_restore) {
        // (exact20) The grid band is where the print would be seen; on a die's top the die
        // hides the print, and a pip there is cut by the band (dev11 1207 (-1,-4): a white 5's
        // pip halved, left out as too small). Dark band pixels within the band's width of a
        // pip-sized dark blob off it, and not of a larger one (a shadow, a finger's edge, which
        // the band would join to a pip beside it), are given back: the pip's cut part. Only
        // round such a blob with dark band pixels beside it (most cells have none).
        if (cv::countNonZero(back) > 0) {
          cv::Mat ps, pc;
          static thread_local RunLabels dark_runs;  // (speed42) the blobs' pixels from their runs, no labels image
          const int pn = components_stats_runs(dm, ps, pc, dark_runs);
          const double pip_px = 0.18 * face_px, max_area = 2.5 * CV_PI * pip_px * pip_px / 4;
          const int g = grid_thick, e = 2 * g + 1;
          const cv::Mat k = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(e, e));
          const cv::Rect all(0, 0, dm.cols, dm.rows);
          for (int i = 1; i < pn; ++i) {
            if (ps.at<int>(i, cv::CC_STAT_AREA) > max_area) continue;
            const cv::Rect bb(ps.at<int>(i, cv::CC_STAT_LEFT), ps.at<int>(i, cv::CC_STAT_TOP), ps.at<int>(i, cv::CC_STAT_WIDTH),
                              ps.at<int>(i, cv::CC_STAT_HEIGHT));
            const cv::Rect r = cv::Rect(bb.x - g, bb.y - g, bb.width + 2 * g, bb.height + 2 * g) & all;
            if (cv::countNonZero(back(r)) == 0) continue;
            // This blob grown by the band's width, and every larger blob's pixels grown so (from
            // a window g wider, which holds every such pixel within g of r).
            const cv::Rect r2 = cv::Rect(r.x - g, r.y - g, r.width + 2 * g, r.height + 2 * g) & all;
            cv::Mat near = runs_mask(dark_runs, r2, [i](int l) { return l == i; });
            cv::Mat large = runs_mask(dark_runs, r2, [&](int l) { return l != i && ps.at<int>(l, cv::CC_STAT_AREA) > max_area; });
            morph(near, near, cv::MORPH_DILATE, k);
            morph(large, large, cv::MORPH_DILATE, k);
            const cv::Rect in(r.x - r2.x, r.y - r2.y, r.width, r.height);
            cv::Mat add = back(r) & near(in) & ~large(in);
            cv::Mat dr = dm(r);
            dr |= add;
          }
        }
      }
      if (dump_cell(cell.hex))
        cv::imwrite("/tmp/rd_dark.png", dm), cv::imwrite("/tmp/rd_grid.png", grid);
      std::vector<cv::Point2d> found = pip_blobs(dm, reject_side);
      if (!reject_side) dark_pips_kept = found;
      return found;
  };
    find_unit(fg);
    // A guard token beside a white or black die is often the only thing that differs from
    // the paper (the white top is paper-coloured, the black one shadow-coloured): a blob
    // under guard_like_area unit faces of deep blue is the token, not the unit. It is
    // taken out and the unit looked for again (with the shadow pixels, below, if needed).
    cv::Mat token;
    // The token is TOKENIN's blue part of the unit's own blob (not the small blob's whole
    // foreground component, which may hold the die): the coloured pip look's test below.
    bool token_from_unit_blob = false;
    // What the unit was before the token was taken out: restored when nothing else is
    // found (then the blue blob was a blue die seen small, not a token).
    struct { cv::Mat unit_mask; int label = -1; double area = 0; cv::Mat fg, fg_all; } token_was;
    // `token` (set) taken out of the foreground and the unit looked for again; the unit as it
    // was is kept in token_was.
    auto take_out_token = [&] {
      token_was = {unit_mask.clone(), unit_label, unit_area_px, fg.clone(), fg_all.clone()};
      fg &= ~token;
      fg_all &= ~token;
      unit_label = -1;
      unit_area_px = 0;
      find_unit(fg);
    };
    // (exact47) The blob taken out as a token below is its cell's print in shade
    // (token_small_blob_print_chroma): the token is then no die's guard.
    bool small_token_print = false;
    // Whether the token taken out above is the guard of a die found with no blob of its own.
    auto token_guard = [&] { return !token.empty() && !small_token_print; };
    if (unit_label >= 0 && unit_area_px < params.guard_like_area * unit_area) {
      const cv::Mat b = unit_mask;
      const cv::Scalar m = cv::mean(patch, b);
      const cv::Vec3f rel_b(static_cast<float>(m[0] / cwhite[0]), static_cast<float>(m[1] / cwhite[1]),
                            static_cast<float>(m[2] / cwhite[2]));
      if (saturated_blue(rel_b, params.guard_min_saturation)) {
        // The token's top and its sides: the fg component holding the blob, grown a little.
        token = fg.clone();
        cv::Point seed(-1, -1);
        for (int y = 0; y < b.rows && seed.x < 0; ++y)
          for (int x = 0; x < b.cols; ++x)
            if (b.at<uchar>(y, x)) { seed = {x, y}; break; }
        cv::floodFill(token, seed, cv::Scalar(128), nullptr, cv::Scalar(0), cv::Scalar(0), 8);
        token = token == 128;
        morph(token, token, cv::MORPH_DILATE, close_k);
        if (params.token_small_blob_print_chroma > 0 || debug) {
          // Its mean colour against its cell's paper: within token_small_blob_print_chroma of its
          // chromaticity and shadow_min..1.05 of its brightness (the guard look's print test's form,
          // on the blob's mean).
          const cv::Vec3f pp = papers[ci];
          double ratio = 0, chroma = 0;
          const bool print = paper_in_shade(std::array<double, 3>{m[0], m[1], m[2]}, m[0] + m[1] + m[2] + 1e-3, pp, params.shadow_min,
                                            params.token_small_blob_print_chroma, &ratio, &chroma);
          small_token_print = params.token_small_blob_print_chroma > 0 && print;
          if (debug)
            std::fprintf(stderr, "TOKENPRINT %d,%d blob %.0f %.0f %.0f, paper %.0f %.0f %.0f: %.2f of its brightness, chroma %.3f off it%s\n", cell.hex.q,
                         cell.hex.r, m[0], m[1], m[2], pp[0], pp[1], pp[2], ratio, chroma, small_token_print ? ": its print in shade, no guard" : "");
        }
        if (debug) std::fprintf(stderr, "TOKEN %d,%d blob %.2f taken out\n", cell.hex.q, cell.hex.r, unit_area_px / unit_area);
        take_out_token();
      }
    }
    if (params.token_in_blob_area > 0 && unit_label >= 0 && token.empty() &&
        unit_area_px >= params.token_in_blob_area * unit_area) {
      const cv::Mat b = unit_mask;
      cv::Mat blue(patch.size(), CV_8U, cv::Scalar(0));
      const float min_sat = static_cast<float>(params.guard_min_saturation);
      // (speed32) saturated_blue_row (die_face.h): the per-pixel test that was here (blue over
      // red relative to cwhite, then saturated_blue with the float min_sat) a row at a time, 8
      // pixels a step in AVX2, as the guard's.
      std::vector<uchar> hit_row(static_cast<std::size_t>(patch.cols));
      for (int y = 0; y < patch.rows; ++y) {
        const uchar* bb = b.ptr<uchar>(y);
        uchar* o = blue.ptr<uchar>(y);
        saturated_blue_row(patch.ptr<uchar>(y), bb, patch.cols, cwhite, min_sat, hit_row.data());
        for_each_set(hit_row.data(), patch.cols, [&](int x) { o[x] = 255; });
      }
      morph(blue, blue, cv::MORPH_OPEN, open_k);
      cv::Mat bs, bc;
      static thread_local RunLabels blue_runs;  // (speed42) the token's part from its runs, no labels image
      const int bn = components_stats_runs(blue, bs, bc, blue_runs);
      int big = -1, n_big = 0;
      for (int i = 1; i < bn; ++i)
        if (bs.at<int>(i, cv::CC_STAT_AREA) >= params.guard_area_min * guard_area) ++n_big, big = i;
      const double t_area = big > 0 ? bs.at<int>(big, cv::CC_STAT_AREA) : 0;
      bool take = n_big == 1 && t_area <= params.guard_like_area * unit_area &&
                  unit_area_px - t_area >= std::max(params.unit_area_min, 0.5) * unit_area;
      std::string rest_colour;
      if (take) {
        // The rest is a die of its own colour (a coloured die: saturated, not blue); a blue
        // die's lit part beside its own shade is no die plus token.
        cv::Mat grown;
        morph(component_mask(blue_runs, big, blue.size()), grown, cv::MORPH_DILATE, close_k);  // (bl == big)
        const cv::Scalar m = cv::mean(patch, b & ~grown);
        const cv::Vec3f rel_r(static_cast<float>(m[0] / cwhite[0]), static_cast<float>(m[1] / cwhite[1]), static_cast<float>(m[2] / cwhite[2]));
        rest_colour = name_color(rel_r);
        take = saturated(rel_r, min_sat) && (rest_colour == "red" || rest_colour == "green" || rest_colour == "yellow");
      }
      if (debug)
        std::fprintf(stderr, "TOKENIN %d,%d blob %.2f blue parts %d, %.2f units, rest %s%s\n", cell.hex.q, cell.hex.r, unit_area_px / unit_area, n_big,
                     t_area / unit_area, rest_colour.c_str(), take ? ": taken out" : "");
      if (take) {
        morph(component_mask(blue_runs, big, blue.size()), token, cv::MORPH_DILATE, close_k);  // (bl == big)
        token_from_unit_blob = true;
        take_out_token();
      }
    }
    bool via_shadow = false;
    if (unit_label < 0) {
      clean(fg_all);  // only when needed: most dice are found without the shadow pixels
      find_unit(fg_all);
      if (unit_label >= 0) fg = fg_all, via_shadow = true;
    }
    // A guard token alone (whiteblack3): find_unit keeps blobs of unit_area_min (0.45) unit
    // faces or more, and a 10 mm token's top is 0.39 of a 16 mm one. Beside a white die (its
    // top paper-coloured: no blob of its own) the token was then no unit, never taken out, and
    // the white die found by its pips below was reported without its guard. A deep-blue
    // component of the foreground of a token's size, standing in this cell (as the guard test
    // below places it) and not of a neighbour's paper colour, is that token.
    if (params.guard_alone && unit_label < 0 && token.empty() && covered[ci] != 2) {
      cv::Mat gs, gc;
      static thread_local RunLabels alone_runs;  // (speed42) each blob from its runs, no labels image
      const int gn = components_stats_runs(fg, gs, gc, alone_runs);
      for (int i = 1; i < gn && token.empty(); ++i) {
        const double area = gs.at<int>(i, cv::CC_STAT_AREA);
        if (area < params.guard_area_min * guard_area || area > 2.5 * guard_area) continue;
        const cv::Point2d raw = apply_h(rect_to_mm, {gc.at<double>(i, 0) + roi.x, gc.at<double>(i, 1) + roi.y}) -
                                cv::Point2d(cell.centre.x, cell.centre.y);
        const cv::Point2d a = raw - 0.375 * displacement[ci], ab = -0.475 * displacement[ci];
        const double t = ab.dot(ab) > 1e-9 ? std::clamp(-a.dot(ab) / ab.dot(ab), 0.0, 1.0) : 0.0;
        if (cv::norm(a + t * ab) > params.guard_max_offset_mm) continue;
        const cv::Mat b = component_mask(alone_runs, i, fg.size());  // (gl == i)
        const cv::Scalar m = cv::mean(patch, b);
        const cv::Vec3f mb(static_cast<float>(m[0]), static_cast<float>(m[1]), static_cast<float>(m[2]));
        const cv::Vec3f rel_b(mb[0] / cwhite[0], mb[1] / cwhite[1], mb[2] / cwhite[2]);
        if (!saturated_blue(rel_b, params.guard_min_saturation)) continue;
        bool print = false;  // a tinted neighbour's paper seen across the border
        for (std::size_t k = 0; k < layout.cells.size() && !print; ++k)
          print = std::hypot(layout.cells[k].centre.x - cell.centre.x, layout.cells[k].centre.y - cell.centre.y) < 2.2 * hs &&
                  cv::norm(mb - papers[k]) <= params.paper_distance;
        if (print) continue;
        morph(b, token, cv::MORPH_DILATE, close_k);
        if (debug) std::fprintf(stderr, "TOKEN %d,%d alone: area %.2f guard faces at %.1f %.1f mm\n", cell.hex.q, cell.hex.r, area / guard_area, raw.x, raw.y);
      }
    }
    // (Only where the patch shows a dark pip-sized blob at all: most cells that get here are
    // empty paper.)
    laps.enter(&ReadProfile::cell_white_ms);
    std::vector<cv::Point2d> fine_unit_pips;  // the look below's pips, every threshold it reached (top plane, mm)
    std::string fine_side_why;  // (fine_unit_top_shown) a layout that look refused: the cell is hidden if nothing else is read
    std::vector<cv::Point2d> fine_side_pips;  // ... that layout's pips (top plane, mm)
    bool fine_unit_looked = false;
    // (exact19) Under the occluder too (an arm's shade: the white top as dark as the shaded
    // paper, no blob), with occluded_pip_unit_confidence and the shade gate's tests below.
    const bool unit_in_shade = covered[ci] == 2 && params.occluded_pip_unit_confidence > 0;
    if (unit_label < 0 && params.white_pip_unit_confidence > 0 && params.fine_pip_look && (covered[ci] != 2 || unit_in_shade) &&
        !dark_pips().empty()) {
      // No blob, the pips at the camera's resolution (find_plane_pips, as the pip look
      // below): a set of them that is one standard layout, read there as that many pips on
      // a white body, is a white die. A lone pip where the printed lines are seen (where
      // they meet, a dark round spot reads as a white 1): this look gives up, the patch look
      // below decides as before.
      const cv::Point2d c_mm = apply_h(patch_to_mm, centre);
      const cv::Vec3f pp = papers[ci];
      const float paper_lum = pp[0] + 2 * pp[1] + pp[2];
      const std::vector<float> thr{static_cast<float>(params.core_dark_ratio * paper_lum),
                                   static_cast<float>(0.75 * params.core_dark_ratio * paper_lum)};
      // The first threshold alone first (search_top_faces: one plane sample kept for the
      // second, which is labelled only when the first finds no white die and does not give up).
      const double reach_mm = pip_look_reach_mm(params);
      PlaneSample plane_sample;
      bool found = false;
      // Every threshold's pips (on the top plane, mm) as this look saw them: a lone dark
      // spot the patch look below finds must be one of them (fine_unit_pips).
      std::size_t most_at_one = 0;  // the most pips one threshold found
      const TopFaceThreshold keep_pips = [&](std::size_t, const std::vector<cv::Point2d>& pips, const std::vector<TopFacePips>&) {
        fine_unit_pips.insert(fine_unit_pips.end(), pips.begin(), pips.end());
        most_at_one = std::max(most_at_one, pips.size());
        if (debug) {
          std::fprintf(stderr, "FINEUNIT %d,%d %zu pips:", cell.hex.q, cell.hex.r, pips.size());
          for (const auto& q : pips) std::fprintf(stderr, " (%.1f %.1f)", q.x - c_mm.x, q.y - c_mm.y);
          std::fprintf(stderr, "\n");
        }
      };
      fine_unit_looked = true;
      std::optional<CellObservation> lone_pending;  // a lone pip where the print is hidden (lone_pip_print_seen)
      cv::Point2d lone_pending_at;
      bool lone_pending_unit = false;
      const TopFaceVisit visit_unit = [&](std::size_t ti, const std::vector<cv::Point2d>& pips, const TopFacePips& h) {
          // The crop along the face's axes (pip_grid_angle_deg).
          std::vector<cv::Point2f> members;
          for (const auto& q : pips)
            if (cv::norm(q - h.centre_mm) <= kFaceReachMm) members.emplace_back(static_cast<float>(q.x), static_cast<float>(q.y));
          const double ang_deg = pip_grid_angle_deg(members);
          const cv::Mat crop = cut_face_crop(image, ht, h.centre_mm, ang_deg, 16.0 * params.face_crop_scale);
          const double f0 = laps.now();
          // Kept only at white_pip_unit_confidence or more (read_face's `useful`: the
          // component fallback, capped below it, is not run; the same decisions).
          const FaceReading fr = read_face(crop, face_params, params.white_pip_unit_confidence);
          laps.face(f0);
          const cv::Vec3f rel(fr.body_bgr[0] / cwhite[0], fr.body_bgr[1] / cwhite[1], fr.body_bgr[2] / cwhite[2]);
          const std::string colour = name_color(rel, calib ? calib->colors : std::vector<ColorSample>{}, fr.pip_polarity);
          bool on_print = false;  // a lone pip where the printed lines are seen
          bool lone_print_hidden = false;  // ... but where they would be, they are not seen (lone_pip_print_seen)
          if (h.count == 1) {
            const cv::Point2d at = apply_h(mm_to_patch, h.centre_mm);
            const int rr = std::max(1, cvRound(1.5 * ppm));
            for (int yy = cvRound(at.y) - rr; yy <= cvRound(at.y) + rr && !on_print; ++yy)
              for (int xx = cvRound(at.x) - rr; xx <= cvRound(at.x) + rr && !on_print; ++xx)
                on_print = xx >= 0 && yy >= 0 && xx < grid.cols && yy < grid.rows && grid.at<uchar>(yy, xx) &&
                           std::hypot(xx - at.x, yy - at.y) <= rr;
          }
          if (on_print && params.lone_pip_print_seen > 0) {
            // (exact23) ... where the print is seen beside it: a ring round the spot
            // (lone_pip_print_ring_mm) crosses the printed lines' band; where a die's top lies
            // over the lines, the band's darkest sample is as bright as the ring's other samples
            // (the top hides the print), and the spot is a pip on that top, not where lines meet.
            const cv::Point2d at = apply_h(mm_to_patch, h.centre_mm);
            const double ring = params.lone_pip_print_ring_mm * ppm;
            std::vector<float> off_band;
            float band_min = 1e9f;
            int n_band = 0;
            for (int k = 0; k < 32; ++k) {
              const double a = k * CV_PI / 16.0;
              const int xx = cvRound(at.x + ring * std::cos(a)), yy = cvRound(at.y + ring * std::sin(a));
              if (xx < 0 || yy < 0 || xx >= patch.cols || yy >= patch.rows) continue;
              const cv::Vec3b& v = patch.at<cv::Vec3b>(yy, xx);
              const float l = static_cast<float>(v[0] + 2 * v[1] + v[2]);
              if (grid.at<uchar>(yy, xx)) {
                band_min = std::min(band_min, l);
                ++n_band;
              } else {
                off_band.push_back(l);
              }
            }
            float off_med = 0;
            if (off_band.size() >= 8) {
              std::nth_element(off_band.begin(), off_band.begin() + off_band.size() / 2, off_band.end());
              off_med = off_band[off_band.size() / 2];
            }
            const bool print_hidden = n_band >= 2 && off_med > 0 && band_min >= params.lone_pip_print_seen * off_med;
            if (debug)
              std::fprintf(stderr, "FINEUNIT %d,%d lone pip on the print: band %d min %.0f, off the band median %.0f (%.2f)%s\n", cell.hex.q,
                           cell.hex.r, n_band, n_band ? band_min : 0.0f, off_med, off_med > 0 && n_band ? band_min / off_med : 0.0f,
                           print_hidden ? ": the print is not seen there" : "");
            if (print_hidden) {
              on_print = false;
              lone_print_hidden = true;
            }
          }
          if (on_print && debug) std::fprintf(stderr, "FINEUNIT %d,%d lone pip on the print: the patch look decides\n", cell.hex.q, cell.hex.r);
          if (on_print) return true;  // give up: the patch look below decides
          bool ok = fr.face == h.count && colour == "white" && fr.confidence >= params.white_pip_unit_confidence;
          if (unit_in_shade) {
            // In the shade the body is named against the lit sheet's white (grey or black): it is
            // a white die when, against its cell's own shaded paper, it is as bright
            // (occluded_white_ratio), unsaturated, its pips dark, two or more of them in the
            // layout the fine look found, read at occluded_pip_unit_confidence or more.
            const auto [rp, lum, sat] = body_on_paper(fr.body_bgr, papers[ci]);
            ok = fr.face == h.count && h.count >= 2 && (colour == "white" || colour == "black") && fr.pip_polarity < 0 &&
                 lum >= params.occluded_white_ratio && sat <= params.occluded_saturation &&
                 fr.confidence >= std::max(params.white_pip_unit_confidence, params.occluded_pip_unit_confidence);
            if (debug)
              std::fprintf(stderr, "FINEUNIT %d,%d under the occluder: body lum %.2f sat %.2f of its paper, polarity %d%s\n", cell.hex.q,
                           cell.hex.r, lum, sat, fr.pip_polarity, ok ? ": a white die in the shade" : "");
          }
          // (exact27) Its top seen round its pips (fine_unit_top_shown): a pip of a side face, in
          // that side's shade, is no place of a top.
          const double top_round = ok && (params.fine_unit_top_shown > 0 || debug)
                                       ? count_from_shown_places(crop, fr, -1, 16.0 * params.face_crop_scale, false).top_round
                                       : -1;
          const bool side_pip = params.fine_unit_top_shown > 0 && top_round >= 0 && top_round < params.fine_unit_top_shown;
          ok = ok && !side_pip;
          if (side_pip)
            for (const auto& q : members) fine_side_pips.emplace_back(q.x, q.y);
          if (side_pip && fine_side_why.empty()) {
            char why[160];
            std::snprintf(why, sizeof why, "side: read %s %d conf %.2f, its top not seen round its pips (%.2f)", colour.c_str(), fr.face,
                          fr.confidence, top_round);
            fine_side_why = why;
          }
          if (debug)
          {
            std::fprintf(stderr, "FINEUNIT %d,%d thr %.2f face of %d at %.1f %.1f mm: face %d conf %.2f %s%s top %.2f%s pips", cell.hex.q, cell.hex.r,
                         thr[ti] / paper_lum, h.count, h.centre_mm.x, h.centre_mm.y, fr.face, fr.confidence, colour.c_str(), ok ? " ok" : "",
                         top_round, side_pip ? " (its top not seen round its pips)" : "");
            for (const auto& q : members) std::fprintf(stderr, " (%.1f %.1f)", q.x, q.y);
            std::fprintf(stderr, "\n");
          }
          if (!ok) return false;
          CellObservation co;
          co.hex = cell.hex;
          co.face = fr.face;
          co.color = unit_in_shade ? "white" : colour;
          co.confidence = fr.confidence;
          co.guard = token_guard();  // the token taken out above stands beside it
          if (lone_print_hidden) {
            // Kept aside, and the search stops here as for a lone pip on the print: taken only
            // when every pip the look has seen lies at this one place (after the search below);
            // another pip elsewhere makes it a part of a larger face.
            if (!lone_pending) {
              lone_pending = co;
              lone_pending_at = h.centre_mm;
              lone_pending_unit = unit_in_shade;
            }
            return true;
          }
          if (unit_in_shade) reread_ok[ci] = 1;  // no longer hidden (as the shade gate's reported dice)
          if (debug) {
            const cv::Point2d img_pt = apply_h(ht, h.centre_mm);
            std::fprintf(stderr, "DBG %d,%d blob 0 top %.1f %.1f mm %.2f %.2f fineunit face %d conf %.2f\n", cell.hex.q, cell.hex.r,
                         img_pt.x, img_pt.y, h.centre_mm.x, h.centre_mm.y, fr.face, fr.confidence);
          }
          obs.cells.push_back(co);
          found = true;
          return true;
      };
      search_top_faces(image, ht, c_mm, reach_mm, true, thr, displacement[ci], params.max_face_offset_mm, plane_sample, visit_unit,
                       keep_pips);
      if (!found && params.fine_unit_pool_mm > 0 && fine_unit_pips.size() > most_at_one) {
        // (exact15) Each threshold found some of the face's pips and none all of them (the
        // looser one joins a pip to the die's dark side or the print, the stricter one loses
        // the paler pip): the pips of every threshold together, one per place (within
        // fine_unit_pool_mm), looked at as one set; only a layout of two or more pips, which
        // no single threshold had, is new evidence.
        std::vector<cv::Point2d> pooled;
        for (const auto& q : fine_unit_pips) {
          bool again = false;
          for (const auto& o : pooled) again = again || cv::norm(q - o) <= params.fine_unit_pool_mm;
          if (!again) pooled.push_back(q);
        }
        if (pooled.size() > most_at_one) {
          int tried = 0;
          for (const TopFacePips& h : top_face_hypotheses(pooled, displacement[ci])) {
            if (h.count < 2 || static_cast<std::size_t>(h.count) <= most_at_one || cv::norm(h.centre_mm - c_mm) > params.max_face_offset_mm) continue;
            if (tried++ >= 3) break;
            if (debug) std::fprintf(stderr, "FINEUNIT %d,%d pooled: %zu pips, a face of %d\n", cell.hex.q, cell.hex.r, pooled.size(), h.count);
            if (visit_unit(thr.size() - 1, pooled, h)) break;
          }
        }
      }
      if (!found && lone_pending) {
        bool one_place = true;
        for (const auto& q : fine_unit_pips) {
          // (exact27) A pip of a layout refused for its top not seen round it (fine_unit_top_shown)
          // is a side face's, not another top pip: it does not count against the lone pip.
          bool side = false;
          for (const auto& o : fine_side_pips) side = side || cv::norm(q - o) <= params.pip_unit_fine_mm;
          if (side && cv::norm(q - lone_pending_at) > params.pip_unit_fine_mm) continue;
          one_place = one_place && cv::norm(q - lone_pending_at) <= params.pip_unit_fine_mm;
        }
        if (debug)
          std::fprintf(stderr, "FINEUNIT %d,%d lone pip where the print is hidden: %s\n", cell.hex.q, cell.hex.r,
                       one_place ? "every threshold's pips there, a 1" : "pips elsewhere too, not taken");
        if (one_place) {
          if (lone_pending_unit) reread_ok[ci] = 1;
          obs.cells.push_back(*lone_pending);
          found = true;
        }
      }
      if (found) continue;
    }
    if (unit_label < 0 && params.white_pip_unit_confidence > 0 && covered[ci] != 2) {
      // No blob: a white die on white paper (its top paper-coloured, its sides shadow-
      // coloured) shows only its pips. When the dark pip-sized blobs near the cell centre
      // form one face and read_face, centred on them, reads that many pips confidently on
      // a white body, that is the die.
      const std::vector<cv::Point2d> pips = dark_pips();
      if (const std::optional<cv::Point2d> at = pips_face_centre(pips)) {
        const cv::Point2d m = *at;
        const double ang_deg = pip_grid_angle_deg(pips);
        {
          const cv::Point2d m_mm = apply_h(patch_to_mm, m);
          const cv::Mat crop = cut_face_crop(image, ht, m_mm, ang_deg, 16.0 * params.face_crop_scale);
          const double f0 = laps.now();
          const FaceReading fr = read_face(crop, face_params, params.white_pip_unit_confidence);  // (as above)
          laps.face(f0);
          const cv::Vec3f rel(fr.body_bgr[0] / cwhite[0], fr.body_bgr[1] / cwhite[1], fr.body_bgr[2] / cwhite[2]);
          const std::string colour = name_color(rel, calib ? calib->colors : std::vector<ColorSample>{}, fr.pip_polarity);
          // (exact15) A lone spot must be a pip at the camera's resolution too (pip_unit_fine_mm).
          double fine_d = 1e9;
          for (const auto& q : fine_unit_pips) fine_d = std::min(fine_d, cv::norm(q - m_mm));
          const bool no_fine_pip = params.pip_unit_fine_mm > 0 && fine_unit_looked && pips.size() == 1 && fine_d > params.pip_unit_fine_mm;
          // (robust22) Two or more spots where the fine look saw pips at one place only.
          bool fine_one_place = params.pip_unit_fine_one_place && fine_unit_looked && pips.size() >= 2 && !fine_unit_pips.empty();
          for (const auto& q : fine_unit_pips) fine_one_place = fine_one_place && cv::norm(q - fine_unit_pips[0]) <= params.pip_unit_fine_mm;
          if (debug)
            std::fprintf(stderr, "PIPUNIT %d,%d %zu pips: face %d conf %.2f %s; the nearest of %zu fine pips %.1f mm%s\n", cell.hex.q, cell.hex.r,
                         pips.size(), fr.face, fr.confidence, colour.c_str(), fine_unit_pips.size(), fine_unit_pips.empty() ? -1.0 : fine_d,
                         no_fine_pip ? ": no pip there at full resolution, not taken" : fine_one_place ? ": the fine look saw pips at one place only, hidden" : "");
          if (fine_one_place && fr.face == static_cast<int>(pips.size()) && fr.confidence >= params.white_pip_unit_confidence && colour == "white") {
            char why[160];
            std::snprintf(why, sizeof why, "fine: read white %d conf %.2f from %zu spots, the camera-resolution look saw pips at one place",
                          fr.face, fr.confidence, pips.size());
            obs.hidden.push_back(cell.hex);
            obs.hidden_why[cell.hex] = why;
            continue;
          }
          if (fr.face == static_cast<int>(pips.size()) && fr.confidence >= params.white_pip_unit_confidence && colour == "white" && !no_fine_pip) {
            CellObservation co;
            co.hex = cell.hex;
            co.face = fr.face;
            co.color = colour;
            co.confidence = fr.confidence;
            co.guard = token_guard();  // the token taken out above stands beside it
            if (debug) {
              const cv::Point2d img_pt = apply_h(ht, m_mm);
              std::fprintf(stderr, "DBG %d,%d blob 0 top %.1f %.1f mm %.2f %.2f pipunit face %d conf %.2f\n", cell.hex.q, cell.hex.r,
                           img_pt.x, img_pt.y, m_mm.x, m_mm.y, fr.face, fr.confidence);
            }
            obs.cells.push_back(co);
            continue;
          }
        }
      }
    }
    laps.enter(&ReadProfile::cell_unit_ms);
    if (unit_label < 0 && token_was.label >= 0) {
      if (debug) std::fprintf(stderr, "TOKEN %d,%d restored: nothing else there\n", cell.hex.q, cell.hex.r);
      unit_mask = token_was.unit_mask, unit_label = token_was.label, unit_area_px = token_was.area;
      fg = token_was.fg, fg_all = token_was.fg_all, via_shadow = false;
      token.release();
      token_from_unit_blob = false;
    }
    if (unit_label < 0) {
      if (debug) std::fprintf(stderr, "SKIP %d,%d unit\n", cell.hex.q, cell.hex.r);
      note_occluded(ci, "no blob of a unit's size");
      if (covered[ci] != 2 && !fine_side_why.empty()) {
        // A die is there (the fine look saw a face's pips), its face not read: hidden, not empty.
        obs.hidden.push_back(cell.hex);
        obs.hidden_why[cell.hex] = fine_side_why;
      }
      continue;
    }
    laps.enter(&ReadProfile::cell_locate_ms);
    const cv::Mat blob_mask = unit_mask;
    // The whole die as seen (top, sides, shadow): the foreground component holding it.
    cv::Mat die_region;
    {
      // The 8-connected component of fg round the blob: one flood fill from a blob pixel
      // (blob pixels are fg pixels: the blob is fg eroded).
      cv::Point seed(-1, -1);
      for (int y = 0; y < patch.rows && seed.x < 0; ++y) {
        const uchar* b = blob_mask.ptr<uchar>(y);
        for (int x = 0; x < patch.cols; ++x)
          if (b[x]) { seed = {x, y}; break; }
      }
      component_at(fg, seed, die_region);  // = floodFill of a copy from seed, 8-connected (mask_ops.h)
    }
    // Body colour: from the top-face estimate (sides swept away), its blended edge
    // eroded off, the 30th..85th luminance percentile of the non-shadow pixels: above shadow and dark pips, below
    // white pips and glare.
    // The die's blob may take in the paper of a neighbouring cell (tinted differently from
    // this cell's, so "not paper" here): pixels of a neighbour's paper colour are no die.
    cv::Mat body_inner;
    {
      const int e = std::max(1, cvRound(1.5 * ppm)) | 1;
      morph(blob_mask, body_inner, cv::MORPH_ERODE, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(e, e)));
      if (cv::countNonZero(body_inner) < 0.2 * unit_area) body_inner = blob_mask;
    }
    auto body_of = [&](const cv::Mat& inner) {
      cv::Vec3f body;
      // Luminance (b + 2g + r, 0..1020) histogram -> the band's bounds, in linear time.
      std::vector<int> lum_hist(1021, 0);
      std::size_t n_px = 0;
      for (int y = 0; y < patch.rows; ++y) {
        const uchar* in = inner.ptr<uchar>(y);
        const uchar* sh = shadow.ptr<uchar>(y);
        const cv::Vec3b* pp = patch.ptr<cv::Vec3b>(y);
        for_each_set(in, patch.cols, [&](int x) {
          if (!sh[x]) ++lum_hist[static_cast<std::size_t>(pp[x][0] + 2 * pp[x][1] + pp[x][2])], ++n_px;
        });
      }
      // Ranks [lo, hi) of the sorted order, as the sort-based band took them; ties at the
      // bounds are split by order of appearance (row-major), a stable sort's order.
      const std::size_t lo = n_px * 30 / 100, hi = n_px * 85 / 100;
      std::vector<int> take(1021, 0);  // per luminance: how many of its pixels (in order) to skip / keep
      std::vector<int> skip(1021, 0);
      {
        std::size_t acc = 0;
        for (int l = 0; l <= 1020; ++l) {
          const std::size_t a0 = acc, a1 = acc + static_cast<std::size_t>(lum_hist[static_cast<std::size_t>(l)]);
          const std::size_t s0 = std::max(a0, lo), s1 = std::min(a1, hi);
          if (s1 > s0) {
            skip[static_cast<std::size_t>(l)] = static_cast<int>(s0 - a0);
            take[static_cast<std::size_t>(l)] = static_cast<int>(s1 - s0);
          }
          acc = a1;
        }
      }
      std::array<std::array<int, 256>, 3> ch{};
      std::size_t n_band = 0;
      for (int y = 0; y < patch.rows; ++y) {
        const uchar* in = inner.ptr<uchar>(y);
        const uchar* sh = shadow.ptr<uchar>(y);
        const cv::Vec3b* pp = patch.ptr<cv::Vec3b>(y);
        for_each_set(in, patch.cols, [&](int x) {
          if (sh[x]) return;
          const std::size_t l = static_cast<std::size_t>(pp[x][0] + 2 * pp[x][1] + pp[x][2]);
          if (take[l] <= 0) return;
          if (skip[l] > 0) { --skip[l]; return; }
          --take[l];
          for (int k = 0; k < 3; ++k) ++ch[static_cast<std::size_t>(k)][pp[x][k]];
          ++n_band;
        });
      }
      body = cv::Vec3f(0, 0, 0);
      if (n_band > 0)
        for (int k = 0; k < 3; ++k) {
          // median_bgr's element: index n/2 of the sorted values.
          std::size_t acc = 0;
          for (int v = 0; v < 256; ++v) {
            acc += static_cast<std::size_t>(ch[static_cast<std::size_t>(k)][static_cast<std::size_t>(v)]);
            if (acc > n_band / 2) { body[k] = static_cast<float>(v); break; }
          }
        }
      return body;
    };
    cv::Vec3f body = body_of(body_inner);
    cv::Mat other_paper;  // the neighbours' paper (face_other_paper), built when needed below
    // The face square for a body colour: its top mask (with the neighbours' paper cut off
    // when use_other_paper), the mask's angle, the square slid over it.
    const double side = face_px;
    // given_top: slide over this top mask instead (the coloured dice's second look below).
    auto locate = [&](const cv::Vec3f& body_c, bool use_other_paper, cv::RotatedRect& face_rect, cv::Point2f& fc,
                      const cv::Mat* given_top = nullptr) {
    // (The body below keeps the indentation it had before it became this lambda.)
    // Top face: die pixels near the body colour, pips filled by closing.
    cv::Mat top = dist_mask(patch, body_c, params.body_distance, false) & die_region & ~shadow;
    morph(top, top, cv::MORPH_CLOSE, close_k);
    top &= die_region;
    fill_holes(top);
    if (use_other_paper) {
      // Paper reached from outside is cut off; pips (holes inside the face) stay filled.
      const cv::Mat die_only = top & ~other_paper;
      if (cv::countNonZero(die_only) >= 0.3 * unit_area) top = die_only, fill_holes(top);
    }
    {
      // Side faces of the body colour: keep to the swept-away top estimate.
      cv::Mat near_top;
      const int e = std::max(1, cvRound(1.5 * ppm)) * 2 + 1;
      morph(blob_mask, near_top, cv::MORPH_DILATE, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(e, e)));
      top &= near_top;
    }
    cv::Mat ts, tc;
    static thread_local RunLabels top_runs;  // (speed42) the largest one's mask from its runs, no labels image
    const int tn = components_stats_runs(top, ts, tc, top_runs);
    int best = -1;
    double best_area = 0;
    for (int i = 1; i < tn; ++i)
      if (ts.at<int>(i, cv::CC_STAT_AREA) > best_area) {
        best_area = ts.at<int>(i, cv::CC_STAT_AREA);
        best = i;
      }
    const bool top_is_component = best > 0 && best_area > 0.3 * unit_area;
    cv::Mat top_mask = top_is_component ? component_mask(top_runs, best, top.size()) : blob_mask;  // (tl == best)
    // (speed46) The box of top_mask's pixels when it is that component: its statistics' box.
    cv::Rect top_box;
    if (top_is_component && !given_top)
      top_box = cv::Rect(ts.at<int>(best, cv::CC_STAT_LEFT), ts.at<int>(best, cv::CC_STAT_TOP), ts.at<int>(best, cv::CC_STAT_WIDTH),
                         ts.at<int>(best, cv::CC_STAT_HEIGHT));
    if (given_top) top_mask = *given_top;
    if (dump_cell(cell.hex)) {
      cv::imwrite("/tmp/rd_patch.png", patch); cv::imwrite("/tmp/rd_blob.png", blob_mask); cv::imwrite("/tmp/rd_top.png", top_mask);
      cv::imwrite("/tmp/rd_region.png", die_region); cv::imwrite("/tmp/rd_shadow.png", shadow);
    }
    {
      // The outer contour has the same convex hull as all the mask's pixels (so the same
      // minimum-area rectangle), at a fraction of the points. (speed46: traced in the box of
      // the mask's pixels alone, mask_ops_ref.h; the same points.)
      std::vector<cv::Point> pts;
      mask_outer_points(top_mask, pts, top_box.empty() ? nullptr : &top_box);
      face_rect = cv::minAreaRect(pts);
    }
    // The top plane is metric: the face is a face_px square at the blob's angle. Slide
    // that square (in the die's axes) to where it covers the most top-coloured pixels
    // and the fewest others, so side faces of a similar colour do not pull it off.
    fc = face_rect.center;
    {
      const cv::Point2f pc(patch.cols / 2.0f, patch.rows / 2.0f);
      const cv::Mat rot = cv::getRotationMatrix2D(pc, face_rect.angle, 1.0);  // patch -> die axes
      cv::Mat score;
      top_mask.convertTo(score, CV_32F, 2.0 / 255.0, -1.0);
      const int k = std::max(3, cvRound(side));
      cv::Mat sum;
      // A 16 mm die standing in its cell has its centre within max_face_offset_mm of the
      // cell centre (a 29.4 mm cell across the flats): the square is slid only there, so a
      // guard token or a neighbour's side of a similar colour cannot pull it further.
      cv::Mat allowed(patch.size(), CV_8U, cv::Scalar(0));
      cv::Rect allowed_disc;  // (speed43) the filled circle's box (filled_circle_box, mask_ops.h)
      {
        const cv::Matx23d rm(rot);
        const cv::Point2d cr(rm(0, 0) * centre.x + rm(0, 1) * centre.y + rm(0, 2),
                             rm(1, 0) * centre.x + rm(1, 1) * centre.y + rm(1, 2));
        const cv::Point ac(cvRound(cr.x), cvRound(cr.y));
        const int ar = std::max(1, cvRound(params.max_face_offset_mm * ppm));
        cv::circle(allowed, ac, ar, cv::Scalar(255), cv::FILLED);
        allowed_disc = filled_circle_box(ac, ar, allowed.size());
      }
      // The scores turned into the die's axes (warpAffine, nearest, outside -1), summed over
      // the square (= cv::boxFilter(.., unnormalised, BORDER_CONSTANT): exact sums of +-1,
      // mask_ops.h) only where the square may go: turned only where those sums read them
      // (speed round 12: warp_affine_nearest_window, the same bits there).
      // (speed43) = cv::boundingRect(allowed): the circle's box when it lies wholly in the patch.
      const cv::Rect allowed_box =
          params.max_face_offset_mm > 0 ? (!allowed_disc.empty() ? allowed_disc : cv::boundingRect(allowed)) : cv::Rect();
      cv::Point best_at;
      if (!allowed_box.empty()) {
        const int a = k / 2;
        const cv::Rect window(allowed_box.x - a, allowed_box.y - a, allowed_box.width + k, allowed_box.height + k);
        cv::Mat srot;
        warp_affine_nearest_window(score, cv::Matx23d(rot), patch.size(), window, -1.0f, srot);
        box_sum_roi(srot, k, allowed_box, sum);
        // (Over the whole patch: OpenCV's minMaxLoc of a sub-rectangle picks another of
        // equal maxima now and then, 2 in 20000 random tries.)
        best_at = max_loc_masked(sum, allowed);  // = cv::minMaxLoc's
      } else {
        cv::Mat srot;
        cv::warpAffine(score, srot, rot, patch.size(), cv::INTER_NEAREST, cv::BORDER_CONSTANT, cv::Scalar(-1));
        if (params.max_face_offset_mm > 0) box_sum_roi(srot, k, allowed_box, sum);
        else box_sum(srot, k, sum);
        cv::minMaxLoc(sum, nullptr, nullptr, nullptr, &best_at, params.max_face_offset_mm > 0 ? allowed : cv::noArray());
      }
      cv::Mat inv;
      cv::invertAffineTransform(rot, inv);
      const cv::Matx23d iv(inv);
      const double bx = best_at.x + ((k % 2) ? 0.0 : -0.5), by = best_at.y + ((k % 2) ? 0.0 : -0.5);
      fc = cv::Point2f(static_cast<float>(iv(0, 0) * bx + iv(0, 1) * by + iv(0, 2)),
                       static_cast<float>(iv(1, 0) * bx + iv(1, 1) * by + iv(1, 2)));
    }
    // White dice: the top face is paper-coloured, so its mask (and the square slid over
    // it) follows the die's sides and shadow instead. Their pips are what stands out: dark,
    // pip-sized blobs near the cell centre; a standard layout is centred on the face, so
    // the pips' centroid is the face centre.
    const bool white_body = params.white_pip_locate && !given_top &&
                            name_color(cv::Vec3f(body_c[0] / cwhite[0], body_c[1] / cwhite[1], body_c[2] / cwhite[2]),
                                       calib ? calib->colors : std::vector<ColorSample>{}) == "white";
    // (exact18) A white die on a pale tinted cell: its top is within paper_distance of the
    // tint, so the blob is its sides and shadow on the tinted paper and the body measured
    // there is the tint's, not white. Its dark pips still stand out; when two or more of
    // them make one face and the face round them is paper-coloured (little of it differs
    // from the cell's paper: a top as light as the paper, a white top), that is the face.
    bool white_top = false;
    cv::Point2d white_top_at;  // that face's centre (patch px)
    if (params.white_pip_locate && !given_top && !white_body && params.white_top_paper_fraction > 0) {
      // The dark pips as one standard layout at the face's real size (top_face_hypotheses:
      // a side face's pip beside them is left out), the most pips first, two or more.
      const std::vector<cv::Point2d> pips = dark_pips();
      std::vector<cv::Point2d> pips_mm;
      for (const auto& q : pips) pips_mm.push_back(apply_h(patch_to_mm, q));
      const cv::Point2d c_mm = apply_h(patch_to_mm, centre);
      std::optional<cv::Point2d> m;
      int layout_count = 0;
      for (const TopFacePips& h : top_face_hypotheses(pips_mm, displacement[ci]))
        if (h.count >= 2 && cv::norm(h.centre_mm - c_mm) <= params.max_face_offset_mm) {
          m = apply_h(mm_to_patch, h.centre_mm), layout_count = h.count;
          break;
        }
      // (exact29) ... else all the pips but one, three or more, in one layout (white_top_drop_one).
      if (!m && params.white_top_drop_one && pips_mm.size() >= 4 && pips_mm.size() <= 7) {
        double best_fit = 1e9;
        for (std::size_t drop = 0; drop < pips_mm.size(); ++drop) {
          std::vector<cv::Point2d> rest;
          for (std::size_t j = 0; j < pips_mm.size(); ++j)
            if (j != drop) rest.push_back(pips_mm[j]);
          for (const TopFacePips& h : top_face_hypotheses(rest, displacement[ci]))
            if (h.count == static_cast<int>(rest.size()) && h.fit < best_fit && cv::norm(h.centre_mm - c_mm) <= params.max_face_offset_mm) {
              m = apply_h(mm_to_patch, h.centre_mm), layout_count = h.count, best_fit = h.fit;
              if (debug)
                std::fprintf(stderr, "WHITETOP %d,%d all pips but (%.1f %.1f): a face of %d (fit %.3f) %.1f mm off\n", cell.hex.q, cell.hex.r,
                             pips_mm[drop].x - c_mm.x, pips_mm[drop].y - c_mm.y, h.count, h.fit, cv::norm(h.centre_mm - c_mm));
            }
        }
      }
      if (debug && !m) {
        std::fprintf(stderr, "WHITETOP %d,%d no face of two or more among %zu dark pips:", cell.hex.q, cell.hex.r, pips.size());
        for (const auto& q : pips_mm) std::fprintf(stderr, " (%.1f %.1f)", q.x - c_mm.x, q.y - c_mm.y);
        for (const TopFacePips& h : top_face_hypotheses(pips_mm, displacement[ci]))
          std::fprintf(stderr, " [%d at %.1f %.1f]", h.count, h.centre_mm.x - c_mm.x, h.centre_mm.y - c_mm.y);
        std::fprintf(stderr, "\n");
      }
      // The share of the face round a centre (0.4 face, pips and printed lines left out) that
      // differs from the paper; -1 when nothing of it is left.
      auto differs_round = [&](const cv::Point2d& at) {
        const cv::Vec3f pp = papers[ci];
        const float dark_lum = static_cast<float>(params.core_dark_ratio) * (pp[0] + 2 * pp[1] + pp[2]);
        const double r = 0.4 * face_px;
        int n = 0, differs = 0;
        for (int y = std::max(0, cvFloor(at.y - r)); y <= std::min(patch.rows - 1, cvCeil(at.y + r)); ++y) {
          const cv::Vec3b* row = patch.ptr<cv::Vec3b>(y);
          const uchar* f = fg_all.ptr<uchar>(y);
          const uchar* g = grid.ptr<uchar>(y);
          for (int x = std::max(0, cvFloor(at.x - r)); x <= std::min(patch.cols - 1, cvCeil(at.x + r)); ++x) {
            if (std::hypot(x - at.x, y - at.y) > r || g[x]) continue;
            if (row[x][0] + 2 * row[x][1] + row[x][2] < dark_lum) continue;  // a pip
            ++n;
            if (f[x]) ++differs;
          }
        }
        return n > 0 ? static_cast<double>(differs) / n : -1.0;
      };
      if (m) {
        const double f = differs_round(*m);
        white_top = f >= 0 && f < params.white_top_paper_fraction;
        white_top_at = *m;
        if (debug)
          std::fprintf(stderr, "WHITETOP %d,%d a face of %d (of %zu pips), %.2f of the face round them differs from the paper%s\n", cell.hex.q, cell.hex.r,
                       layout_count, pips.size(), f, white_top ? ": a white top" : "");
      } else if (params.white_one_lone_pip > 0 && !use_other_paper && pips_mm.size() == 1 &&
                 cv::norm(pips_mm[0] - c_mm) <= params.max_face_offset_mm) {
        // (exact28) No face of two or more: one dark pip alone near the top's place, the face
        // round it of the paper's colour, is a white 1's top (white_one_lone_pip; taken only
        // where the reading is hidden for its pips' polarity).
        const double f = differs_round(pips[0]);
        if (f >= 0 && f < params.white_one_lone_pip) lone_white_one[ci] = 1;
        lone_pip_mm[ci] = pips_mm[0];
        if (debug)
          std::fprintf(stderr, "WHITEONE %d,%d a lone dark pip %.1f mm off, %.2f of the face round it differs from the paper%s\n", cell.hex.q,
                       cell.hex.r, cv::norm(pips_mm[0] - c_mm), f, lone_white_one[ci] ? ": a white 1's top" : "");
      }
    }
    if (white_top) {
      if (debug) std::fprintf(stderr, "PIPS %d,%d white top moved %.1f px\n", cell.hex.q, cell.hex.r, cv::norm(white_top_at - cv::Point2d(fc)));
      fc = cv::Point2f(static_cast<float>(white_top_at.x), static_cast<float>(white_top_at.y));
    } else if (white_body) {
      const std::vector<cv::Point2d> pips = dark_pips();
      if (const std::optional<cv::Point2d> m = pips_face_centre(pips)) {
        if (debug) std::fprintf(stderr, "PIPS %d,%d %zu moved %.1f px\n", cell.hex.q, cell.hex.r, pips.size(), cv::norm(*m - cv::Point2d(fc)));
        fc = cv::Point2f(static_cast<float>(m->x), static_cast<float>(m->y));
      }
    }
    };
    cv::RotatedRect face_rect;
    cv::Point2f fc;
    locate(body, false, face_rect, fc);
    // The crop covers face_crop_scale x the 16 mm face, cut from the camera image itself
    // (cut_face_crop: crop pixel -> top-plane mm -> image), not resampled from the patch:
    // the patch may be coarser than the image (px_per_mm is chosen for segmentation
    // speed), the face needs every pixel.
    double plain_confidence = 0;  // read_at's last reading before the one-polarity look
    // useful: the caller keeps the reading only at that confidence or more (read_face's
    // `useful`: a kept reading is the same, a reading it would not keep stays below it).
    // (Round 15) A square is cut and read once per cell, whatever bar it is read with (the
    // first look and a second look that must beat it often read the same square): its crop
    // and the readings of it (FaceReader: read_face at any `useful`, each reader run at
    // most once), and those of its one-polarity crop (a function of the crop, the polarity
    // and the plain reading's body, which no bar changes: kept with them as the key).
    struct SquareReads {
      std::uint32_t x, y, angle;
      FaceReader plain;
      int pol = 0;
      cv::Vec3f pol_body;
      std::optional<FaceReader> one_pol;
      // The reader of the one-polarity crop for (polarity, body), made anew when either differs.
      FaceReader& one_polarity(int polarity, const cv::Vec3f& body, const FaceParams& fp) {
        if (!one_pol || pol != polarity || pol_body != body) {
          one_pol.emplace(one_pip_polarity(plain.crop(), body, polarity), fp);
          pol = polarity;
          pol_body = body;
        }
        return *one_pol;
      }
    };
    std::vector<SquareReads> squares;
    // The square at `at` in the current angle: cut (and kept) the first time it is asked for.
    auto square_reads_at = [&](cv::Point2f at) -> SquareReads& {
      const std::uint32_t kx = std::bit_cast<std::uint32_t>(at.x), ky = std::bit_cast<std::uint32_t>(at.y),
                          ka = std::bit_cast<std::uint32_t>(face_rect.angle);
      std::size_t si = 0;
      while (si < squares.size() && !(squares[si].x == kx && squares[si].y == ky && squares[si].angle == ka)) ++si;
      if (si == squares.size()) {
        const cv::Point2d at_mm = apply_h(patch_to_mm, {at.x, at.y});
        cv::Mat crop = cut_face_crop(image, ht, at_mm, face_rect.angle, 16.0 * params.face_crop_scale);
        if (dump_cell(cell.hex)) {
          static int n_crop = 0;
          cv::imwrite("/tmp/rd_crop" + std::to_string(n_crop++) + ".png", crop);
        }
        squares.push_back({kx, ky, ka, FaceReader(std::move(crop), face_params), 0, cv::Vec3f(), std::nullopt});
      }
      return squares[si];
    };
    // (speed22) above: the caller keeps the reading only when its confidence is above `useful`
    // (read_above_bar, retry_read_above).
    auto read_at_uncached = [&](cv::Point2f at, double useful, bool above) {
      SquareReads& sq = square_reads_at(at);
      const cv::Mat& crop = sq.plain.crop();
      const double f0 = laps.now();
      const int pc0 = sq.plain.component_reads();
      FaceReading r = read_above_bar(sq.plain, useful, above);  // = read_face(crop, face_params, useful) where it counts
      laps.face(f0);
      laps.counts().component_reads += sq.plain.component_reads() - pc0;
      plain_confidence = r.confidence;
      // A coloured die's unsure reading: read again with only its pips' polarity (its dark
      // rim and sides out of a light-pip crop, glare and paper out of a dark-pip one); the
      // more confident reading is kept, the body colour stays the plain crop's.
      // (Not under or beside a hand or an arm: there the gates below decide "a die read beyond
      // doubt" on the plain reading's confidence, and a partly covered die's lit remnant reads
      // as a confident 1 with the shade taken out.)
      if (params.pip_polarity_below > 0 && r.confidence < params.pip_polarity_below && covered[ci] != 2 && !near_hand[ci]) {
        const int pol = coloured_pip_polarity(name_color(cv::Vec3f(r.body_bgr[0] / cwhite[0], r.body_bgr[1] / cwhite[1], r.body_bgr[2] / cwhite[2]),
                                                         calib ? calib->colors : std::vector<ColorSample>{}));
        if (pol != 0) {
          const double f1 = laps.now();
          sq.one_polarity(pol, r.body_bgr, face_params);
          // Kept only when at least as confident as the plain reading (and as the caller needs).
          const int oc0 = sq.one_pol->component_reads();
          // (speed22) Above useful only while the plain reading is at or below it: above it, the
          // look's bar is the plain reading's confidence and a look at it (>=) replaces it.
          FaceReading r2 = read_above_bar(*sq.one_pol, std::max(useful, r.confidence), above && r.confidence <= useful);  // = read_face(one_pip_polarity(...), ...)
          laps.face(f1);
          laps.counts().component_reads += sq.one_pol->component_reads() - oc0;
          const double pc = pip_contrast(crop, r2, pol);
          if (debug) std::fprintf(stderr, "POLARITY %d,%d %+d face %d conf %.2f -> face %d conf %.2f pol %d contrast %.1f\n", cell.hex.q, cell.hex.r, pol, r.face, r.confidence, r2.face, r2.confidence, r2.pip_polarity, pc);
          if (r2.face > 0 && r2.confidence >= r.confidence) {
            r2.body_bgr = r.body_bgr;
            r = r2;
          }
        }
      }
      return r;
    };
    // (Speed round 12) The same place read again with the same bar (the cut of
    // face_other_paper often slides to the first square; a look's centre may be one read
    // before) gives the same reading: read_at is a function of the square (centre, angle)
    // and the bar within a cell, so a repeat is answered from the cell's readings so far.
    struct ReadAtMemo {
      std::uint32_t x, y, angle;
      std::uint64_t useful;
      bool above;
      FaceReading reading;
      double plain;
    };
    std::vector<ReadAtMemo> read_memo;
    auto read_at = [&](cv::Point2f at, double useful = 0, bool above = false) {
      const std::uint32_t kx = std::bit_cast<std::uint32_t>(at.x), ky = std::bit_cast<std::uint32_t>(at.y),
                          ka = std::bit_cast<std::uint32_t>(face_rect.angle);
      const std::uint64_t ku = std::bit_cast<std::uint64_t>(useful);
      above = above && read_above_applies(params, useful);
      for (const ReadAtMemo& m : read_memo)
        if (m.x == kx && m.y == ky && m.angle == ka && m.useful == ku && m.above == above) {
          if (debug) std::fprintf(stderr, "READAGAIN %d,%d face %d conf %.2f\n", cell.hex.q, cell.hex.r, m.reading.face, m.reading.confidence);
          plain_confidence = m.plain;
          return m.reading;
        }
      FaceReading r = read_at_uncached(at, useful, above);
      read_memo.push_back({kx, ky, ka, ku, above, r, plain_confidence});
      return r;
    };
    // (exact20) The size of a reading's pips (pip_layout_scale), read at `at` (patch px) in the
    // square's current angle.
    auto scale_at = [&](const FaceReading& r, cv::Point2f at) {
      if (r.face < 2) return 0.0;
      // The square's crop as read (read_at keeps it), else cut again.
      const std::uint32_t kx = std::bit_cast<std::uint32_t>(at.x), ky = std::bit_cast<std::uint32_t>(at.y),
                          ka = std::bit_cast<std::uint32_t>(face_rect.angle);
      for (const SquareReads& sq : squares)
        if (sq.x == kx && sq.y == ky && sq.angle == ka) return pip_layout_scale(sq.plain.crop(), r, 16.0 * params.face_crop_scale);
      const cv::Point2d at_mm = apply_h(patch_to_mm, {at.x, at.y});
      return pip_layout_scale(cut_face_crop(image, ht, at_mm, face_rect.angle, 16.0 * params.face_crop_scale), r,
                              16.0 * params.face_crop_scale);
    };
    // (robust42) The square at `at` (its current angle) read from its crop with the light pips
    // only (one_pip_polarity +1 round the plain reading's body): a glared black top, lifted
    // towards the paper, differs from its light pips less than from its own black rim and sides
    // at the crop's edge, which the plain reading takes for the pips (pip_look_light_only_min_pips).
    auto read_light_at = [&](cv::Point2f at, const FaceReading& plain, double useful) {
      FaceReader& light = square_reads_at(at).one_polarity(1, plain.body_bgr, face_params);
      const double f0 = laps.now();
      const int oc0 = light.component_reads();
      FaceReading r = light.read(useful);
      laps.face(f0);
      laps.counts().component_reads += light.component_reads() - oc0;
      r.body_bgr = plain.body_bgr;
      return r;
    };
    // (exact22) The square's crop at `at` in its current angle, as read (square_reads_at keeps it).
    auto crop_at = [&](cv::Point2f at) -> cv::Mat { return square_reads_at(at).plain.crop(); };
    // (exact21) A replacement reading (r2 at `at`) whose pips (two or more) are off the face's real
    // size, over a first reading (r1 at `at1`) whose pips are at it: the replacement read a part
    // of the face or a side face's pips (dev12 1319 (4,-1): a black 4 at 1.00, its size 1.01,
    // replaced by two of its pips read as a 2 at 0.71, then hidden by face_scale_gate). Measured
    // only when the swap would happen.
    auto off_size_replaces_real = [&](const FaceReading& r1, cv::Point2f at1, const FaceReading& r2, cv::Point2f at) {
      if (r2.face < 2 || r1.face < 2) return false;
      return face_scale_ok(scale_at(r1, at1)) && !face_scale_ok(scale_at(r2, at));
    };
    laps.enter(&ReadProfile::cell_first_ms);
    FaceReading fr = read_at(fc);
    double fr_plain_confidence = plain_confidence;
    // A reading short of certain may come from a square slid over a neighbour's paper: the
    // die is looked at again without it (face_other_paper; a sure reading is kept as it is,
    // which saves the masks and a read_face on most dice).
    laps.enter(&ReadProfile::cell_other_ms);
    if (params.face_other_paper && fr.confidence < 0.9) {
      {
        const double reach = 1.2 * std::sqrt(3.0) * hs;
        for (std::size_t cj = 0; cj < layout.cells.size(); ++cj) {
          if (cj == ci || std::hypot(layout.cells[cj].centre.x - cell.centre.x, layout.cells[cj].centre.y - cell.centre.y) > reach) continue;
          if (cv::norm(papers[cj] - papers[ci]) < 0.5 * params.paper_distance) continue;  // the same paper
          const cv::Mat m = dist_mask(patch, papers[cj], params.paper_distance, false);
          if (other_paper.empty()) other_paper = m;
          else other_paper |= m;
        }
        // ... and the sheet's white (its margin and untinted print round the grid).
        if (cv::norm(white - papers[ci]) >= 0.5 * params.paper_distance) {
          const cv::Mat m = dist_mask(patch, white, params.paper_distance, false);
          if (other_paper.empty()) other_paper = m;
          else other_paper |= m;
        }
      }
      // Without the neighbours' paper: kept when the die is then of a colour (a polluted
      // body came out paper-grey); white and black dice keep the plain body and top mask
      // (their tops and pips are of the sheet's white or of its shadows).
      bool try_cut = false;
      cv::Vec3f body_cut;
      if (!other_paper.empty()) {
        const cv::Mat die_only = body_inner & ~other_paper;
        // Most of the blob must stay, at least a guard token's worth: a white die's blob
        // with its blue token beside it would otherwise keep only the token.
        const int n_all = cv::countNonZero(body_inner), n_die = cv::countNonZero(die_only);
        if (n_die >= 0.6 * unit_area && n_die >= 0.5 * n_all) {
          const cv::Vec3f b2 = body_of(die_only);
          const std::string n2 = name_color(cv::Vec3f(b2[0] / cwhite[0], b2[1] / cwhite[1], b2[2] / cwhite[2]),
                                            calib ? calib->colors : std::vector<ColorSample>{});
          if (debug) std::fprintf(stderr, "OTHERPAPER %d,%d kept %.2f of %.2f units: %s\n", cell.hex.q, cell.hex.r, n_die / unit_area, n_all / unit_area, n2.c_str());
          if (n2 != "white" && n2 != "black") body_cut = b2, try_cut = true;
        }
      }
      if (try_cut) {
        // The body without the neighbours' paper gives another square: the more confident
        // reading wins (a white die's blob with its blue token beside it also comes out
        // blue without the white, and reads worse there).
        const cv::RotatedRect rect0 = face_rect;
        const cv::Point2f fc0 = fc;
        locate(body_cut, true, face_rect, fc);
        const FaceReading fr2 = read_at(fc, fr.confidence);
        const double fr2_plain_confidence = plain_confidence;
        if (debug) std::fprintf(stderr, "CUT %d,%d face %d conf %.2f -> face %d conf %.2f\n", cell.hex.q, cell.hex.r, fr.face, fr.confidence, fr2.face, fr2.confidence);
        if (fr2.confidence > fr.confidence) fr = fr2, body = body_cut, fr_plain_confidence = fr2_plain_confidence;
        else face_rect = rect0, fc = fc0;
      }
    }
    // (exact35) Under the occluder, a reading whose body is of skin's hue read the hand: the die's
    // body taken again without the skin-hued pixels (skin_row, hand_mask's test, grown by 1 mm)
    // gives another square when it is of a die's colour (not white or black: their tops are the
    // paper's and the shade's) and not of skin's hue itself; the reading there replaces the
    // skin's when it is of that colour. The occluder gate then judges it as any other reading.
    // (The reading so far is tested, after the other-paper cut look above; the looks after this
    // one may still move the square.)
    // Skin's hue is judged against the light on the cell (occluded_skin_untinted, exact20: the
    // occluder gate below does the same).
    const cv::Vec3f skin_ref = params.occluded_skin_untinted ? paper_light[ci] : papers[ci];
    // The colours below are named with the calibrated samples, relative to the white.
    const std::vector<ColorSample> samples = calib ? calib->colors : std::vector<ColorSample>{};
    if (params.occluded_off_skin && covered[ci] == 2 && fr.face > 0 && skin_hued(fr.body_bgr, skin_ref, params)) {
      cv::Mat skin_px(patch.size(), CV_8U, cv::Scalar(0));
      const float iw[3] = {1.0f / cwhite[0], 1.0f / cwhite[1], 1.0f / cwhite[2]};
      for (int y = 0; y < patch.rows; ++y)
        skin_row(patch.ptr<uchar>(y), patch.cols, iw, static_cast<float>(params.hand_chroma), static_cast<float>(params.hand_hue_min),
                 static_cast<float>(params.hand_hue_max), skin_px.ptr<uchar>(y));
      const int g = std::max(1, cvRound(1.0 * ppm)) * 2 + 1;
      morph(skin_px, skin_px, cv::MORPH_DILATE, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(g, g)));
      const cv::Mat die_only = body_inner & ~skin_px;
      const int n_die = cv::countNonZero(die_only);
      std::string n2 = "-";
      bool kept = false;
      FaceReading fr2;
      if (n_die >= 0.3 * unit_area) {
        const cv::Vec3f b2 = body_of(die_only);
        n2 = name_color(relative_to_white(b2, cwhite, params.colour_clip_level), samples);
        if (n2 != "white" && n2 != "black" && !skin_hued(b2, skin_ref, params)) {
          const cv::RotatedRect rect0 = face_rect;
          const cv::Point2f fc0 = fc;
          locate(b2, !other_paper.empty(), face_rect, fc);
          fr2 = read_at(fc);
          kept = fr2.face > 0 && name_color(relative_to_white(fr2.body_bgr, cwhite, params.colour_clip_level), samples) == n2;
          if (kept) fr = fr2, body = b2, fr_plain_confidence = plain_confidence;
          else face_rect = rect0, fc = fc0;
        }
      }
      if (debug)
        std::fprintf(stderr, "OFFSKIN %d,%d %.2f units off the skin: %s; face %d conf %.2f%s\n", cell.hex.q, cell.hex.r, n_die / unit_area,
                     n2.c_str(), fr2.face, fr2.confidence, kept ? " kept" : "");
    }
    // White and black dice: the top is paper- or shadow-coloured, so the square slid over
    // the top mask may sit on the sides and the shadow. Their pips are what stands out (dark
    // on white, light on black): the round pip-sized blobs of the die's polarity near the
    // cell centre, side-face pips (squeezed along d) left out, give the face centre (a
    // standard layout is centred on its face). The face is read there and that reading is
    // kept when it counts as many pips as were found and is confident enough: two
    // independent counts agreeing.
    // The second looks below name colours with the calibrated samples (above), relative to the white.
    laps.enter(&ReadProfile::cell_fine_ms);
    auto rel_of = [&](const cv::Vec3f& c) { return relative_to_white(c, cwhite, params.colour_clip_level); };
    // (robust42) A black face's square at `at` read again with its light pips only, when its plain
    // reading `plain` did not agree (pip_look_light_only_min_pips): the re-read and its colour, if
    // they agree (`agrees`), for the fine look and the other grey's look alike. Not under the
    // occluder (a hand's or an arm's shade), where a partly covered die's lit remnant reads as a
    // confident face with the shade taken out and exact42's lower bar (occluded_min_confidence
    // 0.45) would let it through. Beside a hand it is kept: gain1 2801 (1,-3)'s black 4 is read
    // there, and no false or wrong reading came of it on any scored set.
    auto light_only_again = [&](cv::Point2f at, const FaceReading& plain, double useful, int count, const std::string& want,
                                const auto& agrees) -> std::optional<std::pair<FaceReading, std::string>> {
      if (params.pip_look_light_only_min_pips <= 0 || count < params.pip_look_light_only_min_pips || covered[ci] == 2)
        return std::nullopt;
      const FaceReading r = read_light_at(at, plain, useful);
      const std::string colour = name_color(rel_of(r.body_bgr), samples, 1);
      const bool agree = agrees(r, colour);
      if (debug)
        std::fprintf(stderr, "LIGHTONLY %d,%d %s face of %d: face %d conf %.2f -> face %d conf %.2f %s%s\n", cell.hex.q, cell.hex.r,
                     want.c_str(), count, plain.face, plain.confidence, r.face, r.confidence, colour.c_str(), agree ? " agree" : "");
      if (!agree) return std::nullopt;
      return std::make_pair(r, colour);
    };
    bool fine_looked = false;  // the camera-resolution look below found the face
    // (exact15) The dark-pip look below saw two or more pips at some threshold and no standard
    // layout at any threshold it reached (occluded_white_fine_layout).
    bool fine_dark_pips = false, fine_dark_layout = false;
    // (exact15) ... and it read the face as one dark pip, a layout of one, there (occluded_white_one_fine).
    bool fine_dark_one = false;
    // (exact25) The count of the face that look found in light pips (occluded_black_fine_min_pips); 0: none.
    int fine_light_count = 0;
    // (exact18) The dark-pip look was made, and the most pips any of its thresholds found.
    bool fine_dark_looked = false;
    std::size_t fine_dark_most = 0;
    cv::Point2d fine_c_mm{0, 0};  // (robust46) the centre that look searched round (white_no_pip_body_ratio)
    // The top plane round the cell centre as find_plane_pips samples it: kept for both
    // polarities of the look below and the other grey's look after it (the same disc).
    PlaneSample fine_sample;
    // (robust22) A layout on the top plane takes a pip from another cell: one of its pips (those
    // within the face's reach of its centre) lies nearer another cell's centre than this one's.
    // A die's pips lie on its own top, over its own cell; on a small map (hexes under 14 mm) the
    // next cell's die stands 3 mm away and a pip of it joined this die's 1 into a 2.
    // A pip of the layout h: within the face's reach of its centre, and not the speck its set left
    // out (robust42: top_face_hypotheses' dropped pip is no part of the face, robust40's drop).
    auto face_pip = [](const cv::Point2d& q, const TopFacePips& h) {
      return cv::norm(q - h.centre_mm) <= kFaceReachMm && !(h.dropped > 0 && q == h.dropped_mm);
    };
    auto takes_other_cell = [&](const std::vector<cv::Point2d>& pips, const TopFacePips& h) {
      if (!params.pip_look_own_cell) return false;
      for (const auto& q : pips) {
        if (!face_pip(q, h)) continue;
        const double own = std::hypot(q.x - cell.centre.x, q.y - cell.centre.y);
        for (const auto& c : layout.cells)
          if (std::hypot(c.centre.x - cell.centre.x, c.centre.y - cell.centre.y) < 2.2 * hs &&
              std::hypot(q.x - c.centre.x, q.y - c.centre.y) < own)
            return true;
      }
      return false;
    };
    // (exact37) A layout on the top plane takes the guard token's pip (pip_look_off_token): one of
    // its pips (within the face's reach of its centre) lies on the token TOKENIN took out of the
    // unit's blob, its pip's hole filled. (The small blob's token, TOKEN above, is the whole
    // foreground component holding it, which may hold the die: not used.)
    cv::Mat token_filled;  // made on the first call
    auto takes_token_pip = [&](const std::vector<cv::Point2d>& pips, const TopFacePips& h) {
      if (!params.pip_look_off_token || !token_from_unit_blob || token.empty()) return false;
      if (token_filled.empty()) {
        token_filled = token.clone();
        fill_holes(token_filled);
      }
      for (const auto& q : pips) {
        if (!face_pip(q, h)) continue;
        const cv::Point2d p = apply_h(mm_to_patch, q);
        const int x = cvRound(p.x), y = cvRound(p.y);
        if (x >= 0 && y >= 0 && x < token_filled.cols && y < token_filled.rows && token_filled.at<uchar>(y, x)) return true;
      }
      return false;
    };
    if (params.pip_look_confidence > 0 && params.fine_pip_look) {
      const std::string nb = name_color(rel_of(body), samples), nr = name_color(rel_of(fr.body_bgr), samples, fr.pip_polarity);
      const cv::Point2d c_mm = apply_h(patch_to_mm, centre);
      fine_c_mm = c_mm;
      PlaneSample& plane_sample = fine_sample;  // one sampling of the top plane for both polarities
      for (const bool dark_polarity : {true, false}) {
        const std::string want = dark_polarity ? "white" : "black";
        // A white or black die's blue guard token may be its blob's body (the white top is paper-like, the black one shadow-like).
        // (Not when the blue reading is sure: that is a blue die. Sure as read plainly: the
        // one-polarity look also reads a 10 mm token's light pip and rim surely.)
        // (exact11) Sure or not when the blob is under guard_like_area unit faces: a 10 mm
        // token's light pip reads as a sure blue 1, and a blob that small is a token's size,
        // not a die's (the token with the shade of the white die's side beside it, too grey
        // on average to be taken out as a token above).
        const bool token_body = (nb == "blue" || nr == "blue") &&
                                (fr_plain_confidence < 0.9 ||
                                 (params.token_look_small_blob && params.guard_like_area > 0 && unit_area_px < params.guard_like_area * unit_area));
        if (nb != want && nr != want && !token_body) continue;
        const cv::Vec3f pp = papers[ci];
        const float paper_lum = pp[0] + 2 * pp[1] + pp[2];
        // Thresholds (x the cell's paper): the first as the patch look's; light pips on a
        // glared black top (the top up to ~0.7 of the paper) need the higher ones; dark pips
        // in shade a lower one (not higher: the printed cell names are ~0.65 of the paper).
        std::vector<float> thr;
        const double r0 = dark_polarity ? params.core_dark_ratio : params.pip_light_ratio;
        for (const double f : dark_polarity ? std::vector<double>{1.0, 0.75} : std::vector<double>{1.0, 1.25, 1.5})
          thr.push_back(static_cast<float>(std::min(0.95, r0 * f) * paper_lum));
        // The first threshold alone first (most dice are settled there), the others together
        // only when needed (search_top_faces).
        const double reach_mm = pip_look_reach_mm(params);
        // (robust38) The most pips any threshold of this look found so far (sure_face_stands_min_pips).
        std::size_t look_most = 0;
        // (robust40) A set of pips that is no layout is tried without each one (pip_look_drop_min_pips),
        // in a noisy frame only: the speck it drops is the gain's noise.
        PlanePipParams drop_params;
        drop_params.drop_min_pips = noisy ? params.pip_look_drop_min_pips : 0;
        // (robust41) ... and a set that is a layout less one pip is that face (pip_look_missing_pip_fit), noisy frames too.
        drop_params.missing_pip_fit = noisy ? params.pip_look_missing_pip_fit : 0.0;
        const TopFaceThreshold no_face = [&](std::size_t ti, const std::vector<cv::Point2d>& pips, const std::vector<TopFacePips>& hyps) {
          look_most = std::max(look_most, pips.size());
          if (dark_polarity) {
            fine_dark_looked = true;
            fine_dark_most = std::max(fine_dark_most, pips.size());
            if (pips.size() >= 2) fine_dark_pips = true;
            if (!hyps.empty()) fine_dark_layout = true;
          }
          if (debug && !hyps.empty()) {
            std::fprintf(stderr, "FINEPIPS %d,%d %s thr %.2f %zu pips, %zu faces:", cell.hex.q, cell.hex.r, want.c_str(), thr[ti] / paper_lum, pips.size(), hyps.size());
            for (const auto& q : pips) std::fprintf(stderr, " (%.1f %.1f)", q.x - c_mm.x, q.y - c_mm.y);
            for (const auto& h : hyps)
              std::fprintf(stderr, " [%d at %.1f %.1f%s]", h.count, h.centre_mm.x - c_mm.x, h.centre_mm.y - c_mm.y,
                           h.missing > 0 ? ", one pip missing" : h.dropped > 0 ? ", a speck left out" : "");
            std::fprintf(stderr, "\n");
          }
          if (!hyps.empty() || !debug) return;
          std::fprintf(stderr, "FINEPIP %d,%d %s thr %.2f %zu pips, no face:", cell.hex.q, cell.hex.r, want.c_str(), thr[ti] / paper_lum, pips.size());
          for (const auto& q : pips) std::fprintf(stderr, " (%.1f %.1f)", q.x - c_mm.x, q.y - c_mm.y);
          std::fprintf(stderr, "\n");
        };
        search_top_faces(image, ht, c_mm, reach_mm, dark_polarity, thr, displacement[ci], params.max_face_offset_mm, plane_sample,
                         [&](std::size_t, const std::vector<cv::Point2d>& pips, const TopFacePips& h) {
          const cv::Point2d at_px = apply_h(mm_to_patch, h.centre_mm);
          const cv::Point2f at(static_cast<float>(at_px.x), static_cast<float>(at_px.y));
          // The first reading already says this, there (within 1.5 mm): it stands, unread again.
          if (h.count == fr.face && nr == want && fr.confidence >= params.pip_look_confidence && cv::norm(at - fc) < 1.5 * ppm) {
            if (debug) std::fprintf(stderr, "FINEPIP %d,%d %s face of %d: the first reading (face %d conf %.2f) stands\n", cell.hex.q, cell.hex.r, want.c_str(), h.count, fr.face, fr.confidence);
            fine_looked = true;
            fine_dark_one = dark_polarity && h.count == 1;
            fine_light_count = dark_polarity ? 0 : static_cast<int>(h.count);
            return true;
          }
          if (cv::norm(at - fc) < 0.5 * ppm) return false;  // already read there
          if (nb != want && nr != want) {
            // Only the token said so: the body round this centre (the patch's pixels within
            // 5 mm, off the dark and light extremes) must be of the die's colour, or this is
            // a blue die's own face (its pips are light too).
            std::vector<cv::Vec3b> px;
            const int rr = cvRound(5.0 * ppm);
            for (int yy = std::max(0, cvRound(at.y) - rr); yy <= std::min(patch.rows - 1, cvRound(at.y) + rr); ++yy)
              for (int xx = std::max(0, cvRound(at.x) - rr); xx <= std::min(patch.cols - 1, cvRound(at.x) + rr); ++xx)
                if (std::hypot(xx - at.x, yy - at.y) <= rr) px.push_back(patch.at<cv::Vec3b>(yy, xx));
            // (exact20) A grey body is named by this look's pip polarity (dark pips: white), not by
            // its lightness: a white top in an arm's shade is 0.74 of its cell's light, "black" by
            // lightness (dev6n 718 (2,-3): a white 3 with its token, read as the token's blue 2).
            const int pol = params.token_look_polarity ? (dark_polarity ? -1 : 1) : 0;
            if (px.empty() || name_color(rel_of(median_bgr(px)), samples, pol) != want) {
              if (debug && !px.empty()) {
                const cv::Vec3f rb = rel_of(median_bgr(px));
                std::fprintf(stderr, "FINEPIP %d,%d %s face of %d: the body round it (%.2f %.2f %.2f) is not %s\n", cell.hex.q, cell.hex.r,
                             want.c_str(), h.count, rb[0], rb[1], rb[2], want.c_str());
              }
              return false;
            }
          }
          // The test a reading there must pass to replace the first one.
          auto agrees = [&](const FaceReading& r2, const std::string& colour) {
            // One pip alone is the weakest evidence (a print mark on the paper, a glare spot on a
            // black top): it must also be at least as sure as the first reading.
            // (exact11) ... or the first reading is not centred on its own pips (their centre
            // one_pip_off_centre_mm or more off its crop's: the crop took in a side face and its
            // pips) while this one is (its pip within half that offset of its crop's centre).
            const double off0 = pip_offset_mm(fr, 16.0 * params.face_crop_scale), off2 = pip_offset_mm(r2, 16.0 * params.face_crop_scale);
            // (exact20) ... but not a sure first reading of this grey with more pips at the face's
            // real size (face_scale_min..max): that square lay on a face, a little off it, and a lone pip of
            // it read there as a 1 at the same confidence (new1 1503 (-3,4): a black 4 at 1.00,
            // its pips 1.5 mm off, read 1 at 1.00). A face with a side face's pip, which this rule
            // is for, is off-size (0.63-0.72 on every set: the side pip lies beyond the face).
            // (robust38) ... unless its pips are off its square (the exception below) and this look
            // found fewer than sure_face_stands_min_pips pips on the top plane at every threshold
            // it tried: the first reading's other pips lay off the top, a side face's.
            const bool off_square = params.one_pip_off_centre_mm > 0 && off0 >= params.one_pip_off_centre_mm && off2 <= 0.5 * off0;
            const bool one_seen = off_square && look_most < static_cast<std::size_t>(std::max(0, params.sure_face_stands_min_pips));
            const bool sure_first = params.sure_face_scale_stands && fr.confidence >= params.fine_keep_sure && r2.face < fr.face && nr == want;
            const bool first_cand = sure_first && !one_seen;
            const double scale0 = first_cand || debug ? scale_at(fr, fc) : 0.0;
            const bool first_real = first_cand && face_scale_ok(scale0);
            const bool first_off = off_square && !first_real;
            if (debug && off_square)
              std::fprintf(stderr, "FIRSTOFF %d,%d face %d conf %.2f off %.1f mm scale %.2f -> face %d conf %.2f off %.1f mm%s\n", cell.hex.q, cell.hex.r,
                           fr.face, fr.confidence, off0, scale0, r2.face, r2.confidence, off2,
                           first_real ? ": the first, at a face's size, stands"
                           : one_seen && sure_first
                           ? ": one pip on the top (sure_face_stands_min_pips), the first does not stand" : "");
            // (exact15) A sure first reading (fine_keep_sure or more) is not replaced by a less
            // sure one of more pips: a spot beside the face (a printed line's corner, an arm's
            // edge) and the face's own pip read as a 2 at 0.84 over a 1 at 1.00.
            const bool downgrade = params.fine_keep_sure > 0 && fr.confidence >= params.fine_keep_sure &&
                                   r2.confidence < fr.confidence && !first_off;
            return r2.face == h.count && r2.confidence >= params.pip_look_confidence && colour == want &&
                   (h.count > 1 || r2.confidence >= fr.confidence || first_off) && !downgrade && !first_real;
          };
          if (takes_other_cell(pips, h)) {
            if (debug) std::fprintf(stderr, "FINEPIP %d,%d %s face of %d takes a pip in another cell: not read\n", cell.hex.q, cell.hex.r, want.c_str(), h.count);
            return false;
          }
          FaceReading r2 = read_at(at, params.pip_look_confidence);
          std::string colour = name_color(rel_of(r2.body_bgr), samples, r2.pip_polarity);
          bool agree = agrees(r2, colour);
          if (debug)
            std::fprintf(stderr, "FINEPIP %d,%d %s %zu pips, face of %d (fit %.3f) moved %.1f mm: face %d conf %.2f -> face %d conf %.2f %s%s\n",
                         cell.hex.q, cell.hex.r, want.c_str(), pips.size(), h.count, h.fit, cv::norm(at - fc) / ppm, fr.face,
                         fr.confidence, r2.face, r2.confidence, colour.c_str(), agree ? " agree" : "");
          // (exact17) The square is cut at the blob's angle; a blob that is not the top (a
          // glared black top left out, the dark sides taken for it) turns it off the face, and
          // its corners take in the paper beyond the face's edge (dev8 906 (0,-1): a black 5
          // read at 0.30 there). When that reading does not pass, the square turned to the
          // pips' own layout (fine_pip_angle_deg or more off) is read with the same test, and
          // kept with its angle when it passes. Not over a sure first reading (fine_keep_sure
          // or more: its square lay on a face, at the face's angle): a spot beside a white 1
          // and its pip make a 2 whose own square reads it as surely (dev7 818 (-2,5)).
          if (!agree && params.fine_pip_angle_deg > 0 && h.count >= 2 &&
              (params.fine_keep_sure <= 0 || fr.confidence < params.fine_keep_sure)) {
            const float a0 = face_rect.angle;
            const float a1 = static_cast<float>(h.angle_deg + 90.0 * std::round((a0 - h.angle_deg) / 90.0));
            if (std::abs(a1 - a0) >= params.fine_pip_angle_deg) {
              face_rect.angle = a1;
              const FaceReading r3 = read_at(at, params.pip_look_confidence);
              const std::string colour3 = name_color(rel_of(r3.body_bgr), samples, r3.pip_polarity);
              // Two independent counts agree: the pips' layout at the face's real size and the
              // square turned to it, each of fine_pip_angle_agree_pips or more, the die's colour,
              // more sure than the first reading (not a 2: a spot beside a pip makes one).
              // (robust41) Not for a layout completed with a missing pip: its count is not the pips' own.
              const bool counts_agree = params.fine_pip_angle_agree_pips > 0 && h.count >= params.fine_pip_angle_agree_pips && h.missing == 0 &&
                                        r3.face == h.count && colour3 == want && r3.confidence > fr.confidence;
              agree = agrees(r3, colour3) || counts_agree;
              if (debug)
                std::fprintf(stderr, "FINEPIP %d,%d %s face of %d turned %.0f -> %.0f deg: face %d conf %.2f %s%s\n", cell.hex.q,
                             cell.hex.r, want.c_str(), h.count, a0, a1, r3.face, r3.confidence, colour3.c_str(), agree ? " agree" : "");
              if (agree) r2 = r3;
              else face_rect.angle = a0;
            }
          }
          // (robust42) A black face's square read with its light pips only (pip_look_light_only_min_pips).
          if (!agree && !dark_polarity)
            if (const auto again = light_only_again(at, r2, params.pip_look_confidence, h.count, want, agrees)) r2 = again->first, agree = true;
          if (!agree) return false;
          fr = r2, fc = at, fine_looked = true;
          fine_dark_one = dark_polarity && h.count == 1;
          fine_light_count = dark_polarity ? 0 : static_cast<int>(h.count);
          return true;
        }, no_face, 3, drop_params);
        if (fine_looked) break;
      }
    }
    // The other grey (whiteblack3): the look above tries the polarity the die's colour names;
    // a grey die's colour is lightness, and lightness is the light's as much as the die's: a
    // white die whose blob is its own shadow (the square slid over the shadow, its body 0.3-0.6
    // of the white: "black"), a black die glared to a pale grey. A weak grey reading is looked
    // at in the other polarity too, with the same test (as many pips, confident, named that
    // grey with its pips' polarity), and only where no look above found the face.
    if (params.grey_other_polarity && params.pip_look_confidence > 0 && params.fine_pip_look && !fine_looked &&
        fr.confidence < params.grey_other_below) {
      const std::string nb = name_color(rel_of(body), samples), nr = name_color(rel_of(fr.body_bgr), samples, fr.pip_polarity);
      const bool grey_b = nb == "white" || nb == "black", grey_r = nr == "white" || nr == "black";
      if (grey_b && grey_r && nb == nr) {
        const bool dark_polarity = nb == "black";  // the other grey's pips: dark on white
        const std::string want = dark_polarity ? "white" : "black";
        const cv::Vec3f pp = papers[ci];
        const float paper_lum = pp[0] + 2 * pp[1] + pp[2];
        const float thr = static_cast<float>(std::min(0.95, dark_polarity ? params.core_dark_ratio : params.pip_light_ratio) * paper_lum);
        // (robust37) Light pips on a black top lifted towards the paper (grey_other_lifted_low,
        // _high): when a threshold's pips make no face, the next, higher one. In a noisy frame
        // only: the camera's gain that lifts the top lifts the sensor's noise with it.
        std::vector<float> ladder{thr};
        if (!dark_polarity && noisy)
          for (const double r : {params.grey_other_lifted_low, params.grey_other_lifted_high}) {
            const float t = static_cast<float>(std::min(0.95, r) * paper_lum);
            if (r > 0 && t > ladder.back()) ladder.push_back(t);
          }
        // (robust38) A lone light pip is a face there too (grey_other_lifted_one; noisy frames).
        const bool lifted_one = !dark_polarity && noisy && params.grey_other_lifted_one > 0;
        const cv::Point2d c_mm = apply_h(patch_to_mm, centre);
        const double reach_mm = pip_look_reach_mm(params);
        for (std::size_t ti = 0; ti < ladder.size() && !fine_looked; ++ti) {
          const float t = ladder[ti];
          if (debug && ti > 0)
            std::fprintf(stderr, "GREYLIFTED %d,%d no face in light pips above %.2f of the paper: above %.2f\n", cell.hex.q, cell.hex.r,
                         ladder[ti - 1] / paper_lum, t / paper_lum);
          // (The look above's sampling of this disc when it made one: fine_sample.)
          const std::vector<cv::Point2d> pips = find_plane_pips(image, ht, c_mm, reach_mm, dark_polarity, std::vector<float>{t},
                                                                displacement[ci], PlanePipParams{}, &fine_sample)[0];
          if (debug) {
            std::fprintf(stderr, "GREYPIPS %d,%d thr %.2f %zu pips:", cell.hex.q, cell.hex.r, t / paper_lum, pips.size());
            for (const auto& p : pips) std::fprintf(stderr, " (%.1f %.1f)", p.x - c_mm.x, p.y - c_mm.y);
            std::fprintf(stderr, "\n");
          }
          int tried = 0;
          for (const TopFacePips& h : top_face_hypotheses(pips, displacement[ci], 16.0, 0, noisy ? params.pip_look_missing_pip_fit : 0.0)) {
            // Two pips at least: one dark spot is a shadow's edge or a print mark as often as a 1.
            // (robust38) ... but for a lifted black top's lone light pip (grey_other_lifted_one):
            // the only light spot on the top in a noisy frame, read as a black 1 surely.
            const bool lone_one = h.count == 1 && lifted_one && pips.size() == 1;
            if ((h.count < 2 && !lone_one) || cv::norm(h.centre_mm - c_mm) > params.max_face_offset_mm || tried >= 2) continue;
            ++tried;
            const cv::Point2d at_px = apply_h(mm_to_patch, h.centre_mm);
            const cv::Point2f at(static_cast<float>(at_px.x), static_cast<float>(at_px.y));
            FaceReading r2 = read_at(at, std::max(params.pip_look_confidence, fr.confidence));
            std::string colour = name_color(rel_of(r2.body_bgr), samples, r2.pip_polarity);
            auto agrees = [&](const FaceReading& r, const std::string& c) {
              return r.face == h.count && r.confidence >= params.pip_look_confidence && c == want && r.confidence > fr.confidence &&
                     (!lone_one || r.confidence >= params.grey_other_lifted_one);
            };
            bool agree = agrees(r2, colour);
            // (robust42) A black face's square read with its light pips only (pip_look_light_only_min_pips).
            if (!agree && !dark_polarity)
              if (const auto again = light_only_again(at, r2, std::max(params.pip_look_confidence, fr.confidence), h.count, want, agrees))
                r2 = again->first, colour = again->second, agree = true;
            if (debug && h.missing > 0)
              std::fprintf(stderr, "GREYMISSING %d,%d %zu %s pips, a %d less one pip at %.1f %.1f (fit %.3f)\n", cell.hex.q, cell.hex.r, pips.size(),
                           dark_polarity ? "dark" : "light",
                           h.count, h.centre_mm.x - c_mm.x, h.centre_mm.y - c_mm.y, h.fit);
            if (debug && lone_one)
              std::fprintf(stderr, "GREYONE %d,%d the top's one light pip above %.2f of the paper: black 1 if read at %.2f or more\n",
                           cell.hex.q, cell.hex.r, t / paper_lum, params.grey_other_lifted_one);
            if (debug)
              std::fprintf(stderr, "GREYPIP %d,%d %s %zu pips, face of %d moved %.1f mm: face %d conf %.2f -> face %d conf %.2f %s%s\n",
                           cell.hex.q, cell.hex.r, want.c_str(), pips.size(), h.count, cv::norm(at - fc) / ppm, fr.face, fr.confidence,
                           r2.face, r2.confidence, colour.c_str(), agree ? " agree" : "");
            if (agree) {
              fr = r2, fc = at, fine_looked = true;
              break;
            }
          }
        }
      }
    }
    if (params.pip_look_confidence > 0 && !fine_looked) {
      const std::string nb = name_color(rel_of(body), samples), nr = name_color(rel_of(fr.body_bgr), samples, fr.pip_polarity);
      for (const bool dark_polarity : {true, false}) {
        const std::string want = dark_polarity ? "white" : "black";
        if (nb != want && nr != want) continue;
        std::vector<cv::Point2d> pips;
        if (dark_polarity) {
          pips = dark_pips(true);
        } else {
          // Light pips: pixels brighter than pip_light_ratio x the paper inside the die's
          // region with its holes filled (a white pip is paper-like: a hole in "not paper").
          cv::Mat filled = die_region.clone();
          fill_holes(filled);
          const cv::Vec3f pp = papers[ci];
          const float light_lum = static_cast<float>(params.pip_light_ratio) * (pp[0] + 2 * pp[1] + pp[2]);
          pips = pip_blobs(near_centre_mask(filled, light_lum, true, LumWhere::Set), true);
        }
        // A lone light blob on a black die may be a glare spot: two at least.
        if (!dark_polarity && pips.size() < 2) continue;
        const std::optional<cv::Point2d> m = pips_face_centre(pips);
        if (!m) continue;
        const cv::Point2f at(static_cast<float>(m->x), static_cast<float>(m->y));
        if (cv::norm(at - fc) < 0.25 * ppm) continue;  // already read there
        const FaceReading r2 = read_at(at, std::max(params.pip_look_confidence, fr.confidence));
        bool agree = r2.face == static_cast<int>(pips.size());
        // (exact21) Not a reading off the face's size over one at it (pip_look_scale_stands).
        const bool would = agree && r2.confidence >= params.pip_look_confidence && r2.confidence >= fr.confidence &&
                           (fr.face != r2.face || r2.confidence > fr.confidence);
        const bool off_size_over_real = would && params.pip_look_scale_stands && off_size_replaces_real(fr, fc, r2, at);
        if (debug)
          std::fprintf(stderr, "PIPLOOK %d,%d %s %zu pips moved %.1f mm: face %d conf %.2f -> face %d conf %.2f%s\n", cell.hex.q,
                       cell.hex.r, want.c_str(), pips.size(), cv::norm(at - fc) / ppm, fr.face, fr.confidence, r2.face,
                       r2.confidence, off_size_over_real ? ": off the face's size, the first at it stands" : would ? " agree" : "");
        if (would && !off_size_over_real) {
          fr = r2, fc = at;
          break;
        }
      }
    }
    // Coloured dice: the blob's body colour may be washed towards the paper (a die at high
    // tilt whose blob takes in the paper beyond the top's far edge, a neighbour's tint), so
    // its top mask spreads over that paper and the square slides half off the top face
    // (against d): the crop then shows the top's pips and the face's edge or a side pip.
    // The crop's own body colour (read_face's median without the pips) is the die's when
    // the square is mostly on it. The pixels of that colour (pips filled) are the top face:
    // when the square covers too little of them, it is slid again over them and the face
    // read there; that reading is kept when it is of the same colour, covers more of the
    // top and is confident enough.
    laps.enter(&ReadProfile::cell_cover_ms);
    double square_cover = 1.0;  // the final square's cover of the die's lit top colour (coloured dice)
    if (params.colour_cover_min > 0) {
      const std::string nf = name_color(rel_of(fr.body_bgr), samples);
      const BuiltinColor nf_builtin = builtin_color(rel_of(fr.body_bgr));  // nf's, when samples is empty
      if (nf != "white" && nf != "black") {
        // The die's pixels of that colour (by name, relative to the white reference), the
        // lit ones: at least colour_cover_lum x the 80th percentile of their luminance (the
        // top faces the light; its sides are darker), pips filled.
        // (Naming every pixel of the die costs ~0.1 ms a die: the square's own pixels are
        // named first, and the whole die only when they cover too little.)
        auto colour_mask = [&](const cv::Mat& where) {
          cv::Mat cm(patch.size(), CV_8U, cv::Scalar(0));
          std::vector<int> lum_hist(1021, 0);
          int n_named = 0;
          std::vector<uchar> hit_row;  // (speed31) builtin_color_row's hits of one row
          for (int y = 0; y < patch.rows; ++y) {
            const uchar* in = where.ptr<uchar>(y);
            const cv::Vec3b* pp = patch.ptr<cv::Vec3b>(y);
            uchar* o = cm.ptr<uchar>(y);
            if (samples.empty()) {
              // (speed31) The same test as below, a row at a time (8 pixels a step in AVX2).
              hit_row.resize(static_cast<std::size_t>(patch.cols));
              builtin_color_row(reinterpret_cast<const uchar*>(pp), in, patch.cols, cwhite, nf_builtin, hit_row.data());
              for_each_set(hit_row.data(), patch.cols, [&](int x) {
                const cv::Vec3b v = pp[x];
                o[x] = 255, ++n_named, ++lum_hist[static_cast<std::size_t>(v[0] + 2 * v[1] + v[2])];
              });
              continue;
            }
            for_each_set(in, patch.cols, [&](int x) {
              const cv::Vec3b v = pp[x];
              const cv::Vec3f rel_px(v[0] / cwhite[0], v[1] / cwhite[1], v[2] / cwhite[2]);
              // With samples only (without them the row test above took the row).
              if (name_color(rel_px, samples) != nf) return;
              o[x] = 255, ++n_named, ++lum_hist[static_cast<std::size_t>(v[0] + 2 * v[1] + v[2])];
            });
          }
          if (n_named > 0) {
            int l80 = 0;
            for (int acc = 0; l80 < 1020 && (acc += lum_hist[static_cast<std::size_t>(l80)]) < 0.8 * n_named;) ++l80;
            const int lmin = cvRound(params.colour_cover_lum * l80);
            for (int y = 0; y < patch.rows; ++y) {
              const cv::Vec3b* pp = patch.ptr<cv::Vec3b>(y);
              uchar* o = cm.ptr<uchar>(y);
              for_each_set(o, patch.cols, [&](int x) {
                if (pp[x][0] + 2 * pp[x][1] + pp[x][2] < lmin) o[x] = 0;
              });
            }
            morph(cm, cm, cv::MORPH_OPEN, open_k);
            fill_holes(cm);
          }
          return cm;
        };
        auto square_at = [&](cv::Point2f at, float angle_deg) {
          cv::Mat sq(patch.size(), CV_8U, cv::Scalar(0));
          cv::Point2f v[4];
          cv::RotatedRect(at, cv::Size2f(static_cast<float>(side), static_cast<float>(side)), angle_deg).points(v);
          std::vector<cv::Point> pv;
          for (const auto& q : v) pv.emplace_back(cvRound(q.x), cvRound(q.y));
          cv::fillConvexPoly(sq, pv, cv::Scalar(255));
          return sq;
        };
        cv::Mat cm;
        auto cover_of = [&](const cv::Mat& sq) {
          const int n = cv::countNonZero(sq);
          return n > 0 ? cv::countNonZero(sq & cm) / static_cast<double>(n) : 0.0;
        };
        auto cover = [&](cv::Point2f at, float angle_deg) { return cover_of(square_at(at, angle_deg)); };
        double cov0 = 0;
        {
          // (speed41) The square at (fc, angle) drawn once (it was drawn three times, once for
          // the mask and once a cover), and its cover counted again only when cm was made anew.
          const cv::Mat sq0 = square_at(fc, face_rect.angle);
          cm = colour_mask(die_region & sq0);
          cov0 = cover_of(sq0);
          if (cov0 < params.colour_cover_min) cm = colour_mask(die_region), cov0 = cover_of(sq0);
        }
        if (debug && !(cov0 < params.colour_cover_min && cv::countNonZero(cm) >= 0.3 * unit_area))
          std::fprintf(stderr, "TOPCOVER %d,%d %s cover %.2f of %.2f units: not slid\n", cell.hex.q, cell.hex.r, nf.c_str(), cov0, cv::countNonZero(cm) / unit_area);
        // (Too few pixels of the colour: no top to slide over; an empty mask has no angle.)
        if (cov0 < params.colour_cover_min && cv::countNonZero(cm) >= 0.3 * unit_area) {
          const cv::RotatedRect rect0 = face_rect;
          const cv::Point2f fc0 = fc;
          locate(fr.body_bgr, false, face_rect, fc, &cm);
          const double cov1 = cover(fc, face_rect.angle);
          bool keep = false;
          FaceReading r2;
          if (cov1 >= cov0 + params.colour_cover_gain && cov1 >= params.colour_cover_min_after && cv::norm(fc - fc0) >= 0.25 * ppm) {
            r2 = read_at(fc, params.colour_cover_confidence);
            keep = r2.face > 0 && r2.confidence >= params.colour_cover_confidence && name_color(rel_of(r2.body_bgr), samples) == nf;
          }
          if (debug)
            std::fprintf(stderr, "TOPCOVER %d,%d %s cover %.2f -> %.2f moved %.1f mm: face %d conf %.2f -> face %d conf %.2f%s\n", cell.hex.q,
                         cell.hex.r, nf.c_str(), cov0, cov1, cv::norm(fc - fc0) / ppm, fr.face, fr.confidence, r2.face, r2.confidence,
                         keep ? " kept" : "");
          if (keep) fr = r2, square_cover = cov1;
          else face_rect = rect0, fc = fc0, square_cover = cov0;
        } else {
          square_cover = cov0;
        }
      }
    }
    // Coloured dice: their pips at the camera's resolution (exact11). The square is slid over
    // a mask of the top's colour at 2 px/mm, at the mask's minAreaRect angle; a pip at the top's
    // rim notches that mask (the rim is darker, the pip's hole opens to the outside), the angle
    // comes out 10-30 deg off and the slid square sits 2-4 mm off the face: the crop cuts a row
    // of pips and reads, often surely, a face with fewer (a 3 as a 2, a 5 as a 4). A standard
    // layout is centred on its face: the pips of the die's polarity found on the top plane
    // (find_plane_pips, as the white/black dice's look), grouped into layouts at the face's
    // real size (most pips first), say where the face is and how many pips it has. The face is
    // read there; that reading is kept when it counts as many pips (two or more), is at least
    // pip_look_confidence, names the same colour, and either has more pips than the first
    // reading or, when the first was under coloured_pip_look_below, is more confident than it
    // (two independent counts agreeing).
    // (A sure 6 is not looked at: no layout could replace it, see the skip in the visitor.)
    // (exact17) Under the occluder mask too (a whole die beside an arm, its cell on the mask),
    // but there only a layout of coloured_pip_look_occluded_pips or more pips replaces the
    // reading, and an agreeing one does not raise it (the occluder gate decides on its own).
    if (params.coloured_pip_look_below > 0 && params.pip_look_confidence > 0 &&
        (covered[ci] != 2 || params.coloured_pip_look_occluded_pips > 0) &&
        (params.coloured_pip_look_near_hand || !near_hand[ci]) &&
        (fr.confidence < params.coloured_pip_look_below || square_cover < params.colour_cover_min) &&
        !(fr.face >= 6 && !(fr.confidence < params.coloured_pip_look_below))) {
      const std::string nf = name_color(rel_of(fr.body_bgr), samples);
      const int pol = coloured_pip_polarity(nf);
      const cv::Vec3f bb = fr.body_bgr, pp = papers[ci];
      const float body_lum = bb[0] + 2 * bb[1] + bb[2], paper_lum = pp[0] + 2 * pp[1] + pp[2];
      std::vector<float> thr;
      if (pol > 0 && body_lum < static_cast<float>(params.coloured_pip_look_body_max) * paper_lum) {
        // Light pips (white, lit as the paper) on a darker body: islands above the body's
        // luminance by half, then by a third, of the way to the paper's.
        for (const float f : {0.5f, 0.35f}) thr.push_back(body_lum + f * (paper_lum - body_lum));
      } else if (pol < 0) {
        // Dark pips on a yellow body.
        for (const float f : {0.6f, 0.75f}) thr.push_back(f * body_lum);
      }
      if (!thr.empty()) {
        const cv::Point2d c_mm = apply_h(patch_to_mm, centre);
        const double reach_mm = pip_look_reach_mm(params);
        // (robust43) A layout of coloured_layout_places_min_pips or more pips whose square, read
        // at its centre, does not agree with it (another count, another colour, or the count below
        // pip_look_confidence: a blurred or dim top, where the lattice finds too few
        // pips or none surely): the square turned to the layout and its nine places looked at; the
        // layout's count is read there when each of its places contrasts with the body in the
        // pips' polarity at least coloured_layout_places_ratio times as much as any other place
        // (coloured_layout_places_shown of the nine on the body), at coloured_pip_agree_confidence. The face square then
        // stands at the layout's centre and turn, its pips on the layout's places.
        auto layout_places = [&](const std::vector<cv::Point2d>& pips, const TopFacePips& h, cv::Point2f at, const std::string& nf_,
                                 int pol_) {
          if (params.coloured_layout_places_min_pips <= 0 || h.count < params.coloured_layout_places_min_pips || h.count > 6 ||
              h.missing > 0 || covered[ci] == 2 || !(fr.confidence < params.coloured_pip_look_below))
            return false;
          const float a0 = face_rect.angle;
          face_rect.angle = static_cast<float>(h.angle_deg + 90.0 * std::round((a0 - h.angle_deg) / 90.0));
          const FaceReading r3 = read_at(at, 0);
          const cv::Mat crop = crop_at(at);
          const double side_mm = 16.0 * params.face_crop_scale;
          const cv::Matx33d to_crop = face_crop_to_mm(apply_h(patch_to_mm, {at.x, at.y}), face_rect.angle, side_mm, kFaceCropPx).inv();
          std::vector<cv::Point2d> pips_px;
          for (const cv::Point2d& q : pips)
            if (cv::norm(q - h.centre_mm) <= kFaceReachMm && !(h.dropped > 0 && cv::norm(q - h.dropped_mm) < 1e-9))
              pips_px.push_back(apply_h(to_crop, q));
          const LayoutPlaces lp = static_cast<int>(pips_px.size()) == h.count ? look_at_layout_places(crop, r3.body_bgr, pol_, pips_px, side_mm)
                                                                              : LayoutPlaces{};
          const bool clear = lp.mask != 0 && lp.shown >= params.coloured_layout_places_shown && lp.weakest > 0 &&
                             lp.weakest >= params.coloured_layout_places_ratio * std::max(0.0, lp.strongest) &&
                             name_color(rel_of(r3.body_bgr), samples) == nf_;
          if (debug) {
            std::fprintf(stderr, "COLPLACES %d,%d %s face of %d turned %.0f -> %.0f deg: %zu pips placed, places ", cell.hex.q, cell.hex.r,
                         nf_.c_str(), h.count, a0, face_rect.angle, pips_px.size());
            for (int k = 0; k < 9; ++k) std::fprintf(stderr, "%c", lp.mask >> k & 1 ? 'o' : '.');
            std::fprintf(stderr, " shown %d weakest %.3f strongest other %.3f (read there face %d conf %.2f)%s\n", lp.shown, lp.weakest,
                         lp.strongest, r3.face, r3.confidence, clear ? ": read" : "");
          }
          if (!clear) {
            face_rect.angle = a0;
            return false;
          }
          fr = r3;
          fr.face = h.count;
          fr.confidence = params.coloured_pip_agree_confidence;
          fr.pip_polarity = pol_;
          fr.pips.clear();
          for (int k = 0; k < 9; ++k)
            if (lp.mask >> k & 1) fr.pips.emplace_back(static_cast<float>(lp.at[static_cast<std::size_t>(k)].x), static_cast<float>(lp.at[static_cast<std::size_t>(k)].y));
          fc = at;
          return true;
        };
        // The white/black look's sampling of this disc when it made one (a token's blob read
        // blue gets both looks): the sample is the plane's luminance, whatever the thresholds.
        search_top_faces(image, ht, c_mm, reach_mm, pol < 0, thr, displacement[ci], params.max_face_offset_mm, fine_sample,
                         [&](std::size_t, const std::vector<cv::Point2d>& pips, const TopFacePips& h) {
          const cv::Point2d at_px = apply_h(mm_to_patch, h.centre_mm);
          const cv::Point2f at(static_cast<float>(at_px.x), static_cast<float>(at_px.y));
          // (exact17) Under the occluder: a remnant of a part-covered face makes small layouts.
          if (covered[ci] == 2 && h.count < params.coloured_pip_look_occluded_pips) return false;
          // The first reading says this, there: it stands.
          if (h.count == fr.face && cv::norm(at - fc) < 1.5 * ppm) {
            if (debug) std::fprintf(stderr, "COLPIP %d,%d %s face of %d: the first reading (face %d conf %.2f) stands\n", cell.hex.q, cell.hex.r, nf.c_str(), h.count, fr.face, fr.confidence);
            if (covered[ci] == 2) return true;
            // Two counts agree (a layout of two or more: one spot proves little).
            if (h.count > 1 && fr.confidence < params.coloured_pip_agree_confidence) fr.confidence = params.coloured_pip_agree_confidence;
            return true;
          }
          // (Speed round 12) A layout the test below could never keep (of one pip, of more
          // than a face has, or of no more pips than a sure first reading) is not read.
          if (h.count <= 1 || h.count > 6 || (h.count <= fr.face && !(fr.confidence < params.coloured_pip_look_below))) {
            if (debug) std::fprintf(stderr, "COLPIP %d,%d %s face of %d cannot replace face %d conf %.2f: not read\n", cell.hex.q, cell.hex.r, nf.c_str(), h.count, fr.face, fr.confidence);
            return false;
          }
          if (takes_other_cell(pips, h)) {
            if (debug) std::fprintf(stderr, "COLPIP %d,%d %s face of %d takes a pip in another cell: not read\n", cell.hex.q, cell.hex.r, nf.c_str(), h.count);
            return false;
          }
          if (takes_token_pip(pips, h)) {
            if (debug) std::fprintf(stderr, "COLPIP %d,%d %s face of %d takes the guard token's pip: not read\n", cell.hex.q, cell.hex.r, nf.c_str(), h.count);
            return false;
          }
          const FaceReading r2 = read_at(at, params.pip_look_confidence);
          const std::string colour = name_color(rel_of(r2.body_bgr), samples, r2.pip_polarity);
          // One spot is a print mark, a glare spot or a guard token's pip as often as a die's:
          // a layout of one never replaces a reading here. A layout of as many pips or fewer
          // replaces only an unsure first reading (a sure 4 whose square merely covered little
          // of its colour was moved 4.9 mm onto its guard token and read as that token's 1).
          // (exact27) ... or the first reading is a token's blue 1 and this a sure other die's face.
          // (exact43) ... or a blue reading of up to token_other_die_max_face pips (the token's pip read
          // with one of the die's on a square between them).
          const bool token_few = params.token_one_other_die > 0 && covered[ci] != 2 && fr.face >= 1 && fr.face <= params.token_other_die_max_face && nf == "blue" &&
                                 (colour == "black" || colour == "white") && r2.confidence >= params.token_one_other_die;
          // (robust38) ... or, in a noisy frame, a sure black face of three pips or more over an unsure first reading.
          const bool grey_die = params.coloured_pip_grey_confidence > 0 && noisy && pol > 0 && covered[ci] != 2 && h.count >= 3 &&
                                colour == "black" && r2.confidence >= params.coloured_pip_grey_confidence &&
                                fr.confidence < params.coloured_pip_look_below;
          if (debug && grey_die && r2.face == h.count)
            std::fprintf(stderr, "COLPIPGREY %d,%d %s look's face of %d read black at %.2f: the die is black\n", cell.hex.q, cell.hex.r,
                         nf.c_str(), h.count, r2.confidence);
          const bool agree = r2.face == h.count && r2.confidence >= params.pip_look_confidence && (colour == nf || token_few || grey_die) &&
                             h.count > 1 &&
                             (h.count > fr.face ||
                              (r2.confidence > fr.confidence && fr.confidence < params.coloured_pip_look_below));
          // (exact18) The layout is part of the face (its other pips under glare): a sure
          // reading there of more pips replaces an unsure first one.
          const bool more = !agree && params.coloured_pip_more_sure > 0 && covered[ci] != 2 && h.count > 1 && r2.face > h.count &&
                            r2.confidence >= params.coloured_pip_more_sure && colour == nf &&
                            fr.confidence < params.coloured_pip_look_below && r2.confidence > fr.confidence;
          if (debug)
            std::fprintf(stderr, "COLPIP %d,%d %s %zu pips, face of %d (fit %.3f) moved %.1f mm: face %d conf %.2f -> face %d conf %.2f %s%s\n",
                         cell.hex.q, cell.hex.r, nf.c_str(), pips.size(), h.count, h.fit, cv::norm(at - fc) / ppm, fr.face,
                         fr.confidence, r2.face, r2.confidence, colour.c_str(), agree ? " agree" : more ? " more, sure" : "");
          if (!agree && !more && layout_places(pips, h, at, nf, pol)) return true;
          if (!agree && !more) return false;
          fr = r2, fc = at;
          return true;
        });
      }
    }
    laps.enter(&ReadProfile::cell_retry_ms);
    const double ang = face_rect.angle * CV_PI / 180;
    const double first_confidence = fr.confidence;
    // A top face found only with the shadow-coloured pixels kept (dark or grey dice) must
    // show a readable pip layout: a soft or grainy shadow on the paper does not.
    // (On the first reading: the retries below look for the best square on a die, they
    // would also find some pip-like layout in a shadow.) Decided before the retries, which
    // cannot change it: under a hand's shadow most cells were read six times for nothing.
    if (via_shadow && first_confidence < params.shadow_unit_min_confidence) {
      // (exact13) A white die on paper of its own colour, its blob its sides and shadow: that
      // blob rings a hole of a top face's size, the paper-coloured top. One dark pip at the
      // hole's centre read there as a white 1 is that die (a lone dark spot elsewhere, grain
      // or print, is no 1: the white pip looks need two pips).
      // The face crop at m_mm (top-plane mm) read as a white 1 at min_conf or more: reported.
      auto white_one_at = [&](const cv::Point2d& m_mm, double ang_deg, double min_conf) {
        const cv::Mat crop = cut_face_crop(image, ht, m_mm, ang_deg, 16.0 * params.face_crop_scale);
        const FaceReading r1 = read_face(crop, face_params, min_conf);
        const std::string colour = name_color(rel_of(r1.body_bgr), samples, r1.pip_polarity);
        if (debug) std::fprintf(stderr, "WHITE1 %d,%d face %d conf %.2f %s\n", cell.hex.q, cell.hex.r, r1.face, r1.confidence, colour.c_str());
        if (r1.face != 1 || r1.confidence < min_conf || colour != "white") return false;
        CellObservation co;
        co.hex = cell.hex;
        co.face = 1;
        co.color = colour;
        co.confidence = r1.confidence;
        co.guard = token_guard();
        reported_polarity[ci] = r1.pip_polarity;
        obs.cells.push_back(co);
        return true;
      };
      if (params.white_one_in_hole > 0 && covered[ci] != 2) {
        cv::Mat filled = die_region.clone();
        fill_holes(filled);
        const cv::Mat hole = filled & ~die_region;
        cv::Mat hl, hs2, hc;
        const int hn = components_with_stats(hole, hl, hs2, hc);
        int big = -1;
        for (int i = 1; i < hn; ++i)
          if (big < 0 || hs2.at<int>(i, cv::CC_STAT_AREA) > hs2.at<int>(big, cv::CC_STAT_AREA)) big = i;
        const double h_area = big > 0 ? hs2.at<int>(big, cv::CC_STAT_AREA) : 0;
        // The dark pips inside that hole (a side face's pips are on the blob, not in it).
        std::vector<cv::Point2d> pips;
        for (const cv::Point2d& q : dark_pips()) {
          const int qx = cvRound(q.x), qy = cvRound(q.y);
          if (big > 0 && qx >= 0 && qy >= 0 && qx < hl.cols && qy < hl.rows && hl.at<int>(qy, qx) == big) pips.push_back(q);
        }
        if (debug) std::fprintf(stderr, "HOLE %d,%d largest hole %.2f units, %zu dark pips in it\n", cell.hex.q, cell.hex.r, h_area / unit_area, pips.size());
        if (big > 0 && h_area >= 0.6 * unit_area && h_area <= 1.4 * unit_area && pips.size() == 1) {
          const cv::Point2d hcen(hc.at<double>(big, 0), hc.at<double>(big, 1));
          if (cv::norm(pips[0] - hcen) <= 0.15 * face_px && cv::norm(pips[0] - centre) <= params.max_face_offset_mm * ppm) {
            std::vector<cv::Point> hp_pts;
            cv::findNonZero(hl == big, hp_pts);
            if (debug)
              std::fprintf(stderr, "HOLE1 %d,%d hole %.2f units, pip %.1f mm off its centre\n", cell.hex.q, cell.hex.r, h_area / unit_area,
                           cv::norm(pips[0] - hcen) / ppm);
            if (white_one_at(apply_h(patch_to_mm, pips[0]), cv::minAreaRect(hp_pts).angle, params.white_one_in_hole)) continue;
          }
        }
      }
      // (robust34) ... or whose lone dark pip near the top's place has a face round it of the
      // paper's colour (white_one_lone_pip: a white 1's top), when that blob rings no hole: a
      // white 1 in a dim, shaded frame whose grey top is one with the paper and whose blob is
      // its two dark sides, open towards the camera (harsh5 3407 (0,-5)).
      if (params.white_one_lone_pip_shadow > 0 && lone_white_one[ci] && covered[ci] != 2) {
        if (debug) std::fprintf(stderr, "LONE1 %d,%d its lone dark pip read again as a white 1's top\n", cell.hex.q, cell.hex.r);
        if (white_one_at(lone_pip_mm[ci], face_rect.angle, params.white_one_lone_pip_shadow)) continue;
      }
      if (debug) std::fprintf(stderr, "SKIP %d,%d shadowconf (conf %.2f)\n", cell.hex.q, cell.hex.r, first_confidence);
      note_occluded(ci, "found only with its shadow pixels, face too weak");
      continue;
    }
    // A doubtful reading: the face square may be a little off (its position is known to
    // about a patch pixel). Read again at the top mask's own centre and at fc moved by
    // retry_shift_mm along the die's axes; keep the most confident reading.
    if (fr.confidence < params.retry_confidence) {
      const float st = static_cast<float>(params.retry_shift_mm * ppm);
      const float cx = static_cast<float>(std::cos(ang)), sx = static_cast<float>(std::sin(ang));
      std::vector<cv::Point2f> tries{face_rect.center};
      if (st > 0)
        for (const auto& [u, v] : {std::pair{1.f, 0.f}, {-1.f, 0.f}, {0.f, 1.f}, {0.f, -1.f}})
          tries.emplace_back(fc.x + st * (u * cx - v * sx), fc.y + st * (u * sx + v * cx));
      for (const cv::Point2f& t : tries) {
        if (cv::norm(t - fc) < 0.25 * ppm) continue;
        const FaceReading r2 = read_at(t, fr.confidence, true);  // kept only above fr's confidence
        if (r2.confidence > fr.confidence) fr = r2, fc = t;
      }
    }
    // The pips say where the face is: a standard layout is centred on its face, so when
    // the fitted pips' centre is recentre_min_mm or more off the crop's (the crop cut a
    // part of the face, or took in a side), the face is read again centred on them, up
    // to recentre_steps times, while that stays where a die can stand; a re-reading is
    // kept when its own pips are better centred and it is about as confident.
    const double px_per_crop = side * params.face_crop_scale / kFaceCropPx;  // patch px per crop px
    const double c0 = (kFaceCropPx - 1) / 2.0, ca = std::cos(ang), sa = std::sin(ang);
    auto pip_offset = [&](const FaceReading& r) {  // patch px
      if (r.face <= 0 || r.pips.empty()) return cv::Point2d(0, 0);
      cv::Point2d m(0, 0);
      for (const auto& q : r.pips) m += cv::Point2d(q.x - c0, q.y - c0);
      m *= px_per_crop / static_cast<double>(r.pips.size());
      return cv::Point2d(ca * m.x - sa * m.y, sa * m.x + ca * m.y);
    };
    // (exact19) A weak reading (under weak_recentre_below: the component counter's capped
    // fallback, hidden beside a hand) whose fitted pips are centred weak_recentre_min_mm to
    // weak_recentre_max_mm off the square (the square slid a little off the face, its far edge
    // beyond the face's rim: the paper or a glared edge there made peaks the lattice could not
    // explain) is read again centred on those pips; kept when that reading counts the same pips
    // (two positions of the square agree on the count), is more confident, and its own pips are
    // better centred. A larger offset is another face's place, not a square a little off (a
    // covered die's remnant read there as a sure 1). dev10 1100 (1,-1): a glared green 6, its
    // pips 1.1 mm off, read 6 at 0.30; centred on them 6 at 0.68. Only a face of
    // weak_recentre_min_pips or more: any two dark or light spots (an arm's grain under the
    // occluder) make a 2, and such a 2 read again there came out surer. 0 = off.
    // (exact21) A face of 1 too, off the occluder mask (weak_recentre_one).
    auto weak_one_recentred = [&](int face, int cover) { return params.weak_recentre_one && face == 1 && cover != 2; };
    if (params.weak_recentre_below > 0 && fr.confidence < params.weak_recentre_below && fr.face > 0 &&
        (fr.face >= params.weak_recentre_min_pips || weak_one_recentred(fr.face, covered[ci]))) {
      const cv::Point2d off = pip_offset(fr);
      const cv::Point2f t(static_cast<float>(fc.x + off.x), static_cast<float>(fc.y + off.y));
      if (cv::norm(off) >= params.weak_recentre_min_mm * ppm && cv::norm(off) <= params.weak_recentre_max_mm * ppm &&
          (params.max_face_offset_mm <= 0 || cv::norm(cv::Point2d(t) - centre) <= params.max_face_offset_mm * ppm)) {
        const FaceReading r2 = read_at(t, fr.confidence, true);  // kept only above fr's confidence
        // (A face of 1: one spot proves little, so its reading there must be sure, fine_keep_sure:
        // an empty cell's grey blob read 1 at 0.30 was read 1 at 0.50 centred on its spot, new1 1527 (3,0).)
        const bool keep = r2.face == fr.face && r2.confidence > fr.confidence && cv::norm(pip_offset(r2)) < cv::norm(off) &&
                          (fr.face >= params.weak_recentre_min_pips || r2.confidence >= params.fine_keep_sure);
        if (debug)
          std::fprintf(stderr, "WEAKCENTRE %d,%d by %.1f mm: face %d conf %.2f -> face %d conf %.2f off %.1f mm%s\n", cell.hex.q,
                       cell.hex.r, cv::norm(off) / ppm, fr.face, fr.confidence, r2.face, r2.confidence, cv::norm(pip_offset(r2)) / ppm,
                       keep ? ": kept" : "");
        if (keep) fr = r2, fc = t;
      }
    }
    if (params.recentre_min_mm > 0) {
      for (int step = 0; step < params.recentre_steps; ++step) {
        const cv::Point2d off = pip_offset(fr);
        if (cv::norm(off) < params.recentre_min_mm * ppm) break;
        const cv::Point2f t(static_cast<float>(fc.x + off.x), static_cast<float>(fc.y + off.y));
        if (params.max_face_offset_mm > 0 && cv::norm(cv::Point2d(t) - centre) > params.max_face_offset_mm * ppm) break;
        const FaceReading r2 = read_at(t, 0.7 * fr.confidence);
        if (debug)
          std::fprintf(stderr, "RECENTRE %d,%d by %.1f mm: face %d conf %.2f -> face %d conf %.2f off %.1f mm\n", cell.hex.q,
                       cell.hex.r, cv::norm(off) / ppm, fr.face, fr.confidence, r2.face, r2.confidence,
                       cv::norm(pip_offset(r2)) / ppm);
        if (r2.face <= 0 || cv::norm(pip_offset(r2)) >= cv::norm(off) || r2.confidence < 0.7 * fr.confidence) break;
        fr = r2, fc = t;
      }
    }
    if (dump_cell(cell.hex)) {
      cv::Mat vis = patch.clone();
      cv::Point2f v[4];
      cv::RotatedRect(fc, cv::Size2f(static_cast<float>(side), static_cast<float>(side)), face_rect.angle).points(v);
      for (int i = 0; i < 4; ++i) cv::line(vis, v[i], v[(i + 1) % 4], cv::Scalar(0, 255, 0), 1);
      cv::line(vis, centre, centre + d, cv::Scalar(255, 0, 255), 1);
      cv::imwrite("/tmp/rd_face.png", vis);
    }
    // (robust31) A blurred frame's unsure reading read again on its square deblurred
    // (blur_deblur_iterations): the lattice's reading there at its full bar replaces it when sure
    // enough (blur_deblur_min_confidence); the body's colour stays the plain square's.
    bool deblurred = false;
    // The frame's blur in the face crop's pixels (blur_deblur_sigma_scale), and the lattice's
    // reading of the crop at t deblurred by it.
    const double deblur_sigma_px = params.blur_deblur_sigma_scale * frame_blur_mm * kFaceCropPx / (16.0 * params.face_crop_scale);
    auto read_deblurred = [&](const cv::Point2f& t) {
      return read_face_lattice(deblur_crop(crop_at(t), deblur_sigma_px, params.blur_deblur_iterations), face_params);
    };
    if (blurred && params.blur_deblur_iterations > 0 && fr.face > 0 && fr.confidence < params.blur_min_confidence) {
      FaceReading r2 = read_deblurred(fc);
      const bool keep = r2.face > 0 && r2.confidence >= params.blur_deblur_min_confidence;
      if (debug)
        std::fprintf(stderr, "DEBLUR %d,%d sigma %.2f px: face %d conf %.2f -> face %d conf %.2f%s\n", cell.hex.q, cell.hex.r, deblur_sigma_px, fr.face,
                     fr.confidence, r2.face, r2.confidence, keep ? ": kept" : "");
      if (keep) {
        r2.body_bgr = fr.body_bgr;
        fr = r2;
        deblurred = true;
      }
    }
    // (robust35) A 2 whose pips are one side of a larger face (side_pair_scale_min..max of a 2's
    // size: two corners of a 4, 5 or 6 a side apart, not across its diagonal), or a 3 whose pips
    // are a 6's column (in a line, not across the diagonal: the same size): the square moved
    // across the pair (the 3's ends) by half its length (the face's centre lies there, on one side
    // or the other) and read again there (on the square deblurred too in a blurred frame); a
    // reading of 4-6 pips at the face's real size, at least side_pair_min_confidence, with a pip on
    // each of the 2's or the 3's replaces it (the more confident of the two sides).
    if (params.side_pair_min_confidence > 0 && (fr.face == 2 || fr.face == 3) && static_cast<int>(fr.pips.size()) == fr.face) {
      const double s0 = scale_at(fr, fc);
      if (s0 >= params.side_pair_scale_min && s0 <= params.side_pair_scale_max && s0 < params.face_scale_min) {
        const double side_mm = 16.0 * params.face_crop_scale;
        const cv::Mat crop0 = crop_at(fc);
        const std::vector<cv::Point2d> p0 = pips_where_seen(crop0, fr);
        const cv::Matx33d to_mm0 = face_crop_to_mm(apply_h(patch_to_mm, {fc.x, fc.y}), face_rect.angle, side_mm, crop0.cols);
        std::vector<cv::Point2d> ends;  // the reading's pips in mm, its two furthest apart first
        for (const auto& q : p0) ends.push_back(apply_h(to_mm0, q));
        if (ends.size() == 3) {
          const double d01 = cv::norm(ends[0] - ends[1]), d02 = cv::norm(ends[0] - ends[2]), d12 = cv::norm(ends[1] - ends[2]);
          if (d02 >= d01 && d02 >= d12) std::swap(ends[1], ends[2]);
          else if (d12 >= d01 && d12 >= d02) std::swap(ends[0], ends[2]);
        }
        const cv::Point2d a = ends[0], b = ends[1];
        const cv::Point2d mid = 0.5 * (a + b), across(-0.5 * (b.y - a.y), 0.5 * (b.x - a.x));
        const double near_mm = 0.25 * cv::norm(b - a);
        FaceReading best;
        cv::Point2f best_at = fc;
        bool best_deblurred = false;
        for (const int sgn : {1, -1}) {
          const cv::Point2d at_px = apply_h(mm_to_patch, mid + sgn * across);
          const cv::Point2f t(static_cast<float>(at_px.x), static_cast<float>(at_px.y));
          if (params.max_face_offset_mm > 0 && cv::norm(cv::Point2d(t) - centre) > params.max_face_offset_mm * ppm) continue;
          // Its pips at the face's real size and on the pair's.
          auto holds_pair = [&](const FaceReading& r) {
            if (r.face < 4 || static_cast<int>(r.pips.size()) != r.face || r.confidence < params.side_pair_min_confidence) return false;
            const cv::Mat& crop = crop_at(t);
            if (!face_scale_ok(pip_layout_scale(crop, r, side_mm))) return false;
            const cv::Matx33d to_mm = face_crop_to_mm(apply_h(patch_to_mm, {t.x, t.y}), face_rect.angle, side_mm, crop.cols);
            const std::vector<cv::Point2d> seen = pips_where_seen(crop, r);
            int on = 0;
            for (const cv::Point2d& end : ends)
              for (const auto& q : seen)
                if (cv::norm(apply_h(to_mm, q) - end) <= near_mm) {
                  ++on;
                  break;
                }
            return on == static_cast<int>(ends.size());
          };
          FaceReading r2 = read_at(t);
          bool from_deblur = false;
          bool ok = holds_pair(r2);
          if (!ok && blurred && params.blur_deblur_iterations > 0) {
            FaceReading r3 = read_deblurred(t);
            r3.body_bgr = r2.body_bgr;
            if (holds_pair(r3)) r2 = r3, ok = from_deblur = true;
          }
          if (debug)
            std::fprintf(stderr, "SIDEPAIR %d,%d %d conf %.2f scale %.2f, moved %+d: face %d conf %.2f%s%s\n", cell.hex.q, cell.hex.r,
                         fr.face, fr.confidence, s0, sgn, r2.face, r2.confidence, from_deblur ? " deblurred" : "", ok ? ": holds the pair" : "");
          if (ok && r2.confidence > best.confidence) best = r2, best_at = t, best_deblurred = from_deblur;
        }
        if (best.face > 0) fr = best, fc = best_at, deblurred = best_deblurred;
      }
    }
    // (robust36) In a blurred, dim or noisy frame a face of 1-4 whose larger face's other pips
    // show on their places, too faint for the readers (faint_pip_fill_ratio): read as that face.
    if (params.faint_pip_fill_ratio > 0 && (blurred || dim) && fr.face >= 1 && fr.face <= 4 && fr.pip_polarity != 0 &&
        fr.confidence < params.faint_pip_fill_max_confidence &&
        static_cast<int>(fr.pips.size()) == fr.face) {
      const ShownPlaces sp = count_from_shown_places(crop_at(fc), fr, fr.pip_polarity, 16.0 * params.face_crop_scale, false);
      const PipFill fill = faint_pip_fill(sp, fr.face, params.faint_pip_fill_ratio, params.faint_pip_fill_empty, params.faint_pip_fill_min_pip);
      if (debug && sp.read_mask != 0)
        std::fprintf(stderr, "PIPFILL %d,%d %d conf %.2f: %s%.2f%s", cell.hex.q, cell.hex.r, fr.face, fr.confidence,
                     fill.on_layout ? "weakest pip " : "its pips not on its layout's grid, rms ", fill.on_layout ? fill.weakest : sp.rms,
                     fill.face > 0 ? "" : ": no larger face\n");
      if (fill.face > 0) {
        if (debug) std::fprintf(stderr, ", added places %.2f, strongest empty %.2f: face %d\n", fill.added, fill.empty, fill.face);
        for (std::size_t k = 0; k < 9; ++k)
          if ((fill.mask >> k & 1) && !(sp.read_mask >> k & 1)) fr.pips.emplace_back(static_cast<float>(sp.at[k].x), static_cast<float>(sp.at[k].y));
        fr.face = fill.face;
      }
    }
    // (exact20) The final reading's pips' size (face_scale_gate).
    const double final_scale = fr.face >= 2 && (params.face_scale_gate || debug) ? scale_at(fr, fc) : 0.0;
    if (debug) {
      const cv::Point2d img_pt = apply_h(ht * rect_to_mm, {fc.x + roi.x, fc.y + roi.y});
      const cv::Point2d mm_pt = apply_h(rect_to_mm, {fc.x + roi.x, fc.y + roi.y});
      std::fprintf(stderr, "SCALE %d,%d face %d conf %.2f scale %.2f (lattice %.2f) covered %d\n", cell.hex.q, cell.hex.r, fr.face, fr.confidence,
                   final_scale, pip_layout_scale(cv::Mat(), fr, 16.0 * params.face_crop_scale), covered[ci]);
      std::fprintf(stderr, "DBG %d,%d blob %.2f top %.1f %.1f mm %.2f %.2f ang %.1f face %d conf %.2f frbody %.2f %.2f %.2f body %.2f %.2f %.2f white %.0f %.0f %.0f d %.2f %.2f poff %.2f paper %.2f %.2f %.2f pol %d light %.2f %.2f %.2f\n",
                   cell.hex.q, cell.hex.r, unit_area_px / unit_area, img_pt.x, img_pt.y, mm_pt.x, mm_pt.y, face_rect.angle, fr.face, fr.confidence,
                   fr.body_bgr[0] / white[0], fr.body_bgr[1] / white[1], fr.body_bgr[2] / white[2],
                   body[0] / white[0], body[1] / white[1], body[2] / white[2], white[0], white[1], white[2],
                   displacement[ci].x, displacement[ci].y, pip_offset_mm(fr, 16.0 * params.face_crop_scale),
                   papers[ci][0] / white[0], papers[ci][1] / white[1], papers[ci][2] / white[2], fr.pip_polarity,
                   cwhite[0] / white[0], cwhite[1] / white[1], cwhite[2] / white[2]);
    }

    laps.enter(&ReadProfile::cell_guard_ms);
    CellObservation co;
    co.hex = cell.hex;
    co.face = fr.face;
    const cv::Vec3f rel = relative_to_white(fr.body_bgr, cwhite, params.colour_clip_level);
    {
      // Near the grey split the lightness of a glared black or a shaded white top says little;
      // a face read with pips of one polarity says which it is (grey_polarity_band).
      const float mx = std::max({rel[0], rel[1], rel[2]});
      const bool near_split = params.grey_polarity_band > 0 && std::abs(mx - kGreySplit) <= params.grey_polarity_band;
      co.color = name_color(rel, calib ? calib->colors : std::vector<ColorSample>{},
                            near_split && fr.face > 0 ? fr.pip_polarity : 0);
    }
    co.confidence = fr.face > 0 ? fr.confidence : 0.05;
    // The unit's footprint: its top face swept along d (towards its base), grown a little.
    // What differs from the paper outside it is a guard token, a neighbour's side, or,
    // when it is more than hand_rest_area unit faces, something that is not a die at all
    // (a hand or an arm over the cell): then the cell is not reported.
    cv::Mat foot;
    {
      const int kx = cvRound(std::abs(d.x)), ky = cvRound(std::abs(d.y));
      cv::Mat kern(ky + 1, kx + 1, CV_8U, cv::Scalar(0));
      const cv::Point a0(d.x >= 0 ? 0 : kx, d.y >= 0 ? 0 : ky), a1(d.x >= 0 ? kx : 0, d.y >= 0 ? ky : 0);
      cv::line(kern, a0, a1, cv::Scalar(1), 1, cv::LINE_8);
      // Dilation reflects the kernel: anchor at the far end sweeps towards +d.
      cv::Mat square(patch.size(), CV_8U, cv::Scalar(0));
      {
        cv::Point2f v[4];
        cv::RotatedRect(fc, cv::Size2f(static_cast<float>(side * 1.08), static_cast<float>(side * 1.08)), face_rect.angle).points(v);
        std::vector<cv::Point> pv;
        for (const auto& q : v) pv.emplace_back(cvRound(q.x), cvRound(q.y));
        cv::fillConvexPoly(square, pv, cv::Scalar(255));
      }
      morph(square, foot, cv::MORPH_DILATE, kern, a1);
    }
    const cv::Mat rest = fg_raw & ~foot;
    if (params.hand_rest_area > 0 && cv::countNonZero(rest) > params.hand_rest_area * unit_area) {
      if (debug)
        std::fprintf(stderr, "REJ %d,%d rest %.2f\n", cell.hex.q, cell.hex.r, cv::countNonZero(rest) / unit_area);
      continue;
    }
    feet[ci] = {true, cv::Point2d(fc.x + roi.x, fc.y + roi.y), face_rect.angle, d};  // (exact43) guard_other_feet
    // Guard token: a blob of deep blue (the token's body: the pale blue print of a tinted
    // neighbouring cell is blue too, but far less saturated) of about guard size outside
    // the unit's footprint, standing in this cell: its centre, taken back along
    // the parallax (its 10 mm top is seen displaced by 6/16 of d; its sides are mostly in
    // shadow or inside the unit's footprint), within
    // guard_max_offset_mm of the cell centre (a guard stands 6.5-10 mm from it; a
    // neighbour's die or token seen across the cell border is further).
    {
      cv::Mat blue(patch.size(), CV_8U, cv::Scalar(0));
      int n_blue = 0;
      const float min_sat = static_cast<float>(params.guard_min_saturation);
      // The print seen through each pixel: the paper point x - d lies in this cell or a
      // neighbour (a tinted base cell's pale blue): a pixel of that cell's own paper
      // colour is print, not a token.
      std::vector<std::size_t> near_cells;
      for (std::size_t k = 0; k < layout.cells.size(); ++k)
        if (std::pow(layout.cells[k].centre.x - cell.centre.x, 2) + std::pow(layout.cells[k].centre.y - cell.centre.y, 2) <
            std::pow(2.2 * hs, 2))  // no cell centre lies near 2.2 hs (neighbours: 1.73 hs, then 3 hs)
          near_cells.push_back(k);
      const float pd2 = static_cast<float>(params.paper_distance * params.paper_distance);
      const float print_chroma = static_cast<float>(params.guard_print_chroma);
      // The nearest centre (squared distances: no hypot per pixel); (speed41) this cell's at
      // once for a paper point well inside it (register.h).
      std::size_t own_near = near_cells.size();
      std::vector<cv::Point2d> near_centres;
      for (std::size_t j = 0; j < near_cells.size(); ++j) {
        near_centres.emplace_back(layout.cells[near_cells[j]].centre.x, layout.cells[near_cells[j]].centre.y);
        if (near_cells[j] == ci && own_near == near_cells.size()) own_near = j;
      }
      const NearestCentre nearest_cell(std::move(near_centres), own_near);
      auto is_print = [&](int x, int y, const cv::Vec3b& v) {
        const cv::Point2d mm = apply_h(patch_to_mm, {static_cast<double>(x), static_cast<double>(y)}) - displacement[ci];
        // The cell the paper point lies in (ci when no centre is nearer than 1e18 mm).
        const std::size_t j = nearest_cell.nearest(mm);
        const std::size_t under = j < near_cells.size() ? near_cells[j] : ci;
        const cv::Vec3f pp = papers[under];
        const float d0 = v[0] - pp[0], d1 = v[1] - pp[1], d2 = v[2] - pp[2];
        if (d0 * d0 + d1 * d1 + d2 * d2 <= pd2) return true;
        // Or the paper less lit than its estimate (the brightest quarter of the ring): of its
        // chromaticity, shadow_min..1.05 of its brightness (guard_print_chroma).
        if (print_chroma <= 0) return false;
        const float sv = static_cast<float>(v[0] + v[1] + v[2]) + 1e-3f;
        const std::array<float, 3> vf{static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])};
        auto of_paper = [&](const cv::Vec3f& q) { return paper_in_shade(vf, sv, q, params.shadow_min, print_chroma); };
        if (of_paper(pp)) return true;
        // (exact25) Or of the lit paper of its cell's tint (guard_print_tint): the cell's own
        // estimate may be a die's lit top.
        const cv::Vec3f& tp = tint_paper[under];
        return tp[0] + tp[1] + tp[2] > 0 && of_paper(tp);
      };
      // Looked for in the rest and on the grid lines outside the footprint (a printed line is
      // grey: only a token there is blue), so a line across the token does not cut it in two.
      const cv::Mat rest_blue = params.guard_on_grid ? cv::Mat(rest | (fg_on_grid & ~foot)) : rest;
      std::vector<uchar> hit_row;  // (speed31) saturated_blue_row's hits of one row
      for (int y = 0; y < patch.rows; ++y) {
        const uchar* rs = rest_blue.ptr<uchar>(y);
        const cv::Vec3b* pp = patch.ptr<cv::Vec3b>(y);
        uchar* bl = blue.ptr<uchar>(y);
        // Blue (hue 175..300) needs blue above red: most pixels stop there, before the name
        // (which decides). Against the sheet's light, not the cell's shade: a blue die's dark
        // sides in deep shade are no token (own scene 804: two phantom guards against the shade).
        // (speed31) saturated_blue_row: the per-pixel test that was here (blue over red relative
        // to colour_base, then saturated_blue), a row at a time, 8 pixels a step in AVX2.
        hit_row.resize(static_cast<std::size_t>(patch.cols));
        saturated_blue_row(reinterpret_cast<const uchar*>(pp), rs, patch.cols, colour_base, min_sat, hit_row.data());
        for_each_set(hit_row.data(), patch.cols, [&](int x) {
          if (!(params.guard_print_test && is_print(x, y, pp[x]))) bl[x] = 255, ++n_blue;
        });
      }
      if (dump_cell(cell.hex))
        cv::imwrite("/tmp/rd_blue.png", blue), cv::imwrite("/tmp/rd_rest.png", rest_blue);
      if (n_blue >= params.guard_area_min * guard_area) {
        // Pieces of one token (split by a pip, an edge, a line) are joined first.
        if (params.guard_on_grid) morph(blue, blue, cv::MORPH_CLOSE, close_k);
        morph(blue, blue, cv::MORPH_OPEN, open_k);
        cv::Mat gs, gc;
        // (speed42) The blobs' pixels from their runs (runs_mask, component_mask), no labels image.
        static thread_local RunLabels guard_runs, opened_runs;
        const int gn = components_stats_runs(blue, gs, gc, guard_runs);
        // One blob's test (token_blob_ok): a token's size, standing in this cell, solid.
        GuardBlobCell gbc{cell.hex, cv::Point2d(cell.centre.x, cell.centre.y), displacement[ci], {}, rect_to_mm, roi.tl(), patch,
                          colour_base, papers[ci], tint_paper[ci], noisy,
                          apply_h(rect_to_mm, {fc.x + roi.x, fc.y + roi.y}) - cv::Point2d(cell.centre.x, cell.centre.y)};
        for (std::size_t k : near_cells)
          if (k != ci) gbc.near_offsets.emplace_back(layout.cells[k].centre.x - cell.centre.x, layout.cells[k].centre.y - cell.centre.y);
        auto token_blob = [&](const RunLabels& lab, const cv::Mat& st, const cv::Mat& cen, int i, const char* tag, double core_min) {
          return token_blob_ok(gbc, params, guard_area, lab, st, cen, i, tag, core_min, debug);
        };
        // (exact38) An opened blob's bar: guard_opened_core_ratio, or the first bar when it is 0;
        // none when the core test is off (guard_core_ratio 0).
        const double opened_core_min = params.guard_core_ratio <= 0 ? 0.0
                                       : params.guard_opened_core_ratio > 0 ? params.guard_opened_core_ratio
                                                                           : params.guard_core_ratio;
        for (int i = 1; i < gn; ++i) {
          bool ok = token_blob(guard_runs, gs, gc, i, "", params.guard_core_ratio);
          // (exact27) A blob over the cap may be the token joined to the band of its cell's tinted
          // print round a white die, or to a blue die's side: the token is a die's deep blue and a
          // solid 10 mm square, the print pale and the bands thin. The blob's deep pixels
          // (guard_core_saturation), closed, opened with a disc of guard_core_open x the token's
          // side, are tested again, (exact38) their core against guard_opened_core_ratio: no thin
          // band is left after the opening, but the token keeps a stub of what it was joined to.
          if (!ok && params.guard_core_open > 0 && gs.at<int>(i, cv::CC_STAT_AREA) > 2.5 * guard_area) {
            const int k_px = std::max(3, cvRound(params.guard_core_open * params.guard_side_mm * ppm)) | 1;
            const cv::Mat blob = component_mask(guard_runs, i, blue.size());  // (gl == i)
            cv::Mat one = blob.clone(), ss, sc;
            if (params.guard_core_saturation > 0) {
              const float deep = static_cast<float>(params.guard_core_saturation);
              for (int y = 0; y < one.rows; ++y) {
                uchar* o = one.ptr<uchar>(y);
                const cv::Vec3b* pp = patch.ptr<cv::Vec3b>(y);
                for_each_set(o, one.cols, [&](int x) {
                  if (!saturated_blue(cv::Vec3f(pp[x][0] / colour_base[0], pp[x][1] / colour_base[1], pp[x][2] / colour_base[2]), deep)) o[x] = 0;
                });
              }
              morph(one, one, cv::MORPH_CLOSE, close_k);
            }
            morph(one, one, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(k_px, k_px)));
            const int sn = components_stats_runs(one, ss, sc, opened_runs);
            for (int j = 1; j < sn && !ok; ++j) ok = token_blob(opened_runs, ss, sc, j, " (opened)", opened_core_min);
          }
          co.guard = co.guard || ok;
        }
        // (exact43) No token found: the blobs are looked at again after the cell loop, the other dice's
        // footprints taken out (guard_other_feet).
        if (!co.guard && params.guard_other_feet > 0 && gn > 1) guard_again.push_back({ci, std::move(gbc), blue});
      }
    }
    if (co.face == 0) co.face = 1;  // a die is there; its face could not be read (low confidence)
    if (debug && fr.face > 0 && std::getenv("HEXDICE_READ_PLACES")) (void)shown_count_agrees(co, crop_at(fc), fr, params, &cell.hex);
    // (robust28) In a noisy frame: how far its pips stand out of its top (noise_pip_contrast).
    if ((noise_faint_rule || noise_one_contrast_rule || debug || (params.black_pip_contrast_min > 0 && co.color == "black")) && fr.face > 0) {
      const PipContrast pc = pip_contrast(crop_at(fc), fr, die_pip_polarity(co.color), 16.0 * params.face_crop_scale);
      if (pc.measured) pip_contrast_of[ci] = pc.contrast;
      if (debug)
        std::fprintf(stderr, "PIPCONTRAST %d,%d %s %d conf %.2f contrast %.3f (weakest %.3f), %.2f x the grey patch's noise%s\n", cell.hex.q,
                     cell.hex.r, co.color.c_str(), co.face, co.confidence, pc.contrast, pc.min_contrast, grey_noise > 0 ? pc.contrast / grey_noise : 0.0,
                     pc.measured ? "" : " (not measured)");
    }
    // (exact34) A cell at the frame's edge: its die only when the face found has its pip places
    // inside the frame (in_view_face_mm), or else the places inside the frame allow only its count
    // (shown_count_agrees, the places beyond the edge not shown).
    bool face_in_frame = true;  // (exact34) all its pip places inside the frame (an edge cell's face: looked at below)
    if (view_partial[ci]) {
      const double k = 2.0 * params.in_view_face_mm / 16.0;  // side: the face's 16 mm in patch pixels
      cv::Point2f v[4];
      cv::RotatedRect(fc, cv::Size2f(static_cast<float>(k * side), static_cast<float>(k * side)), face_rect.angle).points(v);
      bool whole = true;
      for (const auto& q : v) whole = whole && in_frame(apply_h(ht, apply_h(patch_to_mm, {q.x, q.y})));
      bool shown = false;
      if (!whole && params.occluded_shown_places) {
        const cv::Mat crop = crop_at(fc);
        const cv::Matx33d to_image =
            ht * face_crop_to_mm(apply_h(patch_to_mm, {fc.x, fc.y}), face_rect.angle, 16.0 * params.face_crop_scale, crop.cols);
        const PlaceSeen seen_at = [&](cv::Point2d p, double r) {
          for (const cv::Point2d& o : {cv::Point2d(0, 0), cv::Point2d(r, 0), cv::Point2d(-r, 0), cv::Point2d(0, r), cv::Point2d(0, -r)})
            if (!in_frame(apply_h(to_image, p + o))) return false;
          return true;
        };
        shown = shown_count_agrees(co, crop, fr, params, debug ? &cell.hex : nullptr, seen_at);
      }
      if (debug) std::fprintf(stderr, "VIEWFACE %d,%d %s %d conf %.2f: its pip places %s the frame%s\n", cell.hex.q, cell.hex.r, co.color.c_str(), co.face,
                              co.confidence, whole ? "inside" : "not inside", shown ? ", those inside allow only its count" : "");
      if (!whole && !shown) continue;  // hidden "view" (below)
      view_face_in[ci] = 1;
      face_in_frame = whole;
    }
    if (covered[ci] == 2) {
      // Under the occluder: reported only when beyond doubt, the face read confidently and
      // a body no shadow on the paper has: darker than occluded_dark_ratio x the cell's own
      // paper (a black die: its albedo, whatever the light; a shadow keeps the paper's
      // albedo) or saturated relative to it (a coloured die). A white die in shadow looks
      // like the shadowed paper: it stays hidden.
      const auto [rp0, lum_paper, sat] = body_on_paper(fr.body_bgr, papers[ci]);
      // (exact20) A white top is judged against the light beside the die (light_beside), when
      // that is darker than the cell's paper estimate (its ring's brightest quarter, which under
      // an arm's half-shadow is the ring's lit side).
      float lum = lum_paper;
      double beside = 0;
      if (params.occluded_light_beside_mm > 0) {
        beside = light_beside(image, hp, apply_h(patch_to_mm, {fc.x, fc.y}), papers[ci], params.occluded_light_beside_mm,
                              params.guard_print_chroma > 0 ? params.guard_print_chroma : 0.04);
        if (beside > 0.2 && beside < 1.0) lum = static_cast<float>(lum_paper / beside);
      }
      // Skin is saturated too: a body of skin's hue (hand_hue_min..max) is no die.
      // (exact20) Of skin's hue against the light on the cell (its paper with its print's tint
      // divided out), not against a tinted paper: a grey die on a blue-tinted cell is orange
      // against that paper (dev7n 819 (-2,5), 818 (-2,5), dev5n 616 (-1,4): white dice hidden as skin).
      const bool skin_hue = skin_hued(fr.body_bgr, skin_ref, params);
      // (exact44) A dark, saturated body of skin's hue is a dark-skinned finger (occluded_dark_skin_saturation).
      const bool dark_skin = params.occluded_dark_skin_saturation > 0 && skin_hue && sat >= params.occluded_dark_skin_saturation;
      const bool clean_body = (lum_paper < params.occluded_dark_ratio && !dark_skin) ||
                              (sat > params.occluded_saturation && !skin_hue);
      // A white (or pale) die in the shade: as bright as its cell's own shaded paper, its
      // dark pips (a black die's are light) in a standard layout of two or more read beyond
      // doubt (one dark spot may be grain or a reflection's edge). Against the lit sheet's
      // white its body looks grey or black: a grey body is named white.
      // (exact15) ... and the camera-resolution look, where it saw two or more dark pips, saw
      // some standard layout among them (occluded_white_fine_layout).
      const bool fine_contradicts = params.occluded_white_fine_layout && fine_dark_pips && !fine_dark_layout;
      const bool pale_in_shade = params.occluded_white_min_confidence > 0 && !clean_body && !skin_hue &&
                                 lum >= params.occluded_white_ratio && fr.pip_polarity < 0 && !fine_contradicts;
      // (robust23) ... and not when the camera-resolution look found no dark pip at all there.
      const bool fine_saw_none = params.occluded_white_no_pip && fine_dark_looked && fine_dark_most == 0 && !fine_looked;
      // (exact24) ... a 1 only when its top surrounds its pip: the four pip places beside it along
      // the face's axes (count_from_shown_places, the grid centred on the pip) all show the body, as
      // round a 1's centre pip (4.3 mm away, their rings inside the face's inscribed circle at any
      // turn); a 2 whose second pip the dark-pip look missed has that pip at a corner, the top
      // ending a place beyond it (dev6 717 (3,-2), 716 (3,-2): white dice in the shade read a sure 1).
      auto one_surrounded = [&]() {
        if (!params.occluded_white_one_surrounded) return true;
        FaceReading r = fr;
        r.pip_polarity = -1;
        const ShownPlaces sp = count_from_shown_places(crop_at(fc), r, -1, 16.0 * params.face_crop_scale, false);
        return sp.places[1] != '?' && sp.places[3] != '?' && sp.places[5] != '?' && sp.places[7] != '?';
      };
      const bool white_in_shade = pale_in_shade && (co.face >= 2 || (params.occluded_white_one_fine && co.face == 1 && fine_dark_one && one_surrounded())) &&
                                  co.confidence >= params.occluded_white_min_confidence && !fine_saw_none;
      if (white_in_shade && (co.color == "black" || co.color == "white")) co.color = "white";
      // (exact20) The reading's pips at the face's real size: the square is metric (a 16 mm face
      // on the top plane), so a die's own layout fits it at its size; a face cut by a hand or an
      // arm leaves a part of its pips that the lattice reads as a smaller face (a 6's column of
      // three as a 3, two corners of a 5 as a 2, at 0.72 of the size; dev11 1202 (3,-4), 1205).
      const double scale = final_scale;
      const bool off_size = params.face_scale_gate && scale > 0 && !face_scale_ok(scale);
      // (exact24) A coloured reading's colour over its final square (occluded_colour_cover_min): the
      // share of the square's pixels named the die's colour against the cell's white.
      double colour_cover = -1;
      if ((params.occluded_colour_cover_min > 0 || params.occluded_colour_sure_cover > 0 || params.occluded_colour_full_confidence > 0 || debug) &&
          co.color != "white" && co.color != "black") {
        cv::Mat sq(patch.size(), CV_8U, cv::Scalar(0));
        {
          cv::Point2f v[4];
          cv::RotatedRect(fc, cv::Size2f(static_cast<float>(side), static_cast<float>(side)), face_rect.angle).points(v);
          std::vector<cv::Point> pv;
          for (const auto& q : v) pv.emplace_back(cvRound(q.x), cvRound(q.y));
          cv::fillConvexPoly(sq, pv, cv::Scalar(255));
        }
        const cv::Vec3f& cw = colour_white[ci];
        int n_sq = 0, n_col = 0;
        for (int y = 0; y < patch.rows; ++y) {
          const uchar* in = sq.ptr<uchar>(y);
          const cv::Vec3b* pp = patch.ptr<cv::Vec3b>(y);
          for (int x = 0; x < patch.cols; ++x) {
            if (!in[x]) continue;
            ++n_sq;
            const cv::Vec3b v = pp[x];
            n_col += name_color(cv::Vec3f(v[0] / cw[0], v[1] / cw[1], v[2] / cw[2]), samples) == co.color;
          }
        }
        colour_cover = n_sq > 0 ? static_cast<double>(n_col) / n_sq : 0.0;
      }
      const bool low_cover = params.occluded_colour_cover_min > 0 && colour_cover >= 0 && colour_cover < params.occluded_colour_cover_min;
      // (exact25) A black top lit grey: its face found in light pips at the camera's resolution.
      const bool black_fine = params.occluded_black_fine_min_pips > 0 && co.color == "black" && fine_light_count == co.face &&
                              co.face >= params.occluded_black_fine_min_pips && fr.pip_polarity > 0 && !skin_hue &&
                              sat <= params.occluded_saturation && lum_paper < params.occluded_black_fine_lum &&
                              co.confidence >= params.occluded_min_confidence;
      // (robust45) A sure coloured reading on a grey or skin-hued body the hand stands clear of
      // (occluded_colour_sure_cover): its square of its colour, its pips at the face's size (!off_size
      // below, with face_scale_gate on). Never a body exact44 named a dark finger (dark_skin).
      const bool sure_colour = params.occluded_colour_sure_cover > 0 && !clean_body && colour_cover >= params.occluded_colour_sure_cover &&
                               co.face >= 2 && co.confidence >= params.occluded_colour_sure_confidence && scale > 0 && !under_skin_cell[ci] &&
                               !dark_skin;
      // (exact46) A clean coloured body, deeply saturated against its paper, whose colour covers its
      // square (occluded_colour_full_*): a lower bar, occluded_colour_full_confidence.
      const bool full_colour = params.occluded_colour_full_confidence > 0 && clean_body && !skin_hue &&
                               sat >= params.occluded_colour_full_saturation && colour_cover >= params.occluded_colour_full_cover &&
                               co.confidence >= params.occluded_colour_full_confidence;
      bool ok = ((clean_body && co.confidence >= params.occluded_min_confidence) || full_colour || white_in_shade || black_fine || sure_colour) &&
                !off_size && !low_cover;
      // (exact22) A part-covered face read from the pip places it shows (count_from_shown_places).
      bool shown_count = false;
      if (!ok && params.occluded_shown_places && !off_size && !skin_hue && !low_cover) {
        // white_in_shade's pale body with dark pips, at any confidence (two pips or more).
        const bool pale = pale_in_shade && !fine_saw_none && co.face >= 2 && (co.color == "black" || co.color == "white");
        if (clean_body || pale) {
          shown_count = shown_count_agrees(co, crop_at(fc), fr, params, debug ? &cell.hex : nullptr);
          shown_agreed[ci] = shown_count;
          if (shown_count && pale) co.color = "white";
          ok = shown_count;
        }
      }
      // (exact30) A coloured reading of a part of its face at a smaller size: the count its pips allow in every window.
      // Not on a face the frame's edge cuts: its count would be read from places beyond the edge.
      if (!ok && params.occluded_shown_any_place && off_size && clean_body && !skin_hue && !low_cover && co.color != "white" &&
          co.color != "black" && face_in_frame) {
        const AnyPlacement ap = count_from_any_placement(crop_at(fc), fr, die_pip_polarity(co.color), 16.0 * params.face_crop_scale,
                                                         params.occluded_any_place_on_face, debug, params.occluded_own_pip_ring);
        if (debug) std::fprintf(stderr, "ANYPLACE %d,%d %s %d conf %.2f %s\n", cell.hex.q, cell.hex.r, co.color.c_str(), co.face, co.confidence, ap.why.c_str());
        if (ap.count > 0 && ap.pips >= params.occluded_shown_min_pips) {
          co.face = ap.count;
          ok = shown_count = true;
          regridded[ci] = shown_agreed[ci] = 1;
        }
      }
      if (debug)
        std::fprintf(stderr, "OCCL %d,%d %s face %d conf %.2f (bar %.2f) lum %.2f (beside %.2f) sat %.2f cover %.2f colour %.2f skin %d%d scale %.2f%s -> %s\n", cell.hex.q, cell.hex.r, co.color.c_str(),
                     co.face, co.confidence, params.occluded_min_confidence, lum_paper, beside, sat, square_cover, colour_cover, under_skin_cell[ci], skin_hue, scale,
                     fine_contradicts ? " (fine pips: no layout)" : "", ok ? (shown_count ? "reported (shown places)" : white_in_shade ? "reported (light)" : sure_colour ? "reported (sure colour)" : black_fine && !clean_body ? "reported (black, fine pips)" : full_colour && co.confidence < params.occluded_min_confidence ? "reported (its colour over its square)" : "reported") : "hidden");
      if (!ok) {
        char why[320];
        std::snprintf(why, sizeof why, "occluder: read %s %d conf %.2f body lum %.2f sat %.2f of its paper%s%s%s%s, not beyond doubt",
                      co.color.c_str(), co.face, co.confidence, lum_paper, sat, skin_hue ? " (skin hue)" : "",
                      fine_contradicts ? " (its fine pips in no layout)" : "", off_size ? " (its pips not at a face's size)" : "",
                      low_cover ? " (its colour on too little of its square)" : "");
        obs.hidden_why[cell.hex] = why;
        continue;
      }
      reread_ok[ci] = 1;
    }
    // (exact22) A weak reading beside a hand or an arm (hidden below hand_near_min_confidence):
    // its count looked for in the pip places its face shows.
    if (params.weak_shown_places && params.hand_near_min_confidence > 0 && near_hand[ci] && !shown_agreed[ci] &&
        co.confidence < params.hand_near_min_confidence && co.face >= params.occluded_shown_min_pips)
      shown_agreed[ci] = shown_count_agrees(co, crop_at(fc), fr, params, debug ? &cell.hex : nullptr);
    // (robust26) In a dim frame a weak reading stands only when the lattice (its faint faces at
    // the agreed bar) and the component counter both read its count on its square (not the
    // fallback's reading, capped at fallback_below: the counter's own guess).
    // The lattice's face on this square at a bar (lattice_min_response), each bar read once: the
    // dim look below and robust30's faint gate after it both read the agreed look's lower bar.
    std::vector<std::pair<double, int>> lattice_faces;
    auto lattice_face_at = [&](double bar) {
      for (const auto& [b, f] : lattice_faces)
        if (b == bar) return f;
      FaceParams at = face_params;
      at.lattice_min_response = bar;
      lattice_faces.emplace_back(bar, read_face_lattice(crop_at(fc), at).face);
      return lattice_faces.back().second;
    };
    if (dim && co.confidence < params.dim_min_confidence && co.confidence > face_params.fallback_below) {
      int lattice_face = lattice_face_at(face_params.lattice_min_response);
      if (lattice_face == 0 && params.blur_agreed_min_response > 0) lattice_face = lattice_face_at(params.blur_agreed_min_response);
      const int counter_face = read_face_components(crop_at(fc), face_params).face;
      dim_agreed[ci] = lattice_face == co.face && counter_face == co.face;
      if (debug)
        std::fprintf(stderr, "DIMREAD %d,%d %s %d conf %.2f: lattice %d counter %d%s\n", cell.hex.q, cell.hex.r, co.color.c_str(), co.face,
                     co.confidence, lattice_face, counter_face, dim_agreed[ci] ? ": agreed" : "");
    }
    // (robust31) Not a reading of the deblurred square (blur_deblur_past_faint): the lattice made it
    // there at its full bar; the gate's second look reads the plain square.
    // (robust30) In a blurred or dim frame a reading the lattice makes only at the agreed look's
    // lower bar (blur_agreed_min_response), not at blur_faint_below nor at its own full bar (with
    // blur_faint_below 8: every reading of that look), stands only when its pip places stand clear
    // of its empty ones (faint_places_clear). The lattice is read again only for a reading whose
    // places are not clear.
    std::optional<ShownPlaces> faint_sp;  // the reading's places for faint_places_clear, laid once for both gates below
    auto faint_places = [&]() -> const ShownPlaces& {
      if (!faint_sp) faint_sp = count_from_shown_places(crop_at(fc), fr, die_pip_polarity(co.color), 16.0 * params.face_crop_scale, false);
      return *faint_sp;
    };
    if ((blurred || dim) && params.blur_faint_empty_ratio > 0 && params.blur_agreed_min_response > 0 &&
        params.blur_faint_below > params.blur_agreed_min_response && co.face > 0 && fr.face == co.face &&
        !(deblurred && params.blur_deblur_past_faint)) {
      if (!faint_places_clear(co, faint_places(), params.blur_faint_empty_ratio, debug ? &cell.hex : nullptr)) {
        faint_unclear[ci] = lattice_face_at(std::min(params.blur_faint_below, face_params.lattice_min_response)) != co.face &&
                            lattice_face_at(params.blur_agreed_min_response) == co.face;
        if (debug && faint_unclear[ci])
          std::fprintf(stderr, "FAINT %d,%d %s %d conf %.2f: read only at the lower bar, its places not clear\n", cell.hex.q, cell.hex.r,
                       co.color.c_str(), co.face, co.confidence);
      }
    }
    // (robust34) A reading at or below the component counter's cap (fallback_below: the counter's
    // guess, or a weak lattice reading) in a blurred, dim or noisy frame stands when its pip places
    // stand clear of its empty ones at guess_clear_ratio. Not on a face the frame's edge cuts (its
    // places beyond the edge would count as shown).
    const bool capped_guess = co.face > 0 && fr.face == co.face && face_in_frame && co.confidence <= face_params.fallback_below &&
                              co.confidence >= params.min_die_confidence;
    const auto guess_places_clear = [&](double ratio) {
      return faint_places_clear(co, faint_places(), ratio, debug ? &cell.hex : nullptr, params.guess_clear_min_pip, params.guess_clear_min_shown);
    };
    if ((blurred || dim) && params.guess_clear_ratio > 0 && capped_guess) guess_clear[ci] = guess_places_clear(params.guess_clear_ratio);
    // (exact40) A weak reading beside a hand (hidden "weak" below hand_near_min_confidence) at or
    // below the counter's cap, as above, stands when its pip places stand clear at
    // weak_guess_clear_ratio, in any frame.
    if (params.weak_guess_clear_ratio > 0 && params.hand_near_min_confidence > 0 && near_hand[ci] && !shown_agreed[ci] &&
        co.confidence < params.hand_near_min_confidence && capped_guess) {
      weak_clear[ci] = guess_places_clear(params.weak_guess_clear_ratio);
      if (debug)
        std::fprintf(stderr, "WEAKCLEAR %d,%d %s %d conf %.2f: a guess beside a hand, its places %s\n", cell.hex.q, cell.hex.r, co.color.c_str(),
                     co.face, co.confidence, weak_clear[ci] ? "clear: not hidden as weak" : "not clear");
    }
    // (exact39) In a noisy frame an unsure 1 (noise_one_min_confidence) whose pip places stand clear:
    // the eight round its pip at most noise_one_clear_ratio of its pip's contrast.
    if (noise_one_contrast_rule && co.face == 1 && fr.face == 1 && co.confidence < params.noise_one_min_confidence && face_in_frame) {
      one_clear[ci] = params.noise_one_clear_ratio <= 0 ||
                      faint_places_clear(co, faint_places(), params.noise_one_clear_ratio, debug ? &cell.hex : nullptr);
      // (robust48) ... and guess_clear_min_shown of its nine places show its top (noise_one_colour_contrast's 1s).
      if (params.noise_one_colour_contrast > 0) one_top_seen[ci] = faint_places().shown >= params.guess_clear_min_shown;
    }
    // The weakest pip place and the strongest empty place of the grid laid on the reading's pips,
    // measured once for exact41's and robust44's rules below (both only when the face is read whole).
    std::optional<std::pair<double, double>> places_contrast;
    const auto place_contrast = [&]() -> const std::pair<double, double>& {
      if (!places_contrast) places_contrast = pip_places_contrast(faint_places());
      return *places_contrast;
    };
    // (exact41) In a noisy frame a reading one of whose pip places (the grid laid on its pips) stands
    // out of its top less than noise_pip_place_min: no pip there (hidden "noise" below).
    if (noise_place_rule && co.face > 0 && fr.face == co.face && face_in_frame && faint_places().read_mask != 0) {
      const double weakest = place_contrast().first;
      place_faint[ci] = weakest < params.noise_pip_place_min;
      if (debug)
        std::fprintf(stderr, "NOISEPLACE %d,%d %s %d conf %.2f: weakest pip place %.2f%s\n", cell.hex.q, cell.hex.r, co.color.c_str(), co.face,
                     co.confidence, weakest, place_faint[ci] ? ": no pip there, hidden" : "");
    }
    // (robust44) In a blurred, dim or noisy frame a white reading one of whose empty places stands
    // out of its top more than its weakest pip place (white_empty_over_pip; hidden below).
    if ((blurred || dim || noisy) && params.white_empty_over_pip > 0 && co.color == "white" && co.face > 0 && fr.face == co.face &&
        face_in_frame && faint_places().read_mask != 0) {
      const auto [weakest, strongest_empty] = place_contrast();
      white_empty_dark[ci] = weakest > 0 && strongest_empty > params.white_empty_over_pip * weakest;
      if (debug)
        std::fprintf(stderr, "WHITEEMPTY %d,%d white %d conf %.2f: weakest pip place %.3f, strongest empty place %.3f%s\n", cell.hex.q, cell.hex.r,
                     co.face, co.confidence, weakest, strongest_empty, white_empty_dark[ci] ? ": an empty place darker, hidden" : "");
    }
    reported_polarity[ci] = fr.pip_polarity;
    reported_scale[ci] = regridded[ci] ? 0.0 : final_scale;  // (exact30) its count read at the real size
    // (exact29) A white reading whose dark pips all stand apart from the lone pip that marks a
    // white 1's top (white_one_apart_mm): read as that white 1 in the final filter.
    if (lone_white_one[ci] && params.white_one_apart_mm > 0 && co.color == "white" && fr.face >= 2 && fr.pip_polarity < 0 &&
        static_cast<int>(fr.pips.size()) == fr.face) {
      const cv::Mat& crop = crop_at(fc);
      const cv::Matx33d to_mm = face_crop_to_mm(apply_h(patch_to_mm, {fc.x, fc.y}), face_rect.angle, 16.0 * params.face_crop_scale, crop.cols);
      double nearest = 1e9;
      for (const auto& q : pips_where_seen(crop, fr)) nearest = std::min(nearest, cv::norm(apply_h(to_mm, q) - lone_pip_mm[ci]));
      white_read_apart[ci] = nearest > params.white_one_apart_mm;
      if (debug)
        std::fprintf(stderr, "WHITEONE %d,%d white %d conf %.2f: its nearest pip %.1f mm from the lone pip%s\n", cell.hex.q, cell.hex.r, fr.face,
                     co.confidence, nearest, white_read_apart[ci] ? ": a white 1" : "");
    }
    // (exact26) A 1: how much of its top is seen round its pip, the mean over the eight pip places
    // round it of their rings' share of the body's colour (one_top_shown).
    if (fr.face == 1 && (params.one_top_shown > 0 || debug)) {
      // (count_from_shown_places takes the reading's polarity, or else its colour's.)
      const ShownPlaces sp = count_from_shown_places(crop_at(fc), fr, die_pip_polarity(co.color), 16.0 * params.face_crop_scale, false, ring_avg);
      const double mean = sp.top_round;
      one_top[ci] = mean;
      // (robust47) ... a 1 off the skin mask whose top is not all shown but whose eight empty places
      // are clear of its pip (one_top_clear_ratio): the top is there round it, its rings too dark
      // or too grainy for the body's colour.
      const auto [weakest, strongest_empty] = pip_places_contrast(sp);
      one_top_clear[ci] = params.one_top_clear_ratio > 0 && !under_skin_cell[ci] && sp.read_mask != 0 && mean >= params.one_top_clear_min && weakest >= params.one_top_clear_min_pip &&
                          strongest_empty <= params.one_top_clear_ratio * weakest;
      if (debug)
        std::fprintf(stderr, "ONETOP %d,%d %s 1 conf %.2f top round its pip %.2f: its pip %.2f, strongest empty place %.2f%s\n", cell.hex.q,
                     cell.hex.r, co.color.c_str(), co.confidence, mean, sp.read_mask != 0 ? weakest : 0.0, sp.read_mask != 0 ? strongest_empty : 0.0,
                     one_top_clear[ci] ? ", clear" : "");
    }
    no_dark_pip[ci] = fine_dark_looked && fine_dark_most == 0 && !fine_looked;
    // (robust46) A white reading that look found no dark pip for: looked at once more with the
    // threshold at white_no_pip_body_ratio x its own top's luminance; a standard layout of its
    // count there (within the face's offset of the centre) is its pips after all.
    if (no_dark_pip[ci] && params.white_no_pip_body_ratio > 0 && params.white_no_pip_below > 0 && co.color == "white" && co.face > 0) {
      const cv::Vec3f b = fr.body_bgr;
      const double top_lum = b[0] + 2 * b[1] + b[2];
      std::vector<float> thr;
      for (const double f : {0.0, -kBodyPipRatioStep, kBodyPipRatioStep})
        thr.push_back(static_cast<float>(std::min(0.95, params.white_no_pip_body_ratio + f) * top_lum));
      std::size_t most = 0;
      const bool found = search_top_faces(
          image, ht, fine_c_mm, pip_look_reach_mm(params), true, thr, displacement[ci], params.max_face_offset_mm, fine_sample,
          [&](std::size_t, const std::vector<cv::Point2d>& pips, const TopFacePips& h) {
            // (the fine look's bars: no pip in another cell, none on the guard token)
            return h.count == co.face && !takes_other_cell(pips, h) && !takes_token_pip(pips, h);
          },
          [&](std::size_t, const std::vector<cv::Point2d>& pips, const std::vector<TopFacePips>&) { most = std::max(most, pips.size()); });
      if (found) body_pips_face[ci] = co.face;
      if (debug)
        std::fprintf(stderr, "BODYPIPS %d,%d white %d conf %.2f: at most %zu dark pips at %.2f +- %.2f of its top%s\n", cell.hex.q, cell.hex.r,
                     co.face, co.confidence, most, params.white_no_pip_body_ratio, kBodyPipRatioStep,
                     found ? ", a layout of its count: its pips" : "");
    }
    obs.cells.push_back(co);
  }
  // (exact43) A token beside another die (a neighbour's blue die) joins it in one blob, whose centre
  // then lies beyond guard_max_offset_mm or whose area is over the cap (dev18 2004 (0,-4): 1.46
  // guard faces, 13.1 mm out). After the loop, a cell whose look found no token has the other
  // dice's footprints (their top squares at guard_other_feet x their side, swept along their d)
  // taken out of its blue mask, opened again, and its blobs tested by the plain bars (no
  // opened-blob retry here). Only dice placed by the loop's square reads left a footprint (not
  // those reported on the early paths: fine unit, lone pip, white 1 in a hole); a die hidden
  // after its read keeps its footprint here.
  for (GuardAgain& ga : guard_again) {
    const auto it = std::find_if(obs.cells.begin(), obs.cells.end(), [&](const CellObservation& o) { return o.hex == ga.cell.hex; });
    if (it == obs.cells.end() || it->guard) continue;
    cv::Mat blue = ga.blue.clone();
    const int before = cv::countNonZero(blue);
    const float other_side = static_cast<float>(face_px * params.guard_other_feet);
    for (std::size_t k = 0; k < feet.size(); ++k) {
      if (k == ga.ci || !feet[k].set) continue;
      const cv::Point2d c = feet[k].centre - cv::Point2d(ga.cell.roi_tl);
      // (A footprint lies within its square's half diagonal and d of its centre: most are far off.)
      const double reach = 0.71 * other_side + std::abs(feet[k].d.x) + std::abs(feet[k].d.y) + 1;
      if (c.x < -reach || c.y < -reach || c.x > blue.cols + reach || c.y > blue.rows + reach) continue;
      cv::Point2f v[4];
      cv::RotatedRect(cv::Point2f(static_cast<float>(c.x), static_cast<float>(c.y)), cv::Size2f(other_side, other_side), feet[k].angle).points(v);
      std::vector<cv::Point> pv;
      for (const auto& q : v) pv.emplace_back(cvRound(q.x), cvRound(q.y)), pv.emplace_back(cvRound(q.x + feet[k].d.x), cvRound(q.y + feet[k].d.y));
      const cv::Rect box = cv::boundingRect(pv);
      if ((box & cv::Rect(0, 0, blue.cols, blue.rows)).area() <= 0) continue;
      std::vector<cv::Point> hull;
      cv::convexHull(pv, hull);
      cv::fillConvexPoly(blue, hull, cv::Scalar(0));
    }
    if (dump_cell(ga.cell.hex))
      cv::imwrite("/tmp/rd_blue_feet.png", blue), cv::imwrite("/tmp/rd_patch.png", ga.cell.patch);
    const int after = cv::countNonZero(blue);
    // No other die's footprint on its blue: the first look stands. Too little blue left for a
    // token's blob (guard_area_min; the opening only takes more): none there.
    if (after == before || after < params.guard_area_min * guard_area) {
      if (debug && after != before)
        std::fprintf(stderr, "GUARDFEET %d,%d %d of %d blue px on other dice taken out: no token\n", ga.cell.hex.q, ga.cell.hex.r, before - after,
                     before);
      continue;
    }
    morph(blue, blue, cv::MORPH_OPEN, open_k);
    cv::Mat st, cen;
    static thread_local RunLabels again_runs;
    const int n = components_stats_runs(blue, st, cen, again_runs);
    bool ok = false;
    for (int i = 1; i < n && !ok; ++i)
      ok = token_blob_ok(ga.cell, params, guard_area, again_runs, st, cen, i, " (the other dice out)", params.guard_core_ratio, debug);
    if (debug)
      std::fprintf(stderr, "GUARDFEET %d,%d %d of %d blue px on other dice taken out: %s\n", ga.cell.hex.q, ga.cell.hex.r, before - after, before,
                   ok ? "a token" : "no token");
    it->guard = ok;
  }
  laps.enter(nullptr);
  laps.lap(&ReadProfile::cells_ms);
  // (exact34) A cell at the frame's edge with no die reported whose face was found inside the frame
  // (a die another path reported before that look is taken back): hidden "view", as before.
  for (std::size_t ci = 0; ci < layout.cells.size(); ++ci) {
    if (!view_partial[ci]) continue;
    const Hex& h = layout.cells[ci].hex;
    if (!view_face_in[ci]) {
      reread_ok[ci] = 0;  // an occluder's cell whose die is taken back stays hidden (not released below as seen)
      obs.cells.erase(std::remove_if(obs.cells.begin(), obs.cells.end(), [&](const CellObservation& o) { return o.hex == h; }), obs.cells.end());
    }
    const bool reported = std::any_of(obs.cells.begin(), obs.cells.end(), [&](const CellObservation& o) { return o.hex == h; });
    if (!reported && std::find(obs.hidden.begin(), obs.hidden.end(), h) == obs.hidden.end()) {
      obs.hidden.push_back(h);
      obs.hidden_why[h] = view_why;
    }
  }
  // The cells under the occluder whose die was read beyond doubt are no longer hidden.
  if (std::find(reread_ok.begin(), reread_ok.end(), 1) != reread_ok.end()) {
    std::vector<Hex> still;
    for (const Hex& h : obs.hidden) {
      const int i = layout.cell_index(h);
      if (!(i >= 0 && reread_ok[static_cast<std::size_t>(i)])) still.push_back(h);
    }
    obs.hidden = std::move(still);
  }
  // Beside a hand or an arm (its shadow's grain, reflections off the skin), a weak reading
  // is not trusted: it is hidden (unknown), not reported. Anywhere, a die needs a top face
  // with pips in a standard layout: a blob whose face fits none (below min_die_confidence;
  // the paper of a tinted cell under a light gradient, a shadow's grain) is no die we can
  // name; it is hidden, not reported (nor called empty: a die's pips may be lost to blur).
  // A reading whose pips are of the other polarity than its colour's dice carry (dark pips on
  // a die named black, light ones on one named white or yellow, dark ones on red, green or
  // blue) is not a die read right: the body or the pips are something else (exact10: a
  // shade's grain named a black 1 with a dark "pip"). Hidden (unknown), not reported.
  auto polarity_contradicts = [&](const CellObservation& c, int i) {
    if (!params.polarity_check || i < 0) return false;
    const int pol = reported_polarity[static_cast<std::size_t>(i)];
    const int want = die_pip_polarity(c.color);
    return want != 0 && pol == -want;
  };
  // (session 26) A frame that is noisy but not dark (a webcam that raised its gain): its unsure 1s
  // are hidden (noise_one_min_confidence). Dark noisy frames keep the dim rule alone: there the
  // rule hid right 1s (scenes_round26's dim harsh renders).
  // dim_min_confidence 0 turns it off with the dim and noise rules (their one switch, noise_rules).
  const bool noise_ones = noise_rules && params.noise_one_min_confidence > 0;
  if (params.hand_near_min_confidence > 0 || params.min_die_confidence > 0 || params.polarity_check || blurred || dim || noise_ones ||
      noise_faint_rule || noise_place_rule || params.white_empty_over_pip > 0 || params.black_pip_contrast_min > 0) {
    std::vector<CellObservation> kept;
    for (const auto& c : obs.cells) {
      const int i = layout.cell_index(c.hex);
      // (exact22) ... unless its count is the one its shown pip places allow (weak_shown_places).
      const bool weak_near = params.hand_near_min_confidence > 0 && i >= 0 && near_hand[static_cast<std::size_t>(i)] &&
                             c.confidence < params.hand_near_min_confidence &&
                             !(params.weak_shown_places && shown_agreed[static_cast<std::size_t>(i)]) &&
                             !weak_clear[static_cast<std::size_t>(i)];
      const bool contra = polarity_contradicts(c, i);
      // (exact28) Hidden for its pips' polarity where a lone dark pip stands on a top of the
      // paper's colour (white_one_lone_pip): a white 1 whose blob was its shaded side and
      // shadow, the side's pips read (dev17 1902 (-5,2): black 2 at 1.00 on a body 0.70 of the
      // light). Reported as a white 1 with the reading's guard and confidence.
      if (i >= 0 && lone_white_one[static_cast<std::size_t>(i)] && (contra || white_read_apart[static_cast<std::size_t>(i)])) {
        if (debug) std::fprintf(stderr, "WHITEONE %d,%d %s %d conf %.2f: a white 1\n", c.hex.q, c.hex.r, c.color.c_str(), c.face, c.confidence);
        CellObservation w = c;
        w.color = "white", w.face = 1;
        kept.push_back(w);
        continue;
      }
      // (exact18) A weak white reading where the camera-resolution look found no dark pip at
      // all: the pips it counts are not there (dev9 1004 (-1,3): glare on an empty cell's
      // paper, the unglared paper its blob, the printed name read as a 2 at 0.19).
      const bool body_pips = i >= 0 && body_pips_face[static_cast<std::size_t>(i)] > 0 && body_pips_face[static_cast<std::size_t>(i)] == c.face;
      const bool no_pip = params.white_no_pip_below > 0 && i >= 0 && no_dark_pip[static_cast<std::size_t>(i)] && !body_pips && c.color == "white" &&
                          c.confidence < params.white_no_pip_below;
      if (debug && i >= 0 && no_dark_pip[static_cast<std::size_t>(i)] && !body_pips)
        std::fprintf(stderr, "NODARKPIP %d,%d %s %d conf %.2f%s\n", c.hex.q, c.hex.r, c.color.c_str(), c.face, c.confidence, no_pip ? ": hidden" : "");
      // (exact20) A reading whose pips are not at a face's real size (face_scale_gate): a part of
      // a face read as a smaller one, or a face with a side face's pip in it.
      const bool off_size = params.face_scale_gate && i >= 0 && reported_scale[static_cast<std::size_t>(i)] > 0 &&
                            !face_scale_ok(reported_scale[static_cast<std::size_t>(i)]);
      // (robust24) In a blurred frame a reading the lattice could not make sure of.
      // (robust30) ... or one read only at the agreed look's lower bar whose places are not clear.
      const bool faint = i >= 0 && faint_unclear[static_cast<std::size_t>(i)];
      // (robust34) ... not the counter's guess whose places stand clear (guess_clear_ratio).
      const bool clear_guess = i >= 0 && guess_clear[static_cast<std::size_t>(i)];
      const bool blur_weak = blurred && ((c.confidence < params.blur_min_confidence && !clear_guess) || faint);
      // (exact39) An unsure 1 in a noisy frame whose pip stands out of its top noise_one_sure_contrast x the
      // grey patch's noise or more and whose empty places stand clear of it (noise_one_clear_ratio).
      // (robust48, exact48) ... noise_one_colour_contrast x for a 1 of a dark or deep colour (light pips:
      // black, red, green, blue; not white nor yellow, nor a calibrated name) whose places show its top
      // (guess_clear_min_shown or more).
      const bool deep_one = params.noise_one_colour_contrast > 0 && die_pip_polarity(c.color) > 0 && i >= 0 &&
                            one_top_seen[static_cast<std::size_t>(i)];
      const double one_bar = deep_one ? std::min(params.noise_one_sure_contrast, params.noise_one_colour_contrast) : params.noise_one_sure_contrast;
      const bool one_stands_out = noise_one_contrast_rule && i >= 0 && one_clear[static_cast<std::size_t>(i)] &&
                                  !std::isnan(pip_contrast_of[static_cast<std::size_t>(i)]) &&
                                  pip_contrast_of[static_cast<std::size_t>(i)] >= one_bar * grey_noise;
      // (robust26) In a dim frame a weak reading only one reader makes.
      // (exact48) ... but not such a deep-coloured 1 standing out of the noise: the component counter
      // counts the noise's specks round its pip (scenes_round42_robust42 3100 (-2,1): a black 1 at 0.35, counter 5).
      const bool body_one_clear = deep_one && c.face == 1 && one_stands_out;
      const bool dim_weak = dim && ((c.confidence < params.dim_min_confidence && !(i >= 0 && dim_agreed[static_cast<std::size_t>(i)]) && !clear_guess &&
                                     !body_one_clear) ||
                                    faint);
      // (exact26) A 1 whose top is not seen round its pip (one_top_shown).
      const bool one_cut = params.one_top_shown > 0 && i >= 0 && c.face == 1 && one_top[static_cast<std::size_t>(i)] >= 0 &&
                           one_top[static_cast<std::size_t>(i)] < params.one_top_shown && !one_top_clear[static_cast<std::size_t>(i)];
      // (session 26) In a noisy frame a 1 the reader is not sure of: a speck of the noise.
      const bool noise_one = noise_ones && c.face == 1 && c.confidence < params.noise_one_min_confidence && !one_stands_out;
      if (debug && noise_ones && c.face == 1 && c.confidence < params.noise_one_min_confidence)
        std::fprintf(stderr, "NOISEONE %d,%d %s 1 conf %.2f: its pip %s (bar %.2f x)\n", c.hex.q, c.hex.r, c.color.c_str(), c.confidence,
                     one_stands_out ? "stands out of the noise: kept" : "not beyond the noise", one_bar);
      // (robust28) In a noisy frame a reading whose pips stand out of its top no more than the noise does.
      const bool noise_faint = noise_faint_rule && i >= 0 && !std::isnan(pip_contrast_of[static_cast<std::size_t>(i)]) &&
                               pip_contrast_of[static_cast<std::size_t>(i)] < params.noise_pip_contrast * grey_noise;
      // (exact41) ... or one of whose pip places shows no pip (noise_pip_place_min).
      const bool place_noise = i >= 0 && place_faint[static_cast<std::size_t>(i)];
      // (robust44) ... or a white reading with an empty place darker than its weakest pip (white_empty_over_pip).
      const bool empty_dark = i >= 0 && white_empty_dark[static_cast<std::size_t>(i)];
      // (exact45) A black reading whose pips are no lighter than its top (black_pip_contrast_min).
      const bool black_dark_pips = params.black_pip_contrast_min > 0 && c.color == "black" && i >= 0 &&
                                   !std::isnan(pip_contrast_of[static_cast<std::size_t>(i)]) &&
                                   pip_contrast_of[static_cast<std::size_t>(i)] < params.black_pip_contrast_min;
      if (debug && black_dark_pips)
        std::fprintf(stderr, "BLACKDARKPIPS %d,%d black %d conf %.2f contrast %.3f: hidden\n", c.hex.q, c.hex.r, c.face, c.confidence,
                     pip_contrast_of[static_cast<std::size_t>(i)]);
      if (weak_near || c.confidence < params.min_die_confidence || contra || no_pip || off_size || blur_weak || dim_weak || one_cut ||
          noise_one || noise_faint || place_noise || empty_dark || black_dark_pips) {
        const char* kind = weak_near ? "weak" : contra ? "polarity" : no_pip ? "nopip" : off_size ? "size" : blur_weak ? "blur"
                         : dim_weak ? (dark_frame ? "dim" : "noise") : one_cut ? "cut" : noise_one || noise_faint || place_noise ? "noise"
                         : empty_dark ? (dark_frame ? "dim" : blurred ? "blur" : "noise") : black_dark_pips ? "blackpips" : "noface";
        if (debug) std::fprintf(stderr, "SKIP %d,%d %s conf %.2f\n", c.hex.q, c.hex.r, kind, c.confidence);
        obs.hidden.push_back(c.hex);
        char why[160];
        std::snprintf(why, sizeof why, "%s: read %s %d conf %.2f", kind, c.color.c_str(), c.face, c.confidence);
        obs.hidden_why[c.hex] = why;
      } else {
        kept.push_back(c);
      }
    }
    obs.cells = std::move(kept);
  }
  return obs;
}

nlohmann::json to_json(const Observation& obs) {
  nlohmann::json j;
  j["board_found"] = obs.board_found;
  j["cells"] = nlohmann::json::array();
  for (const auto& c : obs.cells)
    j["cells"].push_back({{"q", c.hex.q}, {"r", c.hex.r}, {"color", c.color}, {"face", c.face},
                          {"guard", c.guard}, {"confidence", std::round(c.confidence * 1000) / 1000}});
  // Extension of interfaces.md (docs/reader.md): the cells that could not be seen.
  if (obs.board_found && !obs.hidden.empty()) {
    j["hidden"] = nlohmann::json::array();
    for (const Hex& h : obs.hidden) j["hidden"].push_back({h.q, h.r});
  }
  return j;
}

Status ReadParams::save(const std::string& path) const {
  try {
    cv::FileStorage fs(path, cv::FileStorage::WRITE);
    if (!fs.isOpened()) return Error{"cannot write " + path};
    fs << "min_markers" << reg.min_markers << "detect_max_side" << reg.detect_max_side
       << "subpixel_window" << reg.subpixel_window << "track_margin" << reg.track_margin
       << "track_min_side_px" << reg.track_min_side_px
       << "max_reprojection_px" << reg.max_reprojection_px << "fallback_focal_factor" << reg.fallback_focal_factor << "focal_min_tilt_deg" << reg.focal_min_tilt_deg
       << "full_search_margin" << reg.full_search_margin
       << "pip_diameter" << face.pip_diameter << "pip_area_min" << face.pip_area_min
       << "pip_area_max" << face.pip_area_max << "border" << face.border << "min_contrast" << face.min_contrast
       << "fit_scale" << face.fit_scale << "px_per_mm" << px_per_mm << "paper_distance" << paper_distance << "table_distance" << table_distance << "margin_distance" << margin_distance << "white_one_in_hole" << white_one_in_hole << "white_one_lone_pip_shadow" << white_one_lone_pip_shadow << "guess_clear_ratio" << guess_clear_ratio << "guess_clear_min_pip" << guess_clear_min_pip << "guess_clear_min_shown" << guess_clear_min_shown << "side_pair_min_confidence" << side_pair_min_confidence << "side_pair_scale_min" << side_pair_scale_min << "side_pair_scale_max" << side_pair_scale_max << "faint_pip_fill_ratio" << faint_pip_fill_ratio << "faint_pip_fill_empty" << faint_pip_fill_empty << "faint_pip_fill_min_pip" << faint_pip_fill_min_pip << "faint_pip_fill_max_confidence" << faint_pip_fill_max_confidence << "polarity_check" << static_cast<int>(polarity_check) << "grey_polarity_band" << grey_polarity_band
       << "open_mm" << open_mm << "grid_line_mm" << grid_line_mm << "shadow_min" << shadow_min << "shadow_max" << shadow_max << "occupied_core_fraction" << occupied_core_fraction << "core_dark_fraction" << core_dark_fraction << "core_dark_ratio" << core_dark_ratio << "core_light_ratio" << core_light_ratio << "core_pip_reach_mm" << core_pip_reach_mm << "max_face_offset_mm" << max_face_offset_mm << "face_crop_scale" << face_crop_scale << "white_pip_locate" << static_cast<int>(white_pip_locate) << "pip_grid_restore" << static_cast<int>(pip_grid_restore) << "white_top_paper_fraction" << white_top_paper_fraction << "retry_confidence" << retry_confidence << "retry_shift_mm" << retry_shift_mm << "recentre_min_mm" << recentre_min_mm << "recentre_steps" << recentre_steps << "weak_recentre_below" << weak_recentre_below << "weak_recentre_min_mm" << weak_recentre_min_mm << "weak_recentre_max_mm" << weak_recentre_max_mm << "weak_recentre_min_pips" << weak_recentre_min_pips << "weak_recentre_one" << static_cast<int>(weak_recentre_one) << "occluded_shown_places" << static_cast<int>(occluded_shown_places) << "occluded_shown_min_pips" << occluded_shown_min_pips << "weak_shown_places" << static_cast<int>(weak_shown_places) << "edges_read_occluded_hex_mm" << edges_read_occluded_hex_mm << "lone_pip_print_seen" << lone_pip_print_seen << "lone_pip_print_ring_mm" << lone_pip_print_ring_mm << "occluded_colour_cover_min" << occluded_colour_cover_min << "occluded_colour_sure_cover" << occluded_colour_sure_cover << "occluded_colour_sure_confidence" << occluded_colour_sure_confidence << "occluded_shown_one_pip_min_shown" << occluded_shown_one_pip_min_shown << "occluded_shown_any_place" << static_cast<int>(occluded_shown_any_place) << "occluded_any_place_on_face" << static_cast<int>(occluded_any_place_on_face) << "occluded_own_pip_ring" << occluded_own_pip_ring << "occluded_off_skin" << static_cast<int>(occluded_off_skin) << "occluded_white_one_surrounded" << static_cast<int>(occluded_white_one_surrounded) << "one_top_shown" << one_top_shown << "guard_print_tint" << static_cast<int>(guard_print_tint) << "edges_read_no_hand" << static_cast<int>(edges_read_no_hand) << "occluded_black_fine_min_pips" << occluded_black_fine_min_pips << "occluded_black_fine_lum" << occluded_black_fine_lum << "face_other_paper" << static_cast<int>(face_other_paper) << "unit_area_min" << unit_area_min << "unit_area_max" << unit_area_max
       << "unit_max_offset_mm" << unit_max_offset_mm << "body_distance" << body_distance
       << "colour_cover_min" << colour_cover_min << "colour_cover_gain" << colour_cover_gain << "colour_cover_confidence" << colour_cover_confidence << "colour_cover_min_after" << colour_cover_min_after << "colour_cover_lum" << colour_cover_lum << "pip_polarity_below" << pip_polarity_below << "coloured_pip_look_below" << coloured_pip_look_below << "coloured_pip_look_near_hand" << static_cast<int>(coloured_pip_look_near_hand) << "coloured_pip_look_body_max" << coloured_pip_look_body_max << "coloured_pip_agree_confidence" << coloured_pip_agree_confidence << "coloured_pip_more_sure" << coloured_pip_more_sure << "token_one_other_die" << token_one_other_die << "token_other_die_max_face" << token_other_die_max_face << "fine_unit_top_shown" << fine_unit_top_shown << "one_pip_off_centre_mm" << one_pip_off_centre_mm << "paper_chroma_tolerance" << paper_chroma_tolerance << "colour_shade_below" << colour_shade_below << "colour_shade_occluded" << static_cast<int>(colour_shade_occluded) << "colour_white_check" << colour_white_check << "colour_shade_chroma" << colour_shade_chroma
       << "guard_side_mm" << guard_side_mm << "guard_min_saturation" << guard_min_saturation
       << "guard_area_min" << guard_area_min << "guard_max_offset_mm" << guard_max_offset_mm << "white_one_lone_pip" << white_one_lone_pip << "white_top_drop_one" << static_cast<int>(white_top_drop_one) << "white_one_apart_mm" << white_one_apart_mm << "guard_core_ratio" << guard_core_ratio << "guard_opened_core_ratio" << guard_opened_core_ratio << "guard_core_hole" << guard_core_hole << "guard_core_open" << guard_core_open << "guard_core_saturation" << guard_core_saturation << "guard_part_area" << guard_part_area << "guard_part_saturation" << guard_part_saturation << "guard_other_feet" << guard_other_feet << "guard_like_area" << guard_like_area << "guard_print_test" << static_cast<int>(guard_print_test) << "guard_print_chroma" << guard_print_chroma << "guard_on_grid" << static_cast<int>(guard_on_grid) << "white_pip_unit_confidence" << white_pip_unit_confidence << "pip_unit_fine_mm" << pip_unit_fine_mm << "fine_unit_pool_mm" << fine_unit_pool_mm << "occluded_pip_unit_confidence" << occluded_pip_unit_confidence << "pip_look_confidence" << pip_look_confidence << "pip_light_ratio" << pip_light_ratio << "side_pip_squeeze" << side_pip_squeeze << "fine_pip_look" << static_cast<int>(fine_pip_look) << "grey_other_polarity" << static_cast<int>(grey_other_polarity) << "guard_alone" << static_cast<int>(guard_alone) << "guard_room_shift" << guard_room_shift << "token_small_blob_print_chroma" << token_small_blob_print_chroma << "token_look_small_blob" << static_cast<int>(token_look_small_blob) << "token_look_polarity" << static_cast<int>(token_look_polarity) << "token_in_blob_area" << token_in_blob_area << "grey_other_below" << grey_other_below << "grey_other_lifted_low" << grey_other_lifted_low << "grey_other_lifted_high" << grey_other_lifted_high << "grey_other_lifted_one" << grey_other_lifted_one << "coloured_pip_grey_confidence" << coloured_pip_grey_confidence << "hand_rest_area" << hand_rest_area
       << "hand_min_area_mm2" << hand_min_area_mm2 << "hand_chroma" << hand_chroma << "hand_hue_min" << hand_hue_min << "hand_hue_max" << hand_hue_max
       << "hand_core_mm" << hand_core_mm << "hand_cover_fraction" << hand_cover_fraction << "hand_max_edges" << hand_max_edges << "grid_line_contrast" << grid_line_contrast << "blur_grid_line_contrast" << blur_grid_line_contrast << "shadow_unit_min_confidence" << shadow_unit_min_confidence << "hand_margin_mm" << hand_margin_mm << "hand_paper_cover_fraction" << hand_paper_cover_fraction << "occluded_min_confidence" << occluded_min_confidence << "occluded_dark_ratio" << occluded_dark_ratio << "occluded_saturation" << occluded_saturation << "occluded_dark_skin_saturation" << occluded_dark_skin_saturation << "occluded_white_min_confidence" << occluded_white_min_confidence << "occluded_white_ratio" << occluded_white_ratio << "occluded_light_beside_mm" << occluded_light_beside_mm << "occluded_skin_min_saturation" << occluded_skin_min_saturation << "occluded_skin_untinted" << static_cast<int>(occluded_skin_untinted) << "occluded_white_fine_layout" << static_cast<int>(occluded_white_fine_layout) << "occluded_white_one_fine" << static_cast<int>(occluded_white_one_fine) << "face_scale_min" << face_scale_min << "face_scale_max" << face_scale_max << "face_scale_gate" << static_cast<int>(face_scale_gate) << "sure_face_scale_stands" << static_cast<int>(sure_face_scale_stands) << "sure_face_stands_min_pips" << sure_face_stands_min_pips << "pip_look_scale_stands" << static_cast<int>(pip_look_scale_stands) << "fine_keep_sure" << fine_keep_sure << "fine_pip_angle_deg" << fine_pip_angle_deg << "fine_pip_angle_agree_pips" << fine_pip_angle_agree_pips << "coloured_pip_look_occluded_pips" << coloured_pip_look_occluded_pips << "occluder_core_mm" << occluder_core_mm << "occluder_min_area_mm2" << occluder_min_area_mm2 << "occluder_dark" << occluder_dark << "occluder_chroma" << occluder_chroma << "hand_near_mm" << hand_near_mm << "hand_near_min_confidence" << hand_near_min_confidence << "min_die_confidence" << min_die_confidence << "white_no_pip_below" << white_no_pip_below << "white_no_pip_body_ratio" << white_no_pip_body_ratio << "colour_clip_level" << colour_clip_level << "occluder_penumbra" << occluder_penumbra << "occluder_penumbra_mm" << occluder_penumbra_mm << "chamfer_bits" << static_cast<int>(chamfer_bits) << "hand_px_per_mm" << hand_px_per_mm << "edge_margin_px" << edge_margin_px
       << "min_visible_fraction" << min_visible_fraction;
    fs << "in_view_top_mm" << in_view_top_mm << "in_view_face_mm" << in_view_face_mm;
    fs << "retry_read_above" << static_cast<int>(retry_read_above);
    fs << "small_cell_paper_hex_mm" << small_cell_paper_hex_mm << "small_cell_lone_edges_hex_mm" << small_cell_lone_edges_hex_mm
       << "small_cell_edgeless_group" << small_cell_edgeless_group << "occluded_white_no_pip" << static_cast<int>(occluded_white_no_pip)
       << "small_cell_paper_own_median" << static_cast<int>(small_cell_paper_own_median);
    fs << "blur_edge_mm" << blur_edge_mm << "blur_min_confidence" << blur_min_confidence;
    fs << "blur_agreed_min_response" << blur_agreed_min_response << "blur_faint_below" << blur_faint_below
       << "blur_faint_empty_ratio" << blur_faint_empty_ratio << "blur_deblur_iterations" << blur_deblur_iterations << "blur_deblur_sigma_scale" << blur_deblur_sigma_scale << "blur_deblur_min_confidence" << blur_deblur_min_confidence << "blur_deblur_past_faint" << static_cast<int>(blur_deblur_past_faint);
    fs << "dim_white_level" << dim_white_level << "dim_min_confidence" << dim_min_confidence;
    fs << "noise_grey_level" << noise_grey_level << "noise_white_level" << noise_white_level;
    fs << "noise_one_min_confidence" << noise_one_min_confidence << "noise_pip_contrast" << noise_pip_contrast << "black_pip_contrast_min" << black_pip_contrast_min << "occluded_colour_full_cover" << occluded_colour_full_cover << "occluded_colour_full_saturation" << occluded_colour_full_saturation << "occluded_colour_full_confidence" << occluded_colour_full_confidence << "noise_pip_place_min" << noise_pip_place_min
       << "white_empty_over_pip" << white_empty_over_pip;
    fs << "noise_ring_average" << noise_ring_average;
    fs << "pip_look_drop_min_pips" << pip_look_drop_min_pips << "pip_look_missing_pip_fit" << pip_look_missing_pip_fit;
    fs << "pip_look_light_only_min_pips" << pip_look_light_only_min_pips;
    fs << "coloured_layout_places_min_pips" << coloured_layout_places_min_pips << "coloured_layout_places_ratio" << coloured_layout_places_ratio
       << "coloured_layout_places_shown" << coloured_layout_places_shown;
    fs << "noise_cells_half_mm" << noise_cells_half_mm << "noise_clipped_level" << noise_clipped_level << "noise_paper_to_grey" << noise_paper_to_grey;
    fs << "noise_one_sure_contrast" << noise_one_sure_contrast << "noise_one_clear_ratio" << noise_one_clear_ratio << "noise_one_colour_contrast" << noise_one_colour_contrast;
    fs << "weak_guess_clear_ratio" << weak_guess_clear_ratio;
    fs << "one_top_clear_ratio" << one_top_clear_ratio << "one_top_clear_min" << one_top_clear_min << "one_top_clear_min_pip" << one_top_clear_min_pip;
    fs << "guard_in_own_cell" << static_cast<int>(guard_in_own_cell) << "pip_unit_fine_one_place" << static_cast<int>(pip_unit_fine_one_place)
       << "pip_look_own_cell" << static_cast<int>(pip_look_own_cell) << "pip_look_off_token" << static_cast<int>(pip_look_off_token);
    fs << "edge_slack_mm" << edge_slack_mm << "edge_slack_hits" << edge_slack_hits << "grid_refine" << static_cast<int>(grid_refine)
       << "grid_refine_min_cells" << grid_refine_min_cells << "grid_refine_all_shift_mm" << grid_refine_all_shift_mm << "grid_refine_min_corners" << grid_refine_min_corners;
  } catch (const cv::Exception& e) {
    return Error{"cannot write " + path + ": " + e.what()};
  }
  return {};
}

Result<ReadParams> ReadParams::load(const std::string& path) {
  ReadParams p;
  try {
    cv::FileStorage fs(path, cv::FileStorage::READ);
    if (!fs.isOpened()) return Error{"cannot read parameters from " + path};
    auto get = [&](const char* key, auto& v) {
      const cv::FileNode n = fs[key];
      if (!n.empty()) n >> v;
    };
    // Flags are saved as 0/1 (cv::FileStorage has no bool).
    auto get_bool = [&](const char* key, bool& v) {
      int i = v ? 1 : 0;
      get(key, i);
      v = i != 0;
    };
    get("min_markers", p.reg.min_markers);
    get("detect_max_side", p.reg.detect_max_side);
    get("subpixel_window", p.reg.subpixel_window);
    get("track_margin", p.reg.track_margin);
    get("track_min_side_px", p.reg.track_min_side_px);
    get("max_reprojection_px", p.reg.max_reprojection_px);
    get("fallback_focal_factor", p.reg.fallback_focal_factor);
    get("focal_min_tilt_deg", p.reg.focal_min_tilt_deg);
    get("full_search_margin", p.reg.full_search_margin);
    get("pip_diameter", p.face.pip_diameter);
    get("pip_area_min", p.face.pip_area_min);
    get("pip_area_max", p.face.pip_area_max);
    get("border", p.face.border);
    get("min_contrast", p.face.min_contrast);
    get("fit_scale", p.face.fit_scale);
    get("px_per_mm", p.px_per_mm);
    get("paper_distance", p.paper_distance);
    get("table_distance", p.table_distance);
    get("margin_distance", p.margin_distance);
    get("white_one_in_hole", p.white_one_in_hole);
    get("white_one_lone_pip_shadow", p.white_one_lone_pip_shadow);
    get("guess_clear_ratio", p.guess_clear_ratio);
    get("guess_clear_min_pip", p.guess_clear_min_pip);
    get("guess_clear_min_shown", p.guess_clear_min_shown);
    get("side_pair_min_confidence", p.side_pair_min_confidence);
    get("side_pair_scale_min", p.side_pair_scale_min);
    get("side_pair_scale_max", p.side_pair_scale_max);
    get("faint_pip_fill_ratio", p.faint_pip_fill_ratio);
    get("faint_pip_fill_empty", p.faint_pip_fill_empty);
    get("faint_pip_fill_min_pip", p.faint_pip_fill_min_pip);
    get("faint_pip_fill_max_confidence", p.faint_pip_fill_max_confidence);
    get("open_mm", p.open_mm);
    get("grid_line_mm", p.grid_line_mm);
    get("shadow_min", p.shadow_min);
    get("shadow_max", p.shadow_max);
    get("occupied_core_fraction", p.occupied_core_fraction);
    get("core_dark_fraction", p.core_dark_fraction);
    get("core_dark_ratio", p.core_dark_ratio);
    get("core_light_ratio", p.core_light_ratio);
    get("core_pip_reach_mm", p.core_pip_reach_mm);
    get("max_face_offset_mm", p.max_face_offset_mm);
    get("face_crop_scale", p.face_crop_scale);
    get_bool("white_pip_locate", p.white_pip_locate);
    get_bool("pip_grid_restore", p.pip_grid_restore);
    get("white_top_paper_fraction", p.white_top_paper_fraction);
    get("retry_confidence", p.retry_confidence);
    get("retry_shift_mm", p.retry_shift_mm);
    get("recentre_min_mm", p.recentre_min_mm);
    get("recentre_steps", p.recentre_steps);
    get("weak_recentre_below", p.weak_recentre_below);
    get("weak_recentre_min_mm", p.weak_recentre_min_mm);
    get("weak_recentre_max_mm", p.weak_recentre_max_mm);
    get("weak_recentre_min_pips", p.weak_recentre_min_pips);
    get_bool("weak_recentre_one", p.weak_recentre_one);
    get_bool("retry_read_above", p.retry_read_above);
    get_bool("occluded_shown_places", p.occluded_shown_places);
    get_bool("weak_shown_places", p.weak_shown_places);
    get("edges_read_occluded_hex_mm", p.edges_read_occluded_hex_mm);
    get("lone_pip_print_seen", p.lone_pip_print_seen);
    get("lone_pip_print_ring_mm", p.lone_pip_print_ring_mm);
    get("occluded_colour_cover_min", p.occluded_colour_cover_min);
    get("occluded_colour_sure_cover", p.occluded_colour_sure_cover);
    get("occluded_colour_sure_confidence", p.occluded_colour_sure_confidence);
    get("occluded_shown_one_pip_min_shown", p.occluded_shown_one_pip_min_shown);
    get_bool("occluded_shown_any_place", p.occluded_shown_any_place);
    get_bool("occluded_any_place_on_face", p.occluded_any_place_on_face);
    get("occluded_own_pip_ring", p.occluded_own_pip_ring);
    get_bool("occluded_off_skin", p.occluded_off_skin);
    get_bool("occluded_white_one_surrounded", p.occluded_white_one_surrounded);
    get("one_top_shown", p.one_top_shown);
    get_bool("guard_print_tint", p.guard_print_tint);
    get_bool("edges_read_no_hand", p.edges_read_no_hand);
    get("occluded_black_fine_min_pips", p.occluded_black_fine_min_pips);
    get("occluded_black_fine_lum", p.occluded_black_fine_lum);
    get("occluded_shown_min_pips", p.occluded_shown_min_pips);
    get_bool("face_other_paper", p.face_other_paper);
    get("unit_area_min", p.unit_area_min);
    get("unit_area_max", p.unit_area_max);
    get("unit_max_offset_mm", p.unit_max_offset_mm);
    get("body_distance", p.body_distance);
    get("colour_cover_min", p.colour_cover_min);
    get("colour_cover_gain", p.colour_cover_gain);
    get("colour_cover_confidence", p.colour_cover_confidence);
    get("colour_cover_min_after", p.colour_cover_min_after);
    get("colour_cover_lum", p.colour_cover_lum);
    get("pip_polarity_below", p.pip_polarity_below);
    get("coloured_pip_look_below", p.coloured_pip_look_below);
    get_bool("coloured_pip_look_near_hand", p.coloured_pip_look_near_hand);
    get("coloured_pip_look_body_max", p.coloured_pip_look_body_max);
    get("coloured_pip_agree_confidence", p.coloured_pip_agree_confidence);
    get("coloured_pip_more_sure", p.coloured_pip_more_sure);
    get("token_one_other_die", p.token_one_other_die);
    get("token_other_die_max_face", p.token_other_die_max_face);
    get("fine_unit_top_shown", p.fine_unit_top_shown);
    get("one_pip_off_centre_mm", p.one_pip_off_centre_mm);
    get("paper_chroma_tolerance", p.paper_chroma_tolerance);
    get("colour_shade_below", p.colour_shade_below);
    get_bool("colour_shade_occluded", p.colour_shade_occluded);
    get("colour_white_check", p.colour_white_check);
    get("colour_shade_chroma", p.colour_shade_chroma);
    get("guard_side_mm", p.guard_side_mm);
    get("guard_min_saturation", p.guard_min_saturation);
    get("guard_area_min", p.guard_area_min);
    get("guard_max_offset_mm", p.guard_max_offset_mm);
    get("white_one_lone_pip", p.white_one_lone_pip);
    get_bool("white_top_drop_one", p.white_top_drop_one);
    get("white_one_apart_mm", p.white_one_apart_mm);
    get("guard_core_ratio", p.guard_core_ratio);
    get("guard_opened_core_ratio", p.guard_opened_core_ratio);
    get("guard_core_hole", p.guard_core_hole);
    get("guard_core_open", p.guard_core_open);
    get("guard_core_saturation", p.guard_core_saturation);
    get("guard_part_area", p.guard_part_area);
    get("guard_part_saturation", p.guard_part_saturation);
    get("guard_other_feet", p.guard_other_feet);
    get("guard_print_chroma", p.guard_print_chroma);
    get("guard_like_area", p.guard_like_area);
    get_bool("guard_print_test", p.guard_print_test);
    get_bool("guard_on_grid", p.guard_on_grid);
    get("white_pip_unit_confidence", p.white_pip_unit_confidence);
    get("pip_unit_fine_mm", p.pip_unit_fine_mm);
    get("fine_unit_pool_mm", p.fine_unit_pool_mm);
    get("occluded_pip_unit_confidence", p.occluded_pip_unit_confidence);
    get("pip_look_confidence", p.pip_look_confidence);
    get_bool("fine_pip_look", p.fine_pip_look);
    get_bool("grey_other_polarity", p.grey_other_polarity);
    get_bool("guard_alone", p.guard_alone);
    get("guard_room_shift", p.guard_room_shift);
    get("token_small_blob_print_chroma", p.token_small_blob_print_chroma);
    get_bool("token_look_small_blob", p.token_look_small_blob);
    get_bool("token_look_polarity", p.token_look_polarity);
    get("token_in_blob_area", p.token_in_blob_area);
    get_bool("polarity_check", p.polarity_check);
    get("grey_polarity_band", p.grey_polarity_band);
    get("grey_other_below", p.grey_other_below);
    get("grey_other_lifted_low", p.grey_other_lifted_low);
    get("grey_other_lifted_high", p.grey_other_lifted_high);
    get("grey_other_lifted_one", p.grey_other_lifted_one);
    get("coloured_pip_grey_confidence", p.coloured_pip_grey_confidence);
    get("pip_light_ratio", p.pip_light_ratio);
    get("side_pip_squeeze", p.side_pip_squeeze);
    get("hand_rest_area", p.hand_rest_area);
    get("hand_min_area_mm2", p.hand_min_area_mm2);
    get("hand_chroma", p.hand_chroma);
    get("hand_hue_min", p.hand_hue_min);
    get("hand_hue_max", p.hand_hue_max);
    get("hand_margin_mm", p.hand_margin_mm);
    get("hand_paper_cover_fraction", p.hand_paper_cover_fraction);
    get("occluded_min_confidence", p.occluded_min_confidence);
    get("face_scale_min", p.face_scale_min);
    get("face_scale_max", p.face_scale_max);
    get_bool("face_scale_gate", p.face_scale_gate);
    get_bool("sure_face_scale_stands", p.sure_face_scale_stands);
    get("sure_face_stands_min_pips", p.sure_face_stands_min_pips);
    get_bool("pip_look_scale_stands", p.pip_look_scale_stands);
    get("occluded_dark_ratio", p.occluded_dark_ratio);
    get("occluded_saturation", p.occluded_saturation);
    get("occluded_dark_skin_saturation", p.occluded_dark_skin_saturation);
    get("occluded_white_min_confidence", p.occluded_white_min_confidence);
    get("occluded_white_ratio", p.occluded_white_ratio);
    get("occluded_light_beside_mm", p.occluded_light_beside_mm);
    get("occluded_skin_min_saturation", p.occluded_skin_min_saturation);
    get_bool("occluded_skin_untinted", p.occluded_skin_untinted);
    get_bool("occluded_white_fine_layout", p.occluded_white_fine_layout);
    get_bool("occluded_white_one_fine", p.occluded_white_one_fine);
    get("fine_keep_sure", p.fine_keep_sure);
    get("fine_pip_angle_deg", p.fine_pip_angle_deg);
    get("fine_pip_angle_agree_pips", p.fine_pip_angle_agree_pips);
    get("coloured_pip_look_occluded_pips", p.coloured_pip_look_occluded_pips);
    get("in_view_top_mm", p.in_view_top_mm);
    get("in_view_face_mm", p.in_view_face_mm);
    get("small_cell_paper_hex_mm", p.small_cell_paper_hex_mm);
    get("small_cell_lone_edges_hex_mm", p.small_cell_lone_edges_hex_mm);
    get("small_cell_edgeless_group", p.small_cell_edgeless_group);
    get_bool("occluded_white_no_pip", p.occluded_white_no_pip);
    get_bool("small_cell_paper_own_median", p.small_cell_paper_own_median);
    get_bool("guard_in_own_cell", p.guard_in_own_cell);
    get_bool("pip_unit_fine_one_place", p.pip_unit_fine_one_place);
    get_bool("pip_look_own_cell", p.pip_look_own_cell);
    get_bool("pip_look_off_token", p.pip_look_off_token);
    get("occluder_core_mm", p.occluder_core_mm);
    get("occluder_min_area_mm2", p.occluder_min_area_mm2);
    get("occluder_dark", p.occluder_dark);
    get("occluder_chroma", p.occluder_chroma);
    get("occluder_penumbra", p.occluder_penumbra);
    get("hand_near_mm", p.hand_near_mm);
    get("hand_near_min_confidence", p.hand_near_min_confidence);
    get("min_die_confidence", p.min_die_confidence);
    get("blur_edge_mm", p.blur_edge_mm);
    get("blur_min_confidence", p.blur_min_confidence);
    get("blur_agreed_min_response", p.blur_agreed_min_response);
    get("blur_faint_below", p.blur_faint_below);
    get("blur_faint_empty_ratio", p.blur_faint_empty_ratio);
    get("blur_deblur_iterations", p.blur_deblur_iterations);
    get("blur_deblur_sigma_scale", p.blur_deblur_sigma_scale);
    get("blur_deblur_min_confidence", p.blur_deblur_min_confidence);
    get_bool("blur_deblur_past_faint", p.blur_deblur_past_faint);
    get("dim_white_level", p.dim_white_level);
    get("dim_min_confidence", p.dim_min_confidence);
    get("noise_grey_level", p.noise_grey_level);
    get("noise_white_level", p.noise_white_level);
    get("noise_one_min_confidence", p.noise_one_min_confidence);
    get("noise_pip_contrast", p.noise_pip_contrast);
    get("black_pip_contrast_min", p.black_pip_contrast_min);
    get("occluded_colour_full_cover", p.occluded_colour_full_cover);
    get("occluded_colour_full_saturation", p.occluded_colour_full_saturation);
    get("occluded_colour_full_confidence", p.occluded_colour_full_confidence);
    get("noise_pip_place_min", p.noise_pip_place_min);
    get("white_empty_over_pip", p.white_empty_over_pip);
    get("noise_ring_average", p.noise_ring_average);
    get("noise_cells_half_mm", p.noise_cells_half_mm);
    get("noise_clipped_level", p.noise_clipped_level);
    get("noise_paper_to_grey", p.noise_paper_to_grey);
    get("pip_look_drop_min_pips", p.pip_look_drop_min_pips);
    get("pip_look_missing_pip_fit", p.pip_look_missing_pip_fit);
    get("pip_look_light_only_min_pips", p.pip_look_light_only_min_pips);
    get("coloured_layout_places_min_pips", p.coloured_layout_places_min_pips);
    get("coloured_layout_places_ratio", p.coloured_layout_places_ratio);
    get("coloured_layout_places_shown", p.coloured_layout_places_shown);
    get("noise_one_sure_contrast", p.noise_one_sure_contrast);
    get("noise_one_clear_ratio", p.noise_one_clear_ratio);
    get("noise_one_colour_contrast", p.noise_one_colour_contrast);
    get("weak_guess_clear_ratio", p.weak_guess_clear_ratio);
    get("one_top_clear_ratio", p.one_top_clear_ratio);
    get("one_top_clear_min", p.one_top_clear_min);
    get("one_top_clear_min_pip", p.one_top_clear_min_pip);
    get("white_no_pip_below", p.white_no_pip_below);
    get("white_no_pip_body_ratio", p.white_no_pip_body_ratio);
    get("colour_clip_level", p.colour_clip_level);
    get("occluder_penumbra_mm", p.occluder_penumbra_mm);
    get_bool("chamfer_bits", p.chamfer_bits);
    get("shadow_unit_min_confidence", p.shadow_unit_min_confidence);
    get("hand_max_edges", p.hand_max_edges);
    get("edge_slack_mm", p.edge_slack_mm);
    get("edge_slack_hits", p.edge_slack_hits);
    get_bool("grid_refine", p.grid_refine);
    get("grid_refine_min_cells", p.grid_refine_min_cells);
    get("grid_refine_all_shift_mm", p.grid_refine_all_shift_mm);
    get("grid_refine_min_corners", p.grid_refine_min_corners);
    get("grid_line_contrast", p.grid_line_contrast);
    get("blur_grid_line_contrast", p.blur_grid_line_contrast);
    get("hand_core_mm", p.hand_core_mm);
    get("hand_cover_fraction", p.hand_cover_fraction);
    get("hand_px_per_mm", p.hand_px_per_mm);
    get("edge_margin_px", p.edge_margin_px);
    get("min_visible_fraction", p.min_visible_fraction);
  } catch (const cv::Exception& e) {
    return Error{"cannot read parameters from " + path + ": " + e.what()};
  }
  if (!(p.px_per_mm > 0.2 && p.px_per_mm < 20)) return Error{path + ": px_per_mm out of range"};
  if (!(p.hand_px_per_mm > 0.1 && p.hand_px_per_mm < 10)) return Error{path + ": hand_px_per_mm out of range"};
  return p;
}

}  // namespace hexdice::vision
