// Wizard Hex rules (docs/rules-wizardhex.md): table-driven per section, seeded random
// playouts (no illegal state, JSON round trip) and legal-move counts from the starts.
#include <gtest/gtest.h>

#include <random>

#include "core/ruleset.h"
#include "core/wizardhex/wizardhex.h"

namespace hexdice::wizardhex {
namespace {

const Board& B() { return State::board(); }
int cell(int q, int r) { return B().index(Hex{q, r}); }

// A two-wizard position after both first turns (two moves a turn), tokens as given.
struct T {
  int q, r;
  int element;
  int level;
};
State two_wizards(int a, int b, std::vector<T> tokens, int moves_left = 2) {
  auto s = start({Wizard{"a", a}, Wizard{"b", b}});
  EXPECT_TRUE(s.ok());
  State st = *s;
  for (auto& z : st.wizards) z.played = true;
  st.first_turn = false;
  st.moves_left = moves_left;
  st.to_move = st.wizard_index("a");
  for (const T& t : tokens) st.cells[static_cast<std::size_t>(cell(t.q, t.r))] = Token{static_cast<std::int8_t>(t.element), static_cast<std::uint8_t>(t.level)};
  for (auto& z : st.wizards)
    if (st.count_cells(z.element) > 0) z.entered = true;
  return st;
}

TEST(WizardHexSection2, SeatsAlliesMatchTheSeedExamples) {
  // Across: Earth vs Wind share nothing; Earth's allies are Fire and Ice, Wind's Lightning and Water.
  EXPECT_EQ(element_distance(kEarth, kWind), 3);
  EXPECT_EQ(element_distance(kEarth, kFire), 1);
  EXPECT_EQ(element_distance(kEarth, kIce), 1);
  EXPECT_EQ(element_distance(kWind, kLightning), 1);
  EXPECT_EQ(element_distance(kWind, kWater), 1);
  // Asymmetric: Lightning and Water share Wind; Earth is furthest from both.
  EXPECT_EQ(element_distance(kLightning, kWind), 1);
  EXPECT_EQ(element_distance(kWater, kWind), 1);
  EXPECT_EQ(element_distance(kEarth, kLightning), 2);
  EXPECT_EQ(element_distance(kEarth, kWater), 2);
  // Adjacent: Fire and Earth are allies and may not attack each other.
  EXPECT_FALSE(may_attack(kFire, kEarth));
  EXPECT_FALSE(may_attack(kFire, kFire));
  EXPECT_TRUE(may_attack(kLightning, kEarth));  // an ally may attack the other ally (Fire's view)
}

TEST(WizardHexSection2, NineteenSpacesAndThreeStartingSpacesPerSide) {
  EXPECT_EQ(B().size(), kCells);
  for (int seat = 0; seat < kNumElements; ++seat) {
    const auto sp = starting_spaces(seat);
    for (int c : sp) {
      ASSERT_NE(c, kNoCell);
      EXPECT_EQ(B().hex(c).length(), kRadius) << "starting spaces lie on the rim";
    }
    EXPECT_EQ(distance(B().hex(sp[0]), B().hex(sp[1])), 1);
    EXPECT_EQ(distance(B().hex(sp[1]), B().hex(sp[2])), 1);
    // Neighbouring seats share a corner space.
    EXPECT_EQ(sp[2], starting_spaces((seat + 1) % kNumElements)[0]);
  }
}

TEST(WizardHexSection2, StartRejectsBadWizardLists) {
  EXPECT_FALSE(start({}).ok());
  EXPECT_FALSE(start({Wizard{"a", kFire}, Wizard{"b", kFire}}).ok());
  EXPECT_FALSE(start({Wizard{"a", kFire}, Wizard{"a", kIce}}).ok());
  EXPECT_TRUE(start({Wizard{"solo", kFire}}).ok());
}

TEST(WizardHexSection5, FirstTurnIsOneMoveOntoAStartingSpace) {
  auto s = start({Wizard{"green", kEarth}, Wizard{"black", kWind}});
  ASSERT_TRUE(s.ok());
  const auto moves = legal_actions(*s);
  // Three elements (Ice, Earth, Fire) onto the three starting spaces of Earth's side.
  ASSERT_EQ(moves.size(), 9u);
  const auto sp = starting_spaces(kEarth);
  for (const Action& a : moves) {
    EXPECT_EQ(a.type, Type::Expand);
    EXPECT_NE(std::find(sp.begin(), sp.end(), a.cell), sp.end());
  }
  auto r = apply(*s, moves.front());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state.wizards[static_cast<std::size_t>(r->state.to_move)].id, "black");
  EXPECT_EQ(r->state.moves_left, 1) << "black's first turn is one move too";
  EXPECT_TRUE(r->state.first_turn);
  // Then green has two moves.
  const auto bm = legal_actions(r->state);
  auto r2 = apply(r->state, bm.front());
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->state.wizards[static_cast<std::size_t>(r2->state.to_move)].id, "green");
  EXPECT_EQ(r2->state.moves_left, 2);
  EXPECT_FALSE(r2->state.first_turn);
  auto r3 = apply(r2->state, legal_actions(r2->state).front());
  ASSERT_TRUE(r3.ok());
  EXPECT_EQ(r3->state.wizards[static_cast<std::size_t>(r3->state.to_move)].id, "green") << "second move of the turn";
  EXPECT_EQ(r3->state.moves_left, 1);
}

TEST(WizardHexSection5, FirstTurnRejectsAnythingButEntering) {
  auto s = start({Wizard{"green", kEarth}, Wizard{"black", kWind}});
  const Status st = validate(*s, Action{Type::Expand, kEarth, static_cast<std::int16_t>(cell(0, 0))});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().find("section 5"), std::string::npos) << st.error();
  EXPECT_NE(validate(*s, Action{Type::Expand, kWind, static_cast<std::int16_t>(starting_spaces(kEarth)[1])}).error().find("section 3"),
            std::string::npos) << "Earth does not control Wind";
}

struct ExpandCase {
  const char* name;
  std::vector<T> tokens;
  int element;
  int q, r;
  bool legal;
};

TEST(WizardHexSection6, ExpandTable) {
  // Wizard "a" plays Earth (seat 1; allies Ice and Fire); "b" plays Wind.
  const std::vector<ExpandCase> cases = {
      {"start space of own side", {}, kFire, starting_spaces(kEarth)[1] >= 0 ? B().hex(starting_spaces(kEarth)[1]).q : 0,
       B().hex(starting_spaces(kEarth)[1]).r, true},
      {"next to same element", {{0, 0, kFire, 1}}, kFire, 0, 1, true},
      {"next to other element only", {{0, 0, kIce, 1}}, kFire, 0, 1, false},
      {"next to same element placed by nobody in particular", {{0, 0, kEarth, 2}}, kEarth, -1, 1, true},
      {"onto an occupied space", {{0, 0, kFire, 1}}, kFire, 0, 0, false},
      {"uncontrolled element", {{0, 0, kWind, 1}}, kWind, 0, 1, false},
      {"isolated open space", {}, kEarth, 0, 0, false},
  };
  for (const auto& c : cases) {
    State s = two_wizards(kEarth, kWind, c.tokens);
    const Action a{Type::Expand, static_cast<std::int8_t>(c.element), static_cast<std::int16_t>(cell(c.q, c.r))};
    EXPECT_EQ(validate(s, a).ok(), c.legal) << c.name;
    const auto moves = legal_actions(s);
    EXPECT_EQ(std::find(moves.begin(), moves.end(), a) != moves.end(), c.legal) << c.name << " (generator agrees)";
  }
}

TEST(WizardHexSection6, StackUpToGoldOnly) {
  State s = two_wizards(kEarth, kWind, {{0, 0, kEarth, 1}, {1, 0, kEarth, 3}, {0, 1, kWind, 1}});
  EXPECT_TRUE(validate(s, Action{Type::Stack, -1, static_cast<std::int16_t>(cell(0, 0))}).ok());
  EXPECT_FALSE(validate(s, Action{Type::Stack, -1, static_cast<std::int16_t>(cell(1, 0))}).ok()) << "already Gold";
  EXPECT_FALSE(validate(s, Action{Type::Stack, -1, static_cast<std::int16_t>(cell(0, 1))}).ok()) << "not controlled";
  auto r = apply(s, Action{Type::Stack, -1, static_cast<std::int16_t>(cell(0, 0))});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state.cells[static_cast<std::size_t>(cell(0, 0))].level, 2);
}

TEST(WizardHexSection2, SupplyLimitsStackAndExpand) {
  State s = two_wizards(kEarth, kWind, {{0, 0, kEarth, 2}});
  s.supply[kEarth] = 2;
  EXPECT_FALSE(validate(s, Action{Type::Stack, -1, static_cast<std::int16_t>(cell(0, 0))}).ok());
  EXPECT_FALSE(validate(s, Action{Type::Expand, kEarth, static_cast<std::int16_t>(cell(0, 1))}).ok());
  s.supply[kEarth] = 3;
  EXPECT_TRUE(validate(s, Action{Type::Stack, -1, static_cast<std::int16_t>(cell(0, 0))}).ok());
}

struct AttackCase {
  const char* name;
  int la, lb;
  bool legal;
  int after_a, after_b;  // levels after (0 = empty); a's element on b when b taken over
  AttackResult result;
};

TEST(WizardHexSection6, AttackOutcomeTable) {
  const std::vector<AttackCase> cases = {
      {"Bronze vs Bronze: both eliminated", 1, 1, true, 0, 0, AttackResult::BothEliminated},
      {"Silver vs Silver: both eliminated", 2, 2, true, 0, 0, AttackResult::BothEliminated},
      {"Silver vs Bronze: weaker out, stronger to Bronze", 2, 1, true, 1, 0, AttackResult::WeakerEliminated},
      {"Bronze vs Silver: attacker out, defender to Bronze", 1, 2, true, 0, 1, AttackResult::WeakerEliminated},
      {"Gold vs Silver: weaker out, Gold to Bronze", 3, 2, true, 1, 0, AttackResult::WeakerEliminated},
      {"Gold vs Bronze: Gold takes over with a Bronze", 3, 1, true, 1, 1, AttackResult::GoldTakesOver},
      {"Bronze vs Gold: Gold cannot be attacked", 1, 3, false, 1, 3, AttackResult::BothEliminated},
  };
  for (const auto& c : cases) {
    // Earth (a) attacks Wind (b) from (0,0) to (0,1).
    State s = two_wizards(kEarth, kWind, {{0, 0, kEarth, c.la}, {0, 1, kWind, c.lb}, {2, -2, kWind, 1}, {-2, 0, kEarth, 1}});
    const Action a{Type::Attack, -1, static_cast<std::int16_t>(cell(0, 0)), static_cast<std::int16_t>(cell(0, 1))};
    auto r = apply(s, a);
    ASSERT_EQ(r.ok(), c.legal) << c.name;
    if (!r.ok()) continue;
    const Token ta = r->state.cells[static_cast<std::size_t>(cell(0, 0))];
    const Token tb = r->state.cells[static_cast<std::size_t>(cell(0, 1))];
    EXPECT_EQ(ta.empty() ? 0 : ta.level, c.after_a) << c.name;
    EXPECT_EQ(tb.empty() ? 0 : tb.level, c.after_b) << c.name;
    if (c.result == AttackResult::GoldTakesOver) EXPECT_EQ(tb.element, kEarth) << c.name;
    if (c.after_b > 0 && c.result != AttackResult::GoldTakesOver) EXPECT_EQ(tb.element, kWind) << c.name;
    EXPECT_EQ(r->outcome.result, c.result) << c.name;
  }
}

TEST(WizardHexSection6, AttackNeedsAdjacencyAndANonAlly) {
  // a = Fire (allies Lightning, Earth); b = Earth (allies Ice, Fire): the Adjacent Challenge.
  State s = two_wizards(kFire, kEarth, {{0, 0, kFire, 1}, {0, 1, kEarth, 1}, {1, 0, kIce, 1}, {-1, 1, kLightning, 1},
                                        {0, -2, kEarth, 1}});
  auto at = [&](int q1, int r1, int q2, int r2) {
    return Action{Type::Attack, -1, static_cast<std::int16_t>(cell(q1, r1)), static_cast<std::int16_t>(cell(q2, r2))};
  };
  EXPECT_FALSE(validate(s, at(0, 0, 0, 1)).ok()) << "Fire may not attack its ally Earth";
  EXPECT_TRUE(validate(s, at(0, 0, 1, 0)).ok()) << "Fire may attack Ice";
  EXPECT_FALSE(validate(s, at(0, 0, 0, -2)).ok()) << "not adjacent";
  EXPECT_TRUE(validate(s, at(-1, 1, 0, 1)).ok()) << "Lightning (Fire's ally) may attack Earth (Fire's other ally)";
  const Status st = validate(s, at(0, 0, 0, 1));
  EXPECT_NE(st.error().find("condition B"), std::string::npos) << st.error();
}

TEST(WizardHexSection7, NoLegalMoveSkipsTheTurn) {
  // The board is full but for one space that only "a" can fill; "b" (Wind) has no token
  // and no open starting space, so after a's first move b is skipped.
  State s = two_wizards(kEarth, kWind, {}, 2);
  // Fill everything with Gold Fire except (0,0) and (0,1); a controls Fire (stack impossible at Gold,
  // Gold never attacked), and Wind's side is filled.
  for (int i = 0; i < kCells; ++i) s.cells[static_cast<std::size_t>(i)] = Token{kFire, 3};
  s.cells[static_cast<std::size_t>(cell(0, 0))] = Token{};
  s.cells[static_cast<std::size_t>(cell(0, 1))] = Token{};
  // Earth is on the board (so a has entered) next to (0,0) and (0,1).
  s.cells[static_cast<std::size_t>(cell(1, 0))] = Token{kEarth, 3};
  s.wizards[0].entered = true;
  auto r = apply(s, Action{Type::Expand, kEarth, static_cast<std::int16_t>(cell(0, 0))});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->state.wizards[static_cast<std::size_t>(r->state.to_move)].id, "a");  // second move
  auto r2 = apply(r->state, Action{Type::Stack, -1, static_cast<std::int16_t>(cell(0, 0))});
  ASSERT_TRUE(r2.ok()) << r2.error();
  // b (Wind) controls Lightning, Wind, Water: none on the board, its starting spaces are full: skipped.
  ASSERT_EQ(r2->outcome.skipped.size(), 1u);
  EXPECT_EQ(r2->state.wizards[static_cast<std::size_t>(r2->outcome.skipped[0])].id, "b");
  EXPECT_EQ(r2->state.wizards[static_cast<std::size_t>(r2->state.to_move)].id, "a");
}

TEST(WizardHexSection8, FullBoardEndsTheGameAndTheMostPrimarySpacesWin) {
  State s = two_wizards(kEarth, kWind, {});
  // 18 spaces filled: Earth 9 (east half and north of the centre), Wind 9 (all Gold);
  // a fills the centre with Earth.
  for (int i = 0; i < kCells; ++i) {
    const Hex h = B().hex(i);
    if (h == Hex{0, 0}) continue;
    const bool earth = h.q > 0 || (h.q == 0 && h.r < 0);
    s.cells[static_cast<std::size_t>(i)] = Token{static_cast<std::int8_t>(earth ? kEarth : kWind), 3};
  }
  ASSERT_EQ(s.count_cells(kEarth), 9);
  ASSERT_EQ(s.count_cells(kWind), 9);
  s.wizards[0].entered = s.wizards[1].entered = true;
  // (0,0) must touch Earth.
  ASSERT_TRUE(validate(s, Action{Type::Expand, kEarth, static_cast<std::int16_t>(cell(0, 0))}).ok());
  auto r = apply(s, Action{Type::Expand, kEarth, static_cast<std::int16_t>(cell(0, 0))});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->state.over);
  ASSERT_GE(r->state.winner, 0);
  EXPECT_EQ(r->state.wizards[static_cast<std::size_t>(r->state.winner)].id, "a");
  EXPECT_EQ(score(r->state, 0).primary, 10);
}

TEST(WizardHexSection8, TieBrokenByAlliesThenDraw) {
  State s = two_wizards(kEarth, kWind, {});
  for (int i = 0; i < kCells; ++i) s.cells[static_cast<std::size_t>(i)] = Token{kIce, 3};  // Earth's ally
  s.cells[static_cast<std::size_t>(cell(0, 0))] = Token{kEarth, 3};
  s.cells[static_cast<std::size_t>(cell(2, -2))] = Token{kWind, 3};
  s.cells[static_cast<std::size_t>(cell(-2, 2))] = Token{};
  s.wizards[0].entered = s.wizards[1].entered = true;
  // Earth (a) fills the last space with Ice: 1 Earth vs 1 Wind; allies: Earth 1 + 17 Ice.
  auto r = apply(s, Action{Type::Expand, kIce, static_cast<std::int16_t>(cell(-2, 2))});
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_TRUE(r->state.over);
  EXPECT_EQ(r->state.winner, 0);
  s.rules.tie_break_allies = false;
  auto r2 = apply(s, Action{Type::Expand, kIce, static_cast<std::int16_t>(cell(-2, 2))});
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(r2->state.over);
  EXPECT_EQ(r2->state.winner, -1) << "a tie without the allies tie-break is a draw";
}

TEST(WizardHexSection8, EliminatingTheLastPrimaryTokenWins) {
  State s = two_wizards(kEarth, kWind, {{0, 0, kEarth, 2}, {0, 1, kWind, 1}, {-2, 0, kEarth, 1}});
  s.wizards[1].entered = true;
  auto r = apply(s, Action{Type::Attack, -1, static_cast<std::int16_t>(cell(0, 0)), static_cast<std::int16_t>(cell(0, 1))});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->state.over);
  EXPECT_EQ(r->state.winner, 0);
  ASSERT_EQ(r->outcome.eliminated.size(), 1u);
  EXPECT_EQ(r->outcome.eliminated[0], 1);
}

TEST(WizardHexSection8, NotYetEnteredIsStillInPlay) {
  State s = two_wizards(kEarth, kWind, {{0, 0, kEarth, 1}, {1, 0, kIce, 1}});
  s.wizards[1].entered = false;
  auto r = apply(s, Action{Type::Stack, -1, static_cast<std::int16_t>(cell(0, 0))});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->state.over);
  EXPECT_FALSE(r->state.wizards[1].eliminated);
}

TEST(WizardHexSection10, JsonRejectsBadInputWithOneLine) {
  auto bad = [](const char* text) {
    auto j = parse_json(text, "position");
    if (!j) return j.error();
    auto s = state_from_json(*j);
    return s ? std::string() : s.error();
  };
  EXPECT_NE(bad(R"({"ruleset":"wizardhex","players":[{"id":"a","element":"mud"}],"to_move":"a"})").find("unknown element"),
            std::string::npos);
  EXPECT_NE(bad(R"({"ruleset":"wizardhex","players":[{"id":"a","element":"fire"}],"to_move":"a",
                   "tokens":[{"q":3,"r":0,"element":"fire"}]})").find("off the"), std::string::npos);
  EXPECT_NE(bad(R"({"ruleset":"wizardhex","players":[{"id":"a","element":"fire"}],"to_move":"a",
                   "tokens":[{"q":0,"r":0,"element":"fire","level":4}]})").find("level"), std::string::npos);
  EXPECT_NE(bad(R"({"ruleset":"wizardhex","players":[{"id":"a","element":"fire"}],"to_move":"z"})").find("to_move"),
            std::string::npos);
}

bool valid_state(const State& s, std::string& why) {
  for (const Token& t : s.cells)
    if (!t.empty() && (t.level < 1 || t.level > 3 || t.element < 0 || t.element >= kNumElements)) {
      why = "bad token";
      return false;
    }
  if (!s.over && s.wizards[static_cast<std::size_t>(s.to_move)].eliminated) {
    why = "eliminated wizard to move";
    return false;
  }
  if (s.moves_left < 1 || s.moves_left > 2) {
    why = "moves_left";
    return false;
  }
  for (const auto& z : s.wizards)
    if (z.eliminated && !z.entered) {
      why = "eliminated before entering";
      return false;
    }
  return true;
}

TEST(WizardHexProperty, RandomPlayoutsStayLegalAndRoundTrip) {
  std::mt19937 rng(20261129);
  const std::vector<std::vector<Wizard>> setups = {
      {{"green", kEarth}, {"black", kWind}},
      {{"yellow", kLightning}, {"blue", kWater}},
      {{"red", kFire}, {"green", kEarth}},
      {{"white", kIce}, {"green", kEarth}, {"red", kFire}, {"yellow", kLightning}, {"black", kWind}, {"blue", kWater}},
      {{"red", kFire}, {"black", kWind}, {"white", kIce}},
  };
  int games = 0, finished = 0;
  for (int g = 0; g < 40; ++g) {
    auto st = start(setups[static_cast<std::size_t>(g) % setups.size()]);
    ASSERT_TRUE(st.ok());
    State s = *st;
    if (g % 4 == 3) s.supply = {6, 6, 6, 6, 6, 6};
    for (int ply = 0; ply < 400 && !s.over; ++ply) {
      const auto moves = legal_actions(s);
      ASSERT_FALSE(moves.empty()) << "a wizard to move always has a move (else skipped)";
      for (const Action& a : moves) ASSERT_TRUE(validate(s, a).ok()) << validate(s, a).error();
      const Action a = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
      // JSON round trip of the action and the state.
      auto back = action_from_json(to_json(a));
      ASSERT_TRUE(back.ok());
      ASSERT_EQ(*back, a);
      auto r = apply(s, a);
      ASSERT_TRUE(r.ok()) << r.error();
      s = r->state;
      std::string why;
      ASSERT_TRUE(valid_state(s, why)) << why;
      auto parsed = state_from_json(to_json(s));
      ASSERT_TRUE(parsed.ok()) << parsed.error();
      ASSERT_EQ(to_json(*parsed), to_json(s));
      for (int e = 0; e < kNumElements; ++e) ASSERT_GE(s.available(e), 0);
    }
    ++games;
    if (s.over) ++finished;
  }
  EXPECT_EQ(games, 40);
  EXPECT_GT(finished, 0) << "some random games reach the end";
}

std::uint64_t perft(const State& s, int depth) {
  if (s.over) return 0;
  const auto moves = legal_actions(s);
  if (depth == 1) return moves.size();
  std::uint64_t n = 0;
  for (const Action& a : moves) {
    State t = s;
    apply_unchecked(t, a);
    n += perft(t, depth - 1);
  }
  return n;
}

TEST(WizardHexPerft, AcrossChallengeCountsFromTheStart) {
  auto s = start({{"green", kEarth}, {"black", kWind}});
  // Depth 1: 3 elements x 3 starting spaces (section 5); depth 2: the same for Wind,
  // whose side shares no space with Earth's (Earth sits at seat 1, Wind at seat 4).
  EXPECT_EQ(perft(*s, 1), 9u);
  EXPECT_EQ(perft(*s, 2), 81u);
  // Depth 3, by hand: wherever Earth entered, its second turn's first move has
  // 3 elements x 2 open starting spaces + 2 rim-free spaces next to the token + 1 stack = 9.
  EXPECT_EQ(perft(*s, 3), 729u);
  // Published in docs/rules-wizardhex.md section 11 (engine-computed).
  EXPECT_EQ(perft(*s, 4), 7029u);
}

TEST(WizardHexPerft, SixWizardCountsFromTheStart) {
  auto s = start({{"white", kIce}, {"green", kEarth}, {"red", kFire}, {"yellow", kLightning}, {"black", kWind},
                  {"blue", kWater}});
  // Depth 2: Earth's side shares its first corner with Ice's side: 6 x 9 + 3 x 6.
  EXPECT_EQ(perft(*s, 1), 9u);
  EXPECT_EQ(perft(*s, 2), 72u);
  EXPECT_EQ(perft(*s, 3), 567u);
  EXPECT_EQ(perft(*s, 4), 4455u);
}

TEST(WizardHexRuleset, RegistryRoundTripThroughJson) {
  const Ruleset* rs = find_ruleset("wizardhex");
  ASSERT_NE(rs, nullptr);
  auto start_pos = rs->start_position("six");
  ASSERT_TRUE(start_pos.ok());
  auto moves = rs->legal_actions(*start_pos);
  ASSERT_TRUE(moves.ok());
  ASSERT_FALSE(moves->empty());
  auto applied = rs->apply(*start_pos, (*moves)[0]);
  ASSERT_TRUE(applied.ok()) << applied.error();
  EXPECT_EQ(applied->position["ruleset"], "wizardhex");
  auto bad = rs->apply(*start_pos, Json{{"type", "stack"}, {"at", Json::array({0, 0})}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("illegal action: stack:", 0), 0u) << bad.error();
  EXPECT_EQ(rs->cell_name(*start_pos, Hex{0, 0}), "c3");
  EXPECT_EQ(rs->cell_name(*start_pos, Hex{3, 0}), "");
}


// Section 2 with dice: the board reader's observation gives the tokens.
Json observation(std::initializer_list<std::tuple<int, int, const char*, int>> dice) {
  Json o{{"board_found", true}, {"cells", Json::array()}};
  for (const auto& [q, r, colour, face] : dice)
    o["cells"].push_back({{"q", q}, {"r", r}, {"color", colour}, {"face", face}, {"guard", false}, {"confidence", 0.9}});
  return o;
}

TEST(WizardHexSection2, DiceObservationGivesTokensColourIsElementFaceIsLevel) {
  auto base = start({{"green", kEarth}, {"black", kWind}});
  ASSERT_TRUE(base.ok());
  auto s = position_from_observation(*base, observation({{0, -2, "green", 1}, {1, -2, "red", 3}, {0, 0, "black", 2}}));
  ASSERT_TRUE(s.ok()) << s.error();
  const Board& b = State::board();
  EXPECT_EQ(s->cells[static_cast<std::size_t>(b.index(Hex{0, -2}))], (Token{kEarth, 1}));
  EXPECT_EQ(s->cells[static_cast<std::size_t>(b.index(Hex{1, -2}))], (Token{kFire, 3}));
  EXPECT_EQ(s->cells[static_cast<std::size_t>(b.index(Hex{0, 0}))], (Token{kWind, 2}));
  int tokens = 0;
  for (const Token& t : s->cells) tokens += !t.empty();
  EXPECT_EQ(tokens, 3);
  // Both primaries are seen: both Wizards have entered; the turn is the base's.
  EXPECT_TRUE(s->wizards[0].entered);
  EXPECT_TRUE(s->wizards[1].entered);
  EXPECT_EQ(s->to_move, base->to_move);
  // A remapped calibration: the same colours mean other elements.
  DieColours swapped = default_die_colours();
  std::swap(swapped[kEarth], swapped[kFire]);
  auto t = position_from_observation(*base, observation({{0, -2, "green", 1}}), swapped);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->cells[static_cast<std::size_t>(b.index(Hex{0, -2}))].element, kFire);
  EXPECT_FALSE(t->wizards[0].entered);
}

TEST(WizardHexSection2, DiceObservationMisreadsAreOneLineNamingTheSpace) {
  auto base = start({{"green", kEarth}, {"black", kWind}});
  ASSERT_TRUE(base.ok());
  auto face = position_from_observation(*base, observation({{0, 0, "red", 5}}));
  ASSERT_FALSE(face.ok());
  EXPECT_NE(face.error().find("c3 shows face 5"), std::string::npos) << face.error();
  EXPECT_NE(face.error().find("misread"), std::string::npos);
  auto colour = position_from_observation(*base, observation({{0, 0, "purple", 1}}));
  ASSERT_FALSE(colour.ok());
  EXPECT_NE(colour.error().find("purple"), std::string::npos) << colour.error();
  auto off = position_from_observation(*base, observation({{3, 0, "red", 1}}));
  ASSERT_FALSE(off.ok());
  EXPECT_NE(off.error().find("off the 19 spaces"), std::string::npos) << off.error();
  Json lost{{"board_found", false}, {"cells", Json::array()}};
  EXPECT_FALSE(position_from_observation(*base, lost).ok());
  // A supply of 2 fire tokens cannot show a Gold fire stack (3 tokens).
  State limited = *base;
  limited.supply[kFire] = 2;
  EXPECT_FALSE(position_from_observation(limited, observation({{0, 0, "red", 3}})).ok());
}

}  // namespace
}  // namespace hexdice::wizardhex
