#include "sim/stepper.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

#include "sim/contacts.hpp"
#include "sim/energy.hpp"
#include "sim/forces.hpp"
#include "sim/implicit.hpp"
#include "sim/midpoint.hpp"
#include "sim/projective.hpp"
#include "sim/self_collision.hpp"
#include "sim/user_step.hpp"
#include "sim/vbd.hpp"
#include "sim/xpbd.hpp"
#include "util/format.hpp"

namespace sim {

struct Stepper::Solvers {
  ImplicitEulerSolver implicit;
  TimeFeSolver time_fe;
  MidpointSolver midpoint;
  XpbdSolver xpbd;
  ProjectiveSolver projective;
  VbdSolver vbd;
  SelfCollision self_collision;
  UserMethodSolver user;  // a method file's (sim/user_step.hpp)
};

std::string Divergence::message() const {
  // a message, read by people: 6 significant digits (the CSV rows keep 17 for reading back)
  return "diverged at t = " + util::messageNumber(t) + " s with " + std::string(info(method).name) +
         ": " + what;
}

Stepper::Stepper(const MassSpringModel& model, State initial, Method method, double h)
    : mass_spring_(&model),
      cur_(std::move(initial)),
      method_(method),
      h_(h),
      t_origin_(cur_.t),
      solvers_(std::make_unique<Solvers>()) {
  next_ = cur_;
}

Stepper::Stepper(const PendulumModel& model, State initial, Method method, double h)
    : pendulum_(&model),
      cur_(std::move(initial)),
      method_(method),
      h_(h),
      t_origin_(cur_.t),
      solvers_(std::make_unique<Solvers>()) {
  next_ = cur_;
}

Stepper::~Stepper() = default;

void Stepper::accel(const Eigen::VectorXd& x, const Eigen::VectorXd& v, Eigen::VectorXd& a) {
  if (pendulum_)
    pendulumAcceleration(*pendulum_, x, v, a, pwork_);
  else
    acceleration(*mass_spring_, x, v, a);
}

bool Stepper::integrate() {
  next_.t = t_origin_ + static_cast<double>(steps_since_origin_ + 1) * h_;  // k h, not a sum
  if (const MethodCoefficients* user = userCoefficients(method_)) {
    if (solvers_->user.step(*user, mass_spring_, pendulum_, cur_, h_, next_)) return true;
    solver_error_ = solvers_->user.error();
    return false;
  }
  switch (method_) {
    case Method::Euler:
    case Method::SymplecticEuler:
    case Method::Verlet:
      explicitStep(cur_, h_, next_);
      return true;
    case Method::Rk4:
      rk4Step(cur_, h_, next_);
      return true;
    case Method::ImplicitEuler:
    case Method::TimeFe:
    case Method::ImplicitMidpoint:
    case Method::Xpbd:
    case Method::Projective:
    case Method::Vbd:
      break;
  }
  return solverStep(cur_, h_, next_);
}

// The one-stage methods: one force evaluation (two for verlet's kicks), no solve.
void Stepper::explicitStep(const State& in, double h, State& out) {
  switch (method_) {
    case Method::Euler:  // x' = x + h v; v' = v + h a(x, v)
      accel(in.x, in.v, a_);
      out.x = in.x + h * in.v;
      out.v = in.v + h * a_;
      return;
    case Method::SymplecticEuler:  // v' = v + h a(x, v); x' = x + h v'
      accel(in.x, in.v, a_);
      out.v = in.v + h * a_;
      out.x = in.x + h * out.v;
      return;
    case Method::Verlet:  // kick-drift-kick
      accel(in.x, in.v, a_);
      tmpv_ = in.v + (0.5 * h) * a_;
      out.x = in.x + h * tmpv_;
      accel(out.x, tmpv_, a_);
      out.v = tmpv_ + (0.5 * h) * a_;
      return;
    default:
      return;
  }
}

// Classical RK4 on (x, v)' = (v, a(x, v)). Its stages stay in k1x_ .. k3v_ and tmpv_, a_ (k4x, k4v)
// for the ledger's quadrature (stepWork), which uses them.
void Stepper::rk4Step(const State& in, double h, State& out) {
  accel(in.x, in.v, k1v_);
  k1x_ = in.v;
  tmpx_ = in.x + (0.5 * h) * k1x_;
  tmpv_ = in.v + (0.5 * h) * k1v_;
  accel(tmpx_, tmpv_, k2v_);
  k2x_ = tmpv_;
  tmpx_ = in.x + (0.5 * h) * k2x_;
  tmpv_ = in.v + (0.5 * h) * k2v_;
  accel(tmpx_, tmpv_, k3v_);
  k3x_ = tmpv_;
  tmpx_ = in.x + h * k3x_;
  tmpv_ = in.v + h * k3v_;
  accel(tmpx_, tmpv_, a_);  // k4v; k4x = tmpv_
  out.x = in.x + (h / 6.0) * (k1x_ + 2.0 * k2x_ + 2.0 * k3x_ + tmpv_);
  out.v = in.v + (h / 6.0) * (k1v_ + 2.0 * k2v_ + 2.0 * k3v_ + a_);
}

// The methods with a solver of their own (sim/implicit.hpp, midpoint.hpp, xpbd.hpp,
// projective.hpp), each for one kind of system: false, with solver_error_ set, when its solve
// fails or the method does not apply to this system.
bool Stepper::solverStep(const State& in, double h, State& out) {
  Solvers& s = *solvers_;
  switch (method_) {
    case Method::ImplicitEuler:
    case Method::TimeFe:
      if (!mass_spring_) break;
      if (method_ == Method::ImplicitEuler ? s.implicit.step(*mass_spring_, in, h, out)
                                           : s.time_fe.step(*mass_spring_, in, h, out))
        return true;
      solver_error_ = method_ == Method::ImplicitEuler ? s.implicit.error() : s.time_fe.error();
      return false;
    case Method::Xpbd:
      if (!mass_spring_) break;
      s.xpbd.step(*mass_spring_, in, h, out, xpbd_work_.dissipated, xpbd_work_.external);
      xpbd_work_.contacts = s.xpbd.lastContactWork();
      return true;
    case Method::Projective:
      if (!mass_spring_) break;
      if (s.projective.step(*mass_spring_, in, h, out, xpbd_work_.dissipated,
                            xpbd_work_.external)) {
        xpbd_work_.contacts = s.projective.lastContactWork();
        return true;
      }
      solver_error_ = s.projective.error();
      return false;
    case Method::Vbd:
      if (!mass_spring_) break;
      s.vbd.step(*mass_spring_, in, h, out, xpbd_work_.dissipated, xpbd_work_.external);
      xpbd_work_.contacts = s.vbd.lastContactWork();
      return true;
    case Method::ImplicitMidpoint:
      if (!pendulum_) break;
      if (s.midpoint.step(*pendulum_, in, h, out)) return true;
      solver_error_ = s.midpoint.error();
      return false;
    default:
      break;
  }
  solver_error_ = std::string(info(method_).name) + " does not apply to " +
                  std::string(systemName(kind())) + " systems";
  return false;
}

namespace {
// Finite coordinates above this can still overflow the energy (|x|^2 > 1e308 from |x| ~ 1e154);
// below it they cannot, so the energy is computed only past it (it costs as much as a step).
constexpr double kEnergyOverflowCheck = 1e100;
}  // namespace

std::string Stepper::bodyName(Eigen::Index coordinate) const {
  // a pendulum has one angle per link; a mass-spring system three coordinates per particle
  return pendulum_ ? "link " + std::to_string(coordinate)
                   : "particle " + std::to_string(coordinate / 3);
}

namespace {
// Whether every value of a and b (as many) is finite and at most about kEnergyOverflowCheck in
// magnitude: one pass without a branch that the compiler vectorises with plain SSE2, comparing
// the high 32 bits of each |value| (its exponent and 20 bits of mantissa) as integers, which
// orders them as the magnitudes and puts infinities and NaNs above every finite value. It may
// pass a value up to 2^-20 above the bound, which still leaves the energy's square (1e200) far
// from overflow. The step itself costs a force pass, so this check must cost a small part of one
// (docs/benchmarks.md#the-step-around-the-force-pass).
inline std::int32_t highBits(double v) {  // of |v|: its exponent and 20 bits of mantissa
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return static_cast<std::int32_t>((bits >> 32) & 0x7fffffffu);
}

bool allFiniteAndModerate(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  const std::int32_t bound = highBits(kEnergyOverflowCheck);
  const double *pa = a.data(), *pb = b.data();
  std::uint32_t above = 0;
  for (Eigen::Index j = 0, n = a.size(); j < n; ++j)
    above |= static_cast<std::uint32_t>(highBits(pa[j]) > bound) | (highBits(pb[j]) > bound);
  return above == 0;
}
}  // namespace

std::optional<Divergence> Stepper::checkNext() const {
  if (allFiniteAndModerate(next_.x, next_.v)) return std::nullopt;
  const int perBody = pendulum_ ? 1 : 3;
  const Eigen::Index n = next_.x.size();
  for (Eigen::Index j = 0; j < n; ++j) {
    const bool xf = std::isfinite(next_.x[j]), vf = std::isfinite(next_.v[j]);
    if (xf && vf) continue;
    const char* what =
        pendulum_ ? (xf ? "angular velocity" : "angle") : (xf ? "velocity" : "position");
    return Divergence{next_.t, method_, std::string(what) + " of " + bodyName(j) + " is not finite",
                      static_cast<int>(j / perBody)};
  }
  const Energy e = pendulum_ ? sim::energy(*pendulum_, next_) : sim::energy(*mass_spring_, next_);
  if (std::isfinite(e.total())) return std::nullopt;
  // the culprit is the body with the largest coordinate or velocity
  Eigen::Index ix, iv;
  const double mx = next_.x.cwiseAbs().maxCoeff(&ix), mv = next_.v.cwiseAbs().maxCoeff(&iv);
  const Eigen::Index j = mx >= mv ? ix : iv;
  return Divergence{next_.t, method_,
                    "the energy is not finite (largest value at " + bodyName(j) + ")",
                    static_cast<int>(j / perBody)};
}

bool Stepper::ledgerActive() const {
  if (pendulum_) return pendulum_->joint_damping != 0.0 || pendulum_->grab >= 0;
  return mass_spring_->drag != 0.0 || mass_spring_->anyDashpot() || mass_spring_->grab >= 0 ||
         !mass_spring_->colliders.empty() || mass_spring_->self_thickness > 0.0;
}

double Stepper::resolveContacts() {
  if (!mass_spring_ || method_ == Method::Xpbd) return 0.0;
  const MassSpringModel& m = *mass_spring_;
  const bool self = m.self_thickness > 0.0;
  if (m.colliders.empty() && !self) return 0.0;
  before_contacts_ = next_;
  bool touched = !m.colliders.empty() && resolveStepContacts(m, cur_.x, next_.x, next_.v);
  // then the pairs apart (and out of the colliders again, within its passes)
  if (self && solvers_->self_collision.resolveStep(m, cur_.x, next_.x, next_.v, h_)) touched = true;
  if (!touched) return 0.0;
  // what the contacts took out, exactly: the energy before them minus after (computed only on
  // the steps where a particle touched)
  return sim::energy(*mass_spring_, before_contacts_).total() -
         sim::energy(*mass_spring_, next_).total();
}

Work Stepper::forceDot(const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                       const Eigen::VectorXd& dir, const Eigen::VectorXd* from) {
  Work w;
  if (from) {  // the direction is dir - from (a pendulum's or a damped system's ledger forms it)
    if (pendulum_ || mass_spring_->anyDashpot()) {
      dirx_ = dir - *from;
      return forceDot(x, v, dirx_);
    }
  }
  if (pendulum_) {
    jointDampingForce(*pendulum_, v, fwork_);
    w.dissipated = fwork_.dot(dir);
    if (pendulum_->grab >= 0) {
      grabForce(*pendulum_, x, fwork_);
      w.external = fwork_.dot(dir);
    }
    return w;
  }
  const MassSpringModel& m = *mass_spring_;
  if (m.anyDashpot()) {
    dissipativeForce(m, x, v, fwork_);
    w.dissipated = fwork_.dot(dir);
  } else {  // the drag alone: one pass, no force array
    w.dissipated = dragWork(m, v, dir, from);
  }
  if (m.grab >= 0 && !m.fixed(m.grab)) {
    Vec3 d = dir.segment<3>(3 * m.grab);
    if (from) d -= from->segment<3>(3 * m.grab);
    w.external = m.grab_stiffness * (m.grab_target - x.segment<3>(3 * m.grab)).dot(d);
  }
  return w;
}

// The quadrature of each method (docs/integrators.md#the-energy-ledger): the forces where the
// method evaluates them, times the displacement it makes with them; rk4 integrates the power
// with its own stages and weights, so the ledger is fourth order with it.
Work Stepper::stepWork() {
  const State &in = cur_, &out = next_;
  const double h = h_;
  Work w;
  auto add = [&](const Work& p, double weight) {
    w.dissipated += weight * p.dissipated, w.external += weight * p.external;
  };
  switch (method_) {
    case Method::Euler:  // F(x, v) over h v
      add(forceDot(in.x, in.v, in.v), h);
      break;
    case Method::Verlet:  // each half kick's force over the drift's velocity v_1/2 = tmpv_
      add(forceDot(in.x, in.v, tmpv_), 0.5 * h);
      add(forceDot(out.x, tmpv_, tmpv_), 0.5 * h);
      break;
    case Method::Rk4:  // dW/dt = P(x, v) = F . v at the four stages
      add(forceDot(in.x, in.v, in.v), h / 6.0);
      sx_ = in.x + (0.5 * h) * in.v, sv_ = in.v + (0.5 * h) * k1v_;
      add(forceDot(sx_, sv_, sv_), h / 3.0);
      sx_ = in.x + (0.5 * h) * k2x_, sv_ = in.v + (0.5 * h) * k2v_;
      add(forceDot(sx_, sv_, sv_), h / 3.0);
      sx_ = in.x + h * k3x_, sv_ = in.v + h * k3v_;
      add(forceDot(sx_, sv_, sv_), h / 6.0);
      break;
    case Method::ImplicitEuler:  // backward: the forces at the new state over the step
      add(forceDot(out.x, out.v, out.x, &in.x), 1.0);
      break;
    case Method::ImplicitMidpoint:  // the midpoint's forces over the step
      sx_ = 0.5 * (in.x + out.x), sv_ = (out.x - in.x) / h;
      add(forceDot(sx_, sv_, sv_), h);
      break;
    case Method::Xpbd:  // summed by the solver, substep by substep (already the energy removed)
    case Method::Projective:
    case Method::Vbd:
      return xpbd_work_;
    default:  // symplectic_euler, time_fe: the forces at the step's start over the step
      add(forceDot(in.x, in.v, out.x, &in.x), 1.0);
      break;
  }
  w.dissipated = -w.dissipated;  // what the dissipative forces took out
  return w;
}

bool Stepper::fusedApplies() const {
  if (method_ != Method::SymplecticEuler || !mass_spring_) return false;
  const MassSpringModel& m = *mass_spring_;
  return m.colliders.empty() && !(m.self_thickness > 0.0) && !m.anyDashpot();
}

namespace {
// What the update of a range of particles found: the drag's power sum over its free particles,
// sum (v - wind) . dx (the dissipated work is c times it), and the largest highBits of a new value.
struct RangeUpdate {
  double drag_sum = 0.0;
  std::int32_t high = 0;
};

// v' = v + h a and x' = x + h v' with a = F / m (0 for a fixed particle) on the coordinates
// [j0, j1): the operations of acceleration() and explicitStep(), so the same bits, in one pass
// that also sums the drag's power over the displacement x' - x and takes the values' highBits
// as allFiniteAndModerate does. Each coordinate has its particle's inverse mass (`inv3`, 0 when
// fixed), and kLanes partial sums (one per coordinate j mod kLanes) are independent, so the
// compiler makes them the lanes of a vector; the wind is taken off after, from the displacements.
RangeUpdate symplecticUpdate(const MassSpringModel& m, const State& in, double h, const double* F,
                             const double* inv, Eigen::Index j0, Eigen::Index j1, State& out) {
  const double *X = in.x.data(), *V = in.v.data();
  double *X1 = out.x.data(), *V1 = out.v.data();
  constexpr int kLanes = 4;
  double partial[kLanes] = {};
  std::int32_t high[kLanes] = {};
  auto coordinate = [&](Eigen::Index j, int lane) {
    const bool free = inv[j] != 0.0;
    const double a = free ? inv[j] * F[j] : 0.0;
    const double v1 = V[j] + h * a, x1 = X[j] + h * v1;
    V1[j] = v1, X1[j] = x1;
    partial[lane] += free ? V[j] * (x1 - X[j]) : 0.0;
    high[lane] = std::max(high[lane], std::max(highBits(x1), highBits(v1)));
  };
  Eigen::Index j = j0;
  for (; j + kLanes <= j1; j += kLanes)
    for (int lane = 0; lane < kLanes; ++lane) coordinate(j + lane, lane);
  for (int lane = 0; j < j1; ++j, ++lane) coordinate(j, lane);
  RangeUpdate r;
  for (int lane = 0; lane < kLanes; ++lane)
    r.drag_sum += partial[lane], r.high = std::max(r.high, high[lane]);
  if (m.wind != Vec3::Zero())  // sum (v - wind) . dx = sum v . dx - wind . sum dx
    for (j = j0; j < j1; ++j)
      if (inv[j] != 0.0) r.drag_sum -= m.wind[j % 3] * (X1[j] - X[j]);
  return r;
}
}  // namespace

// The update runs inside the force pass, block by block as each block's forces are complete
// (sim::totalForceThen): in cache, and on both kernel threads. Each block's sums go to its own
// slot, added in slot order after the pass, so the ledger does not depend on the thread count.
std::optional<Divergence> Stepper::advanceFused() {
  const MassSpringModel& m = *mass_spring_;
  next_.t = t_origin_ + static_cast<double>(steps_since_origin_ + 1) * h_;  // k h, not a sum
  const Eigen::Index n3 = cur_.x.size();
  if (inv3_revision_ != m.revision || inv3_.size() != n3) {
    inv3_.resize(n3);
    for (int i = 0; i < m.particles(); ++i) inv3_.segment<3>(3 * i).setConstant(m.inv_mass[i]);
    inv3_revision_ = m.revision;
  }
  next_.x.resize(n3), next_.v.resize(n3);
  slots_.assign(forcePassSlots(m), RangeUpdateSlot{});
  totalForceThen(m, cur_.x, cur_.v, a_, [&](int from, int to, int slot) {
    const RangeUpdate r =
        symplecticUpdate(m, cur_, h_, a_.data(), inv3_.data(), 3 * from, 3 * to, next_);
    slots_[slot] = {r.drag_sum, r.high};
  });
  double drag_sum = 0.0;
  std::int32_t high = 0;
  for (const RangeUpdateSlot& s : slots_) drag_sum += s.drag_sum, high = std::max(high, s.high);
  if (high > highBits(kEnergyOverflowCheck))
    if (auto d = checkNext()) return d;   // names the culprit
  work_.dissipated += m.drag * drag_sum;  // -(F_drag . dx), F_drag = -c (v - wind)
  if (m.grab >= 0 && !m.fixed(m.grab)) {  // the mouse spring's work over its particle's move
    const int g = 3 * m.grab;
    work_.external +=
        m.grab_stiffness *
        (m.grab_target - cur_.x.segment<3>(g)).dot(next_.x.segment<3>(g) - cur_.x.segment<3>(g));
  }
  std::swap(cur_, next_);
  ++steps_since_origin_;
  return std::nullopt;
}

std::optional<Divergence> Stepper::advance() {
  if (fusedApplies()) return advanceFused();
  if (!integrate()) return Divergence{next_.t, method_, solver_error_, -1};
  if (auto d = checkNext()) return d;  // never commit a non-finite step
  const double contact_work = resolveContacts();
  if (ledgerActive()) {
    const Work w = stepWork();
    work_.dissipated += w.dissipated, work_.external += w.external;
    work_.contacts += w.contacts + contact_work;
  }
  std::swap(cur_, next_);
  ++steps_since_origin_;
  return std::nullopt;
}

std::optional<Divergence> Stepper::advance(long n) {
  for (long i = 0; i < n; ++i)
    if (auto d = advance()) return d;
  return std::nullopt;
}

Stepper::Settings Stepper::settingsUsed() const {
  const Solvers& s = *solvers_;
  if (method_ == Method::Xpbd) return {s.xpbd.lastSubsteps(), s.xpbd.lastIterations()};
  if (method_ == Method::Projective)
    return {s.projective.lastSubsteps(), s.projective.lastIterations()};
  if (method_ == Method::Vbd) return {s.vbd.lastSubsteps(), s.vbd.lastIterations()};
  return {};
}

double Stepper::lastResidual() const {
  const Solvers& s = *solvers_;
  if (userCoefficients(method_)) return s.user.lastResidual();
  switch (method_) {  // a method with a residual: one line here, and its registry row's `residual`
    case Method::TimeFe:
      return s.time_fe.lastResidual();
    case Method::ImplicitMidpoint:
      return s.midpoint.lastResidual();
    case Method::Xpbd:
      return s.xpbd.lastResidual();
    case Method::Projective:
      return s.projective.lastResidual();
    case Method::Vbd:
      return s.vbd.lastResidual();
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace sim
