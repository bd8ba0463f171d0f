// springlab record (docs/cli.md#record): the sim-time lock, the options, and end to end through
// the binary with ffmpeg: every output kind, the lock seen in pixels, interruptions, replay, and
// the window's and record's paths agreeing. No display is needed (headless EGL).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <thread>

#include "app/frame_driver.hpp"
#include "app/record.hpp"
#include "cli/options.hpp"
#include "util.hpp"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace {

using namespace testutil;

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;  // 3 bytes per pixel, top row first
};

Image loadPng(const fs::path& p) {
  Image im;
  int n = 0;
  unsigned char* data = stbi_load(p.c_str(), &im.w, &im.h, &n, 3);
  if (!data) return im;
  im.rgb.assign(data, data + static_cast<size_t>(im.w) * im.h * 3);
  stbi_image_free(data);
  return im;
}

// `cmd`'s standard output (trailing newline removed).
std::string shell(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// "codec,width,height,pix_fmt,frames" of a video's first stream, decoded frame by frame.
std::string probe(const fs::path& video) {
  return shell(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=codec_name,width,height,pix_fmt,nb_read_frames -of csv=p=0 '" +
      video.string() + "' 2>/dev/null");
}

long long decodedFrames(const fs::path& video) {
  const std::string n = shell(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=nb_read_frames -of csv=p=0 '" +
      video.string() + "' 2>/dev/null");
  return n.empty() ? -1 : std::atoll(n.c_str());
}

fs::path freshDir(const std::string& name) {
  const fs::path d = tempDir() / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// A free particle at constant velocity (2 m/s along x, no gravity) beside a fixed spring: its
// exact motion is x = -1 + 2 t under every integrator.
const char* kDriftScene = R"({
  "name": "drift", "gravity": [0, 0, 0], "integrator": "symplectic_euler", "dt": 0.01,
  "duration": 1,
  "system": {"type": "mass_spring",
    "particles": [{"position": [-1, 0, 0], "velocity": [2, 0, 0], "mass": 1},
                  {"position": [0, 5, 0], "fixed": true}, {"position": [0, -5, 0], "fixed": true}],
    "springs": [{"a": 1, "b": 2, "stiffness": 1}]}
})";

// The centroid of the pixels that change between two frames: the moving body's old and new
// spots, so the midpoint of its two positions. false when nothing changed.
bool changeCentroid(const Image& a, const Image& b, double& cx, double& cy) {
  constexpr int kThreshold = 40;  // of 3 x 255: well above anti-aliasing and compression noise
  double sx = 0, sy = 0, n = 0;
  for (int y = 0; y < a.h; ++y)
    for (int x = 0; x < a.w; ++x) {
      const size_t i = (static_cast<size_t>(y) * a.w + x) * 3;
      int d = 0;
      for (int c = 0; c < 3; ++c) d += std::abs(int(a.rgb[i + c]) - int(b.rgb[i + c]));
      if (d > kThreshold) sx += x, sy += y, n += 1;
    }
  if (n == 0) return false;
  cx = sx / n, cy = sy / n;
  return true;
}

}  // namespace

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
  REQUIRE(s.apply(ui::command(ui::Command::Kind::SetDt, 0.001), &error));
  clock.advance(s);
  const long long anchor = s.steps();
  clock.advance(s);
  CHECK(s.steps() - anchor == 17);
}

TEST_CASE("record: every option of the help's table parses in both spellings") {
  using Check = std::function<bool(const app::RecordOptions&)>;
  const std::map<std::string, std::pair<std::string, Check>> samples = {
      {"--out", {"x.mp4", [](const auto& o) { return o.out == "x.mp4"; }}},
      {"--seconds", {"2.5", [](const auto& o) { return o.seconds == 2.5; }}},
      {"--fps", {"30", [](const auto& o) { return o.fps == 30.0; }}},
      {"--size", {"641x361", [](const auto& o) { return o.width == 641 && o.height == 361; }}},
      {"--integrator", {"verlet", [](const auto& o) { return o.integrator == "verlet"; }}},
      {"--dt", {"0.0025", [](const auto& o) { return o.dt == 0.0025; }}},
      {"--no-ui", {"", [](const auto& o) { return o.no_ui; }}},
      {"--caption", {"", [](const auto& o) { return o.caption; }}},
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

TEST_CASE("record: bad options are one-line errors, exit 2, nothing written") {
  const fs::path dir = freshDir("record_bad");
  const std::string out = (dir / "x.mp4").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"cloth_16"}, "springlab record: --out FILE is required"},
      {{"--out", out}, "springlab record: missing SCENE"},
      {{"cloth_16", "--out", out, "--fps", "0"}, "springlab record: --fps: must be a number"},
      {{"cloth_16", "--out", out, "--size", "4000x100"}, "springlab record: --size: must be WxH"},
      {{"cloth_16", "--out", out, "--seconds", "nan"}, "springlab record: --seconds: must be"},
      {{"cloth_16", "--out", (dir / "x.avi").string()}, "springlab record: --out: unsupported"},
      {{"cloth_16", "--out", out, "--integrator", "midpoint_x"}, "springlab record: --integrator"},
      {{"no_such_scene", "--out", out}, "no_such_scene"},
      {{"--replay", (dir / "none.json").string(), "--out", out}, "none.json: cannot read"},
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
