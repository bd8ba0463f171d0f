// Force assembly for mass-spring systems, spring by spring: each spring acts on its end b with
// F = -k (l - r) u and on a with -F (the "spring action" of seed 000, eqs. 3-4), plus the
// dashpot along u, linear drag (seed 000 eq. A2) and gravity. docs/scenes.md#mass-spring-systems.
#pragma once

#include <functional>

#include "sim/model.hpp"

namespace sim {

// f = total force on every particle (N); rows of fixed particles hold the spring forces on them.
void totalForce(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                Eigen::VectorXd& f);

// totalForce, and then after(from, to, slot) on the particles [from, to) once their force in f is
// complete, while it is still in cache: on the kernel thread that merged them, in the pass's
// blocks, each block a slot of its own in [0, forcePassSlots(m)) (a pass that does not run in
// blocks calls it once, on everything, in slot 0). Calls may run at once on different threads,
// on disjoint particles; a sum over the slots in slot order is the same whatever the thread count.
// (docs/benchmarks.md#the-step-around-the-force-pass)
int forcePassSlots(const MassSpringModel& m);
void totalForceThen(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                    Eigen::VectorXd& f, const std::function<void(int, int, int)>& after);

// Only the springs' elastic forces, -k (l - r) u on each end b and its negative on a, by the same
// passes (the same bits as totalForce's spring terms; no gravity, drag, dashpots or mouse).
void elasticForce(const MassSpringModel& m, const Eigen::VectorXd& x, Eigen::VectorXd& f);

// Only the velocity-dependent part: dashpots and drag.
void dissipativeForce(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                      Eigen::VectorXd& f);

// The work (J) of the drag at velocities v over the free particles' displacement d = to - from
// (from == nullptr: d = to itself), sum_i -c (v_i - wind) . d_i: the energy ledger's dissipated
// work of a system without dashpots in one pass, with no force array
// (docs/integrators.md#the-energy-ledger).
double dragWork(const MassSpringModel& m, const Eigen::VectorXd& v, const Eigen::VectorXd& to,
                const Eigen::VectorXd* from = nullptr);

// a = f / m for free particles, 0 for fixed ones (m/s^2).
void acceleration(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                  Eigen::VectorXd& a);

// Fills m.adjacency_start / adjacency_spring from the springs (each particle's springs in
// increasing index), which lets the force pass run on several threads. Call after the topology
// changes.
void buildAdjacency(MassSpringModel& m);

// d f_b / d x_b (Kx) and d f_b / d v_b (Dv) of spring s at (x, v); the blocks of f_a are their
// negatives. Kx includes the geometric term k (1 - r/l)(I - u u^T) and the dashpot's dependence on
// x through u. Used by implicit_euler and by the spectrum (sim/spectrum.hpp).
void springJacobians(const MassSpringModel& m, int s, const Eigen::VectorXd& x,
                     const Eigen::VectorXd& v, Eigen::Matrix3d& Kx, Eigen::Matrix3d& Dv);

}  // namespace sim
