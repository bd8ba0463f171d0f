// The pendulum kind in scene files (docs/scenes.md#pendulums): its system built from a
// definition, written back, taken back from a running system, and its size; read by
// load_pendulum.cpp. Listed in kinds.cpp.
#include "scene/kinds.hpp"
#include "scene/load_parts.hpp"
#include "scene/writer.hpp"

namespace scene::detail {

namespace {
Built buildPendulum(const SceneDef& def) {
  Built out;
  const auto& pd = def.pendulum;
  sim::PendulumModel m;
  const int n = static_cast<int>(pd.lengths.size());
  m.pivot = pd.pivot;
  m.length = Eigen::Map<const Eigen::VectorXd>(pd.lengths.data(), n);
  m.mass = Eigen::Map<const Eigen::VectorXd>(pd.masses.data(), n);
  out.state.x = Eigen::Map<const Eigen::VectorXd>(pd.angles.data(), n);
  out.state.v = Eigen::Map<const Eigen::VectorXd>(pd.angular_velocities.data(), n);
  static_cast<sim::System&>(out) = sim::System(std::move(m));
  return out;
}

void writePendulum(Writer& w, const SceneDef& def) {
  const PendulumDef& p = def.pendulum;
  w.raw() += "{\n    \"type\": \"pendulum\"";
  writeParameters(w, def, sim::SceneSlot::System, "    ");
  w.raw() += ",\n    \"pivot\": ";
  w.vec(p.pivot);
  const std::pair<const char*, const std::vector<double>*> arrays[] = {
      {"lengths", &p.lengths},
      {"masses", &p.masses},
      {"angles", &p.angles},
      {"angular_velocities", &p.angular_velocities}};
  for (const auto& [key, values] : arrays) {
    w.raw() += ",\n    \"" + std::string(key) + "\": ";
    w.numbers(*values);
  }
  w.raw() += "\n  }";
}

// a pendulum's parameters are all the table's rows
void takePendulumParameters(SceneDef&, const sim::System&) {}

void takePendulum(SceneDef& def, const sim::System& system, const sim::State& initial) {
  const sim::PendulumModel* p = system.pendulum();
  PendulumDef& pd = def.pendulum;
  pd.pivot = p->pivot;
  pd.lengths.assign(p->length.data(), p->length.data() + p->length.size());
  pd.masses.assign(p->mass.data(), p->mass.data() + p->mass.size());
  pd.angles.assign(initial.x.data(), initial.x.data() + initial.x.size());
  pd.angular_velocities.assign(initial.v.data(), initial.v.data() + initial.v.size());
}

SceneSize pendulumSize(const SceneDef& def) {
  const auto& p = def.pendulum;
  constexpr std::size_t kArraysPerLink = 4;  // length, mass, angle, angular velocity
  return {.elements = p.lengths.size(),
          .elements_noun = "links",
          .bytes = p.lengths.size() * kArraysPerLink * sizeof(double)};
}

void parsePendulumSystem(const json& system, const std::string& file, SceneDef& def) {
  def.pendulum = parsePendulum(system, file, def.parameters);
}
}  // namespace

extern const SceneKind kPendulumScene{.parse = parsePendulumSystem,
                                      .build = buildPendulum,
                                      .write = writePendulum,
                                      .takeParameters = takePendulumParameters,
                                      .takeSystem = takePendulum,
                                      .size = pendulumSize};

}  // namespace scene::detail
