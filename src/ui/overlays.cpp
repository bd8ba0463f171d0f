// Overlays: the divergence banner, the strain legend, the status line and the help window.
#include <imgui_internal.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/overlay_layout.hpp"
#include "ui/widgets.hpp"

namespace ui {

using detail::note;
using detail::tip;

namespace {
constexpr ImGuiWindowFlags kOverlay = ImGuiWindowFlags_NoDecoration |
                                      ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
constexpr const char* kBack = "Back 1 s";
constexpr const char* kReplay = "Replay slowly";
}  // namespace

namespace {

// Where the scene viewport starts: right of the panel, unless that leaves less than 240 px.
float viewportX(const PanelModel& model) {
  const float width = ImGui::GetIO().DisplaySize.x;
  return std::isfinite(model.display.scene_viewport_x)
             ? std::clamp(model.display.scene_viewport_x, 0.0f, std::max(width - 240.0f, 0.0f))
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

// Reset, Back 1 s and Replay slowly, on one line; Back 1 s needs a state kept from before.
void bannerButtons(const PanelModel& model, std::vector<Command>& out, ItemProbe* probe) {
  if (ImGui::Button("Reset")) detail::emit(out, Reset{});
  note(probe, "Reset");
  tip("Back to the initial state; the camera frames the scene again.");
  ImGui::BeginDisabled(!model.clock.can_rewind);
  ImGui::SameLine();
  if (ImGui::Button(kBack)) detail::emit(out, Rewind{});
  note(probe, kBack);
  const char* none = "No state from before the divergence is kept: use Reset.";
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    detail::tooltip(model.clock.can_rewind
                        ? "Back to the state about one simulated second before the "
                          "divergence, paused: watch it happen again, or try a smaller "
                          "dt or another integrator from there."
                        : none);
  ImGui::EndDisabled();
  ImGui::SameLine();
  // the blow-up's own steps, replayed from the last state checked intact: needs no kept state
  if (ImGui::Button(kReplay)) detail::emit(out, ReplayBlowUp{});
  note(probe, kReplay);
  tip("The blow-up in slow motion: the steps from the last state checked intact to the one the "
      "runaway rule found, one frame each, as a recording that runs away ends.");
}

}  // namespace

namespace {

// The banner's text and the width its buttons need: a recorded clip has no one to press them,
// so it has the report alone.
struct BannerText {
  std::string title, report;
  ImFont* title_font;  // the large one where loaded (kBannerTitleScale), else the text's
  bool buttons;
  float buttons_w;  // px, the narrowest wrap that shows the three buttons on one line
  float min_w;      // px, the narrowest banner
};

BannerText bannerText(const PanelModel& model) {
  const ImGuiStyle& style = ImGui::GetStyle();
  BannerText b;
  b.buttons = !model.frame.clip;
  const ClockView& c = model.clock;
  if (c.divergence_headline.empty()) {
    b.title = b.buttons ? "The simulation diverged and is paused." : "The simulation diverged.";
    b.report = compactNumbers(c.divergence);
  } else {  // "Diverged at t = 2.024 s with rk4": what, when and which method, large
    b.title = c.divergence_headline;
    b.title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(b.title[0])));
    if (b.buttons) b.title += ", paused";
    b.report = compactNumbers(c.divergence_detail);
  }
  const ImFontAtlas* fonts = ImGui::GetIO().Fonts;
  b.title_font = fonts->Fonts.Size > 1 ? fonts->Fonts[1] : ImGui::GetFont();
  // a clip's banner has no buttons: it keeps to the scene's viewport, however narrow
  b.buttons_w = !b.buttons ? 0.0f
                           : ImGui::CalcTextSize("Reset").x + ImGui::CalcTextSize(kBack).x +
                                 ImGui::CalcTextSize(kReplay).x + 6.0f * style.FramePadding.x +
                                 2.0f * style.ItemSpacing.x;
  b.min_w = b.buttons ? b.buttons_w + 2.0f * style.WindowPadding.x : 0.0f;
  return b;
}

// The report's wrap in a banner at most avail_w wide: no narrower than the buttons, no wider than
// kBannerWrapEm (a line longer than that reads badly).
float bannerWrap(const BannerText& b, float avail_w) {
  constexpr float kBannerWrapEm = 50.0f;  // the title on one line at 1280 px wide
  return std::clamp(avail_w - 2.0f * ImGui::GetStyle().WindowPadding.x,
                    std::max(b.buttons_w, ImGui::GetFontSize()),
                    std::max(b.buttons_w, ImGui::GetFontSize() * kBannerWrapEm));
}

// The title's font at this wrap: the large one unless a word of the title would not fit a line
// (a narrow viewport: "symplectic_eule / r"), then the text's.
ImFont* titleFont(const BannerText& b, float wrap) {
  ImGui::PushFont(b.title_font);
  float longest = 0.0f;
  for (size_t i = 0, j = 0; i < b.title.size(); i = j + 1) {
    j = std::min(b.title.find(' ', i), b.title.size());
    longest = std::max(longest, ImGui::CalcTextSize(b.title.data() + i, b.title.data() + j).x);
  }
  ImGui::PopFont();
  return longest <= wrap ? b.title_font : ImGui::GetFont();
}

// The size of the banner's window with its text wrapped at `wrap`, as ImGui's auto-fit makes it.
Size bannerSize(const BannerText& b, float wrap) {
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::PushFont(titleFont(b, wrap));
  const ImVec2 title = ImGui::CalcTextSize(b.title.c_str(), nullptr, false, wrap);
  ImGui::PopFont();
  const ImVec2 report = ImGui::CalcTextSize(b.report.c_str(), nullptr, false, wrap);
  const float w = std::max({title.x, report.x, b.buttons ? b.buttons_w : 0.0f});
  const float h = title.y + style.ItemSpacing.y + report.y +
                  (b.buttons ? style.ItemSpacing.y + ImGui::GetFrameHeight() : 0.0f);
  return {w + 2.0f * style.WindowPadding.x, h + 2.0f * style.WindowPadding.y};
}

// The banner's window, its top centre at (centre_x, top), at most max_w x max_h, its text
// wrapped at `wrap`; the report scrolls where the height is short.
std::vector<Command> bannerWindow(const PanelModel& model, const BannerText& b, float centre_x,
                                  float top, float wrap, Size most, ItemProbe* probe) {
  std::vector<Command> out;
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::SetNextWindowPos(ImVec2(centre_x, top), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(std::max(most.w, 1.0f), std::max(most.h, 1.0f)));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.26f, 0.03f, 0.03f, 0.96f));
  ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(0.26f, 0.03f, 0.03f, 0.96f));
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.75f, 0.2f, 0.18f, 1.0f));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.9f, 0.3f, 0.25f, 1.0f));
  if (ImGui::Begin("##divergence", nullptr, kOverlay)) {
    ImGui::PushFont(titleFont(b, wrap));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(b.title.c_str());
    ImGui::PopTextWrapPos();
    note(probe, "title");
    // the report takes what the title and the buttons leave of the window's height
    const float title_h = ImGui::CalcTextSize(b.title.c_str(), nullptr, false, wrap).y;
    ImGui::PopFont();
    const float max_h = most.h - 2.0f * style.WindowPadding.y - title_h -
                        (b.buttons ? ImGui::GetFrameHeight() + style.ItemSpacing.y : 0.0f) -
                        style.ItemSpacing.y;
    bannerReport(b.report, wrap, std::max(max_h, ImGui::GetTextLineHeight()), probe);
    if (b.buttons) bannerButtons(model, out, probe);
  }
  ImGui::End();
  ImGui::PopStyleColor(4);
  return out;
}

}  // namespace

std::vector<Command> drawDivergenceBanner(const PanelModel& model, ItemProbe* probe) {
  if (!model.clock.diverged) return {};
  const ImGuiIO& io = ImGui::GetIO();
  const float margin = 10.0f, width = io.DisplaySize.x, height = io.DisplaySize.y;
  const BannerText b = bannerText(model);
  // centred in the scene viewport, right of the panel; only a viewport too narrow for the buttons
  // lets the banner reach over the panel, so that they stay on screen
  float x0 = std::isfinite(model.display.scene_viewport_x) ? model.display.scene_viewport_x : 0.0f;
  x0 = std::clamp(x0, 0.0f, std::max(0.0f, width - b.min_w - 2.0f * margin));
  const float avail_w = std::max(width - x0 - 2.0f * margin, b.min_w);
  return bannerWindow(model, b, x0 + 0.5f * (width - x0), margin, bannerWrap(b, avail_w),
                      {avail_w, height - 2.0f * margin}, probe);
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
  if (model.scene.springs <= 0 || !model.display.show_springs) return;
  drawStrainLegend(model.display.strain_scale);
  if (probe)
    if (const ImGuiWindow* w = ImGui::FindWindowByName("##strain legend"))
      probe->items.push_back(
          {"strain legend", w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y});
}

namespace {

constexpr float kPad = 4.0f;                 // px around an overlay's text, at UI scale 1
constexpr float kMargin = 10.0f;             // px from the viewport's edges and between items
constexpr int kLaneForms = 4;                // a lane's label from full to its index alone
const ImU32 kBand = IM_COL32(0, 0, 0, 150);  // as the caption's: white text on any scene
const ImU32 kText = IM_COL32(235, 235, 235, 255);
const ImU32 kDivergedText = IM_COL32(255, 115, 102, 255);

float uiScale() {
  return ImGui::GetFontSize() / 13.0f;
}

// A lane's label in form 0 (full: "1  rk4  dt 0.001 s", and when it diverged), 1 ("1 rk4
// 0.001"), 2 ("1 rk4") or 3 ("1").
std::string laneText(const PanelModel& model, size_t i, int form) {
  const LaneRow& row = model.lanes.rows[i];
  const std::string name = row.name();
  char buf[256];
  const std::string n = std::to_string(i);
  if (form == 0 && row.diverged)
    std::snprintf(buf, sizeof buf, "%s  %s  dt %.3g s  diverged at t = %.4g s", n.c_str(),
                  name.c_str(), row.dt, row.diverged_t);
  else if (form == 0)
    std::snprintf(buf, sizeof buf, "%s  %s  dt %.3g s", n.c_str(), name.c_str(), row.dt);
  else if (form == 1)
    std::snprintf(buf, sizeof buf, "%s %s %.3g", n.c_str(), name.c_str(), row.dt);
  else if (form == 2)
    std::snprintf(buf, sizeof buf, "%s %s", n.c_str(), name.c_str());
  else
    std::snprintf(buf, sizeof buf, "%s", n.c_str());
  return buf;
}

// The sizes of a lane's forms with its swatch and padding.
Forms laneForms(const PanelModel& model, size_t i) {
  const float pad = kPad * uiScale(), side = ImGui::GetFontSize();
  Forms forms;
  for (int f = 0; f < kLaneForms; ++f) {
    const ImVec2 t = ImGui::CalcTextSize(laneText(model, i, f).c_str());
    forms.push_back({side + pad + t.x + 2.0f * pad, std::max(t.y, side) + 2.0f * pad});
  }
  return forms;
}

// The caption in one line, else wrapped to the viewport's width.
Forms captionForms(const std::string& text, float width, float& wrap) {
  const float pad = kPad * uiScale();
  const ImVec2 line = ImGui::CalcTextSize(text.c_str());
  wrap = std::max(width - 2.0f * kMargin * uiScale() - 2.0f * pad, 1.0f);
  const ImVec2 wrapped = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  return {{line.x + 2.0f * pad, line.y + 2.0f * pad},
          {wrapped.x + 2.0f * pad, wrapped.y + 2.0f * pad}};
}

void drawLaneBox(const PanelModel& model, size_t i, const Placed& p, bool band) {
  if (p.rect.empty()) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float pad = kPad * uiScale(), side = ImGui::GetFontSize();
  const Rect& r = p.rect;
  dl->PushClipRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), true);
  if (band) dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), kBand, pad);
  const LaneColour c = laneColour(static_cast<int>(i));
  const float y = r.y0 + pad;
  dl->AddRectFilled(ImVec2(r.x0 + pad, y), ImVec2(r.x0 + pad + side, y + side),
                    ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)), 2.0f);
  const bool diverged = model.lanes.rows[i].diverged;  // red in every form, said in the full one
  dl->AddText(ImVec2(r.x0 + 2.0f * pad + side, y), diverged ? kDivergedText : kText,
              laneText(model, i, p.form).c_str());
  dl->PopClipRect();
}

void drawCaptionBox(const std::string& text, const Placed& p, float wrap) {
  if (p.rect.empty()) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float pad = kPad * uiScale();
  const Rect& r = p.rect;
  dl->PushClipRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), true);
  dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), kBand, pad);
  dl->AddText(nullptr, 0.0f, ImVec2(r.x0 + pad, r.y0 + pad), kText, text.c_str(), nullptr,
              p.form == 0 ? 0.0f : wrap);
  dl->PopClipRect();
}

void noteRect(ItemProbe* probe, const std::string& name, const Rect& r) {
  if (probe && !r.empty()) probe->items.push_back({name, r.x0, r.y0, r.x1, r.y1});
}

}  // namespace

namespace {

// While the blow-up's slow motion plays (ClockView::replay_frame), what the frame is.
std::string slowMotionText(const ClockView& c) {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "Slow motion, one step of %.3g s a frame: %d of %d, up to the divergence",
                c.replay_dt, c.replay_frame + 1, c.replay_frames);
  return buf;
}

// The tag in the banner's place: a dark red band, as the banner's, drawn without a window (it
// shows from its first frame on).
void drawSlowMotionTag(const std::string& text, const Placed& p, float wrap) {
  if (p.rect.empty()) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float pad = kPad * uiScale();
  const Rect& r = p.rect;
  dl->PushClipRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), true);
  dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), IM_COL32(140, 20, 20, 235), pad);
  dl->AddText(nullptr, 0.0f, ImVec2(r.x0 + pad, r.y0 + pad), kText, text.c_str(), nullptr,
              p.form == 0 ? 0.0f : wrap);
  dl->PopClipRect();
}

}  // namespace

void drawLaneLegend(const PanelModel& model, ItemProbe* probe) {
  drawSceneOverlays(model, "", probe);
}

SceneOverlays drawSceneOverlays(const PanelModel& model, const std::string& caption,
                                ItemProbe* probe) {
  const ImGuiIO& io = ImGui::GetIO();
  OverlayRequest req;
  // the scene's own viewport, however narrow: over the panel, a label would hide its widgets
  const float x0 = std::isfinite(model.display.scene_viewport_x)
                       ? std::clamp(model.display.scene_viewport_x, 0.0f, io.DisplaySize.x)
                       : 0.0f;
  req.viewport = {x0, 0.0f, io.DisplaySize.x, io.DisplaySize.y};
  req.margin = kMargin * uiScale();
  float wrap = 0.0f;
  if (!caption.empty()) req.caption = captionForms(caption, req.viewport.width(), wrap);
  req.side_by_side = model.display.split_lanes;
  if (model.lanes.rows.size() >= 2)
    for (size_t i = 0; i < model.lanes.rows.size(); ++i) req.lanes.push_back(laneForms(model, i));
  // the strain legend, when drawn this frame, is an auto-sized window at the bottom right
  if (const ImGuiWindow* w = ImGui::FindWindowByName("##strain legend");
      w && w->Active && model.scene.springs > 0)
    req.strain_legend = {w->Size.x, w->Size.y};
  // the divergence banner, or the slow motion's tag in its place, under the caption
  const bool slowMotion = model.clock.diverged && model.clock.replay_frame >= 0;
  const BannerText banner = bannerText(model);
  const std::string tag = slowMotion ? slowMotionText(model.clock) : std::string();
  float bannerWrapPx = 0.0f, tagWrap = 0.0f;
  if (slowMotion) {
    req.banner = captionForms(tag, req.viewport.width(), tagWrap);
  } else if (model.clock.diverged) {
    req.banner_min_w = banner.min_w;
    bannerWrapPx =
        bannerWrap(banner, std::max(req.viewport.width() - 2.0f * req.margin, banner.min_w));
    req.banner = {bannerSize(banner, bannerWrapPx)};
  }
  const OverlayLayout layout = layOutOverlays(req);
  drawCaptionBox(caption, layout.caption, wrap);
  noteRect(probe, "caption", layout.caption.rect);
  SceneOverlays out;
  for (const Rect& r : {layout.caption.rect, layout.banner.rect})
    if (!r.empty()) out.top_px = std::max(out.top_px, r.y1);
  const Rect& b = layout.banner.rect;
  if (slowMotion) {
    drawSlowMotionTag(tag, layout.banner, tagWrap);
    noteRect(probe, "slow motion", b);
  } else if (model.clock.diverged && !b.empty()) {
    out.commands = bannerWindow(model, banner, 0.5f * (b.x0 + b.x1), b.y0, bannerWrapPx,
                                {b.width(), b.height()}, probe);
    noteRect(probe, "banner", b);
  }
  if (!layout.legend.empty()) {
    ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(layout.legend.x0, layout.legend.y0),
                                                  ImVec2(layout.legend.x1, layout.legend.y1), kBand,
                                                  kPad * uiScale());
    noteRect(probe, "lane legend", layout.legend);
  }
  for (size_t i = 0; i < layout.lanes.size(); ++i) {
    drawLaneBox(model, i, layout.lanes[i], layout.legend.empty());
    noteRect(probe, "lane label/" + std::to_string(i), layout.lanes[i].rect);
  }
  return out;
}

void drawStatus(const PanelModel& model, ItemProbe* probe) {
  if (model.display.status.empty()) return;
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
  if (model.display.status_error)
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.55f, 0.08f, 0.08f, 0.92f));
  if (ImGui::Begin("##status", nullptr, kOverlay | ImGuiWindowFlags_NoInputs)) {
    ImGui::PushTextWrapPos(std::max(io.DisplaySize.x - x0 - 40.0f, 50.0f));
    ImGui::TextUnformatted(compactNumbers(model.display.status).c_str());
    ImGui::PopTextWrapPos();
    note(probe, "status");
  }
  ImGui::End();
  if (model.display.status_error) ImGui::PopStyleColor();
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
             model.display.planar
                 ? "This scene is 2-D: left-drag pans the view."
                 : "This scene is 3-D: left-drag orbits the camera; right-drag pans.",
             probe);
}

}  // namespace ui
