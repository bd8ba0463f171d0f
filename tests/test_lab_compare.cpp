// Events --at (docs/cli.md#events) and springlab compare (docs/cli.md#compare): events apply at
// the right step, each lane of compare is bit-identical to run, divergence stops one lane only,
// and bad input is exit 2 with one line.
#include <doctest/doctest.h>

#include <cmath>

#include "lab/scheduled_lane.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "util.hpp"

using namespace testutil;

namespace {

lab::Event event(const std::string& text) {
  lab::Event e;
  REQUIRE_FALSE(lab::parseEvent(text, e));
  return e;
}

bool sameState(const sim::State& a, const sim::State& b) {
  return a.t == b.t && a.x == b.x && a.v == b.v;
}

// The number of steps after which two lanes' states first differ (-1: never within `steps`).
long long firstDifference(lab::ScheduledLane& a, lab::ScheduledLane& b, long long steps) {
  for (long long k = 1; k <= steps; ++k) {
    REQUIRE(a.advance());
    REQUIRE(b.advance());
    if (!sameState(a.state(), b.state())) return k;
  }
  return -1;
}

// compare's rows of one lane, by column: t, lane, (integrator), dt, kinetic, potential, total,
// distance
std::vector<std::vector<double>> laneRows(const std::string& csv, int lane) {
  std::vector<std::vector<double>> out;
  for (const auto& row : csvRows(csv))
    if (static_cast<int>(row[1]) == lane) out.push_back(row);
  return out;
}

}  // namespace

TEST_CASE("an event applies before the first step that starts at or after its time") {
  const scene::Built built = scene::build(scene::loadSceneArg("cloth_16"));
  const double dt = 0.0005, tEvent = 0.0123;  // between steps 24 and 25 (t = 0.012, 0.0125)
  for (const std::string key :
       {"stiffness_scale=2", "damping=0.5", "drag=0.3", "integrator=rk4", "dt=0.00025"}) {
    CAPTURE(key);
    lab::ScheduledLane with(built, built.state, sim::Method::SymplecticEuler, dt,
                            {event("0.0123:" + key)}, 1.0);
    lab::ScheduledLane without(built, built.state, sim::Method::SymplecticEuler, dt, {}, 1.0);
    // step 26 starts at 25 dt = 0.0125 >= 0.0123: the first step made after the change
    const long long expected = static_cast<long long>(std::ceil(tEvent / dt)) + 1;
    CHECK(expected == 26);
    CHECK(firstDifference(with, without, 40) == expected);
  }
}

TEST_CASE("after a dt event step k is at t0 + (k - k0) dt and the run ends at the duration") {
  const auto r = springlab({"run", "seed002_harmonic_oscillator", "--dt", "0.01", "--duration", "1",
                            "--at", "0.255:dt=0.003", "--out", "-"});
  REQUIRE(r.status == 0);
  const auto rows = csvRows(r.out);
  // 26 steps of 0.01 (the 27th would start at 0.26 >= 0.255), then round(0.74 / 0.003) = 247
  REQUIRE(rows.size() == 1 + 26 + 247);
  CHECK(rows[26][0] == 26 * 0.01);
  CHECK(rows[27][0] == 26 * 0.01 + 1 * 0.003);
  CHECK(rows.back()[0] == 26 * 0.01 + 247 * 0.003);
  CHECK(std::abs(rows.back()[0] - 1.0) <= 0.0015);
}

TEST_CASE("bad events exit 2 with one line naming --at, and nothing is written") {
  const auto out = tempDir() / "events_bad.csv";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-1:dt=0.1",
       "springlab run: --at: \"-1:dt=0.1\": the time must be a finite number >= 0, "
       "not \"-1\""},
      {"nan:dt=0.1",
       "springlab run: --at: \"nan:dt=0.1\": the time must be a finite number >= "
       "0, not \"nan\""},
      {"1:mass=2",
       "springlab run: --at: \"1:mass=2\": unknown key \"mass\" (keys: integrator, "
       "dt, stiffness_scale, damping, substeps, iterations, drag, joint_damping)"},
      {"1:dt=0", "springlab run: --at: \"1:dt=0\": dt: must be a finite number > 0, not \"0\""},
      {"1:drag=-1",
       "springlab run: --at: \"1:drag=-1\": drag: must be a finite number >= 0, not "
       "\"-1\""},
      {"1dt=3", "springlab run: --at: \"1dt=3\" is not T:KEY=VALUE"},
      {"1:joint_damping=1",
       "springlab run: --at: \"1:joint_damping=1\": joint_damping: only pendulums have joints"},
      {"1:integrator=implicit_midpoint",
       "springlab run: --at: \"1:integrator=implicit_midpoint\": implicit_midpoint does not apply "
       "to mass_spring systems; these apply: euler, symplectic_euler, verlet, rk4, "
       "implicit_euler, time_fe, xpbd, projective, vbd"},
  };
  for (const auto& [at, message] : cases) {
    CAPTURE(at);
    const auto r = springlab({"run", "cloth_16", "--at", at, "--out", out.string()});
    CHECK(r.status == 2);
    CHECK(r.err == message + "\n");
    CHECK_FALSE(fs::exists(out));
  }
  const auto r = springlab({"run", "seed004_fig6b", "--at", "1:stiffness_scale=2"});
  CHECK(r.status == 2);
  CHECK(
      r.err ==
      "springlab run: --at: \"1:stiffness_scale=2\": stiffness_scale: a pendulum has no springs\n");
}

TEST_CASE("joint_damping at a time damps a pendulum from then on, as the scene's own would") {
  // the same key in a scene and in --at: a run damped from t = 0 by the event equals the scene
  // with that joint damping
  const auto def = scene::loadSceneArg("seed004_double_pendulum");
  scene::SceneDef damped = def;
  damped.parameters.set(sim::Parameter::JointDamping, 0.5);
  const scene::Built plain = scene::build(def), withDamping = scene::build(damped);
  REQUIRE(plain.pendulum()->joint_damping == 0.0);
  lab::ScheduledLane byEvent(plain, plain.state, def.integrator, def.dt,
                             {event("0:joint_damping=0.5")}, 1.0);
  lab::ScheduledLane byScene(withDamping, withDamping.state, def.integrator, def.dt, {}, 1.0);
  lab::ScheduledLane undamped(plain, plain.state, def.integrator, def.dt, {}, 1.0);
  for (int k = 0; k < 200; ++k) {
    REQUIRE(byEvent.advance());
    REQUIRE(byScene.advance());
    REQUIRE(undamped.advance());
  }
  CHECK(sameState(byEvent.lane().state(), byScene.lane().state()));
  CHECK_FALSE(sameState(byEvent.lane().state(), undamped.lane().state()));
}

TEST_CASE("each lane of compare is bit-identical to run with its integrator, dt and events") {
  // lane 0 writes every 3 steps of 0.0005 s (0.0004 s after the event): no row time falls halfway
  // between two steps of another lane, so the run's row nearest in time is that lane's step
  const std::vector<std::string> specs = {"symplectic_euler", "rk4@0.0007", "time_fe@0.0011",
                                          "verlet"};
  const std::vector<std::string> events = {"--at", "0.031:damping=0.2", "--at", "0.02:dt=0.0004"};
  std::vector<std::string> args = {
      "compare",    "cloth_16", "--lanes", "symplectic_euler,rk4@0.0007,time_fe@0.0011,verlet",
      "--duration", "0.06",     "--every", "3",
      "--out",      "-"};
  args.insert(args.end(), events.begin(), events.end());
  const auto cmp = springlab(args);
  REQUIRE(cmp.status == 0);
  CHECK(lines(cmp.out)[0] == "t,lane,integrator,dt,kinetic,potential,total,distance");
  for (int lane = 0; lane < 4; ++lane) {
    CAPTURE(lane);
    const std::string name = specs[lane].substr(0, specs[lane].find('@'));
    std::vector<std::string> runArgs = {"run",        "cloth_16", "--integrator", name,
                                        "--duration", "1",        "--energy",     "-"};
    if (specs[lane].find('@') != std::string::npos)
      runArgs.insert(runArgs.end(), {"--dt", specs[lane].substr(specs[lane].find('@') + 1)});
    runArgs.insert(runArgs.end(), events.begin(), events.end());
    const auto run = springlab(runArgs);
    REQUIRE(run.status == 0);
    const auto runRows = csvRows(run.out);
    for (const auto& row : laneRows(cmp.out, lane)) {
      // the run's row at the same state: the one with the nearest time (compare's t is lane 0's)
      const auto& match =
          *std::min_element(runRows.begin(), runRows.end(), [&](const auto& a, const auto& b) {
            return std::abs(a[0] - row[0]) < std::abs(b[0] - row[0]);
          });
      CHECK(row[4] == match[1]);  // kinetic, exactly
      CHECK(row[5] == match[2]);  // potential, exactly
    }
  }
  for (const auto& row : laneRows(cmp.out, 0)) CHECK(row[7] == 0.0);  // lane 0 from itself
}

TEST_CASE("a lane that diverges stops with its last finite row, the others go on, exit 3") {
  const auto r = springlab({"compare", "cloth_16", "--lanes", "symplectic_euler,euler",
                            "--duration", "1", "--every", "100", "--out", "-"});
  CHECK(r.status == 3);
  CHECK(r.err.find("springlab compare: lane 1: diverged at t = ") != std::string::npos);
  const auto lane0 = laneRows(r.out, 0), lane1 = laneRows(r.out, 1);
  CHECK(lane0.back()[0] == doctest::Approx(1.0));
  REQUIRE(lane1.size() < lane0.size());
  CHECK(std::isfinite(lane1.back()[6]));
  CHECK(lane1.back()[0] < 1.0);
}

TEST_CASE("bad compare options exit 2 with one line and write nothing") {
  const auto out = tempDir() / "compare_bad.csv";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--lanes", "rk4"},
       "springlab compare: --lanes: one lane; compare needs 2 to 8 (springlab run runs one)"},
      {{"--lanes", "rk4,nope"},
       "springlab compare: --lanes: lane 1 \"nope\": unknown integrator \"nope\"; these apply "
       "to mass_spring: euler, symplectic_euler, verlet, rk4, implicit_euler, time_fe, xpbd, "
       "projective, vbd"},
      {{"--lanes", "rk4,verlet@-1"},
       "springlab compare: --lanes: lane 1 \"verlet@-1\": dt must be a finite number > 0, not "
       "\"-1\""},
      {{"--lanes", "rk4,,verlet"},
       "springlab compare: --lanes: lane 1 is empty (SPEC,SPEC: NAME or NAME@DT, then "
       ":KEY=VALUE...)"},
      {{"--lanes", "rk4,rk4,rk4,rk4,rk4,rk4,rk4,rk4,rk4"},
       "springlab compare: --lanes: 9 lanes; at most 8"},
      {{"--lanes", "rk4,verlet@1e-5", "--duration", "1e8"},
       "springlab compare: --lanes: lane \"verlet@1e-5\": 1e+13 steps of 1634 particles and "
       "springs is 1.634e+16 element-steps, more than the 1e+15 a run may do (at least 189.1 days "
       "at 1e+09 a second)"},
      {{}, "springlab compare: missing --lanes SPEC,SPEC (integrator names, NAME@DT for a step)"},
      {{"--lanes", "rk4,verlet", "--every", "0"},
       "springlab compare: --every: must be a whole number >= 1, not \"0\""},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"compare", "cloth_16", "--out", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    CAPTURE(message);
    const auto r = springlab(args);
    CHECK(r.status == 2);
    CHECK(r.err == message + "\n");
    CHECK_FALSE(fs::exists(out));
  }
}

TEST_CASE("compare: a torn lane is a runaway, warned with its spring, while the others go on") {
  // xpbd at 1/60 s and 1 substep (not its automatic ones) tears cloth_32 at t = 0.4833343 s (run's
  // warning); time_fe at 0.004 s tears it at its step nearest to the first row, t = 0.016 s
  const auto r = springlab({"compare", "cloth_32", "--lanes", "xpbd@0.0166667,time_fe@0.004",
                            "--duration", "0.5", "--at", "0:substeps=1"});
  CHECK(r.status == 0);  // a runaway only warns, as in run
  const auto err = lines(r.err);
  REQUIRE(err.size() == 2);
  CHECK(err[0].rfind("springlab compare: lane 1: warning: runaway: torn: spring ", 0) == 0);
  CHECK(err[0].find(" at t = 0.016 s") != std::string::npos);
  CHECK(err[1] ==
        "springlab compare: lane 0: warning: runaway: torn: spring 185 (particles 31 and 63) is "
        "10.0269 times its rest length 0.0322581 m (the limit is 10) at t = 0.4833343 s");
  // with rows only at the start and the end, the rule still runs between them (at least 1000
  // times over the run; here each of lane 0's 30 steps): the same warnings at the same times
  const auto sparse = springlab({"compare", "cloth_32", "--lanes", "xpbd@0.0166667,time_fe@0.004",
                                 "--duration", "0.5", "--at", "0:substeps=1", "--every", "1000"});
  CHECK(sparse.status == 0);
  CHECK(sparse.err == r.err);
}
