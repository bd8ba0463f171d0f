#include "ui/caption.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ui {

namespace {
constexpr float kMargin = 10.0f;             // px from the viewport's edges, at UI scale 1
constexpr float kPadding = 6.0f;             // px around the text on its band
constexpr float kDotRadius = 7.0f;           // px
const ImU32 kBand = IM_COL32(0, 0, 0, 150);  // dark enough for white text on any scene
const ImU32 kText = IM_COL32(235, 235, 235, 255);
const ImU32 kRed = IM_COL32(230, 40, 40, 255);
}  // namespace

namespace {
// a share of the reference in percent, 2 significant digits ("-57", "0.012")
std::string percent(double x, double reference, bool sign) {
  char buf[48];
  std::snprintf(buf, sizeof buf, sign ? "%+.2g %%" : "%.2g %%", 100.0 * x / reference);
  return buf;
}
}  // namespace

std::string captionText(const CaptionFacts& f) {
  const double ref = f.reference > 0.0 && std::isfinite(f.reference) ? f.reference : 1.0;
  std::string energy = "energy " + percent(f.energy - f.e0, ref, true) + ":";
  if (f.dissipated != 0.0) energy += " dissipated " + percent(f.dissipated, ref, false) + ",";
  // the colliders' and self-collision's share (their friction included): it can be negative
  // where a pass raised the state's energy, so it is signed only then
  if (f.contacts != 0.0) energy += " contacts " + percent(f.contacts, ref, f.contacts < 0.0) + ",";
  if (f.external != 0.0) energy += " put in " + percent(f.external, ref, false) + ",";
  energy += " integrator error " + percent(f.residual, ref, true);
  if (!f.relative) energy += " (of the scene's energy scale)";
  char head[256];
  std::snprintf(head, sizeof head, "%s  |  %s  |  dt %.3g s  |  t %.3f s  |  ", f.scene.c_str(),
                f.integrator.c_str(), f.dt, f.t);
  return head + energy;
}

void drawRecordingIndicator(const std::string& label) {
  // top right: clear of the panel on the left
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float scale = ImGui::GetFontSize() / 13.0f;
  const ImVec2 size = ImGui::CalcTextSize(label.c_str());
  const float r = kDotRadius * scale, pad = kPadding * scale;
  const float right = ImGui::GetIO().DisplaySize.x - kMargin * scale;
  const float x = right - size.x - 2.0f * r - pad;
  const float y = kMargin * scale;
  const float h = std::max(size.y, 2.0f * r);
  dl->AddRectFilled(ImVec2(x - pad, y - pad), ImVec2(right + pad, y + h + pad), kBand, pad);
  dl->AddCircleFilled(ImVec2(x + r, y + 0.5f * h), r, kRed);
  dl->AddText(ImVec2(x + 2.0f * r + pad, y + 0.5f * (h - size.y)), kText, label.c_str());
}

}  // namespace ui
