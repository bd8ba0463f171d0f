// A lane of a headless run (docs/cli.md#events): its own copy of the system, its events and its
// clock. `run` is one of these and `compare` several, so that each lane of a comparison is
// bit-identical to `run` with its integrator, dt and events.
#pragma once

#include "lab/events.hpp"
#include "lab/lane.hpp"

namespace lab {

class ScheduledLane {
 public:
  // Steps `system` (copied) from `from` until `duration` (s), applying `events` on the way.
  ScheduledLane(const sim::System& system, const sim::State& from, sim::Method method, double dt,
                std::vector<Event> events, double duration);
  ScheduledLane(const ScheduledLane&) = delete;  // the lane references system_
  ScheduledLane& operator=(const ScheduledLane&) = delete;

  const sim::System& system() const { return system_; }
  const Lane& lane() const { return lane_; }
  Lane& lane() { return lane_; }
  const sim::State& state() const { return lane_.state(); }
  long long step() const { return k_; }  // steps made (or planned, once diverged)
  // The step at the duration on the current clock: k0 + round((duration - t0) / dt), halves away
  // from zero; events that change dt move it.
  long long lastStep() const;
  // The step of this lane nearest to time t on its current clock: k0 + round((t - t0) / dt).
  long long stepNearest(double t) const;
  // The time of step k on the current clock, t0 + (k - k0) dt (never an accumulated sum).
  double timeOfStep(long long k) const;

  // Applies the events due before the next step (those at or before the current time); also done
  // by advance(). A lane's clock (lastStep, stepNearest) is exact only after this.
  void applyDueEvents();
  // Applies the events due before the next step, then makes it. False on divergence: the lane
  // keeps its last finite state.
  bool advance();

 private:
  sim::System system_;
  Lane lane_;
  EventSchedule events_;
  double duration_;
  long long k_ = 0;   // steps made
  long long k0_ = 0;  // the step of the last dt change
  double t0_ = 0.0;   // s, its time
};

}  // namespace lab
