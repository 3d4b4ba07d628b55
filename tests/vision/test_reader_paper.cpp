// A cell's paper colour when a die's glared top lies in the ring it is sampled from
// (branch colour3, docs/reader.md): the brightest quarter of the ring's samples was the
// die's top; white_reference's die-free estimate leaves out the samples that are more
// saturated than, and off the chromaticity of, the ring's median sample.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/read.h"
#include "vision/reader_synth.h"
#include "vision/sheet.h"

namespace hexdice::vision {
namespace {

cv::Point to_px(const cv::Matx33d& h, cv::Point2d mm) {
  const cv::Vec3d v = h * cv::Vec3d(mm.x, mm.y, 1.0);
  return {cvRound(v[0] / v[2]), cvRound(v[1] / v[2])};
}
double channel_gap(cv::Vec3f a, cv::Vec3f b) {
  return std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])});
}

TEST(ReaderPaper, GlaredYellowTopInTheRingIsNotThePaper) {
  const SheetLayout layout = standard_sheet();
  SynthOptions o;
  o.seed = 53;
  SynthScene clean = render_synth_scene(layout, {}, o);
  const double inscribed = layout.hex_size_mm * std::sqrt(3.0) / 2, ring = 0.85 * inscribed;  // the samples' radius
  const Hex yellow_cell{0, 0}, white_cell{2, -1};
  const int yi = layout.cell_index(yellow_cell), wi = layout.cell_index(white_cell);
  ASSERT_GE(yi, 0);
  ASSERT_GE(wi, 0);
  const Point yc = layout.cell_centre(yellow_cell), wc = layout.cell_centre(white_cell);
  auto px_of_mm = [&](double mm) {
    return cvRound(cv::norm(to_px(clean.paper_to_image, {yc.x, yc.y}) - to_px(clean.paper_to_image, {yc.x + mm, yc.y})));
  };
  // Both cells' paper in the shade (a die's own shadow, a dim corner of the sheet: 0.7 of
  // the light) ...
  for (const Point c : {yc, wc}) {
    cv::Mat m(clean.image.size(), CV_8U, cv::Scalar(0));
    cv::circle(m, to_px(clean.paper_to_image, {c.x, c.y}), px_of_mm(inscribed), cv::Scalar(255), cv::FILLED);
    cv::Mat dim;
    clean.image.convertTo(dim, -1, 0.7);
    dim.copyTo(clean.image, m);
  }
  // ... and on each cell's ring a die's lit top, a 9 mm disc: glared yellow (brighter than
  // the shaded paper), white.
  SynthScene sc = clean;
  sc.image = clean.image.clone();
  const int r_px = px_of_mm(9.0);
  cv::circle(sc.image, to_px(sc.paper_to_image, {yc.x + ring, yc.y}), r_px, cv::Scalar(60, 235, 250), cv::FILLED);
  cv::circle(sc.image, to_px(sc.paper_to_image, {wc.x + ring, wc.y}), r_px, cv::Scalar(255, 255, 255), cv::FILLED);

  std::vector<cv::Vec3f> truth, plain, die_free;
  white_reference(clean.image, layout, clean.paper_to_image, &truth);
  white_reference(sc.image, layout, sc.paper_to_image, &plain, &die_free, ReadParams{}.paper_chroma_tolerance);
  ASSERT_EQ(plain.size(), layout.cells.size());
  ASSERT_EQ(die_free.size(), layout.cells.size());
  const std::size_t y = static_cast<std::size_t>(yi), w = static_cast<std::size_t>(wi);
  // The old estimate was the yellow top (so this test can fail) ...
  EXPECT_GT(truth[y][0] - plain[y][0], 60) << "the yellow disc did not move the plain estimate";
  // ... the die-free one is the paper.
  EXPECT_LT(channel_gap(die_free[y], truth[y]), 12);
  // A white top is not saturated: left as the plain estimate (the white dice's reading was
  // tuned on it).
  EXPECT_EQ(die_free[w], plain[w]);
  // Cells without anything in their ring: the same estimate either way.
  int same = 0;
  for (std::size_t i = 0; i < layout.cells.size(); ++i) same += die_free[i] == plain[i];
  EXPECT_GE(same, static_cast<int>(layout.cells.size()) - 2);
  // Off (tolerance 0): the die-free estimate is the plain one everywhere.
  std::vector<cv::Vec3f> p0, f0;
  white_reference(sc.image, layout, sc.paper_to_image, &p0, &f0, 0);
  EXPECT_EQ(f0, p0);
}

}  // namespace
}  // namespace hexdice::vision
