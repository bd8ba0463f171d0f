#include "sim/midpoint.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "sim/gmres.hpp"
#include "util/format.hpp"

namespace sim {

// X(z) = (dH/dp, -dH/dphi + Q) at z = (phi, p), with dH/dp = phi' = M^-1 p.
void MidpointSolver::field(const PendulumModel& m, const Eigen::VectorXd& z, Eigen::VectorXd& out) {
  const int n = m.links();
  const Eigen::VectorXd phi = z.head(n), p = z.tail(n);
  pendulumVelocity(m, phi, p, omega_, w_);
  pendulumHamiltonianGradient(m, phi, omega_, grad_);
  jointDampingForce(m, omega_, q_);
  if (m.grab >= 0) {
    Eigen::VectorXd g;
    grabForce(m, phi, g);
    q_ += g;
  }
  out.resize(2 * n);
  out.head(n) = omega_;
  out.tail(n) = -grad_ + q_;
}

namespace {

// max over the two halves of |G| / scale, the scale of each half being |z| + (h/2)|X|
double relativeResidual(const Eigen::VectorXd& G, const Eigen::VectorXd& z,
                        const Eigen::VectorXd& X, double h, int n) {
  double r = 0.0;
  for (int half = 0; half < 2; ++half) {
    const double g = G.segment(half * n, n).lpNorm<Eigen::Infinity>();
    const double s = z.segment(half * n, n).lpNorm<Eigen::Infinity>() +
                     0.5 * h * X.segment(half * n, n).lpNorm<Eigen::Infinity>();
    if (g == 0.0) continue;
    r = std::max(r, s > 0.0 ? g / s : std::numeric_limits<double>::infinity());
  }
  return r;
}

}  // namespace

// Newton's direction d for G(z) = 0: (I - (h/2) X'(z)) d = -G by GMRES, with X'(z) d a forward
// difference of the field. Counts its Krylov iterations in krylov_its_.
void MidpointSolver::newtonDirection(const PendulumModel& m, const Eigen::VectorXd& z,
                                     const Eigen::VectorXd& X, const Eigen::VectorXd& G, double h,
                                     Eigen::VectorXd& d) {
  const double zn = z.lpNorm<Eigen::Infinity>();
  const auto apply = [&](const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    const double vn = v.lpNorm<Eigen::Infinity>();
    if (vn == 0.0) {
      out.setZero(v.size());
      return;
    }
    // the difference step balances truncation (~eps) against round-off (~sqrt(machine eps))
    const double eps = std::sqrt(std::numeric_limits<double>::epsilon()) * (1.0 + zn) / vn;
    field(m, z + eps * v, Xp_);
    out = v - 0.5 * h * (Xp_ - X) / eps;
  };
  GmresSettings settings;
  settings.restart = kRestart;
  settings.max_iterations = kMaxKrylov - krylov_its_;
  settings.tolerance = kKrylovTolerance;
  krylov_its_ += gmres(apply, -G, d, settings).iterations;
}

bool MidpointSolver::step(const PendulumModel& m, const State& in, double h, State& out) {
  const int n = m.links();
  Eigen::VectorXd z0(2 * n), z, X, G, d, p0;
  z0.head(n) = in.x;
  pendulumMomentum(m, in.x, in.v, p0);
  z0.tail(n) = p0;
  field(m, z0, X);
  z = z0 + 0.5 * h * X;  // predictor: an explicit half step

  krylov_its_ = 0;
  for (int newton = 0;; ++newton) {
    field(m, z, X);
    G = z - z0 - 0.5 * h * X;
    residual_ = relativeResidual(G, z, X, h, n);
    if (!std::isfinite(residual_)) {
      error_ = "implicit_midpoint: the Newton iteration produced a non-finite value";
      return false;
    }
    if (residual_ <= kTol) break;
    if (newton >= kMaxNewton) {
      if (residual_ <= kRequiredTol) break;  // the margin below the bound was not reached
      error_ = "implicit_midpoint: Newton did not converge (relative residual " +
               util::messageNumber(residual_) + "); try a smaller dt";
      return false;
    }
    newtonDirection(m, z, X, G, h, d);
    z += d;
  }
  // z is the midpoint: the step's end is 2 z - (its start)
  out.t = in.t + h;
  out.x = 2.0 * z.head(n) - in.x;
  const Eigen::VectorXd p1 = 2.0 * z.tail(n) - p0;
  pendulumVelocity(m, out.x, p1, omega_, w_);
  out.v = omega_;
  return true;
}

}  // namespace sim
