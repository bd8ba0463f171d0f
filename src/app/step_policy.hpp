// How simulated time advances per rendered frame (docs/architecture.md#the-frame-driver): the
// window's wall clock within a stepping budget, or a clip's clock locked to its frames.
#pragma once

#include <deque>

#include "app/frame_loop.hpp"
#include "app/session.hpp"

namespace app {

// How simulated time advances per rendered frame.
class StepPolicy {
 public:
  virtual ~StepPolicy() = default;
  // Steps the session for one frame.
  virtual FrameResult advance(Session& s) = 0;
  // What the panel reports: simulated time over wall time in %, and steps per wall second.
  virtual double realtimePercent() const = 0;
  virtual double stepsPerSecond() const = 0;
  virtual bool locked() const { return false; }
};

// The window's clock (frame_loop.hpp): real time, within a stepping budget.
class WallClockSteps : public StepPolicy {
 public:
  explicit WallClockSteps(Clock& clock) : clock_(clock), loop_(clock) {}
  // Steps, or while the blow-up's slow motion plays, its next frame every 1 / kReplayFps s.
  FrameResult advance(Session& s) override;
  double realtimePercent() const override { return loop_.realtimePercent(); }
  double stepsPerSecond() const override { return loop_.stepsPerSecond(); }
  FixedStepLoop& loop() { return loop_; }

  // The window plays the blow-up's frames (ui::ReplayBlowUp) at a 30 fps clip's rate: the same
  // frames, at the same pace, as a recording shows them (docs/lab.md#the-blow-up-in-slow-motion).
  static constexpr double kReplayFps = 30.0;

 private:
  Clock& clock_;
  FixedStepLoop loop_;
  double replay_next_ = -1.0;  // s, the wall time of the replay's next frame (-1: not playing)
};

// The number of steps after which frame k of a clip at `fps` shows the state: the step nearest to
// simulated time k / fps, round(k / (fps dt)) with halves away from zero (docs/cli.md#record).
long long lockedStepOfFrame(long long k, double fps, double dt);

// Simulated time locked to a video's clock: frame k shows the state after lockedStepOfFrame(k)
// steps counted from where the clip began, whatever the machine's speed. A change of dt during
// the clip (the window's slider) re-anchors the count at the current frame and step; a change
// within a frame (an `--at T:dt=` event) re-anchors at the step where it came, and the frame then
// shows the step nearest to its time on the new clock (lab::nearestStep).
class LockedSteps : public StepPolicy {
 public:
  explicit LockedSteps(double fps) : fps_(fps) {}
  // The first call shows the state as it is (frame 0); each later call advances to frame k + 1.
  // While the blow-up's slow motion plays, each call shows its next frame instead.
  FrameResult advance(Session& s) override;
  // the window's real time while it records: the clip's time over the wall time, last second
  double realtimePercent() const override;
  double stepsPerSecond() const override { return steps_per_second_; }
  bool locked() const override { return true; }
  long long frame() const { return frame_; }  // the frame last shown (-1 before the first)
  double fps() const { return fps_; }

 private:
  double fps_;
  long long frame_ = -1;
  // The step frame_ is due to show: on the anchor's count, or after a change of dt within a
  // frame on the clock that began there.
  long long dueStep() const;
  // Re-anchors on the step just made if it was made under another dt.
  void followDtChange(const Session& s);

  long long anchor_frame_ = 0, anchor_steps_ = 0;  // where the count restarted, and its dt
  double anchor_dt_ = 0.0;
  double anchor_t_ = 0.0;  // s, the simulated time at anchor_frame_
  // after a change of dt within a frame: the step and time where the new clock began
  bool within_frame_ = false;
  long long change_steps_ = 0;
  double change_t_ = 0.0;
  long long last_steps_ = 0;  // the session's count after the last frame
  SteadyClock wall_;
  std::deque<double> frame_walls_;  // wall times of the frames within the last second
  double steps_per_second_ = 0.0;
};

}  // namespace app
