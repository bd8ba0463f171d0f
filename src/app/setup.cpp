#include "app/setup.hpp"

#include <cstdio>

#include "cli/commands.hpp"
#include "lab/clock_settings.hpp"
#include "lab/lane_spec.hpp"
#include "sim/user_methods.hpp"
#include "util/format.hpp"

namespace app {

namespace {

std::string dtRange() {
  char range[96];
  const lab::ClockSettingInfo& dt = lab::clockSetting(lab::ClockSetting::Dt);
  std::snprintf(range, sizeof range, " (allowed %g to %g s)", dt.lo, dt.hi);
  return range;
}

// --lanes: lane 0 takes the first SPEC, the others are added from the same initial state.
std::optional<std::string> applyLanes(Session& s, const std::string& text,
                                      const std::string& prefix, const std::string& name) {
  std::vector<lab::LaneSpec> specs;
  if (auto bad = lab::parseLaneSpecs(text, s.built().kind(), specs))
    return prefix + ": " + name + ": " + *bad;
  if (specs.size() > static_cast<size_t>(Timeline::kMaxLanes))
    return prefix + ": " + name + ": " + std::to_string(specs.size()) + " lanes; at most " +
           std::to_string(Timeline::kMaxLanes) + " on screen";
  const double dt0 = s.dt();
  std::string error;
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string method = sim::methodReference(specs[i].method);  // a method file's path
    const double dt = specs[i].dt.value_or(dt0);
    const bool ok =
        i == 0 ? s.apply(ui::SetIntegrator{method}, &error) && s.apply(ui::SetDt{dt}, &error)
               : s.apply(ui::AddLane{method, dt, specs[i].setup()}, &error);
    if (!ok) return prefix + ": " + name + ": lane " + std::to_string(i) + ": " + error + dtRange();
  }
  return std::nullopt;
}
}  // namespace

std::optional<std::string> setUpSession(Session& s, const std::string& scene,
                                        const SessionOptions& o, const std::string& prefix) {
  try {
    s.load(scene);
  } catch (const scene::Error& e) {
    return std::string(e.what());
  }
  return applySessionOptions(s, o, prefix);
}

SessionOptionNames SessionOptionNames::ofFile(const std::string& path) {
  const auto key = [&](const char* k) { return path + ": key \"" + k + "\""; };
  return {key("integrator"), key("dt"), key("lanes"), key("events")};
}

std::optional<std::string> applySessionOptions(Session& s, const SessionOptions& o,
                                               const std::string& prefix,
                                               const SessionOptionNames& names) {
  std::string error;
  if (!o.integrator.empty() && !s.apply(ui::SetIntegrator{o.integrator}, &error))
    return prefix + ": " + names.integrator + ": " + error;
  if (o.dt > 0.0 && !s.apply(ui::SetDt{o.dt}, &error)) {
    // "--dt: 0.5 s: out of range (allowed ...)", not the Session's "--dt: dt: out of range"
    const std::string why = error.rfind("dt: ", 0) == 0 ? error.substr(4) : error;
    return prefix + ": " + names.dt + ": " + util::messageNumber(o.dt) + " s: " + why + dtRange();
  }
  if (!o.lanes.empty())
    if (auto bad = applyLanes(s, o.lanes, prefix, names.lanes)) return bad;
  std::vector<lab::Event> events;
  for (const auto& text : o.at) {
    lab::Event e;
    if (auto bad = lab::parseEvent(text, e)) return prefix + ": " + names.at + ": " + *bad;
    if (auto bad = lab::checkEvent(e, s.built().kind()))
      return prefix + ": " + names.at + ": " + *bad;
    events.push_back(std::move(e));
  }
  s.setEvents(std::move(events));
  // before the first step, where the solver factors its matrix (cli::kMaxFactoredParticles)
  if (auto big = cli::solverProblem(s.def(), s.method()))
    return prefix + ": " + names.integrator + ": " + *big;
  return std::nullopt;
}

}  // namespace app
