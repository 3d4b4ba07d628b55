// The reader's expected print is cached per sheet (read.cpp, expected_print) and shared by
// every frame. Commit 243f024 fixed occluder_mask writing a tinted frame's print minimum,
// maximum and dark mask into the cached sheet's buffers in place (OpenCV writes into a
// destination of the right size), so a later frame was compared against an earlier
// frame's tints. Here: frame A (an arm's shadow over the middle of the sheet, every cell as
// printed: the untinted path, which uses the cached buffers as they are), frame B (no
// shadow, the cells under that band in another tint: the tinted path), then A again: A must
// read the same both times, and B the same before and after. With the fix undone (robust18)
// A's second read lost its shadow: B's tint had become the print's minimum there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "tests/vision/observation_text.h"
#include "vision/read.h"
#include "vision/read_profile.h"
#include "vision/reader_synth.h"
#include "vision/sheet.h"
#include "vision/sheet_render.h"

namespace hexdice::vision {
namespace {

// The image's pixels inside the paper-plane polygon `mm` (mm -> px by hp), as a mask.
cv::Mat poly_mask(cv::Size size, const cv::Matx33d& hp, const std::vector<cv::Point2f>& mm) {
  std::vector<cv::Point2f> px;
  cv::perspectiveTransform(mm, px, cv::Mat(hp));
  std::vector<cv::Point> ipx;
  for (const auto& p : px) ipx.emplace_back(cvRound(p.x), cvRound(p.y));
  cv::Mat m(size, CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(m, ipx, cv::Scalar(255));
  return m;
}

void scale_where(cv::Mat& img, const cv::Mat& mask, cv::Scalar gain) {
  cv::Mat scaled;
  cv::multiply(img, gain, scaled);
  scaled.copyTo(img, mask);
}

// The cell's interior (its hexagon shrunk by 1 mm: the grid lines stay as drawn, the ring
// where the reader measures a cell's paper is inside), paper-plane mm.
std::vector<cv::Point2f> cell_inside(const SheetLayout& layout, const CellMm& c) {
  std::vector<cv::Point2f> hex;
  const double f = 1 - 1.0 / layout.hex_size_mm;
  for (const auto& q : layout.cell_corners(c.hex))
    hex.emplace_back(static_cast<float>(c.centre.x + (q.x - c.centre.x) * f), static_cast<float>(c.centre.y + (q.y - c.centre.y) * f));
  return hex;
}

TEST(OccluderCache, AFrameReadsTheSameAfterATintedFrame) {
  // Radius 8 on A3: most cells are white in the print, so the paper (the cells' median) is
  // white and a frame matching the print is read untinted (the standard sheet's radius 5 is
  // mostly tinted zones: its frames take the tinted path).
  const auto made = make_sheet(8, "a3");
  ASSERT_TRUE(made.ok());
  const SheetLayout layout = *made;
  const double y0 = 165, y1 = 255;  // the band, mm down the page: wider than occluder_core_mm
  SynthOptions o;
  o.seed = 18;
  o.noise_sigma = 1.5;
  SynthScene scene = render_synth_scene(layout, {}, o);
  const cv::Size size = scene.image.size();
  // The synthetic sheet tints its base cells unlike the print the reader expects, so every
  // frame of it would take the tinted path (no cache read there): each cell is first painted
  // in the print's own colour where the reader looks it up (the cell's centre on the print
  // at 1 px/mm, drawn at 3 and reduced as read.cpp does), lit as the synthetic paper is.
  {
    const cv::Mat big = render_sheet(layout, 3 * 25.4);
    cv::Mat print;
    cv::resize(big, print, cv::Size(cvCeil(layout.width_mm), cvCeil(layout.height_mm)), 0, 0, cv::INTER_AREA);
    const cv::Vec3d white(244, 245, 246);  // the synthetic paper (reader_synth.cpp)
    for (const auto& c : layout.cells) {
      const cv::Vec3b e = print.at<cv::Vec3b>(cvRound(c.centre.y), cvRound(c.centre.x));
      const cv::Scalar colour(e[0] * white[0] / 255, e[1] * white[1] / 255, e[2] * white[2] / 255);
      scene.image.setTo(colour, poly_mask(size, scene.paper_to_image, cell_inside(layout, c)));
    }
  }

  // A: an arm's shadow across the sheet (0.68 of the light: below occluder_dark, 0.72).
  cv::Mat a = scene.image.clone();
  const cv::Mat band = poly_mask(size, scene.paper_to_image,
                                 {{-20.f, static_cast<float>(y0)}, {320.f, static_cast<float>(y0)},
                                  {320.f, static_cast<float>(y1)}, {-20.f, static_cast<float>(y1)}});
  scale_where(a, band, cv::Scalar::all(0.68));
  // B: no shadow; each cell in the band printed in a tint (0.87 of the paper's light, a pale
  // blue-green, no skin hue: as bright as a print, its chromaticity 0.07 from the paper's), its
  // grid lines as drawn. Read against that tint, A's shadow there is 0.68 / 0.87 = 0.78 of it.
  cv::Mat b = scene.image.clone();
  int tinted = 0;
  for (const auto& c : layout.cells) {
    if (c.centre.y < y0 + 5 || c.centre.y > y1 - 5) continue;
    scale_where(b, poly_mask(size, scene.paper_to_image, cell_inside(layout, c)), cv::Scalar(0.96, 0.90, 0.72));
    ++tinted;
  }
  ASSERT_GE(tinted, 15);

  // (robust23) With the small-cell rules on (this is a radius-8 map): robust21/22 ran this test
  // with them off, as the band was found by no occluder. The cause: the sheet's paper for the
  // masks was the median of the small-cell papers, and the band over the map's widest rows gave
  // the cells along its edges their shaded neighbours' paper: the shade became the median, the
  // shadow was paper. It is the median of the cells' own papers now (small_cell_paper_own_median).
  {
    ReadParams old;
    old.occluder_core_mm = 10;
    old.occluder_min_area_mm2 = 200;
    old.small_cell_paper_own_median = false;
    int n = 0;
    for (const auto& [h, why] : read_board(a, layout, nullptr, old).hidden_why) n += why.rfind("occluder: top", 0) == 0;
    EXPECT_EQ(n, 0) << "the shadow is found without the own papers' median: this test no longer shows the fix";
  }
  // The occluder's core down from a 40 mm disc to 10 mm, its area from 3000 to 200 mm2: the
  // synthetic print's grid lines are too faint to be closed over at 1 px/mm, so the shadow
  // is a cell-sized piece per cell, as the tinted print is (no dice here: each would be one).
  ReadParams params;
  params.occluder_core_mm = 10;
  params.occluder_min_area_mm2 = 200;
  const Observation a1 = read_board(a, layout, nullptr, params);
  const Observation b1 = read_board(b, layout, nullptr, params);
  const Observation a2 = read_board(a, layout, nullptr, params);
  const Observation b2 = read_board(b, layout, nullptr, params);
  ASSERT_TRUE(a1.board_found) << a1.why_not_found;
  ASSERT_TRUE(b1.board_found) << b1.why_not_found;
  // The shadow is taken as an arm's (else nothing here depends on the print's minimum) ...
  auto occluded = [](const Observation& o) {  // cells hidden by the occluder mask
    int n = 0;
    for (const auto& [h, why] : o.hidden_why) n += why.rfind("occluder: top", 0) == 0;
    return n;
  };
  EXPECT_GE(occluded(a1), 10) << describe(a1);
  // ... and the tinted cells are not under it (B takes them as printed so; their tint then
  // reads as doubtful dice, hidden by the occluder gate: that is B's business).
  EXPECT_EQ(occluded(b1), 0) << describe(b1);
  EXPECT_EQ(describe(a1), describe(a2));
  EXPECT_EQ(describe(b1), describe(b2));
}

// (speed30) chamfer_bits: the occluder's core, its opening and the penumbra's reach
// are thresholds of distance maps, made as erosions and dilations on rows of bits. An arm's
// shadow (0.5 of the light, 110 mm wide) across the standard sheet with dice on it: the
// same observation and the same hidden cells with the rule on and off, the shadow found (the
// three thresholds all made: core, opening, penumbra), and with the rule on no OpenCV
// distance map made (with it off, three).
TEST(OccluderCache, BitChamferReadsAsTheDistanceMaps) {
  const SheetLayout layout = standard_sheet();
  int shadows = 0;
  for (unsigned seed : {3u, 7u}) {
    SynthOptions o;
    o.seed = seed;
    SynthScene scene = render_synth_scene(layout, random_dice(layout, 12, seed, {"white", "black", "red", "blue"}, 0.0), o);
    const cv::Mat band = poly_mask(scene.image.size(), scene.paper_to_image, {{-20.f, 150.f}, {320.f, 150.f}, {320.f, 260.f}, {-20.f, 260.f}});
    scale_where(scene.image, band, cv::Scalar::all(0.5));
    ReadParams on, off;
    off.chamfer_bits = false;
    ReadProfile prof_on, prof_off;
    set_read_profile(&prof_on);
    const Observation a = read_board(scene.image, layout, nullptr, on);
    set_read_profile(&prof_off);
    const Observation b = read_board(scene.image, layout, nullptr, off);
    set_read_profile(nullptr);
    ASSERT_TRUE(a.board_found) << a.why_not_found;
    EXPECT_EQ(describe(a), describe(b)) << "seed " << seed;
    EXPECT_GE(prof_off.distance_maps, 3) << "seed " << seed << ": the shadow is not an arm here, nothing is tested";
    EXPECT_EQ(prof_on.distance_maps, 0) << "seed " << seed;
    int hidden = 0;
    for (const auto& [h, why] : a.hidden_why) hidden += why.rfind("occluder", 0) == 0;
    shadows += hidden > 0;
  }
  EXPECT_EQ(shadows, 2);
}

}  // namespace
}  // namespace hexdice::vision
