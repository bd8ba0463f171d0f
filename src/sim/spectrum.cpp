#include "sim/spectrum.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

#include "sim/forces.hpp"
#include "sim/system.hpp"

namespace sim {

namespace {

// Lanczos iterations at most, and the relative change of the top Ritz value that ends them
// earlier: the extreme eigenvalues converge first, well within a few dozen steps.
constexpr int kMaxLanczos = 80;
constexpr double kRitzTolerance = 1e-12;

// A self-adjoint operator in the M inner product: A = M^-1 K, <x, y>_M = x^T M y.
struct MOperator {
  int n = 0;
  std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> apply;  // y = M^-1 K x
  std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> mass;   // y = M x
};

// The largest eigenvalue of A by Lanczos with full reorthogonalisation in the M inner product
// (Golub & Van Loan, Matrix Computations, 4th ed., sec. 10.1, with <.,.>_M for the dot product).
double largestEigenvalue(const MOperator& op) {
  if (op.n == 0) return 0.0;
  std::vector<Eigen::VectorXd> v, mv;  // the M-orthonormal basis and M times it
  Eigen::VectorXd q(op.n), w, mq;
  for (int i = 0; i < op.n; ++i) q[i] = 1.0 + 0.5 * std::sin(1.7 * i);  // deterministic, generic
  op.mass(q, mq);
  q /= std::sqrt(q.dot(mq));
  std::vector<double> alpha, beta;
  double top = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < std::min(kMaxLanczos, op.n); ++j) {
    v.push_back(q);
    op.mass(q, mq);
    mv.push_back(mq);
    op.apply(q, w);
    alpha.push_back(w.dot(mq));
    for (int pass = 0; pass < 2; ++pass)  // twice is enough (Kahan, "twice is enough")
      for (size_t i = 0; i < v.size(); ++i) w -= w.dot(mv[i]) * v[i];
    Eigen::VectorXd mw;
    op.mass(w, mw);
    const double b = std::sqrt(std::max(w.dot(mw), 0.0));
    const int m = static_cast<int>(alpha.size());
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(m, m);
    for (int i = 0; i < m; ++i) T(i, i) = alpha[i];
    for (int i = 0; i + 1 < m; ++i) T(i, i + 1) = T(i + 1, i) = beta[i];
    const double ritz = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(T).eigenvalues().maxCoeff();
    const bool converged = std::abs(ritz - top) <= kRitzTolerance * std::abs(ritz);
    top = ritz;
    if (converged || !(b > kRitzTolerance * std::abs(ritz))) break;  // an invariant subspace
    beta.push_back(b);
    q = w / b;
  }
  return top;
}

// Mass-spring: the free coordinates (dim per free particle); K x from each spring's 3x3 block.
MOperator massSpringOperator(const MassSpringModel& m, const State& s,
                             std::vector<Eigen::Matrix3d>& blocks, std::vector<int>& freeOf) {
  const int dim = m.dim;
  freeOf.assign(m.particles(), -1);
  int nf = 0;
  for (int i = 0; i < m.particles(); ++i)
    if (!m.fixed(i)) freeOf[i] = nf++;
  const Eigen::VectorXd still = Eigen::VectorXd::Zero(s.x.size());  // undamped: v = 0
  blocks.resize(m.springs());
  Eigen::Matrix3d dv;
  for (int k = 0; k < m.springs(); ++k) {
    springJacobians(m, k, s.x, still, blocks[k], dv);
    blocks[k] = -blocks[k];  // the Hessian is -df/dx
  }
  MOperator op;
  op.n = nf * dim;
  op.mass = [&m, &freeOf, dim](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    y.resize(x.size());
    for (int i = 0; i < m.particles(); ++i)
      if (freeOf[i] >= 0)
        y.segment(freeOf[i] * dim, dim) = m.mass[i] * x.segment(freeOf[i] * dim, dim);
  };
  op.apply = [&m, &freeOf, &blocks, dim](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    y = Eigen::VectorXd::Zero(x.size());
    auto at = [&](int p) {
      Eigen::Vector3d u = Eigen::Vector3d::Zero();
      if (freeOf[p] >= 0) u.head(dim) = x.segment(freeOf[p] * dim, dim);
      return u;
    };
    for (int k = 0; k < m.springs(); ++k) {
      const int a = m.spring_a[k], b = m.spring_b[k];
      const Eigen::Vector3d f = blocks[k] * (at(b) - at(a));
      if (freeOf[b] >= 0) y.segment(freeOf[b] * dim, dim) += f.head(dim);
      if (freeOf[a] >= 0) y.segment(freeOf[a] * dim, dim) -= f.head(dim);
    }
    for (int i = 0; i < m.particles(); ++i)  // M^-1
      if (freeOf[i] >= 0) y.segment(freeOf[i] * dim, dim) *= m.inv_mass[i];
  };
  return op;
}

// Pendulum: V = -sum_i m_i g.pos_i has the diagonal Hessian
// d2V/dphi_j^2 = (sum_{i>=j} m_i) R_j g.e_j with e_j = (sin phi_j, -cos phi_j)
// (docs/scenes.md#pendulums); M(phi) and M^-1 are applied in O(N) by the recursions of
// sim/pendulum.hpp.
MOperator pendulumOperator(const PendulumModel& m, const State& s, Eigen::VectorXd& hessian,
                           PendulumWork& work) {
  const int n = m.links();
  hessian.resize(n);
  double tail = 0.0;
  for (int j = n - 1; j >= 0; --j) {
    tail += m.mass[j];
    const double ge = m.gravity.x() * std::sin(s.x[j]) - m.gravity.y() * std::cos(s.x[j]);
    hessian[j] = tail * m.length[j] * ge;
  }
  MOperator op;
  op.n = n;
  op.mass = [&m, &s](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    pendulumMomentum(m, s.x, x, y);
  };
  op.apply = [&m, &s, &hessian, &work](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    const Eigen::VectorXd kx = hessian.cwiseProduct(x);
    pendulumVelocity(m, s.x, kx, y, work);
  };
  return op;
}

}  // namespace

namespace {
// sqrt of the largest eigenvalue, 0 when none is positive
double omegaOf(double lambda) {
  return lambda > 0.0 ? std::sqrt(lambda) : 0.0;
}
}  // namespace

double omegaMax(const MassSpringModel& m, const State& s) {
  std::vector<Eigen::Matrix3d> blocks;
  std::vector<int> freeOf;
  return omegaOf(largestEigenvalue(massSpringOperator(m, s, blocks, freeOf)));
}

double omegaMax(const PendulumModel& m, const State& s) {
  Eigen::VectorXd hessian;
  PendulumWork work;
  return omegaOf(largestEigenvalue(pendulumOperator(m, s, hessian, work)));
}

namespace {

// Arnoldi steps at most for localOmega: the outermost eigenvalues converge first; with 2N below
// it the whole spectrum is found (exact to round-off).
constexpr int kMaxArnoldi = 32;
// Central differences of the vector field: the step relative to the state's size (truncation
// O(eps^2), round-off O(1e-16 / eps): both ~1e-10 relative).
constexpr double kDifferenceStep = 1e-6;
// The reference run: rk4 at h omega <= kReferenceShare * 2 sqrt(2) (a fast mode turns 16 degrees
// per step), at least kMinReferenceSteps over the run.
constexpr double kReferenceShare = 0.1;
constexpr double kMinReferenceSteps = 1000;
// localOmega is sampled at least kMinSamples times over the run and, for a pendulum, at least
// kSamplesPerQuarter times per quarter period of the fastest frequency in sight (the tension
// estimate or the last sample): a pendulum's frequency spikes as a link whips.
constexpr int kMinSamples = 64;
constexpr double kSamplesPerQuarter = 2.0;
// A frequency counts at the level it holds for this share of its period: about one step of a
// method at its limit (2 sqrt(2) / (2 pi) = 0.45 of a period for rk4, 0.32 for symplectic_euler
// and verlet). The bare peak puts rk4's limit at a third to a half of where sweep diverges.
constexpr double kSpanPeriods = 0.4;
// The cost bound, in degrees of freedom times steps (each rk4 step is 4 force passes) and in
// degrees of freedom times samples (each an Arnoldi run, or a Lanczos run that costs about
// kLanczosCost times as much per degree of freedom): a few seconds at most beside the initial
// state's omega_max (a 256 x 256 cloth: the initial state and a few steps).
constexpr double kMaxReferenceWork = 4e6;
constexpr double kMaxSampleWork = 4e5;
constexpr double kLanczosCost = 4.0;
// A spring network's rk4 step costs about this many times a pendulum's per degree of freedom
// (three springs a particle, each a 3 x 3 block, four passes).
constexpr double kSpringStepCost = 8.0;

// The largest |eigenvalue| of a general n x n operator by Arnoldi with modified Gram-Schmidt
// applied twice (Saad, Numerical Methods for Large Eigenvalue Problems, alg. 6.2).
double spectralRadius(int n,
                      const std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)>& op) {
  if (n == 0) return 0.0;
  const int m = std::min(n, kMaxArnoldi);
  Eigen::MatrixXd V(n, m + 1), H = Eigen::MatrixXd::Zero(m + 1, m);
  for (int i = 0; i < n; ++i) V(i, 0) = 1.0 + 0.5 * std::sin(1.7 * i);  // deterministic, generic
  V.col(0).normalize();
  Eigen::VectorXd w;
  int cols = 0;  // the Hessenberg matrix's size
  while (cols < m) {
    op(V.col(cols), w);
    const double size = w.norm();
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i <= cols; ++i) {
        const double c = V.col(i).dot(w);
        H(i, cols) += c;
        w -= c * V.col(i);
      }
    const double b = w.norm();
    ++cols;
    constexpr double kBreakdown = 1e-12;               // relative: what is left of w is round-off
    if (!(b > kBreakdown * size) || cols == m) break;  // an invariant subspace, or the last step
    H(cols, cols - 1) = b;
    V.col(cols) = w / b;
  }
  const Eigen::MatrixXd top = H.topLeftCorner(cols, cols);
  if (!top.allFinite()) return std::numeric_limits<double>::quiet_NaN();
  return Eigen::EigenSolver<Eigen::MatrixXd>(top, false).eigenvalues().cwiseAbs().maxCoeff();
}

// The pendulum's first-order vector field z = (phi, phi') -> (phi', phi''), the grab included.
void pendulumField(const PendulumModel& m, const Eigen::VectorXd& z, Eigen::VectorXd& out,
                   PendulumWork& w) {
  const int n = m.links();
  const Eigen::VectorXd phi = z.head(n), omega = z.tail(n);
  Eigen::VectorXd acc, grab;
  if (m.grab >= 0) grabForce(m, phi, grab);
  pendulumAcceleration(m, phi, omega, acc, w, m.grab >= 0 ? &grab : nullptr);
  out.resize(2 * n);
  out << omega, acc;
}

// An estimate of the chain's top frequency from its rods' tensions (after pendulumAcceleration
// filled w.T): a bob between rods of tension T_i, T_{i+1} is held transversely by a stiffness
// T_i/R_i + T_{i+1}/R_{i+1}; Gershgorin's bound doubles it. O(N): it steers the reference run's
// step and picks the states that get an exact localOmega.
double tensionOmega(const PendulumModel& m, const PendulumWork& w) {
  const int n = m.links();
  double top = 0.0;
  for (int i = 0; i < n; ++i) {
    double k = std::abs(w.T[i]) / m.length[i];
    if (i + 1 < n) k += std::abs(w.T[i + 1]) / m.length[i + 1];
    top = std::max(top, 2.0 * k / m.mass[i]);
  }
  return std::sqrt(top);
}

}  // namespace

double localOmega(const PendulumModel& m, const State& s) {
  const int n = m.links();
  Eigen::VectorXd z(2 * n), plus, minus;
  z << s.x, s.v;
  const double eps = kDifferenceStep * (1.0 + z.cwiseAbs().maxCoeff());
  PendulumWork w;
  return spectralRadius(2 * n, [&](const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    pendulumField(m, z + eps * v, plus, w);
    pendulumField(m, z - eps * v, minus, w);
    out = (plus - minus) / (2.0 * eps);
  });
}

double localOmega(const System& sys, const State& s) {
  if (const PendulumModel* p = sys.pendulum()) return localOmega(*p, s);
  return sys.omegaMax(s);
}

bool linearLimitMayFail(const System& sys) {
  return sys.pendulum() != nullptr;
}

bool localOmegaIsCheap(const System& sys) {
  constexpr int kCheapDofs = 2000;  // a Lanczos run of ~80 products: a few milliseconds
  return sys.pendulum() != nullptr || sys.dofs() <= kCheapDofs;
}

namespace {

// rk4's step at local frequency omega: kReferenceShare of its limit, at most `longest`.
double referenceStep(double omega, double longest) {
  const double bound = 2.0 * std::numbers::sqrt2;
  return omega > 0.0 ? std::min(longest, kReferenceShare * bound / omega) : longest;
}

std::string secondsText(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", t);
  return buf;
}

}  // namespace

namespace {

struct Sample {
  double t, omega;  // s, rad/s
};

// The frequency at time t between samples a and b, linear in between.
double between(const Sample& a, const Sample& b, double t) {
  return a.omega + (b.omega - a.omega) * (t - a.t) / (b.t - a.t);
}

// The largest level the samples (joined by straight lines) hold over kSpanPeriods of its own
// period 2 pi / omega, centred on a sample: a spike shorter than that falls between the steps of
// a method at its limit (h omega = 2 or 2 sqrt(2)) and cannot turn an oscillation around, so it
// does not set the limit (docs/integrators.md#stability-limits).
Sample sustained(const std::vector<Sample>& samples) {
  Sample best{0.0, 0.0};
  const size_t n = samples.size();
  for (size_t i = 0; i < n; ++i) {
    double level = samples[i].omega;
    for (int pass = 0; pass < 2 && level > best.omega; ++pass) {  // the span follows the level
      const double t = samples[i].t, half = kSpanPeriods * std::numbers::pi / level;
      double low = samples[i].omega;
      size_t lo = i, hi = i;
      for (; lo > 0 && samples[lo - 1].t >= t - half; --lo)
        low = std::min(low, samples[lo - 1].omega);
      for (; hi + 1 < n && samples[hi + 1].t <= t + half; ++hi)
        low = std::min(low, samples[hi + 1].omega);
      if (lo > 0) low = std::min(low, between(samples[lo - 1], samples[lo], t - half));
      if (hi + 1 < n) low = std::min(low, between(samples[hi], samples[hi + 1], t + half));
      level = low;
    }
    if (level > best.omega) best = {samples[i].t, level};
  }
  return best;
}

}  // namespace

MotionSpectrum motionSpectrum(const System& sys, const State& initial, double seconds) {
  MotionSpectrum r;
  r.omega_initial = sys.omegaMax(initial);
  std::vector<Sample> samples{{initial.t, localOmega(sys, initial)}};
  const double dofs = std::max(1, sys.dofs());
  const double stepCost = sys.pendulum() ? dofs : kSpringStepCost * dofs;
  const long long maxSteps = static_cast<long long>(kMaxReferenceWork / stepCost) + 1;
  const double sampleCost = sys.pendulum() ? dofs : kLanczosCost * dofs;
  const size_t maxSamples = static_cast<size_t>(kMaxSampleWork / sampleCost) + 2;
  const double end = initial.t + std::max(seconds, 0.0);
  const double longest = seconds / kMinReferenceSteps;
  const double coarse = seconds / std::min<double>(kMinSamples, std::max<double>(maxSamples, 1));
  const PendulumModel* pendulum = sys.pendulum();
  double fastest = samples[0].omega, nextSample = initial.t + coarse;
  auto stepper = sys.stepper(Method::Rk4, referenceStep(fastest, longest), initial);
  PendulumWork work;
  Eigen::VectorXd acc;
  while (seconds > 0.0 && stepper->state().t < end - 1e-12 * seconds) {
    const double h = std::min(referenceStep(fastest, longest), end - stepper->state().t);
    if (h != stepper->dt()) stepper->setDt(h);
    if (auto d = stepper->advance()) {
      r.stopped = "the reference run diverged at t = " + secondsText(d->t) + " s";
      break;
    }
    const State& s = stepper->state();
    r.seconds = s.t - initial.t;
    double estimate = 0.0;  // the tensions' (a pendulum's), between the samples
    if (pendulum) {
      pendulumAcceleration(*pendulum, s.x, s.v, acc, work);
      estimate = tensionOmega(*pendulum, work);
    }
    fastest = std::max(samples.back().omega, estimate);
    const bool last = !(s.t < end - 1e-12 * seconds);
    if (s.t >= nextSample || last) {
      samples.push_back({s.t, localOmega(sys, s)});
      fastest = std::max(samples.back().omega, estimate);
      double spacing = coarse;
      if (pendulum && fastest > 0.0)
        spacing = std::min(spacing, 0.5 * std::numbers::pi / fastest / kSamplesPerQuarter);
      nextSample = s.t + spacing;
    }
    ++r.steps;
    if (!last && (r.steps >= maxSteps || samples.size() >= maxSamples)) {
      r.stopped = "the cost bound stopped it at t = " + secondsText(s.t) + " s after " +
                  std::to_string(r.steps) + " steps";
      break;
    }
  }
  const Sample top = sustained(samples);
  r.omega_max = std::max(top.omega, r.omega_initial);
  r.t_of_max = top.omega >= r.omega_initial ? top.t - initial.t : 0.0;
  return r;
}

}  // namespace sim
