#include "companion/cli/reader_options.h"

#include <filesystem>
#include <iostream>

#include "companion/cli/cli_util.h"
#include "vision/sheet.h"
#include "vision/reader_io.h"

namespace hexdice::cli {

void add_reader_options(CLI::App* sub, ReaderOptions& o) {
  sub->add_option("--calib", o.calib, "calibration JSON (camera intrinsics, colour samples)");
  sub->add_option("--layout", o.layout, "board.json of the sheet (default: the standard A3 sheet)");
  sub->add_option("--params", o.params, "reader parameters (cv::FileStorage YAML/JSON)");
}

Result<ReaderInputs> load_reader_inputs(const ReaderOptions& o) {
  ReaderInputs in;
  std::string err;
  if (o.layout.empty()) {
    in.layout = vision::standard_sheet();
  } else {
    auto text = read_file(o.layout, err);
    if (!text) return Error{err};
    auto l = vision::sheet_from_json_text(*text);
    if (!l) return Error{o.layout + ": " + l.error()};
    if (const std::string w = vision::die_fit_warning(*l); !w.empty())
      std::cerr << "hexdice: warning: " << o.layout << ": " << w << '\n';
    in.layout = std::move(*l);
  }
  if (!o.params.empty()) {
    // Checked here: OpenCV's FileStorage prints its own error line for a missing file.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(o.params, ec)) return Error{"cannot read " + o.params + ": no such file"};
    auto p = vision::ReadParams::load(o.params);
    if (!p) return Error{p.error()};
    in.params = std::move(*p);
  }
  if (!o.calib.empty()) {
    auto text = read_file(o.calib, err);
    if (!text) return Error{err};
    auto c = vision::calibration_from_json_text(*text);
    if (!c) return Error{o.calib + ": " + c.error()};
    in.calib = std::move(*c);
    in.has_calib = true;
  }
  return in;
}

Result<cv::Mat> load_picture(const std::string& path, bool colour) {
  std::string warning;
  auto img = colour ? vision::load_colour_image(path, &warning) : vision::load_image(path, &warning);
  if (img && !warning.empty()) print_warning(warning);
  return img;
}

void print_warning(const std::string& warning) { std::cerr << "hexdice: warning: " << warning << '\n'; }

}  // namespace hexdice::cli
