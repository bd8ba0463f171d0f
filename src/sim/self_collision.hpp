// Self-collision (docs/integrators.md#self-collision): particles that no spring joins are kept
// model.self_thickness apart, by position projection after a step (after each substep for xpbd),
// as Ten Minute Physics' self-collision demo does (Mueller, "Self-collision", 2022) and as the
// colliders do (sim/contacts.hpp). Near pairs come from a spatial hash (a counting sort of the
// particles by cell into a flat table, the 27 cells around each), kept as a neighbour list for as
// long as no particle has moved more than half its margin (a Verlet list: molecular dynamics'
// "skin"), so a method of small steps does not rebuild it every step. Each pass moves every
// particle by the mean of its overlapping pairs' corrections (Jacobi: every particle on its own, so
// the passes run on all threads and give the same bits on any count), each pair's correction shared
// by inverse mass, then out of the colliders again. No bounce: only the part of a correction that
// undoes the pair's approach during the step becomes velocity; an overlap the pair already had is
// removed by position alone, so that leftover overlaps never pump energy in. Coulomb friction at
// position level, as the colliders' (Macklin et al. 2014 6.1).
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "sim/model.hpp"
#include "util/team.hpp"

namespace sim {

// Points sorted into cubic cells of one size by a counting sort into a flat table of twice as
// many buckets as points (Teschner et al. 2003's hash of the cell's integer coordinates). A
// bucket may hold other cells too (collisions): forNear checks each point's own cell, so every
// point of the 27 cells around is visited exactly once.
class SpatialHash {
 public:
  void build(const double* x, int n, double cell);  // x: 3 coordinates per point
  // f(j) for every point j (i included) in the 27 cells around point i's, by cell, in index order
  // within a cell.
  template <class F>
  void forNear(int i, F&& f) const {
    const int* c = cell_.data() + 3 * i;
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int cx = c[0] + dx, cy = c[1] + dy, cz = c[2] + dz;
          const unsigned b = bucket(cx, cy, cz);
          for (int k = start_[b]; k < start_[b + 1]; ++k) {
            const int j = entries_[k];
            const int* cj = cell_.data() + 3 * j;
            if (cj[0] == cx && cj[1] == cy && cj[2] == cz) f(j);
          }
        }
  }

 private:
  unsigned bucket(int cx, int cy, int cz) const {
    const unsigned h = (static_cast<unsigned>(cx) * 92837111u) ^
                       (static_cast<unsigned>(cy) * 689287499u) ^
                       (static_cast<unsigned>(cz) * 283923481u);
    return h % static_cast<unsigned>(start_.size() - 1);
  }
  std::vector<int> cell_;     // each point's integer cell coordinates, 3 per point
  std::vector<int> start_;    // bucket b's points are entries_[start_[b] .. start_[b + 1])
  std::vector<int> entries_;  // the points by bucket
};

// The pairs (i < j) closer than `radius` at x that no spring of m joins, by brute force, O(N^2):
// the reference the hash is tested against.
std::vector<std::pair<int, int>> nearPairsBruteForce(const MassSpringModel& m, const double* x,
                                                     double radius);

class SelfCollision {
 public:
  // Moves `to` (the positions at the end of a step or substep that started at `from`; 3 per
  // particle) so that no pair that no spring joins is closer than m.self_thickness (or than its
  // distance in m.self_rest, where that is less), fixed particles never moved, then out of the
  // colliders. Called by every member of the team. Afterwards shift() holds each particle's
  // total move and approach() the part of it that undid the step's approach (the rest removed an
  // overlap the pair already had). Returns whether any pair was too close (the same on every
  // member).
  bool resolve(util::TeamMember& team, const MassSpringModel& m, const double* from, double* to);
  // The form for the methods that resolve contacts after their step: x moved as above (from the
  // step's start `from`), v gains approach() / h. Runs its own team.
  bool resolveStep(const MassSpringModel& m, const Eigen::VectorXd& from, Eigen::VectorXd& x,
                   Eigen::VectorXd& v, double h);
  // xpbd's, after a substep's sweeps (x the substep's start, p its end, h_s its length): p moved
  // as above and x by the part that is not approach(), so that v' = (p - x) / h_s gains only
  // approach() / h_s; work[i] gains the kinetic energy that took out of particle i (J).
  void resolveSubstep(util::TeamMember& team, const MassSpringModel& m, double* x, double* p,
                      double hs, double* work);

  // The neighbour list's radius for a thickness t (m): the pairs within it are listed, and the
  // list is kept until a particle has moved half of its margin over t (sim/self_collision.cpp).
  static double listRadius(double thickness);

  const Eigen::VectorXd& shift() const { return shift_; }
  const Eigen::VectorXd& approach() const { return approach_; }
  // the unordered pairs in the neighbour list (each once, i < j) and how often it was built: for
  // the tests and `springlab bench`
  std::vector<std::pair<int, int>> listedPairs(const MassSpringModel& m) const;
  long long builds() const { return builds_; }

 private:
  void prepare(const MassSpringModel& m);  // the joined lists, on a change of topology
  bool joined(int i, int j) const;
  bool needsList(const MassSpringModel& m, const double* x) const;
  void buildList(util::TeamMember& team, const MassSpringModel& m, const double* x);
  int listNear(const MassSpringModel& m, const double* x, int i, std::vector<int>& out) const;
  char pass(util::TeamMember& team, const MassSpringModel& m, const double* from, double* to);
  double minDistance2(const MassSpringModel& m, int i, int j) const;
  std::uint64_t revision_ = ~std::uint64_t{0};
  int particles_ = -1;
  double thickness_ = 0.0;                  // m, the list's
  std::vector<int> joined_start_, joined_;  // each particle's spring partners, sorted (CSR)
  SpatialHash hash_;
  std::vector<int> near_start_, near_;         // each free particle's listed neighbours (CSR)
  std::vector<std::vector<int>> member_near_;  // each team member's part of near_, as built
  Eigen::VectorXd listed_at_;                  // where the particles were when the list was built
  Eigen::VectorXd delta_, shift_, approach_, delta_approach_;
  std::vector<char> moved_;         // per particle: corrected in this pass
  std::vector<char> member_found_;  // per team member: what its particles' pairs found (pass)
  bool list_stale_ = false;
  long long builds_ = 0;
};

}  // namespace sim
