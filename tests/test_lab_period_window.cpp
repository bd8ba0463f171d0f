// The window's period readout (docs/lab.md#period): the Session measures each lane's phase
// coordinate as it samples the plots, beside the theory, and starts afresh on a seek and a Reset.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "app/session.hpp"
#include "lab/period.hpp"
#include "ui/panel.hpp"

namespace {

// Steps the session for `seconds` of simulated time, sampling as the window does once a frame.
void run(app::Session& s, double seconds) {
  constexpr double kFrame = 1.0 / 60.0;  // s
  const double end = s.time() + seconds;
  double next = s.time();
  while (s.time() < end) {
    REQUIRE(s.stepOnce());
    if (s.time() >= next) s.sample(), next += kFrame;
  }
}

}  // namespace

TEST_CASE("period: the window's readout of a small-angle pendulum, per lane, against theory") {
  app::Session s;
  s.load("pendulum_small_angle");  // 1 m, 0.01 rad, rk4 at dt 0.001
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"symplectic_euler", 0.01}, &msg));
  const double theory = lab::pendulumPeriod(1.0, 9.81, 0.01);
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.lanes.rows.size() == 2);
  CHECK(pm.measure.lanes[0].crossings == 0);
  CHECK(ui::periodLine(pm.measure.lanes[0]) == "period: no oscillation yet");
  run(s, 5.2 * theory);  // up-crossings at 0.75, 1.75, ..., 4.75 periods
  s.fillPanel(pm);
  for (int i = 0; i < 2; ++i) {
    CAPTURE(i);
    const ui::LaneMeasure& row = pm.measure.lanes[static_cast<size_t>(i)];
    CHECK(row.crossings == 4);  // the first is left out
    CHECK(std::abs(row.theory_period - theory) < 1e-12);
    CHECK(std::abs(row.period - theory) < 1e-3 * theory);
    CHECK(row.period_error == (row.period - theory) / theory);
  }
  // symplectic_euler at h w = 0.031 runs short by about (h w)^2 / 24 = 4.1e-5; rk4 is exact
  const double hw = 0.01 * std::sqrt(9.81);
  const double expected = hw / (2 * std::asin(hw / 2)) - 1.0;
  MESSAGE("rk4 " << pm.measure.lanes[0].period_error << ", symplectic_euler "
                 << pm.measure.lanes[1].period_error << ", expected " << expected);
  CHECK(std::abs(pm.measure.lanes[0].period_error) < 1e-9);  // measured: 4e-12
  // measured: 0.07 % apart
  CHECK(std::abs(pm.measure.lanes[1].period_error - expected) < 0.01 * std::abs(expected));

  // a seek back starts the readout afresh; so does Reset
  REQUIRE(s.apply(ui::SeekHistory{s.timeline().history().indexAtOrBefore(1.0)}, &msg));
  s.fillPanel(pm);
  CHECK(pm.measure.lanes[0].crossings == 0);
  s.setPaused(false);
  run(s, 2.5 * theory);
  s.fillPanel(pm);
  CHECK(pm.measure.lanes[0].crossings == 2);
  CHECK(std::abs(pm.measure.lanes[0].period - theory) < 1e-3 * theory);
  REQUIRE(s.apply(ui::Reset{}, &msg));
  s.fillPanel(pm);
  CHECK(pm.measure.lanes[0].crossings == 0);
}

TEST_CASE("period: the window's readout of a mass on a spring, on the coordinate it moves along") {
  app::Session s;
  s.load("seed002_harmonic_oscillator");  // 1 kg on 20 N/m, along y; the phase plot starts on x1
  std::string msg;
  const double theory = 2 * std::numbers::pi * std::sqrt(1.0 / 20.0);
  run(s, 3.0);
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.measure.lanes[0].crossings == 0);          // x1 does not move
  REQUIRE(s.apply(ui::SetPhaseCoordinate{4}, &msg));  // y1
  run(s, 6.0);
  s.fillPanel(pm);
  CHECK(pm.measure.lanes[0].crossings >= 3);
  CHECK(std::abs(pm.measure.lanes[0].theory_period - theory) < 1e-12);
  CHECK(std::abs(pm.measure.lanes[0].period - theory) < 1e-3 * theory);
  // a conservative change starts it afresh: at 4 times the stiffness, half the period
  REQUIRE(s.apply(ui::SetParameter{static_cast<int>(sim::Parameter::StiffnessScale), 4.0}, &msg));
  run(s, 6.0);
  s.fillPanel(pm);
  CHECK(std::abs(pm.measure.lanes[0].theory_period - theory / 2) < 1e-12);
  CHECK(std::abs(pm.measure.lanes[0].period - theory / 2) < 1e-3 * theory);
}

TEST_CASE("period: a parameter lane four times as stiff reads half the period, and its theory") {
  app::Session s;
  s.load("seed002_harmonic_oscillator");  // 1 kg on 20 N/m, along y
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"rk4", 0.00025, "stiffness_scale=4"}, &msg));
  REQUIRE(s.apply(ui::SetPhaseCoordinate{4}, &msg));  // y1
  run(s, 8.0);
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.lanes.rows.size() == 2);
  const double T = 2 * std::numbers::pi * std::sqrt(1.0 / 20.0);
  // lane 0 is the scene's forward Euler at 0.00025 s: its period is long by about (h w)^2 / 8
  CHECK(std::abs(pm.measure.lanes[0].theory_period - T) < 1e-12);
  CHECK(std::abs(pm.measure.lanes[1].theory_period - T / 2) < 1e-12);
  CHECK(std::abs(pm.measure.lanes[1].period - T / 2) < 1e-6 * T);
  CHECK(std::abs(pm.measure.lanes[1].period / pm.measure.lanes[0].period - 0.5) < 1e-5);
}
