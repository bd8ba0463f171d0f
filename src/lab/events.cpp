#include "lab/events.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "lab/lane.hpp"
#include "scene/method_file.hpp"
#include "util/number.hpp"
#include "util/one_line.hpp"

namespace lab {

namespace {
// Sets out's key from its name; false for a name that is not a key.
bool findKey(const std::string& key, Event& out) {
  if (key == "integrator") return out.key = EventKey::Integrator, true;
  if (key == "dt") return out.key = EventKey::Dt, true;
  const sim::ParameterInfo* p = sim::findParameter(key);
  if (!p || !p->event) return false;
  out.key = EventKey::Parameter, out.parameter = p->parameter;
  return true;
}

// The value by the key's rule: an integrator's name, dt a finite number > 0, a parameter its
// table's rule (System::setParameter applies the same).
std::optional<std::string> checkValue(const std::string& key, const std::string& value,
                                      Event& out) {
  if (out.key == EventKey::Integrator) {
    if (value.empty()) return std::string("integrator: missing name");
    out.name = value;
    return std::nullopt;
  }
  const bool number = util::parseFiniteNumber(value, out.value);
  const std::optional<std::string> bad =
      out.key == EventKey::Dt
          ? (number && out.value > 0 ? std::nullopt
                                     : std::optional<std::string>("must be a finite number > 0"))
          : sim::checkValue(sim::parameterInfo(out.parameter), number ? out.value : NAN);
  if (bad) return key + ": " + *bad + ", not \"" + value + "\"";
  return std::nullopt;
}
}  // namespace

std::string eventKeyList() {
  return "integrator, dt, " + sim::eventParameterKeys();
}

namespace {
std::optional<std::string> parseEventText(const std::string& text, Event& out) {
  out = Event{};
  out.text = text;
  const auto colon = text.find(':');
  const auto eq = text.find('=', colon == std::string::npos ? 0 : colon);
  if (colon == std::string::npos || eq == std::string::npos)
    return "\"" + text + "\" is not T:KEY=VALUE";
  const std::string time = text.substr(0, colon);
  if (!util::parseFiniteNumber(time, out.t) || out.t < 0)
    return "\"" + text + "\": the time must be a finite number >= 0, not \"" + time + "\"";
  const std::string key = text.substr(colon + 1, eq - colon - 1);
  if (!findKey(key, out))
    return "\"" + text + "\": unknown key \"" + key + "\" (keys: " + eventKeyList() + ")";
  if (auto bad = checkValue(key, text.substr(eq + 1), out)) return "\"" + text + "\": " + *bad;
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> parseEvent(const std::string& text, Event& out) {
  auto problem = parseEventText(text, out);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

namespace {
std::optional<std::string> checkEventText(const Event& e, sim::SystemKind kind) {
  if (e.key == EventKey::Integrator) {
    const auto lookup = scene::lookupIntegrator(e.name, kind);
    if (!lookup.method) return "\"" + e.text + "\": " + lookup.error;
  } else if (e.key == EventKey::Parameter) {
    if (auto why = sim::notApplicable(e.parameter, kind))
      return "\"" + e.text + "\": " + std::string(sim::parameterInfo(e.parameter).key) + ": " +
             *why;
  }
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> checkEvent(const Event& e, sim::SystemKind kind) {
  auto problem = checkEventText(e, kind);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
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
        for (Lane* lane : lanes) lane->setMethod(*system.lookupIntegrator(e.name).method);
        break;
      case EventKey::Dt:
        for (Lane* lane : lanes) lane->setDt(e.value);
        effect.dt_changed = true;
        break;
      case EventKey::Parameter:
        system.setParameter(e.parameter, e.value);
        effect.conservative = effect.conservative || sim::parameterInfo(e.parameter).conservative;
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
