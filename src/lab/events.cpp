#include "lab/events.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "lab/lane.hpp"
#include "sim/xpbd.hpp"

namespace lab {

namespace {
struct KeyName {
  EventKey key;
  const char* name;
};
constexpr KeyName kKeys[] = {{EventKey::Integrator, "integrator"},
                             {EventKey::Dt, "dt"},
                             {EventKey::StiffnessScale, "stiffness_scale"},
                             {EventKey::Damping, "damping"},
                             {EventKey::Drag, "drag"},
                             {EventKey::Substeps, "substeps"},
                             {EventKey::Iterations, "iterations"}};

// The whole string is a finite number.
bool parseNumber(const std::string& s, double& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;
  const auto r = std::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e && std::isfinite(out);
}

// The value's rule by key: dt and stiffness_scale > 0, damping and drag >= 0, substeps and
// iterations whole numbers from 1 (System::setParameter's rules).
std::optional<std::string> checkValue(EventKey key, const std::string& value, Event& out) {
  if (key == EventKey::Integrator) {
    if (value.empty()) return std::string("integrator: missing name");
    out.name = value;
    return std::nullopt;
  }
  if (key == EventKey::Substeps || key == EventKey::Iterations) {
    const int hi = key == EventKey::Substeps ? sim::kMaxSubsteps : sim::kMaxIterations;
    if (!parseNumber(value, out.value) || !(out.value >= 1 && out.value <= hi) ||
        out.value != std::floor(out.value))
      return std::string(eventKeyName(key)) + ": must be a whole number from 1 to " +
             std::to_string(hi) + ", not \"" + value + "\"";
    return std::nullopt;
  }
  const bool positive = key == EventKey::Dt || key == EventKey::StiffnessScale;
  const std::string rule = positive ? "a finite number > 0" : "a finite number >= 0";
  if (!parseNumber(value, out.value) || (positive ? !(out.value > 0) : !(out.value >= 0)))
    return std::string(eventKeyName(key)) + ": must be " + rule + ", not \"" + value + "\"";
  return std::nullopt;
}
}  // namespace

const char* eventKeyName(EventKey k) {
  for (const auto& kn : kKeys)
    if (kn.key == k) return kn.name;
  return "?";
}

std::string eventKeyList() {
  std::string out;
  for (const auto& kn : kKeys) out.append(out.empty() ? "" : ", ").append(kn.name);
  return out;
}

std::optional<std::string> parseEvent(const std::string& text, Event& out) {
  out = Event{};
  out.text = text;
  const auto colon = text.find(':');
  const auto eq = text.find('=', colon == std::string::npos ? 0 : colon);
  if (colon == std::string::npos || eq == std::string::npos)
    return "\"" + text + "\" is not T:KEY=VALUE";
  const std::string time = text.substr(0, colon);
  if (!parseNumber(time, out.t) || out.t < 0)
    return "\"" + text + "\": the time must be a finite number >= 0, not \"" + time + "\"";
  const std::string key = text.substr(colon + 1, eq - colon - 1);
  const auto it = std::find_if(std::begin(kKeys), std::end(kKeys),
                               [&](const KeyName& kn) { return key == kn.name; });
  if (it == std::end(kKeys))
    return "\"" + text + "\": unknown key \"" + key + "\" (keys: " + eventKeyList() + ")";
  out.key = it->key;
  if (auto bad = checkValue(out.key, text.substr(eq + 1), out)) return "\"" + text + "\": " + *bad;
  return std::nullopt;
}

std::optional<std::string> checkEvent(const Event& e, sim::SystemKind kind) {
  const bool pendulum = kind == sim::SystemKind::Pendulum;
  if (e.key == EventKey::Integrator) {
    const auto lookup = sim::lookupIntegrator(e.name, kind);
    if (!lookup.method) return "\"" + e.text + "\": " + lookup.error;
  } else if (pendulum && (e.key == EventKey::StiffnessScale || e.key == EventKey::Damping ||
                          e.key == EventKey::Substeps || e.key == EventKey::Iterations)) {
    return "\"" + e.text + "\": a pendulum has no springs";
  } else if (pendulum && e.key == EventKey::Drag) {
    return "\"" + e.text + "\": drag is not modelled for pendulums";
  }
  return std::nullopt;
}

EventSchedule::EventSchedule(std::vector<Event> events) : events_(std::move(events)) {
  std::stable_sort(events_.begin(), events_.end(),
                   [](const Event& a, const Event& b) { return a.t < b.t; });
}

EventEffect EventSchedule::applyDue(double stepStart, sim::System& system,
                                    std::span<Lane* const> lanes) {
  EventEffect effect;
  for (; next_ < events_.size() && events_[next_].t <= stepStart; ++next_) {
    const Event& e = events_[next_];
    switch (e.key) {
      case EventKey::Integrator:
        for (Lane* lane : lanes)
          lane->setMethod(*sim::lookupIntegrator(e.name, system.kind).method);
        break;
      case EventKey::Dt:
        for (Lane* lane : lanes) lane->setDt(e.value);
        effect.dt_changed = true;
        break;
      case EventKey::StiffnessScale:
        system.setParameter(sim::Parameter::StiffnessScale, e.value);
        effect.conservative = true;
        break;
      case EventKey::Damping:
        system.setParameter(sim::Parameter::SpringDamping, e.value);
        break;
      case EventKey::Drag:
        system.setParameter(sim::Parameter::Drag, e.value);
        break;
      case EventKey::Substeps:
        system.setParameter(sim::Parameter::Substeps, e.value);
        break;
      case EventKey::Iterations:
        system.setParameter(sim::Parameter::Iterations, e.value);
        break;
    }
  }
  return effect;
}

void EventSchedule::rewindTo(double t) {
  next_ = 0;
  while (next_ < events_.size() && events_[next_].t < t) ++next_;
}

}  // namespace lab
