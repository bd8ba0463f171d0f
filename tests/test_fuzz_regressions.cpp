// The fuzz targets' contract in the normal suite (docs/fuzzing.md): every input of
// tests/fuzz/regressions/ (those a fuzzer once broke, and hand-made nasty ones) and of the seed
// corpus tests/fuzz/corpus/ is replayed through the same check the libFuzzer target asserts
// (tests/fuzz/checks.cpp), so a parser change that breaks one fails here, without clang.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>

#include "cli/commands.hpp"
#ifdef SPRINGLAB_FUZZ_APP
#include "app/provenance.hpp"
#include "app/record.hpp"
#include "app/viewer.hpp"
#endif
#include "fp_trap.hpp"
#include "fuzz/checks.hpp"
#include "lab/events.hpp"
#include "scene/load.hpp"
#include "scene/scene_def.hpp"

namespace {

namespace fs = std::filesystem;
using Check = std::function<std::optional<std::string>(std::string_view)>;

const std::map<std::string, Check>& checks() {
  static const std::map<std::string, Check> table = {
      {"scene", fuzz::checkScene},          {"obj", fuzz::checkObj},
      {"method", fuzz::checkMethod},        {"specs", fuzz::checkSpecs},
      {"options", fuzz::checkOptions},
#ifdef SPRINGLAB_FUZZ_APP  // with the viewer's room (tests/CMakeLists.txt)
      {"provenance", fuzz::checkProvenance}
#endif
  };
  return table;
}

std::string readBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Replays every file under tests/fuzz/FOLDER/TARGET through TARGET's check; returns how many.
int replay(const std::string& folder) {
  // a fuzzed scene may diverge in its few steps, which is a value, not a failure (the libFuzzer
  // targets run without traps too)
  const testutil::FpTrapsOff traps;
  int count = 0;
  for (const auto& [target, check] : checks()) {
    const fs::path dir = fs::path(SPRINGLAB_SOURCE_DIR) / "tests" / "fuzz" / folder / target;
    REQUIRE_MESSAGE(fs::is_directory(dir), dir.string());
    for (const auto& entry : fs::directory_iterator(dir)) {
      const auto problem = check(readBytes(entry.path()));
      CHECK_MESSAGE(!problem, entry.path().string() << ": " << problem.value_or(""));
      ++count;
    }
  }
  return count;
}

}  // namespace

TEST_CASE("fuzz: every regression input keeps its target's contract") {
  CHECK(replay("regressions") > 0);
}

TEST_CASE("fuzz: every seed of the corpus keeps its target's contract") {
  CHECK(replay("corpus") > 0);
}

TEST_CASE("fuzz: the checks see a broken contract") {
  CHECK(fuzz::notOneLine("") == "an empty error message");
  CHECK(fuzz::notOneLine("a.json: x: bad\nsecond") ==
        "an error message of more than one line: a.json: x: bad\nsecond");
  CHECK(!fuzz::notOneLine("a.json: x: bad"));
  // a clean error is the contract kept; so is a built system
  CHECK(!fuzz::checkScene("{"));
  CHECK(!fuzz::checkObj("f 1 2 3"));
}

// What the fixes of the fuzzers' findings say, exactly (docs/fuzzing.md).
TEST_CASE("fuzz: a JSON nested 100 000 deep is one error line, before any recursion") {
  const std::string deep =
      "{\"name\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  try {
    scene::parse(deep, "d.json");
    FAIL("parsed");
  } catch (const scene::Error& e) {
    CHECK(std::string(e.what()) ==
          "d.json: invalid JSON: arrays and objects nested deeper than 64 levels");
  }
  // 64 levels are a scene's to use (under "ui", which the program does not read)
  const std::string ok =
      "{\"ui\": " + std::string(63, '[') + std::string(63, ']') +
      ", \"system\": {\"type\": \"pendulum\", \"lengths\": [1], \"masses\": [1], "
      "\"angles\": [0]}}";
  CHECK_NOTHROW(scene::parse(ok, "ok.json"));
}

TEST_CASE("fuzz: a line break in a user's text is written as an escape in the one error line") {
  try {
    scene::parse(
        "{\"integrator\": \"rk4\\nx\", \"system\": {\"type\": \"pendulum\", \"lengths\": "
        "[1], \"masses\": [1], \"angles\": [0]}}",
        "n.json");
    FAIL("parsed");
  } catch (const scene::Error& e) {
    const std::string what = e.what();
    CHECK(what.starts_with("n.json: integrator: unknown integrator \"rk4\\nx\""));
    CHECK(what.find('\n') == std::string::npos);
  }
  scene::CameraDef camera;
  CHECK(scene::applyCameraOption("targe\r\n", camera) ==
        "expected KEY=VALUE, not \"targe\\r\\n\" (keys: target, distance, yaw, pitch, fov, "
        "orbit)");
  lab::Event e;
  CHECK(lab::parseEvent("1\n:dt=1", e) ==
        "\"1\\n:dt=1\": the time must be a finite number >= 0, not \"1\\n\"");
  cli::RunOptions o;
  CHECK(cli::parseRunOptions({"s", "a\rb"}, o) == "unexpected argument \"a\\rb\" (one SCENE only)");
  // every subcommand's parser, as fuzz_options found the window's and compare's wanting
  CHECK(cli::parseCompareArgs({"s", "--lanes", "rk4", "--dt", "1\r"}) ==
        "--dt: must be a finite number > 0, not \"1\\r\"");
  CHECK(cli::parseSweepArgs({"s", "--threshold", "x\n"}) ==
        "--threshold: must be a finite number > 0, not \"x\\n\"");
  CHECK(cli::parseOrderArgs({"s", "--duration", "\r"}) ==
        "--duration: must be a finite number > 0, not \"\\r\"");
  CHECK(cli::parseInfoArgs({"s", "--seconds", "2\n"}) ==
        "--seconds: must be a finite number > 0, not \"2\\n\"");
}

#ifdef SPRINGLAB_FUZZ_APP
TEST_CASE("fuzz: a provenance file's values are held to their options' limits") {
  const std::string good =
      readBytes(fs::path(SPRINGLAB_SOURCE_DIR) / "tests/fuzz/corpus/provenance/cloth_16.mp4.json");
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  app::RecordOptions o;
  CHECK(!app::parseProvenance(good, "p.json", o));
  CHECK(o.width == 1280);
  CHECK(app::parseProvenance(with("\"width\": 1280", "\"width\": 100000"), "p.json", o) ==
        "p.json: key \"width\" must be a whole number from 16 to 3840, not 100000");
  CHECK(app::parseProvenance(with("\"height\": 720", "\"height\": 1e30"), "p.json", o) ==
        "p.json: key \"height\" must be a whole number from 16 to 2160, not 1e+30");
  CHECK(app::parseProvenance(with("\"fps\": 60", "\"fps\": 0"), "p.json", o) ==
        "p.json: key \"fps\" must be a number from 1 to 240, not 0");
  CHECK(app::parseProvenance(with("\"seconds\": 4", "\"seconds\": -5"), "p.json", o) ==
        "p.json: key \"seconds\" must be a number > 0, not -5");
  CHECK(app::parseProvenance(with("\"camera\": []", "\"camera\": [\"pitch=95\"]"), "p.json", o) ==
        "p.json: key \"camera\": pitch must be between -89.9 and 89.9 degrees, not \"95\"");
  CHECK(app::parseProvenance(
            "{\"scene\": " + std::string(100000, '[') + std::string(100000, ']') + "}", "p.json",
            o) == "p.json: arrays and objects nested deeper than 66 levels");
}

TEST_CASE("fuzz: the window's and record's parsers write a value's line break as an escape") {
  app::ViewerOptions v;
  std::string error;
  CHECK(app::parseViewerOptions({"--dt", "0.001\r\r-at"}, v, error) == 2);
  CHECK(error == "--dt: must be a finite number > 0, not \"0.001\\r\\r-at\"");
  app::RecordOptions r;
  CHECK(app::parseRecordOptions({"s", "--out", "o.mp4", "--fps", "6\n0"}, r) ==
        "--fps: must be a number from 1 to 240, not \"6\\n0\"");
}
#endif
