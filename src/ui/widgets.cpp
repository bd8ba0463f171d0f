#include "ui/widgets.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace ui::detail {

void tooltip(const char* text) {
  // ImGui moves a tooltip that would cross the display's right edge to the cursor's left, and
  // that only works when it is narrower than the display: wrap it at a readable width within it
  constexpr float kReadableEms = 32.0f, kMargin = 16.0f;
  const float display = ImGui::GetIO().DisplaySize.x;
  const float em = ImGui::GetFontSize();
  const float width = std::max(std::min(kReadableEms * em, display - 2.0f * kMargin), 4.0f * em);
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(width);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void tip(const char* text) {
  if (ImGui::IsItemHovered()) tooltip(text);
}

void note(ItemProbe* probe, std::string name) {
  if (!probe) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  probe->items.push_back({std::move(name), a.x, a.y, b.x, b.y});
}

std::string visibleLabel(const char* label) {
  const std::string s(label);
  return s.substr(0, s.find("##"));
}

void emit(std::vector<Command>& out, Command c) {
  if (auto clamped = clampCommand(std::move(c))) out.push_back(std::move(*clamped));
}

namespace {

// ImGui's lower end of a logarithmic slider that starts at 0 (10^-3 for a 3-digit format, see
// imguiFormat)
constexpr double kLogZeroEpsilon = 1e-3;

// The slider's position of v, 0 at lo and 1 at hi, as ImGui maps it (log or linear).
double toParam(const SliderSpec& s, double v) {
  if (s.logarithmic) {
    const double lo = s.lo > 0.0 ? s.lo : kLogZeroEpsilon;
    return std::clamp(std::log(std::max(v, lo) / lo) / std::log(s.hi / lo), 0.0, 1.0);
  }
  return std::clamp((v - s.lo) / (s.hi - s.lo), 0.0, 1.0);
}

double fromParam(const SliderSpec& s, double p) {
  p = std::clamp(p, 0.0, 1.0);
  if (s.logarithmic) {
    const double lo = s.lo > 0.0 ? s.lo : kLogZeroEpsilon;
    return s.lo <= 0.0 && p <= 0.0 ? s.lo : std::clamp(lo * std::pow(s.hi / lo, p), s.lo, s.hi);
  }
  return s.lo + p * (s.hi - s.lo);
}

// Fine mode: while Shift is held during a drag, the value moves from where it was when Shift went
// down, 10 times slower than the slider (which maps the mouse's position to a value); once used
// in a drag, the drag stays relative, so releasing Shift does not make the value jump.
// `shown`: the value before this frame; `usable`: the slider's usable width in px.
bool fineDrag(const SliderSpec& s, ImGuiID id, double shown, float usable, PanelState& st,
              double* v) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool dragging = ImGui::IsItemActive() && !ImGui::TempInputIsActive(id) && io.MouseDown[0];
  if (!dragging) {
    if (st.fine_id == id) st.fine_id = 0;
    return false;
  }
  if (!io.KeyShift && st.fine_id != id) return false;
  if (st.fine_id != id || io.KeyShift != st.fine_shift) {  // (re)anchor where the mouse is
    st.fine_anchor_value = st.fine_id == id ? st.fine_value : shown;
    st.fine_anchor_x = io.MousePos.x;
    st.fine_id = id, st.fine_shift = io.KeyShift;
  }
  const double speed = io.KeyShift ? 0.1 : 1.0;
  const double dp = (io.MousePos.x - st.fine_anchor_x) / std::max(usable, 1.0f) * speed;
  *v = dp == 0.0 ? st.fine_anchor_value : fromParam(s, toParam(s, st.fine_anchor_value) + dp);
  st.fine_value = *v;
  return true;
}

// The precision of a "%.Ng"-style format (3 when none is given).
int formatDigits(const char* format) {
  const char* p = std::strstr(format, "%.");
  return p ? std::clamp(std::atoi(p + 2), 1, 17) : 3;
}

// v rounded to `digits` significant digits: the value committed is the value shown.
double roundTo(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return std::strtod(buf, nullptr);
}

// The format handed to ImGui: a logarithmic slider clamps its values to 10^-precision (ImGui
// 1.86 reads the precision from the format), so "%.3g" would pin every dt below 1e-3 to the left
// end; enough digits for lo keep the scale logarithmic down to lo. The value is shown through
// the spec's own format (sliderText). Also the text a Ctrl+click starts from.
std::string imguiFormat(const SliderSpec& s) {
  int digits = formatDigits(s.format);
  if (s.logarithmic && s.lo > 0.0)
    digits = std::max(digits, static_cast<int>(std::ceil(-std::log10(s.lo))) + 1);
  return "%." + std::to_string(digits) + "g";
}

// The value in the spec's format, centred on the slider's frame (the last item), and the label
// on its right, as ImGui draws them.
void sliderText(const SliderSpec& s, double v, bool typing) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  if (!typing) {
    char buf[64];
    std::snprintf(buf, sizeof buf, s.format, v);
    ImGui::RenderTextClipped(a, b, buf, nullptr, nullptr, ImVec2(0.5f, 0.5f));
  }
  const std::string label = visibleLabel(s.label);
  if (label.empty()) return;
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::TextUnformatted(label.c_str());
}

}  // namespace

bool slider(const SliderSpec& s, double value, PanelState& state, double* out) {
  const std::string hidden = "##" + std::string(s.label);  // the label is drawn by sliderText
  const ImGuiID id = ImGui::GetID(hidden.c_str());
  const bool editing = s.commit == Commit::OnRelease && state.edit_id == id;
  double v = editing ? state.edit_value : value;
  if (!std::isfinite(v)) v = s.lo;  // only what is shown; nothing is emitted unless edited
  const double shown = v;
  const double lo = s.lo, hi = s.hi;
  ImGuiSliderFlags flags = ImGuiSliderFlags_NoRoundToFormat;
  if (s.logarithmic) flags |= ImGuiSliderFlags_Logarithmic;
  // ImGui's usable width: the frame less the grab and its padding of 2 px each side
  const float usable = ImGui::CalcItemWidth() - 4.0f - ImGui::GetStyle().GrabMinSize;
  const bool typing = ImGui::TempInputIsActive(id);
  if (!typing) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));  // see sliderText
  bool changed = ImGui::SliderScalar(hidden.c_str(), ImGuiDataType_Double, &v, &lo, &hi,
                                     imguiFormat(s).c_str(), flags);
  if (!typing) ImGui::PopStyleColor();
  if (fineDrag(s, id, shown, usable, state, &v)) changed = v != shown;
  if (changed && !typing) v = roundTo(v, formatDigits(s.format));  // a typed value is kept
  note(state.probe, visibleLabel(s.label));
  bool emit_now = false;
  if (s.commit == Commit::Live) {
    if (changed) *out = v;
    emit_now = changed;
  } else {
    // costly changes (a refactorisation): keep the value while the item is active, commit on
    // release
    const bool active = ImGui::IsItemActive();
    if (changed || active) {
      state.edit_id = id;
      state.edit_value = v;
    }
    if (ImGui::IsItemDeactivatedAfterEdit()) {
      *out = state.edit_id == id ? state.edit_value : v;
      if (state.edit_id == id) state.edit_id = 0;
      emit_now = *out != value;  // a Shift+click without a move changes nothing
    } else if (!active && !changed && state.edit_id == id) {
      state.edit_id = 0;
    }
  }
  tip(s.tooltip);  // last: a tooltip window replaces the last item's data
  sliderText(s, v, ImGui::TempInputIsActive(id));
  return emit_now;
}

// A button with a probe entry and a tooltip; true when clicked.
bool button(const char* label, const char* tooltip, ItemProbe* probe) {
  const bool pressed = ImGui::Button(label);
  note(probe, visibleLabel(label));
  tip(tooltip);
  return pressed;
}

bool checkbox(const char* label, bool value, const char* tooltip, ItemProbe* probe, bool* out) {
  bool v = value;
  const bool changed = ImGui::Checkbox(label, &v);
  note(probe, visibleLabel(label));
  tip(tooltip);
  *out = v;
  return changed;
}

const LaneMeasure& laneMeasure(const PanelModel& model, int i) {
  static const LaneMeasure kNone;
  const auto& lanes = model.measure.lanes;
  return i >= 0 && i < static_cast<int>(lanes.size()) ? lanes[static_cast<size_t>(i)] : kNone;
}

bool flagBox(const PanelModel& m, DisplayFlag flag, ItemProbe* probe, std::vector<Command>& out,
             const char* label, const char* tooltip) {
  const DisplayFlagRow& row = displayFlag(flag);
  bool on = false;
  if (!checkbox(label ? label : row.label, m.display.*row.shown, tooltip ? tooltip : row.tooltip,
                probe, &on))
    return false;
  emit(out, SetDisplayFlag{flag, on});
  return true;
}

}  // namespace ui::detail

namespace ui {

bool uiWantsMouseAt(double x, double y) {
  if (ImGui::GetCurrentContext() == nullptr) return false;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse) return true;
  // ImGui's coordinates are the window's; the press is in framebuffer pixels (HiDPI: 2 per point)
  const ImVec2 scale = io.DisplayFramebufferScale;
  const ImVec2 at(static_cast<float>(x) / (scale.x > 0.0f ? scale.x : 1.0f),
                  static_cast<float>(y) / (scale.y > 0.0f ? scale.y : 1.0f));
  for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->Active && !w->Hidden && !(w->Flags & ImGuiWindowFlags_NoMouseInputs) &&
        w->OuterRectClipped.Contains(at))
      return true;
  return false;
}

}  // namespace ui
