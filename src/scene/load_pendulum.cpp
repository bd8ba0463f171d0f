// A pendulum system (docs/scenes.md#pendulums): its links listed one by one, or "uniform".
#include <string>
#include <vector>

#include "scene/load_parts.hpp"

namespace scene::detail {
namespace {

// springlab's generator: n equal links (docs/scenes.md#uniform-pendulums)
void parseUniform(const Obj& sys, PendulumDef& def) {
  for (const char* k : {"lengths", "masses", "angles", "angular_velocities"})
    if (sys.has(k)) sys.fail(k, "cannot be combined with \"uniform\"");
  Obj u(sys.raw("uniform"), sys.at("uniform"), sys.file(),
        {"links", "length", "mass", "angle", "angular_velocity"});
  const int n = static_cast<int>(u.integer("links", 1, kMaxParticles));
  def.lengths.assign(n, u.positive("length"));
  def.masses.assign(n, u.positive("mass"));
  def.angles.assign(n, u.optNumber("angle").value_or(0.0));
  def.angular_velocities.assign(n, u.optNumber("angular_velocity").value_or(0.0));
}

// Every element of the array `key` is > 0; the first that is not is named with its index.
void positiveEach(const Obj& sys, const char* key, const std::vector<double>& v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (!(v[i] > 0))
      throw Error(sys.file() + ": " + sys.at(key) + "[" + std::to_string(i) +
                  "]: must be > 0 (got " + formatNumber(v[i]) + ")");
}

// The array `key` has one value per link (n, the length of "lengths").
void onePerLink(const Obj& sys, const char* key, const std::vector<double>& v, size_t n) {
  if (v.size() != n)
    sys.fail(key, "has " + std::to_string(v.size()) + " values but lengths has " +
                      std::to_string(n) + " (one per link)");
}

// The links listed one by one: "lengths", "masses", "angles" and optionally "angular_velocities".
void parseLinks(const Obj& sys, PendulumDef& def) {
  def.lengths = sys.numbers("lengths");
  const size_t n = def.lengths.size();
  if (n == 0) sys.fail("lengths", "must have at least one link");
  // a link is a particle: the same limit as "uniform"'s links and a mass-spring system's
  if (n > size_t(kMaxParticles))
    sys.fail("lengths", "has " + std::to_string(n) + " links, more than the " +
                            std::to_string(kMaxParticles) + " a pendulum may have");
  positiveEach(sys, "lengths", def.lengths);
  def.masses = sys.numbers("masses");
  onePerLink(sys, "masses", def.masses, n);
  positiveEach(sys, "masses", def.masses);
  def.angles = sys.numbers("angles");
  onePerLink(sys, "angles", def.angles, n);
  if (sys.has("angular_velocities")) {
    def.angular_velocities = sys.numbers("angular_velocities");
    onePerLink(sys, "angular_velocities", def.angular_velocities, n);
  } else {
    def.angular_velocities.assign(n, 0.0);
  }
}

}  // namespace

PendulumDef parsePendulum(const json& system, const std::string& file,
                          sim::ParameterValues& values) {
  const Obj sys(system, "system", file,
                withParameterKeys({"type", "pivot", "lengths", "masses", "angles",
                                   "angular_velocities", "uniform"},
                                  sim::SceneSlot::System));
  parseParameters(sys, sim::SceneSlot::System, sim::SystemKind::Pendulum, values);
  PendulumDef def;
  def.pivot = sys.optVec("pivot", Vec3::Zero());
  if (sys.has("uniform"))
    parseUniform(sys, def);
  else
    parseLinks(sys, def);
  return def;
}

}  // namespace scene::detail
