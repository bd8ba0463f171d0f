// The option tables, the parsers built on them, --help and --version (docs/cli.md, help and
// version).
#include <doctest/doctest.h>

#include <algorithm>

#include <functional>
#include <map>
#include <string>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "lab/events.hpp"
#include "sim/spring_runs.hpp"
#include "sim/xpbd_kernels.hpp"
#include "util.hpp"

using namespace testutil;

namespace {

// A value each option accepts, and what the parsed options must then hold. Every option of a
// table must have one here, so a new option cannot skip this test.
struct Sample {
  std::string value;
  std::function<bool(const cli::RunOptions&)> runCheck;
  std::function<bool(const cli::BenchOptions&)> benchCheck;
};

const std::map<std::string, Sample> kRunSamples = {
    {"--integrator", {"verlet", [](const auto& o) { return o.integrator == "verlet"; }, {}}},
    {"--dt", {"0.0025", [](const auto& o) { return o.dt == 0.0025; }, {}}},
    {"--duration", {"1.5", [](const auto& o) { return o.duration == 1.5; }, {}}},
    {"--every", {"7", [](const auto& o) { return o.every == 7; }, {}}},
    {"--out", {"t.csv", [](const auto& o) { return o.out == "t.csv"; }, {}}},
    {"--energy", {"-", [](const auto& o) { return o.energy == "-"; }, {}}},
    {"--ledger", {"l.csv", [](const auto& o) { return o.ledger == "l.csv"; }, {}}},
    {"--at",
     {"1.5:dt=0.01",
      [](const auto& o) {
        return o.events.size() == 1 && o.events[0].t == 1.5 &&
               o.events[0].key == lab::EventKey::Dt && o.events[0].value == 0.01;
      },
      {}}},
};

const std::map<std::string, Sample> kBenchSamples = {
    {"--scenes",
     {"cloth_16,cloth_64",
      {},
      [](const auto& o) {
        return o.scenes == std::vector<std::string>{"cloth_16", "cloth_64"};
      }}},
    {"--integrators",
     {"verlet,time_fe",
      {},
      [](const auto& o) {
        return o.integrators == std::vector<sim::Method>{sim::Method::Verlet, sim::Method::TimeFe};
      }}},
    {"--seconds", {"0.25", {}, [](const auto& o) { return o.seconds == 0.25; }}},
    {"--max-steps", {"12", {}, [](const auto& o) { return o.max_steps == 12; }}},
    {"--suite", {"pendulum", {}, [](const auto& o) { return o.suite == "pendulum"; }}},
    {"--stiff",
     {"cloth_64,cloth_32",
      {},
      [](const auto& o) {
        return o.stiff == std::vector<std::string>{"cloth_64", "cloth_32"};
      }}},
    {"--self",
     {"cloth_fold",
      {},
      [](const auto& o) { return o.self == std::vector<std::string>{"cloth_fold"}; }}},
    {"--swing", {"2.5", {}, [](const auto& o) { return o.swing == 2.5; }}},
};

}  // namespace

TEST_CASE("every run option is in run's help and parses in both spellings") {
  const std::string help = *cli::usage("run");
  const std::string overview = *cli::usage("");
  for (const auto& spec : cli::runOptions()) {
    const std::string name(spec.name);
    CAPTURE(name);
    CHECK(help.find("  " + name + " " + std::string(spec.placeholder)) != std::string::npos);
    CHECK(overview.find("  " + name + " ") != std::string::npos);
    REQUIRE(kRunSamples.count(name) == 1);
    const Sample& sample = kRunSamples.at(name);
    cli::RunOptions separate, joined;
    CHECK(!cli::parseRunOptions({"cloth_16", name, sample.value}, separate));
    CHECK(!cli::parseRunOptions({name + "=" + sample.value, "cloth_16"}, joined));
    CHECK(sample.runCheck(separate));
    CHECK(sample.runCheck(joined));
    CHECK(joined.scene == "cloth_16");
  }
  CHECK(kRunSamples.size() == cli::runOptions().size());
}

TEST_CASE("every bench option is in bench's help and parses in both spellings") {
  const std::string help = *cli::usage("bench");
  for (const auto& spec : cli::benchOptions()) {
    const std::string name(spec.name);
    CAPTURE(name);
    CHECK(help.find("  " + name + " " + std::string(spec.placeholder)) != std::string::npos);
    REQUIRE(kBenchSamples.count(name) == 1);
    const Sample& sample = kBenchSamples.at(name);
    cli::BenchOptions separate, joined;
    CHECK(!cli::parseBenchOptions({name, sample.value}, separate));
    CHECK(!cli::parseBenchOptions({name + "=" + sample.value}, joined));
    CHECK(sample.benchCheck(separate));
    CHECK(sample.benchCheck(joined));
  }
  CHECK(kBenchSamples.size() == cli::benchOptions().size());
}

TEST_CASE("the overview lists every window and record option") {
  const std::string overview = *cli::usage("");
  std::vector<cli::OptionSpec> specs(cli::windowOptions().begin(), cli::windowOptions().end());
  specs.insert(specs.end(), cli::recordOptions().begin(), cli::recordOptions().end());
  for (const auto& spec : specs) {
    CAPTURE(spec.name);
    std::string line = "  ";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "x" + s
    line += spec.name;
    if (!spec.placeholder.empty()) line.append(" ").append(spec.placeholder);
    CHECK(overview.find(line) != std::string::npos);
  }
}

TEST_CASE("every help's --at names every key --at accepts") {
  const std::string keys = lab::eventKeyList();
  REQUIRE(keys.find("joint_damping") != std::string::npos);
  for (const char* command : {"run", "compare", "record", ""}) {
    CAPTURE(command);
    const std::string help = *cli::usage(command);
    // the --at lines (the overview has the window's and record's)
    size_t at = help.find("  --at T:KEY=VALUE");
    REQUIRE(at != std::string::npos);
    for (; at != std::string::npos; at = help.find("  --at T:KEY=VALUE", at + 1)) {
      const std::string line = help.substr(at, help.find('\n', at) - at);
      CAPTURE(line);
      CHECK(line.find("{") == std::string::npos);
      for (size_t from = 0; from < keys.size();) {
        const size_t comma = std::min(keys.find(", ", from), keys.size());
        CHECK(line.find(" " + keys.substr(from, comma - from)) != std::string::npos);
        from = comma + 2;
      }
    }
  }
  CHECK(cli::usage("run")->find("set integrator, dt, stiffness_scale, damping, substeps, "
                                "iterations, drag or joint_damping; repeatable") !=
        std::string::npos);
}

TEST_CASE("the parsers reject what their tables do not name") {
  cli::RunOptions r;
  CHECK(cli::parseRunOptions({"cloth_16", "--seconds", "1"}, r) == "unknown option --seconds");
  CHECK(cli::parseRunOptions({"cloth_16", "--dt="}, r) ==
        "--dt: must be a finite number > 0, not \"\"");
  CHECK(cli::parseRunOptions({"cloth_16", "--every"}, r) == "--every: missing value");
  cli::BenchOptions b;
  CHECK(cli::parseBenchOptions({"--dt", "1"}, b) == "unknown option --dt");
  CHECK(cli::parseBenchOptions({"cloth_16"}, b) ==
        "unexpected argument \"cloth_16\" (bench takes only options)");
  CHECK(cli::parseBenchOptions({"--integrators=implicit_midpoint"}, b)
            ->find("--integrators: \"implicit_midpoint\" is not one of") == 0);
  CHECK(cli::parseBenchOptions({"--seconds=0"}, b) == "--seconds: must be a number > 0, not \"0\"");
  CHECK(cli::parseBenchOptions({"--swing", "-1"}, b) ==
        "--swing: must be a number > 0, not \"-1\"");
  CHECK(cli::parseBenchOptions({"--suite", "stif"}, b) ==
        "--suite: must be all, cloth, stiff, self or pendulum, not \"stif\"");
}

TEST_CASE("every subcommand with a SCENE words a missing or second one alike") {
  // the window's and record's parsers are held to the same words in test_app_window.cpp,
  // test_record.cpp
  const std::string missing = "missing SCENE (a .json file or a built-in name from springlab list)";
  CHECK(cli::missingScene() == missing);
  for (const char* command : {"run", "compare", "info", "sweep", "order"}) {
    CAPTURE(command);
    const auto none = springlab({command});
    CHECK(none.status == 2);
    CHECK(none.err == "springlab " + std::string(command) + ": " + missing + "\n");
    const auto two = springlab({command, "cloth_16", "rope_100"});
    CHECK(two.status == 2);
    CHECK(two.err == "springlab " + std::string(command) +
                         ": unexpected argument \"rope_100\" (one SCENE only)\n");
  }
  cli::SplitArgs split;
  std::string scene = "kept";
  CHECK(!cli::takeScene(split, scene, cli::SceneArg::Optional));
  CHECK(scene == "kept");
  CHECK(cli::takeScene(split, scene) == missing);
  split.positional = {"cloth_16"};
  CHECK(!cli::takeScene(split, scene));
  CHECK(scene == "cloth_16");
}

TEST_CASE("--help prints the usage on standard output with status 0") {
  const struct {
    std::vector<std::string> args;
    const char* first;
  } cases[] = {
      {{"--help"}, "springlab: mass-spring systems"},
      {{"-h"}, "springlab: mass-spring systems"},
      {{"run", "--help"}, "usage: springlab run SCENE [options]"},
      {{"run", "cloth_16", "-h"}, "usage: springlab run SCENE [options]"},
      {{"list", "--help"}, "usage: springlab list"},
      {{"bench", "--help"}, "usage: springlab bench [options]"},
      {{"record", "--help"}, "usage: springlab record"},
      {{"cloth_16", "--frames", "3", "--help"}, "springlab: mass-spring systems"},  // the window's
  };
  for (const auto& c : cases) {
    CAPTURE(c.args[0]);
    const auto r = springlab(c.args);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.rfind(c.first, 0) == 0);
  }
  // every record option is in its help
  const std::string recordHelp = springlab({"record", "--help"}).out;
  for (const auto& spec : cli::recordOptions()) {
    CAPTURE(spec.name);
    CHECK(recordHelp.find("  " + std::string(spec.name)) != std::string::npos);
  }
  CHECK(springlab({"bench", "--help"}).out.find("--max-steps N") != std::string::npos);
  const auto record = springlab({"record"});
  CHECK(record.status == 2);
  CHECK(record.err ==
        "springlab record: --out FILE is required (.mp4, .webm, .gif, .png or frames/%05d.png)\n");
}

TEST_CASE("--version prints springlab and the project's version") {
  const auto r = springlab({"--version"});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind(std::string("springlab ") + SPRINGLAB_VERSION, 0) == 0);
  CHECK(r.out.back() == '\n');
  CHECK(r.out == std::string(cli::versionString()) + "\n");
}

TEST_CASE("bench's stiff cloth names the vectors of xpbd's sweeps and compares the scalar path") {
  const auto r =
      springlab({"bench", "--suite", "stiff", "--stiff", "cloth_128_xpbd", "--swing", "0.05"});
  CHECK(r.status == 0);
  const auto ls = lines(r.out);
  REQUIRE(ls.size() >= 4);
  const std::string compute = "compute per simulated 1/60 s: ";
  const auto at = std::find_if(ls.begin(), ls.end(),
                               [&](const std::string& l) { return l.rfind(compute, 0) == 0; });
  REQUIRE(at != ls.end());
  CHECK(at->substr(at->rfind(", ")) == std::string(", ") + sim::runKernels() + " sweeps");
  if (sim::simdAvailable()) {
    REQUIRE(at + 2 < ls.end());
    CHECK((at + 1)->rfind("the same on the scalar path (no vectors): ", 0) == 0);
    CHECK((at + 2)->find("(the same on the scalar path)") != std::string::npos);
  }
}

TEST_CASE("bench accepts --name=value") {
  const auto r = springlab({"bench", "--suite=cloth", "--scenes=cloth_16",
                            "--integrators=symplectic_euler", "--seconds=0.01", "--max-steps=2"});
  CHECK(r.status == 0);
  const auto ls = lines(r.out);
  REQUIRE(ls.size() == 5);
  CHECK(ls[1].find("symplectic_euler") != std::string::npos);
  // the header says which vectors the force pass used (the figures depend on it)
  CHECK(ls[0].size() > 30);
  CHECK(ls[0].substr(ls[0].rfind("; ")) ==
        std::string("; the force pass in spring runs (4096 springs or more): ") +
            sim::runKernels());
  CHECK(ls[2].rfind("cloth_16 ", 0) == 0);
  // the last line: the peak resident set, at least the binary's own few MiB
  const std::string peak = "peak memory (resident set, the whole run): ";
  REQUIRE(ls[4].rfind(peak, 0) == 0);
  CHECK(std::stod(ls[4].substr(peak.size())) > 1.0);
}

TEST_CASE("cli: the runaway checks are spaced out on big systems stepped by an explicit method") {
  const sim::Counts small{.particles = 2, .springs = 1},
      cloth{.particles = 16384, .springs = 97026};
  const sim::Counts chain{.links = 10000};
  // at least kRunawayChecks checks over a run (every step of a short one) on a small system
  CHECK(cli::runawayCheckSpacing(200, sim::Method::SymplecticEuler, small) == 1);
  CHECK(cli::runawayCheckSpacing(2'000'000, sim::Method::SymplecticEuler, small) == 2000);
  // a big one: three passes a check, a sixteenth of the stepping
  CHECK(cli::runawayCheckSpacing(2000, sim::Method::SymplecticEuler, cloth) == 48);
  CHECK(cli::runawayCheckSpacing(2000, sim::Method::Verlet, cloth) == 24);
  CHECK(cli::runawayCheckSpacing(2000, sim::Method::Rk4, chain) == 12);
  CHECK(cli::runawayCheckSpacing(200'000, sim::Method::Euler, cloth) == 200);
  // a step with a solver costs many passes: its checks stay as they were
  CHECK(cli::runawayCheckSpacing(200, sim::Method::Xpbd, cloth) == 1);
  CHECK(cli::runawayCheckSpacing(2000, sim::Method::ImplicitEuler, cloth) == 2);
}
