// read_once: one `read_board` of the bench frame (BM_Read's: 20 dice, camera tilt 25 deg,
// seed 11) or of an image, for an instruction count that does not move with the machine's
// load (the figures of docs/reader.md's speed rounds):
//   valgrind --tool=callgrind --instr-atstart=no build/bench/read_once 1280 720
// Usage: read_once [W H [READS [IMAGE]]]: renders a W x H frame (1280 x 720) or loads
// IMAGE, reads it once to warm up (caches, the expected print, first allocations), then
// reads it READS - 1 more times (1) with callgrind's instrumentation on round them only.
// HEXDICE_READ_PARAMS=FILE: read with ReadParams::load(FILE) instead of the defaults (to
// count a parameter's cost before changing its default).
// HEXDICE_READ_SPLIT=1 (speed28): a callgrind dump at each of read_board's marks
// (vision/read_profile.h, set_read_mark), named by the part it ends ("frame",
// "cell_locate_ms q,r", ...): each dump file's totals are that part's instructions, e.g.
//   HEXDICE_READ_SPLIT=1 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/s/cg build/bench/read_once
//   for f in /tmp/s/cg.*; do echo "$(sed -n 's/^desc: Trigger: Client Request: //p' $f) $(sed -n 's/^totals: //p' $f)"; done
// (the warm-up read's dumps, uninstrumented, total 0).
// Built with HEXDICE_BENCH; not a test. Without valgrind/callgrind.h the macros are no-ops.
#include <cstdio>
#include <cstdlib>

#include "callgrind_marks.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "bench_frame.h"
#include "vision/read.h"
#include "vision/read_profile.h"

int main(int argc, char** argv) {
  using namespace hexdice::vision;
  cv::setNumThreads(1);
  const SheetLayout layout = standard_sheet();
  const int w = argc > 1 ? std::atoi(argv[1]) : 1280;
  const int h = argc > 2 ? std::atoi(argv[2]) : 720;
  const int reads = argc > 3 ? std::atoi(argv[3]) : 2;
  cv::Mat img;
  if (argc > 4) {
    img = cv::imread(argv[4]);
    if (img.empty()) {
      std::fprintf(stderr, "read_once: cannot read %s\n", argv[4]);
      return 1;
    }
  } else {
    img = bench::render_bench_frame(layout, w, h).image;
  }
  ReadParams params;
  if (const char* pf = std::getenv("HEXDICE_READ_PARAMS"); pf && *pf) {
    auto loaded = ReadParams::load(pf);
    if (!loaded) {
      std::fprintf(stderr, "read_once: %s\n", loaded.error().c_str());
      return 1;
    }
    params = *loaded;
  }
  if (const char* sp = std::getenv("HEXDICE_READ_SPLIT"); sp && *sp && *sp != '0')
    set_read_mark([](const char* part, int q, int r) {
      char label[64];
      std::snprintf(label, sizeof label, "%s %d,%d", part, q, r);
      (void)label;  // (unused without callgrind.h)
      CALLGRIND_DUMP_STATS_AT(label);
    });
  std::size_t cells = read_board(img, layout, nullptr, params).cells.size();  // warm
  CALLGRIND_START_INSTRUMENTATION;
  for (int i = 1; i < reads; ++i) cells = read_board(img, layout, nullptr, params).cells.size();
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%dx%d: %zu cells read\n", img.cols, img.rows, cells);
  return 0;
}
