// The parameter table's rows in a scene file (docs/scenes.md): each row with a scene slot
// (sim::ParameterInfo::scene) is read under its key by its rule, so that the file, `--at` and the
// panel accept the same values and a new row needs nothing here.
#include <cctype>

#include "scene/load_parts.hpp"

namespace scene::detail {

namespace {
void readRow(const Obj& o, const sim::ParameterInfo& row, sim::ParameterValues& out) {
  const std::string key(row.key);
  switch (row.rule) {
    case sim::Rule::Positive:
      out.set(row.parameter, o.positive(key));
      return;
    case sim::Rule::NonNegative:
      out.set(row.parameter, o.nonNegative(key));
      return;
    case sim::Rule::Whole:
      out.set(row.parameter, static_cast<double>(o.integer(key, static_cast<long long>(row.lo),
                                                           static_cast<long long>(row.hi))));
      return;
    case sim::Rule::Vector:
    case sim::Rule::Velocity: {
      const Vec3 v = o.vec(key);
      const double components[3] = {v.x(), v.y(), v.z()};
      if (auto bad = sim::checkVector(row, components)) o.fail(key, *bad);
      out.set(row.parameter, v);
      return;
    }
  }
}
}  // namespace

std::vector<std::string> withParameterKeys(std::vector<std::string> own, sim::SceneSlot slot) {
  for (const sim::ParameterInfo& row : sim::parameters())
    if (row.scene == slot) own.emplace_back(row.key);
  return own;
}

void parseParameters(const Obj& o, sim::SceneSlot slot, sim::SystemKind kind,
                     sim::ParameterValues& out) {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene != slot || !o.has(std::string(row.key))) continue;
    if (auto absent = sim::notApplicable(row.parameter, kind))
      o.fail(std::string(row.key), *absent);
    readRow(o, row, out);
  }
}

void checkActsThrough(const Obj& o, sim::SceneSlot slot, sim::SystemKind kind,
                      const sim::ParameterValues& values) {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene != slot || !row.acts_through || sim::notApplicable(row.parameter, kind)) continue;
    if (values.isDefault(row.parameter) || values.scalar(*row.acts_through) > 0.0) continue;
    const sim::ParameterInfo& through = sim::parameterInfo(*row.acts_through);
    std::string name(through.label);
    name[0] = static_cast<char>(std::tolower(name[0]));
    o.fail(std::string(row.key),
           "acts through the " + name + ": set " + o.at(std::string(through.key)) + " > 0");
  }
}

}  // namespace scene::detail
