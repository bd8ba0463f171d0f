// Overlays: the divergence banner, the strain legend, the status line and the help window.
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
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

// Where the scene viewport starts: right of the panel, unless that leaves less than 240 px.
float viewportX(const PanelModel& model) {
  const float width = ImGui::GetIO().DisplaySize.x;
  return std::isfinite(model.scene_viewport_x)
             ? std::clamp(model.scene_viewport_x, 0.0f, std::max(width - 240.0f, 0.0f))
             : 0.0f;
}

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
    if (ImGui::Button("Reset")) detail::emit(out, Reset{});
    note(probe, "Reset");
    tip("Back to the initial state; the camera frames the scene again.");
    ImGui::SameLine();
    ImGui::BeginDisabled(!model.can_rewind);
    if (ImGui::Button(back)) detail::emit(out, Rewind{});
    ImGui::EndDisabled();
    note(probe, back);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      detail::tooltip(model.can_rewind
                          ? "Back to the state about one simulated second before the "
                            "divergence, paused: watch it happen again, or try a smaller "
                            "dt or another integrator from there."
                          : "No state from before the divergence is kept: use Reset.");
  }
  ImGui::End();
  ImGui::PopStyleColor(4);
  return out;
}

namespace {

// The legend's bar: strainColour sampled across it in narrow segments, each a gradient between
// its ends' colours, so that it follows the map's ease-out curve (not two linear ramps).
void strainBar(ImDrawList* dl, ImVec2 p0, ImVec2 p1) {
  constexpr int kSegments = 64;
  auto col = [](double x) {
    const Rgb c = strainColour(x);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f));
  };
  const float w = p1.x - p0.x;
  for (int i = 0; i < kSegments; ++i) {
    const double xa = -1.0 + 2.0 * i / kSegments, xb = -1.0 + 2.0 * (i + 1) / kSegments;
    const ImU32 a = col(xa), b = col(xb);
    dl->AddRectFilledMultiColor(ImVec2(p0.x + w * i / kSegments, p0.y),
                                ImVec2(p0.x + w * (i + 1) / kSegments, p1.y), a, b, b, a);
  }
}

}  // namespace

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
    strainBar(ImGui::GetWindowDrawList(), p0, ImVec2(p0.x + w, p0.y + h));
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

void drawStrainLegend(const PanelModel& model, ItemProbe* probe) {
  // only the springs' lines are strain-coloured (a cloth's surface is not): no lines, no legend
  if (model.springs <= 0 || !model.show_springs) return;
  drawStrainLegend(model.strain_scale);
  if (probe)
    if (const ImGuiWindow* w = ImGui::FindWindowByName("##strain legend"))
      probe->items.push_back(
          {"strain legend", w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y});
}

namespace {
// "1  rk4  dt 0.001 s", and the lane's state when it diverged
std::string laneLabel(const PanelModel& model, size_t i) {
  const LaneRow& row = model.lanes[i];
  char dt[32];
  std::snprintf(dt, sizeof dt, "%.3g", row.dt);
  return std::to_string(i) + "  " + row.integrator + "  dt " + dt + " s";
}

void laneSwatchAndLabel(const PanelModel& model, size_t i) {
  const LaneColour c = laneColour(static_cast<int>(i));
  const float side = ImGui::GetFontSize();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(
      p, ImVec2(p.x + side, p.y + side),
      ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)), 2.0f);
  ImGui::Dummy(ImVec2(side, side));
  ImGui::SameLine();
  const LaneRow& row = model.lanes[i];
  if (row.diverged)  // the whole report is the lane's tooltip in the panel
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s  diverged at t = %.4g s",
                       laneLabel(model, i).c_str(), row.diverged_t);
  else
    ImGui::TextUnformatted(laneLabel(model, i).c_str());
}
}  // namespace

void drawLaneLegend(const PanelModel& model, ItemProbe* probe) {
  if (model.lanes.size() < 2) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float x0 = viewportX(model), width = io.DisplaySize.x - x0;
  if (model.split_lanes) {  // a label at the top of each lane's column
    const size_t n = model.lanes.size();
    for (size_t i = 0; i < n; ++i) {
      const std::string name = "##lane label " + std::to_string(i);
      ImGui::SetNextWindowPos(ImVec2(x0 + width * float(i) / float(n) + 8.0f, 8.0f));
      ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(width / float(n) - 16.0f, FLT_MAX));
      ImGui::SetNextWindowBgAlpha(0.6f);
      if (ImGui::Begin(name.c_str(), nullptr, kOverlay | ImGuiWindowFlags_NoInputs)) {
        laneSwatchAndLabel(model, i);
        note(probe, "lane label/" + std::to_string(i));
      }
      ImGui::End();
    }
    return;
  }
  // overlaid: one legend, bottom left of the scene (the strain legend has the right)
  ImGui::SetNextWindowPos(ImVec2(x0 + 10.0f, io.DisplaySize.y - 10.0f), ImGuiCond_Always,
                          ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.6f);
  if (ImGui::Begin("##lane legend", nullptr, kOverlay | ImGuiWindowFlags_NoInputs)) {
    for (size_t i = 0; i < model.lanes.size(); ++i) laneSwatchAndLabel(model, i);
    note(probe, "lane legend");
  }
  ImGui::End();
}

void drawStatus(const PanelModel& model, ItemProbe* probe) {
  if (model.status.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float x0 = viewportX(model);
  // bottom centre of the scene viewport; above the strain legend if it would overlap it
  float bottom = io.DisplaySize.y - 10.0f;
  const ImGuiWindow* legend = ImGui::FindWindowByName("##strain legend");
  const ImGuiWindow* self = ImGui::FindWindowByName("##status");
  if (legend && legend->Active && self) {
    const float centre = x0 + 0.5f * (io.DisplaySize.x - x0);
    if (centre + 0.5f * self->Size.x > legend->Pos.x) bottom = legend->Pos.y - 6.0f;
  }
  ImGui::SetNextWindowPos(ImVec2(x0 + 0.5f * (io.DisplaySize.x - x0), bottom), ImGuiCond_Always,
                          ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(
      ImVec2(0, 0), ImVec2(std::max(io.DisplaySize.x - x0 - 20.0f, 50.0f), FLT_MAX));
  if (model.status_error)
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.55f, 0.08f, 0.08f, 0.92f));
  if (ImGui::Begin("##status", nullptr, kOverlay | ImGuiWindowFlags_NoInputs)) {
    ImGui::PushTextWrapPos(std::max(io.DisplaySize.x - x0 - 40.0f, 50.0f));
    ImGui::TextUnformatted(compactNumbers(model.status).c_str());
    ImGui::PopTextWrapPos();
    note(probe, "status");
  }
  ImGui::End();
  if (model.status_error) ImGui::PopStyleColor();
}

namespace {

void helpWindow(bool* open, const char* scene_line, ItemProbe* probe) {
  if (ImGui::Begin("Help", open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                       ImGuiWindowFlags_NoCollapse)) {
    if (scene_line) {
      ImGui::TextUnformatted(scene_line);
      note(probe, "help/scene");
    }
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

}  // namespace

void drawHelpOverlay(bool* open, ItemProbe* probe) {
  if (open && !*open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.9f);
  helpWindow(open, nullptr, probe);
}

void drawHelpOverlay(bool* open, const PanelModel& model, ItemProbe* probe) {
  if (open && !*open) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float x0 = viewportX(model);
  ImGui::SetNextWindowPos(ImVec2(x0 + 0.5f * (io.DisplaySize.x - x0), io.DisplaySize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.9f);
  helpWindow(open,
             model.planar ? "This scene is 2-D: left-drag pans the view."
                          : "This scene is 3-D: left-drag orbits the camera; right-drag pans.",
             probe);
}

}  // namespace ui
