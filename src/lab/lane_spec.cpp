#include "lab/lane_spec.hpp"
#include "util/one_line.hpp"

#include <charconv>
#include <cmath>

namespace lab {

namespace {
bool parsePositive(const std::string& s, double& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;
  const auto r = std::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e && std::isfinite(out) && out > 0;
}

std::optional<std::string> parseOne(const std::string& item, sim::SystemKind kind, LaneSpec& out) {
  out.text = item;
  const auto at = item.find('@');
  const auto lookup = sim::lookupIntegrator(item.substr(0, at), kind);
  if (!lookup.method) return lookup.error;
  out.method = *lookup.method;
  if (at == std::string::npos) return std::nullopt;
  double dt;
  if (!parsePositive(item.substr(at + 1), dt))
    return "dt must be a finite number > 0, not \"" + item.substr(at + 1) + "\"";
  out.dt = dt;
  return std::nullopt;
}
}  // namespace

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
      return "lane " + std::to_string(out.size()) + " is empty (SPEC,SPEC: NAME or NAME@DT)";
    if (auto bad = parseOne(item, kind, spec))
      return "lane " + std::to_string(out.size()) + " \"" + item + "\": " + *bad;
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

}  // namespace lab
