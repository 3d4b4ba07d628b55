// GameSetup phase (rules.md sections 2 and 3), table-driven per rule.
#include <gtest/gtest.h>

#include "core/setup.h"

namespace hexdice {
namespace {

Player P(const char* id, const char* corner) { return Player{id, dir_from_name(corner), false}; }

SetupConfig two_player(int dice = 6) {
  SetupConfig c;
  c.players = {P("red", "N"), P("blue", "S")};
  c.dice_per_player = dice;
  return c;
}

GameSetup make(const SetupConfig& c) {
  auto s = GameSetup::create(c);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
  return std::move(s).value();
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Runs a 2-player setup up to (not including) the given phase.
GameSetup through(SetupPhase until, int dice = 6) {
  GameSetup s = make(two_player(dice));
  std::vector<int> red(static_cast<std::size_t>(dice)), blue(static_cast<std::size_t>(dice));
  for (int i = 0; i < dice; ++i) {
    red[static_cast<std::size_t>(i)] = i % 6 + 1;
    blue[static_cast<std::size_t>(i)] = 6 - i % 6;
  }
  if (until == SetupPhase::Roll) return s;
  EXPECT_TRUE(s.apply(SetupEvent::roll("red", red)));
  EXPECT_TRUE(s.apply(SetupEvent::roll("blue", blue)));
  if (until == SetupPhase::Reroll) return s;
  EXPECT_TRUE(s.apply(SetupEvent::decline("red")));
  EXPECT_TRUE(s.apply(SetupEvent::decline("blue")));
  if (until == SetupPhase::Deploy) return s;
  for (int p = 0; p < 2; ++p) {
    const auto zone = s.board().deployment_zone(p);
    const auto army = s.army(p);
    for (std::size_t i = 0; i < army.size(); ++i)
      EXPECT_TRUE(s.apply(SetupEvent::place(s.board().player(p).id, army[i], zone[i])));
  }
  return s;
}

// ---- rules.md section 2: dice counts per player count --------------------------------

struct CountCase {
  int players;
  int dice;
  bool ok;
};

TEST(RulesSection2_DiceCount, TableOfPlayerAndDiceCounts) {
  const CountCase cases[] = {
      {2, 6, true},  {2, 8, true},  {2, 7, false}, {2, 4, false}, {3, 6, true},  {3, 5, false},
      {4, 4, true},  {4, 5, true},  {4, 6, false}, {6, 3, true},  {6, 4, true},  {6, 5, false},
  };
  const char* corners6[] = {"N", "NE", "SE", "S", "SW", "NW"};
  const char* corners3[] = {"N", "SE", "SW"};
  const char* corners4[] = {"NE", "SE", "SW", "NW"};
  for (const auto& c : cases) {
    SetupConfig cfg;
    cfg.dice_per_player = c.dice;
    for (int i = 0; i < c.players; ++i) {
      const char* corner = c.players == 2 ? (i ? "S" : "N")
                           : c.players == 3 ? corners3[i]
                           : c.players == 4 ? corners4[i]
                                            : corners6[i];
      cfg.players.push_back(Player{"p" + std::to_string(i), dir_from_name(corner), false});
    }
    Status s = validate_config(cfg);
    EXPECT_EQ(s.ok(), c.ok) << c.players << " players, " << c.dice << " dice";
    if (!c.ok) EXPECT_TRUE(contains(s.error(), "rules.md section 2")) << s.error();
    // The house rule lifts the table (up to the zone size, 9 cells).
    cfg.any_dice_count = true;
    EXPECT_TRUE(validate_config(cfg).ok()) << c.players << " players, " << c.dice << " dice, any_dice_count";
  }
}

TEST(RulesSection2_DiceCount, HouseRuleStillBoundedByZone) {
  SetupConfig c = two_player(10);
  c.any_dice_count = true;
  Status s = validate_config(c);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "1 to 9")) << s.error();
}

TEST(RulesSection2_DiceCount, PlayerCountAndCornersChecked) {
  SetupConfig c;
  c.players = {P("red", "N")};
  EXPECT_FALSE(validate_config(c).ok());
  c.players = {P("red", "N"), P("blue", "N")};
  EXPECT_FALSE(validate_config(c).ok());
  c.players = {P("red", "N"), P("red", "S")};
  EXPECT_FALSE(validate_config(c).ok());
  c.players = {P("red", "NE"), P("blue", "SW")};  // the referee may choose other corners
  EXPECT_TRUE(validate_config(c).ok());
}

// ---- rules.md section 3.1: the army roll ----------------------------------------------

TEST(RulesSection3_1_ArmyRoll, EachPlayerRollsAllDiceOnce) {
  GameSetup s = make(two_player());
  EXPECT_EQ(s.phase(), SetupPhase::Roll);
  Status few = s.apply(SetupEvent::roll("red", {1, 2, 3}));
  ASSERT_FALSE(few.ok());
  EXPECT_TRUE(contains(few.error(), "rolls all 6")) << few.error();
  EXPECT_FALSE(s.apply(SetupEvent::roll("red", {1, 2, 3, 4, 5, 7})).ok());
  EXPECT_FALSE(s.apply(SetupEvent::roll("green", {1, 2, 3, 4, 5, 6})).ok());
  ASSERT_TRUE(s.apply(SetupEvent::roll("red", {1, 2, 3, 4, 5, 6})).ok());
  Status twice = s.apply(SetupEvent::roll("red", {6, 6, 6, 6, 6, 6}));
  ASSERT_FALSE(twice.ok());
  EXPECT_TRUE(contains(twice.error(), "section 3.1")) << twice.error();
  EXPECT_EQ(s.army(0), (std::vector<int>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(s.phase(), SetupPhase::Roll);
  EXPECT_EQ(s.waiting_for(), std::vector<int>{1});
}

TEST(RulesSection3_1_ArmyRoll, NoRerollBeforeEveryoneRolled) {
  GameSetup s = make(two_player());
  ASSERT_TRUE(s.apply(SetupEvent::roll("red", {1, 2, 3, 4, 5, 6})).ok());
  Status e = s.apply(SetupEvent::reroll("red", {1}, {2}));
  ASSERT_FALSE(e.ok());
  EXPECT_TRUE(contains(e.error(), "before any reroll")) << e.error();
  EXPECT_EQ(s.events().size(), 1u);
}

// ---- rules.md section 3.2: reroll allowance floor(n / 3), once --------------------------

struct AllowanceCase {
  int players;
  int dice;
  int allowance;
};

TEST(RulesSection3_2_Reroll, AllowanceIsFloorOfDiceOverThree) {
  const AllowanceCase cases[] = {{2, 6, 2}, {2, 8, 2}, {4, 5, 1}, {4, 4, 1}, {6, 3, 1}};
  const char* corners[] = {"N", "NE", "SE", "S", "SW", "NW"};
  for (const auto& c : cases) {
    EXPECT_EQ(reroll_allowance(c.dice), c.allowance);
    SetupConfig cfg;
    cfg.dice_per_player = c.dice;
    const int step = 6 / c.players;
    for (int i = 0; i < c.players; ++i)
      cfg.players.push_back(Player{"p" + std::to_string(i), dir_from_name(corners[(i * step + 1) % 6]), false});
    GameSetup s = make(cfg);
    for (int i = 0; i < c.players; ++i)
      ASSERT_TRUE(s.apply(SetupEvent::roll("p" + std::to_string(i), std::vector<int>(static_cast<std::size_t>(c.dice), 1))).ok());
    const std::vector<int> too_many(static_cast<std::size_t>(c.allowance + 1), 1);
    Status over = s.apply(SetupEvent::reroll("p0", too_many, std::vector<int>(too_many.size(), 4)));
    ASSERT_FALSE(over.ok()) << c.dice;
    EXPECT_TRUE(contains(over.error(), "reroll allowance is " + std::to_string(c.allowance) + " (rules.md section 3.2"))
        << over.error();
    const std::vector<int> exact(static_cast<std::size_t>(c.allowance), 1);
    ASSERT_TRUE(s.apply(SetupEvent::reroll("p0", exact, std::vector<int>(exact.size(), 4))).ok()) << c.dice;
    EXPECT_EQ(std::count(s.army(0).begin(), s.army(0).end(), 4), c.allowance);
  }
}

TEST(RulesSection3_2_Reroll, OnceOnlyAndOnlyDiceTheArmyHas) {
  GameSetup s = through(SetupPhase::Reroll);  // red 1..6, blue 6..1
  Status missing = s.apply(SetupEvent::reroll("red", {6, 6}, {1, 1}));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(contains(missing.error(), "no die showing 6")) << missing.error();
  Status mismatched = s.apply(SetupEvent::reroll("red", {6, 5}, {1}));
  EXPECT_FALSE(mismatched.ok());
  ASSERT_TRUE(s.apply(SetupEvent::reroll("red", {6, 5}, {2, 2})).ok());
  EXPECT_EQ(s.army(0), (std::vector<int>{1, 2, 3, 4, 2, 2}));  // the reroll result stands, in place
  Status again = s.apply(SetupEvent::reroll("red", {1}, {6}));
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(contains(again.error(), "allowed once")) << again.error();
  EXPECT_EQ(s.phase(), SetupPhase::Reroll);
  ASSERT_TRUE(s.apply(SetupEvent::decline("blue")).ok());  // a player may decline
  EXPECT_EQ(s.army(1), (std::vector<int>{6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(s.phase(), SetupPhase::Deploy);
  Status late = s.apply(SetupEvent::decline("blue"));
  EXPECT_FALSE(late.ok());
}

// ---- rules.md section 3.3: deployment --------------------------------------------------

TEST(RulesSection3_3_Deploy, OwnZoneOneUnitPerHexEachDieOnceFaceUnchanged) {
  GameSetup s = through(SetupPhase::Deploy);  // red 1..6 at N, blue 6..1 at S
  struct Case {
    SetupEvent e;
    const char* error;  // nullptr = accepted
  };
  const Board& b = s.board().board();
  auto cell = [&](const char* n) { return *b.parse_name(n); };
  const Case cases[] = {
      {SetupEvent::place("red", 3, cell("f2")), nullptr},
      {SetupEvent::place("red", 1, cell("f2")), "one unit per hex"},
      {SetupEvent::place("red", 3, cell("f3")), "no unplaced die showing 3"},  // only one 3 in the army
      {SetupEvent::place("red", 1, cell("f6")), "outside red's deployment zone"},
      {SetupEvent::place("red", 1, cell("f10")), "outside red's deployment zone"},
      {SetupEvent::place("blue", 6, cell("f2")), "outside blue's deployment zone"},
      {SetupEvent::place("red", 1, Hex{9, 9}), "off the map"},
      {SetupEvent::place("red", 1, cell("f3")), nullptr},  // distance 2 from the N corner
      {SetupEvent::roll("red", {1, 2, 3, 4, 5, 6}), "already rolled"},
      {SetupEvent::first_roll("red", 6), "deploy phase"},
  };
  for (const auto& c : cases) {
    const auto before = s.events().size();
    Status st = s.apply(c.e);
    if (!c.error) {
      EXPECT_TRUE(st.ok()) << st.error();
      EXPECT_EQ(s.events().size(), before + 1);
    } else {
      ASSERT_FALSE(st.ok()) << c.error;
      EXPECT_TRUE(contains(st.error(), c.error)) << st.error();
      EXPECT_EQ(s.events().size(), before);
    }
  }
  // Placed face unchanged on the board; what is left to place.
  EXPECT_EQ(s.board().at(cell("f2"))->face, 3);
  EXPECT_EQ(s.unplaced(0), (std::vector<int>{2, 4, 5, 6}));
  EXPECT_FALSE(s.start_position().ok());
}

TEST(RulesSection3_3_Deploy, ZoneIsNineCellsWithinTwoOfTheCorner) {
  GameSetup s = through(SetupPhase::Deploy);
  const auto zone = s.board().deployment_zone(0);
  EXPECT_EQ(zone.size(), 9u);
  for (Hex h : zone) EXPECT_LE(distance(h, s.board().corner_hex(0)), 2);
}

// ---- rules.md section 3.4: first player ------------------------------------------------

TEST(RulesSection3_4_FirstPlayer, HighestFirstTiesRollAgainAmongTheTied) {
  GameSetup s = through(SetupPhase::FirstPlayer);
  ASSERT_EQ(s.phase(), SetupPhase::FirstPlayer);
  ASSERT_TRUE(s.apply(SetupEvent::first_roll("red", 5)).ok());
  EXPECT_FALSE(s.apply(SetupEvent::first_roll("red", 6)).ok());  // once per round
  ASSERT_TRUE(s.apply(SetupEvent::first_roll("blue", 5)).ok());  // tie: roll again
  EXPECT_EQ(s.phase(), SetupPhase::FirstPlayer);
  EXPECT_EQ(s.contenders().size(), 2u);
  ASSERT_TRUE(s.apply(SetupEvent::first_roll("blue", 2)).ok());
  ASSERT_TRUE(s.apply(SetupEvent::first_roll("red", 1)).ok());
  ASSERT_EQ(s.phase(), SetupPhase::Done);
  EXPECT_EQ(s.first_player(), 1);
  auto pos = s.start_position();
  ASSERT_TRUE(pos.ok()) << pos.error();
  EXPECT_EQ(pos->to_move(), 1);
  EXPECT_EQ(pos->unit_count(0), 6);
  EXPECT_EQ(pos->unit_count(1), 6);
  EXPECT_FALSE(s.apply(SetupEvent::first_roll("red", 6)).ok());
}

TEST(RulesSection3_4_FirstPlayer, OnlyTiedPlayersRollAgain) {
  SetupConfig c;
  c.players = {P("a", "NE"), P("b", "SE"), P("c", "SW"), P("d", "NW")};
  c.dice_per_player = 4;
  GameSetup s = make(c);
  for (const char* p : {"a", "b", "c", "d"}) ASSERT_TRUE(s.apply(SetupEvent::roll(p, {1, 2, 3, 4})).ok());
  for (const char* p : {"a", "b", "c", "d"}) ASSERT_TRUE(s.apply(SetupEvent::decline(p)).ok());
  for (int p = 0; p < 4; ++p) {
    const auto zone = s.board().deployment_zone(p);
    for (int f = 1; f <= 4; ++f)
      ASSERT_TRUE(s.apply(SetupEvent::place(s.board().player(p).id, f, zone[static_cast<std::size_t>(f)])).ok());
  }
  ASSERT_EQ(s.phase(), SetupPhase::FirstPlayer);
  for (auto [p, f] : std::vector<std::pair<const char*, int>>{{"a", 6}, {"b", 3}, {"c", 6}, {"d", 6}})
    ASSERT_TRUE(s.apply(SetupEvent::first_roll(p, f)).ok());
  EXPECT_EQ(s.contenders(), (std::vector<int>{0, 2, 3}));
  Status out = s.apply(SetupEvent::first_roll("b", 6));
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(contains(out.error(), "only the tied players roll again (rules.md section 3.4)")) << out.error();
  for (auto [p, f] : std::vector<std::pair<const char*, int>>{{"a", 2}, {"c", 4}, {"d", 1}})
    ASSERT_TRUE(s.apply(SetupEvent::first_roll(p, f)).ok());
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.start_position()->to_move(), 2);
}

// ---- JSON ---------------------------------------------------------------------------------

TEST(SetupJson, EventsAndConfigRoundTrip) {
  const SetupEvent events[] = {SetupEvent::roll("red", {1, 2, 3, 4, 5, 6}), SetupEvent::reroll("red", {6, 5}, {2, 1}),
                               SetupEvent::decline("blue"), SetupEvent::place("red", 3, Hex{0, -4}),
                               SetupEvent::first_roll("blue", 4)};
  for (const auto& e : events) {
    auto back = setup_event_from_json(Json::parse(to_json(e).dump()));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, e) << to_json(e).dump();
  }
  EXPECT_EQ(to_json(events[3]).dump(), R"({"cell":[0,-4],"face":3,"player":"red","type":"place"})");
  SetupConfig c = two_player(8);
  c.any_dice_count = true;
  c.house_rules.merge_sum = true;
  auto back = setup_config_from_json(to_json(c));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(*back, c);
}

TEST(SetupJson, MalformedEventsNameTheField) {
  const char* bad[] = {R"([1])", R"({"type":"roll"})", R"({"type":"roll","player":"red","faces":[0]})",
                       R"({"type":"place","player":"red","face":3})", R"({"type":"dance","player":"red"})",
                       R"({"type":"first_roll","player":"red","face":"6"})"};
  for (const char* t : bad) {
    auto r = setup_event_from_json(Json::parse(t));
    EXPECT_FALSE(r.ok()) << t;
    if (!r.ok()) EXPECT_TRUE(contains(r.error(), "setup event")) << r.error();
  }
}

}  // namespace
}  // namespace hexdice
