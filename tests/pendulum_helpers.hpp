// Shared helpers for the pendulum tests (tests/test_pendulum*.cpp): models and states, the
// independent long-double oracles (the dense mass matrix, joint damping, gravity, energy, dH/dphi)
// and a seeded random source. Not a test file itself (the glob only picks up test_*.cpp).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "sim/model.hpp"
#include "sim/pendulum.hpp"

namespace pendtest {

using Eigen::VectorXd;
using sim::PendulumModel;
using sim::State;
using sim::Vec3;
using MatL = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
using VecL = Eigen::Matrix<long double, Eigen::Dynamic, 1>;
constexpr double kPi = std::numbers::pi;

inline PendulumModel makeModel(const std::vector<double>& R, const std::vector<double>& m,
                               const Vec3& g = Vec3(0.0, -9.8, 0.0), double c = 0.0,
                               const Vec3& pivot = Vec3::Zero()) {
  PendulumModel p;
  // copied element by element: GCC 12 warns (-Warray-bounds) about Eigen's vectorised copy of a
  // Map of one element, a path not taken
  const int n = static_cast<int>(R.size());
  p.length.resize(n), p.mass.resize(n);
  std::copy(R.begin(), R.begin() + n, p.length.data());
  std::copy(m.begin(), m.begin() + n, p.mass.data());
  p.gravity = g;
  p.joint_damping = c;
  p.pivot = pivot;
  return p;
}

inline State makeState(const std::vector<double>& phi, const std::vector<double>& w) {
  State s;  // copied element by element, as in makeModel
  s.x.resize(static_cast<Eigen::Index>(phi.size()));
  s.v.resize(static_cast<Eigen::Index>(w.size()));
  std::copy(phi.begin(), phi.end(), s.x.data());
  std::copy(w.begin(), w.end(), s.v.data());
  return s;
}

// seed 004, Figs. 2-3: R = (2, 1), m = (2, 1), phi = (pi/2, pi/6), at rest, g = 9.8
inline PendulumModel seedDouble() {
  return makeModel({2.0, 1.0}, {2.0, 1.0});
}
inline State seedDoubleState() {
  return makeState({kPi / 2, kPi / 6}, {0.0, 0.0});
}

// ---- independent oracles -------------------------------------------------------------------

// mu_k = sum_{i >= k} m_i
inline VecL suffixMass(const PendulumModel& p) {
  const int n = p.links();
  VecL mu(n);
  long double s = 0;
  for (int k = n - 1; k >= 0; --k) mu[k] = s += p.mass[k];
  return mu;
}

// M_kj = R_k R_j cos(phi_j - phi_k) mu_max(k,j)   (seed 004's a[k, j] times R_k)
inline MatL denseMass(const PendulumModel& p, const VectorXd& phi) {
  const int n = p.links();
  const VecL mu = suffixMass(p);
  MatL M(n, n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      M(k, j) = (long double)p.length[k] * p.length[j] *
                std::cos((long double)phi[j] - (long double)phi[k]) * mu[std::max(k, j)];
  return M;
}

// joint damping Q_i = -c (w_i - w_{i-1}) + c (w_{i+1} - w_i), w_{-1} = 0, last term absent at the
// end
inline VecL dampingOracle(const PendulumModel& p, const VectorXd& w) {
  const int n = p.links();
  const long double c = p.joint_damping;
  VecL q(n);
  for (int i = 0; i < n; ++i) {
    q[i] = -c * ((long double)w[i] - (i > 0 ? (long double)w[i - 1] : 0.0L));
    if (i + 1 < n) q[i] += c * ((long double)w[i + 1] - (long double)w[i]);
  }
  return q;
}

// generalised gravity force -dV/dphi_k = mu_k R_k (gx cos phi_k + gy sin phi_k)
inline VecL gravityForce(const PendulumModel& p, const VectorXd& phi) {
  const VecL mu = suffixMass(p);
  VecL f(p.links());
  for (int k = 0; k < p.links(); ++k)
    f[k] = mu[k] * p.length[k] *
           (p.gravity.x() * std::cos((long double)phi[k]) +
            p.gravity.y() * std::sin((long double)phi[k]));
  return f;
}

// V = -sum_i m_i g . x_i, x_i = pivot + sum_{j<=i} R_j (sin phi_j, -cos phi_j)
inline double potentialOracle(const PendulumModel& p, const VectorXd& phi) {
  long double x = p.pivot.x(), y = p.pivot.y(), V = 0;
  for (int i = 0; i < p.links(); ++i) {
    x += p.length[i] * std::sin((long double)phi[i]);
    y -= p.length[i] * std::cos((long double)phi[i]);
    V -= p.mass[i] * (p.gravity.x() * x + p.gravity.y() * y + p.gravity.z() * p.pivot.z());
  }
  return static_cast<double>(V);
}

// energy from the bobs' Cartesian velocities
inline double energyOracle(const PendulumModel& p, const State& s) {
  long double vx = 0, vy = 0, K = 0;
  for (int i = 0; i < p.links(); ++i) {
    vx += p.length[i] * s.v[i] * std::cos((long double)s.x[i]);
    vy += p.length[i] * s.v[i] * std::sin((long double)s.x[i]);
    K += 0.5L * p.mass[i] * (vx * vx + vy * vy);
  }
  return static_cast<double>(K) + potentialOracle(p, s.x);
}

// dH/dphi_k at fixed p, from d(M^-1)/dphi = -M^-1 (dM/dphi) M^-1, with w = M^-1 p:
//   -w_k R_k sum_j mu_max(k,j) R_j w_j sin(phi_j - phi_k) - Q_gravity,k
inline VecL hamiltonianGradientOracle(const PendulumModel& m, const VectorXd& phi, const VecL& w) {
  const int n = m.links();
  const VecL mu = suffixMass(m);
  VecL g = -gravityForce(m, phi);
  for (int k = 0; k < n; ++k) {
    long double s = 0;
    for (int j = 0; j < n; ++j)
      s += mu[std::max(k, j)] * m.length[j] * w[j] *
           std::sin((long double)phi[j] - (long double)phi[k]);
    g[k] -= w[k] * m.length[k] * s;
  }
  return g;
}

inline std::mt19937_64& rng() {
  static std::mt19937_64 r(20240604);
  return r;
}
inline double uniform(double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng());
}
inline VectorXd randomVector(int n, double lo, double hi) {
  VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = uniform(lo, hi);
  return v;
}

inline PendulumModel randomModel(int n, const Vec3& g, double c, const Vec3& pivot) {
  PendulumModel p;
  p.length = randomVector(n, 0.2, 2.0);
  p.mass = randomVector(n, 0.1, 3.0);
  p.gravity = g;
  p.joint_damping = c;
  p.pivot = pivot;
  return p;
}

}  // namespace pendtest
