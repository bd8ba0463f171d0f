// A Lane (docs/architecture.md#system-and-lanes): one integrator and step size advancing a System
// from some state, with its own divergence and energy anchor. `run` is one lane, `compare` and the
// window several on one scene, a sweep one lane per cell: all step through this class, so the
// headless and interactive paths cannot drift apart.
#pragma once

#include <limits>
#include <memory>
#include <optional>

#include "sim/system.hpp"

namespace lab {

// The one lock-step rule (docs/lab.md#lanes), for compare and the window alike: on a clock whose
// time is origin + k dt (sim::Stepper::Clock), the step k nearest to time t, halves away from zero
// (std::llround).
long long nearestStep(double origin, double dt, double t);

// A clock of fixed steps: t = origin + steps dt, never an accumulated sum; a change of dt starts a
// new origin. `total` counts every step since the start.
struct StepClock {
  double origin = 0.0;  // s
  long long steps = 0;  // since the origin
  long long total = 0;
  double time(double dt) const { return origin + static_cast<double>(steps) * dt; }
  void tick() { ++steps, ++total; }
  void restartAt(double t) { origin = t, steps = 0; }
};

class Lane {
 public:
  // A lane on `system` (referenced: keep it alive and in place) from `from`.
  Lane(const sim::System& system, const sim::State& from, sim::Method method, double dt);

  const sim::System& system() const { return *system_; }
  const sim::State& state() const { return stepper_->state(); }
  sim::Method method() const { return stepper_->method(); }
  double dt() const { return stepper_->dt(); }  // s
  long long steps() const { return steps_; }    // steps made since the lane started
  const std::optional<sim::Divergence>& divergence() const { return divergence_; }
  bool diverged() const { return divergence_.has_value(); }
  // What the window and a recording draw (docs/integrators.md#runaway-rule): the current state,
  // and once the lane has diverged, the state the runaway rule found (a non-finite step is never
  // taken: then the last finite one). Its energy is the one to show beside it.
  const sim::State& shownState() const { return state(); }
  sim::Energy shownEnergy() const { return system_->energy(shownState()); }

  void setMethod(sim::Method m) { stepper_->setMethod(m); }
  // From here on t = t_now + k dt (never an accumulated sum).
  void setDt(double dt) { stepper_->setDt(dt); }

  // One step unless diverged; false if it diverged now or before. A diverged lane keeps its last
  // finite state.
  bool step();
  // Steps until the lane is at its step nearest to time t (nearestStep on its clock), never
  // back; stops where it diverges.
  void stepTo(double t);
  sim::Stepper::Clock clock() const { return stepper_->clock(); }
  // xpbd's or projective's substeps and iterations in the last step (automatic ones vary)
  sim::Stepper::Settings settingsUsed() const { return stepper_->settingsUsed(); }
  // The last step's relative residual (sim::Stepper::lastResidual; NaN for a method that solves
  // nothing), and the largest since the lane (re)started with the method that made it (value NaN:
  // no step of an iterative method yet): run's summary line (docs/cli.md#run).
  double lastResidual() const { return stepper_->lastResidual(); }
  struct WorstResidual {
    double value = std::numeric_limits<double>::quiet_NaN();
    sim::Method method = sim::Method::Euler;
  };
  const WorstResidual& worstResidual() const { return worst_residual_; }
  // The runaway rule (sim/diagnostics.hpp) on the current state; a firing rule becomes the
  // lane's divergence. Returns the divergence, or nothing. `now`: the current state's energy where
  // the caller has it already (a cloth's costs a pass over its springs).
  const std::optional<sim::Divergence>& checkRunaway(const sim::Energy* now = nullptr);
  // Starts again from `s` (steps from 0, no divergence, a fresh anchor).
  void restart(const sim::State& s);
  // Starts again from `s`, as if `steps` steps had been made (rewind, branch).
  void restart(const sim::State& s, long long steps);
  // What a lane needs to go on exactly from a kept moment: its state and its clock (with the dt
  // its steps were counted in).
  struct Checkpoint {
    sim::State state;
    sim::Stepper::Clock clock;
    sim::Work work;
    long long steps = 0;
    double dt = 0.0;  // s
  };
  Checkpoint checkpoint() const {
    return {state(), stepper_->clock(), stepper_->work(), steps_, dt()};
  }
  // Goes back to a checkpoint (the timeline) keeping the energy anchor and the current dt. With
  // the checkpoint's dt the steps from there are bit-identical to those made from it before;
  // with another dt the clock starts a new origin at the checkpoint's time (t = t0 + k dt).
  void seek(const Checkpoint& c);
  // Takes another lane's energy anchor and its ledger so far, so that drifts and ledgers of lanes
  // started apart (a branch) compare.
  void copyAnchor(const Lane& other);
  // Takes another lane's energy anchor as it is: for a lane restarted from one of `other`'s own
  // checkpoints (lab::BlowUp), whose work counts on the same books.
  void shareAnchor(const Lane& other) {
    e0_ = other.e0_, scales_ = other.scales_, work0_ = other.work0_;
  }

  sim::Energy energy() const { return system_->energy(state()); }
  double e0() const { return e0_; }  // J, the drift's anchor
  const sim::SceneScales& scales() const { return scales_; }
  // (E - E0) / driftReference (sim/diagnostics.hpp)
  double drift() const { return driftAt(energy()); }
  double driftAt(const sim::Energy& now) const {
    return sim::energyDrift(e0_, now.total(), scales_);
  }
  // After a conservative change (k, gravity, the grab): E0 := E now, scales from now, and the
  // ledger counts from here.
  void reanchor();

  // The energy ledger since the anchor (docs/integrators.md#the-energy-ledger): E, the work the
  // dissipative forces took out, the work the mouse spring put in, what the contacts took out,
  // and the balance E - E0 + W_dissipated + W_contacts - W_external, which an exact integrator
  // keeps at round-off.
  struct Ledger {
    double total = 0.0, dissipated = 0.0, external = 0.0, residual = 0.0;  // J
    double contacts = 0.0;                                                 // J
  };
  Ledger ledger() const;

 private:
  const sim::System* system_;
  std::unique_ptr<sim::Stepper> stepper_;
  long long steps_ = 0;
  WorstResidual worst_residual_;
  std::optional<sim::Divergence> divergence_;
  double e0_ = 0.0;
  sim::SceneScales scales_;
  sim::Work work0_;  // the stepper's work at the anchor
  mutable Eigen::VectorXd positions_;
};

}  // namespace lab
