#include "core/json_io.h"

namespace hexdice {

namespace {

Result<Hex> hex_from(const Json& j, const char* what) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer())
    return Error{std::string("\"") + what + "\" must be a [q, r] pair of integers"};
  const auto q = j[0].get<long long>(), r = j[1].get<long long>();
  if (q < -1000 || q > 1000 || r < -1000 || r > 1000) return Error{std::string("\"") + what + "\" is off the map"};
  return Hex{static_cast<int>(q), static_cast<int>(r)};
}

std::string cell_text(Hex h) { return "(" + std::to_string(h.q) + "," + std::to_string(h.r) + ")"; }

}  // namespace

Json hex_json(Hex h) { return Json::array({h.q, h.r}); }

HouseRules house_rules_from_json(const Json& j) {
  HouseRules r;
  if (!j.is_object()) return r;
  auto flag = [&](const char* key, bool& v) {
    if (j.contains(key) && j[key].is_boolean()) v = j[key].get<bool>();
  };
  flag("archer_star_free_path", r.archer_star_free_path);
  flag("ranged_needs_clear_line", r.ranged_needs_clear_line);
  flag("merge_sum", r.merge_sum);
  return r;
}

Json to_json(const HouseRules& r) {
  return Json{{"archer_star_free_path", r.archer_star_free_path},
              {"ranged_needs_clear_line", r.ranged_needs_clear_line},
              {"merge_sum", r.merge_sum}};
}

Result<Position> position_from_json(const Json& j) {
  if (!j.is_object()) return Error{"position: expected a JSON object"};
  if (j.contains("ruleset") && (!j["ruleset"].is_string() || j["ruleset"].get<std::string>() != "hexdice"))
    return Error{"position: ruleset must be \"hexdice\" here"};
  int radius = 5;
  if (j.contains("radius")) {
    if (!j["radius"].is_number_integer()) return Error{"position: \"radius\" must be an integer"};
    const auto rr = j["radius"].get<long long>();
    if (rr < kMinRadius || rr > kMaxRadius)
      return Error{"position: radius " + std::to_string(rr) + " is out of range " + std::to_string(kMinRadius) + ".." +
                   std::to_string(kMaxRadius)};
    radius = static_cast<int>(rr);
  }
  if (!j.contains("players") || !j["players"].is_array()) return Error{"position: \"players\" must be an array"};
  std::vector<Player> players;
  for (const auto& p : j["players"]) {
    if (!p.is_object() || !p.contains("id") || !p["id"].is_string())
      return Error{"position: each player needs a string \"id\""};
    if (!p.contains("corner") || !p["corner"].is_string())
      return Error{"position: player \"" + p["id"].get<std::string>() + "\" needs a \"corner\" (N, NE, SE, S, SW, NW)"};
    const int c = dir_from_name(p["corner"].get<std::string>());
    if (c < 0)
      return Error{"position: unknown corner \"" + p["corner"].get<std::string>() + "\" (N, NE, SE, S, SW, NW)"};
    Player pl{p["id"].get<std::string>(), c, false};
    if (p.contains("eliminated") && p["eliminated"].is_boolean()) pl.eliminated = p["eliminated"].get<bool>();
    players.push_back(std::move(pl));
  }
  auto created = Position::create(radius, std::move(players),
                                  house_rules_from_json(j.contains("house_rules") ? j["house_rules"] : Json()));
  if (!created) return Error{"position: " + created.error()};
  Position pos = std::move(created).value();

  if (!j.contains("to_move") || !j["to_move"].is_string()) return Error{"position: \"to_move\" must be a player id"};
  const int tm = pos.player_index(j["to_move"].get<std::string>());
  if (tm < 0) return Error{"position: to_move \"" + j["to_move"].get<std::string>() + "\" is not a listed player"};
  if (pos.player(tm).eliminated) return Error{"position: to_move \"" + pos.player(tm).id + "\" is eliminated"};
  pos.set_to_move(tm);

  if (j.contains("winner") && !j["winner"].is_null()) {
    if (!j["winner"].is_string()) return Error{"position: \"winner\" must be a player id or null"};
    const int w = pos.player_index(j["winner"].get<std::string>());
    if (w < 0) return Error{"position: winner \"" + j["winner"].get<std::string>() + "\" is not a listed player"};
    pos.set_winner(w);
  }

  if (j.contains("units")) {
    if (!j["units"].is_array()) return Error{"position: \"units\" must be an array"};
    for (const auto& u : j["units"]) {
      if (!u.is_object()) return Error{"position: each unit must be an object"};
      for (const char* k : {"q", "r", "face"})
        if (!u.contains(k) || !u[k].is_number_integer())
          return Error{std::string("position: a unit needs an integer \"") + k + "\""};
      if (!u.contains("owner") || !u["owner"].is_string()) return Error{"position: a unit needs a string \"owner\""};
      const auto q = u["q"].get<long long>(), r = u["r"].get<long long>(), face = u["face"].get<long long>();
      if (q < -1000 || q > 1000 || r < -1000 || r > 1000) return Error{"position: a unit's cell is off the map"};
      const Hex h{static_cast<int>(q), static_cast<int>(r)};
      const int owner = pos.player_index(u["owner"].get<std::string>());
      if (owner < 0)
        return Error{"position: unit on " + cell_text(h) + " has unknown owner \"" + u["owner"].get<std::string>() + "\""};
      if (face < 1 || face > 6)
        return Error{"position: unit on " + cell_text(h) + " has unknown face " + std::to_string(face) + " (faces are 1-6)"};
      long long tokens = 0;
      if (u.contains("tokens")) {
        if (!u["tokens"].is_number_integer()) return Error{"position: \"tokens\" must be an integer"};
        tokens = u["tokens"].get<long long>();
        if (tokens < 0 || tokens > kMaxTokens)
          return Error{"position: unit on " + cell_text(h) + " has " + std::to_string(tokens) + " tokens (0-6)"};
      }
      bool guard = false;
      if (u.contains("guard")) {
        if (!u["guard"].is_boolean()) return Error{"position: \"guard\" must be true or false"};
        guard = u["guard"].get<bool>();
      }
      if (!pos.board().contains(h))
        return Error{"position: unit cell " + cell_text(h) + " is off the radius-" + std::to_string(radius) + " map"};
      if (pos.player(owner).eliminated)
        return Error{"position: unit on " + pos.board().name(h) + " belongs to eliminated player " + pos.player(owner).id};
      if (Status s = pos.place(h, owner, static_cast<int>(face), static_cast<int>(tokens), guard); !s)
        return Error{"position: " + s.error()};
    }
  }
  return pos;
}

Result<Position> parse_position(std::string_view text) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{"position: malformed JSON"};
  return position_from_json(j);
}

Json to_json(const Position& pos) {
  Json players = Json::array();
  for (const auto& p : pos.players()) {
    Json pj{{"id", p.id}, {"corner", std::string(kDirNames[static_cast<std::size_t>(p.corner)])}};
    if (p.eliminated) pj["eliminated"] = true;
    players.push_back(pj);
  }
  Json units = Json::array();
  const Board& b = pos.board();
  for (int i = 0; i < b.size(); ++i) {
    const Piece& p = pos.at(i);
    if (p.empty()) continue;
    const Hex h = b.hex(i);
    units.push_back(Json{{"q", h.q}, {"r", h.r}, {"owner", pos.player(p.owner).id}, {"face", p.face},
                         {"tokens", p.tokens}, {"guard", p.guard}});
  }
  Json j{{"ruleset", "hexdice"},
         {"radius", pos.radius()},
         {"players", players},
         {"to_move", pos.player(pos.to_move()).id},
         {"units", units},
         {"house_rules", to_json(pos.rules())}};
  j["winner"] = pos.winner() >= 0 ? Json(pos.player(pos.winner()).id) : Json(nullptr);
  return j;
}

Result<Action> action_from_json(const Json& j, const Position& pos) {
  if (!j.is_object()) return Error{"action: expected a JSON object"};
  if (!j.contains("type") || !j["type"].is_string()) return Error{"action: \"type\" must be a string"};
  const std::string type = j["type"].get<std::string>();
  Action a;
  const char* target_key = nullptr;
  if (type == "move") {
    a.type = ActionType::Move;
    target_key = "to";
  } else if (type == "reroll") {
    a.type = ActionType::Reroll;
  } else if (type == "guard") {
    a.type = ActionType::Guard;
  } else if (type == "ranged") {
    a.type = ActionType::Ranged;
    target_key = "target";
  } else if (type == "special") {
    a.type = ActionType::Special;
    target_key = "target";
  } else if (type == "merge") {
    a.type = ActionType::Merge;
    target_key = "with";
  } else {
    return Error{"action: unknown type \"" + type + "\" (move, reroll, guard, ranged, special, merge)"};
  }
  if (!j.contains("unit")) return Error{"action: missing \"unit\""};
  auto u = hex_from(j["unit"], "unit");
  if (!u) return Error{"action: " + u.error()};
  if (!pos.board().contains(*u)) return Error{"action: unit cell " + cell_text(*u) + " is off the map"};
  a.unit = static_cast<std::int16_t>(pos.board().index(*u));
  if (target_key) {
    if (!j.contains(target_key)) return Error{std::string("action: a ") + type + " needs \"" + target_key + "\""};
    auto t = hex_from(j[target_key], target_key);
    if (!t) return Error{"action: " + t.error()};
    if (!pos.board().contains(*t))
      return Error{std::string("action: \"") + target_key + "\" cell " + cell_text(*t) + " is off the map"};
    a.target = static_cast<std::int16_t>(pos.board().index(*t));
  }
  if (a.type == ActionType::Reroll && j.contains("face") && !j["face"].is_null()) {
    if (!j["face"].is_number_integer()) return Error{"action: \"face\" must be an integer 1-6"};
    const auto f = j["face"].get<long long>();
    if (f < 1 || f > 6) return Error{"action: unknown face " + std::to_string(f) + " (faces are 1-6)"};
    a.face = static_cast<std::uint8_t>(f);
  }
  return a;
}

Result<Action> parse_action(std::string_view text, const Position& pos) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return Error{"action: malformed JSON"};
  return action_from_json(j, pos);
}

Json to_json(const Action& a, const Board& b) {
  Json j{{"type", std::string(action_name(a.type))}, {"unit", hex_json(b.hex(a.unit))}};
  switch (a.type) {
    case ActionType::Move: j["to"] = hex_json(b.hex(a.target)); break;
    case ActionType::Ranged:
    case ActionType::Special: j["target"] = hex_json(b.hex(a.target)); break;
    case ActionType::Merge: j["with"] = hex_json(b.hex(a.target)); break;
    case ActionType::Reroll:
      if (valid_face(a.face)) j["face"] = a.face;
      break;
    case ActionType::Guard: break;
  }
  return j;
}

Json to_json(const Outcome& o, const Position& before) {
  Json j;
  if (o.combat)
    j["combat"] = Json{{"attack", o.combat->attack}, {"armor", o.combat->armor}, {"success", o.combat->success}};
  else
    j["combat"] = nullptr;
  Json removed = Json::array();
  for (Hex h : o.removed) removed.push_back(hex_json(h));
  j["removed"] = removed;
  j["winner"] = o.winner >= 0 ? Json(before.player(o.winner).id) : Json(nullptr);
  if (!o.eliminated.empty()) {
    Json e = Json::array();
    for (int p : o.eliminated) e.push_back(before.player(p).id);
    j["eliminated"] = e;
  }
  return j;
}

}  // namespace hexdice
