// Scene layer: the catalog, the generators, the builder.
#include <doctest/doctest.h>

#include <cmath>

#include "scene/build.hpp"
#include "scene/catalog.hpp"
#include "scene/generators.hpp"
#include "scene/load.hpp"
#include "sim/energy.hpp"
#include "sim/stepper.hpp"

TEST_CASE("every built-in scene loads, builds and runs 1000 steps finite with its integrator") {
  const auto names = scene::builtinNames();
  REQUIRE(names.size() >= 26);
  for (const auto& name : names) {
    CAPTURE(name);
    const auto def = scene::loadSceneArg(name);
    CHECK(!def.name.empty());
    CHECK(!def.description.empty());
    const auto b = scene::build(def);
    CHECK(b.kind == def.kind);
    const auto st = b.stepper(def.integrator, def.dt);
    const auto d = st->advance(1000);
    CHECK_MESSAGE(!d, (d ? d->message() : ""));
    CHECK(st->state().x.allFinite());
    CHECK(st->state().v.allFinite());
    CHECK(st->state().t == doctest::Approx(1000 * def.dt));
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
  CHECK(b.mass_spring.rest_length[0] ==
        doctest::Approx((ms.particles[9].position - Eigen::Vector3d(5, 5, 0)).norm()));
  CHECK(b.mass_spring.rest_length[1] == 0.5);
  CHECK(b.mass_spring.dim == 2);
}

TEST_CASE("3-D scenes are detected as such, defaults follow docs/scenes.md") {
  const auto def = scene::parse(
      R"({"system": {"type": "mass_spring", "particles": [{"position": [0, 0, 1], "mass": 2}]}})",
      "x");
  CHECK(def.gravity == Eigen::Vector3d(0, -9.81, 0));
  CHECK(def.integrator == sim::Method::Rk4);
  CHECK(def.dt == 0.001);
  CHECK(def.duration == 10);
  CHECK(scene::build(def).mass_spring.dim == 3);
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
    CHECK(b.mass_spring.inv_mass[0] == 0.0);
    CHECK(b.mass_spring.mass[0] == reference.mass_spring.mass[0]);
    CHECK(b.energy(b.state).total() == reference.energy(reference.state).total());
  }
  // it must still be a finite number
  CHECK_THROWS_WITH(scene::parse(sceneWithFixedMass(", \"mass\": \"heavy\""), "t.json"),
                    "t.json: system.particles[0].mass: must be a number, not a string");
  CHECK_THROWS_WITH(scene::parse(sceneWithFixedMass(", \"mass\": null"), "t.json"),
                    "t.json: system.particles[0].mass: must be a number, not null");
}
