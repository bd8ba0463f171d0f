// springlab record (docs/cli.md#record) end to end through the binary with ffmpeg: every output
// kind read back with ffprobe, the lock seen in pixels at two dt, replay = identical frames, the
// window's picture = record's, the panel, a scene from a pipe, no ffmpeg, a divergence, SIGINT and
// SIGKILL mid-clip, side by side, the arrows. No display is needed (headless EGL). The record in
// process: tests/test_record.cpp; the README's blow-up clip: tests/test_record_blowup.cpp.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

#include "record_helpers.hpp"
#include "util.hpp"

#include "stb_image_reader.hpp"

using namespace testutil;
using recordtest::decodedFrames;
using recordtest::freshDir;
using recordtest::probe;

namespace {

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

// ---- end to end through the binary (ffmpeg is installed by the README's test command) ----

TEST_CASE("record: each output kind has the contract's frame count, size and codec") {
  const fs::path dir = freshDir("record_kinds");
  // 0.5 s at 24 fps: round(12) frames; an odd size is rounded down to even for yuv420p video
  const std::vector<std::string> common = {"seed004_fig6b", "--seconds", "0.5", "--fps", "24",
                                           "--size",        "161x91"};
  auto record = [&](const std::string& out) {
    std::vector<std::string> args{"record"};
    args.insert(args.end(), common.begin(), common.end());
    args.push_back("--out"), args.push_back((dir / out).string());
    return springlab(args);
  };
  for (const auto& [file, expected] :
       std::vector<std::pair<std::string, std::string>>{{"a.mp4", "h264,160,90,yuv420p,12"},
                                                        {"a.webm", "vp9,160,90,yuv420p,12"},
                                                        {"a.gif", "gif,161,91,bgra,12"}}) {
    CAPTURE(file);
    const RunResult r = record(file);
    CAPTURE(r.err);
    REQUIRE(r.status == 0);
    CHECK(probe(dir / file) == expected);
    CHECK(fs::exists(dir / (file + ".json")));
  }
  const RunResult png = record("last.png");
  REQUIRE(png.status == 0);
  const Image last = loadPng(dir / "last.png");
  CHECK(last.w == 161);
  CHECK(last.h == 91);
  const RunResult seq = record("frames/%03d.png");
  REQUIRE(seq.status == 0);
  for (int k = 0; k < 12; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "frames/%03d.png", k);
    CHECK(loadPng(dir / name).w == 161);
  }
  CHECK_FALSE(fs::exists(dir / "frames/012.png"));
  CHECK(fs::exists(dir / "frames/record.json"));
  // the sequence's last frame is the single PNG's frame
  CHECK(loadPng(dir / "frames/011.png").rgb == last.rgb);
}

TEST_CASE("record: simulated time is locked to the clip's clock whatever dt is") {
  const fs::path dir = freshDir("record_lock");
  const fs::path scene = writeFile("drift.json", kDriftScene);
  auto record = [&](const std::string& dt, const std::string& folder) {
    return springlab({"record", scene.string(), "--dt", dt, "--fps", "10", "--seconds", "1",
                      "--size", "240x120", "--no-ui", "--camera", "target=0,0,0", "--camera",
                      "distance=2.5", "--out", (dir / folder / "%02d.png").string()});
  };
  REQUIRE(record("0.01", "coarse").status == 0);
  REQUIRE(record("0.0025", "fine").status == 0);
  std::vector<double> xs;
  for (int k = 0; k + 1 < 10; ++k) {
    char a[16], b[16];
    std::snprintf(a, sizeof a, "%02d.png", k);
    std::snprintf(b, sizeof b, "%02d.png", k + 1);
    double cx = 0, cy = 0, fx = 0, fy = 0;
    REQUIRE(changeCentroid(loadPng(dir / "coarse" / a), loadPng(dir / "coarse" / b), cx, cy));
    REQUIRE(changeCentroid(loadPng(dir / "fine" / a), loadPng(dir / "fine" / b), fx, fy));
    CAPTURE(k);
    CHECK(std::abs(cx - fx) <= 1.0);  // the same motion at the same frame, to a pixel
    CHECK(std::abs(cy - fy) <= 1.0);
    xs.push_back(cx);
  }
  // constant velocity: the body's pixel moves by the same amount every frame
  const double step = (xs.back() - xs.front()) / static_cast<double>(xs.size() - 1);
  CHECK(step > 5.0);  // it does move across the picture
  for (size_t k = 0; k < xs.size(); ++k) CHECK(std::abs(xs[k] - (xs.front() + step * k)) <= 1.0);
}

TEST_CASE("record: a replay of the provenance file renders identical frames") {
  const fs::path dir = freshDir("record_replay");
  // the panel, the caption and an orbiting camera: everything that could drift between runs
  const RunResult first = springlab(
      {"record", "cloth_16", "--seconds", "0.25", "--fps", "20", "--size", "320x200", "--caption",
       "--camera", "orbit=40", "--camera", "pitch=35", "--out", (dir / "a" / "%02d.png").string()});
  REQUIRE(first.status == 0);
  const RunResult again = springlab({"record", "--replay", (dir / "a" / "record.json").string(),
                                     "--out", (dir / "b" / "%02d.png").string()});
  CAPTURE(again.err);
  REQUIRE(again.status == 0);
  for (int k = 0; k < 5; ++k) {
    char name[16];
    std::snprintf(name, sizeof name, "%02d.png", k);
    const Image a = loadPng(dir / "a" / name), b = loadPng(dir / "b" / name);
    CAPTURE(k);
    REQUIRE(a.w == 320);
    CHECK(a.rgb == b.rgb);
  }
  const std::string provenance = readFile(dir / "a" / "record.json");
  CHECK(provenance.find("\"integrator\": \"symplectic_euler\"") != std::string::npos);
  CHECK(provenance.find("\"ended\": \"complete\"") != std::string::npos);
  CHECK(provenance.find("\"orbit=40\"") != std::string::npos);
}

TEST_CASE("record: the window's path and record's render the same image, but the axes gizmo") {
  const fs::path dir = freshDir("record_window");
  // the window's first scripted frame and record's frame 0 both show the initial state
  const RunResult window = springlab({"cloth_32_horizontal", "--headless", "--no-ui", "--size",
                                      "300x200", "--screenshot", (dir / "w.png").string()});
  REQUIRE(window.status == 0);
  const RunResult rec =
      springlab({"record", "cloth_32_horizontal", "--size", "300x200", "--seconds", "0.01", "--fps",
                 "100", "--out", (dir / "r.png").string()});
  REQUIRE(rec.status == 0);
  const Image w = loadPng(dir / "w.png"), r = loadPng(dir / "r.png");
  REQUIRE(w.w == 300);
  REQUIRE(r.w == 300);
  // the window keeps its world-axes gizmo, a clip has none: a few short lines apart, the same
  size_t differ = 0;
  for (size_t i = 0; i < w.rgb.size(); i += 3)
    differ += w.rgb[i] != r.rgb[i] || w.rgb[i + 1] != r.rgb[i + 1] || w.rgb[i + 2] != r.rgb[i + 2];
  CHECK(differ > 0);
  CHECK(differ < w.rgb.size() / 3 / 50);  // under 2 % of the picture
}

namespace {

// The share of pixels that differ between two images of one size, in the columns [x0, x1).
double differingShare(const Image& a, const Image& b, int x0, int x1) {
  size_t n = 0, differ = 0;
  for (int y = 0; y < a.h; ++y)
    for (int x = x0; x < x1; ++x) {
      const size_t i = (static_cast<size_t>(y) * a.w + x) * 3;
      ++n;
      differ +=
          a.rgb[i] != b.rgb[i] || a.rgb[i + 1] != b.rgb[i + 1] || a.rgb[i + 2] != b.rgb[i + 2];
    }
  return n ? double(differ) / double(n) : 0.0;
}

}  // namespace

TEST_CASE("record: by default the scene alone, --ui draws the panel, --no-ui is the default") {
  const fs::path dir = freshDir("record_ui");
  const std::vector<std::string> base = {"record",    "cloth_16", "--size", "480x270",
                                         "--seconds", "0.05",     "--fps",  "20"};
  auto recordWith = [&](const std::string& flag, const std::string& name) {
    std::vector<std::string> args = base;
    if (!flag.empty()) args.push_back(flag);
    args.push_back("--out"), args.push_back((dir / name).string());
    const RunResult r = springlab(args);
    CAPTURE(r.err);
    REQUIRE(r.status == 0);
    return loadPng(dir / name);
  };
  const Image plain = recordWith("", "plain.png"), noUi = recordWith("--no-ui", "no_ui.png"),
              ui = recordWith("--ui", "ui.png");
  REQUIRE(plain.w == 480);
  CHECK(plain.rgb == noUi.rgb);
  // the panel covers the left of the picture: there nearly every pixel differs
  CHECK(differingShare(plain, ui, 0, 100) > 0.5);
  // the provenance file records the choice; a replay renders the same frames
  CHECK(readFile(dir / "ui.png.json").find("\"ui\": true") != std::string::npos);
  CHECK(readFile(dir / "plain.png.json").find("\"ui\": false") != std::string::npos);
}

TEST_CASE("record: a provenance file of a build before --ui replays with its panel as recorded") {
  const fs::path dir = freshDir("record_old_provenance");
  const RunResult first = springlab({"record", "cloth_16", "--size", "320x180", "--seconds", "0.05",
                                     "--fps", "20", "--ui", "--out", (dir / "ui.png").string()});
  REQUIRE(first.status == 0);
  // the old build's file: no "ui" key, "no_ui": false meant the panel was drawn
  std::string text = readFile(dir / "ui.png.json");
  const size_t at = text.find("\"ui\": true,");
  REQUIRE(at != std::string::npos);
  text.erase(at, std::string("\"ui\": true,").size());
  REQUIRE(text.find("\"no_ui\": false") != std::string::npos);
  {
    std::ofstream old(dir / "old.json");
    old << text;
  }
  const RunResult again = springlab(
      {"record", "--replay", (dir / "old.json").string(), "--out", (dir / "again.png").string()});
  CAPTURE(again.err);
  REQUIRE(again.status == 0);
  CHECK(loadPng(dir / "ui.png").rgb == loadPng(dir / "again.png").rgb);
}

TEST_CASE("record: a scene from a pipe is read once: record <(generate_scene)") {
  const fs::path dir = freshDir("record_pipe");
  const std::string scene = std::string(SPRINGLAB_SOURCE_DIR) + "/assets/scenes/cloth_16.json";
  const std::vector<std::string> options = {"--size", "64x48", "--seconds", "0.05", "--fps", "20"};
  std::vector<std::string> fromFile = {"record", scene, "--out", (dir / "file.png").string()};
  std::vector<std::string> fromPipe = {"record", "/dev/fd/3", "--out", (dir / "pipe.png").string()};
  fromFile.insert(fromFile.end(), options.begin(), options.end());
  fromPipe.insert(fromPipe.end(), options.begin(), options.end());
  REQUIRE(springlab(fromFile).status == 0);
  // bash's process substitution hands springlab a pipe as /dev/fd/N, which reads only once
  const RunResult r =
      springlab(fromPipe, "bash -c 'exec 3< <(cat \"" + scene + "\"); exec \"$0\" \"$@\"' ");
  CAPTURE(r.err);
  REQUIRE(r.status == 0);
  CHECK(loadPng(dir / "file.png").rgb == loadPng(dir / "pipe.png").rgb);
  // the provenance file quotes the scene's text as read
  const std::string quoted = readFile(dir / "pipe.png.json");
  CHECK(quoted.find("\"source\": \"/dev/fd/3\"") != std::string::npos);
  CHECK(quoted.find("Cloth 16x16") != std::string::npos);
}

TEST_CASE("record: a replay never writes where the provenance file's output points") {
  // the file says where its clip was written; a replay writes --out only, so a file handed on
  // cannot point the replay at a path outside the working folder
  const fs::path dir = freshDir("record_output_elsewhere"),
                 elsewhere = freshDir("record_elsewhere");
  const RunResult first = springlab({"record", "cloth_16", "--size", "64x48", "--seconds", "0.05",
                                     "--fps", "20", "--out", (dir / "a.png").string()});
  REQUIRE(first.status == 0);
  const std::string text = readFile(dir / "a.png.json");
  const std::string key = "\"output\": \"" + (dir / "a.png").string() + "\"";
  for (const std::string& target :
       {(elsewhere / "stolen.png").string(), std::string("../up.png")}) {
    std::string changed = text;
    const size_t at = changed.find(key);
    REQUIRE(at != std::string::npos);
    changed.replace(at, key.size(), "\"output\": \"" + target + "\"");
    std::ofstream(dir / "p.json") << changed;
    const RunResult again = springlab(
        {"record", "--replay", (dir / "p.json").string(), "--out", (dir / "b.png").string()});
    CAPTURE(again.err);
    REQUIRE(again.status == 0);
    CHECK(loadPng(dir / "a.png").rgb == loadPng(dir / "b.png").rgb);
  }
  CHECK(fs::is_empty(elsewhere));
  CHECK_FALSE(fs::exists(dir.parent_path() / "up.png"));
  CHECK_FALSE(fs::exists(fs::current_path().parent_path() / "up.png"));
}

TEST_CASE("record: without ffmpeg a video is a one-line error, exit 2, nothing written") {
  const fs::path dir = freshDir("record_noffmpeg");
  const RunResult r =
      springlab({"record", "cloth_16", "--seconds", "0.1", "--out", (dir / "x.mp4").string()},
                "PATH=" + (dir / "empty").string() + " ");
  CHECK(r.status == 2);
  CHECK(r.err.find("springlab record: ffmpeg not found on PATH") == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(fs::is_empty(dir));
  // PNGs need no ffmpeg
  CHECK(springlab({"record", "cloth_16", "--seconds", "0.05", "--fps", "20", "--size", "64x48",
                   "--out", (dir / "x.png").string()},
                  "PATH=" + (dir / "empty").string() + " ")
            .status == 0);
}

TEST_CASE("record: a divergence ends the clip on the banner held 1 s, exit 3, a playable file") {
  const fs::path dir = freshDir("record_diverge");
  // forward Euler explodes on the 16 x 16 cloth within a second (test_app's banner test)
  const RunResult r =
      springlab({"record", "cloth_16", "--integrator", "euler", "--seconds", "5", "--fps", "10",
                 "--size", "160x100", "--out", (dir / "x.mp4").string()});
  CAPTURE(r.err);
  CHECK(r.status == 3);
  CHECK(r.err.find("diverged") != std::string::npos);
  const long long frames = decodedFrames(dir / "x.mp4");
  CHECK(frames >= 10);  // the held banner alone is fps frames
  CHECK(frames < 50);   // stopped at the divergence, not at 5 s
  CHECK(readFile(dir / "x.mp4.json").find("\"ended\": \"diverged\"") != std::string::npos);
}

namespace {

// Starts `springlab record ARGS` in its own process group (as a shell's job is), with standard
// error to `err`; returns its pid.
pid_t startRecording(const std::vector<std::string>& args, const fs::path& err) {
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    FILE* e = std::freopen(err.c_str(), "w", stderr);
    (void)e;
    std::vector<std::string> all{SPRINGLAB_BIN, "record"};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  setpgid(pid, pid);
  return pid;
}

// Waits until `file` exists (ffmpeg renames it into place when it has finished), up to `seconds`.
bool waitFor(const fs::path& file, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (fs::exists(file)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return fs::exists(file);
}

}  // namespace

TEST_CASE("record: Ctrl+C to the whole process group leaves a playable file and exit 130") {
  const fs::path dir = freshDir("record_sigint");
  const fs::path out = dir / "x.mp4";
  const pid_t pid =
      startRecording({"cloth_16", "--seconds", "600", "--size", "160x100", "--out", out.string()},
                     dir / "err.txt");
  std::this_thread::sleep_for(std::chrono::seconds(3));  // some frames are made
  kill(-pid, SIGINT);  // a terminal's Ctrl+C: springlab's whole group
  int raw = 0;
  waitpid(pid, &raw, 0);
  CAPTURE(readFile(dir / "err.txt"));
  REQUIRE(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 130);
  CHECK(decodedFrames(out) >= 1);
  CHECK(readFile(dir / "x.mp4.json").find("\"ended\": \"interrupted\"") != std::string::npos);
}

TEST_CASE("record: a SIGKILL of springlab still leaves a decodable file") {
  const fs::path dir = freshDir("record_sigkill");
  const fs::path out = dir / "x.mp4";
  const pid_t pid =
      startRecording({"cloth_16", "--seconds", "600", "--size", "160x100", "--out", out.string()},
                     dir / "err.txt");
  std::this_thread::sleep_for(std::chrono::seconds(3));
  kill(pid, SIGKILL);
  int raw = 0;
  waitpid(pid, &raw, 0);
  CHECK(WIFSIGNALED(raw));
  // ffmpeg, in a process group of its own, sees its input end, finishes and renames the file
  REQUIRE(waitFor(out, 60.0));
  CHECK(decodedFrames(out) >= 1);
}

namespace {

// Pixels of the cloth's front (blue, well above the background's blue-grey) in column x.
int clothPixelsInColumn(const Image& im, int x, int y0) {
  int n = 0;
  for (int y = y0; y < im.h; ++y) {
    const size_t i = (static_cast<size_t>(y) * im.w + x) * 3;
    n += int(im.rgb[i + 2]) > int(im.rgb[i]) + 60;
  }
  return n;
}

}  // namespace

TEST_CASE("record: side by side, each of four columns shows its own lane's whole cloth") {
  const fs::path dir = freshDir("record_columns");
  const RunResult r = springlab(
      {"record", "cloth_16", "--lanes", "rk4,verlet,symplectic_euler,euler", "--side-by-side",
       "--size", "640x360", "--seconds", "0.05", "--fps", "20", "--out", (dir / "c.png").string()});
  CAPTURE(r.err);
  REQUIRE(r.status == 0);
  const Image im = loadPng(dir / "c.png");
  REQUIRE(im.w == 640);
  constexpr int kColumns = 4, kBelowLabels = 40;  // px: the labels' row is left out
  for (int c = 0; c < kColumns; ++c) {
    CAPTURE(c);
    const int x0 = im.w * c / kColumns, x1 = im.w * (c + 1) / kColumns;
    int inside = 0;
    for (int x = x0 + 4; x < x1 - 4; ++x) inside += clothPixelsInColumn(im, x, kBelowLabels);
    CHECK(inside > 500);  // the cloth is there...
    // ... and clear of the column's edges, not a slice cut by them
    CHECK(clothPixelsInColumn(im, x0 + 1, kBelowLabels) == 0);
    CHECK(clothPixelsInColumn(im, x1 - 2, kBelowLabels) == 0);
  }
}

TEST_CASE("record: --arrows draws the bob's velocity across and its acceleration up") {
  const fs::path dir = freshDir("record_arrows");
  // a bob at the bottom of its swing, moving right (+x) at 2.5 m/s: the velocity arrow points
  // right, the acceleration (omega² L = 6.25 m/s², toward the pivot) up
  const fs::path scene = dir / "bottom.json";
  std::ofstream(scene) << R"({"gravity": [0, -9.81, 0], "integrator": "rk4", "dt": 0.001,
    "duration": 1, "system": {"type": "pendulum", "lengths": [1], "masses": [1],
    "angles": [0], "angular_velocities": [2.5]}})";
  auto record = [&](const std::string& out, bool arrows) {
    std::vector<std::string> args{"record", scene.string(), "--seconds", "0.05",
                                  "--size", "480x270",      "--out",     (dir / out).string()};
    if (arrows) args.push_back("--arrows");
    const RunResult r = springlab(args);
    CAPTURE(r.err);
    REQUIRE(r.status == 0);
    return loadPng(dir / out);
  };
  const Image plain = record("plain.png", false), with = record("arrows.png", true);
  REQUIRE(plain.rgb.size() == with.rgb.size());
  // the pixels the arrows changed: green ones (the velocity) and orange ones (the acceleration)
  double gx = 0, gy = 0, ox = 0, oy = 0;
  int green = 0, orange = 0;
  // the lower half only: the bob hangs there, the key (with its own arrows) and the pivot's angle
  // are at the top
  for (int y = with.h / 2; y < with.h; ++y)
    for (int x = 0; x < with.w; ++x) {
      const size_t i = 3 * (static_cast<size_t>(y) * with.w + x);
      const int r = with.rgb[i], g = with.rgb[i + 1], b = with.rgb[i + 2];
      const int diff = std::abs(r - plain.rgb[i]) + std::abs(g - plain.rgb[i + 1]) +
                       std::abs(b - plain.rgb[i + 2]);
      if (diff < 90) continue;
      if (g > r + 60 && g > b + 60) gx += x, gy += y, ++green;
      if (r > g + 60 && r > b + 120) ox += x, oy += y, ++orange;
    }
  CAPTURE(green);
  CAPTURE(orange);
  REQUIRE(green > 50);
  REQUIRE(orange > 20);
  gx /= green, gy /= green, ox /= orange, oy /= orange;
  CHECK(gx > ox + 20.0);  // the velocity reaches right of the bob, the acceleration stays over it
  CHECK(oy < gy - 5.0);   // the acceleration points up (rows grow downward)
}
