// Hexa Decimal rules (docs/rules-hexadecimal.md): one table or case per section,
// seeded random playouts (no illegal state, JSON round trip), perft from the starts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "core/hexadecimal/hexadecimal.h"
#include "core/ruleset.h"

namespace hexdice::hexadecimal {
namespace {

using K = Kind;
const Board& B() { return State::board(); }
std::int16_t c(int q, int r) { return static_cast<std::int16_t>(B().index(Hex{q, r})); }

struct P {
  int q, r, owner;
  Kind kind;
};

// A position with only the listed pieces; Kings parked in far corners unless listed.
State make(std::vector<P> pieces, Variant v = Variant::Standard, int to_move = 0, bool park_kings = true) {
  State s;
  s.variant = v;
  s.ids = v == Variant::Threcimal ? std::vector<std::string>{"white", "black", "green"}
                                  : std::vector<std::string>{"white", "black"};
  s.eliminated.assign(s.ids.size(), false);
  for (const P& p : pieces) s.cells[static_cast<std::size_t>(c(p.q, p.r))] = Cell{static_cast<std::int8_t>(p.owner), p.kind};
  if (park_kings) {
    if (s.count(0, K::King) == 0) s.cells[static_cast<std::size_t>(c(-5, 5))] = Cell{0, K::King};
    if (s.count(1, K::King) == 0) s.cells[static_cast<std::size_t>(c(5, -5))] = Cell{1, K::King};
  }
  s.to_move = to_move;
  s.history = {s.hash()};
  return s;
}

Action mv(int q1, int r1, int q2, int r2) { return Action{Type::Move, c(q1, r1), c(q2, r2)}; }
bool listed(const State& s, const Action& a) {
  const auto m = legal_actions(s);
  return std::find(m.begin(), m.end(), a) != m.end();
}
std::vector<int> dests(const State& s, int q, int r) {
  std::vector<int> out;
  for (const Action& a : legal_actions(s))
    if (a.type == Type::Move && a.from == c(q, r)) out.push_back(a.to);
  std::sort(out.begin(), out.end());
  return out;
}
std::vector<int> cells(std::vector<std::pair<int, int>> v) {
  std::vector<int> out;
  for (auto [q, r] : v) out.push_back(c(q, r));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(HexaDecimalSection1, NinetyCellsSixSegmentsOfTenAndThirtyRoadCells) {
  int playable = 0, roads = 0;
  std::array<int, 6> seg{};
  for (int i = 0; i < B().size(); ++i) {
    if (is_hole(i)) continue;
    ++playable;
    if (segment_of(i) < 0) ++roads;
    else ++seg[static_cast<std::size_t>(segment_of(i))];
  }
  EXPECT_EQ(playable, 90);
  EXPECT_EQ(roads, 30);
  for (int n : seg) EXPECT_EQ(n, 10);
  EXPECT_TRUE(is_hole(c(0, 0)));
  EXPECT_EQ(segment_of(c(-1, -1)), 5);  // between the NW and N roads
  EXPECT_EQ(segment_of(c(0, -3)), -1);  // on the N road
}

TEST(HexaDecimalSection1, LinesStopAtTheHole) {
  State s = make({{-3, 0, 0, K::Pawn}});
  const auto d = dests(s, -3, 0);
  // SE towards the hole: (-2,0), (-1,0) then the hole.
  EXPECT_TRUE(std::binary_search(d.begin(), d.end(), c(-1, 0)));
  for (int q = 1; q <= 5; ++q) EXPECT_FALSE(std::binary_search(d.begin(), d.end(), c(q, 0))) << q;
}

TEST(HexaDecimalSection2, SetupsHaveTheArmiesOfTheSeed) {
  for (Variant v : {Variant::Standard, Variant::Demial, Variant::Threcimal}) {
    auto s = start(v);
    ASSERT_TRUE(s.ok());
    for (int p = 0; p < s->num_players(); ++p) {
      for (int k = 0; k < kNumKinds; ++k) {
        int want = initial_count(v, static_cast<Kind>(k));
        if (v != Variant::Standard && static_cast<Kind>(k) == K::King) want = 2;
        if (v != Variant::Standard && static_cast<Kind>(k) == K::PawnMaster) want = 0;
        EXPECT_EQ(s->count(p, static_cast<Kind>(k)), want) << kVariantNames[static_cast<std::size_t>(v)] << " "
                                                            << kKindNames[static_cast<std::size_t>(k)];
      }
      // Every piece stands in its own home segments or on a road next to them.
      const auto home = home_segments(v, p);
      for (int i = 0; i < kCells; ++i) {
        if (s->cells[static_cast<std::size_t>(i)].owner != p) continue;
        const int sg = segment_of(i);
        if (sg >= 0) EXPECT_NE(std::find(home.begin(), home.end(), sg), home.end()) << B().name(i);
      }
    }
    // Point symmetry (two players) or three-fold rotation (three).
    const int turn = v == Variant::Threcimal ? 2 : 3;
    for (int i = 0; i < kCells; ++i) {
      if (is_hole(i)) continue;
      Hex h = B().hex(i);
      Hex rot = h;
      for (int t = 0; t < turn; ++t) rot = Hex{-rot.r, -rot.s()};  // 60 degrees clockwise
      const Cell a = s->cells[static_cast<std::size_t>(i)];
      const Cell b = s->cells[static_cast<std::size_t>(B().index(rot))];
      EXPECT_EQ(a.kind == b.kind || a.empty(), true);
      EXPECT_EQ(a.empty(), b.empty()) << B().name(i);
      if (!a.empty()) EXPECT_EQ(b.owner, (a.owner + 1) % s->num_players()) << B().name(i);
    }
  }
}

TEST(HexaDecimalSection4, PawnSlidesAndNeverCaptures) {
  State s = make({{2, -3, 0, K::Pawn}, {2, -1, 1, K::Pawn}});
  const auto d = dests(s, 2, -3);
  EXPECT_TRUE(std::binary_search(d.begin(), d.end(), c(2, -2)));
  EXPECT_FALSE(std::binary_search(d.begin(), d.end(), c(2, -1))) << "no capture";
  EXPECT_FALSE(std::binary_search(d.begin(), d.end(), c(2, 0))) << "no leap";
}

struct SoldierCase {
  const char* name;
  std::vector<P> pieces;
  Action action;
  bool legal;
};

TEST(HexaDecimalSection4, SoldierTable) {
  const std::vector<SoldierCase> cases = {
      {"step to empty", {{2, -2, 0, K::Soldier}}, mv(2, -2, 2, -1), true},
      {"step capture directly away from a friendly Pawn",
       {{2, -2, 0, K::Soldier}, {2, -3, 0, K::Pawn}, {2, -1, 1, K::Prince}}, mv(2, -2, 2, -1), true},
      {"step capture not away from a Pawn", {{2, -2, 0, K::Soldier}, {1, -2, 0, K::Pawn}, {2, -1, 1, K::Prince}},
       mv(2, -2, 2, -1), false},
      {"leap two Pawns onto an enemy", {{2, -4, 0, K::Soldier}, {2, -3, 0, K::Pawn}, {2, -2, 0, K::Pawn}, {2, -1, 1, K::Star}},
       mv(2, -4, 2, -1), true},
      {"leap onto empty beyond", {{2, -4, 0, K::Soldier}, {2, -3, 0, K::Pawn}}, mv(2, -4, 2, -2), true},
      {"no leap over an empty hex", {{2, -4, 0, K::Soldier}, {2, -3, 0, K::Pawn}}, mv(2, -4, 2, -1), false},
      {"no leap over an enemy Pawn", {{2, -4, 0, K::Soldier}, {2, -3, 1, K::Pawn}}, mv(2, -4, 2, -2), false},
      {"no leap onto a friend", {{2, -4, 0, K::Soldier}, {2, -3, 0, K::Pawn}, {2, -2, 0, K::Star}}, mv(2, -4, 2, -2), false},
  };
  for (const auto& cs : cases) {
    State s = make(cs.pieces);
    EXPECT_EQ(validate(s, cs.action).ok(), cs.legal) << cs.name;
    EXPECT_EQ(listed(s, cs.action), cs.legal) << cs.name;
  }
}

TEST(HexaDecimalSection4, PrinceOrbitsFriendlyPawnsUntilBlocked) {
  // One Pawn on (2,-2); its ring: (2,-3) (3,-3) (3,-2) (2,-1) (1,-1) (1,-2).
  State s = make({{2, -3, 0, K::Prince}, {2, -2, 0, K::Pawn}});
  EXPECT_EQ(dests(s, 2, -3), cells({{3, -3}, {3, -2}, {2, -1}, {1, -1}, {1, -2}}));
  s = make({{2, -3, 0, K::Prince}, {2, -2, 0, K::Pawn}, {3, -2, 1, K::Soldier}, {1, -1, 0, K::Star}});
  EXPECT_EQ(dests(s, 2, -3), cells({{3, -3}, {3, -2}, {1, -2}})) << "capture the enemy, stop at the friend";
  // A second Pawn touching the ring lets the orbit continue around it.
  s = make({{2, -3, 0, K::Prince}, {2, -2, 0, K::Pawn}, {3, -1, 0, K::Pawn}, {1, -1, 0, K::Star}, {1, -2, 0, K::Star}});
  const auto d = dests(s, 2, -3);
  EXPECT_TRUE(std::binary_search(d.begin(), d.end(), c(4, -1))) << "orbit the second Pawn from (3,-2)";
  EXPECT_TRUE(std::binary_search(d.begin(), d.end(), c(3, 0)));
  s = make({{2, -3, 0, K::Prince}, {2, -1, 0, K::Pawn}});
  EXPECT_TRUE(dests(s, 2, -3).empty()) << "no adjacent Pawn, no move";
}

TEST(HexaDecimalSection4, DisruptorTakesAWholeEnemyPawnCluster) {
  State s = make({{2, -4, 0, K::Disruptor},
                  {2, -1, 1, K::Pawn}, {3, -1, 1, K::Pawn}, {3, 0, 1, K::Pawn}, {2, 2, 1, K::Pawn},
                  {1, -4, 1, K::Pawn}});
  EXPECT_TRUE(listed(s, mv(2, -4, 2, -1)));
  EXPECT_FALSE(listed(s, mv(2, -4, 1, -4))) << "an adjacent Pawn cannot be captured";
  EXPECT_FALSE(listed(s, mv(2, -4, 2, -2))) << "more than one hex only to capture";
  EXPECT_TRUE(listed(s, mv(2, -4, 2, -3)));
  auto r = apply(s, mv(2, -4, 2, -1));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->outcome.removed.size(), 3u);
  EXPECT_EQ(r->state.count(1, K::Pawn), 2) << "the unconnected Pawns stay";
  State t = make({{2, -4, 0, K::Disruptor}, {2, -1, 1, K::Star}});
  EXPECT_FALSE(listed(t, mv(2, -4, 2, -1))) << "only Pawns";
}

TEST(HexaDecimalSection4, ElephantTramplesFromAFriendlyPawnOn) {
  State s = make({{2, -4, 0, K::Elephant}, {2, -2, 0, K::Pawn}, {2, 0, 1, K::Pawn}, {2, 1, 1, K::Soldier},
                  {3, -4, 1, K::Pawn}, {3, -3, 1, K::Star}});
  EXPECT_EQ(dests(s, 2, -4) == std::vector<int>{}, false);
  for (auto [q, r] : std::vector<std::pair<int, int>>{{2, -3}, {2, -2}, {2, -1}, {2, 0}, {2, 1}})
    EXPECT_TRUE(listed(s, mv(2, -4, q, r))) << q << "," << r;
  EXPECT_FALSE(listed(s, mv(2, -4, 2, 2))) << "stops at the first non-Pawn";
  EXPECT_FALSE(listed(s, mv(2, -4, 4, -4))) << "first piece trampled must be a friendly Pawn";
  auto r = apply(s, mv(2, -4, 2, 1));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome.removed.size(), 3u) << "own Pawn, enemy Pawn, the enemy Soldier";
  EXPECT_EQ(r->state.count(0, K::Pawn), 0);
  State t = make({{2, -4, 0, K::Elephant}});
  EXPECT_FALSE(listed(t, mv(2, -4, 2, -2))) << "no slide without trampling (house rule elephant_slide off)";
  t.rules.elephant_slide = true;
  EXPECT_TRUE(listed(t, mv(2, -4, 2, -2)));
}

TEST(HexaDecimalSection4, GuardOnlyMovesToCapture) {
  State s = make({{2, -3, 0, K::Guard}, {3, -3, 1, K::Star}, {2, 0, 0, K::Pawn}, {1, -2, 1, K::Pawn}});
  EXPECT_EQ(dests(s, 2, -3), cells({{3, -3}, {2, 0}, {1, -2}}));
}

TEST(HexaDecimalSection4, StarExplodesNextToTheCapturedPawn) {
  State s = make({{2, -4, 0, K::Star}, {2, -3, 0, K::Pawn}, {2, -2, 0, K::Pawn},
                  {3, -3, 1, K::Pawn}, {1, -1, 1, K::Soldier}, {3, -4, 1, K::Guard}, {2, -1, 0, K::Prince}});
  EXPECT_EQ(dests(s, 2, -4), cells({{2, -3}, {2, -2}}));
  auto r = apply(s, mv(2, -4, 2, -2));
  ASSERT_TRUE(r.ok());
  // Around (2,-2): (3,-3) enemy Pawn and (1,-1) enemy Soldier go; (3,-4) is not adjacent; (2,-1) is a friend.
  EXPECT_EQ(r->state.count(1, K::Pawn), 0);
  EXPECT_EQ(r->state.count(1, K::Soldier), 0);
  EXPECT_EQ(r->state.count(1, K::Guard), 1);
  EXPECT_EQ(r->state.count(0, K::Prince), 1);
  EXPECT_EQ(r->state.count(0, K::Pawn), 1);
}

TEST(HexaDecimalSection4, WizardLeapsTheFirstPieceBehindItOntoAFriendlyPawn) {
  State s = make({{2, -2, 0, K::Wizard}, {2, -1, 0, K::Pawn}, {2, -4, 1, K::Star}, {3, -2, 0, K::Star},
                  {1, -1, 1, K::Pawn}});
  const Action w{Type::Wizard, c(2, -4), c(2, -1), c(2, -2)};
  EXPECT_TRUE(listed(s, w));
  auto r = apply(s, w);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state.cells[static_cast<std::size_t>(c(2, -1))], (Cell{1, K::Star}));
  EXPECT_EQ(r->state.count(0, K::Pawn), 0);
  // The white Star behind (NE->SW line through (1,-1)?) : the Wizard's own Star leaps with no explosion.
  State t = make({{2, -2, 0, K::Wizard}, {1, -1, 0, K::Pawn}, {3, -3, 0, K::Star}, {0, -1, 1, K::Soldier}});
  const Action ws{Type::Wizard, c(3, -3), c(1, -1), c(2, -2)};
  ASSERT_TRUE(listed(t, ws));
  auto r2 = apply(t, ws);
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->state.count(1, K::Soldier), 1) << "no Star effect when moved by a Wizard";
}

TEST(HexaDecimalSection4, PawnMasterLeavesPawnsUpToTen) {
  std::vector<P> ps = {{2, -4, 0, K::PawnMaster}};
  const std::vector<std::pair<int, int>> spots = {{-5, 0}, {-5, 1}, {-5, 2}, {-5, 3}, {-4, 0}, {-4, 1}, {-4, 2}};
  for (auto [q, r] : spots) ps.push_back({q, r, 0, K::Pawn});
  State s = make(ps);
  EXPECT_TRUE(listed(s, mv(2, -4, 2, -1)));
  EXPECT_FALSE(listed(s, mv(2, -4, 2, 0))) << "seven Pawns: at most three hexes";
  auto r = apply(s, mv(2, -4, 2, -1));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state.count(0, K::Pawn), 10);
  for (auto [q, r2] : std::vector<std::pair<int, int>>{{2, -4}, {2, -3}, {2, -2}})
    EXPECT_EQ(r->state.cells[static_cast<std::size_t>(c(q, r2))], (Cell{0, K::Pawn}));
  ps.push_back({-4, 3, 0, K::Pawn});
  ps.push_back({-4, 4, 0, K::Pawn});
  ps.push_back({-3, 0, 0, K::Pawn});
  EXPECT_TRUE(dests(make(ps), 2, -4).empty()) << "ten Pawns: the Pawn Master cannot move";
}

TEST(HexaDecimalSection4, KingRegeneratesTheLostPawnMaster) {
  State s = make({{2, -3, 0, K::King}, {2, -2, 0, K::Pawn}}, Variant::Standard, 0, true);
  auto r = apply(s, mv(2, -3, 3, -3));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->state.cells[static_cast<std::size_t>(c(2, -3))], (Cell{0, K::PawnMaster}));
  // Moved by a Wizard: no Pawn Master.
  State t = make({{2, -3, 0, K::King}, {2, -1, 0, K::Pawn}, {2, -2, 0, K::Wizard}});
  auto r2 = apply(t, Action{Type::Wizard, c(2, -3), c(2, -1), c(2, -2)});
  ASSERT_TRUE(r2.ok()) << r2.error();
  EXPECT_EQ(r2->state.count(0, K::PawnMaster), 0);
}

TEST(HexaDecimalSection6, PromotionByInvadingAnEnemySegment) {
  // Segment 0 (N-NE) is Black's: white has 2 Pawns there, black 1.
  std::vector<P> ps = {{1, -3, 0, K::Pawn}, {2, -4, 0, K::Pawn}, {1, -4, 1, K::Pawn}, {-3, 2, 0, K::PawnMaster}};
  State s = make(ps);
  const Action promo{Type::Promote, -1, -1, -1, 0, K::Star};
  EXPECT_TRUE(listed(s, promo));
  auto r = apply(s, promo);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state.cells[static_cast<std::size_t>(c(-3, 2))], (Cell{0, K::Star}));
  EXPECT_EQ(r->state.count(0, K::Pawn), 0) << "invading Pawns are removed";
  EXPECT_EQ(r->state.count(1, K::Pawn), 1);
  // Not more Pawns: no promotion. Own segment: no promotion. No Pawn Master: no promotion.
  ps.push_back({3, -4, 1, K::Pawn});
  EXPECT_FALSE(listed(make(ps), promo));
  EXPECT_FALSE(listed(make({{-1, -1, 0, K::Pawn}, {-3, 2, 0, K::PawnMaster}}), Action{Type::Promote, -1, -1, -1, 5, K::Star}));
  EXPECT_FALSE(listed(make({{1, -3, 0, K::Pawn}}), promo));
  const Status st = validate(make({{1, -3, 0, K::Pawn}}), promo);
  EXPECT_NE(st.error().find("section 6"), std::string::npos) << st.error();
}

State mate_setup() {
  // Black's King alone in the NE corner; a white Prince beside a white Pawn's path.
  return make({{5, -5, 1, K::King}, {3, -4, 0, K::Prince}, {4, -1, 0, K::Pawn}, {-5, 5, 0, K::King}});
}

TEST(HexaDecimalSection8, CheckmateWins) {
  auto r = apply(mate_setup(), mv(4, -1, 4, -4));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->state.over);
  EXPECT_EQ(r->state.winner, 0);
  EXPECT_EQ(r->state.reason, "checkmate");
  ASSERT_EQ(r->outcome.in_check.size(), 1u);
}

TEST(HexaDecimalSection8, StalemateDraws) {
  auto r = apply(mate_setup(), mv(4, -1, 4, -2));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->state.over);
  EXPECT_EQ(r->state.winner, -1);
  EXPECT_EQ(r->state.reason, "stalemate");
}

TEST(HexaDecimalSection8, AMoveMayNotLeaveTheKingInCheck) {
  State s = make({{-5, 5, 0, K::King}, {-4, 4, 1, K::Pawn}, {-5, 4, 1, K::Prince}, {2, -2, 0, K::Pawn},
                  {5, -5, 1, K::King}});
  ASSERT_TRUE(in_check(s, 0));
  const Status st = validate(s, mv(2, -2, 2, -1));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().find("section 8"), std::string::npos) << st.error();
  EXPECT_FALSE(listed(s, mv(2, -2, 2, -1)));
}

TEST(HexaDecimalSection8, ThirdRepetitionDraws) {
  State s = make({{2, -2, 0, K::Pawn}, {-2, 2, 1, K::Pawn}});
  const std::vector<Action> cycle = {mv(2, -2, 2, -1), mv(-2, 2, -2, 1), mv(2, -1, 2, -2), mv(-2, 1, -2, 2)};
  for (int i = 0; i < 8; ++i) {
    ASSERT_FALSE(s.over) << i;
    auto r = apply(s, cycle[static_cast<std::size_t>(i) % 4]);
    ASSERT_TRUE(r.ok()) << r.error();
    s = r->state;
  }
  EXPECT_TRUE(s.over);
  EXPECT_EQ(s.reason, "repetition");
  EXPECT_EQ(s.winner, -1);
}

TEST(HexaDecimalSection9, DemialFirstKingMoveTurnsTheOtherIntoThePawnMaster) {
  State s = make({{2, -3, 0, K::King}, {2, -2, 0, K::Pawn}, {-5, 5, 0, K::King}, {5, -5, 1, K::King}, {4, -4, 1, K::King}},
                 Variant::Demial, 0, false);
  auto r = apply(s, mv(2, -3, 3, -3));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->state.count(0, K::King), 1);
  EXPECT_EQ(r->state.count(0, K::PawnMaster), 1);
  EXPECT_EQ(r->state.cells[static_cast<std::size_t>(c(-5, 5))], (Cell{0, K::PawnMaster})) << "the other King";
  EXPECT_TRUE(r->state.cells[static_cast<std::size_t>(c(2, -3))].empty()) << "nothing on the vacated hex";
  // Demote is a move of its own, for either King, while there are two and no Pawn Master.
  const auto moves = legal_actions(s);
  EXPECT_EQ(std::count_if(moves.begin(), moves.end(), [](const Action& a) { return a.type == Type::Demote; }), 2);
  const auto start_moves = legal_actions(*start(Variant::Demial));
  EXPECT_EQ(std::count_if(start_moves.begin(), start_moves.end(), [](const Action& a) { return a.type == Type::Demote; }), 2);
}

TEST(HexaDecimalSection9, DemialDemotingTheCheckedKingLiftsCheck) {
  // White's King on (-5,5) is in check from the Prince orbiting a black Pawn; turning it into
  // the Pawn Master lifts the check (the other King on (2,-3) is safe).
  State s = make({{-5, 5, 0, K::King}, {-4, 4, 1, K::Pawn}, {-5, 4, 1, K::Prince}, {2, -3, 0, K::King},
                  {5, -5, 1, K::King}, {4, -4, 1, K::King}},
                 Variant::Demial, 0, false);
  ASSERT_TRUE(in_check(s, 0));
  EXPECT_TRUE(listed(s, Action{Type::Demote, c(-5, 5)}));
  EXPECT_FALSE(listed(s, Action{Type::Demote, c(2, -3)})) << "the checked King would stay in check";
  s.rules.demote_any_time = false;
  EXPECT_TRUE(listed(s, Action{Type::Demote, c(-5, 5)}));
  s.cells[static_cast<std::size_t>(c(-5, 4))] = Cell{};  // no more check
  EXPECT_FALSE(listed(s, Action{Type::Demote, c(-5, 5)})) << "house rule off: only a checked King";
  s.rules.demote_any_time = true;
  EXPECT_TRUE(listed(s, Action{Type::Demote, c(-5, 5)}));
}

TEST(HexaDecimalSection9, ThrecimalLosingKingAndPawnMasterEliminates) {
  State s = make({{2, -3, 0, K::Guard}, {3, -3, 2, K::King}, {-5, 5, 0, K::King}, {5, -5, 1, K::King},
                  {0, 5, 2, K::Pawn}, {-2, 2, 0, K::Pawn}},
                 Variant::Threcimal, 0, false);
  auto r = apply(s, mv(2, -3, 3, -3));
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->outcome.eliminated.size(), 1u);
  EXPECT_EQ(r->outcome.eliminated[0], 2);
  EXPECT_EQ(r->state.count(2, K::Pawn), 0) << "the army is removed";
  EXPECT_TRUE(r->state.eliminated[2]);
  EXPECT_FALSE(r->state.over) << "two players left";
  EXPECT_EQ(r->state.to_move, 0) << "black (a lone King, no Pawn to orbit) has no move and is skipped";
}

TEST(HexaDecimalSection9, ThrecimalKingsMayBeLeftInCheck) {
  State s = make({{-5, 5, 0, K::King}, {-4, 4, 1, K::Pawn}, {-5, 4, 1, K::Prince}, {2, -2, 0, K::Pawn},
                  {5, -5, 1, K::King}, {0, 5, 2, K::King}},
                 Variant::Threcimal, 0, false);
  EXPECT_TRUE(validate(s, mv(2, -2, 2, -1)).ok());
}

TEST(HexaDecimalSection10, JsonRejectsTheHoleAndBadPieces) {
  auto err = [](const Json& j) {
    auto s = state_from_json(j);
    return s ? std::string() : s.error();
  };
  Json base = to_json(*start(Variant::Standard));
  Json j = base;
  j["pieces"].push_back(Json{{"q", 0}, {"r", 0}, {"owner", "white"}, {"type", "pawn"}});
  EXPECT_NE(err(j).find("hole"), std::string::npos);
  j = base;
  j["pieces"][0]["type"] = "knight";
  EXPECT_NE(err(j).find("unknown piece type"), std::string::npos);
  j = base;
  j["variant"] = "octal";
  EXPECT_NE(err(j).find("unknown variant"), std::string::npos);
  EXPECT_TRUE(err(base).empty());
}

bool valid(const State& s, std::string& why) {
  for (int p = 0; p < s.num_players(); ++p) {
    if (s.eliminated[static_cast<std::size_t>(p)]) continue;
    if (s.count(p, K::Pawn) > kMaxPawns) { why = "more than ten Pawns"; return false; }
    if (s.count(p, K::PawnMaster) > 1) { why = "two Pawn Masters"; return false; }
    if (s.variant != Variant::Threcimal && s.count(p, K::King) < 1) { why = "King captured"; return false; }
    if (s.count(p, K::King) > 2) { why = "three Kings"; return false; }
  }
  if (!s.cells[static_cast<std::size_t>(c(0, 0))].empty()) { why = "piece on the hole"; return false; }
  if (s.variant != Variant::Threcimal && !s.over) {
    // The player who just moved is not in check.
    const int prev = (s.to_move + 1) % 2;
    if (in_check(s, prev)) { why = "mover left in check"; return false; }
  }
  return true;
}

// Brute force: the cells whose piece some pseudo-legal move of `by` takes off.
std::vector<bool> taken_by_some_move(const State& s, int by) {
  State t = s;
  t.to_move = by;
  t.over = false;
  std::vector<Action> moves;
  pseudo_actions(t, moves);
  std::vector<bool> taken(kCells, false);
  for (const Action& a : moves) {
    if (a.type != Type::Move) continue;  // leaps, promotions and demotions never take an enemy
    Outcome o;
    State u = t;
    apply_unchecked(u, a, &o);
    for (int cell : o.removed)
      if (t.cells[static_cast<std::size_t>(cell)].owner != by) taken[static_cast<std::size_t>(cell)] = true;
  }
  return taken;
}

TEST(HexaDecimalProperty, CheckDetectionAgreesWithBruteForce) {
  std::mt19937 rng(7);
  int checks = 0, compared = 0;
  for (int g = 0; g < 6; ++g) {
    State s = *start(static_cast<Variant>(g % 2));
    for (int ply = 0; ply < 80 && !s.over; ++ply) {
      const auto moves = legal_actions(s);
      s = apply(s, moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)])->state;
      if (ply % 8 != 0) continue;
      const std::array<std::vector<bool>, 2> taken = {taken_by_some_move(s, 0), taken_by_some_move(s, 1)};
      for (int i = 0; i < kCells; ++i) {
        const Cell& k = s.cells[static_cast<std::size_t>(i)];
        // The check test answers "can `by` take the non-Pawn piece here?" for any piece.
        if (k.empty() || k.kind == K::Pawn) continue;
        const int by = 1 - k.owner;
        const bool fast = attacked(s, i, by);
        ASSERT_EQ(fast, taken[static_cast<std::size_t>(by)][static_cast<std::size_t>(i)])
            << B().name(i) << "\n" << to_json(s).dump();
        ++compared;
        checks += fast;
      }
    }
  }
  EXPECT_GT(compared, 50);
  EXPECT_GT(checks, 0) << "some pieces are attacked, so both answers were exercised";
  std::printf("attack detection: %d attacked among %d pieces compared\n", checks, compared);
}

TEST(HexaDecimalProperty, RandomPlayoutsStayLegalAndRoundTrip) {
  std::mt19937 rng(5052005);
  int ended = 0;
  for (int g = 0; g < 12; ++g) {
    const Variant v = static_cast<Variant>(g % 3);
    State s = *start(v);
    for (int ply = 0; ply < 120 && !s.over; ++ply) {
      const auto moves = legal_actions(s);
      ASSERT_FALSE(moves.empty());
      const Action a = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
      ASSERT_TRUE(validate(s, a).ok()) << validate(s, a).error();
      auto back = action_from_json(to_json(a));
      ASSERT_TRUE(back.ok()) << back.error();
      ASSERT_EQ(*back, a);
      auto r = apply(s, a);
      ASSERT_TRUE(r.ok()) << r.error();
      s = std::move(r->state);
      std::string why;
      ASSERT_TRUE(valid(s, why)) << why << " after " << to_json(a).dump();
      auto parsed = state_from_json(to_json(s));
      ASSERT_TRUE(parsed.ok()) << parsed.error();
      ASSERT_EQ(*parsed, s);
    }
    if (s.over) ++ended;
  }
  SUCCEED() << ended << " games ended";
}

TEST(HexaDecimalPerft, CountsFromTheStartPositions) {
  // Published in docs/rules-hexadecimal.md section 11 (engine-computed; depth 3 there too).
  // Depth 1 of the standard start, by piece: Pawns 32, Stars 8, Princes 8, Soldiers 6,
  // Wizard leaps 4, Elephants 2 (docs section 11 lists the breakdown).
  EXPECT_EQ(perft(*start(Variant::Standard), 1), 60u);
  EXPECT_EQ(perft(*start(Variant::Standard), 2), 3512u);
  EXPECT_EQ(perft(*start(Variant::Standard), 3), 215164u);
  EXPECT_EQ(perft(*start(Variant::Demial), 1), 72u);
  EXPECT_EQ(perft(*start(Variant::Demial), 2), 5104u);
  EXPECT_EQ(perft(*start(Variant::Threcimal), 1), 56u);
  EXPECT_EQ(perft(*start(Variant::Threcimal), 2), 3100u);
  EXPECT_EQ(perft(*start(Variant::Threcimal), 3), 169403u);
}

TEST(HexaDecimalRuleset, RegistryAndVariantsThroughJson) {
  const Ruleset* rs = find_ruleset("hexadecimal");
  ASSERT_NE(rs, nullptr);
  for (const std::string& v : rs->variants()) {
    auto pos = rs->start_position(v);
    ASSERT_TRUE(pos.ok()) << v;
    EXPECT_EQ((*pos)["variant"], v);
    auto moves = rs->legal_actions(*pos);
    ASSERT_TRUE(moves.ok());
    auto applied = rs->apply(*pos, moves->back());
    ASSERT_TRUE(applied.ok()) << applied.error();
    EXPECT_EQ(applied->position["ruleset"], "hexadecimal");
  }
  auto pos = rs->start_position("standard");
  auto bad = rs->apply(*pos, Json{{"type", "move"}, {"from", Json::array({-5, 0})}, {"to", Json::array({-1, -4})}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("illegal action: move:", 0), 0u) << bad.error();
  EXPECT_EQ(rs->cell_name(*pos, Hex{0, 0}), "") << "the hole has no name";
  EXPECT_EQ(rs->cell_name(*pos, Hex{0, -5}), "f1");
  EXPECT_FALSE(rs->start_position("hexa minimal").ok());
}

TEST(RulesetRegistry, KnowsTheThreeGamesAndRejectsOthers) {
  for (const char* n : {"hexadecimal", "hexdice", "wizardhex"}) EXPECT_NE(find_ruleset(n), nullptr) << n;
  EXPECT_EQ(ruleset_key(Json::object()), "hexdice");
  auto r = ruleset_for(Json{{"ruleset", "chess"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("unknown ruleset \"chess\""), std::string::npos);
  // Hex Dice through the adapter agrees with its own API.
  const Ruleset* hd = find_ruleset("hexdice");
  ASSERT_NE(hd, nullptr);
  Json demo = Json::parse(R"({"ruleset":"hexdice","radius":5,"players":[{"id":"red","corner":"N"},{"id":"blue","corner":"S"}],
    "to_move":"red","units":[{"q":0,"r":-4,"owner":"red","face":5},{"q":0,"r":4,"owner":"blue","face":5}]})");
  auto moves = hd->legal_actions(demo);
  ASSERT_TRUE(moves.ok()) << moves.error();
  // A Tanker: 6 neighbours (all empty) + reroll + guard.
  EXPECT_EQ(moves->size(), 8u);
  auto applied = hd->apply(demo, Json{{"type", "guard"}, {"unit", Json::array({0, -4})}});
  ASSERT_TRUE(applied.ok()) << applied.error();
  EXPECT_EQ(applied->position["to_move"], "blue");
  EXPECT_EQ(hd->cell_name(demo, Hex{0, 0}), "f6");
}

}  // namespace
}  // namespace hexdice::hexadecimal
