#pragma once
// (speed45) The loops this round's faster steps replace, kept for their exactness tests
// (tests/vision/mask_ops_test.cpp) and declared here, not in mask_ops.h (which every file
// includes). (speed46) Also two steps the reader uses, mask_outer_points and nonzero_box,
// declared here for the same reason (read.cpp includes this header).
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <opencv2/core.hpp>

#include "vision/mask_ops.h"

namespace hexdice::vision {

// box_sum_roi (mask_ops.h) as it was before speed45: the same bits for any float image.
void box_sum_roi_ref(const cv::Mat& src, int k, cv::Rect roi, cv::Mat& dst);

// The run labeller's first half (mask_ops.cpp's find_runs: every labelling is built on it):
// each row's runs of nonzero pixels (zeros: of zero pixels) within the spans when given, in
// r.runs and r.row_start, and r.root the union-find of the runs that touch (connectivity 8 or
// 4), flattened. find_runs_checked is the one the labellers use (speed45: the rows' runs
// first, then the unions); find_runs_ref the loop it replaced (the unions as each row is found).
void find_runs_checked(const cv::Mat& mask, bool zeros, int connectivity, RunLabels& r, const int* span_x0 = nullptr,
                       const int* span_x1 = nullptr);
void find_runs_ref(const cv::Mat& mask, bool zeros, int connectivity, RunLabels& r, const int* span_x0 = nullptr,
                   const int* span_x1 = nullptr);

// Whether a CV_8UC1 matrix has a nonzero byte: cv::countNonZero(m) != 0, stopping at the first
// (morph's test of its kernel, speed45).
bool any_nonzero_8u(const cv::Mat& m);

// morph's last step: the h x w (w <= 128) CV_8UC1 mask of bit rows (row y's bits 0-63 in
// words[2y], 64-127 in words[2y + 1]; none set at or past w), 255 where set, into dst (made
// h x w when it is not). unpack_mask_rows is morph's (speed45: 32 pixels a step in AVX2),
// unpack_mask_rows_ref the loop it replaced (8 a step).
void unpack_mask_rows(const std::uint64_t* words, int h, int w, cv::Mat& dst);
void unpack_mask_rows_ref(const std::uint64_t* words, int h, int w, cv::Mat& dst);

// (speed46) The points the reader's face_rect (cv::minAreaRect) is taken of: those of all outer
// contours of a CV_8UC1 mask (cv::findContours RETR_EXTERNAL, CHAIN_APPROX_SIMPLE, in its
// order; cv::findNonZero's when there is none). mask_outer_points_ref: of the whole mask (the
// code the reader had); mask_outer_points: of the box of its nonzero pixels (nonzero_box), offset
// by the box's corner: findContours pads its image with zeros, so the box padded is the whole
// mask round it, traced in the same order. The same points, at the box's share of the scan.
// known_box: that box when the caller knows it (the reader: its component's statistics). It must
// be the box of ALL the mask's nonzero pixels (a box of one component of several, or one cutting
// a component, gives other points; checked in debug builds).
void mask_outer_points(const cv::Mat& mask, std::vector<cv::Point>& pts, const cv::Rect* known_box = nullptr);
void mask_outer_points_ref(const cv::Mat& mask, std::vector<cv::Point>& pts);
// The bounding box of a CV_8UC1 mask's nonzero pixels; empty when there is none.
cv::Rect nonzero_box(const cv::Mat& mask);

// (speed47) The points (x[i], y[i]), i < n, through the homography h as apply_h (register.h) takes
// them, as floats: px[i], py[i] (read.cpp's printed-edge sample maps). With AVX2 4 points a step,
// each lane apply_h's operations in its order: the same floats (MaskOps.ApplyHPointsIsApplyH);
// apply_h_points_ref: the loop of apply_h calls (also the path without AVX2, and the tail).
void apply_h_points(const cv::Matx33d& h, const double* x, const double* y, int n, float* px, float* py);
void apply_h_points_ref(const cv::Matx33d& h, const double* x, const double* y, int n, float* px, float* py);
// The same steps with the doubles kept (the test compares them: the floats hide most reorderings).
void apply_h_points_f64(const cv::Matx33d& h, const double* x, const double* y, int n, double* px, double* py);
void apply_h_points_f64_ref(const cv::Matx33d& h, const double* x, const double* y, int n, double* px, double* py);

// (speed47) {std::cos(t), std::sin(t)} at t = angle(k), k = 0..N-1: a fixed set of directions
// made once (a static table) instead of at every use. The same doubles as calling them at the
// use with the same t (angle must compute t by the use's own expression: (pi / 9) * k and
// k * pi / 9 are not always the same double). read.cpp's ring samples (cell_paper, margin_mask,
// look_at_place) and the hex grid's corners; MaskOps.CosSinTableIsTheCalls.
template <std::size_t N, class Angle>
std::array<std::pair<double, double>, N> cos_sin_table(Angle angle) {
  std::array<std::pair<double, double>, N> d{};
  for (std::size_t k = 0; k < N; ++k) {
    const double t = angle(static_cast<int>(k));
    d[k] = {std::cos(t), std::sin(t)};
  }
  return d;
}
// The reader's fixed directions, each by its use's own expression (read.cpp's tables and
// MaskOps.CosSinTableIsTheCalls take them from here, so the test checks the reader's own).
struct ReaderAngles {
  static double cell_paper(int i) { return CV_PI / 9 * i + 0.17; }
  static double margin_ring(int a) { return a * CV_PI / 18; }
  static double place_ring(int a) { return CV_PI / 8 * a; }
  static double hex_corner(int i) { return CV_PI / 3 * i; }
};

}  // namespace hexdice::vision
