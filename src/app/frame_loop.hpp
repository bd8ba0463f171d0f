// The fixed-timestep loop (docs/architecture.md#the-fixed-step-loop): simulated time advances in
// whole steps of dt, independent of the frame rate, through an accumulator; at most `budget`
// seconds of stepping per frame, the backlog that did not fit dropped rather than carried (no
// "spiral of death").
#pragma once

#include <deque>
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

// What gives way when the machine cannot step in real time (ui::DisplayFlag::SmoothFrames).
enum class Pacing {
  RealTimeMotion = 0,  // frames lengthen, down to kRealTimeMotionFrame, before the clock slows
  SmoothFrames = 1,    // frames stay at kSmoothFrame; the simulated clock slows instead
};

// A 60 Hz display's frame: what smooth frames keep.
constexpr double kSmoothFrame = 1.0 / 60.0;  // s
// The longest frame real-time motion accepts: below ~20 frames/s motion stops reading as motion,
// so past that point slowing the clock is the lesser evil.
constexpr double kRealTimeMotionFrame = 1.0 / 20.0;  // s
// Stepping always gets this much, so a slow renderer never stalls the simulation entirely.
constexpr double kMinStepBudget = 0.001;  // s

// The wall time one frame may spend stepping: the pacing's frame less what the rest of the last
// frame (rendering, UI, presenting) took, at least kMinStepBudget.
double stepBudget(Pacing pacing, double otherWorkSeconds);

struct FrameResult {
  int steps = 0;              // steps taken this frame
  bool dropped = false;       // the budget ran out with steps still due: they were dropped
  bool diverged = false;      // a step reported divergence
  double sim_seconds = 0.0;   // simulated time advanced
  double step_seconds = 0.0;  // wall time spent stepping
};

class FixedStepLoop {
 public:
  explicit FixedStepLoop(Clock& clock, double budget = stepBudget(Pacing::SmoothFrames, 0.0))
      : clock_(clock), budget_(budget) {}

  // One frame: add the wall time since the previous frame times time_scale to the accumulator
  // (nothing while paused; at most kMaxFrameGap of wall time, so a stall is not replayed), then
  // call step() while a whole dt is due and the budget lasts. step() returns false on divergence.
  FrameResult frame(double dt, double time_scale, bool paused, const std::function<bool()>& step);

  // Forget the accumulator and the last timestamp (after a reset, a load, a resume).
  void restart();

  // Simulated time advanced / wall time, in %, over the running frames of the last
  // kRealtimeWindow of wall time (paused frames are left out: they would read 0 %). 0 until a
  // running frame has been measured. Not smoothed: the plain ratio of the two sums.
  double realtimePercent() const;
  double stepsPerSecond() const;  // over the same frames
  double budget() const { return budget_; }
  double lastClockReading() const { return last_; }  // s: the last frame's start
  void setBudget(double b) { budget_ = b; }

  static constexpr double kMaxFrameGap = 0.25;    // s
  static constexpr double kRealtimeWindow = 1.0;  // s: long enough to be steady, short to react

 private:
  struct Interval {
    double wall, sim;  // s
    long long steps;
  };
  Interval recentTotal() const;
  Clock& clock_;
  double budget_;
  double last_ = -1.0, accumulator_ = 0.0;
  std::deque<Interval> recent_;  // running frames within kRealtimeWindow, oldest first
};

}  // namespace app
