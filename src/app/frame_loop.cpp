#include "app/frame_loop.hpp"

#include <algorithm>
#include <chrono>

namespace app {

double SteadyClock::now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double stepBudget(Pacing pacing, double otherWorkSeconds) {
  const double frame = pacing == Pacing::RealTimeMotion ? kRealTimeMotionFrame : kSmoothFrame;
  return std::max(kMinStepBudget, frame - otherWorkSeconds);
}

void FixedStepLoop::restart() {
  last_ = -1.0;
  accumulator_ = 0.0;
}

FixedStepLoop::Interval FixedStepLoop::recentTotal() const {
  Interval sum{0.0, 0.0, 0};
  for (const Interval& i : recent_) sum.wall += i.wall, sum.sim += i.sim, sum.steps += i.steps;
  return sum;
}

double FixedStepLoop::realtimePercent() const {
  const Interval sum = recentTotal();
  return sum.wall > 0.0 ? 100.0 * sum.sim / sum.wall : 0.0;
}

double FixedStepLoop::stepsPerSecond() const {
  const Interval sum = recentTotal();
  return sum.wall > 0.0 ? sum.steps / sum.wall : 0.0;
}

FrameResult FixedStepLoop::frame(double dt, double time_scale, bool paused,
                                 const std::function<bool()>& step) {
  FrameResult r;
  const double now = clock_.now();
  const double elapsed = last_ < 0.0 ? 0.0 : now - last_;  // s, the real interval
  last_ = now;
  if (paused) {
    accumulator_ = 0.0;
    return r;
  }
  accumulator_ += std::min(elapsed, kMaxFrameGap) * time_scale;
  const double start = clock_.now();
  while (accumulator_ >= dt) {
    if (clock_.now() - start >= budget_) {
      r.dropped = true;
      accumulator_ = 0.0;  // drop the backlog: the simulation falls behind real time instead
      break;
    }
    if (!step()) {
      r.diverged = true;
      accumulator_ = 0.0;
      break;
    }
    accumulator_ -= dt;
    ++r.steps;
  }
  r.sim_seconds = r.steps * dt;
  r.step_seconds = clock_.now() - start;
  // the steps taken now are those due over the interval since the last frame: the real-time
  // figure divides the two, with the interval uncapped (a stall did happen)
  if (elapsed > 0.0) {
    recent_.push_back({elapsed, r.sim_seconds, r.steps});
    while (recent_.size() > 1 && recentTotal().wall - recent_.front().wall >= kRealtimeWindow)
      recent_.pop_front();
  }
  return r;
}

}  // namespace app
