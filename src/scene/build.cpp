#include "scene/build.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "scene/kinds.hpp"

namespace scene {

namespace {

// The rows the scene gives (SceneDef::parameters) set through the table, as the panel sets them:
// the loader checked each by its rule, so none is refused.
void setParameters(const SceneDef& def, sim::System& system) {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene == sim::SceneSlot::None || !system.has(row.parameter)) continue;
    const sim::Parameter p = row.parameter;
    const auto refused = sim::isVector(row) ? system.setParameter(p, 0.0, def.parameters.vector(p))
                                            : system.setParameter(p, def.parameters.scalar(p));
    if (refused) throw Error(def.name + ": " + std::string(row.key) + ": " + *refused);
  }
}

}  // namespace

Built build(const SceneDef& def) {
  Built out = detail::sceneKind(def.kind).build(def);
  setParameters(def, out);
  return out;
}

SceneDef withParameters(SceneDef d, const sim::System& system) {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene == sim::SceneSlot::None || !system.has(row.parameter)) continue;
    if (sim::isVector(row))
      d.parameters.set(row.parameter, system.vectorParameter(row.parameter));
    else
      d.parameters.set(row.parameter, system.parameter(row.parameter));
  }
  detail::sceneKind(d.kind).takeParameters(d, system);
  return d;
}

}  // namespace scene
