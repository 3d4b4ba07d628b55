#include "vision/reader_geometry.h"

#include <nlohmann/json.hpp>

namespace hexdice::vision {

namespace {

constexpr double kSqrt3 = 1.7320508075688772;

std::string cell_name(Hex h, int radius) {
  // Column letter by q (a = westmost), row counted from the top cell of that column.
  const int col = h.q + radius;
  const int top_r = std::max(-radius, -h.q - radius);
  return std::string(1, static_cast<char>('a' + col)) + std::to_string(h.r - top_r + 1);
}

MarkerMm square_marker(int id, double x0, double y0, double side) {
  MarkerMm m;
  m.id = id;
  m.corners = {Point{x0, y0}, Point{x0 + side, y0}, Point{x0 + side, y0 + side}, Point{x0, y0 + side}};
  return m;
}

void fill_cells(SheetLayout& s) {
  s.cells.clear();
  for (int q = -s.radius; q <= s.radius; ++q)
    for (int r = -s.radius; r <= s.radius; ++r) {
      const Hex h{q, r};
      if (h.length() > s.radius) continue;
      s.cells.push_back({h, cell_name(h, s.radius), reader_cell_centre(s, h)});
    }
}

}  // namespace

Point reader_cell_centre(const SheetLayout& s, Hex h) {
  return {s.centre_mm.x + s.hex_size_mm * 1.5 * h.q,
          s.centre_mm.y + s.hex_size_mm * kSqrt3 * (h.r + h.q / 2.0)};
}

SheetLayout reader_standard_sheet() {
  SheetLayout s;  // defaults of sheet.h are the A3 sheet
  const double side = 40.0, inset = 10.0;
  s.markers = {square_marker(0, inset, inset, side),
               square_marker(1, s.width_mm - inset - side, inset, side),
               square_marker(2, s.width_mm - inset - side, s.height_mm - inset - side, side),
               square_marker(3, inset, s.height_mm - inset - side, side)};
  fill_cells(s);
  // A white patch in the bottom margin between markers 3 and 2 (below the map).
  s.white_patch = {Point{120.0, 385.0}, Point{177.0, 405.0}};
  return s;
}

Result<SheetLayout> reader_sheet_from_json_text(const std::string& text) {
  using nlohmann::json;
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{"board layout is not valid JSON"};
  SheetLayout s = reader_standard_sheet();
  try {
    auto num = [&](const char* a, const char* b, double& out) {
      if (j.contains(a) && j[a].is_number()) out = j[a].get<double>();
      else if (b && j.contains(b) && j[b].is_number()) out = j[b].get<double>();
    };
    if (j.contains("paper") && j["paper"].is_string()) s.paper = j["paper"].get<std::string>();
    if (j.contains("paper") && j["paper"].is_object()) {
      const auto& p = j["paper"];
      if (p.contains("width_mm")) s.width_mm = p["width_mm"].get<double>();
      if (p.contains("height_mm")) s.height_mm = p["height_mm"].get<double>();
      if (p.contains("name")) s.paper = p["name"].get<std::string>();
    }
    num("width_mm", nullptr, s.width_mm);
    num("height_mm", nullptr, s.height_mm);
    num("hex_size_mm", "hex_size", s.hex_size_mm);
    num("die_height_mm", nullptr, s.die_height_mm);
    if (j.contains("radius")) s.radius = j["radius"].get<int>();
    if (s.radius < 0 || s.radius > 20 || !(s.hex_size_mm > 0))
      return Error{"board layout: radius or hex size out of range"};
    for (const char* key : {"centre_mm", "center_mm"})
      if (j.contains(key)) {
        const auto& c = j[key];
        if (c.is_array() && c.size() == 2) s.centre_mm = {c[0].get<double>(), c[1].get<double>()};
        else if (c.is_object()) s.centre_mm = {c["x"].get<double>(), c["y"].get<double>()};
      }
    auto point = [](const json& p) {
      if (p.is_array()) return Point{p.at(0).get<double>(), p.at(1).get<double>()};
      return Point{p.at("x").get<double>(), p.at("y").get<double>()};
    };
    if (j.contains("markers") && j["markers"].is_array()) {
      s.markers.clear();
      for (const auto& m : j["markers"]) {
        MarkerMm mm;
        mm.id = m.at("id").get<int>();
        const auto& c = m.at("corners");
        if (!c.is_array() || c.size() != 4) return Error{"board layout: a marker needs 4 corners"};
        for (std::size_t i = 0; i < 4; ++i) mm.corners[i] = point(c[i]);
        s.markers.push_back(mm);
      }
    }
    fill_cells(s);
    if (j.contains("cells") && j["cells"].is_array() && !j["cells"].empty()) {
      s.cells.clear();
      for (const auto& c : j["cells"]) {
        CellMm cell;
        cell.hex = {c.at("q").get<int>(), c.at("r").get<int>()};
        cell.name = c.contains("name") ? c["name"].get<std::string>() : cell_name(cell.hex, s.radius);
        if (c.contains("centre_mm")) cell.centre = point(c["centre_mm"]);
        else if (c.contains("center_mm")) cell.centre = point(c["center_mm"]);
        else if (c.contains("centre")) cell.centre = point(c["centre"]);
        else cell.centre = reader_cell_centre(s, cell.hex);
        s.cells.push_back(cell);
      }
    }
    if (j.contains("white_patch") && j["white_patch"].is_array() && j["white_patch"].size() == 2)
      s.white_patch = {point(j["white_patch"][0]), point(j["white_patch"][1])};
  } catch (const std::exception& e) {
    return Error{std::string("board layout: ") + e.what()};
  }
  if (s.markers.size() < 2) return Error{"board layout: fewer than two markers"};
  return s;
}

}  // namespace hexdice::vision
