#include "sim/self_collision.hpp"

#include <algorithm>
#include <cmath>

#include "sim/contacts.hpp"
#include "sim/parallel.hpp"

namespace sim {

namespace {

// The neighbour list holds the pairs within (1 + kSkin) thickness, and is built again once a
// particle has moved more than half of kSkin thickness since: no pair can then have come within
// thickness unlisted (each of the two moved at most half the margin). A wider margin lists more
// pairs and builds less often: measured below (docs/benchmarks.md#self-collision).
constexpr double kSkin = 1.0;
// Passes of projection per step (substep for xpbd), at most; they stop once no pair overlaps by
// more than kTolerance of the thickness (what the contract's "within the method's tolerance"
// is for this projection, colliders apart).
constexpr int kMaxPasses = 8;
constexpr double kTolerance = 0.01;
// The Coulomb coefficient of particle on particle (cloth on cloth: 0.3 to 0.6 for most fabrics);
// static and kinetic alike, as the colliders'.
constexpr double kSelfFriction = 0.5;
// Cell coordinates are clamped to this, so that a far (or non-finite) position cannot overflow
// an int: two points a cell apart stay at most a cell apart after the clamp.
constexpr double kMaxCell = 1 << 29;
// Below this many particles the projection stays on one thread (the barriers would cost more).
constexpr int kMinParticlesPerThread = 4096;

int cellOf(double x, double inv_cell) {
  double c = std::floor(x * inv_cell);
  if (!(c > -kMaxCell)) c = -kMaxCell;  // NaN too
  if (!(c < kMaxCell)) c = kMaxCell;
  return static_cast<int>(c);
}

double dist2(const double* x, int i, int j) {
  const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
               dz = x[3 * i + 2] - x[3 * j + 2];
  return dx * dx + dy * dy + dz * dz;
}

// Whether a pair whose offset went from d0 to d (through the origin's side: d . d0 < 0) came
// within sqrt(lo2) of each other on the way, the motion taken as straight: then it passed
// through the other within the step, where a pair that went by at a distance did not.
bool passedWithin(const Vec3& d0, const Vec3& d, double lo2) {
  const Vec3 e = d - d0;
  const double ee = e.squaredNorm();
  if (ee == 0.0) return false;
  const double s = std::clamp(-d0.dot(e) / ee, 0.0, 1.0);
  return (d0 + s * e).squaredNorm() < lo2;
}

}  // namespace

void SpatialHash::build(const double* x, int n, double cell) {
  const double inv = 1.0 / cell;
  cell_.resize(3 * static_cast<size_t>(n));
  for (int k = 0; k < 3 * n; ++k) cell_[k] = cellOf(x[k], inv);
  start_.assign(2 * static_cast<size_t>(n) + 2, 0);  // 2n buckets (at least 2) and an end
  for (int i = 0; i < n; ++i)
    ++start_[bucket(cell_[3 * i], cell_[3 * i + 1], cell_[3 * i + 2]) + 1];
  for (size_t b = 1; b < start_.size(); ++b) start_[b] += start_[b - 1];
  entries_.resize(n);
  // fill from the back so that each bucket's points end up in increasing index
  for (int i = n - 1; i >= 0; --i) {
    const unsigned b = bucket(cell_[3 * i], cell_[3 * i + 1], cell_[3 * i + 2]);
    entries_[--start_[b + 1]] = i;
  }
  // start_[b + 1] now holds bucket b's start: shift the table back by one
  for (size_t b = 0; b + 1 < start_.size(); ++b) start_[b] = start_[b + 1];
  start_.back() = n;
}

std::vector<std::pair<int, int>> nearPairsBruteForce(const MassSpringModel& m, const double* x,
                                                     double radius) {
  std::vector<std::pair<int, int>> pairs;
  const int n = m.particles();
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (!(dist2(x, i, j) < radius * radius) || (m.fixed(i) && m.fixed(j))) continue;
      bool joined = false;
      for (int s = 0; s < m.springs() && !joined; ++s)
        joined = (m.spring_a[s] == i && m.spring_b[s] == j) ||
                 (m.spring_a[s] == j && m.spring_b[s] == i);
      if (!joined) pairs.emplace_back(i, j);
    }
  return pairs;
}

void SelfCollision::prepare(const MassSpringModel& m) {
  const int n = m.particles();
  joined_start_.assign(n + 1, 0);
  for (int s = 0; s < m.springs(); ++s)
    ++joined_start_[m.spring_a[s] + 1], ++joined_start_[m.spring_b[s] + 1];
  for (int i = 0; i < n; ++i) joined_start_[i + 1] += joined_start_[i];
  joined_.resize(joined_start_[n]);
  std::vector<int> next(joined_start_.begin(), joined_start_.end() - 1);
  for (int s = 0; s < m.springs(); ++s)
    joined_[next[m.spring_a[s]]++] = m.spring_b[s], joined_[next[m.spring_b[s]]++] = m.spring_a[s];
  for (int i = 0; i < n; ++i)
    std::sort(joined_.begin() + joined_start_[i], joined_.begin() + joined_start_[i + 1]);
  near_start_.assign(n + 1, 0);
  listed_at_.resize(0);  // the list is built afresh
  delta_.setZero(3 * n), delta_approach_.setZero(3 * n);
  moved_.assign(n, 0);
  shift_.setZero(3 * n), approach_.setZero(3 * n);
  revision_ = m.revision, particles_ = n;
}

double SelfCollision::listRadius(double thickness) {
  return (1.0 + kSkin) * thickness;
}

bool SelfCollision::joined(int i, int j) const {
  return std::binary_search(joined_.begin() + joined_start_[i],
                            joined_.begin() + joined_start_[i + 1], j);
}

bool SelfCollision::needsList(const MassSpringModel& m, const double* x) const {
  if (listed_at_.size() != 3 * m.particles() || thickness_ != m.self_thickness) return true;
  const double half = 0.5 * kSkin * m.self_thickness, limit = half * half;
  for (int i = 0; i < m.particles(); ++i) {
    const double dx = x[3 * i] - listed_at_[3 * i], dy = x[3 * i + 1] - listed_at_[3 * i + 1],
                 dz = x[3 * i + 2] - listed_at_[3 * i + 2];
    if (!(dx * dx + dy * dy + dz * dz <= limit)) return true;
  }
  return false;
}

// Particle i's neighbours within the list's radius that no spring joins (none for a fixed i: it
// never moves), appended to out; returns how many.
int SelfCollision::listNear(const MassSpringModel& m, const double* x, int i,
                            std::vector<int>& out) const {
  if (m.fixed(i)) return 0;
  const double r = (1.0 + kSkin) * m.self_thickness, r2 = r * r;
  const size_t before = out.size();
  hash_.forNear(i, [&](int j) {
    if (j != i && dist2(x, i, j) < r2 && !joined(i, j)) out.push_back(j);
  });
  return static_cast<int>(out.size() - before);
}

// One query per particle: each member appends its block's lists to a buffer of its own (kept
// between builds: no allocation once grown), and the buffers are joined in member order, which
// is particle order, so the list is the same on any thread count.
void SelfCollision::buildList(util::TeamMember& team, const MassSpringModel& m, const double* x) {
  const int n = m.particles();
  team.single([&] {
    hash_.build(x, n, (1.0 + kSkin) * m.self_thickness);
    listed_at_ = Eigen::Map<const Eigen::VectorXd>(x, 3 * n);
    thickness_ = m.self_thickness;
    if (member_near_.size() < size_t(team.size())) member_near_.resize(team.size());
    ++builds_;
  });
  std::vector<int>& mine = member_near_[team.id()];
  mine.clear();
  team.forRange(0, n, [&](int from, int to) {
    for (int i = from; i < to; ++i) near_start_[i + 1] = listNear(m, x, i, mine);
  });
  team.single([&] {
    near_start_[0] = 0;
    for (int i = 0; i < n; ++i) near_start_[i + 1] += near_start_[i];
    near_.clear();
    for (int k = 0; k < team.size(); ++k)
      near_.insert(near_.end(), member_near_[k].begin(), member_near_[k].end());
  });
}

// The square of the distance pair (i, j) is held at: the thickness, or the pair's distance in
// self_rest where that is less (a fine mesh, a tight fold: the scene's own), squared as the
// pass squares distances, so that a pair exactly there is not moved by a rounding.
double SelfCollision::minDistance2(const MassSpringModel& m, int i, int j) const {
  const double t2 = m.self_thickness * m.self_thickness;
  if (m.self_rest.size() != 3 * m.particles()) return t2;
  return std::min(t2, dist2(m.self_rest.data(), i, j));
}

namespace {

// Pair (i, j)'s push on i, of which `approach` is the part that undoes the pair's approach during
// the step: i's share of pushing the pair apart to sqrt(lo2) along the line through them, or
// along their line at the start where they passed through each other during the step (so it goes
// back to the side it came from), less the sliding that Coulomb friction takes back (position
// level, as the colliders' holdBack: up to kSelfFriction times the push). Returns the overlap, m
// (0: none).
double pairPush(const double* from, const double* to, int i, int j, double lo2, double share,
                Vec3& push, Vec3& approach) {
  const Eigen::Map<const Vec3> pi(to + 3 * i), fi(from + 3 * i), pj(to + 3 * j), fj(from + 3 * j);
  const Vec3 d = pi - pj, d0 = fi - fj;
  const double dd = dist2(to, i, j);
  const bool crossed = d.dot(d0) < 0.0 && passedWithin(d0, d, lo2);
  if (dd >= lo2 && !crossed) return 0.0;
  const double lo = std::sqrt(lo2), l0 = d0.norm(), l = std::sqrt(dd);
  if ((crossed || l == 0.0) && l0 == 0.0) return 0.0;  // no direction to push along
  const Vec3 nrm = crossed || l == 0.0 ? Vec3(d0 / l0) : Vec3(d / l);
  const double along = d.dot(nrm), c = lo - along;  // the overlap
  if (!(c > 0.0)) return 0.0;
  const double undone = std::min(c, std::max(0.0, std::min(l0, lo) - along));
  const Vec3 moved = (pi - fi) - (pj - fj);
  const Vec3 slide = moved - moved.dot(nrm) * nrm;
  const double sliding = slide.norm(), limit = kSelfFriction * c;
  const Vec3 back = sliding <= limit ? slide : Vec3(slide * (limit / sliding));
  push = share * (c * nrm - back), approach = share * (undone * nrm - back);
  return c;
}

}  // namespace

// One Jacobi pass: each free particle's correction, the mean of its overlapping pairs' pushes on
// it (pairPush); then every corrected particle moved and out of the colliders.
char SelfCollision::pass(util::TeamMember& team, const MassSpringModel& m, const double* from,
                         double* to) {
  const int n = m.particles();
  const double slack = kTolerance * m.self_thickness;
  char found = 0;  // 1: a pair overlapped; 2: one by more than the slack
  team.forEach(0, n, [&](int i) {
    Vec3 sum = Vec3::Zero(), sum_approach = Vec3::Zero(), push, approach;
    int count = 0;
    for (int k = near_start_[i]; k < near_start_[i + 1]; ++k) {
      const int j = near_[k];
      const double share = m.inv_mass[i] / (m.inv_mass[i] + m.inv_mass[j]);
      const double c = pairPush(from, to, i, j, minDistance2(m, i, j), share, push, approach);
      if (c == 0.0) continue;
      found = std::max<char>(found, c > slack ? 2 : 1);
      sum += push, sum_approach += approach;
      ++count;
    }
    moved_[i] = count > 0;
    if (count == 0) return;
    delta_.segment<3>(3 * i) = sum / count;
    delta_approach_.segment<3>(3 * i) = sum_approach / count;
  });
  member_found_[team.id()] = found;
  team.barrier();
  const char most = *std::max_element(member_found_.begin(), member_found_.end());
  if (most == 0) return 0;
  team.forEach(0, n, [&](int i) {
    if (!moved_[i]) return;
    Eigen::Map<Vec3> p(to + 3 * i);
    const Vec3 before = p;
    p += delta_.segment<3>(3 * i);
    approach_.segment<3>(3 * i) += delta_approach_.segment<3>(3 * i);
    // back out of the colliders: a push-out undoes a move into the surface, approach alike
    for (const Collider& c : m.colliders)
      if (const auto push = pushOut(c, Eigen::Map<const Vec3>(from + 3 * i), p)) {
        approach_.segment<3>(3 * i) += push->to - p;
        p = push->to;
      }
    shift_.segment<3>(3 * i) += p - before;
  });
  return most;
}

bool SelfCollision::resolve(util::TeamMember& team, const MassSpringModel& m, const double* from,
                            double* to) {
  team.single([&] {
    if (revision_ != m.revision || particles_ != m.particles()) prepare(m);
    member_found_.assign(team.size(), 0);
    shift_.setZero(), approach_.setZero();
    list_stale_ = needsList(m, to);
  });
  if (list_stale_) buildList(team, m, to);
  bool touched = false;
  for (int k = 0; k < kMaxPasses; ++k) {
    const char found = pass(team, m, from, to);
    touched = touched || found > 0;
    if (found < 2) break;  // every overlap within the slack (and those corrected too)
  }
  return touched;
}

bool SelfCollision::resolveStep(const MassSpringModel& m, const Eigen::VectorXd& from,
                                Eigen::VectorXd& x, Eigen::VectorXd& v, double h) {
  bool touched = false;
  const int threads = m.particles() >= kMinParticlesPerThread ? kernelThreads() : 1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    const bool t = resolve(team, m, from.data(), x.data());
    if (team.id() == 0) touched = t;
  });
  if (touched) v += approach_ / h;
  return touched;
}

void SelfCollision::resolveSubstep(util::TeamMember& team, const MassSpringModel& m, double* x,
                                   double* p, double hs, double* work) {
  if (!resolve(team, m, x, p)) return;
  const double inv_hs2 = 1.0 / (hs * hs);
  team.forEach(0, m.particles(), [&](int i) {
    const Vec3 s = shift_.segment<3>(3 * i), a = approach_.segment<3>(3 * i);
    if (s.isZero() && a.isZero()) return;
    Eigen::Map<Vec3> xi(x + 3 * i);
    const Vec3 dx = Eigen::Map<const Vec3>(p + 3 * i) - xi;  // the substep's motion, after
    xi += s - a;  // an old overlap's removal moves the start too: no velocity from it
    // the kinetic energy the approach's removal took out: (m / h_s^2)(|dx - a|^2 - |dx|^2) / 2
    // with dx - a the motion before the projection
    work[i] -= m.mass[i] * inv_hs2 * a.dot((dx - (s - a)) - 0.5 * a);
  });
}

std::vector<std::pair<int, int>> SelfCollision::listedPairs(const MassSpringModel& m) const {
  // a free particle lists each of its neighbours, a fixed one none
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i + 1 < static_cast<int>(near_start_.size()); ++i)
    for (int k = near_start_[i]; k < near_start_[i + 1]; ++k) {
      const int j = near_[k];
      if (i < j || m.fixed(j)) pairs.emplace_back(std::min(i, j), std::max(i, j));
    }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace sim
