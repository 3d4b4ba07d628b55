// The reader's private copy of the standard sheet geometry (interfaces.md "The printed
// map"), so the reader can be built and tested before the sheet generator (sheet.cpp)
// lands. Everything here fills a hexdice::vision::SheetLayout, the same struct the
// generator writes, and the reader only ever reads the layout it is given. Names carry a
// `reader_` prefix so they cannot collide with sheet.cpp's standard_sheet() and friends.
#pragma once

#include <string>

#include "core/result.h"
#include "vision/sheet.h"

namespace hexdice::vision {

// The standard A3 sheet: radius 5, hex size 17 mm flat-top, centre (148.5, 210) mm,
// markers 0..3 (40 mm, 10 mm in from the edges), white patch below the map.
SheetLayout reader_standard_sheet();

// Cell centre in mm for a layout (same formula as SheetLayout::cell_centre, kept here
// so the reader links without sheet.cpp).
Point reader_cell_centre(const SheetLayout& s, Hex h);

// Parses board.json (the subset the reader needs: paper size, hex size, radius, centre,
// die height, markers, cells, white patch). Missing optional keys keep the standard
// values; cells missing entirely are recomputed from radius/hex size/centre.
Result<SheetLayout> reader_sheet_from_json_text(const std::string& text);

}  // namespace hexdice::vision
