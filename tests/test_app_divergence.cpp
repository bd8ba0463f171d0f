// The viewer's divergences and runaways: the Session pauses with a report and keeps the last
// finite (or last checked) state, Replay slowly and Back 1 s, the culprit marked in the view, the
// auto strain scale after a rewind, and every built-in scene run as the window runs it without a
// false banner.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "fp_trap.hpp"
#include "scene/catalog.hpp"

namespace {

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

}  // namespace

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

namespace {

// A run the window stops at a divergence: its settings and the start of the report.
struct StopCase {
  const char* scene;
  const char* integrator;
  double dt, duration;
  const char* what;  // the report's start
};

// Where the window stopped: the last state a check passed, and the time of the last point the
// plots took before the divergence (-1: none).
struct WindowStop {
  sim::State checked;
  double lastPlotted = -1.0;
};

// The window's frames at 60 Hz up to `duration` or a divergence: steps, each followed by a check
// where one is due (Session::kRunawayCheckSpacing of simulated time since the last), then one
// check (Session::sample); the state that each passing check saw is the last checked one.
WindowStop runCheckedLikeTheWindow(app::Session& s, double duration) {
  WindowStop stop{s.state()};
  double lastCheck = 0.0;  // s; the plots take a point at each sample
  for (int frame = 1; frame / 60.0 <= duration && !s.divergence(); ++frame) {
    while (s.state().t + 0.5 * s.dt() <= frame / 60.0) {
      // the check, when due, is on the state the step starts from
      const bool due = std::abs(s.time() - lastCheck) >= app::Timeline::kRunawayCheckSpacing;
      const sim::State before = s.state();
      if (due) lastCheck = s.time();
      const bool stepped = s.stepOnce();
      if (due && !(s.divergence() && s.divergence()->t == before.t)) stop.checked = before;
      if (!stepped) break;
    }
    const sim::State now = s.state();
    const bool alive = !s.divergence();
    s.sample();
    lastCheck = s.time();
    if (!s.divergence()) stop.checked = now;
    if (alive && !s.divergence()) stop.lastPlotted = now.t;
  }
  return stop;
}

// What is drawn is the checked state, with the culprit (both particles of a torn spring) marked.
void checkDrawnWithCulprit(app::Session& s, const sim::State& checked) {
  app::ViewBuilder views;
  const render::SceneView& view = views.build(s, false);
  std::vector<float> expected;
  Eigen::VectorXd scratch;
  s.built().pointPositions(checked, expected, scratch);
  CHECK(std::vector<float>(view.positions.begin(), view.positions.end()) == expected);
  const sim::Divergence& d = *s.divergence();
  REQUIRE(d.body >= 0);
  for (const int body : {d.body, d.other_body})
    if (body >= 0) CHECK((view.flags[s.built().pointOfBody(body)] & render::kPointHighlight) != 0);
  CHECK((d.other_body >= 0) == (d.what.find("torn") != std::string::npos));
}

// The panel's energies are those of the state shown, finite: never "K inf J"; the plots end at
// the last sample before the divergence, never after the state shown.
void checkPanelShowsTheStop(app::Session& s, const WindowStop& stop) {
  const sim::State& checked = stop.checked;
  ui::PanelModel pm;
  s.fillPanel(pm);
  if (stop.lastPlotted > 0.0) {
    REQUIRE(!pm.plots.total.empty());
    CHECK(pm.plots.energy_time.back() == doctest::Approx(stop.lastPlotted).epsilon(1e-6));
    CHECK(pm.plots.energy_time.back() <= checked.t + 1e-6);  // a float
    CHECK(std::isfinite(pm.plots.total.back()));
    if (stop.lastPlotted == checked.t)
      CHECK(pm.plots.total.back() ==
            static_cast<float>(s.built().energy(checked).total() - pm.plots.energy_base));
  } else {
    CHECK(pm.plots.total.empty());  // caught before the first frame's sample: nothing plotted
  }
  char shown[64];
  std::snprintf(shown, sizeof shown, ". Shown: the last checked state, t = %.6g s", checked.t);
  CHECK(pm.clock.divergence.find(shown) != std::string::npos);
}

}  // namespace

TEST_CASE("app: after a divergence the window draws the last checked state, its culprit marked") {
  for (const StopCase& c :
       {StopCase{"cloth_16", "euler", 0.004, 2.0, ""},
        // a torn cloth: xpbd at 1/60 s and 1 substep cannot hold cloth_32 (run's warning: t =
        // 0.483 s); its automatic substeps would
        StopCase{"cloth_32", "xpbd", 1.0 / 60.0, 2.0, "runaway: torn: spring "},
        StopCase{"cloth_32", "time_fe", 0.004, 1.1, "runaway: torn: spring "},
        StopCase{"seed004_fig6b", "euler", 0.05, 3.0, "runaway: the energy went from "}}) {
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
    const WindowStop stop = runCheckedLikeTheWindow(s, c.duration);
    const sim::State& checked = stop.checked;
    REQUIRE(s.divergence());
    CHECK(s.divergence()->what.rfind(c.what, 0) == 0);
    REQUIRE(checked.x.allFinite());
    CHECK(checked.t < s.divergence()->t);
    CHECK(s.primary().shownState().x == checked.x);
    CHECK(s.primary().shownState().t == checked.t);
    checkDrawnWithCulprit(s, checked);
    checkPanelShowsTheStop(s, stop);
  }
}

#endif  // SPRINGLAB_VIEWER
