// A minimal vector PDF writer (PDF 1.4, uncompressed): filled polygons, stroked
// polylines and text in the standard Type1 font Helvetica. Coordinates are in mm
// with x to the right and y down the page, as in SheetLayout; a page is a window
// (origin, width, height) onto that plane, so one drawing can be split over pages.
// No OpenCV types here and no external library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/hex.h"

namespace hexdice::vision {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

class PdfWriter {
 public:
  // Starts a page of width x height mm showing the drawing window whose top-left is origin (mm).
  void begin_page(double width_mm, double height_mm, Point origin_mm = {0, 0});
  void fill_polygon(const std::vector<Point>& pts, Rgb colour);
  void stroke_polyline(const std::vector<Point>& pts, bool closed, double width_mm, Rgb colour);
  // Text in Helvetica; `baseline` is the left (align 0), centre (1) or right (2) end of the
  // baseline; cap_height_mm is the height of a capital letter.
  void text(Point baseline, double cap_height_mm, const std::string& s, Rgb colour, int align = 0);
  void end_page();
  // The complete file. Pages begun but not ended are ended.
  std::string finish(const std::string& title);

  // Width in mm of a string in Helvetica at this cap height (standard AFM widths).
  static double text_width_mm(const std::string& s, double cap_height_mm);

 private:
  struct Page {
    double width_pt = 0, height_pt = 0;
    std::string content;
  };
  std::string xy(Point p) const;
  std::vector<Page> pages_;
  bool open_ = false;
  Point origin_{};
  double page_h_mm_ = 0;
};

}  // namespace hexdice::vision
