// vbd (docs/integrators.md#vbd): its sweeps lower backward Euler's incremental potential G, their
// fixed point is backward Euler's step (the one projective converges to), the step gives the same
// bits whatever the thread count, and a stiff cloth at a large step stays whole.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "scene/build.hpp"
#include "scene/generators.hpp"
#include "sim/energy.hpp"
#include "sim/forces.hpp"
#include "sim/projective.hpp"
#include "sim/vbd.hpp"
#include "test_sim_helpers.hpp"

using sim::Vec3;

namespace {

// G at x' for the step from `in` of h, written from the contract (§3, backward_euler): the
// inertia (m / 2 h^2) |x' - x - h v - h^2 g|^2, the drag's damping potential (c / 2 h) |x' - x -
// h w|^2 and the springs' (1/2) k (r - l)^2 (no dashpots: they have no potential).
double incrementalPotential(const sim::MassSpringModel& m, const sim::State& in,
                            const Eigen::VectorXd& x1, double h) {
  double g = 0.0;
  for (int i = 0; i < m.particles(); ++i) {
    if (m.fixed(i)) continue;
    const Vec3 x = in.x.segment<3>(3 * i), q = x1.segment<3>(3 * i);
    const Vec3 inertial = q - x - h * in.v.segment<3>(3 * i) - h * h * m.gravity;
    g += m.mass[i] / (2 * h * h) * inertial.squaredNorm();
    g += m.drag / (2 * h) * (q - x - h * m.wind).squaredNorm();
  }
  for (int s = 0; s < m.springs(); ++s) {
    const double r = (x1.segment<3>(3 * m.spring_b[s]) - x1.segment<3>(3 * m.spring_a[s])).norm();
    g += 0.5 * m.stiffness[s] * (r - m.rest_length[s]) * (r - m.rest_length[s]);
  }
  return g;
}

// Backward Euler's equation at x' (contract §3): |M (x' - x - h v - h^2 g) / h^2 - F(x', v')| over
// the free coordinates, F the springs', dashpots' and drag's forces at v' = (x' - x) / h, over
// the weights sum m |g| + 1 N.
double backwardEulerResidual(const sim::MassSpringModel& m, const sim::State& in,
                             const sim::State& out, double h) {
  Eigen::VectorXd f, dissipative;
  sim::elasticForce(m, out.x, f);
  sim::dissipativeForce(m, out.x, (out.x - in.x) / h, dissipative);
  double sum = 0.0, weights = 1.0;
  for (int i = 0; i < m.particles(); ++i) {
    if (m.fixed(i)) continue;
    const Vec3 q = out.x.segment<3>(3 * i), x = in.x.segment<3>(3 * i);
    const Vec3 r = m.mass[i] * (q - x - h * in.v.segment<3>(3 * i) - h * h * m.gravity) / (h * h) -
                   f.segment<3>(3 * i) - dissipative.segment<3>(3 * i);
    sum += r.squaredNorm(), weights += m.mass[i] * m.gravity.norm();
  }
  return std::sqrt(sum) / weights;
}

// One step of h from `in` by a fresh solver at `iterations` sweeps.
sim::State vbdStep(sim::MassSpringModel& m, const sim::State& in, double h, int iterations,
                   double* residual = nullptr) {
  m.iterations = iterations;
  sim::VbdSolver solver;
  sim::State out;
  double dissipated = 0.0, external = 0.0;
  solver.step(m, in, h, out, dissipated, external);
  if (residual) *residual = solver.lastResidual();
  return out;
}

constexpr double kFrame = 1.0 / 60;

}  // namespace

TEST_CASE("sim: each vbd sweep lowers the incremental potential") {
  auto built = scene::build(simtest::windyCloth(12, 2000.0));
  sim::MassSpringModel& m = *built.massSpring();
  const sim::State in = simtest::disturbed(m, built.state);
  // the sweeps are deterministic from the same guess, so k + 1 sweeps are one more after k
  std::vector<double> g;
  for (int sweeps = 1; sweeps <= 12; ++sweeps)
    g.push_back(incrementalPotential(m, in, vbdStep(m, in, kFrame, sweeps).x, kFrame));
  for (size_t k = 0; k + 1 < g.size(); ++k) {
    CAPTURE(k);
    CHECK(g[k + 1] <= g[k]);
  }
  CHECK(g.back() < g.front());
}

TEST_CASE("sim: vbd's sweeps converge to backward Euler's step, projective's fixed point") {
  auto built = scene::build(simtest::windyCloth(12, 2000.0, 0.05));  // dashpots too
  sim::MassSpringModel& m = *built.massSpring();
  const sim::State in = simtest::disturbed(m, built.state);
  std::vector<double> residual, reported;
  for (const int sweeps : {1, 8, 64, 512, 4000}) {
    double own = 0.0;
    residual.push_back(backwardEulerResidual(m, in, vbdStep(m, in, kFrame, sweeps, &own), kFrame));
    reported.push_back(own);
  }
  for (size_t k = 0; k + 1 < residual.size(); ++k) {
    CAPTURE(residual[k]);
    CAPTURE(residual[k + 1]);
    CHECK(residual[k + 1] < 0.5 * residual[k]);
    // the solver's own residual is the same measure
    CHECK(reported[k] == doctest::Approx(residual[k]).epsilon(1e-6));
  }
  CHECK(residual.back() < 1e-10);
  // without drag (projective takes it otherwise) and dashpots (which slow projective's
  // convergence) the two converged steps are the same step
  m.drag = 0.0;
  m.damping.setZero();
  ++m.damping_revision;
  const sim::State vbd = vbdStep(m, in, kFrame, 4000);
  m.iterations = 16384;  // projective converges linearly, more slowly at this k
  sim::ProjectiveSolver projective;
  sim::State pd;
  double dissipated = 0.0, external = 0.0;
  REQUIRE(projective.step(m, in, kFrame, pd, dissipated, external));
  CHECK(backwardEulerResidual(m, in, pd, kFrame) < 1e-10);
  CHECK((vbd.x - pd.x).cwiseAbs().maxCoeff() < 1e-9);
}

TEST_CASE("sim: vbd's step is the same bits on one thread or two") {
  // 32 x 32: past kMinSpringsPerThread, so that two threads share each colour
  auto built = scene::build(simtest::windyCloth(32, 5000.0, 0.01));
  sim::MassSpringModel& m = *built.massSpring();
  REQUIRE(m.springs() >= sim::kMinSpringsPerThread);
  const sim::State in = simtest::disturbed(m, built.state);
  m.iterations = sim::kAutomatic;
  simtest::checkSameBitsOnEveryPath([&](sim::State& out) {
    sim::Stepper st(m, in, sim::Method::Vbd, kFrame);
    for (int i = 0; i < 5; ++i)
      if (st.advance()) return false;
    out = st.state();
    return true;
  });
}

TEST_CASE("sim: vbd's residual falls with the sweeps and its automatic setting stops on it") {
  auto built = scene::build(simtest::windyCloth(16, 1e4));
  sim::MassSpringModel& m = *built.massSpring();
  const sim::State in = simtest::disturbed(m, built.state);
  double previous = INFINITY;
  for (const int sweeps : {1, 4, 16, 64}) {
    double residual = 0.0;
    vbdStep(m, in, kFrame, sweeps, &residual);
    CAPTURE(sweeps);
    CHECK(residual < previous);
    previous = residual;
  }
  m.iterations = sim::kAutomatic, m.substeps = sim::kAutomatic;
  sim::Stepper st(m, in, sim::Method::Vbd, kFrame);
  for (int i = 0; i < 20; ++i) {
    REQUIRE_FALSE(st.advance());
    const auto used = st.settingsUsed();
    CHECK(used.substeps == 1);
    CHECK(used.iterations >= 1);
    CHECK(used.iterations <= sim::kVbdMaxIterations);
    // stopped on the tolerance, or out of sweeps
    CHECK((st.lastResidual() <= sim::kVbdTolerance || used.iterations == sim::kVbdMaxIterations));
  }
}

TEST_CASE("sim: vbd holds a very stiff cloth at a large step without tearing it") {
  // k = 1e7 N/m at h = 1/30 s: h omega_max in the thousands; the automatic sweeps
  auto built = scene::build(simtest::fallingCloth(16, 1e7, 0.0, 0.0));
  sim::MassSpringModel& m = *built.massSpring();
  m.iterations = sim::kAutomatic;
  sim::Stepper st(m, built.state, sim::Method::Vbd, 2 * kFrame);
  double worst = 0.0;
  for (int i = 0; i < 90; ++i) {
    REQUIRE_FALSE(st.advance());
    worst = std::max(worst, simtest::maxStructuralStretch(m, st.state(), 1.0 / 15));
  }
  MESSAGE("largest stretch over 3 s: " << worst);
  CHECK(worst < 2.0);  // the runaway rule tears at 10
}

TEST_CASE("sim: more vbd sweeps bring a stiff cloth's stretch towards the converged one") {
  // the automatic settings' cloth (tests/test_sim_auto_settings.cpp): 24 x 24, k = 2e4 N/m
  scene::SceneDef def;
  scene::ClothParams cp;
  cp.nx = cp.ny = 24;
  cp.mass = 0.3;
  cp.stiffness = 2e4;
  cp.bending_stiffness = 2e3;
  cp.horizontal = true;
  scene::addCloth(def.mass_spring, cp);
  const double spacing = 1.0 / 23.0;
  const double reference =
      simtest::worstStretch(def, sim::Method::Verlet, 1, 1, kFrame / 400, 400 * 60, spacing);
  std::vector<double> error;
  for (const int sweeps : {1, sim::kAutomatic, 50, 200}) {
    const double stretch =
        simtest::worstStretch(def, sim::Method::Vbd, 1, sweeps, kFrame, 60, spacing);
    MESSAGE("largest stretch - 1 over 1 s at 1 x " << sweeps << ": " << stretch
                                                   << " (verlet converged " << reference << ")");
    error.push_back(std::abs(stretch - reference));
  }
  for (size_t k = 0; k + 1 < error.size(); ++k) CHECK(error[k + 1] < error[k]);
}
