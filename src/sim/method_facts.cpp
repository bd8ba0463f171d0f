// The facts of method_facts.hpp from the coefficients alone (docs/integrators.md#your-own-method).
#include "sim/method_facts.hpp"

#include <algorithm>
#include <cmath>

namespace sim {

namespace {

using Vec = std::vector<double>;
using Poly = std::vector<double>;  // coefficients, lowest power first

// An order condition holds when its two sides agree to this: the shipped files' coefficients are
// written to 16 or 17 digits, so their conditions hold to about 1e-15.
constexpr double kOrderConditionTolerance = 1e-10;
// A coefficient of |R|^2 - 1 below this times the sum of its terms' magnitudes is round-off of a
// coefficient that is zero exactly (the order conditions make the low ones vanish).
constexpr double kCancelled = 1e-11;
// The scans for a sign change of |R|^2 - 1: fine steps first, then geometric ones out to
// kFarthest, beyond which the method counts as stable on the whole half-axis.
constexpr double kFineStep = 1e-3, kFineEnd = 20.0, kGrowth = 1.001, kFarthest = 1e6;
// The splitting's scan: its trace is a polynomial in theta, so it leaves [-2, 2] before this.
constexpr double kSplittingEnd = 200.0;
constexpr int kBisections = 60;

Vec mul(const Tableau& a, const Vec& v) {
  Vec out(v.size(), 0.0);
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < v.size(); ++j) out[i] += a[i][j] * v[j];
  return out;
}
Vec times(const Vec& u, const Vec& v) {
  Vec out(u.size());
  for (size_t i = 0; i < u.size(); ++i) out[i] = u[i] * v[i];
  return out;
}
double dot(const Vec& u, const Vec& v) {
  double s = 0.0;
  for (size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
  return s;
}

bool holds(double lhs, double rhs) {
  return std::abs(lhs - rhs) <= kOrderConditionTolerance;
}

Poly polyMul(const Poly& p, const Poly& q) {
  Poly r(p.size() + q.size() - 1, 0.0);
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = 0; j < q.size(); ++j) r[i + j] += p[i] * q[j];
  return r;
}
void polyAdd(Poly& p, const Poly& q, double scale = 1.0) {
  if (p.size() < q.size()) p.resize(q.size(), 0.0);
  for (size_t i = 0; i < q.size(); ++i) p[i] += scale * q[i];
}
Poly shift(const Poly& p) {  // z p(z)
  Poly r(p.size() + 1, 0.0);
  std::copy(p.begin(), p.end(), r.begin() + 1);
  return r;
}

// R = P / Q for a lower-triangular a: u = (I - z a)^-1 1 by forward substitution with
// u_i = p_i / q_i, q_i = prod_{j <= i} (1 - z a_jj).
void stabilityPolynomials(const Tableau& a, const Vec& b, Poly& P, Poly& Q) {
  const size_t s = b.size();
  std::vector<Poly> q(s + 1), p(s);
  q[0] = {1.0};  // q[i + 1] is q_i of stage i
  for (size_t i = 0; i < s; ++i) {
    p[i] = q[i];
    for (size_t j = 0; j < i; ++j) {
      if (a[i][j] == 0.0) continue;
      Poly between = {1.0};  // q_{i-1} / q_j
      for (size_t k = j + 1; k < i; ++k) between = polyMul(between, {1.0, -a[k][k]});
      polyAdd(p[i], shift(polyMul(p[j], between)), a[i][j]);
    }
    q[i + 1] = polyMul(q[i], {1.0, -a[i][i]});
  }
  Q = q[s];
  P = Q;
  for (size_t i = 0; i < s; ++i) {
    Poly rest = {1.0};  // q_s / q_i
    for (size_t k = i + 1; k < s; ++k) rest = polyMul(rest, {1.0, -a[k][k]});
    polyAdd(P, shift(polyMul(p[i], rest)), b[i]);
  }
}

// p(i y) split into its real and imaginary parts, each a polynomial in y
void onImaginaryAxis(const Poly& p, Poly& re, Poly& im) {
  re.assign(p.size(), 0.0), im.assign(p.size(), 0.0);
  for (size_t k = 0; k < p.size(); ++k) {
    const double sign = (k / 2) % 2 == 0 ? 1.0 : -1.0;  // i^k = 1, i, -1, -i
    (k % 2 == 0 ? re : im)[k] = sign * p[k];
  }
}

// |P|^2 - |Q|^2 on an axis as a polynomial in the distance along it, with the coefficients
// that are round-off of exact zeros set to zero
Poly boundaryPolynomial(const Poly& P, const Poly& Q, bool imaginary) {
  Poly pr, pi, qr, qi;
  if (imaginary) {
    onImaginaryAxis(P, pr, pi), onImaginaryAxis(Q, qr, qi);
  } else {  // z = -x
    pr = P, qr = Q, pi = {0.0}, qi = {0.0};
    for (size_t k = 1; k < pr.size(); k += 2) pr[k] = -pr[k];
    for (size_t k = 1; k < qr.size(); k += 2) qr[k] = -qr[k];
  }
  Poly e = polyMul(pr, pr), scale;
  polyAdd(e, polyMul(pi, pi)), polyAdd(e, polyMul(qr, qr), -1.0), polyAdd(e, polyMul(qi, qi), -1.0);
  auto absolute = [](Poly p) {
    for (double& x : p) x = std::abs(x);
    return p;
  };
  for (const Poly* f : {&pr, &pi, &qr, &qi}) polyAdd(scale, polyMul(absolute(*f), absolute(*f)));
  for (size_t k = 0; k < e.size(); ++k)
    if (std::abs(e[k]) <= kCancelled * scale[k]) e[k] = 0.0;
  return e;
}

double evaluate(const Poly& p, double x) {
  double r = 0.0;
  for (size_t k = p.size(); k-- > 0;) r = r * x + p[k];
  return r;
}

// The first t > 0 where f turns positive, refined by bisection; nothing before `end`.
template <class F>
std::optional<double> firstPositive(F f, double end) {
  double lo = 0.0;
  for (double t = kFineStep; t <= end; t = t < kFineEnd ? t + kFineStep : t * kGrowth) {
    if (!(f(t) > 0.0)) {
      lo = t;
      continue;
    }
    double hi = t;
    for (int i = 0; i < kBisections; ++i) {
      const double mid = 0.5 * (lo + hi);
      (f(mid) > 0.0 ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
  }
  return std::nullopt;
}

std::optional<double> axisBoundary(const Tableau& a, const Vec& b, bool imaginary) {
  Poly P, Q;
  stabilityPolynomials(a, b, P, Q);
  const Poly e = boundaryPolynomial(P, Q, imaginary);
  // |R|^2 > 1 right from 0 when the lowest non-zero coefficient is positive
  for (size_t k = 1; k < e.size(); ++k) {
    if (e[k] > 0.0) return 0.0;
    if (e[k] < 0.0) break;
  }
  return firstPositive([&](double t) { return evaluate(e, t); }, kFarthest);
}

}  // namespace

int orderFromConditions(const Tableau& a, const Vec& b, const Vec& c) {
  double sb = 0.0;
  for (double w : b) sb += w;
  if (!holds(sb, 1.0)) return 0;
  if (!holds(dot(b, c), 1.0 / 2)) return 1;
  const Vec c2 = times(c, c), Ac = mul(a, c);
  if (!holds(dot(b, c2), 1.0 / 3) || !holds(dot(b, Ac), 1.0 / 6)) return 2;
  const Vec c3 = times(c2, c), Ac2 = mul(a, c2), AAc = mul(a, Ac);
  if (!holds(dot(b, c3), 1.0 / 4) || !holds(dot(b, times(c, Ac)), 1.0 / 8) ||
      !holds(dot(b, Ac2), 1.0 / 12) || !holds(dot(b, AAc), 1.0 / 24))
    return 3;
  // the nine trees with five vertices
  const bool five =
      holds(dot(b, times(c3, c)), 1.0 / 5) && holds(dot(b, times(c2, Ac)), 1.0 / 10) &&
      holds(dot(b, times(c, Ac2)), 1.0 / 15) && holds(dot(b, times(c, AAc)), 1.0 / 30) &&
      holds(dot(b, times(Ac, Ac)), 1.0 / 20) && holds(dot(b, mul(a, c3)), 1.0 / 20) &&
      holds(dot(b, mul(a, times(c, Ac))), 1.0 / 40) && holds(dot(b, mul(a, Ac2)), 1.0 / 60) &&
      holds(dot(b, mul(a, AAc)), 1.0 / 120);
  return five ? 5 : 4;
}

std::complex<double> stabilityFunction(const Tableau& a, const Vec& b, std::complex<double> z) {
  const size_t s = b.size();
  std::vector<std::complex<double>> u(s);
  std::complex<double> sum = 0.0;
  for (size_t i = 0; i < s; ++i) {
    std::complex<double> rhs = 1.0;
    for (size_t j = 0; j < i; ++j) rhs += z * a[i][j] * u[j];
    u[i] = rhs / (1.0 - z * a[i][i]);
    sum += b[i] * u[i];
  }
  return 1.0 + z * sum;
}

std::optional<double> imaginaryBoundary(const Tableau& a, const Vec& b) {
  return axisBoundary(a, b, true);
}

std::optional<double> negativeRealBoundary(const Tableau& a, const Vec& b) {
  return axisBoundary(a, b, false);
}

bool symplecticTableau(const Tableau& a, const Vec& b) {
  for (size_t i = 0; i < b.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j)
      if (!holds(b[i] * a[i][j] + b[j] * a[j][i], b[i] * b[j])) return false;
  return true;
}

double splittingTrace(const std::vector<MethodCoefficients::Stage>& stages, double theta) {
  // (u, v) = (omega x, v): a drift is u += c theta v, a kick v -= d theta u
  double m[2][2] = {{1.0, 0.0}, {0.0, 1.0}};
  for (const auto& st : stages) {
    const double t = st.coefficient * theta;
    for (int col = 0; col < 2; ++col) {
      if (st.drift)
        m[0][col] += t * m[1][col];
      else
        m[1][col] -= t * m[0][col];
    }
  }
  return m[0][0] + m[1][1];
}

double splittingBoundary(const std::vector<MethodCoefficients::Stage>& stages) {
  const auto b = firstPositive([&](double t) { return std::abs(splittingTrace(stages, t)) - 2.0; },
                               kSplittingEnd);
  return b.value_or(kSplittingEnd);
}

MethodFacts methodFacts(const MethodCoefficients& m) {
  MethodFacts f;
  if (m.type == MethodCoefficients::Type::Splitting) {
    f.imaginary_axis = splittingBoundary(m.stages);
    f.symplectic = true;  // a composition of exact flows of T(v) and V(x)
    return f;
  }
  f.order = orderFromConditions(m.a, m.b, m.c);
  f.imaginary_axis = imaginaryBoundary(m.a, m.b);
  f.negative_real_axis = negativeRealBoundary(m.a, m.b);
  f.symplectic = symplecticTableau(m.a, m.b);
  return f;
}

}  // namespace sim
