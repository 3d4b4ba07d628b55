#include "companion/solo/solo_record.h"

#include <algorithm>
#include <regex>

namespace hexdice::solo {

namespace {

std::string entry_name(const Scenario& sc, int roll) {
  const ActivationEntry* e = sc.entry_for(roll);
  if (!e) return "no table entry";
  if (!e->text.empty()) return e->text;
  if (e->face) return std::string(unit_stats(e->face).name);
  return e->all ? "all" : e->tag;
}

// What differs between two positions, for an error message.
std::string difference(const Position& rec, const Position& solo) {
  if (rec.to_move() != solo.to_move()) return "the player to move";
  if (rec.winner() != solo.winner()) return "the winner";
  for (int c = 0; c < solo.board().size(); ++c)
    if (!(rec.at(c) == solo.at(c))) return "the cell " + solo.board().name(c);
  return "the players or the house rules";
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
  auto rec = GameRecord::from_position(start, solo_header(g, site), RecordMode::Solo);
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

Status SoloRecorder::bridge(const SoloGame& g, const Position& target, bool turn) {
  auto step = [&](const RecordEntry& e) -> Status {
    if (Status s = part_->step(e); !s) return Error{"solo record: the record refuses the scenario step \"" +
                                                     describe_scenario_step(part_->record().current(), e) + "\": " + s.error()};
    return {};
  };
  const GameRecord& rec = part_->record();
  if (rec.current().winner() >= 0 && target.winner() < 0)
    if (Status s = step(RecordEntry::rule(kRuleBaseCaptureOff)); !s) return s;
  // Reinforcements: dice on the solo game's board that the record has not placed.
  for (int c = 0; c < target.board().size(); ++c) {
    const Piece& p = target.at(c);
    if (!p.empty() && rec.current().at(c).empty())
      if (Status s = step(RecordEntry::place(p.owner, c, p.face, p.tokens, p.guard)); !s) return s;
  }
  if (!turn) return {};
  const Position& cur = rec.current();
  if (cur.to_move() != target.to_move() && target.winner() < 0) {
    // The enemy to move but the heroes' turn next: the Enemy Turn was skipped (the enemy
    // passes). The heroes to move but the enemy acts: a group activation (the enemy again).
    const RecordEntry e = cur.to_move() == g.enemy() ? RecordEntry::pass(g.enemy()) : RecordEntry::again(g.enemy());
    if (Status s = step(e); !s) return s;
  }
  if (!(rec.current() == target))
    return Error{"solo record: the record's position and the solo game's differ (" + difference(rec.current(), target) +
                 ") in round " + std::to_string(g.round())};
  return {};
}

// A base capture the scenario does not count ends the Hex Dice game: the record says so.
Status SoloRecorder::discount_base_capture(const SoloGame& g) {
  const Position& cur = part_->record().current();
  const int w = cur.winner();
  if (w < 0 || cur.num_players() != 2 || cur.unit_count(1 - w) == 0 || cur.at(cur.base_cell(1 - w)).owner != w) return {};
  const bool counts = w == g.hero() ? g.scenario().hero_base_capture : g.scenario().enemy_base_capture;
  if (counts) return {};
  return part_->step(RecordEntry::rule(kRuleBaseCaptureOff));
}

Status SoloRecorder::log_action(const SoloGame& g, std::size_t index) {
  const SoloGame::Record& h = g.history()[index];
  if (Status s = bridge(g, h.before, true); !s) return s;
  auto out = part_->act(h.action);
  if (!out) return Error{"solo record: the Hex Dice record refuses " + describe(h.before, h.action) + ": " + out.error()};
  logged_ = index + 1;
  return discount_base_capture(g);
}

Status SoloRecorder::log_hero(const SoloGame& g) {
  while (logged_ < g.history().size())
    if (Status s = log_action(g, logged_); !s) return s;
  return {};
}

Status SoloRecorder::log_enemy_turn(const SoloGame& g, const std::string& roll_note, const std::vector<EnemyStep>& steps) {
  // The history entries not logged yet are this Enemy Turn's actions.
  // Scenario effects first (reinforcements arrive at the start of the Enemy Turn): the
  // note, then the dice placed, as the board stands before the enemy's first action.
  bool effects = false;
  for (const EnemyStep& st : steps)
    if (st.roll == 0) {
      if (Status s = part_->annotate(st.explanation); !s) return s;
      effects = true;
    }
  if (effects) {
    const auto& h = g.history();
    if (Status s = bridge(g, logged_ < h.size() ? h[logged_].before : g.position(), false); !s) return s;
  }
  if (Status s = part_->annotate(roll_note); !s) return s;
  for (const EnemyStep& st : steps) {
    if (st.roll == 0) continue;
    if (st.action) {  // a group activation: the enemy acts again
      if (logged_ >= g.history().size()) return Error{"solo record: an enemy action is missing from the game's history"};
      if (Status s = bridge(g, g.history()[logged_].before, true); !s) return s;
    }
    if (st.explanation.find("the Enemy Turn is skipped") == std::string::npos)
      if (Status s = part_->annotate("Enemy: " + st.explanation); !s) return s;
    if (st.action)
      if (Status s = log_action(g, logged_); !s) return s;
  }
  if (Status s = log_hero(g); !s) return s;  // nothing left, normally
  // The turn goes back to the heroes (a skipped Enemy Turn: the enemy passes).
  if (!g.over())
    if (Status s = bridge(g, g.position(), true); !s) return s;
  return {};
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
  // Annihilation and base capture are the rules' own reasons; a scenario objective (reach,
  // defeat, turn limit) is a scenario result with the scenario's text.
  const GameResult r = natural.finished() ? natural : GameResult{ResultReason::Scenario, winner, g.result_text()};
  if (Status s = part_->annotate("Scenario result: " + g.result_text()); !s) return s;
  return part_->finish(r, record::utc_now());
}

Result<LoggedSolo> load_solo(record::RecordDb& db, std::int64_t id) {
  // A solo game logged before schema 4 may be a chain of parts, each naming the game it
  // continues in its first annotation; one logged since is one game.
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
