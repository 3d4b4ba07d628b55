// The referee's per-frame path at 720p, recognition excluded (the board reader is another
// component; add its own time): motion over the sheet by frame differencing, then the
// stability window and, when the view changed, sync (core/sync.h explain).
//
//   build/bench/bench_referee --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// BM_FramePath          a still frame: thumb + difference + Referee::process (the common case)
// BM_FramePathHand      a frame with a hand in it (motion found, nothing else done)
// BM_SyncChangedView    the rare frame that completes a stable, changed view: explain() on
//                       a mid-game position (the SQLite commit after it: bench_record)
// The per-frame p99 is the 99th percentile of individual frame times (reported as a counter).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "companion/referee/frame_source.h"
#include "companion/referee/referee.h"

namespace hexdice::referee {
namespace {

Position bench_position() {
  Position p = *Position::create(5, {Player{"red", 0}, Player{"blue", 3}});
  const int faces[] = {1, 2, 3, 4, 5, 6, 1, 2};
  for (int i = 0; i < 8; ++i) {
    (void)p.place(Hex{i - 4, -4 + (i % 2)}, 0, faces[i]);
    (void)p.place(Hex{i - 3, 4 - (i % 2)}, 1, faces[7 - i]);
  }
  return p;
}

cv::Mat table_frame(bool hand) {
  cv::Mat f(720, 1280, CV_8UC3, cv::Scalar(235, 235, 235));
  cv::randn(f, cv::Scalar::all(200), cv::Scalar::all(6));
  for (int i = 0; i < 16; ++i) cv::rectangle(f, cv::Rect(300 + 40 * i, 200 + 20 * (i % 5), 30, 30), cv::Scalar(40, 40, 200), -1);
  if (hand) cv::ellipse(f, cv::Point(1100, 300), cv::Size(260, 120), 20, 0, 360, cv::Scalar(120, 150, 210), -1);
  return f;
}

void run_frames(benchmark::State& state, bool hand) {
  const std::string db = "bench_referee_" + std::to_string(::getpid()) + ".db";
  for (const char* s : {"", "-wal", "-shm"}) std::remove((db + s).c_str());
  const Position pos = bench_position();
  auto ref = Referee::open(db, pos);
  if (!ref) {
    state.SkipWithError(ref.error().c_str());
    return;
  }
  const cv::Mat still = table_frame(false);
  const cv::Mat moved = table_frame(true);
  const Observation obs = observation_of(pos);
  const MotionParams mp;
  cv::Mat prev = motion_thumb(still, mp);
  std::vector<double> times;
  int frame = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const cv::Mat& img = hand && frame % 2 ? moved : still;
    cv::Mat thumb = motion_thumb(img, mp);
    Observation o = obs;
    o.motion = motion_fraction(prev, thumb, mp) > mp.min_fraction;
    (*ref)->process(o, frame * 33.3, frame);
    prev = std::move(thumb);
    ++frame;
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  if (!times.empty()) {
    state.counters["median_ms"] = times[times.size() / 2];
    state.counters["p99_ms"] = times[std::min(times.size() - 1, times.size() * 99 / 100)];
  }
  ref->reset();
  for (const char* s : {"", "-wal", "-shm"}) std::remove((db + s).c_str());
}

void BM_FramePath(benchmark::State& state) { run_frames(state, false); }
void BM_FramePathHand(benchmark::State& state) { run_frames(state, true); }

void BM_SyncChangedView(benchmark::State& state) {
  const Position pos = bench_position();
  std::vector<Action> legal = legal_actions(pos);
  const Position next = apply(pos, legal[legal.size() / 2])->position;
  const SeenBoard seen = to_seen(observation_of(next), pos);
  for (auto _ : state) benchmark::DoNotOptimize(explain(pos, seen));
}

BENCHMARK(BM_FramePath)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FramePathHand)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SyncChangedView)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hexdice::referee

BENCHMARK_MAIN();
