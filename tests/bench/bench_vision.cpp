// `read` of one frame with 20 dice, 1280x720 and 1920x1080, on one core; and one
// cv::cvtColor BGR->GRAY of the same frame for scale (ratio = read / cvtColor).
// Targets: 8 ms (720p) and 20 ms (1080p). Also the tracked case (markers searched near
// the last pose) that a video loop sees, and the sheet-free dice finder. BM_Read also
// reports its per-stage CPU times (vision/read_profile.h) and x_cvtColor: a read's thread
// CPU time over one cvtColor's measured in the same run.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/dice.h"
#include "vision/die_face.h"
#include "vision/mask_ops.h"
#include "vision/read.h"
#include "vision/read_profile.h"
#include "vision/sheet.h"
#include "vision/reader_synth.h"
#include "bench_frame.h"

namespace {

using namespace hexdice::vision;

const cv::Mat& frame(int w, int h) {
  static std::map<std::pair<int, int>, cv::Mat> cache;
  auto& m = cache[{w, h}];
  if (m.empty()) m = bench::render_bench_frame(standard_sheet(), w, h).image;
  return m;
}

// passes_off: 0 all passes, 1 fine_pip_look off, 2 also colour_cover_min 0 (the whiteblack2
// and colour2 passes off; BM_ReadPassesOff), to measure what each pass costs on this frame.
void read_bench(benchmark::State& st, int passes_off, bool cell_detail = false) {
  cv::setNumThreads(1);
  ReadParams params;
  if (passes_off >= 1) params.fine_pip_look = false;
  if (passes_off >= 2) params.colour_cover_min = 0;
  const cv::Mat& img = frame(static_cast<int>(st.range(0)), static_cast<int>(st.range(1)));
  const SheetLayout layout = standard_sheet();
  std::size_t cells = 0;
  // Per-stage thread CPU time of each read (vision/read_profile.h), as counters (ms/read).
  ReadProfile prof;
  prof.cell_detail = cell_detail;
  // One BGR->grey pass of the same frame, timed here too (median of 31, thread CPU time),
  // so the ratio read / cvtColor comes from the same run under the same load.
  std::vector<double> cvt;
  {
    cv::Mat gray;
    for (int i = 0; i < 31; ++i) {
      timespec a{}, b{};
      ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
      cv::cvtColor(img, gray, cv::COLOR_BGR2GRAY);
      ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
      benchmark::DoNotOptimize(gray.data);
      cvt.push_back(static_cast<double>(b.tv_sec - a.tv_sec) * 1e3 + static_cast<double>(b.tv_nsec - a.tv_nsec) / 1e6);
    }
    std::nth_element(cvt.begin(), cvt.begin() + 15, cvt.end());
  }
  set_read_profile(&prof);
  for (auto _ : st) {
    const Observation obs = read_board(img, layout, nullptr, params);
    cells = obs.cells.size();
    benchmark::DoNotOptimize(obs);
  }
  set_read_profile(nullptr);
  st.counters["cells"] = static_cast<double>(cells);
  const double n = std::max(1, prof.reads);
  st.counters["reg_ms"] = prof.register_ms / n;
  st.counters["white_ms"] = prof.white_ms / n;
  st.counters["edges_ms"] = prof.edges_ms / n;
  st.counters["hand_ms"] = prof.hand_ms / n;
  st.counters["empty_ms"] = prof.empty_ms / n;
  st.counters["cells_ms"] = prof.cells_ms / n;
  st.counters["face_ms"] = prof.face_ms / n;
  st.counters["face_calls"] = prof.face_calls / n;
  st.counters["examined"] = prof.cells_examined / n;
  st.counters["cvt_ms"] = cvt[15];
  st.counters["x_cvtColor"] = cvt[15] > 0 ? prof.total_ms / n / cvt[15] : 0;
  if (cell_detail) {
    st.counters["c_patch"] = prof.cell_patch_ms / n;
    st.counters["c_unit"] = prof.cell_unit_ms / n;
    st.counters["c_white"] = prof.cell_white_ms / n;
    st.counters["c_locate"] = prof.cell_locate_ms / n;
    st.counters["c_first"] = prof.cell_first_ms / n;
    st.counters["c_other"] = prof.cell_other_ms / n;
    st.counters["c_fine"] = prof.cell_fine_ms / n;
    st.counters["c_cover"] = prof.cell_cover_ms / n;
    st.counters["c_retry"] = prof.cell_retry_ms / n;
    st.counters["c_guard"] = prof.cell_guard_ms / n;
  }
}

void BM_Read(benchmark::State& st) { read_bench(st, 0); }
// range(2): which passes are off (read_bench).
void BM_ReadPassesOff(benchmark::State& st) { read_bench(st, static_cast<int>(st.range(2))); }
// BM_Read with the per-cell stage split by pass (ReadProfile::cell_detail: c_* counters, ms
// per read, read_face excluded); its own clock reads make it a little slower than BM_Read.
void BM_ReadCellStages(benchmark::State& st) { read_bench(st, 0, true); }

void BM_ReadTracked(benchmark::State& st) {
  cv::setNumThreads(1);
  const cv::Mat& img = frame(static_cast<int>(st.range(0)), static_cast<int>(st.range(1)));
  const SheetLayout layout = standard_sheet();
  TrackerState tracker;
  read_board(img, layout, nullptr, {}, &tracker);
  for (auto _ : st) benchmark::DoNotOptimize(read_board(img, layout, nullptr, {}, &tracker));
}

// A frame whose print-edge test fails on many cells (fixture 026: an arm over 31 cells),
// with the grid refit (range(0) = 1) and without: what its check costs where it looks and
// then finds no pose to refit (branch hidden4; the synthetic BM_Read frame never gets there).
// read_board of the fixture scene `name` (data/fixtures/scenes) with `params`, on one core.
void read_fixture_bench(benchmark::State& st, const char* name, const ReadParams& params) {
  cv::setNumThreads(1);
  const cv::Mat img = cv::imread(std::string(HEXDICE_SOURCE_DIR) + "/data/fixtures/scenes/" + name + ".jpg");
  if (img.empty()) {
    st.SkipWithError((std::string("fixture ") + name + ".jpg not found").c_str());
    return;
  }
  const SheetLayout layout = standard_sheet();
  for (auto _ : st) benchmark::DoNotOptimize(read_board(img, layout, nullptr, params));
}

void BM_ReadEdgeFailFrame(benchmark::State& st) {
  ReadParams params;
  params.grid_refine = st.range(0) != 0;
  read_fixture_bench(st, "scene_026", params);
}

// (speed29) A rendered frame on a wood-grain table whose 640 px copy misses a marker (fixture
// scene_001, 1280x720: three markers found there, the fourth searched for at full size),
// which the bench frame's plain table and four clear markers never pay: range(0) = 1 the
// full-size search in the window where the three put the fourth (full_search_margin, the
// default), 0 over the whole frame (as before).
void BM_ReadMarkerMissedFrame(benchmark::State& st) {
  ReadParams params;
  if (st.range(0) == 0) params.reg.full_search_margin = 0;
  read_fixture_bench(st, "scene_001", params);
}

void BM_CvtColorGray(benchmark::State& st) {
  cv::setNumThreads(1);
  const cv::Mat& img = frame(static_cast<int>(st.range(0)), static_cast<int>(st.range(1)));
  cv::Mat gray;
  for (auto _ : st) {
    cv::cvtColor(img, gray, cv::COLOR_BGR2GRAY);
    benchmark::DoNotOptimize(gray.data);
  }
}

void BM_FindDice(benchmark::State& st) {
  cv::setNumThreads(1);
  const cv::Mat& img = frame(static_cast<int>(st.range(0)), static_cast<int>(st.range(1)));
  for (auto _ : st) benchmark::DoNotOptimize(find_dice(img));
}

// The occluder's per-pixel comparison on an A3 sheet at 1 px/mm (420 x 297), the
// one-pixel loop (arg 0, the ratio too, as read.cpp had it) against mask_ops' 16-at-a-time
// version (arg 1 with occluder_ratio_row's ratio: a frame with an arm; arg 2 the mask alone:
// read.cpp's frame without an arm): a paper-like print, the frame a little darker and noisier
// than it, a few shadowed pixels.
void BM_OccluderDiff(benchmark::State& st) {
  const int w = 420, h = 297;
  cv::Mat print(h, w, CV_8UC3), frame_(h, w, CV_8UC3), pmin, pmax, light(h, w, CV_32FC3, cv::Scalar(1.02, 0.99, 0.99));
  cv::randu(print, cv::Scalar(200, 200, 200), cv::Scalar(256, 256, 256));
  cv::Mat noise(h, w, CV_8UC3);
  cv::randu(noise, cv::Scalar(0, 0, 0), cv::Scalar(24, 24, 24));
  cv::subtract(print, noise, frame_);
  frame_(cv::Rect(100, 50, 80, 200)) *= 0.5;
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  cv::erode(print, pmin, k3);
  cv::dilate(print, pmax, k3);
  cv::Mat out(h, w, CV_8U), ratio(h, w, CV_32F);
  const float ip[3] = {1 / 240.0f, 1 / 242.0f, 1 / 238.0f};
  const bool simd = st.range(0) != 0;
  for (auto _ : st) {
    for (int y = 0; y < h; ++y) {
      float* r = st.range(0) == 2 ? nullptr : ratio.ptr<float>(y);
      if (simd) {
        occluder_diff_row(frame_.ptr<uchar>(y), print.ptr<uchar>(y), pmin.ptr<uchar>(y), pmax.ptr<uchar>(y), light.ptr<float>(y), w, ip,
                          0.72f, 0.035f * 0.035f, out.ptr<uchar>(y));
        if (r) occluder_ratio_row(frame_.ptr<uchar>(y), pmin.ptr<uchar>(y), w, ip, r);
      } else
        occluder_diff_row_ref(frame_.ptr<uchar>(y), print.ptr<uchar>(y), pmin.ptr<uchar>(y), pmax.ptr<uchar>(y), light.ptr<float>(y), w,
                              ip, 0.72f, 0.035f * 0.035f, out.ptr<uchar>(y), r);
    }
    benchmark::DoNotOptimize(out.data);
  }
}

// The labelling primitives (mask_ops.h) against the forms they replace, on masks like
// the reader's: arg 0 = a 181 x 181 pip square (find_plane_pips: a dozen pip-sized
// blobs), 1 = an 84 x 90 cell patch (a die's blob with its pips as holes, a neighbour's
// side, specks). range(1): 0 the replaced form, 1 the new one.
cv::Mat bench_mask(int kind) {
  cv::RNG rng(5);
  if (kind == 0) {
    cv::Mat m(181, 181, CV_8U, cv::Scalar(0));
    for (int i = 0; i < 12; ++i) cv::circle(m, {rng.uniform(10, 170), rng.uniform(10, 170)}, rng.uniform(4, 9), cv::Scalar(255), cv::FILLED);
    return m;
  }
  cv::Mat m(90, 84, CV_8U, cv::Scalar(0));
  cv::rectangle(m, cv::Rect(20, 22, 36, 38), cv::Scalar(255), cv::FILLED);
  for (int i = 0; i < 5; ++i) cv::circle(m, {rng.uniform(26, 50), rng.uniform(28, 54)}, 3, cv::Scalar(0), cv::FILLED);
  cv::rectangle(m, cv::Rect(60, 10, 20, 14), cv::Scalar(255), cv::FILLED);
  for (int i = 0; i < 20; ++i) m.at<uchar>(rng.uniform(0, 90), rng.uniform(0, 84)) = 255;
  return m;
}

void BM_Components(benchmark::State& st) {
  cv::setNumThreads(1);
  const cv::Mat m = bench_mask(static_cast<int>(st.range(0)));
  cv::Mat l, s, c;
  for (auto _ : st) {
    const int n = st.range(1) ? components_with_stats(m, l, s, c) : components_with_stats_ref(m, l, s, c);
    benchmark::DoNotOptimize(n);
  }
}

// The occluder mask's "no core" test on an A3 sheet at 1 px/mm with 20 dice and their
// shadows (16 x 27 px blobs) and some grain but no arm: /0 the distance transform and its
// threshold, /1 chamfer_core_possible (read.h, branch speed8), r = 20 px.
void BM_OccluderCore(benchmark::State& st) {
  cv::setNumThreads(1);
  cv::Mat m(297, 420, CV_8U, cv::Scalar(0));
  cv::RNG rng(3);
  for (int i = 0; i < 20; ++i) cv::rectangle(m, cv::Rect(rng.uniform(0, 400), rng.uniform(0, 270), 16, 27), cv::Scalar(255), cv::FILLED);
  for (int i = 0; i < 300; ++i) m.at<uchar>(rng.uniform(0, 297), rng.uniform(0, 420)) = 255;
  bool any = false;
  for (auto _ : st) {
    if (st.range(0)) any = chamfer_core_possible(m, 20.0);
    else {
      cv::Mat dist;
      cv::distanceTransform(m, dist, cv::DIST_L2, cv::DIST_MASK_5);
      any = cv::countNonZero(dist > 20.0) > 0;
    }
    benchmark::DoNotOptimize(any);
  }
  st.counters["core"] = any;
}

void BM_FillHoles(benchmark::State& st) {
  cv::setNumThreads(1);
  const cv::Mat m = bench_mask(1);
  cv::Mat w;
  for (auto _ : st) {
    m.copyTo(w);
    if (st.range(0)) fill_holes_fast(w);
    else fill_holes_labels(w);
    benchmark::DoNotOptimize(w.data);
  }
}

// The fine pip look's primitive (die_face.h, find_plane_pips) on the bench frame: the 20
// dice's top planes (a 15.1 mm disc round each die's cell at 6 px/mm, as read_board's looks
// sample them; the paper plane's homography stands for the top plane's), one die per
// iteration in turn. range(0): 0 find_plane_pips_reference (cv::connectedComponents' labels
// image, as before branch speed5), 1 find_plane_pips; range(1): 0 a first call (the plane
// sampled, then one threshold), 1 a later threshold on the kept sample.
struct PlaneBench {
  cv::Mat image;
  std::vector<cv::Matx33d> plane_to_image;
  std::vector<cv::Point2d> centre_mm;
  std::vector<bool> dark;
};
const PlaneBench& plane_bench() {
  static PlaneBench b;
  if (b.image.empty()) {
    const SheetLayout layout = standard_sheet();
    const SynthScene scene = bench::render_bench_frame(layout, 1280, 720);
    b.image = scene.image;
    for (const SynthDie& d : scene.dice) {
      const auto c = layout.cell_centre(d.hex);
      b.plane_to_image.push_back(scene.paper_to_image);
      b.centre_mm.emplace_back(c.x, c.y);
      b.dark.push_back(d.color != "black");
    }
  }
  return b;
}
constexpr double kPlaneReach = 15.1;           // read_board's reach_mm (max_face_offset_mm 7.5)
constexpr float kPlaneThreshold = 0.6f * 4 * 200;  // 0.6 x a paper of ~200 per channel

void BM_PlanePips(benchmark::State& st) {
  cv::setNumThreads(1);
  const PlaneBench& b = plane_bench();
  const bool ref = st.range(0) == 0, cached = st.range(1) == 1;
  const std::size_t n = b.centre_mm.size();
  std::vector<PlaneSample> samples(n);
  for (std::size_t i = 0; i < n; ++i)
    find_plane_pips(b.image, b.plane_to_image[i], b.centre_mm[i], kPlaneReach, b.dark[i], std::vector<float>{kPlaneThreshold}, {3, 2}, {}, &samples[i]);
  std::size_t i = 0, pips = 0;
  for (auto _ : st) {
    PlaneSample fresh;
    PlaneSample* s = cached ? &samples[i] : &fresh;
    const auto f = ref ? find_plane_pips_reference : static_cast<std::vector<std::vector<cv::Point2d>> (*)(
                                                         const cv::Mat&, const cv::Matx33d&, cv::Point2d, double, bool, const std::vector<float>&,
                                                         cv::Point2d, const PlanePipParams&, PlaneSample*)>(find_plane_pips);
    const auto r = f(b.image, b.plane_to_image[i], b.centre_mm[i], kPlaneReach, b.dark[i], std::vector<float>{kPlaneThreshold}, {3, 2}, {}, s);
    pips += r[0].size();
    benchmark::DoNotOptimize(r);
    i = (i + 1) % n;
  }
  st.counters["pips_per_call"] = static_cast<double>(pips) / static_cast<double>(std::max<benchmark::IterationCount>(1, st.iterations()));
}

// The plane's sampling alone, as find_plane_pips does it for a first call: OpenCV's
// warpPerspective of the 183 x 183 px square, then the luminance b + 2g + r.
void BM_PlaneWarp(benchmark::State& st) {
  cv::setNumThreads(1);
  const PlaneBench& b = plane_bench();
  const double s = 6.0;
  const int sz = static_cast<int>(std::ceil(2 * kPlaneReach * s)) + 1;
  const std::size_t n = b.centre_mm.size();
  std::size_t i = 0;
  cv::Mat plane, lum(sz, sz, CV_16U);
  for (auto _ : st) {
    const cv::Point2d o = b.centre_mm[i] - cv::Point2d(kPlaneReach, kPlaneReach);
    const cv::Matx33d to_image = b.plane_to_image[i] * cv::Matx33d(1 / s, 0, o.x, 0, 1 / s, o.y, 0, 0, 1);
    cv::warpPerspective(b.image, plane, cv::Mat(to_image), cv::Size(sz, sz), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
    for (int y = 0; y < sz; ++y) {
      const cv::Vec3b* row = plane.ptr<cv::Vec3b>(y);
      ushort* l = lum.ptr<ushort>(y);
      for (int x = 0; x < sz; ++x) l[x] = static_cast<ushort>(row[x][0] + 2 * row[x][1] + row[x][2]);
    }
    benchmark::DoNotOptimize(lum.data);
    i = (i + 1) % n;
  }
}

// The labelling of one threshold's disc mask: range(0) 0 mask_ops' components_with_stats
// (cv::connectedComponents + its statistics), 1 label_runs (die_face.h).
void BM_PlaneLabels(benchmark::State& st) {
  cv::setNumThreads(1);
  const PlaneBench& b = plane_bench();
  const double s = 6.0;
  const int sz = static_cast<int>(std::ceil(2 * kPlaneReach * s)) + 1;
  const double rc = kPlaneReach * s, mid = (sz - 1) / 2.0;
  std::vector<cv::Mat> masks;
  cv::Mat disc(sz, sz, CV_8U, cv::Scalar(0));
  cv::circle(disc, cv::Point(cvRound(mid), cvRound(mid)), cvRound(rc), cv::Scalar(255), cv::FILLED);
  for (std::size_t i = 0; i < b.centre_mm.size(); ++i) {
    PlaneSample ps;
    find_plane_pips(b.image, b.plane_to_image[i], b.centre_mm[i], kPlaneReach, b.dark[i], std::vector<float>{kPlaneThreshold}, {3, 2}, {}, &ps);
    cv::Mat m;
    cv::compare(ps.lum, cv::Scalar(kPlaneThreshold), m, b.dark[i] ? cv::CMP_LT : cv::CMP_GT);
    masks.push_back(m & disc);
  }
  std::size_t i = 0;
  cv::Mat labels, stats, cents;
  RunLabels rl;
  for (auto _ : st) {
    if (st.range(0) == 0) benchmark::DoNotOptimize(components_with_stats(masks[i], labels, stats, cents));
    else benchmark::DoNotOptimize(label_runs(masks[i], rl));
    i = (i + 1) % masks.size();
  }
}

}  // namespace

BENCHMARK(BM_Read)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true)->ComputeStatistics("median", [](const std::vector<double>& v) { auto c = v; std::sort(c.begin(), c.end()); return c[c.size() / 2]; });
BENCHMARK(BM_ReadPassesOff)->Args({1280, 720, 1})->Args({1280, 720, 2})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true)->ComputeStatistics("median", [](const std::vector<double>& v) { auto c = v; std::sort(c.begin(), c.end()); return c[c.size() / 2]; });
BENCHMARK(BM_ReadCellStages)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true)->ComputeStatistics("median", [](const std::vector<double>& v) { auto c = v; std::sort(c.begin(), c.end()); return c[c.size() / 2]; });
BENCHMARK(BM_ReadTracked)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_ReadEdgeFailFrame)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true)->ComputeStatistics("median", [](const std::vector<double>& v) { auto c = v; std::sort(c.begin(), c.end()); return c[c.size() / 2]; });
BENCHMARK(BM_ReadMarkerMissedFrame)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true)->ComputeStatistics("median", [](const std::vector<double>& v) { auto c = v; std::sort(c.begin(), c.end()); return c[c.size() / 2]; });
BENCHMARK(BM_CvtColorGray)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_FindDice)->Args({1280, 720})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OccluderDiff)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_Components)->Args({0, 0})->Args({0, 1})->Args({1, 0})->Args({1, 1})->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_OccluderCore)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_FillHoles)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_PlanePips)->Args({0, 0})->Args({1, 0})->Args({0, 1})->Args({1, 1})->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_PlaneWarp)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_PlaneLabels)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_MAIN();
