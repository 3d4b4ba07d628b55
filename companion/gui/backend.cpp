#include "companion/gui/backend.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <GL/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>

namespace hexdice::gui {

static std::string g_glfw_error;
static void on_glfw_error(int code, const char* msg) { g_glfw_error = "GLFW error " + std::to_string(code) + ": " + msg; }

// Every input or window event counts; ImGui's GLFW backend chains these callbacks (it is
// set up after them) and adds its own for buttons, keys, scroll, characters and focus.
static std::uint64_t g_events = 0;
static void count_event(GLFWwindow*) { ++g_events; }
static void on_cursor(GLFWwindow* w, double, double) { count_event(w); }
static void on_button(GLFWwindow* w, int, int, int) { count_event(w); }
static void on_scroll(GLFWwindow* w, double, double) { count_event(w); }
static void on_key(GLFWwindow* w, int, int, int, int) { count_event(w); }
static void on_char(GLFWwindow* w, unsigned) { count_event(w); }
static void on_int(GLFWwindow* w, int) { count_event(w); }
static void on_size(GLFWwindow* w, int, int) { count_event(w); }

bool Backend::create(const WindowOptions& o, Backend& out, std::string& error) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    error = "cannot open a window (no display? set DISPLAY or run under Xvfb): " + g_glfw_error;
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  out.window_ = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
  if (!out.window_) {
    error = "cannot create an OpenGL 3.0 window: " + g_glfw_error;
    glfwTerminate();
    return false;
  }
  glfwMakeContextCurrent(out.window_);
  glfwSwapInterval(o.vsync ? 1 : 0);
  // DPI: the monitor's content scale (1 on a plain screen, 2 on a HiDPI one).
  float sx = 1, sy = 1;
  if (GLFWmonitor* m = glfwGetPrimaryMonitor()) glfwGetMonitorContentScale(m, &sx, &sy);
  out.scale_ = std::clamp(std::max(sx, sy), 1.0f, 4.0f);

  glfwSetCursorPosCallback(out.window_, on_cursor);
  glfwSetMouseButtonCallback(out.window_, on_button);
  glfwSetScrollCallback(out.window_, on_scroll);
  glfwSetKeyCallback(out.window_, on_key);
  glfwSetCharCallback(out.window_, on_char);
  glfwSetCursorEnterCallback(out.window_, on_int);
  glfwSetWindowFocusCallback(out.window_, on_int);
  glfwSetWindowIconifyCallback(out.window_, on_int);
  glfwSetFramebufferSizeCallback(out.window_, on_size);
  glfwSetWindowRefreshCallback(out.window_, count_event);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  out.ini_ = o.ini_path;
  io.IniFilename = out.ini_.empty() ? nullptr : out.ini_.c_str();
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui::StyleColorsDark();
  ImGui::GetStyle().ScaleAllSizes(out.scale_);
  ImGui_ImplGlfw_InitForOpenGL(out.window_, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  return true;
}

Backend::~Backend() {
  if (!window_) return;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Backend::should_close() const { return glfwWindowShouldClose(window_); }
void Backend::request_close() { glfwSetWindowShouldClose(window_, 1); }
int Backend::width() const { int w, h; glfwGetFramebufferSize(window_, &w, &h); return w; }
int Backend::height() const { int w, h; glfwGetFramebufferSize(window_, &w, &h); return h; }

std::uint64_t Backend::events() const { return g_events; }
void Backend::wait_events(double timeout_s) {
  if (timeout_s <= 0) glfwPollEvents();
  else glfwWaitEventsTimeout(timeout_s);
}
void Backend::wake() { glfwPostEmptyEvent(); }

void Backend::begin_frame() {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void Backend::end_frame() {
  if (!ImGui::GetDrawData()) ImGui::Render();  // main.cpp renders the draw lists itself (timed as our side)
  int w, h;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  // The panels' background colour as it looks over the old clear colour: a panel that
  // overlaps nothing draws no background of its own (panel_backgrounds, app.h).
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  const float r0 = 0.10f, g0 = 0.11f, b0 = 0.13f;
  glClearColor(bg.x * bg.w + r0 * (1 - bg.w), bg.y * bg.w + g0 * (1 - bg.w), bg.z * bg.w + b0 * (1 - bg.w), 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Backend::finish() { glFinish(); }

void Backend::present() { glfwSwapBuffers(window_); }

std::string Backend::renderer() const {
  const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* v = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return std::string(r ? r : "?") + ", " + (v ? v : "?");
}

std::vector<std::uint8_t> Backend::read_pixels(int& w, int& h) const {
  glfwGetFramebufferSize(window_, &w, &h);
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px.data());
  // OpenGL rows are bottom-up.
  const std::size_t row = static_cast<std::size_t>(w) * 3;
  for (int y = 0; y < h / 2; ++y)
    std::swap_ranges(px.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(y)),
                     px.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(y + 1)),
                     px.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(h - 1 - y)));
  return px;
}

std::uintptr_t Backend::upload_bgr(const std::uint8_t* data, int w, int h, int stride, std::uintptr_t reuse) {
  GLuint tex = static_cast<GLuint>(reuse);
  if (!tex) glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  // No mipmaps: measured, they save under 1 ms of rasterisation a frame on llvmpipe and
  // cost up to 20 ms per new picture to build.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, stride / 3);
  // GL_BGR is core since OpenGL 1.2.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, w, h, 0, 0x80E0 /* GL_BGR */, GL_UNSIGNED_BYTE, data);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  return tex;
}

void Backend::free_texture(std::uintptr_t tex) {
  GLuint t = static_cast<GLuint>(tex);
  if (t) glDeleteTextures(1, &t);
}

}  // namespace hexdice::gui
