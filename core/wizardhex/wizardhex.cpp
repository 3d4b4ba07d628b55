#include "core/wizardhex/wizardhex.h"

#include <algorithm>
#include <set>

namespace hexdice::wizardhex {

namespace {

std::string cell_name(int idx) { return State::board().name(idx); }
std::string elem(int e) { return std::string(kElementNames[static_cast<std::size_t>(e)]); }

bool adjacent_to_element(const State& s, int cell, int e) {
  const Board& b = State::board();
  for (int d = 0; d < kNumDirs; ++d) {
    const int n = b.neighbor(cell, d);
    if (n != kNoCell && s.cells[static_cast<std::size_t>(n)].element == e) return true;
  }
  return false;
}

bool is_start_space(const State& s, int w, int element, int cell) {
  const int seat = s.rules.start_on_own_side ? s.wizards[static_cast<std::size_t>(w)].element : element;
  const auto sp = starting_spaces(seat);
  return std::find(sp.begin(), sp.end(), cell) != sp.end();
}

bool first_turn(const State& s) { return s.first_turn; }

// Legal moves of the wizard to move, stopping at the first when `any_only`.
bool generate(const State& s, std::vector<Action>* out) {
  if (s.over) return false;
  const Board& b = State::board();
  const int w = s.to_move;
  const auto ctrl = controlled(s, w);
  const bool start_only = first_turn(s) && s.rules.first_turn_start_only;
  bool found = false;
  auto emit = [&](const Action& a) {
    found = true;
    if (out) out->push_back(a);
    return out == nullptr;  // stop early when only asking "any?"
  };
  for (int c : ctrl) {
    if (s.available(c) <= 0) continue;
    for (int i = 0; i < kCells; ++i) {
      if (!s.cells[static_cast<std::size_t>(i)].empty()) continue;
      const bool start = is_start_space(s, w, c, i);
      if (start || (!start_only && adjacent_to_element(s, i, c)))
        if (emit({Type::Expand, static_cast<std::int8_t>(c), static_cast<std::int16_t>(i), -1})) return true;
    }
  }
  if (start_only) return found;
  for (int i = 0; i < kCells; ++i) {
    const Token& t = s.cells[static_cast<std::size_t>(i)];
    if (t.empty() || std::find(ctrl.begin(), ctrl.end(), t.element) == ctrl.end()) continue;
    if (t.level < kGold && s.available(t.element) > 0)
      if (emit({Type::Stack, -1, static_cast<std::int16_t>(i), -1})) return true;
  }
  for (int i = 0; i < kCells; ++i) {
    const Token& t = s.cells[static_cast<std::size_t>(i)];
    if (t.empty() || std::find(ctrl.begin(), ctrl.end(), t.element) == ctrl.end()) continue;
    for (int d = 0; d < kNumDirs; ++d) {
      const int n = b.neighbor(i, d);
      if (n == kNoCell) continue;
      const Token& v = s.cells[static_cast<std::size_t>(n)];
      if (v.empty() || v.level >= kGold || !may_attack(t.element, v.element)) continue;
      if (emit({Type::Attack, -1, static_cast<std::int16_t>(i), static_cast<std::int16_t>(n)})) return true;
    }
  }
  return found;
}

bool has_move(const State& s) { return generate(s, nullptr); }

void finish_by_score(State& s) {
  s.over = true;
  s.winner = -1;
  std::vector<int> best;
  int top = -1;
  for (int w = 0; w < static_cast<int>(s.wizards.size()); ++w) {
    if (s.wizards[static_cast<std::size_t>(w)].eliminated) continue;
    const int p = score(s, w).primary;
    if (p > top) { top = p; best = {w}; }
    else if (p == top) best.push_back(w);
  }
  if (best.size() > 1 && s.rules.tie_break_allies) {
    std::vector<int> best2;
    int top2 = -1;
    for (int w : best) {
      const int p = score(s, w).with_allies;
      if (p > top2) { top2 = p; best2 = {w}; }
      else if (p == top2) best2.push_back(w);
    }
    best = best2;
  }
  if (best.size() == 1) s.winner = best[0];
}

// After a move: entries, eliminations, the end, then the turn passes on (section 7-8).
void after_move(State& s, Outcome* out) {
  for (int w = 0; w < static_cast<int>(s.wizards.size()); ++w) {
    Wizard& z = s.wizards[static_cast<std::size_t>(w)];
    const int n = s.count_cells(z.element);
    if (n > 0) z.entered = true;
    if (z.entered && !z.eliminated && n == 0) {
      z.eliminated = true;
      if (out) out->eliminated.push_back(w);
    }
  }
  const int nw = static_cast<int>(s.wizards.size());
  int active = 0, last = -1;
  for (int w = 0; w < nw; ++w)
    if (!s.wizards[static_cast<std::size_t>(w)].eliminated) { ++active; last = w; }
  if (nw >= 2 && active <= 1) {
    s.over = true;
    s.winner = last;
    return;
  }
  if (s.full()) {
    finish_by_score(s);
    return;
  }
  s.moves_left -= 1;
  if (s.moves_left > 0 && !s.wizards[static_cast<std::size_t>(s.to_move)].eliminated && has_move(s)) return;
  // Next wizard in seat order with a legal move; those without are skipped.
  const int from = s.to_move;
  for (int k = 1; k <= nw; ++k) {
    const int w = (from + k) % nw;
    Wizard& z = s.wizards[static_cast<std::size_t>(w)];
    if (z.eliminated) continue;
    s.to_move = w;
    s.first_turn = !z.played;
    s.moves_left = (s.first_turn && s.rules.first_turn_single_move) ? 1 : 2;
    z.played = true;  // its turn has begun (or is skipped)
    if (has_move(s)) return;
    if (out) out->skipped.push_back(w);
  }
  finish_by_score(s);  // nobody can move
}

}  // namespace

const Board& State::board() {
  static const auto b = Board::get(kRadius);
  return *b;
}

int State::available(int e) const {
  const int cap = supply[static_cast<std::size_t>(e)];
  if (cap < 0) return 1 << 20;
  int used = 0;
  for (const Token& t : cells)
    if (t.element == e) used += t.level;
  return cap - used;
}

int State::count_cells(int e) const {
  return static_cast<int>(std::count_if(cells.begin(), cells.end(), [e](const Token& t) { return t.element == e; }));
}

bool State::full() const {
  return std::none_of(cells.begin(), cells.end(), [](const Token& t) { return t.empty(); });
}

int State::wizard_index(std::string_view id) const {
  for (int i = 0; i < static_cast<int>(wizards.size()); ++i)
    if (wizards[static_cast<std::size_t>(i)].id == id) return i;
  return -1;
}

int element_from_name(std::string_view name) {
  for (int i = 0; i < kNumElements; ++i)
    if (kElementNames[static_cast<std::size_t>(i)] == name) return i;
  return -1;
}

std::array<int, 3> starting_spaces(int seat) {
  const Board& b = State::board();
  const Hex c0 = direction(seat) * kRadius, c1 = direction(seat + 1) * kRadius;
  return {b.index(c0), b.index(c0 + direction(seat + 2)), b.index(c1)};
}

std::array<int, 3> controlled(const State& s, int w) {
  const int e = s.wizards[static_cast<std::size_t>(w)].element;
  return {(e + kNumElements - 1) % kNumElements, e, (e + 1) % kNumElements};
}

Result<State> start(std::vector<Wizard> wizards, HouseRules rules) {
  if (wizards.empty() || wizards.size() > kNumElements)
    return Error{"Wizard Hex is played by 1 to 6 Wizards (rules-wizardhex.md section 2), got " +
                 std::to_string(wizards.size())};
  std::set<std::string> ids;
  std::set<int> elems;
  for (const auto& z : wizards) {
    if (z.id.empty()) return Error{"a wizard id must not be empty"};
    if (!ids.insert(z.id).second) return Error{"wizard id \"" + z.id + "\" is listed twice"};
    if (z.element < 0 || z.element >= kNumElements) return Error{"wizard \"" + z.id + "\" has no valid element"};
    if (!elems.insert(z.element).second)
      return Error{"two wizards play " + elem(z.element) + " (one Wizard per seat, section 2)"};
  }
  const std::string first = wizards.front().id;
  std::sort(wizards.begin(), wizards.end(), [](const Wizard& a, const Wizard& b) { return a.element < b.element; });
  State s;
  s.wizards = std::move(wizards);
  s.rules = rules;
  s.to_move = s.wizard_index(first);
  s.moves_left = rules.first_turn_single_move ? 1 : 2;
  s.first_turn = true;
  s.wizards[static_cast<std::size_t>(s.to_move)].played = true;
  return s;
}

void legal_actions(const State& s, std::vector<Action>& out) {
  out.clear();
  generate(s, &out);
}

std::vector<Action> legal_actions(const State& s) {
  std::vector<Action> v;
  legal_actions(s, v);
  return v;
}

Status validate(const State& s, const Action& a) {
  if (s.over) return Error{"the game is over (section 8)"};
  const Board& b = State::board();
  const auto ctrl = controlled(s, s.to_move);
  const std::string who = s.wizards[static_cast<std::size_t>(s.to_move)].id;
  auto controls = [&](int e) { return std::find(ctrl.begin(), ctrl.end(), e) != ctrl.end(); };
  auto on_board = [](int c) { return c >= 0 && c < kCells; };
  const bool start_only = first_turn(s) && s.rules.first_turn_start_only;
  switch (a.type) {
    case Type::Expand: {
      if (a.element < 0 || a.element >= kNumElements) return Error{"expand: unknown element"};
      if (!on_board(a.cell)) return Error{"expand: the space is off the board"};
      if (!controls(a.element))
        return Error{"expand: " + who + " may play only its element and its two allies, not " + elem(a.element) +
                     " (section 3, controlling elements)"};
      if (!s.cells[static_cast<std::size_t>(a.cell)].empty())
        return Error{"expand: " + cell_name(a.cell) + " is not open (section 6, Expand: any open space)"};
      if (s.available(a.element) <= 0)
        return Error{"expand: no " + elem(a.element) + " token is left in the stack (section 2, supply)"};
      if (is_start_space(s, s.to_move, a.element, a.cell)) return Status::Ok();
      if (start_only)
        return Error{"expand: on its first turn " + who + " must enter on one of its three starting spaces (section 5)"};
      if (!adjacent_to_element(s, a.cell, a.element))
        return Error{"expand: " + cell_name(a.cell) + " is neither a starting space of " + who + " nor next to a " +
                     elem(a.element) + " token (section 6, Expand)"};
      return Status::Ok();
    }
    case Type::Stack: {
      if (!on_board(a.cell)) return Error{"stack: the space is off the board"};
      if (start_only) return Error{"stack: the first turn is one move onto a starting space (section 5)"};
      const Token& t = s.cells[static_cast<std::size_t>(a.cell)];
      if (t.empty()) return Error{"stack: " + cell_name(a.cell) + " holds no token (section 6, Stack)"};
      if (!controls(t.element))
        return Error{"stack: " + who + " does not control " + elem(t.element) + " (section 3, controlling elements)"};
      if (t.level >= kGold) return Error{"stack: " + cell_name(a.cell) + " is already Gold (section 6, Stack: up to Gold)"};
      if (s.available(t.element) <= 0)
        return Error{"stack: no " + elem(t.element) + " token is left in the stack (section 2, supply)"};
      return Status::Ok();
    }
    case Type::Attack: {
      if (!on_board(a.cell) || !on_board(a.target)) return Error{"attack: a space is off the board"};
      if (start_only) return Error{"attack: the first turn is one move onto a starting space (section 5)"};
      const Token& t = s.cells[static_cast<std::size_t>(a.cell)];
      const Token& v = s.cells[static_cast<std::size_t>(a.target)];
      if (t.empty()) return Error{"attack: " + cell_name(a.cell) + " holds no token (section 6, Attack)"};
      if (!controls(t.element))
        return Error{"attack: " + who + " does not control " + elem(t.element) + " (section 3, controlling elements)"};
      if (v.empty()) return Error{"attack: " + cell_name(a.target) + " holds no token (section 6, Attack)"};
      if (distance(b.hex(a.cell), b.hex(a.target)) != 1)
        return Error{"attack: " + cell_name(a.target) + " is not adjacent to " + cell_name(a.cell) +
                     " (section 6, Attack condition A)"};
      if (!may_attack(t.element, v.element))
        return Error{"attack: " + elem(t.element) + " may not attack " + elem(v.element) +
                     (t.element == v.element ? " (its own element" : " (an ally") + ", section 6, Attack condition B)"};
      if (v.level >= kGold) return Error{"attack: Gold cannot be attacked (section 6, Stack)"};
      return Status::Ok();
    }
  }
  return Error{"unknown action type"};
}

void apply_unchecked(State& s, const Action& a, Outcome* out) {
  switch (a.type) {
    case Type::Expand:
      s.cells[static_cast<std::size_t>(a.cell)] = Token{a.element, 1};
      break;
    case Type::Stack:
      s.cells[static_cast<std::size_t>(a.cell)].level += 1;
      break;
    case Type::Attack: {
      Token& t = s.cells[static_cast<std::size_t>(a.cell)];
      Token& v = s.cells[static_cast<std::size_t>(a.target)];
      const int la = t.level, lb = v.level;
      AttackResult res;
      std::vector<int> removed;
      if (la == lb) {
        res = AttackResult::BothEliminated;
        removed = {a.cell, a.target};
        t = Token{};
        v = Token{};
      } else if (la - lb == 2) {
        res = AttackResult::GoldTakesOver;
        removed = {a.target};
        t.level = 1;
        v = Token{t.element, 1};
      } else {
        res = AttackResult::WeakerEliminated;
        if (la > lb) {
          removed = {a.target};
          v = Token{};
          t.level = 1;
        } else {
          removed = {a.cell};
          t = Token{};
          v.level = 1;
        }
      }
      if (out) {
        out->attack = true;
        out->attacker_level = la;
        out->defender_level = lb;
        out->result = res;
        out->removed = removed;
      }
      break;
    }
  }
  after_move(s, out);
}

Result<Applied> apply(const State& s, const Action& a) {
  if (Status st = validate(s, a); !st) return Error{st.error()};
  Applied r{s, {}};
  apply_unchecked(r.state, a, &r.outcome);
  return r;
}

Score score(const State& s, int w) {
  const int e = s.wizards[static_cast<std::size_t>(w)].element;
  Score sc;
  sc.primary = s.count_cells(e);
  for (int c : controlled(s, w)) sc.with_allies += s.count_cells(c);
  return sc;
}

// ---- JSON ---------------------------------------------------------------------------

namespace {

Json cell_json(int idx) {
  const Hex h = State::board().hex(idx);
  return Json::array({h.q, h.r});
}

Result<int> cell_from(const Json& j, const char* what) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer())
    return Error{std::string("\"") + what + "\" must be a [q, r] pair of integers"};
  const auto q = j[0].get<long long>(), r = j[1].get<long long>();
  if (q < -kRadius || q > kRadius || r < -kRadius || r > kRadius) return Error{std::string("\"") + what + "\" is off the board"};
  const int idx = State::board().index(Hex{static_cast<int>(q), static_cast<int>(r)});
  if (idx == kNoCell) return Error{std::string("\"") + what + "\" is off the 19-space board"};
  return idx;
}

Json rules_json(const HouseRules& r) {
  return Json{{"first_turn_single_move", r.first_turn_single_move},
              {"first_turn_start_only", r.first_turn_start_only},
              {"start_on_own_side", r.start_on_own_side},
              {"tie_break_allies", r.tie_break_allies}};
}

HouseRules rules_from(const Json& j) {
  HouseRules r;
  if (!j.is_object()) return r;
  auto flag = [&](const char* k, bool& v) {
    if (j.contains(k) && j[k].is_boolean()) v = j[k].get<bool>();
  };
  flag("first_turn_single_move", r.first_turn_single_move);
  flag("first_turn_start_only", r.first_turn_start_only);
  flag("start_on_own_side", r.start_on_own_side);
  flag("tie_break_allies", r.tie_break_allies);
  return r;
}

}  // namespace

Json to_json(const State& s) {
  Json players = Json::array();
  for (const auto& z : s.wizards)
    players.push_back(Json{{"id", z.id},
                           {"element", elem(z.element)},
                           {"played", z.played},
                           {"entered", z.entered},
                           {"eliminated", z.eliminated}});
  Json tokens = Json::array();
  for (int i = 0; i < kCells; ++i) {
    const Token& t = s.cells[static_cast<std::size_t>(i)];
    if (t.empty()) continue;
    const Hex h = State::board().hex(i);
    tokens.push_back(Json{{"q", h.q}, {"r", h.r}, {"element", elem(t.element)}, {"level", t.level}});
  }
  Json supply = nullptr;
  if (std::any_of(s.supply.begin(), s.supply.end(), [](int x) { return x >= 0; })) {
    supply = Json::object();
    for (int e = 0; e < kNumElements; ++e)
      supply[elem(e)] = s.supply[static_cast<std::size_t>(e)] < 0 ? Json(nullptr) : Json(s.supply[static_cast<std::size_t>(e)]);
  }
  Json j{{"ruleset", "wizardhex"},
         {"players", players},
         {"to_move", s.wizards[static_cast<std::size_t>(s.to_move)].id},
         {"moves_left", s.moves_left},
         {"first_turn", s.first_turn},
         {"tokens", tokens},
         {"supply", supply},
         {"house_rules", rules_json(s.rules)},
         {"over", s.over}};
  j["winner"] = s.winner >= 0 ? Json(s.wizards[static_cast<std::size_t>(s.winner)].id) : Json(nullptr);
  return j;
}

Result<State> state_from_json(const Json& j) {
  if (!j.is_object()) return Error{"position: expected a JSON object"};
  if (ruleset_key(j) != "wizardhex") return Error{"position: ruleset must be \"wizardhex\" here"};
  if (!j.contains("players") || !j["players"].is_array()) return Error{"position: \"players\" must be an array"};
  std::vector<Wizard> wizards;
  for (const auto& p : j["players"]) {
    if (!p.is_object() || !p.contains("id") || !p["id"].is_string())
      return Error{"position: each player needs a string \"id\""};
    Wizard z;
    z.id = p["id"].get<std::string>();
    if (!p.contains("element") || !p["element"].is_string())
      return Error{"position: player \"" + z.id + "\" needs an \"element\" (ice, earth, fire, lightning, wind, water)"};
    z.element = element_from_name(p["element"].get<std::string>());
    if (z.element < 0)
      return Error{"position: unknown element \"" + p["element"].get<std::string>() +
                   "\" (ice, earth, fire, lightning, wind, water)"};
    for (auto [k, v] : {std::pair{"played", &z.played}, {"entered", &z.entered}, {"eliminated", &z.eliminated}}) {
      if (!p.contains(k)) continue;
      if (!p[k].is_boolean()) return Error{std::string("position: \"") + k + "\" must be true or false"};
      *v = p[k].get<bool>();
    }
    wizards.push_back(std::move(z));
  }
  if (!j.contains("to_move") || !j["to_move"].is_string()) return Error{"position: \"to_move\" must be a player id"};
  const std::string tm = j["to_move"].get<std::string>();
  // start() seats the wizards and makes the first listed move first; then we restore flags.
  std::vector<Wizard> flags = wizards;
  auto st = start(std::move(wizards), rules_from(j.contains("house_rules") ? j["house_rules"] : Json()));
  if (!st) return Error{"position: " + st.error()};
  State s = std::move(st).value();
  for (const auto& f : flags) {
    Wizard& z = s.wizards[static_cast<std::size_t>(s.wizard_index(f.id))];
    z.played = f.played;
    z.entered = f.entered;
    z.eliminated = f.eliminated;
  }
  s.to_move = s.wizard_index(tm);
  if (s.to_move < 0) return Error{"position: to_move \"" + tm + "\" is not a listed player"};
  const bool over_flag = (j.contains("over") && j["over"].is_boolean() && j["over"].get<bool>()) ||
                         (j.contains("winner") && !j["winner"].is_null());
  if (s.wizards[static_cast<std::size_t>(s.to_move)].eliminated && !over_flag)
    return Error{"position: to_move \"" + tm + "\" is eliminated"};
  s.first_turn = !s.wizards[static_cast<std::size_t>(s.to_move)].played;
  if (j.contains("first_turn")) {
    if (!j["first_turn"].is_boolean()) return Error{"position: \"first_turn\" must be true or false"};
    s.first_turn = j["first_turn"].get<bool>();
  }
  s.moves_left = s.first_turn && s.rules.first_turn_single_move ? 1 : 2;
  if (j.contains("moves_left")) {
    if (!j["moves_left"].is_number_integer() || j["moves_left"].get<long long>() < 1 ||
        j["moves_left"].get<long long>() > 2)
      return Error{"position: \"moves_left\" must be 1 or 2"};
    s.moves_left = static_cast<int>(j["moves_left"].get<long long>());
  }
  s.wizards[static_cast<std::size_t>(s.to_move)].played = true;  // its turn has begun
  if (j.contains("supply") && !j["supply"].is_null()) {
    if (!j["supply"].is_object()) return Error{"position: \"supply\" must be an object or null"};
    for (auto it = j["supply"].begin(); it != j["supply"].end(); ++it) {
      const int e = element_from_name(it.key());
      if (e < 0) return Error{"position: supply names unknown element \"" + it.key() + "\""};
      if (it->is_null()) continue;
      if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 1000)
        return Error{"position: supply of " + it.key() + " must be a count 0..1000 or null"};
      s.supply[static_cast<std::size_t>(e)] = static_cast<int>(it->get<long long>());
    }
  }
  if (j.contains("tokens")) {
    if (!j["tokens"].is_array()) return Error{"position: \"tokens\" must be an array"};
    for (const auto& t : j["tokens"]) {
      if (!t.is_object() || !t.contains("q") || !t.contains("r"))
        return Error{"position: each token needs \"q\" and \"r\""};
      auto cell = cell_from(Json::array({t["q"], t["r"]}), "token cell");
      if (!cell) return Error{"position: " + cell.error()};
      if (!t.contains("element") || !t["element"].is_string()) return Error{"position: a token needs an \"element\""};
      const int e = element_from_name(t["element"].get<std::string>());
      if (e < 0) return Error{"position: unknown element \"" + t["element"].get<std::string>() + "\""};
      long long level = 1;
      if (t.contains("level")) {
        if (!t["level"].is_number_integer()) return Error{"position: \"level\" must be 1, 2 or 3"};
        level = t["level"].get<long long>();
      }
      if (level < 1 || level > kGold)
        return Error{"position: token on " + cell_name(*cell) + " has level " + std::to_string(level) +
                     " (1 Bronze, 2 Silver, 3 Gold)"};
      Token& dst = s.cells[static_cast<std::size_t>(*cell)];
      if (!dst.empty()) return Error{"position: two tokens on " + cell_name(*cell)};
      dst = Token{static_cast<std::int8_t>(e), static_cast<std::uint8_t>(level)};
    }
  }
  for (int e = 0; e < kNumElements; ++e)
    if (s.available(e) < 0) return Error{"position: more " + elem(e) + " on the board than its supply"};
  for (auto& z : s.wizards)
    if (s.count_cells(z.element) > 0) z.entered = true;
  if (j.contains("over") && j["over"].is_boolean()) s.over = j["over"].get<bool>();
  if (j.contains("winner") && !j["winner"].is_null()) {
    if (!j["winner"].is_string()) return Error{"position: \"winner\" must be a player id or null"};
    s.winner = s.wizard_index(j["winner"].get<std::string>());
    if (s.winner < 0) return Error{"position: winner is not a listed player"};
    s.over = true;
  }
  return s;
}

Json to_json(const Action& a) {
  switch (a.type) {
    case Type::Expand:
      return Json{{"type", "expand"}, {"element", elem(a.element)}, {"to", cell_json(a.cell)}};
    case Type::Stack:
      return Json{{"type", "stack"}, {"at", cell_json(a.cell)}};
    case Type::Attack:
      return Json{{"type", "attack"}, {"from", cell_json(a.cell)}, {"target", cell_json(a.target)}};
  }
  return Json();
}

Result<Action> action_from_json(const Json& j) {
  if (!j.is_object()) return Error{"action: expected a JSON object"};
  if (!j.contains("type") || !j["type"].is_string()) return Error{"action: \"type\" must be a string"};
  const std::string type = j["type"].get<std::string>();
  auto need = [&](const char* k) -> Result<int> {
    if (!j.contains(k)) return Error{std::string("action: ") + type + " needs \"" + k + "\""};
    auto c = cell_from(j[k], k);
    if (!c) return Error{"action: " + c.error()};
    return c;
  };
  Action a;
  if (type == "expand") {
    a.type = Type::Expand;
    if (!j.contains("element") || !j["element"].is_string()) return Error{"action: expand needs an \"element\""};
    const int e = element_from_name(j["element"].get<std::string>());
    if (e < 0) return Error{"action: unknown element \"" + j["element"].get<std::string>() + "\""};
    a.element = static_cast<std::int8_t>(e);
    auto c = need("to");
    if (!c) return Error{c.error()};
    a.cell = static_cast<std::int16_t>(*c);
  } else if (type == "stack") {
    a.type = Type::Stack;
    auto c = need("at");
    if (!c) return Error{c.error()};
    a.cell = static_cast<std::int16_t>(*c);
  } else if (type == "attack") {
    a.type = Type::Attack;
    auto c = need("from");
    if (!c) return Error{c.error()};
    auto t = need("target");
    if (!t) return Error{t.error()};
    a.cell = static_cast<std::int16_t>(*c);
    a.target = static_cast<std::int16_t>(*t);
  } else {
    return Error{"action: unknown type \"" + type + "\" (expand, stack, attack)"};
  }
  return a;
}

Json to_json(const Outcome& o, const State& after) {
  static constexpr std::array<std::string_view, 3> kResults = {"both_eliminated", "weaker_eliminated",
                                                               "gold_takes_over"};
  Json removed = Json::array();
  for (int c : o.removed) removed.push_back(cell_json(c));
  auto ids = [&](const std::vector<int>& v) {
    Json a = Json::array();
    for (int w : v) a.push_back(after.wizards[static_cast<std::size_t>(w)].id);
    return a;
  };
  Json j{{"removed", removed}, {"eliminated", ids(o.eliminated)}, {"skipped", ids(o.skipped)},
         {"game_over", after.over}};
  j["attack"] = o.attack ? Json{{"attacker_level", o.attacker_level},
                                {"defender_level", o.defender_level},
                                {"result", kResults[static_cast<std::size_t>(o.result)]}}
                         : Json(nullptr);
  j["winner"] = after.winner >= 0 ? Json(after.wizards[static_cast<std::size_t>(after.winner)].id) : Json(nullptr);
  j["draw"] = after.over && after.winner < 0;
  if (after.over) {
    Json scores = Json::object();
    for (int w = 0; w < static_cast<int>(after.wizards.size()); ++w) {
      const Score sc = score(after, w);
      scores[after.wizards[static_cast<std::size_t>(w)].id] = Json{{"primary", sc.primary}, {"with_allies", sc.with_allies}};
    }
    j["scores"] = scores;
  }
  return j;
}

Json winner_id(const State& s) { return s.winner >= 0 ? Json(s.wizards[static_cast<std::size_t>(s.winner)].id) : Json(nullptr); }

std::string describe(const State& s, const Action& a) {
  static constexpr std::array<std::string_view, 4> kLevels = {"?", "Bronze", "Silver", "Gold"};
  auto on = [](int c) { return c >= 0 && c < kCells; };
  auto token = [&](int c) {
    const Token& t = s.cells[static_cast<std::size_t>(c)];
    return t.empty() ? std::string("empty") : elem(t.element) + " " + std::string(kLevels[t.level]);
  };
  switch (a.type) {
    case Type::Expand:
      if (a.element < 0 || a.element >= kNumElements || !on(a.cell)) return "?";
      return "expand " + elem(a.element) + " " + cell_name(a.cell);
    case Type::Stack:
      if (!on(a.cell)) return "?";
      return "stack " + cell_name(a.cell) + " (" + token(a.cell) + ")";
    case Type::Attack:
      if (!on(a.cell) || !on(a.target)) return "?";
      return "attack " + cell_name(a.cell) + " (" + token(a.cell) + ") x " + cell_name(a.target) + " (" +
             token(a.target) + ")";
  }
  return "?";
}

// ---- Ruleset adapter ----------------------------------------------------------------

namespace {

class WizardHexRuleset final : public TypedRuleset<State, Action, &state_from_json, &action_from_json> {
 public:
  std::string_view name() const override { return "wizardhex"; }
  std::vector<std::string> variants() const override { return {"across", "asymmetric", "adjacent", "six"}; }
  Result<Json> start_position(std::string_view variant) const override {
    std::vector<Wizard> w;
    auto wiz = [](int e) { return Wizard{std::string(kElementColours[static_cast<std::size_t>(e)]), e}; };
    if (variant.empty() || variant == "across") w = {wiz(kEarth), wiz(kWind)};
    else if (variant == "asymmetric") w = {wiz(kLightning), wiz(kWater)};
    else if (variant == "adjacent") w = {wiz(kFire), wiz(kEarth)};
    else if (variant == "six") w = {wiz(kIce), wiz(kEarth), wiz(kFire), wiz(kLightning), wiz(kWind), wiz(kWater)};
    else return Error{"wizardhex: unknown start \"" + std::string(variant) + "\" (across, asymmetric, adjacent, six)"};
    auto s = start(std::move(w));
    if (!s) return Error{s.error()};
    return to_json(*s);
  }
  std::string cell_name(const Json&, Hex h) const override {
    return State::board().contains(h) ? State::board().name(h) : std::string();
  }
  Result<std::vector<Hex>> cells(const Json&) const override { return State::board().cells(); }
  // Section 8: the last Wizard standing ("elimination"), else the count of spaces when the
  // board is full or nobody can move ("score"; a tie that nothing breaks is a draw).
  Result<std::string> end_reason(const Json& position) const override {
    auto s = state_from_json(position);
    if (!s) return Error{s.error()};
    if (!s->over) return std::string();
    int active = 0;
    for (const auto& z : s->wizards) active += z.eliminated ? 0 : 1;
    if (s->wizards.size() >= 2 && active <= 1) return std::string("elimination");
    return std::string(s->winner >= 0 ? "score" : "draw");
  }
};

}  // namespace

std::shared_ptr<const Ruleset> make_ruleset() { return std::make_shared<WizardHexRuleset>(); }

}  // namespace hexdice::wizardhex
