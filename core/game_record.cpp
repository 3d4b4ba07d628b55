#include "core/game_record.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace hexdice {

// ---- Names ----------------------------------------------------------------------------

std::string_view reason_name(ResultReason r) {
  switch (r) {
    case ResultReason::None: return "";
    case ResultReason::Annihilation: return "annihilation";
    case ResultReason::BaseCapture: return "base_capture";
    case ResultReason::Elimination: return "elimination";
    case ResultReason::Resignation: return "resignation";
    case ResultReason::DrawAgreed: return "draw_agreed";
    case ResultReason::Scenario: return "scenario";
  }
  return "";
}

std::optional<ResultReason> reason_from_name(std::string_view name) {
  for (auto r : {ResultReason::Annihilation, ResultReason::BaseCapture, ResultReason::Elimination,
                 ResultReason::Resignation, ResultReason::DrawAgreed, ResultReason::Scenario})
    if (reason_name(r) == name) return r;
  return std::nullopt;
}

namespace {
constexpr std::string_view kScenarioPrefix = "scenario: ";
}

std::string termination_text(const GameResult& r) {
  if (r.reason == ResultReason::Scenario) return std::string(kScenarioPrefix) + r.detail;
  return std::string(reason_name(r.reason));
}

std::optional<GameResult> result_from_termination(std::string_view t, std::string winner) {
  if (t.substr(0, kScenarioPrefix.size()) == kScenarioPrefix) {
    if (t.size() == kScenarioPrefix.size()) return std::nullopt;
    return GameResult{ResultReason::Scenario, std::move(winner), std::string(t.substr(kScenarioPrefix.size()))};
  }
  auto reason = reason_from_name(t);
  if (!reason || *reason == ResultReason::Scenario) return std::nullopt;
  return GameResult{*reason, std::move(winner), ""};
}

std::string_view entry_kind_name(EntryKind k) {
  switch (k) {
    case EntryKind::Action: return "action";
    case EntryKind::Takeback: return "takeback";
    case EntryKind::Annotation: return "annotation";
    case EntryKind::Pass: return "pass";
    case EntryKind::Again: return "again";
    case EntryKind::Place: return "place";
    case EntryKind::Rule: return "rule";
  }
  return "?";
}

std::optional<EntryKind> entry_kind_from_name(std::string_view name) {
  for (auto k : {EntryKind::Action, EntryKind::Takeback, EntryKind::Annotation, EntryKind::Pass, EntryKind::Again,
                 EntryKind::Place, EntryKind::Rule})
    if (entry_kind_name(k) == name) return k;
  return std::nullopt;
}

// ---- Scenario steps (solo play) ----------------------------------------------------------

RecordEntry RecordEntry::pass(int player) {
  RecordEntry e;
  e.kind = EntryKind::Pass;
  e.player = player;
  return e;
}
RecordEntry RecordEntry::again(int player) {
  RecordEntry e;
  e.kind = EntryKind::Again;
  e.player = player;
  return e;
}
RecordEntry RecordEntry::place(int player, int cell, int face, int tokens, bool guard) {
  RecordEntry e;
  e.kind = EntryKind::Place;
  e.player = player;
  e.cell = cell;
  e.face = face;
  e.tokens = tokens;
  e.guard = guard;
  return e;
}
RecordEntry RecordEntry::rule(std::string name) {
  RecordEntry e;
  e.kind = EntryKind::Rule;
  e.text = std::move(name);
  return e;
}

Status apply_scenario_step(Position& pos, const RecordEntry& e) {
  const std::string what = std::string(entry_kind_name(e.kind)) + ": ";
  const bool needs_player = e.kind == EntryKind::Pass || e.kind == EntryKind::Again || e.kind == EntryKind::Place;
  if (needs_player && (e.player < 0 || e.player >= pos.num_players())) return Error{what + "no such player"};
  if (e.kind != EntryKind::Rule && pos.game_over())
    return Error{what + "the game is over: " + pos.player(pos.winner()).id + " has won"};
  switch (e.kind) {
    case EntryKind::Pass:
      if (e.player != pos.to_move())
        return Error{what + pos.player(e.player).id + " cannot pass: it is " + pos.player(pos.to_move()).id + "'s turn"};
      pos.set_to_move(pos.next_player(e.player));
      return {};
    case EntryKind::Again:
      if (e.player == pos.to_move())
        return Error{what + pos.player(e.player).id + " is already to move (a turn that stays is not a step)"};
      if (pos.player(e.player).eliminated) return Error{what + pos.player(e.player).id + " is eliminated"};
      pos.set_to_move(e.player);
      return {};
    case EntryKind::Place: {
      if (e.cell < 0 || e.cell >= pos.board().size()) return Error{what + "the cell is off the map"};
      if (Status s = pos.place(pos.board().hex(e.cell), e.player, e.face, e.tokens, e.guard); !s)
        return Error{what + s.error()};
      return {};
    }
    case EntryKind::Rule: {
      if (e.text != kRuleBaseCaptureOff)
        return Error{what + "unknown scenario rule \"" + e.text + "\" (known: " + kRuleBaseCaptureOff + ")"};
      const int w = pos.winner();
      if (w < 0) return Error{what + "base_capture_off: nobody has won, there is no base capture to discount"};
      if (pos.num_players() != 2) return Error{what + "base_capture_off: only in a two-sided game"};
      const int loser = 1 - w;
      if (pos.unit_count(loser) == 0)
        return Error{what + "base_capture_off: " + pos.player(w).id + " won by annihilation, not by a base capture"};
      if (pos.at(pos.base_cell(loser)).owner != w)
        return Error{what + "base_capture_off: " + pos.player(w).id + " does not hold " + pos.player(loser).id + "'s base"};
      pos.set_winner(-1);
      return {};
    }
    default: return Error{"not a scenario step: " + std::string(entry_kind_name(e.kind))};
  }
}

std::string describe_scenario_step(const Position& before, const RecordEntry& e) {
  auto who = [&]() { return e.player >= 0 && e.player < before.num_players() ? before.player(e.player).id : std::string("?"); };
  switch (e.kind) {
    case EntryKind::Pass: return "pass " + who();
    case EntryKind::Again: return "again " + who();
    case EntryKind::Place: {
      std::string s = "place " + who() + " " + std::string(unit_stats(e.face).name) + " " +
                      (e.cell >= 0 && e.cell < before.board().size() ? before.board().name(e.cell) : std::string("?"));
      if (e.tokens) s += " tokens " + std::to_string(e.tokens);
      if (e.guard) s += " guarded";
      return s;
    }
    case EntryKind::Rule: return "rule " + e.text;
    default: return "";
  }
}

namespace {

std::vector<std::string> normalise_names(std::vector<std::string> names, std::size_t n) {
  if (std::all_of(names.begin(), names.end(), [](const std::string& s) { return s.empty(); })) return {};
  names.resize(n);
  return names;
}

}  // namespace

// ---- GameRecord -------------------------------------------------------------------------

Result<GameRecord> GameRecord::with_setup(const SetupConfig& config, RecordHeader header) {
  auto setup = GameSetup::create(config);
  if (!setup) return Error{setup.error()};
  if (header.names.size() > config.players.size()) return Error{"record: more player names than players"};
  GameRecord r;
  r.has_setup_ = true;
  r.config_ = config;
  r.setup_ = std::move(setup).value();
  header.names = normalise_names(std::move(header.names), config.players.size());
  header.result = {};
  header.end_time.clear();
  r.header_ = std::move(header);
  return r;
}

Result<GameRecord> GameRecord::from_position(const Position& start, RecordHeader header, RecordMode mode) {
  if (header.names.size() > start.players().size()) return Error{"record: more player names than players"};
  if (start.game_over()) return Error{"record: the start position is already won by " + start.player(start.winner()).id};
  if (Status s = validate_player_ids(start.players()); !s) return Error{"record: " + s.error()};
  GameRecord r;
  r.has_setup_ = false;
  r.mode_ = mode;
  r.config_.radius = start.radius();
  r.config_.players = start.players();
  for (auto& p : r.config_.players) p.eliminated = false;
  r.config_.dice_per_player = 0;
  r.config_.house_rules = start.rules();
  r.start_ = start;
  r.line_.push_back(start);
  header.names = normalise_names(std::move(header.names), start.players().size());
  header.result = {};
  header.end_time.clear();
  r.header_ = std::move(header);
  return r;
}

Status GameRecord::set_names(std::vector<std::string> names) {
  if (names.size() > config_.players.size()) return Error{"record: more player names than players"};
  header_.names = normalise_names(std::move(names), config_.players.size());
  return {};
}

Status GameRecord::add_setup_event(const SetupEvent& e) {
  if (!has_setup_) return Error{"setup: this game began from a given position; it has no setup phase"};
  if (finished()) return Error{"the game is over (" + std::string(reason_name(header_.result.reason)) + ")"};
  if (setup_.done()) return Error{"setup: the setup is over; the game is in play (rules.md section 3)"};
  if (Status s = setup_.apply(e); !s) return s;
  if (setup_.done()) line_.push_back(std::move(setup_.start_position()).value());
  return {};
}

Result<Outcome> GameRecord::add_action(const Action& a) {
  if (finished()) return Error{"the game is over (" + std::string(reason_name(header_.result.reason)) + ")"};
  if (!in_play()) return Error{setup_.start_position().error()};
  const Position& before = line_.back();
  auto applied = apply(before, a);
  if (!applied) return Error{applied.error()};
  RecordEntry e;
  e.kind = EntryKind::Action;
  e.ply = ply() + 1;
  e.player = before.to_move();
  e.action = a;
  e.outcome = applied->outcome;
  line_.push_back(std::move(applied->position));
  line_entry_.push_back(static_cast<int>(entries_.size()));
  entries_.push_back(e);
  return e.outcome;
}

Status GameRecord::takeback() {
  if (finished()) return Error{"the game is over (" + std::string(reason_name(header_.result.reason)) + ")"};
  if (ply() == 0) return Error{"takeback: there is no action to take back"};
  const RecordEntry& last = entries_[static_cast<std::size_t>(line_entry_.back())];
  for (std::size_t i = static_cast<std::size_t>(line_entry_.back()) + 1; i < entries_.size(); ++i)
    if (is_scenario_step(entries_[i].kind))
      return Error{"takeback: a scenario step (" + std::string(entry_kind_name(entries_[i].kind)) + ") follows ply " +
                   std::to_string(ply()) + "; it cannot be taken back"};
  if (last.action.type == ActionType::Reroll)
    return Error{"takeback: a reroll can never be taken back; the die has been rolled and the new face stands "
                 "(rules.md section 5)"};
  RecordEntry e;
  e.kind = EntryKind::Takeback;
  e.ply = ply();
  entries_.push_back(e);
  line_.pop_back();
  line_entry_.pop_back();
  return {};
}

Status GameRecord::annotate(std::string text) {
  if (text.empty()) return Error{"annotation: empty text"};
  RecordEntry e;
  e.kind = EntryKind::Annotation;
  e.text = std::move(text);
  entries_.push_back(std::move(e));
  return {};
}

Status GameRecord::add_scenario_step(RecordEntry e) {
  if (!is_scenario_step(e.kind)) return Error{"not a scenario step: " + std::string(entry_kind_name(e.kind))};
  if (!solo())
    return Error{std::string(entry_kind_name(e.kind)) +
                 ": refused: this is a two-player Hex Dice game, and only a solo game's record holds scenario steps "
                 "(rules.md section 5: turns alternate, one action each; section 3: dice are placed only at setup)"};
  if (finished()) return Error{"the game is over (" + std::string(reason_name(header_.result.reason)) + ")"};
  if (!in_play()) return Error{setup_.start_position().error()};
  Position next = line_.back();
  if (Status s = apply_scenario_step(next, e); !s) return s;
  e.ply = ply();
  e.action = {};
  e.outcome = {};
  if (e.kind != EntryKind::Rule) e.text.clear();
  if (e.kind != EntryKind::Place) e.cell = -1, e.face = 0, e.tokens = 0, e.guard = false;
  if (e.kind == EntryKind::Rule) e.player = -1;
  line_.back() = std::move(next);
  entries_.push_back(std::move(e));
  return {};
}

GameResult GameRecord::natural_result() const {
  if (!in_play()) return {};
  const Position& pos = line_.back();
  if (pos.winner() < 0) return {};
  GameResult r;
  r.winner = pos.player(pos.winner()).id;
  if (pos.num_players() == 2)
    r.reason = pos.unit_count(1 - pos.winner()) == 0 ? ResultReason::Annihilation : ResultReason::BaseCapture;
  else
    r.reason = ResultReason::Elimination;
  return r;
}

Status GameRecord::finish(GameResult result, std::string end_time) {
  if (finished()) return Error{"the game is already over (" + std::string(reason_name(header_.result.reason)) + ")"};
  const GameResult natural = natural_result();
  switch (result.reason) {
    case ResultReason::None: return Error{"finish: a result needs a reason"};
    case ResultReason::Annihilation:
    case ResultReason::BaseCapture:
    case ResultReason::Elimination:
      if (!natural.finished())
        return Error{"finish: nobody has won by the rules yet (rules.md section 7); record a resignation or an "
                     "agreed draw instead"};
      if (natural != result)
        return Error{"finish: the position says " + natural.winner + " won by " + std::string(reason_name(natural.reason)) +
                     ", not " + (result.winner.empty() ? std::string("nobody") : result.winner) + " by " +
                     std::string(reason_name(result.reason)) + " (rules.md section 7)"};
      break;
    case ResultReason::Resignation: {
      if (natural.finished())
        return Error{"finish: " + natural.winner + " has already won by " + std::string(reason_name(natural.reason))};
      bool known = false;
      for (const auto& p : config_.players) known |= p.id == result.winner;
      if (!known) return Error{"finish: after a resignation the winner must be a player of this game"};
      break;
    }
    case ResultReason::DrawAgreed:
      if (natural.finished())
        return Error{"finish: " + natural.winner + " has already won by " + std::string(reason_name(natural.reason))};
      if (!result.winner.empty()) return Error{"finish: an agreed draw has no winner"};
      break;
    case ResultReason::Scenario: {
      if (!solo())
        return Error{"finish: a scenario result is refused: this is a two-player Hex Dice game (only a solo game's "
                     "record, [Mode \"solo\"], ends by its scenario)"};
      if (natural.finished())
        return Error{"finish: " + natural.winner + " has already won by " + std::string(reason_name(natural.reason))};
      if (result.detail.empty()) return Error{"finish: a scenario result needs its text (what happened)"};
      if (result.detail.find('\n') != std::string::npos) return Error{"finish: a scenario result's text is one line"};
      bool known = result.winner.empty();  // empty: the scenario ended in a draw
      for (const auto& p : config_.players) known |= p.id == result.winner;
      if (!known) return Error{"finish: a scenario result's winner must be a player of this game (or none: a draw)"};
      break;
    }
  }
  if (result.reason != ResultReason::Scenario) result.detail.clear();
  header_.result = std::move(result);
  header_.end_time = std::move(end_time);
  return {};
}

Result<Position> GameRecord::start_position() const {
  if (!has_setup_) return *start_;
  return setup_.start_position();
}

Result<Position> GameRecord::position_at(int k) const {
  if (!in_play()) return Error{setup_.start_position().error()};
  if (k < 0 || k > ply())
    return Error{"ply " + std::to_string(k) + " is outside the game (0.." + std::to_string(ply()) + ")"};
  return line_[static_cast<std::size_t>(k)];
}

Result<Position> GameRecord::position_after_entry(int i) const {
  if (i < 0 || i >= static_cast<int>(entries_.size()))
    return Error{"entry " + std::to_string(i) + " is outside the record"};
  auto start = start_position();
  if (!start) return Error{start.error()};
  std::vector<Position> stack{std::move(start).value()};
  for (int k = 0; k <= i; ++k) {
    const RecordEntry& e = entries_[static_cast<std::size_t>(k)];
    if (e.kind == EntryKind::Action) {
      Position next = stack.back();
      apply_unchecked(next, e.action);
      stack.push_back(std::move(next));
    } else if (e.kind == EntryKind::Takeback) {
      stack.pop_back();
    } else if (is_scenario_step(e.kind)) {
      if (Status s = apply_scenario_step(stack.back(), e); !s) return Error{s.error()};
    }
  }
  return stack.back();
}

// ---- Text record ------------------------------------------------------------------------
//
//   record   := tag* item*
//   tag      := '[' Name ' "' value '"]'   (value escapes \" and \\)
//   item     := setup-line | action-line | takeback-line | comment
//   setup    := "setup" ID ("rolls" F+ | "rerolls" F+ "->" F+ | "keeps all" | "places" UNIT CELL
//                         | "rolls" F "for first player")
//   action   := N "." ID describe(...)       e.g. "3. red Knight f2-g4"
//   takeback := "takeback" N                 (ply N of the current line is undone)
//   step     := "pass" ID | "again" ID | "place" ID UNIT CELL ["tokens" N] ["guarded"]
//             | "rule" NAME                  (scenario steps: only with [Mode "solo"])
//   comment  := '{' text '}'                 (text escapes \} and \\; may span lines)
//
// Tags: Event, Site ("?" = empty), Date (derived from StartTime, ignored on import),
// StartTime, EndTime, Ruleset, Radius, Players ("red:N blue:S"), one tag per player
// named by its capitalised id holding the player's name ("?" = none), Dice, HouseRules
// ("key=on|off ..."), Result (winner id, "draw" or "*"), Termination (reason),
// StartPosition (position JSON, only when the setup was skipped), Mode ("solo" for a solo
// game's record; absent for a two-player game).

namespace {

std::string escape(std::string_view s, char special) {
  std::string out;
  for (char c : s) {
    if (c == '\n' && special == '"') {  // a tag stays on one line
      out += "\\n";
      continue;
    }
    if (c == '\\' || c == special) out += '\\';
    out += c;
  }
  return out;
}

std::string cap(std::string id) {
  if (!id.empty()) id[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(id[0])));
  return id;
}

std::string faces_text(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + std::to_string(v[i]);
  return s;
}

std::string setup_line(const SetupEvent& e, const Board& b) {
  std::string s = "setup " + e.player + " ";
  switch (e.type) {
    case SetupEventType::Roll: return s + "rolls " + faces_text(e.faces);
    case SetupEventType::Reroll:
      if (e.faces.empty()) return s + "keeps all";
      return s + "rerolls " + faces_text(e.faces) + " -> " + faces_text(e.to);
    case SetupEventType::Place: return s + "places " + std::string(unit_stats(e.face).name) + " " + b.name(e.cell);
    case SetupEventType::FirstRoll: return s + "rolls " + std::to_string(e.face) + " for first player";
  }
  return s;
}

std::string house_rules_text(const SetupConfig& c) {
  auto on = [](bool b) { return b ? "on" : "off"; };
  return std::string("archer_star_free_path=") + on(c.house_rules.archer_star_free_path) +
         " ranged_needs_clear_line=" + on(c.house_rules.ranged_needs_clear_line) + " merge_sum=" +
         on(c.house_rules.merge_sum) + " any_dice_count=" + on(c.any_dice_count);
}

}  // namespace

std::string to_text(const GameRecord& r) {
  const RecordHeader& h = r.header();
  const SetupConfig& c = r.config();
  std::string out;
  auto tag = [&](const std::string& name, const std::string& value) {
    out += "[" + name + " \"" + escape(value, '"') + "\"]\n";
  };
  tag("Event", h.event.empty() ? "?" : h.event);
  tag("Site", h.site.empty() ? "?" : h.site);
  std::string date = "????.??.??";
  if (h.start_time.size() >= 10) {
    date = h.start_time.substr(0, 10);
    std::replace(date.begin(), date.end(), '-', '.');
  }
  tag("Date", date);
  if (!h.start_time.empty()) tag("StartTime", h.start_time);
  if (!h.end_time.empty()) tag("EndTime", h.end_time);
  tag("Ruleset", "hexdice");
  tag("Radius", std::to_string(c.radius));
  std::string players;
  for (const auto& p : c.players)
    players += (players.empty() ? "" : " ") + p.id + ":" + std::string(kDirNames[static_cast<std::size_t>(p.corner)]);
  tag("Players", players);
  for (std::size_t i = 0; i < c.players.size(); ++i)
    tag(cap(c.players[i].id), i < h.names.size() && !h.names[i].empty() ? h.names[i] : "?");
  if (r.has_setup()) tag("Dice", std::to_string(c.dice_per_player));
  tag("HouseRules", house_rules_text(c));
  if (h.result.finished()) {
    tag("Result", h.result.winner.empty() ? "draw" : h.result.winner);
    tag("Termination", termination_text(h.result));
  } else {
    tag("Result", "*");
  }
  if (!r.has_setup()) tag("StartPosition", to_json(*r.start_position()).dump());
  if (r.solo()) tag("Mode", "solo");
  out += "\n";

  const Board& b = *Board::get(c.radius);
  if (r.has_setup())
    for (const auto& e : r.setup().events()) out += setup_line(e, b) + "\n";
  // Replay the line to describe each action from the position before it.
  std::vector<Position> stack;
  if (auto start = r.start_position()) stack.push_back(std::move(start).value());
  for (const auto& e : r.entries()) {
    switch (e.kind) {
      case EntryKind::Action: {
        const Position& before = stack.back();
        out += std::to_string(e.ply) + ". " + before.player(e.player).id + " " + describe(before, e.action, &e.outcome) +
               "\n";
        Position next = before;
        apply_unchecked(next, e.action);
        stack.push_back(std::move(next));
        break;
      }
      case EntryKind::Takeback:
        out += "takeback " + std::to_string(e.ply) + "\n";
        stack.pop_back();
        break;
      case EntryKind::Annotation: out += "{" + escape(e.text, '}') + "}\n"; break;
      case EntryKind::Pass:
      case EntryKind::Again:
      case EntryKind::Place:
      case EntryKind::Rule:
        out += describe_scenario_step(stack.back(), e) + "\n";
        apply_scenario_step(stack.back(), e);
        break;
    }
  }
  return out;
}

namespace {

struct Item {
  enum Kind { Tag, Line, Comment } kind;
  int line;
  std::string name;  // tag name
  std::string text;  // tag value, line text or comment text
};

Result<std::vector<Item>> tokenize(std::string_view t) {
  std::vector<Item> items;
  std::size_t i = 0;
  int line = 1;
  auto err = [&](const std::string& m) { return Error{"record line " + std::to_string(line) + ": " + m}; };
  while (i < t.size()) {
    const char c = t[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == '[') {
      std::size_t j = i + 1;
      while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
      Item it{Item::Tag, line, std::string(t.substr(i + 1, j - i - 1)), ""};
      if (it.name.empty()) return err("a tag needs a name: [Name \"value\"]");
      while (j < t.size() && t[j] == ' ') ++j;
      if (j >= t.size() || t[j] != '"') return err("tag " + it.name + " needs a quoted value");
      ++j;
      bool closed = false;
      while (j < t.size()) {
        if (t[j] == '\\' && j + 1 < t.size()) {
          it.text += t[j + 1] == 'n' ? '\n' : t[j + 1];
          j += 2;
        } else if (t[j] == '"') {
          closed = true;
          ++j;
          break;
        } else if (t[j] == '\n') {
          break;
        } else {
          it.text += t[j++];
        }
      }
      while (j < t.size() && t[j] == ' ') ++j;
      if (!closed || j >= t.size() || t[j] != ']') return err("tag " + it.name + " is not closed with \"]");
      items.push_back(std::move(it));
      i = j + 1;
    } else if (c == '{') {
      Item it{Item::Comment, line, "", ""};
      std::size_t j = i + 1;
      bool closed = false;
      while (j < t.size()) {
        if (t[j] == '\\' && j + 1 < t.size()) {
          if (t[j + 1] == '\n') ++line;
          it.text += t[j + 1];
          j += 2;
        } else if (t[j] == '}') {
          closed = true;
          ++j;
          break;
        } else {
          if (t[j] == '\n') ++line;
          it.text += t[j++];
        }
      }
      if (!closed) return err("a comment { is never closed");
      items.push_back(std::move(it));
      i = j;
    } else {
      std::size_t j = t.find('\n', i);
      if (j == std::string_view::npos) j = t.size();
      std::string s(t.substr(i, j - i));
      while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
      items.push_back(Item{Item::Line, line, "", s});
      i = j;
    }
  }
  return items;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<int> to_int(const std::string& s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

int face_of_unit(const std::string& name) {
  for (int f = 1; f <= 6; ++f)
    if (unit_stats(f).name == name) return f;
  return 0;
}

// "f2" at the start of s: letter then digits. Returns the length used (0 = none).
std::size_t cell_prefix(const std::string& s, std::size_t from = 0) {
  if (from >= s.size() || s[from] < 'a' || s[from] > 'z') return 0;
  std::size_t j = from + 1;
  while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
  return j - from > 1 ? j - from : 0;
}

Result<SetupEvent> parse_setup_line(const std::vector<std::string>& t, const Board& b) {
  // t[0] == "setup"
  if (t.size() < 3) return Error{"a setup line reads: setup PLAYER rolls|rerolls|keeps|places ..."};
  const std::string& who = t[1];
  const std::string& verb = t[2];
  auto faces = [&](std::size_t from, std::size_t to, std::vector<int>& out) -> bool {
    for (std::size_t k = from; k < to; ++k) {
      auto f = to_int(t[k]);
      if (!f) return false;
      out.push_back(*f);
    }
    return true;
  };
  if (verb == "rolls") {
    if (t.size() == 7 && t[4] == "for" && t[5] == "first" && t[6] == "player") {
      auto f = to_int(t[3]);
      if (!f) return Error{"a roll for first player is a number"};
      return SetupEvent::first_roll(who, *f);
    }
    std::vector<int> f;
    if (!faces(3, t.size(), f)) return Error{"an army roll lists faces: setup red rolls 1 2 3 4 5 6"};
    return SetupEvent::roll(who, f);
  }
  if (verb == "keeps" && t.size() == 4 && t[3] == "all") return SetupEvent::decline(who);
  if (verb == "rerolls") {
    const auto arrow = std::find(t.begin(), t.end(), "->");
    if (arrow == t.end()) return Error{"a reroll reads: setup red rerolls 6 5 -> 2 1"};
    const auto a = static_cast<std::size_t>(arrow - t.begin());
    std::vector<int> from, to;
    if (!faces(3, a, from) || !faces(a + 1, t.size(), to)) return Error{"a reroll reads: setup red rerolls 6 5 -> 2 1"};
    return SetupEvent::reroll(who, from, to);
  }
  if (verb == "places" && t.size() == 5) {
    const int f = face_of_unit(t[3]);
    if (f == 0) return Error{"unknown unit \"" + t[3] + "\" (Infantry, Archer, Knight, Assault, Tanker, Balance)"};
    auto cell = b.parse_name(t[4]);
    if (!cell) return Error{"\"" + t[4] + "\" is not a cell of the radius-" + std::to_string(b.radius()) + " map"};
    return SetupEvent::place(who, f, *cell);
  }
  return Error{"unknown setup line (rolls, rerolls, keeps all, places, rolls N for first player)"};
}

// Parses the action part of "N. player <describe text>".
Result<Action> parse_action_text(const std::string& desc, const Board& b) {
  std::string d = desc;
  if (auto semi = d.find(';'); semi != std::string::npos) d = d.substr(0, semi);
  const auto t = split(d);
  if (t.size() < 2) return Error{"an action reads like: 3. red Knight f2-g4"};
  if (face_of_unit(t[0]) == 0) return Error{"unknown unit \"" + t[0] + "\""};
  auto cell = [&](const std::string& s) -> Result<int> {
    auto h = b.parse_name(s);
    if (!h) return Error{"\"" + s + "\" is not a cell of the radius-" + std::to_string(b.radius()) + " map"};
    return b.index(*h);
  };
  Action a;
  const std::size_t n = cell_prefix(t[1]);
  if (n == 0) return Error{"\"" + t[1] + "\" does not start with a cell name"};
  auto from = cell(t[1].substr(0, n));
  if (!from) return Error{from.error()};
  a.unit = static_cast<std::int16_t>(*from);
  if (n < t[1].size()) {
    if (t[1][n] != '-' && t[1][n] != 'x') return Error{"a move reads f2-g4 or f2xg4"};
    auto to = cell(t[1].substr(n + 1));
    if (!to) return Error{to.error()};
    a.type = ActionType::Move;
    a.target = static_cast<std::int16_t>(*to);
    return a;
  }
  if (t.size() < 3) return Error{"an action needs a verb after the cell (f2-g4, shoots, strikes, rerolls, guards, merges)"};
  const std::string& verb = t[2];
  if ((verb == "shoots" || verb == "strikes") && t.size() >= 4) {
    auto to = cell(t[3]);
    if (!to) return Error{to.error()};
    a.type = verb == "shoots" ? ActionType::Ranged : ActionType::Special;
    a.target = static_cast<std::int16_t>(*to);
    return a;
  }
  if (verb == "merges" && t.size() >= 5 && t[3] == "with") {
    auto to = cell(t[4]);
    if (!to) return Error{to.error()};
    a.type = ActionType::Merge;
    a.target = static_cast<std::int16_t>(*to);
    return a;
  }
  if (verb == "guards") {
    a.type = ActionType::Guard;
    return a;
  }
  if (verb == "rerolls" && t.size() >= 6 && t[3] == "->") {
    std::string f = t[5];
    if (f.size() == 3 && f[0] == '(' && f[2] == ')' && f[1] >= '1' && f[1] <= '6') {
      a.type = ActionType::Reroll;
      a.face = static_cast<std::uint8_t>(f[1] - '0');
      return a;
    }
  }
  return Error{"cannot read the action \"" + desc + "\""};
}

// "pass black", "again black", "place black Knight e2 [tokens N] [guarded]", "rule NAME".
Result<RecordEntry> parse_scenario_step(const std::vector<std::string>& t, const Position& pos) {
  const std::string& verb = t[0];
  if (verb == "rule") {
    if (t.size() != 2) return Error{"a scenario rule reads: rule base_capture_off"};
    return RecordEntry::rule(t[1]);
  }
  if (t.size() < 2) return Error{"a " + verb + " line names its player: " + verb + " black"};
  const int p = pos.player_index(t[1]);
  if (p < 0) return Error{"\"" + t[1] + "\" is not a player of this game"};
  if (verb == "pass" || verb == "again") {
    if (t.size() != 2) return Error{"a " + verb + " line reads: " + verb + " black"};
    return verb == "pass" ? RecordEntry::pass(p) : RecordEntry::again(p);
  }
  // place
  if (t.size() < 4) return Error{"a place line reads: place black Knight e2 [tokens N] [guarded]"};
  const int f = face_of_unit(t[2]);
  if (f == 0) return Error{"unknown unit \"" + t[2] + "\" (Infantry, Archer, Knight, Assault, Tanker, Balance)"};
  const Board& b = pos.board();
  auto h = b.parse_name(t[3]);
  if (!h) return Error{"\"" + t[3] + "\" is not a cell of the radius-" + std::to_string(b.radius()) + " map"};
  int tokens = 0;
  bool guard = false;
  std::size_t k = 4;
  if (k + 1 < t.size() && t[k] == "tokens") {
    auto n = to_int(t[k + 1]);
    if (!n || *n == 0) return Error{"tokens N: N is 1-6"};
    tokens = *n;
    k += 2;
  }
  if (k < t.size() && t[k] == "guarded") {
    guard = true;
    ++k;
  }
  if (k != t.size()) return Error{"a place line reads: place black Knight e2 [tokens N] [guarded]"};
  return RecordEntry::place(p, b.index(*h), f, tokens, guard);
}

Result<std::vector<Player>> parse_players(const std::string& v) {
  std::vector<Player> out;
  for (const auto& tok : split(v)) {
    const auto colon = tok.rfind(':');
    if (colon == std::string::npos || colon == 0) return Error{"[Players] lists id:CORNER pairs, e.g. \"red:N blue:S\""};
    const int corner = dir_from_name(tok.substr(colon + 1));
    if (corner < 0) return Error{"[Players]: unknown corner \"" + tok.substr(colon + 1) + "\""};
    out.push_back(Player{tok.substr(0, colon), corner, false});
  }
  return out;
}

Status parse_house_rules(const std::string& v, SetupConfig& c) {
  for (const auto& tok : split(v)) {
    const auto eq = tok.find('=');
    if (eq == std::string::npos) return Error{"[HouseRules] lists key=on|off"};
    const std::string key = tok.substr(0, eq), val = tok.substr(eq + 1);
    if (val != "on" && val != "off") return Error{"[HouseRules] " + key + " must be on or off"};
    const bool on = val == "on";
    if (key == "archer_star_free_path") c.house_rules.archer_star_free_path = on;
    else if (key == "ranged_needs_clear_line") c.house_rules.ranged_needs_clear_line = on;
    else if (key == "merge_sum") c.house_rules.merge_sum = on;
    else if (key == "any_dice_count") c.any_dice_count = on;
    else return Error{"[HouseRules]: unknown house rule \"" + key + "\""};
  }
  return {};
}

}  // namespace

Result<GameRecord> record_from_text(std::string_view text) {
  auto items = tokenize(text);
  if (!items) return Error{items.error()};
  std::map<std::string, std::string> tags;
  std::size_t k = 0;
  for (; k < items->size() && (*items)[k].kind == Item::Tag; ++k) tags[(*items)[k].name] = (*items)[k].text;
  auto get = [&](const char* name) -> std::optional<std::string> {
    auto it = tags.find(name);
    if (it == tags.end()) return std::nullopt;
    return it->second;
  };
  if (get("Ruleset").value_or("hexdice") != "hexdice")
    return Error{"record: ruleset \"" + *get("Ruleset") + "\" is not hexdice"};
  SetupConfig c;
  if (auto v = get("Radius")) {
    auto n = to_int(*v);
    if (!n) return Error{"record: [Radius] must be a number"};
    c.radius = *n;
  }
  auto players = parse_players(get("Players").value_or(""));
  if (!players) return Error{"record: " + players.error()};
  if (players->empty()) return Error{"record: missing [Players \"red:N blue:S\"]"};
  c.players = *players;
  if (Status s = parse_house_rules(get("HouseRules").value_or(""), c); !s) return Error{"record: " + s.error()};
  RecordHeader h;
  h.event = get("Event").value_or("?");
  if (h.event == "?") h.event.clear();
  h.site = get("Site").value_or("?");
  if (h.site == "?") h.site.clear();
  h.start_time = get("StartTime").value_or("");
  for (const auto& p : c.players) {
    std::string name = get(cap(p.id).c_str()).value_or("?");
    h.names.push_back(name == "?" ? "" : name);
  }

  const std::string mode = get("Mode").value_or("");
  if (!mode.empty() && mode != "solo") return Error{"record: [Mode] is \"solo\" or absent, not \"" + mode + "\""};
  Result<GameRecord> rec = Error{""};
  if (auto sp = get("StartPosition")) {
    auto pos = parse_position(*sp);
    if (!pos) return Error{"record: [StartPosition]: " + pos.error()};
    rec = GameRecord::from_position(*pos, h, mode == "solo" ? RecordMode::Solo : RecordMode::Standard);
  } else if (!mode.empty()) {
    return Error{"record: a solo game ([Mode \"solo\"]) starts from a [StartPosition]"};
  } else {
    auto dice = to_int(get("Dice").value_or(""));
    if (!dice) return Error{"record: missing [Dice \"N\"] (dice per player)"};
    c.dice_per_player = *dice;
    rec = GameRecord::with_setup(c, h);
  }
  if (!rec) return Error{"record: " + rec.error()};
  GameRecord& r = *rec;
  const Board& b = *Board::get(r.config().radius);

  for (; k < items->size(); ++k) {
    const Item& it = (*items)[k];
    auto err = [&](const std::string& m) { return Error{"record line " + std::to_string(it.line) + ": " + m}; };
    if (it.kind == Item::Tag) return err("tag [" + it.name + "] after the moves");
    if (it.kind == Item::Comment) {
      if (Status s = r.annotate(it.text); !s) return err(s.error());
      continue;
    }
    const auto t = split(it.text);
    if (t.empty()) continue;
    if (t[0] == "setup") {
      auto e = parse_setup_line(t, b);
      if (!e) return err(e.error());
      if (Status s = r.add_setup_event(*e); !s) return err(s.error());
    } else if (t[0] == "pass" || t[0] == "again" || t[0] == "place" || t[0] == "rule") {
      if (!r.in_play()) return err(r.start_position().error());
      auto step = parse_scenario_step(t, r.current());
      if (!step) return err(step.error());
      if (Status s = r.add_scenario_step(*step); !s) return err(s.error());
    } else if (t[0] == "takeback") {
      auto n = t.size() == 2 ? to_int(t[1]) : std::nullopt;
      if (!n) return err("a takeback reads: takeback N");
      if (*n != r.ply()) return err("takeback " + std::to_string(*n) + " but the last ply is " + std::to_string(r.ply()));
      if (Status s = r.takeback(); !s) return err(s.error());
    } else if (t[0].size() >= 2 && t[0].back() == '.' && to_int(t[0].substr(0, t[0].size() - 1))) {
      const int n = *to_int(t[0].substr(0, t[0].size() - 1));
      if (t.size() < 3) return err("an action reads like: 3. red Knight f2-g4");
      if (n != r.ply() + 1) return err("expected ply " + std::to_string(r.ply() + 1) + ", found " + std::to_string(n));
      if (!r.in_play()) return err(r.start_position().error());
      const Position before = r.current();
      if (before.player_index(t[1]) < 0) return err("\"" + t[1] + "\" is not a player of this game");
      if (before.player_index(t[1]) != before.to_move())
        return err("out of turn: it is " + before.player(before.to_move()).id + "'s turn (rules.md section 5)");
      const std::string prefix = t[0] + " " + t[1] + " ";
      const auto at = it.text.find(prefix);
      const std::string desc = at == std::string::npos ? "" : it.text.substr(at + prefix.size());
      auto a = parse_action_text(desc, b);
      if (!a) return err(a.error());
      auto out = r.add_action(*a);
      if (!out) return err(out.error());
      const std::string replay = describe(before, *a, &*out);
      if (replay != desc) return err("the record says \"" + desc + "\" but the replay gives \"" + replay + "\"");
    } else {
      return err("cannot read \"" + it.text + "\" (setup ..., N. player ..., takeback N, {comment}; in a solo game also "
                 "pass, again, place, rule)");
    }
  }

  const std::string result = get("Result").value_or("*");
  if (result != "*") {
    auto gr = result_from_termination(get("Termination").value_or(""), result == "draw" ? "" : result);
    if (!gr) return Error{"record: [Result] needs a [Termination] reason (annihilation, base_capture, "
                          "elimination, resignation, draw_agreed; in a solo game \"scenario: <what happened>\")"};
    if (Status s = r.finish(*gr, get("EndTime").value_or("")); !s) return Error{"record: " + s.error()};
  }
  return rec;
}

// ---- JSON ------------------------------------------------------------------------------

Json to_json(const GameResult& r) {
  if (!r.finished()) return nullptr;
  Json j{{"reason", std::string(reason_name(r.reason))}, {"winner", r.winner.empty() ? Json(nullptr) : Json(r.winner)}};
  if (r.reason == ResultReason::Scenario) j["detail"] = r.detail;
  return j;
}

Json players_json(const GameRecord& r) {
  Json out = Json::array();
  const auto& ps = r.config().players;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    Json p{{"id", ps[i].id}, {"corner", std::string(kDirNames[static_cast<std::size_t>(ps[i].corner)])}};
    if (i < r.header().names.size() && !r.header().names[i].empty()) p["name"] = r.header().names[i];
    out.push_back(p);
  }
  return out;
}

std::vector<Json> record_json_lines(const GameRecord& r) {
  std::vector<Json> lines;
  const RecordHeader& h = r.header();
  Json events = Json::array();
  if (r.has_setup())
    for (const auto& e : r.setup().events()) events.push_back(to_json(e));
  auto start = r.start_position();
  Json setup{{"kind", "setup"},
             {"ruleset", "hexdice"},
             {"event", h.event},
             {"site", h.site},
             {"start_time", h.start_time},
             {"end_time", h.end_time.empty() ? Json(nullptr) : Json(h.end_time)},
             {"result", to_json(h.result)},
             {"players", players_json(r)},
             {"config", to_json(r.config())},
             {"events", events},
             {"start", start ? to_json(*start) : Json(nullptr)}};
  if (r.solo()) setup["mode"] = "solo";
  lines.push_back(setup);
  // The actions of the current line; a solo record's scenario steps where they happened.
  if (!start) return lines;
  std::vector<Position> stack{*start};
  std::vector<bool> in_line(r.entries().size(), false);
  for (int i : r.line_entries()) in_line[static_cast<std::size_t>(i)] = true;
  for (std::size_t i = 0; i < r.entries().size(); ++i) {
    const RecordEntry& e = r.entries()[i];
    if (e.kind == EntryKind::Action) {
      const Position& before = stack.back();
      if (in_line[i])
        lines.push_back(Json{{"kind", "action"},
                             {"ply", e.ply},
                             {"player", before.player(e.player).id},
                             {"action", to_json(e.action, before.board())},
                             {"outcome", to_json(e.outcome, before)}});
      Position next = before;
      apply_unchecked(next, e.action);
      stack.push_back(std::move(next));
    } else if (e.kind == EntryKind::Takeback) {
      stack.pop_back();
    } else if (is_scenario_step(e.kind)) {
      Json j = scenario_step_json(e, stack.back().board());
      if (e.player >= 0) j["player"] = stack.back().player(e.player).id;
      j["ply"] = e.ply;
      lines.push_back(std::move(j));
      apply_scenario_step(stack.back(), e);
    }
  }
  return lines;
}

Json scenario_step_json(const RecordEntry& e, const Board& b) {
  Json j{{"kind", std::string(entry_kind_name(e.kind))}};
  if (e.kind == EntryKind::Place) {
    j["face"] = e.face;
    j["cell"] = e.cell >= 0 && e.cell < b.size() ? hex_json(b.hex(e.cell)) : Json(nullptr);
    j["tokens"] = e.tokens;
    j["guard"] = e.guard;
  } else if (e.kind == EntryKind::Rule) {
    j["rule"] = e.text;
  }
  return j;
}

Result<RecordEntry> scenario_step_from_json(const Json& j, int player, const Board& b) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string()) return Error{"a scenario step is {\"kind\": ...}"};
  const auto kind = entry_kind_from_name(j["kind"].get<std::string>());
  if (!kind || !is_scenario_step(*kind)) return Error{"unknown scenario step \"" + j["kind"].get<std::string>() + "\""};
  switch (*kind) {
    case EntryKind::Pass: return RecordEntry::pass(player);
    case EntryKind::Again: return RecordEntry::again(player);
    case EntryKind::Rule:
      if (!j.contains("rule") || !j["rule"].is_string()) return Error{"a rule step names its rule"};
      return RecordEntry::rule(j["rule"].get<std::string>());
    default: break;
  }
  const Json& c = j.value("cell", Json(nullptr));
  if (!c.is_array() || c.size() != 2 || !c[0].is_number_integer() || !c[1].is_number_integer() ||
      !j.value("face", Json(nullptr)).is_number_integer())
    return Error{"a place step has \"face\" and \"cell\": [q, r]"};
  if ((j.contains("tokens") && !j["tokens"].is_number_integer()) || (j.contains("guard") && !j["guard"].is_boolean()))
    return Error{"a place step's \"tokens\" is a number and its \"guard\" true or false"};
  const Hex h{c[0].get<int>(), c[1].get<int>()};
  if (!b.contains(h)) return Error{"a place step's cell is off the map"};
  return RecordEntry::place(player, b.index(h), j["face"].get<int>(), j.value("tokens", 0), j.value("guard", false));
}

}  // namespace hexdice
