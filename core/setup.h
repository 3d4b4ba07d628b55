// The setup phase of a Hex Dice game (rules.md sections 2 and 3) as its own state
// machine: Roll -> Reroll -> Deploy -> FirstPlayer -> Done.
//
// Dice are inputs (STYLE.md point 4): every event carries the faces that were rolled,
// read by the camera, typed by a player or drawn from a seeded generator. Setup never
// rolls anything itself. Each event is checked; a violation returns an Error naming
// the rule and leaves the state unchanged.
//
// Events (and their JSON form, the database payload and text-record source):
//   roll        {"type":"roll","player":"red","faces":[1,2,3,3,5,6]}      army roll, once per player
//   reroll      {"type":"reroll","player":"red","from":[6,5],"to":[2,1]}  once per player; from == [] declines
//   place       {"type":"place","player":"red","face":3,"cell":[0,-4]}    one die of the army onto the zone
//   first_roll  {"type":"first_roll","player":"red","face":5}             highest first; ties roll again
//
// Phases are global: every player rolls (any order), then every player rerolls or
// declines, then all dice are placed (any order, players interleaved: the table deploys
// at once), then the contenders roll for first player until one is highest.
#pragma once

#include <string>
#include <vector>

#include "core/hex.h"
#include "core/json_io.h"
#include "core/result.h"
#include "core/rules.h"

namespace hexdice {

struct SetupConfig {
  int radius = 5;
  std::vector<Player> players;  // id + corner; turn order is clockwise by corner
  int dice_per_player = 6;
  HouseRules house_rules;
  // House rule `any_dice_count` (off by default): accept any dice count from 1 up to
  // the size of the deployment zone instead of the rules.md section 2 table.
  bool any_dice_count = false;
  bool operator==(const SetupConfig&) const = default;
};

// Checks the player count, distinct ids/corners, radius and the dice count against the
// rules.md section 2 table (2p: 6 or 8, 3p: 6, 4p: 4 or 5, 6p: 3 or 4).
Status validate_config(const SetupConfig& config);
// Player ids are colour names (interfaces.md): letters, digits, '_' or '-'.
Status validate_player_ids(const std::vector<Player>& players);
// The dice counts the section 2 table allows for n players (empty when n is not 2/3/4/6).
std::vector<int> allowed_dice_counts(int num_players);
// floor(dice / 3) (rules.md section 3.2).
constexpr int reroll_allowance(int dice) { return dice / 3; }

enum class SetupPhase { Roll = 0, Reroll, Deploy, FirstPlayer, Done };
std::string_view phase_name(SetupPhase p);

enum class SetupEventType { Roll = 0, Reroll, Place, FirstRoll };
std::string_view setup_event_name(SetupEventType t);

struct SetupEvent {
  SetupEventType type = SetupEventType::Roll;
  std::string player;
  std::vector<int> faces;  // roll: the army; reroll: the dice given up ("from")
  std::vector<int> to;     // reroll: their new faces, same order
  int face = 0;            // place: the die's face; first_roll: the rolled face
  Hex cell;                // place
  bool operator==(const SetupEvent&) const = default;

  static SetupEvent roll(std::string player, std::vector<int> faces);
  static SetupEvent reroll(std::string player, std::vector<int> from, std::vector<int> to);
  static SetupEvent decline(std::string player) { return reroll(std::move(player), {}, {}); }
  static SetupEvent place(std::string player, int face, Hex cell);
  static SetupEvent first_roll(std::string player, int face);
};

class GameSetup {
 public:
  GameSetup() = default;
  static Result<GameSetup> create(const SetupConfig& config);

  const SetupConfig& config() const { return config_; }
  SetupPhase phase() const { return phase_; }
  bool done() const { return phase_ == SetupPhase::Done; }
  const std::vector<SetupEvent>& events() const { return events_; }

  // Checks an event against rules.md section 3 without applying it.
  Status check(const SetupEvent& e) const;
  // Checks, then applies; on error nothing changes.
  Status apply(const SetupEvent& e);

  int num_players() const { return board_.num_players(); }
  // The player's army: faces as rolled (and rerolled), in roll order.
  const std::vector<int>& army(int p) const { return army_[static_cast<std::size_t>(p)]; }
  // Faces still to place (Deploy phase).
  std::vector<int> unplaced(int p) const;
  bool has_rolled(int p) const { return rolled_[static_cast<std::size_t>(p)]; }
  bool has_rerolled(int p) const { return rerolled_[static_cast<std::size_t>(p)]; }
  // The board as deployed so far (to_move meaningless until done()).
  const Position& board() const { return board_; }
  // Players still rolling for first player, and this round's rolls (0 = not yet rolled).
  const std::vector<int>& contenders() const { return contenders_; }
  int first_roll_of(int p) const { return round_roll_[static_cast<std::size_t>(p)]; }
  int first_player() const { return first_; }  // -1 until decided
  // Players who still have something to do in the current phase, in turn order.
  std::vector<int> waiting_for() const;

  // The starting position with to_move set; an error until the setup is done.
  Result<Position> start_position() const;

 private:
  Status check_impl(const SetupEvent& e, int p) const;
  void advance();

  SetupConfig config_;
  SetupPhase phase_ = SetupPhase::Roll;
  Position board_;
  std::vector<SetupEvent> events_;
  std::vector<std::vector<int>> army_;
  std::vector<std::vector<int>> placed_;  // faces placed per player
  std::vector<bool> rolled_, rerolled_;
  std::vector<int> contenders_;
  std::vector<int> round_roll_;
  int first_ = -1;
};

// JSON forms (see the top of this file). Errors name the field.
Json to_json(const SetupEvent& e);
Result<SetupEvent> setup_event_from_json(const Json& j);
// {"radius":5,"players":[{"id":"red","corner":"N"},...],"dice_per_player":6,
//  "house_rules":{...,"any_dice_count":false}}
Json to_json(const SetupConfig& c);
Result<SetupConfig> setup_config_from_json(const Json& j);

}  // namespace hexdice
