#include "app/record.hpp"

#include <glad/gl.h>
#include <imgui.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/egl_context.hpp"
#include "app/frame_driver.hpp"
#include "app/frame_sink.hpp"
#include "app/platform.hpp"
#include "app/prefs.hpp"
#include "app/provenance.hpp"
#include "app/setup.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "scene/catalog.hpp"
#include "scene/load.hpp"
#include "sim/user_methods.hpp"
#include "util/bounded_file.hpp"
#include "util/one_line.hpp"

namespace app {

namespace {

constexpr const char* kPrefix = "springlab record";
constexpr double kBannerHoldSeconds = 1.0;  // a divergence's last frame stays this long
constexpr double kSlowMotionSeconds = 2.0;  // at most this long a blow-up in slow motion
constexpr double kMaxFrames = 1e7;          // 46 hours at 60 fps: beyond it a typo, not a clip

// SIGINT and SIGTERM stop the recording between two frames; the file is finished properly.
volatile std::sig_atomic_t g_stop = 0;
extern "C" void onRecordStopSignal(int) {
  g_stop = 1;
}

// The scene's text as loaded, its name and source, for the provenance file.
std::optional<std::string> readSceneText(RecordOptions& o) {
  if (const std::string_view* text = scene::findBuiltin(o.scene)) {
    o.scene_json = std::string(*text), o.scene_source = "builtin:" + o.scene;
    return std::nullopt;
  }
  // within the scene's own limit (a pipe or a device read up to it), once: the scene is loaded
  // from this text (loadSceneText), which the provenance file quotes
  auto text = util::readBoundedFile(o.scene, scene::kMaxSceneBytes);
  if (!text) return o.scene + ": " + text.problem();
  o.scene_json = std::move(*text), o.scene_source = o.scene;
  return std::nullopt;
}

}  // namespace

}  // namespace app

namespace app {

namespace {

// A policy that does not step: the frame before frame 0, which lets ImGui size its windows
// (a new auto-sized window is hidden for its first frame), so frame 0 shows the panel.
struct NoSteps : StepPolicy {
  FrameResult advance(Session&) override { return {}; }
  double realtimePercent() const override { return 100.0; }
  double stepsPerSecond() const override { return 0.0; }
};

struct Recording {
  RecordOptions o;
  std::vector<std::string> args;
  FrameDriver d;
  OutputKind kind = OutputKind::Mp4;
  std::unique_ptr<FrameSink> sink;
  long long frames = 0;  // round(seconds * fps)
  long long pushed = 0;  // frames handed to the sink
  std::string ended = "complete";
  int slowMotionFrames = 0;  // the blow-up's, after a runaway
  // --stats: wall time in ms, summed over the frames
  double stepMs = 0.0, drawMs = 0.0, readMs = 0.0, waitMs = 0.0, wallMs = 0.0, finishMs = 0.0;
};

// The scene from the text readSceneText read, as Session::load would load SCENE, but without
// reading it again: a pipe (`record <(generate_scene)`) gives its text only once.
std::optional<std::string> loadSceneText(Session& session, const RecordOptions& o) {
  try {
    const scene::SceneDef def = scene::parse(o.scene_json, o.scene_source);
    const bool builtin = scene::findBuiltin(o.scene) != nullptr;
    session.loadDef(def, def.name.empty() ? o.scene : def.name, builtin ? std::string() : o.scene);
  } catch (const scene::Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// Loads the scene (from SCENE or the provenance file), the integrator and dt; resolves seconds,
// the frame count and the size. The problem, or nothing.
std::optional<std::string> prepare(Recording& r) {
  RecordOptions& o = r.o;
  if (!o.replay.empty()) {
    if (auto problem = readProvenance(o.replay, o)) return std::string(kPrefix) + ": " + *problem;
    try {
      // read as from its source ("builtin:NAME" or the scene file's path), so that the meshes
      // it names are found where they were (docs/scenes.md#mesh)
      r.d.session().loadDef(provenanceScene(o, o.replay), o.scene_name, "");
    } catch (const scene::Error& e) {
      return std::string(kPrefix) + ": " + e.what();
    }
    if (auto problem = applySessionOptions(r.d.session(), o.session, kPrefix,
                                           SessionOptionNames::ofFile(o.replay)))
      return problem;
  } else {
    if (auto problem = readSceneText(o)) return std::string(kPrefix) + ": " + *problem;
    if (auto problem = loadSceneText(r.d.session(), o)) return problem;
    if (auto problem = applySessionOptions(r.d.session(), o.session, kPrefix)) return problem;
    o.scene_name = r.d.session().sceneName();
  }
  std::string error;
  const auto kind = outputKindOf(o.out, &error);
  if (!kind) return std::string(kPrefix) + ": --out: " + error;
  r.kind = *kind;
  if (!o.seconds) o.seconds = r.d.session().def().duration;
  const double frames = *o.seconds * o.fps;
  char what[128];
  std::snprintf(what, sizeof what, ": --seconds: %g s at %g fps is ", *o.seconds, o.fps);
  if (!(frames <= kMaxFrames)) return std::string(kPrefix) + what + "more than 10000000 frames";
  r.frames = std::llround(frames);
  if (r.frames < 1) return std::string(kPrefix) + what + "less than one frame";
  // the simulation under the frames: the run's bound on work (cli::kMaxWork)
  const Session& session = r.d.session();
  if (auto heavy = cli::workProblem(session.def(), *o.seconds / session.dt()))
    return std::string(kPrefix) + ": --seconds: " + *heavy;
  return std::nullopt;
}

// yuv420p halves the chroma resolution: a video's sides must be even, so an odd side loses its
// last pixel (said on standard error); PNGs keep any size.
void evenSizeForVideo(Recording& r) {
  if (!needsEvenSize(r.kind) || (r.o.width % 2 == 0 && r.o.height % 2 == 0)) return;
  const int w = r.o.width - r.o.width % 2, h = r.o.height - r.o.height % 2;
  std::fprintf(stderr,
               "%s: note: %dx%d rounded to %dx%d (H.264 and VP9 in yuv420p need even sides)\n",
               kPrefix, r.o.width, r.o.height, w, h);
  r.o.width = w, r.o.height = h;
}

// GIF stores each frame's delay in whole hundredths of a second, and players stretch delays
// under 2: a rate whose delay is not such a whole number plays at another speed (said, not hidden).
void noteGifRate(const Recording& r) {
  if (r.kind != OutputKind::Gif) return;
  const double delay = 100.0 / r.o.fps;  // hundredths of a second
  if (delay >= 2.0 && std::abs(delay - std::round(delay)) < 1e-9) return;
  std::fprintf(
      stderr,
      "%s: note: GIF frame delays are whole hundredths of a second (2 at least), so %g fps "
      "plays only approximately; --fps 50, 25 or 20 plays exactly\n",
      kPrefix, r.o.fps);
}

// The panel's scale: the picture's height over 720 px, so that a 4K clip's panel reads as a
// 720p one's does.
float uiScaleFor(int height) {
  constexpr float kReferenceHeight = 720.0f, kMaxScale = 3.0f;
  return std::clamp(static_cast<float>(height) / kReferenceHeight, 1.0f, kMaxScale);
}

// GL objects, ImGui, the display defaults, the scene's and the options' camera. The problem or
// nothing.
std::optional<std::string> setUpDriver(Recording& r) {
  FrameDriver& d = r.d;
  std::string error;
  if (!d.initGl(&error)) return std::string(kPrefix) + ": renderer: " + error;
  createImGui(uiScaleFor(r.o.height), false);
  FrameOptions options;
  options.imgui = initImGuiRenderer(d.softwareGl());
  if (!options.imgui) return std::string(kPrefix) + ": the ImGui OpenGL backend failed";
  options.show_ui = r.o.ui;
  options.axes = false;  // the world-axes gizmo is the window's, not a clip's
  options.split_lanes = r.o.side_by_side;
  options.caption = r.o.caption;
  // the caption names the scene briefly: a built-in's name, a file's stem (the descriptive name
  // would crowd out the numbers)
  const std::string& source = r.o.scene_source;
  options.caption_name = source.rfind("builtin:", 0) == 0
                             ? source.substr(8)
                             : std::filesystem::path(source).stem().string();
  options.hide_frame_times = true;  // wall-clock figures would make replays differ
  options.ui_frame_seconds = 1.0 / r.o.fps;
  options.pacing = Pacing::SmoothFrames;
  options.time_passes = r.o.stats;
  d.configure(std::move(options));
  d.frameScene();
  d.sceneDefaults();
  if (r.o.arrows) d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Arrows, true});
  if (r.o.forces) d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Forces, true});
  scene::CameraDef camera = d.session().def().render.camera;
  for (const std::string& kv : r.o.camera) scene::applyCameraOption(kv, camera);
  d.setCamera(camera);
  return std::nullopt;
}

// The frame just rendered to the sink; false when the sink failed.
bool pushFrame(Recording& r) {
  SteadyClock clock;
  const double t0 = clock.now();
  Frame f = r.sink->takeBuffer();
  f.width = r.o.width, f.height = r.o.height;
  {
    render::PassScope timed(r.d.passTimer(), render::Pass::ReadBack);
    r.d.target().read(f.rgba);
  }
  const double t1 = clock.now();
  ++r.pushed;
  const bool ok = r.sink->push(std::move(f));  // blocks only while the encoder is behind
  r.readMs += 1000.0 * (t1 - t0), r.waitMs += 1000.0 * (clock.now() - t1);
  return ok;
}

// --stats: the recording's speed against real time and where the wall time went.
void printStats(Recording& r) {
  const double n = std::max<double>(1.0, static_cast<double>(r.pushed));
  const double clip = static_cast<double>(r.pushed) / r.o.fps;  // s of video
  std::printf(
      "%s: %lld frames in %.2f s (%.3gx real time): per frame %.2f ms stepping + %.2f ms drawing "
      "+ %.2f ms reading back + %.2f ms waiting on the encoder; %.2f s finishing the file\n",
      kPrefix, r.pushed, 1e-3 * r.wallMs, r.wallMs > 0 ? 1000.0 * clip / r.wallMs : 0.0,
      r.stepMs / n, r.drawMs / n, r.readMs / n, r.waitMs / n, 1e-3 * r.finishMs);
  std::printf("%s", r.d.passReport().c_str());
}

// A clip that ran away ends with the blow-up in slow motion
// (docs/lab.md#the-blow-up-in-slow-motion): the window's Replay slowly, one step a frame for at
// most kSlowMotionSeconds, then the state the runaway rule found held kBannerHoldSeconds under
// the banner. False when the sink failed.
bool pushBlowUp(Recording& r) {
  const int w = r.o.width, h = r.o.height;
  NoSteps still;
  const int frames = static_cast<int>(std::max(1.0, std::round(kSlowMotionSeconds * r.o.fps)));
  if (!r.d.applyCommand(ui::ReplayBlowUp{frames}).has_value() && r.d.session().replaying()) {
    for (Session& s = r.d.session(); s.replaying(); s.advanceReplay()) {
      r.d.renderFrame(still, w, h);
      if (!pushFrame(r)) return false;
      ++r.slowMotionFrames;
    }
  }
  // the banner's frame, held: the clip ends on why it stopped. Drawn twice without a step: ImGui
  // lays a new window out on its first frame and shows it on the next.
  r.d.renderFrame(still, w, h);
  r.d.renderFrame(still, w, h);
  const long long hold = std::max<long long>(1, std::llround(kBannerHoldSeconds * r.o.fps));
  for (long long i = 0; i < hold; ++i)
    if (!pushFrame(r)) return false;
  return true;
}

// Frames 0 .. frames-1 (or until a signal, a divergence or a sink error). Returns false when the
// sink failed.
bool renderFrames(Recording& r) {
  const int w = r.o.width, h = r.o.height;
  NoSteps still;
  if (r.d.options().show_ui)
    r.d.renderFrame(still, w, h);  // lays out the panel once; not part of the clip
  LockedSteps clock(r.o.fps);
  cli::Progress progress = cli::Progress::forStderr(kPrefix, "frames", r.frames);
  for (long long k = 0; k < r.frames; ++k) {
    if (g_stop) {
      r.ended = "interrupted";
      break;
    }
    r.d.renderFrame(clock, w, h);
    r.stepMs += r.d.times().sim, r.drawMs += r.d.times().render;
    if (r.d.session().divergence()) {
      r.ended = "diverged";
      if (!pushBlowUp(r)) return false;
      break;
    }
    if (!pushFrame(r)) return false;
    progress.update(k + 1, r.d.session().state().t);
  }
  progress.finish(r.pushed, r.d.session().state().t);
  return true;
}

}  // namespace

namespace {

// An OpenGL context for rendering offscreen: headless EGL, or where that fails and a display
// exists, an invisible GLFW window. The problem or nothing.
std::optional<std::string> openOffscreenContext(HeadlessContext& egl, GLFWwindow*& hidden) {
  if (egl.create()) return std::nullopt;
  if (haveDisplay() &&
      (hidden = openWindow(kMinWindowSide, kMinWindowSide, "springlab record", false)))
    return std::nullopt;
  return std::string(kPrefix) + ": no OpenGL 3.3 context for offscreen rendering: " + egl.error();
}

// The sink (recordMain has checked that ffmpeg exists where it is needed). The problem or nothing.
std::optional<std::string> openOutput(Recording& r) {
  std::string error;
  const std::string ffmpeg = needsFfmpeg(r.kind) ? findFfmpeg() : std::string();
  r.sink = openSink({r.o.out, r.kind, r.o.width, r.o.height, r.o.fps, ffmpeg}, &error);
  if (!r.sink) return std::string(kPrefix) + ": " + error;
  return std::nullopt;
}

// Finishes the output and writes the provenance file; prints what was made. Returns the exit
// status.
int finishOutput(Recording& r) {
  SteadyClock clock;
  const double t0 = clock.now();
  const bool finished = r.sink->finish();
  r.finishMs = 1000.0 * (clock.now() - t0);
  r.wallMs += r.finishMs;
  if (r.o.stats) printStats(r);
  if (!finished) {
    std::fprintf(stderr, "%s: %s\n", kPrefix, r.sink->error().c_str());
    return 2;
  }
  Provenance p;
  p.options = r.o;
  p.integrator = sim::methodReference(r.d.session().method());  // a method file's by its path
  p.dt = r.d.session().dt();
  p.frames = r.frames, p.frames_written = r.pushed, p.ended = r.ended, p.args = r.args;
  const std::string where = provenancePath(r.o.out, r.kind == OutputKind::PngSequence);
  std::string error;
  if (!writeProvenance(where, p, &error))
    std::fprintf(stderr, "%s: warning: %s\n", kPrefix, error.c_str());
  const std::string out = r.sink->outputDescription();
  if (r.ended == "interrupted") {
    std::fprintf(stderr, "%s: interrupted: %s holds the %lld frames made (t = %.6g s)\n", kPrefix,
                 out.c_str(), r.pushed, r.d.session().state().t);
    return 130;
  }
  if (r.ended == "diverged") {
    std::fprintf(stderr,
                 "%s: %s; %s holds the frames up to it, the blow-up in slow motion (%d frames, "
                 "one a step) and %g s of the banner\n",
                 kPrefix, r.d.session().divergence()->message().c_str(), out.c_str(),
                 r.slowMotionFrames, kBannerHoldSeconds);
    return 3;
  }
  std::printf("%s: wrote %s: %lld frames, %dx%d, %.6g s at %g fps (provenance %s)\n", kPrefix,
              out.c_str(), r.pushed, r.o.width, r.o.height, *r.o.seconds, r.o.fps, where.c_str());
  return 0;
}

// Everything from an open context to the exit status; GL and ImGui released before returning.
int recordWithContext(Recording& r) {
  int status = 0;
  if (auto problem = setUpDriver(r)) {
    std::fprintf(stderr, "%s\n", problem->c_str());
    status = 2;
  } else if (auto problem = openOutput(r)) {
    std::fprintf(stderr, "%s\n", problem->c_str());
    status = 2;
  } else {
    g_stop = 0;
    const auto oldInt = std::signal(SIGINT, onRecordStopSignal);
    const auto oldTerm = std::signal(SIGTERM, onRecordStopSignal);
    SteadyClock clock;
    const double t0 = clock.now();
    const bool ok = renderFrames(r);
    r.wallMs = 1000.0 * (clock.now() - t0);
    status = ok ? finishOutput(r) : 2;
    if (!ok) {
      std::fprintf(stderr, "%s: %s\n", kPrefix, r.sink->error().c_str());
      r.sink->abort();
    }
    std::signal(SIGINT, oldInt);
    std::signal(SIGTERM, oldTerm);
  }
  r.d.releaseGl();
  if (r.d.options().imgui || ImGui::GetCurrentContext()) shutdownImGui(false);
  return status;
}

}  // namespace

int recordMain(const std::vector<std::string>& args) {
  Recording r;
  r.args = args;
  if (auto problem = parseRecordOptions(args, r.o)) {
    std::fprintf(stderr, "%s: %s\n", kPrefix, problem->c_str());
    return 2;
  }
  if (auto problem = prepare(r)) {
    std::fprintf(stderr, "%s\n", problem->c_str());
    return 2;
  }
  evenSizeForVideo(r);
  noteGifRate(r);
  if (needsFfmpeg(r.kind) && findFfmpeg().empty()) {  // before any work: nothing is written
    std::fprintf(stderr,
                 "%s: ffmpeg not found on PATH: install it (Debian: apt-get install ffmpeg) or "
                 "record PNG frames (--out frames/%%05d.png)\n",
                 kPrefix);
    return 2;
  }
  HeadlessContext egl;
  GLFWwindow* hidden = nullptr;
  if (auto problem = openOffscreenContext(egl, hidden)) {
    std::fprintf(stderr, "%s\n", problem->c_str());
    return 2;
  }
  const int status = recordWithContext(r);
  closeWindow(hidden);
  return status;
}

}  // namespace app
