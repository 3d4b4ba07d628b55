#include "companion/gui/view_model.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <opencv2/imgproc.hpp>

#include "core/json_io.h"

namespace hexdice::gui {

Rgb player_colour(const std::string& id, int index, Palette palette) {
  if (palette == Palette::ColourBlindSafe) {
    // Okabe & Ito (2008): distinguishable under the common colour-vision deficiencies.
    static constexpr std::array<Rgb, 6> kOkabeIto = {{{230, 159, 0}, {86, 180, 233}, {0, 158, 115},
                                                      {240, 228, 66}, {0, 114, 178}, {204, 121, 167}}};
    return kOkabeIto[static_cast<std::size_t>(((index % 6) + 6) % 6)];
  }
  static const std::map<std::string, Rgb> kDice = {
      {"red", {220, 50, 47}},    {"blue", {38, 110, 230}},   {"green", {40, 170, 70}},
      {"yellow", {235, 200, 40}}, {"black", {70, 70, 70}},    {"white", {235, 235, 235}},
      {"orange", {240, 130, 30}}, {"purple", {150, 80, 190}}};
  if (auto it = kDice.find(id); it != kDice.end()) return it->second;
  return player_colour(id, index, Palette::ColourBlindSafe);
}

std::string unit_abbrev(int face) {
  static const char* const kAbbrev[7] = {"?", "Inf", "Arch", "Kngt", "Aslt", "Tank", "Bal"};
  return valid_face(face) ? kAbbrev[face] : "?";
}

static std::string unit_label(const Piece& p) {
  std::string s = std::string(unit_stats(p.face).name) + " A" + std::to_string(effective_armor(p));
  if (p.tokens > 0) s += " -" + std::to_string(p.tokens);
  if (p.guard) s += " G";
  return s;
}

BoardView build_board_view(const Position& pos, const std::vector<std::string>& names, Palette palette) {
  BoardView v;
  const Board& b = pos.board();
  v.radius = b.radius();
  v.cells.reserve(static_cast<std::size_t>(b.size()));
  for (int i = 0; i < b.size(); ++i) {
    CellView c;
    c.hex = b.hex(i);
    c.name = b.name(i);
    const Point p = to_pixel(c.hex, 1.0);
    c.x = p.x;
    c.y = p.y;
    for (int pl = 0; pl < pos.num_players(); ++pl) {
      if (pos.base_cell(pl) == i) c.base = pl;
      if (c.zone < 0 && pos.in_deployment_zone(pl, c.hex)) c.zone = pl;
    }
    v.cells.push_back(std::move(c));
  }
  for (int pl = 0; pl < pos.num_players(); ++pl) {
    PlayerView pv;
    pv.id = pos.player(pl).id;
    pv.name = pl < static_cast<int>(names.size()) ? names[static_cast<std::size_t>(pl)] : "";
    pv.colour = player_colour(pv.id, pl, palette);
    pv.units = pos.unit_count(pl);
    pv.corner = pos.player(pl).corner;
    pv.to_move = !pos.game_over() && pos.to_move() == pl;
    pv.eliminated = pos.player(pl).eliminated;
    pv.winner = pos.winner() == pl;
    v.players.push_back(std::move(pv));
  }
  for (int i = 0; i < b.size(); ++i) {
    const Piece& p = pos.at(i);
    if (p.empty()) continue;
    UnitView u{i, p.owner, p.face, std::string(unit_stats(p.face).name), effective_armor(p), p.tokens, p.guard,
               unit_label(p), unit_abbrev(p.face)};
    v.players[static_cast<std::size_t>(p.owner)].army[u.unit]++;
    v.units.push_back(std::move(u));
  }
  v.to_move = pos.game_over() ? -1 : pos.to_move();
  v.winner = pos.winner();
  if (pos.num_players() > 0)
    v.turn_text = pos.game_over() ? pos.player(pos.winner()).id + " wins" : pos.player(pos.to_move()).id + " to move";
  return v;
}

namespace {

// One legal action as the board panel shows it: its target cell, its combat odds if it is
// an attack, and its description.
TargetView target_view(const Position& pos, const Action& a) {
  TargetView t;
  t.action = a;
  t.cell = a.target;
  t.combat = preview_combat(pos, a);
  t.attack = t.combat.has_value();
  t.text = describe(pos, a);
  return t;
}

}  // namespace

std::vector<TargetView> targets_of(const Position& pos, int cell) {
  std::vector<TargetView> out;
  if (pos.game_over() || cell < 0 || cell >= pos.board().size()) return out;
  std::vector<Action> acts;
  unit_actions(pos, cell, acts);
  for (const Action& a : acts) out.push_back(target_view(pos, a));
  return out;
}

void BoardInteraction::click(const Position& pos, int cell) {
  proposed_.clear();
  choice_ = 0;
  why_not_.clear();
  const bool on_map = cell >= 0 && cell < pos.board().size();
  const bool own = on_map && !pos.at(cell).empty() && pos.at(cell).owner == pos.to_move() && !pos.game_over();
  if (selected_ >= 0 && cell != selected_) {
    for (const TargetView& t : targets_)
      if (t.cell == cell && t.action.type != ActionType::Reroll && t.action.type != ActionType::Guard)
        proposed_.push_back(t);
    if (!proposed_.empty()) {
      // Attacks first: clicking an enemy means attacking it.
      std::stable_sort(proposed_.begin(), proposed_.end(),
                       [](const TargetView& a, const TargetView& b) { return a.attack > b.attack; });
      return;
    }
    // Not a legal target: the rules say why (the move, or for an enemy the attack the unit
    // would make: an Archer's ranged attack, a Balance's special attack).
    if (on_map && !own) {
      const Piece& u = pos.at(selected_);
      const Piece& t = pos.at(cell);
      ActionType type = ActionType::Move;
      if (!t.empty() && t.owner != u.owner && u.face == 2) type = ActionType::Ranged;
      if (!t.empty() && t.owner != u.owner && u.face == 6) type = ActionType::Special;
      const Action a{type, static_cast<std::int16_t>(selected_), static_cast<std::int16_t>(cell), 0};
      const Status st = validate(pos, a);
      why_not_ = st ? pos.board().name(cell) + " is not one of the highlighted cells" : st.error();
    }
  } else if (on_map && !own && cell != selected_) {
    const Piece& t = pos.at(cell);
    const std::string mover = pos.player(pos.to_move()).id;
    if (pos.game_over()) why_not_ = pos.winner() >= 0 ? "the game is over: " + pos.player(pos.winner()).id + " has won" : "the game is over";
    else if (!t.empty())
      why_not_ = pos.board().name(cell) + " is " + pos.player(t.owner).id + "'s unit; it is " + mover +
                 "'s turn: click one of " + mover + "'s units";
    else why_not_ = pos.board().name(cell) + " is empty: click one of " + mover + "'s units first";
  }
  if (own && cell != selected_) {
    selected_ = cell;
    targets_ = targets_of(pos, cell);
  } else {
    selected_ = -1;
    targets_.clear();
  }
}

void BoardInteraction::propose(const Position& pos, Action a) {
  proposed_.clear();
  choice_ = 0;
  if (!validate(pos, a)) return;
  proposed_.push_back(target_view(pos, a));
}

std::optional<Action> BoardInteraction::confirm() {
  if (proposed_.empty()) return std::nullopt;
  const Action a = proposed_[static_cast<std::size_t>(choice_)].action;
  clear();
  return a;
}

void BoardInteraction::reject() {
  proposed_.clear();
  choice_ = 0;
}

std::vector<LogLine> event_log(const GameRecord& rec) {
  std::vector<LogLine> out;
  auto start = rec.start_position();
  if (!start) return out;
  for (int i = 0; i < static_cast<int>(rec.entries().size()); ++i) {
    const RecordEntry& e = rec.entries()[static_cast<std::size_t>(i)];
    LogLine l;
    l.ply = e.ply;
    l.player = e.player;
    if (e.kind == EntryKind::Action) {
      auto before = i == 0 ? start : rec.position_after_entry(i - 1);
      if (!before) continue;
      l.text = std::to_string(e.ply) + ". " + before->player(e.player).id + ": " +
               describe(*before, e.action, &e.outcome);
    } else if (e.kind == EntryKind::Takeback) {
      l.takeback = true;
      l.text = "takeback of ply " + std::to_string(e.ply);
    } else if (is_scenario_step(e.kind)) {  // a solo game's pass, again, place or rule
      auto before = i == 0 ? start : rec.position_after_entry(i - 1);
      if (!before) continue;
      l.text = describe_scenario_step(*before, e);
    } else {
      l.annotation = true;
      l.text = "{" + e.text + "}";
    }
    out.push_back(std::move(l));
  }
  return out;
}

static std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<HistoryRow> history_rows(const std::vector<record::GameSummary>& games, const std::string& filter,
                                     HistorySort sort) {
  std::vector<HistoryRow> rows;
  const std::string f = lower(filter);
  for (const auto& g : games) {
    HistoryRow r;
    r.id = g.id;
    r.players = g.players;
    r.date = g.started_at;
    r.event = g.event;
    r.length = g.actions;
    r.ruleset = g.ruleset;
    if (g.ruleset != "hexdice")
      r.result = record::result_line(g);  // Wizard Hex, Hexa Decimal: "black won (checkmate)"
    else if (!g.result.finished())
      r.result = "unfinished";
    else
      r.result = (g.result.reason == ResultReason::Scenario ? "scenario (" + g.result.detail + ")"
                                                           : std::string(reason_name(g.result.reason))) +
                 (g.result.winner.empty() ? "" : ": " + g.result.winner);
    if (!f.empty()) {
      const std::string hay = lower(r.players + " " + r.date + " " + r.result + " " + r.event + " " + r.ruleset);
      if (hay.find(f) == std::string::npos) continue;
    }
    rows.push_back(std::move(r));
  }
  auto by = [sort](const HistoryRow& a, const HistoryRow& b) {
    switch (sort) {
      case HistorySort::DateAsc: return std::tie(a.date, a.id) < std::tie(b.date, b.id);
      case HistorySort::Length: return std::tie(b.length, b.id) < std::tie(a.length, a.id);
      case HistorySort::Players: return std::tie(a.players, a.id) < std::tie(b.players, b.id);
      case HistorySort::DateDesc: break;
    }
    return std::tie(b.date, b.id) < std::tie(a.date, a.id);
  };
  std::stable_sort(rows.begin(), rows.end(), by);
  return rows;
}

GameStats game_stats(const GameRecord& rec) {
  GameStats s;
  const SetupConfig& cfg = rec.config();
  for (const Player& p : cfg.players) s.players.push_back({p.id, {}, 0, 0, {}});
  auto idx = [&](const std::string& id) {
    for (std::size_t i = 0; i < s.players.size(); ++i)
      if (s.players[i].id == id) return static_cast<int>(i);
    return -1;
  };
  auto roll = [&](int p, int face) {
    if (p >= 0 && valid_face(face)) s.players[static_cast<std::size_t>(p)].rolls[static_cast<std::size_t>(face)]++;
  };
  if (rec.has_setup())
    for (const SetupEvent& e : rec.setup().events()) {
      const int p = idx(e.player);
      if (e.type == SetupEventType::Roll)
        for (int f : e.faces) roll(p, f);
      else if (e.type == SetupEventType::Reroll)
        for (int f : e.to) roll(p, f);
      else if (e.type == SetupEventType::FirstRoll)
        roll(p, e.face);
    }
  auto start = rec.start_position();
  for (int i = 0; i < static_cast<int>(rec.entries().size()); ++i) {
    const RecordEntry& e = rec.entries()[static_cast<std::size_t>(i)];
    if (e.kind == EntryKind::Takeback) { ++s.takebacks; continue; }
    if (e.kind == EntryKind::Annotation) { ++s.annotations; continue; }
    if (is_scenario_step(e.kind)) continue;  // a solo game's pass, again, place or rule: no action
    ++s.actions;
    if (e.player < 0 || e.player >= static_cast<int>(s.players.size())) continue;
    auto& pp = s.players[static_cast<std::size_t>(e.player)];
    pp.by_type[static_cast<std::size_t>(e.action.type)]++;
    if (e.action.type == ActionType::Reroll) roll(e.player, e.action.face);
    if (e.outcome.combat) {
      if (e.outcome.combat->success) ++pp.combats_won; else ++pp.combats_lost;
      // The defender's side of the same combat.
      auto before = i == 0 ? start : rec.position_after_entry(i - 1);
      if (before && e.action.target >= 0) {
        const int def = before->at(e.action.target).owner;
        if (def >= 0 && def < static_cast<int>(s.players.size()) && def != e.player) {
          if (e.outcome.combat->success) ++s.players[static_cast<std::size_t>(def)].combats_lost;
          else ++s.players[static_cast<std::size_t>(def)].combats_won;
        }
      }
    }
  }
  return s;
}

StatsTable stats_table(const GameStats& s) {
  StatsTable t;
  t.summary = std::to_string(s.actions) + " actions, " + std::to_string(s.takebacks) + " takebacks, " +
              std::to_string(s.annotations) + " annotations";
  t.rows = {"moves, rerolls, guards", "ranged, special, merges", "combats won, lost", "rolled 1, 2, 3", "rolled 4, 5, 6"};
  t.cells.assign(t.rows.size(), {});
  t.words.assign(t.rows.size(), {});
  auto n = [](int v) { return std::to_string(v); };
  for (const auto& p : s.players) {
    t.players.push_back(p.id);
    auto by = [&](ActionType a) { return p.by_type[static_cast<std::size_t>(a)]; };
    t.cells[0].push_back(n(by(ActionType::Move)) + "  " + n(by(ActionType::Reroll)) + "  " + n(by(ActionType::Guard)));
    t.words[0].push_back(p.id + ": " + n(by(ActionType::Move)) + " moves, " + n(by(ActionType::Reroll)) + " rerolls, " +
                         n(by(ActionType::Guard)) + " guards");
    t.cells[1].push_back(n(by(ActionType::Ranged)) + "  " + n(by(ActionType::Special)) + "  " + n(by(ActionType::Merge)));
    t.words[1].push_back(p.id + ": " + n(by(ActionType::Ranged)) + " ranged attacks, " + n(by(ActionType::Special)) +
                         " special attacks, " + n(by(ActionType::Merge)) + " merges");
    t.cells[2].push_back(n(p.combats_won) + "  " + n(p.combats_lost));
    t.words[2].push_back(p.id + ": " + n(p.combats_won) + " combats won, " + n(p.combats_lost) + " lost (attacking or defending)");
    for (int half = 0; half < 2; ++half) {
      std::string r, w = p.id + " rolled";
      for (int f = 1 + 3 * half; f <= 3 + 3 * half; ++f) {
        const int k = p.rolls[static_cast<std::size_t>(f)];
        r += (r.empty() ? "" : "  ") + n(k);
        w += std::string(f > 1 + 3 * half ? "," : "") + " a " + n(f) + " " + n(k) + (k == 1 ? " time" : " times");
      }
      t.cells[3 + static_cast<std::size_t>(half)].push_back(r);
      t.words[3 + static_cast<std::size_t>(half)].push_back(w + " (setup rolls, rerolls, first-player rolls)");
    }
  }
  return t;
}

std::array<double, 2> apply_homography(const std::array<double, 9>& h, double x, double y) {
  const double w = h[6] * x + h[7] * y + h[8];
  return {(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w};
}

Result<Frame> frame_from_scene_label(const std::string& json_path) {
  std::ifstream in(json_path);
  if (!in) return Error{json_path + ": cannot open"};
  Json j;
  try {
    j = Json::parse(in);
    Frame f;
    f.source = json_path;
    f.width = j.at("width").get<int>();
    f.height = j.at("height").get<int>();
    f.markers = j.value("markers_visible", 0);
    const double paper_w = j.at("board").value("paper", "a3") == "a4" ? 210.0 : 297.0;
    const double paper_h = j.at("board").value("paper", "a3") == "a4" ? 297.0 : 420.0;
    if (j.value("board_found", false) && j.contains("sheet_corners_px") && j["sheet_corners_px"].size() == 4) {
      // The sheet corners are labelled top-left, top-right, bottom-right, bottom-left of the page.
      std::vector<cv::Point2f> src = {{0, 0}, {static_cast<float>(paper_w), 0},
                                      {static_cast<float>(paper_w), static_cast<float>(paper_h)},
                                      {0, static_cast<float>(paper_h)}};
      std::vector<cv::Point2f> dst;
      for (const auto& c : j["sheet_corners_px"]) dst.emplace_back(c.at(0).get<float>(), c.at(1).get<float>());
      const cv::Mat h = cv::getPerspectiveTransform(src, dst);
      for (int k = 0; k < 9; ++k) f.homography[static_cast<std::size_t>(k)] = h.at<double>(k / 3, k % 3);
      f.registered = true;
    }
    for (const auto& d : j.value("dice", Json::array())) {
      if (!d.value("in_view", false) || d.at("cell").is_null()) continue;
      Detection det;
      det.cell = d.at("cell").get<std::string>();
      det.colour = d.at("color").get<std::string>();
      det.face = d.at("face").get<int>();
      det.guard = d.value("guard", false);
      det.x = d.at("top_px").at(0).get<double>();
      det.y = d.at("top_px").at(1).get<double>();
      f.dice.push_back(std::move(det));
    }
    return f;
  } catch (const std::exception& e) {
    return Error{json_path + ": " + e.what()};
  }
}

std::vector<Polygon> project_grid(const Frame& f, int radius, double hex_mm, double cx_mm, double cy_mm) {
  std::vector<Polygon> out;
  if (!f.registered) return out;
  const auto board = Board::get(radius);
  for (int i = 0; i < board->size(); ++i) {
    const Point c = to_pixel(board->hex(i), hex_mm);
    Polygon poly;
    poly.name = board->name(i);
    for (int k = 0; k < 6; ++k) {
      const Point o = corner_offset(k, hex_mm);
      poly.pts.push_back(apply_homography(f.homography, cx_mm + c.x + o.x, cy_mm + c.y + o.y));
    }
    const auto cc = apply_homography(f.homography, cx_mm + c.x, cy_mm + c.y);
    poly.cx = cc[0];
    poly.cy = cc[1];
    out.push_back(std::move(poly));
  }
  return out;
}

Result<Position> position_from_frame(const Frame& f, int radius) {
  std::vector<std::string> colours;
  for (const auto& d : f.dice)
    if (std::find(colours.begin(), colours.end(), d.colour) == colours.end()) colours.push_back(d.colour);
  for (const char* spare : {"red", "blue", "green", "yellow", "black", "white"}) {
    if (colours.size() >= 2 && colours.size() != 5) break;
    if (std::find(colours.begin(), colours.end(), spare) == colours.end()) colours.push_back(spare);
  }
  if (colours.size() > 6) return Error{"more than 6 dice colours in the frame"};
  std::vector<Player> players;
  const int n = static_cast<int>(colours.size());
  for (int i = 0; i < n; ++i) players.push_back({colours[static_cast<std::size_t>(i)], i * 6 / n, false});
  auto pos = Position::create(radius, players);
  if (!pos) return Error{pos.error()};
  for (const auto& d : f.dice) {
    auto h = pos->board().parse_name(d.cell);
    if (!h) continue;
    const int owner = pos->player_index(d.colour);
    if (auto st = pos->place(*h, owner, d.face, 0, d.guard); !st) continue;
  }
  return pos;
}

bool RedrawPolicy::should_draw(bool model_changed, bool blinking, double now_s) {
  const bool blink_due = blinking && now_s - last_blink_ >= 1.0 / p_.blink_hz;
  if (!model_changed && settle_ == 0 && !blink_due) return false;
  if (settle_ > 0) --settle_;
  if (blinking) last_blink_ = now_s;
  return true;
}

double RedrawPolicy::wait_s(bool blinking, bool background, double now_s) const {
  if (settle_ > 0) return 0;
  double w = background ? p_.busy_poll_s : p_.idle_poll_s;
  if (blinking) w = std::min(w, std::max(0.0, last_blink_ + 1.0 / p_.blink_hz - now_s));
  return w;
}

}  // namespace hexdice::gui
