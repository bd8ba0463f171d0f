// The viewer's logic without a display: the fixed-step loop with a fake clock, the Session's
// command validation, the view builder; and the binary's headless and windowed front ends.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <numbers>

#include "app/frame_loop.hpp"
#include "app/framing.hpp"
#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "app/viewer.hpp"
#include "fp_trap.hpp"
#include "scene/load.hpp"
#include "util.hpp"

using app::FixedStepLoop;
namespace {

ui::SessionCommand gravity(double gy) {
  return ui::SetVectorParameter{int(sim::Parameter::Gravity), {0.0, gy, 0.0}};
}

ui::SessionCommand wind(double x, double y, double z) {
  return ui::SetVectorParameter{int(sim::Parameter::Wind), {x, y, z}};
}

// The panel's control of parameter p, or null when the panel shows none.
const ui::ParameterControl* controlOf(const ui::PanelModel& pm, sim::Parameter p) {
  for (const ui::ParameterControl& c : pm.physics.parameters)
    if (c.id == int(p)) return &c;
  return nullptr;
}

// Runs a session as a scripted window run does: the steps due in each 1/60 s of simulated time,
// then one sample (where the runaway rule is applied). Stops at `duration`, after `maxSteps`, or
// at a divergence; returns the simulated time reached.
double runLikeTheWindow(app::Session& s, double duration, long long maxSteps) {
  long long steps = 0;
  for (int frame = 1; !s.divergence() && steps < maxSteps; ++frame) {
    const double frameEnd = std::min(frame / 60.0, duration);
    while (s.state().t + 0.5 * s.dt() <= frameEnd && steps < maxSteps) {
      if (!s.stepOnce()) break;
      ++steps;
    }
    s.sample();
    if (frameEnd >= duration) break;
  }
  return s.state().t;
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

TEST_CASE("app: divergence pauses with a report, the last finite state is kept") {
  const testutil::FpTrapsOff overflowIsThePoint;  // the step is driven to infinity on purpose
  app::Session s;
  s.load("seed003_table1_case1");
  std::string msg;
  REQUIRE(s.apply(ui::SetIntegrator{"euler"}, &msg));
  REQUIRE(s.apply(ui::SetDt{0.1}, &msg));
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::StiffnessScale), 1000.0}, &msg));
  bool diverged = false;
  for (int i = 0; i < 10000 && !diverged; ++i) diverged = !s.stepOnce();
  REQUIRE(diverged);
  CHECK(s.paused());
  REQUIRE(s.divergence());
  // particle 1, alone or with the fixed end of its spring (torn before it overflows)
  CHECK((s.divergence()->body == 1 || s.divergence()->other_body == 1));
  CHECK(s.state().x.allFinite());
  CHECK_FALSE(s.stepOnce());  // no stepping past a divergence until reset or restore
  app::ViewBuilder vb;
  const auto& view = vb.build(s, false);
  CHECK((view.flags[1] & render::kPointHighlight) != 0);
  CHECK((view.line_flags[0] & render::kLineHighlight) != 0);
  CHECK(s.apply(ui::Rewind{}, &msg));
  CHECK_FALSE(s.divergence());
  CHECK_FALSE(s.apply(ui::Rewind{}, &msg));  // nothing to go back from now
  CHECK(msg == "rewind: no divergence to go back from");
  CHECK(s.apply(ui::Reset{}, &msg));
  CHECK(s.state().t == 0.0);
}

TEST_CASE("app: the banner's Replay slowly runs the last second again at 1/8 speed, same blow-up") {
  // euler at 0.004 s from the start (one dt throughout: the timeline's clock is that of the run)
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  REQUIRE(s.apply(ui::SetIntegrator{"euler"}, &msg));
  REQUIRE(s.apply(ui::SetDt{0.004}, &msg));
  runLikeTheWindow(s, 10.0, 1000000);
  REQUIRE(s.divergence());
  const sim::Divergence first = *s.divergence();
  for (const ui::SessionCommand& c :
       std::vector<ui::SessionCommand>{ui::Rewind{}, ui::SetTimeScale{0.125}, ui::SetPaused{false}})
    REQUIRE(s.apply(c, &msg));
  CHECK_FALSE(s.divergence());
  CHECK_FALSE(s.paused());
  CHECK(s.timeScale() == 0.125);
  CHECK(s.state().t < first.t);
  // the steps from a kept state are bit-identical: the same blow-up, at the same time
  runLikeTheWindow(s, 10.0, 1000000);
  REQUIRE(s.divergence());
  CHECK(s.divergence()->t == first.t);
  CHECK(s.divergence()->what == first.what);
}

TEST_CASE("app: Rewind goes back about a second before a runaway, to a state that runs again") {
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  // 3 s of a sane run fill the ring of snapshots; then euler at a large dt blows up
  runLikeTheWindow(s, 3.0, 1000000);
  REQUIRE_FALSE(s.divergence());
  REQUIRE(s.apply(ui::SetIntegrator{"euler"}, &msg));
  REQUIRE(s.apply(ui::SetDt{0.004}, &msg));
  runLikeTheWindow(s, 6.0, 1000000);
  REQUIRE(s.divergence());
  const double tDiverged = s.divergence()->t;
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.clock.can_rewind);
  // the report on screen: the time to 6 significant digits, not run's 17
  CHECK(pm.clock.divergence.rfind("diverged at t = ", 0) == 0);
  char shortT[32];
  std::snprintf(shortT, sizeof shortT, "%.6g s with euler: ", tDiverged);
  CHECK(pm.clock.divergence.find(shortT) != std::string::npos);
  // both to 6 significant digits; the panel adds which state it shows
  CHECK(pm.clock.divergence.rfind(s.divergence()->message(), 0) == 0);
  CHECK(pm.clock.divergence.find("Shown: the last checked state") != std::string::npos);
  REQUIRE(s.apply(ui::Rewind{}, &msg));
  CHECK_FALSE(s.divergence());
  CHECK(s.paused());
  // the newest kept state at least 1 s before the banner
  CHECK(s.state().t <= tDiverged - app::Timeline::kRewindBack);
  CHECK(s.state().t >
        tDiverged - app::Timeline::kRewindBack - s.timeline().history().spacing() - s.dt());
  CHECK(s.steps() > 0);
  s.fillPanel(pm);
  CHECK(pm.plots.energy_time.back() <= s.state().t);  // the plots went back too
  // back on the scene's integrator and dt, it runs on from there
  REQUIRE(s.apply(ui::SetIntegrator{"symplectic_euler"}, &msg));
  REQUIRE(s.apply(ui::SetDt{0.0005}, &msg));
  s.setPaused(false);
  const double from = s.state().t;
  CHECK(runLikeTheWindow(s, from + 0.5, 1000000) == doctest::Approx(from + 0.5).epsilon(1e-6));
  CHECK_FALSE(s.divergence());
}

TEST_CASE("app: the culprit is highlighted and enlarged even in a cloth drawn without springs") {
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  REQUIRE(s.apply(ui::SetIntegrator{"euler"}, &msg));
  REQUIRE(s.apply(ui::SetDt{0.004}, &msg));
  app::ViewBuilder vb;
  const std::vector<float> before(vb.build(s, false).radii.begin(), vb.build(s, false).radii.end());
  const std::uint64_t topologyBefore = vb.build(s, false).topology;
  runLikeTheWindow(s, 1.0, 100000);
  REQUIRE(s.divergence());
  const int body = s.divergence()->body;
  REQUIRE(body >= 0);
  const auto& v = vb.build(s, false);
  CHECK((v.flags[body] & render::kPointHighlight) != 0);
  // the renderer takes radii with the topology only: the enlarged culprit must announce itself
  CHECK(v.topology != topologyBefore);
  CHECK(vb.build(s, false).topology == v.topology);  // ... once, not every frame
  CHECK(v.radii[body] >= app::ViewBuilder::kCulpritRadiusScale * before[body]);
  const int other = s.divergence()->other_body;  // a torn spring's other particle, or -1
  for (size_t i = 0; i < before.size(); ++i)
    if (static_cast<int>(i) != body && static_cast<int>(i) != other) CHECK(v.radii[i] == before[i]);
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

TEST_CASE("app: a grab's view holds the line from the cursor's target to the grabbed body") {
  app::Session s;
  s.load("pendulum_small_angle");
  app::ViewBuilder views;
  CHECK(views.build(s, false).grab_line.empty());
  s.setGrab(0, sim::Vec3(1.0, 0.5, 0.0));
  const render::SceneView& v = views.build(s, false);
  REQUIRE(v.grab_line.size() == 6u);
  CHECK(v.grab_line[0] == 1.0f);
  CHECK(v.grab_line[1] == 0.5f);
  CHECK(v.grab_line[2] == 0.0f);
  const int p = app::ViewBuilder::pointOfBody(s, 0);  // the bob, after the pivot
  for (int c = 0; c < 3; ++c) CHECK(v.grab_line[3 + c] == v.positions[3 * p + c]);
  s.setGrab(-1, sim::Vec3::Zero());
  CHECK(views.build(s, false).grab_line.empty());
}

TEST_CASE("app: the view of a pendulum has the pivot, the bobs and rigid rods") {
  app::Session s;
  s.load("seed004_triple_pendulum");
  app::ViewBuilder vb;
  const auto& v = vb.build(s, true);
  REQUIRE(v.positions.size() == 3 * 4);
  CHECK((v.flags[0] & render::kPointFixed) != 0);
  CHECK(v.lines.size() == 6);
  for (auto f : v.line_flags) CHECK((f & render::kLineRigid) != 0);
  CHECK(v.planar);
  // bob 0 at pivot + 2 (sin pi/2, -cos pi/2) = (2, 0)
  CHECK(v.positions[3] == doctest::Approx(2.0));
  CHECK(v.positions[4] == doctest::Approx(0.0).epsilon(1e-6));
  // the heaviest bob is the largest
  CHECK(v.radii[1] > v.radii[3]);
}

TEST_CASE("app: --screenshot without a display renders headless to a PNG of the requested size") {
  using namespace testutil;
  const auto png = tempDir() / "shot.png";
  std::filesystem::remove(png);
  // the binary decides on the display from DISPLAY/WAYLAND_DISPLAY: run it without them
  const std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY '" + std::string(SPRINGLAB_BIN) +
                          "' seed004_double_pendulum --size 320x240 --frames 3 --screenshot '" +
                          png.string() + "' 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string data = readFile(png);
  REQUIRE(data.size() > 24);
  CHECK(data.substr(1, 3) == "PNG");
  // IHDR: width and height, big-endian, at bytes 16..23
  auto be32 = [&](size_t i) {
    return (unsigned(static_cast<unsigned char>(data[i])) << 24) |
           (unsigned(static_cast<unsigned char>(data[i + 1])) << 16) |
           (unsigned(static_cast<unsigned char>(data[i + 2])) << 8) |
           unsigned(static_cast<unsigned char>(data[i + 3]));
  };
  CHECK(be32(16) == 320);
  CHECK(be32(20) == 240);
}

TEST_CASE("app: a scripted run that raises the banner prints the report and exits 3, as run") {
  using namespace testutil;
  const auto png = tempDir() / "diverged.png";
  std::filesystem::remove(png);
  const auto r = springlab({"cloth_16", "--integrator", "euler", "--dt", "0.004", "--frames", "30",
                            "--size", "64x64", "--headless", "--screenshot", png.string()});
  CHECK(r.status == 3);
  const auto errLines = lines(r.err);
  REQUIRE(errLines.size() == 1);
  CHECK(errLines[0].rfind("springlab: diverged at t = ", 0) == 0);
  CHECK(errLines[0].find(" s with euler: runaway") != std::string::npos);
  CHECK(std::filesystem::exists(png));  // the picture of the banner is still written
  // the same scene with its own integrator runs the 30 frames cleanly
  const auto ok = springlab({"cloth_16", "--frames", "30", "--size", "64x64", "--headless"});
  CHECK(ok.status == 0);
  CHECK(ok.err.empty());
}

TEST_CASE("app: the interactive window without a display fails with a message saying what to do") {
  using namespace testutil;
  const std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY '" + std::string(SPRINGLAB_BIN) +
                          "' cloth_16 > '" + (tempDir() / "nodisp.txt").string() + "' 2>&1";
  const int raw = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(raw) == 2);
  const std::string out = readFile(tempDir() / "nodisp.txt");
  CHECK(out.find("no display") != std::string::npos);
  CHECK(out.find("--screenshot") != std::string::npos);
}

#include "cli/options.hpp"

TEST_CASE("app: every window option of the help's table parses in both spellings") {
  // a value each option accepts and what ViewerOptions must then hold; every table entry needs
  // one, so an option added to the help cannot skip the parser (and the reverse: the parser
  // accepts only the table's names)
  using Check = std::function<bool(const app::ViewerOptions&)>;
  const std::map<std::string, std::pair<std::string, Check>> samples = {
      {"--integrator", {"verlet", [](const auto& o) { return o.session.integrator == "verlet"; }}},
      {"--dt", {"0.0025", [](const auto& o) { return o.session.dt == 0.0025; }}},
      {"--lanes",
       {"rk4,verlet@0.001", [](const auto& o) { return o.session.lanes == "rk4,verlet@0.001"; }}},
      {"--at",
       {"2:dt=0.01",
        [](const auto& o) { return o.session.at == std::vector<std::string>{"2:dt=0.01"}; }}},
      {"--size", {"640x360", [](const auto& o) { return o.width == 640 && o.height == 360; }}},
      {"--frames", {"12", [](const auto& o) { return o.frames == 12; }}},
      {"--screenshot", {"a.png", [](const auto& o) { return o.screenshot == "a.png"; }}},
      {"--no-ui", {"", [](const auto& o) { return o.no_ui; }}},
      {"--side-by-side", {"", [](const auto& o) { return o.side_by_side; }}},
      {"--stats", {"", [](const auto& o) { return o.stats; }}},
      {"--headless", {"", [](const auto& o) { return o.headless; }}},
  };
  for (const auto& spec : cli::windowOptions()) {
    const std::string name(spec.name);
    CAPTURE(name);
    REQUIRE(samples.count(name) == 1);
    const auto& [value, check] = samples.at(name);
    std::vector<std::string> separate{"cloth_16", name}, joined{"cloth_16", name};
    if (!value.empty()) separate.push_back(value), joined.back() += "=" + value;
    app::ViewerOptions a, b;
    std::string error;
    CHECK(app::parseViewerOptions(separate, a, error) == 0);
    CHECK(app::parseViewerOptions(joined, b, error) == 0);
    CHECK(error.empty());
    CHECK(check(a));
    CHECK(check(b));
    CHECK(a.scene == "cloth_16");
  }
  CHECK(samples.size() == cli::windowOptions().size());
  app::ViewerOptions o;
  std::string error;
  CHECK(app::parseViewerOptions({"--record-everything"}, o, error) == 2);
  CHECK(error == "unknown option --record-everything");
  CHECK(app::parseViewerOptions({"cloth_16", "rope_100"}, o, error) == 2);
  CHECK(error == "unexpected argument \"rope_100\" (one SCENE only)");
}

TEST_CASE("app: window options are validated") {
  using namespace testutil;
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"cloth_16", "--size", "12x7"},
                                             {"cloth_16", "--size", "abc"},
                                             {"cloth_16", "--frames", "0"},
                                             {"cloth_16", "--dt", "-1"},
                                             {"cloth_16", "--integrator", "implicit_midpoint"},
                                             {"cloth_16", "--bogus"},
                                             {"no_such_scene_anywhere"}}) {
    CAPTURE(args.back());
    const auto r = springlab(args);
    CHECK(r.status == 2);
    CHECK(lines(r.err).size() == 1);
  }
}

TEST_CASE("app: smoke test of the real GLFW window under xvfb-run") {
  // Decided here, not compiled out (docs/architecture.md#dependencies-and-platform-notes): the
  // test command installs xvfb and xauth.
  using namespace testutil;
  REQUIRE_MESSAGE(std::system("command -v xvfb-run >/dev/null 2>&1") == 0,
                  "xvfb-run is missing: install xvfb and xauth (bash scripts/install-deps.sh)");
  const auto png = tempDir() / "window.png";
  std::filesystem::remove(png);
  const std::string cmd = "xvfb-run -a -s '-screen 0 1024x768x24' '" + std::string(SPRINGLAB_BIN) +
                          "' cloth_16 --size 400x300 --frames 5 --screenshot '" + png.string() +
                          "' > '" + (tempDir() / "xvfb.txt").string() + "' 2>&1";
  const int raw = std::system(cmd.c_str());
  INFO(readFile(tempDir() / "xvfb.txt"));
  REQUIRE(WEXITSTATUS(raw) == 0);
  const std::string data = readFile(png);
  REQUIRE(data.size() > 1000);
  CHECK(data.substr(1, 3) == "PNG");
}

TEST_CASE("app: Ctrl+R in the real window records a clip and a second Ctrl+R saves it") {
  // xdotool types the keys into the window under Xvfb (the test command installs both)
  using namespace testutil;
  REQUIRE(std::system("command -v xvfb-run >/dev/null 2>&1 && command -v xdotool >/dev/null") == 0);
  const auto dir = tempDir() / "window_record";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "cfg");
  const auto script = writeFile("window_record.sh", R"(set -u
cd "$1"
XDG_CONFIG_HOME="$1/cfg" "$2" cloth_16 --size 400x300 &
pid=$!
id=$(timeout 20 xdotool search --sync --name '^springlab: ') || { kill $pid; exit 90; }
xdotool windowfocus --sync "$id"
sleep 1; xdotool key ctrl+r
sleep 3; xdotool key ctrl+r
sleep 1; xdotool key ctrl+q
timeout 20 tail --pid=$pid -f /dev/null || { kill $pid; exit 91; }
wait $pid
)");
  const std::string cmd = "xvfb-run -a -s '-screen 0 1024x768x24' bash '" + script.string() +
                          "' '" + dir.string() + "' '" + SPRINGLAB_BIN + "' > '" +
                          (dir / "log.txt").string() + "' 2>&1";
  const int raw = std::system(cmd.c_str());
  const std::string log = readFile(dir / "log.txt");
  INFO(log);
  REQUIRE(WEXITSTATUS(raw) == 0);
  std::vector<std::filesystem::path> clips;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".mp4") clips.push_back(e.path());
  REQUIRE(clips.size() == 1);
  CHECK(clips[0].filename().string().rfind("springlab-", 0) == 0);
  // the window's framebuffer size (even already), and every frame the window says it captured
  // (one per window frame while recording: how many depends on the machine's speed)
  FILE* p = popen(("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                   "stream=width,height,nb_read_frames -of csv=p=0 '" +
                   clips[0].string() + "'")
                      .c_str(),
                  "r");
  REQUIRE(p);
  int w = 0, h = 0, frames = 0;
  CHECK(std::fscanf(p, "%d,%d,%d", &w, &h, &frames) == 3);
  pclose(p);
  CHECK(w == 400);
  CHECK(h == 300);
  const auto said = log.find(clips[0].filename().string() + " (");
  REQUIRE(said != std::string::npos);
  const int captured = std::atoi(log.c_str() + said + clips[0].filename().string().size() + 2);
  CHECK(captured >= 2);
  CHECK(frames == captured);
}

#endif  // SPRINGLAB_VIEWER

#ifdef SPRINGLAB_VIEWER
#include "render/renderer.hpp"

TEST_CASE("app: the panel's strain legend uses the renderer's colour map") {
  for (double x : {-2.0, -1.0, -0.6, -0.25, -0.01, 0.0, 0.01, 0.3, 0.75, 1.0, 3.0}) {
    CAPTURE(x);
    const auto u = ui::strainColour(x);
    const glm::vec3 r = render::strainColor(static_cast<float>(0.05 * x), 0.05f);
    CHECK(u.r == doctest::Approx(r.r).epsilon(1e-5));
    CHECK(u.g == doctest::Approx(r.g).epsilon(1e-5));
    CHECK(u.b == doctest::Approx(r.b).epsilon(1e-5));
  }
}
#endif

#ifdef SPRINGLAB_VIEWER
TEST_CASE("app: a runaway that is still finite is reported in the viewer and pauses") {
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  REQUIRE(s.apply(ui::SetIntegrator{"euler"}, &msg));
  REQUIRE(s.apply(ui::SetDt{0.004}, &msg));
  bool reported = false;
  for (int i = 0; i < 400 && !reported; ++i) {
    if (!s.stepOnce()) break;
    s.sample();  // once per frame in the viewer
    reported = s.divergence().has_value();
  }
  REQUIRE(reported);
  CHECK(s.state().x.allFinite());  // finite, yet absurd
  CHECK(s.paused());
  CHECK(s.divergence()->what.find("runaway") != std::string::npos);
  CHECK(s.divergence()->body >= 0);
  // a sane run is never flagged
  app::Session ok;
  ok.load("cloth_16");
  for (int i = 0; i < 400; ++i) {
    REQUIRE(ok.stepOnce());
    ok.sample();
  }
  CHECK_FALSE(ok.divergence());
}
#endif

#ifdef SPRINGLAB_VIEWER
TEST_CASE("app: after Back 1 s the auto strain scale starts afresh from the restored state") {
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  for (int i = 0; i < 1000; ++i) REQUIRE(s.stepOnce());  // 0.5 s kept before the blow-up
  REQUIRE(s.apply(ui::SetIntegrator{"euler"}, &msg));
  REQUIRE(s.apply(ui::SetDt{0.004}, &msg));
  app::ViewBuilder vb;
  for (int i = 0; i < 400 && !s.divergence(); ++i) {
    if (!s.stepOnce()) break;
    s.sample();  // once per frame in the viewer, the view built each frame
    vb.build(s, false);
  }
  REQUIRE(s.divergence());
  const float blownUp = vb.autoStrainScale();
  REQUIRE(s.apply(ui::Rewind{}, &msg));
  vb.build(s, false);
  app::ViewBuilder fresh;
  fresh.build(s, false);
  CHECK(vb.autoStrainScale() == fresh.autoStrainScale());
  CHECK(vb.autoStrainScale() < blownUp);
}
#endif

#ifdef SPRINGLAB_VIEWER
TEST_CASE("app: trails follow the chosen bodies, oldest sample first") {
  app::Session s;
  s.load("seed004_double_pendulum");
  app::ViewBuilder vb;
  vb.build(s, true);
  CHECK(vb.trailBodies() == std::vector<int>{1});  // default: the last bob
  vb.toggleTrail(0);
  for (int f = 0; f < 5; ++f) {
    for (int i = 0; i < 10; ++i) REQUIRE(s.stepOnce());
    vb.build(s, true);
  }
  const auto& v = vb.build(s, false);
  REQUIRE(v.trail_lengths.size() == 2);
  CHECK(v.trail_lengths[0] == 6);  // 6 samples of bob 1
  CHECK(v.trail_lengths[1] == 5);  // 5 of bob 0 (added one frame later)
  // the newest sample of bob 0's trail is bob 0's current position (point 1)
  const size_t last = 3 * (6 + 5 - 1);
  for (int c = 0; c < 3; ++c) CHECK(v.trails[last + c] == v.positions[3 + c]);
  vb.toggleTrail(0);
  CHECK(vb.trailBodies() == std::vector<int>{1});
}
#endif

#ifdef SPRINGLAB_VIEWER
#include "app/mouse.hpp"

namespace {
// A session, its view and a framed camera, as the window has them (1280 x 720, the scene's
// viewport right of a 400 px panel).
struct MouseRig {
  app::Session session;
  app::ViewBuilder views;
  render::Camera camera;
  app::MouseControl mouse{camera, session, views};
  explicit MouseRig(const char* scene) {
    session.load(scene);
    const auto& v = views.build(session, false);
    camera.planar = v.planar;
    const app::Box box = app::boxOf(v.positions);
    camera.frame(box.lo, box.hi);
    mouse.setViewport(400, 880, 720);
  }
  glm::dvec2 pixelOfBody(int body) {
    const auto& v = views.build(session, false);
    const int p = app::ViewBuilder::pointOfBody(session, body);
    return mouse.project(
        glm::vec3(v.positions[3 * p], v.positions[3 * p + 1], v.positions[3 * p + 2]));
  }
};
using B = app::MouseControl::Button;
}  // namespace

TEST_CASE("app: left-drag orbits a 3-D scene, right-drag and Shift+left-drag pan") {
  MouseRig r("cloth_32_horizontal");
  REQUIRE_FALSE(r.camera.planar);
  const float yaw0 = r.camera.yaw;
  const glm::vec3 target0 = r.camera.target;
  r.mouse.press(B::Left, false, false, 800, 360, 0.0, false);
  r.mouse.move(900, 360);
  r.mouse.release(900, 360);
  CHECK(r.camera.yaw == doctest::Approx(yaw0 - 100 * app::MouseControl::kOrbitPerPixel));
  CHECK(r.camera.target == target0);  // orbiting keeps the centre
  for (bool right : {true, false}) {
    const glm::vec3 t0 = r.camera.target;
    r.mouse.press(right ? B::Right : B::Left, false, !right, 800, 360, 10.0, false);
    r.mouse.move(850, 400);
    r.mouse.release(850, 400);
    CHECK(glm::length(r.camera.target - t0) > 1e-3f);
  }
}

TEST_CASE("app: in a 2-D scene left-drag pans, and the wheel zooms toward the cursor") {
  MouseRig r("seed004_double_pendulum");
  REQUIRE(r.camera.planar);
  const glm::vec3 t0 = r.camera.target;
  r.mouse.press(B::Left, false, false, 700, 300, 0.0, false);
  r.mouse.move(760, 300);
  r.mouse.release(760, 300);
  CHECK(r.camera.target.x < t0.x);  // dragging right moves the scene right: the centre goes left
  // zoom: the world point under the cursor stays under it
  r.mouse.move(1000, 200);
  const glm::vec3 under = r.mouse.cursorOnPlane(1000, 200, r.camera.target);
  const float d0 = r.camera.distance;
  r.mouse.scroll(2.0, false);
  CHECK(r.camera.distance < d0);
  const glm::dvec2 px = r.mouse.project(under);
  CHECK(px.x == doctest::Approx(1000).epsilon(0.002));
  CHECK(px.y == doctest::Approx(200).epsilon(0.002));
}

TEST_CASE("app: presses the panel wants move nothing") {
  MouseRig r("cloth_32_horizontal");
  const render::Camera before = r.camera;
  r.mouse.press(B::Left, false, false, 100, 100, 0.0, true);
  r.mouse.move(300, 200);
  r.mouse.release(300, 200);
  r.mouse.scroll(3.0, true);
  CHECK(r.camera.yaw == before.yaw);
  CHECK(r.camera.distance == before.distance);
  CHECK(r.camera.target == before.target);
}

TEST_CASE("app: a double-click sets the orbit centre on the body under the cursor") {
  MouseRig r("seed004_double_pendulum");
  const glm::dvec2 p = r.pixelOfBody(1);
  r.mouse.press(B::Left, false, false, p.x, p.y, 5.0, false);
  r.mouse.release(p.x, p.y);
  r.mouse.press(B::Left, false, false, p.x, p.y, 5.2, false);
  r.mouse.release(p.x, p.y);
  // bob 1 at pivot + 2 (sin pi/2, -cos pi/2) + (sin pi/6, -cos pi/6)
  CHECK(r.camera.target.x == doctest::Approx(2.5).epsilon(1e-5));
  CHECK(r.camera.target.y == doctest::Approx(-std::cos(M_PI / 6)).epsilon(1e-5));
}

TEST_CASE(
    "app: Ctrl+left-drag grabs the nearest particle or bob and pulls it, and release lets go") {
  for (const char* scene : {"seed003_table1_case1", "seed004_double_pendulum"}) {
    CAPTURE(scene);
    MouseRig r(scene);
    const int body = 1;  // the spring pendulum's bob; the double pendulum's outer bob
    const glm::dvec2 p = r.pixelOfBody(body);
    r.mouse.press(B::Left, true, false, p.x + 5, p.y - 5, 0.0, false);
    REQUIRE(r.session.grabbed() == body);
    const double before = r.session.built().kind() == sim::SystemKind::Pendulum
                              ? r.session.built().pendulum()->grab_target.x()
                              : r.session.built().massSpring()->grab_target.x();
    r.mouse.move(p.x + 105, p.y - 5);  // drag right: the spring's target moves right
    const double after = r.session.built().kind() == sim::SystemKind::Pendulum
                             ? r.session.built().pendulum()->grab_target.x()
                             : r.session.built().massSpring()->grab_target.x();
    CHECK(after > before);
    r.mouse.release(p.x + 105, p.y - 5);
    CHECK(r.session.grabbed() == -1);
    // far from every body: no grab, and no orbit either
    const float yaw = r.camera.yaw;
    r.mouse.press(B::Left, true, false, 410, 5, 1.0, false);
    CHECK(r.session.grabbed() == -1);
    r.mouse.move(500, 50);
    CHECK(r.camera.yaw == yaw);
    r.mouse.release(500, 50);
  }
}
#endif

#ifdef SPRINGLAB_VIEWER
TEST_CASE(
    "app: paused, a drag on a bob places it at rest: the new initial state, Reset returns "
    "to it") {
  MouseRig r("pendulum_small_angle");  // one 1 m rod from the origin
  r.session.setPaused(true);
  const glm::dvec2 bob = r.pixelOfBody(0);
  // the point at 30 degrees on the rod's circle, and on its line twice as far: the same angle
  const double deg30 = std::numbers::pi / 6;
  const glm::dvec2 at30 =
      r.mouse.project(glm::vec3(float(2 * std::sin(deg30)), float(-2 * std::cos(deg30)), 0.0f));
  r.mouse.press(B::Left, false, false, bob.x + 3, bob.y - 3, 0.0, false);
  r.mouse.move(at30.x, at30.y);
  r.mouse.release(at30.x, at30.y);
  const sim::State& start = r.session.built().state;
  CHECK(start.x[0] == doctest::Approx(deg30).epsilon(1e-5));
  CHECK(start.v[0] == 0.0);
  CHECK(start.t == 0.0);
  CHECK(r.session.time() == 0.0);
  CHECK(r.session.state().x == start.x);
  // it runs from there, and Reset comes back to it
  r.session.setPaused(false);
  for (int k = 0; k < 200; ++k) REQUIRE(r.session.stepOnce());
  CHECK(r.session.state().x[0] < start.x[0]);  // released, it swings down
  std::string msg;
  REQUIRE(r.session.apply(ui::Reset{}, &msg));
  CHECK(r.session.state().x == start.x);
  CHECK(r.session.state().v == start.v);
  // running, the same drag orbits (pans a planar view) and places nothing
  const glm::vec3 target = r.camera.target;
  const glm::dvec2 now = r.pixelOfBody(0);
  r.mouse.press(B::Left, false, false, now.x, now.y, 5.0, false);
  r.mouse.move(now.x + 80, now.y);
  r.mouse.release(now.x + 80, now.y);
  CHECK(r.camera.target != target);
  CHECK(r.session.built().state.x == start.x);
}

TEST_CASE(
    "app: paused, a drag on a particle moves it in its plane, and off the body the drag pans") {
  MouseRig r("seed002_harmonic_oscillator");  // planar: the fixture at (0, 10), the bob at (0, 3)
  r.session.setPaused(true);
  // 30 px off the bob: not on it, the view pans and the state stays
  const glm::dvec2 bob = r.pixelOfBody(1);
  const sim::State before = r.session.built().state;
  r.mouse.press(B::Left, false, false, bob.x + 30, bob.y, 0.0, false);
  r.mouse.move(bob.x + 60, bob.y);
  r.mouse.release(bob.x + 60, bob.y);
  CHECK(r.session.built().state.x == before.x);
  // on it: the bob goes to (1, 4), z stays exactly 0, at rest
  const glm::dvec2 p = r.pixelOfBody(1);
  const glm::dvec2 to = r.mouse.project(glm::vec3(1.0f, 4.0f, 0.0f));
  r.mouse.press(B::Left, false, false, p.x, p.y, 1.0, false);
  r.mouse.move(to.x, to.y);
  r.mouse.release(to.x, to.y);
  const sim::State& start = r.session.built().state;
  CHECK(start.x[3] == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(start.x[4] == doctest::Approx(4.0).epsilon(1e-4));
  CHECK(start.x[5] == 0.0);
  CHECK(start.x.head(3) == before.x.head(3));  // the fixture stays
  CHECK(start.v.isZero());
}
#endif

#ifdef SPRINGLAB_VIEWER
#include "scene/catalog.hpp"

TEST_CASE(
    "app: every built-in scene runs as in the window without a false banner (the 4 largest for a "
    "capped share)") {
  // Work, in body-steps weighted by the integrator's order (rk4 evaluates forces 4 times a
  // step). Over their whole duration the large scenes would take minutes in a test (rope_1000
  // ~18 s, cloth_256 ~5 min): a scene within kWholeRun runs whole (cloth_32 included); cloth_64,
  // cloth_128, cloth_256 and rope_1000 run for kCappedRun / work steps, and at least one frame's
  // (the first sample, where the runaway rule first applies).
  constexpr double kWholeRun = 4.1e7, kCappedRun = 1.5e7;
  for (const std::string& name : scene::builtinNames()) {
    CAPTURE(name);
    app::Session s;
    s.load(name);
    // xpbd's step is substeps x iterations sweeps, projective's as many solves (a pendulum has
    // neither: the table gives it their neutral 1)
    const auto& sys = s.built();
    const bool iterated = sim::info(s.method()).iterated;
    const double sweeps = iterated ? sys.parameter(sim::Parameter::Substeps) *
                                         sys.parameter(sim::Parameter::Iterations)
                                   : 1.0;
    const double work =
        s.built().bodies() * double(s.built().properties(s.method()).order) * sweeps;
    const auto total = static_cast<long long>(std::llround(s.def().duration / s.dt()));
    const auto oneFrame = static_cast<long long>(std::ceil(1.0 / 60.0 / s.dt()));
    const long long cap = total * work <= kWholeRun
                              ? total
                              : std::max(oneFrame, static_cast<long long>(kCappedRun / work));
    const double reached = runLikeTheWindow(s, s.def().duration, std::min(total, cap));
    CHECK_MESSAGE(!s.divergence(), (s.divergence() ? s.divergence()->message() : ""));
    if (cap >= total) CHECK(reached == doctest::Approx(s.def().duration).epsilon(1e-9));
  }
  // the window runs past a scene's duration: rope_100 (2 s) used to raise a false runaway at
  // t = 3.117 s, its energy scaled by an E0 near 0
  app::Session rope;
  rope.load("rope_100");
  CHECK(runLikeTheWindow(rope, 4.0, 1000000) == doctest::Approx(4.0));
  CHECK_MESSAGE(!rope.divergence(), (rope.divergence() ? rope.divergence()->message() : ""));
}

TEST_CASE("app: exploding runs still raise the banner, finite runaways included") {
  struct Case {
    const char* scene;
    const char* integrator;
    double dt, duration;
    bool finite;  // the banner comes from the runaway rule, the state still finite
  };
  for (const Case& c : {Case{"cloth_16", "euler", 0.004, 2.0, false},
                        Case{"cloth_32", "time_fe", 0.004, 1.1, true}}) {
    CAPTURE(c.scene);
    app::Session s;
    s.load(c.scene);
    std::string msg;
    REQUIRE(s.apply(ui::SetIntegrator{c.integrator}, &msg));
    REQUIRE(s.apply(ui::SetDt{c.dt}, &msg));
    runLikeTheWindow(s, c.duration, 1000000);
    REQUIRE(s.divergence());
    CHECK(s.paused());
    if (c.finite) {
      CHECK(s.state().x.allFinite());
      CHECK(s.divergence()->what.find("runaway") != std::string::npos);
    }
  }
}

TEST_CASE("app: after a divergence the window draws the last checked state, its culprit marked") {
  struct Case {
    const char* scene;
    const char* integrator;
    double dt, duration;
    const char* what;  // the report's start
  };
  for (const Case& c :
       {Case{"cloth_16", "euler", 0.004, 2.0, ""},
        // a torn cloth: xpbd at 1/60 s and 1 substep cannot hold cloth_32 (run's warning: t =
        // 0.483 s); its automatic substeps would
        Case{"cloth_32", "xpbd", 1.0 / 60.0, 2.0, "runaway: torn: spring "},
        Case{"cloth_32", "time_fe", 0.004, 1.1, "runaway: torn: spring "},
        Case{"seed004_fig6b", "euler", 0.05, 3.0, "runaway: the energy went from "}}) {
    const std::string scene = c.scene, integrator = c.integrator;
    CAPTURE(scene);
    CAPTURE(integrator);
    app::Session s;
    s.load(c.scene);
    std::string msg;
    REQUIRE(s.apply(ui::SetIntegrator{c.integrator}, &msg));
    REQUIRE(s.apply(ui::SetDt{c.dt}, &msg));
    if (integrator == "xpbd")
      REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::Substeps), 1.0}, &msg));
    // the window's frames at 60 Hz: steps, each followed by a check where one is due
    // (Session::kRunawayCheckSpacing of simulated time since the last), then one check
    // (Session::sample); the state that each passing check saw is the last checked one
    sim::State checked = s.state();
    double lastCheck = 0.0, lastPlotted = -1.0;  // s; the plots take a point at each sample
    for (int frame = 1; frame / 60.0 <= c.duration && !s.divergence(); ++frame) {
      while (s.state().t + 0.5 * s.dt() <= frame / 60.0) {
        // the check, when due, is on the state the step starts from
        const bool due = std::abs(s.time() - lastCheck) >= app::Timeline::kRunawayCheckSpacing;
        const sim::State before = s.state();
        if (due) lastCheck = s.time();
        const bool stepped = s.stepOnce();
        if (due && !(s.divergence() && s.divergence()->t == before.t)) checked = before;
        if (!stepped) break;
      }
      const sim::State now = s.state();
      const bool alive = !s.divergence();
      s.sample();
      lastCheck = s.time();
      if (!s.divergence()) checked = now;
      if (alive && !s.divergence()) lastPlotted = now.t;
    }
    REQUIRE(s.divergence());
    CHECK(s.divergence()->what.rfind(c.what, 0) == 0);
    REQUIRE(checked.x.allFinite());
    CHECK(checked.t < s.divergence()->t);
    CHECK(s.primary().shownState().x == checked.x);
    CHECK(s.primary().shownState().t == checked.t);
    // what is drawn is that state, with the culprit (both particles of a torn spring) marked
    app::ViewBuilder views;
    const render::SceneView& view = views.build(s, false);
    std::vector<float> expected;
    Eigen::VectorXd scratch;
    s.built().pointPositions(checked, expected, scratch);
    CHECK(std::vector<float>(view.positions.begin(), view.positions.end()) == expected);
    const sim::Divergence& d = *s.divergence();
    REQUIRE(d.body >= 0);
    for (const int body : {d.body, d.other_body})
      if (body >= 0)
        CHECK((view.flags[s.built().pointOfBody(body)] & render::kPointHighlight) != 0);
    CHECK((d.other_body >= 0) == (d.what.find("torn") != std::string::npos));
    // the panel's energies are those of the state shown, finite: never "K inf J"
    ui::PanelModel pm;
    s.fillPanel(pm);
    // the plots end at the last sample before the divergence, never after the state shown
    if (lastPlotted > 0.0) {
      REQUIRE(!pm.plots.total.empty());
      CHECK(pm.plots.energy_time.back() == doctest::Approx(lastPlotted).epsilon(1e-6));
      CHECK(pm.plots.energy_time.back() <= checked.t + 1e-6);  // a float
      CHECK(std::isfinite(pm.plots.total.back()));
      if (lastPlotted == checked.t)
        CHECK(pm.plots.total.back() == static_cast<float>(s.built().energy(checked).total()));
    } else {
      CHECK(pm.plots.total.empty());  // caught before the first frame's sample: nothing plotted
    }
    char shown[64];
    std::snprintf(shown, sizeof shown, ". Shown: the last checked state, t = %.6g s", checked.t);
    CHECK(pm.clock.divergence.find(shown) != std::string::npos);
  }
}
#endif

#ifdef SPRINGLAB_VIEWER
#include "app/framing.hpp"

namespace {
// true when every body of the view projects inside the scene viewport
bool allInView(const app::MouseControl& mouse, const render::SceneView& v, int x0, int w, int h) {
  for (size_t i = 0; i + 2 < v.positions.size(); i += 3) {
    const glm::dvec2 p =
        mouse.project(glm::vec3(v.positions[i], v.positions[i + 1], v.positions[i + 2]));
    if (p.x < x0 || p.x > x0 + w || p.y < 0 || p.y > h) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("app: framing keeps the motion in the viewport right of the panel") {
  // a viewport narrower than high: the panel takes 400 of 1000 px
  constexpr int kX0 = 400, kW = 600, kH = 720;
  for (const char* scene : {"seed003_table4_wide_angle", "seed002_elastic_pendulum",
                            "seed004_fig6b", "seed000_closed_loop"}) {
    CAPTURE(scene);
    app::Session s;
    s.load(scene);
    app::ViewBuilder views;
    render::Camera camera;
    app::MouseControl mouse(camera, s, views);
    mouse.setViewport(kX0, kW, kH);
    app::SceneFraming framing;
    const scene::Built& b = s.built();
    framing.reset(app::reachBox(b.skeleton(b.state, false)));
    bool inView = true;
    const double end = std::min(15.0, s.def().duration);
    for (int f = 1; f <= 60 * end; ++f) {
      while (s.state().t + 0.5 * s.dt() <= f / 60.0) REQUIRE(s.stepOnce());
      const auto& v = views.build(s, false);
      camera.planar = v.planar;
      framing.update(camera, v.positions, float(kW) / kH, false);
      inView = inView && allInView(mouse, v, kX0, kW, kH);
    }
    CHECK(inView);
    if (b.kind() == sim::SystemKind::Pendulum) {  // the whole reach from the first frame on
      const app::Box reach = app::reachBox(b.skeleton(b.state, false));
      for (const glm::vec3& corner : {reach.lo, reach.hi}) {
        const glm::dvec2 p = mouse.project(corner);
        CHECK(p.x >= kX0);
        CHECK(p.x <= kX0 + kW);
      }
    }
  }
}

TEST_CASE("app: framing leaves a camera the user moved alone, and follow re-centres") {
  app::Session s;
  s.load("cloth_32_horizontal");
  app::ViewBuilder views;
  render::Camera camera;
  app::SceneFraming framing;
  framing.reset(app::Box{});
  const auto& v0 = views.build(s, false);
  framing.update(camera, v0.positions, 1.5f, false);
  const float d0 = camera.distance;
  camera.orbit(0.3f, 0.0f);  // the user orbits
  const render::Camera moved = camera;
  for (int i = 0; i < 4000; ++i) REQUIRE(s.stepOnce());  // 1 s: the cloth falls
  const auto& v1 = views.build(s, false);
  framing.update(camera, v1.positions, 1.5f, false);
  CHECK(camera.distance == moved.distance);
  CHECK(camera.target == moved.target);
  // follow: the target is the bodies' centre, the zoom stays
  framing.update(camera, v1.positions, 1.5f, true);
  CHECK(camera.target == app::boxOf(v1.positions).centre());
  CHECK(camera.distance == moved.distance);
  // a reset frames afresh
  framing.reset(app::Box{});
  framing.update(camera, v1.positions, 1.5f, false);
  CHECK(camera.distance != moved.distance);
  CHECK(d0 > 0.0f);
}
#endif

#ifdef SPRINGLAB_VIEWER
TEST_CASE("app: the first window opens on a scene that moves in 3-D") {
  app::Session s;
  s.load(app::ViewerOptions{}.scene);
  app::ViewBuilder views;
  CHECK_FALSE(views.build(s, false).planar);
  const Eigen::VectorXd x0 = s.state().x;
  for (int i = 0; i < 400; ++i) REQUIRE(s.stepOnce());  // 0.1 s
  double moved = 0.0;
  for (Eigen::Index i = 1; i < x0.size(); i += 3) moved = std::max(moved, x0[i] - s.state().x[i]);
  CHECK(moved > 0.01);  // m: it sags out of its initial plane
}

TEST_CASE("app: SIGTERM ends the window like closing it, and the preferences are saved") {
  using namespace testutil;
  REQUIRE(std::system("command -v xvfb-run >/dev/null 2>&1") == 0);
  const auto config = tempDir() / "sigterm-config";
  std::filesystem::remove_all(config);
  const std::string cmd = "XDG_CONFIG_HOME='" + config.string() +
                          "' xvfb-run -a -s '-screen 0 800x600x24' sh -c \"'" +
                          std::string(SPRINGLAB_BIN) +
                          "' seed004_double_pendulum --size 320x240 & pid=\\$!; sleep 3; "
                          "kill -TERM \\$pid; wait \\$pid; echo status \\$?\" > '" +
                          (tempDir() / "sigterm.txt").string() + "' 2>&1";
  std::system(cmd.c_str());
  const std::string out = readFile(tempDir() / "sigterm.txt");
  INFO(out);
  CHECK(out.find("status 0") != std::string::npos);
  const std::string prefs = readFile(config / "springlab" / "prefs.ini");
  CHECK(prefs.find("scene=seed004_double_pendulum") != std::string::npos);
  CHECK(prefs.find("window=320x240") != std::string::npos);
}
#endif

#ifdef SPRINGLAB_VIEWER
#include "app/key_table.hpp"
#include "app/prefs.hpp"

TEST_CASE("app: the window's key table and the help's bindings agree") {
  std::string mismatches;
  for (const auto& m : app::keyBindingMismatches()) mismatches.append(m).append("; ");
  CHECK_MESSAGE(mismatches.empty(), mismatches);
}

TEST_CASE("app: preferences: every value is checked, a damaged line changes nothing") {
  app::Prefs p;
  for (const char* line : {"window=12x7", "window=abc", "ui_scale=9", "ui_scale=nan",
                           "camera=1 2 3 -1 0 0", "camera=1 2 nan 3 0 0", "camera=1 2", "junk"})
    p.parseLine(line);
  CHECK(p.width == 0);
  CHECK(p.ui_scale == 0.0f);
  CHECK_FALSE(p.camera);
  for (const char* line :
       {"window=800x600", "ui_scale=1.5", "camera=1 2 3 4 0.5 0.25", "scene=seed004_fig6b"})
    p.parseLine(line);
  CHECK(p.width == 800);
  CHECK(p.height == 600);
  CHECK(p.ui_scale == 1.5f);
  REQUIRE(p.camera);
  CHECK(p.cam[3] == 4.0f);
  CHECK(p.scene == "seed004_fig6b");
}

TEST_CASE("app: preferences: history_mb is kept from 1 to 16384 MB, no more on a 24 GiB machine") {
  app::Prefs p;
  for (const char* line : {"history_mb=16385", "history_mb=65536", "history_mb=0.5"})
    p.parseLine(line);
  CHECK(p.history_mb == app::Prefs::kDefaultHistoryMb);
  p.parseLine("history_mb=16384");
  CHECK(p.history_mb == 16384.0);
  p.parseLine("history_mb=1");
  CHECK(p.history_mb == 1.0);
}

TEST_CASE("app: preferences keep only a window size that fits the screen") {
  app::Prefs p;
  p.keepWindowSize(1280, 720, 1920, 1080);
  CHECK(p.width == 1280);
  CHECK(p.height == 720);
  p.keepWindowSize(16000, 9000, 1920, 1080);  // --size 16000x9000: the kept size stays
  CHECK(p.width == 1280);
  CHECK(p.height == 720);
  p.keepWindowSize(1920, 1200, 1920, 1080);  // too tall
  CHECK(p.height == 720);
  p.keepWindowSize(1920, 1080, 1920, 1080);  // the whole screen fits
  CHECK(p.width == 1920);
  p.keepWindowSize(800, 600, 0, 0);  // no screen known: nothing new is kept
  CHECK(p.width == 1920);
  // a size from a damaged or older file that does not fit this screen goes
  app::Prefs old;
  old.parseLine("window=16000x9000");
  REQUIRE(old.width == 16000);
  old.keepWindowSize(16000, 9000, 1920, 1080);
  CHECK(old.width == 0);
  CHECK(old.height == 0);
}
#endif

#ifdef SPRINGLAB_VIEWER
#include "app/wind_streaks.hpp"

TEST_CASE("app: wind streaks lie along the wind, move with it, fade in and out, stay in the box") {
  app::StreakBox box;
  for (int k = 0; k < 3; ++k) box.lo[k] = -1.0, box.hi[k] = 1.0 + k;
  const double wind[3] = {3.0, 0.0, 4.0}, calm[3] = {0.0, 0.0, 0.0};
  std::vector<float> now, later;
  app::windStreaks(box, calm, 1.0, now);
  CHECK(now.empty());
  const double diagonal = std::sqrt(4.0 + 9.0 + 16.0), speed = 5.0;
  const double length = std::min(speed * app::kStreakSeconds, app::kStreakMaxOfBox * diagonal);
  const double t = 0.37, later_t = t + 0.01;
  app::windStreaks(box, wind, t, now);
  app::windStreaks(box, wind, later_t, later);
  REQUIRE(now.size() == 8u * app::kWindStreaks);
  REQUIRE(later.size() == now.size());
  int moved = 0;
  for (int i = 0; i < app::kWindStreaks; ++i) {
    const float* tail = &now[8 * i];
    const float* head = tail + 4;
    const float* head2 = &later[8 * i + 4];
    CAPTURE(i);
    CHECK(tail[3] == 0.0f);
    // alpha sin(pi s) at the fraction s of the way across: never above kStreakAlpha
    CHECK(head[3] >= 0.0f);
    CHECK(head[3] <= app::kStreakAlpha);
    for (int k = 0; k < 3; ++k)
      CHECK(head[k] - tail[k] == doctest::Approx(wind[k] / speed * length).epsilon(1e-5));
    // the head's place along the wind, from the box's centre: within half the diagonal
    double along = 0.0;
    for (int k = 0; k < 3; ++k)
      along += (head[k] - 0.5 * (box.lo[k] + box.hi[k])) * wind[k] / speed;
    CHECK(std::abs(along) <= 0.5 * diagonal + 1e-5);
    // 0.01 s later the air moved 0.05 m along the wind (unless the streak started again)
    const double dx = head2[0] - head[0], dz = head2[2] - head[2];
    if (std::abs(dx - 0.03) < 1e-5 && std::abs(dz - 0.04) < 1e-5) ++moved;
  }
  // a streak restarts once per diagonal / speed = 1.08 s: in 0.01 s, about 1 in 108 of them
  CHECK(moved >= app::kWindStreaks - 3);
  app::windStreaks(box, wind, NAN, now);
  CHECK(now.empty());
}

TEST_CASE("app: the panel's wind reaches the system, and the view draws it where the drag acts") {
  app::Session s;
  s.load("cloth_in_wind");
  CHECK(s.built().massSpring()->wind == sim::Vec3(3, 0, 3));
  std::string msg;
  REQUIRE(s.apply(wind(-5.0, 0.0, 1.0), &msg));
  CHECK(s.built().massSpring()->wind == sim::Vec3(-5, 0, 1));
  CHECK(s.currentDef().parameters.vector(sim::Parameter::Wind) ==
        sim::Vec3(-5, 0, 1));  // the lab's jobs see it
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(controlOf(pm, sim::Parameter::Wind));
  CHECK(controlOf(pm, sim::Parameter::Wind)->vec[0] == -5.0);
  CHECK(controlOf(pm, sim::Parameter::Wind)->vec[2] == 1.0);
  app::ViewBuilder vb;
  const render::SceneView& v = vb.build(s, false);
  REQUIRE(v.wind_streaks.size() == 8u * app::kWindStreaks);
  // streaks along the new wind
  const float* e = v.wind_streaks.data();
  const float dx = e[4] - e[0], dz = e[6] - e[2];
  CHECK(e[5] - e[1] == doctest::Approx(0.0f).epsilon(1e-6));
  CHECK(dx / dz == doctest::Approx(-5.0f).epsilon(1e-4));
  CHECK_FALSE(s.apply(wind(NAN, 0.0, 1.0), &msg));
  CHECK(msg == "wind: not a finite vector");
  // no drag, no wind felt: nothing drawn
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::Drag), 0.0}, &msg));
  CHECK(vb.build(s, false).wind_streaks.empty());
  // a pendulum has no wind
  s.load("seed004_fig5a");
  CHECK_FALSE(s.apply(wind(1.0, 0.0, 1.0), &msg));
  CHECK(msg == "wind: not modelled for pendulums");
}
#endif

#ifdef SPRINGLAB_VIEWER
#include <GLFW/glfw3.h>

#include "app/frame_driver.hpp"
#include "app/key_table.hpp"
#include "scene/edit.hpp"

TEST_CASE("app: Ctrl+S saves the scene as it starts now, and springlab run loads it the same") {
  using namespace testutil;
  const auto dir = tempDir() / "ctrl_s";
  std::filesystem::create_directories(dir);
  app::FrameDriver d;
  d.session().load("seed003_table1_case1");
  std::string msg;
  for (const ui::SessionCommand& c :
       {ui::SessionCommand{ui::SetParameter{int(sim::Parameter::StiffnessScale), 4.0}},
        ui::SessionCommand{ui::SetParameter{int(sim::Parameter::Drag), 0.5}},
        ui::SessionCommand{ui::SetIntegrator{"verlet"}}, ui::SessionCommand{ui::SetDt{0.0005}}})
    REQUIRE_MESSAGE(d.session().apply(c, &msg), msg);
  for (int i = 0; i < 100; ++i) REQUIRE(d.session().stepOnce());  // saved: the initial state
  // Ctrl+S with no path typed: "SCENE-edited.json" in the current folder
  std::vector<ui::Command> commands;
  app::onKeyPress(d, GLFW_KEY_S, /*ctrl=*/true, /*shift=*/false, commands);
  REQUIRE(commands.size() == 1);
  REQUIRE(ui::commandAs<ui::SaveScene>(commands[0]) != nullptr);
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  d.applyCommand(commands[0]);
  std::filesystem::current_path(cwd);
  CHECK(d.status() == "saved seed003_table1_case1-edited.json");
  CHECK_FALSE(d.statusError());
  const auto saved = dir / "seed003_table1_case1-edited.json";
  REQUIRE(std::filesystem::exists(saved));
  // run loads it to the scene with those settings: the same rows, digit for digit, as the
  // built-in scene with the same changes given as options and events at t = 0
  const RunResult fromFile = springlab({"run", saved.string(), "--duration", "0.5", "--out", "-"});
  REQUIRE_MESSAGE(fromFile.status == 0, fromFile.err);
  const RunResult fromOptions =
      springlab({"run", "seed003_table1_case1", "--integrator", "verlet", "--dt", "0.0005", "--at",
                 "0:stiffness_scale=4", "--at", "0:drag=0.5", "--duration", "0.5", "--out", "-"});
  REQUIRE_MESSAGE(fromOptions.status == 0, fromOptions.err);
  CHECK(lines(fromFile.out).size() == 1002);
  CHECK(fromFile.out == fromOptions.out);
  // a place that cannot be written: the status line says why, in one line
  const std::string bad = (dir / "no_such_folder" / "x.json").string();
  d.applyCommand(ui::SaveScene{bad});
  CHECK(d.status() == bad + ": cannot open for writing: No such file or directory");
  CHECK(d.statusError());
}

namespace {
// A driver on a new scene (scene::newScene: one anchor at the origin) in edit mode, its camera
// on the plane around it, in a 1280 x 720 window whose panel takes the left 400 px.
struct EditRig {
  app::FrameDriver d;
  EditRig() {
    d.session().load("pendulum_small_angle");
    std::vector<ui::Command> commands;
    app::onKeyPress(d, GLFW_KEY_N, /*ctrl=*/true, /*shift=*/false, commands);  // File: New
    REQUIRE(commands.size() == 1);
    d.applyCommand(commands[0]);
    d.camera().planar = true;
    d.camera().frame(glm::vec3(-2.0f, -3.0f, 0.0f), glm::vec3(2.0f, 1.0f, 0.0f));
    d.mouse().setViewport(400, 880, 720);
  }
  glm::dvec2 pixel(double x, double y) {
    return d.mouse().project(glm::vec3(float(x), float(y), 0.0f));
  }
  void click(double x, double y, bool shift = false) {
    const glm::dvec2 p = pixel(x, y);
    d.mouse().press(B::Left, false, shift, p.x, p.y, time += 1.0, false);
    d.mouse().release(p.x, p.y);
  }
  void drag(double x0, double y0, double x1, double y1) {
    const glm::dvec2 a = pixel(x0, y0), b = pixel(x1, y1);
    d.mouse().press(B::Left, false, false, a.x, a.y, time += 1.0, false);
    d.mouse().move(0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
    d.mouse().release(b.x, b.y);
  }
  void key(int glfwKey, bool ctrl = false, bool shift = false) {
    std::vector<ui::Command> commands;
    app::onKeyPress(d, glfwKey, ctrl, shift, commands);
    REQUIRE(commands.size() == 1);
    d.applyCommand(commands[0]);
  }
  const sim::MassSpringModel& model() { return *d.session().built().massSpring(); }
  double time = 0.0;  // s, the clicks' (none is a double-click)
};
}  // namespace

TEST_CASE(
    "app: edit mode: three particles and two springs by mouse, a pin, undo twice, redo "
    "once, save, and springlab run steps it the same") {
  using namespace testutil;
  EditRig r;
  app::Session& s = r.d.session();
  REQUIRE(s.editor().editing());
  REQUIRE(s.paused());
  REQUIRE(r.model().particles() == 1);
  CHECK(s.sceneName() == "New scene");
  CHECK(s.scene().savePath() == "new_scene-edited.json");
  // E leaves edit mode and enters it again
  r.key(GLFW_KEY_E);
  CHECK_FALSE(s.editor().editing());
  r.key(GLFW_KEY_E);
  REQUIRE(s.editor().editing());
  // a click on empty space: a particle there
  r.click(0.0, -1.0);
  r.click(0.0, -2.0);
  r.click(1.0, -2.5);
  REQUIRE(r.model().particles() == 4);
  CHECK(s.built().state.x[3 * 2 + 1] == doctest::Approx(-2.0).epsilon(1e-4));
  CHECK(s.built().state.x[3 * 3 + 2] == 0.0);  // the plane stays the plane
  // body to body: a spring at rest at their distance, with the new-spring settings
  r.drag(0.0, 0.0, 0.0, -1.0);
  // while the second spring is dragged, a line runs from its body to the cursor
  const glm::dvec2 from = r.pixel(0.0, -1.0), to = r.pixel(0.7, -1.5);
  r.d.mouse().press(B::Left, false, false, from.x, from.y, r.time += 1.0, false);
  r.d.mouse().move(to.x, to.y);
  const auto& guide = r.d.views().build(s, false).grab_line;
  REQUIRE(guide.size() == 6);
  CHECK(guide[1] == doctest::Approx(-1.0).epsilon(1e-4));
  CHECK(guide[3] == doctest::Approx(0.7).epsilon(1e-4));
  const glm::dvec2 end = r.pixel(0.0, -2.0);
  r.d.mouse().move(end.x, end.y);
  r.d.mouse().release(end.x, end.y);
  CHECK(r.d.views().build(s, false).grab_line.empty());
  REQUIRE(r.model().spring_a.size() == 2);
  CHECK(r.model().rest_length[1] == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(r.model().stiffness[0] == ui::SetNewSpring{}.stiffness);
  // a click on a body selects it, P pins it
  r.click(1.0, -2.5);
  CHECK(s.editor().selection() == std::vector<int>{3});
  r.key(GLFW_KEY_P);
  CHECK(r.model().inv_mass[3] == 0.0);
  CHECK(s.editor().undoDepth() ==
        7);  // New (back to the scene before), 3 particles, 2 springs, 1 pin
  // undo twice (the pin, the second spring), redo once (the spring)
  r.key(GLFW_KEY_Z, true);
  r.key(GLFW_KEY_Z, true);
  CHECK(r.model().spring_a.size() == 1);
  CHECK(r.model().inv_mass[3] > 0.0);
  r.key(GLFW_KEY_Z, true, true);
  CHECK(r.model().spring_a.size() == 2);
  CHECK(r.model().inv_mass[3] > 0.0);
  CHECK(s.editor().redoDepth() == 1);
  // save, and run loads it: the rows are the window's own steps, digit for digit
  const auto dir = tempDir() / "edit_mode";
  std::filesystem::create_directories(dir);
  const std::string saved = (dir / "built.json").string();
  r.d.applyCommand(ui::SaveScene{saved});
  REQUIRE(std::filesystem::exists(saved));
  const RunResult run = springlab({"run", saved, "--duration", "0.5", "--out", "-"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  r.key(GLFW_KEY_SPACE);  // running again leaves edit mode
  CHECK_FALSE(s.editor().editing());
  for (int k = 0; k < 500; ++k) REQUIRE(s.stepOnce());
  const std::vector<std::vector<double>> rows = csvRows(run.out);
  REQUIRE(rows.size() == 501);
  CHECK(rows.back()[0] == s.time());
  for (int j = 0; j < 12; ++j) CHECK(rows.back()[size_t(j + 1)] == s.state().x[j]);
  // the hanging pair fell and swings; the free particle without a spring fell freely
  CHECK(s.state().x[3 * 3 + 1] == doctest::Approx(-2.5 - 0.5 * 9.81 * 0.25).epsilon(1e-9));
}

TEST_CASE(
    "app: edit mode refuses a spring to itself, one of no length and a massless particle, "
    "and says why") {
  EditRig r;
  app::Session& s = r.d.session();
  r.click(0.0, -1.0);
  std::string msg;
  CHECK_FALSE(s.apply(ui::EditAddSpring{1, 1}, &msg));
  CHECK(msg == "a spring needs two different particles, not particle 1 to itself");
  CHECK(s.editor().message() == msg);
  REQUIRE(s.apply(ui::EditAddParticle{{0.0, -1.0, 0.0}}, &msg));
  CHECK_FALSE(s.apply(ui::EditAddSpring{1, 2}, &msg));
  CHECK(msg == "particles 1 and 2 are in one place: a spring of no length has no direction");
  CHECK_FALSE(s.apply(ui::SetNewSpring{100.0, 0.0, 0.0}, &msg));
  CHECK(msg == "new spring: stiffness and mass must be > 0, damping >= 0");
  CHECK_FALSE(s.apply(ui::EditSetMass{1, -1.0}, &msg));
  CHECK(msg == "a particle's mass must be a finite number > 0, not -1");
  CHECK_FALSE(s.apply(ui::EditSetMass{1, std::nan("")}, &msg));
  CHECK(msg == "a particle's mass must be a finite number > 0, not nan");
  CHECK(r.model().spring_a.empty());   // nothing refused left a trace
  CHECK(s.editor().undoDepth() == 3);  // New, 2 particles
  // the status line of the window says it too
  r.d.applyCommand(ui::EditAddSpring{1, 1});
  CHECK(r.d.status() == "a spring needs two different particles, not particle 1 to itself");
  CHECK(r.d.statusError());
  // the last particle cannot go: the loader takes no empty system
  r.click(0.0, 0.0);
  r.click(0.0, -1.0, true);
  r.click(0.0, -1.0 + 1e-9, true);  // Shift on a selected body takes it out
  CHECK(s.editor().selection() == std::vector<int>{0});
  REQUIRE(s.apply(ui::EditDelete{}, &msg));
  CHECK(r.model().particles() == 2);
}

TEST_CASE("app: an edit that makes the current dt unstable shows on the limit line before Run") {
  EditRig r;
  app::Session& s = r.d.session();
  r.click(0.0, -1.0);
  std::string msg;
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.measure.dt_limit == 0.0);  // a free particle: nothing oscillates, no limit
  // a spring of 1e7 N/m on 1 kg: omega = 3162 rad/s, rk4's limit 2 sqrt(2) / omega = 0.89 ms,
  // below the scene's 1 ms
  REQUIRE(s.apply(ui::SetNewSpring{1e7, 0.0, 1.0}, &msg));
  r.drag(0.0, 0.0, 0.0, -1.0);
  REQUIRE(r.model().spring_a.size() == 1);
  REQUIRE(s.paused());
  s.fillPanel(pm);
  CHECK(pm.measure.dt_limit ==
        doctest::Approx(2.0 * std::sqrt(2.0) / std::sqrt(1e7)).epsilon(1e-6));
  REQUIRE(pm.lanes.rows.size() == 1);
  CHECK(pm.measure.lanes[0].dt_over_limit > 1.0);
}

TEST_CASE("app: edit mode's tools put a chain, a cloth patch, a jelly box or a mesh at the click") {
  EditRig r;
  app::Session& s = r.d.session();
  std::string msg;
  const auto counts = [&] {
    return std::pair{r.model().particles(), static_cast<int>(r.model().spring_a.size())};
  };
  REQUIRE(s.apply(ui::SetNewSpring{500.0, 0.1, 2.0}, &msg));
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Chain), ""}, &msg));
  r.click(-1.0, 0.0);  // a fixed pivot and 5 links below it
  CHECK(counts() == std::pair{1 + 6, 5});
  CHECK(r.model().inv_mass[1] == 0.0);
  CHECK(r.model().stiffness[0] == 500.0);
  CHECK(r.model().mass[2] == 2.0);
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::ClothPatch), ""}, &msg));
  r.click(1.0, -1.0);  // 9 x 9 particles
  CHECK(counts().first == 7 + 81);
  CHECK(s.built().planar());  // a hanging sheet in the x-y plane keeps a planar scene planar
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), "no_such.obj"}, &msg));
  CHECK_FALSE(s.apply(ui::EditPlaceTool{{0.0, -2.0, 0.0}}, &msg));
  CHECK(msg.rfind("mesh file: ", 0) == 0);
  CHECK(msg.find("no_such.obj") != std::string::npos);
  const std::string flag = std::string(SPRINGLAB_SOURCE_DIR) + "/assets/meshes/tablecloth.obj";
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), flag}, &msg));
  const int before = counts().first;
  REQUIRE_MESSAGE(s.apply(ui::EditPlaceTool{{0.0, -2.0, 0.0}}, &msg), msg);
  CHECK(counts().first > before);
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::JellyBox), ""}, &msg));
  REQUIRE(s.apply(ui::EditPlaceTool{{0.0, -2.0, 0.0}}, &msg));
  CHECK_FALSE(s.built().planar());  // a jelly box is a 3-D body
  // each tool is one edit: undo takes the box away whole
  const int withBox = counts().first;
  REQUIRE(s.apply(ui::Undo{}, &msg));
  CHECK(withBox - counts().first == 125);
  CHECK_FALSE(s.apply(ui::SetEditTool{9, ""}, &msg));
  CHECK(msg == "tool 9: no such tool");
}

TEST_CASE("app: edit mode: Shift+drag on empty space draws a box that selects what it holds") {
  EditRig r;
  app::Session& s = r.d.session();
  r.click(0.0, -1.0);
  r.click(0.0, -2.0);
  r.click(1.5, -2.5);
  REQUIRE(r.model().particles() == 4);
  r.click(1.5, -2.5);  // a selection the box replaces
  const glm::dvec2 a = r.pixel(-0.5, -0.5), b = r.pixel(0.5, -2.2);
  r.d.mouse().press(B::Left, false, true, a.x, a.y, r.time += 1.0, false);
  r.d.mouse().move(b.x, b.y);
  const auto box = r.d.mouse().selectionBox();
  REQUIRE(box);
  CHECK((*box)[2] == b.x);
  r.d.mouse().release(b.x, b.y);
  CHECK_FALSE(r.d.mouse().selectionBox());
  CHECK(s.editor().selection() == std::vector<int>{1, 2});
  CHECK(r.model().particles() == 4);  // the Shift+press added nothing
  // P pins both
  r.key(GLFW_KEY_P);
  CHECK(r.model().inv_mass[1] == 0.0);
  CHECK(r.model().inv_mass[2] == 0.0);
}

TEST_CASE(
    "app: the ruler: its ends dragged, it reads their distance and its angle from the "
    "vertical") {
  EditRig r;  // a planar view, 1 m = 133 px or so
  r.d.applyCommand(ui::SetEditMode{false});
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Ruler, true});
  const auto& ruler = r.d.mouse().ruler();
  REQUIRE(ruler.shown);
  // drag each end by its ring to a known point: (0, 0) and (1, -1)
  const glm::dvec2 a = r.d.mouse().project(ruler.a), b = r.d.mouse().project(ruler.b);
  const glm::dvec2 to_a = r.pixel(0.0, 0.0), to_b = r.pixel(1.0, -1.0);
  r.d.mouse().press(B::Left, false, false, a.x + 3, a.y, r.time += 1.0, false);
  r.d.mouse().move(to_a.x + 3, to_a.y);
  r.d.mouse().release(to_a.x + 3, to_a.y);
  r.d.mouse().press(B::Left, false, false, b.x, b.y - 3, r.time += 1.0, false);
  r.d.mouse().move(to_b.x, to_b.y - 3);
  r.d.mouse().release(to_b.x, to_b.y - 3);
  const ui::RulerView v = r.d.rulerView();
  const double px = glm::length(r.pixel(1.0, 0.0) - r.pixel(0.0, 0.0));  // a metre in pixels
  CHECK(v.length == doctest::Approx(std::sqrt(2.0)).epsilon(6.0 / px));  // within the 3 px nudges
  CHECK(v.from_vertical_deg == doctest::Approx(45.0).epsilon(0.02));
  CHECK(r.model().particles() == 1);  // the drags took nothing else: no particle, no spring
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Ruler, false});
  CHECK_FALSE(ruler.shown);
}

TEST_CASE("app: undo keeps at most kUndoDepth edits, the oldest going first") {
  EditRig r;
  app::Session& s = r.d.session();
  r.click(0.0, -1.0);
  std::string msg;
  for (int i = 0; i < app::Editor::kUndoDepth + 10; ++i)
    REQUIRE(s.apply(ui::EditSetMass{1, 1.0 + i}, &msg));
  CHECK(s.editor().undoDepth() == app::Editor::kUndoDepth);
  while (s.editor().undoDepth() > 0) REQUIRE(s.apply(ui::Undo{}, &msg));
  // back as far as the stack reaches: the mass of the 11th edit, not the particle's first
  CHECK(r.model().mass[1] == doctest::Approx(1.0 + 10 - 1));
  CHECK_FALSE(s.apply(ui::Undo{}, &msg));
  CHECK(msg == "undo: nothing to undo");
}

TEST_CASE(
    "app: a pendulum in edit mode: links added and removed, a link's length, mass and "
    "start angle") {
  app::FrameDriver d;
  d.session().load("pendulum_small_angle");
  app::Session& s = d.session();
  std::string msg;
  REQUIRE(s.apply(ui::SetEditMode{true}, &msg));
  REQUIRE(s.apply(ui::EditAddLink{}, &msg));
  REQUIRE(s.apply(ui::EditAddLink{}, &msg));
  CHECK(s.built().pendulum()->links() == 3);
  REQUIRE(s.apply(ui::EditSetLink{1, 0.5, 2.0, 30.0}, &msg));
  CHECK(s.built().pendulum()->length[1] == 0.5);
  CHECK(s.built().pendulum()->mass[1] == 2.0);
  CHECK(s.built().state.x[1] == doctest::Approx(std::numbers::pi / 6));
  REQUIRE(s.apply(ui::EditRemoveLink{}, &msg));
  REQUIRE(s.apply(ui::EditRemoveLink{}, &msg));
  CHECK_FALSE(s.apply(ui::EditRemoveLink{}, &msg));
  CHECK(msg == "remove a link: a pendulum keeps one link at least");
  CHECK_FALSE(s.apply(ui::EditAddParticle{{0.0, 0.0, 0.0}}, &msg));
  CHECK(msg == "add a particle: a pendulum has links, not particles and springs");
  // the panel's Bodies part shows the selected link
  REQUIRE(s.apply(ui::EditSelect{0, false}, &msg));
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.edit.layout == ui::BodyEditor::Chain);
  CHECK(pm.edit.links == 1);
  CHECK(pm.edit.body == 0);
  CHECK(pm.edit.length == 1.0);
}
#endif

// ---- the traced body's arrows (docs/exploring.md#arrows) ----

#include "app/traced_motion.hpp"

namespace {
// One rod of L = 2 m, its bob at the bottom moving at omega = 1.5 rad/s: v = omega L across,
// a = omega² L = 4.5 m/s² up (toward the pivot), gravity's pull along the rod cancelled by it.
constexpr double kArrowL = 2.0, kArrowOmega = 1.5;
const char* kBottomOfSwing = R"({"gravity": [0, -9.81, 0], "integrator": "rk4", "dt": 0.0001,
  "duration": 1, "system": {"type": "pendulum", "lengths": [2], "masses": [1], "angles": [0],
  "angular_velocities": [1.5]}})";

sim::Vec3 arrowVector(const render::Arrow& a, double scale) {
  return sim::Vec3(a.head[0] - a.tail[0], a.head[1] - a.tail[1], a.head[2] - a.tail[2]) / scale;
}
}  // namespace

TEST_CASE("app: arrow scales are 1, 2 or 5 times a power of ten, from the scene's size") {
  CHECK(app::nice125(0.0123) == doctest::Approx(0.01));
  CHECK(app::nice125(0.016) == doctest::Approx(0.02));
  CHECK(app::nice125(0.04) == doctest::Approx(0.05));
  CHECK(app::nice125(8.0) == doctest::Approx(10.0));
  // L = 2 m: tau = sqrt(2 / 9.81) = 0.4515 s; 0.2258 -> 0.2 m per m/s, 0.1019 -> 0.1 m per m/s²
  const app::ArrowScales s = app::arrowScalesFor(2.0);
  CHECK(s.velocity == doctest::Approx(0.2));
  CHECK(s.acceleration == doctest::Approx(0.1));
  CHECK(app::arrowScalesFor(0.0).velocity == app::ArrowScales{}.velocity);  // a fallback, no NaN
}

TEST_CASE("app: a bob at the bottom of its swing: velocity across, acceleration up omega^2 L") {
  const auto path = testutil::writeFile("arrows_bottom.json", kBottomOfSwing);
  app::Session s;
  s.load(path.string());
  REQUIRE(s.measurements().tracedBody() == 0);
  const app::ArrowScales scales = s.measurements().arrowScales();
  app::ViewBuilder views;
  {  // before any step: the velocity only; the acceleration is the lane's own move
    const render::SceneView& v = views.build(s, false);
    REQUIRE(v.arrows.size() == 1u);
    CHECK(v.arrows[0].kind == render::ArrowKind::Velocity);
    const int p = app::ViewBuilder::pointOfBody(s, 0);
    for (int c = 0; c < 3; ++c) CHECK(v.arrows[0].tail[c] == v.positions[3 * p + c]);
    const sim::Vec3 vel = arrowVector(v.arrows[0], scales.velocity);
    CHECK(vel.x() == doctest::Approx(kArrowOmega * kArrowL).epsilon(1e-5));
    CHECK(std::abs(vel.y()) < 1e-5);
  }
  REQUIRE(s.stepOnce());
  CHECK(views.build(s, false).arrows.size() == 1u);  // one velocity recorded: no difference yet
  REQUIRE(s.stepOnce());
  const render::SceneView& v = views.build(s, false);
  REQUIRE(v.arrows.size() == 2u);
  CHECK(v.arrows[1].kind == render::ArrowKind::Acceleration);
  const sim::Vec3 acc = arrowVector(v.arrows[1], scales.acceleration);
  // over the step from 1 to 2 dt: the bob 1.5 omega dt from the bottom, so a_x ~ -(g + omega² L)
  // times that = -3e-3 m/s²
  CHECK(acc.y() == doctest::Approx(kArrowOmega * kArrowOmega * kArrowL).epsilon(1e-4));
  CHECK(std::abs(acc.x()) < 1e-2);
  // a Reset starts the lane's track afresh: no acceleration until it has moved twice again
  std::string why;
  REQUIRE(s.apply(ui::Reset{}, &why));
  CHECK(views.build(s, false).arrows.size() == 1u);
}

TEST_CASE("app: every lane has the traced body's arrows, each of its own motion") {
  const auto path = testutil::writeFile("arrows_lanes.json", kBottomOfSwing);
  app::Session s;
  s.load(path.string());
  std::string why;
  REQUIRE(s.apply(ui::AddLane{"euler", 0.01}, &why));
  for (int i = 0; i < 200; ++i) REQUIRE(s.stepOnce());
  app::ViewBuilder primary, ghost;
  ghost.lane = 1;
  const render::SceneView& a = primary.build(s, false);
  const render::SceneView& b = ghost.build(s, false);
  REQUIRE(a.arrows.size() == 2u);
  REQUIRE(b.arrows.size() == 2u);
  // each from its own lane's bob, at its own lane's velocity (euler at dt 0.01 is elsewhere)
  const int p = app::ViewBuilder::pointOfBody(s, 0);
  for (int lane = 0; lane < 2; ++lane) {
    const render::SceneView& v = lane == 0 ? a : b;
    for (int c = 0; c < 3; ++c) CHECK(v.arrows[0].tail[c] == v.positions[3 * p + c]);
    const sim::Vec3 own = app::bodyVelocity(s.lane(lane).system(), s.lane(lane).state(), 0);
    CHECK((arrowVector(v.arrows[0], s.measurements().arrowScales().velocity) - own).norm() < 1e-5);
  }
  CHECK(a.arrows[0].tail[0] != b.arrows[0].tail[0]);
  // each lane's acceleration points up, at the pivot (the rod's pull dominates at 0.02 s)
  CHECK(arrowVector(b.arrows[1], 1.0).y() > 0.0);
}
