// The binary's front ends and the window's settings: a headless --screenshot, a scripted run's
// banner, no display, the window options in both spellings and their checks, a real GLFW window
// under xvfb-run (Ctrl+R recording typed by xdotool, SIGTERM), the key table and the preferences.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/key_table.hpp"
#include "app/prefs.hpp"
#include "app/viewer.hpp"
#include "cli/options.hpp"
#include "util.hpp"

TEST_CASE("app: --screenshot without a display renders headless to a PNG of the requested size") {
  using namespace testutil;
  const auto png = tempDir() / "shot.png";
  std::filesystem::remove(png);
  // the binary decides on the display from DISPLAY/WAYLAND_DISPLAY: run it without them
  const std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY '" + std::string(SPRINGLAB_BIN) +
                          "' seed004_double_pendulum --size 320x240 --frames 3 --screenshot '" +
                          png.string() + "' 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string data = readFile(png);
  REQUIRE(data.size() > 24);
  CHECK(data.substr(1, 3) == "PNG");
  // IHDR: width and height, big-endian, at bytes 16..23
  auto be32 = [&](size_t i) {
    return (unsigned(static_cast<unsigned char>(data[i])) << 24) |
           (unsigned(static_cast<unsigned char>(data[i + 1])) << 16) |
           (unsigned(static_cast<unsigned char>(data[i + 2])) << 8) |
           unsigned(static_cast<unsigned char>(data[i + 3]));
  };
  CHECK(be32(16) == 320);
  CHECK(be32(20) == 240);
}

TEST_CASE("app: a scripted run that raises the banner prints the report and exits 3, as run") {
  using namespace testutil;
  const auto png = tempDir() / "diverged.png";
  std::filesystem::remove(png);
  const auto r = springlab({"cloth_16", "--integrator", "euler", "--dt", "0.004", "--frames", "30",
                            "--size", "64x64", "--headless", "--screenshot", png.string()});
  CHECK(r.status == 3);
  const auto errLines = lines(r.err);
  REQUIRE(errLines.size() == 1);
  CHECK(errLines[0].rfind("springlab: diverged at t = ", 0) == 0);
  CHECK(errLines[0].find(" s with euler: runaway") != std::string::npos);
  CHECK(std::filesystem::exists(png));  // the picture of the banner is still written
  // the same scene with its own integrator runs the 30 frames cleanly
  const auto ok = springlab({"cloth_16", "--frames", "30", "--size", "64x64", "--headless"});
  CHECK(ok.status == 0);
  CHECK(ok.err.empty());
}

TEST_CASE("app: the interactive window without a display fails with a message saying what to do") {
  using namespace testutil;
  const std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY '" + std::string(SPRINGLAB_BIN) +
                          "' cloth_16 > '" + (tempDir() / "nodisp.txt").string() + "' 2>&1";
  const int raw = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(raw) == 2);
  const std::string out = readFile(tempDir() / "nodisp.txt");
  CHECK(out.find("no display") != std::string::npos);
  CHECK(out.find("--screenshot") != std::string::npos);
}

TEST_CASE("app: every window option of the help's table parses in both spellings") {
  // a value each option accepts and what ViewerOptions must then hold; every table entry needs
  // one, so an option added to the help cannot skip the parser (and the reverse: the parser
  // accepts only the table's names)
  using Check = std::function<bool(const app::ViewerOptions&)>;
  const std::map<std::string, std::pair<std::string, Check>> samples = {
      {"--integrator", {"verlet", [](const auto& o) { return o.session.integrator == "verlet"; }}},
      {"--dt", {"0.0025", [](const auto& o) { return o.session.dt == 0.0025; }}},
      {"--lanes",
       {"rk4,verlet@0.001", [](const auto& o) { return o.session.lanes == "rk4,verlet@0.001"; }}},
      {"--at",
       {"2:dt=0.01",
        [](const auto& o) { return o.session.at == std::vector<std::string>{"2:dt=0.01"}; }}},
      {"--size", {"640x360", [](const auto& o) { return o.width == 640 && o.height == 360; }}},
      {"--frames", {"12", [](const auto& o) { return o.frames == 12; }}},
      {"--screenshot", {"a.png", [](const auto& o) { return o.screenshot == "a.png"; }}},
      {"--no-ui", {"", [](const auto& o) { return o.no_ui; }}},
      {"--side-by-side", {"", [](const auto& o) { return o.side_by_side; }}},
      {"--stats", {"", [](const auto& o) { return o.stats; }}},
      {"--headless", {"", [](const auto& o) { return o.headless; }}},
  };
  for (const auto& spec : cli::windowOptions()) {
    const std::string name(spec.name);
    CAPTURE(name);
    REQUIRE(samples.count(name) == 1);
    const auto& [value, check] = samples.at(name);
    std::vector<std::string> separate{"cloth_16", name}, joined{"cloth_16", name};
    if (!value.empty()) separate.push_back(value), joined.back() += "=" + value;
    app::ViewerOptions a, b;
    std::string error;
    CHECK(app::parseViewerOptions(separate, a, error) == 0);
    CHECK(app::parseViewerOptions(joined, b, error) == 0);
    CHECK(error.empty());
    CHECK(check(a));
    CHECK(check(b));
    CHECK(a.scene == "cloth_16");
  }
  CHECK(samples.size() == cli::windowOptions().size());
  app::ViewerOptions o;
  std::string error;
  CHECK(app::parseViewerOptions({"--record-everything"}, o, error) == 2);
  CHECK(error == "unknown option --record-everything");
  CHECK(app::parseViewerOptions({"cloth_16", "rope_100"}, o, error) == 2);
  CHECK(error == "unexpected argument \"rope_100\" (one SCENE only)");
}

TEST_CASE("app: window options are validated") {
  using namespace testutil;
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"cloth_16", "--size", "12x7"},
                                             {"cloth_16", "--size", "abc"},
                                             {"cloth_16", "--frames", "0"},
                                             {"cloth_16", "--dt", "-1"},
                                             {"cloth_16", "--integrator", "implicit_midpoint"},
                                             {"cloth_16", "--bogus"},
                                             {"no_such_scene_anywhere"}}) {
    CAPTURE(args.back());
    const auto r = springlab(args);
    CHECK(r.status == 2);
    CHECK(lines(r.err).size() == 1);
  }
}

TEST_CASE("app: smoke test of the real GLFW window under xvfb-run") {
  // Decided here, not compiled out (docs/architecture.md#dependencies-and-platform-notes): the
  // test command installs xvfb and xauth.
  using namespace testutil;
  REQUIRE_MESSAGE(std::system("command -v xvfb-run >/dev/null 2>&1") == 0,
                  "xvfb-run is missing: install xvfb and xauth (bash scripts/install-deps.sh)");
  const auto png = tempDir() / "window.png";
  std::filesystem::remove(png);
  const std::string cmd = "xvfb-run -a -s '-screen 0 1024x768x24' '" + std::string(SPRINGLAB_BIN) +
                          "' cloth_16 --size 400x300 --frames 5 --screenshot '" + png.string() +
                          "' > '" + (tempDir() / "xvfb.txt").string() + "' 2>&1";
  const int raw = std::system(cmd.c_str());
  INFO(readFile(tempDir() / "xvfb.txt"));
  REQUIRE(WEXITSTATUS(raw) == 0);
  const std::string data = readFile(png);
  REQUIRE(data.size() > 1000);
  CHECK(data.substr(1, 3) == "PNG");
}

TEST_CASE("app: Ctrl+R in the real window records a clip and a second Ctrl+R saves it") {
  // xdotool types the keys into the window under Xvfb (the test command installs both)
  using namespace testutil;
  REQUIRE(std::system("command -v xvfb-run >/dev/null 2>&1 && command -v xdotool >/dev/null") == 0);
  const auto dir = tempDir() / "window_record";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "cfg");
  const auto script = writeFile("window_record.sh", R"(set -u
cd "$1"
XDG_CONFIG_HOME="$1/cfg" "$2" cloth_16 --size 400x300 &
pid=$!
id=$(timeout 20 xdotool search --sync --name '^springlab: ') || { kill $pid; exit 90; }
xdotool windowfocus --sync "$id"
sleep 1; xdotool key ctrl+r
sleep 3; xdotool key ctrl+r
sleep 1; xdotool key ctrl+q
timeout 20 tail --pid=$pid -f /dev/null || { kill $pid; exit 91; }
wait $pid
)");
  const std::string cmd = "xvfb-run -a -s '-screen 0 1024x768x24' bash '" + script.string() +
                          "' '" + dir.string() + "' '" + SPRINGLAB_BIN + "' > '" +
                          (dir / "log.txt").string() + "' 2>&1";
  const int raw = std::system(cmd.c_str());
  const std::string log = readFile(dir / "log.txt");
  INFO(log);
  REQUIRE(WEXITSTATUS(raw) == 0);
  std::vector<std::filesystem::path> clips;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".mp4") clips.push_back(e.path());
  REQUIRE(clips.size() == 1);
  CHECK(clips[0].filename().string().rfind("springlab-", 0) == 0);
  // the window's framebuffer size (even already), and every frame the window says it captured
  // (one per window frame while recording: how many depends on the machine's speed)
  FILE* p = popen(("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                   "stream=width,height,nb_read_frames -of csv=p=0 '" +
                   clips[0].string() + "'")
                      .c_str(),
                  "r");
  REQUIRE(p);
  int w = 0, h = 0, frames = 0;
  CHECK(std::fscanf(p, "%d,%d,%d", &w, &h, &frames) == 3);
  pclose(p);
  CHECK(w == 400);
  CHECK(h == 300);
  const auto said = log.find(clips[0].filename().string() + " (");
  REQUIRE(said != std::string::npos);
  const int captured = std::atoi(log.c_str() + said + clips[0].filename().string().size() + 2);
  CHECK(captured >= 2);
  CHECK(frames == captured);
}

TEST_CASE("app: SIGTERM ends the window like closing it, and the preferences are saved") {
  using namespace testutil;
  REQUIRE(std::system("command -v xvfb-run >/dev/null 2>&1") == 0);
  const auto config = tempDir() / "sigterm-config";
  std::filesystem::remove_all(config);
  const std::string cmd = "XDG_CONFIG_HOME='" + config.string() +
                          "' xvfb-run -a -s '-screen 0 800x600x24' sh -c \"'" +
                          std::string(SPRINGLAB_BIN) +
                          "' seed004_double_pendulum --size 320x240 & pid=\\$!; sleep 3; "
                          "kill -TERM \\$pid; wait \\$pid; echo status \\$?\" > '" +
                          (tempDir() / "sigterm.txt").string() + "' 2>&1";
  std::system(cmd.c_str());
  const std::string out = readFile(tempDir() / "sigterm.txt");
  INFO(out);
  CHECK(out.find("status 0") != std::string::npos);
  const std::string prefs = readFile(config / "springlab" / "prefs.ini");
  CHECK(prefs.find("scene=seed004_double_pendulum") != std::string::npos);
  CHECK(prefs.find("window=320x240") != std::string::npos);
}

TEST_CASE("app: the window's key table and the help's bindings agree") {
  std::string mismatches;
  for (const auto& m : app::keyBindingMismatches()) mismatches.append(m).append("; ");
  CHECK_MESSAGE(mismatches.empty(), mismatches);
}

TEST_CASE("app: preferences: every value is checked, a damaged line changes nothing") {
  app::Prefs p;
  for (const char* line : {"window=12x7", "window=abc", "ui_scale=9", "ui_scale=nan",
                           "camera=1 2 3 -1 0 0", "camera=1 2 nan 3 0 0", "camera=1 2", "junk"})
    p.parseLine(line);
  CHECK(p.width == 0);
  CHECK(p.ui_scale == 0.0f);
  CHECK_FALSE(p.camera);
  for (const char* line :
       {"window=800x600", "ui_scale=1.5", "camera=1 2 3 4 0.5 0.25", "scene=seed004_fig6b"})
    p.parseLine(line);
  CHECK(p.width == 800);
  CHECK(p.height == 600);
  CHECK(p.ui_scale == 1.5f);
  REQUIRE(p.camera);
  CHECK(p.cam[3] == 4.0f);
  CHECK(p.scene == "seed004_fig6b");
}

TEST_CASE("app: preferences: history_mb is kept from 1 to 16384 MB, no more on a 24 GiB machine") {
  app::Prefs p;
  for (const char* line : {"history_mb=16385", "history_mb=65536", "history_mb=0.5"})
    p.parseLine(line);
  CHECK(p.history_mb == app::Prefs::kDefaultHistoryMb);
  p.parseLine("history_mb=16384");
  CHECK(p.history_mb == 16384.0);
  p.parseLine("history_mb=1");
  CHECK(p.history_mb == 1.0);
}

TEST_CASE("app: preferences keep only a window size that fits the screen") {
  app::Prefs p;
  p.keepWindowSize(1280, 720, 1920, 1080);
  CHECK(p.width == 1280);
  CHECK(p.height == 720);
  p.keepWindowSize(16000, 9000, 1920, 1080);  // --size 16000x9000: the kept size stays
  CHECK(p.width == 1280);
  CHECK(p.height == 720);
  p.keepWindowSize(1920, 1200, 1920, 1080);  // too tall
  CHECK(p.height == 720);
  p.keepWindowSize(1920, 1080, 1920, 1080);  // the whole screen fits
  CHECK(p.width == 1920);
  p.keepWindowSize(800, 600, 0, 0);  // no screen known: nothing new is kept
  CHECK(p.width == 1920);
  // a size from a damaged or older file that does not fit this screen goes
  app::Prefs old;
  old.parseLine("window=16000x9000");
  REQUIRE(old.width == 16000);
  old.keepWindowSize(16000, 9000, 1920, 1080);
  CHECK(old.width == 0);
  CHECK(old.height == 0);
}

#endif  // SPRINGLAB_VIEWER
