#include "companion/referee/latest_frame.h"

namespace hexdice::referee {

LatestFrameGrabber::LatestFrameGrabber(FrameSource& src) : src_(src) {
  thread_ = std::thread([this] {
    Frame f;
    for (;;) {
      {
        std::lock_guard lk(mu_);
        if (stop_) break;
      }
      if (!src_.next(f)) break;
      std::lock_guard lk(mu_);
      ++grabbed_;
      if (slot_) ++dropped_;  // the reader was busy: the older frame is never seen
      slot_ = std::move(f);
      f = Frame{};
      cv_.notify_all();
    }
    std::lock_guard lk(mu_);
    ended_ = true;
    cv_.notify_all();
  });
}

LatestFrameGrabber::~LatestFrameGrabber() { stop(); }

void LatestFrameGrabber::stop() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
    cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

bool LatestFrameGrabber::next(Frame& f) {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return slot_.has_value() || ended_ || stop_; });
  if (!slot_) return false;
  f = std::move(*slot_);
  slot_.reset();
  return true;
}

int LatestFrameGrabber::grabbed() const {
  std::lock_guard lk(mu_);
  return grabbed_;
}

int LatestFrameGrabber::dropped() const {
  std::lock_guard lk(mu_);
  return dropped_;
}

}  // namespace hexdice::referee
