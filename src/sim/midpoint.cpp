#include "sim/midpoint.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

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

bool MidpointSolver::step(const PendulumModel& m, const State& in, double h, State& out) {
  const int n = m.links();
  Eigen::VectorXd z0(2 * n), z(2 * n), X, G, Xp;
  z0.head(n) = in.x;
  Eigen::VectorXd p0;
  pendulumMomentum(m, in.x, in.v, p0);
  z0.tail(n) = p0;
  // predictor: explicit half step
  field(m, z0, X);
  z = z0 + 0.5 * h * X;

  constexpr double kTol = 1e-13;
  constexpr int kMaxNewton = 40, kRestart = 40, kMaxKrylov = 400;
  krylov_its_ = 0;
  for (newton_its_ = 0;; ++newton_its_) {
    field(m, z, X);
    G = z - z0 - 0.5 * h * X;
    residual_ = relativeResidual(G, z, X, h, n);
    if (!std::isfinite(residual_)) {
      error_ = "implicit_midpoint: the Newton iteration produced a non-finite value";
      return false;
    }
    if (residual_ <= kTol) break;
    if (newton_its_ >= kMaxNewton) {
      if (residual_ <= 1e-12) break;  // the contract's bound, reached if not the margin below it
      error_ = "implicit_midpoint: Newton did not converge (relative residual " +
               std::to_string(residual_) + "); try a smaller dt";
      return false;
    }
    // GMRES on A d = -G, A d = d - (h/2) X'(z) d, X'(z) d by a forward difference
    const double zn = z.lpNorm<Eigen::Infinity>();
    auto apply = [&](const Eigen::VectorXd& d, Eigen::VectorXd& out) {
      const double dn = d.lpNorm<Eigen::Infinity>();
      if (dn == 0.0) {
        out.setZero(d.size());
        return;
      }
      const double eps = std::sqrt(std::numeric_limits<double>::epsilon()) * (1.0 + zn) / dn;
      field(m, z + eps * d, Xp);
      out = d - 0.5 * h * (Xp - X) / eps;
    };
    Eigen::VectorXd d = Eigen::VectorXd::Zero(2 * n), r = -G, Ad;
    const double bnorm = r.norm();
    const double target = 1e-10 * bnorm;
    while (krylov_its_ < kMaxKrylov) {
      // one restart cycle (Arnoldi with modified Gram-Schmidt, Givens rotations)
      apply(d, Ad);
      r = -G - Ad;
      const double beta = r.norm();
      if (beta <= target) break;
      Eigen::MatrixXd V(2 * n, kRestart + 1), H = Eigen::MatrixXd::Zero(kRestart + 1, kRestart);
      Eigen::VectorXd cs(kRestart), sn(kRestart), g = Eigen::VectorXd::Zero(kRestart + 1);
      V.col(0) = r / beta;
      g[0] = beta;
      int k = 0;
      for (; k < kRestart && krylov_its_ < kMaxKrylov; ++k, ++krylov_its_) {
        Eigen::VectorXd wv;
        apply(V.col(k), wv);
        for (int i = 0; i <= k; ++i) {
          H(i, k) = V.col(i).dot(wv);
          wv -= H(i, k) * V.col(i);
        }
        H(k + 1, k) = wv.norm();
        const bool breakdown = !(H(k + 1, k) > 0.0);  // the Krylov space is invariant: exact
        if (!breakdown) V.col(k + 1) = wv / H(k + 1, k);
        for (int i = 0; i < k; ++i) {
          const double t = cs[i] * H(i, k) + sn[i] * H(i + 1, k);
          H(i + 1, k) = -sn[i] * H(i, k) + cs[i] * H(i + 1, k);
          H(i, k) = t;
        }
        const double den = std::hypot(H(k, k), H(k + 1, k));
        cs[k] = den > 0.0 ? H(k, k) / den : 1.0;
        sn[k] = den > 0.0 ? H(k + 1, k) / den : 0.0;
        H(k, k) = den;
        H(k + 1, k) = 0.0;
        g[k + 1] = -sn[k] * g[k];
        g[k] = cs[k] * g[k];
        if (std::abs(g[k + 1]) <= target || breakdown) {
          ++k, ++krylov_its_;
          break;
        }
      }
      // solve the k x k upper-triangular system and update d
      const Eigen::VectorXd y =
          H.topLeftCorner(k, k).triangularView<Eigen::Upper>().solve(g.head(k));
      d += V.leftCols(k) * y;
      if (std::abs(g[k]) <= target) break;
    }
    z += d;
  }
  out.t = in.t + h;
  out.x = 2.0 * z.head(n) - in.x;
  const Eigen::VectorXd p1 = 2.0 * z.tail(n) - p0;
  pendulumVelocity(m, out.x, p1, omega_, w_);
  out.v = omega_;
  return true;
}

}  // namespace sim
