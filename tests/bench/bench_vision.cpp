// `read` of one frame with 20 dice, 1280x720 and 1920x1080, on one core; and one
// cv::cvtColor BGR->GRAY of the same frame for scale (ratio = read / cvtColor).
// Targets: 8 ms (720p) and 20 ms (1080p). Also the tracked case (markers searched near
// the last pose) that a video loop sees, and the sheet-free dice finder. BM_Read also
// reports its per-stage CPU times (vision/read_profile.h) and x_cvtColor: a read's thread
// CPU time over one cvtColor's measured in the same run.
#include <time.h>

#include <algorithm>
#include <map>
#include <vector>

#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/dice.h"
#include "vision/mask_ops.h"
#include "vision/read.h"
#include "vision/read_profile.h"
#include "vision/sheet.h"
#include "vision/reader_synth.h"

namespace {

using namespace hexdice::vision;

const cv::Mat& frame(int w, int h) {
  static std::map<std::pair<int, int>, cv::Mat> cache;
  auto& m = cache[{w, h}];
  if (m.empty()) {
    const SheetLayout layout = standard_sheet();
    SynthOptions o;
    o.camera.size = {w, h};
    o.camera.tilt_deg = 25;
    o.seed = 11;
    m = render_synth_scene(layout, random_dice(layout, 20, 11), o).image;
  }
  return m;
}

// passes_off: 0 all passes, 1 fine_pip_look off, 2 also colour_cover_min 0 (the whiteblack2
// and colour2 passes off; BM_ReadPassesOff), to measure what each pass costs on this frame.
void read_bench(benchmark::State& st, int passes_off) {
  cv::setNumThreads(1);
  ReadParams params;
  if (passes_off >= 1) params.fine_pip_look = false;
  if (passes_off >= 2) params.colour_cover_min = 0;
  const cv::Mat& img = frame(static_cast<int>(st.range(0)), static_cast<int>(st.range(1)));
  const SheetLayout layout = standard_sheet();
  std::size_t cells = 0;
  // Per-stage thread CPU time of each read (vision/read_profile.h), as counters (ms/read).
  ReadProfile prof;
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
}

void BM_Read(benchmark::State& st) { read_bench(st, 0); }
// range(2): which passes are off (read_bench).
void BM_ReadPassesOff(benchmark::State& st) { read_bench(st, static_cast<int>(st.range(2))); }

void BM_ReadTracked(benchmark::State& st) {
  cv::setNumThreads(1);
  const cv::Mat& img = frame(static_cast<int>(st.range(0)), static_cast<int>(st.range(1)));
  const SheetLayout layout = standard_sheet();
  TrackerState tracker;
  read_board(img, layout, nullptr, {}, &tracker);
  for (auto _ : st) benchmark::DoNotOptimize(read_board(img, layout, nullptr, {}, &tracker));
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
// version (arg 1 with the ratio, arg 2 without it: read.cpp's frame without an arm): a paper-like
// print, the frame a little darker and noisier than it, a few shadowed pixels.
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
      auto f = simd ? occluder_diff_row : occluder_diff_row_ref;
      f(frame_.ptr<uchar>(y), print.ptr<uchar>(y), pmin.ptr<uchar>(y), pmax.ptr<uchar>(y), light.ptr<float>(y), w, ip, 0.72f,
        0.035f * 0.035f, out.ptr<uchar>(y), st.range(0) == 2 ? nullptr : ratio.ptr<float>(y));
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

}  // namespace

BENCHMARK(BM_Read)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true)->ComputeStatistics("median", [](const std::vector<double>& v) { auto c = v; std::sort(c.begin(), c.end()); return c[c.size() / 2]; });
BENCHMARK(BM_ReadPassesOff)->Args({1280, 720, 1})->Args({1280, 720, 2})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true)->ComputeStatistics("median", [](const std::vector<double>& v) { auto c = v; std::sort(c.begin(), c.end()); return c[c.size() / 2]; });
BENCHMARK(BM_ReadTracked)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_CvtColorGray)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_FindDice)->Args({1280, 720})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OccluderDiff)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_Components)->Args({0, 0})->Args({0, 1})->Args({1, 0})->Args({1, 1})->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_FillHoles)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_MAIN();
