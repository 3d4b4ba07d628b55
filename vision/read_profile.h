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
  int component_reads = 0;  // (speed22) component counter runs of read_at's crops (FaceReader)
  int hand_found = 0;       // reads in which hand_mask found a hand
  int distance_maps = 0;    // (speed30) OpenCV distance maps made by the hand and occluder masks' thresholds (with chamfer_bits only where the bit path falls back)
  // The per-cell stage split by pass (read_face excluded from each), filled only when
  // `cell_detail` is set before the reads (each pass boundary costs a clock read, ~0.3 us):
  bool cell_detail = false;
  double cell_patch_ms = 0;   // patch warp, grid lines, paper-difference mask, disc, hand patch
  double cell_unit_ms = 0;    // shadow mask, clean-up, find_unit, guard token taken out / alone
  double cell_white_ms = 0;   // no blob: the white die's pip looks (FINEUNIT, PIPUNIT)
  double cell_locate_ms = 0;  // die region, body colour, the first locate (top mask, square slide)
  double cell_first_ms = 0;   // the first read_at (crop, one-polarity crop), read_face excluded
  double cell_other_ms = 0;   // face_other_paper: the neighbours' paper masks, cut body, locate
  double cell_fine_ms = 0;    // the fine pip look, the other grey, the patch pip look
  double cell_cover_ms = 0;   // colour_cover: colour masks, squares, locate over them
  double cell_retry_ms = 0;   // retries and recentring (their crops)
  double cell_guard_ms = 0;   // footprint, rest, guard search, occluded checks
  void add(const ReadProfile& o) {
    reads += o.reads; total_ms += o.total_ms; register_ms += o.register_ms; white_ms += o.white_ms;
    edges_ms += o.edges_ms; hand_ms += o.hand_ms; empty_ms += o.empty_ms; cells_ms += o.cells_ms;
    face_ms += o.face_ms; cells_examined += o.cells_examined; face_calls += o.face_calls;
    component_reads += o.component_reads;
    hand_found += o.hand_found;
    distance_maps += o.distance_maps;
    cell_patch_ms += o.cell_patch_ms; cell_unit_ms += o.cell_unit_ms; cell_white_ms += o.cell_white_ms;
    cell_locate_ms += o.cell_locate_ms; cell_first_ms += o.cell_first_ms; cell_other_ms += o.cell_other_ms;
    cell_fine_ms += o.cell_fine_ms; cell_cover_ms += o.cell_cover_ms; cell_retry_ms += o.cell_retry_ms;
    cell_guard_ms += o.cell_guard_ms;
  }
};

// The sink of this thread's read_board calls (nullptr: none). Returns the previous one.
ReadProfile* set_read_profile(ReadProfile* sink);
ReadProfile* read_profile();

// (speed28) Marks at the boundaries of read_board's work, for a count of instructions per
// part (build/bench/read_once with HEXDICE_READ_SPLIT: a callgrind dump at each mark). A mark
// ends a part: `part` is "frame" (everything before the per-cell stage: registration, the
// white, the printed edges, the hand and occluder masks, the all-cells empty test) or the
// ReadProfile pass that ran ("cell_patch_ms" ... "cell_guard_ms", as cell_detail splits it,
// read_face included), `q, r` the cell of a pass, or "after" (the last cell's end to the
// read's: the occluded cells' gate, the hidden lists). Called once per pass entered (every
// cell enters cell_patch_ms, an empty one only that), after the last cell, and when the read
// ends (a read that returns before its cells: no mark). With no mark set (the default) each
// boundary costs one branch. This thread's only; returns the previous one.
using ReadMark = void (*)(const char* part, int q, int r);
ReadMark set_read_mark(ReadMark mark);

}  // namespace hexdice::vision
