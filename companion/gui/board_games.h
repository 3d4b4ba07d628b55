// ImGui drawing of the other rulesets' boards (view model: game_view.h).
#pragma once

#include <imgui.h>

#include "companion/gui/game_view.h"

namespace hexdice::gui {

class App;

// Where the board is drawn: the centre hex's centre on screen and the hex size (px).
struct BoardGeometry {
  ImVec2 centre;
  float size = 10;
  ImVec2 at(double x, double y) const {
    return ImVec2(centre.x + static_cast<float>(x) * size, centre.y + static_cast<float>(y) * size);
  }
};

// The game-specific layer drawn over the cells: labels and pieces.
void draw_wizardhex_board(ImDrawList* dl, const GameBoardView& v, const BoardGeometry& g);
void draw_hexadecimal_board(ImDrawList* dl, const GameBoardView& v, const BoardGeometry& g);

// The Board panel and the History (replay) panel of a Wizard Hex or Hexa Decimal game.
// Each returns false (drawing nothing) when no such game is open: the dispatch at the top
// of panel_board / panel_history.
bool panel_board_game(App& app);
bool panel_history_game(App& app);
// The History panel's list of logged games of every ruleset (panel_history.cpp), also shown
// under a Wizard Hex / Hexa Decimal record.
void history_games_table(App& app, float height = 0);

}  // namespace hexdice::gui
