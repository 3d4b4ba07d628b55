#include "companion/referee/referee.h"

#include <algorithm>
#include <sstream>

namespace hexdice::referee {

namespace {

std::string seen_key(const SeenBoard& b) {
  std::vector<std::string> parts;
  parts.reserve(b.units.size());
  for (const SeenUnit& u : b.units)
    parts.push_back(std::to_string(u.hex.q) + "," + std::to_string(u.hex.r) + ":" + std::to_string(u.owner) + "/" +
                    std::to_string(u.face) + (u.guard ? "g" : ""));
  std::sort(parts.begin(), parts.end());
  std::string k;
  for (const auto& p : parts) k += p + ";";
  return k;
}

std::vector<std::string> split_words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  std::string s;
  while (in >> s) w.push_back(s);
  return w;
}

std::string result_text(const GameResult& r) {
  if (!r.finished()) return "";
  if (r.reason == ResultReason::DrawAgreed) return "draw (agreed)";
  return (r.winner.empty() ? std::string("draw") : r.winner + " won") + " (" + termination_text(r) + ")";
}

}  // namespace

std::optional<Hex> cell_from_name(const Board& board, const std::string& name) { return board.parse_name(name); }

Result<Observation> observation_from_json(const Json& j) {
  if (!j.is_object()) return Error{"observation: expected a JSON object"};
  Observation o;
  if (!j.contains("board_found") || !j["board_found"].is_boolean())
    return Error{"observation: \"board_found\" (true/false) is missing"};
  o.board_found = j["board_found"].get<bool>();
  if (j.contains("motion")) {
    if (!j["motion"].is_boolean()) return Error{"observation: \"motion\" must be true or false"};
    o.motion = j["motion"].get<bool>();
  }
  // Optional extension: cells the camera could not see (under a hand, out of view).
  if (j.contains("hidden")) {
    if (!j["hidden"].is_array()) return Error{"observation: \"hidden\" must be an array of [q, r] cells"};
    for (const Json& h : j["hidden"]) {
      if (h.is_array() && h.size() == 2 && h[0].is_number_integer() && h[1].is_number_integer())
        o.hidden.push_back(Hex{h[0].get<int>(), h[1].get<int>()});
      else if (h.is_object() && h.contains("q") && h.contains("r") && h["q"].is_number_integer() &&
               h["r"].is_number_integer())
        o.hidden.push_back(Hex{h["q"].get<int>(), h["r"].get<int>()});
      else
        return Error{"observation: \"hidden\" must be an array of [q, r] cells"};
    }
  }
  if (!j.contains("cells")) return o;
  if (!j["cells"].is_array()) return Error{"observation: \"cells\" must be an array"};
  for (const Json& c : j["cells"]) {
    if (!c.is_object() || !c.contains("q") || !c.contains("r") || !c["q"].is_number_integer() ||
        !c["r"].is_number_integer() || !c.contains("color") || !c["color"].is_string() || !c.contains("face") ||
        !c["face"].is_number_integer())
      return Error{"observation: every cell needs integer q, r, face and a string color"};
    ObservedCell cell;
    cell.hex = Hex{c["q"].get<int>(), c["r"].get<int>()};
    cell.color = c["color"].get<std::string>();
    cell.face = c["face"].get<int>();
    if (c.contains("guard") && c["guard"].is_boolean()) cell.guard = c["guard"].get<bool>();
    cell.confidence = c.contains("confidence") && c["confidence"].is_number() ? c["confidence"].get<double>() : 1.0;
    o.cells.push_back(std::move(cell));
  }
  return o;
}

Json to_json(const Observation& o) {
  Json cells = Json::array();
  for (const ObservedCell& c : o.cells)
    cells.push_back({{"q", c.hex.q}, {"r", c.hex.r}, {"color", c.color}, {"face", c.face}, {"guard", c.guard},
                     {"confidence", c.confidence}});
  Json j{{"board_found", o.board_found}, {"cells", cells}};
  if (!o.hidden.empty()) {
    Json h = Json::array();
    for (const Hex& x : o.hidden) h.push_back(Json::array({x.q, x.r}));
    j["hidden"] = h;
  }
  if (o.motion) j["motion"] = true;
  return j;
}

Observation observation_of(const Position& pos) {
  Observation o;
  o.board_found = true;
  for (int i = 0; i < pos.board().size(); ++i) {
    const Piece& p = pos.at(i);
    if (p.empty()) continue;
    o.cells.push_back(ObservedCell{pos.board().hex(i), pos.player(p.owner).id, p.face, p.guard, 1.0});
  }
  return o;
}

SeenBoard to_seen(const vision::Observation& o, const Position& pos) {
  SeenBoard b;
  b.units.reserve(o.cells.size());
  for (const ObservedCell& c : o.cells)
    b.units.push_back(SeenUnit{c.hex, pos.player_index(c.color), c.face, c.guard, c.confidence});
  return b;
}

// ---- Referee -----------------------------------------------------------------------------

Result<std::unique_ptr<Referee>> Referee::open(const std::string& db_path, const std::optional<Position>& start,
                                               RefereeParams params, const std::optional<SetupConfig>& setup) {
  auto db = record::RecordDb::open(db_path);
  if (!db) return Error{db.error()};
  std::unique_ptr<Referee> r(new Referee());
  r->params_ = params;
  r->db_ = std::move(*db);
  auto resumed = record::RecordedGame::resume_unfinished(*r->db_);
  if (!resumed) return Error{resumed.error()};
  if (resumed->has_value()) {
    r->game_.emplace(std::move(**resumed));
    r->resumed_ = true;
    // Nobody watched the table while the referee was down (a camera that stopped, a crash,
    // a restart): an action done meanwhile is seen, not called a misread (robust20), as
    // after a hand over the sheet.
    r->motion_since_commit_ = true;
  } else if (start) {
    auto rec = GameRecord::from_position(*start);
    if (!rec) return Error{rec.error()};
    rec->set_start_time(record::utc_now());
    auto g = record::RecordedGame::create(*r->db_, *rec);
    if (!g) return Error{g.error()};
    r->game_.emplace(std::move(*g));
  } else if (setup) {
    auto rec = GameRecord::with_setup(*setup);
    if (!rec) return Error{rec.error()};
    rec->set_start_time(record::utc_now());
    auto g = record::RecordedGame::create(*r->db_, *rec);
    if (!g) return Error{g.error()};
    r->game_.emplace(std::move(*g));
  } else {
    return Error{"no unfinished game in " + db_path + " to resume, and no --start position given"};
  }
  if (Status st = r->restore_setup(); !st) return Error{st.error()};
  {
    std::lock_guard lk(r->mu_);
    r->refresh_locked();
  }
  const GameRecord& rec = r->game_->record();
  if (r->setup_) {
    r->say(-1, false,
           (r->resumed_ ? "resumed game " : "new game ") + std::to_string(r->game_->id()) + " in its setup (" +
               std::to_string(rec.setup().events().size()) + " setup events logged); " + r->setup_->prompt());
  } else {
    r->say(-1, false,
           (r->resumed_ ? "resumed game " : "new game ") + std::to_string(r->game_->id()) + " at ply " +
               std::to_string(rec.ply()) + "; " + rec.current().player(rec.current().to_move()).id + " to move");
  }
  return r;
}

// The setup phase is live while the record has a setup that is not done: the camera/typed
// steps start from the events already logged (a resumed setup goes on where it stopped).
Status Referee::restore_setup() {
  const GameRecord& rec = game_->record();
  setup_.reset();
  in_setup_ = false;
  if (!rec.has_setup() || rec.in_play() || rec.finished()) return {};
  auto cs = CameraSetup::create(rec.config());
  if (!cs) return Error{cs.error()};
  for (const SetupEvent& e : rec.setup().events())
    if (Status st = cs->replay(e); !st) return Error{"setup event of game " + std::to_string(game_->id()) + ": " + st.error()};
  setup_.emplace(std::move(*cs));
  in_setup_ = true;
  return {};
}

void Referee::log_setup(const std::vector<SetupEvent>& events, int frame, const std::string& how) {
  for (const SetupEvent& e : events) {
    if (Status st = game_->setup(e); !st) {
      // The record refused or could not write it: the setup goes back to what is logged.
      say(frame, true, "setup event not logged: " + st.error());
      (void)restore_setup();
      break;
    }
    std::string text = "setup: " + to_json(e).dump() + " (" + how + ", logged)";
    say(frame, false, text);
  }
  {
    std::lock_guard lk(mu_);
    view_.alert.clear();
    refresh_locked();
  }
  if (!game_->record().in_play()) {
    if (setup_) say(frame, false, setup_->prompt());
    return;
  }
  // The setup is done: the game is refereed from the next frame on.
  const std::string prompt = setup_ ? setup_->prompt() : std::string("setup done");
  setup_.reset();
  in_setup_ = false;
  cand_key_.clear();
  acted_key_.clear();
  cand_frames_ = 0;
  motion_since_commit_ = false;
  {
    std::lock_guard lk(mu_);
    refresh_locked();
  }
  say(frame, false, prompt + "; the game begins");
}

void Referee::process_setup(const Observation& obs, const cv::Mat& image, double t_ms, int frame) {
  // Dice off the sheet are read from the picture, so a sheet out of view is motion only
  // while the sheet is what is read (the deployment).
  const bool deploy = setup_->setup().phase() == SetupPhase::Deploy;
  // A deployment is read off the sheet: a sheet out of view or cells not seen (under a
  // hand, off the frame) count as motion while it is.
  const bool motion = obs.motion || (deploy && (!obs.board_found || !obs.hidden.empty()));
  if (motion) {
    setup_still_frames_ = 0;
    setup_acted_ = false;
  } else {
    if (setup_still_frames_ == 0) setup_still_since_ms_ = t_ms;
    ++setup_still_frames_;
  }
  const bool stable = !motion && setup_still_frames_ >= params_.stable_frames &&
                      t_ms - setup_still_since_ms_ >= params_.stable_ms - 1e-9;
  {
    std::lock_guard lk(mu_);
    view_.frame = frame;
    view_.motion = motion;
    view_.stable = stable;
    view_.board_found = obs.board_found;
  }
  if (!stable || setup_acted_) return;
  // One reading per still period: the table changes by hand between two steps.
  setup_acted_ = true;
  auto r = setup_->see(image, obs);
  if (!r) {
    say(frame, true, r.error());
    return;
  }
  if (!r->empty()) log_setup(*r, frame, "seen");
}

Referee::~Referee() { stop(); }

void Referee::refresh_locked() {
  const GameRecord& rec = game_->record();
  view_.game_id = game_->id();
  view_.position = rec.current();
  view_.ply = rec.ply();
  view_.finished = rec.finished();
  view_.result = result_text(rec.header().result);
  view_.in_setup = setup_.has_value();
  view_.setup_prompt = setup_ ? setup_->prompt() : std::string();
  view_.setup_events = rec.has_setup() ? static_cast<int>(rec.setup().events().size()) : 0;
}

void Referee::say(int frame, bool alert, std::string text) {
  LogLine l{frame, alert, std::move(text)};
  {
    std::lock_guard lk(mu_);
    view_.log.push_back(l);
    if (alert) view_.alert = l.text;
  }
  if (on_log_) on_log_(l);
}

Observation Referee::corrected(const Observation& obs) const {
  if (overrides_.empty()) return obs;
  const Board& board = game_->record().current().board();
  Observation o = obs;
  o.cells.erase(std::remove_if(o.cells.begin(), o.cells.end(),
                               [&](const ObservedCell& c) { return overrides_.count(board.index(c.hex)) > 0; }),
                o.cells.end());
  for (const auto& [idx, cell] : overrides_)
    if (cell) o.cells.push_back(*cell);
  // A corrected cell is known even when the camera cannot see it.
  o.hidden.erase(std::remove_if(o.hidden.begin(), o.hidden.end(),
                                [&](const Hex& h) { return board.contains(h) && overrides_.count(board.index(h)) > 0; }),
                 o.hidden.end());
  return o;
}

void Referee::process(const vision::Observation& obs, bool motion, double t_ms, int frame) {
  process(Observation{obs, motion}, t_ms, frame);
}

bool Referee::skip_unusable(const Observation& obs, int frame) {
  if (obs.unusable.empty()) {
    if (unusable_.empty()) return false;
    unusable_.clear();
    {
      std::lock_guard lk(mu_);
      view_.frame_problem.clear();
      if (view_.alert == unusable_alert_) view_.alert.clear();
    }
    unusable_alert_.clear();
    say(frame, false, "camera frames usable again");
    return false;
  }
  // Nothing in the frame is known: as a view with a hand over it, the dice may have been
  // handled, and the next stable view is compared afresh (game and setup alike).
  motion_since_commit_ = true;
  still_since_ms_.reset();
  cand_key_.clear();
  cand_frames_ = 0;
  setup_still_frames_ = 0;
  setup_acted_ = false;
  {
    std::lock_guard lk(mu_);
    view_.frame = frame;
    view_.motion = false;
    view_.stable = false;
    view_.board_found = false;
    view_.hidden_cells = 0;
    view_.frame_problem = obs.unusable;
  }
  if (obs.unusable != unusable_) {
    unusable_ = obs.unusable;
    unusable_alert_ = "camera frame not used: " + obs.unusable + "; nothing is acted on until a usable frame";
    say(frame, true, unusable_alert_);
  }
  return true;
}

void Referee::process(const Observation& raw, double t_ms, int frame, const cv::Mat& image) {
  frame_ = frame;
  if (skip_unusable(raw, frame)) return;
  if (setup_) {
    process_setup(raw, image, t_ms, frame);
    return;
  }
  const Observation obs = corrected(raw);
  // Cells the reader could not see (a hand over them, or the map partly out of view) are
  // unknown, not empty: a partial board is never acted on (no sync, no commit, no misread
  // alert). Something over the sheet also means the dice may have been handled, exactly
  // as with motion, so the next still view may be an action.
  const bool partial = !obs.hidden.empty();
  const bool motion = obs.motion || !obs.board_found || partial;
  {
    std::lock_guard lk(mu_);
    view_.hidden_cells = obs.board_found ? static_cast<int>(obs.hidden.size()) : 0;
  }
  if (motion) {
    motion_since_commit_ = true;
    still_since_ms_.reset();
    cand_key_.clear();
    cand_frames_ = 0;
    std::lock_guard lk(mu_);
    view_.frame = frame;
    view_.motion = true;
    view_.stable = false;
    view_.board_found = obs.board_found;
    return;
  }
  if (!still_since_ms_) still_since_ms_ = t_ms;
  const Position& pos = game_->record().current();
  SeenBoard seen = to_seen(obs, pos);
  const std::string key = seen_key(seen);
  if (key != cand_key_) {
    cand_key_ = key;
    cand_since_ms_ = t_ms;
    cand_frames_ = 1;
  } else {
    ++cand_frames_;
  }
  const bool stable = cand_frames_ >= params_.stable_frames && t_ms - cand_since_ms_ >= params_.stable_ms - 1e-9;
  {
    std::lock_guard lk(mu_);
    view_.frame = frame;
    view_.motion = false;
    view_.stable = stable;
    view_.board_found = true;
  }
  if (!stable || key == acted_key_) return;
  acted_key_ = key;
  last_seen_ = seen;
  evaluate(seen, frame, t_ms);
}

void Referee::evaluate(const SeenBoard& seen, int frame, double t_ms) {
  const Position& pos = game_->record().current();
  SyncResult r = explain(pos, seen, params_.sync);
  {
    std::lock_guard lk(mu_);
    view_.last_sync = r;
    view_.proposals.clear();
  }
  if (r.kind == SyncKind::NoChange) {
    bool had_alert;
    {
      std::lock_guard lk(mu_);
      had_alert = !view_.alert.empty();
      view_.alert.clear();
    }
    if (awaiting_table_) say(frame, false, "the table matches the game");
    else if (had_alert) say(frame, false, "the table matches the game again");
    awaiting_table_ = false;
    return;
  }
  if (pos.game_over()) {
    say(frame, true, r.message);
    return;
  }
  std::string changes;
  for (const CellDiff& d : r.changes) changes += (changes.empty() ? "" : ", ") + d.what;
  if (!motion_since_commit_) {
    // Nothing moved over the sheet since the last commit: the dice cannot have changed.
    std::vector<Candidate> props;
    if (r.kind == SyncKind::Explained && r.action) props.push_back(Candidate{*r.action, pos.to_move(), 0, r.message});
    else props = r.nearest;
    {
      std::lock_guard lk(mu_);
      view_.proposals = props;
    }
    if (awaiting_table_) {
      say(frame, true, "the table does not match the game yet: " + changes);
    } else {
      say(frame, true,
          "misread: " + changes + " with no hand seen since the last action; not committed" +
              (props.empty() ? std::string() : " (confirm to accept: " + props.front().text + ")"));
    }
    return;
  }
  if (r.kind == SyncKind::Explained && r.action) {
    commit(*r.action, frame, t_ms, "seen");
    return;
  }
  {
    std::lock_guard lk(mu_);
    view_.proposals = r.nearest;
  }
  say(frame, true, r.message);
}

Status Referee::commit(const Action& a, int frame, double t_ms, const std::string& how) {
  const Position before = game_->record().current();
  auto out = game_->act(a);
  if (!out) {
    say(frame, true, "not committed: " + out.error());
    return Error{out.error()};
  }
  const int ply = game_->record().ply();
  std::string line = "ply " + std::to_string(ply) + " " + before.player(before.to_move()).id + ": " +
                     describe(before, a, &*out) + " (" + how + ", committed)";
  if (how == "seen" && still_since_ms_) {
    const double lat = t_ms - *still_since_ms_;
    std::lock_guard lk(mu_);
    view_.commit_latency_ms.push_back(lat);
  }
  motion_since_commit_ = false;
  {
    std::lock_guard lk(mu_);
    view_.alert.clear();
    view_.proposals.clear();
    refresh_locked();
  }
  say(frame, false, line);
  const Position& after = game_->record().current();
  if (after.game_over()) {
    const GameResult res = game_->record().natural_result();
    Status st = game_->finish(res, record::utc_now());
    if (!st) say(frame, true, "could not record the result: " + st.error());
    {
      std::lock_guard lk(mu_);
      refresh_locked();
    }
    say(frame, false, "game over: " + result_text(res));
  }
  return {};
}

Result<std::string> Referee::command(const std::string& line) { return run_command(line); }

Result<std::string> Referee::run_command(const std::string& line) {
  const auto w = split_words(line);
  if (w.empty()) return std::string();
  const std::string& verb = w[0];
  if (setup_) {
    // The setup phase: its typed steps (setup_camera.h), the fallback of each camera step.
    if (verb != "roll" && verb != "reroll" && verb != "place" && verb != "deploy" && verb != "first") {
      const std::string text = "in the setup: " + setup_->prompt() + " (commands: roll, reroll, place, deploy, first)";
      say(frame_, true, text);
      return Error{text};
    }
    auto r = setup_->command(line);
    if (!r) {
      say(frame_, true, "refused: " + r.error());
      return Error{r.error()};
    }
    log_setup(*r, frame_, "typed");
    return std::string("ok");
  }
  const Position pos = game_->record().current();
  const Board& board = pos.board();
  auto cell = [&](const std::string& s) -> Result<int> {
    auto h = cell_from_name(board, s);
    if (!h) return Error{"\"" + s + "\" is not a cell of this map (e.g. f6)"};
    return board.index(*h);
  };
  auto done = [&](std::string text) -> Result<std::string> {
    say(frame_, false, text);
    return text;
  };
  auto bad = [&](std::string text) -> Result<std::string> {
    say(frame_, true, text);
    return Error{text};
  };

  if (verb == "declare") {
    if (w.size() < 3 || w.size() > 4) return bad("usage: declare FROM TO [move|ranged|special]");
    if (pos.game_over()) return bad("the game is over");
    auto from = cell(w[1]);
    if (!from) return bad(from.error());
    auto to = cell(w[2]);
    if (!to) return bad(to.error());
    std::vector<Action> legal = legal_actions(pos);
    std::optional<Action> pick;
    for (ActionType t : {ActionType::Move, ActionType::Ranged, ActionType::Special}) {
      if (w.size() == 4 && action_name(t) != w[3]) continue;
      for (const Action& a : legal)
        if (a.type == t && a.unit == *from && a.target == *to && !pos.at(*to).empty() && !pick) pick = a;
    }
    if (!pick)
      return bad("no legal attack of " + pos.player(pos.to_move()).id + " from " + w[1] + " on " + w[2]);
    const Position before = pos;
    if (Status st = commit(*pick, frame_, 0, "declared"); !st) return Error{st.error()};
    // What the table must do now.
    const Position& after = game_->record().current();
    std::vector<std::string> todo;
    for (const CellDiff& d : diff(before, visible(after))) todo.push_back(d.what);
    for (int i = 0; i < board.size(); ++i) {
      const Piece& b = before.at(i);
      const Piece& a = after.at(i);
      if (!a.empty() && a.tokens > (b.owner == a.owner ? b.tokens : 0))
        todo.push_back("put a -" + std::to_string(a.tokens) + " token on " + board.name(i));
    }
    awaiting_table_ = true;
    acted_key_.clear();
    motion_since_commit_ = true;  // the table is expected to change by hand now
    return done(todo.empty() ? "the table needs no change" : "the table must now: " + [&] {
      std::string s;
      for (const auto& t : todo) s += (s.empty() ? "" : "; ") + t;
      return s;
    }());
  }
  if (verb == "confirm") {
    std::vector<Candidate> props;
    {
      std::lock_guard lk(mu_);
      props = view_.proposals;
    }
    std::size_t n = 1;
    if (w.size() == 2) n = static_cast<std::size_t>(std::max(0, std::atoi(w[1].c_str())));
    if (props.empty()) return bad("nothing to confirm");
    if (n < 1 || n > props.size()) return bad("confirm N: N must be 1.." + std::to_string(props.size()));
    const Candidate c = props[n - 1];
    if (c.player != pos.to_move()) return bad("cannot confirm an action of a player who is not to move: " + c.text);
    if (Status st = commit(c.action, frame_, 0, "confirmed"); !st) return Error{st.error()};
    acted_key_.clear();
    awaiting_table_ = true;
    return std::string("confirmed");
  }
  if (verb == "reject") {
    {
      std::lock_guard lk(mu_);
      view_.proposals.clear();
    }
    return done("proposals rejected; the game stays at ply " + std::to_string(game_->record().ply()));
  }
  if (verb == "takeback") {
    if (Status st = game_->takeback(); !st) return bad("takeback refused: " + st.error());
    {
      std::lock_guard lk(mu_);
      refresh_locked();
    }
    awaiting_table_ = true;
    acted_key_ = cand_key_;  // the stale view is not re-judged until the table changes
    motion_since_commit_ = false;
    return done("takeback: back to ply " + std::to_string(game_->record().ply()) + "; put the table back");
  }
  if (verb == "set") {
    if (w.size() < 3) return bad("usage: set CELL COLOR FACE [guard] | set CELL empty");
    auto c = cell(w[1]);
    if (!c) return bad(c.error());
    if (w[2] == "empty") {
      overrides_[*c] = std::nullopt;
    } else {
      if (w.size() < 4) return bad("usage: set CELL COLOR FACE [guard]");
      const int face = std::atoi(w[3].c_str());
      if (!valid_face(face)) return bad("face must be 1..6, got \"" + w[3] + "\"");
      overrides_[*c] = ObservedCell{board.hex(*c), w[2], face, w.size() > 4 && w[4] == "guard", 1.0};
    }
    acted_key_.clear();
    return done("cell " + w[1] + " is now read as: " + line.substr(line.find(w[2])));
  }
  if (verb == "clear") {
    if (w.size() != 2) return bad("usage: clear CELL");
    auto c = cell(w[1]);
    if (!c) return bad(c.error());
    overrides_.erase(*c);
    acted_key_.clear();
    return done("cell " + w[1] + ": the camera's reading counts again");
  }
  if (verb == "note") {
    const std::string text = line.substr(line.find("note") + 4);
    if (Status st = game_->annotate(text.empty() ? text : text.substr(1)); !st) return bad(st.error());
    return done("noted");
  }
  return bad("unknown command \"" + verb + "\" (declare, confirm, reject, takeback, set, clear, note)");
}

// ---- Threaded use ------------------------------------------------------------------------

void Referee::start() {
  if (worker_.joinable()) return;
  stopping_ = false;
  worker_ = std::thread([this] {
    for (;;) {
      Item item;
      {
        std::unique_lock lk(qmu_);
        qcv_.wait(lk, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        item = std::move(queue_.front());
        queue_.pop_front();
      }
      qcv_.notify_all();
      if (auto* f = std::get_if<FrameItem>(&item)) process(f->obs, f->t_ms, f->frame, f->image);
      else (void)run_command(std::get<std::string>(item));
    }
  });
}

void Referee::post_frame(Observation obs, double t_ms, int frame, cv::Mat image) {
  std::unique_lock lk(qmu_);
  if (queue_.size() >= params_.max_queue) {
    if (params_.drop_when_full) {
      auto it = std::find_if(queue_.begin(), queue_.end(), [](const Item& i) { return i.index() == 0; });
      if (it != queue_.end()) queue_.erase(it);
    } else {
      qcv_.wait(lk, [&] { return queue_.size() < params_.max_queue; });
    }
  }
  queue_.push_back(FrameItem{std::move(obs), t_ms, frame, std::move(image)});
  lk.unlock();
  qcv_.notify_all();
}

void Referee::post_frame(vision::Observation obs, bool motion, double t_ms, int frame) {
  post_frame(Observation{std::move(obs), motion}, t_ms, frame);
}

void Referee::post_command(std::string line) {
  {
    std::lock_guard lk(qmu_);
    queue_.push_back(std::move(line));
  }
  qcv_.notify_all();
}

void Referee::stop() {
  {
    std::lock_guard lk(qmu_);
    stopping_ = true;
  }
  qcv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

RefereeView Referee::view() const {
  std::lock_guard lk(mu_);
  return view_;
}

}  // namespace hexdice::referee
