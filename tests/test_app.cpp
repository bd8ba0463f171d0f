// The viewer's logic without a display: the fixed-step loop with a fake clock, the Session's
// command validation, its panel's controls and plots, the mouse spring. The app's other suites:
// test_app_divergence.cpp, test_app_view.cpp, test_app_mouse.cpp, test_app_edit.cpp and
// test_app_window.cpp.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <cmath>
#include <string>
#include <vector>

#include "app/frame_loop.hpp"
#include "app/session.hpp"
#include "app_helpers.hpp"
#include "scene/load.hpp"

using app::FixedStepLoop;
using apptest::controlOf;
namespace {

ui::SessionCommand gravity(double gy) {
  return ui::SetVectorParameter{int(sim::Parameter::Gravity), {0.0, gy, 0.0}};
}

struct FakeClock : app::Clock {
  double t = 0.0;
  double now() override { return t; }
};

}  // namespace

TEST_CASE("app: the loop takes the steps that fit the elapsed time, whatever the frame rate") {
  FakeClock clock;
  FixedStepLoop loop(clock, 1.0);
  int steps = 0;
  auto step = [&] { return ++steps, true; };
  loop.frame(0.01, 1.0, false, step);  // the first frame only starts the clock
  CHECK(steps == 0);
  clock.t += 0.1;
  auto r = loop.frame(0.01, 1.0, false, step);
  CHECK(r.steps == 10);
  CHECK(r.sim_seconds == doctest::Approx(0.1));
  // a fraction of a step is carried to the next frame: 0.015 + 0.015 = 3 steps of 0.01
  steps = 0;
  clock.t += 0.015;
  loop.frame(0.01, 1.0, false, step);
  clock.t += 0.015;
  loop.frame(0.01, 1.0, false, step);
  CHECK(steps == 3);
}

TEST_CASE("app: time scale, pause and the gap cap") {
  FakeClock clock;
  FixedStepLoop loop(clock, 1.0);
  int steps = 0;
  auto step = [&] { return ++steps, true; };
  loop.frame(0.001, 1.0, false, step);
  clock.t += 0.1;
  loop.frame(0.001, 0.25, false, step);  // slow motion: a quarter of the steps
  CHECK(steps == doctest::Approx(25).epsilon(0.05));
  steps = 0;
  clock.t += 0.1;
  loop.frame(0.001, 8.0, false, step);  // fast: eight times
  CHECK(steps == doctest::Approx(800).epsilon(0.01));
  steps = 0;
  clock.t += 0.1;
  CHECK(loop.frame(0.001, 1.0, true, step).steps == 0);  // paused: nothing, nothing stored
  clock.t += 0.05;
  loop.frame(0.001, 1.0, false, step);
  CHECK(steps == doctest::Approx(50).epsilon(0.05));  // only the 0.05 s since the paused frame
  // a stall of 10 s is not replayed: at most kMaxFrameGap of wall time counts
  steps = 0;
  clock.t += 10.0;
  loop.frame(0.001, 1.0, false, step);
  CHECK(steps == doctest::Approx(FixedStepLoop::kMaxFrameGap / 0.001).epsilon(0.01));
}

TEST_CASE("app: the step budget drops the backlog instead of carrying it") {
  FakeClock clock;
  FixedStepLoop loop(clock, 0.010);  // 10 ms of stepping per frame
  // every step costs 1 ms of wall time: at most 10 steps fit in a frame
  auto slowStep = [&] {
    clock.t += 0.001;
    return true;
  };
  loop.frame(0.0001, 1.0, false, slowStep);
  clock.t += 1.0 / 60.0;  // 166 steps of 0.1 ms are due
  const auto r = loop.frame(0.0001, 1.0, false, slowStep);
  CHECK(r.steps == 10);
  CHECK(r.dropped);
  // the next frame starts with an empty accumulator: only the wall time since the last frame
  // began is due (the 10 ms spent stepping + 0.5 ms), not the 156 dropped steps
  clock.t += 0.0005;
  int quick = 0;
  loop.frame(0.0001, 1.0, false, [&] { return ++quick, true; });
  CHECK(quick == 105);
  CHECK(loop.realtimePercent() < 100.0);  // the simulation fell behind and says so
}

TEST_CASE("app: the real-time figure is simulated time advanced over wall time") {
  FakeClock clock;
  FixedStepLoop loop(clock, 1.0);
  auto step = [] { return true; };
  CHECK(loop.realtimePercent() == 0.0);  // nothing measured yet: no figure made up
  loop.frame(0.001, 1.0, false, step);
  // frames of 50 ms at time scale 0.25: 12.5 ms of simulated time each (12 or 13 steps)
  double sim = 0.0, wallTime = 0.0;
  for (int f = 0; f < 10; ++f) {
    clock.t += 0.05;
    wallTime += 0.05;
    sim += loop.frame(0.001, 0.25, false, step).sim_seconds;
  }
  CHECK(loop.realtimePercent() == doctest::Approx(100.0 * sim / wallTime).epsilon(1e-12));
  CHECK(loop.realtimePercent() == doctest::Approx(25.0).epsilon(0.01));
  CHECK(loop.stepsPerSecond() == doctest::Approx(sim / 0.001 / wallTime).epsilon(1e-9));
  // a stall of 2 s is not replayed (gap cap) but is counted: the figure shows the loss
  clock.t += 2.0;
  const double stalled = loop.frame(0.001, 1.0, false, step).sim_seconds;
  CHECK(stalled == doctest::Approx(FixedStepLoop::kMaxFrameGap));
  // the window keeps the last second of wall time: here only the stalled frame
  CHECK(loop.realtimePercent() == doctest::Approx(100.0 * stalled / 2.0));
}

TEST_CASE("app: pacing: real-time motion lets a slow step take longer frames than smooth frames") {
  // a machine that needs 2 ms of wall time per 1 ms step; rendering and presenting take 5 ms
  constexpr double kRender = 0.005, kStepCost = 0.002, kDt = 0.001;
  auto run = [&](app::Pacing pacing, double& framePeriod, double& realtime) {
    FakeClock clock;
    FixedStepLoop loop(clock);
    auto slowStep = [&] {
      clock.t += kStepCost;
      return true;
    };
    double start = 0.0;
    int steps = 0;
    constexpr int kFrames = 40;
    for (int f = 0; f <= kFrames; ++f) {
      if (f == 10) start = clock.t, steps = 0;  // settled
      loop.setBudget(app::stepBudget(pacing, kRender));
      steps += loop.frame(kDt, 1.0, false, slowStep).steps;
      clock.t += kRender;
    }
    framePeriod = (clock.t - start) / (kFrames - 9);
    realtime = loop.realtimePercent();
    return steps;
  };
  double motionFrame, motionRt, smoothFrame, smoothRt;
  const int motionSteps = run(app::Pacing::RealTimeMotion, motionFrame, motionRt);
  const int smoothSteps = run(app::Pacing::SmoothFrames, smoothFrame, smoothRt);
  CHECK(motionSteps > 2 * smoothSteps);
  // smooth frames hold 60 frames/s (to a step's cost); real-time motion goes down to 20
  CHECK(smoothFrame == doctest::Approx(app::kSmoothFrame).epsilon(kStepCost / app::kSmoothFrame));
  CHECK(motionFrame ==
        doctest::Approx(app::kRealTimeMotionFrame).epsilon(kStepCost / app::kRealTimeMotionFrame));
  // the machine steps at half speed at best: real-time motion gets closer to it
  CHECK(motionRt > smoothRt);
  CHECK(motionRt < 50.0);
  // the budgets themselves: the frame less the rest of the work, never under the minimum
  CHECK(app::stepBudget(app::Pacing::SmoothFrames, 0.005) == doctest::Approx(1.0 / 60 - 0.005));
  CHECK(app::stepBudget(app::Pacing::RealTimeMotion, 0.005) == doctest::Approx(0.045));
  CHECK(app::stepBudget(app::Pacing::SmoothFrames, 0.5) == app::kMinStepBudget);
}

TEST_CASE("app: a diverging step stops the frame") {
  FakeClock clock;
  FixedStepLoop loop(clock, 1.0);
  loop.frame(0.01, 1.0, false, [] { return true; });
  clock.t += 0.1;
  int n = 0;
  const auto r = loop.frame(0.01, 1.0, false, [&] { return ++n < 4; });
  CHECK(r.diverged);
  CHECK(r.steps == 3);
}

TEST_CASE("app: the session validates commands and applies them between steps") {
  app::Session s;
  s.load("seed003_table1_case1");
  std::string msg;
  CHECK(s.apply(ui::SetIntegrator{"rk4"}, &msg));
  CHECK(s.method() == sim::Method::Rk4);
  CHECK_FALSE(s.apply(ui::SetIntegrator{"implicit_midpoint"}, &msg));
  CHECK(msg.find("does not apply to mass_spring") != std::string::npos);
  CHECK_FALSE(s.apply(ui::SetDt{NAN}, &msg));
  CHECK_FALSE(s.apply(ui::SetDt{10.0}, &msg));
  CHECK(s.dt() == 0.002);  // unchanged by rejected commands
  CHECK(s.apply(ui::SetDt{0.001}, &msg));
  CHECK(s.dt() == 0.001);
  CHECK_FALSE(s.apply(ui::SetParameter{int(sim::Parameter::JointDamping), 0.1},
                      &msg));  // no joints on a spring pendulum
  // stiffness scale: k changes and so does the motion
  const double k0 = s.built().massSpring()->stiffness[0];
  CHECK(s.apply(ui::SetParameter{int(sim::Parameter::StiffnessScale), 4.0}, &msg));
  CHECK(s.built().massSpring()->stiffness[0] == 4.0 * k0);
  CHECK_FALSE(s.apply(ui::SetParameter{int(sim::Parameter::StiffnessScale), -1.0}, &msg));
  // xpbd's substeps and iterations: whole numbers from 0 (automatic) to 1000, on the model every
  // lane steps
  CHECK(s.apply(ui::SetParameter{int(sim::Parameter::Substeps), 12.0}, &msg));
  CHECK(s.built().massSpring()->substeps == 12);
  CHECK(s.apply(ui::SetParameter{int(sim::Parameter::Iterations), 3.0}, &msg));
  CHECK(s.built().massSpring()->iterations == 3);
  CHECK_FALSE(s.apply(ui::SetParameter{int(sim::Parameter::Substeps), 2.5}, &msg));
  CHECK(msg == "substeps: must be a whole number from 0 to 1000 (0: automatic)");
  CHECK_FALSE(s.apply(ui::SetParameter{int(sim::Parameter::Iterations), NAN}, &msg));
  CHECK(s.built().massSpring()->iterations == 3);
  ui::PanelModel xp;
  s.fillPanel(xp);
  CHECK_FALSE(controlOf(xp, sim::Parameter::Substeps));  // rk4 has none: the panel hides them
  REQUIRE(s.apply(ui::SetIntegrator{"xpbd"}, &msg));
  s.fillPanel(xp);
  REQUIRE(controlOf(xp, sim::Parameter::Substeps));
  CHECK(controlOf(xp, sim::Parameter::Substeps)->value == 12);
  CHECK(controlOf(xp, sim::Parameter::Iterations)->value == 3);
  // Step pauses and advances exactly n steps; Reset returns to t = 0
  CHECK(s.apply(ui::Step{10}, &msg));
  CHECK(s.paused());
  CHECK(s.steps() == 10);
  CHECK(s.state().t == doctest::Approx(0.01));
  CHECK(s.apply(ui::Reset{}, &msg));
  CHECK(s.state().t == 0.0);
  CHECK(s.state().x == s.built().state.x);
  // a bad file keeps the current scene
  CHECK_FALSE(s.apply(ui::LoadFile{"/nonexistent.json"}, &msg));
  CHECK(msg.find("/nonexistent.json") != std::string::npos);
  CHECK(s.built().massSpring()->particles() == 2);
  CHECK(s.apply(ui::LoadBuiltin{"seed004_double_pendulum"}, &msg));
  CHECK(s.built().kind() == sim::SystemKind::Pendulum);
  CHECK(s.apply(ui::SetParameter{int(sim::Parameter::JointDamping), 0.1}, &msg));
  CHECK(s.built().pendulum()->joint_damping == 0.1);
  CHECK_FALSE(s.apply(gravity(-1e9), &msg));
  CHECK(s.apply(gravity(-1.62), &msg));
  CHECK(s.built().pendulum()->gravity.y() == -1.62);
}

TEST_CASE("app: the panel's physics controls are the parameter table's rows that apply") {
  // a pendulum offers no Drag (it once did, and every change was rejected): its rows are
  // gravity and joint damping; a cloth's are the springs', the drag, the wind and gravity
  std::string msg;
  for (const char* name : {"seed004_double_pendulum", "cloth_16"}) {
    CAPTURE(name);
    app::Session s;
    s.load(name);
    ui::PanelModel pm;
    s.fillPanel(pm);
    std::vector<std::string> labels;
    for (const ui::ParameterControl& c : pm.physics.parameters) {
      const sim::ParameterInfo& row = sim::parameterInfo(sim::Parameter(c.id));
      CHECK(c.label == row.label);
      CHECK(c.lo == row.lo);
      CHECK(c.hi == row.hi);
      CHECK(c.live == row.live);
      CHECK(c.value == s.built().parameter(row.parameter));
      labels.push_back(c.label);
      // every control the panel shows is one the session accepts
      const bool vector = c.style != ui::ParameterControl::Style::Slider;
      CHECK(vector ? s.apply(ui::SetVectorParameter{c.id, c.vec}, &msg)
                   : s.apply(ui::SetParameter{c.id, c.value}, &msg));
    }
    const bool pendulum = s.built().counts().links > 0;
    CHECK(labels == (pendulum ? std::vector<std::string>{"Gravity", "Joint damping"}
                              : std::vector<std::string>{"Stiffness scale", "Spring damping",
                                                         "Drag", "Wind", "Gravity"}));
    // a number for a vector, or a vector for a number, is refused (never a zero gravity)
    const sim::Vec3 g = s.built().gravity();
    CHECK_FALSE(s.apply(ui::SetParameter{int(sim::Parameter::Gravity), 5.0}, &msg));
    CHECK(msg == "gravity: a vector, not a number");
    CHECK(s.built().gravity() == g);
    CHECK_FALSE(s.apply(ui::SetVectorParameter{int(sim::Parameter::Drag), {1.0, 2.0, 3.0}}, &msg));
    CHECK_FALSE(s.apply(ui::SetParameter{99, 1.0}, &msg));
    CHECK(msg == "parameter 99: no such parameter");
    // and every row it does not show is rejected with the table's reason
    if (pendulum) {
      CHECK_FALSE(s.apply(ui::SetParameter{int(sim::Parameter::Drag), 0.5}, &msg));
      CHECK(msg == "drag: not modelled for pendulums (use joint_damping)");
    }
  }
}

TEST_CASE("app: the integrators' tooltips give their order and symplecticity on this kind") {
  // verlet is second order and symplectic on springs, first order and not symplectic on a
  // pendulum's (phi, phi') (docs/integrators.md#summary, note 1)
  auto tooltipOf = [](const char* scene, const std::string& integrator) {
    app::Session s;
    s.load(scene);
    ui::PanelModel pm;
    s.fillPanel(pm);
    for (const ui::IntegratorChoice& c : pm.clock.integrators)
      if (c.name == integrator) return c.tooltip;
    return std::string("(not offered)");
  };
  const std::string springs = tooltipOf("cloth_16", "verlet");
  const std::string pendulum = tooltipOf("seed004_double_pendulum", "verlet");
  CHECK(springs.substr(springs.rfind('\n') + 1) == "order 2, symplectic");
  CHECK(pendulum.substr(pendulum.rfind('\n') + 1) == "order 1, not symplectic");
  const std::string midpoint = tooltipOf("seed004_double_pendulum", "implicit_midpoint");
  CHECK(midpoint.substr(midpoint.rfind('\n') + 1) == "order 2, symplectic");
  CHECK(tooltipOf("cloth_16", "implicit_midpoint") == "(not offered)");
}

TEST_CASE("app: changing k with time_fe refactorises once, and the result matches a fresh run") {
  app::Session s;
  s.load("seed003_table1_case1");  // time_fe
  std::string msg;
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::StiffnessScale), 2.0}, &msg));
  for (int i = 0; i < 50; ++i) REQUIRE(s.stepOnce());
  // reference: the scene with k doubled from the start
  auto def = scene::loadSceneArg("seed003_table1_case1");
  def.mass_spring.springs[0].stiffness *= 2.0;
  auto b = scene::build(def);
  auto st = b.stepper(sim::Method::TimeFe, def.dt);
  REQUIRE(!st->advance(50));
  CHECK(s.state().x == st->state().x);
}

TEST_CASE(
    "app: the plots hold still while paused, and a conservative change re-anchors the drift") {
  app::Session s;
  s.load("seed003_table1_case1");
  std::string msg;
  for (int f = 0; f < 30; ++f) {
    for (int i = 0; i < 8; ++i) REQUIRE(s.stepOnce());
    s.sample();
  }
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.plots.energy_time.size() == 30);
  const float newest = pm.plots.energy_time.back();
  s.setPaused(true);
  for (int f = 0; f < 700; ++f) s.sample();  // more frames than the history holds
  s.fillPanel(pm);
  CHECK(pm.plots.energy_time.size() == 30);
  CHECK(pm.plots.energy_time.back() == newest);
  CHECK(pm.plots.marks.empty());
  // a single step while paused is a new state: one sample
  REQUIRE(s.apply(ui::Step{1}, &msg));
  s.sample();
  s.sample();
  s.fillPanel(pm);
  CHECK(pm.plots.energy_time.size() == 31);
  // stiffness x4: the energy changes, the drift is measured from the new energy
  const double e0 = s.initialEnergy();
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::StiffnessScale), 4.0}, &msg));
  CHECK(s.initialEnergy() != e0);
  CHECK(s.initialEnergy() == doctest::Approx(s.energy().total()));
  REQUIRE(s.apply(ui::Step{1}, &msg));
  s.sample();
  s.fillPanel(pm);
  CHECK(pm.plots.drift.back() < 1e-3);
  REQUIRE(pm.plots.marks.size() == 1);
  CHECK(pm.plots.marks[0] == doctest::Approx(s.state().t - s.dt()));
  // gravity too; damping does not (it is not a conservative change)
  REQUIRE(s.apply(ui::Step{1}, &msg));
  REQUIRE(s.apply(gravity(-1.62), &msg));
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::SpringDamping), 0.5}, &msg));
  s.fillPanel(pm);
  CHECK(pm.plots.marks.size() == 2);
  // taking hold with the mouse and letting go: two marks more
  REQUIRE(s.apply(ui::Step{1}, &msg));
  s.setGrab(1, sim::Vec3(1, 1, 0));
  REQUIRE(s.apply(ui::Step{1}, &msg));
  s.setGrab(-1, sim::Vec3::Zero());
  s.fillPanel(pm);
  CHECK(pm.plots.marks.size() == 4);
  CHECK(s.initialEnergy() == doctest::Approx(s.energy().total()));
}

TEST_CASE("app: the mouse spring pulls a particle and a pendulum bob") {
  app::Session s;
  s.load("seed003_table1_case1");
  std::string msg;
  REQUIRE(s.apply(ui::SetIntegrator{"rk4"}, &msg));
  const double x0 = s.state().x[3];
  s.setGrab(1, sim::Vec3(x0 + 1.0, s.state().x[4], 0.0));  // pull along +x
  for (int i = 0; i < 20; ++i) REQUIRE(s.stepOnce());
  CHECK(s.state().x[3] > x0 + 1e-4);
  s.setGrab(0, sim::Vec3(5, 5, 0));  // a fixed particle cannot be grabbed
  CHECK(s.grabbed() == -1);

  s.load("pendulum_small_angle");
  s.setGrab(0, sim::Vec3(1.0, 0.0, 0.0));  // pull the bob sideways and up
  const double phi0 = s.state().x[0];
  for (int i = 0; i < 50; ++i) REQUIRE(s.stepOnce());
  CHECK(s.state().x[0] > phi0 + 1e-3);
}

#endif  // SPRINGLAB_VIEWER
