// The printed sheet's geometry (interfaces.md "The printed map"): paper, hex size,
// radius, ArUco markers and every cell centre, all in millimetres with x to the right
// and y down the page. This is the contents of board.json; the reader takes its
// geometry from here, never from constants. No OpenCV types in this header.
#pragma once

#include <array>
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

  // Centre of a cell in mm on the paper plane.
  Point cell_centre(Hex h) const;
};

// The standard A3 sheet of interfaces.md (what a reader assumes with no layout file).
SheetLayout standard_sheet();
// Any radius and paper; the hex size shrinks to fit when the map would not.
Result<SheetLayout> make_sheet(int radius, const std::string& paper);

// board.json round trip.
std::string to_json_text(const SheetLayout& s);
Result<SheetLayout> sheet_from_json_text(const std::string& text);

}  // namespace hexdice::vision
