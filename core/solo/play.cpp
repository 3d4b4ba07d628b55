#include "core/solo/play.h"

#include <algorithm>

namespace hexdice::solo {

namespace {

std::string army_text(const Position& pos, int side, const SoloGame* g) {
  std::string s;
  for (int c = 0; c < pos.board().size(); ++c) {
    const Piece& p = pos.at(c);
    if (p.empty() || p.owner != side) continue;
    s += (s.empty() ? "" : ", ") + std::string(unit_stats(p.face).name) + " " + pos.board().name(c);
    if (g && !g->tag_at(c).empty()) s += " [" + g->tag_at(c) + "]";
  }
  return s;
}

}  // namespace

Result<SoloRun> play_solo(const Scenario& sc, const std::string& engine, std::uint64_t seed,
                          const ai::SearchLimits& limits, int max_rounds, SoloGame* final_game,
                          const std::vector<int>& rolls, const SoloObserver& observe) {
  for (int r : rolls)
    if (r < 1 || r > 6) return Error{"an activation roll must be 1-6, got " + std::to_string(r)};
  std::size_t next_roll = 0;
  int virtual_rolls = 0;
  auto player = ai::make_engine(engine, limits);
  if (!player || engine == "scenario-enemy")
    return Error{"unknown auto-player \"" + engine + "\" (random, greedy, hint)"};
  Rng rng(seed);
  auto started = SoloGame::start(sc, auto_setup(sc, rng));
  if (!started) return Error{"scenario \"" + sc.name + "\": " + started.error()};
  SoloGame g = std::move(started).value();
  SoloRun run;
  const Position& pos = g.position();
  run.log.push_back("Scenario: " + sc.name + " (difficulty " + std::to_string(sc.difficulty) + ", radius " +
                    std::to_string(sc.radius) + ", seed " + std::to_string(seed) + ")");
  for (const auto& r : sc.special_rules) run.log.push_back("Special rule: " + r);
  run.log.push_back("Heroes (" + pos.player(g.hero()).id + ", played by " + engine + "): " + army_text(pos, g.hero(), &g));
  run.log.push_back("Enemy (" + pos.player(g.enemy()).id + "): " + army_text(pos, g.enemy(), &g));
  if (observe) {
    SoloEvent ev;
    ev.start = true;
    ev.round = g.round();
    if (Status s = observe(g, ev); !s) return Error{s.error()};
  }
  while (!g.over() && g.round() <= max_rounds) {
    const int before_round = g.round();
    const std::string rnd = "Round " + std::to_string(before_round) + " ";
    if (g.heroes_turn()) {
      std::string why;
      const std::vector<Action> allowed = g.hero_actions();
      std::optional<Action> a = player->choose(pos, rng, &why, &allowed);
      HEXDICE_CHECK(a.has_value());
      if (a->type == ActionType::Reroll && a->face == 0) a->face = static_cast<std::uint8_t>(rng.face());
      const Position before = pos;
      auto out = g.hero_action(*a);
      if (!out) return Error{"the auto-player's action was refused: " + out.error()};
      ++run.actions;
      run.log.push_back(rnd + "heroes: " + describe(before, *a, &*out) + (engine == "hint" ? "  (" + why + ")" : ""));
      if (observe) {
        SoloEvent ev;
        ev.round = before_round;
        if (Status s = observe(g, ev); !s) return Error{s.error()};
      }
    } else {
      SoloEvent ev;
      ev.enemy_turn = true;
      ev.round = before_round;
      ev.virtual_roll = next_roll >= rolls.size();
      ev.roll = ev.virtual_roll ? rng.face() : rolls[next_roll++];
      if (ev.virtual_roll) ev.virtual_index = ++virtual_rolls;
      ev.steps = g.enemy_turn(ev.roll);
      for (const EnemyStep& st : ev.steps) {
        run.log.push_back(rnd + "enemy: " + st.explanation + (st.action ? " => " + st.text : ""));
        if (st.action) ++run.actions;
      }
      if (observe)
        if (Status s = observe(g, ev); !s) return Error{s.error()};
    }
  }
  if (!g.over()) {
    run.result = 0;
    run.result_text = "stopped after " + std::to_string(max_rounds) + " rounds: draw";
  } else {
    run.result = g.result();
    run.result_text = g.result_text();
  }
  run.rounds = g.round();
  run.log.push_back("Result: " + run.result_text + " (round " + std::to_string(std::min(g.round(), max_rounds)) + ", " +
                    std::to_string(run.actions) + " actions)");
  if (final_game) *final_game = std::move(g);
  return run;
}

}  // namespace hexdice::solo
