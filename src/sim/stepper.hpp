// Advances a mass-spring system or a pendulum with a fixed step and a selectable integrator
// (docs/integrators.md). Divergence is a value (docs/architecture.md#divergence-is-a-value): a step
// that produces a non-finite number is not committed; the stepper keeps the last finite state and
// returns a report.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/pendulum.hpp"
#include "sim/registry.hpp"

namespace sim {

struct Divergence {
  double t = 0.0;  // s, time of the first step that was not finite (t0 + k h, see Stepper::dt)
  Method method = Method::Euler;
  std::string what;             // e.g. "position of particle 3 is not finite"
  int body = -1;                // culprit particle (mass-spring) or link (pendulum), or -1
  int other_body = -1;          // a torn spring's second particle (body is its first), or -1
  std::string message() const;  // "diverged at t = ... s with euler: ..."
};

// The energy ledger's work terms (docs/integrators.md#the-energy-ledger), J, since the stepper was
// made: what the dissipative forces (drag, dashpots, joint damping) took out, and what the mouse
// spring put in, each by a quadrature that matches the integrator's step; and what the contacts
// (colliders with their friction, self-collision) took out, measured as the energy their
// corrections changed in the state where they were applied (docs/integrators.md#colliders).
struct Work {
  double dissipated = 0.0;
  double external = 0.0;
  double contacts = 0.0;
};

class Stepper {
 public:
  // The model is referenced, not copied: the owner may change it between steps (and must bump
  // model.revision when k, masses or topology change). The method must apply to the system.
  Stepper(const MassSpringModel& model, State initial, Method method, double h);
  Stepper(const PendulumModel& model, State initial, Method method, double h);
  ~Stepper();  // where the solvers are complete (stepper.cpp)

  SystemKind kind() const { return pendulum_ ? SystemKind::Pendulum : SystemKind::MassSpring; }
  const State& state() const { return cur_; }
  Method method() const { return method_; }
  double dt() const { return h_; }  // s, the step size h
  void setMethod(Method m) { method_ = m; }
  // From here on t = t_now + k h (k steps since the change), never an accumulated sum.
  void setDt(double h) { h_ = h, t_origin_ = cur_.t, steps_since_origin_ = 0; }

  // The clock t = origin + steps h (setDt starts a new origin); kept with a state so that a
  // restored state steps on at bit-identical times (the timeline, docs/lab.md#the-timeline).
  struct Clock {
    double origin = 0.0;  // s
    long long steps = 0;  // since the origin
  };
  Clock clock() const { return {t_origin_, steps_since_origin_}; }
  void setClock(const Clock& c) { t_origin_ = c.origin, steps_since_origin_ = c.steps; }

  const Work& work() const { return work_; }
  void setWork(const Work& w) { work_ = w; }  // a restored checkpoint's

  // The substeps and iterations (sweeps) per substep the last step of xpbd or projective took:
  // automatic ones follow the system (docs/integrators.md#automatic-settings); {0, 0} before the
  // first such step.
  struct Settings {
    int substeps = 0, iterations = 0;
  };
  Settings settingsUsed() const;
  // The last step's relative residual, how far it is from the method's own converged answer
  // (docs/integrators.md#residuals; info(method()).residual names it): NaN for a method that
  // solves nothing, and before the method's first step.
  double lastResidual() const;

  // One step; on divergence the state is left at the last finite step.
  std::optional<Divergence> advance();
  // Up to n steps; stops at the first divergence.
  std::optional<Divergence> advance(long n);

 private:
  void accel(const Eigen::VectorXd& x, const Eigen::VectorXd& v, Eigen::VectorXd& a);
  bool integrate();                                     // cur_ -> next_; false if a solve failed
  std::optional<Divergence> checkNext() const;          // next_ finite, with a finite energy?
  std::string bodyName(Eigen::Index coordinate) const;  // "particle 3" or "link 3"
  // integrate's families of methods, in -> out over h: euler, symplectic_euler and verlet; rk4;
  // the methods with a solver of their own (false: its solve failed, or it does not apply)
  void explicitStep(const State& in, double h, State& out);
  void rk4Step(const State& in, double h, State& out);
  bool solverStep(const State& in, double h, State& out);
  // The work of the step cur_ -> next_ just made (integrate's stages still in place).
  Work stepWork();
  bool ledgerActive() const;  // dissipation, a grab or colliders: else the work stays 0 at no cost
  // The colliders and self-collision after a step of a method other than xpbd (which meets them
  // in its substeps): next_ moved out of them; returns the energy the contacts removed (J), 0
  // when none touched.
  double resolveContacts();
  // symplectic_euler on a mass-spring system whose ledger is the drag's and the mouse's alone and
  // which meets no contact: the update, the finite check and the ledger in one pass after the
  // force pass (docs/benchmarks.md#the-step-around-the-force-pass); the same bits as advance()'s
  // general path, and the ledger's to rounding.
  bool fusedApplies() const;
  std::optional<Divergence> advanceFused();
  // F_diss(x, v) . d and F_grab(x) . d (generalised forces for a pendulum), d = dir - *from, or
  // dir itself when from is null
  Work forceDot(const Eigen::VectorXd& x, const Eigen::VectorXd& v, const Eigen::VectorXd& dir,
                const Eigen::VectorXd* from = nullptr);
  const MassSpringModel* mass_spring_ = nullptr;
  const PendulumModel* pendulum_ = nullptr;
  State cur_, next_;
  Method method_;
  double h_;
  double t_origin_;                   // s, the time at the last change of h
  long long steps_since_origin_ = 0;  // steps committed since then
  Eigen::VectorXd a_, k1x_, k1v_, k2x_, k2v_, k3x_, k3v_, tmpx_, tmpv_;
  PendulumWork pwork_;
  Work work_;
  Eigen::VectorXd fwork_, sx_, sv_, dirx_;  // the ledger's scratch
  Eigen::VectorXd inv3_;  // advanceFused's inverse mass per coordinate, as of inv3_revision_
  std::uint64_t inv3_revision_ = ~std::uint64_t{0};
  struct RangeUpdateSlot {  // advanceFused's sums of one block of the force pass
    double drag_sum = 0.0;
    std::int32_t high = 0;
  };
  std::vector<RangeUpdateSlot> slots_;
  // The methods' solvers and self-collision (sim/implicit.hpp, midpoint.hpp, xpbd.hpp,
  // projective.hpp, self_collision.hpp), defined in stepper.cpp alone: a file that steps a system
  // does not compile Eigen's sparse solvers.
  struct Solvers;
  std::unique_ptr<Solvers> solvers_;
  Work xpbd_work_;         // the last xpbd or projective step's, summed over its substeps
  State before_contacts_;  // next_ as the method left it, for the contacts' energy
  std::string solver_error_;
};

}  // namespace sim
