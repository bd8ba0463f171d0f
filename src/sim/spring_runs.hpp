// The explicit spring-force pass of a large system in runs (docs/architecture.md#spring-runs).
// A run is springs whose ends are a0 + j and a0 + j + d and whose model indices are s0 + ds j,
// j = 0 .. length - 1: the cloth generator's springs form such runs along every grid row and
// column, and a run's ends are contiguous in the position array, so eight springs (AVX-512; four
// with AVX2) are loaded, computed and summed at a time with plain vector loads and stores instead
// of one at a time. The pass works on the positions and forces by component (Components), split
// and merged once a particle, not transposed once a spring.
//
// Runs are cut at the boundaries of blocks of particles (by their lower end) of a size set by the
// particle count alone; with every d smaller than a block, block k's springs touch blocks k and
// k + 1 only, so the even blocks are summed together, then the odd ones, without two threads
// sharing a particle. What is not in a run (springs a block long or longer) is summed last, on one
// thread, in spring order. So the sums are the same, bit for bit, whatever the thread count, and
// the same on the AVX-512, the AVX2 and the scalar path; they differ from the spring-by-spring
// pass only in the order of each particle's terms (round-off).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/simd.hpp"  // the switches of the AVX-512, AVX2 and scalar paths

namespace sim {

struct SpringRuns {
  struct Run {
    int a0 = 0, d = 0, length = 0;  // ends a0 + j and a0 + j + d
    int s0 = 0, ds = 0;             // spring s0 + ds j of the model, its end a the lower
    int first = 0;                  // its springs' constants at stiffness[first + j], rest[...]
    // every spring of it has the copies' first k and rest length (a uniform cloth's rows and
    // columns): read once, not streamed; set with the copies
    bool uniform = false;
  };
  int block = 0;                 // particles per block
  std::vector<Run> runs;         // block by block
  std::vector<int> block_start;  // runs of block k: [block_start[k], block_start[k + 1])
  std::vector<int> loose;        // the springs in no run, increasing
  // the runs' springs' k and rest length in run order, copied from the model at `revision`
  // (MassSpringModel::revision): read with plain vector loads while they are current
  std::vector<double> stiffness, rest;
  std::uint64_t revision = 0;
  // whether any spring has a dashpot, as of the model's damping_revision `dashpots_at`
  // (noteDashpots); at another revision the pass looks for one itself, a slice a block
  bool dashpots = true;
  std::uint64_t dashpots_at = ~std::uint64_t{0};
  bool empty() const { return runs.empty(); }
  int blocks() const { return static_cast<int>(block_start.size()) - 1; }
};

// The runs of springs with ends (a[s], b[s]) over n particles (either end may be the lower).
SpringRuns buildSpringRuns(const std::vector<int>& a, const std::vector<int>& b, int n);
// Copies the model's k and rest lengths (per spring) into the runs' order, current at revision.
void copyRunConstants(SpringRuns& runs, const double* stiffness, const double* rest,
                      std::uint64_t revision);

// Records whether any of the model's `count` dampings is > 0, as of its damping_revision: the pass
// then need not read the dampings (776 kB at 128^2, a ninth of its time on two cores).
void noteDashpots(SpringRuns& runs, const double* damping, std::int64_t count,
                  std::uint64_t damping_revision);

// A particle array's x, y and z components apart (structure of arrays): the pass's positions and
// forces, so that four consecutive particles' x (y, z) are one vector load.
struct Components {
  double *x, *y, *z;
};

// What the pass reads: the model's per-spring k and rest lengths, the runs' copies of them (null
// where they are not current), the positions by component.
struct RunInput {
  const double *stiffness, *rest;
  const double *run_stiffness, *run_rest;
  const double *x, *y, *z;
};

// The pass's first and last terms, as sim/forces.cpp's initForces and addDrag: gravity m g on the
// free particles (inverse mass not 0), zero on the fixed; the drag -c (v - wind) on the free ones.
struct BodyForces {
  const double *mass, *inv_mass;
  double gravity[3];
  double drag;  // c, kg/s (0: none)
  double wind[3];
  const double* V;  // velocities, 3 doubles a particle
};

// Particles [from, to) of P (3 doubles a particle) into X's components, and their gravity into F.
void splitComponents(const double* P, const BodyForces& body, int from, int to, Components X,
                     Components F);
// Particles [from, to) of F's components back into P (overwriting it), less the drag.
void mergeComponents(Components F, const BodyForces& body, int from, int to, double* P);

// Whether any of [first, last) is > 0 (a dashpot among the dampings): vectorised, no early exit.
bool anyPositive(const double* first, const double* last);

// Adds the elastic force (no dashpot) of block k's runs to F: -F_s on a spring's lower end, +F_s
// on its higher, where F_s = -k (l - r) u is its force on the higher (sim/forces.hpp). Blocks of
// one parity share no particle.
void addBlockSpringForces(const SpringRuns& runs, int block, const RunInput& in, Components F);
// The same for the loose springs, in their order and orientation (+F_s on b, -F_s on a).
void addLooseSpringForces(const SpringRuns& runs, const std::vector<int>& spring_a,
                          const std::vector<int>& spring_b, const RunInput& in, Components F);

}  // namespace sim
