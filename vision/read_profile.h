// Where read_board spends its time, stage by stage (benchmarks and diagnostics only).
//
//   vision::ReadProfile prof;
//   vision::set_read_profile(&prof);   // this thread's read_board calls add into prof
//   ... read_board(...) ...
//   vision::set_read_profile(nullptr);
//
// Times are the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), in ms, summed over
// the reads; OpenCV's own worker threads are not counted (run with cv::setNumThreads(1)
// for a complete figure). With no sink set (the default) each stage costs one branch.
#pragma once

namespace hexdice::vision {

struct ReadProfile {
  int reads = 0;
  double total_ms = 0;
  double register_ms = 0;   // input checks, undistortion, register_sheet
  double white_ms = 0;      // visibility, white reference and each cell's paper
  double edges_ms = 0;      // the printed-edge test (visible_edges)
  double hand_ms = 0;       // the skin mask (hand_mask) and the covered cells
  double empty_ms = 0;      // rectified-plane setup, grid segments, the all-cells empty test
  double cells_ms = 0;      // the per-cell stage, read_face excluded
  double face_ms = 0;       // read_face calls (the first reading and its retries)
  int cells_examined = 0;   // cells that passed the empty test
  int face_calls = 0;       // read_face calls
  int hand_found = 0;       // reads in which hand_mask found a hand
  void add(const ReadProfile& o) {
    reads += o.reads; total_ms += o.total_ms; register_ms += o.register_ms; white_ms += o.white_ms;
    edges_ms += o.edges_ms; hand_ms += o.hand_ms; empty_ms += o.empty_ms; cells_ms += o.cells_ms;
    face_ms += o.face_ms; cells_examined += o.cells_examined; face_calls += o.face_calls;
    hand_found += o.hand_found;
  }
};

// The sink of this thread's read_board calls (nullptr: none). Returns the previous one.
ReadProfile* set_read_profile(ReadProfile* sink);
ReadProfile* read_profile();

}  // namespace hexdice::vision
