// The companion's digital board for the rulesets other than Hex Dice (Wizard Hex, Hexa
// Decimal), played by clicks through the core Ruleset interface (core/ruleset.h) with an
// in-memory game record that can be saved, loaded and replayed. No ImGui here (tested
// headless: tests/companion/test_game_view.cpp); the drawing is in board_wizardhex.cpp,
// board_hexadecimal.cpp and board_games.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companion/gui/view_model.h"
#include "companion/record/ruleset_game.h"
#include "core/ruleset.h"

namespace hexdice::gui {

struct GameCellView {
  Hex hex;
  std::string name;     // "c3"
  double x = 0, y = 0;  // centre in hex-size units (flat-top, y down, (0,0) at 0,0)
  Rgb fill;             // Wizard Hex: seat tint of a starting space; Hexa Decimal: road grey
  std::string note;     // small text low in the cell (Hexa Decimal: the segment name)
};
struct GamePieceView {
  int cell = -1;        // index into GameBoardView::cells
  Rgb body, ink;
  std::string text;     // drawn on the piece: "2" (level), "K"
  std::string label;    // "fire Silver", "white King"
  int level = 0;        // Wizard Hex: 1 Bronze, 2 Silver, 3 Gold
  bool round = false;   // Hexa Decimal pieces are round; Wizard Hex dice square
};
struct GameLabelView {
  double x = 0, y = 0;  // hex-size units
  std::string text;
  Rgb colour;
};
struct GameBoardView {
  std::string ruleset;
  int radius = 0;
  std::vector<GameCellView> cells;  // every playable cell
  std::vector<GamePieceView> pieces;
  std::vector<GameLabelView> labels;  // seat names around Wizard Hex; "hole" of Hexa Decimal
  std::vector<Hex> holes;             // drawn dark, never a cell
  std::string turn_text;              // "green to move (2 moves left)", "black wins (checkmate)"
  std::vector<std::string> player_lines;
  int cell_index(Hex h) const;        // index into cells, or -1
};
// The board of a Wizard Hex or Hexa Decimal position (JSON, normalized or not).
Result<GameBoardView> build_game_view(const Json& position);

// The cells an action is clicked by: `first` the piece or space clicked first (from, at,
// king, or to for an expand), `second` the target clicked next (target, or to after a
// from); -1 when absent (e.g. a promotion: a button).
struct GameTarget {
  Json action;
  std::string text;  // describe()
  int first = -1, second = -1;
};
std::vector<GameTarget> game_targets(const Json& position, const GameBoardView& view);

// Click logic: click a cell to select it (its targets light up; actions with no second
// cell are proposed at once, e.g. Wizard Hex expands and stacks), click a lit target to
// propose, confirm commits. Same contract as BoardInteraction for Hex Dice.
class GameInteraction {
 public:
  void click(const Json& position, const GameBoardView& view, int cell);
  void propose(const GameTarget& t) { proposed_ = {t}; choice_ = 0; }
  std::optional<Json> confirm();
  void reject() { proposed_.clear(); choice_ = 0; }
  void clear() { *this = GameInteraction{}; }
  int selected() const { return selected_; }
  const std::vector<GameTarget>& targets() const { return targets_; }
  const std::vector<GameTarget>& proposed() const { return proposed_; }
  int choice() const { return choice_; }
  void choose(int i) { if (i >= 0 && i < static_cast<int>(proposed_.size())) choice_ = i; }

 private:
  int selected_ = -1;
  std::vector<GameTarget> targets_, proposed_;
  int choice_ = 0;
};

// One game with its record: the start, every accepted action with its outcome and the
// position after it. `ply` is the position shown (the replay scrubber); actions are
// played only at the live end.
struct GameMove {
  Json action, outcome, position;
  std::string text;
};
class GameSession {
 public:
  // "wizardhex" / "hexadecimal", variant or start preset ("" = default).
  static Result<GameSession> start(std::string_view ruleset, std::string_view variant);
  // {"start": POSITION, "actions": [ACTION...]}: every action re-applied through the rules.
  static Result<GameSession> from_record(const Json& record);
  Json record() const;
  const Ruleset& rules() const { return *rules_; }
  // A game of the SQLite record (companion/record/ruleset_game.h), its moves logged from now
  // on: every play() and takeback() is committed there first (one transaction each); a
  // database error refuses the move. Opens at its last move.
  static Result<GameSession> from_db(record::RecordDb& db, std::int64_t id);
  // Starts logging this (fresh) session into `db` as a new game.
  Status log_to(record::RecordDb& db);
  std::int64_t game_id() const { return logged_ ? logged_->id() : 0; }  // 0 = not logged
  const record::RulesetGame* logged() const { return logged_ ? &*logged_ : nullptr; }
  Status play(const Json& action);
  bool takeback();
  int plies() const { return static_cast<int>(moves_.size()); }
  const std::vector<GameMove>& moves() const { return moves_; }
  const Json& position_at(int ply) const;
  const Json& shown() const { return position_at(ply); }
  bool live() const { return ply == plies(); }
  int ply = 0;
  GameInteraction interaction;
  std::string status;  // last error or outcome line

 private:
  const Ruleset* rules_ = nullptr;
  Json start_;
  std::vector<GameMove> moves_;
  std::optional<record::RulesetGame> logged_;
};

// The game the Board and History panels show instead of Hex Dice, when one is open.
GameSession* active_game();
void set_active_game(std::optional<GameSession> game);
// Opens "wizardhex[:preset]", "hexadecimal[:variant]" or a saved record (*.json); one
// error line otherwise.
Status open_game(const std::string& spec);
// The same with a game database: "wizardhex[:preset]" / "hexadecimal[:variant]" resume the
// latest unfinished game of that ruleset (of that start, when one is named), else start a new
// one logged there; a saved record (*.json) opens unlogged, for replay.
Status open_game(const std::string& spec, record::RecordDb* db);
// Opens logged game `id` of the database (any ruleset but Hex Dice) on the board.
Status open_logged_game(record::RecordDb& db, std::int64_t id);
// --click for the open game: a cell name clicks that cell, "confirm" plays the proposal.
// False when no such game is open (the click is Hex Dice's).
bool click_game_cell(const std::string& name);

}  // namespace hexdice::gui
