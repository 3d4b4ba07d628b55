// rules.md section 1 (the map) and interfaces.md cell names.
#include <gtest/gtest.h>

#include <set>

#include "core/board.h"
#include "core/hex.h"

namespace hexdice {
namespace {

TEST(Section1_Map, DirectionsAreInRulesOrder) {
  const std::vector<std::pair<int, Hex>> expected = {
      {0, {0, -1}}, {1, {1, -1}}, {2, {1, 0}}, {3, {0, 1}}, {4, {-1, 1}}, {5, {-1, 0}}};
  for (auto [i, h] : expected) EXPECT_EQ(direction(i), h) << kDirNames[static_cast<std::size_t>(i)];
  for (int i = 0; i < 6; ++i) EXPECT_EQ(direction(i) + direction(opposite(i)), (Hex{0, 0}));
}

TEST(Section1_Map, FlatTopHasNeighbourStraightNorth) {
  const Point c = to_pixel({0, 0}, 10.0);
  const Point n = to_pixel(direction(0), 10.0);
  EXPECT_DOUBLE_EQ(n.x, c.x);
  EXPECT_LT(n.y, c.y);  // screen y down: north is up
  for (int q = -5; q <= 5; ++q)
    for (int r = -5; r <= 5; ++r) EXPECT_EQ(from_pixel(to_pixel({q, r}, 17.0), 17.0), (Hex{q, r}));
}

TEST(Section1_Map, StandardAndLargeMapCellCounts) {
  EXPECT_EQ(Board(5).size(), 91);
  EXPECT_EQ(Board(7).size(), 169);
  for (int r = kMinRadius; r <= kMaxRadius; ++r) EXPECT_EQ(Board(r).size(), 3 * r * (r + 1) + 1);
  EXPECT_THROW(Board(1), std::invalid_argument);
  EXPECT_THROW(Board(13), std::invalid_argument);
}

TEST(Section1_Map, CornersAreRadiusTimesDirection) {
  const Board b(5);
  EXPECT_EQ(b.corner(0), (Hex{0, -5}));
  EXPECT_EQ(b.corner(1), (Hex{5, -5}));
  EXPECT_EQ(b.corner(2), (Hex{5, 0}));
  EXPECT_EQ(b.corner(3), (Hex{0, 5}));
  EXPECT_EQ(b.corner(4), (Hex{-5, 5}));
  EXPECT_EQ(b.corner(5), (Hex{-5, 0}));
}

TEST(Section1_Map, NeighbourTableMatchesGeometry) {
  const Board b(5);
  for (int i = 0; i < b.size(); ++i)
    for (int d = 0; d < 6; ++d) {
      const Hex n = neighbor(b.hex(i), d);
      EXPECT_EQ(b.neighbor(i, d), b.contains(n) ? b.index(n) : kNoCell);
    }
  EXPECT_EQ(b.step(b.index({0, 0}), 3, 5), b.index({0, 5}));
  EXPECT_EQ(b.step(b.index({0, 0}), 3, 6), kNoCell);
}

TEST(InterfacesCellNames, StandardMapNames) {
  const Board b(5);
  EXPECT_EQ(b.name({0, 0}), "f6");
  EXPECT_EQ(b.name({0, -5}), "f1");
  EXPECT_EQ(b.name({0, -4}), "f2");
  EXPECT_EQ(b.name({0, 4}), "f10");
  EXPECT_EQ(b.name({-5, 0}), "a1");   // westmost column starts at its top cell
  EXPECT_EQ(b.name({-5, 5}), "a6");
  EXPECT_EQ(b.name({5, -5}), "k1");
  std::set<std::string> names;
  for (Hex h : b.cells()) {
    const std::string n = b.name(h);
    EXPECT_TRUE(names.insert(n).second) << n;
    auto back = b.parse_name(n);
    ASSERT_TRUE(back.has_value()) << n;
    EXPECT_EQ(*back, h);
  }
  EXPECT_FALSE(b.parse_name("f12").has_value());
  EXPECT_FALSE(b.parse_name("z1").has_value());
  EXPECT_FALSE(b.parse_name("f0").has_value());
  EXPECT_FALSE(b.parse_name("").has_value());
}

TEST(HexGeometry, RingsSpiralsLines) {
  EXPECT_EQ(ring({0, 0}, 0).size(), 1u);
  for (int k = 1; k <= 6; ++k) {
    auto rg = ring({1, -2}, k);
    ASSERT_EQ(rg.size(), static_cast<std::size_t>(6 * k));
    for (Hex h : rg) EXPECT_EQ(distance(h, {1, -2}), k);
    EXPECT_EQ(std::set<Hex>(rg.begin(), rg.end()).size(), rg.size());
  }
  EXPECT_EQ(spiral({0, 0}, 2).size(), 19u);
  auto ln = line({0, 0}, {3, -1});
  ASSERT_EQ(ln.size(), 4u);
  for (std::size_t i = 1; i < ln.size(); ++i) EXPECT_EQ(distance(ln[i - 1], ln[i]), 1);
  EXPECT_EQ(ln.back(), (Hex{3, -1}));
}

}  // namespace
}  // namespace hexdice
