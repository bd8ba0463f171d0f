// Shared helpers for the physics tests (tests/test_sim_*.cpp): build a mass-spring model by hand,
// run a stepper, compare numbers. Not a test file itself (the glob only picks up test_*.cpp).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/registry.hpp"
#include "sim/stepper.hpp"

namespace simtest {

using sim::Vec3;

struct System {
  sim::MassSpringModel mass_spring;
  sim::State state;
};

// Builds a MassSpringModel directly, without the scene layer. mass == 0 marks a fixed particle.
class Builder {
 public:
  int particle(const Vec3& x, const Vec3& v, double mass) {
    xs_.push_back(x);
    vs_.push_back(mass == 0.0 ? Vec3::Zero() : v);
    ms_.push_back(mass);
    return static_cast<int>(ms_.size()) - 1;
  }
  int fixed(const Vec3& x) { return particle(x, Vec3::Zero(), 0.0); }
  const Vec3& position(int i) const { return xs_[i]; }
  void spring(int a, int b, double k, double rest, double damping = 0.0) {
    sa_.push_back(a), sb_.push_back(b), k_.push_back(k), r_.push_back(rest), c_.push_back(damping);
  }
  System build(const Vec3& gravity, double drag = 0.0, int dim = 3) const {
    System s;
    auto& m = s.mass_spring;
    const int n = static_cast<int>(ms_.size()), ns = static_cast<int>(sa_.size());
    m.dim = dim;
    m.gravity = gravity;
    m.drag = drag;
    m.mass.resize(n);
    m.inv_mass.resize(n);
    s.state.x.resize(3 * n);
    s.state.v.resize(3 * n);
    for (int i = 0; i < n; ++i) {
      m.mass[i] = ms_[i];
      m.inv_mass[i] = ms_[i] == 0.0 ? 0.0 : 1.0 / ms_[i];
      s.state.x.segment<3>(3 * i) = xs_[i];
      s.state.v.segment<3>(3 * i) = vs_[i];
    }
    m.spring_a = sa_;
    m.spring_b = sb_;
    m.stiffness = Eigen::Map<const Eigen::VectorXd>(k_.data(), ns);
    m.rest_length = Eigen::Map<const Eigen::VectorXd>(r_.data(), ns);
    m.damping = Eigen::Map<const Eigen::VectorXd>(c_.data(), ns);
    return s;
  }

 private:
  std::vector<Vec3> xs_, vs_;
  std::vector<double> ms_;
  std::vector<int> sa_, sb_;
  std::vector<double> k_, r_, c_;
};

// The integrators that apply to mass-spring systems, in registry order.
inline std::vector<sim::IntegratorInfo> massSpringIntegrators() {
  std::vector<sim::IntegratorInfo> out;
  for (const auto& i : sim::integrators())
    if (i.mass_spring) out.push_back(i);
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
