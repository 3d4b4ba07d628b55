// The board reader on synthetic scenes with known truth (vision/reader_synth.h).
#include <gtest/gtest.h>

#include <map>

#include "vision/read.h"
#include "vision/reader_geometry.h"
#include "vision/reader_synth.h"

namespace hexdice::vision {
namespace {

struct Score {
  int truth = 0, seen = 0, hit = 0, face_ok = 0, color_ok = 0, guard_ok = 0;
};

Score score(const Observation& obs, const std::vector<SynthDie>& dice) {
  Score s;
  std::map<Hex, const CellObservation*> seen;
  for (const auto& c : obs.cells) seen[c.hex] = &c;
  s.truth = static_cast<int>(dice.size());
  s.seen = static_cast<int>(obs.cells.size());
  for (const auto& d : dice) {
    auto it = seen.find(d.hex);
    if (it == seen.end()) continue;
    ++s.hit;
    s.face_ok += it->second->face == d.face;
    s.color_ok += it->second->color == d.color;
    s.guard_ok += it->second->guard == d.guard;
  }
  return s;
}

Score run(const SynthOptions& o, int n_dice, unsigned seed, int scenes) {
  const SheetLayout layout = reader_standard_sheet();
  Score total;
  for (int i = 0; i < scenes; ++i) {
    SynthOptions oi = o;
    oi.seed = seed + static_cast<unsigned>(i);
    const auto dice = random_dice(layout, n_dice, oi.seed);
    const SynthScene sc = render_synth_scene(layout, dice, oi);
    const Observation obs = read_board(sc.image, layout);
    EXPECT_TRUE(obs.board_found) << obs.why_not_found;
    const Score s = score(obs, dice);
    total.truth += s.truth; total.seen += s.seen; total.hit += s.hit;
    total.face_ok += s.face_ok; total.color_ok += s.color_ok; total.guard_ok += s.guard_ok;
  }
  std::printf("truth %d seen %d hit %d face %d color %d guard %d\n", total.truth, total.seen, total.hit,
              total.face_ok, total.color_ok, total.guard_ok);
  return total;
}

void expect_good(const Score& s, double occ, double face, double color) {
  EXPECT_GE(s.hit, occ * s.truth);
  EXPECT_LE(s.seen - s.hit, (1 - occ) * s.truth + 1);
  EXPECT_GE(s.face_ok, face * s.hit);
  EXPECT_GE(s.color_ok, color * s.hit);
  EXPECT_GE(s.guard_ok, 0.9 * s.hit);
}

TEST(ReadSynth, StraightDown720p) {
  SynthOptions o;
  expect_good(run(o, 20, 100, 4), 0.97, 0.95, 0.95);
}

TEST(ReadSynth, Tilted35Degrees) {
  SynthOptions o;
  o.camera.tilt_deg = 35;
  o.camera.yaw_deg = 8;
  expect_good(run(o, 20, 200, 4), 0.95, 0.9, 0.9);
}

TEST(ReadSynth, NoiseBlurGlareColourCast1080p) {
  SynthOptions o;
  o.camera.size = {1920, 1080};
  o.camera.tilt_deg = 20;
  o.noise_sigma = 6;
  o.blur_sigma = 1.2;
  o.glare_spots = 3;
  o.cast = {0.85, 1.0, 1.1};
  expect_good(run(o, 20, 300, 3), 0.93, 0.88, 0.88);
}

}  // namespace
}  // namespace hexdice::vision
