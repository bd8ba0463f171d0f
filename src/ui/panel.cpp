// The "springlab" panel window (docs/architecture.md#imgui-habits): reads a PanelModel, returns
// Commands.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <numbers>
#include <string>
#include <utility>

#include "ui/panel.hpp"
#include "ui/widgets.hpp"

namespace ui {

using detail::button;
using detail::checkbox;
using detail::Commit;
using detail::emit;
using detail::note;
using detail::tip;

namespace {

using K = Command::Kind;
constexpr float kBaseFontSize = 13.0f;  // px: ImGui's default font at UI scale 1

Command make(K kind, double value = 0.0) {
  return detail::makeCommand(kind, value);
}

// gravity direction (unit), -y when the model's gravity is zero
void gravityDirection(const PanelModel& m, double dir[3]) {
  const double g = std::sqrt(m.gravity[0] * m.gravity[0] + m.gravity[1] * m.gravity[1] +
                             m.gravity[2] * m.gravity[2]);
  if (g > 0.0 && std::isfinite(g)) {
    for (int i = 0; i < 3; ++i) dir[i] = m.gravity[i] / g;
  } else {
    dir[0] = 0.0, dir[1] = -1.0, dir[2] = 0.0;
  }
}

Command gravityCommand(const PanelModel& m, double magnitude) {
  double dir[3];
  gravityDirection(m, dir);
  Command c = make(K::SetGravity);
  for (int i = 0; i < 3; ++i) c.vec[i] = dir[i] * magnitude;
  if (!std::isfinite(magnitude)) c.vec[0] = magnitude;  // dropped by clampCommand
  return c;
}

// The wind's horizontal directions: e1 along +x and e2 = e1 x up, up against gravity (+y without
// gravity), so that a heading of 0 degrees blows along +x and 90 along +z in the usual scene. In
// a planar scene the heading turns in the x-y plane instead (a planar scene's wind has no z).
void windBasis(const PanelModel& m, double e1[3], double e2[3]) {
  if (m.planar) {
    e1[0] = 1.0, e1[1] = 0.0, e1[2] = 0.0;
    e2[0] = 0.0, e2[1] = 1.0, e2[2] = 0.0;
    return;
  }
  double up[3];
  gravityDirection(m, up);
  for (double& u : up) u = -u;
  const double ax[2][3] = {{1.0, 0.0, 0.0}, {0.0, 0.0, 1.0}};
  for (const auto& a : ax) {  // +x off the vertical, or +z where x is vertical
    const double along = a[0] * up[0] + a[1] * up[1] + a[2] * up[2];
    double n = 0.0;
    for (int k = 0; k < 3; ++k) e1[k] = a[k] - along * up[k], n += e1[k] * e1[k];
    n = std::sqrt(n);
    if (n < 0.5) continue;
    for (int k = 0; k < 3; ++k) e1[k] /= n;
    break;
  }
  e2[0] = e1[1] * up[2] - e1[2] * up[1];
  e2[1] = e1[2] * up[0] - e1[0] * up[2];
  e2[2] = e1[0] * up[1] - e1[1] * up[0];
}

double windSpeed(const PanelModel& m) {
  return std::sqrt(m.wind[0] * m.wind[0] + m.wind[1] * m.wind[1] + m.wind[2] * m.wind[2]);
}

// degrees from e1 towards e2 (windBasis) of the wind's horizontal part; 0 without one
double windHeading(const PanelModel& m) {
  double e1[3], e2[3];
  windBasis(m, e1, e2);
  double a = 0.0, b = 0.0;
  for (int k = 0; k < 3; ++k) a += m.wind[k] * e1[k], b += m.wind[k] * e2[k];
  return a == 0.0 && b == 0.0 ? 0.0 : std::atan2(b, a) * 180.0 / std::numbers::pi;
}

// A horizontal wind of `speed` m/s towards `heading` degrees (windBasis).
Command windCommand(const PanelModel& m, double speed, double heading) {
  double e1[3], e2[3];
  windBasis(m, e1, e2);
  const double a = heading * std::numbers::pi / 180.0;
  Command c = make(K::SetWind);
  for (int k = 0; k < 3; ++k) c.vec[k] = speed * (std::cos(a) * e1[k] + std::sin(a) * e2[k]);
  return c;
}

constexpr double kHeadingMax = 180.0;  // degrees either way from +x

// Wind speed (its direction kept; +x from calm) and heading (horizontal at the same speed).
void windSliders(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  const double speed = windSpeed(m);
  double v = 0.0;
  if (detail::slider({"Wind", 0.0, Limits::kWindMax, "%.3g m/s", true, Commit::Live,
                      "Speed of the air, in m/s, felt through the drag: force = -c (v - wind). "
                      "Its direction is kept (+x from calm)."},
                     speed, st, &v)) {
    Command c = windCommand(m, v, windHeading(m));
    if (speed > 0.0)
      for (int k = 0; k < 3; ++k) c.vec[k] = m.wind[k] * (v / speed);
    emit(out, c);
  }
  if (detail::slider({"Wind heading", -kHeadingMax, kHeadingMax, "%.0f deg", false, Commit::Live,
                      m.planar ? "Direction of the wind in the scene's plane, in degrees from +x "
                                 "towards +y, at the same speed."
                               : "Direction of the wind in the horizontal plane, in degrees from "
                                 "+x towards +z, at the same speed (a vertical part is dropped)."},
                     windHeading(m), st, &v))
    emit(out, windCommand(m, speed, v));
  if (m.drag == 0.0 && speed > 0.0) ImGui::TextDisabled("Drag is 0: the wind has no effect.");
}

void sceneSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  if (ImGui::BeginCombo("Built-in", m.scene_name.c_str())) {
    for (int i = 0; i < static_cast<int>(m.builtin_scenes.size()); ++i) {
      const std::string& name = m.builtin_scenes[i];
      ImGui::PushID(i);
      const bool picked = ImGui::Selectable(name.c_str(), name == m.scene_name);
      note(probe, "scene/" + name);
      tip("Load this built-in scene (replaces the current one).");
      if (picked) {
        emit(out, detail::makeCommand(K::LoadBuiltin, 0.0, 0, name));
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  note(probe, "Built-in");
  tip("Built-in scenes (the catalog compiled into the program).");

  const bool entered = ImGui::InputText("##path", st.file_path, sizeof st.file_path,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
  note(probe, "path");
  tip("Path of a scene file (*.json); Enter or Open loads it.");
  ImGui::SameLine();
  const bool open = button("Open", "Load the scene file named on the left.", probe);
  if ((entered || open) && st.file_path[0] != '\0') {
    emit(out, detail::makeCommand(K::LoadFile, 0.0, 0, st.file_path));
  }
  ImGui::SameLine();
  if (button("Reload", "Load the current scene again from its file (Ctrl+L).", probe))
    emit(out, make(K::Reload));

  if (!m.scene_path.empty()) {
    ImGui::TextDisabled("%s", m.scene_path.c_str());
    note(probe, "scene path");
    tip("The file the current scene came from.");
  }
  // the counts that apply: a pendulum has links and no springs, a mass-spring system the reverse
  std::string counts;
  for (auto [name, n] :
       {std::pair{"particles", m.particles}, {"springs", m.springs}, {"links", m.links}})
    if (n > 0) counts += std::string(name) + " " + std::to_string(n) + "  ";
  counts += "DOFs " + std::to_string(m.dofs);
  ImGui::TextUnformatted(counts.c_str());
  note(probe, "counts");
  tip("Particles (or bobs), springs, rigid links, and degrees of freedom of the current system.");
}

// Real-time motion or smooth frames: which gives way when stepping costs too much.
void pacingChoice(const PanelModel& m, ItemProbe* probe, std::vector<Command>& out) {
  struct Choice {
    const char* label;
    const char* tooltip;
  };
  static constexpr Choice kChoices[] = {
      {"Real-time motion",
       "Keep the motion at real speed (times the time scale): stepping may take most of each "
       "frame, down to about 20 frames/s, before the simulated clock slows down."},
      {"Smooth frames",
       "Keep 60 frames/s: stepping gets what drawing leaves of each 16 ms frame; when that is not "
       "enough, the simulated clock slows down (real time below 100 %)."},
  };
  for (int i = 0; i < 2; ++i) {
    if (i > 0) ImGui::SameLine();
    const bool picked = ImGui::RadioButton(kChoices[i].label, m.pacing == i);
    note(probe, kChoices[i].label);
    tip(kChoices[i].tooltip);
    if (picked && m.pacing != i) emit(out, make(K::SetPacing, i));
  }
}

// "dt = 0.36 x limit": lane 0's dt against its integrator's stability limit (docs/lab.md), red
// above it.
void dtLimitLine(const PanelModel& m, ItemProbe* probe) {
  if (!(m.dt_limit > 0.0)) return;
  const double ratio = m.dt / m.dt_limit;
  const std::string text =
      "dt = " + detail::compact(ratio, 3) + " x limit (" + detail::compact(m.dt_limit, 3) + " s)";
  if (ratio > 1.0)
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", text.c_str());
  else
    ImGui::TextDisabled("%s", text.c_str());
  note(probe, "dt limit");
  tip("The step against this integrator's stability limit on undamped oscillation at the "
      "initial state (2/omega_max for symplectic_euler and verlet, 2 sqrt(2)/omega_max for "
      "rk4; omega_max from springlab info, scaled with the stiffness). Above 1 the fastest "
      "oscillation grows until the simulation diverges.");
}

void simulationSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  // only the integrators that apply to this system are offered
  if (ImGui::BeginCombo("Integrator", m.integrator.c_str())) {
    for (int i = 0; i < static_cast<int>(m.integrators.size()); ++i) {
      const IntegratorChoice& choice = m.integrators[i];
      ImGui::PushID(i);
      const bool picked = ImGui::Selectable(choice.name.c_str(), choice.name == m.integrator);
      note(probe, "integrator/" + choice.name);
      if (!choice.tooltip.empty()) tip(choice.tooltip.c_str());
      if (picked && choice.name != m.integrator) {
        emit(out, detail::makeCommand(K::SetIntegrator, 0.0, 0, choice.name));
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  note(probe, "Integrator");
  tip("Time integrator (only those that apply to this system are listed); hover an entry for its "
      "order, symplecticity and cost.");

  double v = 0.0;
  if (detail::slider({"dt", Limits::kDtMin, Limits::kDtMax, "%.3g s", true, Commit::OnRelease,
                      "Time step h, in seconds, on a logarithmic slider from 1e-7 to 0.1 s. Hold "
                      "Shift while dragging for 10 times finer control (the value then moves from "
                      "where it was instead of jumping to the mouse). Ctrl+click to type a "
                      "value. Applied on release: implicit integrators refactorise."},
                     m.dt, st, &v))
    emit(out, make(K::SetDt, v));
  dtLimitLine(m, probe);
  if (detail::slider(
          {"Time scale", Limits::kTimeScaleMin, Limits::kTimeScaleMax, "x%.3g", true, Commit::Live,
           "Simulated seconds per real second (logarithmic, 1/64 to 8). + / - halve "
           "or double it."},
          m.time_scale, st, &v))
    emit(out, make(K::SetTimeScale, v));
  pacingChoice(m, probe, out);

  if (button(m.paused ? "Run###pause" : "Pause###pause",
             m.paused ? "Resume the simulation (Space)." : "Pause the simulation (Space).", probe))
    emit(out, make(K::SetPaused, m.paused ? 0.0 : 1.0));
  ImGui::SameLine();
  if (button("Step", "Advance one step of dt (Right arrow).", probe))
    emit(out, detail::makeCommand(K::Step, 0.0, 1));
  ImGui::SameLine();
  if (button("Step 10", "Advance ten steps of dt (Shift+Right arrow).", probe))
    emit(out, detail::makeCommand(K::Step, 0.0, 10));
  ImGui::SameLine();
  if (button("Reset", "Back to the initial state; the camera frames the scene again (R).", probe))
    emit(out, make(K::Reset));
}

// The iterated methods' own settings (docs/integrators.md#xpbd, #projective), shown while one of
// them is the integrator.
constexpr double kSubstepsSliderMax = 100, kIterationsSliderMax = 100;  // Ctrl+click: up to 1000
void iterationSliders(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  const bool xpbd = m.integrator == "xpbd";
  double v = 0.0;
  if (detail::slider({"Substeps", 1.0, kSubstepsSliderMax, "%.0f", true, Commit::OnRelease,
                      xpbd ? "xpbd: substeps per step (logarithmic). More substeps hold stiff "
                             "springs closer to their rest length and damp less; the cost grows "
                             "in proportion. Ctrl+click to type up to 1000."
                           : "projective: substeps per step (logarithmic). Each is a backward "
                             "Euler step of dt / substeps: more damp less; the cost grows in "
                             "proportion. Ctrl+click to type up to 1000."},
                     m.substeps, st, &v))
    emit(out, make(K::SetSubsteps, v));
  if (detail::slider({"Iterations", 1.0, kIterationsSliderMax, "%.0f", true, Commit::OnRelease,
                      xpbd ? "xpbd: constraint sweeps per substep (logarithmic). Substeps "
                             "usually buy more stiffness for the same cost. Ctrl+click to type "
                             "up to 1000."
                           : "projective: local-global iterations per substep (logarithmic), "
                             "one solve each. More hold stiff springs closer to their rest "
                             "length, towards backward Euler's exact step. Ctrl+click to type up "
                             "to 1000."},
                     m.iterations, st, &v))
    emit(out, make(K::SetIterations, v));
}

void physicsSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  double v = 0.0;
  if (!m.pendulum) {
    if (detail::slider({"Stiffness scale", Limits::kStiffnessScaleMin, Limits::kStiffnessScaleMax,
                        "x%.3g", true, Commit::OnRelease,
                        "Multiplies every spring's stiffness k (dimensionless, logarithmic; Shift "
                        "while dragging: 10 times finer). Applied on release: implicit "
                        "integrators refactorise."},
                       m.stiffness_scale, st, &v))
      emit(out, make(K::SetStiffnessScale, v));
    if (detail::slider(
            {"Spring damping", 0.0, Limits::kDampingMax, "%.3g N s/m", true, Commit::OnRelease,
             "Dashpot coefficient of every spring, in N s/m: damps stretching only. Applied on "
             "release: projective refactorises."},
            m.spring_damping, st, &v))
      emit(out, make(K::SetSpringDamping, v));
    if (m.integrator == "xpbd" || m.integrator == "projective") iterationSliders(m, st, out);
  }
  if (detail::slider({"Drag", 0.0, Limits::kDragMax, "%.3g N s/m", true, Commit::Live,
                      "Linear air drag on every particle, in N s/m: force = -c (v - wind)."},
                     m.drag, st, &v))
    emit(out, make(K::SetDrag, v));
  if (!m.pendulum) windSliders(m, st, out);

  double dir[3];
  gravityDirection(m, dir);
  const double g = std::sqrt(m.gravity[0] * m.gravity[0] + m.gravity[1] * m.gravity[1] +
                             m.gravity[2] * m.gravity[2]);
  if (detail::slider({"Gravity", 0.0, Limits::kGravityMax, "%.3g m/s^2", false, Commit::Live,
                      "Magnitude of gravity, in m/s^2; its direction is kept."},
                     g, st, &v))
    emit(out, gravityCommand(m, v));
  struct Preset {
    const char* label;
    double g;
    const char* tooltip;
  };
  static constexpr Preset kPresets[] = {
      {"Earth", 9.81, "Gravity 9.81 m/s^2 (Earth), same direction."},
      {"Moon", 1.62, "Gravity 1.62 m/s^2 (Moon), same direction."},
      {"Zero", 0.0, "No gravity."},
  };
  for (int i = 0; i < 3; ++i) {
    if (i > 0) ImGui::SameLine();
    ImGui::PushID(i);
    if (button(kPresets[i].label, kPresets[i].tooltip, probe))
      emit(out, gravityCommand(m, kPresets[i].g));
    ImGui::PopID();
  }

  if (m.pendulum) {
    if (detail::slider(
            {"Joint damping", 0.0, Limits::kJointDampingMax, "%.3g N m s/rad", true, Commit::Live,
             "Viscous damping at every joint, in N m s/rad: torque = -c (relative "
             "angular rate)."},
            m.joint_damping, st, &v))
      emit(out, make(K::SetJointDamping, v));
  }
  if (detail::slider({"Grab stiffness", Limits::kGrabStiffnessMin, Limits::kGrabStiffnessMax,
                      "%.3g N/m", true, Commit::Live,
                      "Stiffness of the mouse spring used by Ctrl+left-drag, in N/m "
                      "(logarithmic)."},
                     m.grab_stiffness, st, &v))
    emit(out, make(K::SetGrabStiffness, v));
}

// The size of the clips Record makes: the window's, or a fixed one (not while recording).
void clipSizeCombo(const PanelModel& m, ItemProbe* probe, std::vector<Command>& out) {
  const auto sizes = clipSizes();
  const int current = std::clamp(m.clip_size, 0, static_cast<int>(sizes.size()) - 1);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.5f);
  ImGui::BeginDisabled(m.recording);
  if (ImGui::BeginCombo("##clip size", sizes[current].label)) {
    for (int i = 0; i < static_cast<int>(sizes.size()); ++i) {
      if (ImGui::Selectable(sizes[i].label, i == current) && i != current)
        emit(out, command(K::SetClipSize, 0.0, i));
      note(probe, std::string("clip/") + sizes[i].label);
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  note(probe, "clip size");
  tip("The size of the clips Record makes: the window's (rounded down to even sides for the "
      "video) or a fixed one, whatever the window's size.");
}

void displaySection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  double v = 0.0;
  bool b = false;
  // strain colours apply to springs only (a pendulum's rods are rigid)
  if (m.springs > 0) {
    if (detail::slider({"Strain scale", Limits::kStrainScaleMin, Limits::kStrainScaleMax, "%.3g",
                        true, Commit::Live,
                        "Strain (dimensionless, (L - L0) / L0) drawn at full colour: blue "
                        "compressed, red stretched (logarithmic). Moving it fixes the scale."},
                       m.strain_scale, st, &v))
      emit(out, make(K::SetStrainScale, v));
    if (checkbox("Auto strain scale", m.strain_auto,
                 "The scale follows the strains the scene actually reaches, so that the colours "
                 "show where it stretches most; off: the scale stays where it is.",
                 probe, &b))
      emit(out, make(K::SetStrainAuto, b ? 1.0 : 0.0));
  }
  bool first = true;  // of the checkboxes' row
  auto next = [&first] {
    if (!first) ImGui::SameLine();
    first = false;
  };
  if (m.springs > 0 || m.links > 0) {
    next();
    if (checkbox(m.springs > 0 ? "Springs" : "Rods", m.show_springs,
                 m.springs > 0 ? "Draw the springs as lines coloured by strain. Off by default on "
                                 "cloth, whose surface shows the shape (lines cost most under "
                                 "software GL)."
                               : "Draw the pendulum's rods as lines.",
                 probe, &b))
      emit(out, make(K::SetShowSprings, b ? 1.0 : 0.0));
  }
  if (m.surface) {
    next();
    if (checkbox("Wireframe", m.wireframe, "Draw the cloth as lines instead of shaded triangles.",
                 probe, &b))
      emit(out, make(K::SetWireframe, b ? 1.0 : 0.0));
  }
  next();
  ImGui::SameLine();
  if (checkbox("Trails", m.show_trails, "Draw the recent path of the bobs / marked particles.",
               probe, &b))
    emit(out, make(K::SetShowTrails, b ? 1.0 : 0.0));
  ImGui::SameLine();
  if (checkbox("Follow", m.follow,
               "The camera follows the system as it moves (F frames it once); off: the camera "
               "stays where it is.",
               probe, &b))
    emit(out, make(K::SetFollow, b ? 1.0 : 0.0));
  // on a line of its own: the row above is as wide as the panel
  const bool windActs = m.drag > 0.0 && (m.wind[0] != 0.0 || m.wind[1] != 0.0 || m.wind[2] != 0.0);
  if (windActs && checkbox("Wind streaks", m.show_wind,
                           "Draw the air's motion as streaks carried with the wind.", probe, &b))
    emit(out, make(K::SetShowWind, b ? 1.0 : 0.0));
  if (button("Screenshot", "Save the viewport to a PNG file (Ctrl+P).", probe))
    emit(out, make(K::Screenshot));
  ImGui::SameLine();
  if (button(m.recording ? "Stop recording" : "Record",
             m.recording ? "Stop the clip and save it (Ctrl+R)."
                         : "Record a clip of the scene (Ctrl+R): each frame advances exactly "
                           "1/60 s of simulated time, so the clip is smooth even when the machine "
                           "cannot keep up; saved as springlab-DATE-TIME.mp4.",
             probe))
    emit(out, make(K::ToggleRecording));
  ImGui::SameLine();
  clipSizeCombo(m, probe, out);
  ImGui::SameLine();
  if (button("Help", "Show the key and mouse bindings (F1).", probe)) st.show_help = !st.show_help;
}

// Real time, the last frame's cost split sim / render / present, and which part is the
// bottleneck when the simulated clock falls behind.
void timing(const PanelModel& m, ItemProbe* probe) {
  const double frame = m.frame_ms_sim + m.frame_ms_render + m.frame_ms_present;
  ImGui::Text("real time %.3g %%   frame %.3g ms", m.realtime_percent, frame);
  note(probe, "timing");
  tip("Simulated time over wall-clock time, times the time scale (below 100 %: stepping cannot "
      "keep up and the simulated clock slows down); the last frame's wall time in ms.");
  ImGui::Text("sim %.3g ms + render %.3g ms + present %.3g ms", m.frame_ms_sim, m.frame_ms_render,
              m.frame_ms_present);
  note(probe, "frame split");
  tip("The last frame's wall time split into stepping the simulation, drawing the scene and the "
      "panel, and presenting the frame (waiting for the display), in ms.");
  if (m.clock_locked) {
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "recording: 1 frame = 1/60 s simulated");
    note(probe, "recording clock");
    tip("While recording, every frame advances exactly one clip frame of simulated time, so the "
        "clip is smooth whatever the machine's speed; the window shows it at the real time "
        "above.");
    return;  // the clip's clock, not the machine, sets the pace: no bottleneck to name
  }
  const std::string cost = costSummary(m);
  if (!cost.empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "%s", cost.c_str());
    note(probe, "bottleneck");
    const bool iterated = m.integrator == "xpbd" || m.integrator == "projective";
    tip(m.frame_ms_sim >= m.frame_ms_render && m.frame_ms_sim >= m.frame_ms_present
            ? (iterated
                   ? "Stepping takes the frame: fewer substeps (cost in proportion, at some "
                     "stretch), a larger dt or a lower time scale lets the simulated clock keep "
                     "up."
                   : "Stepping takes the frame: a larger dt, a cheaper integrator or a lower time "
                     "scale lets the simulated clock keep up.")
        : m.frame_ms_render >= m.frame_ms_present
            ? "Drawing takes the frame: hiding the springs (lines cost most under software GL) or "
              "a smaller window leaves more time for stepping."
            : "Presenting takes the frame (the display's refresh, or a slow compositor).");
  }
}

// The energy ledger (docs/integrators.md#the-energy-ledger): the physical terms, then each lane's
// balance, the method's own energy error.
void ledgerSection(const PanelModel& m, ItemProbe* probe) {
  ImGui::Text("dissipated %s J   grab %s J", detail::compact(m.work_dissipated).c_str(),
              detail::compact(m.work_external).c_str());
  note(probe, "ledger");
  tip("The energy ledger since the start (or the last change of stiffness, gravity or grab): the "
      "work drag, dashpots and joint damping took out, and the work the mouse spring put in.");
  detail::laneLogPlot(
      m,
      {"balance |E - E0 + W_diss - W_grab| / reference", "##ledger", &LaneRow::residual,
       "The energy balance of each lane: what is left of the energy change once the physical "
       "work is accounted for, i.e. the integrator's own energy error (round-off for an exact "
       "method), on a log axis."},
      probe);
}

void diagnosticsSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  if (m.clip) {
    ImGui::Text("t = %.4g s", m.sim_time);  // a clip's frames show no wall-clock figures
    note(probe, "time");
  } else {
    ImGui::Text("t = %.4g s   %.4g steps/s", m.sim_time, m.steps_per_second);
    note(probe, "time");
    tip("Simulated time in seconds, and integrator steps per real second.");
    timing(m, probe);
  }

  detail::energyPlot(m, probe);
  detail::driftPlot(m, probe);
  ledgerSection(m, probe);

  // phase plot coordinate
  const bool valid =
      m.phase_coordinate >= 0 && m.phase_coordinate < static_cast<int>(m.phase_coordinates.size());
  if (ImGui::BeginCombo("Phase coordinate",
                        valid ? m.phase_coordinates[m.phase_coordinate].c_str() : "")) {
    for (int i = 0; i < static_cast<int>(m.phase_coordinates.size()); ++i) {
      ImGui::PushID(i);
      const bool picked =
          ImGui::Selectable(m.phase_coordinates[i].c_str(), i == m.phase_coordinate);
      note(probe, "phase/" + m.phase_coordinates[i]);
      if (picked && i != m.phase_coordinate) {
        emit(out, detail::makeCommand(K::SetPhaseCoordinate, 0.0, i));
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  note(probe, "Phase coordinate");
  tip("Coordinate shown in the phase plot (x, y, z of a particle in m, or a joint angle phi in "
      "rad) against its rate.");
  detail::phasePlot(m, probe);
}

bool header(const char* label, ItemProbe* probe, const char* tooltip, bool startOpen = true) {
  const bool open = ImGui::CollapsingHeader(label, startOpen ? ImGuiTreeNodeFlags_DefaultOpen : 0);
  note(probe, label);
  tip(tooltip);
  return open;
}

}  // namespace

std::string costSummary(const PanelModel& m) {
  const double parts[] = {m.frame_ms_sim, m.frame_ms_render, m.frame_ms_present};
  const char* names[] = {"simulation", "rendering", "presenting"};
  double frame = 0.0;
  for (double p : parts) {
    if (!std::isfinite(p) || p < 0.0) return {};
    frame += p;
  }
  if (m.paused || !(m.realtime_percent < 95.0) || !(frame > 0.0)) return {};
  const int worst = static_cast<int>(std::max_element(std::begin(parts), std::end(parts)) - parts);
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s is the bottleneck: %.3g ms of %.3g ms", names[worst],
                parts[worst], frame);
  return buf;
}

std::vector<Command> drawPanel(const PanelModel& model, PanelState& state) {
  std::vector<Command> out;
  const ImGuiIO& io = ImGui::GetIO();
  // the panel's first size at UI scale 1, grown with the font (a 4K clip's panel is 3x)
  constexpr float kWidth = 420.0f, kMargin = 10.0f, kFallbackHeight = 600.0f;
  const float scale = ImGui::GetFontSize() / kBaseFontSize;
  ImGui::SetNextWindowPos(ImVec2(kMargin, kMargin), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(
      ImVec2(kWidth * scale,
             io.DisplaySize.y > 4 * kMargin ? io.DisplaySize.y - 2 * kMargin : kFallbackHeight),
      ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("springlab")) {
    ImGui::End();  // collapsed
    return out;
  }
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 8.5f);  // room for the labels
  ItemProbe* probe = state.probe;
  if (header("Scene", probe, "Choose, open or reload a scene.", !model.clip))
    sceneSection(model, state, out);
  if (header("Simulation", probe, "Integrator, time step, pause and step."))
    simulationSection(model, state, out);
  if (header("Physics", probe, "Parameters applied live to the running system.", !model.clip))
    physicsSection(model, state, out);
  // closed unless the window starts with lanes (--lanes): one lane needs none of it
  if (header("Lab", probe, "Lanes side by side, the timeline of past states.",
             model.lanes.size() > 1 && !model.clip))
    detail::labSection(model, state, out);
  if (header("Display", probe, "How the system is drawn.")) displaySection(model, state, out);
  if (header("Diagnostics", probe, "Timing, energy, drift and the phase plot."))
    diagnosticsSection(model, state, out);
  ImGui::PopItemWidth();
  ImGui::End();
  return out;
}

}  // namespace ui
