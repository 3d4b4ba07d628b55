// White and black dice and their guard tokens (branch whiteblack3, docs/reader.md): a guard
// token beside a white die on the white paper is found even when the token is the only
// blob in the cell. Synthetic scenes (vision/reader_synth.h).
#include <gtest/gtest.h>

#include <vector>

#include "vision/read.h"
#include "vision/reader_synth.h"
#include "vision/sheet.h"

namespace hexdice::vision {
namespace {

struct GuardCount {
  int white_read = 0, guard_right = 0, false_guard = 0;
};

GuardCount count(const Observation& obs, const std::vector<SynthDie>& dice) {
  GuardCount g;
  for (const auto& d : dice) {
    const CellObservation* c = find_cell(obs, d.hex);
    if (!c) continue;
    if (d.color == "white" && c->color == "white" && c->face == d.face) ++g.white_read;
    if (c->guard == d.guard) ++g.guard_right;
    if (c->guard && !d.guard) ++g.false_guard;
  }
  return g;
}

// Seen from straight above, a white die's top is the paper's white and its sides are not
// seen: the die makes no blob, and its 10 mm guard token (0.39 of a unit face) is under the
// unit's minimum area, so it was never taken out as a token and the die found by its pips
// (FINEUNIT) was reported without its guard. With guard_alone (default) the token is found
// alone. Seeds 1-90 hold two such dice: seed 3's white 1 at (1,-4) and seed 87's white 2 at
// (1,-5). Seed 3's 1 (seen at 1.6 px/mm) is read confidently only at a few crop centres
// 0.05 mm apart (the lattice reader splits its pip in two peaks elsewhere); the fine look's
// centroid hit one when the plane was sampled at a flat 6 px/mm and misses at the camera's
// 2x (speed round 11, docs/reader.md). Seed 87's 2 reads at 1.00 either way: it keeps this
// test about the guard. Measured, 80 dice: 77 guards right without, 78 with (79 with the
// flat 6 px/mm sampling), white dice read 78 (79), no false guard either way.
TEST(ReaderWhiteBlack, GuardTokenAloneBesideAWhiteDieIsFound) {
  const SheetLayout layout = standard_sheet();
  GuardCount on_all, off_all;
  for (unsigned seed : {3u, 5u, 7u, 11u, 87u}) {
    const std::vector<SynthDie> dice = random_dice(layout, 16, seed, {"white"}, 1.0);
    SynthOptions o;
    o.seed = seed;
    o.camera.tilt_deg = 0.0;
    const SynthScene sc = render_synth_scene(layout, dice, o);
    ReadParams off;
    off.guard_alone = false;
    const Observation obs_on = read_board(sc.image, layout), obs_off = read_board(sc.image, layout, nullptr, off);
    ASSERT_TRUE(obs_on.board_found && obs_off.board_found);
    const GuardCount a = count(obs_on, dice), b = count(obs_off, dice);
    on_all.white_read += a.white_read, on_all.guard_right += a.guard_right, on_all.false_guard += a.false_guard;
    off_all.white_read += b.white_read, off_all.guard_right += b.guard_right, off_all.false_guard += b.false_guard;
  }
  EXPECT_GE(on_all.guard_right, off_all.guard_right + 1);
  EXPECT_LE(on_all.false_guard, off_all.false_guard);
  EXPECT_GE(on_all.white_read, off_all.white_read);
  EXPECT_GE(on_all.white_read, 75);  // of 80: the scenes are read at all
}

// White and black units with their tokens and a red one without, the default camera (no
// tilt given): every die, colour, face and guard right (the token-alone look must not give a
// token to the wrong die nor take one for a die).
TEST(ReaderWhiteBlack, GuardedWhiteAndBlackDiceReadRight) {
  const SheetLayout layout = standard_sheet();
  const std::vector<SynthDie> dice{{{-2, 1}, "red", 3}, {{1, -2}, "white", 5, true}, {{2, 2}, "black", 4, true}};
  SynthOptions o;
  o.seed = 17;
  const SynthScene sc = render_synth_scene(layout, dice, o);
  const Observation obs = read_board(sc.image, layout);
  ASSERT_TRUE(obs.board_found);
  EXPECT_EQ(obs.cells.size(), dice.size());
  for (const auto& d : dice) {
    const CellObservation* c = find_cell(obs, d.hex);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->color, d.color);
    EXPECT_EQ(c->face, d.face);
    EXPECT_EQ(c->guard, d.guard);
  }
}

}  // namespace
}  // namespace hexdice::vision
