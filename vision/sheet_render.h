// Drawing the printed sheet: one list of shapes in mm (sheet_drawing) rendered either
// to a raster image (render_sheet, cv::Mat BGR at a given dpi) or to a vector PDF
// (sheet_pdf). Both outputs come from the same shapes, so they agree.
#pragma once

#include <opencv2/core.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "vision/pdf_writer.h"
#include "vision/sheet.h"

namespace hexdice::vision {

struct SheetShape {
  enum class Kind { Polygon, Text };
  Kind kind = Kind::Polygon;
  std::vector<Point> pts;  // polygon corners, or pts[0] = text baseline anchor
  bool fill = true;
  Rgb fill_rgb{255, 255, 255};
  double stroke_mm = 0;  // 0: no outline
  Rgb stroke_rgb{0, 0, 0};
  bool crisp = false;    // raster: snap to whole pixels, no anti-aliasing (ArUco bits)
  std::string text;
  double cap_height_mm = 3;
  int align = 1;         // 0 left, 1 centre, 2 right
};

// Tints used on the sheet (also used by the scene renderer's documentation).
struct SheetPalette {
  Rgb cell{255, 255, 255};
  Rgb grid{90, 90, 90};
  Rgb name{165, 165, 165};       // light: must not look like pips
  Rgb zone_n{250, 214, 214};     // 2-player N deployment (red player)
  Rgb zone_s{212, 226, 252};     // 2-player S deployment (blue player)
  Rgb zone_other{236, 234, 222}; // the four other corners
  Rgb base_n{236, 150, 150};
  Rgb base_s{146, 176, 236};
  Rgb corner_mark{120, 120, 120};
  Rgb grey_patch{128, 128, 128};
};

std::vector<SheetShape> sheet_drawing(const SheetLayout& s, const SheetPalette& pal = {});

// The sheet as a BGR image, dpi pixels per inch (300: A3 = 3508 x 4961 px).
cv::Mat render_sheet(const SheetLayout& s, double dpi = 300.0);
// PNG bytes of an image with a pHYs chunk declaring dpi (cv::imencode writes none).
std::vector<unsigned char> encode_png_dpi(const cv::Mat& img, double dpi);
// The sheet as a vector PDF, one page per SheetLayout::pages entry.
std::string sheet_pdf(const SheetLayout& s);
// The same two outputs for any shape list drawn on the layout's page(s).
cv::Mat render_shapes(const SheetLayout& s, const std::vector<SheetShape>& shapes, double dpi = 300.0);
std::string shapes_pdf(const SheetLayout& s, const std::vector<SheetShape>& shapes, const std::string& title);

// The boards of the other rulesets (docs/sheet.md "Other games"). Both keep the markers,
// the white and grey patches and the cell geometry of the layout, so the board reader
// registers them like the Hex Dice sheet.
// Wizard Hex (layout of radius 2): the six seats' starting spaces tinted in their
// element's colour (a corner space, shared by two seats, beige), the element and its die colour
// outside each edge, the level legend (face 1 Bronze, 2 Silver, 3 Gold).
std::vector<SheetShape> wizardhex_drawing(const SheetLayout& s, const SheetPalette& pal = {});
// Hexa Decimal (layout of radius 5): the hole, the six grey roads, the six segments
// named at the rim, and the start squares of the standard setup marked with their
// piece (White tinted ivory, Black light blue), with a legend of the piece letters.
std::vector<SheetShape> hexadecimal_drawing(const SheetLayout& s, const SheetPalette& pal = {});
// Hexa Demial ("demial") and Hexa Threcimal ("threcimal") on the same 90 cells
// (docs/rules-hexadecimal.md 2.2): the start squares of each army (White ivory, Black light
// blue, Green light green) with the piece letters, each army's two home segments named with
// its colour at the rim, the segments that start empty marked so, the 2.2 army legend.
// "standard" gives hexadecimal_drawing(). An unknown name gives an empty list.
std::vector<SheetShape> hexadecimal_variant_drawing(const SheetLayout& s, std::string_view variant,
                                                    const SheetPalette& pal = {});

// A printable ChArUco board for camera calibration (DICT_4X4_50 ids do not clash with the
// map markers because the board uses DICT_5X5_100). Fills the page at dpi.
struct CharucoSpec {
  std::string paper = "a4";  // a4 | a3
  int squares_x = 7, squares_y = 10;
  double square_mm = 25.0, marker_mm = 18.0;
  std::string dictionary = "DICT_5X5_100";
};
CharucoSpec charuco_spec_for(const std::string& paper);
cv::Mat render_charuco(const CharucoSpec& spec, double dpi = 300.0);
std::string charuco_json_text(const CharucoSpec& spec);

}  // namespace hexdice::vision
