// Solo and co-op scenarios (docs/scenarios.md) and the game that runs one: the heroes'
// side plays by the ordinary rules; every Enemy Turn the activation roll (a physical die
// read by the camera, or a seeded virtual roll) picks an entry of the scenario's
// activation table, and the enemy units it names carry out its orders (enemy.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/playout.h"
#include "core/json_io.h"
#include "core/rules.h"
#include "core/solo/enemy.h"

namespace hexdice::solo {

struct ScenarioUnit {
  int face = 1;
  Hex at;
  std::string tag;  // optional name for activation entries and objectives ("boss")
  int tokens = 0;
  bool guard = false;
};

struct ActivationEntry {
  std::vector<int> rolls;        // die results that select this entry (1..6)
  int face = 0;                  // selects enemy units showing this face (0: not by face)
  std::string tag;               // or units with this tag
  bool all = false;              // or every enemy unit
  bool group = false;            // every selected unit acts (one at a time); else the Dark Rule picks one
  std::vector<Order> orders;     // tried in turn until one can be carried out
  std::string text;              // as printed on the scenario card
};

struct Reinforcement {
  int round = 0;                 // arrives at the start of this round's Enemy Turn
  std::vector<ScenarioUnit> units;
  std::string text;
};

struct Scenario {
  std::string id, name, description;
  int difficulty = 1;
  int radius = 5;
  HouseRules rules;
  // The heroes' side.
  std::string hero_id = "blue";
  int hero_corner = 3;                  // S
  std::vector<ScenarioUnit> hero_units; // fixed units (no deployment), or
  std::vector<int> hero_army;           // fixed faces deployed by the players, or
  int roll_dice = 0, roll_rerolls = 0;  // a rolled army
  std::vector<Hex> hero_deploy;         // cells the heroes may deploy on
  // The enemy.
  std::string enemy_id = "black";
  int enemy_corner = 0;                 // N
  std::vector<ScenarioUnit> enemy_units;
  bool heroes_first = true;
  bool activation_markers = false;      // co-op (seeds/004): each hero acts once until all have acted
  std::vector<ActivationEntry> table;   // looked up by roll
  std::vector<Reinforcement> reinforcements;
  std::vector<std::string> special_rules;  // printed rules (narrative and effects)
  // Victory.
  bool hero_base_capture = true;        // heroes win by standing on the enemy base
  bool enemy_base_capture = true;       // the enemy wins by standing on the heroes' base
  std::vector<std::string> defeat_tags; // heroes win when no enemy unit with any of these tags is left
  std::vector<Hex> reach;               // heroes win when a hero stands on one of these cells
  int turn_limit = 0;                   // rounds (0: none)
  int on_limit = -1;                    // result when the limit passes: +1 heroes, -1 enemy, 0 draw

  const ActivationEntry* entry_for(int roll) const;
  int army_size() const;
};

Result<Scenario> scenario_from_json(const Json& j);
Result<Scenario> parse_scenario(std::string_view text);

// A hero army for a game: fixed units as they are; otherwise the faces (rolled with
// `rng` when the scenario rolls) deployed at random on the deployment cells.
std::vector<ScenarioUnit> auto_setup(const Scenario& sc, Rng& rng);

struct EnemyStep {
  int roll = 0;
  std::optional<Action> action;  // none: nothing done (skipped turn, or the order could not be carried out)
  std::string explanation;
  std::string text;              // describe() of the applied action
};

class SoloGame {
 public:
  // Places the scenario's enemy and the given heroes; checks the heroes' setup.
  static Result<SoloGame> start(const Scenario& sc, const std::vector<ScenarioUnit>& heroes);

  const Scenario& scenario() const { return sc_; }
  const Position& position() const { return pos_; }
  int hero() const { return hero_; }
  int enemy() const { return enemy_; }
  bool heroes_turn() const { return !over() && pos_.to_move() == hero_; }
  bool over() const { return result_set_; }
  int result() const { return result_; }  // +1 heroes won, -1 enemy won, 0 draw
  const std::string& result_text() const { return result_text_; }
  int round() const { return round_; }
  std::string tag_at(int cell) const;

  // The heroes' action (validated); the error names the broken rule.
  Result<Outcome> hero_action(const Action& a);
  // The heroes' legal actions now (with activation markers: only of heroes not yet activated).
  std::vector<Action> hero_actions() const;
  // With activation markers: has the hero on this cell acted since the markers were last cleared?
  bool activated(int cell) const { return cell >= 0 && cell < static_cast<int>(acted_.size()) && acted_[static_cast<std::size_t>(cell)]; }
  // One Enemy Turn with the given activation roll (1..6).
  std::vector<EnemyStep> enemy_turn(int roll);

  struct Record {
    Position before;
    Action action;
    bool enemy = false;
  };
  const std::vector<Record>& history() const { return history_; }

 private:
  void applied(const Position& before, const Action& a, const Outcome& out);
  void check_end(int actor);
  void finish(int result, std::string text);
  void refresh_markers();

  Scenario sc_;
  Position pos_;
  int hero_ = 0, enemy_ = 1;
  int round_ = 1;
  bool result_set_ = false;
  int result_ = 0;
  std::string result_text_;
  std::vector<int> tags_;  // per cell: index into tag_names_, -1 none
  std::vector<std::string> tag_names_;
  std::vector<char> acted_;  // per cell: activation marker of the hero standing there
  std::vector<Record> history_;
};

}  // namespace hexdice::solo
