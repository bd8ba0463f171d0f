// Events `--at T:KEY=VALUE` (docs/cli.md#events): a parameter change at simulated time T, applied
// between steps, before the first step that starts at or after T. One definition for `run`,
// `compare`, `record` and the window.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/parameters.hpp"
#include "sim/registry.hpp"
#include "sim/system.hpp"

namespace lab {

class Lane;

// What an event changes: a lane's integrator or dt, or one of the system's parameters whose row
// in the parameter table is an event key (sim/parameters.hpp).
enum class EventKey { Integrator, Dt, Parameter };

struct Event {
  double t = 0.0;  // s
  EventKey key = EventKey::Dt;
  sim::Parameter parameter = sim::Parameter::StiffnessScale;  // key Parameter
  double value = 0.0;  // the number (dt or the parameter's value)
  std::string name;    // the integrator's name (key integrator)
  std::string text;    // as given: "1.5:dt=0.01"
};

// "T:KEY=VALUE" into `out`; returns the problem (without the option's name) or nothing.
std::optional<std::string> parseEvent(const std::string& text, Event& out);
// Whether the event can apply to a system of this kind ("stiffness_scale: a pendulum has no
// springs", an integrator that does not apply...); returns the problem or nothing.
std::optional<std::string> checkEvent(const Event& e, sim::SystemKind kind);
// The keys, comma separated, for messages and help: integrator, dt, then the parameter table's.
std::string eventKeyList();

// What applying events did to a lane's clock and energy.
struct EventEffect {
  bool dt_changed = false;
  bool conservative = false;  // the stiffness changed: the energy's meaning moved
};

// The events of one run in time order (stable: equal times keep their command-line order).
class EventSchedule {
 public:
  EventSchedule() = default;
  explicit EventSchedule(std::vector<Event> events);
  bool empty() const { return events_.empty(); }
  const std::vector<Event>& events() const { return events_; }
  // Applies, in order, every event not yet applied whose time is <= stepStart (the start of the
  // next step) to `system` and to every lane of `lanes` (integrator, dt). Events were checked
  // (checkEvent) beforehand.
  EventEffect applyDue(double stepStart, sim::System& system, std::span<Lane* const> lanes);
  // Whether an event is due at a step that starts at stepStart (applyDue would apply one).
  bool dueAt(double stepStart) const {
    return next_ < events_.size() && events_[next_].t <= stepStart;
  }
  // Back to the first event (a restart from t = 0).
  void rewindTo(double t);

 private:
  std::vector<Event> events_;
  size_t next_ = 0;
};

}  // namespace lab
