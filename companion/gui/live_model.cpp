#include "companion/gui/live_model.h"

#include <algorithm>
#include <deque>
#include <map>

namespace hexdice::gui {

static bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

std::optional<Alert> referee_alert(const referee::RefereeView& v) {
  if (v.alert.empty()) return std::nullopt;
  Alert a;
  a.severity = Severity::Warning;
  a.seen = v.alert;
  const std::string mover = v.position.num_players() > 0 && !v.position.game_over()
                                ? v.position.player(v.position.to_move()).id
                                : std::string("nobody");
  if (starts_with(v.alert, "camera frame not used")) {  // Referee::skip_unusable (robust20)
    a.severity = Severity::Error;
    a.allowed = "nothing is decided on a frame that cannot be read";
    a.todo = "give the camera colour back (not a grey or night mode), check its cable and resolution; the referee "
             "goes on by itself with the next usable frame";
    return a;
  }
  if (!v.proposals.empty()) {
    a.allowed = "the rules allow ";  // each proposal names its player ("(1) red: Tanker f4 rerolls -> Balance (6)")
    for (std::size_t i = 0; i < v.proposals.size() && i < 4; ++i)
      a.allowed += (i ? "; " : "") + std::string("(") + std::to_string(i + 1) + ") " + v.proposals[i].text;
  } else if (v.position.game_over()) {
    a.allowed = "the game is over: nothing may change on the table";
  } else {
    a.allowed = "no legal action of " + mover + " explains what is seen";
  }
  if (starts_with(v.alert, "misread")) {
    a.todo = "nothing moved over the sheet: if it really happened press Confirm (Enter); otherwise put the die back, "
             "or correct the cell the camera misreads (right-click it on the board)";
  } else if (starts_with(v.alert, "the table does not match")) {
    a.todo = "make the table match the board panel (it shows the game), or take back (Ctrl+Z)";
  } else if (!v.proposals.empty()) {
    a.todo = "Confirm the action that happened (Enter, or 1-" + std::to_string(std::min<std::size_t>(9, v.proposals.size())) +
             "), or Reject (Esc) and put the table back as the board panel shows";
  } else {
    a.todo = "put the dice back as the board panel shows, or correct a misread cell (right-click it on the board)";
    a.severity = Severity::Error;
  }
  return a;
}

std::optional<Alert> source_alert(const std::string& source_error, bool reopening, bool live) {
  if (source_error.empty()) return std::nullopt;
  Alert a;
  a.severity = Severity::Error;
  a.seen = source_error;
  a.allowed = "nothing is decided without frames; every action accepted so far is in the game record";
  if (!live) {  // a video or a folder of frames: a file that cannot be read ends it (as `hexdice referee`)
    a.allowed = "the frames after it were not read; every action accepted so far is in the game record";
    a.todo = "replace or remove that file (or cut the video before it), then start the companion again with the same "
             "--db: the game goes on from its last action";
    return a;
  }
  a.todo = reopening ? "check the camera's cable and that no other program holds it: the companion opens it again by "
                       "itself and the game goes on from its last action"
                     : "check the camera's cable and that no other program holds it, then start the companion again "
                       "with the same --db: the game goes on from its last action";
  return a;
}

Alert database_alert(const std::string& path, const std::string& error) {
  Alert a;
  a.severity = Severity::Error;
  a.seen = "the game database " + path + " cannot be opened: " + error;
  a.allowed = "games are logged only when the database can be written; nothing is logged until then";
  auto has = [&](const char* w) { return error.find(w) != std::string::npos; };
  if (has("locked")) {
    a.todo = "another program is writing to it (a second companion window or `hexdice referee` with the same --db?): "
             "close that one and start again, or start with another --db FILE";
  } else if (has("not a hexdice game database") || has("malformed") || has("newer than this hexdice") ||
             has("foreign key check") || has("cannot migrate")) {
    a.todo = "the file is left as it is (not overwritten): start with --db NEW.sqlite for a new record, or with a copy "
             "of the file from before it was damaged";
  } else if (has("is full")) {
    a.todo = "free some space on that disk, or start with --db FILE on another disk";
  } else {
    a.todo = "start with --db FILE on a disk this user can write to";
  }
  return a;
}

std::vector<int> alert_order(const std::vector<Alert>& alerts) {
  std::vector<int> out;
  for (const Severity s : {Severity::Error, Severity::Warning, Severity::Info})
    for (int i = static_cast<int>(alerts.size()) - 1; i >= 0; --i)
      if (alerts[static_cast<std::size_t>(i)].severity == s) out.push_back(i);
  return out;
}

std::vector<referee::LogLine> log_with_frame_warnings(const std::vector<referee::LogLine>& log,
                                                      const std::vector<referee::LogLine>& warnings, int more) {
  std::vector<referee::LogLine> out;
  out.reserve(log.size() + warnings.size() + 1);
  std::size_t w = 0;
  for (const auto& l : log) {
    // Lines the referee says outside a frame (frame -1: a command) keep their place.
    while (w < warnings.size() && l.frame >= 0 && warnings[w].frame <= l.frame) out.push_back(warnings[w++]);
    out.push_back(l);
  }
  while (w < warnings.size()) out.push_back(warnings[w++]);
  if (more > 0)
    out.push_back(referee::LogLine{-1, true, std::to_string(more) + " more frame files gave a decoder warning (not listed)"});
  return out;
}

std::vector<ProposalView> referee_proposals(const referee::RefereeView& v) {
  std::vector<ProposalView> out;
  for (std::size_t i = 0; i < v.proposals.size(); ++i) {
    const Candidate& c = v.proposals[i];
    ProposalView p;
    p.number = static_cast<int>(i) + 1;
    p.action = c.action;
    p.text = c.text;
    p.from = c.action.unit;
    p.to = c.action.target;
    if (c.player == v.position.to_move() && !v.position.game_over())
      if (auto cb = preview_combat(v.position, c.action))
        p.combat = "attack " + std::to_string(cb->attack) + " vs armor " + std::to_string(cb->armor) +
                   (cb->success ? ": SUCCESS" : ": FAILS");
    out.push_back(std::move(p));
  }
  return out;
}

std::string declare_command(const Position& pos, const Action& a) {
  const Board& b = pos.board();
  if (a.unit < 0 || a.target < 0) return "";
  return "declare " + b.name(a.unit) + " " + b.name(a.target) + " " + std::string(action_name(a.type));
}

std::string confirm_command(int number) { return "confirm " + std::to_string(number); }

std::string correct_command(const Position& pos, int cell, const std::string& colour, int face, bool guard) {
  return "set " + pos.board().name(cell) + " " + colour + " " + std::to_string(face) + (guard ? " guard" : "");
}

std::string empty_command(const Position& pos, int cell) { return "set " + pos.board().name(cell) + " empty"; }

// ---- Hint ----------------------------------------------------------------------------

std::string position_key(const Position& pos) {
  std::string k = std::to_string(pos.to_move()) + "|" + std::to_string(pos.radius()) + "|";
  for (int i = 0; i < pos.board().size(); ++i) {
    const Piece& p = pos.at(i);
    if (p.empty()) continue;
    k += std::to_string(i) + ":" + std::to_string(p.owner) + std::to_string(p.face) + std::to_string(p.tokens) +
         (p.guard ? "g" : "") + ",";
  }
  return k;
}

HintRunner::~HintRunner() {
  if (pending_.valid()) pending_.wait();
}

void HintRunner::request(const Position& pos) {
  if (pending_.valid()) return;  // one search at a time
  key_ = position_key(pos);
  view_ = HintView{};
  view_.thinking = true;
  pending_pos_ = pos;
  const ai::SearchLimits lim = limits_;
  pending_ = std::async(std::launch::async, [p = pos, lim] { return ai::hint(p, lim, 1); });
}

void HintRunner::poll(const Position& pos) {
  if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    const ai::Hint h = pending_.get();
    view_.thinking = false;
    if (h.found && pending_pos_) {
      view_.shown = true;
      view_.action = h.action;
      view_.from = h.action.unit;
      view_.to = h.action.target;
      view_.text = describe(*pending_pos_, h.action);
      view_.reason = h.reason;
    } else {
      view_.reason = "no legal action: the game is over";
    }
    pending_pos_.reset();
  }
  if ((view_.shown || view_.thinking) && position_key(pos) != key_ && !pending_.valid()) view_ = HintView{};
}

void HintRunner::clear() {
  if (!pending_.valid()) view_ = HintView{};
}

// ---- Solo ----------------------------------------------------------------------------

Result<SoloSession> SoloSession::start(const solo::Scenario& sc, std::uint64_t seed, record::RecordDb* db) {
  SoloSession s;
  s.seed_ = seed;
  s.rng_ = Rng(seed);
  auto heroes = solo::auto_setup(sc, s.rng_);
  auto g = solo::SoloGame::start(sc, heroes);
  if (!g) return Error{g.error()};
  s.game_ = std::make_shared<solo::SoloGame>(std::move(*g));
  s.log_.push_back("Scenario " + sc.name + " (seed " + std::to_string(seed) + "): the companion plays " + sc.enemy_id +
                   ", you play " + sc.hero_id);
  if (db) {
    auto r = solo::SoloRecorder::create(*db, *s.game_, "seed " + std::to_string(seed));
    if (!r) return Error{"the game cannot be logged: " + r.error()};
    s.rec_ = std::make_shared<solo::SoloRecorder>(std::move(*r));
    s.log_.push_back("Logged as game " + std::to_string(s.rec_->current_id()) + " in " + db->path());
  }
  if (!s.game_->heroes_turn() && !s.game_->over()) s.log_.push_back("The enemy acts first: press Enemy turn");
  return s;
}

Result<std::optional<SoloSession>> SoloSession::resume(const solo::Scenario& sc, record::RecordDb& db,
                                                      std::optional<std::uint64_t> seed) {
  auto found = solo::find_unfinished_solo(db, sc, seed);
  if (!found) return Error{found.error()};
  if (!*found) return std::optional<SoloSession>();
  solo::LoggedSolo& logged = **found;
  const std::string where = "solo game " + std::to_string(logged.parts.front()) + " in " + db.path();
  auto started = start(sc, logged.seed, nullptr);
  if (!started) return Error{where + ": " + started.error()};
  SoloSession s = std::move(*started);
  auto first = db.load_game(logged.parts.front());
  if (!first) return Error{first.error()};
  auto start_pos = first->start_position();
  if (!start_pos || !(*start_pos == s.position()))
    return Error{where + " did not start from this scenario with seed " + std::to_string(logged.seed) +
                 " (was the scenario file changed?)"};
  std::deque<Action> expected;  // the enemy actions of the Enemy Turn being replayed
  for (std::size_t i = 0; i < logged.entries.size(); ++i) {
    const RecordEntry& e = logged.entries[i];
    const std::string at = where + ", entry " + std::to_string(i + 1) + ": ";
    if (e.kind == EntryKind::Takeback) return Error{at + "a solo game has no takebacks"};
    // Scenario steps (a pass, a group's again, reinforcements, a base capture not counted)
    // follow from the rolls and actions; the record has checked them, and the recorder
    // checks its position against the replayed game at the next step.
    if (is_scenario_step(e.kind)) continue;
    if (e.kind == EntryKind::Annotation) {
      const auto roll = solo::parse_roll_annotation(e.text);
      if (!roll) continue;
      if (!expected.empty() || s.game_->over() || s.game_->heroes_turn()) return Error{at + "an Enemy Turn out of turn"};
      if (roll->virtual_die && roll->seed != s.seed_)
        return Error{at + "virtual roll of seed " + std::to_string(roll->seed) + " in a game of seed " + std::to_string(s.seed_)};
      if (roll->virtual_die && roll->index != s.virtual_rolls_ + 1)
        return Error{at + "virtual roll #" + std::to_string(roll->index) + " follows #" + std::to_string(s.virtual_rolls_)};
      const Rng before = s.rng_;
      if (roll->virtual_die && Rng(before).face() != roll->roll)
        return Error{at + "the seeded die does not give " + std::to_string(roll->roll) + " here"};
      const std::size_t n0 = s.game_->history().size();
      s.enemy_turn(roll->virtual_die ? std::nullopt : std::optional<int>(roll->roll));
      const auto& h = s.game_->history();
      for (std::size_t k = n0; k < h.size(); ++k) expected.push_back(h[k].action);
      continue;
    }
    // An action: the enemy's must be the one the enemy decided; the heroes' must be legal.
    if (e.player == s.game_->enemy()) {
      if (expected.empty() || !(expected.front() == e.action)) return Error{at + "the enemy's logged action is not its decision"};
      expected.pop_front();
    } else {
      if (!expected.empty()) return Error{at + "a hero action in the middle of an Enemy Turn"};
      auto out = s.hero(e.action);
      if (!out) return Error{at + out.error()};
    }
  }
  // A crash in the middle of an Enemy Turn: the rest of its actions are logged now.
  const std::size_t logged_actions = s.game_->history().size() - expected.size();
  auto last = std::move(*logged.last);
  s.rec_ = std::make_shared<solo::SoloRecorder>(solo::SoloRecorder::attach(
      db, std::move(last), logged.parts.front(), static_cast<int>(logged.parts.size()), logged_actions, logged.site));
  if (Status st = s.rec_->log_hero(*s.game_); !st) return Error{where + ": " + st.error()};
  if (s.game_->over())
    if (Status st = s.rec_->finish(*s.game_); !st) return Error{where + ": " + st.error()};
  s.log_.push_back("Resumed " + where + " (part " + std::to_string(logged.parts.size()) + ": game " +
                   std::to_string(s.rec_->current_id()) + ") at round " + std::to_string(s.game_->round()) + "; " +
                   std::to_string(s.virtual_rolls_) + " virtual rolls of seed " + std::to_string(s.seed_) + " used");
  return std::optional<SoloSession>(std::move(s));
}

std::optional<std::int64_t> SoloSession::record_id() const {
  if (!rec_) return std::nullopt;
  return rec_->current_id();
}

Result<Outcome> SoloSession::hero(const Action& a) {
  if (broken_) return Error{record_error_};
  const Position before = game_->position();
  const solo::SoloGame saved = *game_;
  auto out = game_->hero_action(a);
  if (!out) return out;
  if (rec_) {
    const solo::SoloRecorder saved_rec = *rec_;
    Status st = rec_->log_hero(*game_);
    if (st && game_->over()) st = rec_->finish(*game_);
    if (!st) {
      *game_ = saved;  // not logged, so not played
      record_error_ = st.error();
      if (rec_->wrote_since(saved_rec)) {
        record_error_ += "; restart the window to resume from the record";
        broken_ = true;
      }
      *rec_ = saved_rec;
      return Error{"not logged, so not played: " + record_error_};
    }
    record_error_.clear();
  }
  log_.push_back("Round " + std::to_string(game_->round()) + ", " + before.player(before.to_move()).id + ": " +
                 describe(before, a, &*out));
  if (game_->over()) log_.push_back(game_->result_text());
  return out;
}

std::vector<SoloStepView> SoloSession::enemy_turn(std::optional<int> physical) {
  last_.clear();
  if (broken_ || game_->over() || game_->heroes_turn()) return last_;
  const bool camera = physical && *physical >= 1 && *physical <= 6;
  const solo::SoloGame saved = *game_;
  const Rng saved_rng = rng_;
  const int roll = camera ? *physical : rng_.face();
  const std::string how = camera ? "die read by the camera" : "virtual die";
  const int round = game_->round();
  const Position before = game_->position();
  const std::vector<solo::EnemyStep> steps = game_->enemy_turn(roll);
  if (rec_) {
    const solo::RollNote note{round, roll, !camera, camera ? 0 : virtual_rolls_ + 1, seed_};
    const solo::SoloRecorder saved_rec = *rec_;
    Status st = rec_->log_enemy_turn(*game_, solo::enemy_turn_annotation(game_->scenario(), note, steps), steps);
    if (st && game_->over()) st = rec_->finish(*game_);
    if (!st) {
      // Not logged, so not played.
      *game_ = saved;
      rng_ = saved_rng;
      record_error_ = st.error();
      if (rec_->wrote_since(saved_rec)) {
        // Part of the turn is in the record: restarting the window resumes it from there
        // (resume completes a half-logged Enemy Turn). Nothing more is logged until then.
        record_error_ += "; restart the window to resume from the record";
        broken_ = true;
      }
      *rec_ = saved_rec;
      log_.push_back("The Enemy Turn could not be logged (" + record_error_ + ")");
      return last_;
    }
    record_error_.clear();
  }
  if (!camera) ++virtual_rolls_;
  const std::string roll_line = "Round " + std::to_string(round) + ", enemy roll: " + std::to_string(roll) + " (" + how + ")";
  log_.push_back(roll_line);
  if (const solo::ActivationEntry* e = game_->scenario().entry_for(roll); e && !e->text.empty())
    log_.push_back("  table: " + e->text);
  Position cur = before;
  for (const solo::EnemyStep& st : steps) {
    SoloStepView v;
    v.roll_line = roll_line;
    v.why = st.explanation;
    if (st.action) {
      const Board& b = cur.board();
      const Action& a = *st.action;
      v.from = a.unit;
      v.to = a.target;
      const std::string unit = cur.player(cur.at(a.unit).owner).id + " " + std::string(unit_stats(cur.at(a.unit).face).name);
      if (a.type == ActionType::Guard)
        v.instruction = "Put a guard token beside the " + unit + " on " + b.name(a.unit);
      else if (a.type == ActionType::Reroll)
        v.instruction = "Reroll the " + unit + " on " + b.name(a.unit);
      else
        v.instruction = (a.type == ActionType::Move ? "Move the " : "The ") + unit + " on " + b.name(a.unit) +
                        (a.type == ActionType::Move ? " to " : " attacks ") + b.name(a.target) + ": " + st.text;
      apply_unchecked(cur, a);
    } else {
      v.instruction = "No enemy action";
    }
    log_.push_back("  " + v.instruction + ". Why: " + v.why);
    last_.push_back(std::move(v));
  }
  if (game_->over()) log_.push_back(game_->result_text());
  return last_;
}

std::vector<std::string> SoloSession::check_table(const referee::Observation& seen) const {
  std::vector<std::string> out;
  if (!seen.board_found) return {"the sheet is not in view"};
  const Position& pos = game_->position();
  const SeenBoard s = referee::to_seen(seen, pos);
  for (const CellDiff& d : diff(pos, s)) out.push_back(d.what);
  return out;
}

}  // namespace hexdice::gui
