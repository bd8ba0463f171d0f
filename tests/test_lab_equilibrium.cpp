// The static equilibrium (docs/exploring.md#equilibrium): against closed forms — a mass on a
// spring, a chain of springs each carrying the weight below it, a pendulum along a tilted gravity —
// and the cases with none to find.
#include <doctest/doctest.h>

#include <cmath>

#include "lab/equilibrium.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "util.hpp"

using namespace testutil;

namespace {
scene::Built builtFrom(const std::string& name, const std::string& json) {
  return scene::build(scene::loadSceneArg(writeFile(name, json).string()));
}
}  // namespace

TEST_CASE("equilibrium: a mass on a spring rests m g / k below the spring's rest length") {
  const scene::Built b = scene::build(scene::loadSceneArg("seed002_harmonic_oscillator"));
  const lab::Equilibrium e = lab::staticEquilibrium(b, b.state);
  REQUIRE_MESSAGE(e.state, e.why);
  // fixture at (0, 10), rest length 5, 1 kg, k = 20 N/m
  CHECK(e.state->x[4] == doctest::Approx(10.0 - 5.0 - 9.81 / 20.0).epsilon(1e-9));
  CHECK(e.state->x[3] == doctest::Approx(0.0).scale(1.0));
  CHECK(e.state->v.isZero());
  CHECK(e.steps < 20);  // a Newton step or a few: the spring is linear along its line
}

TEST_CASE("equilibrium: each spring of a hanging chain carries the weight below it") {
  // three 0.5 kg particles under a fixed one, springs of 1 m at rest, k = 50 N/m
  const scene::Built b = builtFrom("eq_chain.json", R"({"gravity": [0, -9.81, 0],
    "system": {"type": "mass_spring", "particles": [
      {"position": [0, 0, 0], "fixed": true}, {"position": [0, -1, 0], "mass": 0.5},
      {"position": [0, -2, 0], "mass": 0.5}, {"position": [0, -3, 0], "mass": 0.5}],
      "springs": [{"a": 0, "b": 1, "stiffness": 50}, {"a": 1, "b": 2, "stiffness": 50},
                  {"a": 2, "b": 3, "stiffness": 50}]}})");
  const lab::Equilibrium e = lab::staticEquilibrium(b, b.state);
  REQUIRE_MESSAGE(e.state, e.why);
  double y = 0.0;
  for (int i = 1; i <= 3; ++i) {
    y -= 1.0 + (4 - i) * 0.5 * 9.81 / 50.0;  // stretched by the weight of particles i..3
    CHECK(e.state->x[3 * i + 1] == doctest::Approx(y).epsilon(1e-9));
  }
}

TEST_CASE("equilibrium: a pendulum hangs along gravity, and with none there is none") {
  const scene::Built b = builtFrom("eq_pendulum.json", R"({"gravity": [1, -9.81, 0],
    "system": {"type": "pendulum", "lengths": [1, 0.5], "masses": [1, 1], "angles": [1, -0.5]}})");
  const lab::Equilibrium e = lab::staticEquilibrium(b, b.state);
  REQUIRE(e.state);
  CHECK(e.state->x[0] == doctest::Approx(std::atan2(1.0, 9.81)));
  CHECK(e.state->x[1] == doctest::Approx(std::atan2(1.0, 9.81)));
  const scene::Built free = builtFrom("eq_pendulum_free.json", R"({"gravity": [0, 0, 0],
    "system": {"type": "pendulum", "lengths": [1], "masses": [1], "angles": [1]}})");
  const lab::Equilibrium none = lab::staticEquilibrium(free, free.state);
  CHECK_FALSE(none.state);
  CHECK(none.why == "no gravity in its plane: it rests at any angle");
}

TEST_CASE("equilibrium: a body that nothing holds falls for ever") {
  const scene::Built b = builtFrom("eq_free.json", R"({"gravity": [0, -9.81, 0],
    "system": {"type": "mass_spring", "particles": [
      {"position": [0, 0, 0], "mass": 1}, {"position": [1, 0, 0], "mass": 1}],
      "springs": [{"a": 0, "b": 1, "stiffness": 50}]}})");
  const lab::Equilibrium e = lab::staticEquilibrium(b, b.state);
  CHECK_FALSE(e.state);
  CHECK(e.why == "nothing holds it: it falls for ever");
}
