// Maps of small cells (radius 8 and 9 on A3): a die covers most of its cell's paper ring, and
// the cell's paper was taken from the die; it hides its cell's printed edges, and the cell was
// taken for one under a hand (robust21, docs/reader.md "Robustness round 21").
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

// The standard radius-5 sheet (17 mm hexes) is not a small-cell map: every paper as before.
TEST(ReaderSmallCells, TheStandardSheetIsNotASmallCellMap) {
  EXPECT_GT(standard_sheet().hex_size_mm, ReadParams{}.small_cell_paper_hex_mm);
  EXPECT_GT(standard_sheet().hex_size_mm, ReadParams{}.small_cell_lone_edges_hex_mm);
}

}  // namespace
}  // namespace hexdice::vision
