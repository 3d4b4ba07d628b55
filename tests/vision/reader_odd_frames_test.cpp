// (robust18) The whole reader on frames of odd shapes, for the sanitizer build
// (scripts/asan.sh) above all: the hand-written SIMD steps (mask_ops.cpp: 16-pixel rows,
// AVX2 warps, run-time dispatched; HEXDICE_NO_AVX2=1 for the SSE2 path) meet widths that are
// no multiple of 4 or 16, images of a pixel or three, views into larger images (rows not
// contiguous, the last row ending before the buffer does) and a sheet cut by the frame's
// edges. Nothing may crash; a view reads exactly as a copy of its pixels does.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "tests/vision/observation_text.h"
#include "vision/read.h"
#include "vision/reader_synth.h"
#include "vision/sheet.h"

namespace hexdice::vision {
namespace {

TEST(ReaderOddFrames, TinyFramesOfEveryTypeAreNotFound) {
  const SheetLayout layout = standard_sheet();
  for (const cv::Size sz : {cv::Size(1, 1), cv::Size(3, 3), cv::Size(15, 15), cv::Size(16, 16), cv::Size(17, 9),
                            cv::Size(9, 17), cv::Size(33, 17), cv::Size(70, 1), cv::Size(1, 70)})
    for (int type : {CV_8UC1, CV_8UC3, CV_8UC4, CV_16UC3}) {
      cv::Mat m(sz, type);
      cv::randu(m, cv::Scalar::all(0), cv::Scalar::all(255));
      const Observation o = read_board(m, layout);
      EXPECT_FALSE(o.board_found) << sz << " type " << type;
      EXPECT_TRUE(o.cells.empty());
    }
}

TEST(ReaderOddFrames, OddWidthsAndViewsReadAsTheirPixels) {
  const SheetLayout layout = standard_sheet();
  const auto dice = random_dice(layout, 14, 1818);
  int found = 0, read_dice = 0;
  // Widths no multiple of 4 or 16; a sheet in the middle, shifted half out, turned.
  const struct {
    cv::Size size;
    cv::Point2d shift;
    double yaw;
  } cases[] = {{{1001, 563}, {0, 0}, 0}, {{643, 357}, {0, 0}, 7}, {{1283, 721}, {0, 120}, 0},
               {{999, 1001}, {-90, -60}, 20}, {{1279, 719}, {110, 0}, -5}};
  for (const auto& c : cases) {
    SynthOptions o;
    o.camera.size = c.size;
    o.camera.shift_mm = c.shift;
    o.camera.yaw_deg = c.yaw;
    o.seed = static_cast<unsigned>(c.size.width);
    const SynthScene sc = render_synth_scene(layout, dice, o);
    ASSERT_EQ(sc.image.size(), c.size);
    const Observation whole = read_board(sc.image, layout);
    found += whole.board_found;
    read_dice += static_cast<int>(whole.cells.size());
    // The same pixels as a view at an odd offset of a larger image, its last row the
    // buffer's last (so a 16-byte load past the view's end would leave the buffer).
    cv::Mat big(c.size.height + 3, c.size.width + 7, CV_8UC3, cv::Scalar(30, 60, 90));
    const cv::Rect at(5, 3, c.size.width, c.size.height);
    sc.image.copyTo(big(at));
    const cv::Mat view = big(at);
    ASSERT_FALSE(view.isContinuous());
    EXPECT_EQ(describe(read_board(view, layout)), describe(whole)) << c.size;
    // ... and as 4-channel and grey frames (converted inside): no crash, a found sheet.
    cv::Mat bgra;
    cv::cvtColor(sc.image, bgra, cv::COLOR_BGR2BGRA);
    EXPECT_EQ(describe(read_board(bgra, layout)), describe(whole)) << c.size;
    cv::Mat grey;
    cv::cvtColor(sc.image, grey, cv::COLOR_BGR2GRAY);
    EXPECT_EQ(read_board(grey, layout).board_found, whole.board_found) << c.size;
  }
  EXPECT_GE(found, 4);        // the scenes are read ...
  EXPECT_GE(read_dice, 25);   // ... with dice, not only "not found"
}

// (robust18) Maps of every radius `hexdice board` draws: the printed-edge test sampled all
// cells' edges into one row of cv::remap's maps, which must stay under 32767 columns: from
// radius 7 (169 cells) on, read_board threw OpenCV's assertion (a crash in `hexdice read`).
TEST(ReaderOddFrames, EveryMapRadiusIsRead) {
  // (robust20: radius 10 to 12 on A3 have cells narrower than a die and read no dice;
  // sheet_test.cpp MakeSheet.WarnsOfAMapWhoseCellsCannotHoldADie.)
  for (int radius : {2, 6, 7, 8, 9}) {
    const auto layout = make_sheet(radius, "a3");
    ASSERT_TRUE(layout.ok()) << radius;
    const auto dice = random_dice(*layout, 6, static_cast<unsigned>(radius));
    const SynthScene sc = render_synth_scene(*layout, dice, SynthOptions{});
    Observation o;
    ASSERT_NO_THROW(o = read_board(sc.image, *layout)) << "radius " << radius;
    EXPECT_TRUE(o.board_found) << "radius " << radius << ": " << o.why_not_found;
    // Radius 9 (9.9 mm hexes): a die covers most of its cell's paper ring; fewer read (robust20 lead).
    if (radius <= 8) EXPECT_GE(o.cells.size(), 3u) << "radius " << radius;
  }
}

}  // namespace
}  // namespace hexdice::vision
