// Internal helpers shared by the panel's files: tooltips, the testing probe, clamped sliders and
// the plots. Not part of the public interface.
#pragma once

#include <imgui.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ui/panel.hpp"

namespace ui::detail {

// px: ImGui's default font at UI scale 1, against which sizes grow with the font
inline constexpr float kBaseFontSize = 13.0f;

// A tooltip on the last item: its unit and meaning. Call it after every other query on the item.
void tip(const char* text);
// A tooltip now, wrapped so that it fits the display (every tooltip of the panel goes through it).
void tooltip(const char* text);
// Reports the last item's rectangle to the probe (testing aid), if any.
void note(ItemProbe* probe, std::string name);
// "Label##id" -> "Label".
std::string visibleLabel(const char* label);

// A button with a probe entry and a tooltip; true when clicked.
bool button(const char* label, const char* tooltip, ItemProbe* probe);
// A checkbox with a probe entry and a tooltip; true when toggled, the new value in *out.
bool checkbox(const char* label, bool value, const char* tooltip, ItemProbe* probe, bool* out);

// Appends the command, clamped (clampCommand); a non-finite one is dropped.
void emit(std::vector<Command>& out, Command c);
// A display flag's checkbox (its row in displayFlags(); `label` and `tooltip` replace the row's
// where given): emits SetDisplayFlag and returns true when toggled.
bool flagBox(const PanelModel& m, DisplayFlag flag, ItemProbe* probe, std::vector<Command>& out,
             const char* label = nullptr, const char* tooltip = nullptr);

enum class Commit { Live, OnRelease };
struct SliderSpec {
  const char* label;
  double lo, hi;
  const char* format;
  bool logarithmic;
  Commit commit;
  const char* tooltip;
};
// A slider over a double. Live: returns true with *out whenever the value changes. OnRelease:
// the value being dragged or typed lives in PanelState; returns true once, when the item is
// deactivated after an edit to a new value (IsItemDeactivatedAfterEdit). *out is not yet clamped.
// Logarithmic over the whole of [lo, hi]; the value shown (and a dragged value, rounded to it) in
// `format`; Shift while dragging moves the value 10 times slower (fine mode, widgets.cpp).
bool slider(const SliderSpec& spec, double value, PanelState& state, double* out);

// v with `digits` significant digits and a short exponent: "1.4e9", "-2.5e-5", "31.51"; "-" for
// NaN.
std::string compact(double v, int digits = 4);

// Plots drawn with the window's ImDrawList (plots.cpp).
struct Series {
  std::span<const float> y;
  ImU32 colour;
  const char* name;
};
void energyPlot(const PanelModel& model, ItemProbe* probe);
void driftPlot(const PanelModel& model, ItemProbe* probe);
void phasePlot(const PanelModel& model, ItemProbe* probe);
// Lane i's measurements (MeasureView::lanes), or none measured (zeros) where the model has none.
const LaneMeasure& laneMeasure(const PanelModel& model, int i);
// The period readout under it: a line per lane (docs/lab.md#period).
void periodReadout(const PanelModel& model, ItemProbe* probe);
// One curve per lane, in the lane's colour, on a log10 axis (zero at 1e-17).
struct LanePlotSpec {
  const char* title;                        // the line above the plot
  const char* id;                           // "##name": the probe reports "name"
  std::span<const float> LaneRow::*values;  // the plotted history of each lane
  const char* tooltip;
  bool skip_lane0 = false;  // lane 0 is the reference (its distance from itself is 0)
};
void laneLogPlot(const PanelModel& model, const LanePlotSpec& spec, ItemProbe* probe);
// The energy bars with their show/hide checkbox and the potential's zero (energy_bars.cpp); their
// scale lives in `st`.
void energyBars(const PanelModel& m, PanelState& st, ItemProbe* probe, std::vector<Command>& out);
// The Physics section: the parameters that apply, the mouse spring (physics_panel.cpp).
void physicsSection(const PanelModel& m, PanelState& st, std::vector<Command>& out);
// The Lab section: lanes, the timeline (lab_panel.cpp).
void labSection(const PanelModel& m, PanelState& st, std::vector<Command>& out);
// ui/edit_panel.cpp
void editSection(const PanelModel& m, PanelState& st, std::vector<Command>& out);

}  // namespace ui::detail
