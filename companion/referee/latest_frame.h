// A live camera must never wait on recognition: the reader takes the NEWEST frame when it
// is ready for one, and frames that arrived meanwhile are dropped (counted), instead of
// piling up in the driver's buffer (OpenCV/V4L2 keeps a few frames: reading them in turn
// would show the referee an ever older table).
//
//   LatestFrameGrabber g(source);   // a grabber thread calls source.next() as fast as it delivers
//   Frame f;
//   while (g.next(f)) { ... read f ... }   // blocks only until a frame newer than the last one
//   g.dropped();                            // frames overwritten before they were taken
//
// For files (directories, videos, observations) do not use it: they are read in full.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "companion/referee/frame_source.h"

namespace hexdice::referee {

class LatestFrameGrabber {
 public:
  explicit LatestFrameGrabber(FrameSource& src);
  ~LatestFrameGrabber();  // stops and joins the grabber thread
  LatestFrameGrabber(const LatestFrameGrabber&) = delete;
  LatestFrameGrabber& operator=(const LatestFrameGrabber&) = delete;

  // The newest frame not yet taken; false once the source has ended and it was taken.
  bool next(Frame& f);
  void stop();
  int grabbed() const;
  int dropped() const;

 private:
  FrameSource& src_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::optional<Frame> slot_;
  bool ended_ = false, stop_ = false;
  int grabbed_ = 0, dropped_ = 0;
  std::thread thread_;
};

}  // namespace hexdice::referee
