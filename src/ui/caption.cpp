#include "ui/caption.hpp"

#include <imgui.h>

#include <algorithm>

namespace ui {

namespace {
constexpr float kMargin = 10.0f;             // px from the viewport's edges, at UI scale 1
constexpr float kPadding = 6.0f;             // px around the text on its band
constexpr float kDotRadius = 7.0f;           // px
const ImU32 kBand = IM_COL32(0, 0, 0, 150);  // dark enough for white text on any scene
const ImU32 kText = IM_COL32(235, 235, 235, 255);
const ImU32 kRed = IM_COL32(230, 40, 40, 255);
}  // namespace

void drawCaption(const std::string& text, float viewport_x) {
  if (text.empty()) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float scale = ImGui::GetFontSize() / 13.0f;
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  // top left: the bottom right holds the strain legend and the bottom centre the status line
  const float x = viewport_x + kMargin * scale + kPadding * scale;
  const float y = kMargin * scale + kPadding * scale;
  const float pad = kPadding * scale;
  dl->AddRectFilled(ImVec2(x - pad, y - pad), ImVec2(x + size.x + pad, y + size.y + pad), kBand,
                    pad);
  dl->AddText(ImVec2(x, y), kText, text.c_str());
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
