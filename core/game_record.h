// The whole record of one Hex Dice game as plain data (pure: no SQLite here).
//
//   header   ruleset "hexdice", house rules, players (id, corner, name), event/site,
//            start/end time strings (as given; ISO 8601 UTC by convention), result
//   setup    the setup config and its events (core/setup.h), or, when the setup phase
//            was skipped (`referee --start`), the starting position itself
//   entries  in the order they happened: accepted actions (each with its full outcome),
//            takebacks (an event, never a deletion), free-text annotations
//
// A takeback undoes the last action of the current line; a reroll can never be taken
// back (its die has been rolled; the new face stands, rules.md section 5). Replaying to
// any ply of the current line gives the position. Every mutation is checked against the
// rules and leaves the record unchanged on error.
//
// The text record (to_text / record_from_text) is in the spirit of PGN; see game_record.cpp
// for its grammar. record_from_text(to_text(r)) == r for every record r.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_io.h"
#include "core/result.h"
#include "core/rules.h"
#include "core/setup.h"

namespace hexdice {

// Scenario: a solo game ended by its scenario's own victory condition (reach a hex, defeat
// a target, a turn limit: docs/scenarios.md); only a solo record accepts it.
enum class ResultReason { None = 0, Annihilation, BaseCapture, Elimination, Resignation, DrawAgreed, Scenario };
std::string_view reason_name(ResultReason r);  // "annihilation", ..., "scenario", "" for None
std::optional<ResultReason> reason_from_name(std::string_view name);

struct GameResult {
  ResultReason reason = ResultReason::None;
  std::string winner;  // player id; empty for a draw or an unfinished game
  std::string detail;  // Scenario only: what happened ("heroes win: a hero reached f10")
  bool finished() const { return reason != ResultReason::None; }
  bool operator==(const GameResult&) const = default;
};

// The [Termination] text: the reason's name, or "scenario: <detail>" for a scenario result.
std::string termination_text(const GameResult& r);
// Its inverse (nullopt for an unknown reason or a scenario result without its text).
std::optional<GameResult> result_from_termination(std::string_view termination, std::string winner);

struct RecordHeader {
  std::string event;                // free text; empty = unknown
  std::string site;
  std::vector<std::string> names;   // one per player (same order as the config), may be empty
  std::string start_time;           // e.g. "2026-11-29T18:20:55Z"
  std::string end_time;
  GameResult result;
  bool operator==(const RecordHeader&) const = default;
};

// Pass, Again, Place and Rule are the scenario steps of a solo game (docs/scenarios.md):
// what solo play does that no Hex Dice action can say. A record accepts them only when it
// was made as a solo record (GameRecord::from_position(..., RecordMode::Solo)); a
// two-player Hex Dice game refuses every one of them.
//   pass   the player to move does nothing; the turn goes on (a skipped Enemy Turn)
//   again  the named player, who is not to move, takes the turn again (a group activation:
//          the enemy acts twice in a row)
//   place  a die is put on an empty cell mid-game (reinforcements)
//   rule   a scenario rule changes the position; the only one is "base_capture_off": the
//          rules ended the game by a base capture the scenario does not count, play goes on
enum class EntryKind { Action = 0, Takeback, Annotation, Pass, Again, Place, Rule };
std::string_view entry_kind_name(EntryKind k);  // "action", ..., "pass", "again", "place", "rule"
std::optional<EntryKind> entry_kind_from_name(std::string_view name);
constexpr bool is_scenario_step(EntryKind k) { return k >= EntryKind::Pass; }
inline constexpr const char* kRuleBaseCaptureOff = "base_capture_off";

enum class RecordMode { Standard = 0, Solo };

struct RecordEntry {
  EntryKind kind = EntryKind::Action;
  int ply = 0;         // action: its ply number in the line (1-based); takeback: the ply undone;
                       // scenario step: the number of actions in the line before it
  int player = -1;     // action: the acting player's index; pass: who passes; again: who acts
                       // again; place: the new die's owner
  Action action;       // action
  Outcome outcome;     // action
  std::string text;    // annotation; rule: the rule's name
  int cell = -1;       // place: the cell index
  int face = 0;        // place: 1..6
  int tokens = 0;      // place: reduction tokens
  bool guard = false;  // place
  bool operator==(const RecordEntry&) const = default;

  static RecordEntry pass(int player);
  static RecordEntry again(int player);
  static RecordEntry place(int player, int cell, int face, int tokens = 0, bool guard = false);
  static RecordEntry rule(std::string name);
};

// Checks a scenario step against `pos` and applies it (the error names what is wrong).
Status apply_scenario_step(Position& pos, const RecordEntry& step);
// "pass black", "place black Knight e2 tokens 1 guarded", "rule base_capture_off".
std::string describe_scenario_step(const Position& before, const RecordEntry& step);

class GameRecord {
 public:
  GameRecord() = default;
  // A game that begins with the setup phase (rules.md section 3).
  static Result<GameRecord> with_setup(const SetupConfig& config, RecordHeader header = {});
  // A game that begins from a given position (a scenario, or a board set up by hand).
  // RecordMode::Solo makes a solo game's record: it also accepts the scenario steps.
  static Result<GameRecord> from_position(const Position& start, RecordHeader header = {},
                                          RecordMode mode = RecordMode::Standard);

  const RecordHeader& header() const { return header_; }
  void set_event(std::string s) { header_.event = std::move(s); }
  void set_site(std::string s) { header_.site = std::move(s); }
  void set_start_time(std::string s) { header_.start_time = std::move(s); }
  Status set_names(std::vector<std::string> names);

  // The setup config; for a game from a given position: its radius, players and house
  // rules, dice_per_player 0.
  const SetupConfig& config() const { return config_; }
  bool has_setup() const { return has_setup_; }
  const GameSetup& setup() const { return setup_; }
  // True once the setup is done (or was skipped): actions may be added.
  bool in_play() const { return !line_.empty(); }
  bool finished() const { return header_.result.finished(); }
  bool solo() const { return mode_ == RecordMode::Solo; }
  RecordMode mode() const { return mode_; }

  Status add_setup_event(const SetupEvent& e);
  // Validates against the current position (rules.h apply); returns the outcome.
  Result<Outcome> add_action(const Action& a);
  // Undoes the last action of the current line (an event; nothing is deleted). Not
  // across a scenario step: a die placed or a turn passed after it cannot be undone.
  Status takeback();
  Status annotate(std::string text);
  // A scenario step (pass, again, place, rule) of a solo game, checked against the
  // current position, which it changes (it is not a ply: the line's position after the
  // last action changes). Refused in a two-player game and once the game is over.
  Status add_scenario_step(RecordEntry step);
  // Ends the game. Rule-decided reasons (annihilation, base_capture, elimination) must
  // agree with the current position's winner; resignation / draw_agreed are recorded as given;
  // a scenario result (solo records only) needs its text, and no rules winner yet.
  Status finish(GameResult result, std::string end_time);
  // The result the current position implies (reason None while nobody has won).
  GameResult natural_result() const;

  const std::vector<RecordEntry>& entries() const { return entries_; }
  // The start position (after setup); an error while the setup is unfinished.
  Result<Position> start_position() const;
  // The current position: the setup board while in setup, else the last of the line.
  const Position& current() const { return line_.empty() ? setup_.board() : line_.back(); }
  // Number of actions in the current line (takebacks honoured).
  int ply() const { return line_.empty() ? 0 : static_cast<int>(line_.size()) - 1; }
  // Entry indices of the actions in the current line, in order.
  const std::vector<int>& line_entries() const { return line_entry_; }
  // Position after `ply` actions of the current line (0 = start).
  Result<Position> position_at(int ply) const;
  // Position right after entries()[i] (replaying actions and takebacks up to it).
  Result<Position> position_after_entry(int i) const;

  bool operator==(const GameRecord& o) const {
    return header_ == o.header_ && has_setup_ == o.has_setup_ && mode_ == o.mode_ && config_ == o.config_ &&
           setup_.events() == o.setup_.events() && start_ == o.start_ && entries_ == o.entries_;
  }

 private:
  RecordHeader header_;
  bool has_setup_ = true;
  RecordMode mode_ = RecordMode::Standard;
  SetupConfig config_;
  GameSetup setup_;
  std::optional<Position> start_;       // only when the setup was skipped
  std::vector<RecordEntry> entries_;
  std::vector<Position> line_;          // line_[k] = position after k plies of the current line
                                        // (and the scenario steps that follow ply k)
  std::vector<int> line_entry_;         // entry index of each action in the line
};

// ---- Text record (PGN in spirit) ----------------------------------------------------
std::string to_text(const GameRecord& r);
Result<GameRecord> record_from_text(std::string_view text);

// ---- JSON helpers ----------------------------------------------------------------------
Json to_json(const GameResult& r);
Json players_json(const GameRecord& r);  // [{"id","corner","name"}]
// One JSON object per line: the setup, then each action of the current line with its
// outcome (`hexdice history --json`).
// Solo records add {"kind":"pass"|"again"|"place"|"rule", ...} lines in their order.
std::vector<Json> record_json_lines(const GameRecord& r);
// A scenario step as JSON: {"kind":"pass"}, {"kind":"again"}, {"kind":"rule","rule":NAME},
// {"kind":"place","face":F,"cell":[q,r],"tokens":T,"guard":G}; the player is kept apart
// (by id). scenario_step_from_json reads it back for the player index given.
Json scenario_step_json(const RecordEntry& step, const Board& board);
Result<RecordEntry> scenario_step_from_json(const Json& j, int player, const Board& board);

}  // namespace hexdice
