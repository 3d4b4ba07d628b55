// Cost of producing the printable sheet: geometry, 300 dpi raster, PNG with dpi, PDF.
#include <benchmark/benchmark.h>

#include "vision/sheet.h"
#include "vision/sheet_render.h"

namespace {

using namespace hexdice::vision;

void BM_MakeSheet(benchmark::State& st) {
  for (auto _ : st) benchmark::DoNotOptimize(make_sheet(static_cast<int>(st.range(0)), "letter"));
}
BENCHMARK(BM_MakeSheet)->Arg(5)->Arg(8);

void BM_BoardJsonRoundTrip(benchmark::State& st) {
  const SheetLayout s = standard_sheet();
  for (auto _ : st) benchmark::DoNotOptimize(sheet_from_json_text(to_json_text(s)));
}
BENCHMARK(BM_BoardJsonRoundTrip);

void BM_RenderSheet(benchmark::State& st) {
  const SheetLayout s = standard_sheet();
  for (auto _ : st) benchmark::DoNotOptimize(render_sheet(s, static_cast<double>(st.range(0))));
}
BENCHMARK(BM_RenderSheet)->Arg(100)->Arg(300)->Unit(benchmark::kMillisecond);

void BM_EncodePng300(benchmark::State& st) {
  const cv::Mat img = render_sheet(standard_sheet(), 300);
  for (auto _ : st) benchmark::DoNotOptimize(encode_png_dpi(img, 300));
}
BENCHMARK(BM_EncodePng300)->Unit(benchmark::kMillisecond);

void BM_SheetPdf(benchmark::State& st) {
  const SheetLayout s = standard_sheet();
  for (auto _ : st) benchmark::DoNotOptimize(sheet_pdf(s));
}
BENCHMARK(BM_SheetPdf)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
