// The energy bars (docs/integrators.md#energy-bars): the potential split by its source against
// closed forms.
#include <doctest/doctest.h>

#include <cmath>

#include "fp_trap.hpp"
#include "sim/energy.hpp"
#include "sim/pendulum.hpp"
#include "test_sim_helpers.hpp"

using sim::Vec3;

namespace {

constexpr double kG = 9.81;  // m/s^2

}  // namespace

TEST_CASE("energy: a hanging mass on a spring splits its potential into m g h and k x^2 / 2") {
  simtest::Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(0.2, -1.5, 0.0), Vec3(0.3, 0.0, 0.4), 2.0);  // |v|^2 = 0.25
  b.spring(0, 1, 40.0, 1.0);
  const simtest::System sys = b.build(Vec3(0.0, -kG, 0.0));
  const sim::Energy e = sim::energy(sys.mass_spring, sys.state);
  const double stretch = std::hypot(0.2, 1.5) - 1.0;
  CHECK(e.gravitational == doctest::Approx(2.0 * kG * -1.5).epsilon(1e-14));  // m g h, h = -1.5
  CHECK(e.elastic == doctest::Approx(0.5 * 40.0 * stretch * stretch).epsilon(1e-14));
  CHECK(e.kinetic == doctest::Approx(0.5 * 2.0 * 0.25).epsilon(1e-14));
  CHECK(e.potential == doctest::Approx(e.gravitational + e.elastic).epsilon(1e-15));
  CHECK(e.total() == doctest::Approx(e.kinetic + e.gravitational + e.elastic).epsilon(1e-15));
}

TEST_CASE("energy: a pendulum's potential is all gravitational, zero at the origin") {
  sim::PendulumModel m;
  m.pivot = Vec3(0.5, 1.0, 0.0);
  m.length = Eigen::VectorXd::Constant(1, 2.0);
  m.mass = Eigen::VectorXd::Constant(1, 3.0);
  sim::State s;
  s.x = Eigen::VectorXd::Constant(1, 0.5);  // rad from the downward vertical
  s.v = Eigen::VectorXd::Constant(1, 1.2);  // rad/s
  const sim::Energy e = sim::energy(m, s);
  // -m g L cos(theta) + m g y_pivot: the bob's height above the origin times m g
  CHECK(e.gravitational == doctest::Approx(3.0 * kG * (1.0 - 2.0 * std::cos(0.5))).epsilon(1e-14));
  CHECK(e.elastic == 0.0);
  CHECK(e.kinetic == doctest::Approx(0.5 * 3.0 * 4.0 * 1.44).epsilon(1e-14));
  CHECK(e.potential == e.gravitational);
}
