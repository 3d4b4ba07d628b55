// Wizard Hex on the digital board: the seats' names around the 19 spaces and every token
// as a die seen from above, in its element's die colour, its level as pips (1 Bronze,
// 2 Silver, 3 Gold) with a ring in the level's metal.
#include <cmath>

#include "companion/gui/board_games.h"

namespace hexdice::gui {

static ImU32 rgba(Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

void draw_wizardhex_board(ImDrawList* dl, const GameBoardView& v, const BoardGeometry& g) {
  const float font = ImGui::GetFontSize();
  for (const GameLabelView& l : v.labels) {
    const ImVec2 p = g.at(l.x, l.y);
    const ImVec2 ts = ImGui::CalcTextSize(l.text.c_str());
    dl->AddText(ImVec2(p.x - ts.x * 0.5f, p.y - ts.y * 0.5f), rgba(l.colour.r + l.colour.g + l.colour.b < 200 ? Rgb{160, 160, 160} : l.colour),
                l.text.c_str());
  }
  static constexpr std::array<Rgb, 4> kMetal = {{{0, 0, 0}, {205, 127, 50}, {192, 192, 200}, {255, 200, 40}}};
  for (const GamePieceView& pc : v.pieces) {
    const GameCellView& c = v.cells[static_cast<std::size_t>(pc.cell)];
    const ImVec2 p = g.at(c.x, c.y);
    const float h = g.size * 0.5f;
    dl->AddRectFilled(ImVec2(p.x - h, p.y - h), ImVec2(p.x + h, p.y + h), rgba(pc.body), g.size * 0.14f);
    dl->AddRect(ImVec2(p.x - h - 2, p.y - h - 2), ImVec2(p.x + h + 2, p.y + h + 2),
                rgba(kMetal[static_cast<std::size_t>(std::clamp(pc.level, 0, 3))]), g.size * 0.16f, 0, std::max(2.0f, g.size * 0.08f));
    // Pips of faces 1-3 on the diagonal.
    const float pip = std::max(1.5f, g.size * 0.09f);
    const ImU32 ink = rgba(pc.ink);
    if (pc.level == 1 || pc.level == 3) dl->AddCircleFilled(p, pip, ink);
    if (pc.level >= 2) {
      dl->AddCircleFilled(ImVec2(p.x - h * 0.55f, p.y - h * 0.55f), pip, ink);
      dl->AddCircleFilled(ImVec2(p.x + h * 0.55f, p.y + h * 0.55f), pip, ink);
    }
    (void)font;
  }
}

}  // namespace hexdice::gui
