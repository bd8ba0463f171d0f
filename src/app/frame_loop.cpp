#include "app/frame_loop.hpp"

#include <algorithm>
#include <chrono>

namespace app {

double SteadyClock::now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

void FixedStepLoop::restart() {
  last_ = -1.0;
  accumulator_ = 0.0;
}

FrameResult FixedStepLoop::frame(double dt, double time_scale, bool paused,
                                 const std::function<bool()>& step) {
  FrameResult r;
  const double now = clock_.now();
  const double wall = last_ < 0.0 ? 0.0 : std::min(now - last_, kMaxFrameGap);
  last_ = now;
  if (paused) {
    accumulator_ = 0.0;
    return r;
  }
  accumulator_ += wall * time_scale;
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
  // smoothed diagnostics (exponential moving average over ~30 frames)
  if (wall > 0.0) {
    const double a = 1.0 / 30.0;
    const double rt = 100.0 * r.sim_seconds / wall;  // simulated time per wall time
    realtime_percent_ += a * (rt - realtime_percent_);
    steps_per_second_ += a * (r.steps / wall - steps_per_second_);
  }
  return r;
}

}  // namespace app
