#include "app/viewer.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in another GL header
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <memory>
#include <thread>

#include "app/egl_context.hpp"
#include "app/frame_loop.hpp"
#include "app/framing.hpp"
#include "app/mouse.hpp"
#include "app/prefs.hpp"
#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "render/renderer.hpp"
#include "scene/scene_def.hpp"

namespace app {

namespace {

using ui::command;

// Fake clock for headless frames: each frame is exactly 1/60 s of wall time.
struct FrameClock : Clock {
  double t = 0.0;
  double now() override { return t; }
};

std::string timestampName() {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "springlab-%Y%m%d-%H%M%S.png", std::localtime(&t));
  return buf;
}

// Everything one viewer run needs, front-end independent.
struct Viewer {
  ViewerOptions opt;
  Session session;
  ViewBuilder views;
  // GL objects: released (releaseGl) while their context is still current
  std::unique_ptr<render::Renderer> rendererPtr = std::make_unique<render::Renderer>();
  std::unique_ptr<render::Framebuffer> fboPtr = std::make_unique<render::Framebuffer>();
  render::Renderer& renderer = *rendererPtr;
  render::Framebuffer& fbo = *fboPtr;
  void releaseGl() {
    rendererPtr.reset();
    fboPtr.reset();
  }
  render::Camera camera;
  render::DrawOptions draw;
  ui::PanelState panelState;
  bool showUi = true, showHelp = false, quit = false;
  std::string status;        // last rejected command, error or saved file, shown for a while
  bool statusError = false;  // drawn as an error (red)
  double statusUntil = 0.0;
  GLFWwindow* window = nullptr;
  bool imgui = false;
  int samples = 4;  // multisampling; 1 on software renderers, where 4 doubles the frame time
  double lastSimMs = 0.0, lastRenderMs = 0.0, lastPresentMs = 0.0;  // the last frame's parts
  Pacing pacing = Pacing::RealTimeMotion;
  bool follow = false;  // the camera re-centres on the scene's motion every frame
  int sceneX = 0;       // px: the scene's viewport starts right of the panel

  MouseControl mouse{camera, session, views};

  SceneFraming framing;
  // Frame the scene afresh at the next frame (a load, a reset, the F key): a pendulum's reach,
  // or the bodies as they are, the box then growing with the motion.
  void frameScene() {
    const scene::Built& b = session.built();
    framing.reset(b.kind == sim::SystemKind::Pendulum ? pendulumReach(b.pendulum) : Box{});
  }

  // Display defaults of a freshly loaded scene: a cloth shows its surface, not its springs; a 3-D
  // scene is seen from above and aside (render::Camera's default pitch is nearly edge-on to a
  // horizontal cloth, and a little yaw shows depth).
  void sceneDefaults() {
    draw.show_lines = session.built().triangles.empty();
    if (!views.build(session, false).planar) camera.yaw = kYaw3d, camera.pitch = kPitch3d;
  }
  static constexpr float kYaw3d = 0.5f, kPitch3d = 0.6f;  // rad

  void applyCommand(const ui::Command& c) {
    std::string msg;
    bool handled = true;
    using K = ui::Command::Kind;
    const bool loads = c.kind == K::LoadBuiltin || c.kind == K::LoadFile || c.kind == K::Reload;
    if (!session.apply(c, &msg, &handled)) {
      showStatus(msg, true);
      return;
    }
    if (loads) {
      status.clear();  // an old load error must not outlive a successful load
      views.clearTrails();
      frameScene();
      sceneDefaults();
    }
    if (c.kind == K::Reset || c.kind == K::Rewind) {
      // the initial state, or one before the runaway: seen afresh, not from where the
      // explosion took the camera and the trails
      views.clearTrails();
      frameScene();
    }
    if (handled) return;
    switch (c.kind) {
      case K::SetStrainScale:
        if (std::isfinite(c.value))
          draw.strain_scale = static_cast<float>(
              std::clamp(c.value, ui::Limits::kStrainScaleMin, ui::Limits::kStrainScaleMax));
        break;
      case K::SetWireframe:
        draw.wireframe = c.value != 0.0;
        break;
      case K::SetShowTrails:
        draw.show_trails = c.value != 0.0;
        break;
      case K::SetShowSprings:
        draw.show_lines = c.value != 0.0;
        break;
      case K::SetPacing:
        pacing = c.value == 1.0 ? Pacing::SmoothFrames : Pacing::RealTimeMotion;
        break;
      case K::SetFollow:
        follow = c.value != 0.0;
        break;
      case K::Screenshot:
        saveScreenshot(c.text.empty() ? timestampName() : c.text);
        break;
      case K::Quit:
        quit = true;
        break;
      default:
        break;
    }
  }

  bool saveScreenshot(const std::string& path) {
    std::vector<unsigned char> rgba;
    fbo.read(rgba);
    std::string err;
    if (!render::writePng(path, fbo.width(), fbo.height(), rgba, &err)) {
      showStatus(err, true);
      std::fprintf(stderr, "springlab: %s\n", err.c_str());
      return false;
    }
    showStatus("saved " + path, false);
    return true;
  }

  static constexpr double kStatusSeconds = 6.0;  // long enough to read a path or an error
  void showStatus(const std::string& text, bool error) {
    status = text;
    statusError = error;
    statusUntil = ImGui::GetCurrentContext() ? ImGui::GetTime() + kStatusSeconds : 0.0;
  }

  ui::PanelModel panelModel(const FixedStepLoop& loop) const {
    ui::PanelModel pm;
    session.fillPanel(pm);
    pm.steps_per_second = loop.stepsPerSecond();
    pm.realtime_percent = loop.realtimePercent();
    pm.frame_ms_sim = lastSimMs;
    pm.frame_ms_render = lastRenderMs;
    pm.frame_ms_present = lastPresentMs;
    pm.pacing = static_cast<int>(pacing);
    pm.follow = follow;
    pm.scene_viewport_x = static_cast<float>(draw.viewport_x);
    pm.surface = !session.built().triangles.empty();
    pm.planar = camera.planar;
    const bool statusLive = ImGui::GetCurrentContext() && ImGui::GetTime() < statusUntil;
    pm.status = statusLive ? status : std::string();
    pm.status_error = statusError;
    pm.strain_scale = draw.strain_scale;
    pm.wireframe = draw.wireframe;
    pm.show_trails = draw.show_trails;
    pm.show_springs = draw.show_lines;
    return pm;
  }

  // One frame: simulate, build the view, draw the scene and the UI into the framebuffer object.
  void renderFrame(FixedStepLoop& loop, int width, int height, bool sample) {
    SteadyClock timer;  // frame timings (glfwGetTime needs glfwInit, absent headless)
    const double t0 = timer.now();
    loop.frame(session.dt(), session.timeScale(), session.paused(),
               [&] { return session.stepOnce(); });
    if (sample) session.sample();
    const double t1 = timer.now();
    // the UI is laid out first: the panel's width decides this frame's scene viewport
    std::vector<ui::Command> commands;
    if (imgui) commands = layOutUi(loop, width, height);
    std::string err;
    if (fbo.width() != width || fbo.height() != height) fbo.resize(width, height, samples, &err);
    fbo.bind();
    const render::SceneView& view = views.build(session, !session.paused());
    camera.planar = view.planar;
    draw.viewport_x = sceneX < width - 64 ? sceneX : 0;
    draw.viewport_width = width - draw.viewport_x;
    framing.update(camera, view.positions, float(draw.viewport_width) / float(height), follow);
    mouse.setViewport(draw.viewport_x, draw.viewport_width, height);
    renderer.clear(draw, width, height);  // the panel's area too
    renderer.draw(view, camera, draw, width, height);
    if (imgui) {
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      for (const auto& c : commands) applyCommand(c);
    }
    glFinish();
    lastSimMs = 1000.0 * (t1 - t0);
    lastRenderMs = 1000.0 * (timer.now() - t1);
  }

  // The panel, banner, legend, status line and help as an ImGui frame (drawn after the scene);
  // sets the scene viewport's left edge; returns the commands issued.
  std::vector<ui::Command> layOutUi(const FixedStepLoop& loop, int width, int height) {
    ImGuiIO& io = ImGui::GetIO();
    ImGui_ImplOpenGL3_NewFrame();
    if (window) {
      ImGui_ImplGlfw_NewFrame();
    } else {
      io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
      io.DeltaTime = 1.0f / 60.0f;
    }
    ImGui::NewFrame();
    std::vector<ui::Command> cmds;
    if (showUi) {
      const ui::PanelModel pm = panelModel(loop);
      auto a = ui::drawPanel(pm, panelState);
      cmds.insert(cmds.end(), a.begin(), a.end());
      auto b = ui::drawDivergenceBanner(pm);
      cmds.insert(cmds.end(), b.begin(), b.end());
      ui::drawStrainLegend(pm);
      ui::drawStatus(pm);  // after the legend, so it can stand above it
    }
    if (showHelp || panelState.show_help) {
      bool open = true;
      ui::drawHelpOverlay(&open, panelModel(loop));
      if (!open) showHelp = panelState.show_help = false;
    }
    // the scene's viewport: right of the panel unless it is collapsed or hidden
    sceneX = 0;
    if (showUi)
      if (const ImGuiWindow* w = ImGui::FindWindowByName("springlab"); w && !w->Collapsed)
        sceneX = static_cast<int>(w->Pos.x + w->Size.x);
    return cmds;
  }

  // ---- input (window only): GLFW events in framebuffer pixels to MouseControl ----
  void cursorToFb(double& x, double& y) const {
    int ww, wh, fw, fh;
    glfwGetWindowSize(window, &ww, &wh);
    glfwGetFramebufferSize(window, &fw, &fh);
    if (ww > 0 && wh > 0) x *= double(fw) / ww, y *= double(fh) / wh;
  }

  void onMouseButton(int button, int action, int mods) {
    double x, y;
    glfwGetCursorPos(window, &x, &y);
    cursorToFb(x, y);
    if (action == GLFW_RELEASE) {
      mouse.release(x, y);
      return;
    }
    const auto b = button == GLFW_MOUSE_BUTTON_RIGHT    ? MouseControl::Button::Right
                   : button == GLFW_MOUSE_BUTTON_MIDDLE ? MouseControl::Button::Middle
                                                        : MouseControl::Button::Left;
    mouse.press(b, mods & GLFW_MOD_CONTROL, mods & GLFW_MOD_SHIFT, x, y, glfwGetTime(),
                ImGui::GetIO().WantCaptureMouse);
  }

  void onCursor(double x, double y) {
    cursorToFb(x, y);
    mouse.move(x, y);
  }

  void onScroll(double dy) { mouse.scroll(dy, ImGui::GetIO().WantCaptureMouse); }

  void onKey(int key, int action, int mods);
  // for the key table: time scale x2 or /2 within the limits
  void scaleTime(double factor) {
    const double ts = std::clamp(session.timeScale() * factor, ui::Limits::kTimeScaleMin,
                                 ui::Limits::kTimeScaleMax);
    applyCommand(command(ui::Command::Kind::SetTimeScale, ts));
  }
  void toggleTrailUnderCursor() {
    glm::vec3 hit;
    const int body = mouse.pick(mouse.x(), mouse.y(), hit);
    if (body >= 0) views.toggleTrail(body);
  }
};

// The keyboard half of ui::bindings() (the help overlay's table): each row's keys, as GLFW keys,
// and what they do. keyBindingMismatches() holds the two tables equal; the mouse rows are
// MouseControl's.
struct KeyAction {
  const char* binding;  // the `keys` of the ui::bindings() row this implements
  int key;              // GLFW key
  bool ctrl;            // true: only with Ctrl; false: only without
  void (*act)(Viewer& v, bool shift);
};
using K = ui::Command::Kind;
constexpr KeyAction kKeyActions[] = {
    {"Space", GLFW_KEY_SPACE, false,
     [](Viewer& v, bool) { v.applyCommand(command(K::SetPaused, v.session.paused() ? 0 : 1)); }},
    {"Right arrow", GLFW_KEY_RIGHT, false,
     [](Viewer& v, bool shift) { v.applyCommand(command(K::Step, 0.0, shift ? 10 : 1)); }},
    {"R or Backspace", GLFW_KEY_R, false,
     [](Viewer& v, bool) { v.applyCommand(command(K::Reset)); }},
    {"R or Backspace", GLFW_KEY_BACKSPACE, false,
     [](Viewer& v, bool) { v.applyCommand(command(K::Reset)); }},
    {"Ctrl+L", GLFW_KEY_L, true, [](Viewer& v, bool) { v.applyCommand(command(K::Reload)); }},
    {"+ / -", GLFW_KEY_EQUAL, false, [](Viewer& v, bool) { v.scaleTime(2.0); }},
    {"+ / -", GLFW_KEY_KP_ADD, false, [](Viewer& v, bool) { v.scaleTime(2.0); }},
    {"+ / -", GLFW_KEY_MINUS, false, [](Viewer& v, bool) { v.scaleTime(0.5); }},
    {"+ / -", GLFW_KEY_KP_SUBTRACT, false, [](Viewer& v, bool) { v.scaleTime(0.5); }},
    {"Ctrl+P", GLFW_KEY_P, true, [](Viewer& v, bool) { v.applyCommand(command(K::Screenshot)); }},
    {"Ctrl+Q", GLFW_KEY_Q, true, [](Viewer& v, bool) { v.applyCommand(command(K::Quit)); }},
    {"Tab", GLFW_KEY_TAB, false, [](Viewer& v, bool) { v.showUi = !v.showUi; }},
    {"F1", GLFW_KEY_F1, false, [](Viewer& v, bool) { v.showHelp = !v.showHelp; }},
    {"F", GLFW_KEY_F, false, [](Viewer& v, bool) { v.frameScene(); }},
    {"T", GLFW_KEY_T, false, [](Viewer& v, bool) { v.toggleTrailUnderCursor(); }},
};
// The rows of ui::bindings() that MouseControl implements.
constexpr const char* kMouseRows[] = {"Left-drag", "Right-drag or Shift+left-drag", "Wheel",
                                      "Double-click", "Ctrl+left-drag"};

void Viewer::onKey(int key, int action, int mods) {
  if (action == GLFW_RELEASE || ImGui::GetIO().WantCaptureKeyboard) return;
  const bool ctrl = mods & GLFW_MOD_CONTROL, shift = mods & GLFW_MOD_SHIFT;
  for (const KeyAction& k : kKeyActions)
    if (k.key == key && k.ctrl == ctrl) return k.act(*this, shift);
}

Viewer* g_viewer = nullptr;  // for the GLFW callbacks (one window)

// SIGTERM (a logout, `kill`) ends the loop like closing the window, so preferences are saved.
volatile std::sig_atomic_t g_terminate = 0;
extern "C" void onTerminate(int) {
  g_terminate = 1;
}

void initImGui(float scale, bool persist) {
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
  cfg.SizePixels = 13.0f * scale;  // 1.86 has no dynamic DPI fonts: load at size x scale once
  io.Fonts->AddFontDefault(&cfg);
  ImGui::GetStyle().ScaleAllSizes(scale);
}

}  // namespace

std::vector<std::string> keyBindingMismatches() {
  std::vector<std::string> out;
  auto implemented = [](std::string_view row) {
    for (const KeyAction& k : kKeyActions)
      if (row == k.binding) return true;
    for (const char* m : kMouseRows)
      if (row == m) return true;
    return false;
  };
  for (const ui::Binding& b : ui::bindings())
    if (!implemented(b.keys)) out.push_back(std::string("no action for ").append(b.keys));
  for (const KeyAction& k : kKeyActions) {
    bool listed = false;
    for (const ui::Binding& b : ui::bindings())
      listed = listed || std::string_view(b.keys) == k.binding;
    if (!listed) out.push_back(std::string("not in the help: ").append(k.binding));
  }
  return out;
}

namespace {
// One window option's value into `o`; false with `error` set. The names are cli::windowOptions().
bool applyViewerOption(const std::string& name, const std::string& v, ViewerOptions& o,
                       std::string& error) {
  if (name == "--integrator") {
    o.integrator = v;
  } else if (name == "--dt") {
    if (!cli::parseDouble(v, o.dt) || !(o.dt > 0))
      return error = "--dt: must be a finite number > 0, not \"" + v + "\"", false;
  } else if (name == "--size") {
    o.size_given = true;
    if (!parseWindowSize(v, o.width, o.height))
      return error = "--size: must be WxH with 16 <= W, H <= 16384, not \"" + v + "\"", false;
  } else if (name == "--frames") {
    if (!cli::parseWhole(v, o.frames) || o.frames < 1)
      return error = "--frames: must be a whole number >= 1, not \"" + v + "\"", false;
  } else if (name == "--screenshot") {
    o.screenshot = v;
    if (o.screenshot.empty()) return error = "--screenshot: missing file name", false;
  } else if (name == "--headless") {
    o.headless = true;
  } else if (name == "--no-ui") {
    o.no_ui = true;
  } else if (name == "--stats") {
    o.stats = true;
  } else {
    // a name in the table that nothing here handles: a programming error, caught by a test
    return error = "option " + name + " is not handled by the window", false;
  }
  return true;
}
}  // namespace

int parseViewerOptions(const std::vector<std::string>& args, ViewerOptions& o, std::string& error) {
  cli::SplitArgs split;
  if (const auto problem = cli::splitArgs(args, cli::windowOptions(), split)) {
    error = *problem;
    return 2;
  }
  for (const cli::GivenOption& given : split.options)
    if (!applyViewerOption(std::string(given.spec->name), given.value, o, error)) return 2;
  if (split.positional.size() > 1) {
    error = "unexpected argument \"" + split.positional[1] + "\" (one SCENE only)";
    return 2;
  }
  if (!split.positional.empty()) o.scene = split.positional[0], o.scene_given = true;
  return 0;
}

namespace {

// The scene, integrator and dt of a run: the options', else (interactive runs) the last
// session's scene. Returns 0, or exit status 2 with the message printed.
int setUpSession(Viewer& v, const Prefs& prefs, bool scripted) {
  ViewerOptions& o = v.opt;
  if (!scripted && !o.scene_given && !prefs.scene.empty()) {
    try {
      v.session.load(prefs.scene);  // the last scene, if it still loads
      o.scene = prefs.scene;
    } catch (const scene::Error&) {
    }
  }
  try {
    if (o.scene_given || v.session.sceneName().empty()) v.session.load(o.scene);
  } catch (const scene::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  std::string error;
  if (!o.integrator.empty() &&
      !v.session.apply(command(K::SetIntegrator, 0.0, 0, o.integrator), &error)) {
    std::fprintf(stderr, "springlab: --integrator: %s\n", error.c_str());
    return 2;
  }
  if (o.dt > 0.0 && !v.session.apply(command(K::SetDt, o.dt), &error)) {
    std::fprintf(stderr, "springlab: --dt: %s (allowed %g to %g s)\n", error.c_str(),
                 ui::Limits::kDtMin, ui::Limits::kDtMax);
    return 2;
  }
  return 0;
}

// A GLFW window with a current OpenGL 3.3 core context, or nullptr.
GLFWwindow* openWindow(const ViewerOptions& o, const std::string& title) {
  glfwSetErrorCallback([](int, const char*) {});
  if (!glfwInit()) return nullptr;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  GLFWwindow* w = glfwCreateWindow(o.width, o.height, title.c_str(), nullptr, nullptr);
  if (!w) return nullptr;
  glfwMakeContextCurrent(w);
  if (gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) != 0) return w;
  glfwDestroyWindow(w);
  return nullptr;
}

// The front end: a GLFW window when there is a display, headless EGL for scripted runs without
// one (or with --headless). Returns 0, or exit status 2 with a message saying what to do instead.
int openContext(Viewer& v, HeadlessContext& egl, bool scripted) {
  const ViewerOptions& o = v.opt;
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  const bool haveDisplay = (display && *display) || (wayland && *wayland);
  if (haveDisplay && !o.headless) {
    v.window = openWindow(o, std::string("springlab: ").append(v.session.sceneName()));
    if (v.window) return 0;
    if (!scripted) {
      std::fprintf(stderr,
                   "springlab: cannot open an OpenGL 3.3 window on this display; for a picture "
                   "use springlab %s --screenshot out.png, for numbers springlab run %s\n",
                   o.scene.c_str(), o.scene.c_str());
      return 2;
    }
  }
  if (!scripted) {
    std::fprintf(stderr,
                 "springlab: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window; "
                 "without one use springlab %s --screenshot out.png (rendered headless) or "
                 "springlab run %s\n",
                 o.scene.c_str(), o.scene.c_str());
    return 2;
  }
  if (!egl.create()) {
    std::fprintf(stderr, "springlab: headless rendering unavailable: %s\n", egl.error().c_str());
    return 2;
  }
  return 0;
}

// The window's input goes to the Viewer; ImGui's GLFW backend chains to these callbacks.
void connectInput(Viewer& v) {
  g_viewer = &v;
  glfwSetMouseButtonCallback(
      v.window, [](GLFWwindow*, int b, int a, int m) { g_viewer->onMouseButton(b, a, m); });
  glfwSetCursorPosCallback(v.window, [](GLFWwindow*, double x, double y) {
    g_viewer->onCursor(x, y);  // MouseControl moves only what a press outside ImGui began
  });
  glfwSetScrollCallback(v.window, [](GLFWwindow*, double, double dy) { g_viewer->onScroll(dy); });
  glfwSetKeyCallback(v.window,
                     [](GLFWwindow*, int k, int, int a, int m) { g_viewer->onKey(k, a, m); });
  ImGui_ImplGlfw_InitForOpenGL(v.window, true);
}

// The renderer, ImGui and the first framing, once a context is current. Returns 0 or 2.
int setUpRendering(Viewer& v, const Prefs& prefs, bool scripted) {
  const char* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string rs = r ? r : "";
  if (rs.find("llvmpipe") != std::string::npos || rs.find("softpipe") != std::string::npos)
    v.samples = 1;
  std::string error;
  if (!v.renderer.init(&error)) {
    std::fprintf(stderr, "springlab: renderer: %s\n", error.c_str());
    return 2;
  }
  float scale = 1.0f;
  if (v.window) {
    float sx = 1.0f, sy = 1.0f;
    glfwGetWindowContentScale(v.window, &sx, &sy);
    scale = std::max(1.0f, sx);
  }
  if (prefs.ui_scale > 0.0f) scale = prefs.ui_scale;
  v.imgui = !v.opt.no_ui;
  if (v.imgui) {
    initImGui(scale, v.window && !scripted);
    if (v.window) connectInput(v);
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
      std::fprintf(stderr, "springlab: the ImGui OpenGL backend failed; continuing without UI\n");
      v.imgui = false;
    }
  }
  if (v.window) glfwSwapInterval(1);  // vsync: the frame rate paces the loop, no busy wait
  v.frameScene();
  v.sceneDefaults();
  if (prefs.camera && !v.opt.scene_given) {
    v.camera.target = glm::vec3(prefs.cam[0], prefs.cam[1], prefs.cam[2]);
    v.camera.distance = prefs.cam[3], v.camera.yaw = prefs.cam[4], v.camera.pitch = prefs.cam[5];
    v.framing.keepCamera();
  }
  return 0;
}

// The framebuffer object to the window, then swap.
void presentToWindow(Viewer& v, int w, int h) {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  v.fbo.bind();
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glfwSwapBuffers(v.window);
}

// --stats: frame timings from frame 2 on (frame 1 compiles shaders and factorises).
struct FrameStats {
  double sim = 0.0, render = 0.0, present = 0.0, frame = 0.0;  // ms, summed
  long long frames = 0;
  // the real time: the simulated time advanced by frames 3..N over the wall time it was due
  // for, from frame 2's clock reading to frame N's
  double simMark = 0.0, wallMark = 0.0;

  void add(const Viewer& v, const FixedStepLoop& loop, long long frameNumber, double frameMs) {
    if (frameNumber == 2) simMark = v.session.state().t, wallMark = loop.lastClockReading();
    if (frameNumber < 2) return;
    sim += v.lastSimMs, render += v.lastRenderMs, present += v.lastPresentMs, frame += frameMs;
    ++frames;
  }
  void print(const Viewer& v, const FixedStepLoop& loop) const {
    if (frames < 1) return;
    const double n = static_cast<double>(frames);
    const double dueWall = loop.lastClockReading() - wallMark;
    const double realtime = dueWall > 0.0 ? 100.0 * (v.session.state().t - simMark) / dueWall : 0.0;
    std::printf(
        "frames %lld, %dx%d: simulation %.2f ms + rendering %.2f ms + presenting %.2f ms per "
        "frame, %.1f ms per frame in all (%.1f frames/s), real time %.3g %%\n",
        frames + 1, v.fbo.width(), v.fbo.height(), sim / n, render / n, present / n, frame / n,
        1000.0 * n / frame, realtime);
  }
};

// The frame loop, until the window closes, Quit, SIGTERM, or the scripted frame count.
void runFrames(Viewer& v, bool scripted) {
  const ViewerOptions& o = v.opt;
  SteadyClock wall;
  FrameClock fake;
  // scripted frames are deterministic (each frame is 1/60 s and every due step runs) unless
  // --stats asks for the real loop, the one whose timings matter
  const bool realLoop = !scripted || o.stats;
  Clock& clock = realLoop ? static_cast<Clock&>(wall) : static_cast<Clock&>(fake);
  FixedStepLoop loop(clock);
  if (!realLoop) loop.setBudget(1e9);
  FrameStats stats;
  double lastFrameStart = wall.now();
  long long frame = 0;
  std::signal(SIGTERM, onTerminate);
  while (!v.quit && !g_terminate) {
    int w = o.width, h = o.height;
    if (v.window) {
      glfwPollEvents();
      if (glfwWindowShouldClose(v.window)) break;
      glfwGetFramebufferSize(v.window, &w, &h);
      if (w <= 0 || h <= 0) {  // minimised: sleep until something happens
        glfwWaitEventsTimeout(0.1);
        continue;
      }
    }
    fake.t += 1.0 / 60.0;
    if (realLoop) loop.setBudget(stepBudget(v.pacing, 1e-3 * (v.lastRenderMs + v.lastPresentMs)));
    v.renderFrame(loop, w, h, true);
    const double presentStart = wall.now();
    if (v.window) presentToWindow(v, w, h);
    v.lastPresentMs = 1000.0 * (wall.now() - presentStart);
    ++frame;
    if (v.window && !scripted && !o.stats) {
      // vsync paces the loop where the driver honours it; where it does not (Xvfb, some
      // drivers), sleep out the rest of a 60 Hz frame rather than spin
      const double left = kSmoothFrame - (wall.now() - lastFrameStart);
      if (left > 0.001) std::this_thread::sleep_for(std::chrono::duration<double>(left - 0.0005));
    }
    const double now = wall.now();
    stats.add(v, loop, frame, 1000.0 * (now - lastFrameStart));
    lastFrameStart = now;
    if (o.frames > 0 && frame >= o.frames) break;
  }
  if (o.stats) stats.print(v, loop);
}

// Ends a run: the screenshot, the divergence report of a scripted run, the preferences of an
// interactive one, GL and ImGui released while the context is current. Returns the exit status.
int finish(Viewer& v, Prefs& prefs, bool scripted) {
  int exitStatus = 0;
  if (!v.opt.screenshot.empty() && !v.saveScreenshot(v.opt.screenshot)) exitStatus = 2;
  if (scripted && v.session.divergence()) {
    // as `run`: a script learns of the divergence from the status, a person from the report
    std::fprintf(stderr, "springlab: %s\n", v.session.divergence()->message().c_str());
    exitStatus = 3;
  }
  v.releaseGl();
  if (v.imgui) {
    ImGui_ImplOpenGL3_Shutdown();
    if (v.window) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (v.window && !scripted) {
    glfwGetWindowSize(v.window, &prefs.width, &prefs.height);
    prefs.scene = v.session.sceneArg();
    const auto& c = v.camera;
    const float cam[6] = {c.target.x, c.target.y, c.target.z, c.distance, c.yaw, c.pitch};
    std::copy(cam, cam + 6, prefs.cam);
    prefs.save();
  }
  if (v.window) {
    glfwDestroyWindow(v.window);
    glfwTerminate();
  }
  return exitStatus;
}

}  // namespace

int viewerMain(const std::vector<std::string>& args) {
  Viewer v;
  std::string error;
  if (parseViewerOptions(args, v.opt, error) != 0) {
    std::fprintf(stderr, "springlab: %s\n", error.c_str());
    return 2;
  }
  ViewerOptions& o = v.opt;
  const bool scripted = o.frames > 0 || !o.screenshot.empty();
  Prefs prefs;
  if (!scripted) {
    prefs.load();
    if (!o.size_given && prefs.width > 0) o.width = prefs.width, o.height = prefs.height;
  }
  if (const int status = setUpSession(v, prefs, scripted); status != 0) return status;
  if (!scripted) o.frames = -1;
  if (!o.screenshot.empty() && o.frames < 0) o.frames = 1;
  HeadlessContext egl;
  if (const int status = openContext(v, egl, scripted); status != 0) return status;
  if (const int status = setUpRendering(v, prefs, scripted); status != 0) return status;
  runFrames(v, scripted);
  return finish(v, prefs, scripted);
}

}  // namespace app
