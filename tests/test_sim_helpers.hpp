// Shared helpers for the physics tests (tests/test_sim_*.cpp): describe a mass-spring model,
// run a stepper, compare numbers. Not a test file itself (the glob only picks up test_*.cpp).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "scene/build.hpp"
#include "scene/generators.hpp"
#include "sim/model.hpp"
#include "sim/parallel.hpp"
#include "sim/registry.hpp"
#include "sim/stepper.hpp"
#include "sim/xpbd_kernels.hpp"

namespace simtest {

using sim::Vec3;

struct System {
  sim::MassSpringModel mass_spring;
  sim::State state;
};

// Describes a mass-spring system particle by particle and builds it through the real path: a
// scene::SceneDef handed to scene::build, as a scene file would be (so 2-D where the system is
// planar). mass == 0 marks a fixed particle.
class Builder {
 public:
  int particle(const Vec3& x, const Vec3& v, double mass) {
    scene::ParticleDef p;
    p.position = x;
    p.fixed = mass == 0.0;
    p.velocity = p.fixed ? Vec3::Zero() : v;
    p.mass = mass;
    def_.particles.push_back(p);
    return static_cast<int>(def_.particles.size()) - 1;
  }
  int fixed(const Vec3& x) { return particle(x, Vec3::Zero(), 0.0); }
  const Vec3& position(int i) const { return def_.particles[i].position; }
  void spring(int a, int b, double k, double rest, double damping = 0.0) {
    def_.springs.push_back(scene::SpringDef{a, b, k, rest, damping});
  }
  System build(const Vec3& gravity, double drag = 0.0) const {
    scene::SceneDef def;
    def.kind = sim::SystemKind::MassSpring;
    def.parameters.set(sim::Parameter::Gravity, gravity);
    def.mass_spring = def_;
    def.parameters.set(sim::Parameter::Drag, drag);
    scene::Built built = scene::build(def);
    return System{std::move(*built.massSpring()), std::move(built.state)};
  }

 private:
  scene::MassSpringDef def_;
};

// The integrators that apply to mass-spring systems, in registry order.
// The largest l / r over the springs whose rest length is the cloth's grid spacing.
inline double maxStructuralStretch(const sim::MassSpringModel& m, const sim::State& s,
                                   double spacing) {
  double worst = 0.0;
  for (int i = 0; i < m.springs(); ++i) {
    if (std::abs(m.rest_length[i] - spacing) > 1e-12 * spacing) continue;
    const double l = (s.x.segment<3>(3 * m.spring_b[i]) - s.x.segment<3>(3 * m.spring_a[i])).norm();
    worst = std::max(worst, l / m.rest_length[i]);
  }
  return worst;
}

// An n x n cloth of stiffness k (bending k / 10) and dashpots c, pinned at two corners, that
// falls from horizontal (every spring moves, in 3-D) under gravity, with drag c_drag.
inline scene::SceneDef fallingCloth(int n, double k, double c, double c_drag) {
  scene::SceneDef def;
  def.parameters.set(sim::Parameter::Gravity, sim::Vec3(0.0, -9.81, 0.0));
  scene::ClothParams cp;
  cp.nx = cp.ny = n;
  cp.stiffness = k;
  cp.bending_stiffness = k / 10;
  cp.damping = c;
  cp.horizontal = true;
  scene::addCloth(def.mass_spring, cp);
  def.parameters.set(sim::Parameter::Drag, c_drag);
  return def;
}

// The falling cloth with drag in a wind (1, 0, -0.5) m/s and `c` N s/m dashpots: projective's and
// vbd's test cloth.
inline scene::SceneDef windyCloth(int n, double k, double c = 0.0) {
  scene::SceneDef def = fallingCloth(n, k, c, 0.01);
  def.parameters.set(sim::Parameter::Wind, sim::Vec3(1.0, 0.0, -0.5));
  return def;
}

// A state away from rest: a fold and some motion on every free particle.
inline sim::State disturbed(const sim::MassSpringModel& m, sim::State s) {
  for (int i = 0; i < m.particles(); ++i)
    if (!m.fixed(i)) {
      s.x[3 * i + 1] += 0.02 * std::sin(0.37 * i);
      s.v.segment<3>(3 * i) = sim::Vec3(std::cos(0.11 * i), std::sin(0.23 * i), std::cos(0.05 * i));
    }
  return s;
}

// The largest structural stretch l / r - 1 reached over `steps` steps of h by `method` on the
// scene `def` at `substeps` x `iterations` (the methods that iterate: xpbd, projective).
inline double worstStretch(const scene::SceneDef& def, sim::Method method, int substeps,
                           int iterations, double h, int steps, double spacing) {
  auto built = scene::build(def);
  built.massSpring()->substeps = substeps;
  built.massSpring()->iterations = iterations;
  sim::Stepper st(*built.massSpring(), built.state, method, h);
  double worst = 0.0;
  for (int i = 0; i < steps; ++i) {
    REQUIRE_FALSE(st.advance());
    worst = std::max(worst, maxStructuralStretch(*built.massSpring(), st.state(), spacing));
  }
  return worst - 1.0;
}

// A stiff cloth's stretch at 1, 4, 16 and 64 iterations: each at most 0.7 times the one
// before, the last under 1 %.
inline void checkStretchShrinks(const std::vector<double>& stretch) {
  for (size_t i = 0; i + 1 < stretch.size(); ++i) {
    CAPTURE(stretch[i]);
    CAPTURE(stretch[i + 1]);
    CHECK(stretch[i + 1] < 0.7 * stretch[i]);
  }
  CHECK(stretch.back() < 0.01);
}

// step(out) on every kernel path, the vector one and the scalar one on two threads and on one
// (the settings restored after each), checking that each gives the first's state bit for bit.
// step returns whether it succeeded.
inline void checkSameBitsOnEveryPath(const std::function<bool(sim::State&)>& step) {
  const int before = sim::kernelThreadsSetting();
  sim::State first;
  for (const bool simd : {true, false})
    for (const int threads : {2, 1}) {
      CAPTURE(simd);
      CAPTURE(threads);
      sim::setSimd(simd), sim::setKernelThreads(threads);
      sim::State out;
      const bool ok = step(out);
      sim::setSimd(true), sim::setKernelThreads(before);
      REQUIRE(ok);
      if (first.x.size() == 0) first = out;
      CHECK(std::memcmp(out.x.data(), first.x.data(), sizeof(double) * out.x.size()) == 0);
      CHECK(std::memcmp(out.v.data(), first.v.data(), sizeof(double) * out.v.size()) == 0);
    }
}

inline std::vector<sim::IntegratorInfo> massSpringIntegrators() {
  std::vector<sim::IntegratorInfo> out;
  for (const auto& i : sim::integrators())
    if (sim::appliesTo(i.method, sim::SystemKind::MassSpring)) out.push_back(i);
  return out;
}

// n steps; the run must not diverge.
inline sim::State run(const sim::MassSpringModel& m, const sim::State& s0, sim::Method method,
                      double h, long n) {
  sim::Stepper st(m, s0, method, h);
  const auto d = st.advance(n);
  if (d) FAIL_CHECK("unexpected divergence: " << d->message());
  return st.state();
}

// |a - b| <= rel * max(|a|, |b|, floor): relative comparison that does not blow up near zero.
inline bool close(double a, double b, double rel, double floor = 0.0) {
  return std::abs(a - b) <= rel * std::max({std::abs(a), std::abs(b), floor});
}

// A 5-particle, non-planar network with one fixed point and 8 springs whose rest lengths differ
// from the initial distances, so that every spring moves. Gravity, drag and dashpots are chosen by
// the caller.
inline System network(const Vec3& gravity, double drag = 0.0, double dashpot = 0.0) {
  Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(0.31, -0.42, 0.12), Vec3(0.2, 0.1, -0.3), 0.35);
  b.particle(Vec3(-0.18, -0.77, 0.27), Vec3(-0.1, 0.25, 0.05), 0.6);
  b.particle(Vec3(0.22, -1.05, -0.21), Vec3(0.0, -0.2, 0.15), 0.45);
  b.particle(Vec3(-0.35, -1.31, 0.08), Vec3(0.3, 0.0, -0.1), 0.8);
  const int sp[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 2}, {1, 3}, {2, 4}, {1, 4}};
  const double k[] = {40.0, 25.0, 30.0, 20.0, 15.0, 35.0, 22.0, 18.0};
  const double stretch[] = {0.9, 1.1, 0.95, 1.05, 1.0, 0.92, 1.08, 0.97};
  for (int s = 0; s < 8; ++s) {
    const double l0 = (b.position(sp[s][1]) - b.position(sp[s][0])).norm();
    b.spring(sp[s][0], sp[s][1], k[s], stretch[s] * l0, dashpot);
  }
  return b.build(gravity, drag);
}

}  // namespace simtest
