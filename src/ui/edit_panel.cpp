// The Edit section (docs/exploring.md#edit-mode): edit mode, undo and redo, a new scene, what the
// next spring and particle get, and the Bodies part: the selected body's mass and pin, the spring
// between two selected particles, a pendulum's links. Values are typed and applied with Enter
// (each an undoable edit the Session checks).
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "ui/widgets.hpp"

namespace ui::detail {

namespace {
constexpr ImGuiInputTextFlags kOnEnter = ImGuiInputTextFlags_EnterReturnsTrue;

// A number field applied with Enter: true with the value typed in *out.
bool field(const char* label, double value, const char* format, const char* tooltip,
           ItemProbe* probe, double* out) {
  *out = value;
  const bool entered = ImGui::InputDouble(label, out, 0.0, 0.0, format, kOnEnter);
  note(probe, label);
  tip(tooltip);
  return entered;
}

// The Mesh file tool's transform, the scene file's mesh keys (docs/scenes.md#mesh): scale, then
// rotate; the click sets where it goes.
void meshTransform(const EditView& e, PanelState& st, std::vector<Command>& out) {
  SetEditTool t{e.tool, e.mesh_file, e.mesh_scale, e.mesh_rotate_deg};
  // 0 says what it does inside the field (the scan reads the number before the note)
  bool changed = field("Mesh scale", e.mesh_scale, e.mesh_scale == 0.0 ? "%.4g (fit: 1 m)" : "%.4g",
                       "Multiplies the file's coordinates (a scan in mm: 0.001). 0 fits the "
                       "mesh: its longest side becomes 1 m, as large as the other tools' bodies "
                       "(Enter applies).",
                       st.probe, &t.mesh_scale);
  changed |= ImGui::InputScalarN("Mesh rotate", ImGuiDataType_Double, t.mesh_rotate_deg.data(), 3,
                                 nullptr, nullptr, "%.4g", kOnEnter);
  note(st.probe, "Mesh rotate");
  tip("Degrees about x, then y, then z, after the scale (Enter applies).");
  if (changed) emit(out, t);
}

// What a click on empty space adds, and the Mesh file tool's path.
void toolPicker(const EditView& e, PanelState& st, std::vector<Command>& out) {
  const bool valid = e.tool >= 0 && e.tool < static_cast<int>(e.tool_names.size());
  if (ImGui::BeginCombo("Click adds", valid ? e.tool_names[size_t(e.tool)].c_str() : "")) {
    for (int i = 0; i < static_cast<int>(e.tool_names.size()); ++i)
      if (ImGui::Selectable(e.tool_names[size_t(i)].c_str(), i == e.tool))
        emit(out, SetEditTool{i, e.mesh_file, e.mesh_scale, e.mesh_rotate_deg});
    ImGui::EndCombo();
  }
  note(st.probe, "Click adds");
  tip("What a click on empty space puts there, with the new spring's k and damping and the new "
      "mass: a particle; a chain of 5 links, 1 m, hanging from a fixed particle; a 1 m cloth "
      "patch (8 x 8 cells) with its top corners pinned; a 0.5 m jelly box (a 3-D body); an OBJ "
      "mesh centred on the cursor. The mass is a whole body's.");
  if (!e.tool_takes_file) return;
  if (st.edit_mesh_file[0] == '\0' && !e.mesh_file.empty())
    std::snprintf(st.edit_mesh_file, sizeof st.edit_mesh_file, "%s", e.mesh_file.c_str());
  if (ImGui::InputTextWithHint("OBJ file", "path/to/mesh.obj", st.edit_mesh_file,
                               sizeof st.edit_mesh_file))
    emit(out, SetEditTool{e.tool, st.edit_mesh_file, e.mesh_scale, e.mesh_rotate_deg});
  note(st.probe, "OBJ file");
  tip("The mesh the next click adds, relative to the working folder.");
  meshTransform(e, st, out);
}

void newSpring(const EditView& e, PanelState& st, std::vector<Command>& out) {
  SetNewSpring n{e.new_stiffness, e.new_damping, e.new_mass};
  bool changed = field("New spring k", e.new_stiffness, "%.4g N/m",
                       "The stiffness of the next spring (Enter applies).", st.probe, &n.stiffness);
  changed |= field("New damping", e.new_damping, "%.4g N s/m",
                   "The dashpot of the next spring (Enter applies).", st.probe, &n.damping);
  changed |= field("New mass", e.new_mass, "%.4g kg",
                   "The mass of the next particle (Enter applies).", st.probe, &n.mass);
  if (changed) emit(out, n);
}

void selectedParticle(const EditView& e, PanelState& st, std::vector<Command>& out) {
  double mass;
  if (!e.fixed &&
      field("Mass", e.mass, "%.4g kg", "This particle's mass (Enter applies).", st.probe, &mass))
    emit(out, EditSetMass{e.body, mass});
  if (button(e.fixed ? "Unpin (P)" : "Pin (P)",
             "Fix the selected particles in place, or free them.", st.probe))
    emit(out, EditTogglePin{});
  ImGui::SameLine();
  if (button("Delete (Del)", "Delete the selected particles with their springs.", st.probe))
    emit(out, EditDelete{});
  if (e.spring < 0) return;
  ImGui::Text("spring %d between the two", e.spring);
  EditSetSpring s{e.stiffness, e.damping, e.rest_length};
  bool changed = field("k", e.stiffness, "%.4g N/m", "Its stiffness.", st.probe, &s.stiffness);
  changed |= field("Damping", e.damping, "%.4g N s/m", "Its dashpot.", st.probe, &s.damping);
  changed |= field("Rest length", e.rest_length, "%.4g m", "Its length at rest.", st.probe,
                   &s.rest_length);
  if (changed) emit(out, s);
}

void selectedLink(const EditView& e, PanelState& st, std::vector<Command>& out) {
  EditSetLink l{e.body, e.length, e.mass, e.angle_deg};
  bool changed =
      field("Length", e.length, "%.4g m", "This link's rod (Enter applies).", st.probe, &l.length);
  changed |= field("Bob mass", e.mass, "%.4g kg", "Its bob's mass.", st.probe, &l.mass);
  changed |= field("Start angle", e.angle_deg, "%.4g deg",
                   "Its angle from the downward vertical at the start (every link at rest).",
                   st.probe, &l.angle_deg);
  if (changed) emit(out, l);
}

void chainCounts(const EditView& e, PanelState& st, std::vector<Command>& out) {
  ImGui::Text("%d link%s", e.links, e.links == 1 ? "" : "s");
  if (button("Add link", "Another link below the last, as long and heavy, at rest.", st.probe))
    emit(out, EditAddLink{});
  ImGui::SameLine();
  if (button("Remove last link", "The last link and its bob go.", st.probe))
    emit(out, EditRemoveLink{});
}

void networkCounts(const EditView& e, PanelState& st, std::vector<Command>& out) {
  ImGui::Text("%d particle%s, %d spring%s", e.particles, e.particles == 1 ? "" : "s", e.springs,
              e.springs == 1 ? "" : "s");
  toolPicker(e, st, out);
  newSpring(e, st, out);
}

void bodies(const EditView& e, PanelState& st, std::vector<Command>& out) {
  switch (e.layout) {
    case BodyEditor::Chain:
      chainCounts(e, st, out);
      break;
    case BodyEditor::Network:
      networkCounts(e, st, out);
      break;
  }
  note(st.probe, "counts");
  if (e.body < 0) {
    ImGui::TextDisabled("Click a body to select it (Shift: add).");
    return;
  }
  ImGui::TextWrapped("%s", e.selection_name.c_str());
  note(st.probe, "selected");
  switch (e.layout) {
    case BodyEditor::Chain:
      selectedLink(e, st, out);
      break;
    case BodyEditor::Network:
      selectedParticle(e, st, out);
      break;
  }
}
}  // namespace

void editSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  const EditView& e = m.edit;
  bool on = e.editing;
  if (checkbox("Edit mode (E)", e.editing,
               "Build by hand, paused: click empty space to add a particle, drag from one body "
               "to another to join them with a spring, click a body to select it (Shift: add), "
               "drag it to move it. Run (Space) leaves edit mode.",
               st.probe, &on))
    emit(out, SetEditMode{on});
  ImGui::SameLine();
  ImGui::BeginDisabled(e.undo == 0);
  if (button("Undo", "Undo the last edit (Ctrl+Z).", st.probe)) emit(out, Undo{});
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(e.redo == 0);
  if (button("Redo", "Redo the edit undone (Ctrl+Shift+Z).", st.probe)) emit(out, Redo{});
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (button("New", "A new scene to build on: one fixed particle at the origin.", st.probe))
    emit(out, NewScene{});
  if (!e.message.empty()) {
    // wrapped at the panel's edge: a mesh file's line is long ("mesh file: NAME:LINE: ...")
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", e.message.c_str());
    ImGui::PopStyleColor();
    note(st.probe, "edit message");
  }
  bodies(e, st, out);
}

}  // namespace ui::detail

namespace ui {

void drawSelectionBox(const PanelModel& m) {
  if (m.display.selection_box.size() != 4) return;
  const auto& b = m.display.selection_box;
  const ImVec2 a(static_cast<float>(std::min(b[0], b[2])),
                 static_cast<float>(std::min(b[1], b[3])));
  const ImVec2 c(static_cast<float>(std::max(b[0], b[2])),
                 static_cast<float>(std::max(b[1], b[3])));
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(a, c, IM_COL32(250, 210, 80, 30));
  draw->AddRect(a, c, IM_COL32(250, 210, 80, 200));
}

}  // namespace ui
