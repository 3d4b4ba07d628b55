#include "companion/gui/app.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <unistd.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <opencv2/imgcodecs.hpp>

#include "calibration/calibration.h"
#include "companion/gui/game_view.h"
#include "companion/record/sample_game.h"
#include "core/json_io.h"

namespace hexdice::gui {

namespace fs = std::filesystem;

namespace {
std::set<std::string> g_alone;  // panels that overlapped no other window in the last frame
}

void panel_backgrounds(bool opaque) {
  g_alone.clear();
  if (opaque) return;
  ImGuiContext& g = *GImGui;
  std::vector<ImGuiWindow*> shown;
  for (ImGuiWindow* w : g.Windows)
    if (w->Active && !w->Hidden && !(w->Flags & ImGuiWindowFlags_ChildWindow)) shown.push_back(w);
  // Popups, menus and tooltips are drawn on top with their own background: they do not count.
  const auto on_top = [](const ImGuiWindow* w) { return (w->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip)) != 0; };
  for (ImGuiWindow* w : shown) {
    if (on_top(w)) continue;
    bool alone = true;
    for (ImGuiWindow* o : shown)
      if (o != w && !on_top(o) && w->Rect().Overlaps(o->Rect())) alone = false;
    if (alone) g_alone.insert(w->Name);
  }
}

void first_use_layout(const char* title, float x, float y, float w, float h) {
  if (g_alone.count(title)) ImGui::SetNextWindowBgAlpha(0.0f);
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  const float menu = ImGui::GetFrameHeight();  // the main menu bar's height
  const float sx = d.x > 0 ? d.x / 1600.0f : 1.0f, sy = d.y > menu ? (d.y - menu) / (900.0f - 22.0f) : 1.0f;
  // y is given below a 22 px menu bar in the design; keep the gap of 8 px from the bar.
  ImGui::SetNextWindowPos(ImVec2(x * sx, menu + (y - 22.0f) * sy), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(w * sx, h * sy), ImGuiCond_FirstUseEver);
}

void text_wrapped_coloured(float r, float g, float b, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(r, g, b, 1));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

std::string UiDump::to_json() const {
  Json j = Json::array();
  for (const auto& w : windows) j.push_back({{"title", w.title}, {"labels", w.labels}});
  return j.dump(1);
}

std::string config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  fs::path p = xdg && *xdg ? fs::path(xdg) / "hexdice" : fs::path(home && *home ? home : ".") / ".config" / "hexdice";
  std::error_code ec;
  fs::create_directories(p, ec);
  return p.string();
}

App::App(const Options& o) {
  settings.db_path = o.db_path.empty() ? config_dir() + "/games.sqlite" : o.db_path;
  auto opened = record::RecordDb::open(settings.db_path);
  if (opened)
    db = std::move(*opened);
  else
    db_error = opened.error();
  if (!db) alerts.push_back(database_alert(settings.db_path, db_error));
  refresh_history();

  // The bundled demo frames (labelled renders): the picture when no camera is connected.
  const fs::path scenes = fs::path(o.source_dir) / "data" / "fixtures" / "scenes";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(scenes, ec))
    if (e.path().extension() == ".json") demo_labels.push_back(e.path().string());
  std::sort(demo_labels.begin(), demo_labels.end());

  opt_ = o;
  if (!o.solo.empty()) start_solo(o.solo, o.seed);
  const bool own_source = !o.source.empty() || o.camera >= 0 || !o.observations.empty();
  if (!o.no_live && (own_source || !solo)) {
    LiveOptions lo;
    lo.fps = o.fps;
    lo.last_frame = o.last_frame;
    lo.calibrate_camera = o.calibrate_camera;
    lo.commands = o.commands;
    lo.db_path = settings.db_path;
    lo.on_picture = o.wake;
    std::string start = o.start;
    if (!o.source.empty()) lo.source = o.source;
    else if (o.camera >= 0) lo.source = std::to_string(o.camera);
    else if (!o.observations.empty()) lo.observations = o.observations;
    else {  // the bundled demo: the referee replays a recorded game into a throw-away record
      const fs::path demo = fs::path(o.source_dir) / "data" / "demo";
      lo.observations = (demo / "observations").string();
      lo.commands = (demo / "commands.txt").string();
      start = (demo / "start.json").string();
      demo_db_ = (fs::temp_directory_path() / ("hexdice-demo-" + std::to_string(::getpid()) + ".sqlite")).string();
      fs::remove(demo_db_, ec);
      lo.db_path = demo_db_;
    }
    if (own_source) {
      // The reader's calibration: --calib FILE (a missing file is where Save will write).
      lo.calib_path = o.calib.empty() ? config_dir() + "/calibration.json" : o.calib;
      std::error_code fe;
      if (fs::exists(lo.calib_path, fe)) {
        auto c = calibration::load_calibration(lo.calib_path);
        if (c) lo.calib = std::move(*c);
        else live_error = c.error();
      }
      // No --start and nothing to resume: the game begins with the setup phase.
      SetupConfig sc;
      sc.players = {Player{"red", 0}, Player{"blue", 3}};
      if (!o.setup.empty()) {
        std::ifstream in(o.setup);
        const Json j = Json::parse(in, nullptr, false);
        auto parsed = j.is_discarded() ? Result<SetupConfig>(Error{"not valid JSON"}) : setup_config_from_json(j);
        if (parsed) sc = std::move(*parsed);
        else live_error = o.setup + ": " + parsed.error();
      }
      lo.setup = sc;
    }
    if (!start.empty()) {
      std::ifstream in(start);
      std::stringstream ss;
      ss << in.rdbuf();
      auto pos = parse_position(ss.str());
      if (pos) lo.start = std::move(*pos);
      else live_error = start + ": " + pos.error();
    }
    if (live_error.empty()) {
      auto l = LiveLoop::open(lo);
      if (l) live = std::move(*l);
      else live_error = l.error();
    }
    camera_open = live && live->live();
    if (!live && !db && live_error.find(lo.db_path) != std::string::npos)  // the database's own alert says why and what to do
      alert(Severity::Error, "the referee did not start: " + live_error, "the referee needs a game database to log into",
            database_alert(lo.db_path, live_error).todo);
    else if (!live)
      alert(Severity::Error, "the referee did not start: " + live_error,
            "the referee needs a source (camera, video, images or observations) and a game to resume or a --start position",
            "check the source, or give --start POSITION.json; the board and the history work without it");
    else if (!own_source)
      alert(Severity::Info, "no camera connected: the referee replays the bundled demo game (data/demo)",
            "the board panel works without a camera (Ctrl+N: a game on the board, every action logged)",
            "connect a webcam above the printed sheet and start with --camera 0 --start POSITION.json");
  }
  if (!live && !solo) load_demo(0);  // the fixture scenes have nothing to do with a solo game
  if (solo) *toggles.open("History") = false;  // the Solo panel takes its place
  if (o.history && !games.empty()) open_replay(games.front().id);
}

App::~App() {
  live.reset();  // stops the capture thread and the referee's worker first
  if (!demo_db_.empty()) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(demo_db_ + suffix, ec);
  }
}

App::Mode App::mode() const {
  if (replay) return Mode::Replay;
  if (solo) return Mode::Solo;
  if (game) return Mode::Game;
  if (live) return Mode::Referee;
  if (frame_position) return Mode::DemoFrame;
  return Mode::None;
}

void App::send(const std::string& command) {
  if (!live) { status = "no referee running"; return; }
  live->post_command(command);
  status = "sent to the referee: " + command;
}

void App::confirm() {
  switch (mode()) {
    case Mode::Game:
      if (auto a = interaction.confirm()) commit(*a);
      break;
    case Mode::Solo:
      if (auto a = interaction.confirm()) {
        const Position before = solo->position();
        auto r = solo->hero(*a);
        status = r ? describe(before, *a, &*r) : "refused: " + r.error();
        refresh_history();
      }
      break;
    case Mode::Referee:
      if (!interaction.proposed().empty()) {
        const Position& p = rview.position;
        const auto a = interaction.confirm();
        const bool attack = a->target >= 0 && !p.at(a->target).empty() && p.at(a->target).owner != p.at(a->unit).owner &&
                            (a->type == ActionType::Move || a->type == ActionType::Ranged || a->type == ActionType::Special);
        if (attack) send(declare_command(p, *a));
        else status = "do it on the table: " + describe(p, *a) + " (the camera will see it)";
      } else if (!rproposals.empty()) {
        confirm_referee(1);
      }
      break;
    default: break;
  }
}

void App::confirm_referee(int number) { send(confirm_command(number)); }

void App::reject() {
  if (!interaction.proposed().empty()) interaction.reject();
  else if (mode() == Mode::Referee && !rproposals.empty()) send("reject");
  else interaction.clear();
}

void App::poll_live() {
  if (!live) return;
  live->set_shown_size(shown_w, shown_h);
  if (live->latest(picture)) {
    image = picture.image;
    shown_image = picture.shown;
    frame = picture.frame;
    ++image_version;
  }
  if (grid_version != picture.version) {  // the grid follows the sheet: one projection per pose
    grid = project_grid(frame, rview.position.num_players() ? rview.position.radius() : 5, 17.0, 148.5, 210.0);
    grid_version = picture.version;
  }
  rview = live->view();
  {
    const auto warnings = live->frame_warnings();
    rlog = log_with_frame_warnings(rview.log, warnings, live->frame_warning_count() - static_cast<int>(warnings.size()));
  }
  rproposals = referee_proposals(rview);
  live->poll_calibration();
  calib = live->calib_view();
}

ViewStamp App::stamp() const {
  ViewStamp s;
  s.image = image_version;
  s.frame = rview.frame;
  s.ply = rview.ply;
  s.setup_events = rview.setup_events;
  s.hidden = rview.hidden_cells;
  s.log = rlog.size();
  s.proposals = rview.proposals.size();
  s.motion = rview.motion;
  s.stable = rview.stable;
  s.finished = rview.finished;
  s.board_found = rview.board_found;
  s.in_setup = rview.in_setup;
  s.alert = rview.alert;
  s.prompt = rview.setup_prompt;
  s.status = status;
  s.alerts = alerts.size();
  s.games = games.size();
  s.solo_steps = solo ? solo->last_steps().size() : 0;
  s.hint_thinking = hint.view().thinking;
  s.hint_shown = hint.view().shown;
  s.hint = hint.view().text;
  const CalibView& c = calib;
  s.calib = std::to_string(c.session) + std::to_string(c.progress.frames_seen) + "/" + std::to_string(c.progress.frames_kept) +
            "/" + std::to_string(c.last_corners) + std::to_string(c.camera_running) + std::to_string(c.camera.has_value()) +
            std::to_string(c.colors_running) + std::to_string(c.colors.has_value()) + c.camera_error + "|" + c.colors_error +
            "|" + c.saved + "|" + c.warning + "|" + c.loaded_summary;
  return s;
}

bool App::busy() const { return hint.view().thinking || calib.camera_running || calib.colors_running || calib.session; }

void App::restart_demo() {
  if (demo_db_.empty()) return;
  live.reset();
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(demo_db_ + suffix, ec);
  const fs::path demo = fs::path(opt_.source_dir) / "data" / "demo";
  LiveOptions lo;
  lo.fps = opt_.fps;
  lo.observations = (demo / "observations").string();
  lo.commands = (demo / "commands.txt").string();
  lo.db_path = demo_db_;
  lo.on_picture = opt_.wake;
  std::ifstream in(demo / "start.json");
  std::stringstream ss;
  ss << in.rdbuf();
  if (auto pos = parse_position(ss.str())) lo.start = std::move(*pos);
  auto l = LiveLoop::open(lo);
  if (l) live = std::move(*l);
  else status = l.error();
  picture = LivePicture{};
  interaction.clear();
  hint.clear();
}

void App::request_hint() {
  const Position* p = board_position();
  const Mode m = mode();
  if (!p || (m != Mode::Game && m != Mode::Referee && m != Mode::Solo)) {
    status = "a hint needs a game in play";
    return;
  }
  if (m == Mode::Solo && !solo->game().heroes_turn()) { status = "the enemy is to act: press Enemy turn"; return; }
  hint.request(*p);
  status = "thinking about a hint for " + p->player(p->to_move()).id + "...";
}

void App::start_solo(const std::string& path, std::uint64_t seed) {
  std::ifstream in(path);
  if (!in) { alert(Severity::Error, path + ": cannot open", "solo play needs a scenario (data/scenarios/*.json)", "check the path"); return; }
  std::stringstream ss;
  ss << in.rdbuf();
  auto sc = solo::parse_scenario(ss.str());
  if (!sc) { alert(Severity::Error, path + ": " + sc.error(), "a scenario as docs/scenarios.md describes", "fix the file"); return; }
  // Every step is logged; an unfinished solo game of this scenario and seed in the
  // database is resumed (the same command line continues the game), else a new one starts.
  solo.reset();
  if (db) {
    auto resumed = SoloSession::resume(*sc, *db, seed);
    if (!resumed)
      alert(Severity::Error, "the unfinished solo game cannot be resumed: " + resumed.error(),
            "a solo game resumes only from a record that replays", "a new solo game starts instead");
    else if (*resumed)
      solo = std::move(**resumed);
  }
  if (!solo) {
    auto s = SoloSession::start(*sc, seed, db.get());
    if (!s) { alert(Severity::Error, path + ": " + s.error(), "a scenario whose setup is legal", "fix the file"); return; }
    solo = std::move(*s);
  }
  if (!db)
    alert(Severity::Warning, "this solo game is not logged: no database", "games are logged only when the database is writable",
          "start with --db FILE on a writable disk");
  refresh_history();
  solo_path = path;
  solo_seed = seed;
  interaction.clear();
  hint.clear();
}

void App::enemy_turn(bool from_camera) {
  if (!solo) return;
  std::optional<int> die;
  if (from_camera) {
    last_physical = read_physical_roll(picture);
    if (!last_physical.face) { status = last_physical.why; return; }
    die = last_physical.face;
  }
  const auto steps = solo->enemy_turn(die);
  status = !solo->record_error().empty() ? "not logged: " + solo->record_error()
           : steps.empty()              ? "it is not the enemy's turn"
                                        : steps.front().roll_line;
  refresh_history();
  interaction.clear();
}

void App::alert(Severity s, std::string seen, std::string allowed, std::string todo) {
  alerts.push_back({s, std::move(seen), std::move(allowed), std::move(todo)});
}

const Position* App::board_position() const {
  if (replay) {
    if (cached_game_ != replay->game || cached_ply_ != replay->ply) {
      cached_game_ = replay->game;
      cached_ply_ = replay->ply;
      auto p = db ? db->position_at(replay->game, replay->ply) : replay->record.position_at(replay->ply);
      if (!p) p = replay->record.position_at(replay->ply);
      cached_.reset();
      if (p) cached_ = std::move(*p);
    }
    return cached_ ? &*cached_ : nullptr;
  }
  if (solo) return &solo->position();
  if (game) return &game->record().current();
  if (live) return rview.position.num_players() ? &rview.position : nullptr;
  if (frame_position) return &*frame_position;
  return nullptr;
}

std::vector<std::string> App::board_names() const {
  if (replay) return replay->record.header().names;
  if (game) return game->record().header().names;
  return {};
}

BoardView App::board_view() const {
  const Position* p = board_position();
  return p ? build_board_view(*p, board_names(), settings.palette) : BoardView{};
}

void App::new_game(std::uint64_t seed) {
  if (!db) { status = "no database: " + db_error; return; }
  SampleOptions so;
  so.seed = seed;
  const GameRecord sample = sample_game(so);
  auto start = sample.start_position();
  if (!start) { status = start.error(); return; }
  RecordHeader h;
  h.event = "Companion game";
  h.names = sample.header().names;
  h.start_time = record::utc_now();
  auto rec = GameRecord::from_position(*start, h);
  if (!rec) { status = rec.error(); return; }
  auto g = record::RecordedGame::create(*db, *rec);
  if (!g) { status = g.error(); return; }
  game = std::move(*g);
  replay.reset();
  interaction.clear();
  status = "game " + std::to_string(game->id()) + " started: " + game->record().current().player(
                                                                      game->record().current().to_move()).id + " to move";
  refresh_history();
}

void App::commit(const Action& a) {
  if (!playing()) { status = "not playing: start a game (Game > New game)"; return; }
  const Position before = game->record().current();
  auto out = game->act(a);
  if (!out) {
    status = "refused: " + out.error();
    alert(Severity::Warning, "declared " + describe(before, a), out.error(), "choose another action");
    return;
  }
  status = describe(before, a, &*out);
  if (out->winner >= 0) {
    auto r = game->record().natural_result();
    if (auto st = game->finish(r, record::utc_now()); !st) status += " (" + st.error() + ")";
    else status += " - " + before.player(out->winner).id + " wins";
  }
  refresh_history();
}

void App::takeback() {
  if (mode() == Mode::Referee) { send("takeback"); interaction.clear(); return; }
  if (mode() == Mode::Solo) { status = "solo games have no takeback"; return; }
  if (!playing()) return;
  auto st = game->takeback();
  status = st ? "takeback: ply " + std::to_string(game->record().ply() + 1) + " undone" : "takeback refused: " + st.error();
  interaction.clear();
}

void App::resign() {
  if (!playing() || game->record().finished()) return;
  const Position& p = game->record().current();
  // The player to move resigns; with two players the other one wins.
  GameResult r{ResultReason::Resignation, p.num_players() == 2 ? p.player(p.next_player(p.to_move())).id : ""};
  auto st = game->finish(r, record::utc_now());
  status = st ? p.player(p.to_move()).id + " resigned" : st.error();
  refresh_history();
}

void App::refresh_history() {
  if (!db) return;
  auto g = db->list_games();
  if (g) games = std::move(*g);
  else status = g.error();
}

void App::open_replay(std::int64_t id) {
  if (!db) return;
  if (auto rs = db->game_ruleset(id); rs && *rs != "hexdice") {  // Wizard Hex, Hexa Decimal: their own board
    Status st = open_logged_game(*db, id);
    status = st ? "game " + std::to_string(id) + " (" + *rs + ") on the board" : st.error();
    if (st) replay.reset();
    return;
  }
  set_active_game(std::nullopt);  // a Hex Dice game: its own board again
  auto rec = db->load_game(id);
  if (!rec) { status = rec.error(); return; }
  if (!rec->in_play()) { status = "game " + std::to_string(id) + " never left the setup"; return; }
  replay = Replay{id, std::move(*rec), 0, {}};
  replay->stats = stats_table(game_stats(replay->record));
  replay->ply = replay->plies();
  interaction.clear();
}

std::string App::export_text(std::int64_t id, const std::string& path) {
  if (!db) return "no database";
  auto rec = db->load_game(id);
  if (!rec) return rec.error();
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << to_text(*rec);
    if (!out) return "cannot write " + path;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);  // never a partial file
  return ec ? "cannot write " + path + ": " + ec.message() : "";
}

void App::add_sample_games(int n) {
  if (!db) return;
  for (int i = 0; i < n; ++i) {
    SampleOptions so;
    so.seed = static_cast<std::uint64_t>(games.size()) + 100 + static_cast<std::uint64_t>(i);
    so.players = (i % 3 == 2) ? 3 : 2;
    if (auto r = db->insert_game(sample_game(so)); !r) { status = r.error(); break; }
  }
  refresh_history();
}

void App::load_demo(int index) {
  if (demo_labels.empty()) return;
  const int n = static_cast<int>(demo_labels.size());
  demo_index = ((index % n) + n) % n;
  const std::string& label = demo_labels[static_cast<std::size_t>(demo_index)];
  auto f = frame_from_scene_label(label);
  if (!f) { status = f.error(); return; }
  frame = std::move(*f);
  const std::string jpg = label.substr(0, label.size() - 5) + ".jpg";
  image = cv::imread(jpg, cv::IMREAD_COLOR);
  shown_image = cv::Mat();
  frame.source = fs::path(jpg).filename().string() + " (demo)";
  ++image_version;
  auto pos = position_from_frame(frame, 5);
  frame_position.reset();
  if (pos) frame_position = std::move(*pos);
}

void App::poll_camera() {
  if (live || !camera_open) return;
  cv::Mat m;
  if (camera.read(m) && !m.empty()) {
    image = m;
    shown_image = cv::Mat();
    frame = Frame{};
    frame.source = "camera";
    frame.width = m.cols;
    frame.height = m.rows;
    ++image_version;
  }
}

}  // namespace hexdice::gui
