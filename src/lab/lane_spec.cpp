#include "lab/lane_spec.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "scene/method_file.hpp"
#include "sim/system.hpp"
#include "util/number.hpp"
#include "util/one_line.hpp"

namespace lab {

namespace {
bool parsePositive(const std::string& s, double& out) {
  return util::parseFiniteNumber(s, out) && out > 0;
}

std::string formatRange(double lo, double hi) {
  char range[64];
  std::snprintf(range, sizeof range, "%g to %g", lo, hi);
  return range;
}

// "mass_scale, length_scale, stiffness_scale, ...": the scales' keys, then the event keys
std::string settingKeys() {
  std::string keys;
  for (const sim::ScaleInfo& s : sim::scaleTable()) keys.append(s.key).append(", ");
  return keys + sim::eventParameterKeys();
}

// The key of one setting: a row of the table that events take, or a scale of the model.
std::optional<std::string> findSettingKey(const std::string& key, sim::SystemKind kind,
                                          LaneSetting& out) {
  out.key = key;
  if (const sim::ScaleInfo* scale = sim::findScale(key)) {
    out.scale = scale->scale;
    if (auto absent = sim::System::scaleAbsent(scale->scale, kind)) return key + ": " + *absent;
    return std::nullopt;
  }
  const sim::ParameterInfo* row = sim::findParameter(key);
  if (!row || !row->event) return "unknown key \"" + key + "\" (keys: " + settingKeys() + ")";
  if (auto absent = sim::notApplicable(row->parameter, kind)) return key + ": " + *absent;
  out.parameter = row->parameter;
  return std::nullopt;
}

// The value by the key's rule and within the window's range (the panel's slider), so that a lane
// set up on the command line is one the panel could have made.
std::optional<std::string> checkSettingValue(const std::string& value, LaneSetting& out) {
  const bool number = util::parseFiniteNumber(value, out.value);
  if (!out.parameter) {
    if (!number || out.value < kSetupScaleMin || out.value > kSetupScaleMax)
      return out.key + ": must be a factor from " + formatRange(kSetupScaleMin, kSetupScaleMax) +
             ", not \"" + value + "\"";
    return std::nullopt;
  }
  const sim::ParameterInfo& row = sim::parameterInfo(*out.parameter);
  if (auto bad = sim::checkValue(row, number ? out.value : NAN))
    return out.key + ": " + *bad + ", not \"" + value + "\"";
  if (out.value < row.lo || out.value > row.hi)
    return out.key + ": " + value + " is out of range (allowed " + formatRange(row.lo, row.hi) +
           ")";
  return std::nullopt;
}

std::optional<std::string> parseSetting(const std::string& item, sim::SystemKind kind,
                                        std::vector<LaneSetting>& out) {
  const auto eq = item.find('=');
  if (eq == std::string::npos) return "\"" + item + "\" is not KEY=VALUE";
  LaneSetting setting;
  if (auto bad = findSettingKey(item.substr(0, eq), kind, setting)) return bad;
  for (const LaneSetting& before : out)
    if (before.key == setting.key) return setting.key + ": given twice";
  if (auto bad = checkSettingValue(item.substr(eq + 1), setting)) return bad;
  out.push_back(setting);
  return std::nullopt;
}

std::optional<std::string> parseSetupText(const std::string& text, sim::SystemKind kind,
                                          std::vector<LaneSetting>& out) {
  out.clear();
  size_t begin = 0;
  while (true) {
    const size_t colon = text.find(':', begin);
    if (auto bad = parseSetting(text.substr(begin, colon - begin), kind, out)) return bad;
    if (colon == std::string::npos) return std::nullopt;
    begin = colon + 1;
  }
}

std::optional<std::string> parseOne(const std::string& item, sim::SystemKind kind, LaneSpec& out) {
  out.text = item;
  const auto colon = item.find(':');
  const std::string head = item.substr(0, colon);
  const auto at = head.find('@');
  const auto lookup = scene::lookupIntegrator(head.substr(0, at), kind);
  if (!lookup.method) return lookup.error;
  out.method = *lookup.method;
  if (at != std::string::npos) {
    double dt;
    if (!parsePositive(head.substr(at + 1), dt))
      return "dt must be a finite number > 0, not \"" + head.substr(at + 1) + "\"";
    out.dt = dt;
  }
  if (colon == std::string::npos) return std::nullopt;
  return parseSetupText(item.substr(colon + 1), kind, out.settings);
}
}  // namespace

bool LaneSpec::sets(sim::Parameter p) const {
  for (const LaneSetting& s : settings)
    if (s.parameter == p) return true;
  return false;
}

std::string LaneSpec::setup() const {
  const auto colon = text.find(':');
  return colon == std::string::npos ? std::string() : text.substr(colon + 1);
}

std::optional<std::string> parseLaneSetup(const std::string& text, sim::SystemKind kind,
                                          std::vector<LaneSetting>& out) {
  auto problem = parseSetupText(text, kind, out);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

namespace {
std::optional<std::string> parseLaneSpecsText(const std::string& text, sim::SystemKind kind,
                                              std::vector<LaneSpec>& out) {
  out.clear();
  size_t begin = 0;
  while (true) {
    const size_t comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma - begin);
    LaneSpec spec;
    if (item.empty())
      return "lane " + std::to_string(out.size()) +
             " is empty (SPEC,SPEC: NAME or NAME@DT, then :KEY=VALUE...)";
    if (auto bad = parseOne(item, kind, spec))
      return "lane " + std::to_string(out.size()) + " \"" + item + "\": " + *bad;
    if (out.empty() && !spec.settings.empty())
      return "lane 0 \"" + item +
             "\": lane 0 is the reference, with the scene's own set-up (set a later lane's, or "
             "give the scene's with --at 0:KEY=VALUE)";
    out.push_back(spec);
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (out.size() > static_cast<size_t>(kMaxLanes))
    return std::to_string(out.size()) + " lanes; at most " + std::to_string(kMaxLanes);
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> parseLaneSpecs(const std::string& text, sim::SystemKind kind,
                                          std::vector<LaneSpec>& out) {
  auto problem = parseLaneSpecsText(text, kind, out);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

std::optional<std::string> applyLaneSettings(const std::vector<LaneSetting>& settings,
                                             sim::System& system) {
  for (const LaneSetting& s : settings) {
    if (s.parameter) {
      if (auto bad = system.setParameter(*s.parameter, s.value)) return s.key + ": " + *bad;
    } else if (s.scale) {
      if (auto bad = system.scale(*s.scale, s.value)) return s.key + ": " + *bad;
    } else {
      return s.key + ": does not apply to a " + system.summary();
    }
  }
  return std::nullopt;
}

void followParameters(const sim::System& scene, const std::vector<LaneSetting>& settings,
                      sim::System& lane) {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (!scene.has(row.parameter)) continue;
    bool own = false;
    for (const LaneSetting& s : settings) own = own || s.parameter == row.parameter;
    if (own) continue;
    // only what changed: setting a value again would rebuild a factorisation for nothing
    const bool vector = sim::isVector(row);
    if (vector && lane.vectorParameter(row.parameter) != scene.vectorParameter(row.parameter))
      lane.setParameter(row.parameter, 0.0, scene.vectorParameter(row.parameter));
    else if (!vector && lane.parameter(row.parameter) != scene.parameter(row.parameter))
      lane.setParameter(row.parameter, scene.parameter(row.parameter));
  }
}

}  // namespace lab
