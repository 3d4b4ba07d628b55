#include "companion/gui/app.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <opencv2/imgcodecs.hpp>

#include "companion/record/sample_game.h"
#include "core/json_io.h"

namespace hexdice::gui {

namespace fs = std::filesystem;

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
  if (!db)
    alert(Severity::Error, "the game database " + settings.db_path + " cannot be opened: " + db_error,
          "games are logged only when the database is writable", "start with --db FILE on a writable disk");
  refresh_history();

  // The bundled demo frames (labelled renders): the picture when no camera is connected.
  const fs::path scenes = fs::path(o.source_dir) / "data" / "fixtures" / "scenes";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(scenes, ec))
    if (e.path().extension() == ".json") demo_labels.push_back(e.path().string());
  std::sort(demo_labels.begin(), demo_labels.end());

  if (o.camera >= 0) {
    camera_open = camera.open(o.camera);
    if (!camera_open)
      alert(Severity::Warning, "camera " + std::to_string(o.camera) + " does not open",
            "the referee needs a camera looking down at the sheet", "check the cable and the index (--camera N)");
  }
  if (!camera_open) {
    load_demo(0);
    alert(Severity::Info, "no camera connected: showing the bundled demo frames",
          "the board panel works without a camera (click to play, every action is logged)",
          "connect a webcam above the printed sheet and start with --camera 0");
  }
  if (o.history && !games.empty()) open_replay(games.front().id);
  (void)o.demo;  // the demo is what shows whenever no game is being played
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
  if (game) return &game->record().current();
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
  auto rec = db->load_game(id);
  if (!rec) { status = rec.error(); return; }
  if (!rec->in_play()) { status = "game " + std::to_string(id) + " never left the setup"; return; }
  replay = Replay{id, std::move(*rec), 0};
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
  frame.source = fs::path(jpg).filename().string() + " (demo)";
  ++image_version;
  auto pos = position_from_frame(frame, 5);
  frame_position.reset();
  if (pos) frame_position = std::move(*pos);
}

void App::poll_camera() {
  if (!camera_open) return;
  cv::Mat m;
  if (camera.read(m) && !m.empty()) {
    image = m;
    frame = Frame{};
    frame.source = "camera";
    frame.width = m.cols;
    frame.height = m.rows;
    ++image_version;
  }
}

}  // namespace hexdice::gui
