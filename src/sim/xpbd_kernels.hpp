// The spring projections of xpbd's sweeps (sim/xpbd.hpp, docs/integrators.md#xpbd), a block of
// one colour at a time. Where the processor has AVX2 four springs are projected at once; the lanes
// do exactly the scalar path's operations in its order (no fused multiply-add: -ffp-contract=off,
// and the AVX2 code is built without FMA), so both paths give the same bits (tested).
#pragma once

#include <vector>

#include "sim/simd.hpp"  // the switches of the AVX-512, AVX2 and scalar paths

namespace sim {

// The constant per-spring data of a sweep, in sweep order (springs sorted by colour).
struct SweepArrays {
  std::vector<int> a, b;  // particle indices of the two ends
  // m, 1/(N/m), inverse masses of the ends (1/kg), dashpot (N s/m)
  std::vector<double> rest, inv_k, wa, wb, damping;
};

// What a sweep's projections share: 1/h_s^2, 1/h_s for the substep h_s, whether this is the
// substep's first sweep (lambda starts at 0), whether any spring has a dashpot.
struct SweepStep {
  double inv_hs2 = 0.0, inv_hs = 0.0;
  bool first = true, damped = false;
};

// How many numbers past the last particle's z the arrays X and P must have (readable; their value
// does not matter): the vector path loads x, y, z of a particle with the next number.
inline constexpr int kSweepPadding = 1;

// Projects the springs at sweep positions [from, to), which must belong to one colour (no two
// share a particle): P moves, lambda[j] accumulates; X is the substep's start. X and P hold
// 3 n + kSweepPadding numbers.
void projectSpringBlock(const SweepArrays& sw, int from, int to, const SweepStep& step,
                        const double* X, double* P, double* lambda);

// Into the sphere of radius `length` about a: a tether, a unilateral rigid constraint |p - a| <=
// length whose anchor is fixed, so the whole correction moves p. Returns whether p was outside.
bool intoSphere(const double* a, double length, double* p);

// The circle where the spheres of two tethers of one particle meet (docs/integrators.md#tethers):
// its centre on the axis between the anchors, the axis's direction, the radius (< 0: none, the
// anchors coincide).
struct TetherCircle {
  double centre[3] = {0, 0, 0}, u[3] = {0, 0, 0};
  double radius = -1.0;
};
// The circle of spheres of radius la about a and lb about b (they meet: the particle started
// inside both).
TetherCircle tetherCircle(const double* a, const double* b, double la, double lb);
// Moves p to the nearest point of the circle (not where p is on its axis: every point is as near).
void projectOnCircle(const TetherCircle& circle, double* p);

// The particles with exactly two tethers, structure of arrays: the particle, its anchors s and t
// and their lengths, and the circle of the two spheres (cached: the anchors are fixed particles).
struct TetherPairs {
  std::vector<int> particle, anchor_s, anchor_t;
  std::vector<double> length_s, length_t;
  std::vector<double> cx, cy, cz, ux, uy, uz, radius;
  int size() const { return static_cast<int>(particle.size()); }
  void clear();
  void add(int particle, int anchor_s, int anchor_t, double length_s, double length_t);
  void setCircle(int i, const TetherCircle& c);
};

// Projects pairs [from, to) (distinct particles): into sphere s if outside it, then into sphere t
// if outside it, and if that left sphere s violated, onto the circle of both (so the particle
// always ends inside both). P as for projectSpringBlock.
void projectTetherPairs(const TetherPairs& tp, int from, int to, double* P);

}  // namespace sim
