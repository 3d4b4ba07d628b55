// Accuracy floors of the board reader on the committed rendered scenes
// (data/fixtures/scenes, tests/render/scene_gen.py). The floors sit a few points below
// what the reader measures (docs/reader.md), so a regression fails here. They are far
// below the targets: this guards what exists, it does not claim the targets.
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "vision/reader_eval.h"
#include "vision/reader_io.h"

namespace hexdice::vision {
namespace {

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
  // Measured 2026-12-01 (docs/reader.md, branch faces): found 100%, precision 91.4%, recall
  // 91.4%, colour 98.4%, face 92.2%, guard 97.9% (main before: 91.3 / 90.4 / 97.9 / 91.1 /
  // 93.4%). Recall was 84.2% and face 88.6% before partial views, the white-die tests and
  // the face retries; guard was 93.4% before the print test of guard pixels.
  EXPECT_GE(found, 0.95);
  EXPECT_GE(precision, 0.89);
  EXPECT_GE(recall, 0.89);
  EXPECT_GE(colour, 0.97);
  EXPECT_GE(face, 0.91);
  EXPECT_GE(guard, 0.96);
}

// Seven of the scenes have a hand or arm over the sheet. With hand detection off
// (hand_min_area_mm2 = 0, hand_max_edges = -1) and no face check on shadow-like units
// (shadow_unit_min_confidence = 0), the cells under it and its shadow are read as dice
// (about 180 false detections, docs/reader.md); with the defaults at least two thirds
// of them must go, at the price of only a few true dice beside the hand, and the cells
// under the hand are listed as hidden in the hand scenes only.
TEST(ReaderFixtures, HandDetectionRemovesMostFalseDetections) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  ReadParams off;
  off.hand_min_area_mm2 = 0;
  off.hand_max_edges = -1;
  off.shadow_unit_min_confidence = 0;
  auto with = eval_scenes(dir.string(), ReadParams{}, 0, nullptr);
  auto without = eval_scenes(dir.string(), off, 0, nullptr);
  ASSERT_TRUE(with.ok() && without.ok());
  const int fp_with = with->seen_cells - with->matched, fp_without = without->seen_cells - without->matched;
  EXPECT_GT(fp_without, 100);
  EXPECT_LT(fp_with * 3, fp_without) << fp_with << " vs " << fp_without;
  EXPECT_GE(with->matched + 20, without->matched);
}

TEST(ReaderFixtures, HiddenCellsOnlyWhereAHandIs) {
  const std::filesystem::path dir = std::filesystem::path(HEXDICE_SOURCE_DIR) / "data/fixtures/scenes";
  const SheetLayout layout = standard_sheet();
  int hand_scenes = 0, hand_scenes_hidden = 0, other_scenes_hidden = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object() || !j.value("board_found", false)) continue;
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
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object() || !j.value("board_found", false) || j.value("hand", false)) continue;
    bool some_out = false;
    for (const auto& d : j["dice"]) some_out = some_out || !d.value("in_view", true);
    if (!some_out) continue;
    auto img = load_image((dir / j.value("image", "")).string());
    ASSERT_TRUE(img.ok()) << img.error();
    const Observation obs = read_board(*img, layout);
    ASSERT_TRUE(obs.board_found) << e.path() << ": " << obs.why_not_found;
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
        EXPECT_TRUE(hidden.count(h)) << e.path() << ": die out of view at " << h.q << "," << h.r << " not hidden";
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
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object() || !j.value("board_found", false)) continue;
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
  EXPECT_LE(now.phantom_guards, 4);
  EXPECT_LE(now.missed_guards, 10);
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

TEST(ReaderFixtures, MissingDirectoryIsAnError) {
  EXPECT_FALSE(eval_scenes("/nonexistent/hexdice/scenes", ReadParams{}, 0, nullptr).ok());
}

}  // namespace
}  // namespace hexdice::vision
