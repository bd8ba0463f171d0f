// The fixed-timestep loop (docs/architecture.md#the-fixed-step-loop): simulated time advances in
// whole steps of dt, independent of the frame rate, through an accumulator; at most `budget`
// seconds of stepping per frame, the backlog that did not fit dropped rather than carried (no
// "spiral of death").
#pragma once

#include <functional>

namespace app {

// Wall-clock source; tests substitute a fake one.
struct Clock {
  virtual ~Clock() = default;
  virtual double now() = 0;  // s
};

struct SteadyClock : Clock {
  double now() override;
};

struct FrameResult {
  int steps = 0;              // steps taken this frame
  bool dropped = false;       // the budget ran out with steps still due: they were dropped
  bool diverged = false;      // a step reported divergence
  double sim_seconds = 0.0;   // simulated time advanced
  double step_seconds = 0.0;  // wall time spent stepping
};

class FixedStepLoop {
 public:
  explicit FixedStepLoop(Clock& clock, double budget = 0.012) : clock_(clock), budget_(budget) {}

  // One frame: add the wall time since the previous frame times time_scale to the accumulator
  // (nothing while paused; at most kMaxFrameGap of wall time, so a stall is not replayed), then
  // call step() while a whole dt is due and the budget lasts. step() returns false on divergence.
  FrameResult frame(double dt, double time_scale, bool paused, const std::function<bool()>& step);

  // Forget the accumulator and the last timestamp (after a reset, a load, a resume).
  void restart();

  double realtimePercent() const { return realtime_percent_; }  // smoothed
  double stepsPerSecond() const { return steps_per_second_; }   // smoothed
  double budget() const { return budget_; }
  void setBudget(double b) { budget_ = b; }

  static constexpr double kMaxFrameGap = 0.25;  // s

 private:
  Clock& clock_;
  double budget_;
  double last_ = -1.0, accumulator_ = 0.0;
  double realtime_percent_ = 100.0, steps_per_second_ = 0.0;
};

}  // namespace app
