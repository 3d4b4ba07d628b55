// `hexdice board [--radius N] [--paper a3|a4x2|letter|tabloid] --out DIR [--charuco]`:
// the printable map as board.png (300 dpi), board.pdf (vector) and board.json (layout);
// with --charuco also a ChArUco calibration board (charuco.png + charuco.json).
// `--ruleset wizardhex` draws the 19-space Wizard Hex board (radius 2) and
// `--ruleset hexadecimal` the 90-cell Hexa Decimal board (radius 5) on the same sheet
// geometry (markers, patches); board.json then carries "ruleset".
// `--ruleset hexadecimal --variant demial|threcimal` (also `--ruleset hexademial` /
// `hexathrecimal`) draws the Hexa Demial / Hexa Threcimal start; board.json adds "variant".
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <system_error>

#include <nlohmann/json.hpp>

#include "companion/cli/cli_util.h"
#include "companion/cli/commands.h"
#include "vision/sheet.h"
#include "vision/sheet_render.h"

namespace hexdice::cli {

namespace {

namespace fs = std::filesystem;

struct BoardArgs {
  int radius = 5;
  std::string paper = "a3";
  std::string out;
  bool charuco = false;
  double dpi = 300.0;
  std::string ruleset = "hexdice";
  std::string variant;  // hexadecimal: standard (default), demial, threcimal
};

// Writes every file or none: each goes to a temporary name first, then all are renamed.
bool write_all(const std::vector<std::pair<fs::path, std::string>>& files, std::string& error) {
  std::vector<fs::path> temps;
  auto cleanup = [&] {
    std::error_code ec;
    for (const auto& t : temps) fs::remove(t, ec);
  };
  for (const auto& [path, bytes] : files) {
    fs::path tmp = path;
    tmp += ".tmp";
    temps.push_back(tmp);
    std::ofstream out(tmp, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      error = "cannot write " + tmp.string();
      cleanup();
      return false;
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::error_code ec;
    fs::rename(temps[i], files[i].first, ec);
    if (ec) {
      error = "cannot write " + files[i].first.string() + ": " + ec.message();
      cleanup();
      return false;
    }
  }
  return true;
}

std::string png_bytes(const cv::Mat& img, double dpi) {
  const auto v = vision::encode_png_dpi(img, dpi);
  return {v.begin(), v.end()};
}

int run_board(BoardArgs a) {
  if (a.ruleset == "hexademial" || a.ruleset == "hexathrecimal") {
    const std::string v = a.ruleset == "hexademial" ? "demial" : "threcimal";
    if (!a.variant.empty() && a.variant != v) return fail("--variant " + a.variant + " contradicts --ruleset " + a.ruleset);
    a.ruleset = "hexadecimal";
    a.variant = v;
  }
  if (!a.variant.empty() && a.ruleset != "hexadecimal")
    return fail("--variant applies to --ruleset hexadecimal only (standard, demial, threcimal)");
  if (a.variant == "standard") a.variant.clear();
  const bool hexdice = a.ruleset == "hexdice";
  const int radius = a.ruleset == "wizardhex" ? 2 : a.ruleset == "hexadecimal" ? 5 : a.radius;
  if (!hexdice && radius != a.radius && a.radius != 5)
    return fail("--radius does not apply to --ruleset " + a.ruleset + " (its board has radius " + std::to_string(radius) + ")");
  auto sheet = vision::make_sheet(radius, a.paper);
  if (!sheet) return fail(sheet.error());
  if (a.dpi < 50 || a.dpi > 1200) return fail("--dpi must be between 50 and 1200");
  std::error_code ec;
  fs::create_directories(a.out, ec);
  if (ec || !fs::is_directory(a.out)) return fail("cannot create output directory " + a.out);
  const fs::path dir(a.out);
  std::vector<std::pair<fs::path, std::string>> files;
  const std::vector<vision::SheetShape> shapes = a.ruleset == "wizardhex"     ? vision::wizardhex_drawing(*sheet)
                                                : a.ruleset == "hexadecimal" ? vision::hexadecimal_variant_drawing(*sheet, a.variant)
                                                                             : vision::sheet_drawing(*sheet);
  const cv::Mat raster = vision::render_shapes(*sheet, shapes, a.dpi);
  files.emplace_back(dir / "board.png", png_bytes(raster, a.dpi));
  if (sheet->pages.size() > 1) {
    // a4x2: also each printed page as its own PNG (board_page1.png, board_page2.png).
    const double k = a.dpi / 25.4;
    for (std::size_t i = 0; i < sheet->pages.size(); ++i) {
      const auto& p = sheet->pages[i];
      cv::Rect r(static_cast<int>(std::lround(p.x0_mm * k)), static_cast<int>(std::lround(p.y0_mm * k)),
                 static_cast<int>(std::lround(p.width_mm * k)), static_cast<int>(std::lround(p.height_mm * k)));
      r &= cv::Rect(0, 0, raster.cols, raster.rows);
      files.emplace_back(dir / ("board_page" + std::to_string(i + 1) + ".png"), png_bytes(raster(r).clone(), a.dpi));
    }
  }
  if (hexdice) {
    files.emplace_back(dir / "board.pdf", vision::sheet_pdf(*sheet));
    files.emplace_back(dir / "board.json", vision::to_json_text(*sheet));
  } else {
    const std::string title = a.ruleset == "wizardhex"  ? "Wizard Hex board"
                              : a.variant == "demial"  ? "Hexa Demial board"
                              : a.variant == "threcimal" ? "Hexa Threcimal board"
                                                         : "Hexa Decimal board";
    files.emplace_back(dir / "board.pdf", vision::shapes_pdf(*sheet, shapes, title + ", " + sheet->paper));
    nlohmann::json j = nlohmann::json::parse(vision::to_json_text(*sheet));
    j["ruleset"] = a.ruleset;
    if (!a.variant.empty()) j["variant"] = a.variant;
    files.emplace_back(dir / "board.json", j.dump(1) + "\n");
  }
  if (a.charuco) {
    const auto spec = vision::charuco_spec_for(a.paper == "a3" || a.paper == "tabloid" ? "a3" : "a4");
    files.emplace_back(dir / "charuco.png", png_bytes(vision::render_charuco(spec, a.dpi), a.dpi));
    files.emplace_back(dir / "charuco.json", vision::charuco_json_text(spec));
  }
  std::string err;
  if (!write_all(files, err)) return fail(err);
  const double inscribed = sheet->hex_size_mm * 1.7320508075688772;
  std::cout << (hexdice ? "" : a.ruleset + (a.variant.empty() ? "" : ":" + a.variant) + " ") << "board: radius " << sheet->radius << ", " << sheet->paper << ", hex " << sheet->hex_size_mm << " mm, "
            << sheet->cells.size() << " cells -> " << dir.string() << "/board.{png,pdf,json}"
            << (a.charuco ? " + charuco.{png,json}" : "") << "\n";
  // Any radius or paper is made (interfaces.md); a map whose cells cannot hold a die at all
  // gets the warning of why its dice cannot be read (robust20), one only a turned die overhangs
  // the note.
  if (const std::string w = vision::die_fit_warning(*sheet); !w.empty())
    std::cerr << "hexdice: warning: " << w << '\n';
  else if (a.ruleset != "hexadecimal" && inscribed < 16.0 * 1.4142135623730951)
    std::cerr << "hexdice: note: hex " << sheet->hex_size_mm << " mm is too small for a 16 mm die turned any way; "
              << "use a larger paper or a smaller radius\n";
  return kExitOk;
}

}  // namespace

void register_board_commands(CLI::App& app, Registry& reg) {
  auto args = std::make_shared<BoardArgs>();
  auto* sub = app.add_subcommand("board", "Write the printable map: board.png (300 dpi), board.pdf and board.json");
  sub->add_option("--radius", args->radius, "map radius (default 5)");
  sub->add_option("--paper", args->paper, "a3 (default), a4x2 (A3 as two A4 halves), letter or tabloid")
      ->check(CLI::IsMember({"a3", "a4x2", "letter", "tabloid"}));
  sub->add_option("--out", args->out, "output directory (created if missing)")->required();
  sub->add_option("--dpi", args->dpi, "raster resolution of board.png (default 300)");
  sub->add_option("--ruleset", args->ruleset,
                  "hexdice (default), wizardhex (19 spaces), hexadecimal (90 cells); hexademial / hexathrecimal "
                  "= hexadecimal with that --variant")
      ->check(CLI::IsMember({"hexdice", "wizardhex", "hexadecimal", "hexademial", "hexathrecimal"}));
  sub->add_option("--variant", args->variant, "Hexa Decimal start: standard (default), demial or threcimal")
      ->check(CLI::IsMember({"standard", "demial", "threcimal"}));
  sub->add_flag("--charuco", args->charuco, "also write a ChArUco calibration board (charuco.png, charuco.json)");
  reg.add(sub, [args] { return run_board(*args); });
}

}  // namespace hexdice::cli
