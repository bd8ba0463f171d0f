// Reading method files (method_file.hpp) with the scene's strict JSON reader (json_reader.hpp).
#include "scene/method_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "scene/load_parts.hpp"
#include "util/bounded_file.hpp"
#include "util/one_line.hpp"

namespace scene {

namespace {

using detail::finiteNumber;
using detail::formatNumber;
using detail::json;
using detail::Obj;
using sim::MethodCoefficients;

// Weights and the drifts' and kicks' coefficients sum to 1, and a given c equals the row sums of
// a, to this: 16 or 17 digits a coefficient leave sums within 1e-15.
constexpr double kConsistency = 1e-12;

std::string stages(size_t n) {
  return std::to_string(n) + (n == 1 ? " stage" : " stages");
}

void checkName(const Obj& top, const std::string& name) {
  if (name.empty()) top.fail("name", "must not be empty");
  for (char ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.'))
      top.fail("name",
               "may hold only letters, digits, '_', '-' and '.' (it labels columns and "
               "lanes), not \"" +
                   name + "\"");
  if (name.ends_with(".json")) top.fail("name", "must not end in .json");
  for (const auto& i : sim::integrators())
    if (i.name == name) top.fail("name", "\"" + name + "\" is a built-in integrator's name");
}

// a: s x s numbers, lower triangular (explicit or diagonally implicit)
void parseTableau(const Obj& top, MethodCoefficients& m) {
  if (!top.has("a")) top.fail("a", "required key is missing");
  const json& a = top.raw("a");
  if (!a.is_array() || a.empty()) top.fail("a", "must be an array of rows (arrays of numbers)");
  const size_t s = a.size();
  if (s > size_t(sim::kMaxMethodStages))
    top.fail("a", "has " + stages(s) + ", more than the " + std::to_string(sim::kMaxMethodStages) +
                      " a method may have");
  for (size_t i = 0; i < s; ++i) {
    const std::string row = "a[" + std::to_string(i) + "]";
    if (!a[i].is_array()) top.fail(row, "must be an array of numbers");
    if (a[i].size() != s)
      top.fail(row, "has " + std::to_string(a[i].size()) + " numbers; a has " + stages(s) +
                        ", so each row must have " + std::to_string(s) + " (ragged sizes)");
    m.a.emplace_back();
    for (size_t j = 0; j < s; ++j)
      m.a[i].push_back(
          finiteNumber(a[i][j], top.at(row) + "[" + std::to_string(j) + "]", top.file()));
  }
  for (size_t i = 0; i < s; ++i)
    for (size_t j = i + 1; j < s; ++j)
      if (m.a[i][j] != 0.0)
        top.fail("a[" + std::to_string(i) + "][" + std::to_string(j) + "]",
                 "is above the diagonal: a full (fully implicit) a is not supported, only "
                 "explicit (strictly lower triangular) and diagonally implicit (lower "
                 "triangular) ones");
}

void parseRungeKutta(const Obj& top, MethodCoefficients& m) {
  parseTableau(top, m);
  const size_t s = m.a.size();
  m.b = top.numbers("b");
  if (m.b.size() != s)
    top.fail("b", "has " + std::to_string(m.b.size()) + " weights; a has " + stages(s));
  double sum = 0.0;
  for (double w : m.b) sum += w;
  if (!(std::abs(sum - 1.0) <= kConsistency))
    top.fail("b", "the weights sum to " + formatNumber(sum) + ", not 1 (an inconsistent method)");
  for (size_t i = 0; i < s; ++i) {
    double row = 0.0;
    for (double x : m.a[i]) row += x;
    m.c.push_back(row);
  }
  if (!top.has("c")) return;
  const std::vector<double> c = top.numbers("c");
  if (c.size() != s)
    top.fail("c", "has " + std::to_string(c.size()) + " nodes; a has " + stages(s));
  for (size_t i = 0; i < s; ++i)
    if (!(std::abs(c[i] - m.c[i]) <= kConsistency))
      top.fail("c[" + std::to_string(i) + "]",
               "is " + formatNumber(c[i]) + " but the row sum of a[" + std::to_string(i) + "] is " +
                   formatNumber(m.c[i]) + " (they must agree to 1e-12)");
  m.c = c;
}

void parseSplitting(const Obj& top, MethodCoefficients& m) {
  if (!top.has("stages")) top.fail("stages", "required key is missing");
  const json& st = top.raw("stages");
  if (!st.is_array() || st.empty())
    top.fail("stages", "must be an array of [\"drift\", c] and [\"kick\", d] stages");
  if (st.size() > size_t(sim::kMaxMethodStages))
    top.fail("stages", "has " + stages(st.size()) + ", more than the " +
                           std::to_string(sim::kMaxMethodStages) + " a method may have");
  double drifts = 0.0, kicks = 0.0;
  for (size_t i = 0; i < st.size(); ++i) {
    const std::string at = "stages[" + std::to_string(i) + "]";
    if (!st[i].is_array() || st[i].size() != 2)
      top.fail(at, "must be a pair [\"drift\", c] or [\"kick\", d]");
    const json& kind = st[i][0];
    if (!kind.is_string() || (kind != "drift" && kind != "kick"))
      top.fail(at + "[0]", "must be \"drift\" or \"kick\"");
    const double v = finiteNumber(st[i][1], top.at(at) + "[1]", top.file());
    const bool drift = kind == "drift";
    (drift ? drifts : kicks) += v;
    m.stages.push_back({drift, v});
  }
  if (!(std::abs(drifts - 1.0) <= kConsistency))
    top.fail("stages", "the drifts' coefficients sum to " + formatNumber(drifts) +
                           ", not 1 (an inconsistent method)");
  if (!(std::abs(kicks - 1.0) <= kConsistency))
    top.fail("stages", "the kicks' coefficients sum to " + formatNumber(kicks) +
                           ", not 1 (an inconsistent method)");
}

MethodCoefficients parseText(std::string_view text, const std::string& origin) {
  const json root = detail::parseJson(text, origin);
  // the type first: the keys allowed depend on it
  const Obj any(root, "", origin, {"name", "type", "a", "b", "c", "stages"});
  const std::string type = any.string("type");
  MethodCoefficients m;
  if (type == "runge_kutta") {
    const Obj top(root, "", origin, {"name", "type", "a", "b", "c"});
    m.name = top.string("name");
    checkName(top, m.name);
    parseRungeKutta(top, m);
  } else if (type == "splitting") {
    const Obj top(root, "", origin, {"name", "type", "stages"});
    m.name = top.string("name");
    checkName(top, m.name);
    m.type = MethodCoefficients::Type::Splitting;
    parseSplitting(top, m);
  } else {
    any.fail("type", "must be \"runge_kutta\" or \"splitting\", not \"" + type + "\"");
  }
  return m;
}

bool endsWithJson(std::string_view name) {
  return name.size() > 5 && name.ends_with(".json");
}

}  // namespace

util::Expected<MethodCoefficients> parseMethod(std::string_view text, const std::string& origin) {
  try {
    return parseText(text, origin);
  } catch (const Error& e) {
    return util::fail(util::oneLine(e.what()));
  }
}

util::Expected<sim::Method> loadMethodFile(const std::string& path) {
  const auto text = util::readBoundedFile(path, kMaxMethodBytes);
  if (!text) return util::fail(util::oneLine(path + ": " + text.problem()));
  auto m = parseMethod(*text, path);
  if (!m) return util::fail(m.problem());
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(path, ec);
  m->path = ec ? path : absolute.lexically_normal().string();
  return sim::registerMethod(std::move(*m));
}

std::string userMethodFolder() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/springlab/methods";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.config/springlab/methods";
}

std::vector<std::string> userMethodFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(userMethodFolder(), ec))
    if (endsWithJson(e.path().filename().string())) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

sim::IntegratorLookup lookupIntegrator(std::string_view name, sim::SystemKind kind,
                                       const std::string& base) {
  if (endsWithJson(name)) {
    std::filesystem::path p{std::string(name)};
    if (p.is_relative() && !base.empty()) p = std::filesystem::path(base) / p;
    const auto m = loadMethodFile(p.string());
    if (!m) return {std::nullopt, m.problem()};
    if (!sim::appliesTo(*m, kind))  // only a diagonally implicit one, on a pendulum
      return {std::nullopt, std::string(sim::info(*m).name) + " (" + p.string() +
                                ") does not apply to " + std::string(sim::systemName(kind)) +
                                " systems: its implicit stages are solved on mass-spring ones"};
    return {*m, {}};
  }
  // the user's folder is read the first time a name is not a built-in's nor a loaded method's;
  // a file in it with a problem is skipped here (it is named when asked for by its path)
  if (!sim::findIntegrator(name))
    for (const std::string& file : userMethodFiles()) (void)loadMethodFile(file);
  return sim::lookupIntegrator(name, kind);
}

}  // namespace scene
