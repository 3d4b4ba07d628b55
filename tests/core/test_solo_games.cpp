// Whole solo games from every shipped scenario (data/scenarios/), seeded: every action
// legal (checked again with hexdice::validate), every game ends. Scenario parsing and
// the Enemy Turn's table lookup.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/solo/play.h"

namespace hexdice::solo {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> scenario_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(HEXDICE_SOURCE_DIR) / "data" / "scenarios"))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

Scenario load(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  auto sc = parse_scenario(ss.str());
  EXPECT_TRUE(sc.ok()) << p << ": " << (sc.ok() ? "" : sc.error());
  return sc.ok() ? sc.value() : Scenario{};
}

void expect_legal_history(const SoloGame& g, const std::string& what) {
  ASSERT_FALSE(g.history().empty()) << what;
  for (std::size_t i = 0; i < g.history().size(); ++i) {
    const auto& rec = g.history()[i];
    Position before = rec.before;
    const Status s = validate(before, rec.action);
    EXPECT_TRUE(s.ok()) << what << " action " << i << ": " << (s.ok() ? "" : s.error());
    EXPECT_EQ(rec.enemy, before.to_move() == g.enemy()) << what << " action " << i;
  }
}

TEST(SoloScenarios, AtLeastFiveFromTutorialToHard) {
  const auto files = scenario_files();
  ASSERT_GE(files.size(), 5u);
  int lo = 9, hi = 0;
  for (const auto& f : files) {
    const Scenario sc = load(f);
    lo = std::min(lo, sc.difficulty);
    hi = std::max(hi, sc.difficulty);
    EXPECT_GT(sc.turn_limit, 0) << f << ": a shipped scenario needs a turn limit so every game ends";
  }
  EXPECT_EQ(lo, 1);
  EXPECT_GE(hi, 4);
}

TEST(SoloScenarios, WholeGamesAreLegalAndEnd) {
  for (const auto& f : scenario_files()) {
    const Scenario sc = load(f);
    for (const char* engine : {"random", "greedy"})
      for (std::uint64_t seed : {1u, 2u, 3u}) {
        const std::string what = f.filename().string() + " " + engine + " seed " + std::to_string(seed);
        SoloGame g;
        auto run = play_solo(sc, engine, seed, {}, 1000, &g);
        ASSERT_TRUE(run.ok()) << what << ": " << run.error();
        EXPECT_TRUE(g.over()) << what;
        EXPECT_LE(g.round(), sc.turn_limit + 1) << what;
        EXPECT_EQ(run->result, g.result());
        expect_legal_history(g, what);
        // The log names the result on its last line.
        EXPECT_NE(run->log.back().find("Result: "), std::string::npos);
      }
  }
}

TEST(SoloScenarios, TheHintEngineFinishesEveryScenario) {
  for (const auto& f : scenario_files()) {
    const Scenario sc = load(f);
    SoloGame g;
    auto run = play_solo(sc, "hint", 7, ai::SearchLimits{0, 2, 0}, 1000, &g);
    ASSERT_TRUE(run.ok()) << f << ": " << run.error();
    EXPECT_TRUE(g.over()) << f;
    expect_legal_history(g, f.filename().string() + " hint");
  }
}

TEST(SoloScenarios, SameSeedSameGame) {
  const Scenario sc = load(scenario_files().front());
  auto a = play_solo(sc, "greedy", 42);
  auto b = play_solo(sc, "greedy", 42);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->log, b->log);
}

TEST(SoloScenarios, GivenRollsComeFirst) {
  const Scenario sc = load(scenario_files().front());
  auto run = play_solo(sc, "greedy", 1, {}, 200, nullptr, {6, 6, 6});
  ASSERT_TRUE(run.ok());
  int enemy_lines = 0;
  for (const auto& line : run->log) {
    if (line.find(" enemy: ") == std::string::npos) continue;
    if (++enemy_lines > 3) break;
    EXPECT_NE(line.find("roll 6"), std::string::npos) << line;
  }
  EXPECT_FALSE(play_solo(sc, "greedy", 1, {}, 200, nullptr, {7}).ok());
}

const char* kSmall = R"({
  "name": "Test", "radius": 5,
  "heroes": {"units": [{"face": 1, "at": "f10"}, {"face": 2, "at": "e10"}]},
  "enemy": {"units": [{"face": 1, "at": "e4", "tag": "pair"}, {"face": 1, "at": "g4", "tag": "pair"},
                      {"face": 3, "at": "f2"}]},
  "activation": [
    {"roll": 1, "face": 1, "group": true, "orders": ["Engage"]},
    {"roll": [2, 3], "face": 1, "orders": ["Engage"]},
    {"roll": 4, "face": 6, "orders": ["Strike"]},
    {"roll": 5, "tag": "pair", "orders": ["Hold"]}
  ],
  "victory": {"turn_limit": 3, "on_limit": "heroes"}
})";

SoloGame small_game(bool heroes_pass = true) {
  auto sc = parse_scenario(kSmall);
  EXPECT_TRUE(sc.ok()) << (sc.ok() ? "" : sc.error());
  auto g = SoloGame::start(*sc, sc->hero_units);
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error());
  SoloGame game = std::move(g).value();
  if (heroes_pass) {
    const int f10 = game.position().board().index(Hex{0, 4});
    EXPECT_TRUE(game.hero_action(Action{ActionType::Guard, static_cast<std::int16_t>(f10), kNoCell, 0}).ok());
  }
  return game;
}

TEST(SoloGameTurns, AGroupEntryActivatesEveryMatchingUnit) {
  SoloGame g = small_game();
  const auto steps = g.enemy_turn(1);
  int acted = 0;
  for (const auto& s : steps) acted += s.action.has_value();
  EXPECT_EQ(acted, 2);
  EXPECT_TRUE(g.heroes_turn());
}

TEST(SoloGameTurns, ASingleEntryActivatesOneUnitByTheDarkRule) {
  SoloGame g = small_game();
  const auto steps = g.enemy_turn(2);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_TRUE(steps[0].action.has_value());
  EXPECT_NE(steps[0].explanation.find("Dark Rule: of 2 matching units"), std::string::npos) << steps[0].explanation;
}

TEST(SoloGameTurns, ARollMatchingNoEnemySkipsTheTurn) {
  for (int roll : {4, 6}) {  // 4: no Balance on the board; 6: no table entry
    SoloGame g = small_game();
    const Position before = g.position();
    const auto steps = g.enemy_turn(roll);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_FALSE(steps[0].action.has_value());
    EXPECT_NE(steps[0].explanation.find("skipped"), std::string::npos) << steps[0].explanation;
    EXPECT_TRUE(g.heroes_turn());
    for (int c = 0; c < before.board().size(); ++c) EXPECT_EQ(before.at(c), g.position().at(c));
  }
}

TEST(SoloGameTurns, TagsFollowTheirUnitsAndTheTurnLimitEnds) {
  SoloGame g = small_game();
  g.enemy_turn(1);  // both tagged Infantry move
  int tagged = 0;
  for (int c = 0; c < g.position().board().size(); ++c)
    if (g.tag_at(c) == "pair") {
      ++tagged;
      EXPECT_EQ(g.position().at(c).face, 1);
      EXPECT_EQ(g.position().at(c).owner, g.enemy());
    }
  EXPECT_EQ(tagged, 2);
  const int f10 = g.position().board().index(Hex{0, 4});
  for (int r = 2; r <= 3 && !g.over(); ++r) {
    ASSERT_TRUE(g.hero_action(Action{ActionType::Guard, static_cast<std::int16_t>(f10), kNoCell, 0}).ok());
    if (!g.over()) g.enemy_turn(5);
  }
  EXPECT_TRUE(g.over());
  EXPECT_EQ(g.result(), 1);
  EXPECT_NE(g.result_text().find("turn limit"), std::string::npos);
}

TEST(SoloGameTurns, HeroActionsAreValidated) {
  SoloGame g = small_game(false);
  const int f10 = g.position().board().index(Hex{0, 4});
  const int f1 = g.position().board().index(Hex{0, -5});
  auto bad = g.hero_action(Action{ActionType::Move, static_cast<std::int16_t>(f10), static_cast<std::int16_t>(f1), 0});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("Infantry"), std::string::npos) << bad.error();
  EXPECT_TRUE(g.heroes_turn());
}

TEST(SoloGameTurns, ActivationMarkersMakeEachHeroActOnceARound) {
  std::string text = kSmall;
  text.insert(text.find("\"radius\""), "\"activation_markers\": true, ");
  auto sc = parse_scenario(text);
  ASSERT_TRUE(sc.ok()) << sc.error();
  auto started = SoloGame::start(*sc, sc->hero_units);
  ASSERT_TRUE(started.ok());
  SoloGame g = std::move(started).value();
  const int f10 = g.position().board().index(Hex{0, 4});  // Infantry
  const int e10 = g.position().board().index(Hex{-1, 5});  // Archer
  const Action guard_inf{ActionType::Guard, static_cast<std::int16_t>(f10), kNoCell, 0};
  const Action guard_arch{ActionType::Guard, static_cast<std::int16_t>(e10), kNoCell, 0};
  ASSERT_TRUE(g.hero_action(guard_inf).ok());
  EXPECT_TRUE(g.activated(f10));
  g.enemy_turn(5);  // the tagged pair holds
  for (const Action& a : g.hero_actions()) EXPECT_NE(a.unit, f10);
  auto again = g.hero_action(guard_inf);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().find("already acted"), std::string::npos) << again.error();
  ASSERT_TRUE(g.hero_action(guard_arch).ok());  // the last hero acts: every marker comes off
  EXPECT_FALSE(g.activated(f10));
  EXPECT_FALSE(g.activated(e10));
  g.enemy_turn(5);
  EXPECT_TRUE(g.hero_action(guard_inf).ok());
}

TEST(SoloScenarioFormat, ErrorsNameTheProblem) {
  auto e1 = parse_scenario(R"({"name": "x", "heroes": {"army": [1]}, "enemy": {"units": [{"face": 1, "at": "f3"}]},
                               "activation": [{"roll": 1, "face": 1, "orders": ["Charge"]}]})");
  ASSERT_FALSE(e1.ok());
  EXPECT_NE(e1.error().find("unknown order \"Charge\""), std::string::npos) << e1.error();
  auto e2 = parse_scenario(R"({"name": "x", "heroes": {"army": [1]}, "enemy": {"units": [{"face": 1, "at": "z9"}]}})");
  ASSERT_FALSE(e2.ok());
  EXPECT_NE(e2.error().find("z9"), std::string::npos) << e2.error();
  auto e3 = parse_scenario(R"({"name": "x", "heroes": {"army": [1]}, "enemy": {"units": [{"face": 1, "at": "f10"}]}})");
  ASSERT_FALSE(e3.ok());
  EXPECT_NE(e3.error().find("heroes' base"), std::string::npos) << e3.error();
  auto e4 = parse_scenario(R"({"name": "x", "heroes": {"army": [1]}, "enemy": {"units": [{"face": 1, "at": "f3"}]},
                               "activation": [{"roll": 1, "face": 1}, {"roll": [2, 1], "face": 2}]})");
  ASSERT_FALSE(e4.ok());
  EXPECT_NE(e4.error().find("roll 1 is already"), std::string::npos) << e4.error();
  EXPECT_FALSE(parse_scenario("{").ok());
  auto e5 = parse_scenario(R"({"name": "x", "heroes": {"units": []}, "enemy": {"units": [{"face": 1, "at": "f3"}]}})");
  ASSERT_FALSE(e5.ok());
  EXPECT_NE(e5.error().find("at least one"), std::string::npos) << e5.error();
  auto e6 = parse_scenario(R"({"name": "x", "heroes": {"army": [1], "deploy": ["f2"]}, "enemy": {"units": [{"face": 1, "at": "f3"}]}})");
  ASSERT_FALSE(e6.ok());
  EXPECT_NE(e6.error().find("enemy base"), std::string::npos) << e6.error();
}

TEST(SoloScenarioFormat, HeroSetupMustMatchTheScenario) {
  auto sc = parse_scenario(R"({"name": "x", "heroes": {"army": [1, 4]}, "enemy": {"units": [{"face": 1, "at": "f3"}]}})");
  ASSERT_TRUE(sc.ok()) << sc.error();
  EXPECT_TRUE(SoloGame::start(*sc, {{1, {0, 4}}, {4, {0, 5}}}).ok());
  auto wrong_face = SoloGame::start(*sc, {{1, {0, 4}}, {5, {0, 5}}});
  ASSERT_FALSE(wrong_face.ok());
  auto outside = SoloGame::start(*sc, {{1, {0, 0}}, {4, {0, 5}}});
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.error().find("outside"), std::string::npos) << outside.error();
}

}  // namespace
}  // namespace hexdice::solo
