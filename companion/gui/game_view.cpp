#include "companion/gui/game_view.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/hexadecimal/hexadecimal.h"
#include "core/wizardhex/wizardhex.h"

namespace hexdice::gui {

namespace {

constexpr double kSqrt3 = 1.7320508075688772;

void place(GameCellView& c) {
  c.x = 1.5 * c.hex.q;
  c.y = kSqrt3 * (c.hex.r + c.hex.q / 2.0);
}

std::string capital(std::string_view s) {
  std::string out(s);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

// Seat tints after the default die colours (ice white, earth green, fire red, lightning
// yellow, wind black, water blue), dimmed for the dark board.
constexpr std::array<Rgb, 6> kSeatTint = {{{120, 130, 150}, {50, 110, 60}, {130, 50, 45},
                                           {130, 115, 30}, {40, 40, 40}, {40, 70, 130}}};

Result<GameBoardView> wizardhex_view(const Json& position) {
  namespace wh = wizardhex;
  auto s = wh::state_from_json(position);
  if (!s) return Error{s.error()};
  GameBoardView v;
  v.ruleset = "wizardhex";
  v.radius = wh::kRadius;
  const Board& b = wh::State::board();
  for (int i = 0; i < b.size(); ++i) {
    GameCellView c;
    c.hex = b.hex(i);
    c.name = b.name(i);
    c.fill = {48, 52, 58};
    place(c);
    v.cells.push_back(c);
  }
  // Starting spaces take their seat's tint (a shared corner: the later seat's, noted).
  for (int seat = 0; seat < wh::kNumElements; ++seat)
    for (int idx : wh::starting_spaces(seat)) v.cells[static_cast<std::size_t>(idx)].fill = kSeatTint[static_cast<std::size_t>(seat)];
  static constexpr std::array<const char*, 4> kLevel = {"?", "Bronze", "Silver", "Gold"};
  for (int i = 0; i < wh::kCells; ++i) {
    const wh::Token& t = s->cells[static_cast<std::size_t>(i)];
    if (t.empty()) continue;
    GamePieceView p;
    p.cell = i;
    const std::string colour(wh::kElementColours[static_cast<std::size_t>(t.element)]);
    p.body = player_colour(colour, t.element, Palette::Dice);
    const int lum = (p.body.r * 299 + p.body.g * 587 + p.body.b * 114) / 1000;
    p.ink = lum > 140 ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
    p.level = t.level;
    p.text = std::to_string(t.level);
    p.label = std::string(wh::kElementNames[static_cast<std::size_t>(t.element)]) + " " + kLevel[t.level];
    v.pieces.push_back(p);
  }
  // Seat names outside the middle of each edge.
  for (int seat = 0; seat < wh::kNumElements; ++seat) {
    GameCellView m;
    m.hex = b.hex(wh::starting_spaces(seat)[1]);
    place(m);
    const double n = std::hypot(m.x, m.y);
    v.labels.push_back({m.x + m.x / n * 1.45, m.y + m.y / n * 1.45,
                        capital(wh::kElementNames[static_cast<std::size_t>(seat)]),
                        player_colour(std::string(wh::kElementColours[static_cast<std::size_t>(seat)]), seat, Palette::Dice)});
  }
  const auto& mover = s->wizards[static_cast<std::size_t>(s->to_move)];
  if (s->over)
    v.turn_text = s->winner >= 0 ? s->wizards[static_cast<std::size_t>(s->winner)].id + " wins" : std::string("draw");
  else
    v.turn_text = mover.id + " (" + std::string(wh::kElementNames[static_cast<std::size_t>(mover.element)]) + ") to move, " +
                  std::to_string(s->moves_left) + (s->moves_left == 1 ? " move left" : " moves left");
  for (int w = 0; w < static_cast<int>(s->wizards.size()); ++w) {
    const auto& z = s->wizards[static_cast<std::size_t>(w)];
    const auto sc = wh::score(*s, w);
    v.player_lines.push_back(z.id + " " + std::string(wh::kElementNames[static_cast<std::size_t>(z.element)]) + ": " +
                             std::to_string(sc.primary) + " spaces (" + std::to_string(sc.with_allies) + " with allies)" +
                             (z.eliminated ? ", eliminated" : ""));
  }
  return v;
}

Result<GameBoardView> hexadecimal_view(const Json& position) {
  namespace hd = hexadecimal;
  auto s = hd::state_from_json(position);
  if (!s) return Error{s.error()};
  GameBoardView v;
  v.ruleset = "hexadecimal";
  v.radius = hd::kRadius;
  const Board& b = hd::State::board();
  std::vector<int> index_of(hd::kCells, -1);
  for (int i = 0; i < b.size(); ++i) {
    if (hd::is_hole(i)) {
      v.holes.push_back(b.hex(i));
      continue;
    }
    GameCellView c;
    c.hex = b.hex(i);
    c.name = b.name(i);
    c.fill = hd::segment_of(i) < 0 ? Rgb{92, 96, 104} : Rgb{48, 52, 58};
    place(c);
    index_of[static_cast<std::size_t>(i)] = static_cast<int>(v.cells.size());
    v.cells.push_back(c);
  }
  for (int seg = 0; seg < 6; ++seg) {
    const int idx = b.index(direction(seg) * 2 + direction((seg + 1) % 6) * 2);
    v.cells[static_cast<std::size_t>(index_of[static_cast<std::size_t>(idx)])].note = std::string(hd::kSegmentNames[static_cast<std::size_t>(seg)]);
  }
  v.labels.push_back({0, 0, "hole", {150, 150, 150}});
  static constexpr std::array<const char*, hd::kNumKinds> kLetters = {"P", "S", "Pr", "D", "E", "G", "St", "W", "PM", "K"};
  for (int i = 0; i < hd::kCells; ++i) {
    const hd::Cell& c = s->cells[static_cast<std::size_t>(i)];
    if (c.empty()) continue;
    GamePieceView p;
    p.cell = index_of[static_cast<std::size_t>(i)];
    const std::string& id = s->ids[static_cast<std::size_t>(c.owner)];
    p.body = player_colour(id, c.owner, Palette::Dice);
    const int lum = (p.body.r * 299 + p.body.g * 587 + p.body.b * 114) / 1000;
    p.ink = lum > 140 ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
    p.text = kLetters[static_cast<std::size_t>(c.kind)];
    std::string kind(hd::kind_name(c.kind));
    for (char& ch : kind) if (ch == '_') ch = ' ';
    p.label = id + " " + capital(kind);
    p.round = true;
    v.pieces.push_back(p);
  }
  if (s->over)
    v.turn_text = (s->winner >= 0 ? s->ids[static_cast<std::size_t>(s->winner)] + " wins" : std::string("draw")) +
                  (s->reason.empty() ? "" : " (" + s->reason + ")");
  else
    v.turn_text = s->ids[static_cast<std::size_t>(s->to_move)] + " to move" + (hd::in_check(*s, s->to_move) ? " (in check)" : "");
  for (int p = 0; p < s->num_players(); ++p) {
    int pieces = 0;
    for (const auto& c : s->cells) pieces += c.owner == p;
    v.player_lines.push_back(s->ids[static_cast<std::size_t>(p)] + ": " + std::to_string(pieces) + " pieces, " +
                             std::to_string(s->count(p, hd::Kind::Pawn)) + " Pawns" +
                             (!s->eliminated.empty() && s->eliminated[static_cast<std::size_t>(p)] ? ", eliminated" : ""));
  }
  return v;
}

std::optional<Hex> hex_of(const Json& a, const char* key) {
  if (!a.contains(key) || !a[key].is_array() || a[key].size() != 2 || !a[key][0].is_number_integer() ||
      !a[key][1].is_number_integer())
    return std::nullopt;
  return Hex{a[key][0].get<int>(), a[key][1].get<int>()};
}

std::optional<GameSession>& session_slot() {
  static std::optional<GameSession> s;
  return s;
}

}  // namespace

int GameBoardView::cell_index(Hex h) const {
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (cells[i].hex == h) return static_cast<int>(i);
  return -1;
}

Result<GameBoardView> build_game_view(const Json& position) {
  const std::string key = ruleset_key(position);
  if (key == "wizardhex") return wizardhex_view(position);
  if (key == "hexadecimal") return hexadecimal_view(position);
  return Error{"position: the game board draws wizardhex and hexadecimal, not \"" + key + "\""};
}

std::vector<GameTarget> game_targets(const Json& position, const GameBoardView& view) {
  std::vector<GameTarget> out;
  auto rs = ruleset_for(position);
  if (!rs) return out;
  auto acts = (*rs)->legal_actions(position);
  if (!acts) return out;
  for (const Json& a : *acts) {
    GameTarget t;
    t.action = a;
    t.text = (*rs)->describe(position, a);
    const auto from = hex_of(a, "from"), at = hex_of(a, "at"), king = hex_of(a, "king"), to = hex_of(a, "to"),
               target = hex_of(a, "target");
    const auto first = from ? from : at ? at : king ? king : to;
    const auto second = target ? target : from ? to : std::nullopt;
    if (first) t.first = view.cell_index(*first);
    if (second) t.second = view.cell_index(*second);
    out.push_back(std::move(t));
  }
  return out;
}

void GameInteraction::click(const Json& position, const GameBoardView& view, int cell) {
  if (selected_ >= 0) {
    std::vector<GameTarget> hits;
    for (const auto& t : targets_)
      if (t.second == cell) hits.push_back(t);
    if (!hits.empty()) {
      proposed_ = std::move(hits);
      choice_ = 0;
      return;
    }
  }
  selected_ = -1;
  targets_.clear();
  proposed_.clear();
  choice_ = 0;
  for (auto& t : game_targets(position, view)) {
    if (t.first != cell) continue;
    if (t.second < 0) proposed_.push_back(t);
    targets_.push_back(std::move(t));
  }
  if (!targets_.empty()) selected_ = cell;
}

std::optional<Json> GameInteraction::confirm() {
  if (proposed_.empty()) return std::nullopt;
  Json a = proposed_[static_cast<std::size_t>(choice_)].action;
  clear();
  return a;
}

Result<GameSession> GameSession::start(std::string_view ruleset, std::string_view variant) {
  const Ruleset* rs = find_ruleset(ruleset);
  if (!rs || ruleset == "hexdice")
    return Error{"game: \"" + std::string(ruleset) + "\" is not a ruleset the game board plays (wizardhex, hexadecimal)"};
  auto pos = rs->start_position(variant);
  if (!pos) return Error{pos.error()};
  GameSession g;
  g.rules_ = rs;
  g.start_ = *pos;
  return g;
}

Result<GameSession> GameSession::from_record(const Json& record) {
  if (!record.is_object() || !record.contains("start") || !record.contains("actions") || !record["actions"].is_array())
    return Error{"game record: expected {\"start\": POSITION, \"actions\": [...]}"};
  auto rs = ruleset_for(record["start"]);
  if (!rs) return Error{"game record: " + rs.error()};
  if (ruleset_key(record["start"]) == "hexdice") return Error{"game record: Hex Dice games are in the game database"};
  auto norm = (*rs)->normalize(record["start"]);
  if (!norm) return Error{"game record: start: " + norm.error()};
  GameSession g;
  g.rules_ = *rs;
  g.start_ = *norm;
  int n = 0;
  for (const Json& a : record["actions"]) {
    ++n;
    if (Status st = g.play(a); !st) return Error{"game record: action " + std::to_string(n) + ": " + st.error()};
  }
  g.ply = g.plies();
  g.status.clear();
  return g;
}

Json GameSession::record() const {
  Json j{{"ruleset", std::string(rules_->name())}, {"start", start_}, {"actions", Json::array()}};
  for (const auto& m : moves_) j["actions"].push_back(m.action);
  return j;
}

const Json& GameSession::position_at(int p) const {
  if (p <= 0 || moves_.empty()) return start_;
  return moves_[static_cast<std::size_t>(std::min(p, plies()) - 1)].position;
}

Result<GameSession> GameSession::from_db(record::RecordDb& db, std::int64_t id) {
  auto lg = record::RulesetGame::resume(db, id);
  if (!lg) return Error{lg.error()};
  GameSession g;
  g.rules_ = &lg->rules();
  g.start_ = lg->record().start;
  for (const auto& m : lg->record().line) g.moves_.push_back(GameMove{m.action, m.outcome, m.position, m.text});
  g.ply = g.plies();
  g.logged_ = std::move(*lg);
  return g;
}

Status GameSession::log_to(record::RecordDb& db) {
  if (logged_) return Error{"this game is already logged (game " + std::to_string(logged_->id()) + ")"};
  if (!moves_.empty()) return Error{"only a fresh game can start logging"};
  auto lg = record::RulesetGame::create(db, rules_->name(), start_, {}, "Companion game", "hexdice-companion");
  if (!lg) return Error{lg.error()};
  logged_ = std::move(*lg);
  return {};
}

Status GameSession::play(const Json& action) {
  if (!live()) return Error{"replaying: go to the last move to play"};
  const Json& before = shown();
  auto r = rules_->apply(before, action);
  if (!r) {
    status = r.error();
    return Error{r.error()};
  }
  if (logged_) {  // into the database first: a move that cannot be logged is not played
    if (auto out = logged_->act(action); !out) {
      status = "not logged: " + out.error();
      return Error{status};
    }
  }
  GameMove m{action, r->outcome, r->position, rules_->describe(before, action)};
  status = m.text;
  moves_.push_back(std::move(m));
  ply = plies();
  interaction.clear();
  return {};
}

bool GameSession::takeback() {
  if (moves_.empty() || !live()) return false;
  if (logged_) {
    if (Status st = logged_->takeback(); !st) {
      status = "not taken back: " + st.error();
      return false;
    }
  }
  moves_.pop_back();
  ply = plies();
  interaction.clear();
  status = "took back the last move";
  return true;
}

GameSession* active_game() { return session_slot() ? &*session_slot() : nullptr; }
void set_active_game(std::optional<GameSession> game) { session_slot() = std::move(game); }

Status open_game(const std::string& spec) {
  if (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json") {
    std::ifstream in(spec);
    if (!in) return Error{"cannot read " + spec};
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = parse_json(ss.str(), spec);
    if (!j) return Error{j.error()};
    auto g = GameSession::from_record(*j);
    if (!g) return Error{spec + ": " + g.error()};
    g->ply = 0;  // a loaded record opens at its start, ready to replay
    set_active_game(std::move(*g));
    return {};
  }
  const auto colon = spec.find(':');
  auto g = GameSession::start(spec.substr(0, colon), colon == std::string::npos ? "" : spec.substr(colon + 1));
  if (!g) return Error{g.error()};
  set_active_game(std::move(*g));
  return {};
}

Status open_game(const std::string& spec, record::RecordDb* db) {
  if (!db || (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json")) return open_game(spec);
  const auto colon = spec.find(':');
  const std::string ruleset = spec.substr(0, colon);
  auto fresh = GameSession::start(ruleset, colon == std::string::npos ? "" : spec.substr(colon + 1));
  if (!fresh) return Error{fresh.error()};
  auto open = db->unfinished_game(ruleset);
  if (!open) return Error{open.error()};
  if (open->has_value()) {
    auto g = GameSession::from_db(*db, **open);
    if (!g) return Error{g.error()};
    // A named start resumes only a game from that start.
    auto norm = fresh->rules().normalize(fresh->position_at(0));
    if (colon == std::string::npos || (norm && *norm == g->position_at(0))) {
      g->status = "resumed game " + std::to_string(g->game_id()) + " of " + db->path() + " (" +
                  std::to_string(g->plies()) + " moves)";
      set_active_game(std::move(*g));
      return {};
    }
  }
  if (Status st = fresh->log_to(*db); !st) return st;
  fresh->status = "logging game " + std::to_string(fresh->game_id()) + " to " + db->path();
  set_active_game(std::move(*fresh));
  return {};
}

Status open_logged_game(record::RecordDb& db, std::int64_t id) {
  auto g = GameSession::from_db(db, id);
  if (!g) return Error{g.error()};
  g->status = "game " + std::to_string(id) + " of " + db.path();
  if (g->logged()->finished()) g->ply = 0;  // a finished game opens at its start, to replay; an unfinished one to play on
  set_active_game(std::move(*g));
  return {};
}

bool click_game_cell(const std::string& name) {
  GameSession* g = active_game();
  if (!g) return false;
  if (name == "confirm") {
    if (auto a = g->interaction.confirm()) (void)g->play(*a);
    return true;
  }
  auto v = build_game_view(g->shown());
  if (!v) return true;
  for (std::size_t i = 0; i < v->cells.size(); ++i)
    if (v->cells[i].name == name) {
      g->interaction.click(g->shown(), *v, static_cast<int>(i));
      return true;
    }
  g->status = "--click " + name + ": not a cell of the board";
  return true;
}

}  // namespace hexdice::gui
