// read_face (vision/die_face.h) on one 48 px top-face crop, one core: the lattice reader
// (default, with its component-counter fallback), the lattice alone, the component
// counter alone, and one cv::cvtColor BGR->GRAY of a 1280x720 frame for scale. The board
// read must fit 8 ms for 20 dice at 720p, so read_face should cost well under 0.2 ms.
// Crops: the 36 synthetic faces of tests/vision/face_synth.h (6 faces x 6 colours,
// 18-24 px dice, turned, slightly off-centre, noisy), cycled.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "tests/vision/face_synth.h"
#include "vision/die_face.h"

namespace {

using namespace hexdice::vision;

const std::vector<cv::Mat>& crops() {
  static std::vector<cv::Mat> out;
  if (out.empty()) {
    std::mt19937 rng(7);
    const char* colours[] = {"red", "blue", "green", "yellow", "white", "black"};
    for (int face = 1; face <= 6; ++face)
      for (int c = 0; c < 6; ++c) {
        testing::SynthFace f;
        f.face = face;
        f.colour = colours[c];
        f.face_px = 18 + face;
        f.angle_deg = 13.0 * (face + 6 * c);
        f.off_x = 0.03 * (c - 2);
        f.noise = 3;
        out.push_back(testing::synth_face_crop(f, &rng));
      }
  }
  return out;
}

void run(benchmark::State& state, const FaceParams& p) {
  const auto& cs = crops();
  std::size_t i = 0;
  int ok = 0;
  for (auto _ : state) {
    const FaceReading r = read_face(cs[i % cs.size()], p);
    ok += r.face == static_cast<int>(i % cs.size() / 6 + 1);
    benchmark::DoNotOptimize(r);
    ++i;
  }
  state.counters["right"] = benchmark::Counter(static_cast<double>(ok) / static_cast<double>(std::max<std::size_t>(1, i)));
}

void BM_ReadFace(benchmark::State& state) { run(state, FaceParams{}); }
void BM_ReadFaceLatticeOnly(benchmark::State& state) {
  FaceParams p;
  p.fallback_below = 0;
  run(state, p);
}
void BM_ReadFaceComponents(benchmark::State& state) {
  FaceParams p;
  p.lattice = false;
  run(state, p);
}
void BM_CvtColorGray720p(benchmark::State& state) {
  cv::Mat img(720, 1280, CV_8UC3), grey;
  cv::randu(img, 0, 255);
  for (auto _ : state) {
    cv::cvtColor(img, grey, cv::COLOR_BGR2GRAY);
    benchmark::DoNotOptimize(grey.data);
  }
}

BENCHMARK(BM_ReadFace)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReadFaceLatticeOnly)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReadFaceComponents)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CvtColorGray720p)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
