#include "scene/edit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scene/generators.hpp"
#include "scene/lattice.hpp"
#include "scene/mesh_generator.hpp"

namespace scene {

namespace {
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

EditProblem needMassSpring(const SceneDef& def, const char* what) {
  if (def.kind == sim::SystemKind::MassSpring) return std::nullopt;
  return std::string(what) + ": a pendulum has links, not particles and springs";
}

EditProblem needPendulum(const SceneDef& def, const char* what) {
  if (def.kind == sim::SystemKind::Pendulum) return std::nullopt;
  return std::string(what) + ": only a pendulum has links";
}

EditProblem checkParticle(const SceneDef& def, int i) {
  if (i >= 0 && i < static_cast<int>(def.mass_spring.particles.size())) return std::nullopt;
  return "particle " + std::to_string(i) + ": no such particle";
}

EditProblem checkPositive(const char* what, double v) {
  if (std::isfinite(v) && v > 0.0) return std::nullopt;
  return std::string(what) + " must be a finite number > 0, not " + number(v);
}

EditProblem checkLink(const SceneDef& def, int link) {
  if (link >= 0 && link < static_cast<int>(def.pendulum.lengths.size())) return std::nullopt;
  return "link " + std::to_string(link) + ": no such link";
}
}  // namespace

SceneDef newScene() {
  SceneDef def;
  def.name = "New scene";
  def.description = "Built by hand in springlab's edit mode.";
  def.integrator = sim::Method::Rk4;
  def.dt = 0.001;
  def.kind = sim::SystemKind::MassSpring;
  ParticleDef anchor;
  anchor.fixed = true;
  def.mass_spring.particles.push_back(anchor);
  return def;
}

EditProblem addParticle(SceneDef& def, const Vec3& at, double mass) {
  if (auto bad = needMassSpring(def, "add a particle")) return bad;
  if (!at.allFinite()) return std::string("add a particle: not a finite point");
  if (auto bad = checkPositive("a particle's mass", mass)) return bad;
  ParticleDef p;
  p.position = at;
  p.mass = mass;
  def.mass_spring.particles.push_back(p);
  return std::nullopt;
}

EditProblem addSpring(SceneDef& def, int a, int b, double stiffness, double damping) {
  if (auto bad = needMassSpring(def, "add a spring")) return bad;
  if (auto bad = checkParticle(def, a)) return bad;
  if (auto bad = checkParticle(def, b)) return bad;
  if (a == b)
    return std::string("a spring needs two different particles, not particle ") +
           std::to_string(a) + " to itself";
  if (springBetween(def, a, b) >= 0)
    return "particles " + std::to_string(a) + " and " + std::to_string(b) + " are joined already";
  if (auto bad = checkPositive("a spring's stiffness", stiffness)) return bad;
  if (!(std::isfinite(damping) && damping >= 0.0))
    return "a spring's damping must be a finite number >= 0, not " + number(damping);
  const auto& ps = def.mass_spring.particles;
  const double length = (ps[size_t(b)].position - ps[size_t(a)].position).norm();
  if (!(length >= kMinSpringLength))
    return "particles " + std::to_string(a) + " and " + std::to_string(b) +
           " are in one place: a spring of no length has no direction";
  def.mass_spring.springs.push_back({a, b, stiffness, length, damping});
  return std::nullopt;
}

EditProblem togglePinned(SceneDef& def, const std::vector<int>& particles, double mass) {
  if (auto bad = needMassSpring(def, "pin")) return bad;
  if (particles.empty()) return std::string("pin: nothing selected");
  for (int i : particles)
    if (auto bad = checkParticle(def, i)) return bad;
  if (auto bad = checkPositive("a freed particle's mass", mass)) return bad;
  for (int i : particles) {
    ParticleDef& p = def.mass_spring.particles[size_t(i)];
    p.fixed = !p.fixed;
    if (!p.fixed && !(p.mass > 0.0)) p.mass = mass;
    p.velocity.setZero();  // pinned, it stays; freed, it starts at rest
  }
  return std::nullopt;
}

namespace {
// Old index to new after removing `gone` (sorted, unique); -1 for a removed one.
std::vector<int> renumbering(size_t count, const std::vector<int>& gone) {
  std::vector<int> to(count, 0);
  for (int i : gone) to[size_t(i)] = -1;
  int next = 0;
  for (int& t : to) t = t < 0 ? -1 : next++;
  return to;
}
}  // namespace

EditProblem deleteParticles(SceneDef& def, const std::vector<int>& particles) {
  if (auto bad = needMassSpring(def, "delete")) return bad;
  if (particles.empty()) return std::string("delete: nothing selected");
  for (int i : particles)
    if (auto bad = checkParticle(def, i)) return bad;
  std::vector<int> gone = particles;
  std::sort(gone.begin(), gone.end());
  gone.erase(std::unique(gone.begin(), gone.end()), gone.end());
  MassSpringDef& ms = def.mass_spring;
  if (gone.size() == ms.particles.size())
    return std::string("delete: a scene keeps one particle at least (File: New starts afresh)");
  const std::vector<int> to = renumbering(ms.particles.size(), gone);
  std::vector<ParticleDef> kept;
  for (size_t i = 0; i < ms.particles.size(); ++i)
    if (to[i] >= 0) kept.push_back(ms.particles[i]);
  ms.particles = std::move(kept);
  std::erase_if(ms.springs, [&](SpringDef& s) {
    if (to[size_t(s.a)] < 0 || to[size_t(s.b)] < 0) return true;
    s.a = to[size_t(s.a)], s.b = to[size_t(s.b)];
    return false;
  });
  std::erase_if(ms.triangles, [&](std::array<int, 3>& t) {
    for (int& v : t)
      if ((v = to[size_t(v)]) < 0) return true;
    return false;
  });
  ms.shadow_triangles.clear();  // coarser copies of the surface: rebuilt from nothing
  ms.surface_levels.clear();
  return std::nullopt;
}

EditProblem setParticleMass(SceneDef& def, int particle, double mass) {
  if (auto bad = needMassSpring(def, "mass")) return bad;
  if (auto bad = checkParticle(def, particle)) return bad;
  if (auto bad = checkPositive("a particle's mass", mass)) return bad;
  def.mass_spring.particles[size_t(particle)].mass = mass;
  return std::nullopt;
}

int springBetween(const SceneDef& def, int a, int b) {
  const auto& springs = def.mass_spring.springs;
  for (size_t i = 0; i < springs.size(); ++i)
    if ((springs[i].a == a && springs[i].b == b) || (springs[i].a == b && springs[i].b == a))
      return static_cast<int>(i);
  return -1;
}

namespace {
EditProblem checkSpring(const SceneDef& def, int spring) {
  if (auto bad = needMassSpring(def, "spring")) return bad;
  if (spring >= 0 && spring < static_cast<int>(def.mass_spring.springs.size())) return std::nullopt;
  return "spring " + std::to_string(spring) + ": no such spring";
}
}  // namespace

EditProblem setSpring(SceneDef& def, int spring, double stiffness, double damping) {
  if (auto bad = checkSpring(def, spring)) return bad;
  if (auto bad = checkPositive("a spring's stiffness", stiffness)) return bad;
  if (!(std::isfinite(damping) && damping >= 0.0))
    return "a spring's damping must be a finite number >= 0, not " + number(damping);
  SpringDef& s = def.mass_spring.springs[size_t(spring)];
  s.stiffness = stiffness, s.damping = damping;
  return std::nullopt;
}

EditProblem setRestLength(SceneDef& def, int spring, double restLength) {
  if (auto bad = checkSpring(def, spring)) return bad;
  if (!(std::isfinite(restLength) && restLength >= kMinSpringLength))
    return "a spring's rest length must be at least " + number(kMinSpringLength) + " m, not " +
           number(restLength);
  def.mass_spring.springs[size_t(spring)].rest_length = restLength;
  return std::nullopt;
}

double selfThickness(const SceneDef& def) {
  return def.kind == sim::SystemKind::MassSpring ? def.mass_spring.self_thickness : 0.0;
}

EditProblem setSelfThickness(SceneDef& def, double thickness) {
  if (auto bad = needMassSpring(def, "self-collision")) return bad;
  if (!(std::isfinite(thickness) && thickness >= 0.0))
    return "self-collision's thickness must be a finite number >= 0, not " + number(thickness);
  def.mass_spring.self_thickness = thickness;
  return std::nullopt;
}

SceneDef uniformPendulum(int links, double length, double mass, double angle) {
  SceneDef def;
  def.name = "uniform pendulum";
  def.integrator = sim::Method::Rk4;
  def.dt = 0.001;
  def.kind = sim::SystemKind::Pendulum;
  PendulumDef& p = def.pendulum;
  const size_t n = static_cast<size_t>(std::max(links, 0));
  p.lengths.assign(n, length);
  p.masses.assign(n, mass);
  p.angles.assign(n, angle);
  p.angular_velocities.assign(n, 0.0);
  return def;
}

EditProblem addLink(SceneDef& def) {
  if (auto bad = needPendulum(def, "add a link")) return bad;
  PendulumDef& p = def.pendulum;
  p.lengths.push_back(p.lengths.empty() ? 1.0 : p.lengths.back());
  p.masses.push_back(p.masses.empty() ? 1.0 : p.masses.back());
  p.angles.resize(p.lengths.size() - 1, 0.0);
  p.angles.push_back(0.0);
  p.angular_velocities.assign(p.lengths.size(), 0.0);  // at rest, as a placed body is
  return std::nullopt;
}

EditProblem removeLastLink(SceneDef& def) {
  if (auto bad = needPendulum(def, "remove a link")) return bad;
  PendulumDef& p = def.pendulum;
  if (p.lengths.size() <= 1)
    return std::string("remove a link: a pendulum keeps one link at least");
  p.lengths.pop_back();
  p.masses.pop_back();
  p.angles.resize(p.lengths.size(), 0.0);
  p.angular_velocities.resize(p.lengths.size(), 0.0);
  return std::nullopt;
}

EditProblem setLink(SceneDef& def, int link, double length, double mass) {
  if (auto bad = needPendulum(def, "link")) return bad;
  if (auto bad = checkLink(def, link)) return bad;
  if (auto bad = checkPositive("a link's length", length)) return bad;
  if (auto bad = checkPositive("a bob's mass", mass)) return bad;
  def.pendulum.lengths[size_t(link)] = length;
  def.pendulum.masses[size_t(link)] = mass;
  return std::nullopt;
}

EditProblem setStartAngle(SceneDef& def, int link, double radians) {
  if (auto bad = needPendulum(def, "start angle")) return bad;
  if (auto bad = checkLink(def, link)) return bad;
  if (!std::isfinite(radians)) return std::string("a start angle must be a finite number");
  PendulumDef& p = def.pendulum;
  p.angles.resize(p.lengths.size(), 0.0);
  p.angles[size_t(link)] = radians;
  p.angular_velocities.assign(p.lengths.size(), 0.0);
  return std::nullopt;
}

}  // namespace scene

namespace scene {

namespace {
void addChainTool(MassSpringDef& ms, const Vec3& at, const ToolSettings& s) {
  HangingChainParams p;
  p.pivot = at;
  p.segments = kToolChainLinks;
  p.segment_length = kToolSize / kToolChainLinks;
  p.mass = s.mass, p.stiffness = s.stiffness, p.damping = s.damping;
  addHangingChain(ms, p);
}

void addClothTool(MassSpringDef& ms, const Vec3& at, const ToolSettings& s) {
  ClothParams p;
  p.nx = p.ny = kToolClothCells + 1;  // particles a side
  p.width = p.height = kToolSize;
  p.center = at;
  p.mass = s.mass, p.stiffness = s.stiffness, p.damping = s.damping;
  p.pins = ClothPins::TopCorners;
  addCloth(ms, p);
  ms.shadow_triangles.clear();  // the surface's own serves (a patch is coarse)
  ms.surface_levels.clear();
}

void addJellyTool(MassSpringDef& ms, const Vec3& at, const ToolSettings& s) {
  LatticeGrid g;
  g.n = {kToolJellyCells + 1, kToolJellyCells + 1, kToolJellyCells + 1};
  g.spacing = 0.5 * kToolSize / kToolJellyCells;  // a box half the tool's size: a block, not a room
  g.center = at;
  LatticeParams p;
  p.mass = s.mass, p.stiffness = s.stiffness, p.damping = s.damping;
  addLattice(ms, g, boxOccupancy(g), p);
}

}  // namespace

EditProblem checkMeshTransform(const ToolSettings& s) {
  if (!(std::isfinite(s.mesh_scale) && s.mesh_scale >= 0.0))
    return "mesh scale must be a finite number > 0 (or 0: fit to " + number(kToolSize) +
           " m), not " + number(s.mesh_scale);
  if (!s.mesh_rotate_deg.allFinite())
    return "mesh rotate must be three finite angles (degrees), not [" +
           number(s.mesh_rotate_deg.x()) + ", " + number(s.mesh_rotate_deg.y()) + ", " +
           number(s.mesh_rotate_deg.z()) + "]";
  return std::nullopt;
}

namespace {
// The Mesh tool's scale: its own, or the one that makes the mesh's longest side kToolSize.
double meshToolScale(const ToolSettings& s, const std::array<Vec3, 2>& box) {
  if (s.mesh_scale != kFitMeshScale) return s.mesh_scale;
  const double longest = (box[1] - box[0]).maxCoeff();
  return longest > 0.0 ? kToolSize / longest : 1.0;
}

EditProblem addMeshTool(MassSpringDef& ms, const Vec3& at, const ToolSettings& s) {
  if (s.mesh_file.empty()) return std::string("mesh file: type an OBJ file's path first");
  if (auto bad = checkMeshTransform(s)) return bad;
  try {  // the file's own problems ("NAME:LINE: what") under the field that names it
    // relative to the working folder: the origin stands for a scene file there
    const auto mesh = readSceneMesh("./edit", s.mesh_file);
    if (!mesh) return "mesh file: " + mesh.problem();
    if (mesh->mesh.vertices.empty()) return "mesh file: " + mesh->shown + " has no vertices";
    MeshParams p;
    p.mass = s.mass, p.stiffness = s.stiffness, p.damping = s.damping;
    p.transform.scale = meshToolScale(s, boundingBox(mesh->mesh.vertices));
    p.transform.rotate_deg = s.mesh_rotate_deg;
    std::vector<Vec3> placed(mesh->mesh.vertices.size());
    for (size_t i = 0; i < placed.size(); ++i)
      placed[i] = applyTransform(p.transform, mesh->mesh.vertices[i]);
    const auto box = boundingBox(placed);
    p.transform.translate = at - 0.5 * (box[0] + box[1]);
    addMesh(ms, mesh->mesh, p, mesh->shown);
  } catch (const Error& e) {
    return "mesh file: " + std::string(e.what());
  }
  return std::nullopt;
}
}  // namespace

EditProblem addTool(SceneDef& def, EditTool tool, const Vec3& at, const ToolSettings& s) {
  if (tool == EditTool::Particle) return addParticle(def, at, s.mass);
  if (auto bad = needMassSpring(def, kEditToolNames[int(tool)])) return bad;
  if (!at.allFinite()) return std::string(kEditToolNames[int(tool)]) + ": not a finite point";
  if (auto bad = checkPositive("the mass", s.mass)) return bad;
  if (auto bad = checkPositive("the stiffness", s.stiffness)) return bad;
  MassSpringDef& ms = def.mass_spring;
  try {
    switch (tool) {
      case EditTool::Chain:
        addChainTool(ms, at, s);
        break;
      case EditTool::ClothPatch:
        addClothTool(ms, at, s);
        break;
      case EditTool::JellyBox:
        addJellyTool(ms, at, s);
        break;
      default:
        return addMeshTool(ms, at, s);
    }
  } catch (const Error& e) {  // a generator's own refusal
    return std::string(e.what());
  }
  return std::nullopt;
}

}  // namespace scene
