// Faster equivalents of OpenCV calls the reader makes on small images (a cell's 80x90
// patch, a 48 px face crop), with bit-identical results (tests/vision/mask_ops_test.cpp
// compares them with OpenCV's on random inputs). Speed only: nothing here decides anything.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>

namespace hexdice::vision {

// cv::connectedComponentsWithStats(mask, labels, stats, centroids, connectivity, CV_32S)
// with the same labels, stats and centroids (label 0 included): the labels from
// cv::connectedComponents (the same labelling algorithm), the statistics in one pass of
// our own. OpenCV 4.6 takes ~45 us on an 80x90 mask for what this does in ~10.
// Labelled run by run (label_components), the statistics from the runs; an OpenCV 4.6
// labelling ~5x faster on the reader's sparse masks. components_with_stats_ref is the
// form it replaces (cv::connectedComponents + a statistics pass over the labels).
int components_with_stats(const cv::Mat& mask, cv::Mat& labels, cv::Mat& stats, cv::Mat& centroids,
                          int connectivity = 8);
int components_with_stats_ref(const cv::Mat& mask, cv::Mat& labels, cv::Mat& stats, cv::Mat& centroids,
                              int connectivity = 8);
// (Speed round 40) components_with_stats' count, stats and centroids without the labels
// image (the runs are labelled and numbered, no label is written): for the callers that read
// nothing else.
int components_stats(const cv::Mat& mask, cv::Mat& stats, cv::Mat& centroids, int connectivity = 8);

// cv::connectedComponents(mask, labels, connectivity, CV_32S) for a CV_8UC1 mask, the same
// labels: each row's runs of nonzero pixels joined by union-find (runs of adjacent rows
// that touch, diagonally too for 8), numbered as OpenCV 4.6's default algorithms number
// them (in the order of each component's first 2x2 block, 8-connected, or first pixel,
// 4-connected, in raster order; the same in OpenCV's parallel form). The cost is in the
// runs, not the pixels (16 pixels at a time are skipped). Anything else: OpenCV's.
int label_components(const cv::Mat& mask, cv::Mat& labels, int connectivity = 8);

// The one run labeller (label_components, components_with_stats, fill_holes_fast and
// component_at are built on it too), in its form without a labels image: the 8-connected
// components of a CV_8UC1 mask (non-zero = set), those of cv::connectedComponents(mask,
// labels, 8) in the same order (component c here is its label c + 1), with the statistics
// of cv::connectedComponentsWithStats (the centroid as integer sums / area, as
// components_with_stats) and each component's runs in raster order. With spans, only row
// y's pixels x in [span_x0[y], span_x1[y]) are looked at (the rest as if 0). Buffers are
// kept in `out` between calls.
struct MaskRun {
  int y = 0, x0 = 0, x1 = 0;  // row y, pixels x0 .. x1 - 1
};
struct RunComponent {
  int left = 0, top = 0, right = 0, bottom = 0;  // inclusive bounds
  int area = 0;
  double cx = 0, cy = 0;
};
struct RunLabels {
  std::vector<MaskRun> runs;      // raster order
  std::vector<int> row_start;     // row y's runs: runs[row_start[y] .. row_start[y + 1])
  std::vector<int> root;          // each run's component's first run (the union-find, flattened)
  std::vector<int> run_comp;      // each run's component (OpenCV's order, from 0)
  std::vector<RunComponent> comps;
  std::vector<int> comp_begin;    // component c's runs: comp_runs[comp_begin[c] .. comp_begin[c + 1]), raster order
  std::vector<int> comp_runs;
  std::vector<std::pair<long, int>> scratch_key;
  std::vector<int> scratch_rank;
  std::vector<std::uint64_t> scratch_sx, scratch_sy;
};
int label_runs(const cv::Mat& mask, RunLabels& out, const int* span_x0 = nullptr, const int* span_x1 = nullptr);
// (speed42) components_stats (count, stats, centroids) with its runs kept in `runs` (found and
// numbered, no labels image), and component_mask: from them, the mask that comparing the labels
// image of components_with_stats with `label` gives (labels == label: 255 on label's pixels, 0
// elsewhere; label 0 the background, a label past the last one nothing), for the callers that
// read one label's pixels of the image and nothing else. A CV_8UC1 mask, connectivity 8 or 4.
int components_stats_runs(const cv::Mat& mask, cv::Mat& stats, cv::Mat& centroids, RunLabels& runs, int connectivity = 8);
cv::Mat component_mask(const RunLabels& runs, int label, cv::Size size);
// (speed42) A window of that labels image tested label by label, from the runs: a window-sized
// CV_8U mask, 255 on the pixels whose component's label (component c's is c + 1) passes
// keep(label), 0 elsewhere (on the background's pixels and outside the image too). The same
// bytes as (labels(window) == label) for keep = "is label", or a loop over the window's labels.
template <class Keep>
cv::Mat runs_mask(const RunLabels& runs, cv::Rect window, Keep&& keep) {
  cv::Mat out(window.size(), CV_8U, cv::Scalar(0));
  const int rows = static_cast<int>(runs.row_start.size()) - 1;
  for (int y = std::max(0, window.y); y < std::min(rows, window.y + window.height); ++y) {
    uchar* o = out.ptr<uchar>(y - window.y);
    for (int k = runs.row_start[static_cast<std::size_t>(y)]; k < runs.row_start[static_cast<std::size_t>(y) + 1]; ++k) {
      const MaskRun& q = runs.runs[static_cast<std::size_t>(k)];
      const int a = std::max(q.x0, window.x), b = std::min(q.x1, window.x + window.width);
      if (a < b && keep(runs.run_comp[static_cast<std::size_t>(k)] + 1))
        std::memset(o + (a - window.x), 255, static_cast<std::size_t>(b - a));
    }
  }
  return out;
}

// cv::medianBlur(src, dst, 5) for CV_8UC1/3/4: the exact median of each channel's 5x5
// window, the border replicated (as OpenCV does for 8-bit images), by a sorting network
// run on 16 bytes at a time. OpenCV 4.6 takes ~25 us on the 16x16 colour image of
// read_face's local body colour, mostly in its per-pixel code for the 2 px border.
void median_blur5(const cv::Mat& src, cv::Mat& dst);

// cv::dilate(src, dst, cv::Mat()) of a CV_32FC1 image (3x3 rectangle, default border: the
// border never wins): each pixel the maximum of its in-image 3x3 neighbours, the row maxima
// then the column maxima, 4 floats at a time. A maximum of floats is exact in any order for
// maps without NaN and without -0 beside +0 (the lattice's response maps: >= 0, no -0);
// other types, and views into a larger image (whose pixels beyond the view OpenCV reads as
// the border), go to OpenCV. OpenCV 4.6 spends ~35 000 instructions on a 48x48 map (its
// filter engine's set-up), this ~17 000 (read_once, 720p).
void dilate3x3_f32(const cv::Mat& src, cv::Mat& dst);

// cv::resize(src, dst, cv::Size(), scale, scale, cv::INTER_AREA). When that is OpenCV's
// exact 3:1 reduction of a CV_8UC1 image (a 1920x1080 frame to the registration's 640 px:
// each pixel the mean of 3x3, sum * (1/9.f) rounded), done 16 pixels at a time with the
// same arithmetic (OpenCV 4.6 vectorises only 2:1; ~1 ms at 1080p); otherwise cv::resize.
void resize_area(const cv::Mat& src, cv::Mat& dst, double scale);
// cv::resize(src, dst, dsize, 0, 0, cv::INTER_AREA): an exact 3:1 reduction of a CV_8UC1
// or CV_8UC3 image done as above (read_face's 48 -> 16 px local body colour: OpenCV 4.6
// has no vector path for it, ~7 us), anything else by cv::resize.
void resize_area_to(const cv::Mat& src, cv::Mat& dst, cv::Size dsize);
// (speed21) cv::resize(src, dst, dsize, 0, 0, cv::INTER_LINEAR) of a CV_32FC1 map of finite
// values enlarged 2:1 each way (the lattice reader's 24 -> 48 px wide blur): OpenCV 4.6's
// positions ((d + 0.5) / 2 - 0.5 as a float, clamped at the borders) and weights (1 - f, f),
// the row pass s0 a0 + s1 a1 then the column pass r0 b0 + r1 b1 in floats, without its
// tables' and buffers' set-up per call (~35 000 instructions for 48 x 48). Anything else
// (other types or factors: there OpenCV's weights differ in the last bit): cv::resize.
// Tested against cv::resize (MaskOps.ResizeLinearUpF32IsOpenCVsResize).
void resize_linear_up_f32(const cv::Mat& src, cv::Mat& dst, cv::Size dsize);
// (speed35) The top-left `part` (at most dsize) of cv::resize(src, big, dsize, 0, 0,
// cv::INTER_LINEAR) of a CV_32F image of 1 to 4 channels and finite values enlarged (or kept)
// each way, any factor, into dst (part's size, row by row: a dst of that size and type, a view
// too, is written in place): OpenCV 4.6's resizeGeneric_ step
// for step: column positions (d + 0.5) * (1 / (dsize / size)) - 0.5 as a float, floor and
// fraction f, weights (1 - f, f), clamped to the first column (f 0) and the last (f 0, its
// weight 1 alone); the row pass s0 a0 + s1 a1 (the last column s a0); rows the same positions
// unclamped, the two source rows sy and sy + 1 each clamped into the image, the column pass
// r0 b0 + r1 b1, all in floats (OpenCV's vector steps do the same operations per lane, with no
// fused multiply-add in its SSE baseline). The light map of read.cpp's occluder_mask (a 10 mm
// grid to 1 px/mm, ~1.4 M instructions in OpenCV for a whole A3 sheet). Other types or a
// reduction: cv::resize, then the part copied. Tested against cv::resize
// (MaskOps.ResizeLinearF32PartIsOpenCVsResize).
void resize_linear_f32_part(const cv::Mat& src, cv::Mat& dst, cv::Size dsize, cv::Size part);
// (speed22) cv::resize(src, dst, dsize, 0, 0, cv::INTER_LINEAR) of a CV_8UC3 image enlarged
// by whole factors, its rows whole 16-byte steps (the lattice reader's 16 -> 48 px local body
// colour; other enlargements differed from OpenCV's bytes and go to cv::resize):
// OpenCV 4.6's fixed-point path (resizeGeneric_: positions (d + 0.5) * (1 / scale) - 0.5 as
// a float, weights saturate_cast<short>((1 - f) 2048) and (f 2048), the row pass
// s0 a0 + s1 a1 in ints (right of the last pair: s 2048), the column pass of its 128-bit
// vector step, (((r0 >> 4) b0 >> 16) + ((r1 >> 4) b1 >> 16) + 2) >> 2 with saturating 16-bit
// adds, 16 bytes at a time, the last < 16 bytes of a row by its scalar rounding shift by 22),
// without its set-up per call. Anything else: cv::resize. Tested against cv::resize
// (MaskOps.ResizeLinearU8C3IsOpenCVsResize); the column step is OpenCV's baseline (SSE2)
// build's, so another build of OpenCV is what that test would catch.
void resize_linear_up_u8c3(const cv::Mat& src, cv::Mat& dst, cv::Size dsize);

// 255 where the BGR distance of a CV_8UC3 pixel from `ref` is above `thr` (greater) or
// at most `thr` (!greater), else 0: the float test (p - ref)^2 summed > float(thr^2).
// With an integer-valued ref (the reader's paper and body colours are medians of bytes)
// every term is an exact integer, so it is done in integers 16 pixels at a time (32 with
// AVX2; a continuous image as one run of pixels). avx2_pixels (tests): += the pixels the
// AVX2 steps wrote.
cv::Mat color_distance_mask(const cv::Mat& bgr, cv::Vec3f ref, double thr, bool greater, long* avx2_pixels = nullptr);

// cv::morphologyEx(src, dst, op, kernel, anchor) for op MORPH_ERODE, MORPH_DILATE,
// MORPH_OPEN or MORPH_CLOSE (one iteration) with the same result, for a binary CV_8UC1
// mask (only 0 and 255) up to 128 - kernel width + 1 columns: each row one 128-bit word,
// each kernel row's runs of ones as shifts and ANDs (ORs) of whole rows. border_value:
// what lies outside (BORDER_CONSTANT, 0 or 255); -1 = OpenCV's default, where outside
// never wins. Any other input (grey levels, wider masks, other types or borders) goes to
// cv::morphologyEx.
void morph(const cv::Mat& src, cv::Mat& dst, int op, const cv::Mat& kernel, cv::Point anchor = {-1, -1},
           int border_value = -1);

// One row of read.cpp's occluder comparison (occluder_mask), n pixels: the frame on the
// paper plane (BGR), the expected print and its 3x3 minimum and maximum (BGR), the local
// light (3 floats a pixel), 1 / the paper's white (ip), occluder_dark and occluder_chroma^2.
// ratio[x] = the pixel's luminance over the print minimum's (at least 0.1); out[x] = 255
// when the pixel is darker than dark x that, or (luminance above 0.4) its chromaticity
// under the light is more than sqrt(c2) from each of the three prints', else 0.
// ratio may be nullptr (not wanted: one division a pixel less).
// occluder_diff_row_ref is the per-pixel loop it replaces (branches, one pixel at a
// time); occluder_diff_row does the same float operations in the same order on 16 pixels
// at a time without branches, so both give the same bits (tests/vision/mask_ops_test.cpp).
// occluder_diff_row gives the mask alone (speed35: the arm's penumbra takes the ratio from
// occluder_ratio_row; the reference loop's ratio is the tests' reference for both).
// A row of 16 or more has no per-pixel tail (speed34: its last 16 pixels are done again);
// scalar_pixels (tests): += the pixels the per-pixel loop did.
void occluder_diff_row_ref(const uchar* frame, const uchar* print, const uchar* pmin, const uchar* pmax, const float* light,
                           int n, const float ip[3], float dark, float c2, uchar* out, float* ratio);
void occluder_diff_row(const uchar* frame, const uchar* print, const uchar* pmin, const uchar* pmax, const float* light,
                       int n, const float ip[3], float dark, float c2, uchar* out, long* scalar_pixels = nullptr);
// (speed38) The 3x3 minimum and maximum (cv::erode / cv::dilate by a 3 x 3 square, OpenCV's
// default border) of a BGR print redrawn in a few places (read.cpp's occluder_mask: cells
// printed in another tint than the drawing), and the minimum's dark pixels (its grey level,
// cv::cvtColor's COLOR_BGR2GRAY, below grey_below: 255), from those of the print before and
// parts round what was redrawn: every pixel that may differ from the print before lies in one
// of `changed`; a pixel further than 1 px from each (its 3 x 3 square meets none) has the
// minimum, maximum and dark it had. box[i] holds changed[i] grown by 1 (within the image; its
// sides moved out to multiples of 16 px for occluder_diff_patched's runs; when the boxes cover
// more than half the image, one box: the whole image), pmin[i], pmax[i] and
// dark[i] those of `print` there, computed there alone (~0.57 M instructions for 17 tinted
// cells of the A3 sheet at 1 px/mm where the whole print's erosion, dilation, grey level and
// compare cost ~1.6 M). Tested against OpenCV's calls on the whole print
// (MaskOps.PrintPatchesAreTheWholePrintsMinimumAndMaximum).
struct PrintPatches {
  std::vector<cv::Rect> box;
  std::vector<cv::Mat> pmin, pmax;  // box[i]'s size, CV_8UC3
  std::vector<cv::Mat> dark;        // box[i]'s size, CV_8U
  // (speed39) From print_fill_patches alone: box[i]'s part of the redrawn print (CV_8UC3, a view
  // into a patch 1 px larger); empty: the print passed to occluder_diff_patched is the redrawn one.
  std::vector<cv::Mat> print;
};
PrintPatches print_minmax_patches(const cv::Mat& print, const std::vector<cv::Rect>& changed, int grey_below);

// (speed39) A convex polygon filled into a print (read.cpp's occluder_mask: a cell printed in
// another tint than the drawing) without a copy of the whole print: `mask` (CV_8U, 255 where
// drawn) is cv::fillConvexPoly's pixels of `poly` on `rect`, its points' bounding box grown by
// 1 px, drawn there alone (the points moved by -rect's corner, a whole-pixel move that OpenCV
// 4.6's integer edge walk and outline lines do not change); `colour` its bytes (the
// saturate_cast of the Scalar's, as fillConvexPoly's). print_fill returns false, and the caller
// fills the whole print instead, where that need not be the whole print's fill: `rect` not
// inside `image`, or a pixel drawn on rect's outer ring (a scanline that reached the mask's
// side could have been cut there).
struct PrintFill {
  cv::Rect rect;
  cv::Mat mask;
  cv::Vec3b colour;
};
bool print_fill(cv::Size image, const std::vector<cv::Point>& poly, const cv::Scalar& colour, PrintFill& out);
// The pixel (x, y) of `base` with fills[0], fills[1], ... drawn over it in order (the last
// fill that drew it, else base's).
cv::Vec3b print_fill_at(const cv::Mat& base, const std::vector<PrintFill>& fills, int x, int y);
// print_minmax_patches(P, rects, grey_below) of P = base with the fills drawn over it in order
// (rects: each fill's rect), and P's part on each box (`print`), with no copy of the whole P:
// each box grown by 1 px (within the image) copied from base, the fills that meet it drawn in.
// Every byte as the whole print's (MaskOps.PrintFillPatchesAreTheWholeFilledPrints).
PrintPatches print_fill_patches(const cv::Mat& base, const std::vector<PrintFill>& fills, int grey_below);
// A copy of `base` with parts[i] written over box[i] (the whole image a patched print's
// minimum, say, stands for).
cv::Mat with_patches(const cv::Mat& base, const std::vector<cv::Rect>& box, const std::vector<cv::Mat>& parts);
// occluder_diff_row over every row (diff: frame's size, CV_8U, allocated), the 3x3 minimum and
// maximum (and the print, where p.print has parts: `print` is then the print before the fills)
// from p's patches where a box lies and from base_min / base_max elsewhere: the bytes
// of occluder_diff_row on with_patches(base_min, ...) and with_patches(base_max, ...) without
// those copies (each output byte depends on its own pixel alone, so a row is done in runs).
void occluder_diff_patched(const cv::Mat& frame, const cv::Mat& print, const cv::Mat& base_min, const cv::Mat& base_max,
                           const PrintPatches& p, const cv::Mat& light, const float ip[3], float dark, float c2, cv::Mat& diff);
// (speed35) occluder_diff_row's ratio alone (luminance under ip over pmin's, floored at 0.1),
// the same float operations per pixel, so the same bits: for the arm's penumbra, which wants
// the ratio of a row whose mask occluder_diff_row has already given (without the colour test
// that pass spends most of its time on).
void occluder_ratio_row(const uchar* frame, const uchar* pmin, int n, const float ip[3], float* ratio);

// read.cpp's occluder_mask "no arm" exit: whether chamfer_core_possible's erosion by a
// (2 k + 1) square (k = chamfer_core_half_side(r), read.h) can hold a pixel of `diff`
// after its closing by a 5 x 5 square is ORed in where `dark` is set, and it is then closed
// and opened by a 3 x 3 square (cv::morphologyEx, OpenCV's default borders); k < 1: true.
// Done on rows of bits, 64 pixels a word (k up to 63; larger, or other types: the OpenCV
// form). occluder_core_possible_ref is those OpenCV calls; the same answer
// (tests/vision/mask_ops_test.cpp). diff and dark: CV_8UC1, nonzero = set.
bool occluder_core_possible(const cv::Mat& diff, const cv::Mat& dark, int k);
// (speed39) occluder_core_possible(diff, with_patches(dark, box, parts), k) without that copy:
// dark's bits packed, then each part's written over its box's (16 at a time where the box's
// left side is on a multiple of 16, as print_minmax_patches' are); the same answer
// (MaskOps.OccluderCorePossibleReadsThePatchedDark).
bool occluder_core_possible(const cv::Mat& diff, const cv::Mat& dark, const std::vector<cv::Rect>& box,
                            const std::vector<cv::Mat>& parts, int k);
bool occluder_core_possible_ref(const cv::Mat& diff, const cv::Mat& dark, int k);

// (speed30) A threshold of cv::distanceTransform(src, d, cv::DIST_L2, cv::DIST_MASK_5) without
// the distance map: out = 255 where `d > t` (!within) or `d <= t` (within), else 0, for a
// CV_8UC1 src (its zeros are what d is measured to). The 5x5 chamfer distance is integer
// fixed-point sums of the mask's three weights, and its two passes give at each pixel the
// least weighted path from a zero: the least of the zeros' chamfer distances, a function of the
// offset alone. So `d > t` is src's nonzero set eroded by the offsets v whose distance from a
// lone zero fails `> t` (and `d <= t` the zeros dilated by those that pass `<= t`), that
// distance and test taken from OpenCV's own call on a small image with one zero (the same
// floats and the same compare). The ball is convex: each of its rows an interval, done on rows
// of bits (an erosion or dilation of every row by each half-width, then the rows ANDed or ORed),
// outside the image nothing (OpenCV's border never gives the least path). Falls back to
// distanceTransform and the compare (and returns false; true: the bit path) when a kernel row is
// not an interval about 0, a half-width is over 63 (t over about 63 px), t is negative, over 200
// or NaN, or src is empty or not CV_8UC1. chamfer5_threshold_ref is those OpenCV calls.
bool chamfer5_threshold(const cv::Mat& src, double t, bool within, cv::Mat& out);
void chamfer5_threshold_ref(const cv::Mat& src, double t, bool within, cv::Mat& out);

// read.cpp's occluder light grid (occluder_mask): for grid (CV_32FC3, gh x gw, allocated),
// with nk = rho.size(), ex gw x nk and ey gh x nk (row-major: ex[gx * nk + k]), the cells'
// weights w = ex[gx][k] * ey[gy][k] (double), acc = sum over k in order of rho[k] * float(w)
// (float), wsum = sum of w (double); grid(gy, gx) = acc * float(1 / wsum) when wsum > 1e-3,
// else `global`. light_grid_ref is the loop it replaces, one grid point at a time;
// light_grid does the same operations in the same order for 4 grid columns at a time (SSE2
// lanes), so both give the same bits (tests/vision/mask_ops_test.cpp).
void light_grid_ref(const std::vector<double>& ex, const std::vector<double>& ey, const std::vector<cv::Vec3f>& rho,
                    cv::Vec3f global, cv::Mat& grid);
void light_grid(const std::vector<double>& ex, const std::vector<double>& ey, const std::vector<cv::Vec3f>& rho,
                cv::Vec3f global, cv::Mat& grid);

// One row of read.cpp's skin test (hand_mask), n BGR pixels: with b, g, r the channels
// times iw (1 / the paper's white), out[x] = 255 when r > g >= b, r > 0.06, r - b >
// chroma x r and the hue 60 (g - b) / (r - b) is within hue_min..hue_max (without the
// division), else 0. skin_row_ref is the loop it replaces; skin_row does the same float
// operations on 16 pixels at a time (the same bytes: tests/vision/mask_ops_test.cpp), (speed44)
// on 8 in AVX2 where the CPU has it and HEXDICE_NO_AVX2 is unset.
void skin_row_ref(const uchar* bgr, int n, const float iw[3], float chroma, float hue_min, float hue_max, uchar* out);
void skin_row(const uchar* bgr, int n, const float iw[3], float chroma, float hue_min, float hue_max, uchar* out);

// (speed25) One row of the lattice reader's blob response (face_lattice.cpp), for x in
// [2, n - 2): with the DoG rows up (y - 2), r (y) and dn (y + 2), where r[x] > 0 the response
// max(0, min(r[x], gain x -l2)), l2 the weaker curvature of r's 5-point second differences
// (rxx, ryy, rxy), else 0. blob_response_row_ref is the loop it replaces; blob_response_row
// does the same float operations 4 pixels at a time (the same floats:
// tests/vision/mask_ops_test.cpp). Needs n >= 4.
void blob_response_row_ref(const float* up, const float* r, const float* dn, int n, float gain, float* out);
void blob_response_row(const float* up, const float* r, const float* dn, int n, float gain, float* out);

// One row of read.cpp's shadow mask (the paper colour scaled down, same chromaticity):
// where where[x] != 0, out[x] = 255 when the pixel's chromaticity is within 0.04 of the
// paper's and its brightness over the paper's is within kmin..kmax, else 0; out[x] is left
// as it is where where[x] == 0. shadow_row_ref is the per-pixel loop it replaces;
// shadow_row does the same float operations 16 pixels at a time (the same bytes), (speed44)
// 8 at a time in AVX2 as skin_row.
void shadow_row_ref(const uchar* bgr, const uchar* where, int n, const float paper[3], double kmin, double kmax, uchar* out);
void shadow_row(const uchar* bgr, const uchar* where, int n, const float paper[3], double kmin, double kmax, uchar* out);

// read.cpp's fill_holes (a copy padded with one zero pixel flood-filled from its corner,
// 4-connected, its complement ORed in) with the same result: 0 where a zero pixel is
// 4-connected to the border through zero pixels, 255 everywhere else. CV_8UC1.
// From the zero pixels' runs (label_components' union-find), not a labelling of them;
// fill_holes_labels is the form it replaces (cv::connectedComponents of mask == 0).
void fill_holes_fast(cv::Mat& mask);
void fill_holes_labels(cv::Mat& mask);
// Fills the holes of `mask` (zero pixels not 4-connected to its border) of at most `max_area`
// pixels each, a hole being one `connectivity`-connected piece of them: the pips inside a die
// body (dice.cpp, 8) or inside a guard token (read.cpp, 4), not a tray floor ringed by a rim.
void fill_holes_up_to(cv::Mat& mask, double max_area, int connectivity = 8);

// The 8-connected component of a binary (0 / 255) CV_8UC1 mask holding `seed`, as 255 in
// out (0 elsewhere; all 0 when seed is outside or on a zero pixel): what read.cpp's
// copy + cv::floodFill(copy, seed, 128, 8-connected, zero tolerance) + (copy == 128)
// gives, from the runs (label_components) without the copies.
void component_at(const cv::Mat& mask, cv::Point seed, cv::Mat& out);

// cv::boxFilter(src, dst, CV_32F, {k, k}, {-1, -1}, false, cv::BORDER_CONSTANT) for a
// CV_32FC1 image whose window sums are exact in double (OpenCV sums floats in double):
// the read's face-square scores (+-1), where any order of the sums gives the same bits.
// By an integral image instead of OpenCV's running sums (~6x faster on a 90 px patch).
void box_sum(const cv::Mat& src, int k, cv::Mat& dst);
// box_sum's values inside roi (the same bits), 0 outside it: the face-square slide asks
// only where the face's centre may be (a ~29 px disc of a ~90 px patch).
void box_sum_roi(const cv::Mat& src, int k, cv::Rect roi, cv::Mat& dst);

// (Speed round 26) cv::minMaxLoc(src, nullptr, nullptr, nullptr, &at, mask)'s `at` for a
// CV_32FC1 src and a CV_8UC1 mask of its size: the first pixel in row-major order, among
// those where the mask is set, whose value is greater than every earlier one's, starting
// from -inf (OpenCV 4.6's minMaxIdx, scalar or SIMD: within a lane the first greater
// value, across lanes the lowest index of the greatest); (-1, -1) when there is none (NaN
// and -inf never count). The unset mask is skipped 8 bytes at a time (the face square's
// slide: a ~33 px disc of a ~90 px map). (Not limited to cv::boundingRect(mask): OpenCV
// 4.6's box of a mask can leave out set pixels, e.g. a 3-column mask's last column.)
cv::Point max_loc_masked(const cv::Mat& src, const cv::Mat& mask);

// cv::warpAffine(src, dst, m, dsize, cv::INTER_NEAREST, cv::BORDER_CONSTANT, border) of a
// CV_32FC1 image (m maps src to dst, as without WARP_INVERSE_MAP), computed only at the
// pixels of `window` (the same bits there; `border` at every other pixel). OpenCV 4.6's own
// steps: m inverted as warpAffine inverts it, source positions in 1/1024 px (per column
// and per row, each rounded as there), + 1/2, floor. The face-square slide needs the
// turned scores only where box_sum_roi reads them (a ~60 px square of a ~90 px patch).
void warp_affine_nearest_window(const cv::Mat& src, const cv::Matx23d& m, cv::Size dsize, cv::Rect window, float border,
                                cv::Mat& dst);

// cv::GaussianBlur(src, dst, cv::Size(0, 0), sigma, 0, border) of a CV_32FC1 map, the same
// bytes (round 15): OpenCV 4.6 (without IPP or OpenVX, as Debian's) makes a float map's
// kernel with getGaussianKernel(cvRound(8 sigma + 1) | 1, sigma, CV_32F) (in soft-float
// doubles: ~30 000 instructions a call, the lattice reader's 48 x 48 maps cost about as much
// to filter) and filters with sepFilter2D(src, dst, CV_32F, k, k, (-1, -1), 0, border). Here
// the kernel is made once per sigma and thread, the filter is the same call. Other types,
// sigma <= 0 or a 1-pixel side: OpenCV's GaussianBlur.
void gaussian_blur_f32(const cv::Mat& src, cv::Mat& dst, double sigma, int border);

// (Speed round 23) cv::sepFilter2D(src, dst, CV_32F, k, k, (-1, -1), 0, border) with the
// symmetric n-tap kernel k (n odd, 7 .. 129) of a whole CV_32FC1 map whose width is a multiple
// of 8, at BORDER_REPLICATE or BORDER_REFLECT_101: the same floats as OpenCV 4.6's AVX2 + FMA3
// dispatch (its row pass a chain of fused multiply-adds from 0 over the taps in order; its
// column pass fma(centre row, k[c], 0), then fma(row y + m + row y - m, k[c + m], s), m = 1 ..
// c), in AVX2 + FMA without OpenCV's FilterEngine. gaussian_blur_f32 takes it when
// sep_filter_f32_fast_applies: the CPU has AVX2 and FMA, HEXDICE_NO_AVX2 is unset, and the
// map, kernel size and border are as above; otherwise OpenCV's sepFilter2D. (A non-symmetric
// kernel given to sep_filter_f32_fast goes to sepFilter2D.)
bool sep_filter_f32_fast_applies(const cv::Mat& src, int n, int border);
void sep_filter_f32_fast(const cv::Mat& src, cv::Mat& dst, const float* k, int n, int border);

// cv::warpPerspective(src, dst, m, dsize, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, border,
// value) of a CV_8UC3 image (m maps dst pixels to src), the same bytes: OpenCV 4.6's own
// steps. Its warp works in blocks of bw x bh dst pixels (bh = min(16, rows), bw = min(1024 / bh,
// cols), bh = min(1024 / bw, rows)); a row's block at column xb starts from X0 = m00 xb + m01 y
// + m02 (Y0, W0 likewise), pixel xb + i at W = W0 + m20 i, W = W ? 32 / W : 0, X = round((X0 +
// m00 i) W) (clamped to int; Y likewise), the source pixel (X >> 5, Y >> 5) as shorts, its
// 1/32 px fraction (X & 31, Y & 31). remap's bilinear weights for fraction (fx, fy) are
// 32 (32 - fx)(32 - fy), 32 fx (32 - fy), ... (exact in its float table: they sum to 32768,
// the one at (0, 0) saturated to 32767 still gives the pixel itself), the value (sum + 2^14)
// >> 15 = (sum / 32 + 512) >> 10; at the border BORDER_REPLICATE clamps each tap,
// BORDER_CONSTANT gives `value` for a tap outside (every channel of a pixel wholly outside).
// Here the positions are computed two at a time (SSE2 doubles, the same operations) and each
// pixel's value in 16-bit lanes, instead of OpenCV's separate map and remap passes (~2x fewer
// instructions on the reader's patches). Other types, borders, or a non-finite position:
// OpenCV's call.
void warp_perspective_linear(const cv::Mat& src, cv::Mat& dst, const cv::Matx33d& m, cv::Size dsize, int border,
                             const cv::Scalar& value = cv::Scalar());
// (speed36) The same, only the pixels [span_x0[y], span_x1[y]) of each row y (cut to the
// row; null spans: whole rows): those are warp_perspective_linear's bytes (each block's
// positions from its own X0, Y0, W0, each pixel's from its own i), the others are left as
// they were or are undefined (dst is created when its size or type differ; the first bytes
// of the pixel after a span may be written). For a caller that reads a disc of the warp (find_plane_pips). Where
// OpenCV's call is taken (other types, a non-finite position in a span) every pixel is
// written.
void warp_perspective_linear_spans(const cv::Mat& src, cv::Mat& dst, const cv::Matx33d& m, cv::Size dsize, int border,
                                   const int* span_x0, const int* span_x1, const cv::Scalar& value = cv::Scalar());

// (Speed round 24) cv::remap(src, dst, mapx, mapy, cv::INTER_LINEAR, border, value) of a
// CV_8UC3 image with CV_32FC1 maps, the same bytes: OpenCV 4.6's RemapInvoker rounds each
// map value to 1/32 px (round(m 32), INT_MIN where not finite or out of int's range), the
// source pixel (X >> 5, Y >> 5) as shorts, the fraction (X & 31, Y & 31), then remapBilinear
// as in warp_perspective_linear above (its steps are shared). Other types, borders or map
// sizes: OpenCV's call.
void remap_linear_8uc3(const cv::Mat& src, cv::Mat& dst, const cv::Mat& mapx, const cv::Mat& mapy, int border,
                       const cv::Scalar& value = cv::Scalar());

// (Speed round 24) One row of remap maps through the homography h: for i = 0 .. n - 1, with
// u = u0 + i ustep (int, as a double), w = 1 / (h20 u + h21 v + h22), px[i] = (float)((h00 u +
// h01 v + h02) w), py[i] likewise: the same floats as that scalar loop (AVX2 doubles 4 at a
// time where the CPU has it and HEXDICE_NO_AVX2 is unset, the loop otherwise).
void homography_row(const cv::Matx33d& h, int u0, int ustep, double v, int n, float* px, float* py);

// (Round 20) The columns x in [0, cols) of row y with (x - cx)^2 + (y - cy)^2 <= r2 as the
// doubles dx = x - cx, dy = y - cy, dx * dx + dy * dy round it: an interval (the rounded sum
// grows with |dx|), found from sqrt's estimate and settled by that test; [x0, x1], or x0 > x1
// when no column is within.
void disc_row_span(double cx, double cy, double r2, int y, int cols, int& x0, int& x1);

// (speed42) The weighted sums of a pip's contrast over a disc (read.cpp's pips_where_seen, one
// step of its centroid): over the pixels (x, y) of a CV_8UC3 image in the box [floor(cx - rad),
// ceil(cx + rad)] x [floor(cy - rad), ceil(cy + rad)] (cut to the image) with (x - cx)^2 +
// (y - cy)^2 <= rad^2 as doubles, in raster order: d = (float)(b + 2g + r) - body, w =
// max(0, -d) (polarity < 0) or max(0, d), sw += w, sx += w * x, sy += w * y (the products in
// float, the sums in double). contrast_sums_disc_ref is that loop, every pixel of the box
// tested; contrast_sums_disc gives the same doubles: each row's pixels by its span
// (disc_row_span), and where body is a whole number in [0, 1020] (every w and w * x is then a
// whole number the float holds exactly, and every partial sum one the double holds) the sums
// in 64-bit integers, exact in any order.
struct ContrastSums {
  double sw = 0, sx = 0, sy = 0;
};
ContrastSums contrast_sums_disc(const cv::Mat& bgr, cv::Point2d c, double rad, float body, int polarity);
ContrastSums contrast_sums_disc_ref(const cv::Mat& bgr, cv::Point2d c, double rad, float body, int polarity);

// (Speed round 26) The thick grid lines of a patch: for each segment (p0, p1) in plane
// pixels, a = p0 - origin, b = p1 - origin; a segment whose ends both lie more than
// `thickness` left of, above, right of or below `mask` is skipped; the others are drawn as
// cv::line(mask, round(4 a), round(4 b), 255, thickness, cv::LINE_8, 2) (quarter pixels).
// The same pixels as drawing them one by one (draw_thick_segments_ref): a line whose rounded
// ends are another's, in either order, is drawn once (the reader's shared hex edges are in
// the list twice, once per cell, reversed). OpenCV 4.6's thick line is the parallelogram
// (p0 +- d, p1 -+ d) with d rounded from the direction (round half to even, so -d for the
// reversed line: the same corners in a rotated order, the same outline edges, scanlines
// and end discs). `mask` is CV_8UC1; 255s are only added.
void draw_thick_segments(cv::Mat& mask, const std::vector<std::pair<cv::Point2d, cv::Point2d>>& segments,
                         cv::Point2d origin, int thickness);
void draw_thick_segments_ref(cv::Mat& mask, const std::vector<std::pair<cv::Point2d, cv::Point2d>>& segments,
                             cv::Point2d origin, int thickness);

// (Speed round 27) The first x' in [x, end) of a mask row with (s[x'] == 0) == zero, or end:
// 16 pixels at a time (the lowest bit of the 16 comparisons), not pixel by pixel. s is the
// row's first pixel: a last part under 16 is read as the row's last 16 when end >= 16.
int mask_row_next(const uchar* s, int x, int end, bool zero = false);
// Calls f(x) for every x in [0, end) with s[x] != 0, in increasing x (as
// `for (x = 0; x < end; ++x) if (s[x]) f(x);` does), skipping the row's runs of zeros 16
// pixels at a time: for the reader's per-pixel loops over a mask (a die's pixels in a patch).
template <class F>
inline void for_each_set(const uchar* s, int end, F&& f) {
  for (int x = mask_row_next(s, 0, end); x < end; x = mask_row_next(s, x, end)) {
    const int e = mask_row_next(s, x, end, true);
    for (; x < e; ++x) f(x);
  }
}

// (speed43) The bounding box of cv::circle(m, c, r, 255, cv::FILLED) (8-connected, no shift)
// in an image of `size` when the circle lies wholly in it: OpenCV 4.6 draws it (its Circle)
// as spans whose widest is row c.y from c.x - r to c.x + r and whose first and last rows are
// c.y -+ r, so cv::boundingRect of the drawn mask is (c.x - r, c.y - r, 2 r + 1, 2 r + 1).
// An empty rectangle when the circle reaches past the image or r < 0 (ask boundingRect then).
cv::Rect filled_circle_box(cv::Point c, int r, cv::Size size);

// (speed43) cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY) of a CV_8UC3 image: OpenCV 4.6's
// fixed-point sum (b 3735 + g 19235 + r 9798 + 2^14) >> 15 per pixel, 32 pixels a step in AVX2
// (~1.2 instructions a pixel less than OpenCV's at 720p). Other types, and HEXDICE_NO_AVX2=1,
// go to cv::cvtColor. The read's grey frame (registration, printed edges, marker blur).
void bgr_to_gray(const cv::Mat& bgr, cv::Mat& gray);

// (Speed round 27) out[x] = b + 2 g + r of the BGR pixel x (0 .. 1020) for x in [0, n): 16
// pixels at a time (the same integers as the per-pixel sum), (speed44) 8 in AVX2 as skin_row:
// the reader's luminance of a patch row (the face plane's, the pip masks').
void bgr_lum_row(const uchar* bgr, int n, ushort* out);

// (Speed round 33) out[x] = 255 when lum[x] (a bgr_lum_row value, 0 .. 1020) compares with
// the float thr (above: lum > thr, else lum < thr; the int converted to float, exact) and
// where[x] passes the where rule (LumWhere: any byte, nonzero, zero; where may be null for
// Any), else 0; for x in [0, n), 16 at a time. The same bytes as the per-pixel float test:
// the float bound is made the integer one it is equivalent to (NaN and bounds past
// 0 .. 1020 included). out must not overlap lum or where. The reader's near-centre pip masks
// and its core tests.
enum class LumWhere { Any, Set, Clear };
void lum_compare_row(const ushort* lum, const uchar* where, int n, float thr, bool above, LumWhere rule, uchar* out);
// (Speed round 37) lum_compare_row over each row's span [x0[y], x1[y]) of a CV_16U image of
// such values (clipped to the row) into out (CV_8U, lum's size): out = 255 where lum > thr
// (above) or lum < thr, else 0: within the spans the bytes of cv::compare(lum, t, out,
// CMP_LT) with t = ceil(thr) (CMP_GT with floor(thr)) and its setTo cases; beyond them out is
// left as it was. The plane pip look's polarity mask (find_plane_pips: only the spans its tests read).
void lum_compare_spans(const cv::Mat& lum, float thr, bool above, const int* x0, const int* x1, cv::Mat& out);

// true when the run-time chosen AVX2 steps run (round 20: for the lattice reader's coarse
// search too): the CPU has AVX2 and HEXDICE_NO_AVX2 is unset, empty or 0.
bool avx2_steps_on();

}  // namespace hexdice::vision
