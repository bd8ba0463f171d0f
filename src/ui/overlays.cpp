// Overlays: the divergence banner, the strain legend and the help window.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/widgets.hpp"

namespace ui {

using detail::note;
using detail::tip;

namespace {
constexpr ImGuiWindowFlags kOverlay = ImGuiWindowFlags_NoDecoration |
                                      ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
}

namespace {

// The report: wrapped to `wrap` px; in a child window that scrolls when taller than `max_h`.
void bannerReport(const std::string& report, float wrap, float max_h, ItemProbe* probe) {
  const float h = ImGui::CalcTextSize(report.c_str(), nullptr, false, wrap).y;
  const bool scroll = h > max_h;
  if (scroll) ImGui::BeginChild("##report", ImVec2(wrap + ImGui::GetStyle().ScrollbarSize, max_h));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::TextUnformatted(report.c_str());
  ImGui::PopTextWrapPos();
  note(probe, "report");
  tip("What went non-finite or ran away, when, and where (the culprit is highlighted).");
  if (scroll) ImGui::EndChild();
}

}  // namespace

std::vector<Command> drawDivergenceBanner(const PanelModel& model, ItemProbe* probe) {
  std::vector<Command> out;
  if (!model.diverged) return out;
  const ImGuiIO& io = ImGui::GetIO();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float margin = 10.0f, width = io.DisplaySize.x, height = io.DisplaySize.y;
  const char* title = "The simulation diverged and is paused.";
  const char* back = "Back 1 s";
  // the narrowest banner that still shows both buttons
  const float buttons_w = ImGui::CalcTextSize("Reset").x + ImGui::CalcTextSize(back).x +
                          4.0f * style.FramePadding.x + style.ItemSpacing.x;
  const float min_w = buttons_w + 2.0f * style.WindowPadding.x;
  // centred in the scene viewport, right of the panel; only a viewport too narrow for the buttons
  // lets the banner reach over the panel, so that they stay on screen
  float x0 = std::isfinite(model.scene_viewport_x) ? model.scene_viewport_x : 0.0f;
  x0 = std::clamp(x0, 0.0f, std::max(0.0f, width - min_w - 2.0f * margin));
  const float avail_w = std::max(width - x0 - 2.0f * margin, min_w);
  const float wrap = std::clamp(avail_w - 2.0f * style.WindowPadding.x, buttons_w,
                                std::max(buttons_w, ImGui::GetFontSize() * 40.0f));
  ImGui::SetNextWindowPos(ImVec2(x0 + 0.5f * (width - x0), margin), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(avail_w, std::max(height - margin, 1.0f)));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.55f, 0.08f, 0.08f, 0.92f));
  ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.75f, 0.2f, 0.18f, 1.0f));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.9f, 0.3f, 0.25f, 1.0f));
  if (ImGui::Begin("##divergence", nullptr, kOverlay)) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(title);
    ImGui::PopTextWrapPos();
    note(probe, "title");
    // the report takes what the title and the buttons leave of the window's height
    const float title_h = ImGui::CalcTextSize(title, nullptr, false, wrap).y;
    const float max_h = height - 2.0f * margin - 2.0f * style.WindowPadding.y - title_h -
                        ImGui::GetFrameHeight() - 2.0f * style.ItemSpacing.y;
    bannerReport(compactNumbers(model.divergence), wrap,
                 std::max(max_h, ImGui::GetTextLineHeight()), probe);
    if (ImGui::Button("Reset")) detail::emit(out, detail::makeCommand(Command::Kind::Reset));
    note(probe, "Reset");
    tip("Back to the initial state (the camera is kept).");
    ImGui::SameLine();
    ImGui::BeginDisabled(!model.can_rewind);
    if (ImGui::Button(back)) detail::emit(out, detail::makeCommand(Command::Kind::Rewind));
    ImGui::EndDisabled();
    note(probe, back);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", model.can_rewind
                                  ? "Back to the state about one simulated second before the "
                                    "divergence, paused: watch it happen again, or try a smaller "
                                    "dt or another integrator from there."
                                  : "No state from before the divergence is kept: use Reset.");
  }
  ImGui::End();
  ImGui::PopStyleColor(4);
  return out;
}

void drawStrainLegend(double strain_scale) {
  const ImGuiIO& io = ImGui::GetIO();
  // bottom right: the panel has the left side
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 10.0f, io.DisplaySize.y - 10.0f),
                          ImGuiCond_Always, ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.6f);
  if (ImGui::Begin("##strain legend", nullptr, kOverlay | ImGuiWindowFlags_NoInputs)) {
    ImGui::TextUnformatted("strain");
    const float w = ImGui::GetFontSize() * 14.0f, h = ImGui::GetFontSize();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImVec2 pm(p0.x + w * 0.5f, p0.y + h), p1(p0.x + w, p0.y + h);
    auto col = [](double x) {
      const Rgb c = strainColour(x);
      return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f));
    };
    // the map is linear on each half: two gradients reproduce it exactly
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilledMultiColor(p0, pm, col(-1), col(0), col(0), col(-1));
    dl->AddRectFilledMultiColor(ImVec2(pm.x, p0.y), p1, col(0), col(1), col(1), col(0));
    ImGui::Dummy(ImVec2(w, h));
    char lo[32], hi[32];
    std::snprintf(lo, sizeof lo, "-%.3g", strain_scale);
    std::snprintf(hi, sizeof hi, "+%.3g", strain_scale);
    const float x0 = ImGui::GetCursorPosX();
    ImGui::TextUnformatted(lo);
    ImGui::SameLine(x0 + w * 0.5f - ImGui::CalcTextSize("0").x * 0.5f);
    ImGui::TextUnformatted("0");
    ImGui::SameLine(x0 + w - ImGui::CalcTextSize(hi).x);
    ImGui::TextUnformatted(hi);
  }
  ImGui::End();
}

void drawHelpOverlay(bool* open, ItemProbe* probe) {
  if (open && !*open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.9f);
  if (ImGui::Begin("Help", open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                       ImGuiWindowFlags_NoCollapse)) {
    if (ImGui::BeginTable("##bindings", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("keys");
      ImGui::TableSetupColumn("action");
      for (const Binding& b : bindings()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(b.keys);
        note(probe, std::string("binding/") + b.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(b.action);
        note(probe, std::string("action/") + b.action);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace ui
