// Static evaluation of a Hex Dice position for the search (docs/hint-engine.md).
//
// Scores are in centi-units ("100 = one average unit"), from the point of view of
// one player; a won game is +kWin, a lost one -kWin (the search subtracts the ply
// so that shorter wins score higher).
#pragma once

#include "core/rules.h"

namespace hexdice::ai {

inline constexpr int kWin = 1000000;
inline constexpr int kWinThreshold = kWin - 10000;  // |score| above this: a forced result

// Material value of one unit as it stands (face, reduction tokens, guard).
int unit_value(const Piece& p);
// The position from `me`'s side: + good for me. Terminal positions give +-kWin.
int evaluate(const Position& pos, int me);

}  // namespace hexdice::ai
