// The scene writer (docs/scenes.md#saved-scenes): the inverse of the loader, key for key. Every
// number is written in its shortest form that parses back to the same double (std::to_chars), so
// a saved scene rebuilds the same bits; values equal to the loader's default are left out only
// where the default is exactly the value (a +0 velocity or dashpot), never by tolerance.
#include "scene/save.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "scene/kinds.hpp"
#include "scene/load.hpp"
#include "scene/writer.hpp"
#include "sim/user_methods.hpp"
#include "util/atomic_file.hpp"
#include "util/one_line.hpp"

namespace scene {
namespace {

using detail::Writer;

// The same bits: a -0 is not the +0 it equals.
bool sameBits(const Vec3& a, const std::array<double, 3>& b) {
  return std::memcmp(a.data(), b.data(), sizeof b) == 0;
}

// The "render" section's set keys, or nothing when none is set (docs/scenes.md#render).
void writeRender(Writer& w, const RenderDef& r) {
  const CameraDef& c = r.camera;
  const bool camera =
      c.target || c.distance || c.yaw_deg || c.pitch_deg || c.fov_deg || c.orbit_deg_per_s != 0.0;
  if (!camera && !r.strain_scale && !r.show_points && !r.show_springs) return;
  bool first = true;
  w.raw() += ",\n  \"render\": {";
  if (camera) {
    bool cfirst = true;
    w.key("camera", first);
    w.raw() += '{';
    if (c.target) w.key("target", cfirst), w.vec(*c.target);
    const std::pair<const char*, const std::optional<double>*> numbers[] = {
        {"distance", &c.distance},
        {"yaw", &c.yaw_deg},
        {"pitch", &c.pitch_deg},
        {"fov", &c.fov_deg}};
    for (const auto& [key, value] : numbers)
      if (*value) w.key(key, cfirst), w.number(**value);
    if (c.orbit_deg_per_s != 0.0) w.key("orbit", cfirst), w.number(c.orbit_deg_per_s);
    w.raw() += '}';
  }
  if (r.strain_scale) w.key("strain_scale", first), w.number(*r.strain_scale);
  const std::pair<const char*, const std::optional<bool>*> flags[] = {
      {"show_points", &r.show_points}, {"show_springs", &r.show_springs}};
  for (const auto& [key, value] : flags)
    if (*value) w.key(key, first), w.raw() += **value ? "true" : "false";
  w.raw() += '}';
}

void writeTop(Writer& w, const SceneDef& def) {
  w.raw() += "{\n";
  if (!def.name.empty()) w.raw() += "  \"name\": ", w.string(def.name), w.raw() += ",\n";
  if (!def.description.empty())
    w.raw() += "  \"description\": ", w.string(def.description), w.raw() += ",\n";
  w.raw() += "  \"integrator\": ";
  w.string(sim::methodReference(def.integrator));  // a method file's by its path
  w.raw() += ",\n  \"dt\": ";
  w.number(def.dt);
  w.raw() += ",\n  \"duration\": ";
  w.number(def.duration);
  writeParameters(w, def, sim::SceneSlot::Top, "  ");
  writeRender(w, def.render);
}

}  // namespace

namespace detail {

// The parameter table's rows of `slot` (sim::ParameterInfo::scene) that apply to the kind, each
// under its key as `",\n" + indent + "\"key\": value"`; a row at its default's exact bits is left
// out, and so is one that acts through another row that is 0 (the loader refuses it).
void writeParameters(Writer& w, const SceneDef& def, sim::SceneSlot slot, const char* indent) {
  const sim::ParameterValues& v = def.parameters;
  for (const sim::ParameterInfo& row : sim::parameters()) {
    const sim::Parameter p = row.parameter;
    if (row.scene != slot || sim::notApplicable(p, def.kind)) continue;
    if (sameBits(v.vector(p), row.scene_default)) continue;
    if (row.acts_through && !(v.scalar(*row.acts_through) > 0.0)) continue;
    w.raw().append(",\n").append(indent).append("\"").append(row.key).append("\": ");
    if (sim::isVector(row))
      w.vec(v.vector(p));
    else if (row.rule == sim::Rule::Whole)
      w.integer(static_cast<long long>(v.scalar(p)));
    else
      w.number(v.scalar(p));
  }
}

}  // namespace detail

std::string toJson(const SceneDef& def) {
  std::string out;
  detail::Writer w(out);
  writeTop(w, def);
  out += ",\n  \"system\": ";
  detail::sceneKind(def.kind).write(w, def);
  out += "\n}\n";
  return out;
}

util::Problem saveScene(const SceneDef& def, const std::string& path) {
  std::string text;
  try {
    text = toJson(def);
  } catch (const Error& e) {
    return util::oneLine(path + ": " + e.what());
  }
  // the loader refuses a larger file (docs/scenes.md#limits): write none it cannot read back
  if (text.size() > kMaxSceneBytes)
    return util::oneLine(path + ": the scene's explicit file would be " +
                         std::to_string(text.size() >> 20) + " MiB, more than the " +
                         std::to_string(kMaxSceneBytes >> 20) +
                         " MiB a scene file may be; nothing written");
  if (const util::Problem why = util::writeFileAtomically(path, text)) return util::oneLine(*why);
  return std::nullopt;
}

SceneDef withSystem(SceneDef def, const sim::System& system, const sim::State& initial) {
  def = withParameters(std::move(def), system);
  detail::sceneKind(def.kind).takeSystem(def, system, initial);
  return def;
}

}  // namespace scene
