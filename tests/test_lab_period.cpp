// The period readout (docs/lab.md#period): the meter against sampled closed forms (a cosine of
// known period, with noise, damping and drift; inputs that do not oscillate; a seek back), the
// theory's closed forms (the AGM against known values of K), the real steppers' periods against
// the theory, and symplectic_euler's period error against its numerical frequency.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>

#include "lab/lane.hpp"
#include "lab/period.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"

namespace {

constexpr double kPi = std::numbers::pi;

// Feeds q(t) at t = 0, h, 2h, ... up to `seconds` into a fresh meter.
lab::PeriodMeter sampled(const std::function<double(double)>& q, double h, double seconds) {
  lab::PeriodMeter m;
  for (long k = 0; k * h <= seconds; ++k) m.push(k * h, q(k * h));
  return m;
}

// Steps a lane on `system` from `from` for `seconds`, feeding coordinate j into a meter.
lab::PeriodMeter stepped(const sim::System& system, const sim::State& from, sim::Method method,
                         double dt, double seconds, int j) {
  lab::Lane lane(system, from, method, dt);
  lab::PeriodMeter m;
  m.push(lane.state().t, lane.state().x[j]);
  while (lane.state().t < seconds) {
    REQUIRE(lane.step());
    m.push(lane.state().t, lane.state().x[j]);
  }
  return m;
}

double relative(double a, double b) {
  return std::abs(a - b) / b;
}

}  // namespace

TEST_CASE("period: a sampled cosine's period from its upward crossings") {
  const double T = 1.7, h = 0.01;
  // 10 s from a maximum: up-crossings at 0.75 T, 1.75 T, ..., 5.75 T = 9.775 s
  const lab::PeriodMeter m =
      sampled([&](double t) { return 3.0 + std::cos(2 * kPi * t / T); }, h, 10.0);
  CHECK(m.crossingsSeen() == 6);
  REQUIRE(m.reading());
  CHECK(m.reading()->crossings == 5);  // the first left out: its centre was the start's
  CHECK(relative(m.reading()->period, T) < 1e-5);
  // the kept crossings are the last kCrossingsKept
  const lab::PeriodMeter longer =
      sampled([&](double t) { return std::cos(2 * kPi * t / T); }, h, 40.0);
  CHECK(longer.crossingsSeen() == 23);
  CHECK(longer.reading()->crossings == lab::PeriodMeter::kCrossingsKept);
}

TEST_CASE("period: nothing until two crossings") {
  const double T = 2.0;
  lab::PeriodMeter m;
  auto q = [&](double t) { return std::sin(2 * kPi * t / T); };
  double t = 0.0;
  for (; m.crossingsSeen() < 1; t += 0.01) m.push(t, q(t));
  CHECK_FALSE(m.reading());
  for (; m.crossingsSeen() < 2; t += 0.01) m.push(t, q(t));
  REQUIRE(m.reading());
  CHECK(m.reading()->crossings == 2);
}

TEST_CASE("period: noise near the centre adds no crossing") {
  const double T = 1.3, h = 0.005, noise = 0.05;  // noise: 5% of the amplitude, uniform
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-noise, noise);
  const lab::PeriodMeter m =
      sampled([&](double t) { return std::cos(2 * kPi * t / T) + u(rng); }, h, 13.0);
  // up-crossings at 0.75 T + n T <= 13 s: n = 0..9
  CHECK(m.crossingsSeen() == 10);
  REQUIRE(m.reading());
  // each end's crossing is off by about noise / (omega A) = 0.01 s: over 7 spacings of 1.3 s
  CHECK(relative(m.reading()->period, T) < 3e-3);
}

TEST_CASE("period: a damped oscillation's period, and one about a drifting centre") {
  const double T = 1.3, gamma = 0.3, w = 2 * kPi / T;
  // its up-crossings through the centre are spaced exactly T apart: the centre (the midpoint of
  // the last extremes) is a fixed fraction of the amplitude off, a constant phase shift
  const lab::PeriodMeter damped =
      sampled([&](double t) { return -2.0 + std::exp(-gamma * t) * std::cos(w * t); }, 0.002, 12.0);
  REQUIRE(damped.reading());
  CHECK(relative(damped.reading()->period, T) < 1e-5);
  CHECK(damped.crossingsSeen() == 9);
  // a centre drifting by 5% of the amplitude per period
  const lab::PeriodMeter drift =
      sampled([&](double t) { return 0.05 * t / T + std::cos(w * t); }, 0.002, 12.0);
  REQUIRE(drift.reading());
  CHECK(relative(drift.reading()->period, T) < 1e-3);
}

TEST_CASE("period: a coordinate that does not oscillate has none") {
  using Q = std::function<double(double)>;
  for (const Q& q : {Q([](double) { return 1.5; }), Q([](double t) { return 2.0 - 0.3 * t; }),
                     Q([](double t) { return std::exp(-t); }),
                     Q([](double t) { return 4.0 + 1e-13 * std::sin(40.0 * t); }),
                     // critically damped: over the centre once, never back
                     Q([](double t) { return (1.0 - 3.0 * t) * std::exp(-2.0 * t); })}) {
    const lab::PeriodMeter m = sampled(q, 0.01, 20.0);
    CHECK(m.crossingsSeen() <= 1);
    CHECK_FALSE(m.reading());
  }
}

TEST_CASE("period: a seek back starts afresh, a stopped motion's reading lapses") {
  const double T = 1.0;
  lab::PeriodMeter m = sampled([&](double t) { return std::cos(2 * kPi * t / T); }, 0.01, 6.0);
  REQUIRE(m.reading());
  m.push(2.0, 1.0);  // back in time
  CHECK(m.crossingsSeen() == 0);
  CHECK_FALSE(m.reading());
  for (double t = 2.01; t < 6.0; t += 0.01) m.push(t, std::cos(2 * kPi * t / T));
  REQUIRE(m.reading());
  CHECK(m.crossingsSeen() == 4);       // at 2.75, 3.75, 4.75 and 5.75 s
  CHECK(m.reading()->crossings == 3);  // the first left out
  // held still (a grab) for more than kStalePeriods periods: no reading
  for (double t = 6.0; t < 6.0 + (lab::PeriodMeter::kStalePeriods + 1.0) * T; t += 0.01)
    m.push(t, 0.3);
  CHECK_FALSE(m.reading());
}

TEST_CASE("period: the AGM and the pendulum's exact period against known values") {
  // Gauss's constant: 1 / AGM(1, sqrt 2) = 0.8346268416740731862...
  CHECK(std::abs(1.0 / lab::agm(1.0, std::sqrt(2.0)) - 0.8346268416740731862) < 1e-15);
  const double T0 = 2 * kPi * std::sqrt(1.0 / 9.81);
  CHECK(std::abs(lab::springPeriod(4.0, 9.0) - 2 * kPi * 2.0 / 3.0) < 1e-15);
  CHECK(std::abs(lab::pendulumPeriod(1.0, 9.81, 0.0) - T0) < 1e-15);
  // at 90 degrees: T / T0 = 2 K(1/sqrt 2) / pi = 1.1803405990160962... (A&S table 17.1)
  CHECK(std::abs(lab::pendulumPeriod(1.0, 9.81, kPi / 2) / T0 - 1.1803405990160962) < 1e-14);
  // small amplitudes: the series 1 + a^2/16 + 11 a^4/3072
  const double a = 0.05;
  CHECK(std::abs(lab::pendulumPeriod(1.0, 9.81, a) / T0 -
                 (1 + a * a / 16 + 11 * std::pow(a, 4) / 3072)) < 1e-9);
}

TEST_CASE("period: a simulated pendulum's period is the theory's, small angle and large") {
  scene::Built b = scene::build(scene::loadSceneArg("pendulum_small_angle"));  // L 1 m, 0.01 rad
  const double small = 2 * kPi * std::sqrt(1.0 / 9.81);
  for (const double amplitude : {0.01, 1.0}) {
    CAPTURE(amplitude);
    b.state.x[0] = amplitude;
    const auto theory = lab::theoryPeriod(b, b.state);
    REQUIRE(theory);
    CHECK(std::abs(*theory - lab::pendulumPeriod(1.0, 9.81, amplitude)) < 1e-12);
    const lab::PeriodMeter m = stepped(b, b.state, sim::Method::Rk4, 0.001, 12.0, 0);
    REQUIRE(m.reading());
    // at 0.75, 1.75, ... periods: 6 of 2.006 s in 12 s, 5 of 2.139 s
    CHECK(m.crossingsSeen() == static_cast<int>(std::floor(12.0 / *theory - 0.75)) + 1);
    CHECK(m.reading()->crossings == m.crossingsSeen() - 1);
    CHECK(relative(m.reading()->period, *theory) < 1e-6);  // measured: 1e-12 and 3e-11
    MESSAGE("amplitude " << amplitude << ": relative error "
                         << relative(m.reading()->period, *theory));
    // at 1 rad the small-angle formula is 6.6% short: the correction is what matches
    if (amplitude == 1.0) CHECK(relative(m.reading()->period, small) > 0.06);
  }
}

TEST_CASE("period: a mass on a spring's period is 2 pi sqrt(m/k)") {
  // seed 002's oscillator: 1 kg on k = 20 N/m below a fixture, oscillating along y (coordinate 4)
  const scene::Built b = scene::build(scene::loadSceneArg("seed002_harmonic_oscillator"));
  const double T = 2 * kPi * std::sqrt(1.0 / 20.0);
  const auto theory = lab::theoryPeriod(b, b.state);
  REQUIRE(theory);
  CHECK(std::abs(*theory - T) < 1e-15);
  const lab::PeriodMeter m = stepped(b, b.state, sim::Method::Rk4, 0.001, 10.0, 4);
  REQUIRE(m.reading());
  CHECK(relative(m.reading()->period, T) < 1e-5);
  // its x coordinate does not move: no period
  CHECK_FALSE(stepped(b, b.state, sim::Method::Rk4, 0.001, 5.0, 3).reading());
}

TEST_CASE("period: the theory is for those scenes only") {
  for (const char* name : {"seed004_double_pendulum", "cloth_16", "seed002_elastic_pendulum"}) {
    CAPTURE(name);
    const scene::Built b = scene::build(scene::loadSceneArg(name));
    CHECK_FALSE(lab::theoryPeriod(b, b.state));
  }
  scene::Built b = scene::build(scene::loadSceneArg("seed002_harmonic_oscillator"));
  sim::State sideways = b.state;
  sideways.v[3] = 0.5;  // swinging: a spring pendulum, no closed form
  CHECK_FALSE(lab::theoryPeriod(b, sideways));
  REQUIRE_FALSE(b.setParameter(sim::Parameter::Drag, 0.1).has_value());
  CHECK_FALSE(lab::theoryPeriod(b, b.state));
  scene::Built p = scene::build(scene::loadSceneArg("pendulum_small_angle"));
  sim::State over = p.state;
  over.v[0] = 7.0;  // 1/2 L w^2 > 2 g L: over the top
  CHECK_FALSE(lab::theoryPeriod(p, over));
  REQUIRE_FALSE(p.setParameter(sim::Parameter::JointDamping, 0.1).has_value());
  CHECK_FALSE(lab::theoryPeriod(p, p.state));
}

TEST_CASE("period: symplectic_euler's period error is its numerical frequency's") {
  // on a linear oscillator its positions are exactly a sampled cosine of frequency
  // 2 asin(h w / 2) / h, so its period is short by 1 - (h w / 2) / asin(h w / 2)
  const scene::Built b = scene::build(scene::loadSceneArg("seed002_harmonic_oscillator"));
  const double w = std::sqrt(20.0), T = 2 * kPi / w;
  for (const double hw : {0.05, 0.1, 0.2}) {
    CAPTURE(hw);
    const double h = hw / w;
    const double expected = hw / (2 * std::asin(hw / 2)) - 1.0;  // about -(h w)^2 / 24
    // 14 periods: the kept crossings are the last 8, past the first, whose centre is the
    // starting sample (a maximum between samples, which no parabola can refine at the start)
    const lab::PeriodMeter m = stepped(b, b.state, sim::Method::SymplecticEuler, h, 20.0, 4);
    REQUIRE(m.reading());
    const double error = lab::periodError(m.reading()->period, T);
    MESSAGE("h w " << hw << ": error " << error << ", expected " << expected);
    CHECK(std::abs(error - expected) < 0.01 * std::abs(expected));
  }
}
