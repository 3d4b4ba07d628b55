// Occupancy decisions of the board reader (branch occupancy2, docs/reader.md): a die is a
// top face with pips in a standard layout, and a die standing in an arm's shadow is still
// a die. Synthetic scenes (vision/reader_synth.h) with something painted over them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/read.h"
#include "vision/reader_eval.h"
#include "vision/reader_synth.h"
#include "vision/sheet.h"

namespace hexdice::vision {
namespace {

cv::Point to_px(const cv::Matx33d& h, cv::Point2d mm) {
  const cv::Vec3d v = h * cv::Vec3d(mm.x, mm.y, 1.0);
  return {cvRound(v[0] / v[2]), cvRound(v[1] / v[2])};
}

bool is_hidden(const Observation& obs, Hex h) { return std::find(obs.hidden.begin(), obs.hidden.end(), h) != obs.hidden.end(); }

// A flat red 16 mm square with no pips on an empty cell (a coaster, a token without
// pips, a stain): it differs from the paper like a die's top, but no pip layout fits it.
// Reported before as "face 1, confidence 0.05"; now hidden (unknown), not a die. The real
// dice are read as before.
TEST(ReaderOccupancy, FaceWithoutPipsIsNoDie) {
  const SheetLayout layout = standard_sheet();
  const std::vector<SynthDie> dice{{{-2, 1}, "red", 3}, {{1, -2}, "blue", 5}, {{2, 2}, "white", 4}, {{-1, -3}, "black", 6}};
  SynthOptions o;
  o.seed = 31;
  SynthScene sc = render_synth_scene(layout, dice, o);
  const Hex blank{1, 1};
  const Point c = layout.cell_centre(blank);
  std::vector<cv::Point> sq;
  for (const auto& [dx, dy] : {std::pair{-8.0, -8.0}, {8.0, -8.0}, {8.0, 8.0}, {-8.0, 8.0}})
    sq.push_back(to_px(sc.paper_to_image, {c.x + dx, c.y + dy}));
  cv::fillConvexPoly(sc.image, sq, cv::Scalar(70, 90, 200), cv::LINE_AA);  // a red top, no pips

  ReadParams before;
  before.min_die_confidence = 0;
  // (Round 20: the size gate, face_scale_gate, hides it too, its blank read as a 2 far under a
  // face's size; off in the old run, so that the confidence rule alone is measured.)
  before.face_scale_gate = false;
  const Observation old_obs = read_board(sc.image, layout, nullptr, before);
  const Observation obs = read_board(sc.image, layout);
  ASSERT_TRUE(obs.board_found && old_obs.board_found);
  // The blank square is a candidate the old rule reported (so this test can fail).
  const CellObservation* old_blank = find_cell(old_obs, blank);
  ASSERT_NE(old_blank, nullptr) << "the blank square is not even a candidate";
  EXPECT_LT(old_blank->confidence, 0.1);
  EXPECT_EQ(find_cell(obs, blank), nullptr);
  EXPECT_TRUE(is_hidden(obs, blank));
  // Every real die still read, with its face.
  for (const auto& d : dice) {
    const CellObservation* got = find_cell(obs, d.hex);
    ASSERT_NE(got, nullptr) << d.hex.q << "," << d.hex.r;
    EXPECT_EQ(got->face, d.face) << d.hex.q << "," << d.hex.r;
    EXPECT_EQ(got->color, d.color) << d.hex.q << "," << d.hex.r;
  }
}

// An arm's shadow across the sheet (a 110 mm band at 0.45 of the light) with a white die
// standing in it: the die's top is as bright as its cell's shaded paper and its dark pips
// read beyond doubt, so it is reported, named white (against the lit sheet's white its body
// is grey). With that rule off it is hidden, as before. The shaded paper itself (the band's
// empty cells) gives no die; the dice outside it are read as before.
TEST(ReaderOccupancy, WhiteDieInAnArmsShadowIsReported) {
  const SheetLayout layout = standard_sheet();
  const std::vector<SynthDie> dice{{{0, 0}, "white", 5}, {{-3, 0}, "white", 2}, {{2, -4}, "green", 4}, {{-2, 4}, "red", 6}};
  SynthOptions o;
  o.seed = 47;
  SynthScene sc = render_synth_scene(layout, dice, o);
  // The band: the paper strip 55 mm either side of the line through the sheet's centre
  // along x (the row of cells r = 0 and its neighbours), dice in it shaded too.
  cv::Mat band(sc.image.size(), CV_8U, cv::Scalar(0));
  const Point mid = layout.cell_centre({0, 0});
  std::vector<cv::Point> poly{to_px(sc.paper_to_image, {-100.0, mid.y - 55}), to_px(sc.paper_to_image, {layout.width_mm + 100, mid.y - 55}),
                              to_px(sc.paper_to_image, {layout.width_mm + 100, mid.y + 55}), to_px(sc.paper_to_image, {-100.0, mid.y + 55})};
  cv::fillConvexPoly(band, poly, cv::Scalar(255));
  cv::GaussianBlur(band, band, cv::Size(9, 9), 3);
  for (int y = 0; y < sc.image.rows; ++y)
    for (int x = 0; x < sc.image.cols; ++x) {
      const float k = 1.0f - 0.55f * band.at<uchar>(y, x) / 255.0f;
      cv::Vec3b& p = sc.image.at<cv::Vec3b>(y, x);
      for (int ch = 0; ch < 3; ++ch) p[ch] = cv::saturate_cast<uchar>(p[ch] * k);
    }
  ReadParams off;
  off.occluded_white_min_confidence = 0;
  const Observation before = read_board(sc.image, layout, nullptr, off);
  const Observation obs = read_board(sc.image, layout);
  ASSERT_TRUE(obs.board_found && before.board_found);
  // The band is taken for an arm's shadow: the white dice in it were hidden.
  for (Hex h : {Hex{0, 0}, Hex{-3, 0}}) EXPECT_TRUE(find_cell(before, h) == nullptr && is_hidden(before, h)) << h.q << "," << h.r;
  for (const auto& d : dice) {
    const CellObservation* got = find_cell(obs, d.hex);
    ASSERT_NE(got, nullptr) << d.hex.q << "," << d.hex.r;
    EXPECT_EQ(got->face, d.face) << d.hex.q << "," << d.hex.r;
    EXPECT_EQ(got->color, d.color) << d.hex.q << "," << d.hex.r;
  }
  // Nothing where there is no die.
  for (const auto& c : obs.cells)
    EXPECT_TRUE(std::any_of(dice.begin(), dice.end(), [&](const SynthDie& d) { return d.hex == c.hex; })) << c.hex.q << "," << c.hex.r;
}

// A coloured die in an arm's shade is told from the shade by its chromaticity relative to
// its cell's own (shaded) paper: a shadow keeps the paper's (~0), skin is excluded by hue.
// At the old 0.4 a green 1 read at confidence 1.0 in fixture scene 025 (its body 0.30) was
// hidden; at 0.25 it is reported, with no new false die.
TEST(ReaderOccupancy, ColouredDieInAnArmsShadeIsReported) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  ReadParams old_rule;
  old_rule.occluded_saturation = 0.4;
  auto before = eval_scenes(dir.string(), old_rule, 0, nullptr);
  auto now = eval_scenes(dir.string(), ReadParams{}, 0, nullptr);
  ASSERT_TRUE(before.ok() && now.ok());
  EXPECT_GE(now->matched, before->matched + 1);
  EXPECT_GE(now->face_ok, before->face_ok + 1);
  EXPECT_GE(now->color_ok, before->color_ok + 1);
  EXPECT_LE(now->hidden_visible + 1, before->hidden_visible);
  EXPECT_LE(now->seen_cells - now->matched, before->seen_cells - before->matched);
}


// Dice far from the only two markers in view, on a pose extrapolated from them (branch
// hidden4, docs/reader.md "Occupancy round 4"): the reader is told the two markers' top
// corners are 1.2 mm lower than printed, a marker corner error of about 3 px, which
// extrapolated across the sheet puts the far cells' print many mm from where the pose
// says (76 cells hidden by the print-edge test, 4 of the 7 dice). Without the grid refit those cells show none of their printed edges there and are
// hidden ("edges"); with it the pose is refitted to the grid and the dice are read right.
TEST(ReaderOccupancy, PoseFromTwoNearMarkersIsRefittedToTheGrid) {
  const SheetLayout layout = standard_sheet();
  const std::vector<SynthDie> dice{{{-3, -1}, "red", 4}, {{0, -4}, "blue", 2}, {{2, -4}, "green", 6}, {{-1, -2}, "yellow", 5},
                                   {{3, -3}, "white", 3}, {{1, 2}, "black", 1}, {{-2, 4}, "red", 6}};
  SynthOptions o;
  o.seed = 44;
  // Only markers 2 and 3 (the sheet's bottom corners) are in view.
  o.hide_markers = {0, 1};
  const SynthScene sc = render_synth_scene(layout, dice, o);
  SheetLayout told = layout;
  for (auto& m : told.markers)
    if (m.id == 2 || m.id == 3)
      for (int k : {0, 1}) m.corners[static_cast<std::size_t>(k)].y += 1.2;
  ReadParams off;
  off.grid_refine = false;
  const Observation before = read_board(sc.image, told, nullptr, off);
  const Observation obs = read_board(sc.image, told);
  ASSERT_TRUE(before.board_found && obs.board_found);
  int hidden_before = 0, edges_before = 0, right = 0;
  for (const auto& d : dice) {
    if (is_hidden(before, d.hex)) ++hidden_before;
    const auto w = before.hidden_why.find(d.hex);
    if (w != before.hidden_why.end() && w->second.rfind("edges", 0) == 0) ++edges_before;
    const CellObservation* got = find_cell(obs, d.hex);
    EXPECT_NE(got, nullptr) << d.hex.q << "," << d.hex.r;
    if (got && got->face == d.face && got->color == d.color) ++right;
  }
  // The bad pose hides dice (so this test can fail) for want of the print.
  EXPECT_GE(edges_before, 2);
  EXPECT_EQ(right, static_cast<int>(dice.size()));
  EXPECT_EQ(obs.cells.size(), dice.size());  // no die where there is none
  EXPECT_LT(obs.hidden.size(), before.hidden.size());
  std::printf("hidden before %d (edges %d) of %zu dice, cells hidden %zu -> %zu\n", hidden_before, edges_before, dice.size(),
              before.hidden.size(), obs.hidden.size());
}

}  // namespace
}  // namespace hexdice::vision
