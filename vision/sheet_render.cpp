#include "vision/sheet_render.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <span>
#include <nlohmann/json.hpp>
#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "core/board.h"
#include "core/hexadecimal/hexadecimal.h"
#include "core/wizardhex/wizardhex.h"

namespace hexdice::vision {

namespace {

constexpr std::array<const char*, 6> kCornerNames = {"N", "NE", "SE", "S", "SW", "NW"};

SheetShape polygon(std::vector<Point> pts, Rgb fill, double stroke_mm = 0, Rgb stroke = {}) {
  SheetShape s;
  s.pts = std::move(pts);
  s.fill_rgb = fill;
  s.stroke_mm = stroke_mm;
  s.stroke_rgb = stroke;
  return s;
}

SheetShape rect(double x0, double y0, double x1, double y1, Rgb fill) {
  return polygon({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, fill);
}

SheetShape text(Point at, double cap, std::string str, Rgb colour, int align = 1) {
  SheetShape s;
  s.kind = SheetShape::Kind::Text;
  s.pts = {at};
  s.fill_rgb = colour;
  s.text = std::move(str);
  s.cap_height_mm = cap;
  s.align = align;
  return s;
}

std::string fmt_mm(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s(buf);
  if (s.size() > 2 && s.substr(s.size() - 2) == ".0") s.resize(s.size() - 2);
  return s;
}

cv::Scalar bgr(Rgb c) { return {double(c.b), double(c.g), double(c.r)}; }

// ArUco markers (ids and corners from the layout) and the white and grey patches: every
// sheet the reader registers carries them exactly where board.json says.
void append_markers_and_patches(const SheetLayout& s, const SheetPalette& pal, std::vector<SheetShape>& out) {
  // ArUco markers: the page is white, so the quiet zone is the paper around them.
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  for (const MarkerMm& m : s.markers) {
    cv::Mat bits;
    dict->drawMarker(m.id, 6, bits, 1);  // 6x6: 4x4 payload + 1-bit black border
    const double x0 = m.corners[0].x, y0 = m.corners[0].y;
    const double cell = (m.corners[1].x - m.corners[0].x) / 6.0;
    for (int row = 0; row < 6; ++row) {
      for (int col = 0; col < 6;) {
        if (bits.at<unsigned char>(row, col) != 0) {
          ++col;
          continue;
        }
        int end = col;
        while (end < 6 && bits.at<unsigned char>(row, end) == 0) ++end;
        auto r = rect(x0 + col * cell, y0 + row * cell, x0 + end * cell, y0 + (row + 1) * cell, {0, 0, 0});
        r.crisp = true;
        out.push_back(r);
        col = end;
      }
    }
    // The id in small print beside the marker, toward the page centre.
    const bool left = m.corners[0].x < s.width_mm / 2, top = m.corners[0].y < s.height_mm / 2;
    // Outside a quiet zone of one marker bit (6.7 mm) plus margin.
    const double ty = top ? m.corners[2].y + 9.0 : m.corners[0].y - 7.0;
    out.push_back(text({left ? x0 : m.corners[1].x, ty}, 2.0, "marker " + std::to_string(m.id), pal.name, left ? 0 : 2));
  }

  // White-balance patches.
  const auto& w = s.white_patch;
  out.push_back(polygon({{w[0].x, w[0].y}, {w[1].x, w[0].y}, {w[1].x, w[1].y}, {w[0].x, w[1].y}}, {255, 255, 255}, 0.3,
                        {150, 150, 150}));
  out.push_back(text({(w[0].x + w[1].x) / 2, w[1].y + 3.5}, 2.0, "white", pal.name));
  const auto& g = s.grey_patch;
  out.push_back(rect(g[0].x, g[0].y, g[1].x, g[1].y, pal.grey_patch));
  out.push_back(text({(g[0].x + g[1].x) / 2, g[1].y + 3.5}, 2.0, "grey 50%", pal.name));

}

}  // namespace

std::vector<SheetShape> sheet_drawing(const SheetLayout& s, const SheetPalette& pal) {
  std::vector<SheetShape> out;
  const auto board = Board::get(s.radius);
  const int R = s.radius;
  const double hs = s.hex_size_mm;

  // 1. Cells: tint by deployment zone, bases darker; then the grid on top.
  for (const CellMm& c : s.cells) {
    Rgb fill = pal.cell;
    for (int i = 0; i < 6; ++i) {
      if (distance(c.hex, board->corner(i)) > 2) continue;
      const Rgb z = i == 0 ? pal.zone_n : i == 3 ? pal.zone_s : pal.zone_other;
      // N and S take precedence where zones overlap on small maps.
      if (i == 0 || i == 3 || (fill.r == pal.cell.r && fill.g == pal.cell.g && fill.b == pal.cell.b)) fill = z;
    }
    if (c.hex == direction(0) * (R - 1)) fill = pal.base_n;
    if (c.hex == direction(3) * (R - 1)) fill = pal.base_s;
    const auto corners = s.cell_corners(c.hex);
    out.push_back(polygon({corners.begin(), corners.end()}, fill));
  }
  for (const CellMm& c : s.cells) {
    const auto corners = s.cell_corners(c.hex);
    auto p = polygon({corners.begin(), corners.end()}, {}, std::max(0.3, hs * 0.025), pal.grid);
    p.fill = false;
    out.push_back(p);
  }
  // 2. The six corners: a bolder outline and the corner's name low in the cell.
  for (int i = 0; i < 6; ++i) {
    const Hex h = board->corner(i);
    const auto corners = s.cell_corners(h);
    auto p = polygon({corners.begin(), corners.end()}, {}, std::max(0.6, hs * 0.06), pal.corner_mark);
    p.fill = false;
    out.push_back(p);
    const Point c = s.cell_centre(h);
    out.push_back(text({c.x, c.y + hs * 0.72}, hs * 0.15, kCornerNames[static_cast<std::size_t>(i)], pal.name));
  }
  for (int i : {0, 3}) {
    const Point c = s.cell_centre(direction(i) * (R - 1));
    out.push_back(text({c.x, c.y + hs * 0.72}, hs * 0.13, "base", pal.name));
  }
  // 3. Cell names, small and light near the top edge of each cell.
  for (const CellMm& c : s.cells)
    out.push_back(text({c.centre.x, c.centre.y - hs * 0.55}, hs * 0.13, c.name, pal.name));

  // 4-5. ArUco markers and the white-balance patches.
  append_markers_and_patches(s, pal, out);

  // 6. Title and printing instructions, in the band between the top markers.
  const double tx = s.width_mm / 2;
  out.push_back(text({tx, 17.0}, 4.2, "HEX DICE", {40, 40, 40}));
  std::string sub = "radius " + std::to_string(R) + " map, " + std::to_string(board->size()) + " cells, hex " + fmt_mm(hs) +
                    " mm - print at 100% (actual size): each marker square measures " + fmt_mm(s.marker_size_mm) + " mm";
  const double sub_cap = std::min(2.0, (s.width_mm - 2 * 58.0) / PdfWriter::text_width_mm(sub, 1.0));
  out.push_back(text({tx, 23.0}, sub_cap, sub, {110, 110, 110}));
  if (s.pages.size() == 2) {
    const double seam = s.pages[1].y0_mm;
    out.push_back(text({tx, s.height_mm - 6.0}, 2.0, "A4 x 2: trim page 1 at its bottom edge and butt it to page 2", pal.name));
    // Cut guides at the seam, in the margins left and right of the map.
    for (double x0 : {0.0, s.width_mm - 8.0}) {
      auto tick = polygon({{x0, seam - 0.15}, {x0 + 8.0, seam - 0.15}, {x0 + 8.0, seam + 0.15}, {x0, seam + 0.15}}, pal.grid);
      out.push_back(tick);
    }
  }
  return out;
}

cv::Mat render_sheet(const SheetLayout& s, double dpi) { return render_shapes(s, sheet_drawing(s), dpi); }

cv::Mat render_shapes(const SheetLayout& s, const std::vector<SheetShape>& shapes, double dpi) {
  const double k = dpi / 25.4;
  const int W = static_cast<int>(std::lround(s.width_mm * k)), H = static_cast<int>(std::lround(s.height_mm * k));
  cv::Mat img(H, W, CV_8UC3, cv::Scalar(255, 255, 255));
  constexpr int kShift = 4;
  constexpr double kSub = 1 << kShift;
  auto to_px = [&](Point p) {
    // Pixel (i, j) covers [i, i+1) x [j, j+1); OpenCV coordinates name pixel centres.
    return cv::Point(static_cast<int>(std::lround((p.x * k - 0.5) * kSub)), static_cast<int>(std::lround((p.y * k - 0.5) * kSub)));
  };
  for (const SheetShape& sh : shapes) {
    if (sh.kind == SheetShape::Kind::Text) {
      const double cap_px = sh.cap_height_mm * k;
      const int font = cv::FONT_HERSHEY_SIMPLEX;
      int base = 0;
      const cv::Size ref = cv::getTextSize("H", font, 1.0, 1, &base);
      const double scale = cap_px / ref.height;
      const int thick = std::max(1, static_cast<int>(std::lround(cap_px / 9.0)));
      const cv::Size sz = cv::getTextSize(sh.text, font, scale, thick, &base);
      double x = sh.pts[0].x * k;
      if (sh.align == 1) x -= sz.width / 2.0;
      if (sh.align == 2) x -= sz.width;
      cv::putText(img, sh.text, cv::Point(static_cast<int>(x), static_cast<int>(sh.pts[0].y * k)), font, scale,
                  bgr(sh.fill_rgb), thick, cv::LINE_AA);
      continue;
    }
    if (sh.crisp) {
      const int x0 = static_cast<int>(std::lround(sh.pts[0].x * k)), y0 = static_cast<int>(std::lround(sh.pts[0].y * k));
      const int x1 = static_cast<int>(std::lround(sh.pts[2].x * k)), y1 = static_cast<int>(std::lround(sh.pts[2].y * k));
      img(cv::Rect(x0, y0, x1 - x0, y1 - y0)).setTo(bgr(sh.fill_rgb));
      continue;
    }
    std::vector<cv::Point> poly;
    for (Point p : sh.pts) poly.push_back(to_px(p));
    if (sh.fill) cv::fillPoly(img, std::vector<std::vector<cv::Point>>{poly}, bgr(sh.fill_rgb), cv::LINE_AA, kShift);
    if (sh.stroke_mm > 0)
      cv::polylines(img, std::vector<std::vector<cv::Point>>{poly}, true, bgr(sh.stroke_rgb),
                    std::max(1, static_cast<int>(std::lround(sh.stroke_mm * k))), cv::LINE_AA, kShift);
  }
  return img;
}

namespace {
std::uint32_t crc32(const unsigned char* data, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= data[i];
    for (int b = 0; b < 8; ++b) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}
void put_be32(std::vector<unsigned char>& v, std::uint32_t x) {
  for (int s = 24; s >= 0; s -= 8) v.push_back(static_cast<unsigned char>(x >> s));
}
}  // namespace

std::vector<unsigned char> encode_png_dpi(const cv::Mat& img, double dpi) {
  std::vector<unsigned char> png;
  cv::imencode(".png", img, png);
  // Signature (8) + IHDR chunk (4 len + 4 type + 13 data + 4 crc) = 33 bytes; pHYs goes after.
  if (png.size() < 33) return png;
  std::vector<unsigned char> chunk;
  put_be32(chunk, 9);
  const std::size_t type_at = chunk.size();
  for (char c : {'p', 'H', 'Y', 's'}) chunk.push_back(static_cast<unsigned char>(c));
  const auto ppm = static_cast<std::uint32_t>(std::lround(dpi / 0.0254));
  put_be32(chunk, ppm);
  put_be32(chunk, ppm);
  chunk.push_back(1);  // unit: metre
  put_be32(chunk, crc32(chunk.data() + type_at, chunk.size() - type_at));
  png.insert(png.begin() + 33, chunk.begin(), chunk.end());
  return png;
}

std::string sheet_pdf(const SheetLayout& s) {
  return shapes_pdf(s, sheet_drawing(s), "Hex Dice map, radius " + std::to_string(s.radius) + ", " + s.paper);
}

std::string shapes_pdf(const SheetLayout& s, const std::vector<SheetShape>& shapes, const std::string& title) {
  PdfWriter pdf;
  for (const auto& page : s.pages) {
    pdf.begin_page(page.width_mm, page.height_mm, {page.x0_mm, page.y0_mm});
    for (const SheetShape& sh : shapes) {
      if (sh.kind == SheetShape::Kind::Text) {
        pdf.text(sh.pts[0], sh.cap_height_mm, sh.text, sh.fill_rgb, sh.align);
        continue;
      }
      if (sh.fill) pdf.fill_polygon(sh.pts, sh.fill_rgb);
      if (sh.stroke_mm > 0) pdf.stroke_polyline(sh.pts, true, sh.stroke_mm, sh.stroke_rgb);
    }
    pdf.end_page();
  }
  return pdf.finish(title);
}

CharucoSpec charuco_spec_for(const std::string& paper) {
  CharucoSpec c;
  if (paper == "a3") {
    c.paper = "a3";
    c.squares_x = 10;
    c.squares_y = 14;
    c.square_mm = 27.0;
    c.marker_mm = 20.0;
  }
  return c;
}

namespace {
void charuco_page(const CharucoSpec& spec, double& w_mm, double& h_mm) {
  w_mm = spec.paper == "a3" ? 297.0 : 210.0;
  h_mm = spec.paper == "a3" ? 420.0 : 297.0;
}
}  // namespace

cv::Mat render_charuco(const CharucoSpec& spec, double dpi) {
  const double k = dpi / 25.4;
  double w_mm = 0, h_mm = 0;
  charuco_page(spec, w_mm, h_mm);
  cv::Mat page(static_cast<int>(std::lround(h_mm * k)), static_cast<int>(std::lround(w_mm * k)), CV_8UC1, cv::Scalar(255));
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_5X5_100);
  auto board = cv::aruco::CharucoBoard::create(spec.squares_x, spec.squares_y, static_cast<float>(spec.square_mm),
                                               static_cast<float>(spec.marker_mm), dict);
  const cv::Size bsz(static_cast<int>(std::lround(spec.squares_x * spec.square_mm * k)),
                     static_cast<int>(std::lround(spec.squares_y * spec.square_mm * k)));
  cv::Mat b;
  board->draw(bsz, b, 0, 1);
  const int x0 = (page.cols - b.cols) / 2, y0 = (page.rows - b.rows) / 2;
  b.copyTo(page(cv::Rect(x0, y0, b.cols, b.rows)));
  const std::string caption = "hexdice ChArUco " + std::to_string(spec.squares_x) + "x" + std::to_string(spec.squares_y) +
                              ", square " + fmt_mm(spec.square_mm) + " mm, marker " + fmt_mm(spec.marker_mm) + " mm, " +
                              spec.dictionary + " - print at 100%, check one square";
  cv::putText(page, caption, cv::Point(static_cast<int>(10 * k), page.rows - static_cast<int>(8 * k)), cv::FONT_HERSHEY_SIMPLEX,
              0.9 * k / 11.8, cv::Scalar(90), std::max(1, static_cast<int>(k / 5)), cv::LINE_AA);
  cv::Mat out;
  cv::cvtColor(page, out, cv::COLOR_GRAY2BGR);
  return out;
}

std::string charuco_json_text(const CharucoSpec& spec) {
  double w_mm = 0, h_mm = 0;
  charuco_page(spec, w_mm, h_mm);
  nlohmann::json j{{"format", "hexdice-charuco"},
                   {"paper", spec.paper},
                   {"page_mm", {w_mm, h_mm}},
                   {"squares_x", spec.squares_x},
                   {"squares_y", spec.squares_y},
                   {"square_mm", spec.square_mm},
                   {"marker_mm", spec.marker_mm},
                   {"dictionary", spec.dictionary},
                   {"board_origin_mm", {(w_mm - spec.squares_x * spec.square_mm) / 2, (h_mm - spec.squares_y * spec.square_mm) / 2}}};
  return j.dump(1) + "\n";
}


// ---- Other games ---------------------------------------------------------------------

namespace {


// Grid outlines, light cell names and the title band shared by the game boards.
void append_grid(const SheetLayout& s, const SheetPalette& pal, const std::vector<Hex>& skip, std::vector<SheetShape>& out) {
  for (const CellMm& c : s.cells) {
    if (std::find(skip.begin(), skip.end(), c.hex) != skip.end()) continue;
    const auto corners = s.cell_corners(c.hex);
    auto p = polygon({corners.begin(), corners.end()}, {}, std::max(0.3, s.hex_size_mm * 0.025), pal.grid);
    p.fill = false;
    out.push_back(p);
    out.push_back(text({c.centre.x, c.centre.y - s.hex_size_mm * 0.55}, s.hex_size_mm * 0.13, c.name, pal.name));
  }
}

void append_title(const SheetLayout& s, const std::string& title, const std::string& sub, std::vector<SheetShape>& out) {
  const double tx = s.width_mm / 2;
  out.push_back(text({tx, 17.0}, 4.2, title, {40, 40, 40}));
  const double sub_cap = std::min(2.0, (s.width_mm - 2 * 58.0) / PdfWriter::text_width_mm(sub, 1.0));
  out.push_back(text({tx, 23.0}, sub_cap, sub, {110, 110, 110}));
}

struct ElementStyle {
  Rgb tint, ink;
};
// By seat (core/wizardhex: ice, earth, fire, lightning, wind, water): a light tint for the
// starting spaces and a darker ink for the labels, after the default die colours.
constexpr std::array<ElementStyle, 6> kElementStyles = {{
    {{224, 234, 244}, {90, 110, 140}},   // ice: white dice
    {{206, 236, 202}, {40, 120, 40}},    // earth: green dice
    {{250, 208, 200}, {190, 40, 30}},    // fire: red dice
    {{252, 240, 176}, {150, 120, 0}},    // lightning: yellow dice
    {{214, 214, 214}, {30, 30, 30}},     // wind: black dice
    {{200, 218, 250}, {30, 70, 190}},    // water: blue dice
}};

std::string upper(std::string_view v) {
  std::string u(v);
  for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return u;
}

}  // namespace

std::vector<SheetShape> wizardhex_drawing(const SheetLayout& s, const SheetPalette& pal) {
  namespace wh = wizardhex;
  std::vector<SheetShape> out;
  const double hs = s.hex_size_mm;
  const Point centre = s.cell_centre({0, 0});
  const auto& board = wh::State::board();
  // The stone: a hexagon behind the board, its corners beyond the six corner spaces.
  {
    std::vector<Point> stone;
    for (int i = 0; i < 6; ++i) {
      const Point c = s.cell_centre(board.corner(i));
      const double dx = c.x - centre.x, dy = c.y - centre.y, n = std::hypot(dx, dy);
      stone.push_back({c.x + dx / n * hs * 2.8, c.y + dy / n * hs * 2.8});
    }
    out.push_back(polygon(stone, {246, 244, 238}, 0.8, {120, 110, 95}));
  }
  // Cells white, then each seat's three starting spaces in its tint; a corner space is
  // shared by two seats and tinted beige.
  for (const CellMm& c : s.cells) {
    const auto corners = s.cell_corners(c.hex);
    out.push_back(polygon({corners.begin(), corners.end()}, pal.cell));
  }
  for (int seat = 0; seat < wh::kNumElements; ++seat) {
    for (int idx : wh::starting_spaces(seat)) {
      const Hex h = board.hex(idx);
      const auto cs = s.cell_corners(h);
      std::vector<Point> hex(cs.begin(), cs.end());
      bool is_corner = false;
      for (int i = 0; i < 6; ++i) is_corner |= h == board.corner(i);
      if (!is_corner) {
        out.push_back(polygon(hex, kElementStyles[static_cast<std::size_t>(seat)].tint));
        continue;
      }
      // A corner space is both neighbours' starting space: one neutral tint, since a cell
      // of two colours reads as "not paper" at its centre (the reader sees a die there).
      out.push_back(polygon(hex, pal.zone_other));
    }
  }
  append_grid(s, pal, {}, out);
  // Each seat's element, its die colour and "start" outside the middle of its edge.
  for (int seat = 0; seat < wh::kNumElements; ++seat) {
    const Point m = s.cell_centre(board.hex(wh::starting_spaces(seat)[1]));
    const double dx = m.x - centre.x, dy = m.y - centre.y, n = std::hypot(dx, dy);
    const Point at{m.x + dx / n * hs * 2.0, m.y + dy / n * hs * 2.0};
    const auto& st = kElementStyles[static_cast<std::size_t>(seat)];
    out.push_back(text({at.x, at.y}, hs * 0.2, upper(wh::kElementNames[static_cast<std::size_t>(seat)]), st.ink));
    out.push_back(text({at.x, at.y + hs * 0.32}, hs * 0.12,
                       std::string(wh::kElementColours[static_cast<std::size_t>(seat)]) + " dice", st.ink));
  }
  append_markers_and_patches(s, pal, out);
  append_title(s, "WIZARD HEX",
               "19 spaces, hex " + fmt_mm(hs) + " mm - print at 100% (actual size): markers measure " +
                   fmt_mm(s.marker_size_mm) + " mm",
               out);
  // Legend under the stone: the three levels.
  const double ly = centre.y + hs * 6.6;
  out.push_back(text({centre.x, ly}, 3.0, "face 1 = Bronze    face 2 = Silver    face 3 = Gold", {90, 80, 60}));
  out.push_back(text({centre.x, ly + 6.0}, 2.2,
                     "Tinted spaces: each seat's starting spaces; a beige corner is a starting space of both its seats. "
                     "Faces 4-6 are misreads.",
                     pal.name));
  return out;
}

// The Hexa Decimal family's board: the cells (roads grey, the hole dark, each army's start
// squares tinted; `start_tint_over_road` says which of the two wins on a road start square),
// the grid, the road outlines in bold and each start square's piece letter in its army's ink.
void append_hexadecimal_board(const SheetLayout& s, const SheetPalette& pal, const hexadecimal::State* start,
                              std::span<const Rgb> side_tint, std::span<const Rgb> side_ink, bool start_tint_over_road,
                              std::vector<SheetShape>& out) {
  namespace hd = hexadecimal;
  const double hs = s.hex_size_mm;
  const auto& board = hd::State::board();
  const Rgb road{196, 196, 196}, hole{50, 50, 50};
  const Hex centre_hex{0, 0};
  for (const CellMm& c : s.cells) {
    const auto corners = s.cell_corners(c.hex);
    const int idx = board.index(c.hex);
    const bool on_road = hd::segment_of(idx) < 0;
    const bool starts = start && !start->cells[static_cast<std::size_t>(idx)].empty();
    Rgb fill = pal.cell;
    if (c.hex == centre_hex) fill = hole;
    else if (starts && (start_tint_over_road || !on_road))
      fill = side_tint[static_cast<std::size_t>(start->cells[static_cast<std::size_t>(idx)].owner)];
    else if (on_road) fill = road;
    out.push_back(polygon({corners.begin(), corners.end()}, fill));
  }
  append_grid(s, pal, {centre_hex}, out);
  out.push_back(text(s.cell_centre(centre_hex), hs * 0.16, "hole", {230, 230, 230}));
  // The roads outlined bold, so the six triangular segments stand out.
  for (const CellMm& c : s.cells) {
    const int idx = board.index(c.hex);
    if (c.hex == centre_hex || hd::segment_of(idx) >= 0) continue;
    const auto corners = s.cell_corners(c.hex);
    auto p = polygon({corners.begin(), corners.end()}, {}, std::max(0.5, hs * 0.05), {110, 110, 110});
    p.fill = false;
    out.push_back(p);
  }
  if (!start) return;
  static constexpr std::array<const char*, hd::kNumKinds> kLetters = {"P", "S", "Pr", "D", "E", "G", "St", "W", "PM", "K"};
  for (int idx = 0; idx < hd::kCells; ++idx) {
    const hd::Cell& cell = start->cells[static_cast<std::size_t>(idx)];
    if (cell.empty()) continue;
    const Point c = s.cell_centre(board.hex(idx));
    out.push_back(text({c.x, c.y + hs * 0.2}, hs * 0.36, kLetters[static_cast<std::size_t>(cell.kind)],
                       side_ink[static_cast<std::size_t>(cell.owner)]));
  }
}

std::vector<SheetShape> hexadecimal_drawing(const SheetLayout& s, const SheetPalette& pal) {
  namespace hd = hexadecimal;
  std::vector<SheetShape> out;
  const double hs = s.hex_size_mm;
  const auto start = hd::start(hd::Variant::Standard);
  const std::array<Rgb, 2> side_tint = {{{255, 243, 212}, {208, 222, 244}}};
  const std::array<Rgb, 2> side_ink = {{{150, 100, 20}, {20, 20, 20}}};
  // Start squares: the piece's letters in its side's ink (White starts west, moves first).
  append_hexadecimal_board(s, pal, start ? &*start : nullptr, side_tint, side_ink, false, out);
  // Segment names low in the middle cell of each segment (a = b = 2 from the hole).
  for (int seg = 0; seg < 6; ++seg) {
    const Point c = s.cell_centre(direction(seg) * 2 + direction((seg + 1) % 6) * 2);
    out.push_back(text({c.x, c.y + hs * 0.72}, hs * 0.13, std::string(hd::kSegmentNames[static_cast<std::size_t>(seg)]), {90, 90, 90}));
  }
  append_markers_and_patches(s, pal, out);
  append_title(s, "HEXA DECIMAL",
               "90 cells around the hole, hex " + fmt_mm(hs) + " mm - print at 100% (actual size): markers measure " +
                   fmt_mm(s.marker_size_mm) + " mm",
               out);
  // Legends in the free page corners beside the board (upper left and upper right).
  static constexpr std::array<const char*, hd::kNumKinds> kNames = {"P Pawn",   "S Soldier", "Pr Prince", "D Disruptor",
                                                                      "E Elephant", "G Guard", "St Star",  "W Wizard",
                                                                      "PM Pawn Master", "K King"};
  for (std::size_t k = 0; k < kNames.size(); ++k)
    out.push_back(text({9.0, 67.0 + 4.2 * static_cast<double>(k)}, 2.4, kNames[k], {70, 70, 70}, 0));
  const std::array<const char*, 5> notes = {"White: ivory, west,", "moves first.", "Black: blue, east.",
                                            "Grey cells: roads.", "Dark: the hole."};
  for (std::size_t k = 0; k < notes.size(); ++k)
    out.push_back(text({s.width_mm - 9.0, 67.0 + 4.2 * static_cast<double>(k)}, 2.2, notes[k], {70, 70, 70}, 2));
  return out;
}

std::vector<SheetShape> hexadecimal_variant_drawing(const SheetLayout& s, std::string_view variant,
                                                    const SheetPalette& pal) {
  namespace hd = hexadecimal;
  if (variant == "standard" || variant.empty()) return hexadecimal_drawing(s, pal);
  if (variant != "demial" && variant != "threcimal") return {};
  const hd::Variant v = variant == "demial" ? hd::Variant::Demial : hd::Variant::Threcimal;
  std::vector<SheetShape> out;
  const double hs = s.hex_size_mm;
  const auto start = hd::start(v);
  if (!start) return {};
  const std::array<Rgb, 3> side_tint = {{{255, 243, 212}, {208, 222, 244}, {214, 240, 208}}};
  const std::array<Rgb, 3> side_ink = {{{150, 100, 20}, {20, 20, 20}, {30, 110, 40}}};
  const std::array<const char*, 3> side_name = {"White", "Black", "Green"};
  append_hexadecimal_board(s, pal, &*start, side_tint, side_ink, true, out);
  // Segment names, with the army that starts there (or "empty").
  std::array<int, 6> owner{-1, -1, -1, -1, -1, -1};
  for (int p = 0; p < start->num_players(); ++p)
    for (int sg : hd::home_segments(v, p)) owner[static_cast<std::size_t>(sg)] = p;
  for (int seg = 0; seg < 6; ++seg) {
    const Point c = s.cell_centre(direction(seg) * 2 + direction((seg + 1) % 6) * 2);
    const int o = owner[static_cast<std::size_t>(seg)];
    const std::string name = std::string(hd::kSegmentNames[static_cast<std::size_t>(seg)]) +
                             (o < 0 ? " (empty)" : std::string(" ") + side_name[static_cast<std::size_t>(o)]);
    out.push_back(text({c.x, c.y + hs * 0.72}, hs * 0.13, name, o < 0 ? Rgb{90, 90, 90} : side_ink[static_cast<std::size_t>(o)]));
  }
  append_markers_and_patches(s, pal, out);
  const bool three = v == hd::Variant::Threcimal;
  append_title(s, three ? "HEXA THRECIMAL" : "HEXA DEMIAL",
               std::string(three ? "three armies" : "two armies") + " of two Kings around the hole, hex " + fmt_mm(hs) +
                   " mm - print at 100% (actual size): markers measure " + fmt_mm(s.marker_size_mm) + " mm",
               out);
  static constexpr std::array<const char*, 8> kArmy = {"Each army:",          "P Pawn x10",       "S Soldier x2",
                                                       "Pr Prince x2",        "K King x2",        "D E G St W: one each",
                                                       "(no Pawn Master:",    "a King's move makes one)"};
  for (std::size_t k = 0; k < kArmy.size(); ++k)
    out.push_back(text({9.0, 67.0 + 4.2 * static_cast<double>(k)}, 2.4, kArmy[k], {70, 70, 70}, 0));
  std::vector<std::string> notes;
  for (int p = 0; p < start->num_players(); ++p)
    notes.push_back(std::string(side_name[static_cast<std::size_t>(p)]) + (p == 0 ? ": moves first" : ""));
  notes.push_back(three ? "Turns: White, Black, Green." : "Two segments start empty.");
  notes.push_back("Grey cells: roads.");
  notes.push_back("Dark: the hole.");
  for (std::size_t k = 0; k < notes.size(); ++k)
    out.push_back(text({s.width_mm - 9.0, 67.0 + 4.2 * static_cast<double>(k)}, 2.2, notes[k],
                       k < static_cast<std::size_t>(start->num_players()) ? side_ink[k] : Rgb{70, 70, 70}, 2));
  return out;
}

}  // namespace hexdice::vision
