// Saved scenes (docs/scenes.md#saved-scenes): scene::toJson and scene::saveScene write the
// explicit form of a scene, which loads and builds to the same bits.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "scene/build.hpp"
#include "scene/catalog.hpp"
#include "scene/load.hpp"
#include "scene/save.hpp"
#include "util.hpp"

namespace {

// The same doubles, bit for bit (a -0 and a +0 differ; the sizes must agree). An empty vector's
// data() is null, which memcmp may not be given even for no bytes (UBSan says so).
bool sameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         (a.size() == 0 ||
          std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0);
}
bool sameBits(const sim::Vec3& a, const sim::Vec3& b) {
  return std::memcmp(a.data(), b.data(), sizeof(double) * 3) == 0;
}
bool sameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void checkSameMassSpring(const sim::MassSpringModel& a, const sim::MassSpringModel& b) {
  CHECK(a.dim == b.dim);
  CHECK(sameBits(a.mass, b.mass));
  CHECK(sameBits(a.inv_mass, b.inv_mass));
  CHECK(a.spring_a == b.spring_a);
  CHECK(a.spring_b == b.spring_b);
  CHECK(sameBits(a.stiffness, b.stiffness));
  CHECK(sameBits(a.rest_length, b.rest_length));
  CHECK(sameBits(a.damping, b.damping));
  CHECK(sameBits(a.drag, b.drag));
  CHECK(sameBits(a.wind, b.wind));
  CHECK(sameBits(a.gravity, b.gravity));
  CHECK(a.substeps == b.substeps);
  CHECK(a.iterations == b.iterations);
  CHECK(a.tether_particle == b.tether_particle);
  CHECK(a.tether_anchor == b.tether_anchor);
  CHECK(sameBits(a.tether_length, b.tether_length));
  CHECK(sameBits(a.self_thickness, b.self_thickness));
  REQUIRE(a.colliders.size() == b.colliders.size());
  for (size_t i = 0; i < a.colliders.size(); ++i) {
    const sim::Collider &ca = a.colliders[i], &cb = b.colliders[i];
    CHECK(ca.shape == cb.shape);
    CHECK(sameBits(ca.point, cb.point));
    CHECK(sameBits(ca.normal, cb.normal));
    CHECK(sameBits(ca.radius, cb.radius));
    CHECK(sameBits(ca.friction, cb.friction));
  }
}

void checkSamePendulum(const sim::PendulumModel& a, const sim::PendulumModel& b) {
  CHECK(sameBits(a.pivot, b.pivot));
  CHECK(sameBits(a.length, b.length));
  CHECK(sameBits(a.mass, b.mass));
  CHECK(sameBits(a.joint_damping, b.joint_damping));
  CHECK(sameBits(a.gravity, b.gravity));
}

// def saved and read back: the same system, initial state and surface, and the same bits after
// `steps` steps of the scene's integrator at its dt. The saved text saved again is itself.
void checkRoundTrip(const scene::SceneDef& def, int steps) {
  const std::string text = scene::toJson(def);
  const scene::SceneDef back = scene::parse(text, "saved");
  CHECK(scene::toJson(back) == text);
  CHECK(back.name == def.name);
  CHECK(back.description == def.description);
  CHECK(back.integrator == def.integrator);
  CHECK(sameBits(back.dt, def.dt));
  CHECK(sameBits(back.duration, def.duration));
  CHECK(back.parameters == def.parameters);
  CHECK(scene::cameraOptionText(back.render.camera) == scene::cameraOptionText(def.render.camera));
  CHECK(back.render.strain_scale == def.render.strain_scale);
  CHECK(back.render.show_points == def.render.show_points);
  CHECK(back.render.show_springs == def.render.show_springs);
  const scene::Built a = scene::build(def), b = scene::build(back);
  REQUIRE(a.kind() == b.kind());
  if (a.massSpring()) checkSameMassSpring(*a.massSpring(), *b.massSpring());
  if (a.pendulum()) checkSamePendulum(*a.pendulum(), *b.pendulum());
  CHECK(sameBits(a.state.x, b.state.x));
  CHECK(sameBits(a.state.v, b.state.v));
  CHECK(a.triangles == b.triangles);
  const auto sa = a.stepper(def.integrator, def.dt), sb = b.stepper(back.integrator, back.dt);
  sa->advance(steps);
  sb->advance(steps);
  CHECK(sameBits(sa->state().x, sb->state().x));
  CHECK(sameBits(sa->state().v, sb->state().v));
  CHECK(sameBits(sa->state().t, sb->state().t));
}

}  // namespace

TEST_CASE("scene save: every built-in scene saved and loaded builds the same bits, 10 steps on") {
  for (const std::string& name : scene::builtinNames()) {
    CAPTURE(name);
    checkRoundTrip(scene::loadSceneArg(name), 10);
  }
}

TEST_CASE("scene save: a generated system is saved expanded, its settings kept") {
  const scene::SceneDef def = scene::loadSceneArg("cloth_16");
  const std::string text = scene::toJson(def);
  CHECK(text.find("\"generators\"") == std::string::npos);
  const scene::SceneDef back = scene::parse(text, "saved");
  CHECK(back.mass_spring.particles.size() == 256);
  CHECK(back.mass_spring.springs.size() == def.mass_spring.springs.size());
  CHECK(back.mass_spring.triangles == def.mass_spring.triangles);
  CHECK(text.find("\"name\": \"" + def.name + "\"") != std::string::npos);
  // what a saved fine cloth loses (docs/scenes.md#saved-scenes): its coarse shadow mesh and
  // surface levels, which only the generator makes; the surface and the physics stay
  const scene::SceneDef fine = scene::loadSceneArg("cloth_128");
  REQUIRE_FALSE(fine.mass_spring.surface_levels.empty());
  REQUIRE_FALSE(fine.mass_spring.shadow_triangles.empty());
  const scene::SceneDef saved = scene::parse(scene::toJson(fine), "saved");
  CHECK(saved.mass_spring.surface_levels.empty());
  CHECK(saved.mass_spring.shadow_triangles.empty());
  CHECK(saved.mass_spring.triangles == fine.mass_spring.triangles);
}

TEST_CASE("scene save: a pendulum keeps pivot, links, angles, rates and joint damping exactly") {
  const scene::SceneDef def = scene::parse(R"({
    "name": "odd pendulum", "description": "line\nbreak \"quoted\"",
    "gravity": [0.5, -9.80665, 0], "integrator": "implicit_midpoint", "dt": 0.0007,
    "duration": 3.3,
    "render": {"camera": {"yaw": 20, "pitch": -10.5, "orbit": 3}, "strain_scale": 0.2,
               "show_points": false},
    "system": {"type": "pendulum", "pivot": [0.1, 2, 0], "lengths": [1, 0.7, 0.30000000000000004],
               "masses": [2, 1e-3, 3.5], "angles": [0.1, -2.5, 3.141592653589793],
               "angular_velocities": [0, -0.0, 1e-300], "joint_damping": 0.05}})",
                                           "pendulum.json");
  checkRoundTrip(def, 10);
  const scene::SceneDef back = scene::parse(scene::toJson(def), "saved");
  CHECK(back.pendulum.lengths == def.pendulum.lengths);
  CHECK(std::signbit(back.pendulum.angular_velocities[1]));  // -0 stays -0
  CHECK(back.pendulum.angular_velocities[2] == 1e-300);
  CHECK(back.description == "line\nbreak \"quoted\"");
  // a uniform pendulum is saved link by link
  const scene::SceneDef uniform = scene::parse(
      R"({"system": {"type": "pendulum", "uniform": {"links": 3, "length": 0.5, "mass": 1,
          "angle": 0.3}}})",
      "uniform.json");
  const std::string text = scene::toJson(uniform);
  CHECK(text.find("\"uniform\"") == std::string::npos);
  CHECK(text.find("\"lengths\": [0.5, 0.5, 0.5]") != std::string::npos);
  checkRoundTrip(uniform, 10);
}

TEST_CASE("scene save: a hand-made system with colliders, wind, drag and unset rest lengths") {
  const scene::SceneDef def = scene::parse(R"({
    "gravity": [0, -9.81, 0.25], "integrator": "implicit_euler", "dt": 0.002, "substeps": 3,
    "system": {"type": "mass_spring", "drag": 0.3, "wind": [1, 0, -0.5], "tethers": true,
      "self_collision": {"thickness": 0.01},
      "colliders": [{"type": "plane", "point": [0, -2, 0], "normal": [0.3, 1, 0.1]},
                    {"type": "sphere", "center": [0, -1, 0], "radius": 0.25, "friction": 0.4}],
      "particles": [{"position": [0, 0, 0], "fixed": true, "mass": 7},
                    {"position": [0.1, -0.3, 0.7], "velocity": [0, -0.0, 2], "mass": 0.1},
                    {"position": [1e-17, -0.6, 1.1], "mass": 0.3}],
      "springs": [{"a": 0, "b": 1, "stiffness": 100},
                  {"a": 1, "b": 2, "stiffness": 33.3, "rest_length": 0.2, "damping": 0.1}],
      "triangles": [[0, 1, 2]]}})",
                                           "hand.json");
  checkRoundTrip(def, 10);
  const std::string text = scene::toJson(def);
  CHECK(text.find("\"mass\": 7") == std::string::npos);  // a fixed particle's mass is ignored
  // the first spring's rest length, unset, is written as build computes it
  const scene::SceneDef back = scene::parse(text, "saved");
  REQUIRE(back.mass_spring.springs[0].rest_length);
  CHECK(*back.mass_spring.springs[0].rest_length ==
        (def.mass_spring.particles[1].position - def.mass_spring.particles[0].position).norm());
}

TEST_CASE("scene save: withSystem takes the stiffness scale, the parameters and the masses") {
  const scene::SceneDef def = scene::loadSceneArg("seed002_harmonic_oscillator");
  scene::Built b = scene::build(def);
  REQUIRE_FALSE(b.setParameter(sim::Parameter::StiffnessScale, 4.0));
  REQUIRE_FALSE(b.setParameter(sim::Parameter::Drag, 0.25));
  const scene::SceneDef saved = scene::withSystem(def, b, b.state);
  const scene::Built back = scene::build(scene::parse(scene::toJson(saved), "saved"));
  CHECK(sameBits(back.massSpring()->stiffness, b.massSpring()->stiffness));
  CHECK(back.massSpring()->stiffness[0] == 4.0 * def.mass_spring.springs[0].stiffness);
  CHECK(back.massSpring()->drag == 0.25);
  CHECK(sameBits(back.state.x, b.state.x));
  // a pendulum: its joint damping and gravity as they are now
  const scene::SceneDef pd = scene::loadSceneArg("seed004_double_pendulum");
  scene::Built p = scene::build(pd);
  REQUIRE_FALSE(p.setParameter(sim::Parameter::JointDamping, 0.125));
  REQUIRE_FALSE(p.setParameter(sim::Parameter::Gravity, 0.0, sim::Vec3(0.0, -1.62, 0.0)));
  const scene::Built pback =
      scene::build(scene::parse(scene::toJson(scene::withSystem(pd, p, p.state)), "saved"));
  CHECK(pback.pendulum()->joint_damping == 0.125);
  CHECK(sameBits(pback.pendulum()->gravity, sim::Vec3(0.0, -1.62, 0.0)));
  CHECK(sameBits(pback.pendulum()->length, p.pendulum()->length));
  CHECK(sameBits(pback.state.x, p.state.x));
}

TEST_CASE("scene save: an unwritable place is one line naming the file, and nothing is left") {
  using testutil::tempDir;
  const scene::SceneDef def = scene::loadSceneArg("seed002_harmonic_oscillator");
  const std::string missing = (tempDir() / "no_such_folder" / "x.json").string();
  util::Problem error = scene::saveScene(def, missing);
  CHECK(error.has_value());
  CHECK(error == missing + ": cannot open for writing: No such file or directory");
  // a folder without write permission (root writes anyway: then the save succeeds)
  const auto locked = tempDir() / "locked";
  std::filesystem::create_directories(locked);
  ::chmod(locked.c_str(), 0500);
  const std::string path = (locked / "x.json").string();
  if (::geteuid() != 0) {
    error = scene::saveScene(def, path);
    CHECK(error.has_value());
    CHECK(error == path + ": cannot open for writing: Permission denied");
    CHECK(std::filesystem::is_empty(locked));
  }
  ::chmod(locked.c_str(), 0700);
  // a folder under the name: the rename fails and the temporary is removed
  const auto folder = tempDir() / "a_folder.json";
  std::filesystem::create_directories(folder);
  error = scene::saveScene(def, folder.string());
  CHECK(error.has_value());
  CHECK(error == folder.string() + ": cannot rename into place: Is a directory");
  for (const auto& e : std::filesystem::directory_iterator(tempDir()))
    CHECK(e.path().filename().string().find("a_folder.json.tmp") == std::string::npos);
  const std::string good = (tempDir() / "saved.json").string();
  error = scene::saveScene(def, good);
  REQUIRE_MESSAGE(!error, error.value_or(""));
  CHECK(scene::toJson(scene::loadFile(good)) == scene::toJson(def));
}

TEST_CASE(
    "scene save: springlab info --save-expanded writes a file that run loads to the same rows") {
  using namespace testutil;
  const std::string out = (tempDir() / "chain_expanded.json").string();
  const RunResult info = springlab(
      {"info", "seed000_spring_pendulum_10", "--seconds", "0.01", "--save-expanded", out});
  REQUIRE_MESSAGE(info.status == 0, info.err);
  CHECK(readFile(out).find("\"generators\"") == std::string::npos);
  const RunResult a =
      springlab({"run", "seed000_spring_pendulum_10", "--duration", "0.05", "--out", "-"});
  const RunResult b = springlab({"run", out, "--duration", "0.05", "--out", "-"});
  REQUIRE_MESSAGE(a.status == 0, a.err);
  REQUIRE_MESSAGE(b.status == 0, b.err);
  CHECK(lines(a.out).size() > 2);
  CHECK(a.out == b.out);
  // nowhere to write: one line, exit status 2, no analysis printed
  const std::string bad = (tempDir() / "no_such_folder" / "x.json").string();
  const RunResult failed =
      springlab({"info", "seed000_spring_pendulum_10", "--save-expanded", bad});
  CHECK(failed.status == 2);
  CHECK(failed.err ==
        "springlab info: " + bad + ": cannot open for writing: No such file or directory\n");
  CHECK(failed.out.empty());
}

TEST_CASE("scene save: tilted planes' normals read back to the same bits") {
  // normalising a unit vector again moves about a third of them by an ulp: the writer spells
  // each normal so that the loader's normalisation gives it back exactly
  int tilted = 0;
  for (int i = 1; i <= 40; ++i)
    for (int j = -3; j <= 3; ++j) {
      const sim::Vec3 v(0.37 * i - 7.1, 1.0 + 0.13 * j, 0.011 * i * j + 0.2);
      scene::SceneDef def;
      sim::Collider plane;
      plane.point = sim::Vec3(0, -5, 0);
      plane.normal = v.normalized();
      tilted += plane.normal.normalized() != plane.normal;
      def.mass_spring.colliders.push_back(plane);
      def.mass_spring.particles.push_back({sim::Vec3(0, 100, 0), sim::Vec3::Zero(), 1.0, false});
      const scene::SceneDef back = scene::parse(scene::toJson(def), "tilted");
      REQUIRE(back.mass_spring.colliders.size() == 1);
      CAPTURE(scene::toJson(def));
      CHECK(sameBits(back.mass_spring.colliders[0].normal, plane.normal));
    }
  CHECK(tilted > 20);  // the case is exercised
}
