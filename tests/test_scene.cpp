// Scene layer: the catalog, the generators, the builder.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <Eigen/Geometry>

#include "scene/build.hpp"
#include "scene/catalog.hpp"
#include "scene/generators.hpp"
#include "scene/load.hpp"
#include "scene/load_parts.hpp"
#include "sim/energy.hpp"
#include "sim/stepper.hpp"

// At most this much simulated time per scene: the cloths stepped at the display's rate would
// otherwise spend a minute on 1000 steps.
constexpr double kMaxCheckedSeconds = 0.5;

TEST_CASE(
    "every built-in scene loads, builds and runs finite with its integrator (1000 steps or 0.5 "
    "s)") {
  const auto names = scene::builtinNames();
  REQUIRE(names.size() >= 26);
  for (const auto& name : names) {
    CAPTURE(name);
    const auto def = scene::loadSceneArg(name);
    CHECK(!def.name.empty());
    CHECK(!def.description.empty());
    const auto b = scene::build(def);
    CHECK(b.kind() == def.kind);
    const auto st = b.stepper(def.integrator, def.dt);
    const long steps = std::min(1000L, std::lround(std::ceil(kMaxCheckedSeconds / def.dt)));
    const auto d = st->advance(steps);
    CHECK_MESSAGE(!d, (d ? d->message() : ""));
    CHECK(st->state().x.allFinite());
    CHECK(st->state().v.allFinite());
    CHECK(st->state().t == doctest::Approx(steps * def.dt));
    CHECK(std::isfinite(b.energy(st->state()).total()));
  }
}

TEST_CASE("cloth generator: counts, pins, springs") {
  scene::MassSpringDef def;
  scene::ClothParams p;
  p.nx = p.ny = 128;
  p.mass = 2.0;
  scene::addCloth(def, p);
  CHECK(def.particles.size() == 16384);
  // structural 2*127*128, shear 2*127^2, bending 2*126*128
  CHECK(def.springs.size() == size_t(2 * 127 * 128 + 2 * 127 * 127 + 2 * 126 * 128));
  int pinned = 0;
  double mass = 0;
  for (const auto& q : def.particles) {
    pinned += q.fixed;
    mass += q.mass;
  }
  CHECK(pinned == 2);
  CHECK(def.particles[0].fixed);
  CHECK(def.particles[127].fixed);
  // the moving particles carry the cloth's mass share each
  CHECK(mass == doctest::Approx(2.0 * (16384 - 2) / 16384).epsilon(1e-12));
  // top row at y = height/2, hanging in the x-y plane
  CHECK(def.particles[0].position.y() == doctest::Approx(0.5));
  CHECK(def.particles[16383].position.y() == doctest::Approx(-0.5));
  CHECK(def.particles[5000].position.z() == 0.0);

  scene::MassSpringDef h;
  p.nx = p.ny = 4;
  p.horizontal = true;
  p.pins = scene::ClothPins::AllCorners;
  scene::addCloth(h, p);
  int corners = 0;
  for (const auto& q : h.particles) {
    corners += q.fixed;
    CHECK(q.position.y() == 0.0);  // horizontal: in the x-z plane
  }
  CHECK(corners == 4);
}

// The area of a mesh's triangles in the particles' start positions (m^2).
double meshArea(const scene::MassSpringDef& def, const std::vector<std::array<int, 3>>& tris) {
  double area = 0.0;
  for (const auto& t : tris) {
    const sim::Vec3 a = def.particles[t[0]].position, b = def.particles[t[1]].position,
                    c = def.particles[t[2]].position;
    area += 0.5 * (b - a).cross(c - a).norm();
  }
  return area;
}

// A 1.5 m x 0.75 m cloth of n x (n / 2 + 1) particles tilted 30 degrees.
scene::MassSpringDef tiltedSheet(int n) {
  scene::MassSpringDef def;
  scene::ClothParams p;
  p.nx = n, p.ny = n / 2 + 1;
  p.width = 1.5, p.height = 0.75;
  p.tilt = 30;
  scene::addCloth(def, p);
  return def;
}

TEST_CASE("cloth generator: a fine cloth's shadow mesh covers it with at most 64 cells a side") {
  for (const int n : {64, 65, 128, 130, 256}) {
    CAPTURE(n);
    const scene::MassSpringDef def = tiltedSheet(n);
    const auto& shadow = def.shadow_triangles;
    if (n <= scene::kShadowCells + 1) {  // 64 cells or fewer: the surface's own
      CHECK(shadow.empty());
      continue;
    }
    CHECK(shadow.size() <= size_t(2 * scene::kShadowCells * scene::kShadowCells));
    CHECK(shadow.size() * 4 <= def.triangles.size() + 8 * n);  // at least about 4 times fewer
    // the same sheet: its area, its corners among the vertices
    CHECK(meshArea(def, shadow) == doctest::Approx(1.5 * 0.75).epsilon(1e-9));
    CHECK(meshArea(def, def.triangles) == doctest::Approx(1.5 * 0.75).epsilon(1e-9));
    std::vector<bool> used(def.particles.size());
    for (const auto& t : shadow)
      for (int v : t) used[static_cast<size_t>(v)] = true;
    const int last = static_cast<int>(def.particles.size()) - 1;
    CHECK(used[0]);
    CHECK(used[static_cast<size_t>(n - 1)]);
    CHECK(used[static_cast<size_t>(last - n + 1)]);
    CHECK(used[static_cast<size_t>(last)]);
  }
}

TEST_CASE("cloth generator: surface levels join every 2nd and 4th grid line of a fine cloth") {
  // (nx, ny) -> levels: 96 cells a side or more make the stride-2 level, 192 the stride-4 one
  for (const auto& [nx, levels] :
       {std::pair{64, 0}, {96, 0}, {97, 1}, {128, 1}, {193, 2}, {256, 2}}) {
    CAPTURE(nx);
    const scene::MassSpringDef def = tiltedSheet(nx);
    const int ny = nx / 2 + 1;
    REQUIRE(def.surface_levels.size() == size_t(levels));
    for (int k = 0, stride = 2; k < levels; ++k, stride *= 2) {
      CAPTURE(stride);
      const auto& level = def.surface_levels[size_t(k)];
      // the same sheet, its cells stride times the surface's (one narrower row or column at the
      // far edge when stride does not divide the cells)
      CHECK(meshArea(def, level) == doctest::Approx(1.5 * 0.75).epsilon(1e-9));
      const int cx = (nx - 1 + stride - 1) / stride, cy = (ny - 1 + stride - 1) / stride;
      CHECK(level.size() == size_t(2 * cx * cy));
      for (const auto& t : level)  // every vertex on the level's grid lines or the last ones
        for (int v : t) {
          const int i = v % nx, j = v / nx;
          CHECK(((i % stride == 0 || i == nx - 1) && (j % stride == 0 || j == ny - 1)));
        }
    }
  }
}

TEST_CASE(
    "cloth generator: a level covers every cloth, and a scene's own triangles drop the levels") {
  scene::MassSpringDef def;
  scene::ClothParams small, fine;
  small.nx = small.ny = 9;
  fine.nx = fine.ny = 200;
  fine.center = sim::Vec3(3, 0, 0);
  scene::addCloth(def, small);  // too coarse for a level: its whole surface goes into each
  scene::addCloth(def, fine);
  REQUIRE(def.surface_levels.size() == 2);
  for (const auto& level : def.surface_levels) {
    CHECK(meshArea(def, level) == doctest::Approx(2.0).epsilon(1e-9));
    CHECK(std::count(level.begin(), level.end(), def.triangles.front()) == 1);  // the small one's
  }
  scene::addCloth(def, small);  // after the fine one: likewise
  for (const auto& level : def.surface_levels)
    CHECK(meshArea(def, level) == doctest::Approx(3.0).epsilon(1e-9));

  const std::string text = R"({"system": {"type": "mass_spring",
      "generators": [{"kind": "cloth", "nx": 130, "ny": 130, "width": 1, "height": 1,
        "mass": 1, "stiffness": 10}],
      "triangles": [[0, 1, 130]]}})";
  const scene::SceneDef withOwn = scene::parse(text, "own.json");
  CHECK(withOwn.mass_spring.surface_levels.empty());
  CHECK(withOwn.mass_spring.shadow_triangles.empty());
  const auto b = scene::build(withOwn);
  CHECK(b.surface_levels.empty());
  const auto plain = scene::build(scene::parse(
      R"({"system": {"type": "mass_spring", "generators": [{"kind": "cloth", "nx": 130, "ny": 130,
          "width": 1, "height": 1, "mass": 1, "stiffness": 10}]}})",
      "plain.json"));
  REQUIRE(plain.surface_levels.size() == 1);
  CHECK(plain.surface_levels[0].size() == 3 * 2 * 65 * 65);
}

TEST_CASE(
    "hanging chain follows its angles, loop closes, explicit springs reach generated particles") {
  const std::string text = R"({
    "system": {"type": "mass_spring",
      "particles": [{"position": [5, 5, 0], "fixed": true}],
      "generators": [
        {"kind": "hanging_chain", "pivot": [0, 0, 0], "segments": 3, "segment_length": 0.5,
         "mass": 1, "stiffness": 10, "angles": [0.5, 0, -0.25]},
        {"kind": "loop", "center": [2, 0], "radius": 1, "count": 5, "mass": 1, "stiffness": 3}
      ],
      "springs": [{"a": 0, "b": 9, "stiffness": 7}]}})";
  const auto def = scene::parse(text, "inline");
  const auto& ms = def.mass_spring;
  REQUIRE(ms.particles.size() == 1 + 4 + 5);
  CHECK(ms.particles[1].fixed);  // the chain's pivot
  CHECK(ms.particles[2].position.x() == doctest::Approx(0.5 * std::sin(0.5)));
  CHECK(ms.particles[2].position.y() == doctest::Approx(-0.5 * std::cos(0.5)));
  CHECK(ms.particles[4].position.x() ==
        doctest::Approx(0.5 * std::sin(0.5) - 0.5 * std::sin(0.25)));
  // explicit spring first, then 3 chain springs, then 5 loop springs (the last closes the loop)
  REQUIRE(ms.springs.size() == 1 + 3 + 5);
  CHECK(ms.springs[0].a == 0);
  CHECK(ms.springs[0].b == 9);
  CHECK(ms.springs.back().a == 9);
  CHECK(ms.springs.back().b == 5);
  const auto b = scene::build(def);
  CHECK(b.massSpring()->rest_length[0] ==
        doctest::Approx((ms.particles[9].position - Eigen::Vector3d(5, 5, 0)).norm()));
  CHECK(b.massSpring()->rest_length[1] == 0.5);
  CHECK(b.massSpring()->dim == 2);
}

TEST_CASE("3-D scenes are detected as such, defaults follow docs/scenes.md") {
  const auto def = scene::parse(
      R"({"system": {"type": "mass_spring", "particles": [{"position": [0, 0, 1], "mass": 2}]}})",
      "x");
  CHECK(def.gravity() == Eigen::Vector3d(0, -9.81, 0));
  CHECK(def.integrator == sim::Method::Rk4);
  CHECK(def.dt == 0.001);
  CHECK(def.duration == 10);
  CHECK(scene::build(def).massSpring()->dim == 3);
}

TEST_CASE("a fixed particle may carry any finite mass, which is ignored") {
  const auto sceneWithFixedMass = [](const std::string& mass) {
    return R"({"system": {"type": "mass_spring", "particles": [
                {"position": [0, 0], "fixed": true)" +
           mass + R"(}, {"position": [0, -1], "mass": 2}],
              "springs": [{"a": 0, "b": 1, "stiffness": 10}]}})";
  };
  const auto reference = scene::build(scene::parse(sceneWithFixedMass(""), "t.json"));
  for (const std::string mass : {", \"mass\": 0", ", \"mass\": 5", ", \"mass\": -1"}) {
    CAPTURE(mass);
    const auto def = scene::parse(sceneWithFixedMass(mass), "t.json");
    const auto b = scene::build(def);
    CHECK(b.massSpring()->inv_mass[0] == 0.0);
    CHECK(b.massSpring()->mass[0] == reference.massSpring()->mass[0]);
    CHECK(b.energy(b.state).total() == reference.energy(reference.state).total());
  }
  // it must still be a finite number
  CHECK_THROWS_WITH(scene::parse(sceneWithFixedMass(", \"mass\": \"heavy\""), "t.json"),
                    "t.json: system.particles[0].mass: must be a number, not a string");
  CHECK_THROWS_WITH(scene::parse(sceneWithFixedMass(", \"mass\": null"), "t.json"),
                    "t.json: system.particles[0].mass: must be a number, not null");
}

namespace {
// A minimal scene with `render` as its render section.
std::string withRender(const std::string& render) {
  return R"({"system": {"type": "mass_spring", "particles": [{"position": [0, 0], "mass": 1}]},
             "render": )" +
         render + "}";
}
}  // namespace

TEST_CASE("scene render section: absent means nothing set, and each key parses into the def") {
  const auto none = scene::parse(
      R"({"system": {"type": "mass_spring", "particles": [{"position": [0, 0], "mass": 1}]}})",
      "x.json");
  CHECK(!none.render.camera.target);
  CHECK(!none.render.camera.distance);
  CHECK(!none.render.camera.yaw_deg);
  CHECK(!none.render.camera.pitch_deg);
  CHECK(!none.render.camera.fov_deg);
  CHECK(none.render.camera.orbit_deg_per_s == 0.0);
  CHECK(!none.render.strain_scale);
  CHECK(!none.render.show_points);
  CHECK(!none.render.show_springs);
  CHECK(!scene::parse(withRender("{}"), "x.json").render.camera.target);
  CHECK(!scene::parse(withRender(R"({"camera": {}})"), "x.json").render.camera.yaw_deg);

  const auto def = scene::parse(withRender(R"({
      "camera": {"target": [1, 2.5, -3], "distance": 4.25, "yaw": -400, "pitch": 89.8,
                 "fov": 120, "orbit": -15.5},
      "strain_scale": 10, "show_points": false, "show_springs": true})"),
                                "x.json");
  const auto& c = def.render.camera;
  REQUIRE(c.target);
  CHECK(*c.target == Eigen::Vector3d(1, 2.5, -3));
  CHECK(c.distance == 4.25);
  CHECK(c.yaw_deg == -400.0);
  CHECK(c.pitch_deg == 89.8);
  CHECK(c.fov_deg == 120.0);
  CHECK(c.orbit_deg_per_s == -15.5);
  CHECK(def.render.strain_scale == 10.0);
  CHECK(def.render.show_points == false);
  CHECK(def.render.show_springs == true);

  // a 2-vector target means z = 0, as every vector in a scene; the other bounds are inclusive
  const auto d2 = scene::parse(
      withRender(
          R"({"camera": {"target": [1, 2], "pitch": -89.8, "fov": 5}, "strain_scale": 1e-9})"),
      "x.json");
  CHECK(*d2.render.camera.target == Eigen::Vector3d(1, 2, 0));
  CHECK(d2.render.camera.pitch_deg == -89.8);
  CHECK(d2.render.camera.fov_deg == 5.0);
  CHECK(d2.render.strain_scale == 1e-9);
  CHECK(!d2.render.show_points);
}

TEST_CASE("scene render section: unknown keys, wrong types and out-of-range values name the path") {
  const std::pair<const char*, const char*> cases[] = {
      {R"([])", "x.json: render: must be an object, not an array"},
      {R"({"zoom": 2})",
       "x.json: render.zoom: unknown key (allowed here: camera, strain_scale, show_points, "
       "show_springs)"},
      {R"({"camera": {"zoom": 2}})",
       "x.json: render.camera.zoom: unknown key (allowed here: target, distance, yaw, pitch, fov, "
       "orbit)"},
      {R"({"camera": 3})", "x.json: render.camera: must be an object, not a number"},
      {R"({"camera": {"target": [1, 2, 3, 4]}})",
       "x.json: render.camera.target: must be an array of 2 or 3 numbers"},
      {R"({"camera": {"target": [1, "2", 3]}})",
       "x.json: render.camera.target[1]: must be a number, not a string"},
      {R"({"camera": {"distance": 0}})", "x.json: render.camera.distance: must be > 0 (got 0)"},
      {R"({"camera": {"distance": -2}})", "x.json: render.camera.distance: must be > 0 (got -2)"},
      {R"({"camera": {"distance": "far"}})",
       "x.json: render.camera.distance: must be a number, not a string"},
      {R"({"camera": {"yaw": null}})", "x.json: render.camera.yaw: must be a number, not null"},
      {R"({"camera": {"pitch": 95}})",
       "x.json: render.camera.pitch: must be between -89.9 and 89.9 degrees (got 95)"},
      {R"({"camera": {"pitch": 89.9}})",
       "x.json: render.camera.pitch: must be between -89.9 and 89.9 degrees (got 89.9)"},
      {R"({"camera": {"pitch": -89.9}})",
       "x.json: render.camera.pitch: must be between -89.9 and 89.9 degrees (got -89.9)"},
      {R"({"camera": {"pitch": true}})",
       "x.json: render.camera.pitch: must be a number, not a boolean"},
      {R"({"camera": {"fov": 4.5}})",
       "x.json: render.camera.fov: must be between 5 and 120 degrees (got 4.5)"},
      {R"({"camera": {"fov": 121}})",
       "x.json: render.camera.fov: must be between 5 and 120 degrees (got 121)"},
      {R"({"camera": {"orbit": [10]}})",
       "x.json: render.camera.orbit: must be a number, not an array"},
      {R"({"strain_scale": 0})", "x.json: render.strain_scale: must be > 0 and <= 10 (got 0)"},
      {R"({"strain_scale": -0.1})",
       "x.json: render.strain_scale: must be > 0 and <= 10 (got -0.1)"},
      {R"({"strain_scale": 10.5})",
       "x.json: render.strain_scale: must be > 0 and <= 10 (got 10.5)"},
      {R"({"strain_scale": "auto"})",
       "x.json: render.strain_scale: must be a number, not a string"},
      {R"({"show_points": 1})", "x.json: render.show_points: must be true or false, not a number"},
      {R"({"show_springs": "yes"})",
       "x.json: render.show_springs: must be true or false, not a string"},
  };
  for (const auto& [render, message] : cases) {
    CAPTURE(render);
    CHECK_THROWS_WITH_AS(scene::parse(withRender(render), "x.json"), message, scene::Error);
  }
}

TEST_CASE("scene --camera KEY=VALUE: each key applies with the scene's units and ranges") {
  scene::CameraDef c;
  CHECK(!scene::applyCameraOption("target=1,-2.5,3e-1", c));
  CHECK(!scene::applyCameraOption("distance=7", c));
  CHECK(!scene::applyCameraOption("yaw=-30", c));
  CHECK(!scene::applyCameraOption("pitch=45.5", c));
  CHECK(!scene::applyCameraOption("fov=60", c));
  CHECK(!scene::applyCameraOption("orbit=-12", c));
  REQUIRE(c.target);
  CHECK(*c.target == Eigen::Vector3d(1, -2.5, 0.3));
  CHECK(c.distance == 7.0);
  CHECK(c.yaw_deg == -30.0);
  CHECK(c.pitch_deg == 45.5);
  CHECK(c.fov_deg == 60.0);
  CHECK(c.orbit_deg_per_s == -12.0);
  // later wins
  CHECK(!scene::applyCameraOption("yaw=10", c));
  CHECK(c.yaw_deg == 10.0);
}

TEST_CASE("scene --camera KEY=VALUE: errors are one line and leave the camera unchanged") {
  const std::pair<const char*, const char*> cases[] = {
      {"pitch=95", R"(pitch must be between -89.9 and 89.9 degrees, not "95")"},
      {"pitch=-89.9", R"(pitch must be between -89.9 and 89.9 degrees, not "-89.9")"},
      {"pitch=steep", R"(pitch must be between -89.9 and 89.9 degrees, not "steep")"},
      {"zoom=2", R"(unknown key "zoom" (keys: target, distance, yaw, pitch, fov, orbit))"},
      {"=2", R"(unknown key "" (keys: target, distance, yaw, pitch, fov, orbit))"},
      {"yaw", R"(expected KEY=VALUE, not "yaw" (keys: target, distance, yaw, pitch, fov, orbit))"},
      {"target=1,2", R"(target must be X,Y,Z, not "1,2")"},
      {"target=1,2,3,4", R"(target must be X,Y,Z, not "1,2,3,4")"},
      {"target=1,,3", R"(target must be X,Y,Z, not "1,,3")"},
      {"target=1, 2,3", R"(target must be X,Y,Z, not "1, 2,3")"},
      {"target=1,2,inf", R"(target must be X,Y,Z, not "1,2,inf")"},
      {"target=", R"(target must be X,Y,Z, not "")"},
      {"distance=0", R"(distance must be a number > 0 (m), not "0")"},
      {"distance=-1", R"(distance must be a number > 0 (m), not "-1")"},
      {"distance=3m", R"(distance must be a number > 0 (m), not "3m")"},
      {"yaw=", R"(yaw must be a finite number (degrees), not "")"},
      {"yaw=nan", R"(yaw must be a finite number (degrees), not "nan")"},
      {"yaw= 30", R"(yaw must be a finite number (degrees), not " 30")"},
      {"yaw=1e999", R"(yaw must be a finite number (degrees), not "1e999")"},
      {"fov=4", R"(fov must be between 5 and 120 degrees, not "4")"},
      {"fov=120.5", R"(fov must be between 5 and 120 degrees, not "120.5")"},
      {"orbit=fast", R"(orbit must be a finite number (degrees per second), not "fast")"},
      {"orbit=-inf", R"(orbit must be a finite number (degrees per second), not "-inf")"},
  };
  for (const auto& [kv, message] : cases) {
    CAPTURE(kv);
    scene::CameraDef c;
    c.yaw_deg = 5.0;
    const auto problem = scene::applyCameraOption(kv, c);
    REQUIRE(problem);
    CHECK(*problem == message);
    CHECK(!c.target);
    CHECK(!c.distance);
    CHECK(c.yaw_deg == 5.0);
    CHECK(!c.pitch_deg);
    CHECK(!c.fov_deg);
    CHECK(c.orbit_deg_per_s == 0.0);
  }
}

TEST_CASE(
    "scene cameraOptionText lists the set keys, and applying it reproduces the camera exactly") {
  CHECK(scene::cameraOptionText(scene::CameraDef{}).empty());
  scene::CameraDef some;
  some.pitch_deg = 30;
  some.orbit_deg_per_s = 20;
  CHECK(scene::cameraOptionText(some) == "pitch=30 orbit=20");

  scene::CameraDef c;
  c.target = Eigen::Vector3d(0.1, -1.0 / 3.0, 1e-300);
  c.distance = 2.0 / 3.0;
  c.yaw_deg = -123.456789012345678;
  c.pitch_deg = 89.899999999999991;
  c.fov_deg = 5.0000000000000009;
  c.orbit_deg_per_s = -std::acos(-1.0);
  const std::string text = scene::cameraOptionText(c);
  CAPTURE(text);
  const auto items = scene::cameraOptions(c);
  CHECK(items.size() == 6);
  scene::CameraDef back;
  for (const std::string& kv : items) {
    CAPTURE(kv);
    CHECK(!scene::applyCameraOption(kv, back));
  }
  REQUIRE(back.target);
  CHECK((*back.target).x() == (*c.target).x());
  CHECK((*back.target).y() == (*c.target).y());
  CHECK((*back.target).z() == (*c.target).z());
  CHECK(*back.distance == *c.distance);
  CHECK(*back.yaw_deg == *c.yaw_deg);
  CHECK(*back.pitch_deg == *c.pitch_deg);
  CHECK(*back.fov_deg == *c.fov_deg);
  CHECK(back.orbit_deg_per_s == c.orbit_deg_per_s);
  // the text is the same items, space-separated, and gives the same text again
  std::string joined;
  for (const std::string& kv : items) joined += (joined.empty() ? "" : " ") + kv;
  CHECK(text == joined);
  CHECK(scene::cameraOptionText(back) == text);
}

TEST_CASE("scene: the render section round-trips through cameraOptionText like --camera") {
  const auto def = scene::parse(
      withRender(R"({"camera": {"target": [0.1, 0.2, 0.3], "yaw": 33.3, "orbit": 7.7}})"),
      "x.json");
  scene::CameraDef back;
  for (const std::string& kv : scene::cameraOptions(def.render.camera))
    CHECK(!scene::applyCameraOption(kv, back));
  CHECK(*back.target == *def.render.camera.target);
  CHECK(back.yaw_deg == def.render.camera.yaw_deg);
  CHECK(!back.distance);
  CHECK(!back.pitch_deg);
  CHECK(!back.fov_deg);
  CHECK(back.orbit_deg_per_s == 7.7);
}

// ---- limits (docs/scenes.md#limits): each checked from the requested sizes, before allocating --

namespace {

// The error scene::parse gives for `text` as "s.json", or "" if it loads.
std::string sceneError(const std::string& text) {
  try {
    scene::parse(text, "s.json");
  } catch (const scene::Error& e) {
    return e.what();
  }
  return "";
}

std::string withGenerators(const std::string& generators) {
  return R"({"integrator": "symplectic_euler", "system": {"type": "mass_spring", "generators": [)" +
         generators + "]}}";
}

std::string loop(long long count) {
  return R"({"kind": "loop", "center": [0, 0, 0], "radius": 1, "count": )" + std::to_string(count) +
         R"(, "mass": 1, "stiffness": 1})";
}

}  // namespace

TEST_CASE("scene limits: a generator's counts are refused before it generates anything") {
  const std::string more = ", more than the 4000000 a scene may have";
  // nx and ny are each within 2048, their product is not (2048 x 2048 = 4 194 304)
  CHECK(sceneError(withGenerators(R"({"kind": "cloth", "nx": 2048, "ny": 2048, "width": 1,
                                     "height": 1, "mass": 1, "stiffness": 1})")) ==
        "s.json: system.generators[0]: the scene would have 4194304 particles" + more);
  // 4 000 000 segments are 4 000 001 particles
  CHECK(sceneError(withGenerators(R"({"kind": "chain", "start": [0, 0, 0], "end": [1, 0, 0],
                                     "segments": 4000000, "mass": 1, "stiffness": 1})")) ==
        "s.json: system.generators[0]: the scene would have 4000001 particles" + more);
  CHECK(sceneError(withGenerators(R"({"kind": "hanging_chain", "pivot": [0, 0, 0],
                                     "segments": 4000000, "segment_length": 1, "mass": 1,
                                     "stiffness": 1})")) ==
        "s.json: system.generators[0]: the scene would have 4000001 particles" + more);
  // the bodies of a scene are summed: the second loop is refused before it is made
  CHECK(sceneError(withGenerators(loop(3) + ", " + loop(3999998))) ==
        "s.json: system.generators[1]: the scene would have 4000001 particles" + more);
  // an explicit list counts with the generators after it
  const std::string listed =
      R"({"integrator": "symplectic_euler", "system": {"type": "mass_spring",
          "particles": [{"position": [0, 0, 0], "mass": 1}, {"position": [1, 0, 0], "mass": 1}],
          "generators": [)" +
      loop(3999999) + "]}}";
  CHECK(sceneError(listed) ==
        "s.json: system.generators[0]: the scene would have 4000001 particles" + more);
}

TEST_CASE("scene limits: springs and triangles, wherever they come from") {
  scene::MassSpringDef def;
  def.particles.resize(10);
  def.springs.resize(10);
  def.triangles.resize(10);
  using scene::detail::checkCounts;
  CHECK_NOTHROW(checkCounts("s.json: here", def, {3'999'990, 23'999'990, 7'999'990}));
  CHECK_THROWS_WITH_AS(
      checkCounts("s.json: system.springs", def, {0, 23'999'991, 0}),
      "s.json: system.springs: the scene would have 24000001 springs, more than the 24000000 a "
      "scene may have",
      scene::Error);
  CHECK_THROWS_WITH_AS(
      checkCounts("s.json: system.triangles", def, {0, 0, 7'999'991}),
      "s.json: system.triangles: the scene would have 8000001 triangles, more than the 8000000 "
      "a scene may have",
      scene::Error);
  // the largest cloth the limits admit: 2000 x 2000, with its 23 988 000 springs and 7 992 002
  // triangles
  CHECK_NOTHROW(checkCounts("s.json", {}, {4'000'000, 23'988'000, 7'992'002}));
}

TEST_CASE("scene limits: a pendulum's links, listed or uniform") {
  std::string ones;
  for (int i = 0; i < 4'000'001; ++i) ones += i ? ",1" : "1";
  CHECK(sceneError(R"({"system": {"type": "pendulum", "lengths": [)" + ones +
                   R"(], "masses": [1], "angles": [0]}})") ==
        "s.json: system.lengths: has 4000001 links, more than the 4000000 a pendulum may have");
  CHECK(sceneError(R"({"system": {"type": "pendulum", "uniform": {"links": 4000001, "length": 1,
                   "mass": 1}}})")
            .starts_with("s.json: system.uniform.links: must be"));
}

TEST_CASE("scene limits: the scene file is read only when it is a regular file within 64 MiB") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("springlab_limits_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string big = (dir / "big.json").string();
  { std::ofstream(big) << " "; }
  fs::resize_file(big, (std::size_t(64) << 20) + 1);  // sparse: nothing is written
  CHECK_THROWS_WITH_AS(scene::loadFile(big), (big + ": larger than 64 MiB").c_str(), scene::Error);
  const std::string fifo = (dir / "fifo.json").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // a FIFO with no writer has ended at once (opened blocking, it would wait for ever); /dev/zero
  // never ends, and is refused at the limit
  CHECK_THROWS_WITH_AS(
      scene::loadSceneArg(fifo),
      (fifo + ": line 1, column 1: invalid JSON: syntax error while parsing value - "
              "unexpected end of input; expected '[', '{', or a literal")
          .c_str(),
      scene::Error);
  CHECK_THROWS_WITH_AS(scene::loadFile("/dev/zero"), "/dev/zero: larger than 64 MiB", scene::Error);
  CHECK_THROWS_WITH_AS(scene::loadFile(dir.string()),
                       (dir.string() + ": is a folder, not a file").c_str(), scene::Error);
  fs::remove_all(dir);
}
