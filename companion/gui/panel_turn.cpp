// Turn and phase: who is to move, the ply, whether the game is over.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_turn(App& app) {
  bool* open = app.toggles.open("Turn");
  if (!*open) return;
  first_use_layout("Turn", 636, 30, 366, 90);
  if (!ImGui::Begin("Turn", open)) { ImGui::End(); return; }
  app.ui.window("Turn");
  const BoardView v = app.board_view();
  std::string phase = "no game";
  int ply = 0;
  if (app.replaying()) { phase = "replay"; ply = app.replay->ply; }
  else if (app.playing()) { phase = app.game->record().finished() ? "game over" : "play"; ply = app.game->record().ply(); }
  else if (app.mode() == App::Mode::Solo) {
    phase = app.solo->game().over() ? "solo: " + app.solo->game().result_text()
            : "solo round " + std::to_string(app.solo->game().round()) + (app.solo->game().heroes_turn() ? ": your turn" : ": Enemy Turn");
  } else if (app.mode() == App::Mode::Referee) {
    phase = app.rview.finished ? "game over: " + app.rview.result : std::string("referee live");
    ply = app.rview.ply;
  } else if (v.radius) phase = "demo";
  if (v.to_move >= 0) {
    const Rgb c = v.players[static_cast<std::size_t>(v.to_move)].colour;
    ImGui::TextColored(ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, 1), "%s", v.turn_text.c_str());
  } else {
    ImGui::TextUnformatted(v.turn_text.empty() ? "-" : v.turn_text.c_str());
  }
  ImGui::Text("Phase: %s   Ply: %d", phase.c_str(), ply);
  app.ui.label("phase " + phase);
  ImGui::End();
}

}  // namespace hexdice::gui
