#include "core/board.h"

#include <array>
#include <mutex>
#include <stdexcept>

namespace hexdice {

Board::Board(int radius) : radius_(radius), stride_(2 * radius + 1) {
  if (radius < kMinRadius || radius > kMaxRadius)
    throw std::invalid_argument("map radius must be between " + std::to_string(kMinRadius) + " and " +
                                std::to_string(kMaxRadius) + ", got " + std::to_string(radius));
  index_.assign(static_cast<std::size_t>(stride_ * stride_), kNoCell);
  // Cells in column-major order (q ascending, then r ascending): reading order of names.
  for (int q = -radius; q <= radius; ++q)
    for (int r = -radius; r <= radius; ++r) {
      const Hex h{q, r};
      if (!contains(h)) continue;
      index_[static_cast<std::size_t>((q + radius) * stride_ + (r + radius))] =
          static_cast<std::int16_t>(cells_.size());
      cells_.push_back(h);
    }
  nbr_.assign(cells_.size() * 6, kNoCell);
  for (std::size_t i = 0; i < cells_.size(); ++i)
    for (int d = 0; d < 6; ++d) nbr_[i * 6 + static_cast<std::size_t>(d)] = static_cast<std::int16_t>(index(hexdice::neighbor(cells_[i], d)));
}

std::shared_ptr<const Board> Board::get(int radius) {
  static std::mutex mu;
  static std::array<std::shared_ptr<const Board>, kMaxRadius + 1> cache;
  if (radius < kMinRadius || radius > kMaxRadius) return std::make_shared<const Board>(radius);  // throws
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[static_cast<std::size_t>(radius)];
  if (!slot) slot = std::make_shared<const Board>(radius);
  return slot;
}

std::string Board::name(Hex h) const {
  if (!contains(h)) return "?";
  const int col = h.q + radius_;
  const int top = std::max(-radius_, -radius_ - h.q);
  return std::string(1, static_cast<char>('a' + col)) + std::to_string(h.r - top + 1);
}

std::optional<Hex> Board::parse_name(std::string_view name) const {
  if (name.size() < 2 || name[0] < 'a' || name[0] > 'z') return std::nullopt;
  const int q = name[0] - 'a' - radius_;
  int row = 0;
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || row > 1000) return std::nullopt;
    row = row * 10 + (name[i] - '0');
  }
  if (row < 1) return std::nullopt;
  const int top = std::max(-radius_, -radius_ - q);
  const Hex h{q, top + row - 1};
  if (!contains(h)) return std::nullopt;
  return h;
}

}  // namespace hexdice
