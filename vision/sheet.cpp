#include "vision/sheet.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/board.h"

namespace hexdice::vision {

namespace {

using Json = nlohmann::json;

constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kMaxHexSize = 17.0;      // interfaces.md: the standard hex size
constexpr double kMarkerInset = 10.0;     // from the two nearest sheet edges
constexpr double kMarkerSize = 40.0;
constexpr double kMarkerQuiet = 5.0;      // white kept around a marker, inside the page
constexpr double kPageMargin = 4.0;       // cells stay this far from every page edge
constexpr double kTitleBand = 26.0;       // y 0..26 mm between the top markers holds the title
constexpr double kPatchW = 35.0, kPatchH = 30.0;

struct Rect {
  double x0, y0, x1, y1;
};

// Distance from a point to an axis-aligned rectangle (0 inside).
double rect_distance(Point p, const Rect& r) {
  const double dx = std::max({r.x0 - p.x, 0.0, p.x - r.x1});
  const double dy = std::max({r.y0 - p.y, 0.0, p.y - r.y1});
  return std::hypot(dx, dy);
}

Json pt(Point p) { return Json::array({p.x, p.y}); }

Result<Point> read_pt(const Json& j, const char* what) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number() || !j[1].is_number())
    return Error{std::string(what) + " must be [x, y] in mm"};
  return Point{j[0].get<double>(), j[1].get<double>()};
}

// Whether every cell of the map of this size fits on the page clear of markers,
// the white-balance patches and the title band.
bool fits(const SheetLayout& s, const Board& board, const std::vector<Rect>& keepout) {
  const double hx = s.hex_size_mm, hy = s.hex_size_mm * kSqrt3 / 2.0;
  for (Hex h : board.cells()) {
    const Point c = s.cell_centre(h);
    if (c.x - hx < kPageMargin - 1e-9 || c.x + hx > s.width_mm - kPageMargin + 1e-9) return false;
    if (c.y - hy < kPageMargin - 1e-9 || c.y + hy > s.height_mm - kPageMargin + 1e-9) return false;
    for (const Rect& r : keepout)
      if (rect_distance(c, r) < s.hex_size_mm) return false;  // circumscribed circle: conservative
  }
  return true;
}

}  // namespace

bool paper_size_mm(const std::string& paper, double& width_mm, double& height_mm) {
  if (paper == "a3" || paper == "a4x2") {
    width_mm = 297.0;
    height_mm = 420.0;
  } else if (paper == "letter") {
    width_mm = 215.9;
    height_mm = 279.4;
  } else if (paper == "tabloid") {
    width_mm = 279.4;
    height_mm = 431.8;
  } else {
    return false;
  }
  return true;
}

Point SheetLayout::cell_centre(Hex h) const {
  const Point p = to_pixel(h, hex_size_mm);
  return {centre_mm.x + p.x, centre_mm.y + p.y};
}

std::array<Point, 6> SheetLayout::cell_corners(Hex h) const {
  const Point c = cell_centre(h);
  std::array<Point, 6> out{};
  for (int i = 0; i < 6; ++i) {
    const Point o = corner_offset(i, hex_size_mm);
    out[static_cast<std::size_t>(i)] = {c.x + o.x, c.y + o.y};
  }
  return out;
}

std::optional<Hex> SheetLayout::cell_at(Point mm) const {
  const Hex h = from_pixel({mm.x - centre_mm.x, mm.y - centre_mm.y}, hex_size_mm);
  if (h.length() > radius) return std::nullopt;
  return h;
}

int SheetLayout::cell_index(Hex h) const {
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (cells[i].hex == h) return static_cast<int>(i);
  return -1;
}

std::string die_does_not_fit(double hex_size_mm) {
  const double across = hex_size_mm * kSqrt3;
  if (across >= kDieSideMm - 1e-9) return {};
  char b[200];
  std::snprintf(b, sizeof b, "%.1f mm hexes, %.1f mm across: a %.0f mm die does not fit in a cell, and its dice cannot be read",
                hex_size_mm, across, kDieSideMm);
  return b;
}

namespace {
Result<SheetLayout> fit_sheet(int radius, const std::string& paper);
}

Result<SheetLayout> make_sheet(int radius, const std::string& paper) { return fit_sheet(radius, paper); }

std::string die_fit_warning(const SheetLayout& s) {
  const std::string why = die_does_not_fit(s.hex_size_mm);
  if (why.empty()) return {};
  int largest = s.radius - 1;
  for (; largest >= kMinRadius; --largest) {
    const auto smaller = fit_sheet(largest, s.paper);
    if (smaller && die_does_not_fit(smaller->hex_size_mm).empty()) break;
  }
  double w = 0, h = 0;
  const bool known = paper_size_mm(s.paper, w, h);
  return "a radius-" + std::to_string(s.radius) + " map" + (known ? " on " + s.paper : std::string()) + " has " + why +
         (known && largest >= kMinRadius ? " (radius " + std::to_string(largest) + " is the largest on " + s.paper + ")" : "");
}

namespace {

Result<SheetLayout> fit_sheet(int radius, const std::string& paper) {
  if (radius < kMinRadius || radius > kMaxRadius)
    return Error{"map radius must be between " + std::to_string(kMinRadius) + " and " +
                 std::to_string(kMaxRadius) + ", got " + std::to_string(radius)};
  SheetLayout s;
  if (!paper_size_mm(paper, s.width_mm, s.height_mm))
    return Error{"unknown paper '" + paper + "' (a3, a4x2, letter or tabloid)"};
  s.paper = paper;
  s.radius = radius;
  s.centre_mm = {s.width_mm / 2.0, s.height_mm / 2.0};
  s.marker_size_mm = kMarkerSize;
  const double W = s.width_mm, H = s.height_mm, a = kMarkerInset, b = kMarkerInset + kMarkerSize;
  // id 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left; corners TL, TR, BR, BL.
  const std::array<Point, 4> origins{{{a, a}, {W - b, a}, {W - b, H - b}, {a, H - b}}};
  for (int id = 0; id < 4; ++id) {
    const Point o = origins[static_cast<std::size_t>(id)];
    MarkerMm m;
    m.id = id;
    m.corners = {{{o.x, o.y}, {o.x + kMarkerSize, o.y}, {o.x + kMarkerSize, o.y + kMarkerSize},
                  {o.x, o.y + kMarkerSize}}};
    s.markers.push_back(m);
  }
  // White and grey patches in the bottom band between the bottom markers.
  const double px0 = b + 10.0;
  s.white_patch = {{{px0, H - 12.0 - kPatchH}, {px0 + kPatchW, H - 12.0}}};
  s.grey_patch = {{{W - px0 - kPatchW, H - 12.0 - kPatchH}, {W - px0, H - 12.0}}};
  if (paper == "a4x2")
    s.pages = {{0.0, 0.0, W, H / 2.0}, {0.0, H / 2.0, W, H / 2.0}};
  else
    s.pages = {{0.0, 0.0, W, H}};

  std::vector<Rect> keepout;
  for (const MarkerMm& m : s.markers)
    keepout.push_back({m.corners[0].x - kMarkerQuiet, m.corners[0].y - kMarkerQuiet,
                       m.corners[2].x + kMarkerQuiet, m.corners[2].y + kMarkerQuiet});
  for (const auto& p : {s.white_patch, s.grey_patch})
    keepout.push_back({p[0].x - 3.0, p[0].y - 3.0, p[1].x + 3.0, p[1].y + 3.0});
  keepout.push_back({b + 5.0, 0.0, W - b - 5.0, kTitleBand});

  const auto board = Board::get(radius);
  // Largest size (0.1 mm steps, at most the standard 17 mm) that fits.
  bool ok = false;
  for (int tenths = static_cast<int>(kMaxHexSize * 10); tenths >= 30; --tenths) {
    s.hex_size_mm = tenths / 10.0;
    if (fits(s, *board, keepout)) {
      ok = true;
      break;
    }
  }
  if (!ok) return Error{"a radius-" + std::to_string(radius) + " map does not fit on " + paper};
  for (Hex h : board->cells()) s.cells.push_back({h, board->name(h), s.cell_centre(h)});
  return s;
}

}  // namespace

SheetLayout standard_sheet() {
  auto s = make_sheet(5, "a3");
  HEXDICE_CHECK(s.ok() && s->hex_size_mm == kMaxHexSize);
  return std::move(s).value();
}

std::string to_json_text(const SheetLayout& s) {
  Json j;
  j["format"] = "hexdice-sheet";
  j["version"] = 1;
  j["paper"] = s.paper;
  j["width_mm"] = s.width_mm;
  j["height_mm"] = s.height_mm;
  j["radius"] = s.radius;
  j["orientation"] = "flat-top";
  j["hex_size_mm"] = s.hex_size_mm;
  j["centre_mm"] = pt(s.centre_mm);
  j["die_height_mm"] = s.die_height_mm;
  j["aruco_dictionary"] = s.aruco_dictionary;
  j["marker_size_mm"] = s.marker_size_mm;
  Json markers = Json::array();
  for (const MarkerMm& m : s.markers) {
    Json c = Json::array();
    for (Point p : m.corners) c.push_back(pt(p));
    markers.push_back({{"id", m.id}, {"corners_mm", c}});
  }
  j["markers"] = markers;
  j["white_patch_mm"] = Json::array({pt(s.white_patch[0]), pt(s.white_patch[1])});
  j["grey_patch_mm"] = Json::array({pt(s.grey_patch[0]), pt(s.grey_patch[1])});
  Json pages = Json::array();
  for (const auto& p : s.pages)
    pages.push_back({{"x0_mm", p.x0_mm}, {"y0_mm", p.y0_mm}, {"width_mm", p.width_mm}, {"height_mm", p.height_mm}});
  j["pages"] = pages;
  Json cells = Json::array();
  for (const CellMm& c : s.cells)
    cells.push_back({{"q", c.hex.q}, {"r", c.hex.r}, {"name", c.name}, {"centre_mm", pt(c.centre)}});
  j["cells"] = cells;
  return j.dump(1) + "\n";
}

Result<SheetLayout> sheet_from_json_text(const std::string& text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{"board.json: not valid JSON"};
  if (!j.is_object()) return Error{"board.json: expected an object"};
  try {
    SheetLayout s;
    auto num = [&](const char* key, double& out) -> Status {
      if (!j.contains(key) || !j[key].is_number()) return Error{std::string("board.json: missing number '") + key + "'"};
      out = j[key].get<double>();
      return {};
    };
    if (!j.contains("paper") || !j["paper"].is_string()) return Error{"board.json: missing 'paper'"};
    s.paper = j["paper"].get<std::string>();
    for (auto [key, out] : {std::pair{"width_mm", &s.width_mm}, {"height_mm", &s.height_mm},
                            {"hex_size_mm", &s.hex_size_mm}}) {
      if (auto st = num(key, *out); !st) return Error{st.error()};
    }
    if (!j.contains("radius") || !j["radius"].is_number_integer()) return Error{"board.json: missing integer 'radius'"};
    s.radius = j["radius"].get<int>();
    if (s.radius < kMinRadius || s.radius > kMaxRadius) return Error{"board.json: radius out of range"};
    if (s.width_mm <= 0 || s.height_mm <= 0 || s.hex_size_mm <= 0) return Error{"board.json: sizes must be positive"};
    if (j.contains("orientation") && j["orientation"] != "flat-top") return Error{"board.json: only flat-top maps are supported"};
    if (j.contains("centre_mm")) {
      auto c = read_pt(j["centre_mm"], "board.json: centre_mm");
      if (!c) return Error{c.error()};
      s.centre_mm = *c;
    } else {
      s.centre_mm = {s.width_mm / 2, s.height_mm / 2};
    }
    if (j.contains("die_height_mm")) s.die_height_mm = j["die_height_mm"].get<double>();
    if (j.contains("aruco_dictionary")) s.aruco_dictionary = j["aruco_dictionary"].get<std::string>();
    if (j.contains("marker_size_mm")) s.marker_size_mm = j["marker_size_mm"].get<double>();
    if (!j.contains("markers") || !j["markers"].is_array() || j["markers"].empty())
      return Error{"board.json: missing 'markers'"};
    for (const Json& m : j["markers"]) {
      MarkerMm mm;
      if (!m.contains("id") || !m["id"].is_number_integer()) return Error{"board.json: marker without integer 'id'"};
      mm.id = m["id"].get<int>();
      const Json& c = m.contains("corners_mm") ? m["corners_mm"] : Json();
      if (!c.is_array() || c.size() != 4) return Error{"board.json: marker " + std::to_string(mm.id) + " needs 4 corners_mm"};
      for (std::size_t i = 0; i < 4; ++i) {
        auto p = read_pt(c[i], "board.json: marker corner");
        if (!p) return Error{p.error()};
        mm.corners[i] = *p;
      }
      s.markers.push_back(mm);
    }
    auto patch = [&](const char* key, std::array<Point, 2>& out) -> Status {
      if (!j.contains(key)) return {};
      const Json& a = j[key];
      if (!a.is_array() || a.size() != 2) return Error{std::string("board.json: ") + key + " must be two points"};
      for (std::size_t i = 0; i < 2; ++i) {
        auto p = read_pt(a[i], key);
        if (!p) return Error{p.error()};
        out[i] = *p;
      }
      return {};
    };
    if (auto st = patch("white_patch_mm", s.white_patch); !st) return Error{st.error()};
    if (auto st = patch("grey_patch_mm", s.grey_patch); !st) return Error{st.error()};
    if (j.contains("pages") && j["pages"].is_array()) {
      for (const Json& p : j["pages"])
        s.pages.push_back({p.value("x0_mm", 0.0), p.value("y0_mm", 0.0), p.value("width_mm", s.width_mm),
                           p.value("height_mm", s.height_mm)});
    } else {
      s.pages = {{0.0, 0.0, s.width_mm, s.height_mm}};
    }
    if (!j.contains("cells") || !j["cells"].is_array()) return Error{"board.json: missing 'cells'"};
    const auto board = Board::get(s.radius);
    for (const Json& c : j["cells"]) {
      if (!c.contains("q") || !c.contains("r") || !c["q"].is_number_integer() || !c["r"].is_number_integer())
        return Error{"board.json: cell without integer q, r"};
      CellMm cell;
      cell.hex = {c["q"].get<int>(), c["r"].get<int>()};
      if (!board->contains(cell.hex))
        return Error{"board.json: cell (" + std::to_string(cell.hex.q) + "," + std::to_string(cell.hex.r) + ") is off a radius-" +
                     std::to_string(s.radius) + " map"};
      cell.name = c.contains("name") && c["name"].is_string() ? c["name"].get<std::string>() : board->name(cell.hex);
      if (c.contains("centre_mm")) {
        auto p = read_pt(c["centre_mm"], "board.json: cell centre_mm");
        if (!p) return Error{p.error()};
        cell.centre = *p;
      } else {
        cell.centre = s.cell_centre(cell.hex);
      }
      s.cells.push_back(cell);
    }
    if (static_cast<int>(s.cells.size()) != board->size())
      return Error{"board.json: expected " + std::to_string(board->size()) + " cells, got " + std::to_string(s.cells.size())};
    return s;
  } catch (const Json::exception& e) {
    return Error{std::string("board.json: ") + e.what()};
  }
}

}  // namespace hexdice::vision
