// The panel's Lab section (docs/lab.md#lanes): the lanes with their colours and states, the picker
// that adds or branches one, the overlay / side-by-side choice, their drift and distance plots,
// and the timeline of kept states.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/widgets.hpp"

namespace ui::detail {

namespace {

ImVec4 colourOf(int lane) {
  const LaneColour c = laneColour(lane);
  return ImVec4(c.r, c.g, c.b, 1.0f);
}

// One lane: its swatch, integrator, dt (and fraction of the limit), state; Branch and Remove.
void laneLine(const PanelModel& m, int i, const PanelState& st, std::vector<Command>& out) {
  const LaneRow& row = m.lanes.rows[static_cast<size_t>(i)];
  ImGui::PushID(i);
  ImGui::ColorButton("##swatch", colourOf(i), ImGuiColorEditFlags_NoTooltip,
                     ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
  ImGui::SameLine();
  const std::string text = std::to_string(i) + "  " + row.name() + "  dt " + compact(row.dt) + " s";
  if (row.diverged)
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s  diverged", text.c_str());
  else
    ImGui::TextUnformatted(text.c_str());
  note(st.probe, "lane/" + std::to_string(i));
  if (row.diverged) tip(row.divergence.c_str());
  // the second line: the step against its limit, then the buttons
  ImGui::Indent(ImGui::GetFontSize() * 1.5f);
  const double overLimit = laneMeasure(m, i).dt_over_limit;
  if (overLimit > 0.0) {
    const std::string ratio = compact(overLimit, 3) + " x limit";
    const bool above = overLimit > 1.0;  // red, as the dt slider's line
    if (above)
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", ratio.c_str());
    else
      ImGui::TextDisabled("%s", ratio.c_str());
    note(st.probe, "lane/" + std::to_string(i) + (above ? "/limit above 1" : "/limit"));
    tip("dt against this integrator's stability limit at the lane's current state (its local "
        "frequency, a few times a second; springlab info gives the largest over the motion); "
        "above 1 it diverges.");
    ImGui::SameLine();
  }
  if (!std::isnan(row.step_residual)) {
    char text[48];
    std::snprintf(text, sizeof text, "residual %.1e", row.step_residual);
    ImGui::TextDisabled("%s", text);
    note(st.probe, "lane/" + std::to_string(i) + "/residual");
    tip(("The last step's residual " + row.step_residual_name +
         ": how far it is from its method's converged answer (0: converged).")
            .c_str());
    ImGui::SameLine();
  }
  const bool full = static_cast<int>(m.lanes.rows.size()) >= m.lanes.max_lanes;
  ImGui::BeginDisabled(full);
  const std::string integrator = st.lab_integrator.empty() ? m.clock.integrator : st.lab_integrator;
  const double dt = st.lab_dt > 0.0 ? st.lab_dt : m.clock.dt;
  // the picker's set-up, else the lane's own: a branch of a stiffer copy stays one
  const std::string setup = st.lab_setup[0] != '\0' ? std::string(st.lab_setup) : row.setup;
  if (ImGui::SmallButton("Branch")) emit(out, BranchLane{i, integrator, dt, setup});
  note(st.probe, "Branch/" + std::to_string(i));
  tip("A new lane from this lane's current state, with the picker's integrator, dt and set-up "
      "below (no set-up given: this lane's).");
  ImGui::EndDisabled();
  if (i > 0) {
    ImGui::SameLine();
    if (ImGui::SmallButton("Remove")) emit(out, RemoveLane{i});
    note(st.probe, "Remove/" + std::to_string(i));
    tip("Remove this lane.");
  }
  ImGui::Unindent(ImGui::GetFontSize() * 1.5f);
  ImGui::PopID();
}

// The integrator and dt of the next lane, and "Add lane".
void lanePicker(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  const std::string current = st.lab_integrator.empty() ? m.clock.integrator : st.lab_integrator;
  if (ImGui::BeginCombo("New lane", current.c_str())) {
    for (const IntegratorChoice& choice : m.clock.integrators) {
      if (ImGui::Selectable(choice.name.c_str(), choice.name == current))
        st.lab_integrator = choice.name;
      note(st.probe, "lane integrator/" + choice.name);
      if (!choice.tooltip.empty()) tip(choice.tooltip.c_str());
    }
    ImGui::EndCombo();
  }
  note(st.probe, "New lane");
  tip("The integrator of the lane Add lane or Branch makes.");
  double v = 0.0;
  if (slider({"Lane dt", Limits::kDtMin, Limits::kDtMax, "%.3g s", true, Commit::OnRelease,
              "The step of the lane Add lane or Branch makes (logarithmic; Shift for fine "
              "control)."},
             st.lab_dt > 0.0 ? st.lab_dt : m.clock.dt, st, &v))
    st.lab_dt = std::clamp(v, Limits::kDtMin, Limits::kDtMax);
  ImGui::InputTextWithHint("Set-up", "e.g. stiffness_scale=4", st.lab_setup, sizeof st.lab_setup);
  note(st.probe, "lane setup");
  tip("The new lane's own set-up, KEY=VALUE joined by ':' (stiffness_scale, spring_damping, drag, "
      "joint_damping, mass_scale; a pendulum's length_scale): it steps its own copy of the scene, "
      "which follows every other change. Empty: the scene as it is.");
  const bool full = static_cast<int>(m.lanes.rows.size()) >= m.lanes.max_lanes;
  ImGui::BeginDisabled(full);
  if (button("Add lane",
             "A lane from lane 0's current state with this integrator and dt; it then advances "
             "in lock-step of simulated time (at most 4 on screen).",
             st.probe))
    emit(out, AddLane{current, st.lab_dt > 0.0 ? st.lab_dt : m.clock.dt, st.lab_setup});
  ImGui::EndDisabled();
  ImGui::SameLine();
  flagBox(m, DisplayFlag::SplitLanes, st.probe, out);
}

// The timeline: while paused, a slider over the kept states.
void timeline(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  if (m.lanes.history_size < 2) return;
  const int last = m.lanes.history_size - 1;
  int index = std::clamp(m.lanes.history_index, 0, last);
  char label[96];
  std::snprintf(label, sizeof label, "t = %s s", compact(m.clock.sim_time).c_str());
  ImGui::BeginDisabled(!m.clock.paused);
  if (ImGui::SliderInt("Timeline", &index, 0, last, label)) emit(out, SeekHistory{index});
  ImGui::EndDisabled();
  note(st.probe, "Timeline");
  char text[256];
  std::snprintf(text, sizeof text,
                "Pause, then drag to go back and forth through %d kept states (%s to %s s, %s "
                "MB; older ones are thinned to stay within the memory budget). The states after "
                "the one shown stay until running on, or a step, starts from it: then they go.",
                m.lanes.history_size, compact(m.lanes.history_t0).c_str(),
                compact(m.lanes.history_t1).c_str(), compact(m.lanes.history_mb, 3).c_str());
  tip(text);
}
// The cell colours of the stability map: stable green, drifting amber, diverged red, pending grey.
ImU32 cellColour(signed char cell) {
  switch (cell) {
    case StabilityMapView::Stable:
      return IM_COL32(40, 140, 80, 255);
    case StabilityMapView::Drifting:
      return IM_COL32(215, 150, 30, 255);
    case StabilityMapView::Diverged:
      return IM_COL32(200, 55, 50, 255);
    default:
      return IM_COL32(45, 48, 56, 255);
  }
}

// Fraction of [lo, hi] on a log axis (the grids are geometric).
double logFraction(double v, double lo, double hi) {
  return hi > lo ? std::log(v / lo) / std::log(hi / lo) : 0.5;
}

// The map's frame: cells, the limit curve dt = limit / sqrt(k scale), the current (dt, k).
void drawStabilityCells(const PanelModel& m, ImVec2 p0, ImVec2 p1) {
  const StabilityMapView& v = m.jobs.stability;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const size_t nx = v.dts.size(), ny = v.scales.size();
  const float cw = (p1.x - p0.x) / float(nx), ch = (p1.y - p0.y) / float(ny);
  for (size_t r = 0; r < ny; ++r)
    for (size_t c = 0; c < nx; ++c) {
      const ImVec2 a(p0.x + cw * float(c), p1.y - ch * float(r + 1));
      dl->AddRectFilled(a, ImVec2(a.x + cw, a.y + ch), cellColour(v.cells[r * nx + c]));
    }
  // cell centres span the axes: a value maps to the fraction between the first and last centre
  const double dlo = v.dts.front(), dhi = v.dts.back(), slo = v.scales.front(),
               shi = v.scales.back();
  auto toScreen = [&](double dt, double k) {
    const float fx = nx > 1 ? float(logFraction(dt, dlo, dhi)) : 0.5f;
    const float fy = ny > 1 ? float(logFraction(k, slo, shi)) : 0.5f;
    return ImVec2(p0.x + cw * 0.5f + (p1.x - p0.x - cw) * fx,
                  p1.y - ch * 0.5f - (p1.y - p0.y - ch) * fy);
  };
  dl->PushClipRect(p0, p1, true);
  if (v.limit_dt > 0.0) {
    constexpr int kCurvePoints = 32;
    std::vector<ImVec2> curve;
    for (int i = 0; i <= kCurvePoints; ++i) {
      const double k = ny > 1 ? slo * std::pow(shi / slo, double(i) / kCurvePoints) : 1.0;
      curve.push_back(toScreen(v.limit_dt / std::sqrt(k), k));
      if (ny == 1) curve.push_back(ImVec2(curve.back().x, p0.y)), curve.front().y = p1.y;
      if (ny == 1) break;
    }
    dl->AddPolyline(curve.data(), static_cast<int>(curve.size()), IM_COL32(255, 255, 255, 230), 0,
                    2.0f);
  }
  const ImVec2 here = toScreen(m.clock.dt, ny > 1 ? m.jobs.stability.scale : 1.0);
  dl->AddCircle(here, 5.0f, IM_COL32(255, 255, 255, 255), 12, 2.0f);
  dl->PopClipRect();
}

// The cell under the mouse, or false.
bool hoveredCell(const StabilityMapView& v, ImVec2 p0, ImVec2 p1, size_t& row, size_t& column) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (mouse.x < p0.x || mouse.x >= p1.x || mouse.y < p0.y || mouse.y >= p1.y) return false;
  column = static_cast<size_t>((mouse.x - p0.x) / (p1.x - p0.x) * float(v.dts.size()));
  row = static_cast<size_t>((p1.y - mouse.y) / (p1.y - p0.y) * float(v.scales.size()));
  return column < v.dts.size() && row < v.scales.size();
}

// The map as an item: hover says the cell, a click sets dt (and the stiffness scale).
void stabilityMapPlot(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  const StabilityMapView& v = m.jobs.stability;
  constexpr float kHeight = 150.0f;  // px at UI scale 1
  const float w = std::max(ImGui::GetContentRegionAvail().x, 100.0f);
  const float h =
      v.scales.size() > 1 ? kHeight * ImGui::GetFontSize() / 13.0f : 2 * ImGui::GetFontSize();
  ImGui::InvisibleButton("##stability map", ImVec2(w, h));
  note(st.probe, "stability map");
  const ImVec2 p0 = ImGui::GetItemRectMin(), p1 = ImGui::GetItemRectMax();
  drawStabilityCells(m, p0, p1);
  size_t row = 0, column = 0;
  if (!hoveredCell(v, p0, p1, row, column)) return;
  const signed char cell = v.cells[row * v.dts.size() + column];
  static const char* const kNames[] = {"stable", "drifting", "diverged"};
  const char* what = cell >= 0 && cell <= 2 ? kNames[cell] : "not run yet";
  if (ImGui::IsItemHovered()) {
    char text[160];
    std::snprintf(text, sizeof text, "dt = %s s, stiffness x%s: %s\nClick to run with these.",
                  compact(v.dts[column]).c_str(), compact(v.scales[row]).c_str(), what);
    tooltip(text);
  }
  if (!ImGui::IsItemClicked()) return;
  emit(out, SetDt{v.dts[column]});
  if (v.scales.size() > 1) emit(out, SetParameter{v.scale_parameter, v.scales[row]});
}

// Run / Cancel, progress, the map and its axes.
void stabilitySection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  const StabilityMapView& v = m.jobs.stability;
  if (button(v.running ? "Cancel map" : "Stability map",
             v.running
                 ? "Stop the sweep."
                 : "Sweep the current scene over dt and stiffness with lane 0's integrator in "
                   "the background: each cell runs the scene and is classed stable, drifting "
                   "or diverged.",
             st.probe)) {
    if (v.running)
      emit(out, CancelStabilityMap{});
    else
      emit(out, RunStabilityMap{});
  }
  ImGui::SameLine();
  if (!v.cells.empty())
    ImGui::Text("%s  %d/%zu cells", v.integrator.c_str(), v.done, v.cells.size());
  else if (!v.note.empty())
    ImGui::TextUnformatted(v.note.c_str());
  if (v.cells.empty() || v.dts.empty() || v.scales.empty()) return;
  stabilityMapPlot(m, st, out);
  ImGui::Text("dt %s to %s s%s", compact(v.dts.front()).c_str(), compact(v.dts.back()).c_str(),
              v.scales.size() > 1 ? "" : "");
  if (v.scales.size() > 1) {
    ImGui::SameLine();
    ImGui::Text("  stiffness x%s to x%s", compact(v.scales.front()).c_str(),
                compact(v.scales.back()).c_str());
  }
  tip("Green stable, amber drifting (relative energy error above 1 %), red diverged, grey not "
      "run yet. White line: the theoretical limit dt = limit / sqrt(stiffness scale); circle: "
      "the current dt and stiffness.");
  if (button("Save map PNG",
             "Writes the map as a picture (title, axes with their ticks, the limit line "
             "labelled, a legend) to SCENE-map-INTEGRATOR.png beside the scene file, or in the "
             "current folder for a built-in scene.",
             st.probe))
    emit(out, SaveMapPng{});
  if (v.saved.empty()) return;
  constexpr ImU32 kFailed = IM_COL32(240, 90, 80, 255);  // a save that failed reads red
  if (v.save_failed) ImGui::PushStyleColor(ImGuiCol_Text, kFailed);
  ImGui::TextWrapped("%s", v.saved.c_str());
  if (v.save_failed) ImGui::PopStyleColor();
}

// "Measure order" and the table of observed against nominal orders.
void ordersSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ImGui::BeginDisabled(m.jobs.orders_running);
  if (button(m.jobs.orders_running ? "Measuring..." : "Measure order",
             "Runs each integrator on this scene at h, h/2, h/4 and h/8 in the background (h: "
             "lane 0's dt) and shows the observed order of convergence beside the nominal one: "
             "nan, with the reason, where a run diverged or the runs are not in their "
             "asymptotic range (springlab order's rule).",
             st.probe))
    emit(out, MeasureOrder{});
  ImGui::EndDisabled();
  for (const OrderRow& row : m.jobs.orders) {
    // no number where the runs give none: nan (as `springlab order` writes) and the reason
    if (m.jobs.orders_running)
      ImGui::Text("%-18s nominal %d  observed ...", row.integrator.c_str(), row.nominal);
    else if (std::isnan(row.observed))
      ImGui::Text("%-18s nominal %d  observed nan", row.integrator.c_str(), row.nominal);
    else
      ImGui::Text("%-18s nominal %d  observed %.2f", row.integrator.c_str(), row.nominal,
                  row.observed);
    note(st.probe, "order/" + row.integrator);
    if (!m.jobs.orders_running && std::isnan(row.observed) && !row.note.empty()) {
      ImGui::Indent(ImGui::GetFontSize() * 1.5f);
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", row.note.c_str());
      ImGui::PopStyleColor();
      ImGui::Unindent(ImGui::GetFontSize() * 1.5f);
    }
  }
}
}  // namespace

void labSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  for (int i = 0; i < static_cast<int>(m.lanes.rows.size()); ++i) laneLine(m, i, st, out);
  lanePicker(m, st, out);
  timeline(m, st, out);
  stabilitySection(m, st, out);
  ordersSection(m, st, out);
  if (m.lanes.rows.size() < 2) return;
  laneLogPlot(m,
              {"energy drift |E - E0| / reference, per lane", "##lane drift", &LaneRow::drift,
               "Each lane's energy drift on a log axis, in its colour: where the methods' "
               "energies part."},
              st.probe);
  laneLogPlot(m,
              {"distance from lane 0 (m)", "##lane distance", &LaneRow::distance,
               "The largest distance of a body from its place in lane 0, on a log axis: when "
               "do the lanes part.",
               true},
              st.probe);
}

}  // namespace ui::detail
