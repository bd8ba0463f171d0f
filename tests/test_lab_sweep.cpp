// springlab sweep (docs/cli.md#sweep): the boundary against the closed-form limits, shards and
// thread counts that change nothing, the CSV, the heat map, and bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "lab/lane.hpp"
#include "lab/sweep.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "util.hpp"

using namespace testutil;

namespace {

// n free masses m between two fixed ends, n + 1 springs k of rest length 0 (so that the system is
// exactly linear: the force is -k (x_b - x_a) however large the motion, and an instability grows
// until it runs away), no gravity; the free masses displaced by a generic pattern, so that every
// mode is excited. Its stiffness matrix is k times the chain's graph Laplacian in each direction.
std::string fixedEndChain(int n, double m, double k) {
  std::string particles, springs;
  for (int i = 0; i <= n + 1; ++i) {
    const bool fixed = i == 0 || i == n + 1;
    const double x = i + (fixed ? 0.0 : 0.01 * std::sin(2.3 * i * i));
    particles += (i ? "," : "") + std::string("{\"position\": [") + std::to_string(x) + ", 0, 0]" +
                 (fixed ? ", \"fixed\": true}" : ", \"mass\": " + std::to_string(m) + "}");
    if (i <= n)
      springs += (i ? "," : "") + std::string("{\"a\": ") + std::to_string(i) +
                 ", \"b\": " + std::to_string(i + 1) + ", \"stiffness\": " + std::to_string(k) +
                 ", \"rest_length\": 0}";
  }
  return "{\"name\": \"chain\", \"gravity\": [0, 0, 0], \"integrator\": \"verlet\", \"dt\": 0.01, "
         "\"duration\": 1, \"system\": {\"type\": \"mass_spring\", \"particles\": [" +
         particles + "], \"springs\": [" + springs + "]}}";
}

// The cells of a sweep of a fixed-end chain of n masses around the closed-form limits.
std::vector<lab::CellResult> chainSweep(int n, double& omega) {
  constexpr double m = 1.0, k = 100.0;
  omega = 2.0 * std::sqrt(k / m) * std::sin(n * M_PI / (2.0 * (n + 1)));
  lab::SweepSpec spec;
  spec.def = scene::parse(fixedEndChain(n, m, k), "chain");
  spec.methods = {sim::Method::SymplecticEuler, sim::Method::Verlet, sim::Method::Rk4};
  // the grid's limits sit between two grid values, a quarter step or more from each
  spec.dt = {0.75 * 2.0 / omega, 1.3 * 2.0 * std::sqrt(2.0) / omega, 18};
  spec.stiffness = {1.0, 4.0, 2};  // the limit halves at 4 k
  spec.seconds = 600.0 / omega;    // ~100 periods of the top mode, >= 200 steps
  const auto cells = lab::runSweep(spec, 1, 1, 2, {});
  REQUIRE(cells.size() == lab::cellCount(spec));
  return cells;
}

double limitOf(const lab::CellResult& c, double omega) {
  return (c.method == sim::Method::Rk4 ? 2.0 * std::sqrt(2.0) : 2.0) / omega /
         std::sqrt(c.stiffness_scale);
}

}  // namespace

TEST_CASE("sweep: the boundary on a fixed-end chain is the closed-form limit, to one grid step") {
  double omega = 0.0;
  for (int n : {1, 10}) {
    for (const auto& c : chainSweep(n, omega)) {
      CAPTURE(n);
      CAPTURE(sim::info(c.method).name);
      INFO("dt / limit = " << c.dt / limitOf(c, omega) << ", " << std::string(lab::className(c.cls))
                           << ", drift " << c.drift);
      CHECK((c.cls == lab::CellClass::Diverged) == (c.dt > limitOf(c, omega)));
    }
  }
}

TEST_CASE("sweep: shards together are the unsharded file, and threads change nothing") {
  const std::vector<std::string> common = {
      "sweep",    "seed003_table1_case1", "--integrators", "symplectic_euler,rk4",
      "--dt",     "0.05:0.5:5",           "--seconds",     "2",
      "--threads"};
  auto run = [&](const std::string& threads, const std::string& shard) {
    std::vector<std::string> args = common;
    args.push_back(threads);
    if (!shard.empty()) args.insert(args.end(), {"--shard", shard});
    const auto r = springlab(args);
    REQUIRE(r.status == 0);
    return lines(r.out);
  };
  const auto whole = run("1", "");
  REQUIRE(whole.size() == 1 + 2 * 5);
  CHECK(whole[0] == "integrator,dt,stiffness_scale,class,drift,t_end");
  CHECK(run("2", "") == whole);
  std::vector<std::string> merged = {whole[0]};
  std::vector<std::vector<std::string>> shards;
  for (const char* s : {"1/3", "2/3", "3/3"}) shards.push_back(run("2", s));
  // grid index g lies in shard g % 3 at its (g / 3)-th row
  for (size_t g = 0; g + 1 < whole.size(); ++g) merged.push_back(shards[g % 3][1 + g / 3]);
  CHECK(merged == whole);
  // scripts/merge-shards.sh does the same from the files
  const fs::path script =
      fs::path(__FILE__).parent_path().parent_path() / "scripts" / "merge-shards.sh";
  std::string cmd = "sh '" + script.string() + "'";
  for (int i = 0; i < 3; ++i) {
    const fs::path part = tempDir() / ("part" + std::to_string(i + 1) + ".csv");
    std::string text;
    for (const auto& line : shards[static_cast<size_t>(i)]) text += line + "\n";
    std::ofstream(part) << text;
    cmd += " '" + part.string() + "'";
  }
  const fs::path mergedFile = tempDir() / "merged.csv";
  REQUIRE(std::system((cmd + " > '" + mergedFile.string() + "'").c_str()) == 0);
  CHECK(lines(readFile(mergedFile)) == whole);
}

TEST_CASE("sweep: classes, the CSV's columns and the heat map") {
  const auto png = tempDir() / "sweep.png";
  const auto r =
      springlab({"sweep", "cloth_16", "--integrators", "verlet,euler", "--dt", "0.0005:0.004:3",
                 "--stiffness", "0.5:2:2", "--seconds", "0.3", "--png", png.string()});
  REQUIRE(r.status == 0);
  const auto ls = lines(r.out);
  REQUIRE(ls.size() == 1 + 12);
  // euler has no stable step without damping worth the name: every cell of it diverges or drifts
  int eulerStable = 0, verletStable = 0;
  for (size_t i = 1; i < ls.size(); ++i) {
    if (ls[i].rfind("euler,", 0) == 0 && ls[i].find(",stable,") != std::string::npos) ++eulerStable;
    if (ls[i].rfind("verlet,", 0) == 0 && ls[i].find(",stable,") != std::string::npos)
      ++verletStable;
  }
  CHECK(eulerStable == 0);
  CHECK(verletStable > 0);
  CHECK(ls[1].rfind("verlet,0.00050000000000000001,0.5,stable,", 0) == 0);
  const std::string bytes = readFile(png);
  REQUIRE(bytes.size() > 8);
  CHECK(bytes.substr(1, 3) == "PNG");
}

TEST_CASE("sweep: bad options exit 2 with one line and write nothing") {
  const auto out = tempDir() / "sweep_bad.csv";
  const std::string base = "springlab sweep: ";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--dt", "0.001:0.01:0"}, "--dt: N must be a whole number from 1 to 1000000, not \"0\""},
      {{"--dt", "0.01:0.001:3"}, "--dt: LO > HI in \"0.01:0.001:3\""},
      {{"--dt", "-1:0.001:3"}, "--dt: LO and HI must be finite numbers > 0, not \"-1:0.001:3\""},
      {{"--dt", "0.001:0.01"}, "--dt: must be LO:HI:N, not \"0.001:0.01\""},
      {{"--dt", "0.001:0.01:3", "--shard", "4/3"}, "--shard: I must be from 1 to N, not \"4/3\""},
      {{"--dt", "0.001:0.01:3", "--shard", "0/3"}, "--shard: I must be from 1 to N, not \"0/3\""},
      {{"--dt", "0.001:0.01:3", "--shard", "x"},
       "--shard: must be I/N with whole numbers, not \"x\""},
      {{"--dt", "0.001:0.01:3", "--threads", "0"},
       "--threads: must be a whole number from 1 to 1024, not \"0\""},
      {{"--dt", "0.001:0.01:3", "--threshold", "nan"},
       "--threshold: must be a finite number > 0, not \"nan\""},
      {{}, "missing --dt LO:HI:N"},
      // limits (docs/cli.md#limits): the grid's cells, and the work of the longest cell
      {{"--dt", "1e-4:1e-3:1000", "--stiffness", "1:2:1001"},
       "--integrators, --dt, --stiffness: 1 x 1000 x 1001 = 1.001e+06 cells, more than the "
       "1000000 a sweep may have"},
      {{"--dt", "1e-5:1e-3:3", "--seconds", "1e8"},
       "--seconds / --dt: the longest cell: 1e+13 steps of 1634 particles and springs is "
       "1.634e+16 element-steps, more than the 1e+15 a run may do (at least 189.1 days at 1e+09 "
       "a second)"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"sweep", "cloth_16", "--integrators",
                                     "rk4",   "--out",    out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    CAPTURE(message);
    const auto r = springlab(args);
    CHECK(r.status == 2);
    CHECK(r.err == base + message + "\n");
    CHECK_FALSE(fs::exists(out));
  }
  const auto p = springlab({"sweep", "seed004_fig6b", "--integrators", "rk4", "--dt",
                            "0.001:0.01:3", "--stiffness", "1:2:2"});
  CHECK(p.status == 2);
  CHECK(p.err == base + "--stiffness: a pendulum has no springs (only 1:1:1)\n");
  const auto q = springlab(
      {"sweep", "cloth_16", "--integrators", "rk4,implicit_midpoint", "--dt", "0.001:0.01:3"});
  CHECK(q.status == 2);
  CHECK(q.err.rfind(base + "--integrators: implicit_midpoint does not apply", 0) == 0);
}

TEST_CASE("sweep: a damped scene's physical energy loss is not drift, its method's error is") {
  lab::SweepSpec spec;
  spec.def = scene::loadSceneArg("seed003_table1_case1");
  spec.def.parameters.set(sim::Parameter::Drag,
                          0.05);  // N s/m: several per cent of the energy gone in 4 s
  spec.methods = {sim::Method::Rk4, sim::Method::Euler};
  spec.dt = {0.01, 0.01, 1};
  spec.seconds = 4.0;
  const auto cells = lab::runSweep(spec, 1, 1, 1, {});
  REQUIRE(cells.size() == 2);
  // the energy drift itself is large...
  const scene::Built b = scene::build(spec.def);
  lab::Lane lane(b, b.state, sim::Method::Rk4, 0.01);
  for (int k = 0; k < 400; ++k) REQUIRE(lane.step());
  REQUIRE(std::abs(lane.drift()) > 5 * spec.threshold);
  // ... but rk4's own energy error is tiny: stable; explicit Euler's is not: drifting
  CHECK(cells[0].cls == lab::CellClass::Stable);
  CHECK(cells[0].drift < 1e-6);
  INFO("euler drift " << cells[1].drift);
  CHECK(cells[1].cls == lab::CellClass::Drifting);
}

TEST_CASE("sweep: a torn cloth is diverged, at the time the runaway rule finds it torn") {
  // time_fe at 16 times cloth_32's dt: a spring is torn (run's warning: t = 0.016 s) long before
  // the energy reaches the energy rule's 1e6 S; checked every step here (25 < 200 checks)
  const auto r = springlab({"sweep", "cloth_32", "--integrators", "time_fe", "--dt",
                            "0.004:0.004:1", "--seconds", "0.1"});
  REQUIRE(r.status == 0);
  const auto ls = lines(r.out);
  REQUIRE(ls.size() == 2);
  CHECK(ls[1].rfind("time_fe,0.0040000000000000001,1,diverged,", 0) == 0);
  CHECK(std::strtod(ls[1].substr(ls[1].rfind(',') + 1).c_str(), nullptr) ==
        doctest::Approx(0.016).epsilon(1e-12));
  const auto run = springlab(
      {"run", "cloth_32", "--integrator", "time_fe", "--dt", "0.004", "--duration", "0.1"});
  CHECK(run.err.find("warning: runaway: torn: spring ") != std::string::npos);
  CHECK(run.err.find(" at t = 0.016 s\n") != std::string::npos);
}
