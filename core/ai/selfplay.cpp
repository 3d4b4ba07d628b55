#include "core/ai/selfplay.h"

#include <cstdio>

namespace hexdice::ai {

Position deployed_start(std::uint64_t seed, int radius, int dice, HouseRules rules) {
  auto created = Position::create(radius, {{"red", 0, false}, {"blue", 3, false}}, rules);
  HEXDICE_CHECK(created.ok());
  Position pos = std::move(created).value();
  Rng rng(seed);
  std::vector<Hex> zone = pos.deployment_zone(0);
  for (std::size_t i = zone.size(); i > 1; --i)
    std::swap(zone[i - 1], zone[static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(i)))]);
  HEXDICE_CHECK(static_cast<std::size_t>(dice) <= zone.size());
  for (int k = 0; k < dice; ++k) {
    const int face = rng.face();
    const Hex h = zone[static_cast<std::size_t>(k)];
    HEXDICE_CHECK(pos.place(h, 0, face).ok());
    HEXDICE_CHECK(pos.place(Hex{-h.q, -h.r}, 1, face).ok());
  }
  pos.set_to_move(0);
  return pos;
}

GameResult play_game(Position pos, Engine& p0, Engine& p1, Rng& rng, int max_actions) {
  GameResult g;
  Engine* engines[2] = {&p0, &p1};
  while (!pos.game_over() && g.actions < max_actions) {
    const int side = pos.to_move();
    std::optional<Action> a = engines[side]->choose(pos, rng);
    ++g.actions;
    if (!a) {  // the turn is skipped
      pos.set_to_move(pos.next_player(side));
      continue;
    }
    if (a->type == ActionType::Reroll && a->face == 0) a->face = static_cast<std::uint8_t>(rng.face());
    const Status ok = validate(pos, *a);
    if (!ok) {
      std::fprintf(stderr, "hexdice: engine %s played an illegal action: %s\n", engines[side]->name().c_str(),
                   ok.error().c_str());
      HEXDICE_CHECK(ok.ok());
    }
    g.log.push_back(*a);
    apply_unchecked(pos, *a);
  }
  g.winner = pos.winner();
  return g;
}

Result<SelfplayStats> run_selfplay(const SelfplayConfig& cfg,
                                   const std::function<void(int, const GameResult&, bool)>& on_game) {
  auto ea = make_engine(cfg.a, cfg.limits);
  auto eb = make_engine(cfg.b, cfg.limits);
  if (!ea) return Error{"unknown engine \"" + cfg.a + "\" (random, greedy, hint, scenario-enemy)"};
  if (!eb) return Error{"unknown engine \"" + cfg.b + "\" (random, greedy, hint, scenario-enemy)"};
  if (cfg.games < 0) return Error{"--games must be >= 0"};
  if (cfg.radius < kMinRadius || cfg.radius > kMaxRadius) return Error{"radius out of range"};
  if (cfg.dice < 1 || cfg.dice > 9) return Error{"dice must be 1..9 (the deployment zone holds 9)"};
  SelfplayStats st;
  for (int g = 0; g < cfg.games; ++g) {
    const Position start = deployed_start(Rng::mix(cfg.seed, static_cast<std::uint64_t>(g / 2)), cfg.radius, cfg.dice);
    const bool a_is_red = g % 2 == 0;
    Rng rng(Rng::mix(cfg.seed ^ 0x5eedULL, static_cast<std::uint64_t>(g)));
    GameResult r = a_is_red ? play_game(start, *ea, *eb, rng, cfg.max_actions)
                            : play_game(start, *eb, *ea, rng, cfg.max_actions);
    st.actions += r.actions;
    int res = -1;
    if (r.winner >= 0) res = ((r.winner == 0) == a_is_red) ? 0 : 1;
    if (res == 0) ++st.a_wins;
    else if (res == 1) ++st.b_wins;
    else ++st.draws;
    st.results.push_back(res);
    if (on_game) on_game(g, r, a_is_red);
  }
  return st;
}

}  // namespace hexdice::ai
