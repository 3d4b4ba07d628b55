// Games of any ruleset in the SQLite game record (record_db.h), through the core's Ruleset
// interface (core/ruleset.h): Wizard Hex, Hexa Decimal (and its variants), or any game
// registered there. Hex Dice keeps its own typed path (RecordedGame, GameRecord).
//
// A RulesetGame is one game being played and logged: the start position and players are
// written when it is created; every action is checked with the ruleset's own legality
// (Ruleset::apply; the error names the rule) and committed in ONE transaction (action JSON,
// outcome JSON, position JSON after it, the player's id) before it becomes part of record();
// a takeback is an event like Hex Dice's; the game ends by itself when the rules say so
// (winner or draw, and the reason: checkmate, stalemate, repetition, elimination, score ...),
// or by finish() (resignation, agreed draw). On any error the database and record() are
// unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companion/record/record_db.h"
#include "core/ruleset.h"

namespace hexdice::record {

struct RulesetPlayer {
  std::string id;
  std::string name;  // "" = unknown
};

struct RulesetMove {
  int ply = 0;           // 1-based, in the current line
  std::string player;    // who acted
  Json action, outcome, position;  // position after it
  std::string text;      // the game's notation (Ruleset::describe)
};

// Everything logged, in order: actions (of any line, including those taken back later),
// takebacks and annotations.
struct RulesetEvent {
  std::string kind;      // "action", "takeback", "annotation"
  int ply = 0;           // action: its ply; takeback: the ply undone
  std::string player;
  std::string text;      // action: notation; annotation: the text
  Json action;           // action
};

struct RulesetResult {
  bool finished = false;
  std::string winner;        // player id; "" for a draw
  std::string termination;   // "checkmate", "elimination", "resignation", "draw_agreed", ...
  std::string end_time;
};

// One game as data: what a viewer needs to list, print and replay it.
struct RulesetRecord {
  std::int64_t id = 0;
  std::string ruleset;
  Json start;
  std::vector<RulesetPlayer> players;
  std::string event, site, started_at;
  std::vector<RulesetMove> line;     // the current line (takebacks honoured)
  std::vector<RulesetEvent> events;  // everything, in order
  RulesetResult result;

  int ply() const { return static_cast<int>(line.size()); }
  const Json& current() const { return position_at(ply()); }
  const Json& position_at(int ply) const;  // 0 = start; clamped to 0..ply()
};

// The text record (PGN in spirit): tags, then "N. PLAYER notation", "takeback N",
// "{annotation}", and the result line.
std::string to_text(const RulesetRecord& r);
// --json of `hexdice history GAME`: {"kind":"start",...}, then one object per event.
std::vector<Json> record_json_lines(const RulesetRecord& r);

// Reads a game of a ruleset other than Hex Dice, replaying every stored action through the
// rules: a row whose action is illegal, or whose stored position differs from the replay,
// is refused with its event number.
Result<RulesetRecord> load_ruleset_game(RecordDb& db, std::int64_t id);

class RulesetGame {
 public:
  // A new game from `start` (normalized by the ruleset; its "ruleset" key must name
  // `ruleset`). `players` may be empty (then the position's player ids, no names).
  static Result<RulesetGame> create(RecordDb& db, std::string_view ruleset, const Json& start,
                                    std::vector<RulesetPlayer> players = {}, std::string event = "",
                                    std::string site = "");
  static Result<RulesetGame> resume(RecordDb& db, std::int64_t id);
  // The most recent unfinished game of that ruleset (nullopt when there is none).
  static Result<std::optional<RulesetGame>> resume_unfinished(RecordDb& db, std::string_view ruleset);

  std::int64_t id() const { return rec_.id; }
  const RulesetRecord& record() const { return rec_; }
  const Ruleset& rules() const { return *rules_; }
  bool finished() const { return rec_.result.finished; }

  // Checks the action against the rules, commits it (one transaction) and returns its
  // outcome; when the position after it is over, the result is committed too.
  Result<Json> act(const Json& action);
  // Undoes the last action of the current line (logged as an event, never a deletion).
  Status takeback();
  Status annotate(const std::string& text);
  // Ends the game by agreement: `winner` "" is a draw; `termination` e.g. "resignation".
  Status finish(const std::string& winner, const std::string& termination, const std::string& end_time = "");

 private:
  RulesetGame(RecordDb& db, const Ruleset& rules, RulesetRecord rec) : db_(&db), rules_(&rules), rec_(std::move(rec)) {}
  Status end_if_over();
  RecordDb* db_;
  const Ruleset* rules_;
  RulesetRecord rec_;
};

}  // namespace hexdice::record
