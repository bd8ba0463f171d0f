// Advances a mass-spring system with a fixed step and a selectable integrator (INTERFACE.md §3).
// Divergence is a value (DESIGN.md §3.4): a step that produces a non-finite number is not
// committed; the stepper keeps the last finite state and returns a report.
#pragma once

#include <optional>
#include <string>

#include "sim/implicit.hpp"
#include "sim/model.hpp"
#include "sim/registry.hpp"

namespace sim {

struct Divergence {
  double t = 0.0;  // s, time of the first step that was not finite
  Method method = Method::Euler;
  std::string what;             // e.g. "position of particle 3 is not finite"
  int particle = -1;            // culprit particle, or -1
  std::string message() const;  // "diverged at t = ... s with euler: ..."
};

class Stepper {
 public:
  // The model is referenced, not copied: the owner may change it between steps (and must bump
  // model.revision when k, masses or topology change).
  Stepper(const MassSpringModel& model, State initial, Method method, double h);

  const State& state() const { return cur_; }
  State& mutableState() { return cur_; }
  Method method() const { return method_; }
  double step() const { return h_; }
  void setMethod(Method m) { method_ = m; }
  void setStep(double h) { h_ = h; }

  // One step; on divergence the state is left at the last finite step.
  std::optional<Divergence> advance();
  // Up to n steps; stops at the first divergence.
  std::optional<Divergence> advance(long n);

 private:
  bool integrate();  // cur_ -> next_; false if a linear solve failed
  const MassSpringModel& model_;
  State cur_, next_;
  Method method_;
  double h_;
  Eigen::VectorXd a_, k1x_, k1v_, k2x_, k2v_, k3x_, k3v_, tmpx_, tmpv_;
  ImplicitEulerSolver implicit_;
  TimeFeSolver time_fe_;
  std::string solver_error_;
};

}  // namespace sim
