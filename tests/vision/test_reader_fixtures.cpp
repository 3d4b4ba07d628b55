// Accuracy floors of the board reader on the committed rendered scenes
// (data/fixtures/scenes, tests/render/scene_gen.py). The floors sit a few points below
// what the reader measures (docs/reader.md), so a regression fails here. They are far
// below the targets: this guards what exists, it does not claim the targets.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
  EXPECT_GE(found, 0.95);
  EXPECT_GE(precision, 0.87);
  EXPECT_GE(recall, 0.82);
  EXPECT_GE(colour, 0.93);
  EXPECT_GE(face, 0.86);
  EXPECT_GE(guard, 0.92);
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
  int hand_scenes = 0, hand_scenes_hidden = 0, other_scenes_hidden = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object() || !j.value("board_found", false)) continue;
    auto img = load_image((dir / j.value("image", "")).string());
    ASSERT_TRUE(img.ok()) << img.error();
    const Observation obs = read_board(*img, standard_sheet());
    if (j.value("hand", false)) {
      ++hand_scenes;
      hand_scenes_hidden += !obs.hidden.empty();
    } else {
      other_scenes_hidden += !obs.hidden.empty();
    }
  }
  EXPECT_GE(hand_scenes, 6);
  EXPECT_GE(hand_scenes_hidden, hand_scenes - 1);
  EXPECT_LE(other_scenes_hidden, 1);
}

TEST(ReaderFixtures, MissingDirectoryIsAnError) {
  EXPECT_FALSE(eval_scenes("/nonexistent/hexdice/scenes", ReadParams{}, 0, nullptr).ok());
}

}  // namespace
}  // namespace hexdice::vision
