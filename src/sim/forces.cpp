#include "sim/forces.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/parallel.hpp"
#include "sim/spring_runs.hpp"
#include "util/team.hpp"

namespace sim {

namespace {

// The force of spring s on its end b (its end a gets the opposite): -(k (l - r) + c (dv . u)) u,
// written with d = l u to avoid a division per component. Zero at zero length, where u is
// undefined and the contract's force -k (x_b - x_a) is zero, and so is the dashpot.
template <bool kElastic, bool kDashpot>
inline void springForce(const MassSpringModel& m, int s, const double* X, const double* V,
                        double* out) {
  const int a = 3 * m.spring_a[s], b = 3 * m.spring_b[s];
  const double dx = X[b] - X[a], dy = X[b + 1] - X[a + 1], dz = X[b + 2] - X[a + 2];
  const double l = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (!(l > 0.0)) {
    out[0] = out[1] = out[2] = 0.0;
    return;
  }
  double coef = 0.0;
  if constexpr (kElastic) coef += m.stiffness[s] * (l - m.rest_length[s]);
  if constexpr (kDashpot) {
    const double c = m.damping[s];
    if (c != 0.0) {
      const double dv =
          (V[b] - V[a]) * dx + (V[b + 1] - V[a + 1]) * dy + (V[b + 2] - V[a + 2]) * dz;
      coef += c * dv / l;
    }
  }
  const double sc = -coef / l;
  out[0] = sc * dx, out[1] = sc * dy, out[2] = sc * dz;
}

// Spring and dashpot forces added to f (no gravity, no drag), spring by spring on one thread.
template <bool kElastic, bool kDashpot>
void scatterPass(const MassSpringModel& m, const double* X, const double* V, double* F) {
  const int ns = m.springs();
  for (int s = 0; s < ns; ++s) {
    double fs[3];
    springForce<kElastic, kDashpot>(m, s, X, V, fs);
    const int a = 3 * m.spring_a[s], b = 3 * m.spring_b[s];
    F[b] += fs[0], F[b + 1] += fs[1], F[b + 2] += fs[2];
    F[a] -= fs[0], F[a + 1] -= fs[1], F[a + 2] -= fs[2];
  }
}

// The same sums on the kernel threads: every spring's force into a buffer, then every particle
// gathers its springs' in increasing spring index. That is the order in which the scatter pass
// adds them, and a - b == a + (-b) exactly, so the result is the scatter pass's bit for bit
// whatever the thread count (docs/architecture.md#threads).
template <bool kElastic, bool kDashpot>
void gatherPass(const MassSpringModel& m, const double* X, const double* V, double* F,
                int threads) {
  thread_local std::vector<double> forces;  // grows once per thread, then reused
  const int ns = m.springs(), n = m.particles();
  forces.resize(3 * static_cast<size_t>(ns));
  double* FS = forces.data();
  const int* start = m.adjacency_start.data();
  const int* adj = m.adjacency_spring.data();
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forEach(0, ns, [&](int s) { springForce<kElastic, kDashpot>(m, s, X, V, FS + 3 * s); });
    team.forEach(0, n, [&](int i) {
      double* fi = F + 3 * i;
      for (int k = start[i]; k < start[i + 1]; ++k) {
        const int s = adj[k];
        const double* fs = FS + 3 * s;
        if (m.spring_b[s] == i)
          fi[0] += fs[0], fi[1] += fs[1], fi[2] += fs[2];
        else
          fi[0] -= fs[0], fi[1] -= fs[1], fi[2] -= fs[2];
      }
    });
  });
}

template <bool kElastic, bool kDashpot>
void springPass(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                Eigen::VectorXd& f) {
  const bool gather = static_cast<int>(m.adjacency_start.size()) == m.particles() + 1 &&
                      static_cast<int>(m.adjacency_spring.size()) == 2 * m.springs();
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  if (gather && threads > 1)
    gatherPass<kElastic, kDashpot>(m, x.data(), v.data(), f.data(), threads);
  else
    scatterPass<kElastic, kDashpot>(m, x.data(), v.data(), f.data());
}

// Gravity on the free particles [from, to), zero on the fixed: the pass's first term.
void initForces(const MassSpringModel& m, int from, int to, double* F) {
  // copied to locals: F aliases nothing of m, but the compiler cannot know it
  const double g[3] = {m.gravity[0], m.gravity[1], m.gravity[2]};
  const double *mass = m.mass.data(), *inv = m.inv_mass.data();
  for (int i = from; i < to; ++i)
    for (int c = 0; c < 3; ++c) F[3 * i + c] = inv[i] == 0.0 ? 0.0 : mass[i] * g[c];
}

// The drag on particles [from, to): it acts on the velocity relative to the air, -c (v - wind).
void addDrag(const MassSpringModel& m, const double* V, int from, int to, double* F) {
  const double drag = m.drag, wind[3] = {m.wind[0], m.wind[1], m.wind[2]};
  if (drag == 0.0) return;
  const double* inv = m.inv_mass.data();
  for (int i = from; i < to; ++i)
    if (inv[i] != 0.0)
      for (int c = 0; c < 3; ++c) F[3 * i + c] -= drag * (V[3 * i + c] - wind[c]);
}

bool adjacencyBuilt(const MassSpringModel& m) {
  return static_cast<int>(m.adjacency_start.size()) == m.particles() + 1 &&
         static_cast<int>(m.adjacency_spring.size()) == 2 * m.springs();
}

constexpr size_t kLineDoubles = 64 / sizeof(double);  // doubles in a cache line

// The odd phase of the pass in runs: block 2i + 1's runs (runOdd(2i + 1)) complete blocks 2i + 1
// and 2i + 2 (block 0: the even phase), which are merged at once (merge(first, last + 1)), with
// one exception. A member's first block, 2 lo, which it split and summed in the even phase, is
// merged by that member too, once the member before it has summed block 2 lo - 1 and opened
// handOver[its id]: merged by the member before, the block's lines moved to that member's cache
// and back at the next split, which cost the second member a third more time in its split
// (measured on cloth_128, docs/benchmarks-history.md#the-passs-own-time-on-two-cores). So
// that the next member waits as little as possible, a member takes its last item first. The odd
// blocks share no particle, so the order of the items changes no bit.
template <class RunOdd, class Merge>
void mergeAsOddBlocksComplete(util::TeamMember& team, int items, RunOdd runOdd, Merge merge,
                              std::array<util::Signal, kMaxKernelThreads>& handOver) {
  team.forRange(0, items, [&](int lo, int hi) {
    const bool handsOn = hi < items;  // the next member merges block 2 hi
    auto item = [&](int i, int mergeTo) {
      runOdd(2 * i + 1);
      merge(i == 0 ? 0 : 2 * i + 1, mergeTo);
    };
    if (handsOn) {
      item(hi - 1, 2 * hi);
      handOver[team.id()].open();
    }
    for (int i = lo; i < (handsOn ? hi - 1 : hi); ++i) item(i, 2 * i + 3);
    if (lo > 0) {  // the member before ends at lo (the static split's ranges follow one another)
      handOver[team.id() - 1].wait();
      merge(2 * lo, 2 * lo + 1);
    }
  });
}

// One elastic pass in runs: its component arrays, what its runs read, its body forces, its blocks.
struct RunsPass {
  const SpringRuns& runs;
  Components X, forces;  // positions and forces by component
  RunInput in;
  BodyForces body;
  int n, blocks, block;
  // the particles [first, second) of block k
  std::pair<int, int> particlesOf(int k) const {
    return std::pair{std::min(n, k * block), std::min(n, (k + 1) * block)};
  }
};

// Six arrays of a particle's component (positions, then forces), each on a cache line's start, so
// that the eight springs of a run that starts on a multiple of 8 (a cloth's rows and columns) are
// loaded from one line, not two.
void componentArrays(int n, Components& X, Components& forces) {
  const size_t stride = (static_cast<size_t>(n) + kLineDoubles - 1) / kLineDoubles * kLineDoubles;
  thread_local std::vector<double> scratch;  // grows once per calling thread, then reused
  scratch.resize(6 * stride + kLineDoubles);
  double* s0 = scratch.data();
  s0 += (kLineDoubles - reinterpret_cast<std::uintptr_t>(s0) / sizeof(double) % kLineDoubles) %
        kLineDoubles;
  X = {s0, s0 + stride, s0 + 2 * stride};
  forces = {s0 + 3 * stride, s0 + 4 * stride, s0 + 5 * stride};
}

// The pass's arrays and inputs. Elastic only: no gravity and no drag (v is then not read), and the
// dashpots left out.
RunsPass runsPass(const MassSpringModel& m, const Eigen::VectorXd& v, bool elastic_only) {
  const SpringRuns& runs = m.spring_runs;
  RunsPass p{runs, {}, {}, {}, {}, m.particles(), runs.blocks(), runs.block};
  componentArrays(p.n, p.X, p.forces);
  const bool copies = runs.revision == m.revision;  // the runs' constants are current
  p.in = {m.stiffness.data(),
          m.rest_length.data(),
          copies ? runs.stiffness.data() : nullptr,
          copies ? runs.rest.data() : nullptr,
          p.X.x,
          p.X.y,
          p.X.z};
  const double g = elastic_only ? 0.0 : 1.0;
  p.body = {m.mass.data(),
            m.inv_mass.data(),
            {g * m.gravity[0], g * m.gravity[1], g * m.gravity[2]},
            elastic_only ? 0.0 : m.drag,
            {m.wind[0], m.wind[1], m.wind[2]},
            v.data()};
  return p;
}

// Whether slice i of `items` of the model's dampings holds a dashpot: where the record of
// noteDashpots is stale, the even phase looks for one, a slice an item, instead of one member
// looking through them all (which cost a member 7 % of a pass, the other waiting).
bool dashpotInSlice(const MassSpringModel& m, int i, int items) {
  const std::int64_t dampers = m.damping.size();
  const double* damping = m.damping.data();
  return anyPositive(damping + dampers * std::int64_t{i} / items,
                     damping + dampers * std::int64_t{i + 1} / items);
}

// The even phase's item i: blocks 2i and 2i + 1 split (all that block 2i's springs read) before
// block 2i's runs; the odd blocks' runs then find their blocks and the next ones split.
void evenItem(const RunsPass& p, const double* x, int i) {
  const int from = p.particlesOf(2 * i).first, to = p.particlesOf(2 * i + 1).second;
  splitComponents(x, p.body, from, to, p.X, p.forces);
  addBlockSpringForces(p.runs, 2 * i, p.in, p.forces);
}

using BlockEpilogue = std::function<void(int, int, int)>;  // totalForceThen's `after`

// With loose springs, the phases after the even one: the odd blocks' runs, the loose springs on
// one member (in spring order), then every block merged back into F less the drag.
void oddPhasesWithLoose(util::TeamMember& team, const RunsPass& p, const MassSpringModel& m,
                        double* F, const BlockEpilogue* after) {
  team.forEach(0, p.blocks / 2,
               [&](int i) { addBlockSpringForces(p.runs, 2 * i + 1, p.in, p.forces); });
  team.single([&] { addLooseSpringForces(p.runs, m.spring_a, m.spring_b, p.in, p.forces); });
  team.forEach(0, p.blocks, [&](int k) {
    const auto [from, to] = p.particlesOf(k);
    mergeComponents(p.forces, p.body, from, to, F);
    if (after) (*after)(from, to, k);
  });
}

// The elastic pass in runs (sim/spring_runs.hpp, docs/architecture.md#spring-runs) on the kernel
// threads, in phases that give each particle its terms in one order whatever the thread count:
// the even blocks' positions split by component with gravity and their runs, the odd blocks' runs,
// the loose springs (if any) on one member, block by block the forces merged back less the drag
// (with no loose springs, as soon as the odd phase completes a block). The pass is for springs
// without dashpots: the even phase also looks for one (dashpotInSlice), and if it finds one the
// pass stops there, before F is written, and returns false.
bool totalForceInRuns(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                      double* F, bool elastic_only = false, const BlockEpilogue* after = nullptr) {
  const RunsPass p = runsPass(m, v, elastic_only);
  const int items = (p.blocks + 1) / 2;
  // looked for only where the dampings changed since noteDashpots
  const bool dashpotsKnown = elastic_only || p.runs.dashpots_at == m.damping_revision;
  if (!elastic_only && dashpotsKnown && p.runs.dashpots) return false;
  std::atomic<bool> dashpot{false};
  std::array<util::Signal, kMaxKernelThreads> handOver;
  util::runTeam(kernelThreads(), [&](util::TeamMember& team) {
    team.forEach(0, items, [&](int i) {
      if (!dashpotsKnown && dashpotInSlice(m, i, items))
        dashpot.store(true, std::memory_order_relaxed);
      evenItem(p, x.data(), i);
    });
    if (dashpot.load(std::memory_order_relaxed)) return;  // after the barrier: every member sees it
    if (!p.runs.loose.empty()) {
      oddPhasesWithLoose(team, p, m, F, after);
      return;
    }
    mergeAsOddBlocksComplete(
        team, items,
        [&](int k) {
          if (k < p.blocks) addBlockSpringForces(p.runs, k, p.in, p.forces);
        },
        [&](int k0, int k1) {
          mergeComponents(p.forces, p.body, p.particlesOf(k0).first, p.particlesOf(k1 - 1).second,
                          F);
          if (after)  // the last merge may name a block past the end (empty)
            for (int k = k0; k < std::min(k1, p.blocks); ++k) {
              const auto [from, to] = p.particlesOf(k);
              (*after)(from, to, k);
            }
        },
        handOver);
  });
  return !dashpot.load(std::memory_order_relaxed);
}

}  // namespace

void totalForce(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                Eigen::VectorXd& f) {
  const int n = m.particles();
  f.resize(3 * n);
  // a dashpot on the first spring (a damped cloth) sends the pass spring by spring at once
  const bool runs =
      adjacencyBuilt(m) && !m.spring_runs.empty() && !(m.damping.size() > 0 && m.damping[0] > 0.0);
  if (!runs || !totalForceInRuns(m, x, v, f.data())) {
    initForces(m, 0, n, f.data());
    if (m.anyDashpot())
      springPass<true, true>(m, x, v, f);
    else
      springPass<true, false>(m, x, v, f);
    addDrag(m, v.data(), 0, n, f.data());
  }
  if (m.grab >= 0 && !m.fixed(m.grab))
    f.segment<3>(3 * m.grab) += m.grab_stiffness * (m.grab_target - x.segment<3>(3 * m.grab));
}

namespace {
// Whether the pass runs in blocks for totalForceThen: runs built, no dashpot on the first spring
// (a damped cloth goes spring by spring at once), no mouse spring (added after the pass).
bool passInBlocks(const MassSpringModel& m) {
  return adjacencyBuilt(m) && !m.spring_runs.empty() &&
         !(m.damping.size() > 0 && m.damping[0] > 0.0) && !(m.grab >= 0 && !m.fixed(m.grab));
}
}  // namespace

int forcePassSlots(const MassSpringModel& m) {
  return passInBlocks(m) ? std::max(1, m.spring_runs.blocks()) : 1;
}

void totalForceThen(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                    Eigen::VectorXd& f, const BlockEpilogue& after) {
  const int n = m.particles();
  f.resize(3 * n);
  if (passInBlocks(m) && totalForceInRuns(m, x, v, f.data(), false, &after)) return;
  totalForce(m, x, v, f);  // the pass found a dashpot, or runs spring by spring
  after(0, n, 0);
}

void elasticForce(const MassSpringModel& m, const Eigen::VectorXd& x, Eigen::VectorXd& f) {
  f.resize(x.size());
  if (adjacencyBuilt(m) && !m.spring_runs.empty() && totalForceInRuns(m, x, x, f.data(), true))
    return;
  f.setZero();
  springPass<true, false>(m, x, x, f);
}

void dissipativeForce(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                      Eigen::VectorXd& f) {
  f.setZero(x.size());
  if (m.anyDashpot()) springPass<false, true>(m, x, v, f);
  addDrag(m, v.data(), 0, m.particles(), f.data());
}

namespace {
template <bool kFrom>
double dragWorkOver(const MassSpringModel& m, const double* V, const double* to,
                    const double* from) {
  const double wind[3] = {m.wind[0], m.wind[1], m.wind[2]};
  const double* inv = m.inv_mass.data();
  double power[3] = {0.0, 0.0, 0.0};  // by component: three independent sums
  for (int i = 0, n = m.particles(); i < n; ++i) {
    for (int c = 0; c < 3; ++c) {
      const double d = kFrom ? to[3 * i + c] - from[3 * i + c] : to[3 * i + c];
      power[c] += inv[i] != 0.0 ? (V[3 * i + c] - wind[c]) * d : 0.0;  // fixed: no drag
    }
  }
  return -m.drag * (power[0] + power[1] + power[2]);
}
}  // namespace

double dragWork(const MassSpringModel& m, const Eigen::VectorXd& v, const Eigen::VectorXd& to,
                const Eigen::VectorXd* from) {
  if (m.drag == 0.0) return 0.0;
  return from ? dragWorkOver<true>(m, v.data(), to.data(), from->data())
              : dragWorkOver<false>(m, v.data(), to.data(), nullptr);
}

void acceleration(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                  Eigen::VectorXd& a) {
  totalForce(m, x, v, a);
  const int n = m.particles();
  // a fixed particle's (ignored) force may overflow; inf * 0 would make its acceleration NaN
  for (int i = 0; i < n; ++i)
    a.segment<3>(3 * i) = m.fixed(i) ? Vec3::Zero() : Vec3(m.inv_mass[i] * a.segment<3>(3 * i));
}

void buildAdjacency(MassSpringModel& m) {
  const int n = m.particles(), ns = m.springs();
  m.adjacency_start.assign(n + 1, 0);
  for (int s = 0; s < ns; ++s)
    ++m.adjacency_start[m.spring_a[s] + 1], ++m.adjacency_start[m.spring_b[s] + 1];
  for (int i = 0; i < n; ++i) m.adjacency_start[i + 1] += m.adjacency_start[i];
  m.adjacency_spring.resize(2 * static_cast<size_t>(ns));
  std::vector<int> next(m.adjacency_start.begin(), m.adjacency_start.end() - 1);
  for (int s = 0; s < ns; ++s)  // in increasing s: each particle's list is sorted
    m.adjacency_spring[next[m.spring_a[s]]++] = s, m.adjacency_spring[next[m.spring_b[s]]++] = s;
  m.spring_runs =
      ns >= kMinSpringsPerThread ? buildSpringRuns(m.spring_a, m.spring_b, n) : SpringRuns{};
  copyRunConstants(m.spring_runs, m.stiffness.data(), m.rest_length.data(), m.revision);
  noteDashpots(m.spring_runs, m.damping.data(), m.damping.size(), m.damping_revision);
}

}  // namespace sim
