// Axial hex coordinates for a flat-topped hex map (rules.md section 1).
//
// Hex is a constexpr value type: q, r stored, s derived. Directions are indexed
// N, NE, SE, S, SW, NW (0..5) exactly as rules.md lists them; screen y points down.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string_view>
#include <vector>

namespace hexdice {

enum class Dir : std::uint8_t { N = 0, NE = 1, SE = 2, S = 3, SW = 4, NW = 5 };
inline constexpr int kNumDirs = 6;

struct Hex {
  int q = 0;
  int r = 0;

  constexpr int s() const { return -q - r; }
  constexpr Hex operator+(Hex o) const { return {q + o.q, r + o.r}; }
  constexpr Hex operator-(Hex o) const { return {q - o.q, r - o.r}; }
  constexpr Hex operator*(int k) const { return {q * k, r * k}; }
  constexpr Hex& operator+=(Hex o) { q += o.q; r += o.r; return *this; }
  constexpr bool operator==(const Hex&) const = default;
  constexpr auto operator<=>(const Hex&) const = default;

  // Distance from the origin: max(|q|, |r|, |s|).
  constexpr int length() const {
    const int a = q < 0 ? -q : q, b = r < 0 ? -r : r, c = s() < 0 ? -s() : s();
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
  }
};

inline constexpr std::array<Hex, kNumDirs> kDirections = {{
    {0, -1}, {+1, -1}, {+1, 0}, {0, +1}, {-1, +1}, {-1, 0}}};

inline constexpr std::array<std::string_view, kNumDirs> kDirNames = {"N", "NE", "SE", "S", "SW", "NW"};

constexpr Hex direction(int d) { return kDirections[static_cast<std::size_t>(((d % 6) + 6) % 6)]; }
constexpr Hex direction(Dir d) { return direction(static_cast<int>(d)); }
constexpr int opposite(int d) { return (d + 3) % 6; }
constexpr Hex neighbor(Hex h, int d) { return h + direction(d); }
constexpr int distance(Hex a, Hex b) { return (a - b).length(); }

// Direction index from its name ("N", "NE", ...); -1 when unknown.
constexpr int dir_from_name(std::string_view name) {
  for (int i = 0; i < kNumDirs; ++i)
    if (kDirNames[static_cast<std::size_t>(i)] == name) return i;
  return -1;
}

// All cells at exactly distance k from centre (k >= 1), starting at the N
// direction and walking clockwise. ring(c, 0) is {c}.
std::vector<Hex> ring(Hex centre, int k);
// All cells within distance k of centre, ordered by ring.
std::vector<Hex> spiral(Hex centre, int k);
// Cells on the straight hex line from a to b inclusive (cube lerp with nudge).
std::vector<Hex> line(Hex a, Hex b);

// Pixel layout for flat-top hexes: size is centre-to-corner. Origin maps to (0, 0).
struct Point {
  double x = 0;
  double y = 0;
};
constexpr Point to_pixel(Hex h, double size) {
  // flat-top: x = size * 3/2 q ; y = size * sqrt(3) * (r + q/2)
  constexpr double kSqrt3 = 1.7320508075688772;
  return {size * 1.5 * h.q, size * kSqrt3 * (h.r + h.q / 2.0)};
}
// Nearest hex to a pixel position (cube rounding).
Hex from_pixel(Point p, double size);
// Corner i (0..5) of a flat-top hex centred at the origin, i = 0 pointing east.
Point corner_offset(int i, double size);

static_assert(Hex{1, -3}.s() == 2);
static_assert(distance(Hex{0, 0}, Hex{3, -5}) == 5);
static_assert(neighbor(Hex{0, 0}, 0) == Hex{0, -1});
static_assert(opposite(0) == 3 && opposite(4) == 1);
static_assert(dir_from_name("SW") == 4);

}  // namespace hexdice

template <>
struct std::hash<hexdice::Hex> {
  std::size_t operator()(const hexdice::Hex& h) const noexcept {
    return std::hash<long long>()((static_cast<long long>(h.q) << 32) ^ static_cast<unsigned>(h.r));
  }
};
