// projective (docs/integrators.md#projective): what its local-global iterations converge to, and
// its step giving the same bits whatever the thread count.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "scene/build.hpp"
#include "scene/generators.hpp"
#include "scene/load.hpp"
#include "sim/energy.hpp"
#include "sim/forces.hpp"
#include "sim/parallel.hpp"
#include "sim/projective.hpp"
#include "test_sim_helpers.hpp"

using sim::Vec3;

namespace {

// Backward Euler's residual at the step in -> out of h from the prediction y (docs/integrators.md
// #projective, written from there: the drag implicit in it), |M (x' - y) / h^2 - f_el(x') -
// F_grab(x') - F_dash(x', (x' - x) / h)| over the free coordinates, relative to |m g|.
double backwardEulerResidual(const sim::MassSpringModel& m, const sim::State& in,
                             const sim::State& out, double h) {
  Eigen::VectorXd f, dash;
  sim::elasticForce(m, out.x, f);
  sim::dissipativeForce(m, out.x, (out.x - in.x) / h, dash);
  double worst = 0.0, scale = 0.0;
  for (int i = 0; i < m.particles(); ++i) {
    if (m.fixed(i)) continue;
    const double mi = m.mass[i];
    const Vec3 vhat =
        (in.v.segment<3>(3 * i) + h * (m.gravity + m.drag * m.wind / mi)) / (1.0 + h * m.drag / mi);
    const Vec3 y = in.x.segment<3>(3 * i) + h * vhat;
    Vec3 r = mi * (out.x.segment<3>(3 * i) - y) / (h * h) - f.segment<3>(3 * i);
    if (i == m.grab) r -= m.grab_stiffness * (m.grab_target - out.x.segment<3>(3 * i));
    // the dashpots alone at x' and v' = (x' - x) / h: dissipativeForce less the drag
    const Vec3 v1 = (out.x.segment<3>(3 * i) - in.x.segment<3>(3 * i)) / h;
    r -= dash.segment<3>(3 * i) + m.drag * (v1 - m.wind);
    worst = std::max(worst, r.norm()), scale = std::max(scale, mi * m.gravity.norm());
  }
  return worst / scale;
}

// One step of h from `in` by a fresh solver at `iterations` (Chebyshev weights of rho): its
// backward-Euler residual and its ledger's work.
struct OneStep {
  double residual, dissipated, external;
};
OneStep stepOnce(sim::MassSpringModel& m, const sim::State& in, double h, int iterations,
                 double rho = sim::kChebyshevRho) {
  m.iterations = iterations;
  sim::ProjectiveSolver solver;
  solver.setChebyshevRho(rho);
  sim::State out;
  OneStep r{0.0, 0.0, 0.0};
  REQUIRE(solver.step(m, in, h, out, r.dissipated, r.external));
  r.residual = backwardEulerResidual(m, in, out, h);
  return r;
}

}  // namespace

TEST_CASE("sim: projective's step converges to backward Euler's from its prediction") {
  auto built = scene::build(simtest::windyCloth(12, 200.0));
  sim::MassSpringModel& m = *built.massSpring();
  const sim::State in = simtest::disturbed(m, built.state);
  const double h = 1.0 / 60;
  std::vector<double> residual;
  for (const int iterations : {1, 16, 256, 4096}) {
    const OneStep step = stepOnce(m, in, h, iterations);
    residual.push_back(step.residual);
    CHECK(step.dissipated > 0.0);  // the drag takes energy out
    CHECK(step.external == 0.0);   // no mouse spring
  }
  // linear convergence of the local-global iterations, Chebyshev-weighted (measured: 68, 6.0,
  // 0.027, 6e-13 times |m g|; without the weights 68, 8.9, 0.070, 6e-13), to round-off
  for (size_t i = 0; i + 1 < residual.size(); ++i) {
    CAPTURE(residual[i]);
    CAPTURE(residual[i + 1]);
    CHECK(residual[i + 1] < 0.2 * residual[i]);
  }
  CHECK(residual.back() < 1e-9);
}

TEST_CASE("sim: projective's Chebyshev weights lower the residual at a few iterations") {
  // the same step with and without the extrapolation (docs/integrators.md#projective): the same
  // first two iterates, then a smaller residual for the same work (measured on this cloth at 3,
  // 4, 5, 6 iterations: 0.67, 0.67, 0.76, 0.79 of the plain iterations')
  auto built = scene::build(simtest::windyCloth(12, 200.0));
  sim::MassSpringModel& m = *built.massSpring();
  const sim::State in = simtest::disturbed(m, built.state);
  const double h = 1.0 / 60;
  const auto residualAt = [&](int iterations, double rho) {
    return stepOnce(m, in, h, iterations, rho).residual;
  };
  for (const int iterations : {1, 2}) {
    CAPTURE(iterations);
    CHECK(residualAt(iterations, sim::kChebyshevRho) == residualAt(iterations, 0.0));
  }
  for (const int iterations : {3, 4, 5, 6}) {
    CAPTURE(iterations);
    CHECK(residualAt(iterations, sim::kChebyshevRho) < 0.85 * residualAt(iterations, 0.0));
  }
}

TEST_CASE("sim: projective takes the mouse spring implicitly, however stiff") {
  // the slider's stiffest mouse spring, 1e5 N/m, on a particle of 1/144 of 1 kg at 1/60 s:
  // h^2 k / m = 4e3, far past an explicit spring's limit of 4 (docs/integrators.md#projective)
  auto built = scene::build(simtest::windyCloth(12, 200.0));
  sim::MassSpringModel& m = *built.massSpring();
  const int grabbed = 6 * 12 + 6;
  m.grab = grabbed, m.grab_stiffness = 1e5;
  m.grab_target = built.state.x.segment<3>(3 * grabbed) + Vec3(0.1, 0.2, -0.1);
  const sim::State in = simtest::disturbed(m, built.state);
  const double h = 1.0 / 60;
  std::vector<double> residual;
  for (const int iterations : {1, 16, 256, 4096}) {
    const OneStep step = stepOnce(m, in, h, iterations);
    residual.push_back(step.residual);
    CHECK(step.external > 0.0);  // the mouse pulls the particle its way
  }
  // the step converges to backward Euler's with the mouse spring in it
  CAPTURE(residual[0]);
  CAPTURE(residual[1]);
  CAPTURE(residual[2]);
  CHECK(residual.back() < 1e-9);
  // and a second of it stays bounded and brings the particle to the target (at its 3 iterations)
  m.iterations = 3;
  sim::Stepper st(m, built.state, sim::Method::Projective, h);
  for (int s = 0; s < 60; ++s) REQUIRE_FALSE(st.advance());
  const double start = (built.state.x.segment<3>(3 * grabbed) - m.grab_target).norm();
  CHECK((st.state().x.segment<3>(3 * grabbed) - m.grab_target).norm() < 0.05 * start);
}

TEST_CASE("sim: projective's mouse spring on particle after particle keeps converging") {
  // each grabbed particle's response is kept for the factor; more than kLowRankColumns of them
  // are solved again rather than written past the columns there are
  auto built = scene::build(simtest::windyCloth(12, 200.0));
  sim::MassSpringModel& m = *built.massSpring();
  const sim::State in = simtest::disturbed(m, built.state);
  const double h = 1.0 / 60;
  m.grab_target = Vec3(0.3, -0.2, 0.4), m.grab_stiffness = 1e3;
  sim::ProjectiveSolver solver;
  sim::State out;
  double dissipated = 0.0, external = 0.0;
  std::vector<int> free;
  for (int i = 0; i < m.particles(); ++i)
    if (!m.fixed(i)) free.push_back(i);
  REQUIRE(free.size() > sim::kLowRankColumns + 8);
  for (int g = 0; g < sim::kLowRankColumns + 8; ++g) {
    m.grab = free[g], m.iterations = 1;
    REQUIRE(solver.step(m, in, h, out, dissipated, external));
  }
  // the responses it uses are the ones a fresh solver solves: the same step at 3 iterations
  m.iterations = 3;
  REQUIRE(solver.step(m, in, h, out, dissipated, external));
  sim::ProjectiveSolver fresh;
  sim::State expected;
  REQUIRE(fresh.step(m, in, h, expected, dissipated, external));
  CHECK((out.x - expected.x).norm() <= 1e-12 * expected.x.norm());
  m.iterations = 4096;
  REQUIRE(solver.step(m, in, h, out, dissipated, external));
  CHECK(backwardEulerResidual(m, in, out, h) < 1e-9);
}

TEST_CASE("sim: projective takes the dashpots implicitly, however strong") {
  // dashpots of c = 100 m / h: c h / m = 100, where explicit dashpots diverge near 1
  // (docs/integrators.md#projective)
  const double h = 1.0 / 60;
  scene::SceneDef def = simtest::windyCloth(12, 200.0);
  const double particle_mass = 1.0 / (12 * 12);  // the cloth generator's default 1 kg
  for (auto& spring : def.mass_spring.springs) spring.damping = 100.0 * particle_mass / h;
  auto built = scene::build(def);
  sim::MassSpringModel& m = *built.massSpring();
  REQUIRE(m.anyDashpot());
  const sim::State in = simtest::disturbed(m, built.state);
  std::vector<double> residual;
  for (const int iterations : {1, 16, 256, 16384}) {
    const OneStep step = stepOnce(m, in, h, iterations);
    residual.push_back(step.residual);
    CHECK(step.dissipated > 0.0);
  }
  // the step converges to backward Euler's with the dashpots in it (more slowly: the matrix damps
  // every direction, the dashpots only along their springs)
  CAPTURE(residual[3]);
  CAPTURE(residual[0]);
  CAPTURE(residual[1]);
  CAPTURE(residual[2]);
  CHECK(residual.back() < 1e-9);
  // and two seconds of it only lose energy (the dashpots and the drag; at 30 iterations: at 3
  // the unconverged fold stores spring energy for a while, dashpots or none)
  m.iterations = 30;
  sim::Stepper st(m, in, sim::Method::Projective, h);
  const double e0 = sim::energy(m, in).total();
  double highest = e0;
  for (int s = 0; s < 120; ++s) {
    REQUIRE_FALSE(st.advance());
    highest = std::max(highest, sim::energy(m, st.state()).total());
  }
  CHECK(highest == e0);
}

// A frictionless floor under the `below` free particles whose predictions y = x + h v^ are the
// lowest (drag: the prediction's, backwardEulerResidual's).
sim::Collider floorUnder(const sim::MassSpringModel& m, const sim::State& in, double h, int below) {
  std::vector<double> height;
  for (int i = 0; i < m.particles(); ++i)
    if (!m.fixed(i)) {
      const double mi = m.mass[i];
      const double vhat = (in.v[3 * i + 1] + h * (m.gravity.y() + m.drag * m.wind.y() / mi)) /
                          (1.0 + h * m.drag / mi);
      height.push_back(in.x[3 * i + 1] + h * vhat);
    }
  std::sort(height.begin(), height.end());
  sim::Collider floor;  // a plane, normal +y, friction 0
  floor.point = Vec3(0.0, 0.5 * (height[below - 1] + height[below]), 0.0);
  return floor;
}

TEST_CASE(
    "sim: projective's step with contacts converges to backward Euler's with a floor's push") {
  // Few contacts go into the matrix by the low-rank update, many by a refactorisation; either
  // way the fixed point is backward Euler's step with a contact force on the touching particles
  // alone, pushing them out of the floor and not along it (frictionless): the residual of the
  // equation without contacts is that force.
  auto built = scene::build(simtest::windyCloth(12, 200.0));
  sim::MassSpringModel& m = *built.massSpring();
  const sim::State in = simtest::disturbed(m, built.state);
  const double h = 1.0 / 60;
  for (const int below : {24, 60}) {  // fewer than kLowRankColumns, and more
    CAPTURE(below);
    m.colliders = {floorUnder(m, in, h, below)};
    const double floor = m.colliders[0].point.y();
    m.iterations = 4096;
    sim::ProjectiveSolver solver;
    sim::State out;
    double dissipated = 0.0, external = 0.0;
    REQUIRE(solver.step(m, in, h, out, dissipated, external));
    m.colliders.clear();  // the residual of backward Euler's equation without the floor
    Eigen::VectorXd f;
    sim::elasticForce(m, out.x, f);
    double along = 0.0, pushed = 0.0, off_floor = 0.0;
    int touching = 0;
    for (int i = 0; i < m.particles(); ++i) {
      if (m.fixed(i)) continue;
      const double mi = m.mass[i], g = mi * m.gravity.norm();
      const Vec3 vhat = (in.v.segment<3>(3 * i) + h * (m.gravity + m.drag * m.wind / mi)) /
                        (1.0 + h * m.drag / mi);
      const Vec3 r = mi * (out.x.segment<3>(3 * i) - in.x.segment<3>(3 * i) - h * vhat) / (h * h) -
                     f.segment<3>(3 * i);  // the drag is in the prediction v^
      along = std::max(along, std::hypot(r.x(), r.z()) / g);
      if (out.x[3 * i + 1] < floor) {
        ++touching;
        pushed = std::max(pushed, r.y() / g);
        CHECK(r.y() > 0.0);  // out of the floor
      } else {
        off_floor = std::max(off_floor, std::abs(r.y()) / g);
      }
    }
    CHECK(touching > 0);
    CHECK(touching <= below);
    CHECK(pushed > 0.1);      // the floor holds them up: a force of the order of their weight
    CHECK(along < 1e-9);      // and only along its normal
    CHECK(off_floor < 1e-9);  // on the touching particles alone
  }
}

TEST_CASE("sim: projective holds a stiff cloth to its rest lengths as the iterations grow") {
  // k so large that the springs are rods for backward Euler: the stretch left is the
  // unconverged iterations', which must shrink with more of them
  std::vector<double> stretch;
  for (const int iterations : {1, 4, 16, 64})
    stretch.push_back(simtest::worstStretch(simtest::windyCloth(12, 1e7), sim::Method::Projective,
                                            1, iterations, 1.0 / 60, 30, 1.0 / 11));
  simtest::checkStretchShrinks(stretch);
}

TEST_CASE("sim: projective's step is the same bit for bit on one thread and on two") {
  auto built = scene::build(simtest::windyCloth(48, 1e4));
  sim::MassSpringModel& m = *built.massSpring();
  REQUIRE(m.springs() >= sim::kMinSpringsPerThread);  // the rows and the solve on two threads
  m.substeps = 2, m.iterations = 3;
  m.grab = 300, m.grab_target = Vec3(0.3, -0.2, 0.4), m.grab_stiffness = 2.0;
  m.damping.setConstant(m.springs(), 0.01);  // explicit dashpots too
  ++m.damping_revision;
  const sim::State in = simtest::disturbed(m, built.state);
  m.colliders = {floorUnder(m, in, 1.0 / 60, 40)};  // contacts: a refactorisation, low-rank rows
  simtest::checkSameBitsOnEveryPath([&](sim::State& out) {
    sim::ProjectiveSolver solver;
    double dissipated = 0.0, external = 0.0;
    if (!solver.step(m, in, 1.0 / 60, out, dissipated, external)) return false;
    CHECK(dissipated > 0.0);
    CHECK(external != 0.0);
    return true;
  });
}
