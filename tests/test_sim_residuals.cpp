// Residuals (docs/integrators.md#residuals): every iterative method says how far its step is from
// its own converged answer, `run` prints the largest of the run, and projective's automatic
// iterations stop on it (docs/integrators.md#automatic-settings).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "scene/build.hpp"
#include "scene/generators.hpp"
#include "scene/load.hpp"
#include "sim/forces.hpp"
#include "sim/projective.hpp"
#include "sim/residual.hpp"
#include "sim/stepper.hpp"
#include "util.hpp"

namespace {

constexpr double kFrame = 1.0 / 60.0;

// The number after "= " on the summary line that starts with `head`, or NaN.
double summaryNumber(const std::string& out, const std::string& head) {
  for (const std::string& l : testutil::lines(out))
    if (l.rfind(head, 0) == 0) {
      const size_t at = l.find("= ");
      return at == std::string::npos ? NAN : std::strtod(l.c_str() + at + 2, nullptr);
    }
  return NAN;
}

const std::string kGradientLine = "residual  max ‖∇G‖ / weights = ";

// A disc of cloth in the x-z plane at height 1 m, pinned at its centre (vertex 0): `rings`
// rings of `segments` vertices out to `radius`, fan-triangulated, as a user's OBJ would be.
std::string discScene(const std::string& name, int rings, int segments, double radius, double mass,
                      double stiffness) {
  std::string obj = "v 0 0 0\n";
  char line[96];
  for (int r = 1; r <= rings; ++r)
    for (int s = 0; s < segments; ++s) {
      const double a = 2.0 * M_PI * s / segments, l = radius * r / rings;
      std::snprintf(line, sizeof line, "v %.12g 0 %.12g\n", l * std::cos(a), l * std::sin(a));
      obj += line;
    }
  const auto at = [&](int r, int s) { return 2 + (r - 1) * segments + s % segments; };  // 1-based
  for (int s = 0; s < segments; ++s) {
    std::snprintf(line, sizeof line, "f 1 %d %d\n", at(1, s), at(1, s + 1));
    obj += line;
  }
  for (int r = 1; r < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      std::snprintf(line, sizeof line, "f %d %d %d\nf %d %d %d\n", at(r, s), at(r + 1, s),
                    at(r + 1, s + 1), at(r, s), at(r + 1, s + 1), at(r, s + 1));
      obj += line;
    }
  testutil::writeFile(name + ".obj", obj);
  char json[512];
  std::snprintf(json, sizeof json,
                "{\"name\": \"%s\", \"dt\": %.17g, \"system\": {\"type\": \"mass_spring\", "
                "\"drag\": 0.02, \"generators\": [{\"kind\": \"mesh\", \"file\": \"%s.obj\", "
                "\"mass\": %g, \"stiffness\": %g, \"translate\": [0, 1, 0], \"pin\": [0]}]}}",
                name.c_str(), kFrame, name.c_str(), mass, stiffness);
  return testutil::writeFile(name + ".json", json).string();
}

// The mean height of the disc's rim (its last `segments` particles) after `seconds` of projective
// at the given iterations (0: automatic), and the largest residual on the way.
struct RimRun {
  double height = 0.0, worst_residual = 0.0;
};
RimRun rimHeight(const scene::Built& b, int segments, int iterations, double seconds) {
  sim::MassSpringModel model = *b.massSpring();
  model.iterations = iterations;
  sim::Stepper stepper(model, b.state, sim::Method::Projective, kFrame);
  RimRun run;
  const long steps = std::lround(seconds / kFrame);
  for (long k = 0; k < steps; ++k) {
    REQUIRE_FALSE(stepper.advance());
    run.worst_residual = std::max(run.worst_residual, stepper.lastResidual());
  }
  const int n = model.particles();
  for (int i = n - segments; i < n; ++i) run.height += stepper.state().x[3 * i + 1] / segments;
  return run;
}

}  // namespace

TEST_CASE(
    "run prints a residual for every iterative method, and projective at 200 iterations "
    "prints a smaller one than at 2") {
  const auto run = [](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run", "cloth_16", "--duration", "0.5"};
    args.insert(args.end(), extra.begin(), extra.end());
    const testutil::RunResult r = testutil::springlab(args);
    REQUIRE(r.status == 0);
    return r.out;
  };
  const double two =
      summaryNumber(run({"--integrator", "projective", "--at", "0:iterations=2"}), kGradientLine);
  const double many =
      summaryNumber(run({"--integrator", "projective", "--at", "0:iterations=200"}), kGradientLine);
  MESSAGE("projective on cloth_16: largest residual " << two << " at 2 iterations, " << many
                                                      << " at 200");
  CHECK(two > 0.0);
  CHECK(many < two / 10.0);  // 200 iterations converge it far closer
  const double xpbd = summaryNumber(run({"--integrator", "xpbd"}), kGradientLine);
  CHECK(xpbd > 0.0);
  CHECK(std::isfinite(xpbd));
  // a direct solve: round-off
  const double timeFe =
      summaryNumber(run({"--integrator", "time_fe"}), "residual  max ‖A x − b‖ / ‖b‖ = ");
  CHECK(timeFe >= 0.0);
  CHECK(timeFe < 1e-12);
  // an explicit method solves nothing: no line
  CHECK(run({"--integrator", "rk4"}).find("residual") == std::string::npos);
  const testutil::RunResult midpoint = testutil::springlab(
      {"run", "seed004_double_pendulum", "--integrator", "implicit_midpoint", "--duration", "1"});
  REQUIRE(midpoint.status == 0);
  const double newton = summaryNumber(midpoint.out, "residual  max Newton ‖G‖ / scale = ");
  CHECK(newton >= 0.0);
  CHECK(newton <= 1e-12);  // the bound docs/integrators.md#implicit_midpoint promises
}

namespace {

// A small net of springs, swinging and falling (no drag, dashpots, mouse or colliders): the
// incremental potential's gradient at the step's result q from x, v over h, written out here,
//   grad G = M (q - y) / h^2 - f_el(q),  y = x + h (v + h g),
// over the free particles, over the weights sum m |g| + 1 N.
scene::Built smallNet() {
  scene::SceneDef def;
  scene::ClothParams cp;
  cp.nx = cp.ny = 6;
  cp.mass = 0.2;
  cp.stiffness = 500;
  scene::addCloth(def.mass_spring, cp);
  def.dt = kFrame;
  return scene::build(def);
}

double handResidual(const sim::MassSpringModel& m, const sim::State& from, const sim::State& to,
                    double h) {
  Eigen::VectorXd force;
  sim::elasticForce(m, to.x, force);
  double sum = 0.0, mass = 0.0;
  for (int i = 0; i < m.particles(); ++i) {
    if (m.fixed(i)) continue;
    mass += m.mass[i];
    for (int d = 0; d < 3; ++d) {
      const int j = 3 * i + d;
      const double y = from.x[j] + h * (from.v[j] + h * m.gravity[d]);
      const double g = m.mass[i] * (to.x[j] - y) / (h * h) - force[j];
      sum += g * g;
    }
  }
  return std::sqrt(sum) / (mass * m.gravity.norm() + 1.0);
}

}  // namespace

TEST_CASE("projective's and xpbd's residual is |grad G| / weights at the step's result") {
  const scene::Built b = smallNet();
  for (const sim::Method method : {sim::Method::Projective, sim::Method::Xpbd}) {
    sim::MassSpringModel m = *b.massSpring();
    m.substeps = 1, m.iterations = 2;
    m.drag = 0.0;
    sim::Stepper stepper(m, b.state, method, kFrame);
    CHECK(std::isnan(stepper.lastResidual()));  // before the first step
    for (int k = 0; k < 5; ++k) {
      const sim::State from = stepper.state();
      REQUIRE_FALSE(stepper.advance());
      const double hand = handResidual(m, from, stepper.state(), kFrame);
      INFO(sim::info(method).name << " step " << k << ": " << stepper.lastResidual() << " by hand "
                                  << hand);
      CHECK(hand > 1e-6);  // not converged at 2 iterations: a residual to compare
      CHECK(stepper.lastResidual() == doctest::Approx(hand).epsilon(1e-9));
    }
  }
  // methods that solve nothing have none
  sim::Stepper rk4(*b.massSpring(), b.state, sim::Method::Rk4, kFrame);
  REQUIRE_FALSE(rk4.advance());
  CHECK(std::isnan(rk4.lastResidual()));
}

TEST_CASE(
    "projective's automatic iterations stop on the residual, not on a cloth that has not "
    "moved") {
  // the falling disc of issue 42: the former rule (the increment within 3 % of the substep's
  // motion) stopped at 2 iterations with the residual about 3 times the weights
  const scene::Built disc =
      scene::build(scene::loadSceneArg(discScene("disc_auto", 12, 40, 0.6, 0.3, 3000)));
  sim::MassSpringModel m = *disc.massSpring();
  REQUIRE(m.iterations == sim::kAutomatic);
  sim::Stepper stepper(m, disc.state, sim::Method::Projective, kFrame);
  for (int k = 0; k < 30; ++k) {
    REQUIRE_FALSE(stepper.advance());
    const int used = stepper.settingsUsed().iterations;
    // stopped at the tolerance, or spent the budget
    CHECK((stepper.lastResidual() <= sim::kAutoResidual || used == sim::kAutoMaxIterations));
    CHECK(used >= sim::kAutoMinIterations);
    if (stepper.lastResidual() > sim::kAutoResidual) CHECK(used == sim::kAutoMaxIterations);
  }
  // a cloth at rest where it hangs: the residual is met at once, after the fewest iterations
  scene::SceneDef still;
  scene::ClothParams cp;
  cp.nx = cp.ny = 8;
  cp.mass = 0.1;
  cp.stiffness = 2000;
  scene::addCloth(still.mass_spring, cp);
  still.parameters.set(sim::Parameter::Gravity, sim::Vec3(0, 0, 0));
  const scene::Built rest = scene::build(still);
  sim::Stepper quiet(*rest.massSpring(), rest.state, sim::Method::Projective, kFrame);
  REQUIRE_FALSE(quiet.advance());
  CHECK(quiet.lastResidual() <= sim::kAutoResidual);
  CHECK(quiet.settingsUsed().iterations == sim::kAutoMinIterations);
}

TEST_CASE("a centre-pinned disc: projective at its defaults, and at many iterations") {
  // issue 42's disc (481 vertices, 0.6 m, k 3000, drag 0.02, 1/60 s) and a second one of
  // another size, mesh and stiffness; figures in docs/integrators.md#automatic-settings
  struct Disc {
    const char* name;
    int rings, segments;
    double radius, mass, stiffness;
  };
  for (const Disc d :
       {Disc{"disc_a", 12, 40, 0.6, 0.3, 3000}, Disc{"disc_b", 9, 28, 0.4, 0.2, 6000}}) {
    const scene::Built b = scene::build(
        scene::loadSceneArg(discScene(d.name, d.rings, d.segments, d.radius, d.mass, d.stiffness)));
    const RimRun automatic = rimHeight(b, d.segments, sim::kAutomatic, 0.5);
    const RimRun many = rimHeight(b, d.segments, 300, 0.5);
    MESSAGE(std::string(d.name) << ": rim at 0.5 s " << automatic.height
                                << " (automatic; largest residual " << automatic.worst_residual
                                << "), " << many.height << " (300 iterations; largest residual "
                                << many.worst_residual << ")");
    // held up by the pin and below it; more iterations lower the residual
    CHECK(automatic.height < 0.99);  // it fell
    CHECK(many.worst_residual < automatic.worst_residual);
  }
}
