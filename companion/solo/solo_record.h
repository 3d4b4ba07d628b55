// A solo or co-op game (core/solo) in the SQLite game record (companion/record). See
// docs/scenarios.md "The game record".
//
// What is logged, in order: every hero action and every enemy action (RecordedGame::act,
// so each one is checked by the Hex Dice rules again), one annotation per Enemy Turn
// before the enemy's actions (the activation roll, where it came from, the entry it
// selected or "skipped"), one annotation per enemy decision (the Dark Rule's "why"), and
// the result.
//
// The games table marks the game: event "solo: <scenario name>", site "seed S" (window)
// or "seed S, heroes played by E" (`hexdice solo`), players heroes side + "enemy".
//
// One solo game is one game of the record (schema 4). What solo play does that no Hex
// Dice action can say is logged as a scenario step (core/game_record.h), which only a
// solo game's record (RecordMode::Solo, games.solo) accepts: a skipped Enemy Turn is the
// enemy's `pass`, a group activation the enemy's `again`, reinforcements are `place`
// steps, and a base capture the scenario does not count is `rule base_capture_off`. The
// recorder finds them by comparing the record's position with the solo game's before
// every action and at the end of every Enemy Turn, and refuses to go on when the two
// differ in anything else. A game logged before schema 4 may be a chain of "parts" (each
// part's first annotation names the game it continues); load_solo still follows it.
//
// Roll annotations are machine readable (resume replays them):
//   "Enemy Turn, round R: activation roll X (virtual roll #K of seed S): <entry>"
//   "Enemy Turn, round R: activation roll X (die read by the camera): <entry>"
// The window's virtual die is Rng(seed) after solo::auto_setup; virtual roll #K is its
// K-th face() after that, so a resumed game continues the same dice.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "companion/record/record_db.h"
#include "core/solo/scenario.h"

namespace hexdice::solo {

struct RollNote {
  int round = 0;
  int roll = 0;
  bool virtual_die = true;
  int index = 0;              // virtual: K of "virtual roll #K"
  std::uint64_t seed = 0;     // virtual: the seed
};
std::string roll_annotation(const RollNote& r, const std::string& entry);
std::optional<RollNote> parse_roll_annotation(const std::string& text);
// The whole roll annotation of an Enemy Turn: the entry the roll selected, or
// "no enemy matches: skipped".
std::string enemy_turn_annotation(const Scenario& sc, const RollNote& r, const std::vector<EnemyStep>& steps);

class SoloRecorder {
 public:
  // Opens part 1 of a new solo game at the game's current position (no action played yet).
  static Result<SoloRecorder> create(record::RecordDb& db, const SoloGame& g, const std::string& site);
  // Attaches to a logged game whose history the recorder has replayed into `g`.
  static SoloRecorder attach(record::RecordDb& db, record::RecordedGame part, std::int64_t first_id, int part_no,
                             std::size_t logged, const std::string& site);

  // Logs the history entries of `g` not logged yet (hero actions, the actions of an Enemy
  // Turn) with their annotations (the roll note first
  // and the enemy's reasons, each before its action).
  Status log_hero(const SoloGame& g);
  Status log_enemy_turn(const SoloGame& g, const std::string& roll_note, const std::vector<EnemyStep>& steps);
  // The end: the scenario's result (or `stopped` when the game was cut short).
  Status finish(const SoloGame& g, const std::string& stopped = "");

  std::int64_t first_id() const { return first_id_; }
  std::int64_t current_id() const { return part_->id(); }
  int parts() const { return part_no_; }
  std::size_t logged() const { return logged_; }
  const std::vector<std::int64_t>& part_ids() const { return ids_; }
  // Has anything been written since `earlier` (a copy of this recorder)?
  bool wrote_since(const SoloRecorder& earlier) const {
    return current_id() != earlier.current_id() || part_->record().entries().size() != earlier.part_->record().entries().size() ||
           part_->record().finished() != earlier.part_->record().finished();
  }

 private:
  SoloRecorder(record::RecordDb& db, record::RecordedGame part) : db_(&db), part_(std::move(part)) {}
  // Writes the scenario steps that take the record's position to `target` (a base capture
  // not counted, reinforcements, and with `turn` a skipped turn or a group activation),
  // then (with `turn`) checks that the two positions are equal.
  Status bridge(const SoloGame& g, const Position& target, bool turn);
  Status discount_base_capture(const SoloGame& g);
  Status log_action(const SoloGame& g, std::size_t index);
  record::RecordDb* db_;
  std::optional<record::RecordedGame> part_;
  std::int64_t first_id_ = 0;
  int part_no_ = 1;
  std::size_t logged_ = 0;  // history entries of the SoloGame already in the record
  std::string site_;
  std::vector<std::int64_t> ids_;
};

// The game record's view of one solo game: its entries (for a game logged before schema 4:
// every part's entries in order).
struct LoggedSolo {
  std::vector<std::int64_t> parts;           // game ids, first to last
  std::uint64_t seed = 0;
  std::string site;
  std::vector<RecordEntry> entries;          // all parts' entries (part notes included)
  std::vector<int> entry_part;               // index into parts per entry
  std::optional<record::RecordedGame> last;  // the last part, ready to continue
  bool finished = false;
};
// The most recent unfinished solo game of this scenario logged by the window (site
// "seed S", S = `seed` when given); nullopt when there is none.
Result<std::optional<LoggedSolo>> find_unfinished_solo(record::RecordDb& db, const Scenario& sc,
                                                        std::optional<std::uint64_t> seed = std::nullopt);
// Every part of the solo game whose last (or any) part is `id`.
Result<LoggedSolo> load_solo(record::RecordDb& db, std::int64_t id);

}  // namespace hexdice::solo
