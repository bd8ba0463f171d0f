// The window's lanes and timeline (docs/lab.md#lanes): lanes in lock-step of lane 0's clock, each
// bit-identical to a lane stepped alone, a diverging lane frozen while the others go on, the
// timeline restoring states bit-identically within its memory budget, and window events.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

#include "app/session.hpp"
#include "fp_trap.hpp"
#include "lab/lane.hpp"
#include "sim/spectrum.hpp"
#include "ui/panel.hpp"
#include "util.hpp"

#include "stb_image_reader.hpp"

using namespace testutil;

namespace {

bool sameState(const sim::State& a, const sim::State& b) {
  return a.t == b.t && a.x == b.x && a.v == b.v;
}
}  // namespace

TEST_CASE("lab: lanes advance in lock-step and each equals a lane stepped alone") {
  app::Session s;
  s.load("cloth_16");  // symplectic_euler, dt 0.0005
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"rk4", 0.0007}, &msg));
  REQUIRE(s.apply(ui::AddLane{"verlet", 0.0003}, &msg));
  REQUIRE(s.laneCount() == 3);
  lab::Lane rk4(s.built(), s.built().state, sim::Method::Rk4, 0.0007);
  for (int k = 0; k < 400; ++k) REQUIRE(s.stepOnce());
  const double t = s.time();
  CHECK(t == 400 * 0.0005);
  for (int i = 1; i < 3; ++i) {
    CAPTURE(i);
    CHECK(std::abs(s.lane(i).state().t - t) <= 0.5 * s.lane(i).dt() + 1e-12);
  }
  while (rk4.steps() < s.lane(1).steps()) REQUIRE(rk4.step());
  CHECK(sameState(rk4.state(), s.lane(1).state()));
}

TEST_CASE("lab: a lane that diverges freezes with its report while the others go on") {
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"euler", 0.004}, &msg));
  for (int k = 0; k < 4000 && !s.lane(1).diverged(); ++k) {
    REQUIRE(s.stepOnce());
    s.sample();
  }
  REQUIRE(s.lane(1).diverged());
  const sim::State frozen = s.lane(1).state();
  const double t = s.time();
  for (int k = 0; k < 100; ++k) REQUIRE(s.stepOnce());
  CHECK(s.time() > t);
  CHECK_FALSE(s.paused());
  CHECK_FALSE(s.divergence());  // lane 0's
  CHECK(sameState(s.lane(1).state(), frozen));
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.lanes.rows.size() == 2);
  CHECK(pm.lanes.rows[1].diverged);
  CHECK(pm.lanes.rows[1].divergence.rfind("diverged at t = ", 0) == 0);
  // Reset restarts every lane from the scene
  REQUIRE(s.apply(ui::Reset{}, &msg));
  CHECK_FALSE(s.lane(1).diverged());
  CHECK(s.lane(1).state().t == 0.0);
}

TEST_CASE("lab: branch, remove, and the limits on lanes") {
  app::Session s;
  s.load("seed004_fig6b");
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"rk4", 0.002}, &msg));
  for (int k = 0; k < 300; ++k) REQUIRE(s.stepOnce());
  REQUIRE(s.apply(ui::BranchLane{1, "implicit_midpoint", 0.001}, &msg));
  REQUIRE(s.laneCount() == 3);
  CHECK(sameState(s.lane(2).state(), s.lane(1).state()));
  CHECK(s.lane(2).method() == sim::Method::ImplicitMidpoint);
  CHECK_FALSE(s.apply(ui::AddLane{"time_fe", 0.001}, &msg));
  CHECK(msg.find("time_fe does not apply to pendulum systems") == 0);
  REQUIRE(s.apply(ui::AddLane{"verlet", 0.001}, &msg));
  CHECK_FALSE(s.apply(ui::AddLane{"verlet", 0.001}, &msg));
  CHECK(msg == "lanes: at most 4 on screen");
  CHECK_FALSE(s.apply(ui::RemoveLane{0}, &msg));
  CHECK(msg == "lane 0: not a lane that can go (lane 0 stays)");
  REQUIRE(s.apply(ui::RemoveLane{1}, &msg));
  CHECK(s.laneCount() == 3);
  CHECK(s.lane(1).method() == sim::Method::ImplicitMidpoint);
  // a command for every lane
  REQUIRE(s.apply(ui::SetDt{0.0005, -1}, &msg));
  for (int i = 0; i < s.laneCount(); ++i) CHECK(s.lane(i).dt() == 0.0005);
  CHECK_FALSE(s.apply(ui::SetDt{0.0005, 7}, &msg));
  CHECK(msg == "lane 7: no such lane");
}

TEST_CASE("lab: the timeline restores a state bit-identically and the future replays") {
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"rk4", 0.001}, &msg));
  constexpr int kAfter = 50;
  std::vector<sim::State> lane0ByStep, lane1ByStep;
  for (int k = 0; k < 2000; ++k) {
    REQUIRE(s.stepOnce());
    lane0ByStep.push_back(s.state());
    lane1ByStep.push_back(s.lane(1).state());
  }
  REQUIRE(s.timeline().history().size() > 10);
  const int j = static_cast<int>(s.timeline().history().size()) / 2;
  const lab::History::Entry kept = s.timeline().history().at(static_cast<size_t>(j));
  REQUIRE(kept.clock.total + kAfter <= 2000);
  REQUIRE(s.apply(ui::SeekHistory{j}, &msg));
  CHECK(s.paused());
  CHECK(s.steps() == kept.clock.total);
  CHECK(sameState(s.state(), kept.lanes[0].state));
  CHECK(sameState(s.lane(1).state(), kept.lanes[1].state));
  CHECK(sameState(s.state(), lane0ByStep[static_cast<size_t>(kept.clock.total - 1)]));
  for (int k = 0; k < kAfter; ++k) REQUIRE(s.stepOnce());
  CHECK(sameState(s.state(), lane0ByStep[static_cast<size_t>(kept.clock.total + kAfter - 1)]));
  CHECK(sameState(s.lane(1).state(),
                  lane1ByStep[static_cast<size_t>(kept.clock.total + kAfter - 1)]));
  // the states after the seek point were dropped: the timeline ends at the new present
  CHECK(s.timeline().history().at(s.timeline().history().size() - 1).t <= s.time());
}

TEST_CASE("lab: the timeline scrubs back and forth over every kept state, the plots with it") {
  app::Session s;
  s.load("seed003_table1_case1");
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"rk4", 0.004}, &msg));
  for (int k = 0; k < 3000; ++k) {
    REQUIRE(s.stepOnce());
    if (k % 16 == 0) s.sample();  // a rendered frame's samples
  }
  s.sample();
  s.setPaused(true);
  const sim::State present = s.state(), presentLane1 = s.lane(1).state();
  std::vector<lab::History::Entry> kept;
  for (size_t i = 0; i < s.timeline().history().size(); ++i)
    kept.push_back(s.timeline().history().at(i));
  ui::PanelModel before;
  s.fillPanel(before);
  const size_t samples = before.plots.energy_time.size(),
               laneSamples = before.lanes.rows[1].time.size();
  REQUIRE(kept.size() > 20);
  REQUIRE(kept.back().t < s.time());  // the present is between two kept moments
  // back to the middle: the state kept there, the plots up to it, nothing dropped
  const int mid = static_cast<int>(kept.size()) / 2;
  REQUIRE(s.apply(ui::SeekHistory{mid}, &msg));
  CHECK(sameState(s.state(), kept[size_t(mid)].lanes[0].state));
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.lanes.history_index == mid);
  REQUIRE(!pm.plots.energy_time.empty());
  CHECK(pm.plots.energy_time.back() <= s.time());
  CHECK(pm.plots.energy_time.size() < samples);
  CHECK(pm.lanes.rows[1].time.back() <= s.time());
  CHECK(pm.lanes.history_size == static_cast<int>(kept.size()) + 1);  // the present kept too
  // a drag to the start, then forward over every state: each bit-identical to the one kept
  REQUIRE(s.apply(ui::SeekHistory{0}, &msg));
  CHECK(s.state().t == 0.0);
  for (size_t i = 0; i < kept.size(); ++i) {
    REQUIRE(s.apply(ui::SeekHistory{static_cast<int>(i)}, &msg));
    CAPTURE(i);
    CHECK(sameState(s.state(), kept[i].lanes[0].state));
    // the state at t = 0 was kept before lane 1 was added: lane 1 starts there from lane 0's
    CHECK(sameState(s.lane(1).state(),
                    kept[i].lanes[std::min<size_t>(1, kept[i].lanes.size() - 1)].state));
    CHECK(s.steps() == kept[i].clock.total);
  }
  // the timeline's end is the present the scrub started from, and the plots are whole again
  REQUIRE(s.apply(ui::SeekHistory{static_cast<int>(kept.size())}, &msg));
  CHECK(sameState(s.state(), present));
  CHECK(sameState(s.lane(1).state(), presentLane1));
  s.fillPanel(pm);
  CHECK(pm.plots.energy_time.size() == samples);
  CHECK(pm.lanes.rows[1].time.size() == laneSamples);
  CHECK(pm.lanes.history_index == static_cast<int>(kept.size()));
}

TEST_CASE("lab: stepping on from an earlier state drops the timeline's future and its samples") {
  app::Session s;
  s.load("seed003_table1_case1");
  std::string msg;
  for (int k = 0; k < 2000; ++k) {
    REQUIRE(s.stepOnce());
    if (k % 16 == 0) s.sample();
  }
  const size_t n = s.timeline().history().size();
  const int mid = static_cast<int>(n) / 2;
  const lab::History::Entry kept = s.timeline().history().at(size_t(mid));
  REQUIRE(s.apply(ui::SeekHistory{mid}, &msg));
  const size_t afterSeek = s.timeline().history().size();
  CHECK(afterSeek >= n);
  // a parameter change keeps the future (it is what was simulated); a step rewrites it
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::Drag), 0.01}, &msg));
  CHECK(s.timeline().history().size() == afterSeek);
  REQUIRE(s.apply(ui::Step{1}, &msg));
  CHECK(s.timeline().history().size() == size_t(mid) + 1);
  CHECK(s.timeline().history().at(size_t(mid)).t == kept.t);
  CHECK(s.timeline().history().at(s.timeline().history().size() - 1).t <= s.time());
  s.sample();
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.plots.energy_time.back() == static_cast<float>(s.time()));
  CHECK(std::is_sorted(pm.plots.energy_time.begin(), pm.plots.energy_time.end()));
  // a seek to the newest kept state, then on: the plots go on with the steps
  REQUIRE(s.apply(ui::SeekHistory{static_cast<int>(s.timeline().history().size()) - 1}, &msg));
  const auto from = static_cast<float>(s.time());
  for (int k = 0; k < 3; ++k) {
    REQUIRE(s.apply(ui::Step{16}, &msg));
    s.sample();
  }
  s.fillPanel(pm);
  CHECK(pm.plots.energy_time.back() == static_cast<float>(s.time()));
  CHECK(std::count_if(pm.plots.energy_time.begin(), pm.plots.energy_time.end(),
                      [&](float t) { return t > from; }) == 3);
}

TEST_CASE("lab: after a seek with another dt, a step advances the clock by exactly that dt") {
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"verlet", 0.001}, &msg));
  for (int k = 0; k < 2100; ++k) REQUIRE(s.stepOnce());  // 1.05 s at the scene's 0.0005 s
  const int j = s.timeline().history().indexAtOrBefore(1.038);
  const lab::History::Entry kept = s.timeline().history().at(size_t(j));
  // lane 0's dt, as the slider does (stable: symplectic_euler's limit here is 0.0014 s); the
  // clock counting the kept steps in it would read 2067 x 0.001 s
  REQUIRE(s.apply(ui::SetDt{0.001, 0}, &msg));
  REQUIRE(s.apply(ui::SetDt{0.00025, 1}, &msg));
  REQUIRE(s.apply(ui::SeekHistory{j}, &msg));
  CHECK(s.time() == kept.t);
  CHECK(s.state().t == kept.t);
  REQUIRE(s.apply(ui::Step{1}, &msg));  // the right-arrow key
  CHECK(s.time() == kept.t + 0.001);
  CHECK(s.state().t == kept.t + 0.001);
  CHECK(s.lane(1).state().t == kept.t + 0.001);  // four of its 0.00025 s steps
  REQUIRE(s.apply(ui::Step{10}, &msg));
  CHECK_FALSE(s.divergence());
  CHECK(s.time() == kept.t + 11 * 0.001);
}

TEST_CASE("lab: the timeline stays within its memory budget by thinning, keeping the start") {
  app::Session s;
  s.load("cloth_32");
  const std::size_t budget = 2u << 20;  // 2 MB: about 40 states of 1024 particles
  s.setHistoryBudget(budget);
  while (s.time() < 10.0) REQUIRE(s.stepOnce());  // 300 states at 1/30 s
  CHECK(s.timeline().history().bytes() <= budget);
  CHECK(s.timeline().history().size() >= 10);
  CHECK(s.timeline().history().spacing() > app::Timeline::kHistorySpacing);
  CHECK(s.timeline().history().at(0).t == 0.0);
  CHECK(s.timeline().history().at(s.timeline().history().size() - 1).t > 9.0);
}

TEST_CASE("lab: window events change the parameter at their time and replay after Reset") {
  app::Session s;
  s.load("cloth_16");
  lab::Event e;
  REQUIRE_FALSE(lab::parseEvent("0.01:dt=0.00025", e));
  s.setEvents({e});
  std::string msg;
  for (int k = 0; k < 20; ++k) REQUIRE(s.stepOnce());  // 20 x 0.0005 = 0.01
  CHECK(s.dt() == 0.0005);
  REQUIRE(s.stepOnce());  // the step that starts at 0.01
  CHECK(s.dt() == 0.00025);
  CHECK(s.time() == 0.01 + 0.00025);
  REQUIRE(s.apply(ui::Reset{}, &msg));
  CHECK(s.dt() == 0.00025);  // Reset keeps the clock's dt; the event replays from t = 0
  lab::Event k;
  REQUIRE_FALSE(lab::parseEvent("0.005:stiffness_scale=2", k));
  s.setEvents({k});
  REQUIRE(s.apply(ui::Reset{}, &msg));
  CHECK(s.stiffnessScale() == 1.0);
  while (s.time() < 0.0051) REQUIRE(s.stepOnce());
  CHECK(s.stiffnessScale() == 2.0);
  REQUIRE(s.apply(ui::Reset{}, &msg));
  CHECK(s.stiffnessScale() == 1.0);  // parameters back to those at load
}

TEST_CASE("the window and record refuse bad --lanes and --at in one line, before any window") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"cloth_16", "--lanes", "rk4,nope", "--frames", "1"},
       "springlab: --lanes: lane 1 \"nope\": unknown integrator \"nope\"; these apply to "
       "mass_spring: euler, symplectic_euler, verlet, rk4, implicit_euler, time_fe, xpbd, "
       "projective, vbd"},
      {{"cloth_16", "--lanes", "rk4,verlet,euler,rk4,verlet", "--frames", "1"},
       "springlab: --lanes: 5 lanes; at most 4 on screen"},
      {{"cloth_16", "--lanes", "rk4,verlet@1", "--frames", "1"},
       "springlab: --lanes: lane 1: dt: out of range (allowed 1e-07 to 0.1 s)"},
      // the number as given, to 6 significant digits, once: not "--dt: dt: out of range"
      {{"cloth_16", "--dt", "0.25", "--frames", "1"},
       "springlab: --dt: 0.25 s: out of range (allowed 1e-07 to 0.1 s)"},
      {{"cloth_16", "--at", "x:dt=1", "--frames", "1"},
       "springlab: --at: \"x:dt=1\": the time must be a finite number >= 0, not \"x\""},
      {{"seed004_fig6b", "--at", "1:drag=1", "--frames", "1"},
       "springlab: --at: \"1:drag=1\": drag: not modelled for pendulums (use joint_damping)"},
      {{"record", "cloth_16", "--out", (tempDir() / "x.png").string(), "--at", "1:dt=-2"},
       "springlab record: --at: \"1:dt=-2\": dt: must be a finite number > 0, not \"-2\""},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(message);
    const auto r = springlab(args);
    CHECK(r.status == 2);
    CHECK(r.err == message + "\n");
  }
  CHECK_FALSE(fs::exists(tempDir() / "x.png"));
}

namespace {
// Fills the panel model until `done` says the background job finished (at most ~60 s).
ui::PanelModel waitFor(const app::Session& s, bool (*done)(const ui::PanelModel&)) {
  ui::PanelModel pm;
  for (int i = 0; i < 6000; ++i) {
    s.fillPanel(pm);
    if (done(pm)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pm;
}
}  // namespace

TEST_CASE("lab: the window's stability map fills in the background around the limit") {
  app::Session s;
  s.load("seed003_table1_case1");
  s.apply(ui::SetIntegrator{"verlet"}, nullptr);
  std::string msg;
  REQUIRE(s.apply(ui::RunStabilityMap{}, &msg));
  const auto pm = waitFor(s, [](const ui::PanelModel& m) { return !m.jobs.stability.running; });
  const auto& map = pm.jobs.stability;
  REQUIRE(map.dts.size() == static_cast<size_t>(app::LabJobs::kMapColumns));
  REQUIRE(map.scales.size() == static_cast<size_t>(app::LabJobs::kMapRows));
  CHECK(map.done == static_cast<int>(map.cells.size()));
  CHECK(map.integrator == "verlet");
  REQUIRE(map.limit_dt > 0.0);
  CHECK(map.limit_dt == doctest::Approx(*s.scene().dtLimit(sim::Method::Verlet)));
  // far below the limit: not diverged; far above it: not stable (the swinging spring pendulum is
  // nonlinear: above the limit its energy may saturate, drifting, rather than run away)
  for (size_t r = 0; r < map.scales.size(); ++r)
    for (size_t c = 0; c < map.dts.size(); ++c) {
      const double limit = map.limit_dt / std::sqrt(map.scales[r]);
      const signed char cell = map.cells[r * map.dts.size() + c];
      if (map.dts[c] < 0.8 * limit) CHECK(cell != ui::StabilityMapView::Diverged);
      if (map.dts[c] > 1.25 * limit) CHECK(cell != ui::StabilityMapView::Stable);
    }
}

TEST_CASE("lab: Save map PNG writes the map's picture where it says, or says why it cannot") {
  app::Session s;
  s.load("seed003_table1_case1");
  s.apply(ui::SetIntegrator{"verlet"}, nullptr);
  std::string msg;
  CHECK_FALSE(s.apply(ui::SaveMapPng{(tempDir() / "none.png").string()}, &msg));
  CHECK(msg == "no stability map to save: run one first");
  // with no path: beside the scene file, or in the current folder for a built-in scene
  CHECK(s.mapPngPath() == "seed003_table1_case1-map-verlet.png");
  REQUIRE(s.apply(ui::RunStabilityMap{}, &msg));
  auto pm = waitFor(s, [](const ui::PanelModel& m) { return !m.jobs.stability.running; });
  const fs::path png = tempDir() / "window_map.png";
  fs::remove(png);
  REQUIRE(s.apply(ui::SaveMapPng{png.string()}, &msg));
  s.fillPanel(pm);
  CHECK(pm.jobs.stability.saved == "saved the map to " + fs::absolute(png).string());
  CHECK_FALSE(pm.jobs.stability.save_failed);
  int w = 0, h = 0, n = 0;
  unsigned char* data = stbi_load(png.string().c_str(), &w, &h, &n, 3);
  REQUIRE(data != nullptr);
  // a 24 x 12 grid of 15 px cells and the words around it; green and red cells among them
  CHECK(w > 24 * 15);
  CHECK(h > 12 * 15);
  bool green = false, red = false;
  for (int i = 0; i < w * h; ++i) {
    const unsigned char* p = data + 3 * i;
    green |= p[0] == 40 && p[1] == 140 && p[2] == 80;
    red |= p[0] == 200 && p[1] == 55 && p[2] == 50;
  }
  stbi_image_free(data);
  CHECK(green);
  CHECK(red);
  // an unwritable place: the writer's reason, in the panel too, and no crash
  const fs::path file = tempDir() / "not_a_folder";
  std::ofstream(file) << "x";
  const std::string bad = (file / "map.png").string();
  CHECK_FALSE(s.apply(ui::SaveMapPng{bad}, &msg));
  CHECK(msg.rfind("cannot write PNG '" + bad + "': ", 0) == 0);
  s.fillPanel(pm);
  CHECK(pm.jobs.stability.saved == msg);
  CHECK(pm.jobs.stability.save_failed);
  // a scene from a file: beside it
  const fs::path scene = tempDir() / "mine.json";
  fs::copy_file(fs::path(SPRINGLAB_SOURCE_DIR) / "assets" / "scenes" / "seed003_table1_case1.json",
                scene, fs::copy_options::overwrite_existing);
  s.load(scene.string());
  const std::string integrator(sim::info(s.method()).name);  // the scene's: no map any more
  CHECK(s.mapPngPath() == (tempDir() / ("mine-map-" + integrator + ".png")).string());
}

TEST_CASE("lab: Measure order reports the observed orders beside the nominal ones") {
  app::Session s;
  s.load("seed003_table1_case1");
  std::string msg;
  REQUIRE(s.apply(ui::MeasureOrder{}, &msg));
  const auto pm = waitFor(s, [](const ui::PanelModel& m) { return !m.jobs.orders_running; });
  REQUIRE(pm.jobs.orders.size() == 9);
  for (const auto& row : pm.jobs.orders) {
    CAPTURE(row.integrator);
    CHECK(
        row.observed ==
        doctest::Approx(row.nominal == 2 && row.integrator != "verlet" ? 2.0 : double(row.nominal))
            .epsilon(0.05));
  }
  // a new scene stops and forgets the jobs
  REQUIRE(s.apply(ui::RunStabilityMap{}, &msg));
  s.load("cloth_16");
  ui::PanelModel after;
  s.fillPanel(after);
  CHECK_FALSE(after.jobs.stability.running);
  CHECK(after.jobs.stability.cells.empty());
  CHECK(after.jobs.orders.empty());
  CHECK(after.measure.dt_limit ==
        doctest::Approx(*s.scene().dtLimit(sim::Method::SymplecticEuler)));
}

TEST_CASE("lab: Measure order says nan and why where runs diverge or are not asymptotic") {
  // as after a click on a red map cell: a spring chain at 30 times its dt; the worker thread
  // inherits this thread's floating-point traps, off: the runs overflow on purpose
  const testutil::FpTrapsOff overflowIsThePoint;
  app::Session s;
  s.load("seed000_spring_pendulum_10");
  std::string msg;
  REQUIRE(s.apply(ui::SetDt{0.03}, &msg));
  REQUIRE(s.apply(ui::MeasureOrder{}, &msg));
  const auto pm = waitFor(s, [](const ui::PanelModel& m) { return !m.jobs.orders_running; });
  // the rule of springlab order, the same runs (lab::measureOrders): every row a nan with a reason
  REQUIRE(pm.jobs.orders.size() == 9);
  for (const ui::OrderRow& row : pm.jobs.orders) {
    CAPTURE(row.integrator);
    CAPTURE(row.note);
    CHECK(std::isnan(row.observed));
    CHECK((row.note.rfind("diverged at h", 0) == 0 ||
           row.note.rfind("not in the asymptotic range: ", 0) == 0 ||
           row.note.rfind("not converging: the difference grows as h shrinks", 0) == 0));
  }
  CHECK(pm.jobs.orders[0].note == "diverged at h");  // euler
}

namespace {
struct Picture {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return &rgb[(static_cast<size_t>(y) * w + x) * 3]; }
};

// The window's first frame of `scene`, headless, without the panel, with these extra options.
Picture windowFrame(const std::string& name, std::vector<std::string> extra) {
  const fs::path png = tempDir() / (name + ".png");
  std::vector<std::string> args = {"cloth_16", "--headless", "--no-ui",      "--size",    "320x200",
                                   "--frames", "1",          "--screenshot", png.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = springlab(args);
  REQUIRE(r.status == 0);
  Picture p;
  int n = 0;
  unsigned char* data = stbi_load(png.c_str(), &p.w, &p.h, &n, 3);
  REQUIRE(data != nullptr);
  p.rgb.assign(data, data + static_cast<size_t>(p.w) * p.h * 3);
  stbi_image_free(data);
  return p;
}

// the cloth's blue: blue well above red
bool clothBlue(const unsigned char* c) {
  return c[2] > c[0] + 40;
}
}  // namespace

TEST_CASE("lab: a ghosted lane shows in its colour over lane 0, side by side each in its column") {
  const Picture one = windowFrame("one_lane", {});
  // lane 1 on the same dt coincides with lane 0: its net of lines lies over the cloth, in its
  // colour, and lane 0 keeps its own look between them (docs/lab.md#lanes)
  const Picture two = windowFrame("two_lanes", {"--lanes", "symplectic_euler,symplectic_euler"});
  REQUIRE(one.w == two.w);
  const ui::LaneColour c = ui::laneColour(1);
  auto fromLane1 = [&](const unsigned char* p) {
    return std::hypot(p[0] - 255.0 * c.r, p[1] - 255.0 * c.g, p[2] - 255.0 * c.b);
  };
  int cloth = 0, tinted = 0;
  for (int y = 0; y < one.h; ++y)
    for (int x = 0; x < one.w; ++x)
      if (clothBlue(one.at(x, y))) {
        ++cloth;
        const unsigned char *a = one.at(x, y), *b = two.at(x, y);
        // towards lane 1's colour, by more than shading and anti-aliasing move a pixel
        if (fromLane1(b) + 20.0 < fromLane1(a)) ++tinted;
      }
  REQUIRE(cloth > 2000);
  CHECK(tinted > cloth / 50);  // the ghost is there, in lane 1's colour
  CHECK(tinted < cloth / 3);   // as lines: a filled ghost tinted all of it
  // side by side: the cloth twice, once in each half, in its own colours
  const Picture split =
      windowFrame("split_lanes", {"--lanes", "symplectic_euler,verlet", "--side-by-side"});
  int left = 0, right = 0;
  for (int y = 0; y < split.h; ++y)
    for (int x = 0; x < split.w; ++x)
      if (clothBlue(split.at(x, y))) ++(x < split.w / 2 ? left : right);
  CHECK(left > 500);
  CHECK(right > 500);
  CHECK(std::abs(left - right) < (left + right) / 10);
  // ... two cloths, not one across the middle: the centre column is cloth in the single lane's
  // frame, and the gap between the columns in the split one
  auto centreCloth = [](const Picture& p) {
    int n = 0;
    for (int y = 0; y < p.h; ++y) n += clothBlue(p.at(p.w / 2, y));
    return n;
  };
  CHECK(centreCloth(one) > one.h / 4);
  CHECK(centreCloth(split) == 0);
}

TEST_CASE("lab: the x-limit lines follow the state: a pendulum's ratio grows as the chain moves") {
  app::Session s;
  s.load("seed004_fig6b");  // rk4, dt 0.001 s, released at rest
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"symplectic_euler", 0.002}, &msg));
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.lanes.rows.size() == 2);
  const double rk4At0 = pm.measure.lanes[0].dt_over_limit,
               eulerAt0 = pm.measure.lanes[1].dt_over_limit;
  REQUIRE(rk4At0 > 0.0);
  CHECK(pm.clock.dt / pm.measure.dt_limit ==
        doctest::Approx(rk4At0));  // the slider's line is lane 0's
  // its local frequency from its state (sim::localOmega), not the initial Hessian
  CHECK(pm.measure.dt_limit ==
        doctest::Approx(2.0 * std::sqrt(2.0) / sim::localOmega(s.built(), s.built().state)));
  for (int k = 0; k < 4700; ++k) REQUIRE(s.stepOnce());  // near the whip at t = 4.7 s
  for (int k = 0; k < app::Measurements::kOmegaRefreshFills; ++k) s.fillPanel(pm);
  CAPTURE(rk4At0);
  CAPTURE(pm.measure.lanes[0].dt_over_limit);
  CHECK(pm.measure.lanes[0].dt_over_limit > 3.0 * rk4At0);
  CHECK(pm.measure.lanes[1].dt_over_limit > 3.0 * eulerAt0);
  CHECK(pm.measure.lanes[0].dt_over_limit ==
        doctest::Approx(0.001 * sim::localOmega(s.built(), s.state()) / (2.0 * std::sqrt(2.0))));
}

namespace {
// Seed 002's harmonic oscillator (fixture at (0, 10), rest length 5, 1 kg released at rest at
// (0, 3)) with stiffness k, stepped by rk4 at 0.0005 s.
std::string oscillatorScene(double k) {
  return R"({"gravity": [0, -9.81, 0], "integrator": "rk4", "dt": 0.0005, "duration": 5,
    "system": {"type": "mass_spring", "particles": [
      {"position": [0, 10, 0], "fixed": true}, {"position": [0, 3, 0], "mass": 1}],
      "springs": [{"a": 0, "b": 1, "stiffness": )" +
         std::to_string(k) + R"(, "rest_length": 5}]}})";
}
}  // namespace

TEST_CASE("lab: a parameter lane in the window: four times the stiffness, half the period") {
  app::Session s;
  s.load(writeFile("osc_window.json", oscillatorScene(20.0)).string());
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"rk4", 0.0005, "stiffness_scale=4"}, &msg));
  REQUIRE(s.laneCount() == 2);
  // the same lane stepped alone on the scene edited to k = 80 N/m
  app::Session stiff;
  stiff.load(writeFile("osc_window_stiff.json", oscillatorScene(80.0)).string());
  const int steps = 2000;  // 1 s
  for (int k = 0; k < steps; ++k) REQUIRE(s.stepOnce());
  for (int k = 0; k < steps; ++k) REQUIRE(stiff.stepOnce());
  CHECK(s.lane(1).state().x == stiff.state().x);  // bit for bit
  CHECK(s.lane(1).state().v == stiff.state().v);
  // and the closed form at omega = sqrt(80) rad/s: half the scene's period
  const double t = s.time(), equilibrium = 5.0 - 9.81 / 80.0;
  CHECK(s.lane(1).state().x[4] ==
        doctest::Approx(equilibrium + (3.0 - equilibrium) * std::cos(std::sqrt(80.0) * t)));
  CHECK(s.lane(0).state().x[4] != doctest::Approx(s.lane(1).state().x[4]));
  // the panel and the overlays name it as --lanes takes it
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.lanes.rows.size() == 2);
  CHECK(pm.lanes.rows[1].name() == "rk4:stiffness_scale=4");
  CHECK(pm.lanes.rows[0].name() == "rk4");
  // a set-up that does not apply is refused with the key's reason, and no lane is added
  CHECK_FALSE(s.apply(ui::AddLane{"rk4", 0.0005, "length_scale=2"}, &msg));
  CHECK(msg ==
        "set-up \"length_scale=2\": length_scale: a spring network's lengths are its scene's (it "
        "applies to a pendulum's links)");
  CHECK(s.laneCount() == 2);
}

TEST_CASE("lab: a parameter lane follows every change but those of the parameters it sets") {
  app::Session s;
  s.load("cloth_16");
  std::string msg;
  REQUIRE(s.apply(ui::AddLane{"symplectic_euler", 0.0005, "stiffness_scale=4"}, &msg));
  REQUIRE(s.apply(ui::AddLane{"symplectic_euler", 0.0005, "drag=0"}, &msg));
  const auto value = [&](int lane, sim::Parameter p) { return s.lane(lane).system().parameter(p); };
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::Drag), 0.3}, &msg));
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::StiffnessScale), 2.0}, &msg));
  CHECK(value(0, sim::Parameter::Drag) == 0.3);
  CHECK(value(1, sim::Parameter::Drag) == 0.3);  // follows
  CHECK(value(2, sim::Parameter::Drag) == 0.0);  // its own
  CHECK(value(0, sim::Parameter::StiffnessScale) == 2.0);
  CHECK(value(1, sim::Parameter::StiffnessScale) == 4.0);  // its own
  CHECK(value(2, sim::Parameter::StiffnessScale) == 2.0);  // follows
  const sim::Vec3 g(0.0, -1.62, 0.0);
  REQUIRE(
      s.apply(ui::SetVectorParameter{int(sim::Parameter::Gravity), {g.x(), g.y(), g.z()}}, &msg));
  for (int lane = 0; lane < 3; ++lane) CHECK(s.lane(lane).system().gravity() == g);
  // the mouse spring pulls on every lane's copy
  s.setGrab(100, sim::Vec3(0.0, 0.0, 0.0));
  for (int lane = 0; lane < 3; ++lane) CHECK(s.lane(lane).system().grabbed() == 100);
  s.setGrab(-1, sim::Vec3::Zero());
  // Reset starts every lane again, each with its own set-up
  for (int k = 0; k < 10; ++k) REQUIRE(s.stepOnce());
  REQUIRE(s.apply(ui::Reset{}, &msg));
  REQUIRE(s.laneCount() == 3);
  CHECK(value(1, sim::Parameter::StiffnessScale) == 4.0);
  CHECK(value(2, sim::Parameter::Drag) == 0.0);
  CHECK(s.lane(1).state().x == s.built().state.x);
}

TEST_CASE("lab: the phase plot starts on the plotted body's coordinate that moves") {
  app::Session s;
  ui::PanelModel pm;
  s.load("seed002_harmonic_oscillator");  // the bob moves along y only
  s.fillPanel(pm);
  CHECK(pm.plots.phase_coordinate == 4);  // y1
  s.load("pendulum_small_angle");         // one angle: itself
  s.fillPanel(pm);
  CHECK(pm.plots.phase_coordinate == 0);
}
