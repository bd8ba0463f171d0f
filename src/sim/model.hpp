// The constant part of a mass-spring simulation
// (docs/architecture.md#constant-model-and-mutable-state): parameters and topology as flat arrays.
// The mutable part is sim::State. A fixed particle is data: inv_mass == 0.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "sim/spring_runs.hpp"

namespace sim {

using Vec3 = Eigen::Vector3d;

// A static obstacle (docs/integrators.md#colliders): a half-space (a ground) or a solid sphere.
// Particles are kept out of it, their motion into it stopped (no bounce) and their sliding along
// it resisted by Coulomb friction.
struct Collider {
  enum class Shape { Plane, Sphere };
  Shape shape = Shape::Plane;
  Vec3 point = Vec3::Zero();   // m: a point of the plane, or the sphere's centre
  Vec3 normal{0.0, 1.0, 0.0};  // the plane's unit normal, pointing out of the solid side
  double radius = 0.0;         // m, the sphere's
  double friction = 0.0;       // Coulomb coefficient, >= 0 (static and kinetic alike)
};

// The fastest wind a running system accepts (the panel, System::setParameter), m/s: faster
// than a category 5 hurricane's sustained wind (70 m/s).
inline constexpr double kMaxWind = 100.0;

// A substeps or iterations setting the method chooses itself (a scene that names none).
inline constexpr int kAutomatic = 0;
// The largest substeps per step and sweeps per substep the scene, the options and the panel accept.
inline constexpr int kMaxSubsteps = 1000;
inline constexpr int kMaxIterations = 1000;

struct MassSpringModel {
  int dim = 3;                    // 2 when the scene is planar (x-y): every z then stays exactly 0
  Eigen::VectorXd mass;           // kg per particle; 0 for fixed particles
  Eigen::VectorXd inv_mass;       // 1/kg; 0 marks a fixed particle
  std::vector<int> spring_a;      // particle index of each spring's first end
  std::vector<int> spring_b;      // particle index of each spring's second end
  Eigen::VectorXd stiffness;      // N/m, > 0
  Eigen::VectorXd rest_length;    // m, >= 0
  Eigen::VectorXd damping;        // N s/m, dashpot along the spring axis, >= 0
  double drag = 0.0;              // N s/m, linear drag -c (v - wind) on every free particle
  Vec3 wind = Vec3::Zero();       // m/s: the air's velocity, felt through the drag
  Vec3 gravity{0.0, -9.81, 0.0};  // m/s^2

  // The viewer's mouse spring: a zero-length spring of grab_stiffness (N/m) pulling particle
  // `grab` (-1: none) towards grab_target (m). An external force: not part of the energies.
  int grab = -1;
  Vec3 grab_target = Vec3::Zero();
  double grab_stiffness = 0.0;

  // The substeps of one step and the sweeps (xpbd) or local-global iterations (projective) of one
  // substep, for the methods that have them (docs/integrators.md#xpbd, #projective). Integrator
  // settings, kept here so that every lane on the system sees a change, like k. kAutomatic (0):
  // the method chooses from the system (docs/integrators.md#automatic-settings).
  int substeps = 1;
  int iterations = 1;

  // Long-range attachments (xpbd only, docs/integrators.md#tethers): free particle
  // tether_particle[t] may be at most tether_length[t] (m) from fixed particle tether_anchor[t].
  // Sorted by particle, so that one particle's tethers are projected by one thread, in order.
  std::vector<int> tether_particle, tether_anchor;
  Eigen::VectorXd tether_length;

  // Static obstacles, resolved after each step (every method but xpbd) or after each sweep
  // (xpbd), in this order (sim/contacts.hpp).
  std::vector<Collider> colliders;

  // Self-collision (sim/self_collision.hpp): particles that no spring joins are kept
  // self_thickness (m) apart, 0: off; a pair closer in self_rest (the initial positions, 3 per
  // particle; empty: none) is held at that distance instead.
  double self_thickness = 0.0;
  Eigen::VectorXd self_rest;

  // Each particle's springs in increasing spring index, for the gather form of the force pass
  // (sim/forces.cpp): particle i's are adjacency_spring[adjacency_start[i] .. adjacency_start[i +
  // 1]). Built with the topology (sim::buildAdjacency); empty means the one-thread scatter pass.
  std::vector<int> adjacency_start, adjacency_spring;
  // The springs in runs for the elastic force pass of a large system (sim/spring_runs.hpp), built
  // with the adjacency; empty for a small one.
  SpringRuns spring_runs;

  // Bumped by whoever changes k, masses or topology, so that cached factorisations are rebuilt.
  std::uint64_t revision = 0;
  // Bumped by whoever changes `damping`, so that the force pass in runs looks for a dashpot again
  // (sim::noteDashpots records what it finds between two changes; sim/spring_runs.hpp).
  std::uint64_t damping_revision = 0;

  int particles() const { return static_cast<int>(mass.size()); }
  int springs() const { return static_cast<int>(spring_a.size()); }
  bool fixed(int i) const { return inv_mass[i] == 0.0; }
  // Whether a spring has a dashpot: what noteDashpots recorded as of this damping_revision, else
  // a look through them all (a large system's steps ask it every step).
  bool anyDashpot() const {
    if (spring_runs.dashpots_at == damping_revision) return spring_runs.dashpots;
    return damping.size() > 0 && damping.maxCoeff() > 0.0;
  }
};

// Positions and velocities, 3 doubles per particle (x0 y0 z0 x1 ...), and the time.
struct State {
  Eigen::VectorXd x;  // m
  Eigen::VectorXd v;  // m/s
  double t = 0.0;     // s
};

}  // namespace sim
