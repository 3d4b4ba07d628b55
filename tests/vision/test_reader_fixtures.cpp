// Accuracy floors of the board reader on the committed rendered scenes
// (data/fixtures/scenes, tests/render/scene_gen.py). The floors sit a few points below
// what the reader measures (docs/reader.md), so a regression fails here. They are far
// below the issue's targets: this guards what exists, it does not claim the targets.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "vision/reader_eval.h"
#include "vision/reader_io.h"
#include "tests/vision/fixture_labels.h"

namespace hexdice::vision {
namespace {

// The committed scenes scored with one setting changed, and with the defaults (scored once
// for the tests below that compare a setting off against on).
SceneScore score_fixtures(const ReadParams& params) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  auto s = eval_scenes(dir.string(), params, 0, nullptr);
  if (!s.ok()) ADD_FAILURE() << s.error();
  return s.ok() ? *s : SceneScore{};
}
const SceneScore& default_score() {
  static const SceneScore s = score_fixtures(ReadParams{});
  return s;
}
int false_dice(const SceneScore& s) { return s.seen_cells - s.matched; }

// What every A/B test below asserts beside its gain: no true die, colour or guard lost, no
// new false die (called from the test, so a failure names the test's scores).
void expect_nothing_lost(const SceneScore& now, const SceneScore& before) {
  EXPECT_GE(now.matched, before.matched);
  EXPECT_GE(now.color_ok, before.color_ok);
  EXPECT_GE(now.guard_ok, before.guard_ok);
  EXPECT_LE(false_dice(now), false_dice(before));
}

TEST(ReaderFixtures, AccuracyFloorsOnTheCommittedScenes) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  auto s = eval_scenes(dir.string(), ReadParams{}, 0, nullptr);
  ASSERT_TRUE(s.ok()) << s.error();
  ASSERT_GE(s->scenes, 40);
  ASSERT_GT(s->seen_cells, 0);
  ASSERT_GT(s->matched, 0);
  const double found = static_cast<double>(s->found_ok) / s->scenes;
  const double precision = static_cast<double>(s->matched) / s->seen_cells;
  const double recall = static_cast<double>(s->matched) / s->truth_cells;
  const double colour = static_cast<double>(s->color_ok) / s->matched;
  const double face = static_cast<double>(s->face_ok) / s->matched;
  const double guard = static_cast<double>(s->guard_ok) / s->matched;
  // Measured 2026-12-01 (docs/reader.md): found 100%, precision 91.6%, recall 90.2%,
  // colour 95.6%, face 92.7%, guard 93.6%. Recall was 84.2% and face 88.6% before partial
  // views, the white-die tests and the face retries; these floors would have failed then.
  // Since the occluder mask and the honest scorer (branch hands): precision 99.8%, recall
  // 95.7% of the scored cells, 90.8% of every visible die (hidden ones counted as missed);
  // precision was 91.3% and visible recall 94.5% before. Since the print test of guard
  // pixels (branch faces): colour 98.4%, guard 97.9% (were 97.9% and 93.4%).
  EXPECT_GE(found, 0.95);
  // Since the pip-reach candidates and the dice read in an arm's shadow (branch
  // occupancy): precision 99.8%, recall 98.6%, visible recall 95.5% (were 99.8 / 96.7 / 91.8%).
  // All of session 7's branches merged (whiteblack2, colour2, occupancy2): precision 99.8%,
  // recall 99.8%, visible recall 98.4%, colour 99.6%, face 98.8%, guard 99.6%, exact 35/43.
  EXPECT_GE(precision, 0.995);
  // Since the white/black pip look at camera resolution (branch whiteblack2): recall 99.8%,
  // visible recall 98.0%, colour 99.6%, face 98.2%, guard 99.4% (were 99.0 / 96.3 / 98.8 /
  // 94.5 / 98.4%).
  EXPECT_GE(recall, 0.995);
  EXPECT_GE(s->recall_visible(), 0.98);
  EXPECT_GE(colour, 0.99);
  // Since the neighbours' paper is left out of the top face (branch topface): face 93.4%
  // (was 92.1%), colour 98.5% unchanged.
  EXPECT_GE(face, 0.98);
  // Since the coloured dice's second look and the guard on the grid lines (branch colour2):
  // guard 99.0% alone (was 98.4%).
  EXPECT_GE(guard, 0.99);
}

// A die's blob takes in the paper of a neighbouring cell tinted unlike its own (or the
// sheet's white round the grid): "not paper" there. Its body colour came out paper-grey,
// the top mask spread over the paper and the face square slid off the face (a confident
// 1 -> 2 most often). Left out (face_other_paper), on the committed scenes: more faces
// right, no colour lost (measured 2026-12-01: face 431 -> 438 right, colour 461 -> 462).
// (Measured alone: the coloured dice's second look below, colour_cover_min, rescues some of
// the same dice, so both runs here have it off; with it on, off vs on is 464 -> 468.)
// (Since exact11 the coloured dice's camera-resolution pip look is off in both runs too: it
// finds the same dice's faces where their pips are, whatever the square; with it on, and the
// colour slide off, off vs on measured 501 -> 502.)
// (Since exact13 the sheet's margin look, margin_distance, is off in both runs too: it takes the
// untinted margin out of outer dice's blobs, as this look does for them; with it on, off vs on
// measured 499 -> 502.)
TEST(ReaderFixtures, NeighbourPaperLeftOutOfTheTopFace) {
  ReadParams on;
  on.colour_cover_min = 0;
  on.coloured_pip_look_below = 0;
  on.margin_distance = 0;
  on.side_pair_min_confidence = 0;  // (robust35) the side-pair look reads a 4 this look reads, in the run without it
  ReadParams off = on;
  off.face_other_paper = false;
  const SceneScore before = score_fixtures(off), now = score_fixtures(on);
  ASSERT_GT(now.scenes, 0);
  EXPECT_GE(now.face_ok, before.face_ok + 5);
  EXPECT_GE(now.color_ok, before.color_ok);
  EXPECT_GE(now.guard_ok, before.guard_ok);
  EXPECT_LE(false_dice(now), false_dice(before));
}

// White and black dice read again centred on their pips (dark on white, light on black,
// side-face pips left out), kept when the count agrees (pip_look_confidence): on the
// fixtures 4 more faces right and a black die found that was missed (branch whiteblack);
// no colour, guard or true die lost, no new false die.
TEST(ReaderFixtures, WhiteAndBlackDiceReadCentredOnTheirPips) {
  ReadParams off;
  off.pip_look_confidence = 0;
  const SceneScore before = score_fixtures(off), &now = default_score();
  ASSERT_GT(now.scenes, 0);
  EXPECT_GE(now.face_ok, before.face_ok + 3);
  expect_nothing_lost(now, before);
}

// The white/black pip look with the pips found at the camera's resolution on the top plane
// and grouped into standard layouts at the face's real size (fine_pip_look, branch
// whiteblack2), against the 2 px/mm patch look alone: measured 491 of 500 faces right
// against 464 of 491, 9 more dice read (white dice read blue beside their guard token, white
// dice with no blob), the same one false die; colour 498 vs 485, guard 497 vs 483.
// (Round 20: the grid band given back round a cut pip and the size gate make the patch look
// alone better, 482 -> 487 faces right and 14 -> 6 wrong; the fine look's gain is then 19.)
TEST(ReaderFixtures, WhiteAndBlackPipsCountedAtCameraResolution) {
  ReadParams off;
  off.fine_pip_look = false;
  // (robust35) Without the side-pair look (it reads a 4 in the run without this look; with the
  // defaults it changes no reading of these fixtures, so default_score() is the run without it too).
  off.side_pair_min_confidence = 0;
  const SceneScore before = score_fixtures(off), &now = default_score();
  ASSERT_GT(now.scenes, 0);
  EXPECT_GE(now.face_ok, before.face_ok + 19);
  EXPECT_GE(now.matched, before.matched + 5);
  EXPECT_GE(now.color_ok, before.color_ok + 8);
  EXPECT_GE(now.guard_ok, before.guard_ok + 8);
  EXPECT_LE(false_dice(now), false_dice(before));
}

// A weak white or black reading looked at in the other grey's polarity too (grey_other_polarity,
// branch whiteblack3): a white die whose blob was its own shadow was read black 6 at 0.30 (its
// body 0.59 of the white), a black die read 1 at 0.13 was dropped. Measured on the fixtures:
// faces 496 -> 498, colours 500 -> 502, dice 502 -> 503, no new false die.
TEST(ReaderFixtures, WeakGreyReadingLookedAtInTheOtherPolarity) {
  ReadParams off;
  off.grey_other_polarity = false;
  const SceneScore before = score_fixtures(off), &now = default_score();
  ASSERT_GT(now.scenes, 0);
  // +1 since exact13: one of its white dice (a view at low tilt) is read right without this
  // look too once the focal there is the fallback (focal_min_tilt_deg): measured faces,
  // colours and dice 503 -> 504.
  EXPECT_GE(now.face_ok, before.face_ok + 1);
  EXPECT_GE(now.color_ok, before.color_ok + 1);
  EXPECT_GE(now.matched, before.matched + 1);
  EXPECT_GE(now.guard_ok, before.guard_ok);
  EXPECT_LE(false_dice(now), false_dice(before));
}

// A die at the sheet's edge seen with the table beyond it (fixture 018 (5,-5), a black 2 at
// 28 deg tilt): the table's pixels differ from the paper, so they joined the die's blob and
// made its top mask; the face square was slid onto the wood and the die named red. The table
// beyond the sheet, of the table's colour, is taken out of the foreground (table_distance,
// branch exact10): measured 503 -> 504 colours of 504, nothing else changed.
TEST(ReaderFixtures, TableBeyondTheSheetIsNoPartOfADie) {
  ReadParams off;
  off.table_distance = 0;
  const SceneScore before = score_fixtures(off), &now = default_score();
  ASSERT_GT(now.scenes, 0);
  EXPECT_GE(now.color_ok, before.color_ok + 1);
  EXPECT_GE(now.face_ok, before.face_ok);
  expect_nothing_lost(now, before);
}

// Every die on the fixtures reads with its colour's pip polarity (light on black, red, green,
// blue; dark on white, yellow). A shade's grain beside an arm (fixture 026 (-2,3)) read as a
// black 1 at 0.60 with a dark "pip": the contradiction hides it (polarity_check, branch
// exact10): measured 1 -> 0 false dice, no die, face, colour or guard lost.
TEST(ReaderFixtures, ReadingAgainstItsColoursPipPolarityIsHidden) {
  ReadParams off;
  off.polarity_check = false;
  const SceneScore before = score_fixtures(off), &now = default_score();
  ASSERT_GT(now.scenes, 0);
  EXPECT_LE(false_dice(now), false_dice(before) - 1);
  EXPECT_GE(now.face_ok, before.face_ok);
  expect_nothing_lost(now, before);
}

// Coloured dice at high tilt: the blob took in the paper beyond the top's far edge, its
// body came out washed, the square slid half off the top and the crop read a side pip or
// the face's edge as pips (a confident 1 -> 2, 3 -> 1, 6 -> 4). Slid again over the die's
// lit pixels of the crop's own colour (colour_cover_min, branch colour2): measured on the
// fixtures 464 -> 468 faces right, a green die that was hidden read, a phantom guard gone.
TEST(ReaderFixtures, ColouredDiceSlidAgainOverTheirOwnColour) {
  ReadParams off;
  off.colour_cover_min = 0;
  const SceneScore before = score_fixtures(off), &now = default_score();
  ASSERT_GT(now.scenes, 0);
  // +2 since exact10: fixture 018 (5,-5) is read right without the slide too now that the
  // table beyond the sheet is no part of its blob (table_distance); 502 -> 504 measured.
  // +1 since exact13 (the round's pose and margin changes read another of its dice right
  // without the slide): 503 -> 504 measured.
  EXPECT_GE(now.face_ok, before.face_ok + 1);
  expect_nothing_lost(now, before);
}

// A coloured die's unsure reading read again with only its pips' polarity (light pips on
// red, green, blue: everything darker than the body set to the body; dark on yellow: the
// reverse), branch colour3: pale pips on pale glared tops lost to the dark rim and side
// faces' blob-shaped corners (fixtures 003, 007, 033, 036). Measured 496 -> 500 faces of
// 502, no die, colour or guard lost, no new false die.
TEST(ReaderFixtures, ColouredDiceReadWithTheirPipsPolarityOnly) {
  ReadParams off;
  off.pip_polarity_below = 0;
  // (robust35) Without the side-pair look (it reads a die in the run without this look; with the
  // defaults it changes no reading of these fixtures, so default_score() is the run without it too).
  off.side_pair_min_confidence = 0;
  const SceneScore before = score_fixtures(off), &now = default_score();
  ASSERT_GT(now.scenes, 0);
  EXPECT_GE(now.face_ok, before.face_ok + 3);
  expect_nothing_lost(now, before);
}

// A guard token stands across the cell's flats, near its border: a grid line drawn on the
// top plane cut its blue pixels into pieces each under guard_area_min (or moved the
// piece's centre out of the cell). Counted on the lines too and joined (guard_on_grid,
// branch colour2): measured on the fixtures guard 485 -> 487 of 492, no new phantom.
// (Measured alone: since the white/black pip look at camera resolution (fine_pip_look)
// those two fixture dice are read right either way, so both runs here have it off; with it
// on the gain shows on other scenes only: dev2 guard 536 -> 543 of 547.)
// (Since exact11 the coloured dice's camera-resolution pip look is off in both runs too: with
// the fine look off it moves the squares of the dice beside those tokens and finds 3 of the
// guards without the grid (guard_on_grid off 488, on 487: measured); by default, fine look on,
// the fixtures read the same with or without it.)
TEST(ReaderFixtures, GuardTokenCutByAGridLineStillCounts) {
  ReadParams on;
  on.fine_pip_look = false;
  on.coloured_pip_look_below = 0;
  ReadParams off = on;
  off.guard_on_grid = false;
  const SceneScore before = score_fixtures(off), now = score_fixtures(on);
  ASSERT_GT(now.scenes, 0);
  EXPECT_GE(now.guard_ok, before.guard_ok + 2);
  EXPECT_GE(now.face_ok, before.face_ok);
  EXPECT_GE(now.matched, before.matched);
  EXPECT_LE(false_dice(now), false_dice(before));
}

// Seven of the scenes have a hand or arm over the sheet. With hand detection off
// (hand_min_area_mm2 = 0, hand_max_edges = -1, occluder_core_mm = 0) and no face check on
// shadow-like units (shadow_unit_min_confidence = 0), the cells under it and its shadow
// are read as dice (about 180 false detections, docs/reader.md); with the defaults all but
// a handful must go, at the price of the visible dice in the arm's shadow (hidden, not
// read), and the cells under the hand are listed as hidden in the hand scenes only.
TEST(ReaderFixtures, HandDetectionRemovesMostFalseDetections) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  ReadParams off;
  off.hand_min_area_mm2 = 0;
  off.hand_max_edges = -1;
  off.occluder_core_mm = 0;
  off.shadow_unit_min_confidence = 0;
  // (Round 18: a weak white reading without any dark pip, white_no_pip_below, also removes
  // some of the arm's false dice; off here, where the hand detection alone is measured.)
  off.white_no_pip_below = 0;
  // (Round 20: nor does the size gate, face_scale_gate: the arm's grain read as a 2 at the
  // wrong size.)
  off.face_scale_gate = false;
  auto with = eval_scenes(dir.string(), ReadParams{}, 0, nullptr);
  auto without = eval_scenes(dir.string(), off, 0, nullptr);
  ASSERT_TRUE(with.ok() && without.ok());
  const int fp_with = with->seen_cells - with->matched, fp_without = without->seen_cells - without->matched;
  EXPECT_GT(fp_without, 100);
  // 1 of ~180 since the occluder mask (the skin and print-edge cues alone left 46).
  EXPECT_LT(fp_with * 30, fp_without) << fp_with << " vs " << fp_without;
  // Dice lost: since the scorer leaves hidden cells out, a visible die in a cell hidden
  // under the arm's shadow is no longer a miss but is counted in hidden_visible (25
  // measured, all in the hand scenes); beside that, at most a few true dice may go.
  EXPECT_GE(with->matched + with->hidden_visible + 5, without->matched);
  EXPECT_LE(with->hidden_visible, 20);  // 16 since branch occupancy (26 before)
}

// White dice whose pips miss the 8 mm core (a 2, 3 or 4 standing off the cell centre: the
// top is paper-coloured, the pips 4-6 mm from the face centre) were never looked at; the
// pip-reach test (a pip-sized dark blob off the grid within core_pip_reach_mm) makes them
// candidates. Measured (branch occupancy): 487 dice read with it, 478 without, the same one
// false detection; 9 of the 11 white dice missed before are read.
TEST(ReaderFixtures, WhiteDiceOffTheCoreAreCandidates) {
  ReadParams off;
  off.core_pip_reach_mm = 0;
  const SceneScore without = score_fixtures(off), &with = default_score();
  ASSERT_GT(with.scenes, 0);
  EXPECT_GE(with.matched, without.matched + 6) << with.matched << " vs " << without.matched;
  EXPECT_LE(false_dice(with), false_dice(without));
}

// A die in an arm's shadow is plainly visible: the cell is read and the die reported when
// beyond doubt (face confidence >= occluded_min_confidence, a body darker than any shadow
// or saturated and not skin-hued). Measured (branch occupancy): visible dice in hidden
// cells 31 -> 16 against always hiding them (occluded_min_confidence = 0), the same one
// false detection, and no die reported where the label says the hand covers it.
TEST(ReaderFixtures, DiceInAnArmsShadowAreReported) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  ReadParams hide;
  hide.occluded_min_confidence = 0;
  const SceneScore without = score_fixtures(hide), &with = default_score();
  ASSERT_GT(with.scenes, 0);
  EXPECT_LE(with.hidden_visible + 10, without.hidden_visible) << with.hidden_visible << " vs " << without.hidden_visible;
  EXPECT_LE(false_dice(with), false_dice(without));
  EXPECT_GE(with.matched, without.matched + 10);
  // Nothing under the hand itself: no reported die where the label has an occluded one.
  const SheetLayout layout = standard_sheet();
  int under_hand = 0;
  for (const auto& [path, j] : scene_labels(dir)) {
    if (!j.value("hand", false) || !j.value("board_found", false)) continue;
    auto img = load_image((dir / j.value("image", "")).string());
    ASSERT_TRUE(img.ok());
    std::set<Hex> occluded;
    for (const auto& d : j["dice"])
      if (d.value("occluded", false) && !d["q"].is_null()) occluded.insert(Hex{d["q"].get<int>(), d["r"].get<int>()});
    for (const auto& c : read_board(*img, layout).cells) under_hand += occluded.count(c.hex) ? 1 : 0;
  }
  EXPECT_EQ(under_hand, 0);
}

TEST(ReaderFixtures, HiddenCellsOnlyWhereAHandIs) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  const SheetLayout layout = standard_sheet();
  int hand_scenes = 0, hand_scenes_hidden = 0, other_scenes_hidden = 0;
  for (const auto& [path, j] : scene_labels(dir)) {
    if (!j.value("board_found", false)) continue;
    auto img = load_image((dir / j.value("image", "")).string());
    ASSERT_TRUE(img.ok()) << img.error();
    const Observation obs = read_board(*img, layout);
    // Cells off the frame (a partial view) are hidden too; only cells well inside it count
    // here: those are hidden because something covers them.
    int hidden_in_frame = 0;
    for (const Hex& h : obs.hidden) {
      const Point c = layout.cell_centre(h);
      const cv::Point2d p = apply_h(obs.pose.paper_to_image, {c.x, c.y});
      const double m = 60;  // px: a die's top face and its parallax
      hidden_in_frame += p.x > m && p.y > m && p.x < img->cols - m && p.y < img->rows - m;
    }
    if (j.value("hand", false)) {
      ++hand_scenes;
      hand_scenes_hidden += hidden_in_frame > 0;
    } else {
      other_scenes_hidden += hidden_in_frame > 0;
    }
  }
  EXPECT_GE(hand_scenes, 6);
  EXPECT_GE(hand_scenes_hidden, hand_scenes - 1);
  EXPECT_LE(other_scenes_hidden, 1);
}

// Partial views (issue 3): a scene with the map partly out of frame but two markers in view
// is read (board_found true) with the cells off the frame listed as hidden; no die whose
// top is out of view is reported, and most dice in view are.
TEST(ReaderFixtures, PartialViewReportsTheCellsInView) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  const SheetLayout layout = standard_sheet();
  int partial = 0, in_view = 0, read = 0;
  for (const auto& [path, j] : scene_labels(dir)) {
    if (!j.value("board_found", false) || j.value("hand", false)) continue;
    bool some_out = false;
    for (const auto& d : j["dice"]) some_out = some_out || !d.value("in_view", true);
    if (!some_out) continue;
    auto img = load_image((dir / j.value("image", "")).string());
    ASSERT_TRUE(img.ok()) << img.error();
    const Observation obs = read_board(*img, layout);
    ASSERT_TRUE(obs.board_found) << path << ": " << obs.why_not_found;
    ++partial;
    EXPECT_FALSE(obs.hidden.empty());
    std::set<Hex> hidden(obs.hidden.begin(), obs.hidden.end()), seen;
    for (const auto& c : obs.cells) {
      EXPECT_FALSE(hidden.count(c.hex));
      seen.insert(c.hex);
    }
    for (const auto& d : j["dice"]) {
      const Hex h{d["q"].get<int>(), d["r"].get<int>()};
      if (!d.value("in_view", true)) {
        EXPECT_TRUE(hidden.count(h)) << path << ": die out of view at " << h.q << "," << h.r << " not hidden";
        EXPECT_FALSE(seen.count(h));
      } else if (!hidden.count(h)) {
        ++in_view;
        read += seen.count(h) ? 1 : 0;
      }
    }
  }
  ASSERT_GE(partial, 1);
  ASSERT_GT(in_view, 5);
  EXPECT_GE(read, in_view * 8 / 10) << read << " of " << in_view;
}

// A hand scene (issue 3): an arm and its shadow over the sheet, dice beside it. Nothing
// under the arm, its shadow or its fingers is reported as a die; every die the label
// calls occluded is hidden (or at least not reported); the dice beside the hand are read.
TEST(ReaderFixtures, HandScenesReportNoDieThatIsNotThere) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  const SheetLayout layout = standard_sheet();
  for (const char* name : {"scene_001", "scene_005"}) {
    std::ifstream in(dir / (std::string(name) + ".json"));
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    ASSERT_TRUE(j.is_object() && j.value("hand", false)) << name;
    auto img = load_image((dir / j.value("image", "")).string());
    ASSERT_TRUE(img.ok()) << img.error();
    const Observation obs = read_board(*img, layout);
    ASSERT_TRUE(obs.board_found) << name;
    std::set<Hex> truth, occluded, hidden(obs.hidden.begin(), obs.hidden.end());
    for (const auto& d : j["dice"]) {
      const Hex h{d["q"].get<int>(), d["r"].get<int>()};
      (d.value("occluded", false) || !d.value("in_view", true) ? occluded : truth).insert(h);
    }
    ASSERT_FALSE(occluded.empty()) << name;
    int read = 0;
    for (const auto& c : obs.cells) {
      EXPECT_TRUE(truth.count(c.hex)) << name << ": false die at " << c.hex.q << "," << c.hex.r << " (" << c.color << ")";
      EXPECT_FALSE(occluded.count(c.hex)) << name << ": a die under the hand reported at " << c.hex.q << "," << c.hex.r;
      read += truth.count(c.hex) ? 1 : 0;
    }
    EXPECT_GE(hidden.size(), 10u) << name;  // the arm covers a dozen cells or more
    // Most visible dice are read (the others are in cells under the arm's shadow, hidden).
    EXPECT_GE(read * 10, static_cast<int>(truth.size()) * 7) << name << ": " << read << " of " << truth.size();
  }
}

// All seven hand scenes together: at most a couple of false dice (46 before the occluder
// mask, 1 measured: every false detection of the fixtures was in a hand scene).
TEST(ReaderFixtures, HandScenesAlmostNoFalseDetections) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  auto s = eval_scenes(dir.string(), ReadParams{}, 0, nullptr);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_LE(s->seen_cells - s->matched, 3);
}

// The scorer's rules (docs/reader.md "How the scorer counts"): a reader that hides every
// cell has no misses but cannot look good; scenes labelled board_found false add no truth.
TEST(ReaderFixtures, ScorerHidingEverythingDoesNotLookGood) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  ReadParams hide_all;
  hide_all.hand_max_edges = 6;  // every cell counts as covered
  hide_all.edges_read_occluded_hex_mm = 0;  // (exact23) and hidden unread, not read under the occluder gate
  hide_all.edges_read_no_hand = false;  // (exact25) nor where no hand is in the frame
  hide_all.in_view_face_mm = 0;  // (exact34) and the cells at the frame's edge hidden "view" unread (they take no edge test)
  auto s = eval_scenes(dir.string(), hide_all, 0, nullptr);
  auto normal = eval_scenes(dir.string(), ReadParams{}, 0, nullptr);
  ASSERT_TRUE(s.ok() && normal.ok());
  EXPECT_EQ(s->seen_cells, 0);
  EXPECT_EQ(s->truth_cells, 0);
  EXPECT_EQ(s->recall_visible(), 0.0);
  EXPECT_EQ(s->hidden_visible, s->visible_dice);
  EXPECT_GT(s->visible_dice, 400);
  EXPECT_EQ(s->visible_dice, normal->visible_dice);
  // Exact only where there is nothing visible to read: the scenes without a sheet.
  EXPECT_LE(s->exact_boards, 5);
  // The three `edge` scenes and two without a sheet are labelled board_found false; their
  // in-view dice (23) are not truth cells.
  EXPECT_EQ(normal->not_found_dice, 23);
  EXPECT_EQ(normal->truth_cells + normal->hidden_visible, normal->visible_dice);
  // Why each visible die was hidden (Observation::hidden_why, branch occupancy3): here the
  // print-edge test hid every cell in view, and the scorer says so for every one of them
  // (the few dice at the frame's edge are out of view first, as with the defaults).
  auto count = [](const SceneScore& x, const char* why) {
    const auto it = x.hidden_visible_why.find(why);
    return it == x.hidden_visible_why.end() ? 0 : it->second;
  };
  EXPECT_GT(count(*s, "edges"), 400);
  // (exact34) ... but for 027 (-5,5), a black 6 the defaults read from its pip places in view (in_view_face_mm).
  EXPECT_EQ(count(*s, "view"), count(*normal, "view") + 1);
  EXPECT_EQ(count(*s, "edges") + count(*s, "view"), s->hidden_visible);
}

// A die whose top face is whole in the frame, its sides cut by the frame's edge, is read
// (in_view_top_mm 8.5: the 16 mm face and 0.5 mm inside the frame; with the old 10 mm it was
// hidden): fixture 027's yellow 4 at the frame's bottom edge, no hand in view.
TEST(ReaderFixtures, DieWithItsTopFaceInTheFrameIsRead) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  auto img = load_image((dir / "scene_027.jpg").string());
  ASSERT_TRUE(img.ok()) << img.error();
  const Hex die{3, 2};
  ReadParams old_margin;
  old_margin.in_view_top_mm = 10.0;
  old_margin.in_view_face_mm = 0;  // (exact34) which reads that die too, from its face's pip places in view
  const Observation before = read_board(*img, standard_sheet(), nullptr, old_margin);
  const Observation after = read_board(*img, standard_sheet());
  ASSERT_TRUE(before.board_found && after.board_found);
  auto hidden = [&](const Observation& o) { return std::find(o.hidden.begin(), o.hidden.end(), die) != o.hidden.end(); };
  EXPECT_TRUE(hidden(before));
  ASSERT_EQ(before.hidden_why.count(die), 1u);
  EXPECT_EQ(before.hidden_why.at(die).rfind("view:", 0), 0u) << before.hidden_why.at(die);
  EXPECT_FALSE(hidden(after));
  const CellObservation* c = nullptr;
  for (const auto& o : after.cells)
    if (o.hex == die) c = &o;
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->color, "yellow");
  EXPECT_EQ(c->face, 4);
  // Still hidden: the cells whose top face the frame cuts (fewer, not none).
  EXPECT_LT(after.hidden.size(), before.hidden.size());
  EXPECT_FALSE(after.hidden.empty());
}

// Every hidden cell carries its reason, and the scorer's tally of reasons covers every
// visible die it counted as hidden, none without one ("unknown").
TEST(ReaderFixtures, ScorerSaysWhyEachVisibleDieWasHidden) {
  const SceneScore& s = default_score();
  int n = 0;
  for (const auto& [why, k] : s.hidden_visible_why) {
    EXPECT_TRUE(why == "view" || why == "edges" || why == "occluder" || why == "weak" || why == "noface") << why;
    n += k;
  }
  EXPECT_EQ(n, s.hidden_visible);
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  auto img = load_image((dir / "scene_026.jpg").string());  // an arm over the sheet
  ASSERT_TRUE(img.ok()) << img.error();
  const Observation obs = read_board(*img, standard_sheet());
  ASSERT_TRUE(obs.board_found);
  ASSERT_GE(obs.hidden.size(), 5u);
  for (const Hex& h : obs.hidden) {
    const auto it = obs.hidden_why.find(h);
    ASSERT_NE(it, obs.hidden_why.end()) << h.q << "," << h.r;
    EXPECT_NE(it->second.find(':'), std::string::npos) << it->second;
  }
}

// Guard tokens and white dice (issue 3, branch faces): per labelled die in view and not
// occluded, read by read_board on the committed scenes. Before (main b6a7c9f): 14 phantom
// guards (mostly the pale blue print of a tinted neighbouring cell) and 18 missed ones, 5
// white dice (with a guard beside them) read as blue, 45 of the 79 white dice read right
// (colour and face); these floors would have failed then.
struct DieCounts {
  int phantom_guards = 0, missed_guards = 0, white_dice = 0, white_right = 0, white_read_blue = 0;
};
DieCounts count_dice(const std::filesystem::path& dir, const ReadParams& params) {
  DieCounts n;
  const SheetLayout layout = standard_sheet();
  for (const auto& [path, j] : scene_labels(dir)) {
    if (!j.value("board_found", false)) continue;
    auto img = load_image((dir / j.value("image", "")).string());
    if (!img) continue;
    const Observation obs = read_board(*img, layout, nullptr, params);
    std::map<Hex, CellObservation> seen;
    for (const auto& c : obs.cells) seen[c.hex] = c;
    for (const auto& d : j["dice"]) {
      if (!d.value("in_view", true) || d.value("occluded", false)) continue;
      const Hex h{d["q"].get<int>(), d["r"].get<int>()};
      const bool guard = d.value("guard", false);
      const std::string colour = d.value("color", std::string());
      if (colour == "white") ++n.white_dice;
      const auto it = seen.find(h);
      if (it == seen.end()) continue;
      n.phantom_guards += it->second.guard && !guard;
      n.missed_guards += !it->second.guard && guard;
      if (colour == "white") {
        n.white_right += it->second.color == "white" && it->second.face == d["face"].get<int>();
        n.white_read_blue += it->second.color == "blue";
      }
    }
  }
  return n;
}

TEST(ReaderFixtures, GuardTokensAndWhiteDice) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  const DieCounts now = count_dice(dir, ReadParams{});
  ASSERT_GE(now.white_dice, 70);
  std::printf("guards: %d phantom, %d missed; white dice: %d of %d right, %d read blue\n", now.phantom_guards,
              now.missed_guards, now.white_right, now.white_dice, now.white_read_blue);
  // Measured 2026-12-01 (docs/reader.md): 1 phantom, 9 missed, 52 of 79 white dice right, 4 read blue.
  // Since branch colour2 (guard on the grid lines): 0 phantom, 5 missed (were 1 and 7).
  EXPECT_LE(now.phantom_guards, 2);
  EXPECT_LE(now.missed_guards, 7);
  EXPECT_LE(now.white_read_blue, 4);
  EXPECT_GE(now.white_right, 49);
  // The print test is what removes the phantom guards: without it (saturation and position
  // tests too), the tinted cells' print is read as tokens again.
  ReadParams loose;
  loose.guard_min_saturation = 0;
  loose.guard_max_offset_mm = 1e9;
  loose.guard_print_test = false;
  EXPECT_GT(count_dice(dir, loose).phantom_guards, now.phantom_guards + 5);
}

// Round 11's scenes (data/fixtures/scenes_round11: dev3's scenes 403, 1920x1080, 22 dice,
// and 418, a hand scene; dev2's 306, 9 dice; dev's 206, 6 dice; dev scenes looked at die by die, docs/reader.md
// "Exact round 11"), scored with one setting changed. 206 holds a sure blue 4 whose square
// covered little of its colour; the coloured look once moved it onto its guard token and read
// the token's one pip (a blue 1 with a guard), so "nothing lost" below guards against that.
SceneScore score_fixture_dir(const char* name, const ReadParams& params) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures" / name;
  auto s = eval_scenes(dir.string(), params, 0, nullptr);
  if (!s.ok()) ADD_FAILURE() << s.error();
  return s.ok() ? *s : SceneScore{};
}

// One setting's A/B on a fixture directory (the round-11 and round-12 scenes): `before` with
// the setting as `off` has it, `now` with the defaults; the defaults must lose nothing.
struct AB {
  SceneScore before, now;
};
AB ab_fixture_dir(const char* name, const ReadParams& off, const ReadParams& on = ReadParams{}) {
  AB r{score_fixture_dir(name, off), score_fixture_dir(name, on)};
  EXPECT_GT(r.now.scenes, 0);
  expect_nothing_lost(r.now, r.before);
  return r;
}

// The defaults with exact22's shown-places look off (occluded_shown_places, weak_shown_places):
// for the A/B tests of earlier rules whose die that look now accepts on its own.
ReadParams without_shown_places() {
  ReadParams p;
  p.occluded_shown_places = false;
  p.weak_shown_places = false;
  return p;
}

// The rule under test turns exactly `n` hidden visible dice into dice read right, colour and
// face, and reports no die where there is none.
void expect_hidden_dice_now_read_right(const SceneScore& before, const SceneScore& now, int n) {
  EXPECT_EQ(now.matched, before.matched + n);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible - n);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.seen_cells, now.matched);
}
void expect_one_hidden_die_now_read_right(const SceneScore& before, const SceneScore& now) {
  expect_hidden_dice_now_read_right(before, now, 1);
}

// The rule under test turns exactly one die read with a wrong face into the right face, the
// same dice reported (the callers add what else they pin: colour, false dice, exact boards).
void expect_one_wrong_face_now_read_right(const SceneScore& before, const SceneScore& now) {
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(before.face_ok, before.matched - 1);
  EXPECT_EQ(now.face_ok, now.matched);
}

// A coloured die whose top mask a rim pip notched: the square, at that mask's angle, sat
// ~1.6 mm off the face and the crop's three pips read as a green 2 at 0.30. Its light pips
// found on the top plane at the camera's resolution make a 3 at the face's size; read there
// it is a 3 (coloured_pip_look_below, branch exact11). Measured (before 418 joined): faces 36 -> 37 of 37 (306's black 1 is
// the one-pip rule's).
TEST(ReaderFixtures, ColouredDiceReadWhereTheirPipsAre) {
  ReadParams off;
  off.coloured_pip_look_below = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round11", off);
  EXPECT_GE(now.face_ok, before.face_ok + 1);
}

// A white 4 with its blue token beside it: the token and the shade of the die's side made a
// blob of 0.68 unit faces, too grey on average to be taken out as a token, and the token's one
// pip read as a sure blue 1 (0.92) where the white die stands. A blob of a token's size read
// blue gets the white/black pip look even when sure (token_look_small_blob, branch exact11):
// the white 4 is read with its guard. Measured (before 418 joined): colour, face and guard 36 -> 37 of 37.
// (Since exact13 the focal rule is off in both runs: 403 is a view at 1.7 deg, and with the
// fallback focal its token is placed right and taken out without this look; with it on, off vs
// on measured 55 -> 55.)
// (Round 18: the white top located by its dark pips, white_top_paper_fraction, reads that die
// without this look too; off in both runs, so that the look alone is measured.)
TEST(ReaderFixtures, SmallBlueBlobLookedAtAsAGuardToken) {
  ReadParams on;
  on.reg.focal_min_tilt_deg = 0;
  on.white_top_paper_fraction = 0;
  ReadParams off = on;
  off.token_look_small_blob = false;
  const auto [before, now] = ab_fixture_dir("scenes_round11", off, on);
  EXPECT_GE(now.color_ok, before.color_ok + 1);
  EXPECT_GE(now.face_ok, before.face_ok + 1);
  EXPECT_GE(now.guard_ok, before.guard_ok + 1);
}

// A glared black 1 (dev2's scene 306 (-4,4)) whose square took in the die's dark side: the
// crop's pip and the side face's pip read as a sure 2 (1.00), its fitted pips 1.78 mm off the
// crop's centre. The camera-resolution look found the 1 3.2 mm away and read it at 0.80, which
// a one-pip layout could not win against a surer reading; it can when the first reading is not
// centred on its own pips (one_pip_off_centre_mm, branch exact11). Measured (before 418 joined): faces 36 -> 37 of 37.
TEST(ReaderFixtures, OnePipReadingOverAnOffCentreSureOne) {
  ReadParams off;
  off.one_pip_off_centre_mm = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round11", off);
  EXPECT_GE(now.face_ok, before.face_ok + 1);
}

// A glared black 1 beside a hand (dev3's scene 418 (2,-1)): its top's lightness is 0.79 of
// the white, just over the 0.77 grey split, so lightness named it white, and its light pip
// then contradicted that colour and the polarity check hid it. Near the split the pips name
// the die (grey_polarity_band 0.04): it is read, a black 1. Measured: dice read 53 -> 54 of
// the 55 visible, colour and face right on all; the fixtures, dev, dev2 and dev3 lose nothing.
TEST(ReaderFixtures, GreyDieNearTheSplitNamedByItsPips) {
  ReadParams off;
  off.grey_polarity_band = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round11", off);
  EXPECT_GE(now.matched, before.matched + 1);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.face_ok, now.matched);
}

// Round 12's scenes (data/fixtures/scenes_round12: dev4's 505, a hand scene, 20 dice, and 516,
// a hand scene, 10 dice; dev4 looked at die by die, docs/reader.md "Exact round 12").
// 505 (3,2): a plain blue 3 whose lattice reading tied with a 2 at the smallest spacing (the
// component counter's 0.30 took over, and a hand in view hides readings under 0.31); the
// coloured pip look found a layout of 3 where the square was: two counts agree, the reading is
// raised to coloured_pip_agree_confidence. Measured: dice read 22 -> 23 of the 24 visible.
TEST(ReaderFixtures, ColouredPipLayoutAgreeingRaisesAnUnsureReading) {
  // exact22's shown-places look also accepts 505 (3,2) (its three pips are shown): off in both
  // runs, so the A/B measures the coloured pip look alone.
  ReadParams on = without_shown_places();
  on.weak_guess_clear_ratio = 0;  // (exact40) its places stand clear: that look would read it too
  ReadParams off = on;
  off.coloured_pip_agree_confidence = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round12", off, on);
  EXPECT_GE(now.matched, before.matched + 1);
  EXPECT_GE(now.face_ok, before.face_ok + 1);
}

// 516 (0,4): a green 1 on a blue-tinted cell; its cast shadow on the blue print and the cell's
// border line, closed into one blob of a token's area (1.03), made a phantom guard. A token's
// blob is solid (guard_core_ratio: its largest inscribed disc against the side of a square of
// its area; that band 0.56, true tokens >= 0.64). Measured: guards right 21 -> 22 of 23.
// (Round 16: that shadow on the blue print is of the print's chromaticity, so
// guard_print_chroma takes it for print too; each test alone removes the phantom. The core
// ratio is measured here with the print-chroma test off, as it was made.)
TEST(ReaderFixtures, GuardTokenBlobIsSolidNotAShadowBand) {
  ReadParams on;
  on.guard_print_chroma = 0;
  ReadParams off = on;
  off.guard_core_ratio = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round12", off, on);
  EXPECT_GE(now.guard_ok, before.guard_ok + 1);
  ReadParams core_off;
  core_off.guard_core_ratio = 0;
  const auto [before16, now16] = ab_fixture_dir("scenes_round12", core_off);
  EXPECT_EQ(before16.guard_ok, now16.guard_ok);  // the print-chroma test alone removes it
}

// 505 (-4,5): a red 3 in a dim corner with its blue token touching it on the top plane: one
// blob of 2.33 unit faces whose body colour and square went to the token, read as a blue 1.
// The token-sized deep-blue part beside a red, green or yellow rest is taken out
// (token_in_blob_area): the red 3 is read with its guard. Measured: colour, face and guard
// 22 -> 23 of 23.
TEST(ReaderFixtures, GuardTokenJoinedToAColouredDieTakenOut) {
  ReadParams off;
  off.token_in_blob_area = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round12", off);
  EXPECT_GE(now.color_ok, before.color_ok + 1);
  EXPECT_GE(now.face_ok, before.face_ok + 1);
  EXPECT_GE(now.guard_ok, before.guard_ok + 1);
}

// Round 13's scenes (data/fixtures/scenes_round13: dev5's 602, 603 and 604 (1280x720, re-encoded
// at JPEG quality 80, 60 and 60) and 607 (1920x1080, quality 70), 83 dice scored, 401 KB; dev5
// looked at die by die, docs/reader.md "Exact round 13"). 603 and 607 are views almost
// straight down (1.9 and 2.0 deg), where the homography's focal estimate is noise: 1514 px
// for a true 1054 (603), 4556 for 1947 (607).
// 603 (4,-4): a white 6 whose token the wrong top plane put 10 mm off, read as a blue 2. The
// fallback focal below focal_min_tilt_deg reads it right with its guard. Measured on the
// four scenes: colour and face 82 -> 83 of 83, guards 81 -> 82.
TEST(ReaderFixtures, FocalOfAViewStraightDownIsTheFallback) {
  ReadParams off;
  off.reg.focal_min_tilt_deg = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round13", off);
  EXPECT_GE(now.color_ok, before.color_ok + 1);
  EXPECT_GE(now.face_ok, before.face_ok + 1);
}

// 607: two markers in view at one side of the sheet, one corner found ~4 px off: the pose put
// the print 0-7.5 mm off across the sheet (the cells' edges say so), but only the failing cells
// (under dice, their edges unmeasurable) could ask for the refit, and the refit had to fit all
// 8 corners. With the agreeing cells' median shift (grid_refine_all_shift_mm) and 7 corners
// (grid_refine_min_corners) the pose is refitted: (4,-4), a black 3 read blue, is read right.
// Measured: colour and face 82 -> 83 of 83, guards 81 -> 82, false dice 1 -> 0.
TEST(ReaderFixtures, PoseRefittedWhenThePrintSaysItIsOff) {
  ReadParams off;
  off.grid_refine_all_shift_mm = 0;
  off.grid_refine_min_corners = 8;
  const auto [before, now] = ab_fixture_dir("scenes_round13", off);
  EXPECT_GE(now.color_ok, before.color_ok + 1);
  EXPECT_GE(now.face_ok, before.face_ok + 1);
}

// 602 (0,5): a black 1 in an outer, blue-tinted cell; beside its top, on the side away from the
// camera, the sheet's untinted margin beyond the grid is seen, which differs from the cell's
// paper: it joined the die's blob, the top square slid onto it and read a white 1. The margin's
// paper is taken out as the table beyond the sheet is (margin_distance): a black 1. Measured:
// colour 82 -> 83 of 83.
TEST(ReaderFixtures, SheetMarginBeyondTheGridIsNoPartOfADie) {
  ReadParams off;
  off.margin_distance = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round13", off);
  EXPECT_GE(now.color_ok, before.color_ok + 1);
}

// 604 (4,-3): a white 1 on untinted paper in dim warm light; its top is within paper_distance
// of the paper, so its blob was its sides and shadow, read black at 0.12 and skipped
// (shadowconf), and the white pip looks need two pips. That blob rings a hole of a top face's
// size (0.67 unit faces) with one dark pip 0.6 mm from its centre, read there as a white 1 at
// 0.33 (white_one_in_hole 0.3). Measured: dice read 82 -> 83 of 83, no false die.
TEST(ReaderFixtures, WhiteOneInTheHoleItsShadowRings) {
  ReadParams off;
  off.white_one_in_hole = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round13", off);
  EXPECT_GE(now.matched, before.matched + 1);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.face_ok, now.matched);
}

// Round 14's scene (data/fixtures/scenes_round14: dev6's 719, 1280x720, the rendered JPEG as
// it is, 151 KB: re-encoded at quality 70 or 80 the die below is read or hidden the same with
// and without the change; docs/reader.md "Round 14, branch exact14").
// 719 (2,-4): a white 6 in the arm's shade (cool key light), read at 1.00 with dark pips;
// its body against its cell's shaded paper is 0.84 as bright and grey (sat 0.03), a trace
// warmer, which the skin-hue test took for skin: hidden. A hue is no measure of a grey
// (occluded_skin_min_saturation 0.1). Measured: dice read 5 -> 6 of 7 visible, all right.
TEST(ReaderFixtures, GreyBodyInTheShadeIsNoSkin) {
  ReadParams off;
  off.occluded_skin_min_saturation = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round14", off);
  EXPECT_GE(now.matched, before.matched + 1);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.face_ok, now.matched);
}

// The scorer's second reading on the same scene: 719 (3,-3), a white 2 whose top's centre
// is clear of the arm (so "occluded": false) while three of its nine pip places are under it
// (the label's pip_lattice_hidden, scene_gen.py round 14), is part covered: counted in the
// first reading as a visible die hidden, in the second as not visible.
TEST(ReaderFixtures, PartCoveredDieCountedBothWays) {
  const SceneScore s = score_fixture_dir("scenes_round14", ReadParams{});
  EXPECT_EQ(s.part_covered, 1);
  EXPECT_EQ(s.part_covered_hidden, 1);
  EXPECT_EQ(s.part_covered_wrong, 0);
  EXPECT_EQ(s.visible_strict, s.visible_dice - 1);
  EXPECT_EQ(s.matched_strict, s.matched);
  EXPECT_EQ(s.exact_strict, 1);
  EXPECT_EQ(s.exact_boards, 0);
}

// Round 15's scenes (data/fixtures/scenes_round15: dev7's 806, 818 and 819 as rendered,
// 218 + 114 + 146 KB; re-encoded, 818's false die below is not read even before the change, and
// 806's comes and goes with the quality: docs/reader.md "Round 15, branch exact15").
// 806 (-4,2), an empty cell under the fingertips of a pale hand (the skin mask missed it):
// where two fingers and a printed line meet, a blurred dark spot of the patch read a white 1
// at 0.92 (the no-blob look). At the camera's resolution there is no pip there
// (pip_unit_fine_mm). 818 (0,1), a white 6 under the arm (6 of its 9 pip places hidden), one
// row of three pips seen: read a white 3 at 1.00 and reported as a white die in the shade,
// while the fine look's dark pips there form no standard layout (occluded_white_fine_layout).
// Measured: false dice 2 -> 0, nothing else changes.
TEST(ReaderFixtures, LoneSpotNoPipAtFullResolutionIsNoWhiteOne) {
  ReadParams off;
  off.pip_unit_fine_mm = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round15", off);
  EXPECT_EQ(before.seen_cells - before.matched, 1);  // 806 (-4,2)
  EXPECT_EQ(now.seen_cells - now.matched, 0);
  EXPECT_EQ(now.matched, before.matched);
}

// (Round 20: the size gate, face_scale_gate, hides that 3 too, a 6's column read at 0.72 of a
// 3's size, and with the grid's band given back round its pips, pip_grid_restore, the square is
// no longer laid over that row; both off in both runs, so that this rule alone is measured.)
TEST(ReaderFixtures, PipsInNoLayoutAreNoWhiteDieInTheShade) {
  ReadParams on;
  on.face_scale_gate = false;
  on.pip_grid_restore = false;
  ReadParams off = on;
  off.occluded_white_fine_layout = false;
  const auto [before, now] = ab_fixture_dir("scenes_round15", off, on);
  EXPECT_EQ(before.seen_cells - before.matched, 1);  // 818 (0,1)
  EXPECT_EQ(now.seen_cells - now.matched, 0);
  EXPECT_EQ(now.matched, before.matched);
}

// A white 1 in an arm's shade (under the occluder mask), read at 1.00 with its lone pip found
// as the face at the camera's resolution too, is reported (occluded_white_one_fine): round
// 12's 516 (-1,-3) and dev7's 818 (-4,1). Measured: dice read 23 -> 24 of 24 and exact 1 -> 2
// of 2 (scenes_round12), 33 -> 34 (scenes_round15), all right, no false die. (Round 20: 35 -> 37
// on scenes_round15: 818 (-2,5), a white 1 too, is read since its body is no longer "skin",
// occluded_skin_untinted.)
TEST(ReaderFixtures, WhiteOneInTheShadeSeenAtFullResolution) {
  ReadParams off;
  off.occluded_white_one_fine = false;
  const auto [before, now] = ab_fixture_dir("scenes_round12", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
  EXPECT_EQ(now.seen_cells, now.matched);
  EXPECT_EQ(now.face_ok, now.matched);
  const auto [before15, now15] = ab_fixture_dir("scenes_round15", off);
  EXPECT_EQ(now15.matched, before15.matched + 2);
  EXPECT_EQ(now15.seen_cells, now15.matched);
}

// 818 (-2,5): a white 1 beside the arm, read 1 at 1.00; the camera-resolution look tried its
// layouts most pips first, and the pip with a spot beside the face (where the arm's edge
// meets the print) read a 2 at 0.84, which replaced the sure 1. A sure reading is replaced only
// by one at least as sure (fine_keep_sure). The die stayed hidden (its cream body against the
// blue-tinted cell's paper was of skin's hue), so only the reading named in its reason changed;
// since round 20 (the skin test against the cell's light, occluded_skin_untinted) the sure 1 is
// reported, the 2 at 0.84 stays hidden (under the shade gate's 0.9).
TEST(ReaderFixtures, SureReadingNotReplacedByALessSureOne) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes_round15";
  auto img = load_image((dir / "scene_818.jpg").string());
  ASSERT_TRUE(img.ok()) << img.error();
  const Hex die{-2, 5};
  ReadParams off;
  off.fine_keep_sure = 0;
  const Observation before = read_board(*img, standard_sheet(), nullptr, off);
  const Observation after = read_board(*img, standard_sheet());
  ASSERT_EQ(before.hidden_why.count(die), 1u);
  EXPECT_NE(before.hidden_why.at(die).find("read white 2 "), std::string::npos) << before.hidden_why.at(die);
  EXPECT_NE(std::find(before.hidden.begin(), before.hidden.end(), die), before.hidden.end());
  const auto it = std::find_if(after.cells.begin(), after.cells.end(), [&](const CellObservation& c) { return c.hex == die; });
  ASSERT_NE(it, after.cells.end());
  EXPECT_EQ(it->color, "white");
  EXPECT_EQ(it->face, 1);
}

// 819 (-3,-1) (the third scene of scenes_round15, 146 KB as rendered; re-encoded at 60-85 it is
// found even before the change, or read a 1 at 80 by another look): a white 2 on white paper, no
// blob of a unit's size; the camera-resolution no-blob look found one of its pips at the looser
// threshold and the other only at the stricter, never both, and the cell was reported empty.
// The pips of both thresholds together make its 2 (fine_unit_pool_mm). Measured: dice read
// 33 -> 34, no die lost, no false die.
TEST(ReaderFixtures, PipsOfEveryThresholdTogetherMakeTheFace) {
  ReadParams off;
  off.fine_unit_pool_mm = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round15", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.truth_cells - now.matched, 0);  // nothing reported empty where a die is
  EXPECT_EQ(before.truth_cells - before.matched, 1);
  EXPECT_EQ(now.seen_cells, now.matched);
  EXPECT_EQ(now.face_ok, now.matched);
}

TEST(ReaderFixtures, Round15ScenesHaveNoFalseDie) {
  const SceneScore s = score_fixture_dir("scenes_round15", ReadParams{});
  EXPECT_EQ(s.seen_cells, s.matched);
  // 36 since round 18: 806 (-2,1) and 819 (-3,0), hidden before, are read (white_top_paper_fraction).
  // 37 since round 20: 818 (-2,5), a white 1 in the shade on a blue-tinted cell (occluded_skin_untinted).
  // 38 since edges48: 819 (2,-4), a green 2 whose cell's printed edges are hidden (hidden "edges"
  // before), is read right under the occluder gate (edges_read_occluded_hex_mm 13, now the default).
  EXPECT_EQ(s.matched, 38);
  EXPECT_EQ(s.color_ok, s.matched);
  EXPECT_EQ(s.face_ok, s.matched);
}

// Round 17's scenes (data/fixtures/scenes_round17: dev8's 906 as rendered, 231 KB; fixture 033
// re-encoded at JPEG quality 92, 165 KB; dev8's 916 re-encoded at 70, 145 KB; docs/reader.md
// "Round 17"). 906 (0,-1), a black 5, and 033 (-4,-1), a black 3: the top lit to a pale grey,
// the blob the dark sides. The square, cut at that blob's angle, sat on the sides (read 6, read
// 2) and the camera-resolution look's square on the true face, still at the blob's angle (16 and
// 42 degrees off the face), took in the paper and the bevel in its corners (906: a 5 at 0.30,
// under the 0.5 bar; 033: a 1 at 0.26). Turned to the pips' own layout (fine_pip_angle_deg)
// 906 reads 5 at 0.55; 033 reads 3 at 0.40, which the two agreeing counts
// (fine_pip_angle_agree_pips: the layout's 3 and the turned square's 3) let stand.
// Measured: faces 36 -> 38 of 38, exact 1 -> 3 of 3 (916 is the other setting's, below).
// (Round 20: without the turn one of the two readings is off-size and the size gate,
// face_scale_gate, hides it; off in every run here, so that the turn alone is measured.)
// (robust42) pip_look_light_only_min_pips off in every run too: the light-pips-only re-read of the
// unturned square reads 906's 5 and 033's 3 as well (faces 38 of 38 without the turn).
TEST(ReaderFixtures, FineLookSquareTurnedToItsPips) {
  ReadParams on;
  on.face_scale_gate = false;
  on.pip_look_light_only_min_pips = 0;
  on.black_pip_contrast_min = 0;  // (exact45) off in every run: it hides a wrong black reading of the unturned square
  ReadParams off = on;
  off.fine_pip_angle_deg = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round17", off, on);
  EXPECT_EQ(before.face_ok, before.matched - 2);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.seen_cells, now.matched);
  EXPECT_EQ(before.exact_boards, 1);
  EXPECT_EQ(now.exact_boards, 3);
  // The turn alone (the turned square's reading at the usual bar) reads 906's 5, not 033's 3.
  ReadParams no_agree = on;
  no_agree.fine_pip_angle_agree_pips = 0;
  const auto [turn_only, both] = ab_fixture_dir("scenes_round17", no_agree, on);
  EXPECT_EQ(turn_only.face_ok, turn_only.matched - 1);
  EXPECT_EQ(both.face_ok, both.matched);
}

// 916 (0,-1): a green 3 beside an arm, its cell under the occluder mask; its top mask half the
// top, the square slid onto the arm: read 2 at 1.00 as rendered (reported, wrong), 6 at 0.30 in
// this re-encoding (hidden). The coloured pip look (its three pips on the top plane, a standard
// 3, read there) was not made under the occluder; it now is, a layout of three pips or more
// (coloured_pip_look_occluded_pips). Measured: dice read 37 -> 38 of 38, all right.
TEST(ReaderFixtures, ColouredPipLookUnderTheOccluder) {
  ReadParams off;
  off.coloured_pip_look_occluded_pips = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round17", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.hidden_visible, 0);
  EXPECT_EQ(before.hidden_visible, 1);
  EXPECT_EQ(now.seen_cells, now.matched);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
}

// Round 18's scenes (data/fixtures/scenes_round18: dev9's 1004 and 1005 and dev5's 603 as
// rendered, 162, 241 and 125 KB; docs/reader.md "Round 18"). 1004 (1,-4), a white 5, and 603 (0,4), a white 2, each
// on a pale tinted cell: the white top is within paper_distance of the tint, so the blob is the
// die's sides and shadow on the tinted paper, its body the tint's (named red, blue), and the
// square, slid over that mask, sat off the top: 1004 read red 1 (the white top as a light pip),
// 603 hidden (blue 1). The dark pips make one standard layout and the face round them is
// paper-coloured (white_top_paper_fraction): the square is centred there.
// Measured: 1004 (1,-4) read white 5, 603 (0,4) read white 2; nothing else changes.
TEST(ReaderFixtures, WhiteTopOnAPaleTintLocatedByItsPips) {
  ReadParams off;
  off.white_top_paper_fraction = 0;
  off.one_top_shown = 0;  // (exact26: that rule hides 1004's red 1 too; off in the "before" run)
  const auto [before, now] = ab_fixture_dir("scenes_round18", off);
  EXPECT_EQ(now.matched, before.matched + 1);  // 603's white 2 no longer hidden
  EXPECT_EQ(before.face_ok, before.matched - 1);  // 1004's white 5 read red 1
  EXPECT_EQ(before.color_ok, before.matched - 1);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  // 603 exact, and 1004 (its other two errors are the next tests' rules).
  EXPECT_EQ(now.exact_boards, before.exact_boards + 2);
}

// 1004 (-1,4): a glared green 3 (its pale top's centre pip faint). The square, 1.7 mm off the
// face, read 2 at 0.31 (hidden by the polarity gate); the coloured pip look found only the two
// corner pips, a standard 2, and its reading there, 3 at 0.98, did not count as the layout. A
// sure reading counting more pips than the layout it is centred on now replaces an unsure
// first reading (coloured_pip_more_sure). Measured: dice read +1, all right.
TEST(ReaderFixtures, SureReadingOfMorePipsThanItsLayout) {
  ReadParams off;
  off.coloured_pip_more_sure = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round18", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible - 1);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
}

// 1004 (-1,3): an empty untinted cell under glare. Its paper, estimated from the glared border,
// is 1.07 of the sheet's; the unglared rest of it is "not paper", a blob of 2.4 units, whose
// printed name read as a white 2 at 0.19 (reported: a false die). The camera-resolution
// dark-pip look found no pip there at any threshold: a weak white reading without a single
// dark pip is hidden (white_no_pip_below). Measured: the false die gone, nothing else moves.
// (Round 20: the size gate, face_scale_gate, hides that 2 too; off in both runs, so that this
// rule alone is measured.)
TEST(ReaderFixtures, WeakWhiteReadingWithoutAnyDarkPipIsNoDie) {
  ReadParams on;
  on.face_scale_gate = false;
  ReadParams off = on;
  off.white_no_pip_below = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round18", off, on);
  EXPECT_EQ(before.seen_cells, before.matched + 1);  // the false white 2
  EXPECT_EQ(now.seen_cells, now.matched);
  EXPECT_EQ(now.matched, before.matched);
}

// 1005 (-2,3): a yellow 6 in strong light beside an arm, its top 171 251 252 (green and red at
// the sensor's top) against the frame's cool white 150 157 176: relative 1.14 1.60 1.43, a hue
// of 82 deg, "green"; a green die with dark pips contradicts the polarity check, so it was
// hidden. Its red is clipped as its green is: taken as bright (colour_clip_level), yellow.
// Measured: read yellow 6, nothing else changes on any set.
TEST(ReaderFixtures, ClippedChannelsOfAGlaredTopAreEqual) {
  ReadParams off;
  off.colour_clip_level = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round18", off);
  expect_one_hidden_die_now_read_right(before, now);
}

// Round 19's scene (data/fixtures/scenes_round19: dev10's 1100 as rendered, 218 KB; docs/reader.md
// "Round 19"): an arm across the sheet casts a wide shadow, the occluder mask covers it.
// (-5,3), a white 6 in that shadow: its top is as dark as the shaded paper round it (0.96 of
// it), so nothing there differs from the paper but its sides and pips, no blob of a unit's
// size, and the no-blob looks were not made under the occluder: hidden. The camera-resolution
// dark-pip look now runs there too, its white die kept only as the shade gate keeps one
// (occluded_pip_unit_confidence: six dark pips in a 6's layout, read 6 at 1.00, the body 0.96
// of the shaded paper, unsaturated). Measured: read white 6; nothing else changes on any set
// but dev8 919 (2,1), the same case, also read right now.
TEST(ReaderFixtures, WhiteDieInAnArmsShadeFoundByItsPips) {
  ReadParams off;
  off.occluded_pip_unit_confidence = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round19", off);
  expect_one_hidden_die_now_read_right(before, now);
}

// 1100 (1,-1): a glared pale green 6 (faint light pips), beside the arm (every cell is near a
// hand then: a reading under 0.31 is hidden). The square sat 1.1 mm off the face, its far edge
// beyond the rim, where light peaks the lattice could not explain: read 6 at the component
// counter's 0.30, hidden. Read again centred on its own fitted pips (weak_recentre_below): 6 at
// 0.68, the same count. Measured: read green 6; elsewhere dev6 717 (3,-3) and fixture 026 (0,5)
// (a blue 3, a green 3, each 0.30 -> 1.00) are read too, nothing else moves.
TEST(ReaderFixtures, WeakReadingRecentredOnItsOwnPips) {
  ReadParams off;
  off.weak_recentre_below = 0;
  off.weak_guess_clear_ratio = 0;  // (exact40) the 0.30 guess's places stand clear: read without the recentring too
  const auto [before, now] = ab_fixture_dir("scenes_round19", off);
  expect_one_hidden_die_now_read_right(before, now);
}

// Round 20's scenes (data/fixtures/scenes_round20, 1.3 MB, docs/reader.md "Round 20"): dev11's 1205
// and 1216, dev5's 604 and dev6's 718 (the relabelled sets' labels), and 1503 and 1510, rendered
// this round (seed 15001), each as rendered. Main's binary on the dir: 64 of 69 visible dice read,
// colour 63 and face 61 of 64, one false die, exact 0 of 6; now 66 of 69, all right, no false
// die, exact 4 of 6 (the three hidden dice are part-covered: 6 of 6 counting them not visible).

// 1205 (-1,4): a yellow 5 half under the hand, its two far corner pips seen: the square laid
// over the cut top read them as a 2 at 1.00 (a false die: the label has the die covered). Those
// pips are a side of the face, 8.6 mm apart; a 2's are a diagonal, 12.2: the reading's pips are at
// 0.72 of a face's size (face_scale_gate). Measured: the false die gone, nothing else moves.
TEST(ReaderFixtures, PartOfAFaceReadAsASmallerFaceIsNoFace) {
  ReadParams off;
  off.face_scale_gate = false;
  const auto [before, now] = ab_fixture_dir("scenes_round20", off);
  EXPECT_EQ(before.seen_cells, before.matched + 1);  // the false yellow 2
  EXPECT_EQ(now.seen_cells, now.matched);
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.face_ok, now.matched);
}

// 1216 (3,-3): a white 1 in an arm's shade, its top 0.52 of the sheet's white (0.84 of its
// shaded paper): named black against the white, its dark pip never looked for, read a black 2 at
// 0.30 and hidden. Named against the brightness of its cell's own light (colour_shade_occluded),
// it is white; the dark-pip look finds its pip and the shade gate keeps it.
TEST(ReaderFixtures, WhiteDieInAnArmsShadeNamedAgainstItsCellsLight) {
  // exact22's shown-places look also reports this die in the off run: off in both runs, so the
  // A/B measures the shade rule alone.
  ReadParams on = without_shown_places();
  ReadParams off = on;
  off.colour_shade_occluded = false;
  const auto [before, now] = ab_fixture_dir("scenes_round20", off, on);
  expect_one_hidden_die_now_read_right(before, now);
}

// 604 (3,-4): a white 4 on a pale tinted cell (round 18's case: its blob the die's sides and
// shadow, found by its dark pips), one pip of which the printed grid's band (where the print
// would be seen) cut in half: three pips, no layout, the square left on the shadow, read as a
// black 5. The band's dark pixels beside a pip-sized blob are given back (pip_grid_restore): four
// pips, a white 4. dev11 1207 (-1,-4), a white 5 read red 5, is the same case (not committed: 561 KB).
TEST(ReaderFixtures, PipCutByThePrintedGridsBandGivenBack) {
  ReadParams on;
  on.black_pip_contrast_min = 0;  // (exact45) off in both runs: it hides a black reading of the run without the restore
  ReadParams off = on;
  off.pip_grid_restore = false;
  const auto [before, now] = ab_fixture_dir("scenes_round20", off, on);
  expect_one_wrong_face_now_read_right(before, now);
  EXPECT_EQ(before.color_ok, before.matched - 1);
  EXPECT_EQ(now.color_ok, now.matched);
}

// 718 (2,-3): a white 3 with its token in an arm's shade, the blob the token's: read as the
// token's blue 2. The token look found the white 3's pips but gave up, the body round them
// being 0.74 of its cell's light, "black" by lightness; a grey body with dark pips is white
// (token_look_polarity). Read there: white 3 at 1.00, which the shade gate takes against the
// light beside it (the next test).
TEST(ReaderFixtures, TokenLookNamesAGreyBodyByItsPips) {
  ReadParams off;
  off.token_look_polarity = false;
  const auto [before, now] = ab_fixture_dir("scenes_round20", off);
  expect_one_hidden_die_now_read_right(before, now);
}

// The same white 3: its top is 0.72 of its cell's paper estimate (the brightest quarter of the
// cell's ring, the lit side of the arm's half-shadow), under the shade gate's 0.75; the paper
// right beside the die is 0.77 of that estimate, the top 0.94 of it (occluded_light_beside_mm).
TEST(ReaderFixtures, WhiteTopJudgedAgainstTheLightBesideIt) {
  ReadParams off;
  off.occluded_light_beside_mm = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round20", off);
  expect_one_hidden_die_now_read_right(before, now);
}

// 1503 (-3,4): a black 4 read 4 at 1.00 with its pips 1.5 mm off its square; the light-pip look
// found two of its pips, each alone a "face of 1", and read one as a 1 at 1.00, which the
// one-pip exception (a face read with a side face's pip) let replace the 4. That exception's
// readings are off-size; a sure reading at the face's size stands (sure_face_scale_stands).
TEST(ReaderFixtures, SureFaceAtItsSizeStandsAgainstALonePip) {
  ReadParams off;
  off.sure_face_scale_stands = false;
  const auto [before, now] = ab_fixture_dir("scenes_round20", off);
  expect_one_wrong_face_now_read_right(before, now);
}

// 1510 (0,4): a blue 3 on the deep-blue base cell: its top within paper_distance of the tint,
// its pips light (no dark pip), so the empty test passed it and it was reported empty. Its
// white pips are brighter than the tinted paper (core_light_ratio): looked at, read blue 3.
TEST(ReaderFixtures, LightPipsOfADieOnPaperOfItsOwnHue) {
  ReadParams off;
  off.core_light_ratio = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round20", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.seen_cells, now.matched);
}

// Round 15's 818 (-2,5) and 819 (-2,5), a white 1 and a white 2 in an arm's shade on
// blue-tinted cells, each read at 1.00 and hidden as "skin": against the tinted paper a grey
// body is orange. Against the light on the cell (the tint divided out: occluded_skin_untinted)
// it is grey. Measured: both read, nothing else moves (dev5 616 (-1,4) too, a white 4). (Before
// round 20 819 (-2,5) was read: its body just outside the skin test; with the shade's brightness
// its square sits on its pips, 1 px off, and measures it inside.)
TEST(ReaderFixtures, SkinHueJudgedAgainstTheCellsLightNotItsTint) {
  ReadParams off;
  off.occluded_skin_untinted = false;
  const auto [before, now] = ab_fixture_dir("scenes_round15", off);
  expect_hidden_dice_now_read_right(before, now, 2);
}

// The blue base cell (0,4) (deep-tinted, its paper estimated from the brightest quarter of its
// ring): in a little less light, its paper is 0.9 of the estimate, over paper_distance away
// in BGR, and was blue foreground to the guard test. Fixture 005 (0,4), a white 3 with its
// guard: the token joined that tint into one blob of 3.25 guard faces (over the 2.5 cap),
// guard missed; round 13's 607 (0,4), a yellow 4 without one: a patch of shaded tint (0.34
// guard faces) was taken for a guard. A pixel of its paper's chromaticity and no brighter is
// print (guard_print_chroma). Measured: both right, nothing else changes on any set.
TEST(ReaderFixtures, ShadedTintOfABaseCellIsNoGuard) {
  const std::filesystem::path root = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures";
  const Hex base{0, 4};
  ReadParams off;
  off.guard_print_chroma = 0;
  auto guard_at = [&](const std::string& scene, const ReadParams& p) {
    auto img = load_image((root / scene).string());
    EXPECT_TRUE(img.ok()) << img.error();
    if (!img.ok()) return -1;
    const Observation o = read_board(*img, standard_sheet(), nullptr, p);
    for (const auto& c : o.cells)
      if (c.hex == base) return c.guard ? 1 : 0;
    return -1;  // no die read there
  };
  EXPECT_EQ(guard_at("scenes/scene_005.jpg", off), 0);
  EXPECT_EQ(guard_at("scenes/scene_005.jpg", ReadParams{}), 1);
  EXPECT_EQ(guard_at("scenes_round13/scene_607.jpg", off), 1);
  EXPECT_EQ(guard_at("scenes_round13/scene_607.jpg", ReadParams{}), 0);
}

TEST(ReaderFixtures, MissingDirectoryIsAnError) {
  EXPECT_FALSE(eval_scenes("/nonexistent/hexdice/scenes", ReadParams{}, 0, nullptr).ok());
}

}  // namespace

// Round 21's scenes (data/fixtures/scenes_round21, 492 KB, docs/reader.md "Round 21"): dev12's
// 1305 and 1319 as rendered (dev12 was held out in round 20, a development set since round 21).
// Main's binary on the dir: 22 of 25 visible dice read, all right, one false die ((2,-3) in 1319,
// a yellow 1 whose centre is under the arm, read 1 at 0.71: left, see the doc), exact 0 of 2;
// now 24 of 25 (the part-covered 1319 (0,-5) hidden), exact 1 of 2.

// 1319 (4,-1): a black 4 read 4 at 1.00, its pips at 1.01 of a face's size; the patch's light-pip
// look (PIPLOOK) found two of its pips, read there as a 2 at 1.00 (at 0.71 of a 2's size), which
// replaced the 4; face_scale_gate then hid the die. A reading off the face's size does not
// replace one at it (pip_look_scale_stands).
TEST(ReaderFixtures, PipLookOffTheFacesSizeDoesNotReplaceOneAtIt) {
  ReadParams off;
  off.pip_look_scale_stands = false;
  off.side_pair_min_confidence = 0;  // (robust35) the side-pair look reads the 2's two pips as their 4 again
  const auto [before, now] = ab_fixture_dir("scenes_round21", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible - 1);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.seen_cells, before.seen_cells + 1);
}

// 1305 (-3,-1): a red 1 beside its blue token, the square slid 1.9 mm off its pip towards the
// token, read 1 at 0.30 (the component counter's fallback) and hidden as weak. Centred on its
// pip (weak_recentre_one: round 19's recentring for a face of 1 off the occluder, kept only
// when sure there) it reads 1 at 1.00.
TEST(ReaderFixtures, WeakOneRecentredOnItsPip) {
  ReadParams off;
  off.weak_recentre_one = false;
  off.weak_guess_clear_ratio = 0;  // (exact40) the 0.30 guess's places stand clear: read without the recentring too
  const auto [before, now] = ab_fixture_dir("scenes_round21", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible - 1);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.seen_cells, before.seen_cells + 1);
}

// Round 22's scenes (data/fixtures/scenes_round22, 396 KB, docs/reader.md "Round 22"): dev10's 1117
// and dev4n's 517 as rendered. Each has a die whose top a hand or an arm covers in part (1 of its
// 9 pip places): 1117 (0,5) a blue 4 read 4 at 0.53, 517 (-2,-3) a yellow 4 read 4 at 0.30 (the
// component counter's), both hidden by the occluder gate (not beyond doubt, 0.6).

// The face's 3x3 grid of pip places laid on the reading's pips at the face's real size: the
// places whose ring shows the body hold a pip or clearly none, and of the standard layouts only
// 4s agree with them (occluded_shown_places). 1117 (0,5) and 517 (-2,-3) are read (517 also
// needs weak_shown_places, on in both runs), and round 20's 1205 (1,-2), a white 6 in the arm's
// shade read at 0.83 (5 pips and 3 empty places shown).
TEST(ReaderFixtures, PartCoveredFaceCountedFromThePlacesItShows) {
  // (exact42) Both runs at the occluder gate's old bar (occluded_min_confidence 0.6): at 0.45 one
  // of the two dice passes the gate without this look, the defaults' scores unchanged.
  ReadParams on;
  on.occluded_min_confidence = 0.6;
  ReadParams off = on;
  off.occluded_shown_places = false;
  const auto [before, now] = ab_fixture_dir("scenes_round22", off, on);
  EXPECT_EQ(now.matched, before.matched + 2);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible - 2);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.seen_cells, before.seen_cells + 2);
  const auto [before20, now20] = ab_fixture_dir("scenes_round20", off);
  EXPECT_EQ(now20.matched, before20.matched + 1);
  EXPECT_EQ(now20.face_ok, before20.face_ok + 1);
  EXPECT_EQ(now20.color_ok, before20.color_ok + 1);
  EXPECT_EQ(now20.seen_cells, before20.seen_cells + 1);
}

// 517 (-2,-3): passed by the occluder gate's look above, then hidden as a weak reading beside the
// arm (0.30 under hand_near_min_confidence 0.31); its count agreeing with its shown places, it is
// reported (weak_shown_places).
TEST(ReaderFixtures, WeakReadingCountedFromThePlacesItShows) {
  ReadParams off;
  off.weak_shown_places = false;
  const auto [before, now] = ab_fixture_dir("scenes_round22", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible - 1);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.seen_cells, before.seen_cells + 1);
}

// Round 23's scenes (data/fixtures/scenes_round23, docs/reader.md "Round 23"): dev13's 1416
// (re-encoded at JPEG quality 80) and dev14's 1605 (at 85).
// 1416 (-4,3): a green 3 whose cell's near edges a hand in front hides (1 of its 6 printed edges
// seen): hidden unread as a cell under a hand. On a map of standard cells it is read under the
// occluder gate (edges_read_occluded_hex_mm), reported only beyond doubt: green 3, right.
// (Opt-in from session 22 to round 48; the default since edges48: the rule off against the default.)
TEST(ReaderFixtures, CellWhoseEdgesAreHiddenReadUnderTheOccluderGate) {
  ReadParams off;
  off.edges_read_occluded_hex_mm = 0;
  ASSERT_EQ(ReadParams{}.edges_read_occluded_hex_mm, 13.0);
  const auto [before, now] = ab_fixture_dir("scenes_round23", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible - 1);
  EXPECT_EQ(now.hidden_visible_why.count("edges") ? now.hidden_visible_why.at("edges") : 0, 0);
  EXPECT_EQ(before.hidden_visible_why.count("edges") ? before.hidden_visible_why.at("edges") : 0, 1);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
}

// 1605 (3,-5): a white 1 at the sheet's corner, its top paper-coloured over the margin (no blob);
// the camera-resolution look found its one pip where the cell's printed lines would be seen and
// gave it up (a junction of lines reads as a 1), and the patch look, taking a pip of the die's
// side for a second spot, read nothing: reported empty. The lines are not seen round the pip
// (the die's top hides them; lone_pip_print_seen): a white 1. Also small_cells_r9b's scene_101
// (5,2), a white 1 beside the print that robust22 hid ("fine"): now read a 1.
TEST(ReaderFixtures, LonePipWhereThePrintIsHiddenIsAOne) {
  ReadParams off;
  off.lone_pip_print_seen = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round23", off);
  EXPECT_EQ(now.matched, before.matched + 1);
  EXPECT_EQ(now.truth_cells - now.matched, 0) << "nothing reported empty where a die is";
  EXPECT_EQ(before.truth_cells - before.matched, 1);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
  const auto [before9, now9] = ab_fixture_dir("small_cells_r9b", off);
  EXPECT_EQ(now9.matched, before9.matched + 1);
  EXPECT_EQ(now9.face_ok, now9.matched);
  EXPECT_EQ(now9.seen_cells, now9.matched) << "a false die";
}

// Round 24's scene (data/fixtures/scenes_round24, docs/reader.md "Round 24"): dev15's 1718 (the
// held-out set of session 22, re-encoded at JPEG quality 85).
// 1718 (-1,1): a black die with its blue guard token, both under a finger (the label: the die
// hidden). The face square, slid onto the finger's edge, took in the token's corner and two
// glints on the black die's side: a sure "blue 2" under the occluder gate, a false die. Pixels
// of blue cover 0.13 of that square (occluded_colour_cover_min 0.3): hidden.
TEST(ReaderFixtures, ColouredReadingWithLittleOfItsColourUnderTheOccluderIsNoDie) {
  ReadParams off;
  off.occluded_colour_cover_min = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round24", off);
  EXPECT_EQ(before.seen_cells, before.matched + 1) << "the false blue 2 with the rule off";
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.face_ok, now.matched);
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.guard_ok, now.matched);
}

// 1718 (-1,5): a yellow 2, one corner under a finger (2 of 9 pip places hidden), read yellow 2 at
// 0.30 under the occluder gate. Its shown places (?..?..?.o: six shown, one pip) allow one face,
// a 2, but exact22's shown-places look wanted two shown pips. One is enough for a reading of two
// pips or more on a coloured die with six places or more shown (occluded_shown_one_pip_min_shown).
TEST(ReaderFixtures, PartCoveredDieWhoseOneShownPipDecidesIsRead) {
  ReadParams off;
  off.occluded_shown_one_pip_min_shown = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round24", off);
  expect_one_hidden_die_now_read_right(before, now);
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(now.exact_boards, 1);
  EXPECT_EQ(before.exact_boards, 0);
}

// dev6's 717 (scenes_round24b, at JPEG quality 88, the table outside the sheet painted flat so
// that the file is small; it reads as the render: the same four errors with this rule off).
// 717 (3,-2): a white 2 in the arm's shade; the dark-pip look found one of its pips, and the
// occluder gate's white 1 in the shade (occluded_white_one_fine) reported a sure white 1. Round a
// 1's pip its top shows on every side; round this pip two of the eight places are off the top
// (places ....o..??): not a 1 (occluded_white_one_surrounded), hidden.
TEST(ReaderFixtures, WhiteOneInTheShadeNeedsItsTopRoundItsPip) {
  ReadParams off;
  off.occluded_white_one_surrounded = false;
  // (Not ab_fixture_dir: hiding a die read wrong lowers `matched`, which expect_nothing_lost forbids.)
  const SceneScore before = score_fixture_dir("scenes_round24b", off), now = score_fixture_dir("scenes_round24b", ReadParams{});
  ASSERT_GT(now.scenes, 0);
  EXPECT_EQ(now.color_ok, before.color_ok - 1) << "the white 2's colour was right, its face wrong";
  EXPECT_EQ(now.guard_ok, before.guard_ok - 1);
  EXPECT_EQ(now.face_ok, before.face_ok);
  // (717 (0,-2), a part-covered blue 1 read 2, is wrong either way.)
  EXPECT_EQ(before.matched - before.face_ok, now.matched - now.face_ok + 1) << "the white 2 read 1 with the rule off";
  EXPECT_EQ(now.matched, before.matched - 1);
  EXPECT_EQ(now.hidden_visible, before.hidden_visible + 1);
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
}

// Round 25 (docs/reader.md "Round 25 (exact25)"). dev6's 717 (0,4) (scenes_round24b): a white 1
// with its blue guard token on the deep-tinted base cell. The white die's lit top covers most of
// the ring its cell's paper is estimated on, so that estimate is white and the tint's blue round
// the die passed the guard test's print test as a token's: one blob with the token, 2.57 token
// faces, over the 2.5 cap: the guard missed. The lit paper of its tint (guard_print_tint) is print.
TEST(ReaderFixtures, DeepTintRoundAWhiteDieIsPrintNotAGuard) {
  // (Off by default since session 24: the rule run on explicitly; round 27's over-cap retry,
  // guard_core_open, which finds this guard too, off in both runs.)
  ReadParams off;
  off.guard_core_open = 0;
  ReadParams on = off;
  on.guard_print_tint = true;
  const auto [before, now] = ab_fixture_dir("scenes_round24b", off, on);
  EXPECT_EQ(now.guard_ok, before.guard_ok + 1) << "the guard found with the rule on";
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
}

// Round 27 (docs/reader.md "Round 27 (exact27)"). A blue blob over the 2.5 guard-face cap is
// retried on its deep-blue pixels (guard_core_saturation), closed and opened with a disc of
// guard_core_open x the token's side. dev6's 717 (0,4) (scenes_round24b): a white 1 with its
// token on the deep-tinted base cell, the tint's band round the die joined to the token (2.59
// guard faces): its guard found. scenes_round13's 603 (0,4) and scenes_round20's 604 (0,4): white
// dice without a token on that cell, the tint's band alone over the cap: no guard; opening alone
// (every pixel of the blob, a 6 mm disc) passes a token-sized piece of 603's pale print as a
// guard, the deep pixels leave none.
TEST(ReaderFixtures, OverCapBlueBlobsDeepSolidPartIsTheToken) {
  ReadParams off;
  off.guard_core_open = 0;
  const ReadParams on;
  const auto [before, now] = ab_fixture_dir("scenes_round24b", off, on);
  EXPECT_EQ(now.guard_ok, before.guard_ok + 1) << "717's guard found with the retry";
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
  for (const char* set : {"scenes_round13", "scenes_round20"}) {
    const auto [b, n] = ab_fixture_dir(set, off, on);
    EXPECT_EQ(n.guard_ok, b.guard_ok) << set << ": no false guard from the print";
  }
  ReadParams open_only = on;
  open_only.guard_core_saturation = 0;
  open_only.guard_core_open = 0.6;
  const SceneScore b13 = score_fixture_dir("scenes_round13", off), pale = score_fixture_dir("scenes_round13", open_only);
  EXPECT_EQ(pale.guard_ok, b13.guard_ok - 1) << "opening alone passes 603's pale print as a guard";
}

// Round 27. dev19's 2100 (data/fixtures/scenes_round27 with 2106, as rendered; 1920x1080, tilt 13): (-4,3)
// a glared black 6 (its top grey) with its guard token beside it. The token's blob was taken for
// the unit and read a blue 1 (a token is a blue cube with one pip), hidden by one_top_shown; the
// coloured pip look found the 6's layout 12.8 mm off, read it 6 at 1.00 on a black body, and was
// refused for naming another colour than the first reading. With token_one_other_die the sure
// other die's face replaces the token's 1 (one die a cell): the black 6 read, with its guard.
TEST(ReaderFixtures, TokensBlueOneYieldsToASureDieBesideIt) {
  ReadParams off;
  off.token_one_other_die = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round27", off);
  EXPECT_EQ(now.matched, before.matched + 1) << "the black 6 read";
  EXPECT_EQ(now.color_ok, before.color_ok + 1);
  EXPECT_EQ(now.face_ok, before.face_ok + 1);
  EXPECT_EQ(now.guard_ok, before.guard_ok + 1);
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
}

// Round 27. dev19's 2106 (data/fixtures/scenes_round27, as rendered; 1280x720, tilt 27): (4,-5) a
// white 1 at the sheet's margin, no blob (white on white): the camera-resolution pip look found its
// pip and a pip of its shaded side face, a layout of 2 centred 5.8 mm off, read as a sure white 2.
// fine_unit_top_shown: the top is seen round a reading's pips (0.73 there; every right reading of
// that look on every set 0.90 and more): the 2 is refused, and its side pip no longer counts
// against the lone pip the second threshold finds: read white 1, right.
TEST(ReaderFixtures, FineUnitLayoutWithASidesPipIsNoTop) {
  ReadParams off;
  off.fine_unit_top_shown = 0;
  const SceneScore before = score_fixture_dir("scenes_round27", off), now = score_fixture_dir("scenes_round27", ReadParams{});
  EXPECT_EQ(before.matched - before.face_ok, 1) << "the white 1 read 2 with the rule off";
  EXPECT_EQ(now.face_ok, now.matched) << "no wrong face with it on";
  EXPECT_EQ(now.face_ok, before.face_ok + 1);
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
}

// dev17's 1907 (data/fixtures/scenes_round25, as rendered). (2,-1): a green 4 seen small and
// steep (a 1280 px frame, tilt 30) with its blue guard token against its side: one blob of 1.29
// unit faces, under token_in_blob_area's old 1.3, so the token stayed in the unit's blob, out of
// the guard search: the guard missed. At 1.1 the token-sized blue part is taken out (the rest a
// green die of a unit's size) and found as the guard.
TEST(ReaderFixtures, TokenAgainstASmallSteepDieIsTakenOutOfItsBlob) {
  ReadParams off;
  off.token_in_blob_area = 1.3;
  const auto [before, now] = ab_fixture_dir("scenes_round25", off);
  EXPECT_EQ(now.guard_ok, before.guard_ok + 1) << "the guard found with 1.1";
  EXPECT_EQ(now.face_ok, before.face_ok);
  EXPECT_EQ(now.color_ok, before.color_ok);
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
}

// dev17's 1916 (scenes_round25, as rendered). (-3,3): a black 6 in an arm's half-shadow, under the
// occluder mask, its top lit grey (0.50 of its cell's paper, over occluded_dark_ratio 0.36): read
// right at 1.00 and hidden, not beyond doubt. The camera-resolution look found its six light pips
// in a 6's layout (fit 0.007) and the square there agreed: reported (occluded_black_fine_min_pips).
// (At 2 pips, tried, scenes_round11 418 (2,1), a black 2 beside its token, was reported without
// its guard: the default asks for 4.)
TEST(ReaderFixtures, BlackTopLitGreyUnderTheOccluderIsReadByItsLightPips) {
  ReadParams off;
  off.occluded_black_fine_min_pips = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round25", off);
  expect_one_hidden_die_now_read_right(before, now);
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
}

// dev17's 1907 (scenes_round25). (-3,0): a green 3 with its token, between three dice, at tilt 30,
// no hand in the frame: the dice hide 5 of its cell's 6 printed edges, so it was hidden "edges"
// unread. With no hand anywhere (skin and occluder masks empty) it is read under the occluder
// gate (edges_read_no_hand): green 3 with its guard, reported beyond doubt.
// (edges48) Both runs with edges_read_occluded_hex_mm 0: at its default 13 that rule reads the cell
// under the gate on its own (the map's hexes are 17 mm), with or without a hand, and this rule
// would move nothing; measured here is the no-hand rule alone, as when exact25 added it.
TEST(ReaderFixtures, CellWhoseEdgesDiceHideWithNoHandIsRead) {
  ReadParams on;
  on.edges_read_occluded_hex_mm = 0;
  ReadParams off = on;
  off.edges_read_no_hand = false;
  const auto [before, now] = ab_fixture_dir("scenes_round25", off, on);
  expect_one_hidden_die_now_read_right(before, now);
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(before.hidden_visible_why.count("edges") ? before.hidden_visible_why.at("edges") : 0, 1);
  EXPECT_EQ(now.hidden_visible_why.count("edges") ? now.hidden_visible_why.at("edges") : 0, 0);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
}

// Round 26 (docs/reader.md "Round 26 (exact26)"). scenes_round21's 1319 (2,-3): a yellow die with
// its guard, 0.53 of its top under the arm (its centre hidden: the label has it occluded). The
// occluder gate read a 1 at 0.71 from the spot at the skin's edge and reported it, a false die to
// the scorer; every pip place round that "pip" is off the top (rings 0.22 or less of the body's
// colour, mean 0.10). A 1 needs its top seen round its pip (one_top_shown: the eight rings on
// average half the body's colour or more; the right 1s on every set 0.64 and more).
TEST(ReaderFixtures, OneUnderTheOccluderNeedsItsTopSeenRoundItsPip) {
  ReadParams off;
  off.one_top_shown = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round21", off);
  EXPECT_EQ(before.seen_cells, before.matched + 1) << "the covered die read as a 1 with the rule off";
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.face_ok, before.face_ok);
}

// scenes_harsh 2407 (-1,-1): an empty cell whose printed marks read as a white 1 at 0.65, its
// board's one error; the camera-resolution dark-pip look found no dark pip there at any
// threshold. Hidden now at any confidence (white_no_pip_below 1.01; it was 0.5): the false die
// gone, that board exact, nothing else changes.
TEST(ReaderFixtures, WhiteReadingWithoutAnyDarkPipIsNoDieHoweverSure) {
  ReadParams off;
  off.white_no_pip_below = 0.5;
  const auto [before, now] = ab_fixture_dir("scenes_harsh", off);
  EXPECT_EQ(before.seen_cells, before.matched + 1) << "the false white 1 with the old bound";
  EXPECT_EQ(now.seen_cells, now.matched) << "a false die";
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
}

// Round 28. dev17's 1902 (data/fixtures/scenes_round28_exact28, as rendered; 1920x1080, tilt 13):
// (-5,2) a white 1 on white paper (no tint). Its blob was its shaded side and shadow (0.50 unit
// faces, the top found 7.7 mm off), read as a black 2 at 1.00 (the side's two dark pips) and
// hidden for its pips' polarity; the white-top look found the 1's pip alone (1.6 mm from the top's
// place) with 0.01 of the face round it differing from the paper. With white_one_lone_pip such a
// reading is the white 1. scenes_round26's 2616 (-1,2), a white 1 hidden for polarity in a dim
// frame, keeps its hiding (the face round its pip differs: 1.00): nothing there changes.
TEST(ReaderFixtures, LonePipOnAWhiteTopIsAWhiteOneNotItsSide) {
  ReadParams off;
  off.white_one_lone_pip = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round28_exact28", off);
  expect_one_hidden_die_now_read_right(before, now);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
  const auto [before26, now26] = ab_fixture_dir("scenes_round26", off);
  EXPECT_EQ(now26.matched, before26.matched);
  EXPECT_EQ(now26.face_ok, before26.face_ok);
  EXPECT_EQ(now26.seen_cells, before26.seen_cells);
}

// Round 29 (data/fixtures/scenes_round29_exact29: dev19's 2102 and dev17's 1902 as rendered in
// session 28). 2102 (-1,-3), 1280x720, tilt 34: a white 5 on a red-tinted cell. The white-top look
// found four dark pips, three corners and the centre (the fourth corner lost in the tint): no
// standard layout, and no part of them was tried, so the square stayed on the die's side and read a
// red 2 at 0.30 (hidden: size). All of them but one corner make a diagonal 3 (fit 0.005), 3.9 mm
// from the top's place; with white_top_drop_one that face is the top, read there a white 5 at 1.00.
TEST(ReaderFixtures, WhiteTopFoundFromAllItsDarkPipsButOne) {
  ReadParams off;
  off.white_top_drop_one = false;
  const auto [before, now] = ab_fixture_dir("scenes_round29_exact29", off);
  expect_one_hidden_die_now_read_right(before, now);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
}

// 1902 (-5,2), 1920x1080, tilt 13: the white 1 of round 28's rule (white_one_lone_pip), rendered
// again: its side's two dark pips now read as a white 2 at 1.00 (not a black 2 hidden for
// polarity), a wrong face reported. The lone dark pip on its paper-coloured top was found as
// before (0.01 of the face round it differs from the paper); the white 2's pips stand 10.0 mm and
// more from it. With white_one_apart_mm (3 mm) a white reading none of whose pips is that lone
// pip is the white 1. Round 28's render of the same die (scenes_round28_exact28) is unchanged.
TEST(ReaderFixtures, WhiteReadingApartFromAWhiteOnesLonePipIsThatOne) {
  ReadParams off;
  off.white_one_apart_mm = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round29_exact29", off);
  expect_one_wrong_face_now_read_right(before, now);  // the white 1 read as a 2 without the rule
  EXPECT_EQ(now.color_ok, now.matched);
  EXPECT_EQ(now.seen_cells, now.matched);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
  const auto [before28, now28] = ab_fixture_dir("scenes_round28_exact28", off);
  EXPECT_EQ(now28.matched, before28.matched);
  EXPECT_EQ(now28.face_ok, before28.face_ok);
  EXPECT_EQ(now28.exact_boards, before28.exact_boards);
}

// A fixture set of `n` boards, each exact but for one die the rule under test (off in `off`) reads
// instead of hiding: with the rule, every visible die read right and every board exact.
static void expect_each_boards_hidden_die_now_read_right(const char* set, const ReadParams& off, int n) {
  const auto [before, now] = ab_fixture_dir(set, off);
  expect_hidden_dice_now_read_right(before, now, n);
  EXPECT_EQ(now.hidden_visible, 0);
  EXPECT_EQ(now.exact_boards, before.exact_boards + n);
}

// Round 30 (data/fixtures/scenes_round30_exact30: dev17's 1905 and dev12's 1319 as rendered in
// session 29). Each has one die part-covered by a hand, one column of its top under a finger:
// 1905 (3,-1) a blue 6 (3 of its 9 pip places under the hand), 1319 (0,-5) a yellow 6 (4 under it).
// The lattice read the column of three pips left in view as a diagonal 3 at 0.70-0.72 of the
// face's size (a sure 3 at 1.00), hidden by the occluder gate for its size. With
// occluded_shown_any_place the three pips, laid on the real-size grid in each 3x3 window that holds
// them (the face's centre may be under the finger), fit only a 6 (a straight line of three
// neighbouring places is no other face's): each is read a 6, both boards exact.
TEST(ReaderFixtures, PartOfAFaceReadSmallerIsCountedAtItsRealSizeInEveryPlace) {
  ReadParams off;
  off.occluded_shown_any_place = false;
  expect_each_boards_hidden_die_now_read_right("scenes_round30_exact30", off, 2);
}

// Round 31 (data/fixtures/scenes_round31_exact31: dev18's 2019 and dev4n's 517 as rendered in
// session 28). Each has a yellow 4 with one side under a finger ((-2,-1), (-2,-3)): its other side's
// two pips read a sure 2 at 0.70 of the face's size, hidden by the occluder gate for its size.
// occluded_shown_any_place lays the two pips on the real-size grid: three windows hold them; the
// one with the pips on its outer side, its middle column shown clean, allows only a 4, but the one
// with the face's centre under the finger allows a 4, a 5 or a turned 6 (no lone count).
// With occluded_any_place_on_face the clean column beside the pips, shown outside that window, lies
// off its face: that window is no place for the face, only the 4 stays, both dice read 4s.
TEST(ReaderFixtures, WindowWithTheFacesShownSideOffItsFaceIsNoPlaceForIt) {
  ReadParams off;
  off.occluded_any_place_on_face = false;
  expect_each_boards_hidden_die_now_read_right("scenes_round31_exact31", off, 2);
}

// Round 32 (data/fixtures/scenes_round32_exact32: gain1 2803, gain3 3100 and gain4 3519, gain
// renders of session 28). In a noisy frame the pale blue print of a tinted cell passes the guard's
// per-pixel blue test pixel by pixel: 2803 (0,4), a red 6 on a blue-tinted cell, got a false guard
// from a closed patch of it, 0.43 guard faces, 0.33 saturated in the mean. With guard_part_area
// such a small blob is a token only when deep blue in the mean (0.45): the guard goes, 2803 is
// exact; 3519 (-3,-1)'s token, half hidden behind its die (0.36 faces, 0.57), keeps its guard.
// The rule under test (off in `off`) puts right the one die's guard the set got wrong, every guard
// right after it, the same dice read with the same faces, `exact_more` boards exact more.
static void expect_one_guard_now_right(const char* set, const ReadParams& off, int exact_more) {
  const auto [before, now] = ab_fixture_dir(set, off);
  EXPECT_EQ(before.guard_ok, before.matched - 1);
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.face_ok, before.face_ok);
  EXPECT_EQ(now.exact_boards, before.exact_boards + exact_more);
}
TEST(ReaderFixtures, NoisyFramesSmallPaleBlueBlobIsNoGuard) {
  ReadParams off;
  off.guard_part_area = 0;
  expect_one_guard_now_right("scenes_round32_exact32", off, 1);  // 2803's false guard; 3519's kept
}

// The same set: 3100 (0,3), a black 5's token in a noisy frame, pale, its pip and the noise round
// it a hole the close does not shut: its blob (1.00 guard faces) measured a core of 0.50, under
// guard_core_ratio, and the guard was missed. With guard_core_hole the blob's holes under 0.15 guard
// faces are filled before the core is measured (1.02): the guard is read; nothing else moves.
TEST(ReaderFixtures, TokensPipHoleIsPartOfItsCore) {
  ReadParams off;
  off.guard_core_hole = 0;
  // 3100's guard missed: not exact. (robust38) With the guard 3100 is exact: its black 1 at
  // (-2,1), hidden before, is read by grey_other_lifted_one.
  expect_one_guard_now_right("scenes_round32_exact32", off, 1);
}

// Round 33 (data/fixtures/scenes_round33_exact33: gain2 2905, a gain render of session 28). In a
// noisy frame the pip places' rings (the share of each ring of the body's colour, pixel by pixel
// within 0.04 of its chromaticity) lose most of their pixels to the sensor's noise: 2905 (0,0), a
// green 1 in full view read at 1.00, measured 0.34 of its top round its pip and was hidden "cut"
// (one_top_shown 0.5), the board's one fault. With noise_ring_average (2: the rings sampled on the
// crop's 5x5 box mean in noisy frames) it measures 0.54: the 1 is read, the board exact.
TEST(ReaderFixtures, NoisyFramesRingsRoundPipPlacesAreSampledOnTheMean) {
  ReadParams off;
  off.noise_ring_average = 0;
  expect_each_boards_hidden_die_now_read_right("scenes_round33_exact33", off, 1);
}

// Round 34 (data/fixtures/scenes_round34_exact34: dev5 607 and dev7 807, as rendered in session
// 28). Each has one die at the frame's edge: 607 (-5,5) a black 2, 807 (3,1) a white 4. The square of
// +-8.5 mm round its cell's centre crosses the frame's edge, so the cell was hidden "view" unread,
// each its board's one fault. With in_view_face_mm the cell is read; the face found has pip places
// beyond the edge (607: o..?..?.o, places 3 and 6 out of the frame; 807: o.o...o??, 7 and 8), so
// those are not shown, and the places inside the frame allow only the count read (a 2: the centre
// and a third corner shown empty; a 4: three corners with pips, the middle row empty): both read,
// both boards exact.
TEST(ReaderFixtures, FacesPipPlacesBeyondTheFramesEdgeAreNotShown) {
  ReadParams off;
  off.in_view_face_mm = 0;
  expect_each_boards_hidden_die_now_read_right("scenes_round34_exact34", off, 2);
}

// The same rule on the first fixture set: 027 (-5,5), a black 6 at the frame's bottom edge (places
// oo?..??o?: its rows of pips across, the frame cutting the far column), hidden "view": read a 6,
// the board exact; the set's other dice as they were.
TEST(ReaderFixtures, FaceAtTheFramesEdgeIsReadFromThePlacesInView) {
  ReadParams off;
  off.in_view_face_mm = 0;
  const auto [before, now] = ab_fixture_dir("scenes", off);
  expect_one_hidden_die_now_read_right(before, now);
  EXPECT_EQ(before.hidden_visible_why.count("view") ? before.hidden_visible_why.at("view") : 0, 1);
  EXPECT_EQ(now.hidden_visible_why.count("view") ? now.hidden_visible_why.at("view") : 0, 0);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
}

// Round 35 (data/fixtures/scenes_round35_exact35: dev14's 1618 as rendered in session 33). Its
// (-2,2), a yellow 3 under a finger (3 of its 9 pip places under the hand), was read "red 2" at 0.10
// on the finger, its square slid onto the skin, and hidden for the skin's hue. With
// occluded_off_skin the die's body is taken again without the skin-hued pixels (yellow), the square
// located on it reads a yellow 2 at 1.00 at half a face's size, and its two pips laid at the real
// size (occluded_shown_any_place) allow only a 3: read a yellow 3, the board exact.
TEST(ReaderFixtures, DieUnderAFingerIsReadOffTheSkin) {
  ReadParams off;
  off.occluded_off_skin = false;
  expect_each_boards_hidden_die_now_read_right("scenes_round35_exact35", off, 1);
}

// Round 36 (data/fixtures/scenes_round36_exact36: dev19's 2118 as rendered in session 35). (-2,-2),
// a red 4 whose left column is under a sleeve, read its right column's two pips as a sure 2 at 0.71
// of the face's size, hidden by the occluder gate for its size. occluded_shown_any_place lays them on
// the real-size grid, but the top pip, at the top's edge beside the side face, had only 0.62 of its
// ring of the body's colour (its contrast 1.49): not shown, one pip left, a 2 or a 4 fitted. With
// occluded_own_pip_ring (0.5) a node holding one of the reading's own pips is shown at half its
// ring: the two pips and the clean column beside them allow only a 4, the board exact.
TEST(ReaderFixtures, ReadingsOwnPipAtTheTopsEdgeIsShown) {
  ReadParams off;
  off.occluded_own_pip_ring = 0;
  expect_each_boards_hidden_die_now_read_right("scenes_round36_exact36", off, 1);
}

// Round 37 (data/fixtures/scenes_round37_exact37: harsh4's 2707 as rendered in session 35). (5,-5),
// a red 1 in a dim frame with its blue guard token against its side: the token was taken out of the
// unit's blob (token_in_blob_area) and the face read a 1 at 0.84, but the coloured pip look found
// the token's one light pip and the 1's pip 6.4 mm apart, a 2's diagonal at the face's size, read a
// red 2 at 0.66 there and replaced the 1. With pip_look_off_token a layout holding a pip on the token
// taken out is not read: the 1 stands, the board exact (its guard was right all along).
TEST(ReaderFixtures, GuardTokensPipIsNoPipOfTheDie) {
  ReadParams off;
  off.pip_look_off_token = false;
  const auto [before, now] = ab_fixture_dir("scenes_round37_exact37", off);
  expect_one_wrong_face_now_read_right(before, now);
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
  EXPECT_EQ(now.exact_boards, now.scenes);
}

// Round 38 (data/fixtures/scenes_round38_exact38: dev17's 1904 and dev4n's 507 as rendered in
// session 35). Each die's guard token stands against something blue: 1904 (0,4), a white 3, the
// deep-tinted print of its cell round the die; 507 (-1,3), a blue 3, its own die's side. The blue
// blob is over the 2.5 guard-face cap, so its deep pixels are opened with a 5 mm disc and tested
// again: the token is left with a stub of what it was joined to, a core of 0.58 and 0.57, under
// guard_core_ratio 0.6, and both guards were missed, each board's one fault. No thin band is left
// after that opening; guard_opened_core_ratio (0.5) is the opened blob's bar: both guards read,
// both boards exact, nothing else moves.
TEST(ReaderFixtures, TokenOpenedOutOfABlueBlobKeepsAStubOfIt) {
  ReadParams off;
  off.guard_opened_core_ratio = off.guard_core_ratio;  // the bar before: the plain blob's
  // (exact43) guard_other_feet's look after the cell loop finds one of the two guards without
  // the opened bar too (a second way to the same reading): off here, the A/B is the bar's alone.
  off.guard_other_feet = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round38_exact38", off);
  EXPECT_EQ(before.guard_ok, before.matched - 2);
  EXPECT_EQ(now.guard_ok, now.matched);
  EXPECT_EQ(now.matched, before.matched);
  EXPECT_EQ(now.face_ok, before.face_ok);
  EXPECT_EQ(before.exact_boards, 0);
  EXPECT_EQ(now.exact_boards, now.scenes);
}

// Round 39 (data/fixtures/scenes_round39_exact39: gain1 2805 and harsh2 2506, as rendered in
// session 35). 2805's white patch is clipped by the gain; the frame is called noisy by robust39's
// measure on the cells' paper (ReaderHarsh.TheNoiseIsMeasuredOnTheCellsWhereThePatchesShowNone),
// which took the place of exact39's clipped-share rule when the two were merged. 2506 (a dim, noisy
// harsh render) has a black, a red and a green 1 in full view, read
// right at 0.67, 0.80 (0.797) and 0.63, under noise_one_min_confidence (0.8): all three hidden
// "noise", the board's faults. Their pips stand out of their tops 7.7, 8.6 and 5.0 x the grey
// patch's noise, the eight places round each at most 0.19 of the pip: with noise_one_sure_contrast
// (4.5) and noise_one_clear_ratio (0.3) they are read, the board exact; 2805's speck is not.
TEST(ReaderFixtures, NoisyFramesOneWhosePipStandsOutOfTheNoiseIsRead) {
  ReadParams off;
  off.noise_one_sure_contrast = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round39_exact39", off);
  expect_hidden_dice_now_read_right(before, now, 3);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
  EXPECT_EQ(now.exact_boards, now.scenes);
}

// Round 40 (data/fixtures/scenes_round40_exact40: harsh24 2418, dev8 900 and gain2 2917, as
// rendered in session 35). Each has a die beside the hand in full view that only the component
// counter reads, at its cap 0.30: harsh24 2418 (-3,3) a red 1, dev8 900 (4,-5) a red 2, gain2
// 2917 (-3,-1) a blue 3, each right, each hidden "weak" (hand_near_min_confidence 0.31) and the
// shown-places look (weak_shown_places) giving it no count. Their pip places stand clear of their
// empty ones (robust34's guess gate, faint_places_clear): with weak_guess_clear_ratio (0.3) they
// are read, and 2418's board is exact (900 and 2917 keep a die hidden under the hand's gate).
// Both runs at the occluder gate's old bar (occluded_min_confidence 0.6): at exact42's 0.45
// 2917's (-2,-1) red 5 (0.56) is read too and its board is exact with or without this rule.
TEST(ReaderFixtures, WeakGuessBesideAHandWhosePlacesStandClearIsRead) {
  ReadParams on;
  on.occluded_min_confidence = 0.6;
  ReadParams off = on;
  off.weak_guess_clear_ratio = 0;
  const auto [before, now] = ab_fixture_dir("scenes_round40_exact40", off, on);
  EXPECT_EQ(now.scenes, 3);
  expect_hidden_dice_now_read_right(before, now, 3);
  EXPECT_EQ(now.exact_boards, before.exact_boards + 1);
}

}  // namespace hexdice::vision
