// The panel's measurements and its Lab section, without a renderer: the frame time split and the
// bottleneck, the plots' marks, legends and drift label, the x-limit lines, lanes added, branched
// and removed, the timeline, the stability map's Save map PNG, the period readout.
#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <string>
#include <vector>

#include "ui/panel.hpp"
#include "ui_helpers.hpp"

using namespace uitest;

TEST_CASE("ui: the frame time split and the bottleneck when the clock falls behind") {
  ui::PanelModel m;
  m.frame.ms_sim = 38.0, m.frame.ms_render = 9.0, m.frame.ms_present = 3.0;
  m.frame.realtime_percent = 100.0;
  CHECK(ui::costSummary(m).empty());  // keeping up: nothing to say
  m.frame.realtime_percent = 96.0;
  CHECK(ui::costSummary(m).empty());
  m.frame.realtime_percent = 60.0;
  CHECK(ui::costSummary(m) == "simulation is the bottleneck: 38 ms of 50 ms");
  m.frame.ms_sim = 2.0, m.frame.ms_render = 30.5;
  CHECK(ui::costSummary(m) == "rendering is the bottleneck: 30.5 ms of 35.5 ms");
  m.frame.ms_present = 40.0;
  CHECK(ui::costSummary(m) == "presenting is the bottleneck: 40 ms of 72.5 ms");
  m.clock.paused = true;  // a paused clock is not behind
  CHECK(ui::costSummary(m).empty());
  m.clock.paused = false;
  m.frame.ms_sim = std::nan("");
  CHECK(ui::costSummary(m).empty());

  Harness h(1280, 860);  // the Diagnostics section's line on screen below the others
  Fixture f;
  f.model.frame.ms_sim = 38.0, f.model.frame.ms_render = 9.0, f.model.frame.ms_present = 3.0;
  f.model.frame.realtime_percent = 100.0;
  auto draw = f.panel(h);
  h.frame(draw);
  std::string text = h.text(draw);
  INFO(text);
  CHECK(text.find("sim 38 ms + render 9 ms + present 3 ms") != std::string::npos);
  CHECK(text.find("bottleneck") == std::string::npos);
  CHECK(h.probe.find("bottleneck") == nullptr);
  f.model.frame.realtime_percent = 62.0;
  text = h.text(draw);
  CHECK(text.find("simulation is the bottleneck: 38 ms of 50 ms") != std::string::npos);
  h.moveTo("bottleneck");
  h.frame(draw);
  h.frame(draw);
  CHECK(h.tooltipShown());
}

TEST_CASE("ui: plots mark parameter changes at their times, legends fit the panel") {
  Harness h(1280, 1800);
  Fixture f;                                                        // history from t = 0 to 9.95 s
  f.model.plots.marks = {-1.0f, 2.5f, 7.5f, 12.0f, std::nanf("")};  // two inside the plotted window
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  std::vector<ui::ItemRect> marks;
  for (const ui::ItemRect& r : h.probe.items)
    if (r.name.rfind("mark/", 0) == 0) marks.push_back(r);
  REQUIRE(marks.size() == 4);  // 2.5 and 7.5, on the energy plot and on the drift plot
  for (const char* plot : {"energy plot", "drift plot"}) {
    INFO(plot);
    const ui::ItemRect& p = h.item(plot);
    const ui::ItemRect* m25 = nullptr;
    const ui::ItemRect* m75 = nullptr;
    for (const ui::ItemRect& r : marks)
      if (r.y0 >= p.y0 && r.y1 <= p.y1) (r.name == "mark/2.5" ? m25 : m75) = &r;
    REQUIRE(m25 != nullptr);
    REQUIRE(m75 != nullptr);
    CHECK(m75->name == "mark/7.5");
    // at their times: 7.5 s is 3 times as far from t = 0 as 2.5 s (the frame starts at x0)
    const float x0 = 0.5f * (m25->x0 + m25->x1) - (m75->x0 - m25->x0) * 0.5f;
    CHECK(x0 > p.x0);  // right of the value labels
    CHECK(0.5f * (m75->x0 + m75->x1) == doctest::Approx(p.x1 - (p.x1 - x0) * (2.45f / 9.95f)));
  }
  // hovering a mark tells what it is
  h.moveTo("mark/7.5");
  h.frame(draw);
  h.frame(draw);
  CHECK(h.tooltipShown());
  const std::string text = h.text(draw);
  CHECK(text.find("A parameter was changed at t = 7.5 s.") != std::string::npos);

  // large energies: the legend's values are compact and stay inside the panel
  std::vector<float> big(200, -1.23456789e9f), bigger(200, 4.5e10f);
  f.model.plots.kinetic = bigger, f.model.plots.potential = big;
  h.frame(draw);
  h.frame(draw);
  const ImGuiWindow* w = ImGui::FindWindowByName("springlab");
  REQUIRE(w != nullptr);
  for (const char* name : {"legend/K", "legend/V", "legend/E"}) {
    INFO(name);
    CHECK(h.item(name).x1 <= w->Pos.x + w->Size.x - w->WindowPadding.x + 1.0f);
  }
  const std::string legend = h.text(draw);
  CHECK(legend.find("K 4.5e10 J") != std::string::npos);
  CHECK(legend.find("V -1.235e9 J") != std::string::npos);
}

TEST_CASE("ui: the drift plot says what the drift is relative to") {
  Harness h(1280, 1800);
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  std::string text = h.text(draw);
  CHECK(text.find("drift |E - E0| / |E0| = 2.095e-5") != std::string::npos);  // 1e-9 exp(9.95)
  f.model.plots.drift_label = "|E - E0| / S";
  text = h.text(draw);
  CHECK(text.find("drift |E - E0| / S = 2.095e-5") != std::string::npos);
}

TEST_CASE("ui: every x-limit line is red above 1, the dt slider's and each lane's") {
  Harness h(1280, 1600);
  Fixture f;
  f.model.clock.dt = 0.001;
  f.model.measure.dt_limit = 0.0005;  // dt = 2 x limit
  for (int i = 0; i < 2; ++i) {
    f.model.lanes.rows.push_back(laneRow(f, "rk4", 0.001, f.drift));
    ui::LaneMeasure measure;
    measure.dt_over_limit = i == 0 ? 2.0 : 0.5;
    f.model.measure.lanes.push_back(measure);
  }
  auto draw = f.panel(h);
  h.frame(draw);  // opened on first use: the model has two lanes
  h.frame(draw);
  CHECK(h.probe.find("dt limit/above 1") != nullptr);
  CHECK(h.probe.find("lane/0/limit above 1") != nullptr);
  CHECK(h.probe.find("lane/1/limit") != nullptr);
  CHECK(h.probe.find("lane/1/limit above 1") == nullptr);
  f.model.measure.dt_limit = 0.002;  // dt = 0.5 x limit: grey
  h.frame(draw);
  CHECK(h.probe.find("dt limit") != nullptr);
  CHECK(h.probe.find("dt limit/above 1") == nullptr);
}

TEST_CASE("ui: the Lab section adds, branches and removes lanes and seeks the timeline") {
  Harness h(1280, 1600);
  Fixture f;
  f.model.clock.dt = 0.001;
  std::vector<float> zeros(200, 0.0f), dist = series(200, [](double x) { return 1e-6 * x; });
  for (int i = 0; i < 2; ++i)
    f.model.lanes.rows.push_back(laneRow(f, i == 0 ? "symplectic-euler" : "explicit-euler",
                                         0.001 * (i + 1), i == 0 ? zeros : dist));
  f.model.lanes.history_size = 10, f.model.lanes.history_t0 = 0.0, f.model.lanes.history_t1 = 9.0;
  f.model.lanes.history_index = 9;  // the newest kept state is the one shown
  f.model.clock.sim_time = 9.0;
  auto draw = f.panel(h);
  h.frame(draw);  // opened on first use: the model has two lanes
  h.frame(draw);
  CHECK(h.probe.find("lane/1") != nullptr);
  CHECK(h.probe.find("lane drift") != nullptr);
  CHECK(h.probe.find("lane distance") != nullptr);
  // the picker's integrator, then Add lane: a lane from lane 0 with it and lane 0's dt
  h.click("New lane", draw);
  h.click("lane integrator/implicit-euler", draw);
  h.click("Add lane", draw);
  auto added = h.of<ui::AddLane>();
  REQUIRE(added.size() == 1);
  CHECK(added[0].integrator == "implicit-euler");
  CHECK(added[0].dt == 0.001);
  h.click("Branch/1", draw);

  auto branched = h.of<ui::BranchLane>();
  REQUIRE(branched.size() == 1);
  CHECK(branched[0].lane == 1);
  CHECK(branched[0].integrator == "implicit-euler");
  CHECK(h.probe.find("Remove/0") == nullptr);  // lane 0 stays
  h.click("Remove/1", draw);

  auto removed = h.of<ui::RemoveLane>();
  REQUIRE(removed.size() == 1);
  CHECK(removed[0].lane == 1);
  h.click("Side by side", draw);

  REQUIRE(h.flags(ui::DisplayFlag::SplitLanes).size() == 1);
  CHECK(h.flags(ui::DisplayFlag::SplitLanes)[0].on);
  // the timeline moves only while paused (a click: dragging a disabled item drags the window)
  h.moveTo("Timeline", 0.05f);
  h.click("Timeline", draw);

  CHECK(h.of<ui::SeekHistory>().empty());
  f.model.clock.paused = true;
  h.drag("Timeline", 0.6f, 0.02f, draw);  // the rectangle holds the label on the right
  const auto seeks = h.of<ui::SeekHistory>();
  REQUIRE_FALSE(seeks.empty());
  CHECK(seeks.back().entry == 0);
  // full: no more lanes
  f.model.lanes.max_lanes = 2;
  h.commands.clear();
  h.click("Add lane", draw);
  CHECK(h.of<ui::AddLane>().empty());
}

TEST_CASE("ui: Save map PNG under the stability map emits SaveMapPng and shows where it went") {
  Harness h(1280, 1600);
  Fixture f;
  f.model.clock.dt = 0.001;
  // the rows' spans view it: it must outlive the frames
  const std::vector<float> distance = series(200, [](double) { return 0.0; });
  for (int i = 0; i < 2; ++i)  // two lanes: the Lab section opens on first use
    f.model.lanes.rows.push_back(laneRow(f, "verlet", 0.001, distance));
  ui::StabilityMapView& map = f.model.jobs.stability;
  map.integrator = "verlet";
  map.dts = {0.001, 0.002, 0.004}, map.scales = {1.0};
  map.cells = {ui::StabilityMapView::Stable, ui::StabilityMapView::Drifting,
               ui::StabilityMapView::Diverged};
  map.done = 3;
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  h.click("Save map PNG", draw);
  const auto saves = h.of<ui::SaveMapPng>();
  REQUIRE(saves.size() == 1);
  CHECK(saves[0].path.empty());  // the Session's default place
  map.saved = "saved the map to /somewhere/cloth_16-map-verlet.png";
  ImGui::GetIO().MousePos = ImVec2(1279, 1599);  // no tooltip: it would end the text's log
  h.frame(draw);
  const std::string shown = h.text(draw);
  CHECK(shown.find("saved the map to /somewhere/cloth_16-map-verlet.png") != std::string::npos);
  map.saved = "cannot write PNG 'x/map.png': x/map.png: cannot open for writing: Not a directory";
  map.save_failed = true;
  CHECK(h.text(draw).find("cannot write PNG 'x/map.png'") != std::string::npos);
}

TEST_CASE(
    "ui: the period readout shows each lane's period, theory and error at the top of "
    "Diagnostics, wrapped, not cut") {
  ui::LaneMeasure row;
  CHECK(ui::periodLine(row) == "period: no oscillation yet");
  row.period = 2.00711, row.crossings = 12;
  CHECK(ui::periodLine(row) == "period 2.0071 s (12 crossings)");  // no theory
  row.theory_period = 2.00641, row.period_error = 3.49e-4;
  CHECK(ui::periodLine(row) == "period 2.0071 s (12 crossings)  theory 2.0064 s  error +3.5e-4");
  CHECK(ui::periodMeasured(row) == "period 2.0071 s (12 crossings)");
  CHECK(ui::periodTheory(row) == "theory 2.0064 s  error +3.5e-4");
  row.period = 2.006;  // the trailing zero kept, as beside a theory of 2.0061
  CHECK(ui::periodMeasured(row) == "period 2.0060 s (12 crossings)");
  row.period_error = -1.2e-7;
  CHECK(ui::periodLine(row).ends_with("error -1.2e-7"));

  Harness h(1280, 1600);
  Fixture f;
  for (int i = 0; i < 2; ++i) {
    f.model.lanes.rows.push_back(laneRow(f, i == 0 ? "rk4" : "symplectic_euler", 0.001, f.drift));
    ui::LaneMeasure measure;
    if (i == 0) measure.period = 2.00711, measure.crossings = 12, measure.theory_period = 2.00641;
    f.model.measure.lanes.push_back(measure);
  }
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  REQUIRE(h.probe.find("period/0") != nullptr);
  REQUIRE(h.probe.find("period/1") != nullptr);
  // under the stopwatch, above the energy bars and the plots: no scrolling past them
  CHECK(h.probe.find("period/0")->y0 >= h.probe.find("stopwatch")->y1);
  CHECK(h.probe.find("period/1")->y1 <= h.probe.find("energy plot")->y0);
  CHECK(h.probe.find("period/1")->y1 <= h.probe.find("phase plot")->y0);
  ImGui::GetIO().MousePos = ImVec2(1279, 1599);  // no tooltip: it would end the text's log
  h.frame(draw);
  const std::string shown = h.text(draw);
  // the panel is narrower than the line: the theory on a line of its own
  CHECK(shown.find("period 2.0071 s (12 crossings)") != std::string::npos);
  CHECK(shown.find("theory 2.0064 s  error +0.0e0") != std::string::npos);
  CHECK(shown.find("period: no oscillation yet") != std::string::npos);
  // a panel narrower than the theory's line: it wraps inside the panel instead of being cut
  ImGuiWindow* panel = ImGui::FindWindowByName("springlab");
  REQUIRE(panel != nullptr);
  panel->SizeFull.x = 180.0f;
  h.frame(draw);
  h.frame(draw);
  const ui::ItemRect& lane0 = *h.probe.find("period/0");
  CHECK(lane0.x1 <= panel->Pos.x + panel->Size.x);
  CHECK(lane0.y1 - lane0.y0 > 2.5f * ImGui::GetTextLineHeight());  // more than its two lines
}
