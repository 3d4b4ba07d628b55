// `hexdice calibrate camera --frames DIR | --camera N [--count K] [--board charuco.json] --out FILE`,
// `hexdice calibrate colors IMAGE --out FILE [--layout board.json] [--cells red=f2;blue=f10]`,
// `hexdice calibrate check FILE [--image IMG] [--layout board.json] [--stale-days N]`.
// Both calibrations go into one JSON file (merged when it exists). docs/calibration.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include <opencv2/videoio.hpp>

#include "calibration/calibration.h"
#include "companion/cli/cli_util.h"
#include "companion/cli/reader_options.h"
#include "companion/cli/commands.h"
#include "vision/sheet.h"
#include "vision/reader_io.h"

namespace hexdice::cli {

namespace {

namespace fs = std::filesystem;

struct CameraArgs {
  std::string frames, board, out;
  int camera = -1;
  int count = 15;
  int min_corners = 12;
  double timeout_s = 120;
  bool k3 = false;
};

struct ColorArgs {
  std::string image, out, layout, cells;
};

struct CheckArgs {
  std::string file, image, layout;
  int stale_days = 90;
};

Result<vision::SheetLayout> layout_from(const std::string& path) {
  if (path.empty()) return vision::standard_sheet();
  std::string err;
  auto text = read_file(path, err);
  if (!text) return Error{err};
  auto l = vision::sheet_from_json_text(*text);
  if (!l) return Error{path + ": " + l.error()};
  return l;
}

// The existing file at `out` (merged into), or empty data when there is none.
Result<vision::CalibrationData> existing(const std::string& out) {
  std::error_code ec;
  if (!fs::exists(out, ec)) return vision::CalibrationData{};
  auto d = calibration::load_calibration(out);
  if (!d) return Error{d.error() + " (not overwritten; remove it or choose another --out)"};
  return d;
}

void print_camera(const calibration::CameraCalibration& c) {
  const auto& k = c.intrinsics.camera_matrix;
  std::printf("frames used %d of %zu, RMS reprojection error %.3f px, image coverage %.0f%%\n", c.frames_used,
              c.frames.size(), c.rms_px, 100 * c.coverage);
  std::printf("image %dx%d  fx %.2f  fy %.2f  cx %.2f  cy %.2f\n", c.intrinsics.image_size.width,
              c.intrinsics.image_size.height, k(0, 0), k(1, 1), k(0, 2), k(1, 2));
  std::printf("dist");
  for (auto it = c.intrinsics.dist_coeffs.begin<double>(); it != c.intrinsics.dist_coeffs.end<double>(); ++it)
    std::printf(" %.5f", *it);
  std::printf("\n");
  for (const auto& f : c.frames) {
    if (f.used) std::printf("  %-28s %3d corners  %.3f px\n", f.name.c_str(), f.corners, f.rms_px);
    else std::printf("  %-28s %3d corners  rejected: %s\n", f.name.c_str(), f.corners, f.rejected.c_str());
  }
  if (c.coverage < 0.5)
    std::printf("note: the board covered only %.0f%% of the image; views near the edges and corners improve distortion\n",
                100 * c.coverage);
}

int run_camera(const CameraArgs& a) {
  if (a.frames.empty() == (a.camera < 0)) return fail("calibrate camera needs exactly one of --frames DIR or --camera N");
  vision::CharucoSpec spec = vision::charuco_spec_for("a3");  // `hexdice board --charuco` default
  if (!a.board.empty()) {
    std::string err;
    auto text = read_file(a.board, err);
    if (!text) return fail(err);
    auto s = calibration::charuco_spec_from_json_text(*text);
    if (!s) return fail(a.board + ": " + s.error());
    spec = *s;
  }
  auto data = existing(a.out);
  if (!data) return fail(data.error());
  calibration::CameraCalibParams p;
  p.min_corners = a.min_corners;
  p.use_k3 = a.k3;
  Result<calibration::CameraCalibration> cal = Error{"no frames"};
  std::string source;
  if (!a.frames.empty()) {
    std::error_code ec;
    if (!fs::is_directory(a.frames, ec)) return fail(a.frames + " is not a directory");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(a.frames, ec)) {
      std::string ext = e.path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".bmp") files.push_back(e.path());
    }
    if (ec) return fail("cannot list " + a.frames + ": " + ec.message());
    if (files.empty()) return fail("no images (.jpg .png .bmp) in " + a.frames);
    std::sort(files.begin(), files.end());
    std::vector<calibration::CalibFrame> frames;
    for (const auto& f : files) {
      auto img = vision::load_image(f.string());
      if (!img) return fail(img.error());
      frames.push_back({*img, f.filename().string()});
    }
    if (a.board.empty()) cal = calibration::calibrate_camera_any(frames, calibration::known_charuco_specs(), p, &spec);
    else cal = calibration::calibrate_camera(frames, spec, p);
    source = "frames:" + fs::absolute(a.frames).lexically_normal().string();
  } else {
    cv::VideoCapture cap(a.camera);
    if (!cap.isOpened()) return fail("cannot open camera " + std::to_string(a.camera));
    source = "camera:" + std::to_string(a.camera) + " (" + cap.getBackendName() + ")";
    calibration::CameraCalibrationSession session(spec, p, a.count);
    const auto t0 = std::chrono::steady_clock::now();
    cv::Mat frame;
    while (!session.progress().ready) {
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > a.timeout_s) break;
      if (!cap.read(frame) || frame.empty()) return fail("camera " + std::to_string(a.camera) + " stopped delivering frames");
      bool kept = false;
      session.add_frame(frame, &kept);
      if (kept) {
        const auto pr = session.progress();
        std::fprintf(stderr, "view %d/%d kept (%d frames seen, coverage %.0f%%)\n", pr.frames_kept, pr.target, pr.frames_seen,
                     100 * pr.coverage);
      }
    }
    if (!session.progress().ready)
      std::fprintf(stderr, "timeout: %d of %d views; calibrating with what there is\n", session.progress().frames_kept, a.count);
    cal = session.calibrate();
  }
  if (!cal) return fail(cal.error());
  calibration::set_camera(*data, *cal, source, spec);
  const Status st = calibration::save_calibration(*data, a.out);
  if (!st) return fail(st.error());
  std::printf("board %dx%d squares of %.0f mm (%s)\n", spec.squares_x, spec.squares_y, spec.square_mm, spec.paper.c_str());
  print_camera(*cal);
  std::printf("wrote %s\n", a.out.c_str());
  return kExitOk;
}

int run_colors(const ColorArgs& a) {
  auto layout = layout_from(a.layout);
  if (!layout) return fail(layout.error());
  std::vector<calibration::ColorCell> cells = calibration::default_color_cells(*layout);
  if (!a.cells.empty()) {
    auto c = calibration::parse_color_cells(a.cells, *layout);
    if (!c) return fail(c.error());
    cells = *c;
  }
  auto data = existing(a.out);
  if (!data) return fail(data.error());
  auto img = load_picture(a.image);
  if (!img) return fail(img.error());
  auto col = calibration::calibrate_colors(*img, *layout, cells, &*data);
  if (!col) return fail(a.image + ": " + col.error());
  calibration::set_colors(*data, *col, *layout, fs::path(a.image).filename().string());
  const Status st = calibration::save_calibration(*data, a.out);
  if (!st) return fail(st.error());
  std::printf("paper white BGR %.0f %.0f %.0f (%s)\n", col->white_bgr[0], col->white_bgr[1], col->white_bgr[2],
              col->white_from_patch ? "white patch" : "median paper");
  for (const auto& s : col->cells)
    std::printf("  %-10s %d,%d  bgr %.0f %.0f %.0f  rel %.3f %.3f %.3f\n", s.name.c_str(), s.hex.q, s.hex.r, s.body_bgr[0],
                s.body_bgr[1], s.body_bgr[2], s.bgr_rel[0], s.bgr_rel[1], s.bgr_rel[2]);
  std::printf("wrote %s (%zu colours)\n", a.out.c_str(), data->colors.size());
  return kExitOk;
}

int run_check(const CheckArgs& a) {
  auto data = calibration::load_calibration(a.file);
  if (!data) return fail(data.error());
  auto layout = layout_from(a.layout);
  if (!layout) return fail(layout.error());
  calibration::CheckParams p;
  p.stale_days = a.stale_days;
  calibration::CheckReport rep;
  if (!a.image.empty()) {
    auto img = load_picture(a.image, /*colour=*/false);
    if (!img) return fail(img.error());
    rep = calibration::check_calibration_on_frame(*data, *img, *layout, p);
  } else {
    rep = calibration::check_calibration(*data, {}, &*layout, p);
  }
  const auto& m = data->meta;
  if (data->camera) {
    const auto& k = data->camera->camera_matrix;
    std::printf("camera: %dx%d fx %.1f fy %.1f cx %.1f cy %.1f, RMS %.3f px, %d frames, %s, %s\n", data->camera->image_size.width,
                data->camera->image_size.height, k(0, 0), k(1, 1), k(0, 2), k(1, 2), m.camera_rms_px, m.camera_frames,
                m.camera_created_utc.empty() ? "no date" : m.camera_created_utc.c_str(),
                m.camera_source.empty() ? "unknown source" : m.camera_source.c_str());
  } else {
    std::printf("camera: none\n");
  }
  std::printf("colours: %zu", data->colors.size());
  for (const auto& c : data->colors) std::printf(" %s", c.name.c_str());
  std::printf("%s%s\n", m.colors_created_utc.empty() ? "" : ", ", m.colors_created_utc.c_str());
  for (const auto& i : rep.issues) std::printf("warning: %s\n", i.message.c_str());
  if (rep.ok()) {
    std::printf("ok\n");
    return kExitOk;
  }
  return kExitBadInput;
}

}  // namespace

void register_calibrate_commands(CLI::App& app, Registry& reg) {
  auto* cal = app.add_subcommand("calibrate", "Camera intrinsics (ChArUco) and dice colours: one calibration file");
  cal->require_subcommand(1);

  auto ca = std::make_shared<CameraArgs>();
  auto* cam = cal->add_subcommand("camera", "Camera intrinsics from views of `hexdice board --charuco` (merged into --out)");
  cam->add_option("--frames", ca->frames, "directory of images of the ChArUco board");
  cam->add_option("--camera", ca->camera, "live camera index (cv::VideoCapture)");
  cam->add_option("--count", ca->count, "live camera: distinct views to collect (default 15)");
  cam->add_option("--timeout", ca->timeout_s, "live camera: give up collecting after this many seconds (default 120)");
  cam->add_option("--board", ca->board, "charuco.json of the printed board (default: --frames tries the A3 and A4 boards, --camera the A3 board)");
  cam->add_option("--min-corners", ca->min_corners, "ChArUco corners a frame needs to be used (default 12)");
  cam->add_flag("--k3", ca->k3, "also estimate the k3 radial term (wide-angle lenses)");
  cam->add_option("--out", ca->out, "calibration JSON to write/update")->required();
  reg.add(cam, [ca] { return run_camera(*ca); });

  auto co = std::make_shared<ColorArgs>();
  auto* col = cal->add_subcommand("colors", "Dice colours from one image of the map with each player's dice (merged into --out)");
  col->add_option("IMAGE", co->image, "image of the sheet with the dice on their cells")->required();
  col->add_option("--out", co->out, "calibration JSON to write/update")->required();
  col->add_option("--layout", co->layout, "board.json of the sheet (default: the standard A3 sheet)");
  col->add_option("--cells", co->cells, "NAME=CELL;... e.g. \"red=f2;blue=f10\" or \"red=0,-4\" (default: red N base, blue S base)");
  reg.add(col, [co] { return run_colors(*co); });

  auto ch = std::make_shared<CheckArgs>();
  auto* chk = cal->add_subcommand("check", "Check a calibration file: stale, size or sheet mismatch, colour drift");
  chk->add_option("FILE", ch->file, "calibration JSON")->required();
  chk->add_option("--image", ch->image, "a current frame: checks its size and the dice colours seen in it");
  chk->add_option("--layout", ch->layout, "board.json of the sheet in use (default: the standard A3 sheet)");
  chk->add_option("--stale-days", ch->stale_days, "older than this is stale (default 90)");
  reg.add(chk, [ch] { return run_check(*ch); });
}

}  // namespace hexdice::cli
