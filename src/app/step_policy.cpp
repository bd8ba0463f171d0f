#include "app/step_policy.hpp"

#include <algorithm>
#include <cmath>

#include "lab/lane.hpp"

namespace app {

FrameResult WallClockSteps::advance(Session& s) {
  if (s.replaying()) {
    const double now = clock_.now();
    if (replay_next_ < 0.0) replay_next_ = now + 1.0 / kReplayFps;  // its first frame shows first
    if (now >= replay_next_) {
      s.advanceReplay();
      // one frame at a time: a slow frame delays the replay rather than skipping its frames
      replay_next_ = std::max(replay_next_ + 1.0 / kReplayFps, now);
    }
    if (!s.replaying()) replay_next_ = -1.0;
    return {};
  }
  replay_next_ = -1.0;
  return loop_.frame(s.dt(), s.timeScale(), s.paused(), [&] { return s.stepOnce(); });
}

long long lockedStepOfFrame(long long k, double fps, double dt) {
  return std::llround(static_cast<double>(k) / (fps * dt));
}

FrameResult LockedSteps::advance(Session& s) {
  FrameResult r;
  if (s.replaying()) {  // the blow-up's slow motion: one step of it a frame
    if (frame_ >= 0) s.advanceReplay();
    return r;
  }
  if (s.paused() || s.divergence()) return r;                   // no frame of the clip passes
  const bool resumed = frame_ < 0 || s.steps() != last_steps_;  // a reset, a step, a pause
  if (!resumed) ++frame_;
  if (resumed || s.dt() != anchor_dt_) {
    // the count restarts here: this frame shows the state as it is (a new clip's frame 0, or
    // the next frame after something else moved the state or changed dt)
    frame_ = std::max<long long>(frame_, 0);
    anchor_frame_ = frame_, anchor_steps_ = s.steps(), anchor_dt_ = s.dt();
    anchor_t_ = s.state().t, within_frame_ = false;
  }
  while (s.steps() < dueStep()) {
    const double t0 = s.state().t;
    if (!s.stepOnce()) {
      r.diverged = true;
      break;
    }
    ++r.steps;
    r.sim_seconds += s.state().t - t0;
    followDtChange(s);
  }
  last_steps_ = s.steps();
  steps_per_second_ = fps_ * r.steps;
  const double now = wall_.now();
  frame_walls_.push_back(now);
  while (frame_walls_.size() > 2 && now - frame_walls_.front() > FixedStepLoop::kRealtimeWindow)
    frame_walls_.pop_front();
  return r;
}

long long LockedSteps::dueStep() const {
  if (!within_frame_)
    return anchor_steps_ + lockedStepOfFrame(frame_ - anchor_frame_, fps_, anchor_dt_);
  const double frameTime = anchor_t_ + static_cast<double>(frame_ - anchor_frame_) / fps_;
  return change_steps_ + std::max(0LL, lab::nearestStep(change_t_, anchor_dt_, frameTime));
}

void LockedSteps::followDtChange(const Session& s) {
  if (s.dt() == anchor_dt_) return;
  // an event changed dt before the step just made: the new clock is t = change_t_ + k dt
  within_frame_ = true;
  const sim::Stepper::Clock c = s.primary().clock();
  change_steps_ = s.steps() - c.steps, change_t_ = c.origin;
  anchor_dt_ = s.dt();
}

double LockedSteps::realtimePercent() const {
  if (frame_walls_.size() < 2) return 100.0;
  const double wall = frame_walls_.back() - frame_walls_.front();
  const double clip = static_cast<double>(frame_walls_.size() - 1) / fps_;
  return wall > 0.0 ? 100.0 * clip / wall : 100.0;
}

}  // namespace app
