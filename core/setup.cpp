#include "core/setup.h"

#include <algorithm>
#include <set>

namespace hexdice {

namespace {

std::string join(const std::vector<int>& v, const char* sep = ", ") {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

// Removes one die showing `face`; false when there is none.
bool take(std::vector<int>& dice, int face) {
  auto it = std::find(dice.begin(), dice.end(), face);
  if (it == dice.end()) return false;
  dice.erase(it);
  return true;
}

}  // namespace

std::vector<int> allowed_dice_counts(int n) {
  switch (n) {
    case 2: return {6, 8};
    case 3: return {6};
    case 4: return {4, 5};
    case 6: return {3, 4};
    default: return {};
  }
}

Status validate_player_ids(const std::vector<Player>& players) {
  for (const auto& p : players) {
    const bool ok = !p.id.empty() && std::all_of(p.id.begin(), p.id.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
    });
    if (!ok)
      return Error{"player id \"" + p.id + "\" must be a colour name: letters, digits, '_' or '-' (interfaces.md)"};
  }
  return {};
}

Status validate_config(const SetupConfig& c) {
  if (Status s = validate_player_ids(c.players); !s) return s;
  auto pos = Position::create(c.radius, c.players, c.house_rules);
  if (!pos) return Error{pos.error()};
  const int n = static_cast<int>(c.players.size());
  const auto allowed = allowed_dice_counts(n);
  if (c.any_dice_count) {
    const int zone = static_cast<int>(pos->deployment_zone(0).size());
    if (c.dice_per_player < 1 || c.dice_per_player > zone)
      return Error{"with house rule any_dice_count a player has 1 to " + std::to_string(zone) +
                   " dice (the size of a deployment zone), got " + std::to_string(c.dice_per_player)};
  } else if (std::find(allowed.begin(), allowed.end(), c.dice_per_player) == allowed.end()) {
    return Error{"with " + std::to_string(n) + " players each has " + join(allowed, " or ") + " dice, not " +
                 std::to_string(c.dice_per_player) + " (rules.md section 2; house rule any_dice_count lifts this)"};
  }
  for (int p = 0; p < n; ++p)
    if (static_cast<int>(pos->deployment_zone(p).size()) < c.dice_per_player)
      return Error{"player " + c.players[static_cast<std::size_t>(p)].id + "'s deployment zone has only " +
                   std::to_string(pos->deployment_zone(p).size()) + " cells for " + std::to_string(c.dice_per_player) +
                   " dice (rules.md section 3.3)"};
  return {};
}

std::string_view phase_name(SetupPhase p) {
  switch (p) {
    case SetupPhase::Roll: return "roll";
    case SetupPhase::Reroll: return "reroll";
    case SetupPhase::Deploy: return "deploy";
    case SetupPhase::FirstPlayer: return "first_player";
    case SetupPhase::Done: return "done";
  }
  return "?";
}

std::string_view setup_event_name(SetupEventType t) {
  switch (t) {
    case SetupEventType::Roll: return "roll";
    case SetupEventType::Reroll: return "reroll";
    case SetupEventType::Place: return "place";
    case SetupEventType::FirstRoll: return "first_roll";
  }
  return "?";
}

SetupEvent SetupEvent::roll(std::string player, std::vector<int> faces) {
  SetupEvent e;
  e.type = SetupEventType::Roll;
  e.player = std::move(player);
  e.faces = std::move(faces);
  return e;
}
SetupEvent SetupEvent::reroll(std::string player, std::vector<int> from, std::vector<int> to) {
  SetupEvent e;
  e.type = SetupEventType::Reroll;
  e.player = std::move(player);
  e.faces = std::move(from);
  e.to = std::move(to);
  return e;
}
SetupEvent SetupEvent::place(std::string player, int face, Hex cell) {
  SetupEvent e;
  e.type = SetupEventType::Place;
  e.player = std::move(player);
  e.face = face;
  e.cell = cell;
  return e;
}
SetupEvent SetupEvent::first_roll(std::string player, int face) {
  SetupEvent e;
  e.type = SetupEventType::FirstRoll;
  e.player = std::move(player);
  e.face = face;
  return e;
}

Result<GameSetup> GameSetup::create(const SetupConfig& config) {
  if (Status s = validate_config(config); !s) return Error{s.error()};
  GameSetup st;
  st.config_ = config;
  st.board_ = std::move(Position::create(config.radius, config.players, config.house_rules)).value();
  const auto n = config.players.size();
  st.army_.assign(n, {});
  st.placed_.assign(n, {});
  st.rolled_.assign(n, false);
  st.rerolled_.assign(n, false);
  st.round_roll_.assign(n, 0);
  return st;
}

std::vector<int> GameSetup::unplaced(int p) const {
  std::vector<int> left = army(p);
  for (int f : placed_[static_cast<std::size_t>(p)]) take(left, f);
  return left;
}

std::vector<int> GameSetup::waiting_for() const {
  std::vector<int> out;
  for (int p : board_.turn_order()) {
    const auto i = static_cast<std::size_t>(p);
    switch (phase_) {
      case SetupPhase::Roll:
        if (!rolled_[i]) out.push_back(p);
        break;
      case SetupPhase::Reroll:
        if (!rerolled_[i]) out.push_back(p);
        break;
      case SetupPhase::Deploy:
        if (!unplaced(p).empty()) out.push_back(p);
        break;
      case SetupPhase::FirstPlayer:
        if (std::find(contenders_.begin(), contenders_.end(), p) != contenders_.end() && round_roll_[i] == 0)
          out.push_back(p);
        break;
      case SetupPhase::Done:
        break;
    }
  }
  return out;
}

Status GameSetup::check(const SetupEvent& e) const {
  const int p = board_.player_index(e.player);
  if (p < 0) return Error{"setup: \"" + e.player + "\" is not a player of this game"};
  return check_impl(e, p);
}

Status GameSetup::check_impl(const SetupEvent& e, int p) const {
  const auto i = static_cast<std::size_t>(p);
  const std::string& who = e.player;
  const int n = config_.dice_per_player;
  auto bad_face = [](int f) { return !valid_face(f); };
  auto wrong_phase = [&](const char* what, const char* section) -> Status {
    return Error{std::string("setup: ") + what + " is not allowed now: the setup is in its " +
                 std::string(phase_name(phase_)) + " phase (rules.md section " + section + ")"};
  };
  switch (e.type) {
    case SetupEventType::Roll:
      if (phase_ != SetupPhase::Roll) {
        if (rolled_[i]) return Error{"setup: " + who + " has already rolled their army; the roll stands (rules.md section 3.1)"};
        return wrong_phase("an army roll", "3.1");
      }
      if (rolled_[i]) return Error{"setup: " + who + " has already rolled their army; the roll stands (rules.md section 3.1)"};
      if (static_cast<int>(e.faces.size()) != n)
        return Error{"setup: " + who + " rolled " + std::to_string(e.faces.size()) + " dice; each player rolls all " +
                     std::to_string(n) + " of their dice (rules.md section 3.1)"};
      if (std::any_of(e.faces.begin(), e.faces.end(), bad_face))
        return Error{"setup: " + who + "'s roll has a face outside 1-6"};
      return {};
    case SetupEventType::Reroll: {
      if (phase_ == SetupPhase::Roll)
        return Error{"setup: every player rolls their army before any reroll (rules.md section 3.2)"};
      if (rerolled_[i])
        return Error{"setup: " + who + " has already used their reroll; it is allowed once (rules.md section 3.2)"};
      if (phase_ != SetupPhase::Reroll) return wrong_phase("a reroll", "3.2");
      const int allowance = reroll_allowance(n);
      if (static_cast<int>(e.faces.size()) > allowance)
        return Error{"setup: reroll allowance is " + std::to_string(allowance) + " (rules.md section 3.2: floor(" +
                     std::to_string(n) + " / 3)); " + who + " rerolled " + std::to_string(e.faces.size())};
      if (e.faces.size() != e.to.size())
        return Error{"setup: a reroll lists each rerolled die's old face and its new face (" +
                     std::to_string(e.faces.size()) + " old, " + std::to_string(e.to.size()) + " new)"};
      if (std::any_of(e.faces.begin(), e.faces.end(), bad_face) || std::any_of(e.to.begin(), e.to.end(), bad_face))
        return Error{"setup: " + who + "'s reroll has a face outside 1-6"};
      std::vector<int> left = army(p);
      for (int f : e.faces)
        if (!take(left, f))
          return Error{"setup: " + who + " has no die showing " + std::to_string(f) + " to reroll (army: " +
                       join(army(p)) + "; rules.md section 3.2)"};
      return {};
    }
    case SetupEventType::Place: {
      if (phase_ != SetupPhase::Deploy) return wrong_phase("placing a die", "3.3");
      if (!valid_face(e.face)) return Error{"setup: a placed die shows a face 1-6"};
      const auto left = unplaced(p);
      if (std::find(left.begin(), left.end(), e.face) == left.end())
        return Error{"setup: " + who + " has no unplaced die showing " + std::to_string(e.face) + " (left: " +
                     (left.empty() ? std::string("none") : join(left)) +
                     "); each die is placed exactly once, face unchanged (rules.md section 3.3)"};
      const Board& b = board_.board();
      if (!b.contains(e.cell))
        return Error{"setup: cell (" + std::to_string(e.cell.q) + "," + std::to_string(e.cell.r) + ") is off the map"};
      if (!board_.in_deployment_zone(p, e.cell))
        return Error{"setup: " + b.name(e.cell) + " is outside " + who + "'s deployment zone (within 2 of the " +
                     std::string(kDirNames[static_cast<std::size_t>(board_.player(p).corner)]) +
                     " corner; rules.md sections 2 and 3.3)"};
      if (!board_.at(e.cell)->empty())
        return Error{"setup: " + b.name(e.cell) + " already holds a unit (one unit per hex, rules.md section 3.3)"};
      return {};
    }
    case SetupEventType::FirstRoll:
      if (phase_ != SetupPhase::FirstPlayer) return wrong_phase("the roll for first player", "3.4");
      if (!valid_face(e.face)) return Error{"setup: the roll for first player has a face outside 1-6"};
      if (std::find(contenders_.begin(), contenders_.end(), p) == contenders_.end())
        return Error{"setup: " + who + " is not in this roll for first player; only the tied players roll again "
                     "(rules.md section 3.4)"};
      if (round_roll_[i] != 0)
        return Error{"setup: " + who + " has already rolled in this round for first player (rules.md section 3.4)"};
      return {};
  }
  return Error{"setup: unknown event"};
}

Status GameSetup::apply(const SetupEvent& e) {
  const int p = board_.player_index(e.player);
  if (p < 0) return Error{"setup: \"" + e.player + "\" is not a player of this game"};
  if (Status s = check_impl(e, p); !s) return s;
  const auto i = static_cast<std::size_t>(p);
  switch (e.type) {
    case SetupEventType::Roll:
      army_[i] = e.faces;
      rolled_[i] = true;
      break;
    case SetupEventType::Reroll:
      for (std::size_t k = 0; k < e.faces.size(); ++k)
        *std::find(army_[i].begin(), army_[i].end(), e.faces[k]) = e.to[k];
      rerolled_[i] = true;
      break;
    case SetupEventType::Place: {
      Status s = board_.place(e.cell, p, e.face);
      HEXDICE_CHECK(s.ok());
      placed_[i].push_back(e.face);
      break;
    }
    case SetupEventType::FirstRoll:
      round_roll_[i] = e.face;
      break;
  }
  events_.push_back(e);
  advance();
  return {};
}

void GameSetup::advance() {
  const int n = num_players();
  auto all = [&](auto pred) {
    for (int p = 0; p < n; ++p)
      if (!pred(p)) return false;
    return true;
  };
  if (phase_ == SetupPhase::Roll && all([&](int p) { return rolled_[static_cast<std::size_t>(p)]; }))
    phase_ = SetupPhase::Reroll;
  if (phase_ == SetupPhase::Reroll && all([&](int p) { return rerolled_[static_cast<std::size_t>(p)]; }))
    phase_ = SetupPhase::Deploy;
  if (phase_ == SetupPhase::Deploy && all([&](int p) { return unplaced(p).empty(); })) {
    phase_ = SetupPhase::FirstPlayer;
    contenders_ = board_.turn_order();
    std::fill(round_roll_.begin(), round_roll_.end(), 0);
  }
  if (phase_ == SetupPhase::FirstPlayer) {
    int best = 0;
    for (int p : contenders_) {
      const int r = round_roll_[static_cast<std::size_t>(p)];
      if (r == 0) return;  // round not complete
      best = std::max(best, r);
    }
    std::vector<int> tied;
    for (int p : contenders_)
      if (round_roll_[static_cast<std::size_t>(p)] == best) tied.push_back(p);
    std::fill(round_roll_.begin(), round_roll_.end(), 0);
    if (tied.size() == 1) {
      first_ = tied.front();
      phase_ = SetupPhase::Done;
      contenders_.clear();
    } else {
      contenders_ = tied;
    }
  }
}

Result<Position> GameSetup::start_position() const {
  if (!done()) {
    std::string who;
    for (int p : waiting_for()) who += (who.empty() ? "" : ", ") + board_.player(p).id;
    return Error{"setup: not finished: the " + std::string(phase_name(phase_)) + " phase waits for " + who +
                 " (rules.md section 3)"};
  }
  Position pos = board_;
  pos.set_to_move(first_);
  return pos;
}

// ---- JSON ------------------------------------------------------------------------------

namespace {

Result<std::vector<int>> faces_from(const Json& j, const char* key) {
  if (!j.contains(key)) return Error{std::string("setup event: missing \"") + key + "\""};
  const Json& a = j[key];
  if (!a.is_array()) return Error{std::string("setup event: \"") + key + "\" must be an array of faces"};
  std::vector<int> out;
  for (const auto& f : a) {
    if (!f.is_number_integer() || f.get<long long>() < 1 || f.get<long long>() > 6)
      return Error{std::string("setup event: \"") + key + "\" holds a face outside 1-6"};
    out.push_back(f.get<int>());
  }
  return out;
}

Result<int> face_from(const Json& j) {
  if (!j.contains("face") || !j["face"].is_number_integer()) return Error{"setup event: \"face\" must be an integer 1-6"};
  const auto f = j["face"].get<long long>();
  if (f < 1 || f > 6) return Error{"setup event: face " + std::to_string(f) + " is outside 1-6"};
  return static_cast<int>(f);
}

}  // namespace

Json to_json(const SetupEvent& e) {
  Json j{{"type", std::string(setup_event_name(e.type))}, {"player", e.player}};
  switch (e.type) {
    case SetupEventType::Roll: j["faces"] = e.faces; break;
    case SetupEventType::Reroll:
      j["from"] = e.faces;
      j["to"] = e.to;
      break;
    case SetupEventType::Place:
      j["face"] = e.face;
      j["cell"] = hex_json(e.cell);
      break;
    case SetupEventType::FirstRoll: j["face"] = e.face; break;
  }
  return j;
}

Result<SetupEvent> setup_event_from_json(const Json& j) {
  if (!j.is_object()) return Error{"setup event: expected a JSON object"};
  if (!j.contains("type") || !j["type"].is_string()) return Error{"setup event: \"type\" must be a string"};
  if (!j.contains("player") || !j["player"].is_string()) return Error{"setup event: \"player\" must be a player id"};
  const std::string type = j["type"].get<std::string>();
  const std::string player = j["player"].get<std::string>();
  if (type == "roll") {
    auto f = faces_from(j, "faces");
    if (!f) return Error{f.error()};
    return SetupEvent::roll(player, *f);
  }
  if (type == "reroll") {
    auto from = faces_from(j, "from");
    if (!from) return Error{from.error()};
    auto to = faces_from(j, "to");
    if (!to) return Error{to.error()};
    return SetupEvent::reroll(player, *from, *to);
  }
  if (type == "place") {
    auto f = face_from(j);
    if (!f) return Error{f.error()};
    if (!j.contains("cell") || !j["cell"].is_array() || j["cell"].size() != 2 || !j["cell"][0].is_number_integer() ||
        !j["cell"][1].is_number_integer())
      return Error{"setup event: \"cell\" must be a [q, r] pair of integers"};
    const auto q = j["cell"][0].get<long long>(), r = j["cell"][1].get<long long>();
    if (q < -1000 || q > 1000 || r < -1000 || r > 1000) return Error{"setup event: \"cell\" is off the map"};
    return SetupEvent::place(player, *f, Hex{static_cast<int>(q), static_cast<int>(r)});
  }
  if (type == "first_roll") {
    auto f = face_from(j);
    if (!f) return Error{f.error()};
    return SetupEvent::first_roll(player, *f);
  }
  return Error{"setup event: unknown type \"" + type + "\" (roll, reroll, place, first_roll)"};
}

Json to_json(const SetupConfig& c) {
  Json players = Json::array();
  for (const auto& p : c.players)
    players.push_back(Json{{"id", p.id}, {"corner", std::string(kDirNames[static_cast<std::size_t>(p.corner)])}});
  Json rules = to_json(c.house_rules);
  rules["any_dice_count"] = c.any_dice_count;
  return Json{{"radius", c.radius}, {"players", players}, {"dice_per_player", c.dice_per_player}, {"house_rules", rules}};
}

Result<SetupConfig> setup_config_from_json(const Json& j) {
  if (!j.is_object()) return Error{"setup config: expected a JSON object"};
  SetupConfig c;
  if (j.contains("radius")) {
    if (!j["radius"].is_number_integer()) return Error{"setup config: \"radius\" must be an integer"};
    const auto r = j["radius"].get<long long>();
    if (r < kMinRadius || r > kMaxRadius) return Error{"setup config: radius " + std::to_string(r) + " is out of range"};
    c.radius = static_cast<int>(r);
  }
  if (!j.contains("players") || !j["players"].is_array()) return Error{"setup config: \"players\" must be an array"};
  for (const auto& p : j["players"]) {
    if (!p.is_object() || !p.contains("id") || !p["id"].is_string() || !p.contains("corner") || !p["corner"].is_string())
      return Error{"setup config: each player needs a string \"id\" and \"corner\""};
    const int corner = dir_from_name(p["corner"].get<std::string>());
    if (corner < 0) return Error{"setup config: unknown corner \"" + p["corner"].get<std::string>() + "\""};
    c.players.push_back(Player{p["id"].get<std::string>(), corner, false});
  }
  if (j.contains("dice_per_player")) {
    if (!j["dice_per_player"].is_number_integer()) return Error{"setup config: \"dice_per_player\" must be an integer"};
    const auto d = j["dice_per_player"].get<long long>();
    if (d < 0 || d > 1000) return Error{"setup config: dice_per_player is out of range"};
    c.dice_per_player = static_cast<int>(d);
  }
  if (j.contains("house_rules")) {
    c.house_rules = house_rules_from_json(j["house_rules"]);
    const Json& h = j["house_rules"];
    if (h.is_object() && h.contains("any_dice_count") && h["any_dice_count"].is_boolean())
      c.any_dice_count = h["any_dice_count"].get<bool>();
  }
  return c;
}

}  // namespace hexdice
