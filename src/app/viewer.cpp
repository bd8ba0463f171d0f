// `springlab [SCENE] [options]`: platform wiring of the window
// (docs/architecture.md#the-frame-driver). The frames themselves come from the FrameDriver; this
// file chooses the platform, routes input, paces the loop and ends the run.
#include "app/viewer.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in another GL header
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <thread>

#include "app/egl_context.hpp"
#include "app/frame_driver.hpp"
#include "app/key_table.hpp"
#include "app/platform.hpp"
#include "app/prefs.hpp"
#include "app/setup.hpp"
#include "app/window_recorder.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"

namespace app {

namespace {

// Fake clock for scripted frames: each frame is exactly 1/60 s of wall time.
struct FrameClock : Clock {
  double t = 0.0;
  double now() override { return t; }
};

// "springlab-20261123-204501.png": a name that sorts by time and does not collide.
std::string timestampName(const char* extension) {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "springlab-%Y%m%d-%H%M%S", std::localtime(&t));
  return std::string(buf) + extension;
}

// SIGTERM (a logout, `kill`) ends the loop like closing the window, so preferences are saved and
// a clip being recorded is finished.
volatile std::sig_atomic_t g_terminate = 0;
extern "C" void onTerminate(int) {
  g_terminate = 1;
}

// One run of the window (or of scripted headless frames): the driver, the platform, the clip.
struct Viewer : WindowInput {
  ViewerOptions opt;
  FrameDriver d;
  GLFWwindow* window = nullptr;
  WindowRecorder recorder;
  std::string recordFolder;  // from the preferences; empty: the working directory
  bool quit = false;         // Ctrl+Q or the panel's Quit

  // A key's command: the frame driver applies it, or hands it back as the front end's.
  void issue(const ui::Command& c) {
    if (auto f = d.applyCommand(c)) apply(*f);
  }
  // The front end's commands, one overload each (no catch-all).
  struct FrontEnd {
    Viewer& v;
    void operator()(const ui::Screenshot& c) const {
      v.saveScreenshot(c.path.empty() ? timestampName(".png") : c.path);
    }
    void operator()(const ui::ToggleRecording&) const { v.toggleRecording(); }
    void operator()(const ui::Quit&) const { v.quit = true; }
  };
  static_assert(ui::kAppliesExactly<FrontEnd, ui::FrontEndCommand>);
  void apply(const ui::FrontEndCommand& c) { std::visit(FrontEnd{*this}, c); }

  bool saveScreenshot(const std::string& path) {
    std::vector<unsigned char> rgba;
    d.target().read(rgba);
    if (const auto err = render::writePng(path, d.target().width(), d.target().height(), rgba)) {
      d.showStatus(*err, true);
      std::fprintf(stderr, "springlab: %s\n", err->c_str());
      return false;
    }
    d.showStatus("saved " + path, false);
    return true;
  }

  void toggleRecording() {
    std::string message;
    if (recorder.active()) {
      const bool ok = recorder.stop(&message);
      d.setRecording(false);
      d.showStatus(message, !ok);
      // the terminal too: where the clip went outlives the status line
      std::fprintf(ok ? stdout : stderr, "springlab: %s\n", message.c_str());
      std::fflush(stdout);
      return;
    }
    const std::string name = timestampName(".mp4");
    const std::string path = recordFolder.empty() ? name : recordFolder + "/" + name;
    const ui::ClipSize& size = ui::clipSizes()[static_cast<size_t>(d.clipSize())];
    const int w = size.width > 0 ? size.width : d.target().width();
    const int h = size.height > 0 ? size.height : d.target().height();
    const bool ok = recorder.start(path, w, h, &message);
    d.setRecording(ok);
    d.showStatus(message, !ok);
  }

  // ---- input (window only): GLFW events in framebuffer pixels to MouseControl ----
  void onMouseButton(int button, int action, int mods) override {
    double x, y;
    glfwGetCursorPos(window, &x, &y);
    cursorToFramebuffer(window, x, y);
    if (action == GLFW_RELEASE) {
      d.mouse().release(x, y);
      return;
    }
    const auto b = button == GLFW_MOUSE_BUTTON_RIGHT    ? MouseControl::Button::Right
                   : button == GLFW_MOUSE_BUTTON_MIDDLE ? MouseControl::Button::Middle
                                                        : MouseControl::Button::Left;
    d.mouse().press(b, mods & GLFW_MOD_CONTROL, mods & GLFW_MOD_SHIFT, x, y, glfwGetTime(),
                    ui::uiWantsMouseAt(x, y));
  }
  void onCursor(double x, double y) override {
    cursorToFramebuffer(window, x, y);
    d.mouse().move(x, y);  // MouseControl moves only what a press outside ImGui began
  }
  void onScroll(double dy) override {
    d.mouse().scroll(dy, ui::uiWantsMouseAt(d.mouse().x(), d.mouse().y()));
  }
  void onKey(int key, int action, int mods) override {
    if (action == GLFW_RELEASE || ImGui::GetIO().WantCaptureKeyboard) return;
    std::vector<ui::Command> commands;
    onKeyPress(d, key, mods & GLFW_MOD_CONTROL, mods & GLFW_MOD_SHIFT, commands);
    for (const auto& c : commands) issue(c);
  }
};

}  // namespace

namespace {

// The scene, integrator and dt of a run: the options', else (interactive runs) the last
// session's scene. Returns 0, or exit status 2 with the message printed.
int loadScene(Viewer& v, const Prefs& prefs, bool scripted) {
  ViewerOptions& o = v.opt;
  if (!scripted && !o.scene_given && !prefs.scene.empty()) {
    try {
      v.d.session().load(prefs.scene);  // the last scene, if it still loads
      o.scene = prefs.scene;
    } catch (const scene::Error&) {
    }
  }
  const std::string scene =
      o.scene_given || v.d.session().sceneName().empty() ? o.scene : v.d.session().sceneArg();
  if (const auto problem = setUpSession(v.d.session(), scene, o.session, "springlab")) {
    std::fprintf(stderr, "%s\n", problem->c_str());
    return 2;
  }
  return 0;
}

// The front end: a GLFW window when there is a display, headless EGL for scripted runs without
// one (or with --headless). Returns 0, or exit status 2 with a message saying what to do instead.
int openContext(Viewer& v, HeadlessContext& egl, bool scripted) {
  const ViewerOptions& o = v.opt;
  if (haveDisplay() && !o.headless) {
    v.window = openWindow(o.width, o.height, "springlab: " + v.d.session().sceneName());
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
                 "without one use springlab %s --screenshot out.png (rendered headless), "
                 "springlab record %s --out clip.mp4, or springlab run %s\n",
                 o.scene.c_str(), o.scene.c_str(), o.scene.c_str());
    return 2;
  }
  if (!egl.create()) {
    std::fprintf(stderr, "springlab: headless rendering unavailable: %s\n", egl.error().c_str());
    return 2;
  }
  return 0;
}

// The renderer, ImGui and the first framing, once a context is current. Returns 0 or 2.
int setUpRendering(Viewer& v, const Prefs& prefs, bool scripted) {
  std::string error;
  if (!v.d.initGl(&error)) {
    std::fprintf(stderr, "springlab: renderer: %s\n", error.c_str());
    return 2;
  }
  const float scale = prefs.ui_scale > 0.0f ? prefs.ui_scale : contentScale(v.window);
  FrameOptions options;
  options.imgui = !v.opt.no_ui;
  options.split_lanes = v.opt.side_by_side;
  options.time_passes = v.opt.stats;
  options.scale_down_software = v.window != nullptr;
  if (options.imgui) {
    createImGui(scale, v.window && !scripted);
    if (v.window) connectInput(v.window, v);  // before ImGui's backend, which chains to it
    if (!initImGuiRenderer(v.d.softwareGl())) {
      std::fprintf(stderr, "springlab: the ImGui OpenGL backend failed; continuing without UI\n");
      shutdownImGui(v.window != nullptr);
      options.imgui = false;
    }
    if (v.window) options.begin_ui_frame = [] { ImGui_ImplGlfw_NewFrame(); };
  }
  v.d.configure(std::move(options));
  v.d.frameScene();
  v.d.sceneDefaults();
  if (prefs.camera && !v.opt.scene_given) {
    render::Camera& c = v.d.camera();
    c.target = glm::vec3(prefs.cam[0], prefs.cam[1], prefs.cam[2]);
    c.distance = prefs.cam[3], c.yaw = prefs.cam[4], c.pitch = prefs.cam[5];
    v.d.framing().keepCamera();
  }
  return 0;
}

// --stats: frame timings from frame 2 on (frame 1 compiles shaders and factorises).
struct FrameStats {
  double sim = 0.0, render = 0.0, present = 0.0, frame = 0.0;  // ms, summed
  long long frames = 0;
  // the real time: the simulated time advanced by frames 3..N over the wall time it was due
  // for, from frame 2's clock reading to frame N's
  double simMark = 0.0, wallMark = 0.0;

  void add(const FrameDriver& d, const FixedStepLoop& loop, long long frameNumber, double frameMs) {
    if (frameNumber == 2) simMark = d.session().state().t, wallMark = loop.lastClockReading();
    if (frameNumber < 2) return;
    const FrameTimes& t = d.times();
    sim += t.sim, render += t.render, present += t.present, frame += frameMs;
    ++frames;
  }
  void print(FrameDriver& d, const FixedStepLoop& loop) const {
    if (frames < 1) return;
    const double n = static_cast<double>(frames);
    const double dueWall = loop.lastClockReading() - wallMark;
    const double realtime =
        dueWall > 0.0 ? 100.0 * (d.session().state().t - simMark) / dueWall : 0.0;
    std::printf(
        "frames %lld, %dx%d: simulation %.2f ms + rendering %.2f ms + presenting %.2f ms per "
        "frame, %.1f ms per frame in all (%.1f frames/s), real time %.3g %%\n",
        frames + 1, d.target().width(), d.target().height(), sim / n, render / n, present / n,
        frame / n, 1000.0 * n / frame, realtime);
    std::printf("%s", d.passReport().c_str());
  }
};

// The window's size this frame; false while minimised (after waiting a little).
bool windowFrameSize(Viewer& v, int& w, int& h) {
  w = v.opt.width, h = v.opt.height;
  if (!v.window) return true;
  glfwPollEvents();
  glfwGetFramebufferSize(v.window, &w, &h);
  if (w > 0 && h > 0) return true;
  glfwWaitEventsTimeout(0.1);  // minimised: sleep until something happens
  return false;
}

// One frame: the clip's locked clock while recording, else the wall clock; present; capture.
void oneFrame(Viewer& v, WallClockSteps& wallSteps, bool realLoop, int w, int h) {
  if (realLoop)
    wallSteps.loop().setBudget(
        stepBudget(v.d.options().pacing, 1e-3 * (v.d.times().render + v.d.times().present)));
  StepPolicy& policy =
      v.recorder.active() ? v.recorder.clock() : static_cast<StepPolicy&>(wallSteps);
  if (v.recorder.active()) v.d.setRecording(true, v.recorder.label());
  for (const ui::FrontEndCommand& c : v.d.renderFrame(policy, w, h)) v.apply(c);
  SteadyClock wall;
  const double presentStart = wall.now();
  if (v.recorder.active()) v.recorder.capture(v.d);
  if (v.window) {
    render::PassScope timed(v.d.passTimer(), render::Pass::Present);
    presentToWindow(v.window, v.d.target(), w, h);
  }
  v.d.setPresentMs(1000.0 * (wall.now() - presentStart));
  if (v.recorder.active()) wallSteps.loop().restart();  // the wall clock resumes afresh after
}

// The frame loop, until the window closes, Quit, SIGTERM, or the scripted frame count.
void runFrames(Viewer& v, bool scripted) {
  const ViewerOptions& o = v.opt;
  SteadyClock wall;
  FrameClock fake;
  // scripted frames are deterministic (each frame is 1/60 s and every due step runs) unless
  // --stats asks for the real loop, the one whose timings matter
  const bool realLoop = !scripted || o.stats;
  WallClockSteps steps(realLoop ? static_cast<Clock&>(wall) : static_cast<Clock&>(fake));
  if (!realLoop) steps.loop().setBudget(1e9);
  FrameStats stats;
  double lastFrameStart = wall.now();
  long long frame = 0;
  std::signal(SIGTERM, onTerminate);
  while (!v.quit && !g_terminate) {
    int w = 0, h = 0;
    if (v.window && glfwWindowShouldClose(v.window)) break;
    if (!windowFrameSize(v, w, h)) continue;
    fake.t += kSmoothFrame;
    oneFrame(v, steps, realLoop, w, h);
    ++frame;
    if (v.window && !scripted && !o.stats) {
      // vsync paces the loop where the driver honours it; where it does not (Xvfb, some
      // drivers), sleep out the rest of a 60 Hz frame rather than spin
      const double left = kSmoothFrame - (wall.now() - lastFrameStart);
      if (left > 0.001) std::this_thread::sleep_for(std::chrono::duration<double>(left - 0.0005));
    }
    const double now = wall.now();
    stats.add(v.d, steps.loop(), frame, 1000.0 * (now - lastFrameStart));
    lastFrameStart = now;
    if (o.frames > 0 && frame >= o.frames) break;
  }
  if (o.stats) stats.print(v.d, steps.loop());
}

// Ends a run: a clip being recorded, the screenshot, the divergence report of a scripted run, the
// preferences of an interactive one, GL and ImGui released while the context is current.
// Returns the exit status.
int finish(Viewer& v, Prefs& prefs, bool scripted) {
  int exitStatus = 0;
  if (v.recorder.active()) {
    std::string message;
    v.recorder.stop(&message);
    std::fprintf(stderr, "springlab: %s\n", message.c_str());
  }
  if (!v.opt.screenshot.empty() && !v.saveScreenshot(v.opt.screenshot)) exitStatus = 2;
  if (scripted && v.d.session().divergence()) {
    // as `run`: a script learns of the divergence from the status, a person from the report
    std::fprintf(stderr, "springlab: %s\n", v.d.session().divergence()->message().c_str());
    exitStatus = 3;
  }
  v.recorder.releaseGl();
  v.d.releaseGl();
  if (v.d.options().imgui) shutdownImGui(v.window != nullptr);
  if (v.window && !scripted) {
    int w = 0, h = 0;
    glfwGetWindowSize(v.window, &w, &h);
    const GLFWvidmode* screen = glfwGetVideoMode(glfwGetPrimaryMonitor());
    prefs.keepWindowSize(w, h, screen ? screen->width : 0, screen ? screen->height : 0);
    prefs.scene = v.d.session().sceneArg();
    const auto& c = v.d.camera();
    const float cam[6] = {c.target.x, c.target.y, c.target.z, c.distance, c.yaw, c.pitch};
    std::copy(cam, cam + 6, prefs.cam);
    prefs.save();
  }
  closeWindow(v.window);
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
    v.recordFolder = prefs.record_folder;
    v.d.session().setHistoryBudget(static_cast<std::size_t>(prefs.history_mb * (1 << 20)));
  }
  if (const int status = loadScene(v, prefs, scripted); status != 0) return status;
  if (!scripted) o.frames = -1;
  if (!o.screenshot.empty() && o.frames < 0) o.frames = 1;
  HeadlessContext egl;
  if (const int status = openContext(v, egl, scripted); status != 0) return status;
  if (const int status = setUpRendering(v, prefs, scripted); status != 0) return status;
  runFrames(v, scripted);
  return finish(v, prefs, scripted);
}

}  // namespace app
