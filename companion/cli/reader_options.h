// The board reader's inputs as command-line options, shared by every subcommand that reads
// the sheet (`hexdice read IMAGE`, `hexdice referee --source ...`):
//   --calib FILE    calibration JSON (camera intrinsics, colour samples)
//   --layout FILE   board.json of the sheet (default: the standard A3 sheet)
//   --params FILE   reader parameters (cv::FileStorage YAML/JSON, any subset of ReadParams)
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "core/result.h"
#include "vision/calibration_data.h"
#include "vision/read.h"
#include "vision/sheet.h"

namespace hexdice::cli {

struct ReaderOptions {
  std::string calib, layout, params;
};

// What the options name, loaded: defaults when an option is not given.
struct ReaderInputs {
  vision::SheetLayout layout;
  vision::CalibrationData calib;
  bool has_calib = false;
  vision::ReadParams params;
  // The calibration to pass to read_board (nullptr without --calib).
  const vision::CalibrationData* calib_ptr() const { return has_calib ? &calib : nullptr; }
};

void add_reader_options(CLI::App* sub, ReaderOptions& o);
// Errors name the file ("board.json: ...").
Result<ReaderInputs> load_reader_inputs(const ReaderOptions& o);

// A picture file for a subcommand that reads it: vision::load_colour_image (load_image when
// `colour` is false); a decoder's warning on a picture it read whole (libpng's) is printed as
// one "hexdice: warning:" line and the picture is used.
Result<cv::Mat> load_picture(const std::string& path, bool colour = true);
// Prints a picture's warning (load_image's "PATH: ...") as the one line load_picture prints:
// `hexdice: warning: PATH: ...` on stderr (eval and the referee's frame folders; robust22).
void print_warning(const std::string& warning);

}  // namespace hexdice::cli
