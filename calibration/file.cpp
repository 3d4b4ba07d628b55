// The calibration file (JSON) and the staleness / mismatch check.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <set>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "calibration/calibration.h"

namespace hexdice::calibration {

using nlohmann::json;

namespace {

std::string size_text(cv::Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

// "2026-11-29T21:30:00Z" -> time point; nullopt when malformed.
std::optional<std::chrono::system_clock::time_point> parse_iso(const std::string& s) {
  std::tm tm{};
  std::istringstream in(s);
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%S");
  if (in.fail()) return std::nullopt;
  const std::time_t t = timegm(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return std::chrono::system_clock::from_time_t(t);
}

bool finite_all(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace

std::string utc_now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string layout_hash(const vision::SheetLayout& l) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << "paper=" << l.paper << ";w=" << l.width_mm << ";h=" << l.height_mm
    << ";radius=" << l.radius << ";hex=" << l.hex_size_mm << ";centre=" << l.centre_mm.x << "," << l.centre_mm.y
    << ";dict=" << l.aruco_dictionary;
  for (const auto& m : l.markers) {
    s << ";m" << m.id;
    for (const auto& c : m.corners) s << ":" << c.x << "," << c.y;
  }
  // FNV-1a 64.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : s.str()) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

void set_camera(vision::CalibrationData& data, const CameraCalibration& cam, const std::string& source,
                const vision::CharucoSpec& spec) {
  (void)spec;
  data.camera = cam.intrinsics;
  data.meta.version = kCalibrationVersion;
  data.meta.camera_created_utc = utc_now_iso();
  data.meta.created_utc = data.meta.camera_created_utc;
  data.meta.camera_source = source;
  data.meta.camera_rms_px = cam.rms_px;
  data.meta.camera_frames = cam.frames_used;
}

void set_colors(vision::CalibrationData& data, const ColorCalibration& col, const vision::SheetLayout& layout,
                const std::string& source) {
  for (const auto& c : col.colors) {
    bool replaced = false;
    for (auto& old : data.colors)
      if (old.name == c.name) {
        old = c;
        replaced = true;
      }
    if (!replaced) data.colors.push_back(c);
  }
  data.meta.version = kCalibrationVersion;
  data.meta.colors_created_utc = utc_now_iso();
  data.meta.created_utc = data.meta.colors_created_utc;
  data.meta.colors_source = source;
  data.meta.layout_hash = layout_hash(layout);
  data.meta.colors_image_size = col.image_size;
}

std::string calibration_to_json_text(const vision::CalibrationData& d) {
  json j;
  j["format"] = kCalibrationFormat;
  j["version"] = kCalibrationVersion;
  j["created"] = d.meta.created_utc.empty() ? utc_now_iso() : d.meta.created_utc;
  if (d.camera) {
    const auto& c = *d.camera;
    std::vector<double> k(c.camera_matrix.val, c.camera_matrix.val + 9);
    j["camera_matrix"] = k;
    std::vector<double> dist;
    if (!c.dist_coeffs.empty()) {
      cv::Mat dd;
      c.dist_coeffs.reshape(1, 1).convertTo(dd, CV_64F);
      dist.assign(dd.begin<double>(), dd.end<double>());
    }
    j["dist_coeffs"] = dist;
    j["image_size"] = {c.image_size.width, c.image_size.height};
    j["camera"] = {{"created", d.meta.camera_created_utc},
                   {"source", d.meta.camera_source},
                   {"rms_px", d.meta.camera_rms_px},
                   {"frames", d.meta.camera_frames}};
  }
  j["colors"] = json::array();
  for (const auto& s : d.colors)
    j["colors"].push_back({{"name", s.name}, {"bgr_rel", {std::round(s.bgr_rel[0] * 1e4) / 1e4, std::round(s.bgr_rel[1] * 1e4) / 1e4,
                                                          std::round(s.bgr_rel[2] * 1e4) / 1e4}}});
  if (!d.colors.empty())
    j["colors_meta"] = {{"created", d.meta.colors_created_utc},
                        {"source", d.meta.colors_source},
                        {"layout_hash", d.meta.layout_hash},
                        {"image_size", {d.meta.colors_image_size.width, d.meta.colors_image_size.height}}};
  return j.dump(1) + "\n";
}

Result<vision::CalibrationData> calibration_from_json_text(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return Error{"calibration file is not valid JSON"};
  if (!j.is_object()) return Error{"calibration file is not a JSON object"};
  vision::CalibrationData d;
  try {
    if (j.contains("format") && j["format"] != kCalibrationFormat)
      return Error{"not a hexdice calibration file (format is " + j["format"].dump() + ")"};
    if (j.contains("version")) {
      d.meta.version = j["version"].get<int>();
      if (d.meta.version < 1 || d.meta.version > kCalibrationVersion)
        return Error{"calibration file version " + std::to_string(d.meta.version) + " is not supported (this build reads 1.." +
                     std::to_string(kCalibrationVersion) + ")"};
    }
    if (j.contains("created")) d.meta.created_utc = j["created"].get<std::string>();
    if (j.contains("camera_matrix")) {
      const auto k = j["camera_matrix"].get<std::vector<double>>();
      if (k.size() != 9 || !finite_all(k)) return Error{"calibration: camera_matrix needs 9 finite numbers"};
      vision::CameraIntrinsics ci;
      ci.camera_matrix = cv::Matx33d(k.data());
      if (!(k[0] > 0 && k[4] > 0)) return Error{"calibration: focal lengths must be > 0"};
      if (k[1] != 0 || k[3] != 0 || k[6] != 0 || k[7] != 0 || k[8] != 1)
        return Error{"calibration: camera_matrix must be [fx 0 cx; 0 fy cy; 0 0 1]"};
      if (j.contains("dist_coeffs")) {
        const auto dc = j["dist_coeffs"].get<std::vector<double>>();
        static const std::set<std::size_t> ok{0, 4, 5, 8, 12, 14};
        if (!ok.count(dc.size()) || !finite_all(dc)) return Error{"calibration: dist_coeffs needs 0, 4, 5, 8, 12 or 14 finite numbers"};
        if (!dc.empty()) ci.dist_coeffs = cv::Mat(dc, true).reshape(1, 1);
      }
      if (j.contains("image_size")) {
        const auto s = j["image_size"].get<std::vector<int>>();
        if (s.size() != 2 || s[0] < 0 || s[1] < 0) return Error{"calibration: image_size needs [width, height]"};
        ci.image_size = cv::Size(s[0], s[1]);
      }
      d.camera = ci;
    } else if (j.contains("dist_coeffs") || j.contains("image_size")) {
      return Error{"calibration: dist_coeffs/image_size given without camera_matrix"};
    }
    if (j.contains("camera") && j["camera"].is_object()) {
      const auto& c = j["camera"];
      d.meta.camera_created_utc = c.value("created", std::string());
      d.meta.camera_source = c.value("source", std::string());
      d.meta.camera_rms_px = c.value("rms_px", 0.0);
      d.meta.camera_frames = c.value("frames", 0);
    }
    if (j.contains("colors")) {
      if (!j["colors"].is_array()) return Error{"calibration: colors must be an array"};
      std::set<std::string> names;
      for (const auto& s : j["colors"]) {
        if (!s.is_object()) return Error{"calibration: each colour is an object {name, bgr_rel}"};
        const auto name = s.at("name").get<std::string>();
        const auto v = s.at("bgr_rel").get<std::vector<double>>();
        if (name.empty()) return Error{"calibration: a colour has an empty name"};
        if (!names.insert(name).second) return Error{"calibration: colour '" + name + "' is listed twice"};
        if (v.size() != 3 || !finite_all(v)) return Error{"calibration: colour '" + name + "': bgr_rel needs 3 finite numbers"};
        for (double x : v)
          if (x < 0 || x > 5) return Error{"calibration: colour '" + name + "': bgr_rel out of range 0..5"};
        d.colors.push_back({name, cv::Vec3f(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]))});
      }
    }
    if (j.contains("colors_meta") && j["colors_meta"].is_object()) {
      const auto& c = j["colors_meta"];
      d.meta.colors_created_utc = c.value("created", std::string());
      d.meta.colors_source = c.value("source", std::string());
      d.meta.layout_hash = c.value("layout_hash", std::string());
      if (c.contains("image_size")) {
        const auto s = c["image_size"].get<std::vector<int>>();
        if (s.size() == 2) d.meta.colors_image_size = cv::Size(s[0], s[1]);
      }
    }
  } catch (const std::exception& e) {
    return Error{std::string("calibration: ") + e.what()};
  }
  for (const auto* t : {&d.meta.created_utc, &d.meta.camera_created_utc, &d.meta.colors_created_utc})
    if (!t->empty() && !parse_iso(*t)) return Error{"calibration: bad time '" + *t + "' (want YYYY-MM-DDTHH:MM:SSZ)"};
  return d;
}

Result<vision::CalibrationData> load_calibration(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open calibration file " + path};
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Error{"cannot read calibration file " + path};
  auto d = calibration_from_json_text(ss.str());
  if (!d) return Error{path + ": " + d.error()};
  return d;
}

Status save_calibration(const vision::CalibrationData& data, const std::string& path) {
  namespace fs = std::filesystem;
  const std::string text = calibration_to_json_text(data);
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Error{"cannot write " + path};
    out << text;
    out.close();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      return Error{"cannot write " + path};
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Error{"cannot write " + path + ": " + ec.message()};
  }
  return {};
}

bool CheckReport::has(CheckIssue::Kind k) const {
  for (const auto& i : issues)
    if (i.kind == k) return true;
  return false;
}

std::string CheckReport::summary() const {
  std::string s;
  for (const auto& i : issues) s += (s.empty() ? "" : "; ") + i.message;
  return s;
}

CheckReport check_calibration(const vision::CalibrationData& calib, cv::Size frame_size, const vision::SheetLayout* layout,
                              const CheckParams& params) {
  CheckReport r;
  if (calib.camera && frame_size.area() > 0) {
    const cv::Size cs = calib.camera->image_size;
    if (cs.area() > 0 && cs != frame_size) {
      const double a = static_cast<double>(cs.width) / cs.height, b = static_cast<double>(frame_size.width) / frame_size.height;
      if (std::abs(a - b) > 0.01 * a)
        r.issues.push_back({CheckIssue::AspectMismatch, "camera calibrated at " + size_text(cs) + " but frames are " +
                                                            size_text(frame_size) + " (other aspect ratio): intrinsics do not apply, recalibrate"});
      else
        r.issues.push_back({CheckIssue::SizeMismatch, "camera calibrated at " + size_text(cs) + " but frames are " +
                                                          size_text(frame_size) + ": intrinsics scaled, recalibrate for best results"});
    }
  }
  if (layout && !calib.colors.empty() && !calib.meta.layout_hash.empty() && calib.meta.layout_hash != layout_hash(*layout))
    r.issues.push_back({CheckIssue::LayoutMismatch,
                        "colours were calibrated on another sheet (layout hash " + calib.meta.layout_hash + ", this sheet " +
                            layout_hash(*layout) + ")"});
  if (calib.meta.version == 0 && (calib.camera || !calib.colors.empty()))
    r.issues.push_back({CheckIssue::NoMetadata, "calibration file has no metadata (creation time, sheet): cannot tell if it is stale"});
  const auto now = params.now.value_or(std::chrono::system_clock::now());
  auto stale = [&](const std::string& when, const char* what) {
    const auto t = parse_iso(when);
    if (!t) return;
    const auto days = std::chrono::duration_cast<std::chrono::hours>(now - *t).count() / 24;
    if (days > params.stale_days)
      r.issues.push_back({CheckIssue::Stale, std::string(what) + " calibration is " + std::to_string(days) + " days old (> " +
                                                 std::to_string(params.stale_days) + "): recalibrate"});
  };
  if (calib.camera) stale(calib.meta.camera_created_utc.empty() ? calib.meta.created_utc : calib.meta.camera_created_utc, "camera");
  if (!calib.colors.empty()) stale(calib.meta.colors_created_utc.empty() ? calib.meta.created_utc : calib.meta.colors_created_utc, "colour");
  return r;
}

}  // namespace hexdice::calibration
