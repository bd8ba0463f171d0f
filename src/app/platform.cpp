#include "app/platform.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in another GL header
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>

#include "app/prefs.hpp"
#include "render/renderer.hpp"
#include "ui/panel.hpp"

namespace app {

namespace {
constexpr float kBaseFontPixels = 13.0f;  // ImGui's default font at scale 1
// the window's input, kept as GLFW's user pointer of the window: no global
WindowInput& inputOf(GLFWwindow* w) {
  return *static_cast<WindowInput*>(glfwGetWindowUserPointer(w));
}
}  // namespace

bool haveDisplay() {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (display && *display) || (wayland && *wayland);
}

GLFWwindow* openWindow(int width, int height, const std::string& title, bool visible) {
  glfwSetErrorCallback([](int, const char*) {});
  if (!glfwInit()) return nullptr;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* w = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!w) return nullptr;
  glfwMakeContextCurrent(w);
  if (gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) != 0) {
    glfwSwapInterval(1);  // vsync: the frame rate paces the loop, no busy wait
    return w;
  }
  glfwDestroyWindow(w);
  return nullptr;
}

void closeWindow(GLFWwindow* window) {
  if (!window) return;
  glfwDestroyWindow(window);
  glfwTerminate();
}

float contentScale(GLFWwindow* window) {
  float sx = 1.0f, sy = 1.0f;
  if (window) glfwGetWindowContentScale(window, &sx, &sy);
  return sx > 1.0f ? sx : 1.0f;
}

void cursorToFramebuffer(GLFWwindow* window, double& x, double& y) {
  int ww, wh, fw, fh;
  glfwGetWindowSize(window, &ww, &wh);
  glfwGetFramebufferSize(window, &fw, &fh);
  if (ww > 0 && wh > 0) x *= double(fw) / ww, y *= double(fh) / wh;
}

void connectInput(GLFWwindow* window, WindowInput& input) {
  glfwSetWindowUserPointer(window, &input);
  glfwSetMouseButtonCallback(
      window, [](GLFWwindow* w, int b, int a, int m) { inputOf(w).onMouseButton(b, a, m); });
  glfwSetCursorPosCallback(window,
                           [](GLFWwindow* w, double x, double y) { inputOf(w).onCursor(x, y); });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double, double dy) { inputOf(w).onScroll(dy); });
  glfwSetKeyCallback(window,
                     [](GLFWwindow* w, int k, int, int a, int m) { inputOf(w).onKey(k, a, m); });
  ImGui_ImplGlfw_InitForOpenGL(window, true);
}

void createImGui(float scale, bool persist) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  static std::string ini;
  io.IniFilename = nullptr;  // never the working directory; never under --frames or in tests
  if (persist) {
    const std::string dir = configDir();
    std::error_code ec;
    if (!dir.empty() && std::filesystem::create_directories(dir, ec), !ec) {
      ini = dir + "/imgui.ini";
      io.IniFilename = ini.c_str();
    }
  }
  ImGui::StyleColorsDark();
  ImFontConfig cfg;
  cfg.SizePixels = kBaseFontPixels * scale;  // 1.86 has no dynamic DPI fonts: load at size once
  io.Fonts->AddFontDefault(&cfg);
  ImFontConfig title = cfg;  // the second font: the divergence banner's title (ui/panel.hpp)
  title.SizePixels = cfg.SizePixels * ui::kBannerTitleScale;
  io.Fonts->AddFontDefault(&title);
  ImGui::GetStyle().ScaleAllSizes(scale);
}

bool initImGuiRenderer(bool nearestFont) {
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) return false;
  if (!nearestFont) return true;
  // the font texture now rather than at the first frame, so that its filter can be set
  if (!ImGui_ImplOpenGL3_CreateDeviceObjects()) return false;
  const auto texture =
      static_cast<GLuint>(reinterpret_cast<std::intptr_t>(ImGui::GetIO().Fonts->TexID));
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  // its anti-aliased lines from the texture want bilinear filtering: drawn as geometry instead
  ImGui::GetStyle().AntiAliasedLinesUseTex = false;
  return true;
}

void shutdownImGui(bool withWindow) {
  ImGui_ImplOpenGL3_Shutdown();
  if (withWindow) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void presentToWindow(GLFWwindow* window, const render::Framebuffer& fbo, int width, int height) {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo.finalFramebuffer());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glfwSwapBuffers(window);
}

}  // namespace app
