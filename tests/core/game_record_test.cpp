// The game record: actions with outcomes, takebacks, annotations, replay, the text record.
#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "core/game_record.h"

namespace hexdice {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

Position start_from(const char* json) {
  auto p = parse_position(json);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error());
  return std::move(p).value();
}

// red Knight f2, red Infantry f3 (N); blue Archer f7, blue Infantry f9 (S); red to move.
const char* kSmall = R"({"radius":5,"players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],
  "to_move":"red","units":[{"q":0,"r":-4,"owner":"red","face":3},{"q":0,"r":-3,"owner":"red","face":1},
  {"q":0,"r":1,"owner":"blue","face":2},{"q":0,"r":3,"owner":"blue","face":1}]})";

Action act(const Position& pos, ActionType t, const char* from, const char* to = nullptr, int face = 0) {
  const Board& b = pos.board();
  Action a;
  a.type = t;
  a.unit = static_cast<std::int16_t>(b.index(*b.parse_name(from)));
  if (to) a.target = static_cast<std::int16_t>(b.index(*b.parse_name(to)));
  a.face = static_cast<std::uint8_t>(face);
  return a;
}

// A seeded random game through the whole setup and up to `plies` actions, with
// takebacks and annotations mixed in.
GameRecord random_game(unsigned seed, int plies, int players = 2) {
  std::mt19937 rng(seed);
  auto below = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  SetupConfig c;
  const char* ids[] = {"red", "blue", "green", "yellow", "white", "black"};
  const std::vector<int> corners = players == 2 ? std::vector<int>{0, 3} : std::vector<int>{0, 2, 4};
  for (int i = 0; i < players; ++i) c.players.push_back(Player{ids[i], corners[static_cast<std::size_t>(i)], false});
  c.dice_per_player = 6;
  RecordHeader h;
  h.event = "Test \"quoted\" event";
  h.names = {"Ann \\ Lee", ""};
  h.start_time = "2026-11-29T10:00:00Z";
  auto r = GameRecord::with_setup(c, h);
  EXPECT_TRUE(r.ok());
  GameRecord g = std::move(r).value();
  const GameSetup& st = g.setup();
  for (int p = 0; p < players; ++p) {
    std::vector<int> f;
    for (int k = 0; k < 6; ++k) f.push_back(below(6) + 1);
    EXPECT_TRUE(g.add_setup_event(SetupEvent::roll(ids[p], f)).ok());
  }
  EXPECT_TRUE(g.add_setup_event(SetupEvent::reroll(ids[0], {st.army(0)[0]}, {below(6) + 1})).ok());
  for (int p = 1; p < players; ++p) EXPECT_TRUE(g.add_setup_event(SetupEvent::decline(ids[p])).ok());
  for (int p = 0; p < players; ++p) {
    auto zone = st.board().deployment_zone(p);
    std::shuffle(zone.begin(), zone.end(), rng);
    const auto army = st.army(p);
    for (std::size_t k = 0; k < army.size(); ++k)
      EXPECT_TRUE(g.add_setup_event(SetupEvent::place(ids[p], army[k], zone[k])).ok());
  }
  while (!st.done()) EXPECT_TRUE(g.add_setup_event(SetupEvent::first_roll(ids[st.waiting_for()[0]], below(6) + 1)).ok());
  EXPECT_TRUE(g.annotate("opening {after setup}").ok());
  for (int i = 0; i < plies && !g.current().game_over(); ++i) {
    auto legal = legal_actions(g.current());
    Action a = legal[static_cast<std::size_t>(below(static_cast<int>(legal.size())))];
    if (a.type == ActionType::Reroll) a.face = static_cast<std::uint8_t>(below(6) + 1);
    EXPECT_TRUE(g.add_action(a).ok());
    if (below(10) == 0) EXPECT_TRUE(g.annotate("note " + std::to_string(i) + "\nsecond line").ok());
    if (a.type != ActionType::Reroll && below(8) == 0) EXPECT_TRUE(g.takeback().ok());
  }
  return g;
}

// The scripted game of kSmall: returns the record after 5 plies, one takeback, one annotation.
GameRecord scripted() {
  auto made = GameRecord::from_position(start_from(kSmall));
  EXPECT_TRUE(made.ok());
  GameRecord g = std::move(made).value();
  auto step = [&](ActionType t, const char* from, const char* to = nullptr, int face = 0) {
    auto out = g.add_action(act(g.current(), t, from, to, face));
    EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error());
  };
  step(ActionType::Move, "f3", "f5");
  step(ActionType::Ranged, "f7", "f5");
  EXPECT_TRUE(g.annotate("the Infantry walked into range").ok());
  step(ActionType::Move, "f2", "g4");
  step(ActionType::Reroll, "f9", nullptr, 5);
  step(ActionType::Guard, "g4");
  EXPECT_TRUE(g.takeback().ok());
  step(ActionType::Guard, "g4");
  return g;
}

TEST(GameRecord, TextRecordNamesUnitsCellsAndOutcomes) {
  const GameRecord g = scripted();
  const std::string text = to_text(g);
  for (const char* line : {"[Ruleset \"hexdice\"]", "[Players \"red:N blue:S\"]", "[Result \"*\"]",
                           "[HouseRules \"archer_star_free_path=on ranged_needs_clear_line=off merge_sum=off any_dice_count=off\"]",
                           "\n1. red Infantry f3-f5\n",
                           "\n2. blue Archer f7 shoots f5 Infantry (attack 2 vs armor 2: defeated)\n",
                           "\n{the Infantry walked into range}\n3. red Knight f2-g4\n",
                           "\n4. blue Infantry f9 rerolls -> Tanker (5)\n",
                           "\n5. red Knight g4 guards\ntakeback 5\n5. red Knight g4 guards\n"})
    EXPECT_TRUE(contains(text, line)) << "missing: " << line << "\n" << text;
  EXPECT_FALSE(contains(text, "[Dice")) << "a game from a given position has no setup";
  auto back = record_from_text(text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(*back, g);
  EXPECT_EQ(to_text(*back), text);
}

TEST(GameRecord, OutcomesAreStoredWithEachAction) {
  const GameRecord g = scripted();
  const auto& e = g.entries()[static_cast<std::size_t>(g.line_entries()[1])];
  ASSERT_TRUE(e.outcome.combat.has_value());
  EXPECT_EQ(*e.outcome.combat, (Combat{2, 2, true}));
  ASSERT_EQ(e.outcome.removed.size(), 1u);
  EXPECT_EQ(e.outcome.removed[0], (Hex{0, -1}));
  EXPECT_EQ(e.player, 1);
  EXPECT_EQ(g.ply(), 5);
  EXPECT_EQ(g.entries().size(), 8u);  // 6 actions, 1 takeback, 1 annotation
}

TEST(GameRecord, ARerollCanNeverBeTakenBack) {
  GameRecord g = scripted();
  ASSERT_TRUE(g.takeback().ok());  // the guard
  const auto before = g.entries().size();
  Status s = g.takeback();         // the reroll
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "a reroll can never be taken back")) << s.error();
  EXPECT_EQ(g.entries().size(), before);
  EXPECT_EQ(g.ply(), 4);
}

TEST(GameRecord, ReplayToAnyPlyHonoursTakebacks) {
  const GameRecord g = scripted();
  const Position start = *g.start_position();
  Position p = start;
  for (int k = 0; k <= g.ply(); ++k) {
    auto at = g.position_at(k);
    ASSERT_TRUE(at.ok());
    EXPECT_EQ(*at, p) << "ply " << k;
    if (k < g.ply()) p = apply(p, g.entries()[static_cast<std::size_t>(g.line_entries()[static_cast<std::size_t>(k)])].action)->position;
  }
  EXPECT_FALSE(g.position_at(6).ok());
  // After the takeback entry the position is the one after ply 4 (the guard undone).
  auto after_tb = g.position_after_entry(6);
  ASSERT_TRUE(after_tb.ok());
  EXPECT_EQ(*after_tb, *g.position_at(4));
  EXPECT_FALSE(after_tb->at(*after_tb->board().parse_name("g4"))->guard);
  EXPECT_EQ(*g.position_after_entry(static_cast<int>(g.entries().size()) - 1), g.current());
}

TEST(GameRecord, IllegalActionsAreRefusedAndChangeNothing) {
  GameRecord g = scripted();
  const GameRecord copy = g;
  auto out = g.add_action(act(g.current(), ActionType::Guard, "g4"));  // red's Knight on blue's turn
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(contains(out.error(), "out of turn")) << out.error();
  EXPECT_FALSE(g.add_action(act(g.current(), ActionType::Reroll, "f9")).ok());  // no face
  EXPECT_EQ(g, copy);
  EXPECT_FALSE(g.annotate("").ok());
}

TEST(GameRecord, FinishChecksTheReasonAgainstThePosition) {
  auto made = GameRecord::from_position(start_from(R"({"radius":5,"players":[{"id":"red","corner":"N"},
      {"id":"blue","corner":"S"}],"to_move":"red","units":[{"q":0,"r":3,"owner":"red","face":5},
      {"q":2,"r":2,"owner":"blue","face":1},{"q":0,"r":-4,"owner":"red","face":1}]})"));
  ASSERT_TRUE(made.ok());
  GameRecord g = std::move(made).value();
  EXPECT_FALSE(g.finish({ResultReason::BaseCapture, "red"}, "t").ok());  // nobody has won yet
  EXPECT_FALSE(g.finish({ResultReason::DrawAgreed, "red"}, "t").ok());   // a draw has no winner
  EXPECT_FALSE(g.finish({ResultReason::Resignation, "green"}, "t").ok());
  ASSERT_TRUE(g.add_action(act(g.current(), ActionType::Move, "f9", "f10")).ok());
  EXPECT_EQ(g.natural_result(), (GameResult{ResultReason::BaseCapture, "red"}));
  EXPECT_FALSE(g.finish({ResultReason::Annihilation, "red"}, "t").ok());
  EXPECT_FALSE(g.finish({ResultReason::DrawAgreed, ""}, "t").ok());
  ASSERT_TRUE(g.finish({ResultReason::BaseCapture, "red"}, "2026-11-29T11:00:00Z").ok());
  EXPECT_FALSE(g.takeback().ok());
  EXPECT_TRUE(g.annotate("post-game note").ok());  // commentary after the end is fine
  const std::string text = to_text(g);
  EXPECT_TRUE(contains(text, "[Result \"red\"]\n[Termination \"base_capture\"]")) << text;
  EXPECT_TRUE(contains(text, "1. red Tanker f9-f10; red wins")) << text;
  auto back = record_from_text(text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(*back, g);
}

TEST(GameRecord, RandomGamesRoundTripLosslessly) {
  for (unsigned seed = 1; seed <= 25; ++seed) {
    GameRecord g = random_game(seed, 120, seed % 3 == 0 ? 3 : 2);
    if (seed % 2 == 0) {
      GameResult r = g.natural_result();
      if (!r.finished()) r = seed % 4 == 0 ? GameResult{ResultReason::DrawAgreed, ""} : GameResult{ResultReason::Resignation, "blue"};
      ASSERT_TRUE(g.finish(r, "2026-11-29T11:00:00Z").ok());
    }
    const std::string text = to_text(g);
    auto back = record_from_text(text);
    ASSERT_TRUE(back.ok()) << "seed " << seed << ": " << back.error() << "\n" << text;
    EXPECT_EQ(*back, g) << "seed " << seed;
    EXPECT_EQ(back->current(), g.current()) << "seed " << seed;
    EXPECT_EQ(to_text(*back), text);
    // JSON lines: the setup, then one line per action of the current line.
    const auto lines = record_json_lines(g);
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(g.ply()) + 1);
    EXPECT_EQ(lines[0]["kind"], "setup");
    EXPECT_EQ(lines[0]["events"].size(), g.setup().events().size());
    if (g.ply() > 0) {
      EXPECT_EQ(lines[1]["ply"], 1);
      auto a = action_from_json(lines[1]["action"], *g.start_position());
      ASSERT_TRUE(a.ok());
      EXPECT_EQ(*a, g.entries()[static_cast<std::size_t>(g.line_entries()[0])].action);
    }
  }
}

TEST(GameRecord, ImportRejectsRecordsThatDoNotReplay) {
  const std::string text = to_text(scripted());
  struct Case {
    std::string from, to, error;
  };
  const Case cases[] = {
      {"(attack 2 vs armor 2: defeated)", "(attack 2 vs armor 2: failed, both -1)", "but the replay gives"},
      {"3. red Knight f2-g4", "3. blue Knight f2-g4", "out of turn"},
      {"3. red Knight f2-g4", "3. red Knight f2-f6", "cannot reach"},
      {"3. red Knight f2-g4", "4. red Knight f2-g4", "expected ply 3"},
      {"3. red Knight f2-g4", "3. red Wizard f2-g4", "unknown unit"},
      {"takeback 5", "takeback 4", "the last ply is 5"},
      {"[Ruleset \"hexdice\"]", "[Ruleset \"chess\"]", "is not hexdice"},
      {"{the Infantry", "{the Infantry (never closed", ""},
  };
  for (const auto& c : cases) {
    std::string t = text;
    const auto at = t.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    t.replace(at, c.from.size(), c.to);
    if (c.error.empty()) t.erase(t.rfind('}'));  // unclosed comment
    auto r = record_from_text(t);
    ASSERT_FALSE(r.ok()) << c.to;
    EXPECT_TRUE(contains(r.error(), c.error)) << r.error();
  }
  // Reroll takeback in a text record is refused like in the live game.
  std::string t = text;
  t.insert(t.find("5. red Knight g4 guards"), "takeback 4\n");
  auto r = record_from_text(t);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error(), "a reroll can never be taken back")) << r.error();
}

}  // namespace
}  // namespace hexdice

namespace hexdice {
namespace {

TEST(GameRecordText, HeaderTagsSurviveQuotesBackslashesAndNewlines) {
  auto made = GameRecord::from_position(start_from(kSmall));
  ASSERT_TRUE(made.ok());
  GameRecord g = std::move(made).value();
  g.set_event("Club night \"A\"\nround 2");
  g.set_site("C:\\games\\n-room");
  ASSERT_TRUE(g.set_names({"Ann \"the\" Archer", "Bo\\b"}).ok());
  ASSERT_TRUE(g.annotate("a {brace} and a \\ backslash\nover two lines").ok());
  const std::string text = to_text(g);
  EXPECT_TRUE(contains(text, "[Event \"Club night \\\"A\\\"\\nround 2\"]")) << text;
  auto back = record_from_text(text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(*back, g);
}

TEST(GameRecordText, PlayerIdsAreColourNames) {
  Position p = start_from(R"({"players":[{"id":"red team","corner":"N"},{"id":"blue","corner":"S"}],"to_move":"red team"})");
  auto r = GameRecord::from_position(p);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error(), "must be a colour name")) << r.error();
}

}  // namespace
}  // namespace hexdice

// ---- Scenario steps: what a solo game's record holds (docs/scenarios.md) -------------------

namespace hexdice {
namespace {

// red Infantry one step from blue's base (f11), red Knight f2; blue Archer f7, blue
// Infantry at [-2, 3]; red to move.
const char* kNearBase = R"({"radius":5,"players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],
  "to_move":"red","units":[{"q":0,"r":-4,"owner":"red","face":3},{"q":0,"r":3,"owner":"red","face":1},
  {"q":0,"r":1,"owner":"blue","face":2},{"q":-2,"r":3,"owner":"blue","face":1}]})";

// The legal action of the player to move that ends on `cell`.
Action reaching(const Position& pos, int cell) {
  std::vector<Action> acts;
  legal_actions(pos, acts);
  for (const Action& a : acts)
    if (a.type == ActionType::Move && a.target == cell) return a;
  ADD_FAILURE() << "no legal move reaches " << pos.board().name(cell);
  return acts.front();
}

// A solo record with every kind of scenario step: a pass, a die placed with tokens and
// guard, the same side again, a base capture the scenario does not count.
GameRecord solo_game() {
  const Position start = start_from(kNearBase);
  RecordHeader h;
  h.event = "solo: Test";
  h.names = {"enemy", "heroes"};
  auto r = GameRecord::from_position(start, h, RecordMode::Solo);
  EXPECT_TRUE(r.ok());
  GameRecord g = std::move(r).value();
  const Board& b = start.board();
  const int blue_base = g.current().base_cell(1);
  EXPECT_TRUE(g.add_scenario_step(RecordEntry::pass(0)).ok());  // red's turn skipped
  EXPECT_TRUE(g.add_action(act(g.current(), ActionType::Guard, b.name(b.index(Hex{-2, 3})).c_str())).ok());
  EXPECT_TRUE(g.add_scenario_step(RecordEntry::place(0, b.index(*b.parse_name("b1")), 5, 2, true)).ok());
  EXPECT_TRUE(g.annotate("group activation: red acts twice").ok());
  EXPECT_TRUE(g.add_action(reaching(g.current(), blue_base)).ok());  // red holds blue's base: the rules end the game
  EXPECT_TRUE(g.current().game_over());
  EXPECT_TRUE(g.add_scenario_step(RecordEntry::rule(kRuleBaseCaptureOff)).ok());
  EXPECT_TRUE(g.add_scenario_step(RecordEntry::again(0)).ok());
  EXPECT_TRUE(g.add_action(act(g.current(), ActionType::Guard, "f2")).ok());
  // red still holds blue's base: by the rules each red action wins again.
  EXPECT_TRUE(g.current().game_over());
  EXPECT_TRUE(g.add_scenario_step(RecordEntry::rule(kRuleBaseCaptureOff)).ok());
  return g;
}

TEST(GameRecordSolo, ScenarioStepsChangeThePositionAndRoundTripThroughTheText) {
  GameRecord g = solo_game();
  const Position& cur = g.current();
  const Board& b = cur.board();
  EXPECT_FALSE(cur.game_over()) << "the base capture is not counted";
  EXPECT_EQ(cur.to_move(), 1) << "red acted twice in a row, then blue";
  const Piece& placed = cur.at(b.index(*b.parse_name("b1")));
  EXPECT_EQ(placed.owner, 0);
  EXPECT_EQ(placed.face, 5);
  EXPECT_EQ(placed.tokens, 2);
  EXPECT_TRUE(placed.guard);
  EXPECT_EQ(g.ply(), 3) << "scenario steps are not plies";
  const std::string text = to_text(g);
  EXPECT_TRUE(contains(text, "[Mode \"solo\"]")) << text;
  EXPECT_TRUE(contains(text, "\npass red\n")) << text;
  EXPECT_TRUE(contains(text, "\nplace red Tanker b1 tokens 2 guarded\n")) << text;
  EXPECT_TRUE(contains(text, "\nrule base_capture_off\nagain red\n3. red Knight f2 guards")) << text;
  auto back = record_from_text(text);
  ASSERT_TRUE(back.ok()) << back.error() << "\n" << text;
  EXPECT_EQ(*back, g);
  EXPECT_TRUE(back->current() == g.current());
  EXPECT_EQ(to_text(*back), text);
  // Replaying to any entry goes through the steps.
  for (int i = 0; i < static_cast<int>(g.entries().size()); ++i) {
    auto p = g.position_after_entry(i);
    ASSERT_TRUE(p.ok()) << p.error();
    if (g.entries()[static_cast<std::size_t>(i)].kind == EntryKind::Pass) {
      EXPECT_EQ(p->to_move(), 1);
    }
  }
  EXPECT_TRUE(*g.position_after_entry(static_cast<int>(g.entries().size()) - 1) == g.current());
  // JSON lines carry the steps in their order, with the player by id.
  const auto lines = record_json_lines(g);
  EXPECT_EQ(lines[0]["mode"], "solo");
  std::vector<std::string> kinds;
  for (std::size_t i = 1; i < lines.size(); ++i) kinds.push_back(lines[i]["kind"]);
  EXPECT_EQ(kinds, (std::vector<std::string>{"pass", "action", "place", "action", "rule", "again", "action", "rule"}));
  EXPECT_EQ(lines[3]["player"], "red");
  EXPECT_EQ(lines[3]["face"], 5);
  auto step = scenario_step_from_json(lines[3], 0, b);
  ASSERT_TRUE(step.ok()) << step.error();
  EXPECT_EQ(step->cell, b.index(*b.parse_name("b1")));
  EXPECT_EQ(step->tokens, 2);
  // Malformed step JSON (a damaged database row) is an error, never an exception.
  for (const char* bad : {R"([1])", R"({"kind":"dance"})", R"({"kind":"action"})", R"({"kind":"rule"})",
                          R"({"kind":"place","face":2})", R"({"kind":"place","face":2,"cell":[0,9]})",
                          R"({"kind":"place","face":2,"cell":[0,0],"tokens":"x"})",
                          R"({"kind":"place","face":2,"cell":[0,0],"guard":1})"})
    EXPECT_FALSE(scenario_step_from_json(Json::parse(bad), 0, b).ok()) << bad;
}

TEST(GameRecordSolo, ATwoPlayerGameRefusesEveryScenarioStep) {
  const Position start = start_from(kNearBase);
  const Board& b = start.board();
  auto from_pos = GameRecord::from_position(start);
  ASSERT_TRUE(from_pos.ok());
  GameRecord with_setup = random_game(3, 4);
  for (GameRecord* g : {&*from_pos, &with_setup}) {
    const GameRecord before = *g;
    for (const RecordEntry& e : {RecordEntry::pass(g->current().to_move()), RecordEntry::again(1 - g->current().to_move()),
                                 RecordEntry::place(0, b.index(*b.parse_name("b1")), 2),
                                 RecordEntry::rule(kRuleBaseCaptureOff)}) {
      Status s = g->add_scenario_step(e);
      ASSERT_FALSE(s.ok()) << entry_kind_name(e.kind);
      EXPECT_TRUE(contains(s.error(), "two-player Hex Dice game")) << s.error();
    }
    EXPECT_EQ(*g, before);
  }
  // ... and so does its text record: a step line without [Mode "solo"].
  std::string text = to_text(solo_game());
  text.erase(text.find("[Mode \"solo\"]\n"), std::string("[Mode \"solo\"]\n").size());
  auto r = record_from_text(text);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error(), "pass: refused: this is a two-player Hex Dice game")) << r.error();
  EXPECT_TRUE(contains(r.error(), "record line ")) << r.error();
}

TEST(GameRecordSolo, StepsAreCheckedAgainstThePosition) {
  GameRecord g = solo_game();
  const GameRecord before = g;
  const Board& b = g.current().board();
  const int occupied = b.index(*b.parse_name("f2"));
  struct Case {
    RecordEntry e;
    const char* error;
  };
  const Case cases[] = {
      {RecordEntry::pass(0), "red cannot pass: it is blue's turn"},
      {RecordEntry::again(1), "blue is already to move"},
      {RecordEntry::place(0, occupied, 3), "two units on one cell"},
      {RecordEntry::place(0, b.index(*b.parse_name("c2")), 7), "a unit face is 1-6"},
      {RecordEntry::place(5, b.index(*b.parse_name("c2")), 3), "no such player"},
      {RecordEntry::rule(kRuleBaseCaptureOff), "nobody has won"},
      {RecordEntry::rule("gravity_off"), "unknown scenario rule"},
  };
  for (const auto& c : cases) {
    Status s = g.add_scenario_step(c.e);
    ASSERT_FALSE(s.ok()) << c.error;
    EXPECT_TRUE(contains(s.error(), c.error)) << s.error();
  }
  EXPECT_EQ(g, before);
  // A takeback cannot undo across a step; after the next action it can undo that one.
  GameRecord t = before;
  ASSERT_TRUE(t.add_scenario_step(RecordEntry::pass(1)).ok());
  Status s = t.takeback();
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "a scenario step (rule) follows ply 3")) << s.error();
  ASSERT_TRUE(t.add_action(act(t.current(), ActionType::Guard, "f2")).ok());
  EXPECT_TRUE(t.takeback().ok());
  // Annihilation is no base capture: base_capture_off is refused, and once over, nothing goes.
  const Position lone = start_from(R"({"radius":5,"players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],
    "to_move":"red","units":[{"q":0,"r":-4,"owner":"red","face":3},{"q":0,"r":-1,"owner":"red","face":1},
    {"q":1,"r":-1,"owner":"red","face":4},{"q":0,"r":0,"owner":"blue","face":2}]})");
  auto lr = GameRecord::from_position(lone, {}, RecordMode::Solo);
  ASSERT_TRUE(lr.ok());
  std::vector<Action> acts;
  legal_actions(lone, acts);
  bool took = false;
  for (const Action& a : acts) {
    auto after = apply(lone, a);
    if (!took && after && after->position.winner() == 0 && after->position.unit_count(1) == 0) took = lr->add_action(a).ok();
  }
  ASSERT_TRUE(took) << "some red action defeats the last blue unit";
  ASSERT_TRUE(lr->current().game_over());
  s = lr->add_scenario_step(RecordEntry::rule(kRuleBaseCaptureOff));
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "by annihilation")) << s.error();
  s = lr->add_scenario_step(RecordEntry::pass(1));
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "the game is over")) << s.error();
}


// A solo game ended by its scenario (reach a hex, defeat a target, a turn limit) records
// that result, with the scenario's text, and its text record round-trips it; a two-player
// game refuses it, and so does its text record.
TEST(GameRecordSolo, AScenarioResultRoundTripsThroughTheText) {
  for (const std::string winner : {"red", ""}) {
    SCOPED_TRACE(winner.empty() ? "draw" : winner);
    GameRecord g = solo_game();
    const std::string what = winner.empty() ? "the turn limit (8 rounds) has passed: draw"
                                            : "heroes win: a hero reached f10 \"the gate\"";
    ASSERT_TRUE(g.finish(GameResult{ResultReason::Scenario, winner, what}, "2026-12-01T08:00:00Z").ok());
    EXPECT_TRUE(g.finished());
    const std::string text = to_text(g);
    EXPECT_TRUE(contains(text, "[Result \"" + (winner.empty() ? std::string("draw") : winner) + "\"]")) << text;
    EXPECT_TRUE(contains(text, "[Termination \"scenario: " +
                                   std::string(winner.empty() ? what : "heroes win: a hero reached f10 \\\"the gate\\\"") +
                                   "\"]"))
        << text;
    auto back = record_from_text(text);
    ASSERT_TRUE(back.ok()) << back.error() << "\n" << text;
    EXPECT_EQ(back->header().result, g.header().result);
    EXPECT_EQ(back->header().result.detail, what);
    EXPECT_EQ(*back, g);
    EXPECT_EQ(to_text(*back), text);
    const Json j = to_json(g.header().result);
    EXPECT_EQ(j["reason"], "scenario");
    EXPECT_EQ(j["detail"], what);
    EXPECT_EQ(j["winner"], winner.empty() ? Json(nullptr) : Json(winner));
  }
  // What finish refuses, changing nothing.
  GameRecord g = solo_game();
  const GameRecord before = g;
  for (const auto& [r, why] : std::vector<std::pair<GameResult, std::string>>{
           {{ResultReason::Scenario, "red", ""}, "needs its text"},
           {{ResultReason::Scenario, "green", "heroes win"}, "must be a player of this game"},
           {{ResultReason::Scenario, "red", "two\nlines"}, "one line"}}) {
    Status s = g.finish(r, "");
    ASSERT_FALSE(s.ok()) << why;
    EXPECT_TRUE(contains(s.error(), why)) << s.error();
  }
  EXPECT_EQ(g, before);
  EXPECT_FALSE(record_from_text(std::regex_replace(to_text(g), std::regex(R"(\[Result "\*"\])"),
                                                   "[Result \"red\"]\n[Termination \"scenario: \"]"))
                   .ok())
      << "a scenario termination needs its text";
  // A two-player game: refused by finish and in its text record.
  auto two = GameRecord::from_position(start_from(kNearBase));
  ASSERT_TRUE(two.ok());
  Status s = two->finish(GameResult{ResultReason::Scenario, "red", "heroes win: a hero reached f10"}, "");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "two-player Hex Dice game")) << s.error();
  EXPECT_FALSE(two->finished());
  const std::string text = std::regex_replace(to_text(*two), std::regex(R"(\[Result "\*"\])"),
                                              "[Result \"red\"]\n[Termination \"scenario: heroes win\"]");
  ASSERT_TRUE(contains(text, "scenario: heroes win")) << text;
  auto r = record_from_text(text);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error(), "two-player Hex Dice game")) << r.error();
}

}  // namespace
}  // namespace hexdice
