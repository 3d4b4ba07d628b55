#include "vision/sheet_render.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "core/board.h"

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

  // 4. ArUco markers: the page is white, so the quiet zone is the paper around them.
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

  // 5. White-balance patches.
  const auto& w = s.white_patch;
  out.push_back(polygon({{w[0].x, w[0].y}, {w[1].x, w[0].y}, {w[1].x, w[1].y}, {w[0].x, w[1].y}}, {255, 255, 255}, 0.3,
                        {150, 150, 150}));
  out.push_back(text({(w[0].x + w[1].x) / 2, w[1].y + 3.5}, 2.0, "white", pal.name));
  const auto& g = s.grey_patch;
  out.push_back(rect(g[0].x, g[0].y, g[1].x, g[1].y, pal.grey_patch));
  out.push_back(text({(g[0].x + g[1].x) / 2, g[1].y + 3.5}, 2.0, "grey 50%", pal.name));

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

cv::Mat render_sheet(const SheetLayout& s, double dpi) {
  const double k = dpi / 25.4;
  const int W = static_cast<int>(std::lround(s.width_mm * k)), H = static_cast<int>(std::lround(s.height_mm * k));
  cv::Mat img(H, W, CV_8UC3, cv::Scalar(255, 255, 255));
  constexpr int kShift = 4;
  constexpr double kSub = 1 << kShift;
  auto to_px = [&](Point p) {
    // Pixel (i, j) covers [i, i+1) x [j, j+1); OpenCV coordinates name pixel centres.
    return cv::Point(static_cast<int>(std::lround((p.x * k - 0.5) * kSub)), static_cast<int>(std::lround((p.y * k - 0.5) * kSub)));
  };
  for (const SheetShape& sh : sheet_drawing(s)) {
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
  PdfWriter pdf;
  const auto shapes = sheet_drawing(s);
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
  return pdf.finish("Hex Dice map, radius " + std::to_string(s.radius) + ", " + s.paper);
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

}  // namespace hexdice::vision
