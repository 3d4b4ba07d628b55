// The companion window's view model, without a window: board geometry and labels, the
// click logic (select, highlight, propose with combat preview, confirm/reject), the event
// log, history filtering/sorting, per-game statistics and the demo frame's registration.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "companion/gui/live_loop.h"
#include "companion/gui/live_model.h"
#include "companion/gui/view_model.h"
#include "companion/referee/frame_source.h"
#include "companion/record/sample_game.h"

using namespace hexdice;
using namespace hexdice::gui;

namespace {

Position two_player_position() {
  auto pos = Position::create(4, {{"red", 0, false}, {"blue", 3, false}});
  EXPECT_TRUE(pos.ok());
  return *pos;
}

}  // namespace

TEST(ViewModel, BoardViewHasEveryCellUnitLabelsZonesAndBases) {
  Position pos = two_player_position();
  const Hex a = pos.board().hex(pos.base_cell(0));
  ASSERT_TRUE(pos.place(a, 0, 5, 2, true));  // Tanker, 2 tokens, guarding: armor 4+1-2 = 3
  const BoardView v = build_board_view(pos, {"Ann", "Bob"}, Palette::Dice);
  EXPECT_EQ(v.radius, 4);
  EXPECT_EQ(static_cast<int>(v.cells.size()), pos.board().size());
  ASSERT_EQ(v.units.size(), 1u);
  EXPECT_EQ(v.units[0].unit, "Tanker");
  EXPECT_EQ(v.units[0].armor, 3);
  EXPECT_EQ(v.units[0].label, "Tanker A3 -2 G");
  EXPECT_EQ(v.cells[static_cast<std::size_t>(pos.base_cell(1))].base, 1);
  int zone0 = 0, zone1 = 0;
  for (const auto& c : v.cells) { zone0 += c.zone == 0; zone1 += c.zone == 1; }
  EXPECT_GT(zone0, 0);
  EXPECT_EQ(zone0, zone1);
  EXPECT_EQ(v.players[0].name, "Ann");
  EXPECT_EQ(v.players[0].army.at("Tanker"), 1);
  EXPECT_TRUE(v.players[0].to_move);
  EXPECT_EQ(v.turn_text, "red to move");
  // Flat-top layout: the cell north of the centre is straight above it.
  const auto& n = v.cells[static_cast<std::size_t>(pos.board().index(Hex{0, -1}))];
  EXPECT_NEAR(n.x, 0.0, 1e-9);
  EXPECT_LT(n.y, 0.0);
}

// The board tiles' unit names: distinct for the six faces, at most four letters (the
// first four letters of the names read "Assa", "Infa", "Bala").
TEST(ViewModel, UnitAbbreviationsAreDistinctAndShort) {
  std::set<std::string> seen;
  for (int f = 1; f <= 6; ++f) {
    const std::string a = unit_abbrev(f);
    EXPECT_LE(a.size(), 4u) << a;
    EXPECT_EQ(a[0], unit_stats(f).name[0]) << a << " starts like " << unit_stats(f).name;
    seen.insert(a);
  }
  EXPECT_EQ(seen.size(), 6u);
  EXPECT_EQ(unit_abbrev(0), "?");
  Position pos = two_player_position();
  ASSERT_TRUE(pos.place(pos.board().hex(pos.base_cell(0)), 0, 4, 0, false));
  EXPECT_EQ(build_board_view(pos, {}, Palette::Dice).units.at(0).abbrev, "Aslt");
}

TEST(ViewModel, PalettesDifferAndColourBlindSafeIsDistinctPerPlayer) {
  EXPECT_EQ(player_colour("red", 0, Palette::Dice), (Rgb{220, 50, 47}));
  std::vector<Rgb> seen;
  for (int i = 0; i < 6; ++i) {
    const Rgb c = player_colour("red", i, Palette::ColourBlindSafe);
    for (const Rgb& s : seen) EXPECT_FALSE(c == s);
    seen.push_back(c);
  }
}

TEST(ViewModel, ClickSelectsHighlightsProposesWithCombatPreviewAndConfirms) {
  Position pos = two_player_position();
  ASSERT_TRUE(pos.place(Hex{0, 0}, 0, 4));   // red Assault, attack 3
  ASSERT_TRUE(pos.place(Hex{1, -1}, 1, 2));  // blue Archer on its NE diagonal, armor 0
  ASSERT_TRUE(pos.place(Hex{2, 2}, 1, 5));   // another blue unit far away
  BoardInteraction ui;
  ui.click(pos, pos.board().index(Hex{2, 2}));  // an enemy unit: nothing selected
  EXPECT_EQ(ui.selected(), -1);
  const int me = pos.board().index(Hex{0, 0});
  const int enemy = pos.board().index(Hex{1, -1});
  ui.click(pos, me);
  EXPECT_EQ(ui.selected(), me);
  std::vector<Action> legal;
  unit_actions(pos, me, legal);
  EXPECT_EQ(ui.targets().size(), legal.size());
  bool enemy_highlighted = false;
  for (const auto& t : ui.targets())
    if (t.cell == enemy) enemy_highlighted = t.attack;
  EXPECT_TRUE(enemy_highlighted);
  ui.click(pos, enemy);  // second click: the attack is proposed, not committed
  ASSERT_FALSE(ui.proposed().empty());
  const TargetView& p = ui.proposed()[0];
  ASSERT_TRUE(p.combat.has_value());
  EXPECT_EQ(p.combat->attack, 3);
  EXPECT_EQ(p.combat->armor, 0);
  EXPECT_TRUE(p.combat->success);
  EXPECT_EQ(pos.at(enemy).owner, 1);  // nothing applied yet
  ui.reject();
  EXPECT_TRUE(ui.proposed().empty());
  EXPECT_EQ(ui.selected(), me);
  ui.click(pos, enemy);
  auto a = ui.confirm();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->unit, me);
  EXPECT_TRUE(apply(pos, *a).ok());
  EXPECT_EQ(ui.selected(), -1);
  EXPECT_FALSE(ui.confirm().has_value());
}

// A click that does nothing says why, in the rules' words: an enemy unit out of turn,
// an empty cell with nothing selected, a cell the selected unit cannot reach.
TEST(ViewModel, AClickThatDoesNothingSaysWhy) {
  Position pos = two_player_position();
  ASSERT_TRUE(pos.place(Hex{0, 0}, 0, 4));   // red Assault
  ASSERT_TRUE(pos.place(Hex{2, 2}, 1, 5));   // blue unit
  BoardInteraction ui;
  const int me = pos.board().index(Hex{0, 0}), enemy = pos.board().index(Hex{2, 2});
  const int far = pos.board().index(Hex{0, -4});  // empty, out of the Assault's reach
  ui.click(pos, enemy);
  EXPECT_EQ(ui.selected(), -1);
  EXPECT_NE(ui.why_not().find("blue's unit"), std::string::npos) << ui.why_not();
  EXPECT_NE(ui.why_not().find("red's turn"), std::string::npos) << ui.why_not();
  ui.click(pos, far);
  EXPECT_NE(ui.why_not().find("is empty"), std::string::npos) << ui.why_not();
  ui.click(pos, me);  // a selection is something: no reason shown
  EXPECT_EQ(ui.selected(), me);
  EXPECT_TRUE(ui.why_not().empty()) << ui.why_not();
  bool far_is_target = false;
  for (const auto& t : ui.targets()) far_is_target |= t.cell == far;
  ASSERT_FALSE(far_is_target);
  ui.click(pos, far);  // not highlighted: the rules' reason, the same as validate()'s
  EXPECT_TRUE(ui.proposed().empty());
  const Status st = validate(pos, Action{ActionType::Move, static_cast<std::int16_t>(me), static_cast<std::int16_t>(far), 0});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(ui.why_not(), st.error());
  EXPECT_EQ(ui.why_not().rfind("illegal move: ", 0), 0u) << ui.why_not();
}

TEST(ViewModel, ProposeRejectsIllegalRerollAndAcceptsGuard) {
  Position pos = two_player_position();
  ASSERT_TRUE(pos.place(Hex{0, 0}, 0, 1));
  ASSERT_TRUE(pos.place(Hex{0, 3}, 1, 1));
  BoardInteraction ui;
  const int me = pos.board().index(Hex{0, 0});
  ui.click(pos, me);
  ui.propose(pos, {ActionType::Reroll, static_cast<std::int16_t>(me), kNoCell, 9});  // no face 9
  EXPECT_TRUE(ui.proposed().empty());
  ui.propose(pos, {ActionType::Guard, static_cast<std::int16_t>(me), kNoCell, 0});
  ASSERT_EQ(ui.proposed().size(), 1u);
  EXPECT_NE(ui.proposed()[0].text.find("guard"), std::string::npos) << ui.proposed()[0].text;
}

TEST(ViewModel, EventLogAndStatsAgreeWithTheRecord) {
  SampleOptions o;
  o.seed = 7;
  const GameRecord rec = sample_game(o);
  const auto log = event_log(rec);
  EXPECT_EQ(log.size(), rec.entries().size());
  const GameStats s = game_stats(rec);
  ASSERT_EQ(s.players.size(), 2u);
  int actions = 0, won = 0, lost = 0, rolls = 0;
  for (const auto& p : s.players) {
    for (int n : p.by_type) actions += n;
    won += p.combats_won;
    lost += p.combats_lost;
    for (int n : p.rolls) rolls += n;
  }
  int combats = 0, takebacks = 0;
  for (const auto& e : rec.entries()) {
    combats += e.kind == EntryKind::Action && e.outcome.combat.has_value();
    takebacks += e.kind == EntryKind::Takeback;
  }
  EXPECT_EQ(actions, s.actions);
  EXPECT_EQ(s.takebacks, takebacks);
  EXPECT_EQ(won, lost);           // every combat is one win and one loss
  EXPECT_EQ(won, combats);
  EXPECT_GE(rolls, 2 * rec.config().dice_per_player);  // at least the armies' first rolls
  for (const auto& l : log)
    if (!l.takeback && !l.annotation) EXPECT_NE(l.text.find(". "), std::string::npos);
}

// The History panel's statistics table: the same numbers as game_stats, a column per
// player, five rows whatever the number of players (so it fits the panel), and each cell
// in words for its tooltip.
TEST(ViewModel, StatsTableShowsEveryNumberOfGameStatsInFiveRows) {
  for (int players : {2, 3}) {
    SampleOptions o;
    o.seed = 11;
    o.players = players;
    const GameStats s = game_stats(sample_game(o));
    const StatsTable t = stats_table(s);
    ASSERT_EQ(t.players.size(), static_cast<std::size_t>(players));
    ASSERT_EQ(t.rows.size(), 5u);
    ASSERT_EQ(t.cells.size(), 5u);
    EXPECT_EQ(t.summary.rfind(std::to_string(s.actions) + " actions, ", 0), 0u) << t.summary;
    for (std::size_t p = 0; p < t.players.size(); ++p) {
      EXPECT_EQ(t.players[p], s.players[p].id);
      // Every number of the player, read back from the five cells in order.
      std::vector<int> shown;
      for (std::size_t r = 0; r < 5; ++r) {
        ASSERT_EQ(t.cells[r].size(), t.players.size());
        std::istringstream in(t.cells[r][p]);
        for (int v; in >> v;) shown.push_back(v);
        EXPECT_EQ(t.words[r][p].rfind(s.players[p].id + ":", 0) == 0 || t.words[r][p].rfind(s.players[p].id + " rolled", 0) == 0,
                  true)
            << t.words[r][p];
      }
      const auto& pp = s.players[p];
      auto by = [&](ActionType a) { return pp.by_type[static_cast<std::size_t>(a)]; };
      const std::vector<int> want = {by(ActionType::Move),   by(ActionType::Reroll),  by(ActionType::Guard),
                                     by(ActionType::Ranged), by(ActionType::Special), by(ActionType::Merge),
                                     pp.combats_won,         pp.combats_lost,         pp.rolls[1],
                                     pp.rolls[2],            pp.rolls[3],             pp.rolls[4],
                                     pp.rolls[5],            pp.rolls[6]};
      EXPECT_EQ(shown, want) << t.players[p];
    }
  }
}

TEST(ViewModel, HistoryFiltersAndSorts) {
  std::vector<record::GameSummary> g(3);
  g[0].id = 1; g[0].players = "red vs blue"; g[0].started_at = "2026-01-02"; g[0].actions = 10;
  g[1].id = 2; g[1].players = "green vs black"; g[1].started_at = "2026-01-03"; g[1].actions = 30;
  g[1].result = {ResultReason::Annihilation, "green"};
  g[2].id = 3; g[2].players = "red vs yellow"; g[2].started_at = "2026-01-01"; g[2].actions = 20;
  auto rows = history_rows(g, "", HistorySort::DateDesc);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, 2);
  EXPECT_EQ(rows[2].id, 3);
  EXPECT_EQ(rows[0].result, "annihilation: green");
  EXPECT_EQ(rows[1].result, "unfinished");
  rows = history_rows(g, "RED", HistorySort::Length);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].id, 3);
  EXPECT_EQ(history_rows(g, "annihil", HistorySort::DateAsc).size(), 1u);
  // A solo game its scenario ended shows the scenario's text (and is found by it).
  g[2].result = {ResultReason::Scenario, "blue", "heroes win: every target (warlord) is defeated"};
  g[2].solo = true;
  rows = history_rows(g, "warlord", HistorySort::DateAsc);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].result, "scenario (heroes win: every target (warlord) is defeated): blue");
  g[2].result = {ResultReason::Scenario, "", "the turn limit (30 rounds) has passed: draw"};
  EXPECT_EQ(history_rows(g, "turn limit", HistorySort::DateAsc).at(0).result,
            "scenario (the turn limit (30 rounds) has passed: draw)");
}

TEST(ViewModel, DemoFrameRegistrationPutsDiceInTheirCells) {
  const std::string path = std::string(HEXDICE_SOURCE_DIR) + "/data/fixtures/scenes/scene_000.json";
  auto f = frame_from_scene_label(path);
  ASSERT_TRUE(f.ok()) << f.error();
  ASSERT_TRUE(f->registered);
  ASSERT_FALSE(f->dice.empty());
  const auto grid = project_grid(*f, 5, 17.0, 148.5, 210.0);
  ASSERT_EQ(grid.size(), 91u);
  // Each die's top face (16 mm above the paper, so a little off) lies nearer its own
  // cell's projected centre than any other cell's, for most dice.
  int right = 0;
  for (const auto& d : f->dice) {
    double best = 1e18;
    std::string name;
    for (const auto& p : grid) {
      const double dd = (p.cx - d.x) * (p.cx - d.x) + (p.cy - d.y) * (p.cy - d.y);
      if (dd < best) { best = dd; name = p.name; }
    }
    right += name == d.cell;
  }
  EXPECT_GE(right * 10, static_cast<int>(f->dice.size()) * 7) << right << " of " << f->dice.size();
  auto pos = position_from_frame(*f, 5);
  ASSERT_TRUE(pos.ok()) << pos.error();
  EXPECT_EQ(pos->total_units(), static_cast<int>(f->dice.size()));
  EXPECT_FALSE(frame_from_scene_label("/nonexistent.json").ok());
}

// ---- The live table: the referee's alerts and proposals, hint, solo (issues 5 and 6) ----

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string temp_db(const std::string& name) {
  const auto p = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".sqlite");
  std::filesystem::remove(p);
  return p.string();
}

}  // namespace

TEST(LiveModel, DemoRefereeMisreadBecomesAThreePartAlertWithAConfirmableProposal) {
  const std::string demo = std::string(HEXDICE_SOURCE_DIR) + "/data/demo";
  auto start = parse_position(slurp(demo + "/start.json"));
  ASSERT_TRUE(start.ok()) << start.error();
  const std::string db = temp_db("hexdice_vm_demo");
  auto ref = referee::Referee::open(db, *start);
  ASSERT_TRUE(ref.ok()) << ref.error();
  auto src = referee::open_observations(demo + "/observations");
  ASSERT_TRUE(src.ok());
  std::multimap<int, std::string> cmds;
  {
    std::istringstream in(slurp(demo + "/commands.txt"));
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream ls(line);
      int f = 0;
      std::string rest;
      ls >> f;
      std::getline(ls, rest);
      cmds.emplace(f, rest);
    }
  }
  EXPECT_FALSE(referee_alert((*ref)->view()).has_value()) << "no alert before anything is seen";
  bool misread = false;
  referee::Frame f;
  while ((*src)->next(f)) {
    auto [lo, hi] = cmds.equal_range(f.index);
    for (auto it = lo; it != hi; ++it) (void)(*ref)->command(it->second);
    (*ref)->process(*f.obs, f.index * 100.0, f.index);
    const referee::RefereeView v = (*ref)->view();
    const auto a = referee_alert(v);
    if (a && a->seen.rfind("misread", 0) == 0) {
      misread = true;
      EXPECT_NE(a->todo.find("Confirm"), std::string::npos) << a->todo;
      EXPECT_FALSE(a->allowed.empty());
      const auto props = referee_proposals(v);
      EXPECT_EQ(props.size(), v.proposals.size());
      for (const auto& p : props) {
        EXPECT_GE(p.from, 0);
        EXPECT_NE(a->allowed.find(p.text), std::string::npos) << "the alert names every proposal";
      }
    }
  }
  EXPECT_TRUE(misread) << "the demo's misread was not alerted";
  const referee::RefereeView end = (*ref)->view();
  EXPECT_TRUE(end.finished);
  EXPECT_FALSE(referee_alert(end).has_value()) << end.alert;
  std::filesystem::remove(db);
}

TEST(LiveModel, CommandsTheWindowSendsAreAcceptedByTheReferee) {
  auto pos = Position::create(5, {{"red", 0, false}, {"blue", 3, false}});
  ASSERT_TRUE(pos.ok());
  ASSERT_TRUE(pos->place(Hex{0, -1}, 0, 1, 0, false));  // red Infantry
  ASSERT_TRUE(pos->place(Hex{0, 0}, 1, 3, 0, false));   // blue Knight (armor 2): the attack fails
  ASSERT_TRUE(pos->place(Hex{0, 4}, 1, 2, 0, false));
  std::optional<Action> attack;
  for (const auto& t : targets_of(*pos, pos->board().index(Hex{0, -1})))
    if (t.attack) attack = t.action;
  ASSERT_TRUE(attack.has_value());
  const std::string db = temp_db("hexdice_vm_cmd");
  auto ref = referee::Referee::open(db, *pos);
  ASSERT_TRUE(ref.ok()) << ref.error();
  const std::string declare = declare_command(*pos, *attack);
  EXPECT_EQ(declare.rfind("declare ", 0), 0u);
  auto r = (*ref)->command(declare);
  ASSERT_TRUE(r.ok()) << declare << ": " << r.error();
  EXPECT_EQ((*ref)->view().ply, 1) << "the declared attack is the referee's record";
  EXPECT_TRUE((*ref)->command("takeback").ok());
  EXPECT_EQ((*ref)->view().ply, 0);
  EXPECT_TRUE((*ref)->command(correct_command(*pos, pos->board().index(Hex{0, -1}), "red", 4, true)).ok());
  EXPECT_TRUE((*ref)->command(empty_command(*pos, pos->board().index(Hex{0, 4}))).ok());
  EXPECT_FALSE((*ref)->command(confirm_command(1)).ok()) << "nothing proposed yet";
  std::filesystem::remove(db);
}

TEST(LiveModel, HintIsShownOnlyOnRequestAndDroppedWhenThePositionChanges) {
  auto pos = parse_position(slurp(std::string(HEXDICE_SOURCE_DIR) + "/data/demo/position.json"));
  ASSERT_TRUE(pos.ok()) << pos.error();
  HintRunner h({0, 3, 0});
  for (int i = 0; i < 5; ++i) h.poll(*pos);
  EXPECT_FALSE(h.view().shown) << "never a hint unasked";
  EXPECT_FALSE(h.view().thinking);
  h.request(*pos);
  EXPECT_TRUE(h.view().thinking);
  for (int i = 0; i < 500 && !h.view().shown; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    h.poll(*pos);
  }
  ASSERT_TRUE(h.view().shown);
  EXPECT_TRUE(validate(*pos, h.view().action.type == ActionType::Reroll ? Action{ActionType::Reroll, h.view().action.unit, kNoCell, 1}
                                                                         : h.view().action).ok());
  EXPECT_EQ(h.view().from, h.view().action.unit);
  EXPECT_FALSE(h.view().reason.empty());
  EXPECT_FALSE(h.view().text.empty());
  auto next = apply(*pos, h.view().action.type == ActionType::Reroll ? Action{ActionType::Reroll, h.view().action.unit, kNoCell, 1}
                                                                     : h.view().action);
  ASSERT_TRUE(next.ok());
  h.poll(next->position);
  EXPECT_FALSE(h.view().shown) << "a hint of another position is not shown";
}

TEST(LiveModel, SoloEnemyTurnSaysWhichDieToMoveWhereAndWhyAndLogsTheRoll) {
  auto sc = solo::parse_scenario(slurp(std::string(HEXDICE_SOURCE_DIR) + "/data/scenarios/03-the-hunt.json"));
  ASSERT_TRUE(sc.ok()) << sc.error();
  auto s = SoloSession::start(*sc, 7);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_TRUE(s->enemy_turn().empty()) << "the enemy does not act in the heroes' turn";
  int turns = 0, moves = 0;
  for (int round = 0; round < 6 && !s->game().over(); ++round) {
    while (s->game().heroes_turn()) {
      const auto acts = s->game().hero_actions();
      ASSERT_FALSE(acts.empty());
      Action a = acts.front();
      for (const Action& b : acts) if (b.type == ActionType::Guard) { a = b; break; }
      ASSERT_TRUE(s->hero(a).ok());
    }
    if (s->game().over()) break;
    const std::optional<int> die = round == 1 ? std::optional<int>(4) : std::nullopt;
    const auto steps = s->enemy_turn(die);
    ++turns;
    for (const auto& st : steps) {
      EXPECT_FALSE(st.why.empty());
      EXPECT_FALSE(st.instruction.empty());
      if (st.from >= 0 && st.to >= 0) {
        ++moves;
        EXPECT_NE(st.instruction.find(s->position().board().name(st.from)), std::string::npos) << st.instruction;
        EXPECT_NE(st.instruction.find(s->position().board().name(st.to)), std::string::npos) << st.instruction;
      }
      if (round == 1) EXPECT_NE(st.roll_line.find("roll: 4 (die read by the camera)"), std::string::npos) << st.roll_line;
    }
  }
  EXPECT_GT(turns, 0);
  EXPECT_GT(moves, 0) << "the enemy never moved a die";
  int roll_lines = 0;
  bool keyword = false;
  for (const auto& l : s->log()) {
    roll_lines += l.find("enemy roll: ") != std::string::npos;
    const auto why = l.find("Why: ");
    if (why != std::string::npos)
      keyword |= l.find("Prey: ", why) != std::string::npos || l.find("Engage: ", why) != std::string::npos ||
                 l.find("Strike: ", why) != std::string::npos;
  }
  EXPECT_EQ(roll_lines, turns);
  std::string all;
  for (const auto& l : s->log()) all += l + "\n";
  EXPECT_TRUE(keyword) << "the explanations name the enemy's order:\n" << all;
  // The table check: what the camera would see of the game matches; a missing die does not.
  referee::Observation seen = referee::observation_of(s->position());
  EXPECT_TRUE(s->check_table(seen).empty());
  ASSERT_FALSE(seen.cells.empty());
  seen.cells.pop_back();
  EXPECT_EQ(s->check_table(seen).size(), 1u);
}

TEST(LiveModel, DemoTablePictureShowsTheDiceWhereTheGridProjectionPutsThem) {
  referee::Observation obs;
  obs.board_found = true;
  obs.cells.push_back({Hex{0, 0}, "red", 5, false, 1.0});
  const cv::Size size(1280, 720);
  const cv::Matx33d h0 = demo_pose(0, size), h1 = demo_pose(40, size);
  EXPECT_NE(h0(0, 2), h1(0, 2)) << "the demo sheet drifts (the overlay must follow the pose)";
  const cv::Mat img = draw_table(obs, h1, size);
  Frame f;
  f.registered = true;
  for (int k = 0; k < 9; ++k) f.homography[static_cast<std::size_t>(k)] = h1(k / 3, k % 3);
  const auto grid = project_grid(f, 5, 17.0, 148.5, 210.0);
  ASSERT_FALSE(grid.empty());
  for (const auto& p : grid) {
    const cv::Vec3b px = img.at<cv::Vec3b>(static_cast<int>(p.cy), static_cast<int>(p.cx) + 5);
    if (p.name == "f6") EXPECT_GT(px[2], 150) << "the red die is under its cell's projection";
    else EXPECT_GT(px[0] + px[1] + px[2], 600) << p.name << ": paper";
  }
}

// The window draws only when something changed: the first frame, input (and `settle`
// frames after it), a changed model, a blinking text field at its rate; otherwise it
// waits (idle_poll_s, or busy_poll_s while a background job runs).
TEST(ViewModel, RedrawPolicyDrawsOnInputOrChangeAndOtherwiseWaits) {
  RedrawPolicy::Params p;
  p.settle = 2;
  p.blink_hz = 4;
  p.idle_poll_s = 0.1;
  p.busy_poll_s = 0.02;
  RedrawPolicy r(p);
  EXPECT_EQ(r.wait_s(false, false, 0.0), 0.0) << "the first frame is due";
  EXPECT_TRUE(r.should_draw(false, false, 0.0)) << "the first frame";
  EXPECT_DOUBLE_EQ(r.wait_s(false, false, 0.0), 0.1);
  EXPECT_DOUBLE_EQ(r.wait_s(false, true, 0.0), 0.02) << "a hint or calibration may finish: look more often";
  int drawn = 0;
  for (int i = 0; i < 100; ++i) drawn += r.should_draw(false, false, 0.01 * i);
  EXPECT_EQ(drawn, 0) << "nothing changed: nothing drawn";
  EXPECT_TRUE(r.should_draw(true, false, 1.0)) << "a new picture or view";
  EXPECT_FALSE(r.should_draw(false, false, 1.01));
  r.input();
  EXPECT_EQ(r.wait_s(false, false, 1.02), 0.0);
  EXPECT_TRUE(r.should_draw(false, false, 1.02));
  EXPECT_TRUE(r.should_draw(false, false, 1.03)) << "settle frames after the input";
  EXPECT_FALSE(r.should_draw(false, false, 1.04));
  // A text field being typed in: its cursor blinks at 4 Hz, no faster.
  drawn = 0;
  for (int i = 0; i <= 100; ++i) drawn += r.should_draw(false, true, 2.0 + 0.01 * i);  // one second
  EXPECT_GE(drawn, 4);
  EXPECT_LE(drawn, 5);
  EXPECT_LE(r.wait_s(true, false, 3.0), 0.25);
}

// (robust23) The game database that cannot be opened: what to do fits the cause (before, every
// cause was told "start with --db FILE on a writable disk"), and errors are listed first.
TEST(ViewModel, ADatabaseAlertSaysWhatToDoForItsCause) {
  using hexdice::gui::database_alert;
  const std::string p = "/tmp/g.sqlite";
  const auto locked = database_alert(p, "the database " + p + " is locked by another writer (waited 2000 ms); nothing was written");
  EXPECT_NE(locked.todo.find("another program"), std::string::npos) << locked.todo;
  const auto damaged = database_alert(p, p + " is not a hexdice game database (file is not a database)");
  EXPECT_NE(damaged.todo.find("left as it is"), std::string::npos) << damaged.todo;
  const auto full = database_alert(p, "the disk holding " + p + " is full; nothing was written");
  EXPECT_NE(full.todo.find("free some space"), std::string::npos) << full.todo;
  const auto ro = database_alert(p, "the database " + p + " is read-only; cannot record games into it (nothing was written)");
  EXPECT_NE(ro.todo.find("can write to"), std::string::npos) << ro.todo;
  for (const auto* a : {&locked, &damaged, &full, &ro}) {
    EXPECT_EQ(a->severity, hexdice::gui::Severity::Error);
    EXPECT_EQ(a->seen.rfind("the game database " + p + " cannot be opened: ", 0), 0u) << a->seen;
  }
  EXPECT_NE(locked.todo, damaged.todo);
  EXPECT_NE(damaged.todo, ro.todo);
  // Errors first, then warnings, then notes; the newest first within each.
  std::vector<hexdice::gui::Alert> v(5);
  v[0].severity = hexdice::gui::Severity::Error;
  v[1].severity = hexdice::gui::Severity::Info;
  v[2].severity = hexdice::gui::Severity::Warning;
  v[3].severity = hexdice::gui::Severity::Error;
  v[4].severity = hexdice::gui::Severity::Info;
  EXPECT_EQ(hexdice::gui::alert_order(v), (std::vector<int>{3, 0, 2, 4, 1}));
}
