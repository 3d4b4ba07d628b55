#include "core/solo/scenario.h"

#include <algorithm>
#include <set>

namespace hexdice::solo {

namespace {

using Json = nlohmann::json;

Result<Hex> cell_from(const Json& j, const Board& b, const std::string& where) {
  if (j.is_string()) {
    auto h = b.parse_name(j.get<std::string>());
    if (!h) return Error{where + ": \"" + j.get<std::string>() + "\" is not a cell of the radius-" +
                         std::to_string(b.radius()) + " map"};
    return *h;
  }
  if (j.is_array() && j.size() == 2 && j[0].is_number_integer() && j[1].is_number_integer()) {
    const Hex h{j[0].get<int>(), j[1].get<int>()};
    if (!b.contains(h)) return Error{where + ": [" + std::to_string(h.q) + ", " + std::to_string(h.r) + "] is off the map"};
    return h;
  }
  return Error{where + ": a cell is a name (\"f6\") or [q, r]"};
}

Result<int> int_in(const Json& j, const char* key, int lo, int hi, int def, const std::string& where) {
  if (!j.contains(key)) return def;
  if (!j[key].is_number_integer()) return Error{where + ": \"" + key + "\" must be an integer"};
  const auto v = j[key].get<long long>();
  if (v < lo || v > hi)
    return Error{where + ": \"" + key + "\" must be " + std::to_string(lo) + ".." + std::to_string(hi)};
  return static_cast<int>(v);
}

Result<std::vector<ScenarioUnit>> units_from(const Json& j, const Board& b, const std::string& where) {
  std::vector<ScenarioUnit> out;
  if (!j.is_array()) return Error{where + " must be an array of units"};
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Json& u = j[i];
    const std::string w = where + "[" + std::to_string(i) + "]";
    if (!u.is_object()) return Error{w + ": a unit is an object {\"face\", \"at\"}"};
    ScenarioUnit su;
    auto face = int_in(u, "face", 1, 6, 0, w);
    if (!face) return Error{face.error()};
    if (*face == 0) return Error{w + ": needs a \"face\" 1-6"};
    su.face = *face;
    if (!u.contains("at")) return Error{w + ": needs \"at\" (a cell)"};
    auto at = cell_from(u["at"], b, w);
    if (!at) return Error{at.error()};
    su.at = *at;
    if (u.contains("tag")) {
      if (!u["tag"].is_string()) return Error{w + ": \"tag\" must be a string"};
      su.tag = u["tag"].get<std::string>();
    }
    auto tok = int_in(u, "tokens", 0, kMaxTokens, 0, w);
    if (!tok) return Error{tok.error()};
    su.tokens = *tok;
    if (u.contains("guard")) {
      if (!u["guard"].is_boolean()) return Error{w + ": \"guard\" must be true or false"};
      su.guard = u["guard"].get<bool>();
    }
    out.push_back(su);
  }
  return out;
}

int corner_from(const Json& j, const char* key, int def) {
  if (!j.contains(key) || !j[key].is_string()) return def;
  return dir_from_name(j[key].get<std::string>());
}

}  // namespace

const ActivationEntry* Scenario::entry_for(int roll) const {
  for (const auto& e : table)
    if (std::find(e.rolls.begin(), e.rolls.end(), roll) != e.rolls.end()) return &e;
  return nullptr;
}

int Scenario::army_size() const {
  if (!hero_units.empty()) return static_cast<int>(hero_units.size());
  if (!hero_army.empty()) return static_cast<int>(hero_army.size());
  return roll_dice;
}

Result<Scenario> scenario_from_json(const Json& j) {
  if (!j.is_object()) return Error{"scenario: expected a JSON object"};
  Scenario sc;
  auto str = [&](const char* key, std::string& v) {
    if (j.contains(key) && j[key].is_string()) v = j[key].get<std::string>();
  };
  str("id", sc.id);
  str("name", sc.name);
  str("description", sc.description);
  if (sc.name.empty()) return Error{"scenario: needs a \"name\""};
  const std::string w = "scenario \"" + sc.name + "\"";
  auto diff = int_in(j, "difficulty", 1, 5, 1, w);
  if (!diff) return Error{diff.error()};
  sc.difficulty = *diff;
  auto rad = int_in(j, "radius", kMinRadius, kMaxRadius, 5, w);
  if (!rad) return Error{rad.error()};
  sc.radius = *rad;
  if (j.contains("house_rules")) sc.rules = house_rules_from_json(j["house_rules"]);
  const auto board = Board::get(sc.radius);
  const Board& b = *board;

  // Heroes.
  if (!j.contains("heroes") || !j["heroes"].is_object()) return Error{w + ": needs a \"heroes\" object"};
  const Json& h = j["heroes"];
  if (h.contains("id") && h["id"].is_string()) sc.hero_id = h["id"].get<std::string>();
  sc.hero_corner = corner_from(h, "corner", 3);
  if (sc.hero_corner < 0) return Error{w + ": heroes.corner must be N, NE, SE, S, SW or NW"};
  int kinds = 0;
  if (h.contains("units")) {
    auto us = units_from(h["units"], b, w + ": heroes.units");
    if (!us) return Error{us.error()};
    sc.hero_units = *us;
    ++kinds;
  }
  if (h.contains("army")) {
    if (!h["army"].is_array() || h["army"].empty()) return Error{w + ": heroes.army must be a list of faces"};
    for (const auto& f : h["army"]) {
      if (!f.is_number_integer() || f.get<int>() < 1 || f.get<int>() > 6)
        return Error{w + ": heroes.army faces must be 1-6"};
      sc.hero_army.push_back(f.get<int>());
    }
    ++kinds;
  }
  if (h.contains("roll")) {
    const Json& r = h["roll"];
    if (!r.is_object()) return Error{w + ": heroes.roll must be {\"dice\": N, \"rerolls\": K}"};
    auto dice = int_in(r, "dice", 1, 9, 0, w + ": heroes.roll");
    if (!dice) return Error{dice.error()};
    if (*dice == 0) return Error{w + ": heroes.roll needs \"dice\""};
    auto rr = int_in(r, "rerolls", 0, 9, *dice / 3, w + ": heroes.roll");
    if (!rr) return Error{rr.error()};
    sc.roll_dice = *dice;
    sc.roll_rerolls = *rr;
    ++kinds;
  }
  if (kinds != 1) return Error{w + ": heroes need exactly one of \"units\", \"army\" or \"roll\""};
  if (sc.army_size() < 1) return Error{w + ": the heroes need at least one unit"};
  if (h.contains("deploy") && h["deploy"].is_array()) {
    for (const auto& c : h["deploy"]) {
      auto cell = cell_from(c, b, w + ": heroes.deploy");
      if (!cell) return Error{cell.error()};
      sc.hero_deploy.push_back(*cell);
    }
  } else {
    for (Hex c : spiral(b.corner(sc.hero_corner), 2))
      if (b.contains(c)) sc.hero_deploy.push_back(c);
  }
  if (sc.hero_units.empty() && static_cast<int>(sc.hero_deploy.size()) < sc.army_size())
    return Error{w + ": " + std::to_string(sc.army_size()) + " heroes do not fit on " +
                 std::to_string(sc.hero_deploy.size()) + " deployment cells"};

  // Enemy.
  if (!j.contains("enemy") || !j["enemy"].is_object()) return Error{w + ": needs an \"enemy\" object"};
  const Json& e = j["enemy"];
  if (e.contains("id") && e["id"].is_string()) sc.enemy_id = e["id"].get<std::string>();
  if (sc.enemy_id == sc.hero_id) return Error{w + ": heroes and enemy need different ids (dice colours)"};
  sc.enemy_corner = corner_from(e, "corner", 0);
  if (sc.enemy_corner < 0) return Error{w + ": enemy.corner must be N, NE, SE, S, SW or NW"};
  if (sc.enemy_corner == sc.hero_corner) return Error{w + ": heroes and enemy need different corners"};
  if (!e.contains("units")) return Error{w + ": enemy needs \"units\""};
  auto eu = units_from(e["units"], b, w + ": enemy.units");
  if (!eu) return Error{eu.error()};
  sc.enemy_units = *eu;
  if (sc.enemy_units.empty()) return Error{w + ": the enemy needs at least one unit"};

  if (j.contains("first")) {
    if (!j["first"].is_string() || (j["first"] != "heroes" && j["first"] != "enemy"))
      return Error{w + ": \"first\" is \"heroes\" or \"enemy\""};
    sc.heroes_first = j["first"] == "heroes";
  }

  if (j.contains("activation_markers")) {
    if (!j["activation_markers"].is_boolean()) return Error{w + ": \"activation_markers\" must be true or false"};
    sc.activation_markers = j["activation_markers"].get<bool>();
  }
  // Activation table.
  if (j.contains("activation")) {
    if (!j["activation"].is_array()) return Error{w + ": \"activation\" must be an array of entries"};
    for (std::size_t i = 0; i < j["activation"].size(); ++i) {
      const Json& a = j["activation"][i];
      const std::string we = w + ": activation[" + std::to_string(i) + "]";
      if (!a.is_object()) return Error{we + " must be an object"};
      ActivationEntry en;
      if (!a.contains("roll")) return Error{we + ": needs \"roll\" (1-6 or a list)"};
      const Json rolls = a["roll"].is_array() ? a["roll"] : Json::array({a["roll"]});
      for (const auto& r : rolls) {
        if (!r.is_number_integer() || r.get<int>() < 1 || r.get<int>() > 6) return Error{we + ": rolls are 1-6"};
        en.rolls.push_back(r.get<int>());
      }
      auto face = int_in(a, "face", 1, 6, 0, we);
      if (!face) return Error{face.error()};
      en.face = *face;
      if (a.contains("tag") && a["tag"].is_string()) en.tag = a["tag"].get<std::string>();
      if (a.contains("all") && a["all"].is_boolean()) en.all = a["all"].get<bool>();
      if (a.contains("group") && a["group"].is_boolean()) en.group = a["group"].get<bool>();
      if ((en.face != 0) + !en.tag.empty() + en.all != 1)
        return Error{we + ": selects units by exactly one of \"face\", \"tag\" or \"all\""};
      if (a.contains("orders")) {
        if (!a["orders"].is_array()) return Error{we + ": \"orders\" must be a list like [\"Engage 2\", \"Hold\"]"};
        for (const auto& o : a["orders"]) {
          if (!o.is_string()) return Error{we + ": each order is a string"};
          auto order = parse_order(o.get<std::string>());
          if (!order)
            return Error{we + ": unknown order \"" + o.get<std::string>() +
                         "\" (Engage X, Prey X, Distance X (a-b), Raid X, Strike, Hold)"};
          en.orders.push_back(*order);
        }
      } else if (en.face != 0) {
        en.orders = default_orders(en.face);
      }
      if (en.orders.empty()) return Error{we + ": needs \"orders\""};
      if (a.contains("text") && a["text"].is_string()) en.text = a["text"].get<std::string>();
      for (int r : en.rolls)
        if (sc.entry_for(r)) return Error{we + ": roll " + std::to_string(r) + " is already in the table"};
      sc.table.push_back(std::move(en));
    }
  } else {
    // The natural Hex Dice table (rules.md section 9): the roll names the unit type.
    for (int f = 1; f <= 6; ++f) {
      ActivationEntry en;
      en.rolls = {f};
      en.face = f;
      en.orders = default_orders(f);
      en.text = std::string(unit_stats(f).name);
      sc.table.push_back(std::move(en));
    }
  }

  // Special rules.
  if (j.contains("special_rules")) {
    if (!j["special_rules"].is_array()) return Error{w + ": \"special_rules\" must be an array"};
    for (std::size_t i = 0; i < j["special_rules"].size(); ++i) {
      const Json& r = j["special_rules"][i];
      const std::string wr = w + ": special_rules[" + std::to_string(i) + "]";
      if (r.is_string()) {
        sc.special_rules.push_back(r.get<std::string>());
        continue;
      }
      if (!r.is_object()) return Error{wr + " must be a string or an object"};
      std::string text = r.contains("text") && r["text"].is_string() ? r["text"].get<std::string>() : "";
      const std::string effect = r.contains("effect") && r["effect"].is_string() ? r["effect"].get<std::string>() : "";
      if (effect == "reinforce") {
        Reinforcement re;
        auto round = int_in(r, "round", 1, 1000, 0, wr);
        if (!round) return Error{round.error()};
        if (*round == 0) return Error{wr + ": reinforce needs \"round\""};
        re.round = *round;
        if (!r.contains("units")) return Error{wr + ": reinforce needs \"units\""};
        auto us = units_from(r["units"], b, wr + ".units");
        if (!us) return Error{us.error()};
        re.units = *us;
        re.text = text;
        sc.reinforcements.push_back(std::move(re));
      } else if (!effect.empty()) {
        return Error{wr + ": unknown effect \"" + effect + "\" (reinforce)"};
      }
      if (!text.empty()) sc.special_rules.push_back(text);
    }
  }

  // Victory.
  if (j.contains("victory")) {
    const Json& v = j["victory"];
    if (!v.is_object()) return Error{w + ": \"victory\" must be an object"};
    if (v.contains("hero_base_capture") && v["hero_base_capture"].is_boolean())
      sc.hero_base_capture = v["hero_base_capture"].get<bool>();
    if (v.contains("enemy_base_capture") && v["enemy_base_capture"].is_boolean())
      sc.enemy_base_capture = v["enemy_base_capture"].get<bool>();
    if (v.contains("defeat")) {
      const Json tags = v["defeat"].is_array() ? v["defeat"] : Json::array({v["defeat"]});
      for (const auto& t : tags) {
        if (!t.is_string()) return Error{w + ": victory.defeat lists tags"};
        sc.defeat_tags.push_back(t.get<std::string>());
      }
    }
    if (v.contains("reach")) {
      const Json cells = v["reach"].is_array() && !(v["reach"].size() == 2 && v["reach"][0].is_number())
                             ? v["reach"]
                             : Json::array({v["reach"]});
      for (const auto& c : cells) {
        auto cell = cell_from(c, b, w + ": victory.reach");
        if (!cell) return Error{cell.error()};
        sc.reach.push_back(*cell);
      }
    }
    auto lim = int_in(v, "turn_limit", 0, 1000, 0, w + ": victory");
    if (!lim) return Error{lim.error()};
    sc.turn_limit = *lim;
    if (v.contains("on_limit")) {
      const std::string o = v["on_limit"].is_string() ? v["on_limit"].get<std::string>() : "";
      if (o == "heroes") sc.on_limit = 1;
      else if (o == "enemy") sc.on_limit = -1;
      else if (o == "draw") sc.on_limit = 0;
      else return Error{w + ": victory.on_limit is \"heroes\", \"enemy\" or \"draw\""};
    }
  }
  for (const auto& t : sc.defeat_tags) {
    bool named = std::any_of(sc.enemy_units.begin(), sc.enemy_units.end(), [&](const auto& u) { return u.tag == t; });
    for (const auto& re : sc.reinforcements)
      named |= std::any_of(re.units.begin(), re.units.end(), [&](const auto& u) { return u.tag == t; });
    if (!named) return Error{w + ": victory.defeat names the tag \"" + t + "\" that no enemy unit carries"};
  }
  // The starting cells must be distinct and must not stand on a base.
  auto created = Position::create(sc.radius, {{sc.hero_id, sc.hero_corner, false}, {sc.enemy_id, sc.enemy_corner, false}});
  if (!created) return Error{w + ": " + created.error()};
  std::set<Hex> used;
  for (const auto& u : sc.enemy_units) {
    if (!used.insert(u.at).second) return Error{w + ": two enemy units on " + b.name(u.at)};
    if (b.index(u.at) == created->base_cell(0))
      return Error{w + ": an enemy unit starts on the heroes' base " + b.name(u.at)};
  }
  for (const auto& u : sc.hero_units) {
    if (!used.insert(u.at).second) return Error{w + ": two units on " + b.name(u.at)};
    if (b.index(u.at) == created->base_cell(1)) return Error{w + ": a hero starts on the enemy base " + b.name(u.at)};
  }
  for (Hex c : sc.hero_deploy) {
    if (used.count(c) && sc.hero_units.empty()) return Error{w + ": deployment cell " + b.name(c) + " holds an enemy"};
    if (b.index(c) == created->base_cell(1)) return Error{w + ": deployment cell " + b.name(c) + " is the enemy base"};
  }
  return sc;
}

Result<Scenario> parse_scenario(std::string_view text) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{"scenario: malformed JSON"};
  return scenario_from_json(j);
}

std::vector<ScenarioUnit> auto_setup(const Scenario& sc, Rng& rng) {
  if (!sc.hero_units.empty()) return sc.hero_units;
  std::vector<int> faces = sc.hero_army;
  if (faces.empty()) {
    for (int i = 0; i < sc.roll_dice; ++i) faces.push_back(rng.face());
    // Reroll the weakest dice for an attacker (Balances first, then Tankers), up to the allowance.
    int left = sc.roll_rerolls;
    for (int want : {6, 5})
      for (int& f : faces)
        if (left > 0 && f == want) {
          f = rng.face();
          --left;
        }
  }
  std::vector<Hex> cells = sc.hero_deploy;
  for (std::size_t i = cells.size(); i > 1; --i)
    std::swap(cells[i - 1], cells[static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(i)))]);
  std::vector<ScenarioUnit> out;
  for (std::size_t i = 0; i < faces.size() && i < cells.size(); ++i) out.push_back({faces[i], cells[i], "", 0, false});
  return out;
}

// ---- SoloGame --------------------------------------------------------------------------

Result<SoloGame> SoloGame::start(const Scenario& sc, const std::vector<ScenarioUnit>& heroes) {
  SoloGame g;
  g.sc_ = sc;
  auto created = Position::create(sc.radius, {{sc.hero_id, sc.hero_corner, false}, {sc.enemy_id, sc.enemy_corner, false}},
                                  sc.rules);
  if (!created) return Error{created.error()};
  g.pos_ = std::move(created).value();
  g.hero_ = 0;
  g.enemy_ = 1;
  const Board& b = g.pos_.board();
  g.tags_.assign(static_cast<std::size_t>(b.size()), -1);
  g.acted_.assign(static_cast<std::size_t>(b.size()), 0);
  for (const auto& u : sc.enemy_units) {
    if (Status s = g.pos_.place(u.at, g.enemy_, u.face, u.tokens, u.guard); !s) return Error{s.error()};
    if (!u.tag.empty()) {
      auto it = std::find(g.tag_names_.begin(), g.tag_names_.end(), u.tag);
      if (it == g.tag_names_.end()) it = g.tag_names_.insert(g.tag_names_.end(), u.tag);
      g.tags_[static_cast<std::size_t>(b.index(u.at))] = static_cast<int>(it - g.tag_names_.begin());
    }
  }
  // The heroes' setup (rules.md section 3, as the scenario sets it).
  if (static_cast<int>(heroes.size()) != sc.army_size())
    return Error{"the scenario has " + std::to_string(sc.army_size()) + " heroes, the setup has " +
                 std::to_string(heroes.size())};
  std::vector<int> faces, want = sc.hero_army;
  for (const auto& u : heroes) {
    if (!b.contains(u.at)) return Error{"a hero is off the map"};
    const bool fixed = !sc.hero_units.empty();
    if (!fixed && std::find(sc.hero_deploy.begin(), sc.hero_deploy.end(), u.at) == sc.hero_deploy.end())
      return Error{"the hero on " + b.name(u.at) + " is outside the scenario's deployment cells"};
    if (Status s = g.pos_.place(u.at, g.hero_, u.face, u.tokens, u.guard); !s) return Error{s.error()};
    faces.push_back(u.face);
  }
  if (!want.empty()) {
    std::sort(faces.begin(), faces.end());
    std::sort(want.begin(), want.end());
    if (faces != want) return Error{"the heroes' faces do not match the scenario's army"};
  }
  g.pos_.set_to_move(sc.heroes_first ? g.hero_ : g.enemy_);
  return g;
}

std::string SoloGame::tag_at(int cell) const {
  if (cell < 0 || cell >= static_cast<int>(tags_.size())) return "";
  const int t = tags_[static_cast<std::size_t>(cell)];
  return t < 0 ? "" : tag_names_[static_cast<std::size_t>(t)];
}

void SoloGame::finish(int result, std::string text) {
  result_set_ = true;
  result_ = result;
  result_text_ = std::move(text);
  pos_.set_winner(result > 0 ? hero_ : (result < 0 ? enemy_ : -1));
}

void SoloGame::applied(const Position& before, const Action& a, const Outcome& out) {
  auto& t = tags_;
  auto at = [&](int c) -> int& { return t[static_cast<std::size_t>(c)]; };
  switch (a.type) {
    case ActionType::Move:
    case ActionType::Special:
      if (pos_.at(a.unit).empty() && !pos_.at(a.target).empty()) {
        at(a.target) = at(a.unit);
        at(a.unit) = -1;
        acted_[static_cast<std::size_t>(a.target)] = acted_[static_cast<std::size_t>(a.unit)];
        acted_[static_cast<std::size_t>(a.unit)] = 0;
      }
      break;
    case ActionType::Ranged:
    case ActionType::Merge:
      if (pos_.at(a.target).empty()) {
        at(a.target) = -1;
        acted_[static_cast<std::size_t>(a.target)] = 0;
      }
      break;
    default:
      break;
  }
  history_.push_back({before, a, before.to_move() == enemy_});
  (void)out;
}

void SoloGame::check_end(int actor) {
  const Board& b = pos_.board();
  const int other = actor == hero_ ? enemy_ : hero_;
  if (pos_.winner() >= 0) {
    // The core rules ended the game: annihilation, or base capture (which the scenario may switch off).
    const bool annihilation = pos_.unit_count(other) == 0;
    const bool base_counts = actor == hero_ ? sc_.hero_base_capture : sc_.enemy_base_capture;
    if (annihilation) {
      finish(actor == hero_ ? 1 : -1, actor == hero_ ? "heroes win: no enemy is left" : "the enemy wins: no hero is left");
      return;
    }
    if (base_counts) {
      finish(actor == hero_ ? 1 : -1, actor == hero_ ? "heroes win: they hold the enemy base " + b.name(pos_.base_cell(enemy_))
                                                     : "the enemy wins: it holds the heroes' base " + b.name(pos_.base_cell(hero_)));
      return;
    }
    pos_.set_winner(-1);
  }
  if (!sc_.defeat_tags.empty()) {
    bool left = false;
    for (int c = 0; c < b.size(); ++c)
      if (!pos_.at(c).empty() && pos_.at(c).owner == enemy_ &&
          std::find(sc_.defeat_tags.begin(), sc_.defeat_tags.end(), tag_at(c)) != sc_.defeat_tags.end())
        left = true;
    bool pending = false;  // a tagged reinforcement still to come
    for (const auto& re : sc_.reinforcements)
      if (re.round >= round_)
        for (const auto& u : re.units)
          pending |= std::find(sc_.defeat_tags.begin(), sc_.defeat_tags.end(), u.tag) != sc_.defeat_tags.end();
    if (!left && !pending) {
      finish(1, "heroes win: every target (" + sc_.defeat_tags.front() + ") is defeated");
      return;
    }
  }
  for (Hex h : sc_.reach) {
    const Piece* p = pos_.at(h);
    if (p && !p->empty() && p->owner == hero_) {
      finish(1, "heroes win: a hero reached " + b.name(h));
      return;
    }
  }
}

Result<Outcome> SoloGame::hero_action(const Action& a) {
  if (over()) return Error{"the game is over: " + result_text_};
  if (!heroes_turn()) return Error{"out of turn: it is the Enemy Turn"};
  if (Status s = validate(pos_, a); !s) return Error{s.error()};
  if (sc_.activation_markers && activated(a.unit))
    return Error{"the " + std::string(unit_stats(pos_.at(a.unit).face).name) + " on " + pos_.board().name(a.unit) +
                 " has already acted; choose a hero without an activation marker (co-op, seeds/004)"};
  const Position before = pos_;
  Outcome out;
  apply_unchecked(pos_, a, &out);
  applied(before, a, out);
  if (sc_.activation_markers) {
    const bool moved = (a.type == ActionType::Move || a.type == ActionType::Special) && pos_.at(a.unit).empty() &&
                       !pos_.at(a.target).empty() && pos_.at(a.target).owner == hero_;
    acted_[static_cast<std::size_t>(moved ? a.target : a.unit)] = 1;
    refresh_markers();
  }
  check_end(hero_);
  out.winner = pos_.winner();  // the scenario may not count a core win (base capture switched off)
  if (!over()) pos_.set_to_move(enemy_);
  return out;
}

void SoloGame::refresh_markers() {
  // Once every hero on the board has acted (or the last one without a marker fell),
  // all activation markers come off.
  for (int c = 0; c < pos_.board().size(); ++c)
    if (!pos_.at(c).empty() && pos_.at(c).owner == hero_ && !acted_[static_cast<std::size_t>(c)]) return;
  std::fill(acted_.begin(), acted_.end(), 0);
}

std::vector<Action> SoloGame::hero_actions() const {
  std::vector<Action> out;
  if (!heroes_turn()) return out;
  legal_actions(pos_, out);
  if (sc_.activation_markers) std::erase_if(out, [&](const Action& a) { return activated(a.unit); });
  return out;
}

std::vector<EnemyStep> SoloGame::enemy_turn(int roll) {
  std::vector<EnemyStep> steps;
  HEXDICE_CHECK(!over() && pos_.to_move() == enemy_);
  HEXDICE_CHECK(roll >= 1 && roll <= 6);
  const Board& b = pos_.board();
  // Scenario effects at the start of the Enemy Turn.
  for (const auto& re : sc_.reinforcements) {
    if (re.round != round_) continue;
    std::string placed;
    for (const auto& u : re.units) {
      const int idx = b.index(u.at);
      if (!pos_.at(idx).empty() || idx == pos_.base_cell(hero_)) continue;
      HEXDICE_CHECK(pos_.place(u.at, enemy_, u.face, u.tokens, u.guard).ok());
      if (!u.tag.empty()) {
        auto it = std::find(tag_names_.begin(), tag_names_.end(), u.tag);
        if (it == tag_names_.end()) it = tag_names_.insert(tag_names_.end(), u.tag);
        tags_[static_cast<std::size_t>(idx)] = static_cast<int>(it - tag_names_.begin());
      }
      placed += (placed.empty() ? "" : ", ") + std::string(unit_stats(u.face).name) + " on " + b.name(u.at);
    }
    EnemyStep st;
    st.roll = 0;
    st.explanation = "Scenario effect: " + (re.text.empty() ? std::string("reinforcements") : re.text) + " (" +
                     (placed.empty() ? "every arrival cell is occupied: none arrive" : placed) + ")";
    steps.push_back(std::move(st));
  }
  const ActivationEntry* e = sc_.entry_for(roll);
  std::vector<int> units;
  if (e) {
    for (int c = 0; c < b.size(); ++c) {
      const Piece& p = pos_.at(c);
      if (p.empty() || p.owner != enemy_) continue;
      if (e->all || (e->face != 0 && p.face == e->face) || (!e->tag.empty() && tag_at(c) == e->tag)) units.push_back(c);
    }
  }
  const std::string entry_name =
      e ? (e->text.empty() ? (e->face ? std::string(unit_stats(e->face).name) : (e->all ? "all" : e->tag)) : e->text) : "";
  if (units.empty()) {
    EnemyStep st;
    st.roll = roll;
    st.explanation = "roll " + std::to_string(roll) + (e ? " (" + entry_name + ")" : "") +
                     ": matches no enemy on the board; the Enemy Turn is skipped";
    steps.push_back(std::move(st));
  } else {
    auto act = [&](int cell, const std::string& prefix) {
      pos_.set_to_move(enemy_);
      Decision d = decide_chain(pos_, cell, e->orders);
      EnemyStep st;
      st.roll = roll;
      st.explanation = prefix + d.explanation;
      if (d.action) {
        HEXDICE_CHECK(validate(pos_, *d.action).ok());
        const Position before = pos_;
        Outcome out;
        apply_unchecked(pos_, *d.action, &out);
        st.action = d.action;
        applied(before, *d.action, out);
        check_end(enemy_);
        out.winner = pos_.winner();
        st.text = describe(before, *d.action, &out);
      }
      steps.push_back(std::move(st));
    };
    const std::string head = "roll " + std::to_string(roll) + " (" + entry_name + "): ";
    if (e->group) {
      for (std::size_t i = 0; i < units.size() && !over(); ++i) act(units[i], head);
    } else {
      // One unit: the Dark Rule picks the one whose action harms the heroes most.
      int pick = units.front();
      long long best = -(1LL << 62);
      bool any = false;
      for (int c : units) {
        pos_.set_to_move(enemy_);
        Decision d = decide_chain(pos_, c, e->orders);
        if (d.action && (!any || d.harm > best)) {
          best = d.harm;
          pick = c;
          any = true;
        }
      }
      std::string prefix = head;
      if (units.size() > 1)
        prefix += "Dark Rule: of " + std::to_string(units.size()) + " matching units, the " +
                  std::string(unit_stats(pos_.at(pick).face).name) + " on " + b.name(pick) + " does the most harm; ";
      act(pick, prefix);
    }
  }
  if (sc_.activation_markers) refresh_markers();
  if (!over()) {
    pos_.set_to_move(hero_);
    if (sc_.turn_limit > 0 && round_ >= sc_.turn_limit) {
      const int r = sc_.on_limit;
      finish(r, "the turn limit (" + std::to_string(sc_.turn_limit) + " rounds) has passed: " +
                    (r > 0 ? std::string("heroes win") : (r < 0 ? std::string("the enemy wins") : std::string("draw"))));
    }
    ++round_;
  }
  return steps;
}

}  // namespace hexdice::solo
