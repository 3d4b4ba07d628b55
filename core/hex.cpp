#include "core/hex.h"

#include <cmath>

namespace hexdice {

std::vector<Hex> ring(Hex centre, int k) {
  if (k <= 0) return {centre};
  std::vector<Hex> out;
  out.reserve(static_cast<std::size_t>(6 * k));
  // Start at the N-most cell and walk clockwise: SE, S, SW, NW, N, NE.
  Hex h = centre + direction(0) * k;
  for (int side = 0; side < 6; ++side) {
    const int d = (side + 2) % 6;
    for (int i = 0; i < k; ++i) {
      out.push_back(h);
      h = neighbor(h, d);
    }
  }
  return out;
}

std::vector<Hex> spiral(Hex centre, int k) {
  std::vector<Hex> out{centre};
  for (int i = 1; i <= k; ++i) {
    auto rg = ring(centre, i);
    out.insert(out.end(), rg.begin(), rg.end());
  }
  return out;
}

namespace {
Hex cube_round(double fq, double fr) {
  const double fs = -fq - fr;
  double q = std::round(fq), r = std::round(fr), s = std::round(fs);
  const double dq = std::abs(q - fq), dr = std::abs(r - fr), ds = std::abs(s - fs);
  if (dq > dr && dq > ds)
    q = -r - s;
  else if (dr > ds)
    r = -q - s;
  return {static_cast<int>(q), static_cast<int>(r)};
}
}  // namespace

std::vector<Hex> line(Hex a, Hex b) {
  const int n = distance(a, b);
  std::vector<Hex> out;
  out.reserve(static_cast<std::size_t>(n + 1));
  for (int i = 0; i <= n; ++i) {
    const double t = n == 0 ? 0.0 : static_cast<double>(i) / n;
    out.push_back(cube_round(a.q + (b.q - a.q) * t + 1e-6, a.r + (b.r - a.r) * t + 1e-6));
  }
  return out;
}

Hex from_pixel(Point p, double size) {
  const double q = (2.0 / 3.0 * p.x) / size;
  const double r = (-1.0 / 3.0 * p.x + std::sqrt(3.0) / 3.0 * p.y) / size;
  return cube_round(q, r);
}

Point corner_offset(int i, double size) {
  const double a = M_PI / 180.0 * 60.0 * i;
  return {size * std::cos(a), size * std::sin(a)};
}

}  // namespace hexdice
