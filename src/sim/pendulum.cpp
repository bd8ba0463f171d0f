#include "sim/pendulum.hpp"

#include <bit>
#include <cmath>
#include <cstdint>

#include "sim/simd.hpp"
#include "sim/simd_lanes.hpp"

namespace sim {

// clang-format off
// O(N) forward dynamics through the rod tensions.
//
// Bob i (0-based) feels its rod's tension -T_i e_i, the next rod's +T_{i+1} e_{i+1} (T_N = 0) and
// the applied force F_i, so
//
//   m_i a_i = -T_i e_i + T_{i+1} e_{i+1} + F_i.
//
// Differentiating the rod constraint |x_i - x_{i-1}| = R_i twice gives
//
//   e_i . (a_i - a_{i-1}) = -R_i phi'_i^2        (a_{-1} = 0: the pivot).
//
// Substituting a_i yields one symmetric tridiagonal system for the tensions:
//
//   A_i T_i - B_i T_{i+1} - B_{i-1} T_{i-1}
//       = R_i phi'_i^2 + e_i.F_i/m_i - [i>0] e_i.F_{i-1}/m_{i-1}
//
//   A_i = 1/m_i + [i>0] 1/m_{i-1}
//   B_i = (e_i . e_{i+1}) / m_i = cos(phi_{i+1} - phi_i) / m_i
//
// which is J Mc^-1 J^T (positive definite) and is solved in O(N) by elimination from both ends.
// Then
//
//   phi''_i = n_i . (a_i - a_{i-1}) / R_i,      n_i = (cos phi_i, sin phi_i) = de_i/dphi_i.
//
// A generalised force Q_k enters as the pair +Q_k/R_k n_k on bob k and -Q_k/R_k n_k on bob k-1
// (whose virtual work is exactly Q_k dphi_k). This equals M(phi)^-1 (Q - C) of seed 004's dense
// N x N system, which the tests keep as the oracle.
// clang-format on
namespace {

// sin and cos by Cody and Waite's reduction to |r| <= pi/4 and fdlibm's kernels (k_sin.c,
// k_cos.c: minimax polynomials, under an ulp on that interval), in plain multiplications and
// additions that a vectorising compiler turns into vector instructions of any width. The constants
// are fdlibm's: pi/2 in three parts of 33 bits, so that j * part is exact for |j| < 2^20.
constexpr double kTwoOverPi = 6.36619772367581382433e-01;
constexpr double kPio2Part1 = 1.57079632673412561417e+00, kPio2Part2 = 6.07710050630396597660e-11,
                 kPio2Part3 = 2.02226624871116645580e-21;
constexpr double kRoundingShift = 0x1.8p52;  // v + shift - shift: v rounded to an integer
// |x| >= 2^19 (biased exponent from here), infinities and NaNs: the C library's sin and cos
constexpr std::uint64_t kFarExponent = 1023 + 19;
constexpr double kS1 = -1.66666666666666324348e-01, kS2 = 8.33333333332248946124e-03,
                 kS3 = -1.98412698298579493134e-04, kS4 = 2.75573137070700676789e-06,
                 kS5 = -2.50507602534068634195e-08, kS6 = 1.58969099521155010221e-10;
constexpr double kC1 = 4.16666666666666019037e-02, kC2 = -1.38888888888741095749e-03,
                 kC3 = 2.48015872894767294178e-05, kC4 = -2.75573143513906633035e-07,
                 kC5 = 2.08757232129817482790e-09, kC6 = -1.13596475577881948265e-11;

// One angle; inlined into each target's loop below, where the compiler vectorises it.
[[gnu::always_inline]] inline void sinCosOne(double x, double& s, double& c) {
  const double j = (x * kTwoOverPi + kRoundingShift) - kRoundingShift;  // the nearest quadrant
  const double r = ((x - j * kPio2Part1) - j * kPio2Part2) - j * kPio2Part3;
  const double z = r * r, w = z * z;
  const double sr = r + (z * r) * (kS1 + z * (kS2 + z * (kS3 + z * (kS4 + z * (kS5 + z * kS6)))));
  const double pc = z * (kC1 + z * (kC2 + z * kC3)) + (w * w) * (kC4 + z * (kC5 + z * kC6));
  const double hz = 0.5 * z, v = 1.0 - hz;
  const double cr = v + (((1.0 - v) - hz) + z * pc);
  // j mod 4 = q in 0..3 (no ties to round), then sin x = sr, cr, -sr, -cr and cos x = cr, -sr,
  // -cr, sr by q: chosen by exact multiplications with 0, 1 and -1 (comparisons would make the
  // loop branch, which no vector path takes)
  auto round = [](double v) { return (v + kRoundingShift) - kRoundingShift; };
  const double q = j - 4.0 * round(j * 0.25 - 0.375);
  const double odd = q - 2.0 * round(q * 0.5 - 0.25);  // 0 or 1
  const double a = sr * (1.0 - odd) + cr * odd, b = cr * (1.0 - odd) + sr * odd;
  s = a * (1.0 - (q - odd));                        // q >= 2: -1
  c = b * (1.0 - 2.0 * (1.5 - std::abs(q - 1.5)));  // q = 1 or 2: -1
}

// Whether x is beyond the reduction's reach (or not finite), from its exponent's bits: integer
// operations, which vectorise and raise no floating-point exception on an infinity or a NaN.
[[gnu::always_inline]] inline std::uint64_t farAngle(std::uint64_t bits) {
  return ((bits >> 52) & 0x7ff) >= kFarExponent;
}

// sinCos's loop, compiled for each target below: the kernel takes 0 in place of a far angle,
// which the C library's sin and cos then take.
[[gnu::always_inline]] inline void sinCosBody(const double* __restrict x, double* __restrict s,
                                              double* __restrict c, int n) {
  std::uint64_t anyFar = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(x[i]), far = farAngle(bits);
    anyFar |= far;
    sinCosOne(std::bit_cast<double>(bits & (far - 1)), s[i], c[i]);  // far: +0
  }
  if (anyFar)
    for (int i = 0; i < n; ++i)
      if (farAngle(std::bit_cast<std::uint64_t>(x[i])))
        s[i] = std::sin(x[i]), c[i] = std::cos(x[i]);
}

void sinCosGeneric(const double* x, double* s, double* c, int n) {
  sinCosBody(x, s, c, n);
}
#ifdef SPRINGLAB_X86_SIMD
SPRINGLAB_AVX2 void sinCosAvx2(const double* x, double* s, double* c, int n) {
  sinCosBody(x, s, c, n);
}
SPRINGLAB_AVX512 void sinCosAvx512(const double* x, double* s, double* c, int n) {
  sinCosBody(x, s, c, n);
}
#endif

}  // namespace

void sinCos(const double* x, double* s, double* c, int n) {
#ifdef SPRINGLAB_X86_SIMD
  if (wideSimdEnabled()) return sinCosAvx512(x, s, c, n);
  if (simdEnabled()) return sinCosAvx2(x, s, c, n);
#endif
  sinCosGeneric(x, s, c, n);
}

namespace {

// The sweeps' work arrays (PendulumWork's, sized to the chain's n links). Each sweep is a loop of
// its own over contiguous arrays: the ones without a recurrence (the forces, the rows, the
// accelerations) vectorise, and the two recurrences (elimination, back substitution) run with
// nothing else in their way. The split itself changes no bit (each value by the same operations in
// the same order as in one fused sweep); sinCos and the solve from both ends round a little
// differently from the C library's sin and cos and a solve from one end.
struct TensionArrays {
  int n;
  double* __restrict sn;   // each link's sin
  double* __restrict cs;   // and cos
  double* __restrict inv;  // each bob's inverse mass
  double* __restrict fx;   // bob i's applied force over its mass, F_i / m_i; then its acceleration
  double* __restrict fy;
  double* __restrict off;   // -B_i, the tension system's off-diagonal (first Q_i/R_i, if any)
  double* __restrict dinv;  // the diagonal A_i, then the inverse pivots
  double* __restrict rhs;   // the right-hand side, then eliminated, then the tensions
};

// Bob i's applied force over its mass: gravity, its link's pair +Q_i/R_i n_i and the reaction
// -Q_{i+1}/R_{i+1} n_{i+1} of the next link's (a generalised force Q_k enters as that pair).
// Without generalised forces the pairs are 0.0, multiplied as before (no sign of zero changes).
template <bool kPairs>
[[gnu::always_inline]] inline void appliedForces(const PendulumModel& m, bool gravity,
                                                 const TensionArrays& t) {
  const int n = t.n;
  const double gx = gravity ? m.gravity.x() : 0.0, gy = gravity ? m.gravity.y() : 0.0;
  const double *mass = m.mass.data(), *pair = t.off;
  auto pairOf = [&](int k) { return kPairs ? pair[k] : 0.0; };
  auto force = [&](int i, bool last) {
    double Fx = mass[i] * gx + pairOf(i) * t.cs[i], Fy = mass[i] * gy + pairOf(i) * t.sn[i];
    if (!last) Fx -= pairOf(i + 1) * t.cs[i + 1], Fy -= pairOf(i + 1) * t.sn[i + 1];
    t.fx[i] = Fx * t.inv[i], t.fy[i] = Fy * t.inv[i];
  };
  for (int i = 0; i < n; ++i) t.inv[i] = 1.0 / mass[i];
  for (int i = 0; i + 1 < n; ++i) force(i, false);
  force(n - 1, true);
}

// Row i of the tension system, A_i T_i - B_i T_{i+1} - B_{i-1} T_{i-1} = r_i:
//   r_i = e_i.F_i/m_i - [i>0] e_i.F_{i-1}/m_{i-1} + R_i phi'_i^2,  A_i = 1/m_i + [i>0] 1/m_{i-1}.
// The velocity term is a template argument and the rows' inner part two loops: with a test, or
// all of a row in one body, GCC 12 does not vectorise them.
template <bool kVelocity>
[[gnu::always_inline]] inline void tensionRows(const PendulumModel& m, const Eigen::VectorXd& omega,
                                               const TensionArrays& t) {
  const int n = t.n;
  const double *len = m.length.data(), *w = omega.data();
  // local copies: a store through one of t's pointers could otherwise change t itself
  const double* __restrict sn = t.sn, * __restrict cs = t.cs, * __restrict inv = t.inv;
  const double* __restrict fx = t.fx, * __restrict fy = t.fy;
  double* __restrict off = t.off, * __restrict rhs = t.rhs, * __restrict diag = t.dinv;
  auto row = [&](int i, bool first, bool last) {
    const double ex = sn[i], ey = -cs[i];
    double r = ex * fx[i] + ey * fy[i], a = inv[i];
    if (!first) a += inv[i - 1], r -= ex * fx[i - 1] + ey * fy[i - 1];
    if (kVelocity) r += len[i] * w[i] * w[i];
    off[i] = last ? 0.0 : -(cs[i] * cs[i + 1] + sn[i] * sn[i + 1]) * inv[i];
    rhs[i] = r, diag[i] = a;
  };
  row(0, true, n == 1);
  for (int i = 1; i + 1 < n; ++i) {
    const double ex = sn[i], ey = -cs[i];
    double r = ex * fx[i] + ey * fy[i];
    r -= ex * fx[i - 1] + ey * fy[i - 1];
    if (kVelocity) r += len[i] * w[i] * w[i];
    rhs[i] = r;
  }
  for (int i = 1; i + 1 < n; ++i) {
    diag[i] = inv[i] + inv[i - 1];
    off[i] = -(cs[i] * cs[i + 1] + sn[i] * sn[i + 1]) * inv[i];
  }
  if (n > 1) row(n - 1, false, true);
}

// One end's elimination of the tension system, with pivots d_i = p_i / p_{i-1} from its leading
// minors, p_i = A_i p_{i-1} - B^2 p_{i-2} (B the coupling to the row before): no division on the
// recurrence's critical path (the plain Thomas algorithm waits for one per row). The minors are
// rescaled by powers of two, which keep their ratios exact. Its values stay in registers (a
// store and reload would lengthen each row).
struct Elimination {
  double prev, cur;  // p_{i-1}, p_i
  double d, y;       // 1/d_i and the eliminated right-hand side of row i
  Elimination(double a, double r) : prev(1.0), cur(a), d(1.0 / a), y(r) {}
  // the next row (diagonal a, coupling o to this one, right-hand side r): its 1/d and y
  [[gnu::always_inline]] void row(double a, double o, double r, double& dOut, double& yOut) {
    const double next = a * cur - (o * o) * prev;
    prev = cur, cur = next;
    y = r - (o * d) * y;
    d = prev / cur;
    dOut = d, yOut = y;
    if (std::abs(cur) > 0x1p500 || std::abs(cur) < 0x1p-500) {
      const int e = std::ilogb(cur);
      cur = std::ldexp(cur, -e), prev = std::ldexp(prev, -e);
    }
  }
};

// Chains shorter than this are solved from one end.
constexpr int kTwistedLinks = 4;

// The tension system solved from both ends at once (a twisted factorisation): rows 0..k-1
// eliminated down from the pivot, rows n-1..k+1 up from the free end, two independent chains
// that the processor runs side by side; row k takes both, and back substitution runs outwards
// from it, again two chains. Each recurrence waits on a few operations' latency a row; two
// independent ones overlap (the elimination's division a row then bounds it: rope_1000's rk4
// step, 47 -> 44 us). Leaves the tensions in rhs.
[[gnu::always_inline]] inline void solveTensions(const TensionArrays& t) {
  const int n = t.n;
  double *off = t.off, *dinv = t.dinv, *rhs = t.rhs;
  const int k = n < kTwistedLinks ? n - 1 : n / 2;  // the meeting row (short chains: the last)
  Elimination down(dinv[0], rhs[0]);
  dinv[0] = down.d;
  int i = 1, j = n - 2;
  if (k < n - 1) {
    Elimination up(dinv[n - 1], rhs[n - 1]);
    dinv[n - 1] = up.d;
    for (; i < k && j > k; ++i, --j) {
      down.row(dinv[i], off[i - 1], rhs[i], dinv[i], rhs[i]);
      up.row(dinv[j], off[j], rhs[j], dinv[j], rhs[j]);
    }
    for (; j > k; --j) up.row(dinv[j], off[j], rhs[j], dinv[j], rhs[j]);
    for (; i < k; ++i) down.row(dinv[i], off[i - 1], rhs[i], dinv[i], rhs[i]);
    // row k, with both sides eliminated into it
    const double above = off[k - 1] * down.d, below = off[k] * up.d;
    const double gamma = (dinv[k] - above * off[k - 1]) - below * off[k];
    rhs[k] = ((rhs[k] - above * down.y) - below * up.y) / gamma;
  } else {
    for (; i <= k; ++i) down.row(dinv[i], off[i - 1], rhs[i], dinv[i], rhs[i]);
    rhs[k] *= dinv[k];
  }
  // back substitution outwards from row k
  double ti = rhs[k], tj = rhs[k];
  for (i = k - 1, j = k + 1; i >= 0 && j < n; --i, ++j) {
    rhs[i] = ti = (rhs[i] - off[i] * ti) * dinv[i];
    rhs[j] = tj = (rhs[j] - off[j - 1] * tj) * dinv[j];
  }
  for (; i >= 0; --i) rhs[i] = ti = (rhs[i] - off[i] * ti) * dinv[i];
  for (; j < n; ++j) rhs[j] = tj = (rhs[j] - off[j - 1] * tj) * dinv[j];
}

// Bob accelerations a_i = F_i/m_i + (-T_i e_i + T_{i+1} e_{i+1}) / m_i (in place of F_i/m_i),
// then phi''_i = n_i . (a_i - a_{i-1}) / R_i.
[[gnu::always_inline]] inline void accelerationsFromTensions(const PendulumModel& m,
                                                             const TensionArrays& t,
                                                             Eigen::VectorXd& acc) {
  const int n = t.n;
  const double *T = t.rhs, *len = m.length.data();
  auto bob = [&](int i, bool last) {
    double tx = -T[i] * t.sn[i], ty = T[i] * t.cs[i];
    if (!last) tx += T[i + 1] * t.sn[i + 1], ty -= T[i + 1] * t.cs[i + 1];
    t.fx[i] = t.fx[i] + tx * t.inv[i], t.fy[i] = t.fy[i] + ty * t.inv[i];
  };
  for (int i = 0; i + 1 < n; ++i) bob(i, false);
  bob(n - 1, true);
  acc.resize(n);
  double* __restrict out = acc.data();
  out[0] = (t.cs[0] * (t.fx[0] - 0.0) + t.sn[0] * (t.fy[0] - 0.0)) / len[0];
  for (int i = 1; i < n; ++i)
    out[i] = (t.cs[i] * (t.fx[i] - t.fx[i - 1]) + t.sn[i] * (t.fy[i] - t.fy[i - 1])) / len[i];
}

// The whole recursion (docs above): the link angles, the applied forces, the tension system's
// rows, its solution, the accelerations. `q` (may be null) holds generalised forces; `gravity`
// and `withVelocity` select the terms (both off gives M^-1 q). Compiled for each vector target
// (its loops vectorise at that width; the same operations, so the same bits).
[[gnu::always_inline]] inline void forwardDynamicsBody(const PendulumModel& m,
                                                       const Eigen::VectorXd& phi,
                                                       const Eigen::VectorXd& omega,
                                                       const Eigen::VectorXd* q, bool gravity,
                                                       bool withVelocity, Eigen::VectorXd& acc,
                                                       PendulumWork& w) {
  const int n = m.links();
  w.sn.resize(n), w.cs.resize(n), w.inv_mass.resize(n), w.fx.resize(n), w.fy.resize(n);
  w.off.resize(n), w.inv_pivot.resize(n), w.T.resize(n);
  const TensionArrays t{n,           w.sn.data(), w.cs.data(),  w.inv_mass.data(),
                        w.fx.data(), w.fy.data(), w.off.data(), w.inv_pivot.data(),
                        w.T.data()};
  sinCosBody(phi.data(), t.sn, t.cs, n);  // each link's sin and cos, once per evaluation
  if (q) {
    for (int k = 0; k < n; ++k) t.off[k] = (*q)[k] / m.length[k];
    appliedForces<true>(m, gravity, t);
  } else {
    appliedForces<false>(m, gravity, t);
  }
  if (withVelocity)
    tensionRows<true>(m, omega, t);
  else
    tensionRows<false>(m, omega, t);
  solveTensions(t);
  accelerationsFromTensions(m, t, acc);
}

#define SPRINGLAB_DYNAMICS_ARGS                                                        \
  const PendulumModel &m, const Eigen::VectorXd &phi, const Eigen::VectorXd &omega,    \
      const Eigen::VectorXd *q, bool gravity, bool withVelocity, Eigen::VectorXd &acc, \
      PendulumWork &w
void forwardDynamicsGeneric(SPRINGLAB_DYNAMICS_ARGS) {
  forwardDynamicsBody(m, phi, omega, q, gravity, withVelocity, acc, w);
}
#ifdef SPRINGLAB_X86_SIMD
SPRINGLAB_AVX2 void forwardDynamicsAvx2(SPRINGLAB_DYNAMICS_ARGS) {
  forwardDynamicsBody(m, phi, omega, q, gravity, withVelocity, acc, w);
}
SPRINGLAB_AVX512 void forwardDynamicsAvx512(SPRINGLAB_DYNAMICS_ARGS) {
  forwardDynamicsBody(m, phi, omega, q, gravity, withVelocity, acc, w);
}
#endif

void forwardDynamics(SPRINGLAB_DYNAMICS_ARGS) {
#ifdef SPRINGLAB_X86_SIMD
  if (wideSimdEnabled())
    return forwardDynamicsAvx512(m, phi, omega, q, gravity, withVelocity, acc, w);
  if (simdEnabled()) return forwardDynamicsAvx2(m, phi, omega, q, gravity, withVelocity, acc, w);
#endif
  forwardDynamicsGeneric(m, phi, omega, q, gravity, withVelocity, acc, w);
}
#undef SPRINGLAB_DYNAMICS_ARGS

}  // namespace

void grabForce(const PendulumModel& m, const Eigen::VectorXd& phi, Eigen::VectorXd& q) {
  const int n = m.links();
  q.setZero(n);
  if (m.grab < 0 || m.grab >= n) return;
  Eigen::VectorXd x;
  pendulumPositions(m, phi, x);
  const Vec3 F = m.grab_stiffness * (m.grab_target - x.segment<3>(3 * m.grab));
  for (int k = 0; k <= m.grab; ++k)
    q[k] = m.length[k] * (std::cos(phi[k]) * F.x() + std::sin(phi[k]) * F.y());
}

void jointDampingForce(const PendulumModel& m, const Eigen::VectorXd& omega, Eigen::VectorXd& q) {
  const int n = m.links();
  q.setZero(n);
  const double c = m.joint_damping;
  if (c == 0.0) return;
  for (int i = 0; i < n; ++i) {
    q[i] = -c * (omega[i] - (i > 0 ? omega[i - 1] : 0.0));
    if (i + 1 < n) q[i] += c * (omega[i + 1] - omega[i]);
  }
}

void pendulumAcceleration(const PendulumModel& m, const Eigen::VectorXd& phi,
                          const Eigen::VectorXd& omega, Eigen::VectorXd& acc, PendulumWork& w,
                          const Eigen::VectorXd* extra) {
  const Eigen::VectorXd* q = nullptr;
  if (m.joint_damping != 0.0 || extra || m.grab >= 0) {
    jointDampingForce(m, omega, w.q);
    if (extra) w.q += *extra;
    if (m.grab >= 0) {
      Eigen::VectorXd g;
      grabForce(m, phi, g);
      w.q += g;
    }
    q = &w.q;
  }
  forwardDynamics(m, phi, omega, q, true, true, acc, w);
}

void pendulumVelocity(const PendulumModel& m, const Eigen::VectorXd& phi, const Eigen::VectorXd& p,
                      Eigen::VectorXd& omega, PendulumWork& w) {
  forwardDynamics(m, phi, p /*unused*/, &p, false, false, omega, w);
}

namespace {
// S_k = sum_{i>=k} m_i v_i (suffix sums of bob momenta), returned in sx, sy.
void suffixMomenta(const PendulumModel& m, const Eigen::VectorXd& phi, const Eigen::VectorXd& omega,
                   Eigen::VectorXd& sx, Eigen::VectorXd& sy) {
  const int n = m.links();
  sx.resize(n), sy.resize(n);
  double vx = 0.0, vy = 0.0;
  for (int i = 0; i < n; ++i) {
    vx += m.length[i] * omega[i] * std::cos(phi[i]);
    vy += m.length[i] * omega[i] * std::sin(phi[i]);
    sx[i] = m.mass[i] * vx, sy[i] = m.mass[i] * vy;
  }
  for (int i = n - 2; i >= 0; --i) sx[i] += sx[i + 1], sy[i] += sy[i + 1];
}
}  // namespace

void pendulumMomentum(const PendulumModel& m, const Eigen::VectorXd& phi,
                      const Eigen::VectorXd& omega, Eigen::VectorXd& p) {
  // p_k = dT/dphi'_k = R_k n_k . S_k
  Eigen::VectorXd sx, sy;
  suffixMomenta(m, phi, omega, sx, sy);
  p.resize(m.links());
  for (int k = 0; k < m.links(); ++k)
    p[k] = m.length[k] * (std::cos(phi[k]) * sx[k] + std::sin(phi[k]) * sy[k]);
}

void pendulumHamiltonianGradient(const PendulumModel& m, const Eigen::VectorXd& phi,
                                 const Eigen::VectorXd& omega, Eigen::VectorXd& grad) {
  // dH/dphi_k |_p = -dT/dphi_k |_phi' + dV/dphi_k = R_k phi'_k e_k . S_k - mu_k R_k g . n_k,
  // mu_k = sum_{i>=k} m_i (dv_i/dphi_k = -R_k phi'_k e_k for i >= k)
  Eigen::VectorXd sx, sy;
  suffixMomenta(m, phi, omega, sx, sy);
  const int n = m.links();
  grad.resize(n);
  double mu = 0.0;
  for (int k = n - 1; k >= 0; --k) {
    mu += m.mass[k];
    const double s = std::sin(phi[k]), c = std::cos(phi[k]);
    const double kinetic = m.length[k] * omega[k] * (s * sx[k] - c * sy[k]);
    const double potential = -mu * m.length[k] * (m.gravity.x() * c + m.gravity.y() * s);
    grad[k] = kinetic + potential;
  }
}

void pendulumPositions(const PendulumModel& m, const Eigen::VectorXd& phi, Eigen::VectorXd& out) {
  const int n = m.links();
  out.resize(3 * n);
  Vec3 x = m.pivot;
  for (int i = 0; i < n; ++i) {
    x += m.length[i] * Vec3(std::sin(phi[i]), -std::cos(phi[i]), 0.0);
    out.segment<3>(3 * i) = x;
  }
}

Energy energy(const PendulumModel& m, const State& s) {
  Energy e;
  Vec3 x = m.pivot;
  double vx = 0.0, vy = 0.0;
  for (int i = 0; i < m.links(); ++i) {
    const double sn = std::sin(s.x[i]), cs = std::cos(s.x[i]);
    x += m.length[i] * Vec3(sn, -cs, 0.0);
    vx += m.length[i] * s.v[i] * cs;
    vy += m.length[i] * s.v[i] * sn;
    e.kinetic += 0.5 * m.mass[i] * (vx * vx + vy * vy);
    e.potential -= m.mass[i] * m.gravity.dot(x);
  }
  e.gravitational = e.potential;  // rigid rods store no elastic energy
  return e;
}

double rayleigh(const PendulumModel& m, const Eigen::VectorXd& omega) {
  double r = 0.0;
  for (int i = 0; i < m.links(); ++i) {
    const double d = omega[i] - (i > 0 ? omega[i - 1] : 0.0);
    r += d * d;
  }
  return 0.5 * m.joint_damping * r;
}

}  // namespace sim
