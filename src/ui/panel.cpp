// The "springlab" panel window (docs/architecture.md#imgui-habits): reads a PanelModel, returns
// Commands.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <utility>

#include "ui/panel.hpp"
#include "ui/widgets.hpp"

namespace ui {

using detail::button;
using detail::Commit;
using detail::emit;
using detail::flagBox;
using detail::note;
using detail::tip;

namespace {

// A path (empty: the default shown greyed) and Save as (Ctrl+S): the scene as it starts now.
void saveAs(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  ImGui::InputTextWithHint("##save", m.scene.save_default.c_str(), st.save_path,
                           sizeof st.save_path);
  note(probe, "save path");
  tip("Where Save as writes the scene file (empty: the name shown).");
  ImGui::SameLine();
  if (button("Save as",
             "Save the system as it starts now, with the parameters as they are now (stiffness "
             "scale, damping, drag, gravity, integrator, dt), as an explicit scene file (Ctrl+S).",
             probe))
    emit(out, SaveScene{st.save_path});
}

void sceneSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  if (ImGui::BeginCombo("Built-in", m.scene.name.c_str())) {
    for (int i = 0; i < static_cast<int>(m.scene.builtin_scenes.size()); ++i) {
      const std::string& name = m.scene.builtin_scenes[i];
      ImGui::PushID(i);
      const bool picked = ImGui::Selectable(name.c_str(), name == m.scene.name);
      note(probe, "scene/" + name);
      tip("Load this built-in scene (replaces the current one).");
      if (picked) {
        emit(out, LoadBuiltin{name});
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
    emit(out, LoadFile{st.file_path});
  }
  ImGui::SameLine();
  if (button("Reload", "Load the current scene again from its file (Ctrl+L).", probe))
    emit(out, Reload{});

  saveAs(m, st, out);
  if (!m.scene.path.empty()) {
    ImGui::TextDisabled("%s", m.scene.path.c_str());
    note(probe, "scene path");
    tip("The file the current scene came from.");
  }
  // the counts that apply: a pendulum has links and no springs, a mass-spring system the reverse
  std::string counts;
  for (auto [name, n] : {std::pair{"particles", m.scene.particles},
                         {"springs", m.scene.springs},
                         {"links", m.scene.links}})
    if (n > 0) counts += std::string(name) + " " + std::to_string(n) + "  ";
  counts += "DOFs " + std::to_string(m.scene.dofs);
  ImGui::TextUnformatted(counts.c_str());
  note(probe, "counts");
  tip("Particles (or bobs), springs, rigid links, and degrees of freedom of the current system.");
}

// Real-time motion or smooth frames: which gives way when stepping costs too much.
void pacingChoice(const PanelModel& m, ItemProbe* probe, std::vector<Command>& out) {
  const DisplayFlagRow& smooth = displayFlag(DisplayFlag::SmoothFrames);
  const char* labels[] = {"Real-time motion", smooth.label};
  const char* tooltips[] = {
      "Keep the motion at real speed (times the time scale): stepping may take most of each "
      "frame, down to about 20 frames/s, before the simulated clock slows down.",
      smooth.tooltip};
  for (int i = 0; i < 2; ++i) {
    if (i > 0) ImGui::SameLine();
    const bool on = i == 1;  // smooth frames
    const bool picked = ImGui::RadioButton(labels[i], m.display.smooth_frames == on);
    note(probe, labels[i]);
    tip(tooltips[i]);
    if (picked && m.display.smooth_frames != on)
      emit(out, SetDisplayFlag{DisplayFlag::SmoothFrames, on});
  }
}

// "dt = 0.36 x limit": lane 0's dt against its integrator's stability limit at its current state
// (docs/lab.md), red above it.
void dtLimitLine(const PanelModel& m, ItemProbe* probe) {
  if (!(m.measure.dt_limit > 0.0)) return;
  const double ratio = m.clock.dt / m.measure.dt_limit;
  const std::string text = "dt = " + detail::compact(ratio, 3) + " x limit (" +
                           detail::compact(m.measure.dt_limit, 3) + " s)";
  if (ratio > 1.0)
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", text.c_str());
  else
    ImGui::TextDisabled("%s", text.c_str());
  note(probe, "dt limit");
  if (ratio > 1.0) note(probe, "dt limit/above 1");  // drawn red (tests/test_lab_info.cpp)
  tip("The step against this integrator's stability limit on undamped oscillation at the "
      "current state (2/omega for symplectic_euler and verlet, 2 sqrt(2)/omega for rk4; omega "
      "the state's local frequency, a few times a second: a pendulum's grows with its "
      "velocities; a large cloth's is the initial one, scaled with the stiffness). Above 1 the "
      "fastest oscillation grows until the simulation diverges. springlab info gives the "
      "largest over the scene's motion.");
}

void simulationSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  // only the integrators that apply to this system are offered
  if (ImGui::BeginCombo("Integrator", m.clock.integrator.c_str())) {
    for (int i = 0; i < static_cast<int>(m.clock.integrators.size()); ++i) {
      const IntegratorChoice& choice = m.clock.integrators[i];
      ImGui::PushID(i);
      const bool picked = ImGui::Selectable(choice.name.c_str(), choice.name == m.clock.integrator);
      note(probe, "integrator/" + choice.name);
      if (!choice.tooltip.empty()) tip(choice.tooltip.c_str());
      if (picked && choice.name != m.clock.integrator) {
        emit(out, SetIntegrator{choice.name});
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
                     m.clock.dt, st, &v))
    emit(out, SetDt{v});
  dtLimitLine(m, probe);
  if (detail::slider(
          {"Time scale", Limits::kTimeScaleMin, Limits::kTimeScaleMax, "x%.3g", true, Commit::Live,
           "Simulated seconds per real second (logarithmic, 1/64 to 8). + / - halve "
           "or double it."},
          m.clock.time_scale, st, &v))
    emit(out, SetTimeScale{v});
  pacingChoice(m, probe, out);

  if (button(m.clock.paused ? "Run###pause" : "Pause###pause",
             m.clock.paused ? "Resume the simulation (Space)." : "Pause the simulation (Space).",
             probe))
    emit(out, SetPaused{!m.clock.paused});
  ImGui::SameLine();
  if (button("Step", "Advance one step of dt (Right arrow).", probe)) emit(out, Step{1});
  ImGui::SameLine();
  if (button("Step 10", "Advance ten steps of dt (Shift+Right arrow).", probe)) emit(out, Step{10});
  ImGui::SameLine();
  if (button("Reset", "Back to the initial state; the camera frames the scene again (R).", probe))
    emit(out, Reset{});
}

// The size of the clips Record makes: the window's, or a fixed one (not while recording).
void clipSizeCombo(const PanelModel& m, ItemProbe* probe, std::vector<Command>& out) {
  const auto sizes = clipSizes();
  const int current = std::clamp(m.display.clip_size, 0, static_cast<int>(sizes.size()) - 1);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.5f);
  ImGui::BeginDisabled(m.display.recording);
  if (ImGui::BeginCombo("##clip size", sizes[current].label)) {
    for (int i = 0; i < static_cast<int>(sizes.size()); ++i) {
      if (ImGui::Selectable(sizes[i].label, i == current) && i != current)
        emit(out, SetClipSize{i});
      note(probe, std::string("clip/") + sizes[i].label);
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  note(probe, "clip size");
  tip("The size of the clips Record makes: the window's (rounded down to even sides for the "
      "video) or a fixed one, whatever the window's size.");
}

// The strain colours' scale, fixed or following the scene (springs only: a pendulum's rods are
// rigid).
void strainControls(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  if (m.scene.springs <= 0) return;
  double v = 0.0;
  if (detail::slider({"Strain scale", Limits::kStrainScaleMin, Limits::kStrainScaleMax, "%.3g",
                      true, Commit::Live,
                      "Strain (dimensionless, (L - L0) / L0) drawn at full colour: blue "
                      "compressed, red stretched (logarithmic). Moving it fixes the scale."},
                     m.display.strain_scale, st, &v))
    emit(out, SetStrainScale{v});
  flagBox(m, DisplayFlag::StrainAuto, st.probe, out);
}

// The traced body's arrows, their scales in the tooltip (docs/exploring.md#arrows), its forces,
// the springs' rest lengths, the ruler and the protractor.
void arrowsToggle(const PanelModel& m, ItemProbe* probe, std::vector<Command>& out) {
  char tip_text[320];
  std::snprintf(tip_text, sizeof tip_text, "%s Fixed scales: %.3g m per m/s, %.3g m per m/s^2.",
                displayFlag(DisplayFlag::Arrows).tooltip, m.measure.arrow_velocity_scale,
                m.measure.arrow_acceleration_scale);
  flagBox(m, DisplayFlag::Arrows, probe, out, nullptr, tip_text);
  ImGui::SameLine();
  flagBox(m, DisplayFlag::Forces, probe, out);
  if (m.scene.springs > 0) {  // a pendulum's rods have no rest length
    ImGui::SameLine();
    flagBox(m, DisplayFlag::RestLengths, probe, out);
  }
  flagBox(m, DisplayFlag::Ruler, probe, out);
  ImGui::SameLine();
  flagBox(m, DisplayFlag::Protractor, probe, out);
}

// What is drawn: springs or rods, wireframe, trails, wind streaks, and whether the camera follows.
void drawingToggles(const PanelModel& m, ItemProbe* probe, std::vector<Command>& out) {
  using F = DisplayFlag;
  bool first = true;  // of the checkboxes' row
  auto next = [&first] {
    if (!first) ImGui::SameLine();
    first = false;
  };
  if (m.scene.springs > 0 || m.scene.links > 0) {
    next();
    if (m.scene.springs > 0)
      flagBox(m, F::Springs, probe, out);
    else
      flagBox(m, F::Springs, probe, out, "Rods", "Draw the pendulum's rods as lines.");
  }
  if (m.display.surface) {
    next();
    flagBox(m, F::Wireframe, probe, out);
  }
  next();  // the row's first item when the scene has no springs, rods or surface (a new scene)
  flagBox(m, F::Trails, probe, out);
  next();
  flagBox(m, F::Follow, probe, out);
  flagBox(m, F::Equilibrium, probe, out);
  if (m.display.show_equilibrium && !m.display.equilibrium_note.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%s)", m.display.equilibrium_note.c_str());
  }
  // on a line of its own: the row above is as wide as the panel
  if (m.physics.wind_acts) flagBox(m, F::Wind, probe, out);
  arrowsToggle(m, probe, out);
}

// Screenshot, Record and the clip's size, and Help, on one row.
void outputButtons(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  if (button("Screenshot", "Save the viewport to a PNG file (Ctrl+P).", probe))
    emit(out, Screenshot{});
  ImGui::SameLine();
  if (button(m.display.recording ? "Stop recording" : "Record",
             m.display.recording
                 ? "Stop the clip and save it (Ctrl+R)."
                 : "Record a clip of the scene (Ctrl+R): each frame advances exactly "
                   "1/60 s of simulated time, so the clip is smooth even when the machine "
                   "cannot keep up; saved as springlab-DATE-TIME.mp4.",
             probe))
    emit(out, ToggleRecording{});
  ImGui::SameLine();
  clipSizeCombo(m, probe, out);
  ImGui::SameLine();
  if (button("Help", "Show the key and mouse bindings (F1).", probe)) st.show_help = !st.show_help;
}

void displaySection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  strainControls(m, st, out);
  drawingToggles(m, st.probe, out);
  outputButtons(m, st, out);
}

// Real time, the last frame's cost split sim / render / present, and which part is the
// bottleneck when the simulated clock falls behind.
void timing(const PanelModel& m, ItemProbe* probe) {
  const double frame = m.frame.ms_sim + m.frame.ms_render + m.frame.ms_present;
  ImGui::Text("real time %.3g %%   frame %.3g ms", m.frame.realtime_percent, frame);
  note(probe, "timing");
  tip("Simulated time over wall-clock time, times the time scale (below 100 %: stepping cannot "
      "keep up and the simulated clock slows down); the last frame's wall time in ms.");
  ImGui::Text("sim %.3g ms + render %.3g ms + present %.3g ms", m.frame.ms_sim, m.frame.ms_render,
              m.frame.ms_present);
  note(probe, "frame split");
  tip("The last frame's wall time split into stepping the simulation, drawing the scene and the "
      "panel, and presenting the frame (waiting for the display), in ms.");
  if (!m.frame.software_note.empty()) {
    ImGui::TextWrapped("%s", m.frame.software_note.c_str());
    note(probe, "software GL");
    tip("This OpenGL renders on the CPU (Mesa's llvmpipe), where a triangle costs more than its "
        "pixels: the window draws a fine cloth's surface from its coarser level (the shading "
        "keeps the whole surface's normals). Recorded clips (springlab record) draw it whole.");
  }
  if (m.frame.clock_locked) {
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
    tip(m.frame.ms_sim >= m.frame.ms_render && m.frame.ms_sim >= m.frame.ms_present
            ? (m.clock.integrator_iterated
                   ? "Stepping takes the frame: fewer substeps (cost in proportion, at some "
                     "stretch), a larger dt or a lower time scale lets the simulated clock keep "
                     "up."
                   : "Stepping takes the frame: a larger dt, a cheaper integrator or a lower time "
                     "scale lets the simulated clock keep up.")
        : m.frame.ms_render >= m.frame.ms_present
            ? "Drawing takes the frame: hiding the springs (lines cost most under software GL) or "
              "a smaller window leaves more time for stepping."
            : "Presenting takes the frame (the display's refresh, or a slow compositor).");
  }
}

// The stopwatch on simulated time: its reading and Start / Stop, Reset (probe names
// "stopwatch/Start", "stopwatch/Stop", "stopwatch/Reset": the Simulation section has a Reset).
void stopwatch(const PanelModel& m, ItemProbe* probe, std::vector<Command>& out) {
  ImGui::Text("stopwatch %.4f s", m.measure.stopwatch);
  note(probe, "stopwatch");
  tip("Simulated seconds since Start, not counting the time it was stopped; it holds still while "
      "paused, and Reset, a load or a seek on the timeline set it back to 0.");
  const char* toggle = m.measure.stopwatch_running ? "Stop" : "Start";
  ImGui::SameLine();
  if (ImGui::SmallButton((std::string(toggle) + "##stopwatch").c_str()))
    emit(out, m.measure.stopwatch_running ? Command(StopStopwatch{}) : Command(StartStopwatch{}));
  note(probe, std::string("stopwatch/") + toggle);
  tip(m.measure.stopwatch_running ? "Stops the stopwatch: it keeps its reading."
                                  : "Starts the stopwatch on simulated time, from its reading.");
  ImGui::SameLine();
  if (ImGui::SmallButton("Reset##stopwatch")) emit(out, ResetStopwatch{});
  note(probe, "stopwatch/Reset");
  tip("Sets the stopwatch back to 0 (it keeps running if it was).");
}

// The energy ledger (docs/integrators.md#the-energy-ledger): the physical terms, then each lane's
// balance, the method's own energy error.
void ledgerSection(const PanelModel& m, ItemProbe* probe) {
  if (m.plots.contacts)
    ImGui::Text("dissipated %s J   contacts %s J   grab %s J",
                detail::compact(m.plots.work_dissipated).c_str(),
                detail::compact(m.plots.work_contacts).c_str(),
                detail::compact(m.plots.work_external).c_str());
  else
    ImGui::Text("dissipated %s J   grab %s J", detail::compact(m.plots.work_dissipated).c_str(),
                detail::compact(m.plots.work_external).c_str());
  note(probe, "ledger");
  tip("The energy ledger since the start (or the last change of stiffness, gravity or grab): the "
      "work drag, dashpots and joint damping took out, what the contacts (colliders with their "
      "friction, self-collision) took out, and the work the mouse spring put in.");
  detail::laneLogPlot(
      m,
      {"balance |E - E0 + W_diss + W_contacts - W_grab| / reference", "##ledger",
       &LaneRow::residual,
       "The energy balance of each lane: what is left of the energy change once the physical "
       "work is accounted for, i.e. the integrator's own energy error (round-off for an exact "
       "method), on a log axis."},
      probe);
}

void diagnosticsSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  ItemProbe* probe = st.probe;
  if (m.frame.clip) {
    ImGui::Text("t = %.4g s", m.clock.sim_time);  // a clip's frames show no wall-clock figures
    note(probe, "time");
  } else {
    ImGui::Text("t = %.4g s   %.4g steps/s", m.clock.sim_time, m.frame.steps_per_second);
    note(probe, "time");
    tip("Simulated time in seconds, and integrator steps per real second.");
    timing(m, probe);
  }
  stopwatch(m, probe, out);
  // each lane's period beside the stopwatch, at the top of the section: read without scrolling
  // past the plots (docs/lab.md#period)
  detail::periodReadout(m, probe);

  detail::energyBars(m, st, probe, out);
  detail::energyPlot(m, probe);
  detail::driftPlot(m, probe);
  ledgerSection(m, probe);

  // phase plot coordinate
  const bool valid = m.plots.phase_coordinate >= 0 &&
                     m.plots.phase_coordinate < static_cast<int>(m.plots.phase_coordinates.size());
  if (ImGui::BeginCombo("Phase coordinate",
                        valid ? m.plots.phase_coordinates[m.plots.phase_coordinate].c_str() : "")) {
    for (int i = 0; i < static_cast<int>(m.plots.phase_coordinates.size()); ++i) {
      ImGui::PushID(i);
      const bool picked =
          ImGui::Selectable(m.plots.phase_coordinates[i].c_str(), i == m.plots.phase_coordinate);
      note(probe, "phase/" + m.plots.phase_coordinates[i]);
      if (picked && i != m.plots.phase_coordinate) {
        emit(out, SetPhaseCoordinate{i});
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
  const double parts[] = {m.frame.ms_sim, m.frame.ms_render, m.frame.ms_present};
  const char* names[] = {"simulation", "rendering", "presenting"};
  double frame = 0.0;
  for (double p : parts) {
    if (!std::isfinite(p) || p < 0.0) return {};
    frame += p;
  }
  if (m.clock.paused || !(m.frame.realtime_percent < 95.0) || !(frame > 0.0)) return {};
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
  const float scale = ImGui::GetFontSize() / detail::kBaseFontSize;
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
  if (header("Scene", probe, "Choose, open or reload a scene.", !model.frame.clip))
    sceneSection(model, state, out);
  if (header("Simulation", probe, "Integrator, time step, pause and step."))
    simulationSection(model, state, out);
  // closed until edit mode is on (E): most sessions watch rather than build
  if (model.edit.editing) ImGui::SetNextItemOpen(true);
  if (header("Edit", probe, "Build or change the scene by hand, undo and redo.",
             model.edit.editing && !model.frame.clip))
    detail::editSection(model, state, out);
  if (header("Physics", probe, "Parameters applied live to the running system.", !model.frame.clip))
    detail::physicsSection(model, state, out);
  // closed unless the window starts with lanes (--lanes): one lane needs none of it
  if (header("Lab", probe, "Lanes side by side, the timeline of past states.",
             model.lanes.rows.size() > 1 && !model.frame.clip))
    detail::labSection(model, state, out);
  if (header("Display", probe, "How the system is drawn.")) displaySection(model, state, out);
  if (header("Diagnostics", probe, "Timing, energy, drift and the phase plot."))
    diagnosticsSection(model, state, out);
  ImGui::PopItemWidth();
  ImGui::End();
  return out;
}

}  // namespace ui
