// The printed sheet's geometry (interfaces.md "The printed map"): paper, hex size,
// radius, ArUco markers and every cell centre, all in millimetres with x to the right
// and y down the page. This is the contents of board.json; the reader takes its
// geometry from here, never from constants. No OpenCV types in this header.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/hex.h"
#include "core/result.h"

namespace hexdice::vision {

struct MarkerMm {
  int id = 0;
  // Corners in mm: top-left, top-right, bottom-right, bottom-left (OpenCV ArUco order).
  std::array<Point, 4> corners{};
};

struct CellMm {
  Hex hex;
  std::string name;  // human name, e.g. "f6"
  Point centre;      // mm
};

struct SheetLayout {
  std::string paper = "a3";       // a3 | a4x2 | letter | tabloid
  double width_mm = 297.0;
  double height_mm = 420.0;
  int radius = 5;
  double hex_size_mm = 17.0;      // centre to corner
  Point centre_mm{148.5, 210.0};  // centre hex on the page
  double die_height_mm = 16.0;    // top faces are read on the plane this far above the paper
  std::string aruco_dictionary = "DICT_4X4_50";
  std::vector<MarkerMm> markers;  // ids 0..3 on the standard sheet
  std::vector<CellMm> cells;
  std::array<Point, 2> white_patch{};  // top-left and bottom-right of the white-balance patch, mm
  // Additions (backward compatible, optional in board.json):
  double marker_size_mm = 40.0;       // black square side, quiet zone outside it is white
  std::array<Point, 2> grey_patch{};  // mid-grey (sRGB 128) patch, top-left / bottom-right, mm
  // How the sheet is printed: one page per entry, each a window of the sheet in mm.
  // a3/letter/tabloid: one page = the whole sheet. a4x2: the A3 sheet in two A4-landscape
  // halves that tile at y = 210 mm: page 0 (top, y 0-210) carries markers 0 and 1, page 1
  // (bottom, y 210-420) carries markers 3 and 2; trim one page at the seam and butt them.
  struct Page {
    double x0_mm = 0, y0_mm = 0, width_mm = 0, height_mm = 0;
  };
  std::vector<Page> pages;

  // Centre of a cell in mm on the paper plane (computed from centre_mm and hex_size_mm).
  Point cell_centre(Hex h) const;
  // The 6 corners of a cell in mm (flat-top, corner 0 pointing east, clockwise on the page).
  std::array<Point, 6> cell_corners(Hex h) const;
  // The cell whose hexagon contains a point in mm, or nullopt when off the map.
  std::optional<Hex> cell_at(Point mm) const;
  // Index into `cells` of a hex, or -1.
  int cell_index(Hex h) const;
};

// Paper sizes known to make_sheet (portrait, mm); false when the name is unknown.
bool paper_size_mm(const std::string& paper, double& width_mm, double& height_mm);

// The standard A3 sheet of interfaces.md (what a reader assumes with no layout file).
SheetLayout standard_sheet();
// Any radius and paper; the hex size shrinks to fit when the map would not (interfaces.md:
// any radius or paper works the same way). Cells narrower than a die are made all the same;
// die_fit_warning says so, and the commands print it (robust20 found why such maps read no
// dice).
Result<SheetLayout> make_sheet(int radius, const std::string& paper);
// A standard die's side (interfaces.md: 16 mm pip dice). A map whose cells are narrower
// across flats (hex size x sqrt 3) cannot hold one die a cell, and cannot be read: a die
// covers the ring of its own cell's paper the reader takes as that cell's white, so every
// die is paper (a radius-12 map on A3, 7.6 mm hexes, read no die at all).
inline constexpr double kDieSideMm = 16.0;
// Why a hex size cannot hold a die ("" when it can).
std::string die_does_not_fit(double hex_size_mm);
// The warning for a sheet whose cells cannot hold a die ("" when they can), naming the
// largest radius its paper takes: "a radius-12 map on a3 has 7.6 mm hexes, 13.2 mm across:
// a 16 mm die does not fit in a cell, and its dice cannot be read (radius 9 is the largest on a3)".
std::string die_fit_warning(const SheetLayout& s);

// board.json round trip.
std::string to_json_text(const SheetLayout& s);
Result<SheetLayout> sheet_from_json_text(const std::string& text);

}  // namespace hexdice::vision
