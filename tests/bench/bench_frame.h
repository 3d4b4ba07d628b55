#pragma once
// The frame the vision benchmarks read (BM_Read, the plane benches, read_once): the standard
// sheet with 20 dice, camera tilted 25 deg, seed 11, rendered at w x h. One definition, so the
// instruction counts of read_once and bench_vision's timings are of the same frame.
#include "vision/reader_synth.h"
#include "vision/sheet.h"

namespace hexdice::vision::bench {

inline SynthScene render_bench_frame(const SheetLayout& layout, int w, int h) {
  SynthOptions o;
  o.camera.size = {w, h};
  o.camera.tilt_deg = 25;
  o.seed = 11;
  return render_synth_scene(layout, random_dice(layout, 20, 11), o);
}

}  // namespace hexdice::vision::bench
