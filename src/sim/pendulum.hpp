// N rigid links in generalised coordinates (docs/scenes.md#pendulums): massless rods of length R_i,
// point bobs m_i, angles phi_i from the downward vertical, counter-clockwise, bob i at pivot +
// sum_{j<=i} R_j e_j with e_j = (sin phi_j, -cos phi_j). State: x = phi (rad), v = phi' (rad/s), N
// values each.
#pragma once

#include <Eigen/Core>

#include "sim/energy.hpp"
#include "sim/model.hpp"

namespace sim {

struct PendulumModel {
  Vec3 pivot = Vec3::Zero();      // m
  Eigen::VectorXd length;         // m, > 0
  Eigen::VectorXd mass;           // kg, > 0
  double joint_damping = 0.0;     // N m s/rad, Rayleigh (1/2) c sum (phi'_i - phi'_{i-1})^2
  Vec3 gravity{0.0, -9.81, 0.0};  // m/s^2; only x and y act on a planar pendulum
  // The viewer's mouse spring on bob `grab` (-1: none), towards grab_target; enters through its
  // generalised forces. Not part of the energies.
  int grab = -1;
  Vec3 grab_target = Vec3::Zero();
  double grab_stiffness = 0.0;  // N/m
  int links() const { return static_cast<int>(length.size()); }
};

// Workspace for the O(N) recursions (no allocation per call once sized).
struct PendulumWork {
  // inv_pivot: 1/pivot of the elimination; T: the rods' tensions (N) after each call
  Eigen::VectorXd sn, cs, inv_mass, fx, fy, off, inv_pivot, T, q;
};

// Angular accelerations phi'' = M(phi)^-1 (Q_gravity + Q_damping + Q_extra - C(phi, phi')), O(N).
// `extra` (optional, N values) adds generalised forces (N m), e.g. a mouse spring.
void pendulumAcceleration(const PendulumModel& m, const Eigen::VectorXd& phi,
                          const Eigen::VectorXd& omega, Eigen::VectorXd& acc, PendulumWork& w,
                          const Eigen::VectorXd* extra = nullptr);

// Generalised forces of the mouse spring: Q_k = R_k n_k . F for k <= grab (zero if none).
void grabForce(const PendulumModel& m, const Eigen::VectorXd& phi, Eigen::VectorXd& q);

// Joint-damping generalised forces Q_i = -c (w_i - w_{i-1}) + c (w_{i+1} - w_i).
void jointDampingForce(const PendulumModel& m, const Eigen::VectorXd& omega, Eigen::VectorXd& q);

// p = M(phi) phi' (generalised momenta), O(N).
void pendulumMomentum(const PendulumModel& m, const Eigen::VectorXd& phi,
                      const Eigen::VectorXd& omega, Eigen::VectorXd& p);
// phi' = M(phi)^-1 p, O(N) (the forward recursion with no velocity and no gravity).
void pendulumVelocity(const PendulumModel& m, const Eigen::VectorXd& phi, const Eigen::VectorXd& p,
                      Eigen::VectorXd& omega, PendulumWork& w);
// dH/dphi at fixed p, for H = (1/2) p^T M^-1 p + V, given phi' = M^-1 p; O(N).
void pendulumHamiltonianGradient(const PendulumModel& m, const Eigen::VectorXd& phi,
                                 const Eigen::VectorXd& omega, Eigen::VectorXd& grad);

// sin and cos of n angles (rad), within about an ulp of the C library's, in vector instructions
// where the processor has them (sim/simd.hpp); every path gives the same bits.
void sinCos(const double* x, double* s, double* c, int n);

// Bob positions, 3 per bob (m).
void pendulumPositions(const PendulumModel& m, const Eigen::VectorXd& phi, Eigen::VectorXd& out);
Energy energy(const PendulumModel& m, const State& s);
// Rayleigh dissipation function (W): (1/2) c sum (phi'_i - phi'_{i-1})^2.
double rayleigh(const PendulumModel& m, const Eigen::VectorXd& omega);

}  // namespace sim
