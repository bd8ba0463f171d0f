// The measuring tools' overlays (docs/exploring.md#arrows): the arrows' key with the grid's
// spacing, drawn with ImGui's draw list over the scene so that recordings show it.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/panel.hpp"

namespace ui {

namespace {
constexpr float kPad = 4.0f, kMargin = 10.0f;  // px at UI scale 1, as the other overlays'
const ImU32 kBand = IM_COL32(0, 0, 0, 150);
const ImU32 kText = IM_COL32(235, 235, 235, 255);
// render::ArrowsPass's colours
const ImU32 kVelocity = IM_COL32(64, 230, 89, 255);
const ImU32 kAcceleration = IM_COL32(255, 140, 26, 255);
const ImU32 kRuler = IM_COL32(250, 210, 80, 230);  // the selection's and the grab's yellow
constexpr int kRulerTicks = 10;
constexpr float kRulerTick = 4.0f;    // px at UI scale 1: half a tick's length
constexpr float kRulerHandle = 7.0f;  // px at UI scale 1: an end's ring

struct KeyLine {
  std::string text;
  ImU32 arrow = 0;  // 0: no arrow before the text
};

// A short arrow of `colour` in the square at p, `side` px wide.
void keyArrow(ImDrawList* dl, ImVec2 p, float side, ImU32 colour) {
  const float y = p.y + 0.5f * side, w = std::max(1.5f, 0.12f * side);
  dl->AddLine(ImVec2(p.x, y), ImVec2(p.x + side, y), colour, w);
  dl->AddLine(ImVec2(p.x + side, y), ImVec2(p.x + 0.65f * side, y - 0.3f * side), colour, w);
  dl->AddLine(ImVec2(p.x + side, y), ImVec2(p.x + 0.65f * side, y + 0.3f * side), colour, w);
}
}  // namespace

void drawMeasureLegend(const PanelModel& model, ItemProbe* probe) {
  if (!model.display.show_arrows) return;
  char buf[96];
  std::vector<KeyLine> lines;
  if (model.display.grid_spacing > 0.0) {
    std::snprintf(buf, sizeof buf, "grid %.3g m", model.display.grid_spacing);
    lines.push_back({buf});
  }
  std::snprintf(buf, sizeof buf, "velocity %.3g m per m/s", model.measure.arrow_velocity_scale);
  lines.push_back({buf, kVelocity});
  std::snprintf(buf, sizeof buf, "acceleration %.3g m per m/s\xC2\xB2",
                model.measure.arrow_acceleration_scale);
  lines.push_back({buf, kAcceleration});
  const ImGuiIO& io = ImGui::GetIO();
  const float scale = ImGui::GetFontSize() / 13.0f, pad = kPad * scale;
  const float side = ImGui::GetFontSize(), line_h = ImGui::GetTextLineHeightWithSpacing();
  float text_w = 0.0f;
  for (const KeyLine& l : lines) text_w = std::max(text_w, ImGui::CalcTextSize(l.text.c_str()).x);
  const float w = 2.0f * pad + side + pad + text_w, h = 2.0f * pad + line_h * lines.size();
  // the top right of the scene viewport (the caption has the top left, the banner the middle)
  const float x1 = io.DisplaySize.x - kMargin * scale, y0 = kMargin * scale;
  const float x0 = std::max(x1 - w, std::isfinite(model.display.scene_viewport_x)
                                        ? model.display.scene_viewport_x
                                        : 0.0f);
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y0 + h), kBand, pad);
  float y = y0 + pad;
  for (const KeyLine& l : lines) {
    if (l.arrow) keyArrow(dl, ImVec2(x0 + pad, y), side, l.arrow);
    dl->AddText(ImVec2(x0 + 2.0f * pad + side, y), kText, l.text.c_str());
    y += line_h;
  }
  if (probe) probe->items.push_back({"measure legend", x0, y0, x1, y0 + h});
}

void drawJointAngles(const std::vector<JointLabel>& joints, ItemProbe* probe) {
  const float scale = ImGui::GetFontSize() / 13.0f, pad = kPad * scale;
  // beside the joint, below and right of it: clear of the rod above, which meets it from the top
  const float offset = 8.0f * scale;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  char buf[32];
  for (size_t i = 0; i < joints.size(); ++i) {
    const JointLabel& j = joints[i];
    if (!std::isfinite(j.x) || !std::isfinite(j.y) || !std::isfinite(j.degrees)) continue;
    std::snprintf(buf, sizeof buf, "%.1f\xC2\xB0", j.degrees);
    const ImVec2 t = ImGui::CalcTextSize(buf);
    const ImVec2 p0(j.x + offset, j.y + offset);
    const ImVec2 p1(p0.x + t.x + 2.0f * pad, p0.y + t.y + 2.0f * pad);
    dl->AddRectFilled(p0, p1, kBand, pad);
    dl->AddText(ImVec2(p0.x + pad, p0.y + pad), kText, buf);
    if (probe) probe->items.push_back({"joint angle/" + std::to_string(i), p0.x, p0.y, p1.x, p1.y});
  }
}

// The ruler: a line between two rings (the handles a drag takes), ticks a tenth of it apart, and
// its reading in a band at its middle.
void drawRuler(const RulerView& r, ItemProbe* probe) {
  if (!std::isfinite(r.ax + r.ay + r.bx + r.by + r.length + r.from_vertical_deg)) return;
  const float scale = ImGui::GetFontSize() / 13.0f, pad = kPad * scale;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const ImVec2 a(r.ax, r.ay), b(r.bx, r.by);
  dl->AddLine(a, b, kRuler, 2.0f * scale);
  const float dx = r.bx - r.ax, dy = r.by - r.ay, len = std::hypot(dx, dy);
  if (len > 0.0f) {  // a tick every tenth, across the line
    const float nx = -dy / len * kRulerTick * scale, ny = dx / len * kRulerTick * scale;
    for (int k = 1; k < kRulerTicks; ++k) {
      const float f = static_cast<float>(k) / kRulerTicks;
      const ImVec2 p(r.ax + f * dx, r.ay + f * dy);
      const float s = k == kRulerTicks / 2 ? 2.0f : 1.0f;  // the middle one longer
      dl->AddLine(ImVec2(p.x - s * nx, p.y - s * ny), ImVec2(p.x + s * nx, p.y + s * ny), kRuler);
    }
  }
  for (const ImVec2& end : {a, b}) dl->AddCircle(end, kRulerHandle * scale, kRuler, 0, 2.0f);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g m   %.1f\xC2\xB0 from vertical", r.length,
                r.from_vertical_deg);
  const ImVec2 t = ImGui::CalcTextSize(buf);
  const ImVec2 p0(0.5f * (r.ax + r.bx) + 2.0f * pad, 0.5f * (r.ay + r.by) + 2.0f * pad);
  const ImVec2 p1(p0.x + t.x + 2.0f * pad, p0.y + t.y + 2.0f * pad);
  dl->AddRectFilled(p0, p1, kBand, pad);
  dl->AddText(ImVec2(p0.x + pad, p0.y + pad), kText, buf);
  if (probe) probe->items.push_back({std::string("ruler/") + buf, p0.x, p0.y, p1.x, p1.y});
}

}  // namespace ui
