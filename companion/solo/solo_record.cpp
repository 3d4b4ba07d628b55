#include "companion/solo/solo_record.h"

#include <algorithm>
#include <regex>

namespace hexdice::solo {

namespace {

const char* kPartPrefix = "Solo game part ";

std::string entry_name(const Scenario& sc, int roll) {
  const ActivationEntry* e = sc.entry_for(roll);
  if (!e) return "no table entry";
  if (!e->text.empty()) return e->text;
  if (e->face) return std::string(unit_stats(e->face).name);
  return e->all ? "all" : e->tag;
}

// Why the record's position and the solo game's differ (a part boundary).
std::string break_reason(const Position& rec, const Position& solo, int hero) {
  int rec_units = 0, solo_units = 0;
  for (int c = 0; c < solo.board().size(); ++c) {
    rec_units += !rec.at(c).empty();
    solo_units += !solo.at(c).empty();
  }
  if (rec.winner() >= 0 && solo.winner() < 0)
    return "the Hex Dice rules end the game here (" + rec.player(rec.winner()).id +
           " holds the base), but this scenario does not count that base capture";
  if (solo_units > rec_units) return "reinforcements arrived (a Hex Dice game places dice only at setup)";
  if (rec.to_move() != solo.to_move())
    return solo.to_move() == hero ? "the Enemy Turn was skipped, so the heroes act again (Hex Dice turns alternate)"
                                  : "the enemy acts again in the same Enemy Turn (group activation; Hex Dice turns alternate)";
  return "the table changed outside a Hex Dice action";
}

std::string hero_name(const SoloGame& g) { return g.position().player(g.hero()).id; }

}  // namespace

std::string roll_annotation(const RollNote& r, const std::string& entry) {
  return "Enemy Turn, round " + std::to_string(r.round) + ": activation roll " + std::to_string(r.roll) + " (" +
         (r.virtual_die ? "virtual roll #" + std::to_string(r.index) + " of seed " + std::to_string(r.seed)
                        : std::string("die read by the camera")) +
         "): " + entry;
}

std::optional<RollNote> parse_roll_annotation(const std::string& text) {
  static const std::regex re(
      R"(^Enemy Turn, round (\d+): activation roll ([1-6]) \((virtual roll #(\d+) of seed (\d+)|die read by the camera)\))");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return std::nullopt;
  RollNote r;
  try {
    r.round = std::stoi(m[1].str());
    r.roll = std::stoi(m[2].str());
    r.virtual_die = m[4].matched;
    if (r.virtual_die) {
      r.index = std::stoi(m[4].str());
      r.seed = std::stoull(m[5].str());
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return r;
}

std::string enemy_turn_annotation(const Scenario& sc, const RollNote& r, const std::vector<EnemyStep>& steps) {
  bool skipped = false;
  for (const auto& st : steps) skipped |= st.explanation.find("the Enemy Turn is skipped") != std::string::npos;
  return roll_annotation(r, skipped ? "selects " + entry_name(sc, r.roll) + ": no enemy matches: the Enemy Turn is skipped"
                                    : "selects " + entry_name(sc, r.roll));
}

static RecordHeader solo_header(const SoloGame& g, const std::string& site) {
  RecordHeader h;
  h.event = "solo: " + g.scenario().name;
  h.site = site;
  h.names.assign(g.position().players().size(), "");
  h.names[static_cast<std::size_t>(g.hero())] = "heroes";
  h.names[static_cast<std::size_t>(g.enemy())] = "enemy";
  h.start_time = record::utc_now();
  return h;
}

Result<SoloRecorder> SoloRecorder::create(record::RecordDb& db, const SoloGame& g, const std::string& site) {
  Position start = g.position();
  auto rec = GameRecord::from_position(start, solo_header(g, site));
  if (!rec) return Error{rec.error()};
  auto part = record::RecordedGame::create(db, *rec);
  if (!part) return Error{part.error()};
  SoloRecorder r(db, std::move(*part));
  r.first_id_ = r.part_->id();
  r.ids_ = {r.first_id_};
  r.site_ = site;
  r.logged_ = g.history().size();
  const Scenario& sc = g.scenario();
  if (Status s = r.part_->annotate("Solo scenario " + sc.id + " \"" + sc.name + "\" (difficulty " +
                                   std::to_string(sc.difficulty) + "): " + hero_name(g) + " are the heroes, " +
                                   g.position().player(g.enemy()).id + " the enemy run by the companion");
      !s)
    return Error{s.error()};
  return r;
}

SoloRecorder SoloRecorder::attach(record::RecordDb& db, record::RecordedGame part, std::int64_t first_id, int part_no,
                                  std::size_t logged, const std::string& site) {
  SoloRecorder r(db, std::move(part));
  r.first_id_ = first_id;
  r.part_no_ = part_no;
  r.logged_ = logged;
  r.site_ = site;
  r.ids_ = {r.part_->id()};
  return r;
}

Status SoloRecorder::ensure_part(const SoloGame& g, const Position& before) {
  const Position& cur = part_->record().current();
  if (cur == before && !part_->record().finished()) return {};
  const std::string why = break_reason(cur, before, g.hero());
  auto rec = GameRecord::from_position(before, solo_header(g, site_));
  if (!rec) return Error{"solo record: cannot start part " + std::to_string(part_no_ + 1) + ": " + rec.error()};
  auto next = record::RecordedGame::create(*db_, *rec);
  if (!next) return Error{next.error()};
  const std::int64_t old_id = part_->id();
  if (!part_->record().finished()) {
    if (Status s = part_->annotate("Part " + std::to_string(part_no_) + " ends here: " + why +
                                   ". The solo game continues in game " + std::to_string(next->id()) +
                                   " (this part's result is not the game's)");
        !s)
      return s;
    const GameResult natural = part_->record().natural_result();
    if (Status s = part_->finish(natural.finished() ? natural : GameResult{ResultReason::DrawAgreed, ""}, record::utc_now());
        !s)
      return s;
  }
  part_ = std::move(*next);
  ++part_no_;
  ids_.push_back(part_->id());
  return part_->annotate(kPartPrefix + std::to_string(part_no_) + ": continues game " + std::to_string(old_id) +
                         " (first part: game " + std::to_string(first_id_) + "); a new part because " + why);
}

Status SoloRecorder::log_action(const SoloGame& g, std::size_t index) {
  const SoloGame::Record& h = g.history()[index];
  if (Status s = ensure_part(g, h.before); !s) return s;
  auto out = part_->act(h.action);
  if (!out) return Error{"solo record: the Hex Dice record refuses " + describe(h.before, h.action) + ": " + out.error()};
  logged_ = index + 1;
  return {};
}

Status SoloRecorder::log_hero(const SoloGame& g) {
  while (logged_ < g.history().size())
    if (Status s = log_action(g, logged_); !s) return s;
  return {};
}

Status SoloRecorder::log_enemy_turn(const SoloGame& g, const std::string& roll_note, const std::vector<EnemyStep>& steps) {
  // The notes and the actions stay together: start the new part (if one is needed) first.
  if (logged_ < g.history().size())
    if (Status s = ensure_part(g, g.history()[logged_].before); !s) return s;
  bool rolled = false;
  for (const EnemyStep& st : steps) {
    if (st.roll != 0 && !rolled) {
      if (Status s = part_->annotate(roll_note); !s) return s;
      rolled = true;
    }
    if (st.action) {  // its explanation goes in the part that holds the action
      if (logged_ >= g.history().size()) return Error{"solo record: an enemy action is missing from the game's history"};
      if (Status s = ensure_part(g, g.history()[logged_].before); !s) return s;
    }
    if (st.explanation.find("the Enemy Turn is skipped") == std::string::npos)
      if (Status s = part_->annotate((st.roll == 0 ? "" : "Enemy: ") + st.explanation); !s) return s;
    if (st.action)
      if (Status s = log_action(g, logged_); !s) return s;
  }
  if (!rolled)
    if (Status s = part_->annotate(roll_note); !s) return s;
  return log_hero(g);  // nothing left, normally
}

Status SoloRecorder::finish(const SoloGame& g, const std::string& stopped) {
  if (Status s = log_hero(g); !s) return s;
  if (part_->record().finished()) return {};
  const GameResult natural = part_->record().natural_result();
  if (!stopped.empty()) {
    if (Status s = part_->annotate("Result: " + stopped); !s) return s;
    return part_->finish(natural.finished() ? natural : GameResult{ResultReason::DrawAgreed, ""}, record::utc_now());
  }
  if (!g.over()) return Error{"solo record: the game is not over"};
  const std::string winner = g.result() > 0 ? hero_name(g) : (g.result() < 0 ? g.position().player(g.enemy()).id : "");
  GameResult r;
  std::string how;
  if (natural.finished()) {
    r = natural;
  } else if (winner.empty()) {
    r = {ResultReason::DrawAgreed, ""};
    how = " (recorded as an agreed draw)";
  } else {
    r = {ResultReason::Resignation, winner};
    how = " (recorded as a resignation of the other side: the Hex Dice record has no reason for a scenario objective)";
  }
  if (Status s = part_->annotate("Scenario result: " + g.result_text() + how); !s) return s;
  return part_->finish(r, record::utc_now());
}

Result<LoggedSolo> load_solo(record::RecordDb& db, std::int64_t id) {
  static const std::regex re(R"(^Solo game part (\d+): continues game (\d+))");
  LoggedSolo out;
  std::vector<GameRecord> recs;
  std::int64_t at = id;
  for (int guard = 0; guard < 100000; ++guard) {
    auto rec = db.load_game(at);
    if (!rec) return Error{rec.error()};
    if (rec->header().event.rfind("solo: ", 0) != 0) return Error{"game " + std::to_string(at) + " is not a solo game"};
    out.parts.push_back(at);
    const auto& es = rec->entries();
    std::smatch m;
    std::optional<std::int64_t> prev;
    if (!es.empty() && es.front().kind == EntryKind::Annotation && std::regex_search(es.front().text, m, re))
      prev = std::stoll(m[2].str());
    recs.push_back(std::move(*rec));
    if (!prev) break;
    if (*prev >= at) return Error{"game " + std::to_string(at) + ": a solo part must continue an earlier game"};
    at = *prev;
  }
  std::reverse(out.parts.begin(), out.parts.end());
  std::reverse(recs.begin(), recs.end());
  out.site = recs.front().header().site;
  static const std::regex seed_re(R"(^seed (\d+))");
  std::smatch m;
  if (std::regex_search(out.site, m, seed_re)) out.seed = std::stoull(m[1].str());
  for (std::size_t p = 0; p < recs.size(); ++p)
    for (const RecordEntry& e : recs[p].entries()) {
      out.entries.push_back(e);
      out.entry_part.push_back(static_cast<int>(p));
    }
  out.finished = recs.back().finished();
  auto last = record::RecordedGame::resume(db, out.parts.back());
  if (!last) return Error{last.error()};
  out.last.emplace(std::move(*last));
  return out;
}

Result<std::optional<LoggedSolo>> find_unfinished_solo(record::RecordDb& db, const Scenario& sc,
                                                        std::optional<std::uint64_t> seed) {
  auto games = db.list_games();
  if (!games) return Error{games.error()};
  std::optional<std::int64_t> best;
  for (const auto& g : *games)
    if (g.event == "solo: " + sc.name && !g.result.finished() && (!best || g.id > *best)) {
      auto rec = db.load_game(g.id);
      if (!rec) continue;  // a damaged game is not resumed; `hexdice history` names the problem
      static const std::regex window_site(R"(^seed (\d+)$)");
      std::smatch m;
      if (std::regex_match(rec->header().site, m, window_site) && (!seed || m[1].str() == std::to_string(*seed)))
        best = g.id;
    }
  if (!best) return std::optional<LoggedSolo>();
  auto solo = load_solo(db, *best);
  if (!solo) return Error{solo.error()};
  return std::optional<LoggedSolo>(std::move(*solo));
}

}  // namespace hexdice::solo
