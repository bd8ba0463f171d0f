#include "lab/scheduled_lane.hpp"

#include <cmath>

namespace lab {

ScheduledLane::ScheduledLane(const sim::System& system, const sim::State& from, sim::Method method,
                             double dt, std::vector<Event> events, double duration)
    : system_(system),
      lane_(system_, from, method, dt),
      events_(std::move(events)),
      duration_(duration),
      t0_(from.t) {}

long long ScheduledLane::lastStep() const {
  return stepNearest(duration_);
}

long long ScheduledLane::stepNearest(double t) const {
  return k0_ + nearestStep(t0_, lane_.dt(), t);
}

double ScheduledLane::timeOfStep(long long k) const {
  return t0_ + static_cast<double>(k - k0_) * lane_.dt();
}

void ScheduledLane::applyDueEvents() {
  Lane* const lanes[] = {&lane_};
  const EventEffect effect = events_.applyDue(lane_.state().t, system_, lanes);
  if (effect.dt_changed) k0_ = k_, t0_ = lane_.state().t;
  if (effect.conservative) lane_.reanchor();
}

bool ScheduledLane::advance() {
  applyDueEvents();
  if (!lane_.step()) return false;
  ++k_;
  return true;
}

}  // namespace lab
