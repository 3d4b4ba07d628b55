#include "vision/pdf_writer.h"

#include <cstdio>

namespace hexdice::vision {

namespace {

constexpr double kPtPerMm = 72.0 / 25.4;
constexpr double kHelveticaCapHeight = 0.718;  // of the font size (Helvetica AFM)

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  // Trim trailing zeros: smaller files, same values.
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string colour(Rgb c, const char* op) {
  return num(c.r / 255.0) + " " + num(c.g / 255.0) + " " + num(c.b / 255.0) + " " + op + "\n";
}

// Helvetica advance widths (1/1000 em) for printable ASCII 32..126.
constexpr short kWidths[95] = {
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556,                                // 0-9
    278, 278, 584, 584, 584, 556, 1015,                                              // :;<=>?@
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667,  // A-P
    778, 722, 667, 611, 722, 667, 944, 667, 667, 611,                                // Q-Z
    278, 278, 278, 469, 556, 333,                                                    // [\]^_`
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556,  // a-p
    556, 333, 500, 278, 556, 500, 722, 500, 500, 500,                                // q-z
    334, 260, 334, 584};                                                             // {|}~

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += (c >= 32 && c < 127) ? c : '?';
  }
  return out;
}

}  // namespace

double PdfWriter::text_width_mm(const std::string& s, double cap_height_mm) {
  double w = 0;
  for (char c : s) w += (c >= 32 && c < 127) ? kWidths[c - 32] : 556;
  return w / 1000.0 * cap_height_mm / kHelveticaCapHeight;
}

std::string PdfWriter::xy(Point p) const {
  return num((p.x - origin_.x) * kPtPerMm) + " " + num((page_h_mm_ - (p.y - origin_.y)) * kPtPerMm);
}

void PdfWriter::begin_page(double width_mm, double height_mm, Point origin_mm) {
  if (open_) end_page();
  pages_.push_back({width_mm * kPtPerMm, height_mm * kPtPerMm, {}});
  origin_ = origin_mm;
  page_h_mm_ = height_mm;
  open_ = true;
}

void PdfWriter::fill_polygon(const std::vector<Point>& pts, Rgb c) {
  if (!open_ || pts.size() < 3) return;
  std::string& s = pages_.back().content;
  s += colour(c, "rg");
  s += xy(pts[0]) + " m\n";
  for (std::size_t i = 1; i < pts.size(); ++i) s += xy(pts[i]) + " l\n";
  s += "h f\n";
}

void PdfWriter::stroke_polyline(const std::vector<Point>& pts, bool closed, double width_mm, Rgb c) {
  if (!open_ || pts.size() < 2) return;
  std::string& s = pages_.back().content;
  s += colour(c, "RG") + num(width_mm * kPtPerMm) + " w 1 j 1 J\n";
  s += xy(pts[0]) + " m\n";
  for (std::size_t i = 1; i < pts.size(); ++i) s += xy(pts[i]) + " l\n";
  s += closed ? "h S\n" : "S\n";
}

void PdfWriter::text(Point baseline, double cap_height_mm, const std::string& str, Rgb c, int align) {
  if (!open_ || str.empty()) return;
  const double w = text_width_mm(str, cap_height_mm);
  if (align == 1) baseline.x -= w / 2;
  if (align == 2) baseline.x -= w;
  const double size_pt = cap_height_mm / kHelveticaCapHeight * kPtPerMm;
  std::string& s = pages_.back().content;
  s += colour(c, "rg") + "BT /F1 " + num(size_pt) + " Tf " + xy(baseline) + " Td (" + escape(str) + ") Tj ET\n";
}

void PdfWriter::end_page() { open_ = false; }

std::string PdfWriter::finish(const std::string& title) {
  if (open_) end_page();
  // Objects: 1 catalog, 2 page tree, 3 font, 4 info, then (page, content) pairs.
  std::vector<std::string> objs;
  std::string kids;
  for (std::size_t i = 0; i < pages_.size(); ++i) kids += std::to_string(5 + 2 * i) + " 0 R ";
  objs.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  objs.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages_.size()) + " >>");
  objs.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  objs.push_back("<< /Title (" + escape(title) + ") /Producer (hexdice board) >>");
  for (std::size_t i = 0; i < pages_.size(); ++i) {
    const Page& p = pages_[i];
    objs.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + num(p.width_pt) + " " + num(p.height_pt) +
                   "] /Resources << /Font << /F1 3 0 R >> >> /Contents " + std::to_string(6 + 2 * i) + " 0 R >>");
    objs.push_back("<< /Length " + std::to_string(p.content.size()) + " >>\nstream\n" + p.content + "endstream");
  }
  std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objs.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objs[i] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objs.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t off : offsets) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%010zu 00000 n \n", off);
    out += buf;
  }
  out += "trailer\n<< /Size " + std::to_string(objs.size() + 1) + " /Root 1 0 R /Info 4 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return out;
}

}  // namespace hexdice::vision
