// Diagnostics plots drawn with ImDrawList: energies overlaid on one scale, the relative energy
// drift on a log axis, and the phase portrait of one coordinate.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
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

// A polyline of y[i] over [p0, p1]; broken at non-finite values; decimated to ~2 points per pixel.
void drawSeries(ImDrawList* dl, ImVec2 p0, ImVec2 p1, std::span<const float> y, double lo,
                double hi, ImU32 colour) {
  const int n = static_cast<int>(y.size());
  if (n == 0 || !(hi > lo)) return;
  const float w = p1.x - p0.x, h = p1.y - p0.y;
  const int stride = std::max(1, n / std::max(1, static_cast<int>(2 * w)));
  std::vector<ImVec2> run;
  auto flush = [&] {
    if (run.size() >= 2) dl->AddPolyline(run.data(), static_cast<int>(run.size()), colour, 0, 1.5f);
    if (run.size() == 1) dl->AddCircleFilled(run[0], 1.5f, colour);
    run.clear();
  };
  for (int i = 0; i < n; i += stride) {
    const int k = (i + stride >= n) ? n - 1 : i;  // always end on the last sample
    const float v = y[k];
    if (!std::isfinite(v)) {
      flush();
      continue;
    }
    const float t = n > 1 ? float(k) / float(n - 1) : 1.0f;
    const double u = std::clamp((double(v) - lo) / (hi - lo), 0.0, 1.0);
    run.push_back(ImVec2(p0.x + w * t, p1.y - h * static_cast<float>(u)));
    if (k == n - 1) break;
  }
  flush();
}

float last(std::span<const float> s) {
  return s.empty() ? std::numeric_limits<float>::quiet_NaN() : s.back();
}

// Reserves the plot area as an item (so it can be hovered) and draws its frame.
void plotArea(const char* id, float height, ImVec2& p0, ImVec2& p1) {
  const float w = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
  ImGui::InvisibleButton(id, ImVec2(w, height));
  p0 = ImGui::GetItemRectMin(), p1 = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddRectFilled(p0, p1, kFrame, 3.0f);
}

}  // namespace

void energyPlot(const PanelModel& m, ItemProbe* probe) {
  const Series series[] = {{m.kinetic, kKinetic, "kinetic"},
                           {m.potential, kPotential, "potential"},
                           {m.total, kTotal, "total"}};
  // legend, in the plot's colours, with the latest values
  for (int i = 0; i < 3; ++i) {
    if (i > 0) ImGui::SameLine();
    ImGui::TextColored(toVec4(series[i].colour), "%s %.4g J", series[i].name, last(series[i].y));
    note(probe, std::string("legend/") + series[i].name);
    tip(i == 0   ? "Kinetic energy, in J: sum of m v^2 / 2."
        : i == 1 ? "Potential energy, in J: springs' elastic energy plus gravity."
                 : "Total energy, in J: kinetic + potential.");
  }
  ImVec2 p0, p1;
  plotArea("##energy", 110.0f, p0, p1);
  note(probe, "energy plot");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  double lo, hi;
  char buf[64];
  if (finiteRange(series, lo, hi)) {
    padRange(lo, hi, 0.05);
    // zero line when in range
    if (lo < 0.0 && hi > 0.0) {
      const float y0 = p1.y - (p1.y - p0.y) * static_cast<float>(-lo / (hi - lo));
      dl->AddLine(ImVec2(p0.x, y0), ImVec2(p1.x, y0), kGrid);
    }
    for (const Series& s : series) drawSeries(dl, p0, p1, s.y, lo, hi, s.colour);
    std::snprintf(buf, sizeof buf, "%.4g J", hi);
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), kLabel, buf);
    std::snprintf(buf, sizeof buf, "%.4g J", lo);
    dl->AddText(ImVec2(p0.x + 4, p1.y - ImGui::GetFontSize() - 2), kLabel, buf);
  } else {
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), kLabel, "no energy history");
  }
  if (!m.energy_time.empty() && std::isfinite(m.energy_time.back())) {
    std::snprintf(buf, sizeof buf, "t = %.4g s", m.energy_time.back());
    const float tw = ImGui::CalcTextSize(buf).x;
    dl->AddText(ImVec2(p1.x - tw - 4, p1.y - ImGui::GetFontSize() - 2), kLabel, buf);
  }
  tip("Kinetic (orange), potential (blue) and total (white) energy over the recent history, in J, "
      "on one scale.");
}

void driftPlot(const PanelModel& m, ItemProbe* probe) {
  // log10 of the relative drift; zero drift is drawn at the floor
  constexpr double kFloor = -17.0;
  std::vector<float> logs(m.drift.size());
  for (size_t i = 0; i < m.drift.size(); ++i) {
    const double d = m.drift[i];
    logs[i] = !std::isfinite(d) || d < 0.0
                  ? std::numeric_limits<float>::quiet_NaN()
                  : static_cast<float>(d > 0.0 ? std::max(std::log10(d), kFloor) : kFloor);
  }
  ImGui::TextColored(toVec4(kDrift), "drift |E - E0| / |E0| = %.3g", last(m.drift));
  note(probe, "drift");
  tip("Relative drift of the total energy since the start (dimensionless); symplectic "
      "integrators keep it bounded, explicit Euler makes it grow.");
  ImVec2 p0, p1;
  plotArea("##drift", 90.0f, p0, p1);
  note(probe, "drift plot");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Series s[] = {{logs, kDrift, "drift"}};
  double lo, hi;
  if (finiteRange(s, lo, hi)) {
    // whole decades, at least one
    lo = std::floor(lo), hi = std::ceil(hi);
    if (hi - lo < 1.0) hi = lo + 1.0;
    const int decades = static_cast<int>(hi - lo);
    const int step = std::max(1, (decades + 3) / 4);
    const float label_w = ImGui::CalcTextSize("1e-17").x + 8;
    const ImVec2 q0(p0.x + label_w, p0.y + 4), q1(p1.x - 4, p1.y - 4);
    char buf[16];
    for (int k = static_cast<int>(lo); k <= static_cast<int>(hi); k += step) {
      const float y = q1.y - (q1.y - q0.y) * static_cast<float>((k - lo) / (hi - lo));
      dl->AddLine(ImVec2(q0.x, y), ImVec2(q1.x, y), kGrid);
      if (k == 0)
        std::snprintf(buf, sizeof buf, "1");
      else
        std::snprintf(buf, sizeof buf, "1e%d", k);
      dl->AddText(ImVec2(p0.x + 4, y - ImGui::GetFontSize() * 0.5f), kLabel, buf);
    }
    drawSeries(dl, q0, q1, logs, lo, hi, kDrift);
  } else {
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), kLabel, "no drift history");
  }
  tip("Relative energy drift |E - E0| / |E0| on a log axis (one grid line per labelled decade).");
}

void phasePlot(const PanelModel& m, ItemProbe* probe) {
  const bool valid =
      m.phase_coordinate >= 0 && m.phase_coordinate < static_cast<int>(m.phase_coordinates.size());
  const std::string name = valid ? m.phase_coordinates[m.phase_coordinate] : std::string("q");
  const float side = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
  ImGui::BeginChild("##phase", ImVec2(side, std::min(side * 0.7f, 220.0f)), true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const ImVec2 c0 = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const ImVec2 c1(c0.x + avail.x, c0.y + avail.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fs = ImGui::GetFontSize();
  const size_t n = std::min(m.phase_q.size(), m.phase_v.size());
  const Series qs[] = {{m.phase_q.first(n), kPhase, "q"}};
  const Series vs[] = {{m.phase_v.first(n), kPhase, "v"}};
  double qlo, qhi, vlo, vhi;
  if (n > 0 && finiteRange(qs, qlo, qhi) && finiteRange(vs, vlo, vhi)) {
    padRange(qlo, qhi, 0.08), padRange(vlo, vhi, 0.08);
    const ImVec2 q0(c0.x + 2, c0.y + fs + 2), q1(c1.x - 2, c1.y - fs - 2);
    auto at = [&](double q, double v) {
      return ImVec2(q0.x + (q1.x - q0.x) * static_cast<float>((q - qlo) / (qhi - qlo)),
                    q1.y - (q1.y - q0.y) * static_cast<float>((v - vlo) / (vhi - vlo)));
    };
    // axes through zero (or along the border when zero is out of range)
    const double qa = std::clamp(0.0, qlo, qhi), va = std::clamp(0.0, vlo, vhi);
    dl->AddLine(at(qlo, va), at(qhi, va), kGrid);
    dl->AddLine(at(qa, vlo), at(qa, vhi), kGrid);
    // the trajectory, broken at non-finite samples
    std::vector<ImVec2> run;
    auto flush = [&] {
      if (run.size() >= 2)
        dl->AddPolyline(run.data(), static_cast<int>(run.size()), kPhase, 0, 1.2f);
      run.clear();
    };
    const size_t stride = std::max<size_t>(1, n / 4000);
    for (size_t i = 0; i < n; i += stride) {
      const float q = m.phase_q[i], v = m.phase_v[i];
      if (!std::isfinite(q) || !std::isfinite(v)) {
        flush();
        continue;
      }
      run.push_back(at(q, v));
    }
    flush();
    const float q = m.phase_q[n - 1], v = m.phase_v[n - 1];
    if (std::isfinite(q) && std::isfinite(v)) dl->AddCircleFilled(at(q, v), 3.5f, kTotal);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s in [%.3g, %.3g]", name.c_str(), qlo, qhi);
    dl->AddText(ImVec2(c0.x + 2, c1.y - fs), kLabel, buf);
    std::snprintf(buf, sizeof buf, "d%s/dt in [%.3g, %.3g]", name.c_str(), vlo, vhi);
    dl->AddText(ImVec2(c0.x + 2, c0.y), kLabel, buf);
  } else {
    dl->AddText(c0, kLabel, "no phase history");
  }
  ImGui::EndChild();
  note(probe, "phase plot");
  tip("Phase portrait: the chosen coordinate (horizontal; m or rad) against its rate (vertical; "
      "m/s or rad/s). Closed curves: energy conserved; spirals: damping or numerical dissipation.");
}

}  // namespace ui::detail
