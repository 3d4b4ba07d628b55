// Hexa Decimal on the digital board: the hole, the grey roads (cell fills), the segment
// names, and every piece as a disc in its owner's colour with its letter (P Pawn,
// S Soldier, Pr Prince, D Disruptor, E Elephant, G Guard, St Star, W Wizard, PM Pawn
// Master, K King); Kings get a second ring.
#include <cmath>

#include "companion/gui/board_games.h"

namespace hexdice::gui {

static ImU32 rgba(Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

void draw_hexadecimal_board(ImDrawList* dl, const GameBoardView& v, const BoardGeometry& g) {
  for (Hex h : v.holes) {
    const ImVec2 p = g.at(1.5 * h.q, 1.7320508 * (h.r + h.q / 2.0));
    ImVec2 pts[6];
    for (int k = 0; k < 6; ++k) {
      const float a = static_cast<float>(k) * 3.14159265f / 3.0f;
      pts[k] = ImVec2(p.x + g.size * 0.97f * std::cos(a), p.y + g.size * 0.97f * std::sin(a));
    }
    dl->AddConvexPolyFilled(pts, 6, IM_COL32(12, 12, 14, 255));
  }
  const float font = ImGui::GetFontSize();
  for (const GameLabelView& l : v.labels) {
    const ImVec2 p = g.at(l.x, l.y);
    const ImVec2 ts = ImGui::CalcTextSize(l.text.c_str());
    dl->AddText(ImVec2(p.x - ts.x * 0.5f, p.y - ts.y * 0.5f), rgba(l.colour), l.text.c_str());
  }
  for (const GameCellView& c : v.cells) {
    if (c.note.empty()) continue;
    const ImVec2 p = g.at(c.x, c.y);
    dl->AddText(nullptr, font * 0.7f, ImVec2(p.x - g.size * 0.45f, p.y + g.size * 0.45f), IM_COL32(140, 140, 150, 255),
                c.note.c_str());
  }
  for (const GamePieceView& pc : v.pieces) {
    const GameCellView& c = v.cells[static_cast<std::size_t>(pc.cell)];
    const ImVec2 p = g.at(c.x, c.y);
    const float r = g.size * 0.62f;
    dl->AddCircleFilled(p, r, rgba(pc.body));
    dl->AddCircle(p, r, IM_COL32(20, 20, 20, 255), 0, 1.5f);
    if (pc.text == "K") dl->AddCircle(p, r * 0.8f, rgba(pc.ink), 0, 1.5f);
    const float fs = std::min(font * 1.1f, g.size * 0.7f);
    const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(fs, 1e9f, 0, pc.text.c_str());
    dl->AddText(nullptr, fs, ImVec2(p.x - ts.x * 0.5f, p.y - ts.y * 0.5f), rgba(pc.ink), pc.text.c_str());
  }
}

}  // namespace hexdice::gui
