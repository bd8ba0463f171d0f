// Platform wiring of the window (docs/architecture.md#the-frame-driver): the GLFW window or the
// headless EGL context, ImGui's set-up, input callbacks and presenting. No simulation here.
#pragma once

#include <string>

struct GLFWwindow;

namespace render {
class Framebuffer;
}

namespace app {

// What the window's input callbacks call (GLFW's user pointer of the window).
class WindowInput {
 public:
  virtual ~WindowInput() = default;
  virtual void onMouseButton(int button, int action, int mods) = 0;
  virtual void onCursor(double x, double y) = 0;
  virtual void onScroll(double dy) = 0;
  virtual void onKey(int key, int action, int mods) = 0;
};

// DISPLAY or WAYLAND_DISPLAY is set.
bool haveDisplay();
// A GLFW window with a current OpenGL 3.3 core context and loaded GL functions, or nullptr.
// An invisible one serves record where EGL is missing but a display exists.
GLFWwindow* openWindow(int width, int height, const std::string& title, bool visible = true);
void closeWindow(GLFWwindow* window);
// The monitor's content scale (HiDPI), at least 1.
float contentScale(GLFWwindow* window);
// Routes the window's input to `input`, then installs ImGui's GLFW backend (which chains to it).
void connectInput(GLFWwindow* window, WindowInput& input);
// Window pixels to framebuffer pixels (they differ on HiDPI screens).
void cursorToFramebuffer(GLFWwindow* window, double& x, double& y);

// ImGui with the default font at `scale`; persist: remember window positions in the
// configuration folder (never under --frames, in record or in tests).
void createImGui(float scale, bool persist);
// Its OpenGL backend (after connectInput for a window): false when that fails (the caller goes
// on without UI).
// nearestFont: the font atlas sampled nearest, not bilinear (software GL: the UI's drawing cost
// 14 of its 16 ms of a loaded 1280x720 frame in the texture sampler,
// docs/benchmarks.md#where-a-frame-goes). ImGui's default font is pixel-snapped, so at a UI scale
// of 1 the pixels are the same.
bool initImGuiRenderer(bool nearestFont = false);
void shutdownImGui(bool withWindow);

// The driver's final target to the window, then swap.
void presentToWindow(GLFWwindow* window, const render::Framebuffer& fbo, int width, int height);

}  // namespace app
