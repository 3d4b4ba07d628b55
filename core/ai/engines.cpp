#include "core/ai/engines.h"

#include "core/ai/eval.h"
#include "core/ai/hint.h"
#include "core/solo/enemy.h"

namespace hexdice::ai {

namespace {

class RandomEngine final : public Engine {
 public:
  std::string name() const override { return "random"; }
  std::optional<Action> choose(const Position& pos, Rng& rng, std::string* why,
                               const std::vector<Action>* allowed) override {
    if (allowed)
      buf_ = *allowed;
    else
      legal_actions(pos, buf_);
    if (buf_.empty()) return std::nullopt;
    if (why) *why = "random";
    return buf_[static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(buf_.size())))];
  }

 private:
  std::vector<Action> buf_;
};

class GreedyEngine final : public Engine {
 public:
  std::string name() const override { return "greedy"; }
  std::optional<Action> choose(const Position& pos, Rng& rng, std::string* why,
                               const std::vector<Action>* allowed) override {
    if (pos.game_over()) return std::nullopt;
    if (why) *why = "greedy: best one-ply evaluation";
    if (allowed && allowed->empty()) return std::nullopt;
    return greedy_action(pos, rng, allowed);
  }
};

class HintEngine final : public Engine {
 public:
  explicit HintEngine(const SearchLimits& limits) : limits_(limits), searcher_(18) {}
  std::string name() const override { return "hint"; }
  std::optional<Action> choose(const Position& pos, Rng& rng, std::string* why,
                               const std::vector<Action>* allowed) override {
    const SearchResult r = searcher_.search(pos, limits_, rng.next(), allowed);
    if (!r.found) return std::nullopt;
    if (why) *why = explain(pos, r.best, r);
    return r.best;
  }

 private:
  SearchLimits limits_;
  Searcher searcher_;
};

// The solo enemy playing a normal game: roll 1d6; the units of that face are the
// activation table's entry (rules.md section 9); the Dark Rule picks which one acts,
// with that face's default orders. A roll matching no unit skips the turn.
class ScenarioEnemyEngine final : public Engine {
 public:
  std::string name() const override { return "scenario-enemy"; }
  std::optional<Action> choose(const Position& pos, Rng& rng, std::string* why,
                               const std::vector<Action>* allowed) override {
    if (pos.game_over()) return std::nullopt;
    (void)allowed;  // the activation roll decides who acts
    const int roll = rng.face();
    std::optional<solo::Decision> best;
    for (int c = 0; c < pos.board().size(); ++c) {
      const Piece& p = pos.at(c);
      if (p.empty() || p.owner != pos.to_move() || p.face != roll) continue;
      solo::Decision d = solo::decide_chain(pos, c, solo::default_orders(roll));
      if (d.action && (!best || d.harm > best->harm)) best = std::move(d);
    }
    if (!best) {
      if (why) *why = "rolled " + std::to_string(roll) + ": no " + std::string(unit_stats(roll).name) + " can act; turn skipped";
      return std::nullopt;
    }
    if (why) *why = "rolled " + std::to_string(roll) + ": " + best->explanation;
    return best->action;
  }
};

}  // namespace

Action greedy_action(const Position& pos, Rng& rng, const std::vector<Action>* allowed) {
  std::vector<Action> acts;
  if (allowed)
    acts = *allowed;
  else
    legal_actions(pos, acts);
  HEXDICE_CHECK(!acts.empty());
  const int me = pos.to_move();
  long long best = -(1LL << 62);
  std::vector<Action> ties;
  Position next = pos;
  for (const Action& a : acts) {
    long long v = 0;
    if (a.type == ActionType::Reroll) {
      for (int f = 1; f <= 6; ++f) {
        next = pos;
        Action r = a;
        r.face = static_cast<std::uint8_t>(f);
        apply_unchecked(next, r);
        v += evaluate(next, me);
      }
      v /= 6;
    } else {
      next = pos;
      apply_unchecked(next, a);
      v = evaluate(next, me);
    }
    if (v > best) {
      best = v;
      ties.clear();
    }
    if (v == best) ties.push_back(a);
  }
  return ties[static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(ties.size())))];
}

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names = {"random", "greedy", "hint", "scenario-enemy"};
  return names;
}

std::unique_ptr<Engine> make_engine(const std::string& name, const SearchLimits& limits) {
  if (name == "random") return std::make_unique<RandomEngine>();
  if (name == "greedy") return std::make_unique<GreedyEngine>();
  if (name == "hint") return std::make_unique<HintEngine>(limits);
  if (name == "scenario-enemy") return std::make_unique<ScenarioEnemyEngine>();
  return nullptr;
}

}  // namespace hexdice::ai
