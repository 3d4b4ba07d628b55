// Decoding an image file's bytes (robust21): vision::decode_image (the checks and the one
// decode of `hexdice read`, `eval` and a referee's frame folder) against cv::imdecode alone,
// on the demo's 1280x720 JPEG frame 0 (arg 0), the same picture as a PNG (arg 1) and the JPEG
// with an Exif block saying "turned a quarter" (orientation 6, as a phone writes; arg 2:
// robust22 decodes it once and turns it, robust21 decoded it twice).
// Medians of 9 repetitions:
//   build/bench/bench_decode --benchmark_filter=Decode
#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "vision/reader_io.h"

namespace {

std::vector<unsigned char> bytes_of(int kind) {
  std::ifstream in(std::string(HEXDICE_SOURCE_DIR) + "/data/demo/frames/00000.jpg", std::ios::binary);
  std::vector<unsigned char> jpeg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (kind == 0) return jpeg;
  if (kind == 2) {  // APP1 "Exif\0\0", a little-endian TIFF header, IFD0 of one entry: orientation 6
    const unsigned char app1[] = {0xFF, 0xE1, 0, 34, 'E', 'x', 'i', 'f', 0, 0, 'I', 'I', 42, 0, 8, 0, 0, 0,
                                  1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0};
    jpeg.insert(jpeg.begin() + 2, std::begin(app1), std::end(app1));
    return jpeg;
  }
  std::vector<unsigned char> png;
  cv::imencode(".png", cv::imdecode(jpeg, cv::IMREAD_COLOR), png);
  return png;
}

double median(const std::vector<double>& v) {
  auto c = v;
  std::sort(c.begin(), c.end());
  return c[c.size() / 2];
}

void BM_DecodeImage(benchmark::State& state) {
  const auto b = bytes_of(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto img = hexdice::vision::decode_image(b);
    if (!img) state.SkipWithError("not decoded");
    benchmark::DoNotOptimize(img);
  }
}

void BM_CvImdecode(benchmark::State& state) {
  const auto b = bytes_of(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    cv::Mat img = cv::imdecode(b, cv::IMREAD_COLOR);
    benchmark::DoNotOptimize(img);
  }
}

}  // namespace

BENCHMARK(BM_DecodeImage)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Repetitions(9)->ReportAggregatesOnly(true)->ComputeStatistics("median", median);
BENCHMARK(BM_CvImdecode)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Repetitions(9)->ReportAggregatesOnly(true)->ComputeStatistics("median", median);
BENCHMARK_MAIN();
