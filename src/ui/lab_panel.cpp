// The panel's Lab section (docs/lab.md#lanes): the lanes with their colours and states, the picker
// that adds or branches one, the overlay / side-by-side choice, their drift and distance plots,
// and the timeline of kept states.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/widgets.hpp"

namespace ui::detail {

namespace {
using K = Command::Kind;

Command laneCommand(K kind, int lane, double value = 0.0, std::string text = {}) {
  Command c = makeCommand(kind, value, 0, std::move(text));
  c.lane = lane;
  return c;
}

ImVec4 colourOf(int lane) {
  const LaneColour c = laneColour(lane);
  return ImVec4(c.r, c.g, c.b, 1.0f);
}

// One lane: its swatch, integrator, dt (and fraction of the limit), state; Branch and Remove.
void laneLine(const PanelModel& m, int i, const PanelState& st, std::vector<Command>& out) {
  const LaneRow& row = m.lanes[static_cast<size_t>(i)];
  ImGui::PushID(i);
  ImGui::ColorButton("##swatch", colourOf(i), ImGuiColorEditFlags_NoTooltip,
                     ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
  ImGui::SameLine();
  std::string text = std::to_string(i) + "  " + row.integrator + "  dt " + compact(row.dt) + " s";
  if (row.dt_over_limit > 0.0) text += "  (" + compact(row.dt_over_limit, 3) + " x limit)";
  if (row.diverged)
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s  diverged", text.c_str());
  else
    ImGui::TextUnformatted(text.c_str());
  note(st.probe, "lane/" + std::to_string(i));
  if (row.diverged) tip(row.divergence.c_str());
  const bool full = static_cast<int>(m.lanes.size()) >= m.max_lanes;
  ImGui::SameLine();
  ImGui::BeginDisabled(full);
  const std::string integrator = st.lab_integrator.empty() ? m.integrator : st.lab_integrator;
  const double dt = st.lab_dt > 0.0 ? st.lab_dt : m.dt;
  if (ImGui::SmallButton("Branch")) emit(out, laneCommand(K::BranchLane, i, dt, integrator));
  note(st.probe, "Branch/" + std::to_string(i));
  tip("A new lane from this lane's current state, with the picker's integrator and dt below.");
  ImGui::EndDisabled();
  if (i > 0) {
    ImGui::SameLine();
    if (ImGui::SmallButton("Remove")) emit(out, laneCommand(K::RemoveLane, i));
    note(st.probe, "Remove/" + std::to_string(i));
    tip("Remove this lane.");
  }
  ImGui::PopID();
}

// The integrator and dt of the next lane, and "Add lane".
void lanePicker(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  const std::string current = st.lab_integrator.empty() ? m.integrator : st.lab_integrator;
  if (ImGui::BeginCombo("New lane", current.c_str())) {
    for (const IntegratorChoice& choice : m.integrators) {
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
             st.lab_dt > 0.0 ? st.lab_dt : m.dt, st, &v))
    st.lab_dt = std::clamp(v, Limits::kDtMin, Limits::kDtMax);
  const bool full = static_cast<int>(m.lanes.size()) >= m.max_lanes;
  ImGui::BeginDisabled(full);
  if (button("Add lane",
             "A lane from lane 0's current state with this integrator and dt; it then advances "
             "in lock-step of simulated time (at most 4 on screen).",
             st.probe))
    emit(out, laneCommand(K::AddLane, 0, st.lab_dt > 0.0 ? st.lab_dt : m.dt, current));
  ImGui::EndDisabled();
  ImGui::SameLine();
  bool split = m.split_lanes;
  if (checkbox("Side by side", m.split_lanes,
               "Each lane in its own viewport with the camera shared, instead of overlaid.",
               st.probe, &split))
    emit(out, makeCommand(K::SetSplitLanes, split ? 1.0 : 0.0));
}

// The timeline: while paused, a slider over the kept states.
void timeline(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  if (m.history_size < 2) return;
  const int last = m.history_size - 1;
  int index = last;
  if (m.history_t1 > m.history_t0)
    index = static_cast<int>(
        std::lround(last * (m.sim_time - m.history_t0) / (m.history_t1 - m.history_t0)));
  index = std::clamp(index, 0, last);
  char label[96];
  std::snprintf(label, sizeof label, "t = %s s", compact(m.sim_time).c_str());
  ImGui::BeginDisabled(!m.paused);
  if (ImGui::SliderInt("Timeline", &index, 0, last, label))
    emit(out, makeCommand(K::SeekHistory, 0.0, index));
  ImGui::EndDisabled();
  note(st.probe, "Timeline");
  char text[256];
  std::snprintf(text, sizeof text,
                "Pause, then drag to go back and forth through %d kept states (%s to %s s, %s "
                "MB; older ones are thinned to stay within the memory budget). Running on, or "
                "Branch, starts from the state shown.",
                m.history_size, compact(m.history_t0).c_str(), compact(m.history_t1).c_str(),
                compact(m.history_mb, 3).c_str());
  tip(text);
}
}  // namespace

void labSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  for (int i = 0; i < static_cast<int>(m.lanes.size()); ++i) laneLine(m, i, st, out);
  lanePicker(m, st, out);
  timeline(m, st, out);
  if (m.lanes.size() < 2) return;
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
