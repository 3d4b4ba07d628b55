// The printed sheet's geometry (interfaces.md "The printed map") and board.json.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <nlohmann/json.hpp>

#include "core/board.h"
#include "vision/sheet.h"

namespace hexdice::vision {
namespace {

constexpr double kSqrt3 = 1.7320508075688772;

const MarkerMm& marker(const SheetLayout& s, int id) {
  for (const auto& m : s.markers)
    if (m.id == id) return m;
  ADD_FAILURE() << "no marker " << id;
  return s.markers.front();
}

void expect_square(const MarkerMm& m, double x0, double y0, double side) {
  const std::array<Point, 4> want{{{x0, y0}, {x0 + side, y0}, {x0 + side, y0 + side}, {x0, y0 + side}}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(m.corners[i].x, want[i].x) << "marker " << m.id << " corner " << i;
    EXPECT_DOUBLE_EQ(m.corners[i].y, want[i].y) << "marker " << m.id << " corner " << i;
  }
}

const CellMm& named(const SheetLayout& s, const std::string& name) {
  for (const auto& c : s.cells)
    if (c.name == name) return c;
  ADD_FAILURE() << "no cell " << name;
  return s.cells.front();
}

TEST(StandardSheet, PaperAndMapAsInterfacesSays) {
  const SheetLayout s = standard_sheet();
  EXPECT_EQ(s.paper, "a3");
  EXPECT_DOUBLE_EQ(s.width_mm, 297.0);
  EXPECT_DOUBLE_EQ(s.height_mm, 420.0);
  EXPECT_EQ(s.radius, 5);
  EXPECT_DOUBLE_EQ(s.hex_size_mm, 17.0);
  EXPECT_EQ(s.aruco_dictionary, "DICT_4X4_50");
  EXPECT_EQ(s.cells.size(), 91u);
  ASSERT_EQ(s.pages.size(), 1u);
}

TEST(StandardSheet, MarkerCornersTenMillimetresFromTheNearestEdges) {
  const SheetLayout s = standard_sheet();
  ASSERT_EQ(s.markers.size(), 4u);
  expect_square(marker(s, 0), 10, 10, 40);    // top-left
  expect_square(marker(s, 1), 247, 10, 40);   // top-right
  expect_square(marker(s, 2), 247, 370, 40);  // bottom-right
  expect_square(marker(s, 3), 10, 370, 40);   // bottom-left
}

TEST(StandardSheet, NamedCellsAtTheirMillimetrePositions) {
  const SheetLayout s = standard_sheet();
  const double row = 17.0 * kSqrt3;  // centre-to-centre down a column
  struct Want {
    const char* name;
    Hex hex;
    double x, y;
  };
  for (const Want& w : {Want{"f6", {0, 0}, 148.5, 210.0}, Want{"f1", {0, -5}, 148.5, 210.0 - 5 * row},
                        Want{"f2", {0, -4}, 148.5, 210.0 - 4 * row}, Want{"f10", {0, 4}, 148.5, 210.0 + 4 * row},
                        Want{"a1", {-5, 0}, 148.5 - 7.5 * 17, 210.0 - 2.5 * row},
                        Want{"k6", {5, 0}, 148.5 + 7.5 * 17, 210.0 + 2.5 * row}}) {
    const CellMm& c = named(s, w.name);
    EXPECT_EQ(c.hex, w.hex) << w.name;
    EXPECT_NEAR(c.centre.x, w.x, 1e-9) << w.name;
    EXPECT_NEAR(c.centre.y, w.y, 1e-9) << w.name;
    EXPECT_NEAR(s.cell_centre(w.hex).x, w.x, 1e-9);
  }
  // The N corner's top edge and the map's side corners clear the page and markers.
  EXPECT_GT(named(s, "f1").centre.y - 17 * kSqrt3 / 2, 26.0);  // below the title band
  EXPECT_NEAR(named(s, "a1").centre.x - 17, 4.0, 1e-9);
}

TEST(StandardSheet, CellAtFindsTheHexagonContainingAPoint) {
  const SheetLayout s = standard_sheet();
  for (const CellMm& c : s.cells) {
    auto h = s.cell_at(c.centre);
    ASSERT_TRUE(h);
    EXPECT_EQ(*h, c.hex);
    // 14 mm from the centre toward a flat edge is still inside (inscribed radius 14.72 mm).
    auto in = s.cell_at({c.centre.x, c.centre.y + 14.0});
    ASSERT_TRUE(in);
    EXPECT_EQ(*in, c.hex);
  }
  EXPECT_FALSE(s.cell_at({5, 5}));      // under marker 0's corner, off the map
  EXPECT_FALSE(s.cell_at({148.5, 40}));  // above the N corner
  EXPECT_EQ(s.cell_index({0, 0}), Board::get(5)->index({0, 0}));
  EXPECT_EQ(s.cell_index({9, 9}), -1);
}

// Every cell lies on the page, at least 4 mm from its edges, and clear of the markers.
void expect_fits(const SheetLayout& s) {
  for (const CellMm& c : s.cells) {
    for (Point p : s.cell_corners(c.hex)) {
      EXPECT_GE(p.x, 4.0 - 1e-9) << s.paper << " r" << s.radius << " " << c.name;
      EXPECT_LE(p.x, s.width_mm - 4.0 + 1e-9) << s.paper << " r" << s.radius << " " << c.name;
      EXPECT_GE(p.y, 4.0 - 1e-9) << s.paper << " r" << s.radius << " " << c.name;
      EXPECT_LE(p.y, s.height_mm - 4.0 + 1e-9) << s.paper << " r" << s.radius << " " << c.name;
      for (const MarkerMm& m : s.markers) {
        const bool inside = p.x > m.corners[0].x - 2 && p.x < m.corners[2].x + 2 && p.y > m.corners[0].y - 2 &&
                            p.y < m.corners[2].y + 2;
        EXPECT_FALSE(inside) << s.paper << " r" << s.radius << " " << c.name << " touches marker " << m.id;
      }
    }
  }
}

TEST(MakeSheet, OtherRadiiAndPapersFitOnThePage) {
  for (const char* paper : {"a3", "a4x2", "letter", "tabloid"}) {
    for (int radius = kMinRadius; radius <= 8; ++radius) {
      auto s = make_sheet(radius, paper);
      ASSERT_TRUE(s) << paper << " r" << radius << ": " << s.error();
      EXPECT_EQ(static_cast<int>(s->cells.size()), Board::get(radius)->size());
      EXPECT_LE(s->hex_size_mm, 17.0);
      expect_fits(*s);
      // Names follow core's Board naming.
      for (const CellMm& c : s->cells) EXPECT_EQ(c.name, Board::get(radius)->name(c.hex));
    }
  }
}

TEST(MakeSheet, ShrinksTheHexOnlyWhenNeeded) {
  EXPECT_DOUBLE_EQ(make_sheet(3, "a3")->hex_size_mm, 17.0);
  // Tabloid is 279.4 mm wide: 17 half-widths plus 2 x 4 mm margins allow 15.9 mm (0.1 mm steps).
  EXPECT_DOUBLE_EQ(make_sheet(5, "tabloid")->hex_size_mm, 15.9);
  const auto letter = make_sheet(5, "letter");
  ASSERT_TRUE(letter);
  EXPECT_LT(letter->hex_size_mm, 12.3);  // 215.9 - 8 mm across 17 half-widths
  EXPECT_GE(letter->hex_size_mm, 10.0);
  const auto big = make_sheet(7, "a3");
  ASSERT_TRUE(big);
  EXPECT_LT(big->hex_size_mm, 17.0);
  EXPECT_LE(big->hex_size_mm * (3 * 7 + 2), 297.0 - 8.0);
  EXPECT_GT((big->hex_size_mm + 0.1) * (3 * 7 + 2), 297.0 - 8.0);  // the largest 0.1 mm step that fits
}

TEST(MakeSheet, A4x2SplitsTheA3SheetIntoTwoTilingHalves) {
  const auto s = make_sheet(5, "a4x2");
  ASSERT_TRUE(s);
  ASSERT_EQ(s->pages.size(), 2u);
  EXPECT_DOUBLE_EQ(s->pages[0].y0_mm + s->pages[0].height_mm, s->pages[1].y0_mm);  // they tile
  EXPECT_DOUBLE_EQ(s->pages[0].width_mm, 297.0);
  EXPECT_DOUBLE_EQ(s->pages[0].height_mm, 210.0);  // A4 landscape
  // Same geometry as the A3 sheet: a reader can use either.
  const SheetLayout a3 = standard_sheet();
  EXPECT_DOUBLE_EQ(s->hex_size_mm, a3.hex_size_mm);
  for (int id = 0; id < 4; ++id) {
    const auto& m = marker(*s, id);
    const int page = m.corners[0].y < 210 ? 0 : 1;
    EXPECT_EQ(page, id < 2 ? 0 : 1) << "marker " << id;
    EXPECT_LE(m.corners[2].y, s->pages[page].y0_mm + s->pages[page].height_mm);
    EXPECT_GE(m.corners[0].y, s->pages[page].y0_mm);
  }
}

// (robust20) A map whose cells are narrower than a 16 mm die: a die covers its own cell's
// paper ring (the reader's white for that cell) and is read as paper. A radius-12 map on A3
// (7.6 mm hexes) registered and read no die without a word; the sheet is still made (any
// radius works, interfaces.md) but die_fit_warning says why, naming the largest radius the
// paper takes, and `hexdice board` and the readers print it.
TEST(MakeSheet, WarnsOfAMapWhoseCellsCannotHoldADie) {
  const auto nine = make_sheet(9, "a3");
  ASSERT_TRUE(nine) << nine.error();
  EXPECT_GE(nine->hex_size_mm * std::sqrt(3.0), kDieSideMm);
  EXPECT_EQ(die_fit_warning(*nine), "");
  for (int radius : {10, 11, 12}) {
    const auto s = make_sheet(radius, "a3");
    ASSERT_TRUE(s) << radius;
    const std::string w = die_fit_warning(*s);
    EXPECT_NE(w.find("a 16 mm die does not fit in a cell"), std::string::npos) << w;
    EXPECT_NE(w.find("(radius 9 is the largest on a3)"), std::string::npos) << w;
  }
  EXPECT_NE(die_fit_warning(*make_sheet(12, "a3")).find("7.6 mm hexes, 13.2 mm across"), std::string::npos);
  EXPECT_EQ(die_fit_warning(*make_sheet(5, "letter")), "");
  EXPECT_NE(die_fit_warning(*make_sheet(6, "letter")).find("8.9 mm hexes, 15.4 mm across"), std::string::npos);
  EXPECT_NE(die_fit_warning(*make_sheet(7, "letter")).find("(radius 5 is the largest on letter)"), std::string::npos);
  // A board.json with such cells (an older generator's, or edited by hand) loads, and warns.
  nlohmann::json j = nlohmann::json::parse(to_json_text(*nine));
  j["hex_size_mm"] = 7.6;
  const auto back = sheet_from_json_text(j.dump());
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(die_fit_warning(*back).rfind("a radius-9 map on a3 has 7.6 mm hexes", 0), 0u) << die_fit_warning(*back);
  EXPECT_TRUE(die_does_not_fit(kDieSideMm / std::sqrt(3.0)).empty());
}

TEST(MakeSheet, RejectsBadRadiusAndPaper) {
  EXPECT_FALSE(make_sheet(1, "a3"));
  EXPECT_FALSE(make_sheet(13, "a3"));
  auto bad = make_sheet(5, "a5");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("a5"), std::string::npos);
}

TEST(BoardJson, RoundTripKeepsEveryField) {
  for (auto [radius, paper] : {std::pair{5, "a3"}, {4, "letter"}, {6, "a4x2"}}) {
    const auto s = make_sheet(radius, paper);
    ASSERT_TRUE(s);
    const std::string text = to_json_text(*s);
    auto back = sheet_from_json_text(text);
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(back->paper, s->paper);
    EXPECT_EQ(back->radius, s->radius);
    EXPECT_DOUBLE_EQ(back->hex_size_mm, s->hex_size_mm);
    EXPECT_DOUBLE_EQ(back->width_mm, s->width_mm);
    EXPECT_DOUBLE_EQ(back->centre_mm.y, s->centre_mm.y);
    EXPECT_DOUBLE_EQ(back->marker_size_mm, s->marker_size_mm);
    EXPECT_DOUBLE_EQ(back->grey_patch[1].x, s->grey_patch[1].x);
    EXPECT_DOUBLE_EQ(back->white_patch[0].y, s->white_patch[0].y);
    EXPECT_EQ(back->pages.size(), s->pages.size());
    ASSERT_EQ(back->markers.size(), s->markers.size());
    for (std::size_t i = 0; i < s->markers.size(); ++i)
      for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_DOUBLE_EQ(back->markers[i].corners[k].x, s->markers[i].corners[k].x);
        EXPECT_DOUBLE_EQ(back->markers[i].corners[k].y, s->markers[i].corners[k].y);
      }
    ASSERT_EQ(back->cells.size(), s->cells.size());
    for (std::size_t i = 0; i < s->cells.size(); ++i) {
      EXPECT_EQ(back->cells[i].hex, s->cells[i].hex);
      EXPECT_EQ(back->cells[i].name, s->cells[i].name);
      EXPECT_DOUBLE_EQ(back->cells[i].centre.x, s->cells[i].centre.x);
      EXPECT_DOUBLE_EQ(back->cells[i].centre.y, s->cells[i].centre.y);
    }
    EXPECT_EQ(to_json_text(*back), text);
  }
}

TEST(BoardJson, BadInputGivesAClearError) {
  const std::string good = to_json_text(standard_sheet());
  EXPECT_FALSE(sheet_from_json_text("{not json"));
  EXPECT_FALSE(sheet_from_json_text("[]"));
  auto no_cells = sheet_from_json_text(R"({"paper":"a3","width_mm":297,"height_mm":420,"hex_size_mm":17,"radius":5,
      "markers":[{"id":0,"corners_mm":[[10,10],[50,10],[50,50],[10,50]]}]})");
  ASSERT_FALSE(no_cells);
  EXPECT_NE(no_cells.error().find("cells"), std::string::npos);
  std::string off_map = good;
  const auto at = off_map.find("\"q\": -5");
  ASSERT_NE(at, std::string::npos);
  off_map.replace(at, 7, "\"q\": -9");
  auto bad = sheet_from_json_text(off_map);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("off a radius-5 map"), std::string::npos) << bad.error();
  auto j = nlohmann::json::parse(good);
  j["markers"][1]["corners_mm"].erase(0);
  auto three = sheet_from_json_text(j.dump());
  ASSERT_FALSE(three);
  EXPECT_NE(three.error().find("marker 1 needs 4 corners_mm"), std::string::npos);
}


// Damaged files never crash the parser: each mutation parses or gives a "board.json:" error.
TEST(BoardJson, RandomlyDamagedFilesGiveAnErrorOrASheet) {
  const std::string good = to_json_text(standard_sheet());
  std::mt19937 rng(7);
  const std::string alphabet = "{}[]\",:0123456789.-eE truefalsnul\n";
  int errors = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string t = good;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % t.size();
      switch (rng() % 3) {
        case 0: t[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: t.erase(at, 1 + rng() % 8); break;
        default: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
    }
    auto r = sheet_from_json_text(t);
    if (!r) {
      ++errors;
      EXPECT_EQ(r.error().rfind("board.json", 0), 0u) << r.error();
    } else {
      EXPECT_EQ(r->cells.size(), 91u);  // a parse that succeeds is a whole map
    }
  }
  EXPECT_GT(errors, 1000);  // most damage is detected
}

}  // namespace
}  // namespace hexdice::vision
