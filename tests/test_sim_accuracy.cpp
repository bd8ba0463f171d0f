// Accuracy: the observed order of every mass-spring integrator by step halving, and a hanging
// spring-mass oscillator against its closed form.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "scene/build.hpp"
#include "scene/generators.hpp"
#include "test_sim_helpers.hpp"

using simtest::Vec3;

namespace {

// Full state (positions and velocities) after integrating to T with n steps.
Eigen::VectorXd finalState(const simtest::System& sys, sim::Method method, double T, long n) {
  const sim::State s = simtest::run(sys.mass_spring, sys.state, method, T / n, n);
  Eigen::VectorXd out(2 * s.x.size());
  out << s.x, s.v;
  return out;
}

}  // namespace

TEST_CASE("sim: observed order of accuracy by step halving on a 3-D network") {
  // Undamped, gravity on, non-planar; no drag or dashpots, so verlet is second order. Richardson
  // with h, h/2, h/4: the differences of successive solutions shrink by 2^p.
  const auto sys = simtest::network(Vec3(0.0, -9.81, 0.0));
  const double T = 1.0;
  for (const auto& integ : simtest::massSpringIntegrators()) {
    SUBCASE(std::string(integ.name).c_str()) {
      // coarsest step count: large enough to be asymptotic, small enough to stay above round-off
      // (rk4's differences at h/4 are ~3e-7, far above round-off)
      long n = 0;
      double expected = 0;
      switch (integ.method) {
        case sim::Method::Rk4:
          n = 200, expected = 4;
          break;
        case sim::Method::Verlet:
          n = 200, expected = 2;
          break;
        default:
          n = 1000, expected = 1;
          break;
      }
      const auto x1 = finalState(sys, integ.method, T, n);
      const auto x2 = finalState(sys, integ.method, T, 2 * n);
      const auto x4 = finalState(sys, integ.method, T, 4 * n);
      const double order = std::log2((x1 - x2).norm() / (x2 - x4).norm());
      MESSAGE(std::string(integ.name)
              << ": observed order " << order << " (h = " << T / n << ", differences "
              << (x1 - x2).norm() << ", " << (x2 - x4).norm() << ")");
      CHECK(std::abs(order - expected) <= 0.2);
      // the registry's advertised order is the one observed
      CHECK(sim::onKind(integ.method, sim::SystemKind::MassSpring).order ==
            static_cast<int>(expected));
    }
  }
}

TEST_CASE("sim: hanging spring-mass oscillator against y_eq + A cos(wt)") {
  // pivot at the origin, bob straight below; along the vertical the motion is linear while the
  // spring stays longer than zero: m y'' = -k (-y - r) - m g, so y_eq = -(r + m g / k)
  const double k = 40.0, m = 0.4, r = 0.5, g = 9.81, A = 0.05, T = 2.0;
  const double w = std::sqrt(k / m), yeq = -(r + m * g / k);

  scene::SceneDef def;
  def.parameters.set(sim::Parameter::Gravity, Vec3(0, -g, 0));
  scene::SpringPendulumParams p;
  p.pivot = Vec3::Zero();
  p.bob = Vec3(0, yeq + A, 0);
  p.mass = m, p.stiffness = k, p.rest_length = r;
  scene::addSpringPendulum(def.mass_spring, p);
  const auto built = scene::build(def);

  for (const auto& integ : simtest::massSpringIntegrators()) {
    SUBCASE(std::string(integ.name).c_str()) {
      // rk4 at h = 1e-3 must be within 1e-8 m; the others within A wT (wh)^p of their order p,
      // which a method one order lower would exceed by far
      const bool rk4 = integ.method == sim::Method::Rk4;
      const double h = rk4                                                                 ? 1e-3
                       : sim::onKind(integ.method, sim::SystemKind::MassSpring).order == 2 ? 1e-3
                                                                                           : 1e-4;
      const double tol =
          rk4 ? 1e-8
              : A * w * T *
                    std::pow(w * h, sim::onKind(integ.method, sim::SystemKind::MassSpring).order);
      const long n = std::lround(T / h);
      sim::Stepper st(*built.massSpring(), built.state, integ.method, h);
      double err = 0, verr = 0;
      bool on_axis = true;
      for (long i = 1; i <= n; ++i) {
        if (const auto d = st.advance()) FAIL(d->message());
        const auto& s = st.state();
        const double t = i * h;
        err = std::max(err, std::abs(s.x[4] - (yeq + A * std::cos(w * t))));
        verr = std::max(verr, std::abs(s.v[4] + A * w * std::sin(w * t)));
        on_axis = on_axis && s.x[3] == 0.0 && s.x[5] == 0.0 && s.v[3] == 0.0 && s.v[5] == 0.0;
      }
      MESSAGE(std::string(integ.name) << ": h = " << h << ", max |y - y_exact| = " << err
                                      << " m (tolerance " << tol << "), max |vy error| = " << verr);
      CHECK(on_axis);
      CHECK(err <= tol);
      CHECK(verr <= w * tol);
    }
  }
}
