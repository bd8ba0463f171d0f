// A user's own methods (docs/integrators.md#your-own-method): method files' errors (exact
// messages), the built-in rk4, verlet and symplectic_euler against their files bit for bit, the
// orders the files reach on spring networks and pendulums, the stability boundaries against
// closed forms and against R(z) computed directly, and info's dt_limit from them.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "lab/order.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "scene/method_file.hpp"
#include "sim/method_facts.hpp"
#include "util.hpp"

using namespace testutil;

namespace {

std::string methodPath(const std::string& file) {
  return std::string(SPRINGLAB_SOURCE_DIR) + "/assets/methods/" + file;
}

sim::Method load(const std::string& path) {
  const auto m = scene::loadMethodFile(path);
  REQUIRE_MESSAGE(m.ok(), m.problem());
  return *m;
}

std::string problem(const std::string& text) {
  const auto m = scene::parseMethod(text, "m.json");
  REQUIRE_FALSE(m.ok());
  return m.problem();
}

// Steps the scene with both methods and requires the same bits at every step.
void requireSameSteps(const std::string& sceneName, sim::Method builtin, sim::Method file,
                      int steps) {
  const scene::SceneDef def = scene::loadSceneArg(sceneName);
  const scene::Built built = scene::build(def);
  auto a = built.stepper(builtin, def.dt), b = built.stepper(file, def.dt);
  for (int k = 0; k < steps; ++k) {
    REQUIRE_FALSE(a->advance());
    REQUIRE_FALSE(b->advance());
    REQUIRE(a->state().x == b->state().x);
    REQUIRE(a->state().v == b->state().v);
  }
}

double measuredOrder(const std::string& sceneName, sim::Method m, double h, double duration) {
  const scene::SceneDef def = scene::loadSceneArg(sceneName);
  const std::vector<sim::Method> methods = {m};
  const auto r = lab::measureOrders(def, methods, h, duration);
  INFO(r[0].note);
  return r[0].order;
}

}  // namespace

TEST_CASE("a bad method file is one line naming the file and the key") {
  const std::string rk = R"({"name": "m", "type": "runge_kutta", )";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"name": "m", "type": "adams"})",
       "m.json: type: must be \"runge_kutta\" or \"splitting\", not \"adams\""},
      {rk + R"("a": [[0]], "b": [1], "order": 1})",
       "m.json: order: unknown key (allowed here: name, type, a, b, c, stages)"},
      {rk + R"("a": [[0]], "b": [1], "stages": []})",
       "m.json: stages: unknown key (allowed here: name, type, a, b, c)"},
      {rk + R"("a": [[0, 0], [1]], "b": [0.5, 0.5]})",
       "m.json: a[1]: has 1 numbers; a has 2 stages, so each row must have 2 (ragged sizes)"},
      {rk + R"("a": [[0, 0], [1, 0]], "b": [1]})", "m.json: b: has 1 weights; a has 2 stages"},
      {rk + R"("a": [[0, 0], [1, 0]], "b": [0.5, "half"]})",
       "m.json: b[1]: must be a number, not a string"},
      {rk + R"("a": [[0, 0], [1, 0]], "b": [0.5, 0.4]})",
       "m.json: b: the weights sum to 0.9, not 1 (an inconsistent method)"},
      {rk + R"("a": [[0, 0.5], [0.5, 0]], "b": [0.5, 0.5]})",
       "m.json: a[0][1]: is above the diagonal: a full (fully implicit) a is not supported, only "
       "explicit (strictly lower triangular) and diagonally implicit (lower triangular) ones"},
      {rk + R"("a": [[0, 0], [1, 0]], "b": [0.5, 0.5], "c": [0, 0.9]})",
       "m.json: c[1]: is 0.9 but the row sum of a[1] is 1 (they must agree to 1e-12)"},
      {R"({"name": "rk4", "type": "runge_kutta", "a": [[0]], "b": [1]})",
       "m.json: name: \"rk4\" is a built-in integrator's name"},
      {R"({"name": "a,b", "type": "runge_kutta", "a": [[0]], "b": [1]})",
       "m.json: name: may hold only letters, digits, '_', '-' and '.' (it labels columns and "
       "lanes), not \"a,b\""},
      {R"({"name": "s", "type": "splitting", "stages": [["drift", 1], ["jump", 1]]})",
       "m.json: stages[1][0]: must be \"drift\" or \"kick\""},
      {R"({"name": "s", "type": "splitting", "stages": [["drift", 1], ["kick", 0.5]]})",
       "m.json: stages: the kicks' coefficients sum to 0.5, not 1 (an inconsistent method)"},
      {R"({"name": "s", "type": "splitting", "stages": [["drift", 1], "kick"]})",
       "m.json: stages[1]: must be a pair [\"drift\", c] or [\"kick\", d]"},
      {R"({"name": "m", "type": "runge_kutta", "a": [[0]], "b": [1)",
       "m.json: line 1, column 57: invalid JSON: syntax error while parsing array - unexpected "
       "end of input; expected ']'"},
  };
  for (const auto& [text, message] : cases) {
    CAPTURE(text);
    CHECK(problem(text) == message);
  }
  // seventeen stages: one more than a method may have
  std::string big = R"({"name": "m", "type": "splitting", "stages": [["drift", 1])";
  for (int i = 0; i < 16; ++i) big += i == 0 ? R"(, ["kick", 1])" : R"(, ["kick", 0])";
  CHECK(problem(big + "]}") == "m.json: stages: has 17 stages, more than the 16 a method may have");
}

TEST_CASE("the command line refuses a bad method file with exit 2 and one line") {
  const auto bad = writeFile("bad_method.json", R"({"name": "m", "type": "runge_kutta",
      "a": [[0, 0], [1, 0]], "b": [0.5, 0.4]})");
  const auto r = springlab({"run", "seed002_harmonic_oscillator", "--integrator", bad.string()});
  CHECK(r.status == 2);
  CHECK(r.err == "springlab run: --integrator: " + bad.string() +
                     ": b: the weights sum to 0.9, not 1 (an inconsistent method)\n");
  CHECK(r.out.empty());
  const auto missing =
      springlab({"compare", "seed002_harmonic_oscillator", "--lanes", "rk4,/nonexistent/m.json"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("/nonexistent/m.json: ") != std::string::npos);
  CHECK(missing.err.find('\n') == missing.err.size() - 1);
}

TEST_CASE("rk4, verlet and symplectic_euler equal their method files bit for bit") {
  const sim::Method rk4 = load(methodPath("rk4.json")), verlet = load(methodPath("verlet.json")),
                    symplectic = load(methodPath("symplectic_euler.json"));
  CHECK(sim::info(rk4).name == "rk4_tableau");
  for (const char* scene : {"seed000_spring_pendulum_10", "chain20_damped", "seed004_fig6b"}) {
    CAPTURE(scene);
    requireSameSteps(scene, sim::Method::Rk4, rk4, 200);
    requireSameSteps(scene, sim::Method::Verlet, verlet, 200);
    requireSameSteps(scene, sim::Method::SymplecticEuler, symplectic, 200);
  }
}

TEST_CASE("method files reach their orders on a spring network and on a pendulum") {
  // an undamped spring pendulum (seed 003) at h = 0.01 s, 0.005 s, 0.0025 s over 1 s
  const std::vector<std::pair<std::string, double>> springs = {
      {"heun.json", 2},        {"ralston3.json", 3},        {"ssprk3.json", 3},
      {"kutta_3_8.json", 4},   {"dormand_prince5.json", 5}, {"sdirk2.json", 2},
      {"forest_ruth.json", 4}, {"yoshida4.json", 4},        {"pefrl.json", 4}};
  for (const auto& [file, order] : springs) {
    CAPTURE(file);
    CHECK(measuredOrder("seed003_table1_case1", load(methodPath(file)), 0.01, 1.0) ==
          doctest::Approx(order).epsilon(0.2 / order));
  }
  // methods that are not shipped: Kutta's third order, the explicit midpoint rule and the
  // drift-kick-drift Strang splitting, on a spring chain and (the explicit ones) on a quadruple
  // pendulum at its own dt
  const auto kutta3 = writeFile("kutta3.json", R"({"name": "kutta3", "type": "runge_kutta",
      "a": [[0, 0, 0], [0.5, 0, 0], [-1, 2, 0]], "b": [0.16666666666666666, 0.6666666666666666,
      0.16666666666666666], "c": [0, 0.5, 1]})");
  const auto midpoint = writeFile("midpoint.json", R"({"name": "midpoint2", "type": "runge_kutta",
      "a": [[0, 0], [0.5, 0]], "b": [0, 1]})");
  const auto strang = writeFile("strang.json", R"({"name": "strang_dkd", "type": "splitting",
      "stages": [["drift", 0.5], ["kick", 1], ["drift", 0.5]]})");
  const sim::Method k3 = load(kutta3.string()), mid = load(midpoint.string()),
                    dkd = load(strang.string());
  CHECK(measuredOrder("seed000_spring_pendulum_10", k3, 0.002, 1.0) ==
        doctest::Approx(3.0).epsilon(0.2 / 3));
  CHECK(measuredOrder("seed000_spring_pendulum_10", mid, 0.002, 1.0) ==
        doctest::Approx(2.0).epsilon(0.2 / 2));
  CHECK(measuredOrder("seed003_table1_case1", dkd, 0.01, 1.0) ==
        doctest::Approx(2.0).epsilon(0.2 / 2));
  const double h = scene::loadSceneArg("seed004_fig6b").dt;
  CHECK(measuredOrder("seed004_fig6b", k3, h, 1.0) == doctest::Approx(3.0).epsilon(0.2 / 3));
  CHECK(measuredOrder("seed004_fig6b", mid, h, 1.0) == doctest::Approx(2.0).epsilon(0.2 / 2));
  CHECK(measuredOrder("seed004_fig6b", load(methodPath("kutta_3_8.json")), h, 1.0) ==
        doctest::Approx(4.0).epsilon(0.2 / 4));
}

TEST_CASE("the order conditions give each tableau's order, up to 5") {
  const std::vector<std::pair<std::string, int>> cases = {
      {"heun.json", 2}, {"ralston3.json", 3},        {"ssprk3.json", 3}, {"kutta_3_8.json", 4},
      {"rk4.json", 4},  {"dormand_prince5.json", 5}, {"sdirk2.json", 2}};
  for (const auto& [file, order] : cases) {
    CAPTURE(file);
    CHECK(sim::userFacts(load(methodPath(file)))->order == order);
  }
  // Kutta's third-order method (not shipped), and with its weights moved: orders 1 and 2
  const sim::Tableau a = {{0, 0, 0}, {0.5, 0, 0}, {-1, 2, 0}};
  CHECK(sim::orderFromConditions(a, {1.0 / 6, 2.0 / 3, 1.0 / 6}, {0, 0.5, 1}) == 3);
  CHECK(sim::orderFromConditions(a, {1, 0, 0}, {0, 0.5, 1}) == 1);
  CHECK(sim::orderFromConditions(a, {0.5, 0, 0.5}, {0, 0.5, 1}) == 2);
}

TEST_CASE("the stability boundaries match their closed forms and R(z) computed directly") {
  const sim::Tableau euler = {{0}}, rk3 = {{0, 0, 0}, {0.5, 0, 0}, {-1, 2, 0}};
  // forward Euler, R = 1 + z: unstable on the whole imaginary axis, -2 on the real one
  CHECK(*sim::imaginaryBoundary(euler, {1}) == 0.0);
  CHECK(*sim::negativeRealBoundary(euler, {1}) == doctest::Approx(2.0).epsilon(1e-9));
  // Kutta's RK3: |R(iy)|^2 = 1 - y^4/12 + y^6/36, so sqrt(3)
  CHECK(*sim::imaginaryBoundary(rk3, {1.0 / 6, 2.0 / 3, 1.0 / 6}) ==
        doctest::Approx(std::sqrt(3.0)).epsilon(1e-9));
  const sim::MethodFacts* rk4 = sim::userFacts(load(methodPath("rk4.json")));
  CHECK(*rk4->imaginary_axis == doctest::Approx(2.0 * std::sqrt(2.0)).epsilon(1e-9));
  CHECK(*rk4->negative_real_axis == doctest::Approx(2.785293563405282).epsilon(1e-9));
  // Heun: |R(iy)|^2 = 1 + y^4/4 > 1 at once; -2 on the real axis
  const sim::MethodFacts* heun = sim::userFacts(load(methodPath("heun.json")));
  CHECK(*heun->imaginary_axis == 0.0);
  CHECK(*heun->negative_real_axis == doctest::Approx(2.0).epsilon(1e-9));
  // SDIRK2 is L-stable: no boundary on either axis
  const sim::MethodFacts* sdirk = sim::userFacts(load(methodPath("sdirk2.json")));
  CHECK_FALSE(sdirk->imaginary_axis);
  CHECK_FALSE(sdirk->negative_real_axis);
  // every explicit file: |R| = 1 at its boundary by the direct (I - zA)^-1 solve, below 1 inside
  for (const char* file :
       {"ralston3.json", "ssprk3.json", "kutta_3_8.json", "dormand_prince5.json"}) {
    CAPTURE(file);
    const sim::MethodCoefficients* m = sim::userCoefficients(load(methodPath(file)));
    const sim::MethodFacts* f = sim::userFacts(load(methodPath(file)));
    const double y = *f->imaginary_axis, x = *f->negative_real_axis;
    CHECK(std::abs(sim::stabilityFunction(m->a, m->b, {0.0, y})) ==
          doctest::Approx(1.0).epsilon(1e-9));
    CHECK(std::abs(sim::stabilityFunction(m->a, m->b, {0.0, 0.99 * y})) < 1.0);
    CHECK(std::abs(sim::stabilityFunction(m->a, m->b, {0.0, 1.01 * y})) > 1.0);
    CHECK(std::abs(sim::stabilityFunction(m->a, m->b, {-x, 0.0})) ==
          doctest::Approx(1.0).epsilon(1e-9));
    CHECK(std::abs(sim::stabilityFunction(m->a, m->b, {-0.99 * x, 0.0})) < 1.0);
  }
  // splittings: verlet's propagator has trace 2 - theta^2, so its boundary is 2, as is the
  // symplectic Euler's
  const sim::MethodCoefficients* verlet = sim::userCoefficients(load(methodPath("verlet.json")));
  CHECK(sim::splittingTrace(verlet->stages, 0.7) == doctest::Approx(2.0 - 0.49));
  CHECK(*sim::userFacts(load(methodPath("verlet.json")))->imaginary_axis ==
        doctest::Approx(2.0).epsilon(1e-9));
  CHECK(*sim::userFacts(load(methodPath("symplectic_euler.json")))->imaginary_axis ==
        doctest::Approx(2.0).epsilon(1e-9));
}

TEST_CASE("info --integrators gives a method file's dt_limit: its boundary over omega_max") {
  const auto r =
      springlab({"info", "cloth_16", "--json", "--seconds", "0.2", "--integrators",
                 "rk4," + methodPath("rk4.json") + "," + methodPath("sdirk2.json") + "," +
                     methodPath("kutta_3_8.json") + "," + methodPath("forest_ruth.json")});
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const double omega = j.at("omega_max").get<double>();
  const auto& limits = j.at("dt_limit");
  CHECK(limits.size() == 5);
  CHECK(limits.at("rk4_tableau").get<double>() ==
        doctest::Approx(limits.at("rk4").get<double>()).epsilon(1e-12));
  CHECK(limits.at("sdirk2").is_null());
  CHECK(limits.at("kutta_3_8").get<double>() * omega ==
        doctest::Approx(*sim::userFacts(load(methodPath("kutta_3_8.json")))->imaginary_axis)
            .epsilon(1e-9));
  CHECK(limits.at("forest_ruth").get<double>() * omega ==
        doctest::Approx(*sim::userFacts(load(methodPath("forest_ruth.json")))->imaginary_axis)
            .epsilon(1e-9));
}

TEST_CASE("a method file is accepted wherever an integrator name is, and labelled by its name") {
  const std::string ralston = methodPath("ralston3.json");
  // compare's lanes and the CSV's integrator column
  const auto c = springlab({"compare", "seed003_table1_case1", "--lanes", "rk4," + ralston,
                            "--duration", "0.01", "--out", "-"});
  REQUIRE(c.status == 0);
  CHECK(c.out.find("\n0.01,1,ralston3,") != std::string::npos);
  // an event, and the user's method folder by name
  const fs::path config = tempDir() / "config";
  fs::create_directories(config / "springlab" / "methods");
  fs::copy_file(methodPath("pefrl.json"), config / "springlab" / "methods" / "pefrl.json",
                fs::copy_options::overwrite_existing);
  const auto e = springlab({"run", "seed003_table1_case1", "--duration", "0.1", "--at",
                            "0.05:integrator=pefrl", "--energy", "/dev/null"},
                           "XDG_CONFIG_HOME='" + config.string() + "' ");
  CHECK(e.status == 0);
  CHECK(e.err.empty());
  const auto unknown = springlab({"run", "seed003_table1_case1", "--integrator", "pefrl"},
                                 "XDG_CONFIG_HOME='" + (tempDir() / "none").string() + "' ");
  CHECK(unknown.status == 2);
  CHECK(unknown.err.rfind("springlab run: --integrator: unknown integrator \"pefrl\"", 0) == 0);
  // a scene's integrator, relative to the scene's folder; saved again by its absolute path
  const fs::path folder = tempDir() / "scene_with_method";
  fs::create_directories(folder / "m");
  fs::copy_file(ralston, folder / "m" / "ralston3.json", fs::copy_options::overwrite_existing);
  std::string text = readFile(std::string(SPRINGLAB_SOURCE_DIR) +
                              "/assets/scenes/seed002_harmonic_oscillator.json");
  const auto at = text.find("\"integrator\"");
  REQUIRE(at != std::string::npos);
  const auto end = text.find(',', at);
  text.replace(at, end - at, "\"integrator\": \"m/ralston3.json\"");
  std::ofstream(folder / "scene.json") << text;
  const auto run = springlab({"run", (folder / "scene.json").string(), "--duration", "0.01"});
  CHECK(run.status == 0);
  CHECK(run.out.find("integrator  ralston3, dt = ") != std::string::npos);
  const scene::SceneDef loaded = scene::loadFile((folder / "scene.json").string());
  CHECK(sim::info(loaded.integrator).name == "ralston3");
  CHECK(sim::methodReference(loaded.integrator) ==
        fs::absolute(folder / "m" / "ralston3.json").lexically_normal().string());
}

TEST_CASE("a diagonally implicit method's stages converge to the relative residual 1e-10") {
  const scene::SceneDef def = scene::loadSceneArg("seed000_planar_chain_drag");
  const scene::Built built = scene::build(def);
  auto sdirk = built.stepper(load(methodPath("sdirk2.json")), def.dt);
  auto heun = built.stepper(load(methodPath("heun.json")), def.dt);
  for (int k = 0; k < 50; ++k) {
    REQUIRE_FALSE(sdirk->advance());
    REQUIRE_FALSE(heun->advance());
    CHECK(sdirk->lastResidual() <= 1e-10);
    CHECK(std::isnan(heun->lastResidual()));  // it solves nothing
  }
  CHECK(sim::info(load(methodPath("sdirk2.json"))).residual == "Newton ‖M (V − V̂) − γ f‖ / scale");
}
