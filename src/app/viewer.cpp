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
#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "cli/commands.hpp"
#include "render/renderer.hpp"
#include "scene/scene_def.hpp"
#include "util/atomic_file.hpp"

namespace app {

namespace {

using ui::command;

bool parseSize(const std::string& s, int& w, int& h) {
  const auto x = s.find('x');
  if (x == std::string::npos) return false;
  long long a, b;
  if (!cli::parseWhole(s.substr(0, x), a) || !cli::parseWhole(s.substr(x + 1), b)) return false;
  if (a < 16 || b < 16 || a > 16384 || b > 16384) return false;
  w = static_cast<int>(a), h = static_cast<int>(b);
  return true;
}

// Fake clock for headless frames: each frame is exactly 1/60 s of wall time.
struct FrameClock : Clock {
  double t = 0.0;
  double now() override { return t; }
};

std::string configDir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path p;
  if (xdg && *xdg)
    p = std::filesystem::path(xdg) / "springlab";
  else if (home && *home)
    p = std::filesystem::path(home) / ".config" / "springlab";
  else
    return {};
  return p.string();
}

std::string timestampName() {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "springlab-%Y%m%d-%H%M%S.png", std::localtime(&t));
  return buf;
}

// Preferences of interactive sessions ($XDG_CONFIG_HOME/springlab/prefs.ini): window size, UI
// scale, last scene, camera. Never read or written by scripted runs (--frames, --screenshot).
struct Prefs {
  int width = 0, height = 0;
  float ui_scale = 0.0f;  // 0: the monitor's content scale
  std::string scene;
  bool camera = false;
  float cam[6] = {0, 0, 0, 3, 0, 0.25f};  // target xyz, distance, yaw, pitch

  static std::string path() {
    const std::string d = configDir();
    return d.empty() ? d : d + "/prefs.ini";
  }
  void load() {
    const std::string p = path();
    std::FILE* f = p.empty() ? nullptr : std::fopen(p.c_str(), "r");
    if (!f) return;
    char line[1024];
    while (std::fgets(line, sizeof line, f)) {
      std::string s(line);
      while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
      const auto eq = s.find('=');
      if (eq == std::string::npos) continue;
      const std::string k = s.substr(0, eq), val = s.substr(eq + 1);
      // every value is checked: a damaged file changes nothing
      if (k == "window") {
        int w = 0, h = 0;
        if (parseSize(val, w, h)) width = w, height = h;
      } else if (k == "ui_scale") {
        double u;
        if (cli::parseDouble(val, u) && u >= 0.5 && u <= 4.0) ui_scale = static_cast<float>(u);
      } else if (k == "scene") {
        scene = val;
      } else if (k == "camera") {
        float c[6];
        if (std::sscanf(val.c_str(), "%f %f %f %f %f %f", &c[0], &c[1], &c[2], &c[3], &c[4],
                        &c[5]) == 6 &&
            std::isfinite(c[0] + c[1] + c[2] + c[3] + c[4] + c[5]) && c[3] > 0) {
          std::copy(c, c + 6, cam);
          camera = true;
        }
      }
    }
    std::fclose(f);
  }
  void save() const {
    const std::string p = path();
    if (p.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(p).parent_path(), ec);
    char numbers[256];
    std::snprintf(numbers, sizeof numbers, "window=%dx%d\nui_scale=%g\ncamera=%g %g %g %g %g %g\n",
                  width, height, ui_scale, cam[0], cam[1], cam[2], cam[3], cam[4], cam[5]);
    const std::string text = numbers + ("scene=" + scene + "\n");
    util::writeFileAtomically(p, text, nullptr);  // preferences are best effort
  }
};

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
  std::string status;  // last rejected command or error, shown in the panel title bar area
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
      status = msg;
      statusUntil = ImGui::GetCurrentContext() ? ImGui::GetTime() + 6.0 : 0.0;
      return;
    }
    if (loads) {
      views.clearTrails();
      frameScene();
      sceneDefaults();
    }
    if (c.kind == K::Reset) {  // the initial state, seen as at the start
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
      status = err;
      std::fprintf(stderr, "springlab: %s\n", err.c_str());
      return false;
    }
    status = "saved " + path;
    return true;
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
      ui::drawStrainLegend(draw.strain_scale);
      if (!status.empty() && ImGui::GetTime() < statusUntil) {
        // bottom centre: the strain legend has the bottom-left corner
        ImGui::SetNextWindowPos(
            ImVec2(0.5f * static_cast<float>(width), static_cast<float>(height) - 10),
            ImGuiCond_Always, ImVec2(0.5f, 1.0f));
        ImGui::Begin("##status", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                         ImGuiWindowFlags_NoInputs);
        ImGui::TextUnformatted(status.c_str());
        ImGui::End();
      }
    }
    if (showHelp || panelState.show_help) {
      bool open = true;
      ui::drawHelpOverlay(&open);
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

  void onKey(int key, int action, int mods) {
    if (action == GLFW_RELEASE) return;
    if (ImGui::GetIO().WantCaptureKeyboard) return;
    using K = ui::Command::Kind;
    const bool ctrl = mods & GLFW_MOD_CONTROL, shift = mods & GLFW_MOD_SHIFT;
    ui::Command c = command(K::Quit);
    switch (key) {
      case GLFW_KEY_SPACE:
        c = command(K::SetPaused, session.paused() ? 0.0 : 1.0);
        break;
      case GLFW_KEY_RIGHT:
        c = command(K::Step, 0.0, shift ? 10 : 1);
        break;
      case GLFW_KEY_R:
        if (ctrl) return;
        c = command(K::Reset);
        break;
      case GLFW_KEY_BACKSPACE:
        c = command(K::Reset);
        break;
      case GLFW_KEY_L:
        if (!ctrl) return;
        c = command(K::Reload);
        break;
      case GLFW_KEY_EQUAL:
      case GLFW_KEY_KP_ADD:
        c = command(K::SetTimeScale,
                    std::min(session.timeScale() * 2.0, ui::Limits::kTimeScaleMax));
        break;
      case GLFW_KEY_MINUS:
      case GLFW_KEY_KP_SUBTRACT:
        c = command(K::SetTimeScale,
                    std::max(session.timeScale() / 2.0, ui::Limits::kTimeScaleMin));
        break;
      case GLFW_KEY_P:
        if (!ctrl) return;
        c = command(K::Screenshot);
        break;
      case GLFW_KEY_Q:
        if (!ctrl) return;
        c = command(K::Quit);
        break;
      case GLFW_KEY_TAB:
        showUi = !showUi;
        return;
      case GLFW_KEY_F1:
        showHelp = !showHelp;
        return;
      case GLFW_KEY_F:
        frameScene();
        return;
      case GLFW_KEY_T: {  // a trail on the body under the cursor (or off again)
        glm::vec3 hit;
        const int body = mouse.pick(mouse.x(), mouse.y(), hit);
        if (body >= 0) views.toggleTrail(body);
        return;
      }
      default:
        return;
    }
    applyCommand(c);
  }
};

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

int parseViewerOptions(const std::vector<std::string>& args, ViewerOptions& o, std::string& error) {
  bool sceneSet = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) {
        error = a + ": missing value";
        return false;
      }
      out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--integrator") {
      if (!value(o.integrator)) return 2;
    } else if (a == "--dt") {
      if (!value(v)) return 2;
      if (!cli::parseDouble(v, o.dt) || !(o.dt > 0)) {
        error = "--dt: must be a finite number > 0, not \"" + v + "\"";
        return 2;
      }
    } else if (a == "--size") {
      if (!value(v)) return 2;
      o.size_given = true;
      if (!parseSize(v, o.width, o.height)) {
        error = "--size: must be WxH with 16 <= W, H <= 16384, not \"" + v + "\"";
        return 2;
      }
    } else if (a == "--frames") {
      if (!value(v)) return 2;
      if (!cli::parseWhole(v, o.frames) || o.frames < 1) {
        error = "--frames: must be a whole number >= 1, not \"" + v + "\"";
        return 2;
      }
    } else if (a == "--screenshot") {
      if (!value(o.screenshot)) return 2;
      if (o.screenshot.empty()) {
        error = "--screenshot: missing file name";
        return 2;
      }
    } else if (a == "--headless") {
      o.headless = true;
    } else if (a == "--no-ui") {
      o.no_ui = true;
    } else if (a == "--stats") {
      o.stats = true;
    } else if (a.rfind("--", 0) == 0) {
      error = "unknown option " + a;
      return 2;
    } else if (!sceneSet) {
      o.scene = a;
      sceneSet = o.scene_given = true;
    } else {
      error = "unexpected argument \"" + a + "\" (one SCENE only)";
      return 2;
    }
  }
  return 0;
}

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
    if (!o.scene_given && !prefs.scene.empty()) {
      try {
        v.session.load(prefs.scene);  // the last scene, if it still loads
        o.scene = prefs.scene;
      } catch (const scene::Error&) {
      }
    }
  }
  try {
    if (o.scene_given || v.session.sceneName().empty()) v.session.load(o.scene);
  } catch (const scene::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  if (!o.integrator.empty() &&
      !v.session.apply(command(ui::Command::Kind::SetIntegrator, 0.0, 0, o.integrator), &error)) {
    std::fprintf(stderr, "springlab: --integrator: %s\n", error.c_str());
    return 2;
  }
  if (o.dt > 0.0) {
    const ui::Command c = command(ui::Command::Kind::SetDt, o.dt);
    if (!v.session.apply(c, &error)) {
      std::fprintf(stderr, "springlab: --dt: %s (allowed %g to %g s)\n", error.c_str(),
                   ui::Limits::kDtMin, ui::Limits::kDtMax);
      return 2;
    }
  }
  if (!scripted) o.frames = -1;
  if (!o.screenshot.empty() && o.frames < 0) o.frames = 1;

  // front end: a GLFW window when there is a display, headless EGL for scripted runs without one
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  const bool haveDisplay = (display && *display) || (wayland && *wayland);
  HeadlessContext egl;
  bool windowed = false;
  if (haveDisplay && !o.headless) {
    glfwSetErrorCallback([](int, const char*) {});
    if (glfwInit()) {
      glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
      glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
      glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
      glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
      glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
      v.window = glfwCreateWindow(
          o.width, o.height, ("springlab: " + v.session.sceneName()).c_str(), nullptr, nullptr);
      if (v.window) {
        glfwMakeContextCurrent(v.window);
        windowed = gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) != 0;
      }
    }
    if (!windowed && !scripted) {
      std::fprintf(stderr,
                   "springlab: cannot open an OpenGL 3.3 window on this display; for a picture "
                   "use springlab %s --screenshot out.png, for numbers springlab run %s\n",
                   o.scene.c_str(), o.scene.c_str());
      return 2;
    }
  }
  if (!windowed) {
    if (!scripted) {
      std::fprintf(stderr,
                   "springlab: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window; "
                   "without one use springlab %s --screenshot out.png (rendered headless), "
                   "springlab record, or springlab run %s\n",
                   o.scene.c_str(), o.scene.c_str());
      return 2;
    }
    if (!egl.create()) {
      std::fprintf(stderr, "springlab: headless rendering unavailable: %s\n", egl.error().c_str());
      return 2;
    }
  }
  {
    const char* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const std::string rs = r ? r : "";
    if (rs.find("llvmpipe") != std::string::npos || rs.find("softpipe") != std::string::npos)
      v.samples = 1;
  }
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
  v.imgui = !o.no_ui;
  if (v.imgui) {
    initImGui(scale, windowed && !scripted);
    if (v.window) {
      g_viewer = &v;
      // our callbacks first: ImGui's GLFW backend chains to them
      glfwSetMouseButtonCallback(
          v.window, [](GLFWwindow*, int b, int a, int m) { g_viewer->onMouseButton(b, a, m); });
      glfwSetCursorPosCallback(v.window, [](GLFWwindow*, double x, double y) {
        g_viewer->onCursor(x, y);  // MouseControl moves only what a press outside ImGui began
      });
      glfwSetScrollCallback(v.window,
                            [](GLFWwindow*, double, double dy) { g_viewer->onScroll(dy); });
      glfwSetKeyCallback(v.window,
                         [](GLFWwindow*, int k, int, int a, int m) { g_viewer->onKey(k, a, m); });
      ImGui_ImplGlfw_InitForOpenGL(v.window, true);
    }
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
      std::fprintf(stderr, "springlab: the ImGui OpenGL backend failed; continuing without UI\n");
      v.imgui = false;
    }
  }
  if (v.window) glfwSwapInterval(1);  // vsync: the frame rate paces the loop, no busy wait
  v.frameScene();
  v.sceneDefaults();
  if (prefs.camera && !o.scene_given) {
    v.camera.target = glm::vec3(prefs.cam[0], prefs.cam[1], prefs.cam[2]);
    v.camera.distance = prefs.cam[3], v.camera.yaw = prefs.cam[4], v.camera.pitch = prefs.cam[5];
    v.framing.keepCamera();
  }

  SteadyClock wall;
  FrameClock fake;
  // scripted frames are deterministic (each frame is 1/60 s and every due step runs) unless
  // --stats asks for the real loop, the one whose timings matter
  const bool realLoop = (windowed && !scripted) || o.stats;
  Clock& clock = realLoop ? static_cast<Clock&>(wall) : static_cast<Clock&>(fake);
  FixedStepLoop loop(clock);
  if (!realLoop) loop.setBudget(1e9);
  double sumSim = 0.0, sumRender = 0.0, sumPresent = 0.0, sumFrame = 0.0;
  // --stats' real time: the simulated time advanced by frames 3..N over the wall time it was due
  // for, from frame 2's clock reading to frame N's (frame 1 compiles shaders and factorises)
  double simMark = 0.0, wallMark = 0.0;
  double lastFrameStart = wall.now();
  long long frame = 0;
  int exitStatus = 0;
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
    if (v.window) {
      glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
      v.fbo.bind();
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
      glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
      glfwSwapBuffers(v.window);
    }
    v.lastPresentMs = 1000.0 * (wall.now() - presentStart);
    ++frame;
    if (windowed && !scripted && !o.stats) {
      // vsync paces the loop where the driver honours it; where it does not (Xvfb, some
      // drivers), sleep out the rest of a 60 Hz frame rather than spin
      const double left = 1.0 / 60.0 - (wall.now() - lastFrameStart);
      if (left > 0.001) std::this_thread::sleep_for(std::chrono::duration<double>(left - 0.0005));
    }
    const double now = wall.now();
    if (frame == 2) simMark = v.session.state().t, wallMark = loop.lastClockReading();
    if (frame > 1) {  // the first frame compiles shaders and factorises: not counted
      sumSim += v.lastSimMs, sumRender += v.lastRenderMs, sumPresent += v.lastPresentMs;
      sumFrame += 1000.0 * (now - lastFrameStart);
    }
    lastFrameStart = now;
    if (o.frames > 0 && frame >= o.frames) break;
  }
  if (o.stats && frame > 1) {
    const double n = static_cast<double>(frame - 1);
    const double dueWall = loop.lastClockReading() - wallMark;
    const double realtime = dueWall > 0.0 ? 100.0 * (v.session.state().t - simMark) / dueWall : 0.0;
    std::printf(
        "frames %lld, %dx%d: simulation %.2f ms + rendering %.2f ms + presenting %.2f ms per "
        "frame, %.1f ms per frame in all (%.1f frames/s), real time %.3g %%\n",
        frame, v.fbo.width(), v.fbo.height(), sumSim / n, sumRender / n, sumPresent / n,
        sumFrame / n, 1000.0 * n / sumFrame, realtime);
  }
  if (!o.screenshot.empty() && !v.saveScreenshot(o.screenshot)) exitStatus = 2;
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

}  // namespace app
