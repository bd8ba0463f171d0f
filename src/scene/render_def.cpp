// How a scene is shown, from its two sources under the same rules: the scene file's "render"
// section (docs/scenes.md#render) and the command line's --camera KEY=VALUE (docs/cli.md#record),
// with the inverse of the latter for the provenance file.
#include <algorithm>
#include <charconv>
#include <cmath>

#include "scene/load_parts.hpp"
#include "scene/scene_def.hpp"
#include "util/number.hpp"
#include "util/one_line.hpp"

namespace scene {
namespace {

// The whole of `s` as one finite number, or nothing.
std::optional<double> strictNumber(std::string_view s) {
  return util::parseFiniteNumber(s);
}

std::string quoted(std::string_view s) {
  std::string out(1, '"');
  out.append(s);
  out += '"';
  return out;
}

// 17 significant digits: parses back to the same double
std::string exact(double v) {
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
  return std::string(buf, r.ptr);
}

// The keys of render.camera and of --camera.
constexpr std::initializer_list<const char*> kCameraKeys = {"target", "distance", "yaw",
                                                            "pitch",  "fov",      "orbit"};

// " (keys: target, ...)": the note of --camera's messages
std::string keysNote() {
  return " (keys: " + detail::commaList(kCameraKeys) + ")";
}

// The ranges of the camera's angles, for the scene file and the command line alike.
bool pitchInRange(double p) {
  return p > -kMaxPitchDeg && p < kMaxPitchDeg;
}
bool fovInRange(double f) {
  return f >= kMinFovDeg && f <= kMaxFovDeg;
}
std::string pitchRange() {
  return "between " + detail::formatNumber(-kMaxPitchDeg) + " and " +
         detail::formatNumber(kMaxPitchDeg) + " degrees";
}
std::string fovRange() {
  return "between " + detail::formatNumber(kMinFovDeg) + " and " +
         detail::formatNumber(kMaxFovDeg) + " degrees";
}

// render.camera: each key optional, the app frames the scene for what is unset.
CameraDef parseCamera(const detail::Obj& c) {
  CameraDef cam;
  if (c.has("target")) cam.target = c.vec("target");
  if (c.has("distance")) cam.distance = c.positive("distance");
  cam.yaw_deg = c.optNumber("yaw");
  if (c.has("pitch")) {
    const double p = c.number("pitch");
    if (!pitchInRange(p))
      c.fail("pitch", "must be " + pitchRange() + " (got " + detail::formatNumber(p) + ")");
    cam.pitch_deg = p;
  }
  if (c.has("fov")) {
    const double f = c.number("fov");
    if (!fovInRange(f))
      c.fail("fov", "must be " + fovRange() + " (got " + detail::formatNumber(f) + ")");
    cam.fov_deg = f;
  }
  cam.orbit_deg_per_s = c.optNumber("orbit").value_or(0.0);
  return cam;
}

}  // namespace

namespace detail {

RenderDef parseRender(const json& render, const std::string& file) {
  RenderDef out;
  const Obj r(render, "render", file, {"camera", "strain_scale", "show_points", "show_springs"});
  if (r.has("camera"))
    out.camera = parseCamera(Obj(r.raw("camera"), r.at("camera"), r.file(), kCameraKeys));
  if (r.has("strain_scale")) {
    const double s = r.number("strain_scale");
    if (!(s > 0 && s <= kMaxStrainScale))
      r.fail("strain_scale", "must be > 0 and <= " + formatNumber(kMaxStrainScale) + " (got " +
                                 formatNumber(s) + ")");
    out.strain_scale = s;
  }
  if (r.has("show_points")) out.show_points = r.boolean("show_points", false);
  if (r.has("show_springs")) out.show_springs = r.boolean("show_springs", false);
  return out;
}

}  // namespace detail

namespace {
std::optional<std::string> applyCameraOptionText(std::string_view keyValue, CameraDef& camera) {
  const auto eq = keyValue.find('=');
  if (eq == std::string_view::npos)
    return "expected KEY=VALUE, not " + quoted(keyValue) + keysNote();
  const std::string_view key = keyValue.substr(0, eq), value = keyValue.substr(eq + 1);
  const auto bad = [&](const std::string& rule) {
    return "" + std::string(key) + " must be " + rule + ", not " + quoted(value);
  };
  if (key == "target") {
    Vec3 t;
    std::string_view rest = value;
    for (int i = 0; i < 3; ++i) {
      const auto comma = rest.find(',');
      if ((i < 2) != (comma != std::string_view::npos))
        return std::string("target must be X,Y,Z, not ") + quoted(value);
      const auto x = strictNumber(rest.substr(0, comma));
      if (!x) return std::string("target must be X,Y,Z, not ") + quoted(value);
      t[i] = *x;
      if (i < 2) rest = rest.substr(comma + 1);
    }
    camera.target = t;
    return std::nullopt;
  }
  if (std::none_of(kCameraKeys.begin(), kCameraKeys.end(), [&](const char* k) { return key == k; }))
    return "unknown key " + quoted(key) + keysNote();
  const auto v = strictNumber(value);
  if (key == "distance") {
    if (!v || !(*v > 0)) return bad("a number > 0 (m)");
    camera.distance = *v;
  } else if (key == "yaw") {
    if (!v) return bad("a finite number (degrees)");
    camera.yaw_deg = *v;
  } else if (key == "pitch") {
    if (!v || !pitchInRange(*v)) return bad(pitchRange());
    camera.pitch_deg = *v;
  } else if (key == "fov") {
    if (!v || !fovInRange(*v)) return bad(fovRange());
    camera.fov_deg = *v;
  } else {
    if (!v) return bad("a finite number (degrees per second)");
    camera.orbit_deg_per_s = *v;
  }
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> applyCameraOption(std::string_view keyValue, CameraDef& camera) {
  auto problem = applyCameraOptionText(keyValue, camera);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

std::vector<std::string> cameraOptions(const CameraDef& camera) {
  std::vector<std::string> out;
  if (camera.target) {
    const Vec3& t = *camera.target;
    out.push_back("target=" + exact(t.x()) + "," + exact(t.y()) + "," + exact(t.z()));
  }
  if (camera.distance) out.push_back("distance=" + exact(*camera.distance));
  if (camera.yaw_deg) out.push_back("yaw=" + exact(*camera.yaw_deg));
  if (camera.pitch_deg) out.push_back("pitch=" + exact(*camera.pitch_deg));
  if (camera.fov_deg) out.push_back("fov=" + exact(*camera.fov_deg));
  if (camera.orbit_deg_per_s != 0.0) out.push_back("orbit=" + exact(camera.orbit_deg_per_s));
  return out;
}

std::string cameraOptionText(const CameraDef& camera) {
  std::string out;
  for (const std::string& kv : cameraOptions(camera)) out += (out.empty() ? "" : " ") + kv;
  return out;
}

}  // namespace scene
