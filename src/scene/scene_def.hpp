// Validated, plain definition of a scene (docs/architecture.md#from-a-scene-file-to-pixels): what
// scene::load produces from JSON and scene::build turns into a sim model and state. Generators are
// already expanded here.
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model.hpp"
#include "sim/parameters.hpp"
#include "sim/registry.hpp"

namespace scene {

using sim::Vec3;

struct ParticleDef {
  Vec3 position = Vec3::Zero();  // m
  Vec3 velocity = Vec3::Zero();  // m/s
  double mass = 0.0;             // kg (ignored when fixed)
  bool fixed = false;
};

struct SpringDef {
  int a = 0, b = 0;
  double stiffness = 0.0;             // N/m
  std::optional<double> rest_length;  // m; default: initial distance
  double damping = 0.0;               // N s/m
};

struct MassSpringDef {
  bool tethers = false;  // xpbd's long-range attachments (docs/integrators.md#tethers)
  std::vector<sim::Collider> colliders;  // static obstacles (docs/scenes.md#colliders)
  double self_thickness = 0.0;  // m, self-collision's (docs/scenes.md#self-collision); 0: off
  std::vector<ParticleDef> particles;
  std::vector<SpringDef> springs;
  std::vector<std::array<int, 3>> triangles;  // surface for display (cloth); no physics
  // a coarser surface for the shadow under a fine cloth (empty: the surface's own); not in files
  std::vector<std::array<int, 3>> shadow_triangles;
  // the surface at coarser resolutions, for a view too far away to resolve its cells: level k
  // joins every 2^(k+1)-th grid line of each cloth (docs/architecture.md#surface-levels); not in
  // files, and none where the scene lists triangles of its own
  std::vector<std::vector<std::array<int, 3>>> surface_levels;
};

struct PendulumDef {
  Vec3 pivot = Vec3::Zero();               // m
  std::vector<double> lengths;             // m, > 0
  std::vector<double> masses;              // kg, > 0
  std::vector<double> angles;              // rad from the downward vertical, counter-clockwise
  std::vector<double> angular_velocities;  // rad/s
};

// How the scene is shown and recorded (the scene's "render" section, docs/scenes.md#render): no
// physics. Unset values are left to the app.
struct CameraDef {
  std::optional<Vec3> target;       // m: the point looked at
  std::optional<double> distance;   // m, > 0: from the target
  std::optional<double> yaw_deg;    // degrees, finite: 0 looks along -z, positive turns about +y
  std::optional<double> pitch_deg;  // degrees, -89.9 < pitch < 89.9: positive looks down
  std::optional<double> fov_deg;    // degrees, 5..120: vertical field of view
  double orbit_deg_per_s = 0.0;     // degrees per simulated second, finite: turn about the target
};

struct RenderDef {
  CameraDef camera;
  std::optional<double> strain_scale;  // (0, 10]: |strain| drawn at full colour
  std::optional<bool> show_points, show_springs;
};

// Limits shared by the scene file and the command line's --camera.
inline constexpr double kMaxPitchDeg = 89.9;  // exclusive, either sign
inline constexpr double kMinFovDeg = 5.0, kMaxFovDeg = 120.0;
inline constexpr double kMaxStrainScale = 10.0;

// One `--camera KEY=VALUE` (keys target=X,Y,Z, distance, yaw, pitch, fov, orbit; the units and
// ranges of the scene's render.camera) applied to `camera`. Returns the problem, e.g.
// `pitch must be between -89.9 and 89.9 degrees, not "95"` (the caller names the option or the
// key it came from: "--camera: pitch must be..."), leaving `camera` unchanged;
// nothing when it applied. Numbers are strict: the whole value must be one finite number.
std::optional<std::string> applyCameraOption(std::string_view keyValue, CameraDef& camera);
// The set keys of `camera` as space-separated KEY=VALUE items (orbit only when non-zero), with
// 17 significant digits: applying each to an empty CameraDef reproduces `camera` exactly.
std::string cameraOptionText(const CameraDef& camera);
// The same, one item per element.
std::vector<std::string> cameraOptions(const CameraDef& camera);

struct SceneDef {
  RenderDef render;
  std::string name;
  std::string description;
  sim::Method integrator = sim::Method::Rk4;
  double dt = 0.001;     // s
  double duration = 10;  // s
  // The parameter table's rows that a scene file gives (sim::ParameterInfo::scene: gravity,
  // substeps and iterations at the top level, drag, wind and joint damping in "system"), each
  // row's default where the file names none (substeps and iterations 0: sim::kAutomatic).
  sim::ParameterValues parameters;
  Vec3 gravity() const { return parameters.vector(sim::Parameter::Gravity); }
  sim::SystemKind kind = sim::SystemKind::MassSpring;
  MassSpringDef mass_spring;  // when kind == MassSpring
  PendulumDef pendulum;       // when kind == Pendulum
};

// Bad input: the message is one line, "FILE: json.path: what is wrong".
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace scene
