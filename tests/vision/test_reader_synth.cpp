// The board reader on synthetic scenes with known truth (vision/reader_synth.h).
// Floors are set below what was measured (see the report in the commit log) so a
// regression fails the test.
#include <gtest/gtest.h>

#include <map>

#include "vision/read.h"
#include "vision/sheet.h"
#include "vision/reader_synth.h"

namespace hexdice::vision {
namespace {

struct Score {
  int truth = 0, seen = 0, hit = 0, face_ok = 0, color_ok = 0, guard_ok = 0, found = 0;
};

Score run(const SynthOptions& o, int n_dice, unsigned seed, int scenes, TrackerState* tracker = nullptr) {
  const SheetLayout layout = standard_sheet();
  Score s;
  for (int i = 0; i < scenes; ++i) {
    SynthOptions oi = o;
    oi.seed = seed + static_cast<unsigned>(i);
    const auto dice = random_dice(layout, n_dice, oi.seed);
    const SynthScene sc = render_synth_scene(layout, dice, oi);
    const Observation obs = read_board(sc.image, layout, nullptr, ReadParams{}, tracker);
    s.found += obs.board_found;
    std::map<Hex, const CellObservation*> seen;
    for (const auto& c : obs.cells) seen[c.hex] = &c;
    s.truth += static_cast<int>(dice.size());
    s.seen += static_cast<int>(obs.cells.size());
    for (const auto& d : dice) {
      auto it = seen.find(d.hex);
      if (it == seen.end()) continue;
      ++s.hit;
      s.face_ok += it->second->face == d.face;
      s.color_ok += it->second->color == d.color;
      s.guard_ok += it->second->guard == d.guard;
    }
  }
  std::printf("scenes %d found %d truth %d seen %d hit %d face %d color %d guard %d\n", scenes, s.found, s.truth,
              s.seen, s.hit, s.face_ok, s.color_ok, s.guard_ok);
  return s;
}

void expect_at_least(const Score& s, double occ, double face, double color, double guard) {
  EXPECT_GE(s.hit, occ * s.truth) << "occupancy recall";
  EXPECT_LE(s.seen - s.hit, (1 - occ) * s.truth + 1) << "occupancy precision";
  EXPECT_GE(s.face_ok, face * s.hit) << "face accuracy";
  EXPECT_GE(s.color_ok, color * s.hit) << "colour accuracy";
  EXPECT_GE(s.guard_ok, guard * s.hit) << "guard accuracy";
}

TEST(ReadSynth, StraightDown720p) {
  SynthOptions o;
  const Score s = run(o, 20, 100, 3);
  EXPECT_EQ(s.found, 3);
  // (exact26) 0.97 -> 0.96: one_top_shown hides a die these scenes read as a wrong 1 (without it
  // 59 of 60 found, 58 faces right; with it 58 found, 58 right): a wrong face now unknown.
  expect_at_least(s, 0.96, 0.93, 0.97, 0.93);
}

TEST(ReadSynth, Tilted35DegreesTopFacesMapToTheirCells) {
  SynthOptions o;
  o.camera.tilt_deg = 35;
  o.camera.yaw_deg = 6;
  const Score s = run(o, 20, 200, 3);
  EXPECT_EQ(s.found, 3);
  expect_at_least(s, 0.95, 0.78, 0.93, 0.83);
}

TEST(ReadSynth, NoiseBlurGlareColourCast1080p) {
  SynthOptions o;
  o.camera.size = {1920, 1080};
  o.camera.tilt_deg = 20;
  o.noise_sigma = 6;
  o.blur_sigma = 1.2;
  o.glare_spots = 3;
  o.cast = {0.85, 1.0, 1.1};
  const Score s = run(o, 20, 300, 2);
  EXPECT_EQ(s.found, 2);
  expect_at_least(s, 0.9, 0.8, 0.85, 0.85);
}

TEST(ReadSynth, EmptyBoardHasNoCells) {
  const SheetLayout layout = standard_sheet();
  SynthOptions o;
  o.camera.tilt_deg = 25;
  const SynthScene sc = render_synth_scene(layout, {}, o);
  const Observation obs = read_board(sc.image, layout);
  EXPECT_TRUE(obs.board_found);
  EXPECT_LE(obs.cells.size(), 1u);
}

TEST(ReadSynth, TwoMarkersCoveredStillReads) {
  SynthOptions o;
  o.hide_markers = {1, 3};
  const Score s = run(o, 12, 400, 1);
  EXPECT_EQ(s.found, 1);
  expect_at_least(s, 0.9, 0.85, 0.9, 0.85);
}

TEST(ReadSynth, TrackerKeepsPoseWhenAllMarkersCovered) {
  const SheetLayout layout = standard_sheet();
  const auto dice = random_dice(layout, 10, 500);
  SynthOptions o;
  o.seed = 500;
  TrackerState tracker;
  const Observation first = read_board(render_synth_scene(layout, dice, o).image, layout, nullptr, {}, &tracker);
  ASSERT_TRUE(first.board_found);
  EXPECT_TRUE(tracker.has_pose);
  EXPECT_FALSE(tracker.last_used_tracking);
  // Next frame: found again, this time near the last markers.
  const Observation second = read_board(render_synth_scene(layout, dice, o).image, layout, nullptr, {}, &tracker);
  EXPECT_TRUE(second.board_found);
  EXPECT_TRUE(tracker.last_used_tracking);
  // All four covered: the last pose carries on, counted as unseen.
  o.hide_markers = {0, 1, 2, 3};
  const SynthScene covered = render_synth_scene(layout, dice, o);
  const Observation third = read_board(covered.image, layout, nullptr, {}, &tracker);
  EXPECT_TRUE(third.board_found);
  EXPECT_EQ(tracker.frames_since_seen, 1);
  EXPECT_GE(third.cells.size(), 8u);
  // Without a tracker the same frame has no board.
  EXPECT_FALSE(read_board(covered.image, layout).board_found);
}

}  // namespace
}  // namespace hexdice::vision
