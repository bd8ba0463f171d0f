// The measuring tools' overlays (docs/exploring.md#arrows): the arrows' key with the grid's
// spacing, drawn with ImGui's draw list over the scene so that recordings show it.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

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
// a ruler within this of level (its normal's vertical part) counts as vertical: the label right
constexpr float kLevel = 0.02f;
constexpr float kLabelStep = 1.0f;  // px: the label moves out from the line this much at a time
const ImU32 kProtractor = IM_COL32(120, 220, 255, 235);  // apart from the ruler's yellow
constexpr float kArcOfRay = 0.3f;   // the angle's arc: this fraction of the shorter ray
constexpr float kArcMaxPx = 48.0f;  // at UI scale 1
const ImU32 kRestMark = IM_COL32(255, 255, 255, 200);
constexpr float kRestTick = 6.0f;    // px at UI scale 1: half a rest mark's end tick
constexpr float kRestOffset = 8.0f;  // px at UI scale 1: a rest mark beside its spring
// render::kHighlightMagenta, the culprit's colour in the scene
const ImU32 kCulprit = IM_COL32(255, 38, 242, 255);
constexpr float kPointerLength = 22.0f, kPointerHalfWidth = 9.0f;  // px at UI scale 1

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
  const bool forces = model.display.show_forces && model.measure.force_scale > 0.0;
  if (!model.display.show_arrows && !forces) return;
  char buf[96];
  std::vector<KeyLine> lines;
  if (model.display.grid_spacing > 0.0) {
    std::snprintf(buf, sizeof buf, "grid %.3g m", model.display.grid_spacing);
    lines.push_back({buf});
  }
  if (model.display.show_arrows) {
    std::snprintf(buf, sizeof buf, "velocity %.3g m per m/s", model.measure.arrow_velocity_scale);
    lines.push_back({buf, kVelocity});
    std::snprintf(buf, sizeof buf, "acceleration %.3g m per m/s\xC2\xB2",
                  model.measure.arrow_acceleration_scale);
    lines.push_back({buf, kAcceleration});
  }
  if (forces) {  // the scale, then each source in its colour
    std::snprintf(buf, sizeof buf, "forces %.3g m per N", model.measure.force_scale);
    lines.push_back({buf});
    for (const MeasureView::ForceKey& k : model.measure.force_keys)
      lines.push_back({k.label, ImGui::ColorConvertFloat4ToU32(ImVec4(k.r, k.g, k.b, 1.0f))});
  }
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

LabelSpot rulerLabelSpot(const RulerView& r, float w, float h, float clearance) {
  const float dx = r.bx - r.ax, dy = r.by - r.ay, len = std::hypot(dx, dy);
  // the normal facing up the screen (y grows downwards), or right of a vertical ruler
  float nx = len > 0.0f ? -dy / len : 0.0f, ny = len > 0.0f ? dx / len : -1.0f;
  if (ny > kLevel || (std::abs(ny) <= kLevel && nx < 0.0f)) nx = -nx, ny = -ny;
  const float mx = 0.5f * (r.ax + r.bx), my = 0.5f * (r.ay + r.by), hw = 0.5f * w, hh = 0.5f * h;
  // the box's reach towards the line, then out along the normal until it clears both ends
  float out = hw * std::abs(nx) + hh * std::abs(ny) + clearance;
  auto gap = [&](float px, float py) {  // from (px, py) to the box centred out along the normal
    const float cx = mx + out * nx, cy = my + out * ny;
    return std::hypot(std::max(std::abs(px - cx) - hw, 0.0f),
                      std::max(std::abs(py - cy) - hh, 0.0f));
  };
  const float limit = out + len + w + h + clearance;  // surely clear of both ends by then
  while (out < limit && (gap(r.ax, r.ay) < clearance || gap(r.bx, r.by) < clearance))
    out += kLabelStep;
  return {mx + out * nx - hw, my + out * ny - hh};
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
  // beside the ruler, clear of the bodies at its ends (a bob it is laid against) and of its line
  const float w = t.x + 2.0f * pad, h = t.y + 2.0f * pad;
  const LabelSpot spot = rulerLabelSpot(r, w, h, std::max(r.end_clearance, kRulerHandle * scale));
  const ImVec2 p0(spot.x, spot.y), p1(spot.x + w, spot.y + h);
  dl->AddRectFilled(p0, p1, kBand, pad);
  dl->AddText(ImVec2(p0.x + pad, p0.y + pad), kText, buf);
  if (probe) probe->items.push_back({std::string("ruler/") + buf, p0.x, p0.y, p1.x, p1.y});
}

// The protractor: two rays from the vertex to rings, an arc between them at the vertex, and the
// angle in a band beyond the arc, on the bisector (outside the angle when it is wide).
void drawProtractor(const ProtractorView& p, ItemProbe* probe) {
  if (!std::isfinite(p.vx + p.vy + p.ax + p.ay + p.bx + p.by + p.degrees)) return;
  const float scale = ImGui::GetFontSize() / 13.0f, pad = kPad * scale;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const ImVec2 v(p.vx, p.vy), a(p.ax, p.ay), b(p.bx, p.by);
  dl->AddLine(v, a, kProtractor, 2.0f * scale);
  dl->AddLine(v, b, kProtractor, 2.0f * scale);
  for (const ImVec2& h : {v, a, b}) dl->AddCircle(h, kRulerHandle * scale, kProtractor, 0, 2.0f);
  const float la = std::hypot(a.x - v.x, a.y - v.y), lb = std::hypot(b.x - v.x, b.y - v.y);
  const float arc = std::min(kArcOfRay * std::min(la, lb), kArcMaxPx * scale);
  // screen angles (y down): from ray a to ray b the short way round, as the reading is
  const float ta = std::atan2(a.y - v.y, a.x - v.x), tb = std::atan2(b.y - v.y, b.x - v.x);
  const float turn = std::remainder(tb - ta, 2.0f * std::numbers::pi_v<float>);
  if (arc > 2.0f * kRulerHandle * scale) {
    dl->PathArcTo(v, arc, ta, ta + turn, 24);
    dl->PathStroke(kProtractor, 0, 1.5f * scale);
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f\xC2\xB0", p.degrees);
  const ImVec2 t = ImGui::CalcTextSize(buf);
  const float mid = ta + 0.5f * turn, out = std::max(arc, 2.0f * kRulerHandle * scale) + pad;
  // the label's centre on the bisector, its nearest corner `out` from the vertex
  const float cx = v.x + std::cos(mid) * (out + 0.5f * t.x + pad),
              cy = v.y + std::sin(mid) * (out + 0.5f * t.y + pad);
  const ImVec2 p0(cx - 0.5f * t.x - pad, cy - 0.5f * t.y - pad);
  const ImVec2 p1(p0.x + t.x + 2.0f * pad, p0.y + t.y + 2.0f * pad);
  dl->AddRectFilled(p0, p1, kBand, pad);
  dl->AddText(ImVec2(p0.x + pad, p0.y + pad), kText, buf);
  if (probe) probe->items.push_back({std::string("protractor/") + buf, p0.x, p0.y, p1.x, p1.y});
}

// Each spring's rest length along it: a thin white segment beside the spring (kRestOffset off it,
// so that the spring's own strain colour still shows), with a tick across each end.
void drawRestLengths(const std::vector<RestMark>& marks) {
  const float scale = ImGui::GetFontSize() / 13.0f, tick = kRestTick * scale;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  for (const RestMark& m : marks) {
    const float dx = m.x1 - m.x0, dy = m.y1 - m.y0, len = std::hypot(dx, dy);
    if (!std::isfinite(len) || !(len > 0.0f)) continue;
    const float ux = -dy / len, uy = dx / len, off = kRestOffset * scale;
    const ImVec2 a(m.x0 + off * ux, m.y0 + off * uy), b(m.x1 + off * ux, m.y1 + off * uy);
    dl->AddLine(a, b, kRestMark, 1.5f * scale);
    for (const ImVec2 e : {a, b})
      dl->AddLine(ImVec2(e.x - tick * ux, e.y - tick * uy),
                  ImVec2(e.x + tick * ux, e.y + tick * uy), kRestMark, 2.0f * scale);
  }
}

OffscreenPointer offscreenPointer(float sx, float sy, bool behind, float x0, float y0, float x1,
                                  float y1, float inset) {
  OffscreenPointer p;
  const float w = x1 - x0, h = y1 - y0;
  if (!std::isfinite(sx) || !std::isfinite(sy) || !(w > 2 * inset) || !(h > 2 * inset)) return p;
  const float cx = x0 + 0.5f * w, cy = y0 + 0.5f * h;
  float dx = sx - cx, dy = sy - cy;
  if (behind) dx = -dx, dy = -dy;  // the projection of a point behind the eye is mirrored
  const bool inside = !behind && sx >= x0 && sx < x1 && sy >= y0 && sy < y1;
  const float len = std::hypot(dx, dy);
  if (inside || !(len > 0.0f)) return p;
  dx /= len, dy /= len;
  // the ray from the centre leaves the inset box at the nearer of its two crossings
  const float hx = 0.5f * w - inset, hy = 0.5f * h - inset;
  const float t = std::min(dx != 0.0f ? hx / std::abs(dx) : INFINITY,
                           dy != 0.0f ? hy / std::abs(dy) : INFINITY);
  p.pointed = true;
  p.x = cx + t * dx, p.y = cy + t * dy, p.dx = dx, p.dy = dy;
  p.x0 = x0, p.y0 = y0, p.x1 = x1, p.y1 = y1;
  return p;
}

void drawOffscreenPointer(const OffscreenPointer& p, ItemProbe* probe) {
  if (!p.pointed) return;
  const float scale = ImGui::GetFontSize() / 13.0f, pad = kPad * scale;
  const float length = kPointerLength * scale, half = kPointerHalfWidth * scale;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const ImVec2 tip(p.x, p.y), back(p.x - p.dx * length, p.y - p.dy * length);
  const ImVec2 side(-p.dy * half, p.dx * half);
  dl->AddTriangleFilled(tip, ImVec2(back.x + side.x, back.y + side.y),
                        ImVec2(back.x - side.x, back.y - side.y), kCulprit);
  char buf[64];
  std::snprintf(buf, sizeof buf, "culprit %.2g m away", p.metres);
  const ImVec2 t = ImGui::CalcTextSize(buf);
  const float bw = t.x + 2 * pad, bh = t.y + 2 * pad;
  // the label behind the arrow, towards the centre, its nearer corner where the arrow starts
  // (kept inside the viewport)
  const float cx = std::clamp(back.x - p.dx * (0.5f * bw + pad), p.x0 + 0.5f * bw,
                              std::max(p.x0 + 0.5f * bw, p.x1 - 0.5f * bw));
  const float cy = std::clamp(back.y - p.dy * (0.5f * bh + pad), p.y0 + 0.5f * bh,
                              std::max(p.y0 + 0.5f * bh, p.y1 - 0.5f * bh));
  const ImVec2 p0(cx - 0.5f * bw, cy - 0.5f * bh), p1(cx + 0.5f * bw, cy + 0.5f * bh);
  dl->AddRectFilled(p0, p1, kBand, pad);
  dl->AddText(ImVec2(p0.x + pad, p0.y + pad), kText, buf);
  if (probe) probe->items.push_back({std::string("pointer/") + buf, p0.x, p0.y, p1.x, p1.y});
}

}  // namespace ui
