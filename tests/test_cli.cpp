// springlab run / list through the binary: the docs/cli.md contract (exit statuses, one-line
// errors naming file and JSON path, rows, headers, exact numbers).
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cmath>
#include <string>

#include "cli/commands.hpp"
#include "scene/build.hpp"
#include "scene/catalog.hpp"
#include "scene/load.hpp"
#include "sim/energy.hpp"
#include "sim/stepper.hpp"
#include "util.hpp"

using namespace testutil;

namespace {

// A valid 2-particle spring pendulum; `patch` replaces the marked fragments to make bad variants.
const std::string kGood = R"({
  "name": "t",
  "gravity": [0, -9.8, 0],
  "integrator": "rk4",
  "dt": 0.01,
  "duration": 0.1,
  "system": {
    "type": "mass_spring",
    "drag": 0.0,
    "particles": [
      {"position": [0, 0, 0], "fixed": true},
      {"position": [0.3, -1, 0], "mass": 0.5}
    ],
    "springs": [
      {"a": 0, "b": 1, "stiffness": 20, "rest_length": 0.8, "damping": 0.0}
    ]
  }
})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  REQUIRE_MESSAGE(pos != std::string::npos, from);
  return text.replace(pos, from.size(), to);
}

struct BadCase {
  const char* what;
  const char* from;
  const char* to;
  const char* expect;  // must appear in the error line
};

const BadCase kBad[] = {
    {"unknown top-level key", R"("name": "t")", R"("nmae": "t")", "nmae: unknown key"},
    {"unknown particle key", R"("mass": 0.5})", R"("mass": 0.5, "colour": 1})",
     "system.particles[1].colour: unknown key"},
    {"unknown spring key", R"("damping": 0.0})", R"("damping": 0.0, "k": 1})",
     "system.springs[0].k: unknown key"},
    {"wrong type", R"("stiffness": 20)", R"("stiffness": "20")",
     "system.springs[0].stiffness: must be a number"},
    {"zero stiffness", R"("stiffness": 20)", R"("stiffness": 0)",
     "system.springs[0].stiffness: must be > 0"},
    {"negative mass", R"("mass": 0.5)", R"("mass": -0.5)", "system.particles[1].mass: must be > 0"},
    {"missing mass", R"(, "mass": 0.5})", R"(})",
     "system.particles[1].mass: required key is missing"},
    {"negative rest length", R"("rest_length": 0.8)", R"("rest_length": -0.8)",
     "system.springs[0].rest_length: must be >= 0"},
    {"negative damping", R"("damping": 0.0})", R"("damping": -1})",
     "system.springs[0].damping: must be >= 0"},
    {"negative drag", R"("drag": 0.0)", R"("drag": -0.1)", "system.drag: must be >= 0"},
    {"zero dt", R"("dt": 0.01)", R"("dt": 0)", "dt: must be > 0"},
    {"negative duration", R"("duration": 0.1)", R"("duration": -1)", "duration: must be >= 0"},
    {"overflowing number", R"("dt": 0.01)", R"("dt": 1e999)", "out of range"},
    {"non-integer index", R"("a": 0,)", R"("a": 0.0,)", "system.springs[0].a: must be an integer"},
    {"index out of range", R"("b": 1,)", R"("b": 2,)",
     "system.springs[0].b: must be between 0 and 1"},
    {"negative index", R"("a": 0,)", R"("a": -1,)", "system.springs[0].a: must be between 0 and 1"},
    {"spring to itself", R"("b": 1,)", R"("b": 0,)", "system.springs[0].b: a spring cannot join"},
    {"short vector", R"("position": [0.3, -1, 0])", R"("position": [0.3])",
     "system.particles[1].position: must be an array of 2 or 3 numbers"},
    {"bad vector element", R"("gravity": [0, -9.8, 0])", R"("gravity": [0, null, 0])",
     "gravity[1]: must be a number"},
    {"fixed with velocity", R"("fixed": true})", R"("fixed": true, "velocity": [1, 0]})",
     "system.particles[0].velocity: must be zero for a fixed particle"},
    {"missing system", R"("system": {)", R"("sistem": {)", "sistem: unknown key"},
    {"unknown system type", R"("type": "mass_spring")", R"("type": "rope")",
     "system.type: must be \"mass_spring\" or \"pendulum\""},
    {"unknown integrator", R"("integrator": "rk4")", R"("integrator": "rk5")",
     "integrator: unknown integrator \"rk5\"; these apply to mass_spring: euler, symplectic_euler, "
     "verlet, rk4, implicit_euler, time_fe, xpbd, projective, vbd"},
    {"inapplicable integrator", R"("integrator": "rk4")", R"("integrator": "implicit_midpoint")",
     "integrator: implicit_midpoint does not apply to mass_spring systems; these apply: euler"},
    {"syntax error", R"("dt": 0.01,)", R"("dt": 0.01,,)", ": line 5, column 14: invalid JSON"},
    {"bad generator", R"("drag": 0.0,)",
     R"("drag": 0.0, "generators": [{"kind": "cloth", "nx": 1, "ny": 4, "width": 1, "height": 1, "mass": 1, "stiffness": 1}],)",
     "system.generators[0].nx: must be between 2 and 2048"},
    {"unknown generator", R"("drag": 0.0,)", R"("drag": 0.0, "generators": [{"kind": "blob"}],)",
     "system.generators[0].kind: unknown generator \"blob\""},
    // 0 is automatic, as in the panel and --at (the parameter table's rule)
    {"negative substeps", R"("dt": 0.01,)", R"("dt": 0.01, "substeps": -1,)",
     "substeps: must be between 0 and 1000"},
    {"fractional iterations", R"("dt": 0.01,)", R"("dt": 0.01, "iterations": 2.5,)",
     "iterations: must be an integer"},
    {"tethers not a boolean", R"("drag": 0.0,)", R"("drag": 0.0, "tethers": 1,)",
     "system.tethers: must be true or false, not a number"},
    {"tilt out of range", R"("drag": 0.0,)",
     R"("drag": 0.0, "generators": [{"kind": "cloth", "nx": 3, "ny": 3, "width": 1, "height": 1, "mass": 1, "stiffness": 1, "tilt": 95}],)",
     "system.generators[0].tilt: must be between -90 and 90 degrees (got 95)"},
    {"tilt of a horizontal cloth", R"("drag": 0.0,)",
     R"("drag": 0.0, "generators": [{"kind": "cloth", "nx": 3, "ny": 3, "width": 1, "height": 1, "mass": 1, "stiffness": 1, "orientation": "horizontal", "tilt": 10}],)",
     "system.generators[0].tilt: applies to a hanging cloth only"},
};

const std::string kGoodPendulum = R"({
  "gravity": [0, -9.8],
  "integrator": "rk4",
  "dt": 0.01,
  "duration": 0.1,
  "system": {
    "type": "pendulum",
    "pivot": [0, 1, 0],
    "lengths": [2, 1],
    "masses": [2, 1],
    "angles": [1.5, 0.5],
    "angular_velocities": [0, 0],
    "joint_damping": 0.0
  }
})";

const BadCase kBadPendulum[] = {
    {"length mismatch", R"("masses": [2, 1])", R"("masses": [2])",
     "system.masses: has 1 values but lengths has 2 (one per link)"},
    {"angles mismatch", R"("angles": [1.5, 0.5])", R"("angles": [1.5, 0.5, 0.1])",
     "system.angles: has 3 values but lengths has 2"},
    {"velocities mismatch", R"("angular_velocities": [0, 0])", R"("angular_velocities": [0])",
     "system.angular_velocities: has 1 values but lengths has 2"},
    {"zero length", R"("lengths": [2, 1])", R"("lengths": [2, 0])",
     "system.lengths[1]: must be > 0"},
    {"negative mass", R"("masses": [2, 1])", R"("masses": [-2, 1])",
     "system.masses[0]: must be > 0"},
    {"no links", R"("lengths": [2, 1])", R"("lengths": [])",
     "system.lengths: must have at least one link"},
    {"missing angles", R"("angles": [1.5, 0.5],)", "", "system.angles: required key is missing"},
    {"negative joint damping", R"("joint_damping": 0.0)", R"("joint_damping": -1)",
     "system.joint_damping: must be >= 0"},
    {"unknown key", R"("pivot": [0, 1, 0],)", R"("pivot": [0, 1, 0], "stiffness": 3,)",
     "system.stiffness: unknown key"},
    {"mass-spring integrator", R"("integrator": "rk4")", R"("integrator": "time_fe")",
     "integrator: time_fe does not apply to pendulum systems; these apply: euler, "
     "symplectic_euler, verlet, rk4, implicit_midpoint"},
    {"xpbd's substeps", R"("dt": 0.01,)", R"("dt": 0.01, "substeps": 4,)",
     "substeps: a pendulum has no springs"},
    {"implicit_euler", R"("integrator": "rk4")", R"("integrator": "implicit_euler")",
     "integrator: implicit_euler does not apply to pendulum systems"},
    {"uniform with arrays", R"("joint_damping": 0.0)",
     R"("joint_damping": 0.0, "uniform": {"links": 3, "length": 1, "mass": 1})",
     "system.lengths: cannot be combined with \"uniform\""},
};

}  // namespace

TEST_CASE("bad pendulum scenes exit 2 with the JSON path") {
  for (const auto& c : kBadPendulum) {
    const std::string what = c.what;
    CAPTURE(what);
    const auto scene = writeFile("badp.json", replaced(kGoodPendulum, c.from, c.to));
    const auto r = springlab({"run", scene.string(), "--out", "-"});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    const auto ls = lines(r.err);
    REQUIRE(ls.size() == 1);
    CHECK(ls[0].rfind(scene.string() + ": ", 0) == 0);
    CHECK_MESSAGE(ls[0].find(c.expect) != std::string::npos, ls[0]);
  }
  // and on the command line
  const auto scene = writeFile("goodp.json", kGoodPendulum).string();
  const auto r = springlab({"run", scene, "--integrator", "implicit_euler"});
  CHECK(r.status == 2);
  CHECK(r.err.find("--integrator: implicit_euler does not apply to pendulum systems; these apply: "
                   "euler, symplectic_euler, verlet, rk4, implicit_midpoint") != std::string::npos);
}

TEST_CASE("a pendulum run writes the bobs' positions and the energies") {
  const auto scene = writeFile("goodp.json", kGoodPendulum).string();
  const auto r = springlab({"run", scene, "--out", "-", "--duration", "0"});
  REQUIRE(r.status == 0);
  const auto ls = lines(r.out);
  CHECK(ls[0] == "t,x0,y0,z0,x1,y1,z1");
  const auto rows = csvRows(r.out);
  REQUIRE(rows.size() == 1);
  // bob 0 at pivot + 2 (sin 1.5, -cos 1.5), bob 1 one metre further at angle 0.5
  const double x0 = 2 * std::sin(1.5), y0 = 1 - 2 * std::cos(1.5);
  CHECK(rows[0][1] == doctest::Approx(x0).epsilon(1e-15));
  CHECK(rows[0][2] == doctest::Approx(y0).epsilon(1e-15));
  CHECK(rows[0][4] == doctest::Approx(x0 + std::sin(0.5)).epsilon(1e-15));
  CHECK(rows[0][5] == doctest::Approx(y0 - std::cos(0.5)).epsilon(1e-15));
  CHECK(rows[0][3] == 0.0);
  const auto e = springlab({"run", scene, "--energy", "-", "--duration", "0"});
  const auto erows = csvRows(e.out);
  REQUIRE(erows.size() == 1);
  // at rest: kinetic 0, potential -sum m g.x = 9.8 (2 y0 + 1 y1)
  CHECK(erows[0][1] == 0.0);
  CHECK(erows[0][2] == doctest::Approx(9.8 * (2 * y0 + (y0 - std::cos(0.5)))).epsilon(1e-14));
}

TEST_CASE(
    "bad scene files exit 2 with one line naming the file and the JSON path, writing nothing") {
  for (const auto& c : kBad) {
    const std::string what = c.what;
    CAPTURE(what);
    const auto scene = writeFile("bad.json", replaced(kGood, c.from, c.to));
    const auto out = tempDir() / "bad_out.csv";
    std::filesystem::remove(out);
    const auto r = springlab({"run", scene.string(), "--out", out.string()});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    const auto ls = lines(r.err);
    REQUIRE(ls.size() == 1);
    CHECK(ls[0].rfind(scene.string() + ": ", 0) == 0);  // starts with the file name
    CHECK_MESSAGE(ls[0].find(c.expect) != std::string::npos, ls[0]);
    CHECK(!std::filesystem::exists(out));
  }
}

TEST_CASE("the good scene runs, so the bad variants fail for their own reason") {
  const auto scene = writeFile("good.json", kGood);
  const auto r = springlab({"run", scene.string()});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
}

TEST_CASE("bad options and missing files exit 2 with one line") {
  const auto scene = writeFile("good.json", kGood).string();
  const struct {
    std::vector<std::string> args;
    const char* expect;
  } cases[] = {
      {{"run"}, "missing SCENE"},
      {{"run", scene, "--dt", "-1"}, "--dt: must be a finite number > 0"},
      {{"run", scene, "--dt", "abc"}, "--dt: must be a finite number > 0, not \"abc\""},
      {{"run", scene, "--dt", "nan"}, "--dt: must be a finite number > 0"},
      {{"run", scene, "--duration", "-2"}, "--duration: must be a finite number >= 0"},
      {{"run", scene, "--every", "0"}, "--every: must be a whole number >= 1"},
      {{"run", scene, "--every", "1.5"}, "--every: must be a whole number >= 1"},
      {{"run", scene, "--frobnicate"}, "unknown option --frobnicate"},
      {{"run", scene, "--dt"}, "--dt: missing value"},
      {{"run", scene, "--out", "-", "--energy", "-"},
       "at most one of --out, --energy and --ledger can be -"},
      {{"run", scene, "--integrator", "leapfrog"}, "--integrator: unknown integrator \"leapfrog\""},
      {{"run", scene, "--integrator", "implicit_midpoint"}, "does not apply to mass_spring"},
      // the bound on work (docs/cli.md#limits): steps are within kMaxStepRatio, their work is not
      {{"run", "cloth_128", "--dt", "1e-4", "--duration", "1e8"},
       "springlab run: --duration / --dt: 1e+12 steps of 113410 particles and springs is "
       "1.1341e+17 element-steps, more than the 1e+15 a run may do (at least 4 years at 1e+09 a "
       "second)"},
      {{"run", "/dev/zero"}, "/dev/zero: larger than 64 MiB"},
      {{"info", "/dev/zero"}, "/dev/zero: larger than 64 MiB"},
      {{"run", "/nonexistent/x.json"}, "/nonexistent/x.json: cannot open the file"},
      {{"run", "no_such_builtin"}, "no such file and no built-in scene"},
      {{"run", scene, "--out", "/nonexistent/dir/out.csv"}, "cannot open for writing"},
      {{"list", "extra"}, "unexpected argument"},
      {{"frobnicate"}, "no such file and no built-in scene"},  // the window's SCENE
  };
  for (const auto& c : cases) {
    CAPTURE(c.args.back());
    const auto r = springlab(c.args);
    CHECK(r.status == 2);
    const auto ls = lines(r.err);
    REQUIRE(ls.size() == 1);
    CHECK_MESSAGE(ls[0].find(c.expect) != std::string::npos, ls[0]);
  }
}

TEST_CASE("too many steps are said with the durations and steps as given, never \"inf\"") {
  const auto scene = writeFile("good.json", kGood).string();
  const struct {
    std::vector<std::string> args;
    std::string expect;
  } cases[] = {
      // the numbers as given, never "inf steps"
      {{"run", scene, "--dt", "1e-300", "--duration", "1e300"},
       "springlab run: --duration 1e+300 s at --dt 1e-300 s is more than the 1e+15 steps a run "
       "may make"},
      // 6 significant digits, not std::to_string's "999999999999999879147136483328.000000"
      {{"run", scene, "--dt", "1e-10", "--duration", "1e20"},
       "springlab run: --duration 1e+20 s at --dt 1e-10 s is 1e+30 steps, more than the 1e+15 a "
       "run may make"},
      {{"run", scene, "--dt", "1e-17"},  // the scene's 0.1 s
       "springlab run: the scene's duration 0.1 s at --dt 1e-17 s is 1e+16 steps, more than the "
       "1e+15 a run may make"},
      {{"run", scene, "--duration", "100", "--at", "1:dt=1e-20"},
       "springlab run: --at: \"1:dt=1e-20\": the duration 100 s at dt 1e-20 s is 1e+22 steps, "
       "more than the 1e+15 a run may make"},
      {{"compare", scene, "--lanes", "rk4,rk4@1e-300", "--duration", "1"},
       "springlab compare: --lanes: lane \"rk4@1e-300\": the duration 1 s at dt 1e-300 s is "
       "1e+300 steps, more than the 1e+15 a run may make"},
      {{"sweep", scene, "--integrators", "rk4", "--dt", "1e-300:1e-3:3", "--seconds", "1"},
       "springlab sweep: --seconds 1 s at --dt's smallest 1e-300 s is 1e+300 steps, more than the "
       "1e+15 a run may make"},
      // order's finest run takes 2^(kRuns - 1) = 8 times the steps of --dt
      {{"order", scene, "--dt", "1e-12", "--duration", "200"},
       "springlab order: --duration 200 s at the finest run's dt (--dt / 8) 1.25e-13 s is 1.6e+15 "
       "steps, more than the 1e+15 a run may make"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args.back());
    const auto r = springlab(c.args);
    CHECK(r.status == 2);
    CHECK(r.err == c.expect + "\n");
  }
}

TEST_CASE("malformed inputs never crash") {
  const std::string nasty[] = {
      "",
      "null",
      "[]",
      "{",
      "{\"system\": 5}",
      "{\"system\": {\"type\": 5}}",
      "{\"system\": {\"type\": \"mass_spring\", \"particles\": 3}}",
      "{\"system\": {\"type\": \"mass_spring\", \"particles\": []}}",
      "{\"system\": {\"type\": \"mass_spring\", \"particles\": [{\"position\": [0,0], \"mass\": "
      "1}], \"springs\": [{\"a\": 18446744073709551615, \"b\": 0, \"stiffness\": 1}]}}",
      "{\"system\": {\"type\": \"mass_spring\", \"generators\": [{\"kind\": \"cloth\", \"nx\": "
      "2048, \"ny\": 2048, \"width\": 1, \"height\": 1, \"mass\": 1, \"stiffness\": 1}]}, "
      "\"duration\": 0}",
      std::string(100000, '[') + std::string(100000, ']'),
      "\xff\xfe{}",
  };
  for (const auto& text : nasty) {
    const auto scene = writeFile("nasty.json", text);
    const auto r = springlab({"run", scene.string()});
    CAPTURE(text.substr(0, 80));
    CHECK(r.status < 128);  // no signal
    CHECK(r.err.find("internal error") == std::string::npos);
    if (r.status != 0) {
      CHECK(r.status == 2);
      CHECK(lines(r.err).size() == 1);
    }
  }
}

TEST_CASE(
    "run writes the contract's rows: step 0, every N-th, the last, k*dt times, exact digits") {
  // dt = 0.5, duration = 1.25 -> 2.5 steps, rounded away from zero to 3
  const auto scene =
      writeFile("rows.json", replaced(replaced(kGood, R"("dt": 0.01)", R"("dt": 0.001)"),
                                      R"("duration": 0.1)", R"("duration": 0.0105)"));
  const auto traj = tempDir() / "traj.csv", en = tempDir() / "energy.csv";
  const auto r = springlab({"run", scene.string(), "--every", "4", "--out", traj.string(),
                            "--energy", en.string(), "--integrator", "verlet"});
  REQUIRE(r.status == 0);
  const auto tl = lines(readFile(traj));
  CHECK(tl[0] == "t,x0,y0,z0,x1,y1,z1");
  CHECK(lines(readFile(en))[0] == "t,kinetic,potential,total");
  const auto rows = csvRows(readFile(traj));
  const auto erows = csvRows(readFile(en));
  // round(0.0105 / 0.001) = 11 (10.5 rounds away from zero) -> steps 0, 4, 8, 11
  REQUIRE(rows.size() == 4);
  REQUIRE(erows.size() == 4);
  const long steps[] = {0, 4, 8, 11};
  // the same simulation in-process must match the CSV bit for bit (17 significant digits)
  auto def = scene::loadFile(scene.string());
  auto built = scene::build(def);
  sim::Stepper st(*built.massSpring(), built.state, sim::Method::Verlet, 0.001);
  long done = 0;
  for (int i = 0; i < 4; ++i) {
    st.advance(steps[i] - done);
    done = steps[i];
    CHECK(rows[i][0] == static_cast<double>(steps[i]) * 0.001);
    CHECK(erows[i][0] == rows[i][0]);
    for (int j = 0; j < 6; ++j) CHECK(rows[i][1 + j] == st.state().x[j]);
    const auto e = sim::energy(*built.massSpring(), st.state());
    CHECK(erows[i][1] == e.kinetic);
    CHECK(erows[i][2] == e.potential);
    CHECK(erows[i][3] == e.total());
  }
}

TEST_CASE("halves of duration/dt round away from zero") {
  const auto scene = writeFile("half.json", kGood);
  const auto r =
      springlab({"run", scene.string(), "--dt", "0.5", "--duration", "1.25", "--out", "-"});
  REQUIRE(r.status == 0);
  const auto rows = csvRows(r.out);
  REQUIRE(rows.size() == 4);  // steps 0..3
  CHECK(rows.back()[0] == 1.5);
}

TEST_CASE("a scene that makes euler explode exits 3 and keeps the finite rows") {
  // a stiff spring and a step far past euler's stability limit
  const auto scene = writeFile(
      "explode.json", replaced(replaced(kGood, R"("stiffness": 20)", R"("stiffness": 1e6)"),
                               R"("duration": 0.1)", R"("duration": 100)"));
  const auto traj = tempDir() / "explode.csv", en = tempDir() / "explode_e.csv";
  const auto r = springlab({"run", scene.string(), "--integrator", "euler", "--every", "7", "--out",
                            traj.string(), "--energy", en.string()});
  CHECK(r.status == 3);
  auto ls = lines(r.err);
  // the energy grows geometrically: the runaway rule fires first (a warning), then a non-finite
  // value stops the run
  REQUIRE(ls.size() == 2);
  CHECK(ls[0].rfind("springlab run: warning: runaway: ", 0) == 0);
  ls.erase(ls.begin());
  CHECK(ls[0].rfind("springlab run: diverged at t = ", 0) == 0);
  CHECK(ls[0].find("with euler") != std::string::npos);
  // the time to at most 6 significant digits ("t = 2.132 s", never "2.1320000000000001")
  const size_t from = ls[0].find("t = ") + 4;
  const std::string t = ls[0].substr(from, ls[0].find(" s with") - from);
  char six[32];
  std::snprintf(six, sizeof six, "%.6g", std::stod(t));
  CHECK(t == six);
  const auto rows = csvRows(readFile(traj));
  const auto erows = csvRows(readFile(en));
  REQUIRE(rows.size() >= 2);
  CHECK(erows.size() == rows.size());
  for (const auto& row : rows)
    for (double v : row) CHECK(std::isfinite(v));
  for (const auto& row : erows)
    for (double v : row) CHECK(std::isfinite(v));
  // the last row is the last finite step: one step before the reported time
  const double tDiv = std::strtod(ls[0].substr(ls[0].find("t = ") + 4).c_str(), nullptr);
  CHECK(rows.back()[0] == doctest::Approx(tDiv - 0.01).epsilon(1e-12));
  // rows before it follow --every
  for (size_t i = 0; i + 1 < rows.size(); ++i)
    CHECK(std::fmod(std::round(rows[i][0] / 0.01), 7.0) == 0.0);
}

TEST_CASE("springlab list prints every built-in scene, one per line") {
  const auto r = springlab({"list"});
  CHECK(r.status == 0);
  const auto names = lines(r.out);
  CHECK(names == scene::builtinNames());
  for (const char* required :
       {"seed000_spring_pendulum_10", "seed000_planar_chain_drag", "seed000_closed_loop",
        "seed002_harmonic_oscillator", "seed002_elastic_pendulum",
        "seed002_elastic_double_pendulum", "seed003_table1_case1", "seed003_table1_case2",
        "seed003_table4_wide_angle", "cloth_16", "cloth_32", "cloth_64", "cloth_128", "cloth_256"})
    CHECK_MESSAGE(std::find(names.begin(), names.end(), required) != names.end(), required);
}

TEST_CASE("run works on a built-in scene from any directory") {
  const auto r = springlab({"run", "seed003_table1_case1", "--duration", "0.02", "--out", "-"});
  CHECK(r.status == 0);
  CHECK(csvRows(r.out).size() == 11);
}

TEST_CASE("run's summary gives the energy drift relative to |E0|, or to S where E0 is about 0") {
  const auto relative = springlab({"run", "seed002_harmonic_oscillator", "--integrator",
                                   "symplectic_euler", "--dt", "0.001", "--duration", "2"});
  CHECK(relative.status == 0);
  CHECK(relative.out.find("\nenergy      E0 = 69.43 J, E = 69.4718164 J, (E - E0)/|E0| = "
                          "6.023e-04\n") != std::string::npos);
  // rope_100 is released at the height of its pivot: E0 ~ 1e-16 J, S = m |g| L = 9.81 J
  const auto scaled = springlab({"run", "rope_100", "--duration", "0.01"});
  CHECK(scaled.status == 0);
  CHECK(scaled.out.find("(E - E0)/S = ") != std::string::npos);
  CHECK(scaled.out.find("(S = 9.81 J: the scene's energy scale, as E0 is about 0)\n") !=
        std::string::npos);
  CHECK(scaled.out.find("|E0|") == std::string::npos);
}

TEST_CASE("a run whose energy runs away warns once on stderr and in the summary, exit 0") {
  // euler at dt 0.05 on seed004_fig6b: finite but absurd (E ~ 1e61 J at 1.6 s); a pendulum's rods
  // cannot tear, so the energy part of the rule is the one that fires
  const auto energy = tempDir() / "runaway_energy.csv";
  const auto r = springlab({"run", "seed004_fig6b", "--integrator", "euler", "--dt", "0.05",
                            "--duration", "1.6", "--energy", energy.string()});
  CHECK(r.status == 0);
  const auto err = lines(r.err);
  REQUIRE(err.size() == 1);
  CHECK(err[0].rfind("springlab run: warning: runaway: the energy went from -414 J to ", 0) == 0);
  const auto at = err[0].rfind(" at t = ");
  REQUIRE(at != std::string::npos);
  const double t = std::strtod(err[0].c_str() + at + 8, nullptr);
  CHECK(t > 0.05);
  CHECK(t < 1.6);  // checked on every written row, so caught before the end
  // the time is that of a row whose energy is over 1e6 S (S = 1.62e3 J, in the report)
  bool rowFound = false;
  for (const auto& row : csvRows(readFile(energy)))
    if (std::abs(row[0] - t) < 1e-9) rowFound = std::abs(row[3] + 414.037371) > 1e6 * 1.62e3;
  CHECK(rowFound);
  CHECK(r.out.find("\nwarning     runaway: the energy went from -414 J to ") != std::string::npos);

  // without files, the rule is still checked as the run goes (here every step: 32 < 1000
  // checks), so the same first time is reported
  const auto bare = springlab(
      {"run", "seed004_fig6b", "--integrator", "euler", "--dt", "0.05", "--duration", "1.6"});
  CHECK(bare.status == 0);
  REQUIRE(lines(bare.err).size() == 1);
  CHECK(bare.err == r.err);
}

TEST_CASE("a torn system is a runaway: run names the spring, its particles and its stretch") {
  // closed form: particle 1 leaves the fixed particle 0 at 8 m/s on a spring of rest length 1 m
  // too soft to matter (k = 1e-9 N/m), no gravity: its length 1 + 8 t passes 10 at t = 1.125 s,
  // so the first step after it, t = 1.13 s, is torn (10.04 times), though the energy holds
  const auto scene = writeFile("torn.json", R"({"gravity": [0, 0, 0], "dt": 0.01, "duration": 2,
    "integrator": "symplectic_euler", "system": {"type": "mass_spring",
    "particles": [{"position": [0, 0, 0], "fixed": true},
                  {"position": [1, 0, 0], "velocity": [8, 0, 0], "mass": 1}],
    "springs": [{"a": 0, "b": 1, "stiffness": 1e-9, "rest_length": 1}]}})");
  const auto r = springlab({"run", scene.string()});
  CHECK(r.status == 0);
  CHECK(r.err ==
        "springlab run: warning: runaway: torn: spring 0 (particles 0 and 1) is 10.04 times its "
        "rest length 1 m (the limit is 10) at t = 1.13 s\n");
  CHECK(r.out.find("\nwarning     runaway: torn: spring 0 (particles 0 and 1) is 10.04 times") !=
        std::string::npos);

  // a stiff cloth that xpbd cannot hold at 1 substep: it thrashes with its energy far below the
  // energy rule's 1e6 S, but a spring below a pinned corner is torn
  const auto cloth = springlab({"run", "cloth_32", "--integrator", "xpbd", "--dt", "0.0166667",
                                "--duration", "1", "--at", "0:substeps=1"});
  CHECK(cloth.status == 0);
  CHECK(cloth.err ==
        "springlab run: warning: runaway: torn: spring 185 (particles 31 and 63) is 10.0269 times "
        "its rest length 0.0322581 m (the limit is 10) at t = 0.4833343 s\n");
}

TEST_CASE(
    "SPRINGLAB_THREADS sets the kernels' threads, which change no number, and a bad value is "
    "refused") {
  // cloth_128's force pass takes a second thread (4096 springs or more): the same bits on one
  const std::vector<std::string> args = {"run",   "cloth_128", "--integrator", "symplectic_euler",
                                         "--dt",  "1e-5",      "--duration",   "5e-5",
                                         "--out", "-"};
  const auto one = springlab(args, "SPRINGLAB_THREADS=1 ");
  const auto two = springlab(args, "SPRINGLAB_THREADS=2 ");
  REQUIRE(one.status == 0);
  REQUIRE(two.status == 0);
  CHECK(one.out.size() > 100000);
  CHECK(one.out == two.out);
  for (const std::string bad : {"0", "65", "two", "-1"}) {
    const auto r = springlab({"list"}, "SPRINGLAB_THREADS=" + bad + " ");
    CHECK(r.status == 2);
    CHECK(r.err == "springlab: SPRINGLAB_THREADS: must be a whole number from 1 to 64, not \"" +
                       bad + "\"\n");
  }
}

TEST_CASE("a stable run prints no warning") {
  const auto energy = tempDir() / "stable_energy.csv";
  const auto r = springlab(
      {"run", "cloth_32", "--duration", "1.1", "--every", "100", "--energy", energy.string()});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("warning") == std::string::npos);
}

TEST_CASE(
    "the issue's case: 4 000 000 bodies at 0.1 ms steps for 1e9 s is refused before it starts") {
  // a pendulum of 4 000 000 links holds only its arrays (32 MB each), so the request is tried at
  // its full size; a mass-spring system counts its particles and springs the same way
  scene::SceneDef def;
  def.kind = sim::SystemKind::Pendulum;
  def.pendulum.lengths.assign(4'000'000, 1e-3);
  CHECK(cli::workProblem(def, 1e9 / 1e-4) ==
        "1e+13 steps of 4000000 links is 4e+19 element-steps, more than the 1e+15 a run may do (at "
        "least 1268 years at 1e+09 a second)");
  // the bound itself: 1e15 element-steps pass, a step more does not
  CHECK_FALSE(cli::workProblem(def, 2.5e8));
  CHECK(cli::workProblem(def, 2.5e8 + 1));
}

TEST_CASE("a method that factors a matrix refuses more than 1 000 000 particles") {
  scene::SceneDef def;
  def.kind = sim::SystemKind::MassSpring;
  def.mass_spring.particles.resize(1'000'000);
  for (sim::Method m : {sim::Method::ImplicitEuler, sim::Method::TimeFe, sim::Method::Projective})
    CHECK_FALSE(cli::solverProblem(def, m));
  def.mass_spring.particles.resize(1'000'001);
  CHECK(cli::solverProblem(def, sim::Method::ImplicitEuler) ==
        "implicit_euler factors a sparse matrix: 1000001 particles, more than the 1000000 it may "
        "take (about 11 KB of memory each)");
  CHECK(cli::solverProblem(def, sim::Method::TimeFe));
  CHECK(cli::solverProblem(def, sim::Method::Projective));
  // the explicit methods and xpbd hold no matrix
  for (sim::Method m : {sim::Method::Rk4, sim::Method::Verlet, sim::Method::Xpbd})
    CHECK_FALSE(cli::solverProblem(def, m));
}

// ASan reserves terabytes of shadow memory, so its builds cannot run under `ulimit -v`, and its
// allocator reports a failed allocation itself (scripts/test.sh SANITIZE=1)
#ifdef __SANITIZE_ADDRESS__
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

TEST_CASE("an allocation that fails is one line and exit 1, never an abort" *
          doctest::skip(kAddressSanitizer)) {
  // a cloth of a million particles within the scene's limits, under 600 MB of address space:
  // the small scene runs there, the large one runs out while it is built
  const auto big = writeFile("million_cloth.json", R"({"integrator": "symplectic_euler",
    "system": {"type": "mass_spring", "generators": [{"kind": "cloth", "nx": 1001, "ny": 1000,
    "width": 1, "height": 1, "mass": 1, "stiffness": 100}]}})");
  const std::string limit = "ulimit -v 600000; ";
  CHECK(springlab({"run", "cloth_16", "--duration", "0.01"}, limit).status == 0);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", big.string(), "--duration", "1e-4"},
        std::vector<std::string>{"info", big.string(), "--seconds", "1e-4"}}) {
    const auto r = springlab(args, limit);
    CHECK(r.status == 1);
    CHECK(r.err == "springlab: out of memory\n");
  }
}

TEST_CASE("a scene from a FIFO that no one writes to is an empty file at once, not waited on") {
  const auto fifo = tempDir() / "scene_fifo.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const char* command : {"run", "info"}) {
    const auto r = springlab({command, fifo.string()}, "timeout 20 ");
    CHECK(r.status == 2);
    CHECK(r.err == fifo.string() +
                       ": line 1, column 1: invalid JSON: syntax error while parsing value - "
                       "unexpected end of input; expected '[', '{', or a literal\n");
  }
  fs::remove(fifo);
}

TEST_CASE("a scene from a pipe is read: springlab run <(generate_scene)") {
  const std::string scene = std::string(SPRINGLAB_SOURCE_DIR) + "/assets/scenes/cloth_16.json";
  const std::string fromFile = springlab({"run", scene, "--duration", "0.01", "--out", "-"}).out;
  REQUIRE(fromFile.size() > 1000);  // the trajectory, row by row
  // bash's process substitution hands springlab a pipe as /dev/fd/N
  const auto r = springlab({"run", "/dev/fd/3", "--duration", "0.01", "--out", "-"},
                           "bash -c 'exec 3< <(cat \"" + scene + "\"); exec \"$0\" \"$@\"' ");
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out == fromFile);
}

TEST_CASE("a run of more than 1e9 steps says how many before it starts") {
  const auto scene = writeFile("tiny_dt.json", R"({
    "dt": 1e-12, "duration": 1,
    "system": {"type": "mass_spring",
               "particles": [{"position": [0, 0], "fixed": true}, {"position": [1, 0], "mass": 1}],
               "springs": [{"a": 0, "b": 1, "stiffness": 1}]}})");
  const auto r = springlab({"run", scene.string(), "--duration", "2"}, "timeout 2 ");
  CHECK(r.status == 124);  // timeout ran out; springlab, on its SIGTERM, stopped between steps
  const auto err = lines(r.err);
  REQUIRE(err.size() == 2);
  CHECK(err[0] == "springlab run: 2000000000000 steps (duration / dt); this will take a while");
  CHECK(err[1].rfind("springlab run: interrupted at t = ", 0) == 0);
  // 1e9 steps exactly is not "more than"
  const auto small = springlab({"run", scene.string(), "--duration", "1e-9"});
  CHECK(small.status == 0);
  CHECK(small.err.empty());
}

TEST_CASE("bench refuses a pendulum scene in its scenes table and its stiff-cloth swings") {
  for (const char* option : {"--scenes", "--stiff"}) {
    CAPTURE(option);
    const auto r =
        springlab({"bench", "--suite", option == std::string("--scenes") ? "cloth" : "stiff",
                   option, "cloth_16,rope_100"});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "springlab bench: " + std::string(option) +
                       ": rope_100 is a pendulum; the scenes table and the stiff-cloth swings take "
                       "mass-spring systems (the pendulum table: --suite pendulum)\n");
  }
}
