// House rules of the shown game (rules.md "choice" items), read-only: they are fixed
// when a game starts and stored with it.
#include <imgui.h>

#include "companion/gui/app.h"

namespace hexdice::gui {

void panel_rules(App& app) {
  bool* open = app.toggles.open("House rules");
  if (!*open) return;
  first_use_layout("House rules", 636, 772, 366, 120);
  if (!ImGui::Begin("House rules", open)) { ImGui::End(); return; }
  app.ui.window("House rules");
  const Position* p = app.board_position();
  if (!p) { ImGui::TextDisabled("No game."); ImGui::End(); return; }
  const HouseRules& r = p->rules();
  auto row = [&](const char* name, bool on) {
    ImGui::BulletText("%s: %s", name, on ? "on" : "off");
    app.ui.label(name);
  };
  row("Archer star: free path", r.archer_star_free_path);
  row("Ranged attacks need a clear line", r.ranged_needs_clear_line);
  row("Merge sums the faces", r.merge_sum);
  ImGui::End();
}

}  // namespace hexdice::gui
