// The hexagonal map of a given radius: cells, indices, neighbours, names, corners,
// bases and deployment zones (rules.md sections 1-2, interfaces.md cell names).
//
// A Board is immutable geometry; it knows nothing of units or turns. Boards are
// shared: Board::get(radius) returns one cached instance per radius.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/hex.h"

namespace hexdice {

inline constexpr int kMinRadius = 2;
inline constexpr int kMaxRadius = 12;  // 25 columns: names stay within a..y
inline constexpr std::int16_t kNoCell = -1;

class Board {
 public:
  explicit Board(int radius);
  // Shared instance for a radius in [kMinRadius, kMaxRadius]; throws std::invalid_argument otherwise.
  static std::shared_ptr<const Board> get(int radius);

  int radius() const { return radius_; }
  int size() const { return static_cast<int>(cells_.size()); }
  bool contains(Hex h) const { return h.length() <= radius_; }

  // Cell index (0..size-1) or kNoCell when off the map.
  int index(Hex h) const {
    if (!contains(h)) return kNoCell;
    return index_[static_cast<std::size_t>((h.q + radius_) * stride_ + (h.r + radius_))];
  }
  Hex hex(int idx) const { return cells_[static_cast<std::size_t>(idx)]; }
  const std::vector<Hex>& cells() const { return cells_; }

  // Neighbour index of cell idx in direction d, or kNoCell.
  int neighbor(int idx, int d) const { return nbr_[static_cast<std::size_t>(idx * 6 + d)]; }
  // The raw table: entry idx * 6 + d (for hot loops).
  const std::int16_t* neighbor_table() const { return nbr_.data(); }
  // Cell reached by k straight steps, or kNoCell.
  int step(int idx, int d, int k) const {
    for (int i = 0; i < k && idx != kNoCell; ++i) idx = neighbor(idx, d);
    return idx;
  }

  // Corner i: radius * direction(i).
  Hex corner(int i) const { return direction(i) * radius_; }

  // Human names: column letter by q (a = westmost), row from the top cell of the column.
  std::string name(Hex h) const;
  std::string name(int idx) const { return name(hex(idx)); }
  // Parses "f6" etc.; nullopt when malformed or off the map.
  std::optional<Hex> parse_name(std::string_view name) const;

 private:
  int radius_;
  int stride_;
  std::vector<Hex> cells_;
  std::vector<std::int16_t> index_;
  std::vector<std::int16_t> nbr_;
};

}  // namespace hexdice
