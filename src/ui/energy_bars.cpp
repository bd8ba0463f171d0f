// The energy bars (docs/integrators.md#energy-bars): myPhysicsLab's EnergyBarGraph, per lane, with
// the ledger's terms beside the energies: what dissipation took out, what the grab put in, and
// the integrator's own error. Drawn with the window's ImDrawList so that recordings show them.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "ui/panel.hpp"
#include "ui/widgets.hpp"

namespace ui::detail {

namespace {

constexpr ImU32 kFrame = IM_COL32(20, 22, 28, 255);
constexpr ImU32 kZero = IM_COL32(150, 150, 160, 255);
constexpr ImU32 kLabel = IM_COL32(190, 190, 200, 255);
constexpr ImU32 kAnchor = IM_COL32(250, 210, 60, 255);  // E0: the plots' mark colour, opaque
// The scale is the largest bar times kHeadroom, so that a bar can grow a little before the
// scale must; it grows at once (a bar never leaves the frame) and shrinks by kShrinkPerFrame
// (halving in about 6 s at 60 frames/s), so that an oscillation's swing does not make the
// scale breathe with it.
constexpr double kHeadroom = 1.2;
constexpr double kShrinkPerFrame = 0.998;
// Both sides together span at least this much of the scene's energy scale S: a system at rest
// must not blow round-off up to full bars. With gravity's zero at the origin, gravity's -m g h
// fills the bars anyway; with the zero moved to the motion (docs/lab.md#the-zero-of-the-potential)
// the bars show the motion's energy alone, a millionth of S and more (pendulum_small_angle's swing
// is 5e-5 S), still far above round-off (1e-16 S).
constexpr double kLeastSpanOfScale = 0.1, kLeastSpanMovedZero = 1e-6;
constexpr float kSubBarPx = 5.0f;  // at UI scale 1: one lane's bar when several share a row
constexpr int kLaneAlphaGhost = 130, kLaneAlphaDiverged = 50;

struct Row {
  const char* label;
  double EnergyBars::*value;
};
constexpr Row kRows[] = {
    {"kinetic", &EnergyBars::kinetic},       {"gravity", &EnergyBars::gravitational},
    {"elastic", &EnergyBars::elastic},       {"total E", &EnergyBars::total},
    {"dissipated", &EnergyBars::dissipated}, {"contacts", &EnergyBars::contacts},
    {"grab work", &EnergyBars::grab},        {"error", &EnergyBars::error},
};
constexpr int kTotalRow = 3, kElasticRow = 2, kContactsRow = 5;

bool rowShown(const PanelModel& m, int row) {
  if (row == kContactsRow) return m.plots.contacts;  // colliders or self-collision
  return row != kElasticRow || m.scene.springs > 0;  // a pendulum's rods store no elastic energy
}

double settle(double scale, double needed) {
  if (!(scale >= needed)) return needed * kHeadroom;  // grows at once (and from NaN)
  return std::max(needed * kHeadroom, scale * kShrinkPerFrame);
}

// The scales either side of zero (J) for this frame, kept in PanelState between frames.
void updateScale(const PanelModel& m, PanelState& st) {
  double pos = 0.0, neg = 0.0;
  for (const EnergyBars& b : m.plots.energy_bars) {
    for (const Row& r : kRows) {
      const double v = b.*(r.value);
      if (std::isfinite(v)) pos = std::max(pos, v), neg = std::max(neg, -v);
    }
    if (std::isfinite(b.e0)) pos = std::max(pos, b.e0), neg = std::max(neg, -b.e0);
  }
  const double fraction = m.plots.zero_moved ? kLeastSpanMovedZero : kLeastSpanOfScale;
  const double least = std::isfinite(m.plots.energy_scale) && m.plots.energy_scale > 0.0
                           ? fraction * m.plots.energy_scale
                           : 1e-12;
  if (st.energy_bars_zero != m.plots.potential_zero) {  // another zero: the scale afresh
    st.energy_bars_positive = st.energy_bars_negative = 0.0;
    st.energy_bars_zero = m.plots.potential_zero;
  }
  if (pos + neg < least) pos = least - neg;
  st.energy_bars_positive = settle(st.energy_bars_positive, pos);
  st.energy_bars_negative = settle(st.energy_bars_negative, neg);
}

// Where the bars of a row go: x of zero and J per px.
struct Axis {
  float x0, x1, zero;
  double per_px;
  float at(double v) const {
    if (!std::isfinite(v)) return zero;
    return std::clamp(zero + static_cast<float>(v / per_px), x0, x1);
  }
};

ImU32 laneFill(int lane, bool diverged) {
  const LaneColour c = laneColour(lane);
  const int a = diverged ? kLaneAlphaDiverged : lane == 0 ? 255 : kLaneAlphaGhost;
  return IM_COL32(int(c.r * 255), int(c.g * 255), int(c.b * 255), a);
}

ImU32 laneLine(int lane) {
  const LaneColour c = laneColour(lane);
  return IM_COL32(int(c.r * 255), int(c.g * 255), int(c.b * 255), 255);
}

// One row: each lane's bar from zero (lane 0 solid, the others ghosted under an outline), and on
// the total's row each lane's anchor E0. The probe gets lane 0's bar as "bar/<row>".
void drawRow(ImDrawList* dl, const PanelModel& m, const Row& row, bool total, const Axis& ax,
             float y0, float bar, ItemProbe* probe) {
  for (size_t i = 0; i < m.plots.energy_bars.size(); ++i) {
    const EnergyBars& b = m.plots.energy_bars[i];
    const int lane = static_cast<int>(i);
    const float top = y0 + static_cast<float>(i) * (bar + 1.0f), bottom = top + bar;
    const float a = ax.zero, e = ax.at(b.*(row.value));
    const ImVec2 p0(std::min(a, e), top), p1(std::max(a, e), bottom);
    if (probe && lane == 0)
      probe->items.push_back({std::string("bar/") + row.label, p0.x, p0.y, p1.x, p1.y});
    if (p1.x > p0.x) {
      dl->AddRectFilled(p0, p1, laneFill(lane, b.diverged));
      if (lane > 0) dl->AddRect(p0, p1, laneLine(lane));
    }
    if (total) {
      const float x = ax.at(b.e0);
      dl->AddLine(ImVec2(x, top - 2.0f), ImVec2(x, bottom + 2.0f), kAnchor,
                  lane == 0 ? 2.0f : 1.0f);
    }
  }
}

// Every lane's numbers, for the hover tooltip.
std::string valuesText(const PanelModel& m) {
  std::string s =
      "Energies now and the ledger since the anchor, J (docs/integrators.md#energy-bars).\n"
      "Bars from zero, on a scale that grows at once and shrinks slowly; the yellow tick on "
      "'total E' is the anchor E0. total = kinetic + gravity + elastic, and "
      "total + dissipated + contacts - grab work - error = E0.\n";
  for (size_t i = 0; i < m.plots.energy_bars.size(); ++i) {
    const EnergyBars& b = m.plots.energy_bars[i];
    s += "\nlane " + std::to_string(i) +
         (i < m.lanes.rows.size() ? " " + m.lanes.rows[i].integrator : "") +
         (b.diverged ? " (stopped)" : "") + ":";
    for (int r = 0; r < static_cast<int>(std::size(kRows)); ++r)
      if (rowShown(m, r))
        s += std::string("  ") + kRows[r].label + " " + compact(b.*(kRows[r].value));
    s += "  E0 " + compact(b.e0);
  }
  return s;
}

}  // namespace

// The potential's zero (docs/lab.md#the-zero-of-the-potential), for the bars and the energy plot,
// with the reason where the origin stands in for the choice.
void potentialZeroCombo(const PanelModel& m, ItemProbe* probe, std::vector<Command>& out) {
  const std::vector<std::string>& names = m.plots.potential_zeros;
  if (names.empty()) return;
  const int at = std::clamp(m.plots.potential_zero, 0, static_cast<int>(names.size()) - 1);
  if (ImGui::BeginCombo("Potential zero", names[static_cast<size_t>(at)].c_str())) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i) {
      ImGui::PushID(i);
      const bool picked = ImGui::Selectable(names[static_cast<size_t>(i)].c_str(), i == at);
      note(probe, "zero/" + names[static_cast<size_t>(i)]);
      if (i < static_cast<int>(m.plots.potential_zero_tips.size()))
        tip(m.plots.potential_zero_tips[static_cast<size_t>(i)].c_str());
      if (picked && i != at) emit(out, SetPotentialZero{i});
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  note(probe, "Potential zero");
  tip("Where gravity's potential energy is zero in the energy bars and the energy plot. The CSV "
      "files, the drift and the caption keep the origin (docs/lab.md#the-zero-of-the-potential).");
  if (!m.plots.potential_zero_note.empty()) {
    ImGui::TextDisabled("%s", m.plots.potential_zero_note.c_str());
    note(probe, "zero note");
  }
}

void energyBars(const PanelModel& m, PanelState& st, ItemProbe* probe, std::vector<Command>& out) {
  bool shown = st.show_energy_bars;
  if (checkbox("Energy bars", shown, "Each lane's energies and ledger as bars.", probe, &shown))
    st.show_energy_bars = shown;
  potentialZeroCombo(m, probe, out);
  if (!st.show_energy_bars || m.plots.energy_bars.empty()) return;
  updateScale(m, st);
  const float ui = ImGui::GetFontSize() / kBaseFontSize, line = ImGui::GetTextLineHeight();
  const size_t lanes = m.plots.energy_bars.size();
  const float bar = lanes == 1 ? line - 2.0f : kSubBarPx * ui;
  const float row_h = std::max(line, static_cast<float>(lanes) * (bar + 1.0f)) + 3.0f;
  int rows = 0;
  for (int r = 0; r < static_cast<int>(std::size(kRows)); ++r) rows += rowShown(m, r);
  const float label_w = ImGui::CalcTextSize("dissipated").x + 6.0f;
  const float value_w = ImGui::CalcTextSize("-8.888e-88 J").x + 4.0f;
  const float w = std::max(ImGui::GetContentRegionAvail().x, label_w + value_w + 60.0f);
  ImGui::InvisibleButton("##energy bars", ImVec2(w, row_h * static_cast<float>(rows) + 4.0f));
  note(probe, "energy bars");
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fx0 = a.x + label_w, fx1 = b.x - value_w;
  dl->AddRectFilled(ImVec2(fx0, a.y), ImVec2(fx1, b.y), kFrame, 3.0f);
  const double span = st.energy_bars_positive + st.energy_bars_negative;
  const float inner0 = fx0 + 3.0f, inner1 = fx1 - 3.0f;
  const Axis ax{inner0, inner1,
                inner0 + (inner1 - inner0) * static_cast<float>(st.energy_bars_negative / span),
                span / static_cast<double>(inner1 - inner0)};
  if (probe) probe->items.push_back({"bars frame", inner0, a.y, inner1, b.y});  // the bars' width
  float y = a.y + 2.0f;
  for (int r = 0; r < static_cast<int>(std::size(kRows)); ++r) {
    if (!rowShown(m, r)) continue;
    const float bars_h = static_cast<float>(lanes) * (bar + 1.0f) - 1.0f;
    const float y0 = y + 0.5f * (row_h - 3.0f - bars_h);
    dl->AddText(ImVec2(a.x, y + 0.5f * (row_h - 3.0f - line)), kLabel, kRows[r].label);
    drawRow(dl, m, kRows[r], r == kTotalRow, ax, y0, bar, probe);
    const std::string value = compact(m.plots.energy_bars[0].*(kRows[r].value)) + " J";
    dl->AddText(ImVec2(fx1 + 4.0f, y + 0.5f * (row_h - 3.0f - line)), kLabel, value.c_str());
    y += row_h;
  }
  dl->AddLine(ImVec2(ax.zero, a.y), ImVec2(ax.zero, b.y), kZero);
  if (ImGui::IsItemHovered()) tooltip(valuesText(m).c_str());
}

}  // namespace ui::detail
