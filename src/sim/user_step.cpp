#include "sim/user_step.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/dirk_stage.hpp"
#include "sim/forces.hpp"

namespace sim {

namespace {
// The largest denominator tried for a row's common fraction: the classical tableaux's are small
// (6 for rk4, 8 for the 3/8 rule, 9 for Ralston's); Dormand-Prince's are not, and stay decimals.
constexpr int kMaxDenominator = 4096;
// A coefficient times D is the whole number n when it is this close, relative: the files give 16
// or 17 digits, so 1/6 written as 0.16666666666666666 is 1/6.
constexpr double kFractionTolerance = 1e-14;

UserMethodSolver::Combination combination(const std::vector<double>& coefficients, int count) {
  UserMethodSolver::Combination c;
  for (int j = 0; j < count; ++j)
    if (coefficients[j] != 0.0) c.terms.push_back({j, coefficients[j]});
  for (int d = 1; d <= kMaxDenominator && !c.terms.empty(); ++d) {
    bool whole = true;
    for (const auto& t : c.terms) {
      const double n = t.second * d;
      whole =
          whole && std::abs(n - std::round(n)) <= kFractionTolerance * std::max(1.0, std::abs(n));
    }
    if (!whole) continue;
    c.divisor = d;
    for (auto& t : c.terms) t.second = std::round(t.second * d);
    break;
  }
  return c;
}
}  // namespace

UserMethodSolver::UserMethodSolver() = default;
UserMethodSolver::~UserMethodSolver() = default;

void UserMethodSolver::prepare(const MethodCoefficients& method) {
  if (prepared_ == &method) return;
  prepared_ = &method;
  rows_.clear();
  const int s = static_cast<int>(method.b.size());
  for (int i = 0; i < s; ++i) rows_.push_back(combination(method.a[i], i));  // below the diagonal
  rows_.push_back(combination(method.b, s));
  kx_.resize(s), kv_.resize(s);
}

void UserMethodSolver::accel(const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                             Eigen::VectorXd& a) {
  if (pendulum_)
    pendulumAcceleration(*pendulum_, x, v, a, pwork_);
  else
    acceleration(*springs_, x, v, a);
}

// out = base + (h / D) (n_1 k_1 + n_2 k_2 + ...), summed left to right as rk4's
// k1 + 2 k2 + 2 k3 + k4; or base + (a_1 h) k_1 + (a_2 h) k_2 + ... for decimals
void UserMethodSolver::combine(const Eigen::VectorXd& base, const Combination& c,
                               const std::vector<Eigen::VectorXd>& k, double h,
                               Eigen::VectorXd& out) {
  if (c.terms.empty()) {
    out = base;
    return;
  }
  if (c.divisor == 0.0) {
    out = base;
    for (const auto& [j, coefficient] : c.terms) out += (coefficient * h) * k[j];
    return;
  }
  bool first = true;
  for (const auto& [j, n] : c.terms) {
    if (first)
      n == 1.0 ? sum_ = k[j] : sum_ = n * k[j];
    else if (n == 1.0)
      sum_ += k[j];
    else
      sum_ += n * k[j];
    first = false;
  }
  out = base + (h / c.divisor) * sum_;
}

bool UserMethodSolver::rungeKutta(const MethodCoefficients& method, const State& in, double h,
                                  State& out) {
  prepare(method);
  const int s = static_cast<int>(method.b.size());
  residual_ = method.diagonallyImplicit() ? 0.0 : std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < s; ++i) {
    combine(in.x, rows_[i], kx_, h, out.x);  // the stage's X and V, before its own term
    combine(in.v, rows_[i], kv_, h, out.v);
    if (method.a[i][i] != 0.0) {
      if (!springs_) {
        error_ = method.name + ": a diagonally implicit method steps mass-spring systems only";
        return false;
      }
      if (!dirk_) dirk_ = std::make_unique<DirkStageSolver>();
      if (!dirk_->solve(*springs_, method.a[i][i] * h, out.x, out.v, kx_[i], kv_[i])) {
        error_ = method.name + ": " + dirk_->error();
        return false;
      }
      residual_ = std::max(residual_, dirk_->lastResidual());
      continue;
    }
    kx_[i] = out.v;
    accel(out.x, out.v, kv_[i]);
  }
  combine(in.x, rows_[s], kx_, h, out.x);
  combine(in.v, rows_[s], kv_, h, out.v);
  return true;
}

// drift x += (c h) v; kick v += (d h) a(x, v): verlet's (0.5 h) and h, written as verlet writes
// them
void UserMethodSolver::splitting(const MethodCoefficients& method, const State& in, double h,
                                 State& out) {
  out.x = in.x, out.v = in.v;
  for (const auto& st : method.stages) {
    if (st.drift) {
      out.x += (st.coefficient * h) * out.v;
    } else {
      accel(out.x, out.v, a_);
      out.v += (st.coefficient * h) * a_;
    }
  }
}

bool UserMethodSolver::step(const MethodCoefficients& method, const MassSpringModel* springs,
                            const PendulumModel* pendulum, const State& in, double h, State& out) {
  springs_ = springs, pendulum_ = pendulum;
  if (method.type == MethodCoefficients::Type::Splitting) {
    residual_ = std::numeric_limits<double>::quiet_NaN();
    splitting(method, in, h, out);
    return true;
  }
  return rungeKutta(method, in, h, out);
}

}  // namespace sim
