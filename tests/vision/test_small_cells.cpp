// Maps of small cells (radius 8 and 9 on A3): a die covers most of its cell's paper ring, and
// the cell's paper was taken from the die; it hides its cell's printed edges, and the cell was
// taken for one under a hand (robust21, docs/reader.md "Robustness round 21"); a die in the
// next cell was read as a guard, a white 1 beside the print as a 2 (robust22).
#include <gtest/gtest.h>

#include <filesystem>

#include "vision/read.h"
#include "vision/reader_eval.h"

namespace hexdice::vision {
namespace {

SceneScore score(const char* set, double small_cell_paper_hex_mm, double small_cell_lone_edges_hex_mm) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures" / set;
  ReadParams p;
  p.small_cell_paper_hex_mm = small_cell_paper_hex_mm;
  p.small_cell_lone_edges_hex_mm = small_cell_lone_edges_hex_mm;
  auto s = eval_scenes(dir.string(), p, 0, nullptr);
  if (!s.ok()) ADD_FAILURE() << s.error();
  return s.ok() ? *s : SceneScore{};
}

// One rendered scene a radius (tests/render/scene_gen.py on `hexdice board --radius 8/9`
// sheets, dice in cells not side by side): with each cell's paper from its own ring alone
// (small_cell_paper_hex_mm 0) the radius-9 scene reads 7 of its 22 visible dice (the rest
// "paper": missed), the radius-8 one 4 of 8; with its neighbours' (the default) 18 and 6, all
// right, no false die (both without the lone-cell edge rule below).
TEST(ReaderSmallCells, ACellsPaperIsTakenBesideItsDieNotFromIt) {
  for (const char* set : {"small_cells_r9", "small_cells_r8"}) {
    const SceneScore off = score(set, 0, 0), on = score(set, ReadParams{}.small_cell_paper_hex_mm, 0);
    EXPECT_GE(on.matched, off.matched + (std::string(set) == "small_cells_r9" ? 9 : 2)) << set;
    EXPECT_EQ(on.face_ok, on.matched) << set;
    EXPECT_EQ(on.color_ok, on.matched) << set;
    EXPECT_EQ(on.seen_cells, on.matched) << set << ": a false die";
  }
}

// A die on a small cell hides its cell's six printed edges: the cell was hidden as under a
// hand ("edges: 0 of its 6 printed edges seen"). A cell failing the edge test alone (no
// neighbour failing it) is read: the radius-9 scene 18 -> 20 of 22, the radius-8 one 6 -> 8
// of 8, all right, no false die.
TEST(ReaderSmallCells, ACellWithoutEdgesAmongCellsWithEdgesIsADieNotAHand) {
  for (const char* set : {"small_cells_r9", "small_cells_r8"}) {
    const double paper = ReadParams{}.small_cell_paper_hex_mm;
    SceneScore off = score(set, paper, 0), on = score(set, paper, ReadParams{}.small_cell_lone_edges_hex_mm);
    EXPECT_GE(on.matched, off.matched + 2) << set;
    EXPECT_LT(on.hidden_visible_why["edges"], off.hidden_visible_why["edges"]) << set;
    EXPECT_EQ(on.face_ok, on.matched) << set;
    EXPECT_EQ(on.color_ok, on.matched) << set;
    EXPECT_EQ(on.seen_cells, on.matched) << set << ": a false die";
  }
}

SceneScore score_with(const char* set, const ReadParams& p) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures" / set;
  auto s = eval_scenes(dir.string(), p, 0, nullptr);
  if (!s.ok()) ADD_FAILURE() << s.error();
  return s.ok() ? *s : SceneScore{};
}

// (robust22) Dice in neighbouring small cells (scene_gen.py --packed, radius 8: 20 visible
// dice, no guard token on the map; the render re-encoded at JPEG quality 70): pieces of the
// blue dice in the next cells stood within guard_max_offset_mm of a red 5's and a red 3's
// centres and were read as their guards. A guard's blob must lie
// in the die's own cell (guard_in_own_cell): no false guard, every die read right.
TEST(ReaderSmallCells, ADieInTheNextCellIsNoGuard) {
  ReadParams off;
  off.guard_in_own_cell = false;
  const SceneScore before = score_with("small_cells_packed_r8", off), after = score_with("small_cells_packed_r8", ReadParams{});
  EXPECT_LT(before.guard_ok, before.matched) << "the scene's false guard (without the rule)";
  EXPECT_EQ(after.guard_ok, after.matched);
  EXPECT_EQ(after.matched, before.matched);
  EXPECT_EQ(after.face_ok, after.matched);
  EXPECT_EQ(after.color_ok, after.matched);
  EXPECT_EQ(after.seen_cells, after.matched) << "a false die";
}

// (robust22) A hand over a radius-9 map (small_cells_r9b's scene_101): a white 1 whose pip lies
// on the printed lines (the camera-resolution look leaves it to the patch look), which took a
// printed mark beside it for a second pip and read a sure white 2. Where the fine look saw
// pips at one place only, a face of two or more spots is hidden (pip_unit_fine_one_place): no
// wrong face, no false die.
// (Round 23: where the print is not seen round that pip, lone_pip_print_seen reads it a 1 before
// this rule is reached; off in both runs, so that this rule alone is measured.)
TEST(ReaderSmallCells, AWhiteOneBesideThePrintIsHiddenNotReadAsATwo) {
  ReadParams on;
  on.lone_pip_print_seen = 0;
  ReadParams off = on;
  off.pip_unit_fine_one_place = false;
  const SceneScore before = score_with("small_cells_r9b", off), after = score_with("small_cells_r9b", on);
  EXPECT_LT(before.face_ok, before.matched) << "the white 1 read as a 2 (without the rule)";
  EXPECT_EQ(after.face_ok, after.matched);
  EXPECT_EQ(after.matched, before.matched - 1);
  EXPECT_EQ(after.hidden_visible_why.count("fine") ? after.hidden_visible_why.at("fine") : 0, 1);
  EXPECT_EQ(after.seen_cells, after.matched) << "a false die";
}

// (robust22) Dice side by side on a radius-9 map (small_cells_r9b's scene_000, --packed): a
// yellow 1 read right at 1.00, then the coloured-pip look found a "2" of its pip and a pip of
// the white 6 in the next cell, 7.4 mm off, and took it. A layout with a pip nearer another
// cell's centre is not looked at (pip_look_own_cell): the 1 stands.
TEST(ReaderSmallCells, ANeighboursPipIsNoPipOfThisDie) {
  ReadParams off;
  off.pip_look_own_cell = false;
  const SceneScore before = score_with("small_cells_r9b", off), after = score_with("small_cells_r9b", ReadParams{});
  EXPECT_LT(before.face_ok, before.matched) << "the yellow 1 read as a 2 (without the rule)";
  EXPECT_EQ(after.face_ok, after.matched);
  EXPECT_EQ(after.matched, before.matched);
  EXPECT_EQ(after.seen_cells, after.matched) << "a false die";
}

// (robust23) A hand over a radius-8 map (robust21's hand8 scene_103, --preset hand, seed 2188,
// rendered again: small_cells_hand_r8): a fingertip's shade over an empty cell, its printed
// marks read by the lattice as a white 2 at 0.91 and reported as a white die in the shade,
// though the camera-resolution look for dark pips found not one there. Such a white is not
// reported (occluded_white_no_pip): no false die, every visible die read as before.
TEST(ReaderSmallCells, NoDarkPipUnderAFingertipsShadeIsNoWhiteDie) {
  ReadParams off;
  off.occluded_white_no_pip = false;
  off.white_no_pip_below = 0.5;  // (exact26's 1.01 hides that white 2 too; the old bound in the "before" run)
  const SceneScore before = score_with("small_cells_hand_r8", off), after = score_with("small_cells_hand_r8", ReadParams{});
  EXPECT_EQ(before.seen_cells, before.matched + 1) << "the false white 2 (without the rule)";
  EXPECT_EQ(after.seen_cells, after.matched) << "a false die";
  EXPECT_EQ(after.matched, before.matched);
  EXPECT_EQ(after.face_ok, after.matched);
  EXPECT_EQ(after.color_ok, after.matched);
}

// (robust23) Two dice side by side on a radius-8 map (scene_gen.py --packed, seed 2208, scene
// 005: small_cells_pair_r8): a white 6 and a white 2 in neighbouring cells hide each other's
// printed edges (1 of 6 seen each), so neither was a lone edgeless cell and both were hidden as
// under a hand. A group of two such cells with no other failing cell beside it is read
// (small_cell_edgeless_group 2): 6 -> 8 of 8 visible dice, all right, no false die.
TEST(ReaderSmallCells, TwoDiceSideBySideAreReadNotHiddenAsAHand) {
  ReadParams off;
  off.small_cell_edgeless_group = 1;
  const SceneScore before = score_with("small_cells_pair_r8", off), after = score_with("small_cells_pair_r8", ReadParams{});
  EXPECT_EQ(before.hidden_visible_why.count("edges") ? before.hidden_visible_why.at("edges") : 0, 2) << "the pair (without the rule)";
  EXPECT_EQ(after.hidden_visible_why.count("edges"), 0u);
  EXPECT_EQ(after.matched, before.matched + 2);
  EXPECT_EQ(after.face_ok, after.matched);
  EXPECT_EQ(after.color_ok, after.matched);
  EXPECT_EQ(after.seen_cells, after.matched) << "a false die";
}

// The standard radius-5 sheet (17 mm hexes) is not a small-cell map: every paper as before.
TEST(ReaderSmallCells, TheStandardSheetIsNotASmallCellMap) {
  EXPECT_GT(standard_sheet().hex_size_mm, ReadParams{}.small_cell_paper_hex_mm);
  EXPECT_GT(standard_sheet().hex_size_mm, ReadParams{}.small_cell_lone_edges_hex_mm);
}

}  // namespace
}  // namespace hexdice::vision
