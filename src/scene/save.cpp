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

#include "scene/load.hpp"
#include "util/atomic_file.hpp"
#include "util/one_line.hpp"

namespace scene {
namespace {

// Appends the JSON text of one value; the text is built in one string (a fine cloth's file is
// tens of megabytes: no tree of JSON values in between).
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  void number(double v) {
    if (!std::isfinite(v)) throw Error("cannot save a scene with a number that is not finite");
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    // "-0" would read back as the integer 0: keep the sign of a negative zero
    if (v == 0.0 && std::signbit(v)) out_ += ".0";
  }
  void integer(long long v) { out_ += std::to_string(v); }
  void string(const std::string& s) {
    out_ += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  void vec(const Vec3& v) {
    out_ += '[';
    for (int i = 0; i < 3; ++i) {
      if (i) out_ += ", ";
      number(v[i]);
    }
    out_ += ']';
  }
  void numbers(const std::vector<double>& v) {
    out_ += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ", ";
      number(v[i]);
    }
    out_ += ']';
  }
  // `"key": ` after a comma where one is due (`first` tracks the object being written)
  void key(const char* k, bool& first) {
    out_ += first ? "" : ", ";
    first = false;
    out_ += '"';
    out_ += k;
    out_ += "\": ";
  }
  std::string& raw() { return out_; }

 private:
  std::string& out_;
};

// +0 exactly: the loader's default for a velocity or a dashpot (a -0 is written, to keep its bit)
bool isPlusZero(double v) {
  return v == 0.0 && !std::signbit(v);
}
bool isPlusZero(const Vec3& v) {
  return isPlusZero(v.x()) && isPlusZero(v.y()) && isPlusZero(v.z());
}

// The same bits: a -0 is not the +0 it equals.
bool sameBits(const Vec3& a, const std::array<double, 3>& b) {
  return std::memcmp(a.data(), b.data(), sizeof b) == 0;
}

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

void writeParticle(Writer& w, const ParticleDef& p) {
  bool first = true;
  w.raw() += '{';
  w.key("position", first);
  w.vec(p.position);
  if (p.fixed) {
    // a fixed particle's mass is ignored and its velocity zero (docs/scenes.md#particles)
    w.key("fixed", first);
    w.raw() += "true";
  } else {
    if (!isPlusZero(p.velocity)) w.key("velocity", first), w.vec(p.velocity);
    w.key("mass", first);
    w.number(p.mass);
  }
  w.raw() += '}';
}

// The rest length always, the default's (the initial distance) computed as scene::build does, so
// that the file holds it explicitly whatever later edits do to the positions.
void writeSpring(Writer& w, const SpringDef& s, const std::vector<ParticleDef>& particles) {
  bool first = true;
  w.raw() += '{';
  w.key("a", first);
  w.integer(s.a);
  w.key("b", first);
  w.integer(s.b);
  w.key("stiffness", first);
  w.number(s.stiffness);
  w.key("rest_length", first);
  w.number(s.rest_length ? *s.rest_length
                         : (particles[s.b].position - particles[s.a].position).norm());
  if (!isPlusZero(s.damping)) w.key("damping", first), w.number(s.damping);
  w.raw() += '}';
}

bool sameBits(const Vec3& a, const Vec3& b) {
  return std::memcmp(a.data(), b.data(), sizeof(double) * 3) == 0;
}

// A plane's unit normal n is stored as the loader made it, v.normalized() of the file's v; but
// normalising a unit vector again moves about a third of tilted normals by an ulp. So the file
// gets a v that normalises to n bit for bit: n itself where it does (the axes), else n times a
// scale just above 1 (steps of 1/4096: the length's rounding then falls differently) moved by at
// most an ulp per component, the first that does. n came from some v, so one exists; this search
// found one for every tilted normal of a test of a thousand, within 1 700 tries.
constexpr int kScaleSteps = 4096;
Vec3 normalSpelling(const Vec3& n) {
  if (sameBits(n.normalized(), n)) return n;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr int kNudges = 27;  // -1, 0 or +1 ulp on each of the three components
  for (int k = 0; k < kScaleSteps; ++k) {
    const Vec3 base = n * (1.0 + static_cast<double>(k) / kScaleSteps);
    for (int d = 0; d < kNudges; ++d) {
      Vec3 v = base;
      for (int c = 0, place = 1; c < 3; ++c, place *= 3)
        if (const int step = (d / place) % 3 - 1; step != 0)
          v[c] = std::nextafter(v[c], step > 0 ? kInf : -kInf);
      if (sameBits(v.normalized(), n)) return v;
    }
  }
  return n;  // none found: the normal read back may differ from n by an ulp
}

void writeCollider(Writer& w, const sim::Collider& c) {
  bool first = true;
  w.raw() += '{';
  w.key("type", first);
  if (c.shape == sim::Collider::Shape::Plane) {
    w.raw() += "\"plane\"";
    w.key("point", first);
    w.vec(c.point);
    w.key("normal", first);
    w.vec(normalSpelling(c.normal));
  } else {
    w.raw() += "\"sphere\"";
    w.key("center", first);
    w.vec(c.point);
    w.key("radius", first);
    w.number(c.radius);
  }
  if (!isPlusZero(c.friction)) w.key("friction", first), w.number(c.friction);
  w.raw() += '}';
}

// `"key": [\n  item,\n  item\n]`, one item a line (a list of thousands stays readable and diffable)
template <class T, class F>
void writeList(Writer& w, const char* key, const std::vector<T>& items, F&& item) {
  w.raw() += ",\n    \"";
  w.raw() += key;
  w.raw() += "\": [";
  for (size_t i = 0; i < items.size(); ++i) {
    w.raw() += i ? ",\n      " : "\n      ";
    item(items[i]);
  }
  w.raw() += items.empty() ? "]" : "\n    ]";
}

void writeMassSpring(Writer& w, const SceneDef& def) {
  const MassSpringDef& ms = def.mass_spring;
  w.raw() += "{\n    \"type\": \"mass_spring\"";
  writeParameters(w, def, sim::SceneSlot::System, "    ");
  if (ms.tethers) w.raw() += ",\n    \"tethers\": true";
  if (ms.self_thickness > 0.0) {
    w.raw() += ",\n    \"self_collision\": {\"thickness\": ";
    w.number(ms.self_thickness);
    w.raw() += '}';
  }
  if (!ms.colliders.empty())
    writeList(w, "colliders", ms.colliders, [&](const sim::Collider& c) { writeCollider(w, c); });
  writeList(w, "particles", ms.particles, [&](const ParticleDef& p) { writeParticle(w, p); });
  writeList(w, "springs", ms.springs, [&](const SpringDef& s) { writeSpring(w, s, ms.particles); });
  if (!ms.triangles.empty())
    writeList(w, "triangles", ms.triangles, [&](const std::array<int, 3>& t) {
      w.raw() += '[' + std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " +
                 std::to_string(t[2]) + ']';
    });
  w.raw() += "\n  }";
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
  w.string(std::string(sim::info(def.integrator).name));
  w.raw() += ",\n  \"dt\": ";
  w.number(def.dt);
  w.raw() += ",\n  \"duration\": ";
  w.number(def.duration);
  writeParameters(w, def, sim::SceneSlot::Top, "  ");
  writeRender(w, def.render);
}

}  // namespace

std::string toJson(const SceneDef& def) {
  std::string out;
  Writer w(out);
  writeTop(w, def);
  out += ",\n  \"system\": ";
  switch (def.kind) {
    case sim::SystemKind::MassSpring:
      writeMassSpring(w, def);
      break;
    case sim::SystemKind::Pendulum:
      writePendulum(w, def);
      break;
  }
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
  if (const sim::PendulumModel* p = system.pendulum()) {
    PendulumDef& pd = def.pendulum;
    pd.pivot = p->pivot;
    pd.lengths.assign(p->length.data(), p->length.data() + p->length.size());
    pd.masses.assign(p->mass.data(), p->mass.data() + p->mass.size());
    pd.angles.assign(initial.x.data(), initial.x.data() + initial.x.size());
    pd.angular_velocities.assign(initial.v.data(), initial.v.data() + initial.v.size());
  }
  if (const sim::MassSpringModel* m = system.massSpring()) {
    MassSpringDef& ms = def.mass_spring;
    for (size_t i = 0; i < ms.particles.size(); ++i) {
      ParticleDef& p = ms.particles[i];
      const auto k = static_cast<Eigen::Index>(i);
      p.position = initial.x.segment<3>(3 * k);
      p.velocity = p.fixed ? Vec3::Zero() : Vec3(initial.v.segment<3>(3 * k));
      if (!p.fixed) p.mass = m->mass[k];
    }
    for (size_t s = 0; s < ms.springs.size(); ++s) {
      const auto k = static_cast<Eigen::Index>(s);
      ms.springs[s].stiffness = m->stiffness[k];
      ms.springs[s].rest_length = m->rest_length[k];
    }
  }
  return def;
}

}  // namespace scene
