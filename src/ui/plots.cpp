// Diagnostics plots drawn with ImDrawList: energies overlaid on one scale, the relative energy
// drift on a log axis, and the phase portrait of one coordinate.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "ui/widgets.hpp"

namespace ui::detail {

namespace {

constexpr ImU32 kKinetic = IM_COL32(240, 150, 50, 255);
constexpr ImU32 kPotential = IM_COL32(80, 160, 255, 255);
constexpr ImU32 kTotal = IM_COL32(235, 235, 235, 255);
constexpr ImU32 kDrift = IM_COL32(230, 90, 200, 255);
constexpr ImU32 kPhase = IM_COL32(120, 220, 140, 255);
constexpr ImU32 kFrame = IM_COL32(20, 22, 28, 255);
constexpr ImU32 kGrid = IM_COL32(90, 90, 100, 120);
constexpr ImU32 kLabel = IM_COL32(190, 190, 200, 255);
constexpr ImU32 kMark = IM_COL32(250, 210, 60, 170);

ImVec4 toVec4(ImU32 c) {
  return ImGui::ColorConvertU32ToFloat4(c);
}

// The finite range of some series; false when none has a finite value.
bool finiteRange(std::span<const Series> series, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  for (const Series& s : series)
    for (float y : s.y)
      if (std::isfinite(y)) lo = std::min(lo, double(y)), hi = std::max(hi, double(y));
  return lo <= hi;
}

// widen a degenerate range and pad it by a fraction
void padRange(double& lo, double& hi, double fraction) {
  if (!(hi > lo)) {
    const double d = std::max(std::abs(lo) * 0.1, 1e-12);
    lo -= d, hi += d;
  }
  const double pad = (hi - lo) * fraction;
  lo -= pad, hi += pad;
}

// The horizontal axis of the energy and drift plots: simulated time when the history carries it
// (energy_time, one per sample, increasing), else the sample index.
struct TimeAxis {
  std::span<const float> t;  // empty: by index
  double lo = 0.0, hi = 1.0;

  TimeAxis(std::span<const float> time, size_t n) {
    if (n >= 2 && time.size() == n && std::isfinite(time.front()) && std::isfinite(time.back()) &&
        time.back() > time.front())
      t = time, lo = time.front(), hi = time.back();
  }
  // fraction of the width for sample k of n
  double at(size_t k, size_t n) const {
    if (!t.empty()) return std::isfinite(t[k]) ? std::clamp((t[k] - lo) / (hi - lo), 0.0, 1.0) : -1;
    return n > 1 ? double(k) / double(n - 1) : 1.0;
  }
};

// A polyline of y[i] over [p0, p1]; broken at non-finite values; decimated to ~2 points per pixel.
void drawSeries(ImDrawList* dl, ImVec2 p0, ImVec2 p1, std::span<const float> y,
                const TimeAxis& axis, double lo, double hi, ImU32 colour) {
  const size_t n = y.size();
  if (n == 0 || !(hi > lo)) return;
  const float w = p1.x - p0.x, h = p1.y - p0.y;
  const size_t stride = std::max<size_t>(1, n / std::max<size_t>(1, size_t(2 * w)));
  std::vector<ImVec2> run;
  auto flush = [&] {
    if (run.size() >= 2) dl->AddPolyline(run.data(), static_cast<int>(run.size()), colour, 0, 1.5f);
    if (run.size() == 1) dl->AddCircleFilled(run[0], 1.5f, colour);
    run.clear();
  };
  for (size_t i = 0; i < n; i += stride) {
    const size_t k = (i + stride >= n) ? n - 1 : i;  // always end on the last sample
    const float v = y[k];
    const double x = axis.at(k, n);
    if (!std::isfinite(v) || x < 0.0) {
      flush();
      continue;
    }
    const double u = std::clamp((double(v) - lo) / (hi - lo), 0.0, 1.0);
    run.push_back(ImVec2(p0.x + w * float(x), p1.y - h * static_cast<float>(u)));
    if (k == n - 1) break;
  }
  flush();
}

float last(std::span<const float> s) {
  return s.empty() ? std::numeric_limits<float>::quiet_NaN() : s.back();
}

// Reserves the plot as an item (so it can be hovered): a frame for the curves, a gutter of
// `gutter` px on its left for the value labels and a row under it for the time labels, so that
// no label lies on a curve. p0, p1: the frame.
// `height` in px at UI scale 1 (ImGui's 13 px font): it grows with the font, so that a 4K clip's
// plots keep their shape.
void plotArea(const char* id, float height, float gutter, ImVec2& p0, ImVec2& p1) {
  height *= ImGui::GetFontSize() / kBaseFontSize;
  const float w = std::max(ImGui::GetContentRegionAvail().x, gutter + 50.0f);
  const float row = ImGui::GetTextLineHeight() + 2.0f;
  ImGui::InvisibleButton(id, ImVec2(w, height + row));
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  p0 = ImVec2(a.x + gutter, a.y), p1 = ImVec2(b.x, b.y - row);
  ImGui::GetWindowDrawList()->AddRectFilled(p0, p1, kFrame, 3.0f);
}

// The time labels under the frame: first and last simulated time (or nothing, by index).
void timeLabels(ImDrawList* dl, ImVec2 p0, ImVec2 p1, const TimeAxis& axis) {
  if (axis.t.empty()) return;
  const std::string a = compact(axis.lo) + " s", b = "t = " + compact(axis.hi) + " s";
  dl->AddText(ImVec2(p0.x, p1.y + 1.0f), kLabel, a.c_str());
  dl->AddText(ImVec2(p1.x - ImGui::CalcTextSize(b.c_str()).x, p1.y + 1.0f), kLabel, b.c_str());
}

// Vertical lines at the parameter changes inside the plotted time window (probe: "mark/<t>");
// returns the mark nearest the mouse (within 4 px) or NaN.
double drawMarks(ImDrawList* dl, ImVec2 p0, ImVec2 p1, const TimeAxis& axis,
                 const std::vector<float>& marks, ItemProbe* probe) {
  double hovered = std::numeric_limits<double>::quiet_NaN();
  if (axis.t.empty()) return hovered;
  const float mx = ImGui::GetIO().MousePos.x;
  float best = 4.0f;
  for (float m : marks) {
    if (!std::isfinite(m) || m < axis.lo || m > axis.hi) continue;
    const float x = p0.x + (p1.x - p0.x) * static_cast<float>((m - axis.lo) / (axis.hi - axis.lo));
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), kMark, 1.0f);
    if (probe) probe->items.push_back({"mark/" + compact(m, 6), x - 4.0f, p0.y, x + 4.0f, p1.y});
    dl->AddTriangleFilled(ImVec2(x - 4, p0.y), ImVec2(x + 4, p0.y), ImVec2(x, p0.y + 6), kMark);
    if (std::abs(mx - x) <= best) best = std::abs(mx - x), hovered = m;
  }
  return hovered;
}

// The plot's tooltip: the mark under the mouse, else the plot's description.
void plotTip(double mark, const char* text) {
  if (!ImGui::IsItemHovered()) return;
  if (std::isfinite(mark))
    tooltip(("A parameter was changed at t = " + compact(mark, 6) + " s.").c_str());
  else
    tooltip(text);
}

// The legend above the energy plot: K, V, E and their latest values, wrapped rather than clipped.
void energyLegend(std::span<const Series> series, ItemProbe* probe) {
  static const char* const kTips[] = {"Kinetic energy K, in J: sum of m v^2 / 2.",
                                      "Potential energy V, in J: springs' elastic energy plus "
                                      "gravity.",
                                      "Total energy E = K + V, in J."};
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (size_t i = 0; i < series.size(); ++i) {
    const std::string text = std::string(series[i].name) + " " + compact(last(series[i].y)) + " J";
    if (i > 0) {
      ImGui::SameLine(0.0f, ImGui::GetFontSize());
      if (ImGui::GetCursorScreenPos().x + ImGui::CalcTextSize(text.c_str()).x > right)
        ImGui::NewLine();
    }
    ImGui::TextColored(toVec4(series[i].colour), "%s", text.c_str());
    note(probe, std::string("legend/") + series[i].name);
    tip(kTips[i]);
  }
}

}  // namespace

std::string compact(double v, int digits) {
  if (std::isnan(v)) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", std::clamp(digits, 1, 17), v);
  std::string s = buf;
  // "1.5e+09" -> "1.5e9", "2e-05" -> "2e-5"
  const size_t e = s.find('e');
  if (e != std::string::npos) {
    std::string exp = s.substr(e + 1);
    const bool neg = !exp.empty() && exp[0] == '-';
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.erase(0, 1);
    exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
    s = s.substr(0, e) + "e" + (neg ? "-" : "") + exp;
  }
  return s;
}

// The energy axis: the series' finite range, padded, and its labels.
struct EnergyAxis {
  double lo = 0.0, hi = 0.0;
  bool any = false;
  std::string top, bottom;
  explicit EnergyAxis(std::span<const Series> series) {
    any = finiteRange(series, lo, hi);
    if (!any) return;
    padRange(lo, hi, 0.05);
    top = compact(hi) + " J", bottom = compact(lo) + " J";
  }
};

// K, V and E, V and E measured from the potential's zero (docs/lab.md#the-zero-of-the-potential):
// the history is kept less its base (app/plot_history.hpp), which comes back here less lane 0's
// gravitational energy at the zero, into `shifted`, so that the axis spans the motion's exchange
// rather than a constant -m g h.
std::span<const Series> energySeries(const PanelModel& m, Series (&out)[3],
                                     std::vector<float> (&shifted)[2]) {
  const double offset = m.plots.potential_offset - m.plots.energy_base;
  const std::span<const float> from[2] = {m.plots.potential, m.plots.total};
  std::span<const float> y[2] = {from[0], from[1]};
  if (offset != 0.0) {
    for (int k = 0; k < 2; ++k) {
      shifted[k].resize(from[k].size());
      for (size_t i = 0; i < from[k].size(); ++i)
        shifted[k][i] = static_cast<float>(double(from[k][i]) - offset);
      y[k] = shifted[k];
    }
  }
  out[0] = {m.plots.kinetic, kKinetic, "K"};
  out[1] = {y[0], kPotential, "V"};
  out[2] = {y[1], kTotal, "E"};
  return out;
}

// One gutter for the energy and drift plots, so that their frames line up.
float gutter(const PanelModel& m) {
  Series s[3]{};
  std::vector<float> shifted[2];
  const EnergyAxis e(energySeries(m, s, shifted));
  const float w =
      std::max({ImGui::CalcTextSize(e.top.c_str()).x, ImGui::CalcTextSize(e.bottom.c_str()).x,
                ImGui::CalcTextSize("1e-17").x});
  return w + 8.0f;
}

void energyPlot(const PanelModel& m, ItemProbe* probe) {
  Series s[3]{};
  std::vector<float> shifted[2];
  const std::span<const Series> series = energySeries(m, s, shifted);
  energyLegend(series, probe);
  const EnergyAxis e(series);
  const double lo = e.lo, hi = e.hi;
  const bool any = e.any;
  const std::string &top = e.top, &bottom = e.bottom;
  ImVec2 p0, p1;
  plotArea("##energy", 110.0f, gutter(m), p0, p1);
  note(probe, "energy plot");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const TimeAxis axis(m.plots.energy_time, m.plots.total.size());
  double mark = std::numeric_limits<double>::quiet_NaN();
  if (any) {
    if (lo < 0.0 && hi > 0.0) {  // zero line
      const float y0 = p1.y - (p1.y - p0.y) * static_cast<float>(-lo / (hi - lo));
      dl->AddLine(ImVec2(p0.x, y0), ImVec2(p1.x, y0), kGrid);
    }
    mark = drawMarks(dl, p0, p1, axis, m.plots.marks, probe);
    for (const Series& s : series) drawSeries(dl, p0, p1, s.y, axis, lo, hi, s.colour);
    const float x = p0.x - 4.0f;
    dl->AddText(ImVec2(x - ImGui::CalcTextSize(top.c_str()).x, p0.y), kLabel, top.c_str());
    dl->AddText(ImVec2(x - ImGui::CalcTextSize(bottom.c_str()).x, p1.y - ImGui::GetFontSize()),
                kLabel, bottom.c_str());
    timeLabels(dl, p0, p1, axis);
  } else {
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), kLabel, "no energy history");
  }
  plotTip(mark,
          "Kinetic K (orange), potential V (blue) and total E (white) energy over the recent "
          "history, in J, on one scale. Yellow lines: parameter changes.");
}

namespace {
// log10 of non-negative values, zero drawn at `floor`, negative or non-finite ones left out.
std::vector<float> log10Series(std::span<const float> y, double floor) {
  std::vector<float> logs(y.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const double d = y[i];
    logs[i] = !std::isfinite(d) || d < 0.0
                  ? std::numeric_limits<float>::quiet_NaN()
                  : static_cast<float>(d > 0.0 ? std::max(std::log10(d), floor) : floor);
  }
  return logs;
}

// Decade grid lines and labels ("1e-6") of a log10 axis from lo to hi.
void decadeGrid(ImDrawList* dl, ImVec2 p0, ImVec2 p1, double lo, double hi) {
  const int decades = static_cast<int>(hi - lo);
  const int step = std::max(1, (decades + 3) / 4);
  const float fs = ImGui::GetFontSize();
  for (int k = static_cast<int>(lo); k <= static_cast<int>(hi); k += step) {
    const float y = p1.y - (p1.y - p0.y) * static_cast<float>((k - lo) / (hi - lo));
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), kGrid);
    const std::string text = k == 0 ? "1" : "1e" + std::to_string(k);
    const float ty = std::clamp(y - fs * 0.5f, p0.y, p1.y - fs);
    dl->AddText(ImVec2(p0.x - 4.0f - ImGui::CalcTextSize(text.c_str()).x, ty), kLabel,
                text.c_str());
  }
}
}  // namespace

void driftPlot(const PanelModel& m, ItemProbe* probe) {
  // log10 of the relative drift; zero drift is drawn at the floor
  constexpr double kFloor = -17.0;
  const std::vector<float> logs = log10Series(m.plots.drift, kFloor);
  const std::string label = m.plots.drift_label.empty() ? "drift" : m.plots.drift_label;
  ImGui::TextColored(toVec4(kDrift), "drift %s = %s", label.c_str(),
                     compact(last(m.plots.drift)).c_str());
  note(probe, "drift");
  tip("Energy drift since the start, relative to |E0| (or, where E0 is about 0, to the scene's "
      "energy scale S); dimensionless. Symplectic integrators keep it bounded, explicit Euler "
      "makes it grow.");
  ImVec2 p0, p1;
  plotArea("##drift", 90.0f, gutter(m), p0, p1);
  note(probe, "drift plot");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const TimeAxis axis(m.plots.energy_time, logs.size());
  const Series s[] = {{logs, kDrift, "drift"}};
  double lo, hi, mark = std::numeric_limits<double>::quiet_NaN();
  if (finiteRange(s, lo, hi)) {
    // whole decades, at least one
    lo = std::floor(lo), hi = std::ceil(hi);
    if (hi - lo < 1.0) hi = lo + 1.0;
    decadeGrid(dl, p0, p1, lo, hi);
    mark = drawMarks(dl, p0, p1, axis, m.plots.marks, probe);
    drawSeries(dl, ImVec2(p0.x, p0.y + 3), ImVec2(p1.x, p1.y - 3), logs, axis, lo, hi, kDrift);
    timeLabels(dl, p0, p1, axis);
  } else {
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), kLabel, "no drift history");
  }
  const std::string text = "Energy drift " + label +
                           " on a log axis (one grid line per labelled decade). Yellow lines: "
                           "parameter changes.";
  plotTip(mark, text.c_str());
}

void laneLogPlot(const PanelModel& m, const LanePlotSpec& spec, ItemProbe* probe) {
  constexpr double kFloor = -17.0;
  std::vector<std::vector<float>> logs;
  std::vector<Series> series;
  for (size_t i = 0; i < m.lanes.rows.size(); ++i) {
    logs.push_back(spec.skip_lane0 && i == 0 ? std::vector<float>()
                                             : log10Series(m.lanes.rows[i].*(spec.values), kFloor));
    const LaneColour c = laneColour(static_cast<int>(i));
    series.push_back(
        {logs.back(), IM_COL32(int(c.r * 255), int(c.g * 255), int(c.b * 255), 255), spec.id});
  }
  ImGui::TextUnformatted(spec.title);
  note(probe, spec.title);
  tip(spec.tooltip);
  ImVec2 p0, p1;
  plotArea(spec.id, 80.0f, gutter(m), p0, p1);
  note(probe, std::string(spec.id + 2));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  double lo, hi;
  if (m.lanes.rows.empty() || !finiteRange(series, lo, hi)) {
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), kLabel, "no history yet");
    return;
  }
  lo = std::floor(lo), hi = std::ceil(hi);
  if (hi - lo < 1.0) hi = lo + 1.0;
  decadeGrid(dl, p0, p1, lo, hi);
  const TimeAxis axis0(m.lanes.rows[0].time, m.lanes.rows[0].time.size());
  drawMarks(dl, p0, p1, axis0, m.plots.marks, probe);
  for (size_t i = 0; i < series.size(); ++i) {
    TimeAxis axis = axis0;  // every lane on lane 0's time window
    if (!axis.t.empty()) axis.t = m.lanes.rows[i].time;
    drawSeries(dl, ImVec2(p0.x, p0.y + 3), ImVec2(p1.x, p1.y - 3), series[i].y, axis, lo, hi,
               series[i].colour);
  }
  timeLabels(dl, p0, p1, axis0);
  plotTip(std::numeric_limits<double>::quiet_NaN(), spec.tooltip);
}

namespace {

// The phase plot's drawing area and the ranges it shows: q across, its rate v upwards.
struct PhaseFrame {
  ImVec2 p0, p1;
  double qlo = 0.0, qhi = 0.0, vlo = 0.0, vhi = 0.0;

  ImVec2 at(double q, double v) const {
    return ImVec2(p0.x + (p1.x - p0.x) * static_cast<float>((q - qlo) / (qhi - qlo)),
                  p1.y - (p1.y - p0.y) * static_cast<float>((v - vlo) / (vhi - vlo)));
  }
};

// Axes through zero (or along the border when zero is out of range).
void phaseAxes(ImDrawList* dl, const PhaseFrame& f) {
  const double qa = std::clamp(0.0, f.qlo, f.qhi), va = std::clamp(0.0, f.vlo, f.vhi);
  dl->AddLine(f.at(f.qlo, va), f.at(f.qhi, va), kGrid);
  dl->AddLine(f.at(qa, f.vlo), f.at(qa, f.vhi), kGrid);
}

// The trajectory in its runs (phaseRuns), and a dot at the last state.
void phaseTrajectory(ImDrawList* dl, const PhaseFrame& f, std::span<const float> ts,
                     std::span<const float> qs, std::span<const float> vs) {
  const size_t n = qs.size();
  std::vector<ImVec2> run;
  for (const PhaseRun& r : phaseRuns(ts, qs, vs)) {
    run.clear();
    for (size_t i = r.first; i <= r.last; ++i) run.push_back(f.at(qs[i], vs[i]));
    if (run.size() >= 2) dl->AddPolyline(run.data(), static_cast<int>(run.size()), kPhase, 0, 1.2f);
  }
  const float q = qs[n - 1], v = vs[n - 1];
  if (std::isfinite(q) && std::isfinite(v)) dl->AddCircleFilled(f.at(q, v), 3.5f, kTotal);
}

// The ranges in words: the coordinate's along the bottom of the child window [c0, c1], its
// rate's along the top.
void phaseRanges(ImDrawList* dl, const PhaseFrame& f, const std::string& name, ImVec2 c0,
                 ImVec2 c1) {
  const float fs = ImGui::GetFontSize();
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s in [%.3g, %.3g]", name.c_str(), f.qlo, f.qhi);
  dl->AddText(ImVec2(c0.x + 2, c1.y - fs), kLabel, buf);
  std::snprintf(buf, sizeof buf, "d%s/dt in [%.3g, %.3g]", name.c_str(), f.vlo, f.vhi);
  dl->AddText(ImVec2(c0.x + 2, c0.y), kLabel, buf);
}

}  // namespace

void phasePlot(const PanelModel& m, ItemProbe* probe) {
  const bool valid = m.plots.phase_coordinate >= 0 &&
                     m.plots.phase_coordinate < static_cast<int>(m.plots.phase_coordinates.size());
  const std::string name =
      valid ? m.plots.phase_coordinates[m.plots.phase_coordinate] : std::string("q");
  const float side = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
  constexpr float kPhaseMaxHeight = 220.0f;  // px at UI scale 1
  ImGui::BeginChild(
      "##phase",
      ImVec2(side, std::min(side * 0.7f, kPhaseMaxHeight * ImGui::GetFontSize() / kBaseFontSize)),
      true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const ImVec2 c0 = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const ImVec2 c1(c0.x + avail.x, c0.y + avail.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fs = ImGui::GetFontSize();
  const size_t n = std::min(m.plots.phase_q.size(), m.plots.phase_v.size());
  const Series qs[] = {{m.plots.phase_q.first(n), kPhase, "q"}};
  const Series vs[] = {{m.plots.phase_v.first(n), kPhase, "v"}};
  PhaseFrame f;
  if (n > 0 && finiteRange(qs, f.qlo, f.qhi) && finiteRange(vs, f.vlo, f.vhi)) {
    padRange(f.qlo, f.qhi, 0.08), padRange(f.vlo, f.vhi, 0.08);
    f.p0 = ImVec2(c0.x + 2, c0.y + fs + 2), f.p1 = ImVec2(c1.x - 2, c1.y - fs - 2);
    phaseAxes(dl, f);
    const std::span<const float> ts =
        m.plots.phase_t.size() >= n ? m.plots.phase_t.first(n) : std::span<const float>();
    phaseTrajectory(dl, f, ts, m.plots.phase_q.first(n), m.plots.phase_v.first(n));
    phaseRanges(dl, f, name, c0, c1);
  } else {
    dl->AddText(c0, kLabel, "no phase history");
  }
  ImGui::EndChild();
  note(probe, "phase plot");
  tip("Phase portrait: the chosen coordinate (horizontal; m or rad) against its rate (vertical; "
      "m/s or rad/s). Closed curves: energy conserved; spirals: damping or numerical dissipation.");
}

// One line per lane, in its colour, at the top of the Diagnostics section: the coordinate's period
// beside the theory and the integrator's period error (docs/lab.md#period). A line wider than the
// panel puts the theory on a line of its own, and each wraps at the panel's edge: none is cut.
void periodReadout(const PanelModel& m, ItemProbe* probe) {
  for (int i = 0; i < static_cast<int>(m.lanes.rows.size()); ++i) {
    if (m.lanes.rows[static_cast<size_t>(i)].diverged) continue;
    const LaneMeasure& row = laneMeasure(m, i);
    const LaneColour c = laneColour(i);
    const ImVec4 colour(c.r, c.g, c.b, 1.0f);
    const std::string line = periodLine(row);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(0.0f);  // at the panel's edge
    if (ImGui::CalcTextSize(line.c_str()).x <= ImGui::GetContentRegionAvail().x) {
      ImGui::TextUnformatted(line.c_str());
    } else {  // a narrow panel: the theory and error on a line of their own, indented
      ImGui::BeginGroup();
      ImGui::TextUnformatted(periodMeasured(row).c_str());
      ImGui::Indent(ImGui::GetFontSize());
      ImGui::TextUnformatted(periodTheory(row).c_str());
      ImGui::Unindent(ImGui::GetFontSize());
      ImGui::EndGroup();
    }
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    note(probe, "period/" + std::to_string(i));
    tip("The phase coordinate's period: the mean spacing of its last upward crossings of its "
        "centre (the midpoint of its last extremes), with the theory where the scene has one (a "
        "mass on a spring: 2 pi sqrt(m/k); a simple pendulum: 2 pi sqrt(L/g) corrected for its "
        "amplitude) and the integrator's period error (measured - theory) / theory. Starts "
        "afresh after a seek, Reset or a change of stiffness, gravity or grab.");
  }
}

}  // namespace ui::detail

namespace ui {

namespace {
// "+3.5e-4": a relative error, always with its sign and exponent (errors span 1e-12 to 1)
std::string signedExponent(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%+.1e", v);
  std::string s = buf;
  const size_t e = s.find('e');
  if (e == std::string::npos) return s;  // inf, nan
  std::string exp = s.substr(e + 1);
  const bool neg = exp[0] == '-';
  exp.erase(0, 1);
  exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
  return s.substr(0, e) + "e" + (neg ? "-" : "") + exp;
}
}  // namespace

std::string periodMeasured(const LaneMeasure& row) {
  if (row.crossings < 2) return "period: no oscillation yet";
  char buf[96];
  // "%#" keeps the trailing zeros: 2.0060 beside 2.0061, not 2.006
  std::snprintf(buf, sizeof buf, "period %#.5g s (%d crossings)", row.period, row.crossings);
  return buf;
}

std::string periodTheory(const LaneMeasure& row) {
  if (!(row.theory_period > 0.0)) return {};
  char buf[96];
  std::snprintf(buf, sizeof buf, "theory %#.5g s", row.theory_period);
  std::string out = buf;
  if (row.crossings >= 2) out.append("  error ").append(signedExponent(row.period_error));
  return out;
}

std::string periodLine(const LaneMeasure& row) {
  const std::string theory = periodTheory(row);
  return theory.empty() ? periodMeasured(row) : periodMeasured(row) + "  " + theory;
}

std::vector<PhaseRun> phaseRuns(std::span<const float> t, std::span<const float> q,
                                std::span<const float> v) {
  const size_t n = std::min(q.size(), v.size());
  const bool timed = t.size() >= n;
  // the typical spacing: the median of the forward steps between samples
  std::vector<float> steps;
  for (size_t i = 1; timed && i < n; ++i)
    if (t[i] > t[i - 1] && std::isfinite(t[i] - t[i - 1])) steps.push_back(t[i] - t[i - 1]);
  float gap = std::numeric_limits<float>::infinity();
  if (!steps.empty()) {
    std::nth_element(steps.begin(), steps.begin() + steps.size() / 2, steps.end());
    gap = static_cast<float>(kPhaseGap) * steps[steps.size() / 2];
  }
  std::vector<PhaseRun> runs;
  bool open = false;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(q[i]) || !std::isfinite(v[i])) {
      open = false;
      continue;
    }
    const bool joined = open && (!timed || (t[i] > t[i - 1] && t[i] - t[i - 1] <= gap));
    if (joined)
      runs.back().last = i;
    else
      runs.push_back({i, i});
    open = true;
  }
  return runs;
}

}  // namespace ui
