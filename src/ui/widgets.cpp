#include "ui/widgets.hpp"

#include <cmath>
#include <utility>

namespace ui::detail {

void tip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
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

bool slider(const SliderSpec& s, double value, PanelState& state, double* out) {
  const ImGuiID id = ImGui::GetID(s.label);
  const bool editing = s.commit == Commit::OnRelease && state.edit_id == id;
  double v = editing ? state.edit_value : value;
  if (!std::isfinite(v)) v = s.lo;  // only what is shown; nothing is emitted unless edited
  const double lo = s.lo, hi = s.hi;
  ImGuiSliderFlags flags = ImGuiSliderFlags_NoRoundToFormat;
  if (s.logarithmic) flags |= ImGuiSliderFlags_Logarithmic;
  const bool changed =
      ImGui::SliderScalar(s.label, ImGuiDataType_Double, &v, &lo, &hi, s.format, flags);
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
      emit_now = true;
    } else if (!active && !changed && state.edit_id == id) {
      state.edit_id = 0;
    }
  }
  tip(s.tooltip);  // last: a tooltip window replaces the last item's data
  return emit_now;
}

}  // namespace ui::detail
