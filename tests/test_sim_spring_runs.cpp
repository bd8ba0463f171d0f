// The elastic force pass in runs (sim/spring_runs.hpp): every spring in exactly one run or the
// loose list, runs that keep to their blocks, the spring-by-spring pass's forces to round-off, and
// the same bits on 1, 2 and 3 threads and on the AVX-512, the AVX2 and the scalar path; no trap
// where a spring has zero length.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "scene/build.hpp"
#include "scene/generators.hpp"
#include "sim/forces.hpp"
#include "sim/parallel.hpp"
#include "sim/spring_runs.hpp"
#include "sim/system.hpp"
#include "sim/xpbd_kernels.hpp"

namespace {

using sim::Vec3;

// An n x n cloth without dashpots (the runs' pass is the elastic one), a few extra springs that
// form no run (a long one, unless `loose` is false) or odd ones (reversed, a duplicate), a state
// where every spring is stretched or compressed.
struct Sheet {
  scene::Built built;
  sim::State state;
};
Sheet sheet(int n, int ny = 0, bool loose = true) {
  scene::SceneDef def;
  def.parameters.set(sim::Parameter::Gravity, Vec3(0.0, -9.81, 0.0));
  scene::ClothParams cp;
  cp.nx = n, cp.ny = ny > 0 ? ny : n;
  cp.stiffness = 3e3;
  cp.horizontal = true;
  scene::addCloth(def.mass_spring, cp);
  const int last = cp.nx * cp.ny - 1;
  for (const auto& [a, b] : {std::pair{last, 0}, {5, 3}, {0, 1}, {n + 2, 2 * n + 7}}) {
    if (!loose && a == last) continue;
    scene::SpringDef s;
    s.a = a, s.b = b, s.stiffness = 50.0;
    def.mass_spring.springs.push_back(s);
  }
  def.parameters.set(sim::Parameter::Drag, 0.1);
  def.parameters.set(sim::Parameter::Wind, Vec3(1.0, 0.0, 0.5));
  Sheet out{scene::build(def), {}};
  out.state = out.built.state;
  for (int i = 0; i < out.state.x.size(); ++i) {
    out.state.x[i] += 0.003 * std::sin(1.7 * i);
    out.state.v[i] = 0.2 * std::cos(0.9 * i);
  }
  return out;
}

Eigen::VectorXd forces(const sim::MassSpringModel& m, const sim::State& s, int threads) {
  const int before = sim::kernelThreadsSetting();
  sim::setKernelThreads(threads);
  Eigen::VectorXd f;
  sim::totalForce(m, s.x, s.v, f);
  sim::setKernelThreads(before);
  return f;
}

// The forces with the AVX-512, the AVX2 and the scalar kernels (those the processor has).
std::vector<Eigen::VectorXd> everyPath(const Sheet& s, int threads) {
  std::vector<Eigen::VectorXd> out{forces(*s.built.massSpring(), s.state, threads)};
  if (sim::wideSimdAvailable()) {
    sim::setWideSimd(false);
    out.push_back(forces(*s.built.massSpring(), s.state, threads));
    sim::setWideSimd(true);
  }
  if (sim::simdAvailable()) {
    sim::setSimd(false);
    out.push_back(forces(*s.built.massSpring(), s.state, threads));
    sim::setSimd(true);
  }
  return out;
}

}  // namespace

TEST_CASE("spring runs: every spring once, each run one block and one stride of its ends") {
  const Sheet s = sheet(64);
  const sim::MassSpringModel& m = *s.built.massSpring();
  const sim::SpringRuns& r = m.spring_runs;
  REQUIRE_FALSE(r.empty());
  CHECK(r.block >= 256);
  CHECK(r.blocks() == (m.particles() + r.block - 1) / r.block);
  std::vector<int> seen(static_cast<size_t>(m.springs()), 0);
  for (int blk = 0; blk < r.blocks(); ++blk)
    for (int k = r.block_start[blk]; k < r.block_start[blk + 1]; ++k) {
      const auto& run = r.runs[static_cast<size_t>(k)];
      CHECK(run.length >= 1);
      CHECK(run.d > 0);
      CHECK(run.d < r.block);
      for (int j = 0; j < run.length; ++j) {
        const int sp = run.s0 + run.ds * j, lo = run.a0 + j;
        REQUIRE(sp >= 0);
        REQUIRE(sp < m.springs());
        ++seen[static_cast<size_t>(sp)];
        CHECK(std::min(m.spring_a[sp], m.spring_b[sp]) == lo);
        CHECK(std::abs(m.spring_b[sp] - m.spring_a[sp]) == run.d);
        CHECK(lo / r.block == blk);  // the block of its lower ends
        CHECK(r.stiffness[static_cast<size_t>(run.first + j)] == m.stiffness[sp]);
        CHECK(r.rest[static_cast<size_t>(run.first + j)] == m.rest_length[sp]);
      }
    }
  for (int sp : r.loose) ++seen[static_cast<size_t>(sp)];
  CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  CHECK(std::is_sorted(r.loose.begin(), r.loose.end()));
  // loose: the springs whose ends are a block or more apart (the long extra one) and no other
  for (int sp = 0; sp < m.springs(); ++sp) {
    const bool far = std::abs(m.spring_b[sp] - m.spring_a[sp]) >= r.block;
    CHECK(std::count(r.loose.begin(), r.loose.end(), sp) == (far ? 1 : 0));
  }
  CHECK(std::count(r.loose.begin(), r.loose.end(), m.springs() - 4) == 1);
}

static void checkRunsAgainstSpringBySpring(bool loose) {
  const Sheet s = sheet(64, 0, loose);
  const sim::MassSpringModel& m = *s.built.massSpring();
  REQUIRE(m.springs() >= sim::kMinSpringsPerThread);
  REQUIRE(m.spring_runs.loose.empty() == !loose);
  REQUIRE(m.spring_runs.blocks() == 16);  // 8 items: 9 threads leave one member without
  REQUIRE_FALSE(m.anyDashpot());
  auto byHand = m;  // without the adjacency (and so the runs) the pass goes spring by spring
  byHand.adjacency_start.clear(), byHand.adjacency_spring.clear();
  const Eigen::VectorXd reference = forces(byHand, s.state, 1);
  const Eigen::VectorXd one = forces(m, s.state, 1);
  // the same terms in another order per particle: round-off of the largest term's size
  double largest = 0.0;
  for (int sp = 0; sp < m.springs(); ++sp)
    largest =
        std::max(largest, m.stiffness[sp] * std::abs((s.state.x.segment<3>(3 * m.spring_b[sp]) -
                                                      s.state.x.segment<3>(3 * m.spring_a[sp]))
                                                         .norm() -
                                                     m.rest_length[sp]));
  CHECK(largest > 1.0);
  CHECK((one - reference).cwiseAbs().maxCoeff() <= 1e-13 * largest);
  CHECK(one != reference);  // the order did change: this is the runs' pass
  for (const int threads : {2, 3, 5, 8, 9}) {
    CAPTURE(threads);
    CHECK(forces(m, s.state, threads) == one);
  }
  for (const Eigen::VectorXd& f : everyPath(s, 2)) CHECK(f == one);  // AVX-512, AVX2, scalar
  // with the runs' copies of k stale (the model's k changed behind them) the pass reads the
  // model's: still the same bits as with fresh copies
  auto stale = m;
  stale.revision += 1;
  CHECK(forces(stale, s.state, 2) == one);
}

TEST_CASE("spring runs: the spring-by-spring pass's forces, the same bits on 1 to 9 threads") {
  // with loose springs the odd blocks are merged in a phase of their own; without, each member
  // merges as its odd blocks complete, and its first block after the member before it is done
  for (const bool loose : {true, false}) {
    CAPTURE(loose);
    checkRunsAgainstSpringBySpring(loose);
  }
}

TEST_CASE(
    "spring runs: every kernel gives the same bits, rows longer than a chunk, ends 8-15 apart") {
  // 100 x 100: rows of 99 springs (the close runs' chunks of 64 carry their last forces over);
  // 12 x 400: columns 12 apart and diagonals 11 and 13 apart (the AVX2 chunks under AVX-512)
  for (const auto& [nx, ny] : {std::pair{100, 100}, {12, 400}}) {
    CAPTURE(nx);
    const Sheet s = sheet(nx, ny);
    const sim::MassSpringModel& m = *s.built.massSpring();
    REQUIRE(m.springs() >= sim::kMinSpringsPerThread);
    auto byHand = m;
    byHand.adjacency_start.clear(), byHand.adjacency_spring.clear();
    const Eigen::VectorXd reference = forces(byHand, s.state, 1);
    const std::vector<Eigen::VectorXd> paths = everyPath(s, 2);
    CHECK((paths[0] - reference).cwiseAbs().maxCoeff() <= 1e-9);
    for (const Eigen::VectorXd& f : paths) CHECK(f == paths[0]);
    for (const Eigen::VectorXd& f : everyPath(s, 1)) CHECK(f == paths[0]);
  }
}

TEST_CASE("spring runs: a dashpot anywhere sends the pass spring by spring, to its bits") {
  // the dampings changed (damping_revision bumped), the runs' pass looks for dashpots while it
  // sums the even blocks: one on the last spring, one on a spring in the middle, one on the first
  // (looked at before the pass) each give the forces of the spring-by-spring pass with the
  // dashpot, bit for bit; and so does noteDashpots' record of them
  for (const bool noted : {false, true}) {
    for (const double where : {1.0, 0.5, 0.0}) {
      CAPTURE(noted);
      CAPTURE(where);
      Sheet s = sheet(64);
      sim::MassSpringModel& m = *s.built.massSpring();
      REQUIRE_FALSE(m.spring_runs.dashpots);
      m.damping[static_cast<Eigen::Index>(where * (m.springs() - 1))] = 0.7;
      ++m.damping_revision;
      if (noted)
        sim::noteDashpots(m.spring_runs, m.damping.data(), m.springs(), m.damping_revision);
      CHECK(m.spring_runs.dashpots == noted);
      REQUIRE(m.anyDashpot());
      auto byHand = m;
      byHand.adjacency_start.clear(), byHand.adjacency_spring.clear();
      const Eigen::VectorXd reference = forces(byHand, s.state, 1);
      CHECK(forces(m, s.state, 2) == reference);
      CHECK(forces(m, s.state, 1) == reference);
      m.damping.setZero();  // without it the runs' pass: other bits
      ++m.damping_revision;
      CHECK(forces(m, s.state, 2) != reference);
    }
  }
}

TEST_CASE("spring runs: the spring damping parameter reaches the pass, and so does its removal") {
  Sheet s = sheet(64);
  sim::System& sys = s.built;
  const sim::MassSpringModel& m = *sys.massSpring();
  const Eigen::VectorXd undamped = forces(m, s.state, 2);
  REQUIRE_FALSE(sys.setParameter(sim::Parameter::SpringDamping, 0.4, Vec3::Zero()));
  CHECK(m.spring_runs.dashpots);
  auto byHand = m;
  byHand.adjacency_start.clear(), byHand.adjacency_spring.clear();
  const Eigen::VectorXd damped = forces(m, s.state, 2);
  CHECK(damped == forces(byHand, s.state, 1));
  CHECK(damped != undamped);  // the sheet moves: its dashpots pull
  REQUIRE_FALSE(sys.setParameter(sim::Parameter::SpringDamping, 0.0, Vec3::Zero()));
  CHECK_FALSE(m.spring_runs.dashpots);
  CHECK(forces(m, s.state, 2) == undamped);
}

TEST_CASE("spring runs: the stiffness scale reaches the runs' copies of k") {
  Sheet s = sheet(64);
  sim::System& sys = s.built;
  REQUIRE_FALSE(sys.setParameter(sim::Parameter::StiffnessScale, 2.5, Vec3::Zero()));
  const sim::MassSpringModel& m = *sys.massSpring();
  CHECK(m.spring_runs.revision == m.revision);
  auto byHand = m;
  byHand.adjacency_start.clear(), byHand.adjacency_spring.clear();
  const Eigen::VectorXd f = forces(m, s.state, 2), reference = forces(byHand, s.state, 1);
  CHECK((f - reference).cwiseAbs().maxCoeff() <= 1e-9);
  CHECK(f.norm() > 1.0);
}

TEST_CASE("spring runs: springs of zero length and a particle on another give no force, no trap") {
  Sheet s = sheet(64);
  const sim::MassSpringModel& m = *s.built.massSpring();
  // particles 1 .. 8 of the first row onto particle 0: the runs along the row have zero-length
  // springs in every lane of a four (the tests trap division by zero, tests/fp_trap.hpp)
  for (int i = 1; i <= 8; ++i) s.state.x.segment<3>(3 * i) = s.state.x.segment<3>(0);
  auto byHand = m;
  byHand.adjacency_start.clear(), byHand.adjacency_spring.clear();
  const Eigen::VectorXd f = forces(m, s.state, 2), reference = forces(byHand, s.state, 1);
  REQUIRE(f.allFinite());
  CHECK((f - reference).cwiseAbs().maxCoeff() <= 1e-9);
}
