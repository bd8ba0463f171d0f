// Conservation and qualitative long-run behaviour: linear momentum, energy over 1e5 steps of seed
// 003's spring pendulum, determinism, planar scenes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "scene/build.hpp"
#include "scene/generators.hpp"
#include "sim/energy.hpp"
#include "test_sim_helpers.hpp"

using simtest::Vec3;

namespace {

Vec3 momentum(const sim::MassSpringModel& m, const sim::State& s) {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < m.particles(); ++i) p += m.mass[i] * s.v.segment<3>(3 * i);
  return p;
}

// Seed 003, Table 1 case 1: pivot at the origin, bob at (0.1414, -0.9290), at rest.
scene::Built seed003Pendulum() {
  scene::SceneDef def;
  def.parameters.set(sim::Parameter::Gravity, Vec3(0, -9.8, 0));
  scene::SpringPendulumParams p;
  p.pivot = Vec3::Zero();
  p.bob = Vec3(0.1414, -0.9290, 0);
  p.mass = 0.0484, p.stiffness = 2.3, p.rest_length = 0.6162;
  scene::addSpringPendulum(def.mass_spring, p);
  return scene::build(def);
}

double mean(const std::vector<double>& v, size_t from, size_t to) {
  double s = 0;
  for (size_t i = from; i < to; ++i) s += v[i];
  return s / double(to - from);
}

}  // namespace

TEST_CASE("sim: linear momentum of a free system is conserved by every integrator") {
  // no fixed particle, no gravity, no drag: the internal forces cancel pairwise (dashpots too)
  for (const double dashpot : {0.0, 0.4}) {
    for (const auto& integ : simtest::massSpringIntegrators()) {
      SUBCASE((std::string(integ.name) + (dashpot > 0 ? " with dashpots" : "")).c_str()) {
        simtest::Builder b;
        b.particle(Vec3(0.0, 0.0, 0.0), Vec3(0.5, -0.2, 0.3), 0.7);
        b.particle(Vec3(0.41, -0.12, 0.2), Vec3(-0.3, 0.6, 0.1), 0.35);
        b.particle(Vec3(0.05, -0.63, -0.18), Vec3(0.2, 0.1, -0.7), 0.5);
        b.particle(Vec3(-0.37, -0.25, 0.33), Vec3(0.0, -0.4, 0.2), 0.9);
        b.particle(Vec3(0.28, 0.31, -0.4), Vec3(0.8, 0.3, 0.0), 0.25);
        const int sp[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {1, 4}, {4, 3}, {2, 4}};
        for (int s = 0; s < 8; ++s) {
          const double l0 = (b.position(sp[s][1]) - b.position(sp[s][0])).norm();
          b.spring(sp[s][0], sp[s][1], 30.0 + 7.0 * s, (0.85 + 0.04 * s) * l0, dashpot);
        }
        auto sys = b.build(Vec3::Zero());
        // vbd's sweeps conserve momentum only as they converge (Gauss-Seidel moves one particle
        // at a time): many sweeps, to round-off
        if (integ.method == sim::Method::Vbd) sys.mass_spring.iterations = 400;
        const Vec3 p0 = momentum(sys.mass_spring, sys.state);
        double scale = 0;  // sum of |m v|: the size of the terms whose sum is P
        for (int i = 0; i < sys.mass_spring.particles(); ++i)
          scale += sys.mass_spring.mass[i] * sys.state.v.segment<3>(3 * i).norm();

        sim::Stepper st(sys.mass_spring, sys.state, integ.method, 2e-3);
        double worst = 0;
        for (int i = 0; i < 300; ++i) {
          if (const auto d = st.advance()) FAIL(d->message());
          worst = std::max(worst, (momentum(sys.mass_spring, st.state()) - p0).norm());
        }
        // the motion is not a mere translation: spring 0 changed length
        auto len01 = [](const sim::State& s) {
          return (s.x.segment<3>(3) - s.x.segment<3>(0)).norm();
        };
        CHECK(std::abs(len01(st.state()) - len01(sys.state)) > 1e-3);
        INFO("max |P - P0| = " << worst << ", |P0| = " << p0.norm());
        // projective forms v' = (q - x) / h from a solve's q: the solve's rounding of q, at the
        // scale sum |m x|, reaches P through 1/h (about 1e-13 a step here)
        double reach = 0;
        for (int i = 0; i < sys.mass_spring.particles(); ++i)
          reach += sys.mass_spring.mass[i] * sys.state.x.segment<3>(3 * i).norm() / 2e-3;
        const double bound = 1e-12 * std::max({p0.norm(), scale,
                                               integ.method == sim::Method::Projective ||
                                                       integ.method == sim::Method::Vbd
                                                   ? reach
                                                   : 0.0});
        CHECK(worst <= bound);
      }
    }
  }
}

TEST_CASE("sim: energy of seed 003's spring pendulum over 1e5 steps") {
  // Symplectic methods keep the energy error bounded without trend, euler gains energy without
  // bound, implicit_euler dissipates it towards the resting state.
  const auto sys = seed003Pendulum();
  const double dt = 0.002;
  const long n = 100000;
  const double e0 = sim::energy(*sys.massSpring(), sys.state).total();
  // resting state: bob straight below at l = r + m g / k; the lowest energy the system can have
  const double m = 0.0484, k = 2.3, r = 0.6162, g = 9.8;
  const double leq = r + m * g / k;
  const double emin = 0.5 * k * (leq - r) * (leq - r) - m * g * leq;
  REQUIRE(e0 < 0.0);  // pivot is the zero of height: E0 = -0.32 J
  REQUIRE(emin < e0);

  for (const auto& integ : simtest::massSpringIntegrators()) {
    if (integ.method == sim::Method::Rk4) continue;  // neither symplectic nor dissipative by design
    SUBCASE(std::string(integ.name).c_str()) {
      sim::Stepper st(*sys.massSpring(), sys.state, integ.method, dt);
      std::vector<double> e, dev;  // E and |E - E0| / |E0| after each step
      e.reserve(n), dev.reserve(n);
      for (long i = 0; i < n; ++i) {
        if (const auto d = st.advance()) FAIL(d->message());
        e.push_back(sim::energy(*sys.massSpring(), st.state()).total());
        dev.push_back(std::abs(e.back() - e0) / std::abs(e0));
      }
      const double eend = e.back();
      const double maxdev = *std::max_element(dev.begin(), dev.end());
      const double first = mean(dev, 0, n / 10), last = mean(dev, n - n / 10, n);
      MESSAGE(std::string(integ.name) << ": max |E-E0|/|E0| = " << maxdev << ", mean first tenth "
                                      << first << ", mean last tenth " << last << ", E_end = "
                                      << eend << " J (E0 = " << e0 << ", E_min = " << emin << ")");
      if (sim::onKind(integ.method, sim::SystemKind::MassSpring).symplectic) {
        CHECK(maxdev < 1e-2);
        CHECK(last < 2.0 * first);
      } else if (integ.method == sim::Method::Euler) {
        CHECK(dev.back() > 0.1);
        CHECK(last > 10.0 * first);
        CHECK(eend > e0);
      } else if (integ.method == sim::Method::Xpbd || integ.method == sim::Method::Projective ||
                 integ.method == sim::Method::Vbd) {
        // one substep per step: first-order dissipative like implicit_euler, never below rest
        CHECK(eend >= emin);
        CHECK(eend < e0);
        CHECK(mean(e, n - n / 10, n) < mean(e, 0, n / 10));
      } else {
        REQUIRE(integ.method == sim::Method::ImplicitEuler);
        // less than 5% of the initial oscillation energy is left, never below the resting state
        CHECK(eend - emin < 0.05 * (e0 - emin));
        CHECK(eend >= emin);
        CHECK(mean(e, n - n / 10, n) < mean(e, 0, n / 10));
      }
    }
  }
}

TEST_CASE("sim: the same scene run twice gives bit-identical states") {
  scene::SceneDef def;
  def.parameters.set(sim::Parameter::Gravity, Vec3(0.3, -9.81, 0.5));
  scene::ClothParams cp;
  cp.nx = cp.ny = 6;
  cp.damping = 0.2;
  cp.center = Vec3(0.1, 0.0, -0.2);
  scene::addCloth(def.mass_spring, cp);
  def.parameters.set(sim::Parameter::Drag, 0.05);
  for (const auto& integ : simtest::massSpringIntegrators()) {
    SUBCASE(std::string(integ.name).c_str()) {
      const auto a = scene::build(def), b = scene::build(def);
      const auto sa = simtest::run(*a.massSpring(), a.state, integ.method, 1e-3, 300);
      const auto sb = simtest::run(*b.massSpring(), b.state, integ.method, 1e-3, 300);
      CHECK(sa.x != a.state.x);  // something moved
      CHECK(sa.x == sb.x);
      CHECK(sa.v == sb.v);
      CHECK(sa.t == sb.t);
    }
  }
}

TEST_CASE("sim: planar scenes keep z exactly 0 with every integrator") {
  for (const bool dissipative : {false, true}) {
    scene::SceneDef def;
    def.parameters.set(sim::Parameter::Gravity, Vec3(0.0, -9.81, 0.0));
    scene::HangingChainParams hc;
    hc.segments = 5;
    hc.angles = {0.9, -0.4, 0.3, 1.2, -0.7};
    hc.damping = dissipative ? 0.3 : 0.0;
    scene::addHangingChain(def.mass_spring, hc);
    scene::LoopParams lp;
    lp.center = Vec3(1.5, -0.5, 0.0);
    lp.count = 5;
    lp.rest_length = 0.9;  // compressed: the loop pulses
    lp.velocity = Vec3(0.3, -0.2, 0.0);
    lp.damping = hc.damping;
    scene::addLoop(def.mass_spring, lp);
    def.parameters.set(sim::Parameter::Drag, dissipative ? 0.1 : 0.0);
    const auto built = scene::build(def);
    REQUIRE(built.massSpring()->dim == 2);
    for (const auto& integ : simtest::massSpringIntegrators()) {
      SUBCASE((std::string(integ.name) + (dissipative ? " with dashpots and drag" : "")).c_str()) {
        sim::Stepper st(*built.massSpring(), built.state, integ.method, 2e-3);
        bool planar = true;
        for (int i = 0; i < 500 && planar; ++i) {
          if (const auto d = st.advance()) FAIL(d->message());
          for (int j = 0; j < built.massSpring()->particles(); ++j)
            planar = planar && st.state().x[3 * j + 2] == 0.0 && st.state().v[3 * j + 2] == 0.0;
        }
        CHECK(planar);
        CHECK(st.state().x != built.state.x);
      }
    }
  }
}
