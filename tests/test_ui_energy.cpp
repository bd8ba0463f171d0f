// The energy bars (docs/integrators.md#energy-bars): the potential split by its source against
// closed forms, the bars' numbers through the Session adding up to the total and to the ledger's
// identity, the panel drawing them (item probe, scale rule) and a recorded --ui picture showing
// them in the lanes' colours.
#include <doctest/doctest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/session.hpp"
#include "fp_trap.hpp"
#include "lab/lane.hpp"
#include "lab/potential_zero.hpp"
#include "sim/energy.hpp"
#include "sim/pendulum.hpp"
#include "test_sim_helpers.hpp"
#include "ui/panel.hpp"
#include "util.hpp"

#include "stb_image_reader.hpp"

using namespace testutil;
using sim::Vec3;

namespace {

constexpr double kG = 9.81;  // m/s^2

// A mass on a spring under a fixed point, with a dashpot and drag: every bar has something in it.
const char* kDampedScene = R"({
  "name": "damped spring pair", "integrator": "rk4", "dt": 0.001, "duration": 10,
  "system": {"type": "mass_spring", "drag": 0.05,
    "particles": [{"position": [0, 0, 0], "fixed": true},
                  {"position": [0.3, -1.2, 0], "mass": 0.5},
                  {"position": [0.5, -2.1, 0], "mass": 0.8}],
    "springs": [{"a": 0, "b": 1, "stiffness": 60, "rest_length": 1.0, "damping": 0.4},
                {"a": 1, "b": 2, "stiffness": 40, "rest_length": 0.8, "damping": 0.2}]}
})";

// An ImGui context with a font atlas and no backend (as tests/test_ui.cpp's).
struct Imgui {
  ImGuiContext* ctx;
  ui::ItemProbe probe;
  Imgui() {
    ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 2000);  // tall: every section of the panel fits
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    io.MousePos = ImVec2(1279, 1999);
  }
  ~Imgui() { ImGui::DestroyContext(ctx); }
  std::vector<ui::Command> frame(const ui::PanelModel& m, ui::PanelState& st) {
    ImGui::NewFrame();
    probe.items.clear();
    st.probe = &probe;
    std::vector<ui::Command> out = ui::drawPanel(m, st);
    ImGui::Render();
    return out;
  }
  // hover the item, press, release: the commands of those frames
  std::vector<ui::Command> click(const std::string& name, const ui::PanelModel& m,
                                 ui::PanelState& st) {
    const ui::ItemRect* r = probe.find(name);
    INFO("widget: " << name);
    REQUIRE(r != nullptr);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(0.5f * (r->x0 + r->x1), 0.5f * (r->y0 + r->y1));
    std::vector<ui::Command> out;
    for (const bool down : {false, true, false}) {
      io.MouseDown[0] = down;
      for (ui::Command& c : frame(m, st)) out.push_back(std::move(c));
    }
    io.MousePos = ImVec2(1279, 1999);
    return out;
  }
};

// The largest solid block (rows of at least `run` px, stacked) of colour c within `tol` per
// channel in the columns [0, x1): its height in rows.
int solidRows(const Image& im, int x1, const unsigned char c[3], int tol, int run) {
  int best = 0, stacked = 0;
  for (int y = 0; y < im.h; ++y) {
    int longest = 0, cur = 0;
    for (int x = 0; x < std::min(x1, im.w); ++x) {
      const unsigned char* p = &im.rgb[(static_cast<size_t>(y) * im.w + x) * 3];
      const bool near = std::abs(p[0] - c[0]) <= tol && std::abs(p[1] - c[1]) <= tol &&
                        std::abs(p[2] - c[2]) <= tol;
      cur = near ? cur + 1 : 0;
      longest = std::max(longest, cur);
    }
    stacked = longest >= run ? stacked + 1 : 0;
    best = std::max(best, stacked);
  }
  return best;
}

// The index of a potential zero in the panel's combo (lab::kPotentialZeros).
int zeroIndex(lab::PotentialZero z) {
  for (size_t i = 0; i < std::size(lab::kPotentialZeros); ++i)
    if (lab::kPotentialZeros[i].zero == z) return static_cast<int>(i);
  return -1;
}
int originZero() {
  return zeroIndex(lab::PotentialZero::Origin);
}

// pendulum_small_angle stepped to the bottom of its swing, T/4 after its release at rest, and
// its panel drawn twice (the bars' scale settles at the first frame): lane 0's kinetic bar's
// width over the bars' width.
double kineticShareAtBottom(app::Session& s, Imgui& g) {
  const double quarter = 0.25 * 2.0 * M_PI * std::sqrt(1.0 / kG);  // L = 1 m; theta0^2 is 1e-4
  while (s.time() < quarter) REQUIRE(s.stepOnce());
  ui::PanelModel pm;
  s.fillPanel(pm);
  ui::PanelState st;
  g.frame(pm, st);
  g.frame(pm, st);
  const ui::ItemRect *bar = g.probe.find("bar/kinetic"), *frame = g.probe.find("bars frame");
  REQUIRE(bar != nullptr);
  REQUIRE(frame != nullptr);
  return (bar->x1 - bar->x0) / (frame->x1 - frame->x0);
}

}  // namespace

TEST_CASE("energy: a hanging mass on a spring splits its potential into m g h and k x^2 / 2") {
  simtest::Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(0.2, -1.5, 0.0), Vec3(0.3, 0.0, 0.4), 2.0);  // |v|^2 = 0.25
  b.spring(0, 1, 40.0, 1.0);
  const simtest::System sys = b.build(Vec3(0.0, -kG, 0.0));
  const sim::Energy e = sim::energy(sys.mass_spring, sys.state);
  const double stretch = std::hypot(0.2, 1.5) - 1.0;
  CHECK(e.gravitational == doctest::Approx(2.0 * kG * -1.5).epsilon(1e-14));  // m g h, h = -1.5
  CHECK(e.elastic == doctest::Approx(0.5 * 40.0 * stretch * stretch).epsilon(1e-14));
  CHECK(e.kinetic == doctest::Approx(0.5 * 2.0 * 0.25).epsilon(1e-14));
  CHECK(e.potential == doctest::Approx(e.gravitational + e.elastic).epsilon(1e-15));
  CHECK(e.total() == doctest::Approx(e.kinetic + e.gravitational + e.elastic).epsilon(1e-15));
}

TEST_CASE("energy: a pendulum's potential is all gravitational, zero at the origin") {
  sim::PendulumModel m;
  m.pivot = Vec3(0.5, 1.0, 0.0);
  m.length = Eigen::VectorXd::Constant(1, 2.0);
  m.mass = Eigen::VectorXd::Constant(1, 3.0);
  sim::State s;
  s.x = Eigen::VectorXd::Constant(1, 0.5);  // rad from the downward vertical
  s.v = Eigen::VectorXd::Constant(1, 1.2);  // rad/s
  const sim::Energy e = sim::energy(m, s);
  // -m g L cos(theta) + m g y_pivot: the bob's height above the origin times m g
  CHECK(e.gravitational == doctest::Approx(3.0 * kG * (1.0 - 2.0 * std::cos(0.5))).epsilon(1e-14));
  CHECK(e.elastic == 0.0);
  CHECK(e.kinetic == doctest::Approx(0.5 * 3.0 * 4.0 * 1.44).epsilon(1e-14));
  CHECK(e.potential == e.gravitational);
}

TEST_CASE("energy: the bars add up to the total and to E0 through the ledger, with a grab") {
  const fs::path scene = writeFile("energy_bars_damped.json", kDampedScene);
  app::Session s;
  s.load(scene.string());
  std::string msg;
  REQUIRE(s.apply(ui::SetPotentialZero{originZero()}, &msg));  // the bars at the contract's zero
  REQUIRE(s.apply(ui::AddLane{"symplectic_euler", 0.002}, &msg));
  for (int k = 0; k < 300; ++k) REQUIRE(s.stepOnce());
  s.setGrab(2, Vec3(1.5, -1.0, 0.0));  // pull the lower mass up and aside
  for (int k = 0; k < 700; ++k) REQUIRE(s.stepOnce());
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.plots.energy_bars.size() == 2u);
  const double scale = pm.plots.energy_scale;
  REQUIRE(scale > 0.0);
  for (int i = 0; i < 2; ++i) {
    CAPTURE(i);
    const ui::EnergyBars& b = pm.plots.energy_bars[static_cast<size_t>(i)];
    const sim::Energy e = s.lane(i).energy();
    const lab::Lane::Ledger ledger = s.lane(i).ledger();
    CHECK(b.total == e.total());
    CHECK(std::abs(b.kinetic + b.gravitational + b.elastic - b.total) <= 1e-13 * scale);
    CHECK(std::abs(b.total + b.dissipated + b.contacts - b.grab - b.error - b.e0) <= 1e-13 * scale);
    CHECK(b.contacts == 0.0);  // no collider
    CHECK(b.error == ledger.residual);
    CHECK(b.dissipated == ledger.dissipated);
    CHECK(b.grab == ledger.external);
    CHECK(b.e0 == s.lane(i).e0());
    CHECK(b.dissipated > 1e-3 * scale);  // the dashpots and the drag did work
    CHECK(b.grab > 1e-3 * scale);        // the grab pulled the mass up: work put in
    CHECK(b.elastic > 0.0);
    CHECK(b.gravitational < 0.0);  // below the origin
  }
  // rk4's own error is far below the first-order lane's
  CHECK(std::abs(pm.plots.energy_bars[0].error) < 1e-6 * scale);
  CHECK(std::abs(pm.plots.energy_bars[1].error) > 10.0 * std::abs(pm.plots.energy_bars[0].error));
}

TEST_CASE("energy: the panel draws the bars, hides them, and their scale grows at once") {
  app::Session s;
  s.load("seed004_double_pendulum");
  for (int k = 0; k < 200; ++k) REQUIRE(s.stepOnce());
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.plots.energy_bars.size() == 1u);
  Imgui g;
  ui::PanelState st;
  g.frame(pm, st);
  g.frame(pm, st);
  const ui::ItemRect* bars = g.probe.find("energy bars");
  REQUIRE(bars != nullptr);
  CHECK(bars->x1 - bars->x0 > 100.0f);
  CHECK(bars->y1 - bars->y0 > 5 * ImGui::GetTextLineHeight());  // a row per bar, elastic hidden
  REQUIRE(g.probe.find("Energy bars") != nullptr);
  // the scale holds the largest bar with room to spare, either side of zero
  const ui::EnergyBars& b = pm.plots.energy_bars[0];
  const double largest_neg = std::max({-b.gravitational, -b.total, -b.e0, 0.0});
  CHECK(st.energy_bars_negative >= largest_neg);
  CHECK(st.energy_bars_negative <= 1.2 * largest_neg * (1.0 + 1e-12) + 1e-300);
  // a larger kinetic energy: the scale grows at once; back: it shrinks slowly
  const double before = st.energy_bars_positive;
  ui::PanelModel bigger = pm;
  bigger.plots.energy_bars[0].kinetic = 10.0 * (before + 1.0);
  g.frame(bigger, st);
  CHECK(st.energy_bars_positive == doctest::Approx(1.2 * bigger.plots.energy_bars[0].kinetic));
  const double grown = st.energy_bars_positive;
  g.frame(pm, st);
  CHECK(st.energy_bars_positive < grown);
  CHECK(st.energy_bars_positive > 0.99 * grown);
  // the checkbox hides them
  st.show_energy_bars = false;
  g.frame(pm, st);
  CHECK(g.probe.find("energy bars") == nullptr);
  CHECK(g.probe.find("Energy bars") != nullptr);
}

TEST_CASE("energy: a recorded --ui picture shows the bars in each lane's colour") {
  const fs::path dir = tempDir() / "energy_bars_record";
  fs::create_directories(dir);
  const fs::path out = dir / "bars.png";
  const RunResult r =
      springlab({"record", "seed002_elastic_pendulum", "--size", "1280x720", "--seconds", "0.5",
                 "--fps", "20", "--ui", "--lanes", "rk4,euler", "--out", out.string()});
  CAPTURE(r.err);
  REQUIRE(r.status == 0);
  const Image im = loadPng(out);
  REQUIRE(im.w == 1280);
  // lane 0's bars: solid near-white blocks in the panel (no text or curve is that solid)
  const ui::LaneColour c0 = ui::laneColour(0);
  const unsigned char white[3] = {static_cast<unsigned char>(c0.r * 255 + 0.5f),
                                  static_cast<unsigned char>(c0.g * 255 + 0.5f),
                                  static_cast<unsigned char>(c0.b * 255 + 0.5f)};
  CHECK(solidRows(im, 440, white, 3, 12) >= 4);
  // lane 1's: its colour ghosted over the bars' frame (alpha 130 / 255 over (20, 22, 28))
  const ui::LaneColour c1 = ui::laneColour(1);
  const double a = 130.0 / 255.0;
  const unsigned char ghost[3] = {
      static_cast<unsigned char>(std::lround(a * c1.r * 255 + (1 - a) * 20)),
      static_cast<unsigned char>(std::lround(a * c1.g * 255 + (1 - a) * 22)),
      static_cast<unsigned char>(std::lround(a * c1.b * 255 + (1 - a) * 28))};
  CHECK(solidRows(im, 440, ghost, 4, 12) >= 3);
}

TEST_CASE("stopwatch: counts simulated time through its buttons, holds when stopped or paused") {
  app::Session s;
  s.load("seed004_double_pendulum");
  std::string msg;
  Imgui g;
  ui::PanelState st;
  ui::PanelModel pm;
  auto press = [&](const std::string& name) {
    s.fillPanel(pm);
    g.frame(pm, st);
    const std::vector<ui::Command> cmds = g.click(name, pm, st);
    REQUIRE(cmds.size() == 1u);
    REQUIRE(ui::commandAs<ui::SessionCommand>(cmds[0]) != nullptr);  // the stopwatch's
    REQUIRE(s.apply(*ui::commandAs<ui::SessionCommand>(cmds[0]), &msg));
    s.fillPanel(pm);
  };
  auto reading = [&] {
    s.fillPanel(pm);
    return pm.measure.stopwatch;
  };
  const double dt = s.dt();
  for (int k = 0; k < 100; ++k) REQUIRE(s.stepOnce());
  CHECK(reading() == 0.0);  // not started
  press("stopwatch/Start");
  const double t0 = s.time();
  for (int k = 0; k < 250; ++k) REQUIRE(s.stepOnce());
  CHECK(reading() == doctest::Approx(250 * dt).epsilon(1e-12));
  CHECK(reading() == s.time() - t0);
  CHECK(pm.measure.stopwatch_running);
  // paused: the clock and the reading hold, and it keeps running
  REQUIRE(s.apply(ui::SetPaused{true}, &msg));
  const double held = reading();
  s.sample();
  CHECK(reading() == held);
  REQUIRE(s.apply(ui::SetPaused{false}, &msg));
  press("stopwatch/Stop");
  CHECK_FALSE(pm.measure.stopwatch_running);
  for (int k = 0; k < 100; ++k) REQUIRE(s.stepOnce());
  CHECK(reading() == doctest::Approx(250 * dt).epsilon(1e-12));  // stopped: not counting
  press("stopwatch/Start");
  for (int k = 0; k < 150; ++k) REQUIRE(s.stepOnce());
  CHECK(reading() == doctest::Approx(400 * dt).epsilon(1e-12));
  press("stopwatch/Reset");  // back to 0, still running
  for (int k = 0; k < 50; ++k) REQUIRE(s.stepOnce());
  CHECK(reading() == doctest::Approx(50 * dt).epsilon(1e-12));
  CHECK(pm.measure.stopwatch_running);
  // the panel shows it to 4 decimals
  g.frame(pm, st);
  REQUIRE(g.probe.find("stopwatch") != nullptr);
  // a seek on the timeline and the simulation's Reset set it back to 0, stopped
  REQUIRE(s.apply(ui::SeekHistory{0}, &msg));
  CHECK(reading() == 0.0);
  CHECK_FALSE(pm.measure.stopwatch_running);
  press("stopwatch/Start");
  for (int k = 0; k < 20; ++k) REQUIRE(s.stepOnce());
  CHECK(reading() > 0.0);
  REQUIRE(s.apply(ui::Reset{}, &msg));
  CHECK(reading() == 0.0);
  CHECK_FALSE(pm.measure.stopwatch_running);
}

TEST_CASE("energy: at the bottom of pendulum_small_angle's swing the kinetic bar fills a third") {
  // the default zero, the lowest point, is the bottom of the swing: the bars span the exchange
  app::Session s;
  s.load("pendulum_small_angle");
  Imgui g;
  CHECK(s.potentialZero() == lab::PotentialZero::Lowest);
  const double share = kineticShareAtBottom(s, g);
  CHECK(share >= 1.0 / 3.0);
  CHECK(share <= 1.0);
  // at the origin's zero the same state's kinetic bar is invisible beside gravity's -9.81 J
  app::Session origin;
  origin.load("pendulum_small_angle");
  std::string msg;
  REQUIRE(origin.apply(ui::SetPotentialZero{originZero()}, &msg));
  CHECK(kineticShareAtBottom(origin, g) < 0.01);
}

TEST_CASE("energy: the potential's zero moves gravity's bar, the total and E0, not the lane's") {
  // a 0.5 kg mass on a spring of k = 20 N/m hung from the origin, released at its rest length:
  // it rests m g / k lower, so from the equilibrium its start's gravity is m g (m g / k)
  const char* hanging = R"({"name": "hanging", "integrator": "rk4", "dt": 0.001, "duration": 1,
    "system": {"type": "mass_spring",
      "particles": [{"position": [0, 0, 0], "fixed": true}, {"position": [0, -1, 0], "mass": 0.5}],
      "springs": [{"a": 0, "b": 1, "stiffness": 20, "rest_length": 1.0}]}})";
  const fs::path scene = writeFile("energy_zero_hanging.json", hanging);
  app::Session s;
  s.load(scene.string());
  const double m = 0.5, k = 20.0, from_rest = m * kG * (m * kG / k), at_origin = -m * kG;
  std::string msg;
  for (const lab::PotentialZero z :
       {lab::PotentialZero::Lowest, lab::PotentialZero::Equilibrium, lab::PotentialZero::Origin}) {
    CAPTURE(static_cast<int>(z));
    REQUIRE(s.apply(ui::SetPotentialZero{zeroIndex(z)}, &msg));
    ui::PanelModel pm;
    s.fillPanel(pm);
    const ui::EnergyBars& b = pm.plots.energy_bars[0];
    const bool origin = z == lab::PotentialZero::Origin;
    CHECK(b.gravitational == doctest::Approx(origin ? at_origin : from_rest).epsilon(1e-6));
    CHECK(b.total == doctest::Approx(b.kinetic + b.gravitational + b.elastic).epsilon(1e-12));
    CHECK(b.e0 == doctest::Approx(b.total).epsilon(1e-12));  // at the start
    CHECK(pm.plots.zero_moved == !origin);
    CHECK(pm.plots.potential_zero_note.empty());
    CHECK(pm.plots.potential_zeros.at(static_cast<size_t>(pm.plots.potential_zero)) ==
          lab::kPotentialZeros[zeroIndex(z)].name);
  }
  // the lane's own energies (the CSV's) keep the origin
  CHECK(s.lane(0).energy().gravitational == doctest::Approx(at_origin));
  CHECK(!s.apply(ui::SetPotentialZero{7}, &msg));
  CHECK(msg == "potential zero: 7 is not one of 0 to 2");
}

TEST_CASE("energy: the panel's Potential zero combo issues SetPotentialZero") {
  app::Session s;
  s.load("pendulum_small_angle");
  ui::PanelModel pm;
  s.fillPanel(pm);
  Imgui g;
  ui::PanelState st;
  std::vector<ui::Command> out;
  // hover, press, release and two idle frames on an item, the mouse left there (the list that
  // the combo opens is drawn from the frame after the release)
  auto click = [&](const std::string& name) {
    g.frame(pm, st);
    const ui::ItemRect* r = g.probe.find(name);
    INFO("widget: " << name);
    REQUIRE(r != nullptr);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(0.5f * (r->x0 + r->x1), 0.5f * (r->y0 + r->y1));
    for (const bool down : {false, true, false, false, false}) {
      io.MouseDown[0] = down;
      for (ui::Command& c : g.frame(pm, st)) out.push_back(std::move(c));
    }
  };
  click("Potential zero");
  click("zero/origin");
  const ui::SetPotentialZero* picked = nullptr;
  for (const ui::Command& c : out)
    if (const auto* z = ui::commandAs<ui::SetPotentialZero>(c)) picked = z;
  REQUIRE(picked != nullptr);
  CHECK(picked->zero == originZero());
}
