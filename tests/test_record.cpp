// springlab record (docs/cli.md#record) in process: the sim-time lock (frame k's step, LockedSteps,
// a dt event within a frame, a clip that blows up), every option and the bad ones, the window's
// recorder, and the lane colours kept apart from each other and from the scene's. End to end
// through the binary: tests/test_record_clips.cpp.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>

#include "app/egl_context.hpp"
#include "app/frame_driver.hpp"
#include "app/record.hpp"
#include "app/window_recorder.hpp"
#include "cli/options.hpp"
#include "fp_trap.hpp"
#include "lab/events.hpp"
#include "record_helpers.hpp"
#include "render/frame.hpp"
#include "render/palette.hpp"
#include "ui/panel.hpp"
#include "util.hpp"

using namespace testutil;
using recordtest::freshDir;
using recordtest::probe;

TEST_CASE("record: frame k shows the state after round(k / (fps dt)) steps, halves away from 0") {
  CHECK(app::lockedStepOfFrame(0, 60.0, 0.001) == 0);
  CHECK(app::lockedStepOfFrame(1, 60.0, 0.001) == 17);  // 16.67
  CHECK(app::lockedStepOfFrame(2, 60.0, 0.001) == 33);  // 33.33
  CHECK(app::lockedStepOfFrame(600, 60.0, 0.001) == 10000);
  CHECK(app::lockedStepOfFrame(1, 8.0, 0.25) == 1);    // exactly 0.5: away from zero
  CHECK(app::lockedStepOfFrame(3, 8.0, 0.25) == 2);    // 1.5
  CHECK(app::lockedStepOfFrame(7, 30.0, 0.01) == 23);  // 23.33
}

TEST_CASE("record: LockedSteps advances the session frame by frame, not by the wall clock") {
  app::Session s;
  s.load("seed002_harmonic_oscillator");  // dt = 0.00025 s
  app::LockedSteps clock(60.0);
  clock.advance(s);
  CHECK(s.steps() == 0);  // frame 0: the initial state
  clock.advance(s);
  CHECK(s.steps() == 67);  // round(1 / (60 * 0.00025)) = round(66.67)
  clock.advance(s);
  CHECK(s.steps() == 133);
  CHECK(s.state().t == doctest::Approx(133 * 0.00025));
  // paused: no frame of the clip passes
  s.setPaused(true);
  clock.advance(s);
  CHECK(s.steps() == 133);
  CHECK(clock.frame() == 2);
  s.setPaused(false);
  clock.advance(s);
  CHECK(clock.frame() == 3);
  CHECK(s.steps() == 200);
  // a new dt re-anchors: from here each frame is round(k / (60 * 0.001)) steps of 1 ms
  std::string error;
  REQUIRE(s.apply(ui::SetDt{0.001}, &error));
  clock.advance(s);
  const long long anchor = s.steps();
  clock.advance(s);
  CHECK(s.steps() - anchor == 17);
}

TEST_CASE("record: a dt event within a frame: the frame shows the step nearest its time") {
  app::Session s;
  s.load("seed002_harmonic_oscillator");  // dt = 0.00025 s
  lab::Event e;
  REQUIRE_FALSE(lab::parseEvent("0.02:dt=0.004", e));  // within the clip's first frame interval
  s.setEvents({e});
  app::LockedSteps clock(10.0);  // frames at 0, 0.1, 0.2 ... s
  clock.advance(s);
  clock.advance(s);
  // 80 steps of 0.25 ms to t = 0.02, then steps of 4 ms from there: the step nearest 0.1 s is
  // the 20th, t = 0.02 + 20 x 0.004 (not 400 steps of the new dt, 1.62 s)
  CHECK(s.dt() == 0.004);
  CHECK(s.steps() == 80 + 20);
  CHECK(s.state().t == doctest::Approx(0.1).epsilon(1e-12));
  clock.advance(s);
  CHECK(s.steps() == 80 + 45);
  CHECK(s.state().t == doctest::Approx(0.2).epsilon(1e-12));
}

TEST_CASE("record: a 10 fps clip that blows up replays the steps from an anchor 1/30 s apart") {
  app::Session s;
  s.load("cloth_16");
  lab::Event e;
  REQUIRE_FALSE(lab::parseEvent("2:dt=0.004", e));  // the README's "watch it explode"
  s.setEvents({e});
  app::LockedSteps clock(10.0);
  for (int frame = 0; frame < 40 && !s.divergence(); ++frame) {
    clock.advance(s);
    s.sample();
  }
  REQUIRE(s.divergence());
  // drawn: the state the rule found, at the divergence's time
  CHECK(s.primary().shownState().t == s.divergence()->t);
  // the slow motion starts on the blow-up's grid (Timeline::kAnchorRate), not at the last of the
  // clip's frames 0.1 s apart: the steps since the last anchor checked intact
  std::string msg;
  REQUIRE(s.apply(ui::ReplayBlowUp{20}, &msg));
  const double first = s.shownLane(0).state().t;
  CHECK(first < s.divergence()->t);
  CHECK(s.divergence()->t - first <= 1.0 / app::Timeline::kAnchorRate + s.dt() + 1e-12);
}

TEST_CASE("record: every option of the help's table parses in both spellings") {
  using Check = std::function<bool(const app::RecordOptions&)>;
  const std::map<std::string, std::pair<std::string, Check>> samples = {
      {"--out", {"x.mp4", [](const auto& o) { return o.out == "x.mp4"; }}},
      {"--seconds", {"2.5", [](const auto& o) { return o.seconds == 2.5; }}},
      {"--fps", {"30", [](const auto& o) { return o.fps == 30.0; }}},
      {"--size", {"641x361", [](const auto& o) { return o.width == 641 && o.height == 361; }}},
      {"--integrator", {"verlet", [](const auto& o) { return o.session.integrator == "verlet"; }}},
      {"--dt", {"0.0025", [](const auto& o) { return o.session.dt == 0.0025; }}},
      {"--lanes",
       {"rk4,verlet@0.001", [](const auto& o) { return o.session.lanes == "rk4,verlet@0.001"; }}},
      {"--at",
       {"2:dt=0.01",
        [](const auto& o) {  // given twice, like --camera: both kept
          return o.session.at == std::vector<std::string>{"2:dt=0.01", "2:dt=0.01"};
        }}},
      {"--ui", {"", [](const auto& o) { return o.ui; }}},
      {"--no-ui", {"", [](const auto& o) { return !o.ui; }}},  // the default, accepted
      {"--side-by-side", {"", [](const auto& o) { return o.side_by_side; }}},
      {"--arrows", {"", [](const auto& o) { return o.arrows; }}},
      {"--forces", {"", [](const auto& o) { return o.forces; }}},
      {"--caption", {"", [](const auto& o) { return o.caption; }}},
      {"--stats", {"", [](const auto& o) { return o.stats; }}},
      {"--camera", {"yaw=30", [](const auto& o) { return o.camera.size() == 2; }}},
      {"--replay", {"p.json", [](const auto& o) { return o.replay == "p.json"; }}},
  };
  for (const auto& spec : cli::recordOptions()) {
    const std::string name(spec.name);
    CAPTURE(name);
    REQUIRE(samples.count(name) == 1);
    const auto& [value, check] = samples.at(name);
    std::vector<std::string> both{"--out", "o.png"};
    for (bool joined : {false, true}) {
      if (value.empty())
        both.push_back(name);
      else if (joined)
        both.push_back(name + "=" + value);
      else
        both.push_back(name), both.push_back(value);
    }
    if (name != "--replay") both.push_back("cloth_16");
    if (name == "--out") both.erase(both.begin(), both.begin() + 2);
    app::RecordOptions o;
    const auto problem = app::parseRecordOptions(both, o);
    if (name == "--replay") {
      // with --replay only --out may be given: twice --replay is one option too many
      REQUIRE(problem);
      CHECK(*problem == "--replay takes only --out: the rest comes from the provenance file");
      continue;
    }
    CHECK_MESSAGE(!problem, problem.value_or(""));
    CHECK(check(o));
  }
  CHECK(samples.size() == cli::recordOptions().size());
}

// A file of `bytes` zeros outside the test's folders, sparse (nothing is written): its path.
static std::string sparseFile(const std::string& name, std::size_t bytes) {
  const fs::path p = tempDir() / name;
  std::ofstream(p, std::ios::binary) << ' ';
  fs::resize_file(p, bytes);
  return p.string();
}

// The corpus's provenance file of cloth_16 with `from` replaced by `to`, saved as `name`: its
// path.
static std::string alteredProvenance(const std::string& from, const std::string& to,
                                     const std::string& name) {
  std::ifstream in(fs::path(SPRINGLAB_SOURCE_DIR) /
                   "tests/fuzz/corpus/provenance/cloth_16.mp4.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  const fs::path p = tempDir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// its scene's stiffness made -1
static std::string brokenProvenance() {
  return alteredProvenance("\"stiffness\": 500", "\"stiffness\": -1", "broken_scene.mp4.json");
}

TEST_CASE("record: bad options are one-line errors, exit 2, nothing written") {
  const fs::path dir = freshDir("record_bad");
  const std::string out = (dir / "x.mp4").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"cloth_16"}, "springlab record: --out FILE is required"},
      {{"--out", out},
       "springlab record: missing SCENE (a .json file or a built-in name from springlab list)"},
      {{"cloth_16", "rope_100", "--out", out},
       "springlab record: unexpected argument \"rope_100\" (one SCENE only)"},
      {{"cloth_16", "--out", out, "--fps", "0"}, "springlab record: --fps: must be a number"},
      {{"cloth_16", "--out", out, "--size", "4000x100"}, "springlab record: --size: must be WxH"},
      {{"cloth_16", "--out", out, "--seconds", "nan"}, "springlab record: --seconds: must be"},
      {{"cloth_16", "--out", out, "--seconds", "1e300"}, "is more than 10000000 frames"},
      {{"cloth_16", "--out", out, "--seconds", "0.001", "--fps", "10"}, "less than one frame"},
      {{"cloth_16", "--out", (dir / "x.avi").string()}, "springlab record: --out: unsupported"},
      {{"cloth_16", "--out", out, "--integrator", "midpoint_x"}, "springlab record: --integrator"},
      {{"no_such_scene", "--out", out}, "no_such_scene"},
      {{"--replay", (dir / "none.json").string(), "--out", out}, "none.json: cannot open the file"},
      // a provenance file whose scene is broken is the file's fault, not the built-in scene's
      {{"--replay", brokenProvenance(), "--out", out},
       "springlab record: " + brokenProvenance() +
           ": key \"scene.definition\" (recorded from builtin:cloth_16): "
           "system.generators[0].stiffness: must be > 0"},
      // a provenance file's bad integrator or dt is the file's key, not an option never given
      {{"--replay",
        alteredProvenance("\n  \"integrator\": \"", "\n  \"integrator\": \"no_such_",
                          "bad_integrator.mp4.json"),
        "--out", out},
       "springlab record: " + (tempDir() / "bad_integrator.mp4.json").string() +
           ": key \"integrator\": unknown integrator"},
      // the option's name once, then the problem
      {{"cloth_16", "--out", out, "--camera", "pitch=95"},
       "springlab record: --camera: pitch must be between -89.9 and 89.9 degrees, not \"95\""},
      // limits (docs/cli.md#limits): files that are not regular or too large are refused unread
      {{"--replay", "/dev/zero", "--out", out}, "springlab record: /dev/zero: larger than 128 MiB"},
      {{"--replay", sparseFile("huge_provenance.json", (std::size_t(128) << 20) + 1), "--out", out},
       "huge_provenance.json: larger than 128 MiB"},
      {{"/dev/zero", "--out", out}, "springlab record: /dev/zero: larger than 64 MiB"},
      {{sparseFile("huge_scene.json", (std::size_t(64) << 20) + 1), "--out", out},
       "huge_scene.json: larger than 64 MiB"},
      // the run's bound on work, for the simulation under the frames
      {{"cloth_16", "--out", out, "--dt", "1e-7", "--seconds", "1e6", "--fps", "1"},
       "springlab record: --seconds: 1e+13 steps of 1634 particles and springs is 1.634e+16 "
       "element-steps, more than the 1e+15 a run may do (at least 189.1 days at 1e+09 a "
       "second)"},
  };
  for (const auto& [args, start] : cases) {
    std::vector<std::string> full{"record"};
    full.insert(full.end(), args.begin(), args.end());
    const RunResult r = springlab(full);
    CAPTURE(r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(start) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  CHECK(fs::is_empty(dir));
}

TEST_CASE("record: the window's recorder makes a sim-time-locked clip of the scene alone") {
  const testutil::FpTrapsOff mesa;  // the GL driver raises its own (as in the render suite)
  const fs::path dir = freshDir("record_window_clip");
  app::HeadlessContext context;
  REQUIRE_MESSAGE(context.create(), context.error());
  {
    app::FrameDriver d;
    d.session().load("cloth_16");
    std::string error;
    REQUIRE(d.initGl(&error));
    d.frameScene();
    d.sceneDefaults();
    app::WindowRecorder recorder;
    std::string message;
    // an odd window: the clip is rounded down to even sides for yuv420p
    REQUIRE_MESSAGE(recorder.start((dir / "clip.mp4").string(), 161, 91, &message), message);
    CHECK(message == "recording " + (dir / "clip.mp4").string());
    for (int frame = 0; frame < 6; ++frame) {
      d.renderFrame(recorder.clock(), 200, 120);  // the window's own size does not matter
      recorder.capture(d);
    }
    // frame 5 of the clip: round(5 / (60 dt)) steps, whatever the wall clock did
    CHECK(d.session().steps() == app::lockedStepOfFrame(5, 60.0, d.session().dt()));
    CHECK(recorder.label() == "REC 0:00.08");  // 5 / 60 s
    REQUIRE(recorder.stop(&message));
    CHECK(message.find("saved ") == 0);
    recorder.releaseGl();
    d.releaseGl();
  }
  CHECK(probe(dir / "clip.mp4") == "h264,160,90,yuv420p,6");
}

namespace {

// CIE L*a*b* of a linear-0..1 colour taken as sRGB-encoded (as the renderer writes it), D65.
std::array<double, 3> cieLab(double r, double g, double b) {
  auto lin = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
  const double R = lin(r), G = lin(g), B = lin(b);
  const double X = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047;
  const double Y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const double Z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883;
  auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
  return {116.0 * f(Y) - 16.0, 500.0 * (f(X) - f(Y)), 200.0 * (f(Y) - f(Z))};
}

// CIE76 Delta-E between two colours.
double deltaE(const glm::vec3& a, const glm::vec3& b) {
  const auto p = cieLab(a.r, a.g, a.b), q = cieLab(b.r, b.g, b.b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

glm::vec3 vec(const ui::LaneColour& c) {
  return {c.r, c.g, c.b};
}

}  // namespace

TEST_CASE("record: lane colours stay apart from each other and from the scene's own colours") {
  // Delta-E 2.3 is a just-noticeable difference; these margins are plainly different hues
  constexpr double kFromScene = 20.0, kBetweenLanes = 30.0, kGhosts = 20.0;
  std::vector<std::pair<std::string, glm::vec3>> scene = {
      {"body", render::palette::kBody},
      {"pin", render::palette::kPin},
      {"grabbed", render::palette::kGrabbed},
      {"culprit", render::kHighlightMagenta},
      {"cloth front", render::palette::kClothFront},
      {"cloth back", render::palette::kClothBack},
      {"wind", render::palette::kWind}};
  for (size_t k = 0; k < render::palette::kTrails.size(); ++k)
    scene.push_back({"trail " + std::to_string(k), render::palette::kTrails[k]});
  for (double x : {-1.0, 0.0, 1.0}) {
    const ui::Rgb c = ui::strainColour(x);
    scene.push_back({"strain " + std::to_string(x), {c.r, c.g, c.b}});
  }
  constexpr int kLanes = 8;
  for (int i = 0; i < kLanes; ++i) {
    CAPTURE(i);
    const glm::vec3 lane = vec(ui::laneColour(i));
    for (int j = i + 1; j < kLanes; ++j)
      CHECK(deltaE(lane, vec(ui::laneColour(j))) >= kBetweenLanes);
    if (i == 0) continue;  // lane 0 is drawn in the scene's own colours
    for (const auto& [name, colour] : scene) {
      CAPTURE(name);
      CHECK(deltaE(lane, colour) >= kFromScene);
    }
  }
  // a ghost is its scene colour mixed toward its lane's: its bodies and cloth apart from lane
  // 0's and from each other's
  for (const glm::vec3& own : {render::palette::kBody, render::palette::kClothFront}) {
    std::vector<glm::vec3> ghosts;
    for (int i = 1; i < kLanes; ++i)
      ghosts.push_back(glm::mix(own, vec(ui::laneColour(i)), app::FrameDriver::kGhostTint));
    for (size_t i = 0; i < ghosts.size(); ++i) {
      CAPTURE(i);
      CHECK(deltaE(ghosts[i], own) >= kGhosts);
      for (size_t j = i + 1; j < ghosts.size(); ++j) CHECK(deltaE(ghosts[i], ghosts[j]) >= kGhosts);
    }
  }
}
