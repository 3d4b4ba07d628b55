#include "companion/record/ruleset_game.h"

#include <algorithm>

namespace hexdice::record {

namespace {

std::string escape(const std::string& s, char quote) {
  std::string out;
  for (char c : s) {
    if (c == quote || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out;
}

std::string title(const std::string& ruleset) {
  if (ruleset == "wizardhex") return "Wizard Hex";
  if (ruleset == "hexadecimal") return "Hexa Decimal";
  return ruleset;
}

Json players_json(const std::vector<RulesetPlayer>& ps) {
  Json out = Json::array();
  for (const auto& p : ps) {
    Json j{{"id", p.id}};
    if (!p.name.empty()) j["name"] = p.name;
    out.push_back(std::move(j));
  }
  return out;
}

// The player ids a position lists ("players": [{"id"}...] in both games' JSON).
std::vector<RulesetPlayer> position_players(const Json& pos) {
  std::vector<RulesetPlayer> out;
  if (pos.contains("players") && pos["players"].is_array())
    for (const auto& p : pos["players"])
      if (p.is_object() && p.contains("id") && p["id"].is_string()) out.push_back({p["id"].get<std::string>(), ""});
  if (out.empty() && pos.contains("ids") && pos["ids"].is_array())
    for (const auto& p : pos["ids"])
      if (p.is_string()) out.push_back({p.get<std::string>(), ""});
  return out;
}

std::string result_text(const RulesetResult& r) {
  if (!r.finished) return "unfinished";
  const std::string why = r.termination.empty() ? "" : " (" + r.termination + ")";
  return (r.winner.empty() ? "draw" : r.winner + " won") + why;
}

}  // namespace

const Json& RulesetRecord::position_at(int p) const {
  if (p <= 0 || line.empty()) return start;
  return line[static_cast<std::size_t>(std::min(p, ply()) - 1)].position;
}

std::string to_text(const RulesetRecord& r) {
  std::string out;
  auto tag = [&](const std::string& name, const std::string& value) {
    out += "[" + name + " \"" + escape(value, '"') + "\"]\n";
  };
  tag("Event", r.event.empty() ? "?" : r.event);
  tag("Site", r.site.empty() ? "?" : r.site);
  std::string date = "????.??.??";
  if (r.started_at.size() >= 10) {
    date = r.started_at.substr(0, 10);
    std::replace(date.begin(), date.end(), '-', '.');
  }
  tag("Date", date);
  if (!r.started_at.empty()) tag("StartTime", r.started_at);
  if (!r.result.end_time.empty()) tag("EndTime", r.result.end_time);
  tag("Ruleset", r.ruleset);
  if (r.start.contains("variant") && r.start["variant"].is_string()) tag("Variant", r.start["variant"].get<std::string>());
  std::string players;
  for (const auto& p : r.players) players += (players.empty() ? "" : " ") + p.id;
  tag("Players", players);
  for (const auto& p : r.players)
    if (!p.name.empty()) tag("Name " + p.id, p.name);
  if (r.result.finished) {
    tag("Result", r.result.winner.empty() ? "draw" : r.result.winner);
    tag("Termination", r.result.termination);
  } else {
    tag("Result", "*");
  }
  tag("StartPosition", r.start.dump());
  out += "\n";
  for (const auto& e : r.events) {
    if (e.kind == "action") out += std::to_string(e.ply) + ". " + e.player + " " + e.text + "\n";
    else if (e.kind == "takeback") out += "takeback " + std::to_string(e.ply) + "\n";
    else out += "{" + escape(e.text, '}') + "}\n";
  }
  out += "{" + title(r.ruleset) + ": " + result_text(r.result) + " after " + std::to_string(r.ply()) + (r.ply() == 1 ? " move}\n" : " moves}\n");
  return out;
}

std::vector<Json> record_json_lines(const RulesetRecord& r) {
  std::vector<Json> out;
  Json result = nullptr;
  if (r.result.finished)
    result = Json{{"winner", r.result.winner.empty() ? Json(nullptr) : Json(r.result.winner)},
                  {"reason", r.result.termination}};
  out.push_back(Json{{"kind", "start"},
                     {"ruleset", r.ruleset},
                     {"players", players_json(r.players)},
                     {"start", r.start},
                     {"result", result}});
  // One line per event; the position after each action is in the database (and comes
  // from `hexdice apply`), left out here to keep lines short.
  for (const auto& e : r.events) {
    if (e.kind == "action")
      out.push_back(Json{{"kind", "action"}, {"ply", e.ply}, {"player", e.player}, {"action", e.action}, {"text", e.text}});
    else if (e.kind == "takeback")
      out.push_back(Json{{"kind", "takeback"}, {"ply", e.ply}});
    else
      out.push_back(Json{{"kind", "annotation"}, {"text", e.text}});
  }
  return out;
}

Result<RulesetRecord> load_ruleset_game(RecordDb& db, std::int64_t id) {
  auto g = db.stored_game(id);
  if (!g) return Error{g.error()};
  const std::string where = db.path() + ": game " + std::to_string(id);
  if (g->ruleset == "hexdice") return Error{where + " is a Hex Dice game"};
  const Ruleset* rs = find_ruleset(g->ruleset);
  if (!rs) return Error{where + ": unknown ruleset \"" + g->ruleset + "\""};
  RulesetRecord r;
  r.id = id;
  r.ruleset = g->ruleset;
  auto start = rs->normalize(g->start);
  if (!start) return Error{where + ": start position: " + start.error()};
  r.start = std::move(*start);
  if (g->players.is_array())
    for (const auto& p : g->players)
      if (p.is_object()) r.players.push_back({p.value("id", ""), p.value("name", "")});
  r.event = g->event;
  r.site = g->site;
  r.started_at = g->started_at;
  auto events = db.stored_events(id);
  if (!events) return Error{events.error()};
  int expect = 0;
  for (const auto& e : *events) {
    const std::string at = where + " event " + std::to_string(e.seq);
    if (e.seq != expect++) return Error{at + ": events are not numbered 0, 1, 2, ..."};
    if (e.kind == "action") {
      const Json& before = r.current();
      auto applied = rs->apply(before, e.action);
      if (!applied) return Error{at + ": " + applied.error()};
      if (applied->position != e.position) return Error{at + ": the stored position differs from the replay"};
      if (e.ply != r.ply() + 1) return Error{at + ": stored ply does not match the replay"};
      RulesetMove m{e.ply, e.player, e.action, applied->outcome, applied->position, rs->describe(before, e.action)};
      r.events.push_back({"action", e.ply, e.player, m.text, e.action});
      r.line.push_back(std::move(m));
    } else if (e.kind == "takeback") {
      if (e.ply != r.ply() || r.line.empty()) return Error{at + ": takeback of a ply that is not the last"};
      r.line.pop_back();
      r.events.push_back({"takeback", e.ply, "", "", nullptr});
    } else if (e.kind == "annotation") {
      r.events.push_back({"annotation", 0, "", e.text, nullptr});
    } else {
      return Error{at + ": unknown kind \"" + e.kind + "\""};
    }
  }
  if (!g->ended_at.empty()) r.result = RulesetResult{true, g->winner, g->termination, g->ended_at};
  return r;
}

// ---- RulesetGame ---------------------------------------------------------------------------

Result<RulesetGame> RulesetGame::create(RecordDb& db, std::string_view ruleset, const Json& start,
                                        std::vector<RulesetPlayer> players, std::string event, std::string site) {
  const Ruleset* rs = find_ruleset(ruleset);
  if (!rs || ruleset == "hexdice")
    return Error{"no ruleset \"" + std::string(ruleset) + "\" to log here (wizardhex, hexadecimal; Hex Dice has its own record)"};
  if (ruleset_key(start) != ruleset)
    return Error{"the start position is a " + ruleset_key(start) + " position, not " + std::string(ruleset)};
  auto norm = rs->normalize(start);
  if (!norm) return Error{"start position: " + norm.error()};
  if (auto over = rs->game_over(*norm); !over || *over) return Error{"the start position is already over"};
  const auto listed = position_players(*norm);
  if (players.empty()) players = listed;
  for (const auto& p : players)
    if (std::none_of(listed.begin(), listed.end(), [&](const RulesetPlayer& q) { return q.id == p.id; }))
      return Error{"player \"" + p.id + "\" is not in the start position"};
  RulesetRecord r;
  r.ruleset = std::string(ruleset);
  r.start = *norm;
  r.players = std::move(players);
  r.event = std::move(event);
  r.site = std::move(site);
  r.started_at = utc_now();
  StoredGame g;
  g.ruleset = r.ruleset;
  g.start = r.start;
  g.players = players_json(r.players);
  g.event = r.event;
  g.site = r.site;
  g.started_at = r.started_at;
  auto id = db.insert_ruleset_game(g);
  if (!id) return Error{id.error()};
  r.id = *id;
  return RulesetGame(db, *rs, std::move(r));
}

Result<RulesetGame> RulesetGame::resume(RecordDb& db, std::int64_t id) {
  auto r = load_ruleset_game(db, id);
  if (!r) return Error{r.error()};
  const Ruleset* rs = find_ruleset(r->ruleset);
  return RulesetGame(db, *rs, std::move(*r));
}

Result<std::optional<RulesetGame>> RulesetGame::resume_unfinished(RecordDb& db, std::string_view ruleset) {
  auto id = db.unfinished_game(ruleset);
  if (!id) return Error{id.error()};
  if (!id->has_value()) return std::optional<RulesetGame>();
  auto g = resume(db, **id);
  if (!g) return Error{g.error()};
  return std::optional<RulesetGame>(std::move(*g));
}

Result<Json> RulesetGame::act(const Json& action) {
  if (rec_.result.finished) return Error{"the game is over (" + result_text(rec_.result) + ")"};
  const Json& before = rec_.current();
  auto applied = rules_->apply(before, action);
  if (!applied) return Error{applied.error()};
  const int seq = static_cast<int>(rec_.events.size());
  const std::string player = rules_->to_move(before);
  // The canonical form of the action (what a replay reads back).
  Json canon = action;
  RulesetMove m{rec_.ply() + 1, player, canon, applied->outcome, applied->position, rules_->describe(before, action)};
  if (Status s = db_->insert_action(rec_.id, seq, m.ply, player, canon, applied->outcome, applied->position); !s)
    return Error{s.error()};
  rec_.events.push_back({"action", m.ply, player, m.text, canon});
  rec_.line.push_back(std::move(m));
  if (Status s = end_if_over(); !s) return Error{s.error()};
  return applied->outcome;
}

Status RulesetGame::end_if_over() {
  const Json& pos = rec_.current();
  auto over = rules_->game_over(pos);
  if (!over) return Error{over.error()};
  if (!*over) return {};
  auto w = rules_->winner(pos);
  if (!w) return Error{w.error()};
  auto why = rules_->end_reason(pos);
  if (!why) return Error{why.error()};
  return finish(w->is_string() ? w->get<std::string>() : "", *why);
}

Status RulesetGame::takeback() {
  if (rec_.result.finished) return Error{"the game is over (" + result_text(rec_.result) + "); nothing to take back"};
  if (rec_.line.empty()) return Error{"nothing to take back"};
  const int seq = static_cast<int>(rec_.events.size());
  if (Status s = db_->insert_takeback(rec_.id, seq, rec_.ply()); !s) return s;
  rec_.events.push_back({"takeback", rec_.ply(), "", "", nullptr});
  rec_.line.pop_back();
  return {};
}

Status RulesetGame::annotate(const std::string& text) {
  if (text.empty()) return Error{"an empty annotation"};
  if (Status s = db_->insert_annotation(rec_.id, static_cast<int>(rec_.events.size()), text); !s) return s;
  rec_.events.push_back({"annotation", 0, "", text, nullptr});
  return {};
}

Status RulesetGame::finish(const std::string& winner, const std::string& termination, const std::string& end_time) {
  if (rec_.result.finished) return Error{"the game is already over (" + result_text(rec_.result) + ")"};
  if (termination.empty()) return Error{"a result needs a reason (e.g. resignation, draw_agreed)"};
  if (!winner.empty() && std::none_of(rec_.players.begin(), rec_.players.end(),
                                      [&](const RulesetPlayer& p) { return p.id == winner; }))
    return Error{"\"" + winner + "\" is not a player of this game"};
  const std::string when = end_time.empty() ? utc_now() : end_time;
  if (Status s = db_->set_ruleset_result(rec_.id, winner, termination, when); !s) return s;
  rec_.result = RulesetResult{true, winner, termination, when};
  return {};
}

}  // namespace hexdice::record
