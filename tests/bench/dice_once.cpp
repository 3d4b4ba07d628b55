// dice_once: one `find_dice` of a photo with the forest and the face network, for an
// instruction count that does not move with the machine's load (docs/dice.md real round 36):
//   valgrind --tool=callgrind --instr-atstart=no build/bench/dice_once PHOTO [MODEL [PRE_NMS_WIDE]]
// Finds the dice once to warm up (the models load, first allocations), then once more with
// callgrind's instrumentation on round it only. MODEL: the forest ("" or none = the shipped
// one); PRE_NMS_WIDE: DiceParams::pre_nms_wide (none = its default), to count that rule's
// extra reads. (`hexdice` itself links a codec library that valgrind cannot run.)
// Built with HEXDICE_BENCH; not a test. Without valgrind/callgrind.h the macros are no-ops.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "callgrind_marks.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "vision/dice.h"

int main(int argc, char** argv) {
  using namespace hexdice::vision;
  if (argc < 2) {
    std::fprintf(stderr, "usage: dice_once PHOTO [MODEL [PRE_NMS_WIDE]]\n");
    return 2;
  }
  cv::setNumThreads(1);
  const cv::Mat img = cv::imread(argv[1]);
  if (img.empty()) {
    std::fprintf(stderr, "dice_once: cannot read %s\n", argv[1]);
    return 1;
  }
  DiceParams p;
  p.use_model = true;  // as `hexdice dice`
  if (argc > 2) p.model_path = argv[2];
  if (argc > 3) p.pre_nms_wide = std::atof(argv[3]);
  auto warm = find_dice_checked(img, p);
  if (!warm) {
    std::fprintf(stderr, "dice_once: %s\n", warm.error().c_str());
    return 1;
  }
  CALLGRIND_START_INSTRUMENTATION;
  const std::size_t n = find_dice(img, p).size();
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%s: %zu dice\n", argv[1], n);
  return 0;
}
