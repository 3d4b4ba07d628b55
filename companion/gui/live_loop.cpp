#include "companion/gui/live_loop.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include <opencv2/imgproc.hpp>

#include "companion/cli/cli_util.h"
#include "companion/referee/frame_source.h"
#include "companion/referee/latest_frame.h"
#include "vision/dice.h"
#include "vision/read.h"
#include "vision/register.h"
#include "vision/sheet.h"

namespace hexdice::gui {

namespace {

using Clock = std::chrono::steady_clock;

std::array<double, 9> to_array(const cv::Matx33d& h) {
  std::array<double, 9> a{};
  for (int k = 0; k < 9; ++k) a[static_cast<std::size_t>(k)] = h(k / 3, k % 3);
  return a;
}

cv::Scalar die_bgr(const std::string& c) {
  static const std::map<std::string, cv::Scalar> k = {
      {"red", {45, 45, 200}},    {"blue", {200, 100, 30}},   {"green", {60, 150, 40}}, {"yellow", {40, 200, 230}},
      {"black", {35, 35, 35}},   {"white", {235, 235, 235}}, {"orange", {30, 120, 240}}, {"purple", {170, 70, 140}}};
  auto it = k.find(c);
  return it == k.end() ? cv::Scalar(128, 128, 128) : it->second;
}

cv::Point to_px(const cv::Matx33d& h, double x, double y) {
  const cv::Point2d p = vision::apply_h(h, {x, y});
  return {static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y))};
}

}  // namespace

cv::Matx33d demo_pose(int frame, cv::Size size) {
  const vision::SheetLayout s = vision::standard_sheet();
  // The sheet fills most of the height, rotated a little and drifting slowly (a nudge).
  const double scale = 0.92 * size.height / s.height_mm;
  const double t = frame * 0.05;
  const double angle = 0.06 * std::sin(t) + 0.5 * 3.14159265 / 180.0;
  const double cx = size.width * 0.5 + 12 * std::sin(t * 0.7), cy = size.height * 0.5 + 6 * std::cos(t);
  std::vector<cv::Point2f> src, dst;
  const double w = s.width_mm, hgt = s.height_mm;
  const double keystone[4] = {0.97, 0.97, 1.03, 1.03};  // the camera looks slightly from the front
  const cv::Point2d corners[4] = {{0, 0}, {w, 0}, {w, hgt}, {0, hgt}};
  for (int i = 0; i < 4; ++i) {
    src.emplace_back(static_cast<float>(corners[i].x), static_cast<float>(corners[i].y));
    const double x = (corners[i].x - w / 2) * scale * keystone[i], y = (corners[i].y - hgt / 2) * scale;
    dst.emplace_back(static_cast<float>(cx + x * std::cos(angle) - y * std::sin(angle)),
                     static_cast<float>(cy + x * std::sin(angle) + y * std::cos(angle)));
  }
  cv::Matx33d h;
  cv::getPerspectiveTransform(src, dst).copyTo(h);
  return h;
}

cv::Mat draw_table(const referee::Observation& obs, const cv::Matx33d& h, cv::Size size) {
  const vision::SheetLayout s = vision::standard_sheet();
  cv::Mat img(size, CV_8UC3, cv::Scalar(60, 90, 120));  // a wooden table
  std::vector<cv::Point> sheet = {to_px(h, 0, 0), to_px(h, s.width_mm, 0), to_px(h, s.width_mm, s.height_mm),
                                  to_px(h, 0, s.height_mm)};
  cv::fillConvexPoly(img, sheet, cv::Scalar(238, 240, 242), cv::LINE_AA);
  for (const auto& m : s.markers) {
    std::vector<cv::Point> q;
    for (const Point& c : m.corners) q.push_back(to_px(h, c.x, c.y));
    cv::fillConvexPoly(img, q, cv::Scalar(20, 20, 20), cv::LINE_AA);
  }
  for (const auto& c : s.cells) {
    std::vector<cv::Point> q;
    for (const Point& p : s.cell_corners(c.hex)) q.push_back(to_px(h, p.x, p.y));
    cv::polylines(img, q, true, cv::Scalar(150, 150, 150), 1, cv::LINE_AA);
  }
  static const int pips[7][6][2] = {{},
                                    {{0, 0}},
                                    {{-1, -1}, {1, 1}},
                                    {{-1, -1}, {0, 0}, {1, 1}},
                                    {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
                                    {{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
                                    {{-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}}};
  static const int npips[7] = {0, 1, 2, 3, 4, 5, 6};
  for (const referee::ObservedCell& c : obs.cells) {
    const Point ctr = s.cell_centre(c.hex);
    const double half = 8.0;
    std::vector<cv::Point> q = {to_px(h, ctr.x - half, ctr.y - half), to_px(h, ctr.x + half, ctr.y - half),
                                to_px(h, ctr.x + half, ctr.y + half), to_px(h, ctr.x - half, ctr.y + half)};
    cv::fillConvexPoly(img, q, die_bgr(c.color), cv::LINE_AA);
    const cv::Scalar ink = c.color == "white" || c.color == "yellow" ? cv::Scalar(20, 20, 20) : cv::Scalar(245, 245, 245);
    const int f = c.face >= 1 && c.face <= 6 ? c.face : 0;
    const double px_per_mm = std::hypot(q[1].x - q[0].x, q[1].y - q[0].y) / 16.0;
    for (int k = 0; k < npips[f]; ++k)
      cv::circle(img, to_px(h, ctr.x + pips[f][k][0] * 4.5, ctr.y + pips[f][k][1] * 4.5),
                 std::max(1, static_cast<int>(1.5 * px_per_mm)), ink, -1, cv::LINE_AA);
    if (c.guard) cv::circle(img, to_px(h, ctr.x + 11, ctr.y - 9), std::max(2, static_cast<int>(3 * px_per_mm)),
                            cv::Scalar(200, 120, 30), -1, cv::LINE_AA);
  }
  if (obs.motion) {  // a hand over the sheet
    const cv::Point p = to_px(h, s.width_mm * 0.62, s.height_mm * 0.45);
    cv::ellipse(img, p, cv::Size(size.height / 9, size.height / 6), 25, 0, 360, cv::Scalar(120, 160, 215), -1, cv::LINE_AA);
    cv::rectangle(img, cv::Point(p.x + size.height / 12, p.y), cv::Point(size.width, p.y + size.height / 6),
                  cv::Scalar(110, 150, 205), -1, cv::LINE_AA);
  }
  return img;
}

Result<std::unique_ptr<LiveLoop>> LiveLoop::open(const LiveOptions& o) {
  using namespace hexdice::referee;
  if (o.source.empty() == o.observations.empty()) return Error{"give exactly one of a camera/video/image source or observations"};
  std::unique_ptr<LiveLoop> l(new LiveLoop());
  l->opt_ = o;
  if (!l->opt_.open_source) l->opt_.open_source = [](const std::string& spec) { return open_source(spec); };
  auto src = o.observations.empty() ? l->opt_.open_source(o.source) : open_observations(o.observations);
  if (!src) return Error{src.error()};
  l->src_ = std::move(*src);
  l->live_ = l->src_->live();
  l->description_ = o.observations.empty() ? (l->live_ ? "camera " : "") + o.source : "recorded observations " + o.observations;
  if (!o.commands.empty()) {
    std::string err;
    auto text = cli::read_file(o.commands, err);
    if (!text) return Error{err};
    auto cmds = parse_frame_commands(*text, o.commands);
    if (!cmds) return Error{cmds.error()};
    l->scripted_ = std::move(*cmds);
  }
  RefereeParams params;
  params.drop_when_full = l->live_;
  auto ref = Referee::open(o.db_path, o.start, params, o.setup);
  if (!ref) return Error{ref.error()};
  l->ref_ = std::move(*ref);
  if (o.calib) l->calib_ = std::make_shared<const vision::CalibrationData>(*o.calib);
  l->cview_.path = o.calib_path;
  l->cview_.loaded = o.calib.has_value();
  if (o.calib) l->cview_.loaded_summary = calib_summary(*o.calib);
  if (o.calibrate_camera) l->start_camera_calibration();
  l->ref_->start();
  l->capture_ = std::thread([p = l.get()] { p->run(); });
  return l;
}

LiveLoop::~LiveLoop() {
  stop_ = true;
  if (capture_.joinable()) capture_.join();
  if (ref_) ref_->stop();
}

bool LiveLoop::latest(LivePicture& out) const {
  std::lock_guard lk(mu_);
  if (pic_.version == out.version) return false;
  out = pic_;
  return true;
}

std::vector<referee::LogLine> LiveLoop::frame_warnings() const {
  std::lock_guard lk(mu_);
  return frame_warnings_;
}

std::string LiveLoop::source_error() const {
  std::lock_guard lk(mu_);
  return error_;
}

void LiveLoop::run() {
  using namespace hexdice::referee;
  const vision::SheetLayout layout = vision::standard_sheet();
  // The referee's own frame path (motion frames not read, a read stopped at a covered cell:
  // docs/referee.md "Frame budget"); made again when the calibration changes.
  std::optional<FrameReader> reader;
  const cv::Size synth(1280, 720);
  const auto t0 = Clock::now();
  const double fps = opt_.fps > 0 ? opt_.fps : 10;
  std::uint64_t version = 0;
  referee::Frame f;
  std::shared_ptr<const vision::CalibrationData> cal;
  // A camera reopened after it went away numbers its frames on from the last one seen.
  int index_base = 0, last_index = -1;
  bool last_reached = false;
  for (;;) {
    // A live camera: the newest frame when the reader is ready, the others dropped (latest_frame.h).
    std::optional<LatestFrameGrabber> grabber;
    if (live_) grabber.emplace(*src_);
    while (!stop_ && (grabber ? grabber->next(f) : src_->next(f))) {
      f.index += index_base;
      last_index = f.index;
      LivePicture pic;
      pic.index = f.index;
      pic.warning = f.warning;
      if (!f.warning.empty()) {  // a frame file's decoder warning: said in the window, the run goes on
        std::lock_guard lk(mu_);
        if (frame_warnings_.size() < kMaxFrameWarnings)
          frame_warnings_.push_back(referee::LogLine{f.index, true, "warning: " + f.warning});
        ++frame_warning_count_;
      }
      const auto r0 = Clock::now();
      if (!f.image.empty()) {
        {
          std::lock_guard lk(mu_);
          if (calib_ != cal) {  // a calibration saved from the window: the reader switches to it
            cal = calib_;
            reader.reset();
            calib_checked_ = false;
          }
        }
        if (cal && !calib_checked_) {  // as `hexdice read --calib`: stale or mismatched -> a warning
          std::string w;
          for (const auto& i : calibration::check_calibration(*cal, f.image.size(), &layout).issues)
            if (i.kind != calibration::CheckIssue::NoMetadata) w += (w.empty() ? "" : "; ") + i.message;
          calib_checked_ = true;
          std::lock_guard lk(mu_);
          cview_.warning = w;
        }
        if (session_on_) {  // camera calibration: every picture is offered to the session
          std::unique_lock sl(sess_mu_);
          if (session_) {
            const calibration::CharucoDetection det = session_->add_frame(f.image);
            const auto progress = session_->progress();
            sl.unlock();
            std::lock_guard lk(mu_);
            cview_.progress = progress;
            cview_.last_corners = static_cast<int>(det.corners.size());
          }
        }
        if (!reader) reader.emplace(layout, cal ? std::optional<vision::CalibrationData>(*cal) : std::nullopt);
        // The setup's dice phases read the map's cells with a hand over part of it.
        reader->set_full_read_when_covered(ref_->in_setup());
        Observation obs = reader->see(f.image);  // the pose too: setup reads dice off the sheet
        const vision::Observation& seen = obs;
        pic.image = f.image;
        pic.frame.registered = seen.pose.found;
        if (seen.pose.found) {
          pic.frame.homography = to_array(seen.pose.paper_to_image);
          pic.frame.registration_error_px = seen.pose.reprojection_px;
        }
        pic.frame.markers = static_cast<int>(seen.pose.marker_ids.size());
        for (const auto& c : seen.cells) {
          const cv::Point2d p = vision::apply_h(seen.pose.top_to_image, {layout.cell_centre(c.hex).x, layout.cell_centre(c.hex).y});
          pic.frame.dice.push_back(Detection{Board::get(layout.radius)->name(c.hex), c.color, c.face, c.guard, p.x, p.y});
        }
        f.obs = obs;
      } else if (f.obs) {
        const cv::Matx33d h = demo_pose(f.index, synth);
        pic.image = draw_table(*f.obs, h, synth);
        pic.frame.registered = f.obs->board_found;
        pic.frame.homography = to_array(h);
        pic.frame.registration_error_px = 0;
        pic.frame.markers = f.obs->board_found ? 4 : 0;
        for (const auto& c : f.obs->cells) {
          const cv::Point2d p = vision::apply_h(h, {layout.cell_centre(c.hex).x, layout.cell_centre(c.hex).y});
          pic.frame.dice.push_back(Detection{Board::get(layout.radius)->name(c.hex), c.color, c.face, c.guard, p.x, p.y});
        }
      } else {
        continue;
      }
      pic.read_ms = std::chrono::duration<double, std::milli>(Clock::now() - r0).count();
      if (const int sw = shown_w_, sh = shown_h_; sw > 0 && sh > 0 && sw < pic.image.cols && sh < pic.image.rows)
        cv::resize(pic.image, pic.shown, cv::Size(sw, sh), 0, 0, cv::INTER_AREA);
      pic.frame.source = f.name.empty() ? description_ : f.name;
      pic.frame.width = pic.image.cols;
      pic.frame.height = pic.image.rows;
      pic.obs = *f.obs;
      pic.version = ++version;
      auto [lo, hi] = scripted_.equal_range(f.index);
      for (auto it = lo; it != hi; ++it) ref_->post_command(it->second);
      const double t_ms = live_ ? std::chrono::duration<double, std::milli>(Clock::now() - t0).count() : f.index * 1000.0 / fps;
      ref_->post_frame(std::move(*f.obs), t_ms, f.index, f.image);
      {
        std::lock_guard lk(mu_);
        pic_ = std::move(pic);
      }
      if (opt_.on_picture) opt_.on_picture();
      f.obs.reset();
      if (opt_.last_frame >= 0 && f.index >= opt_.last_frame) {
        last_reached = true;
        break;
      }
      if (!live_ && opt_.fps > 0) {
        const auto until = t0 + std::chrono::microseconds(static_cast<long long>((f.index + 1) * 1e6 / opt_.fps));
        // Paced in steps of at most 20 ms (stop_ is looked at in between), not 200 wake-ups a second.
        for (auto now = Clock::now(); !stop_ && now < until; now = Clock::now())
          std::this_thread::sleep_for(std::min<Clock::duration>(until - now, std::chrono::milliseconds(20)));
      }
    }
    grabber.reset();  // its thread stopped before the source it reads is replaced
    {
      std::lock_guard lk(mu_);
      error_ = src_->error();
    }
    // A camera that stopped giving frames mid-game: said in the window (source_error), the
    // referee and its record kept, the camera tried again until it is back (robust22: before,
    // the loop ended here and the window said to start the companion again).
    if (stop_ || last_reached || !live_ || src_->error().empty() || !reopen_camera()) break;
    index_base = last_index + 1;
  }
  done_ = true;
}

bool LiveLoop::reopen_camera() {
  const std::string lost = src_->error();
  char every[32];
  std::snprintf(every, sizeof every, "%g s", opt_.reopen_every_s);
  {
    std::lock_guard lk(mu_);
    error_ = lost + "; trying to open it again every " + every;
  }
  reopening_ = true;
  for (int attempt = 1; !stop_; ++attempt) {
    const auto until = Clock::now() + std::chrono::microseconds(static_cast<long long>(opt_.reopen_every_s * 1e6));
    for (auto now = Clock::now(); !stop_ && now < until; now = Clock::now())
      std::this_thread::sleep_for(std::min<Clock::duration>(until - now, std::chrono::milliseconds(20)));
    if (stop_) break;
    auto s = opt_.open_source(opt_.source);
    if (s && (*s)->live()) {
      src_ = std::move(*s);
      {
        std::lock_guard lk(mu_);
        error_.clear();
      }
      reopening_ = false;
      ++reconnects_;
      return true;
    }
    std::lock_guard lk(mu_);
    error_ = lost + "; trying to open it again every " + every + " (try " + std::to_string(attempt) + ": " +
             (s ? std::string("not a camera") : s.error()) + ")";
  }
  reopening_ = false;
  return false;
}

// ---- Calibration from the window ----------------------------------------------------------

namespace {
constexpr int kMinViews = 5;  // CameraCalibParams::min_frames
}

std::string calib_summary(const vision::CalibrationData& c) {
  std::string s;
  if (c.camera) {
    char b[96];
    std::snprintf(b, sizeof b, "fx %.0f fy %.0f cx %.0f cy %.0f at %dx%d", c.camera->camera_matrix(0, 0),
                  c.camera->camera_matrix(1, 1), c.camera->camera_matrix(0, 2), c.camera->camera_matrix(1, 2),
                  c.camera->image_size.width, c.camera->image_size.height);
    s = b;
  } else {
    s = "no lens calibration";
  }
  s += ", " + (c.colors.empty() ? std::string("built-in colours") : std::to_string(c.colors.size()) + " calibrated colours");
  return s;
}

void LiveLoop::start_camera_calibration(int target_views) {
  {
    std::lock_guard sl(sess_mu_);
    session_ = std::make_unique<calibration::CameraCalibrationSession>(calibration::known_charuco_specs().front(),
                                                                        calibration::CameraCalibParams{}, target_views);
  }
  session_on_ = true;
  std::lock_guard lk(mu_);
  cview_.session = true;
  cview_.progress = {};
  cview_.progress.target = target_views;
  cview_.camera.reset();
  cview_.camera_error.clear();
  cview_.saved.clear();
}

void LiveLoop::calibrate_camera() {
  if (cam_future_.valid()) return;  // already running
  {
    std::lock_guard lk(mu_);
    if (!cview_.session) {
      cview_.camera_error = "start the calibration first (show the ChArUco board)";
      return;
    }
    if (cview_.progress.frames_kept < kMinViews) {
      cview_.camera_error = "need at least " + std::to_string(kMinViews) + " views, " +
                            std::to_string(cview_.progress.frames_kept) + " kept so far";
      return;
    }
    cview_.camera_running = true;
    cview_.camera_error.clear();
  }
  // The session is shared with the capture thread: the worker takes the lock only to copy
  // the kept views (calibrate_async), then calibrates without it.
  cam_future_ = std::async(std::launch::async, [this]() -> Result<calibration::CameraCalibration> {
    std::future<Result<calibration::CameraCalibration>> inner;
    {
      std::lock_guard sl(sess_mu_);
      if (!session_) return Error{"no calibration session"};
      inner = session_->calibrate_async();
    }
    return inner.get();
  });
}

void LiveLoop::calibrate_colors() {
  if (col_future_.valid()) return;
  cv::Mat img;
  std::shared_ptr<const vision::CalibrationData> cal;
  {
    std::lock_guard lk(mu_);
    img = pic_.image;
    cal = calib_;
    if (img.empty() || !opt_.observations.empty()) {
      cview_.colors_error = "no camera picture to sample (recorded observations have none)";
      return;
    }
    cview_.colors_running = true;
    cview_.colors_error.clear();
  }
  col_future_ = std::async(std::launch::async, [img, cal]() {
    const vision::SheetLayout layout = vision::standard_sheet();
    return calibration::calibrate_colors(img, layout, calibration::default_color_cells(layout), cal.get());
  });
}

void LiveLoop::poll_calibration() {
  using namespace std::chrono_literals;
  if (cam_future_.valid() && cam_future_.wait_for(0s) == std::future_status::ready) {
    auto r = cam_future_.get();
    std::lock_guard lk(mu_);
    cview_.camera_running = false;
    if (r) cview_.camera = std::move(*r);
    else cview_.camera_error = r.error();
  }
  if (col_future_.valid() && col_future_.wait_for(0s) == std::future_status::ready) {
    auto r = col_future_.get();
    std::lock_guard lk(mu_);
    cview_.colors_running = false;
    if (r) cview_.colors = std::move(*r);
    else cview_.colors_error = r.error();
  }
  // Calibrate by itself once enough views are in (the target, or the source ended).
  bool go = false;
  {
    std::lock_guard lk(mu_);
    go = cview_.session && !cview_.camera_running && !cview_.camera && cview_.camera_error.empty() &&
         (cview_.progress.ready || (done_ && cview_.progress.frames_kept >= kMinViews));
    if (cview_.session && !cview_.camera && !cview_.camera_running && done_ && cview_.camera_error.empty() &&
        cview_.progress.frames_kept < kMinViews)
      cview_.camera_error = "the source ended with " + std::to_string(cview_.progress.frames_kept) +
                            " views kept; at least " + std::to_string(kMinViews) + " are needed";
  }
  if (go) calibrate_camera();
}

Status LiveLoop::save_calibration() {
  std::lock_guard lk(mu_);
  if (!cview_.camera && !cview_.colors) return Error{"nothing to save: calibrate the camera or the colours first"};
  if (cview_.path.empty()) return Error{"no calibration file: start with --calib FILE"};
  vision::CalibrationData data = calib_ ? *calib_ : vision::CalibrationData{};
  const vision::SheetLayout layout = vision::standard_sheet();
  if (cview_.camera) calibration::set_camera(data, *cview_.camera, "companion:" + description_, calibration::known_charuco_specs().front());
  if (cview_.colors) calibration::set_colors(data, *cview_.colors, layout, "companion:" + description_);
  if (Status st = calibration::save_calibration(data, cview_.path); !st) {
    cview_.saved = "not saved: " + st.error();
    return st;
  }
  calib_ = std::make_shared<const vision::CalibrationData>(std::move(data));  // the reader takes it next frame
  cview_.loaded = true;
  cview_.loaded_summary = calib_summary(*calib_);
  cview_.warning.clear();
  cview_.session = false;
  session_on_ = false;
  cview_.saved = "saved to " + cview_.path + "; the reader uses it";
  return {};
}

CalibView LiveLoop::calib_view() const {
  std::lock_guard lk(mu_);
  return cview_;
}

PhysicalRoll read_physical_roll(const LivePicture& pic) {
  PhysicalRoll r;
  if (pic.image.empty()) { r.why = "no picture"; return r; }
  const std::vector<vision::DieDetection> dice = vision::find_dice(pic.image);
  std::vector<cv::Point2f> sheet;
  if (pic.frame.registered) {
    const vision::SheetLayout s = vision::standard_sheet();
    cv::Matx33d h;
    for (int k = 0; k < 9; ++k) h(k / 3, k % 3) = pic.frame.homography[static_cast<std::size_t>(k)];
    for (const auto& c : {cv::Point2d(0, 0), cv::Point2d(s.width_mm, 0), cv::Point2d(s.width_mm, s.height_mm), cv::Point2d(0, s.height_mm)}) {
      const cv::Point2d p = vision::apply_h(h, c);
      sheet.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
    }
  }
  std::vector<int> faces;
  for (const auto& d : dice) {
    const cv::Point2f c(static_cast<float>(d.box.x + d.box.width * 0.5), static_cast<float>(d.box.y + d.box.height * 0.5));
    if (!sheet.empty() && cv::pointPolygonTest(sheet, c, false) >= 0) continue;  // a unit on the map
    faces.push_back(d.face);
  }
  if (faces.size() == 1) {
    r.face = faces[0];
    r.why = "the die beside the sheet shows " + std::to_string(faces[0]);
  } else if (faces.empty()) {
    r.why = "no die found outside the sheet: roll one beside it, or use the virtual die";
  } else {
    r.why = std::to_string(faces.size()) + " dice found outside the sheet: leave only the activation die there";
  }
  return r;
}

}  // namespace hexdice::gui
