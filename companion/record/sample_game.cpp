#include "companion/record/sample_game.h"

#include <algorithm>
#include <random>

namespace hexdice {

namespace {

const char* const kColours[] = {"red", "blue", "green", "yellow", "white", "black"};

// Default corners per player count (rules.md section 2).
std::vector<int> corners_for(int n) {
  switch (n) {
    case 2: return {0, 3};
    case 3: return {0, 2, 4};
    case 4: return {1, 2, 4, 5};
    default: return {0, 1, 2, 3, 4, 5};
  }
}

struct Rng {
  std::mt19937_64 eng;
  int below(int n) { return static_cast<int>(eng() % static_cast<std::uint64_t>(n)); }
  int die() { return below(6) + 1; }
  bool chance(int percent) { return below(100) < percent; }
};

void must(const Status& s) { HEXDICE_CHECK(s.ok()); }

}  // namespace

GameRecord sample_game(const SampleOptions& o) {
  Rng rng{std::mt19937_64(o.seed)};
  SetupConfig c;
  c.radius = o.radius;
  const auto corners = corners_for(o.players);
  for (int i = 0; i < o.players; ++i) c.players.push_back(Player{kColours[i], corners[static_cast<std::size_t>(i)], false});
  const auto allowed = allowed_dice_counts(o.players);
  c.dice_per_player = o.dice > 0 ? o.dice : (allowed.empty() ? 6 : allowed.front());
  RecordHeader h;
  h.event = "Sample game (seed " + std::to_string(o.seed) + ")";
  h.site = "hexdice record sample";
  h.start_time = o.start_time;
  auto made = GameRecord::with_setup(c, h);
  HEXDICE_CHECK(made.ok());
  GameRecord r = std::move(made).value();

  // GameSetup: roll, reroll (or decline), deploy, roll for first player.
  const GameSetup& st = r.setup();
  const auto order = st.board().turn_order();
  for (int p : order) {
    std::vector<int> faces;
    for (int k = 0; k < c.dice_per_player; ++k) faces.push_back(rng.die());
    must(r.add_setup_event(SetupEvent::roll(c.players[static_cast<std::size_t>(p)].id, faces)));
  }
  for (int p : order) {
    const int k = rng.below(reroll_allowance(c.dice_per_player) + 1);
    std::vector<int> army = st.army(p), from, to;
    for (int i = 0; i < k; ++i) {
      const int pick = rng.below(static_cast<int>(army.size()));
      from.push_back(army[static_cast<std::size_t>(pick)]);
      army.erase(army.begin() + pick);
      to.push_back(rng.die());
    }
    must(r.add_setup_event(SetupEvent::reroll(c.players[static_cast<std::size_t>(p)].id, from, to)));
  }
  for (int p : order) {
    for (int face : st.army(p)) {
      std::vector<Hex> free;
      for (Hex cell : st.board().deployment_zone(p))
        if (st.board().at(cell)->empty()) free.push_back(cell);
      const Hex cell = free[static_cast<std::size_t>(rng.below(static_cast<int>(free.size())))];
      must(r.add_setup_event(SetupEvent::place(c.players[static_cast<std::size_t>(p)].id, face, cell)));
    }
  }
  while (!st.done()) {
    const auto waiting = st.waiting_for();
    must(r.add_setup_event(SetupEvent::first_roll(c.players[static_cast<std::size_t>(waiting.front())].id, rng.die())));
  }
  if (o.annotations) must(r.annotate("setup done; " + r.current().player(r.current().to_move()).id + " moves first"));

  // Play: random legal actions, attacks that win preferred.
  std::vector<Action> legal;
  while (r.ply() < o.max_plies && !r.current().game_over()) {
    const Position& pos = r.current();
    legal_actions(pos, legal);
    HEXDICE_CHECK(!legal.empty());
    std::vector<Action> wins, others;
    for (const Action& a : legal) {
      auto c2 = preview_combat(pos, a);
      if (c2 && c2->success) wins.push_back(a);
      else if (a.type != ActionType::Guard || rng.chance(5)) others.push_back(a);
    }
    if (others.empty()) others = legal;
    const auto& pool = !wins.empty() && rng.chance(70) ? wins : others;
    Action a = pool[static_cast<std::size_t>(rng.below(static_cast<int>(pool.size())))];
    if (a.type == ActionType::Reroll) a.face = static_cast<std::uint8_t>(rng.die());
    auto out = r.add_action(a);
    HEXDICE_CHECK(out.ok());
    if (o.annotations && out->combat && rng.chance(20))
      must(r.annotate(out->combat->success ? "a clean kill" : "both sides {bruised}, a \\ b"));
    if (o.takebacks && !r.current().game_over() && a.type != ActionType::Reroll && rng.chance(3)) must(r.takeback());
  }
  GameResult result = r.natural_result();
  if (!result.finished()) result = GameResult{ResultReason::DrawAgreed, ""};
  must(r.finish(result, o.end_time));
  return r;
}

}  // namespace hexdice
