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
//
// The WHOLE per-frame path on rendered 720p camera frames (data/demo/frames, the demo game
// rendered by tests/render/demo_frames.py): FrameReader::see (motion + vision::read_board)
// then Referee::process (stability, sync, the SQLite commit when an action completes):
// BM_WholeFramePathStill  one rendered still frame, over and over (the common case)
// BM_WholeFramePathDemo   the demo game's 64 frames in order, hands, commits and all; also
//                         the latency hand gone -> commit on it, in frames and ms at 10 fps
//                         (lat_frames_max, lat_ms_max: the first frame without a hand in
//                         view, per data/demo/frames.json, to the frame that commits)
// BM_LiveCamera30fps      the demo frames delivered like a camera at 30 fps (a source thread
//                         paced by the clock) through the live path of `hexdice referee`:
//                         LatestFrameGrabber (the reader takes the newest frame) -> FrameReader
//                         -> Referee::post_frame (threaded worker, drop_when_full). Counters:
//                         frames delivered, read, dropped (never queued), the
//                         frame age when its reading is posted (ms), the commits seen and
//                         lat_ms_max: first delivered frame without a hand -> the frame
//                         that committed, at 30 fps (add the frame's age for wall time).
// BM_DemoReaderStages/N   the reader's stages frame by frame on the demo (see below).
#include <benchmark/benchmark.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <thread>
#include <vector>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/read_profile.h"
#include "vision/sheet.h"

#include "companion/referee/frame_source.h"
#include "companion/referee/latest_frame.h"
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

// ---- Whole path on rendered frames -------------------------------------------------------
std::string demo_dir() { return std::string(HEXDICE_SOURCE_DIR) + "/data/demo"; }

std::vector<cv::Mat> demo_frames() {
  std::vector<cv::Mat> out;
  auto src = open_source(demo_dir() + "/frames");
  if (!src) return out;
  Frame f;
  while ((*src)->next(f)) out.push_back(f.image);
  return out;
}

std::vector<bool> demo_hands() {
  std::ifstream in(demo_dir() + "/frames.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const Json j = Json::parse(ss.str(), nullptr, false);
  std::vector<bool> out;
  if (j.is_discarded()) return out;
  for (const Json& f : j["frames"]) out.push_back(f["hand"].get<bool>());
  return out;
}

FrameCommands demo_commands() {
  std::ifstream in(demo_dir() + "/commands.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  auto c = parse_frame_commands(ss.str(), "commands.txt");
  return c ? *c : FrameCommands{};
}

std::optional<Position> demo_start() {
  std::ifstream in(demo_dir() + "/start.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto p = parse_position(ss.str());
  if (!p) return std::nullopt;
  return *p;
}

// Process CPU time (all threads, OpenCV's included), ms: on a loaded shared machine the
// wall-clock percentiles include time the frame waited for a core.
double cpu_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

void report(benchmark::State& state, std::vector<double> times, std::vector<double> cpu = {}) {
  std::sort(times.begin(), times.end());
  if (times.empty()) return;
  state.counters["median_ms"] = times[times.size() / 2];
  state.counters["p99_ms"] = times[std::min(times.size() - 1, times.size() * 99 / 100)];
  std::sort(cpu.begin(), cpu.end());
  if (cpu.empty()) return;
  state.counters["median_cpu_ms"] = cpu[cpu.size() / 2];
  state.counters["p99_cpu_ms"] = cpu[std::min(cpu.size() - 1, cpu.size() * 99 / 100)];
}

std::string fresh_db() {
  const std::string db = "bench_referee_whole_" + std::to_string(::getpid()) + ".db";
  for (const char* s : {"", "-wal", "-shm"}) std::remove((db + s).c_str());
  return db;
}

void BM_WholeFramePathStill(benchmark::State& state) {
  const auto frames = demo_frames();
  const auto start = demo_start();
  if (frames.empty() || !start) {
    state.SkipWithError("data/demo/frames or start.json missing (tests/render/demo_frames.py)");
    return;
  }
  const std::string db = fresh_db();
  auto ref = Referee::open(db, *start);
  if (!ref) {
    state.SkipWithError(ref.error().c_str());
    return;
  }
  FrameReader reader(vision::standard_sheet());
  std::vector<double> times, cpu;
  int frame = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_ms();
    (*ref)->process(reader.see(frames.front()), frame * 33.3, frame);
    ++frame;
    cpu.push_back(cpu_ms() - c0);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  report(state, times, cpu);
  ref->reset();
  for (const char* s : {"", "-wal", "-shm"}) std::remove((db + s).c_str());
}

void BM_WholeFramePathDemo(benchmark::State& state) {
  const auto frames = demo_frames();
  const auto hands = demo_hands();
  const auto start = demo_start();
  if (frames.empty() || !start || hands.size() != frames.size()) {
    state.SkipWithError("data/demo/frames, frames.json or start.json missing (tests/render/demo_frames.py)");
    return;
  }
  std::vector<double> times, cpu;
  std::vector<int> latency_frames;
  int commits = 0, games = 0;
  const auto commands = demo_commands();
  std::size_t i = frames.size();
  std::unique_ptr<Referee> ref;
  std::unique_ptr<FrameReader> reader;
  std::string db;
  for (auto _ : state) {
    if (i == frames.size()) {  // a new game: not timed
      state.PauseTiming();
      if (ref) {
        for (const LogLine& l : ref->view().log) {
          if (l.text.find("(seen, committed)") == std::string::npos) continue;
          ++commits;
          int clear = l.frame;
          while (clear > 0 && !hands[static_cast<std::size_t>(clear - 1)]) --clear;
          latency_frames.push_back(l.frame - clear);
        }
      }
      ref.reset();
      db = fresh_db();
      auto r = Referee::open(db, *start);
      if (!r) {
        state.SkipWithError(r.error().c_str());
        return;
      }
      ref = std::move(*r);
      ++games;
      reader = std::make_unique<FrameReader>(vision::standard_sheet());
      i = 0;
      state.ResumeTiming();
    }
    // The players' typed commands (commands.txt) go in before their frame, untimed.
    auto [lo, hi] = commands.equal_range(static_cast<int>(i));
    for (auto it = lo; it != hi; ++it) (void)ref->command(it->second);
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_ms();
    ref->process(reader->see(frames[i]), static_cast<double>(i) * 100.0, static_cast<int>(i));
    cpu.push_back(cpu_ms() - c0);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    ++i;
  }
  report(state, times, cpu);
  if (!latency_frames.empty()) {
    const int mx = *std::max_element(latency_frames.begin(), latency_frames.end());
    state.counters["lat_frames_max"] = mx;
    state.counters["lat_ms_max"] = mx * 100.0;  // the demo runs at 10 fps
    state.counters["seen_commits_per_game"] = static_cast<double>(commits) / std::max(1, games - 1);
  }
  ref.reset();
  for (const char* s : {"", "-wal", "-shm"}) std::remove((db + s).c_str());
}

// Where the demo's frames spend their time, per stage of the reader (vision/read_profile.h),
// one pass over the 64 frames in order through FrameReader (motion + read_board, tracker):
// counters are the per-frame median and p99 of the whole FrameReader::see, and the mean
// per-stage CPU of the heaviest 5% of the frames (heavy_*) and of all frames (all_*).
// HEXDICE_BENCH_PER_FRAME=1 prints one line per frame (stage times, hand, motion) to stderr.
// Arg 0: every frame read in full (FrameReader::set_skip_unusable(false)), the reader's own
// heavy frames; arg 1: as `hexdice referee` reads them (motion frames not read, a read
// stops at a covered cell); arg 2: no motion skip but the covered stop (a hand held still).
void BM_DemoReaderStages(benchmark::State& state) {
  const auto frames = demo_frames();
  const auto hands = demo_hands();
  if (frames.empty() || hands.size() != frames.size()) {
    state.SkipWithError("data/demo/frames or frames.json missing (tests/render/demo_frames.py)");
    return;
  }
  struct Row {
    double wall, cpu;
    vision::ReadProfile p;
    bool motion, read;
    std::size_t frame;
  };
  std::vector<Row> rows;
  const bool per_frame = std::getenv("HEXDICE_BENCH_PER_FRAME") != nullptr;
  // One thread, so the reader's thread CPU time is all of it (stage times are per thread).
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  for (auto _ : state) {
    vision::ReadParams rp;
    rp.stop_when_covered = state.range(0) == 2;
    FrameReader reader(vision::standard_sheet(), std::nullopt, rp);
    reader.set_skip_unusable(state.range(0) == 1);
    for (std::size_t i = 0; i < frames.size(); ++i) {
      vision::ReadProfile prof;
      vision::set_read_profile(&prof);
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = cpu_ms();
      const Observation o = reader.see(frames[i]);
      const double c1 = cpu_ms();
      const double w = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      vision::set_read_profile(nullptr);
      rows.push_back(Row{w, c1 - c0, prof, o.motion, prof.reads > 0, i});
      if (per_frame && rows.size() <= frames.size())
        std::fprintf(stderr,
                     "frame %2zu hand %d motion %d read %d wall %6.2f cpu %6.2f | reg %5.2f white %5.2f edges %5.2f "
                     "hand %5.2f empty %5.2f cells %5.2f face %5.2f (calls %2d, cells %2d, hand_found %d) hidden %zu found %d\n",
                     i, static_cast<int>(hands[i]), static_cast<int>(o.motion), prof.reads, w, c1 - c0, prof.register_ms,
                     prof.white_ms, prof.edges_ms, prof.hand_ms, prof.empty_ms, prof.cells_ms, prof.face_ms, prof.face_calls,
                     prof.cells_examined, prof.hand_found, o.hidden.size(), static_cast<int>(o.board_found));
    }
  }
  cv::setNumThreads(threads);
  std::vector<double> wall, cpu;
  for (const Row& r : rows) wall.push_back(r.wall), cpu.push_back(r.cpu);
  report(state, wall, cpu);
  std::vector<const Row*> by_cpu;
  for (const Row& r : rows) by_cpu.push_back(&r);
  std::sort(by_cpu.begin(), by_cpu.end(), [](const Row* a, const Row* b) { return a->cpu > b->cpu; });
  auto mean_of = [&](std::size_t n, const char* prefix) {
    vision::ReadProfile sum;
    for (std::size_t k = 0; k < n; ++k) sum.add(by_cpu[k]->p);
    const double d = std::max<std::size_t>(1, n);
    const std::string p(prefix);
    state.counters[p + "read_ms"] = sum.total_ms / d;
    state.counters[p + "reg_ms"] = sum.register_ms / d;
    state.counters[p + "hand_ms"] = (sum.hand_ms + sum.edges_ms) / d;
    state.counters[p + "cells_ms"] = sum.cells_ms / d;
    state.counters[p + "face_ms"] = sum.face_ms / d;
    state.counters[p + "face_calls"] = sum.face_calls / d;
  };
  mean_of(std::max<std::size_t>(1, by_cpu.size() / 20), "heavy_");
  mean_of(by_cpu.size(), "all_");
}

// The demo frames as a camera: each delivered at its 30 fps time (the source blocks like a
// camera's read), `repeat` times each so the 64 frames last a while.
class PacedFrames : public FrameSource {
 public:
  PacedFrames(const std::vector<cv::Mat>& frames, double fps, int repeat) : frames_(frames), fps_(fps), repeat_(repeat) {}
  bool live() const override { return true; }
  bool next(Frame& f) override {
    if (n_ >= static_cast<int>(frames_.size()) * repeat_) return false;
    if (n_ == 0) t0_ = std::chrono::steady_clock::now();
    std::this_thread::sleep_until(t0_ + std::chrono::microseconds(static_cast<long long>(n_ * 1e6 / fps_)));
    f.index = n_;
    f.image = frames_[static_cast<std::size_t>(n_ / repeat_)];
    f.name = std::to_string(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count());
    ++n_;
    return true;
  }

 private:
  const std::vector<cv::Mat>& frames_;
  double fps_;
  int repeat_;
  int n_ = 0;
  std::chrono::steady_clock::time_point t0_;
};

void BM_LiveCamera30fps(benchmark::State& state) {
  const auto frames = demo_frames();
  const auto start = demo_start();
  if (frames.empty() || !start) {
    state.SkipWithError("data/demo/frames or start.json missing (tests/render/demo_frames.py)");
    return;
  }
  const auto hands = demo_hands();
  const auto commands = demo_commands();
  double delivered = 0, read = 0, dropped = 0, runs = 0, commits = 0;
  std::vector<double> age, latency;
  for (auto _ : state) {
    const std::string db = fresh_db();
    RefereeParams params;
    params.drop_when_full = true;
    params.max_queue = 4;
    auto ref = Referee::open(db, *start, params);
    if (!ref) {
      state.SkipWithError(ref.error().c_str());
      return;
    }
    (*ref)->start();
    PacedFrames src(frames, 30.0, 3);
    FrameReader reader(vision::standard_sheet());
    const auto t0 = std::chrono::steady_clock::now();
    int n = 0;
    {
      LatestFrameGrabber grab(src);
      Frame f;
      int commands_done = 0;  // demo frames whose typed commands (commands.txt) are posted
      while (grab.next(f)) {
        // The players' commands go in before the first reading of their frame (or later).
        for (; commands_done <= f.index / 3; ++commands_done) {
          auto [lo, hi] = commands.equal_range(commands_done);
          for (auto it = lo; it != hi; ++it) (*ref)->post_command(it->second);
        }
        Observation o = reader.see(f.image);
        const double now = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        age.push_back(now - f.index * 1000.0 / 30.0);
        (*ref)->post_frame(std::move(o), now, f.index);
        ++n;
      }
      delivered += grab.grabbed();
      dropped += grab.dropped();
    }
    (*ref)->stop();
    // Hand gone -> commit: from the first delivered frame without a hand (per frames.json;
    // each image is delivered 3 times) to the frame whose reading committed, at 30 fps.
    if (hands.size() == frames.size())
      for (const LogLine& l : (*ref)->view().log) {
        if (l.text.find("(seen, committed)") == std::string::npos) continue;
        ++commits;
        int clear = l.frame / 3;
        while (clear > 0 && !hands[static_cast<std::size_t>(clear - 1)]) --clear;
        latency.push_back((l.frame - clear * 3) * 1000.0 / 30.0);
      }
    read += n;
    ++runs;
    ref->reset();
    for (const char* s : {"", "-wal", "-shm"}) std::remove((db + s).c_str());
  }
  std::sort(age.begin(), age.end());
  state.counters["delivered"] = delivered / std::max(1.0, runs);
  state.counters["read"] = read / std::max(1.0, runs);
  state.counters["dropped"] = dropped / std::max(1.0, runs);
  state.counters["dropped_pct"] = 100.0 * dropped / std::max(1.0, delivered);
  state.counters["seen_commits"] = commits / std::max(1.0, runs);
  if (!latency.empty()) state.counters["lat_ms_max"] = *std::max_element(latency.begin(), latency.end());
  if (!age.empty()) {
    state.counters["age_median_ms"] = age[age.size() / 2];
    state.counters["age_p99_ms"] = age[std::min(age.size() - 1, age.size() * 99 / 100)];
  }
}

BENCHMARK(BM_FramePath)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FramePathHand)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SyncChangedView)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WholeFramePathStill)->Unit(benchmark::kMillisecond)->MinTime(3.0);
BENCHMARK(BM_WholeFramePathDemo)->Unit(benchmark::kMillisecond)->Iterations(128);
BENCHMARK(BM_DemoReaderStages)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_LiveCamera30fps)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();

}  // namespace
}  // namespace hexdice::referee

BENCHMARK_MAIN();
