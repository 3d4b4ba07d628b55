// The window layer, and the only file that knows GLFW and OpenGL: a window with an
// OpenGL 3 context (GLSL "#version 130", what Mesa gives under Xvfb), Dear ImGui set up
// on it, frame begin/end, textures from BGR images, screenshots. Panels never see it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct GLFWwindow;

namespace hexdice::gui {

struct WindowOptions {
  int width = 1600, height = 900;
  std::string title = "Hex Dice Companion";
  std::string ini_path;   // imgui.ini; empty = none
  bool vsync = true;
};

class Backend {
 public:
  // One clear message on failure (no display, no OpenGL 3).
  static bool create(const WindowOptions& o, Backend& out, std::string& error);
  ~Backend();
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  bool should_close() const;
  void request_close();
  // Input and window events (mouse, keys, scroll, resize, expose, focus) seen so far: the
  // window redraws when this changes (RedrawPolicy). wait_events() sleeps until an event
  // or the timeout; wake() (any thread) ends the wait at once (a new camera picture).
  std::uint64_t events() const;
  void wait_events(double timeout_s);
  static void wake();
  void begin_frame();
  // Renders into the back buffer (read_pixels sees it). No glFinish: the swap (or
  // glReadPixels) waits for the rasteriser anyway; finish() is only for the benchmark,
  // to time the rasterisation apart from the submission and the copy to the screen.
  void end_frame();
  void finish();
  void present();      // swaps buffers
  std::string renderer() const;  // GL_RENDERER and GL_VERSION, e.g. "llvmpipe (LLVM 15.0.6, 256 bits), 3.0 Mesa 22.3.6"
  float content_scale() const { return scale_; }
  int width() const;
  int height() const;

  // An RGBA texture from a BGR 8-bit image (reused when the size matches); 0 on failure.
  std::uintptr_t upload_bgr(const std::uint8_t* data, int w, int h, int stride, std::uintptr_t reuse);
  void free_texture(std::uintptr_t tex);
  // The back buffer of the last rendered frame, RGB rows top-down.
  std::vector<std::uint8_t> read_pixels(int& w, int& h) const;

 private:
  GLFWwindow* window_ = nullptr;
  float scale_ = 1.0f;
  std::string ini_;
};

}  // namespace hexdice::gui
