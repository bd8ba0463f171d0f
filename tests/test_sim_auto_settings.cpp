// The automatic substeps and iterations of xpbd and projective: a scene that names none gets
// settings that hold a stiff cloth of its own (docs/integrators.md#automatic-settings).
#include <doctest/doctest.h>

#include <cmath>

#include "scene/build.hpp"
#include "sim/projective.hpp"
#include "sim/spectrum.hpp"
#include "sim/stepper.hpp"
#include "sim/xpbd.hpp"
#include "test_sim_helpers.hpp"

namespace {

constexpr double kFrame = 1.0 / 60.0;

// A stiff cloth no built-in scene has: 24 x 24, 1 m, 0.3 kg, k = 2e4 N/m, bending k/10, released
// horizontally from two corners.
scene::SceneDef stiffCloth() {
  scene::SceneDef def;
  scene::ClothParams cp;
  cp.nx = cp.ny = 24;
  cp.mass = 0.3;
  cp.stiffness = 2e4;
  cp.bending_stiffness = 2e3;
  cp.horizontal = true;
  scene::addCloth(def.mass_spring, cp);
  return def;
}

constexpr double kSpacing = 1.0 / 23.0;  // m, the grid's
constexpr int kFrames = 60;              // a second of the swing

}  // namespace

TEST_CASE("a scene that names no substeps or iterations leaves them to the method") {
  const scene::Built b = scene::build(stiffCloth());
  CHECK(b.massSpring()->substeps == sim::kAutomatic);
  CHECK(b.massSpring()->iterations == sim::kAutomatic);
  // xpbd: ceil(h omega_max / kAutoSubstepPhase) substeps of one sweep
  sim::Stepper xpbd(*b.massSpring(), b.state, sim::Method::Xpbd, kFrame);
  REQUIRE_FALSE(xpbd.advance());
  const double omega = sim::omegaMax(*b.massSpring(), b.state);
  CHECK(xpbd.settingsUsed().substeps == int(std::ceil(kFrame * omega / sim::kAutoSubstepPhase)));
  CHECK(xpbd.settingsUsed().iterations == 1);
  // projective: one substep, iterations to the tolerance, within their bounds
  sim::Stepper projective(*b.massSpring(), b.state, sim::Method::Projective, kFrame);
  for (int i = 0; i < 10; ++i) {
    REQUIRE_FALSE(projective.advance());
    CHECK(projective.settingsUsed().substeps == 1);
    CHECK(projective.settingsUsed().iterations >= sim::kAutoMinIterations);
    CHECK(projective.settingsUsed().iterations <= sim::kAutoMaxIterations);
  }
}

TEST_CASE("automatic settings hold a stiff cloth that one substep of one sweep tears") {
  const scene::SceneDef def = stiffCloth();
  // the converged answer: verlet at a step far below its limit 2/omega_max (3.9e-4 s here)
  const double reference =
      simtest::worstStretch(def, sim::Method::Verlet, 1, 1, kFrame / 400, 400 * kFrames, kSpacing);
  const double xpbdOne =
      simtest::worstStretch(def, sim::Method::Xpbd, 1, 1, kFrame, kFrames, kSpacing);
  const double xpbdAuto = simtest::worstStretch(def, sim::Method::Xpbd, sim::kAutomatic,
                                                sim::kAutomatic, kFrame, kFrames, kSpacing);
  const double projectiveOne =
      simtest::worstStretch(def, sim::Method::Projective, 1, 1, kFrame, kFrames, kSpacing);
  const double projectiveAuto = simtest::worstStretch(def, sim::Method::Projective, sim::kAutomatic,
                                                      sim::kAutomatic, kFrame, kFrames, kSpacing);
  MESSAGE("largest stretch l/r - 1 over 1 s: verlet converged "
          << reference << ", xpbd 1 x 1 " << xpbdOne << ", automatic " << xpbdAuto
          << "; projective 1 x 1 " << projectiveOne << ", automatic " << projectiveAuto);
  CHECK(xpbdOne > 1.0);   // more than twice its rest length: thrashing
  CHECK(xpbdAuto < 0.5);  // held
  // within a few hundredths of the converged stretch (0.037 here; 1 x 1 is 0.17 off)
  CHECK(std::abs(projectiveAuto - reference) < 0.05);
  CHECK(std::abs(projectiveOne - reference) > std::abs(projectiveAuto - reference));
}
