// `hexdice dice` on one 640x640 real photo (byler, 10+ dice) with the shipped model, on one
// core (and with round 3's read-everything schedule, for the ratio); the candidate stage
// alone; the lattice pip reader on one die. Skipped (error state) without the shared data.
#include <benchmark/benchmark.h>

#include <filesystem>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "vision/dice.h"

namespace {

using namespace hexdice::vision;

cv::Mat photo() {
  return cv::imread((std::filesystem::path(HEXDICE_SHARED_DIR) / "data/real-dice/images/byler_IMG_20191208_111228.jpg").string());
}

void find_dice_bench(benchmark::State& st, bool round3, bool round9 = false) {
  cv::setNumThreads(1);
  const cv::Mat img = photo();
  if (img.empty()) {
    st.SkipWithError("no real-dice photo");
    return;
  }
  DiceParams p;
  p.model_path = (std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/dice_model.yml.gz").string();
  p.use_model = true;
  if (round3) {
    // Round 3's schedule: every accepted candidate read, the forest on four quarter turns.
    p.pre_nms_radius = 0;
    p.model_turns = 4;
  }
  if (round9) {
    // Round 9's suppression (round 10 in docs/dice.md): by the larger side, wide reads kept.
    p.pre_nms_smaller = false;
    p.max_side_over_face = 0;
    p.max_side_over_median = 0;
    p.max_box_outside = 1;
  }
  std::size_t n = 0;
  for (auto _ : st) n = find_dice(img, p).size();
  st.counters["dice"] = static_cast<double>(n);
}
void BM_FindDice(benchmark::State& st) { find_dice_bench(st, false); }
BENCHMARK(BM_FindDice)->Unit(benchmark::kMillisecond);
// The same without the first suppression and with four turns (the ratio is the saving).
void BM_FindDiceReadAll(benchmark::State& st) { find_dice_bench(st, true); }
BENCHMARK(BM_FindDiceReadAll)->Unit(benchmark::kMillisecond);

// Round 9's suppression, for the ratio (the first suppression by the smaller side reads more).
void BM_FindDiceRound9(benchmark::State& st) { find_dice_bench(st, false, true); }
BENCHMARK(BM_FindDiceRound9)->Unit(benchmark::kMillisecond);

void BM_DiceCandidates(benchmark::State& st) {
  cv::setNumThreads(1);
  const cv::Mat img = photo();
  if (img.empty()) {
    st.SkipWithError("no real-dice photo");
    return;
  }
  double scale = 1;
  const cv::Mat work = dice_work_image(img, DiceParams{}, scale);
  std::size_t n = 0;
  for (auto _ : st) n = dice_candidates(work).size();
  st.counters["candidates"] = static_cast<double>(n);
}
BENCHMARK(BM_DiceCandidates)->Unit(benchmark::kMillisecond);

// The lattice pip reader on one labelled die (byler, face 5 at 243,353-287,390).
void BM_ReadPips(benchmark::State& st) {
  cv::setNumThreads(1);
  const cv::Mat img = photo();
  if (img.empty()) {
    st.SkipWithError("no real-dice photo");
    return;
  }
  int face = 0;
  for (auto _ : st) face = read_pips(img, cv::Rect2f(243, 353, 44, 44)).face;
  st.counters["face"] = face;
}
BENCHMARK(BM_ReadPips)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
