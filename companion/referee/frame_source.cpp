#include "companion/referee/frame_source.h"

#include "vision/reader_io.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

namespace hexdice::referee {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::vector<fs::path> files_with(const fs::path& dir, const std::vector<std::string>& exts) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string ext = lower(e.path().extension().string());
    if (std::find(exts.begin(), exts.end(), ext) != exts.end()) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  return out;
}

// A frame's picture from an image file: load_image, not imread, so a frame cut short is
// refused with its reason rather than read as a half-grey board.
Status load_image_frame(const fs::path& file, Frame& f) {
  auto img = vision::load_image(file.string(), &f.warning);
  if (!img) return Error{"cannot read frame: " + img.error()};
  f.image = std::move(*img);
  return {};
}

// A frame's observation from a JSON file (interfaces.md's observation format).
Status load_observation_frame(const fs::path& file, Frame& f) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  const Json j = Json::parse(ss.str(), nullptr, false);
  if (!in || j.is_discarded()) return Error{file.string() + ": not valid JSON"};
  auto o = observation_from_json(j);
  if (!o) return Error{file.string() + ": " + o.error()};
  f.obs = std::move(*o);
  return {};
}

// A folder of frames, one file each in name order, filled by `load` (one of the two above).
// open() loads the first file, as a video's first frame is read when it opens: a bad first
// frame is refused before the referee opens (or creates) a game.
class FileDirSource : public FrameSource {
 public:
  using Loader = Status (*)(const fs::path&, Frame&);
  static Result<std::unique_ptr<FrameSource>> open(std::vector<fs::path> files, Loader load) {
    std::unique_ptr<FileDirSource> s(new FileDirSource(std::move(files), load));
    if (Status st = s->load_at(0, s->first_); !st) return Error{st.error()};
    return std::unique_ptr<FrameSource>(std::move(s));
  }
  bool next(Frame& f) override {
    if (i_ >= files_.size()) return false;
    if (i_ == 0) {
      f = std::move(first_);
    } else if (Status st = load_at(i_, f); !st) {
      error_ = st.error();
      return false;
    }
    ++i_;
    return true;
  }

 private:
  FileDirSource(std::vector<fs::path> files, Loader load) : files_(std::move(files)), load_(load) {}
  Status load_at(std::size_t i, Frame& f) const {
    f = Frame{};
    f.index = static_cast<int>(i);
    f.name = files_[i].filename().string();
    return load_(files_[i], f);
  }

  std::vector<fs::path> files_;
  Loader load_;
  Frame first_;
  std::size_t i_ = 0;
};

class CaptureSource : public FrameSource {
 public:
  CaptureSource(std::unique_ptr<cv::VideoCapture> cap, bool live, cv::Mat first, std::string name)
      : cap_(std::move(cap)), live_(live), first_(std::move(first)), name_(std::move(name)) {}
  bool next(Frame& f) override {
    f = Frame{};
    f.index = n_;
    if (!first_.empty()) {
      f.image = std::move(first_);
      first_.release();
    } else if (!cap_->read(f.image) || f.image.empty()) {
      // A video ends; a camera that stops giving frames was unplugged or taken (robust20:
      // the referee stopped as if the game were over, exit 0, saying nothing).
      if (live_)
        error_ = "camera " + name_ + " stopped giving frames after " + std::to_string(n_) +
                 " (unplugged, or taken by another program?); every action seen so far is logged";
      return false;
    }
    ++n_;
    return true;
  }
  bool live() const override { return live_; }

 private:
  std::unique_ptr<cv::VideoCapture> cap_;
  bool live_;
  cv::Mat first_;
  std::string name_;
  int n_ = 0;
};

// OpenCV's video back ends (FFmpeg, GStreamer) write their own warnings on stderr when a
// file is not a video; the referee reports one line of its own instead.
class QuietStderr {
 public:
  QuietStderr() {
    std::fflush(stderr);
    saved_ = ::dup(2);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, 2);
      ::close(null);
    }
  }
  ~QuietStderr() {
    std::fflush(stderr);
    if (saved_ >= 0) {
      ::dup2(saved_, 2);
      ::close(saved_);
    }
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

}  // namespace

Result<FrameCommands> parse_frame_commands(const std::string& text, const std::string& name) {
  FrameCommands out;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    int frame = -1;
    std::string rest;
    if (!(ls >> frame) || frame < 0) return Error{name + ":" + std::to_string(n) + ": expected \"FRAME COMMAND\""};
    std::getline(ls, rest);
    out.emplace(frame, rest);
  }
  return out;
}

Result<std::unique_ptr<FrameSource>> open_observations(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{"observations: " + dir + " is not a directory"};
  auto files = files_with(dir, {".json"});
  if (files.empty()) return Error{"observations: no *.json files in " + dir};
  return FileDirSource::open(std::move(files), load_observation_frame);
}

Result<std::unique_ptr<FrameSource>> open_source(const std::string& spec) {
  if (spec.empty()) return Error{"--source is empty"};
  std::error_code ec;
  if (fs::is_directory(spec, ec)) {
    auto files = files_with(spec, {".png", ".jpg", ".jpeg", ".bmp"});
    if (files.empty()) return Error{"source " + spec + ": no images (png/jpg) in this directory"};
    return FileDirSource::open(std::move(files), load_image_frame);
  }
  const bool is_index = spec.size() <= 3 && spec.find_first_not_of("0123456789") == std::string::npos;
  auto cap = std::make_unique<cv::VideoCapture>();
  QuietStderr quiet;
  if (is_index) {
    const int idx = std::stoi(spec);
    // A webcam on Linux is a V4L2 device (GStreamer as the fallback). Not CAP_ANY: that also
    // runs gphoto2's USB camera scan, which takes seconds and leaks what libusb lists.
    if (!cap->open(idx, cv::CAP_V4L2) && !cap->open(idx, cv::CAP_GSTREAMER)) return Error{"no camera at index " + spec};
    cap->set(cv::CAP_PROP_FRAME_WIDTH, 1280);
    cap->set(cv::CAP_PROP_FRAME_HEIGHT, 720);
    cap->set(cv::CAP_PROP_FPS, 30);
  } else {
    if (!fs::exists(spec, ec)) return Error{"source " + spec + ": no such file, directory or camera index"};
    // A video file: FFmpeg, then GStreamer, then an image sequence (name%04d.png), the
    // backends CAP_ANY would reach for a file, without its scan for USB cameras.
    if (!cap->open(spec, cv::CAP_FFMPEG) && !cap->open(spec, cv::CAP_GSTREAMER) && !cap->open(spec, cv::CAP_IMAGES))
      return Error{"source " + spec + ": cannot open as a video"};
  }
  cv::Mat first;
  if (!cap->read(first) || first.empty())
    return Error{is_index ? "camera " + spec + " gives no frames" : "source " + spec + ": no readable video frames"};
  return std::unique_ptr<FrameSource>(new CaptureSource(std::move(cap), is_index, std::move(first), spec));
}

std::unique_ptr<FrameSource> capture_source(std::unique_ptr<cv::VideoCapture> cap, bool live, std::string name) {
  return std::unique_ptr<FrameSource>(new CaptureSource(std::move(cap), live, cv::Mat(), std::move(name)));
}

cv::Mat motion_thumb(const cv::Mat& bgr, const MotionParams& p) {
  if (bgr.empty()) return {};
  cv::Mat small, grey;
  const double s = static_cast<double>(p.work_width) / bgr.cols;
  cv::resize(bgr, small, cv::Size(p.work_width, std::max(1, static_cast<int>(bgr.rows * s + 0.5))), 0, 0,
             cv::INTER_AREA);
  if (small.channels() == 3) cv::cvtColor(small, grey, cv::COLOR_BGR2GRAY);
  else grey = small;
  cv::GaussianBlur(grey, grey, cv::Size(5, 5), 0);
  return grey;
}

double motion_fraction(const cv::Mat& prev, const cv::Mat& cur, const MotionParams& p) {
  if (prev.empty() || cur.empty() || prev.size() != cur.size()) return 0;
  cv::Mat d;
  cv::absdiff(prev, cur, d);
  const int changed = cv::countNonZero(d > p.pixel_threshold);
  return static_cast<double>(changed) / static_cast<double>(d.total());
}

FrameReader::FrameReader(vision::SheetLayout layout, std::optional<vision::CalibrationData> calib,
                         vision::ReadParams params, MotionParams motion)
    : layout_(std::move(layout)), calib_(std::move(calib)), params_(std::move(params)), motion_(motion),
      user_stop_when_covered_(params_.stop_when_covered) {}

Observation FrameReader::see(const cv::Mat& bgr) {
  std::string unusable = vision::frame_unusable(bgr);
  if (unusable.empty() && !last_size_.empty() && bgr.size() != last_size_) {
    unusable = "the frame size changed from " + std::to_string(last_size_.width) + "x" +
               std::to_string(last_size_.height) + " to " + std::to_string(bgr.cols) + "x" + std::to_string(bgr.rows) +
               " (the camera was reset or replaced): the sheet is looked for afresh";
    tracker_ = vision::TrackerState{};
  }
  if (!bgr.empty()) last_size_ = bgr.size();
  if (!unusable.empty()) {
    // Nothing of it is read, and the next frame's motion is not measured against it.
    prev_thumb_.release();
    last_fraction_ = 0;
    Observation o;
    o.unusable = unusable;
    o.why_not_found = std::move(unusable);
    return o;
  }
  cv::Mat thumb = motion_thumb(bgr, motion_);
  last_fraction_ = motion_fraction(prev_thumb_, thumb, motion_);
  const bool motion = !prev_thumb_.empty() && last_fraction_ > motion_.min_fraction;
  prev_thumb_ = std::move(thumb);
  if (skip_motion_ && motion) {
    // The referee cannot act on this frame: no read (the tracker keeps the last pose).
    ++not_read_;
    Observation o;
    o.motion = true;
    o.not_read = true;
    o.board_found = tracker_.has_pose;
    if (tracker_.has_pose) o.pose = tracker_.last;
    if (!tracker_.has_pose) o.why_not_found = "not read (motion over the sheet)";
    return o;
  }
  params_.stop_when_covered = user_stop_when_covered_ || (skip_motion_ && !full_when_covered_);
  return Observation{vision::read_board(bgr, layout_, calib_ ? &*calib_ : nullptr, params_, &tracker_), motion, false};
}

}  // namespace hexdice::referee
