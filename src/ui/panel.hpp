// The Dear ImGui panel (docs/architecture.md#imgui-habits): a function of a read-only PanelModel
// that returns Commands; the app's Session validates and applies them between steps. No GL calls,
// no physics.
#pragma once

#include <array>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ui/command.hpp"

namespace ui {

// The sizes a clip recorded from the window can have: its framebuffer's, or a fixed one.
struct ClipSize {
  const char* label;
  int width, height;  // 0 x 0: the window's framebuffer size, rounded down to even sides
};
std::span<const ClipSize> clipSizes();

struct IntegratorChoice {
  std::string name;
  std::string tooltip;  // order, symplectic or not, cost
};

// The window's ranges of what is not a physics parameter (those are the parameter table's, in
// each ParameterControl): the panel clamps to them before emitting a command, the Session checks
// them again.
struct Limits {
  static constexpr double kDtMin = 1e-7, kDtMax = 0.1;  // s
  static constexpr double kTimeScaleMin = 1.0 / 64, kTimeScaleMax = 8.0;
  static constexpr double kGrabStiffnessMin = 1e-2, kGrabStiffnessMax = 1e5;  // N/m
  static constexpr double kStrainScaleMin = 1e-4, kStrainScaleMax = 10.0;
  // steps per Step command: applied between two frames, so a large count would freeze the window
  static constexpr int kStepCountMax = 1000;
};

// Clamps a command's numbers to Limits (dt, time scale, grab stiffness, strain scale, step count,
// indices at least 0); nullopt when a number is not finite, a name is empty or a flag is not one,
// so that such a command is never emitted. Parameters are clamped to their control's range where
// they are made (clampToControl). Every command the panel returns has been through it.
std::optional<Command> clampCommand(Command command);

// A physics parameter's control in the Physics section: one per row of the parameter table that
// applies to the system (docs/architecture.md#one-parameter-table), made by the app from the
// table. The panel draws what it is given in the given order and never asks which system it is.
struct ParameterControl {
  enum class Style {
    Slider,     // a number
    Direction,  // a vector's magnitude on the slider, its direction kept; Earth/Moon/Zero presets
    Heading,    // a vector's speed on the slider and its heading in the horizontal plane
  };
  int id = 0;  // SetParameter / SetVectorParameter
  Style style = Style::Slider;
  std::string label;          // "Stiffness scale"
  std::string format;         // "%.3g N s/m"
  std::string tooltip;        // meaning and unit
  double lo = 0.0, hi = 1.0;  // a typed value (Ctrl+click) is clamped to [lo, hi]
  double slider_hi = 1.0;     // the slider ends here (<= hi)
  bool logarithmic = true;
  bool live = true;             // emitted while dragging; false: on release
  bool whole = false;           // a whole number
  double value = 0.0;           // the number, or the vector's magnitude
  std::array<double, 3> vec{};  // Direction and Heading: the vector
};
// The value clamped to the control's range (and rounded for a whole number); nothing when it is
// not finite.
std::optional<double> clampToControl(const ParameterControl& c, double value);

// The colour of lane i (linear RGB in 0..1; Okabe-Ito, told apart with colour-blindness), shared
// by the plots, the legend and the renderer's ghosted lanes. Lane 0 is drawn in the scene's own
// colours; its colour marks it in plots and the legend.
struct LaneColour {
  float r, g, b;
};
LaneColour laneColour(int lane);

// One lane in the panel: lane 0 is the one the rest of the panel describes.
struct LaneRow {
  std::string integrator;
  std::string setup;  // a parameter lane's own set-up, "stiffness_scale=4"; empty: the scene's
  // "rk4" or "rk4:stiffness_scale=4", as --lanes takes it
  std::string name() const { return setup.empty() ? integrator : integrator + ":" + setup; }
  double dt = 0.0;  // s
  bool diverged = false;
  double diverged_t = 0.0;          // s, when it diverged
  std::string divergence;           // the report, one line
  std::span<const float> time;      // s, the history's times
  std::span<const float> drift;     // |E - E0| / reference (log plot)
  std::span<const float> distance;  // m, the largest distance of a body from lane 0's (log plot)
  std::span<const float> residual;  // the ledger's balance |E - E0 + W_diss - W_ext| / reference
  // The last step's relative residual, how far it is from its method's converged answer
  // (docs/integrators.md#residuals; NaN: the method solves nothing), and what it measures.
  double step_residual = std::numeric_limits<double>::quiet_NaN();
  std::string step_residual_name;  // "|grad G| / weights"
};

// What the measurements say of one lane: its step against its stability limit, and its period
// readout (docs/lab.md#period): the phase coordinate's period (0: none yet) from `crossings`
// upward crossings, the theory's where the scene has one (0: none), and the integrator's period
// error (period - theory) / theory.
struct LaneMeasure {
  double dt_over_limit = 0.0;  // dt / the integrator's stability limit; 0: no limit known
  double period = 0.0;         // s
  int crossings = 0;
  double theory_period = 0.0;  // s
  double period_error = 0.0;
};
// A lane's period readout as the panel shows it: "period 2.0071 s (12 crossings)  theory
// 2.0064 s  error +3.5e-4", without the theory where there is none, or "period: no oscillation
// yet"; in a narrow panel its two parts on two lines: the measurement, and the theory with the
// error (empty where there is no theory).
std::string periodLine(const LaneMeasure& lane);
std::string periodMeasured(const LaneMeasure& lane);
std::string periodTheory(const LaneMeasure& lane);

// The phase portrait's pieces of line (docs/lab.md#period): the runs [first, last] of
// consecutive samples it joins. A sample that is not finite is left out, and the line breaks where
// the samples lie far apart in time (more than kPhaseGap times the median spacing: a frame that
// took long, a seek) or where the time does not go forward (Reset, a seek back), so that it never
// joins two distant states by a straight chord. Without times (t empty) only at non-finite ones.
struct PhaseRun {
  std::size_t first = 0, last = 0;
};
std::vector<PhaseRun> phaseRuns(std::span<const float> t, std::span<const float> q,
                                std::span<const float> v);
inline constexpr double kPhaseGap = 4.0;

// The stability map of the current scene and lane 0's integrator
// (docs/lab.md#stability-limits-the-map-and-orders): cells over dt (columns) and stiffness scale
// (rows), as they fill.
struct StabilityMapView {
  enum Cell : signed char { Pending = -1, Stable = 0, Drifting = 1, Diverged = 2 };
  bool running = false;
  std::string integrator;           // the one mapped
  std::vector<double> dts, scales;  // s and x: the axes, increasing (one scale: not scalable)
  int scale_parameter = 0;          // the stiffness scale's SetParameter id
  double scale = 1.0;               // the current stiffness scale
  std::vector<signed char> cells;   // Cell, row-major: cells[row * dts.size() + column]
  int done = 0;
  double limit_dt = 0.0;  // s, the integrator's limit at stiffness scale 1; 0: none known
  std::string note;       // why there is no map (e.g. an error), or empty
  std::string saved;      // where "Save map PNG" wrote the picture, or why it could not
  bool save_failed = false;
};

// The observed orders of convergence (MeasureOrder) beside the registry's.
struct OrderRow {
  std::string integrator;
  int nominal = 0;
  double observed = 0.0;  // NaN until measured or when undefined
  std::string note;       // why it is undefined
};

// Edit mode and the Bodies section (docs/exploring.md#edit-mode): what is selected and its values.
// How the system's bodies are edited, as the kind lays them out (sim::BodyLayout): particles
// joined by springs, or links in a chain.
enum class BodyEditor { Network, Chain };

struct EditView {
  bool editing = false;
  BodyEditor layout = BodyEditor::Network;
  int undo = 0, redo = 0;  // edits that can be undone / redone
  std::string message;     // the last refusal, empty after an edit that was done
  double new_stiffness = 100.0, new_damping = 0.0, new_mass = 1.0;  // N/m, N s/m, kg
  int tool = 0;  // what a click on empty space adds: an index in tool_names (scene::EditTool)
  std::vector<std::string> tool_names;
  std::string mesh_file;    // the Mesh file tool's OBJ
  double mesh_scale = 0.0;  // its scale; 0: fitted to the tools' 1 m (scene::ToolSettings)
  std::array<double, 3> mesh_rotate_deg{};  // degrees about x, y, z
  bool tool_takes_file = false;  // the tool is the Mesh file one: the panel asks for the path
  int particles = 0, springs = 0, links = 0;
  std::vector<int> selection;
  // the first selected body (-1: none): its name, mass, pin; a bob's link length and start angle
  int body = -1;
  std::string body_name;
  // what is selected, in words: "particle 2", "particles 2 and 3", "particles 1, 4 and 7",
  // "12 particles: 0, 1, 2, 3, 4 and 7 more"
  std::string selection_name;
  double mass = 0.0, length = 0.0, angle_deg = 0.0;
  bool fixed = false;
  // the spring joining the two selected particles (-1: none)
  int spring = -1;
  double stiffness = 0.0, damping = 0.0, rest_length = 0.0;
};

// One lane's energy bars (docs/integrators.md#energy-bars), in J: the energies of the state the
// lane shows and its ledger since its anchor, so that kinetic + gravitational + elastic == total
// and total + dissipated + contacts - grab - error == e0, to round-off.
struct EnergyBars {
  double kinetic = 0.0, gravitational = 0.0, elastic = 0.0, total = 0.0;
  double dissipated = 0.0;  // the work drag, dashpots and joint damping took out
  double contacts = 0.0;    // what the colliders and self-collision took out
  double grab = 0.0;        // the work the mouse spring put in
  double error = 0.0;  // the ledger's balance E - E0 + dissipated + contacts - grab: the method's
  double e0 = 0.0;     // the anchor E0
  bool diverged = false;  // the lane stopped: these are its last checked state's
};

// The panel's model is one small view per owner, each filled by its owner's fill function
// (docs/architecture.md#the-session-and-commands).

// The Scene section (app::LoadedScene::fill).
struct SceneInfo {
  std::vector<std::string> builtin_scenes;
  std::string name, path;    // path empty for a built-in
  std::string save_default;  // where Save as writes with no path typed
  int particles = 0, springs = 0, links = 0, dofs = 0;
};

// The Simulation section and the divergence banner: lane 0's clock (app::Timeline::fill).
struct ClockView {
  std::vector<IntegratorChoice> integrators;  // only those that apply
  std::string integrator;
  bool integrator_iterated = false;  // it has substeps and iterations (xpbd, projective)
  double dt = 1e-3, time_scale = 1.0;
  bool paused = false;
  double sim_time = 0.0;  // s
  bool diverged = false;
  std::string divergence;  // the report, one line
  // the report in two: "diverged at t = 2.024 s with rk4" (the banner's title) and what ran
  // away; empty: the banner shows `divergence` under a generic title
  std::string divergence_headline, divergence_detail;
  bool can_rewind = false;  // a state from about a second before the divergence is kept
  // the blow-up in slow motion (app::Timeline::startReplay), while it plays: the frame shown
  // (0-based) of how many, and the step between two
  int replay_frame = -1, replay_frames = 0;
  double replay_dt = 0.0;  // s
};

// The Physics section: the parameters that apply, in the table's order; gravity's direction
// orients the Heading control, drag tells whether a wind acts (app::physicsView).
struct PhysicsView {
  std::vector<ParameterControl> parameters;
  double gravity[3] = {0.0, -9.81, 0.0};  // m/s^2
  double drag = 0.0;                      // N s/m
  bool wind_acts = false;                 // a wind blows and the drag makes it felt
  double grab_stiffness = 100.0;          // N/m, the mouse spring
};

// The Lab section's lanes (docs/lab.md#lanes: at least one) and the timeline of kept states
// (SeekHistory): how many, from t0 to t1 (s), their memory (MB) (app::Timeline::fill).
struct LanesView {
  std::vector<LaneRow> rows;
  int max_lanes = 4;
  int history_size = 0;
  double history_t0 = 0.0, history_t1 = 0.0, history_mb = 0.0;
  int history_index = -1;  // the kept state shown (at or before the clock's time); -1: none
};

// The Diagnostics section's plots, the energy bars and the ledger (app::Timeline::fill).
struct PlotsView {
  std::vector<float> marks;  // simulated times (s) of parameter changes, marked on the plots
  std::span<const float> energy_time, kinetic, potential, total;  // recent history
  double energy_base = 0.0;      // J: potential and total are stored less this (PlotHistory)
  std::span<const float> drift;  // |E - E0| / reference history (plotted on a log axis)
  std::string drift_label = "|E - E0| / |E0|";  // what drift is relative to, e.g. "|E - E0| / S"
  std::span<const float> phase_q, phase_v;      // the chosen coordinate and its rate
  std::span<const float> phase_t;               // s: each phase sample's time
  std::vector<std::string> phase_coordinates;   // names, e.g. "x3", "phi1"
  int phase_coordinate = 0;
  // energy bars (docs/integrators.md#energy-bars): one per lane, in lane order, and lane 0's
  // scene energy scale S (J), the least the bars' scale shrinks to
  std::vector<EnergyBars> energy_bars;
  double energy_scale = 1.0;
  bool contacts = false;  // the scene has colliders or self-collision: the bars' contacts row
  // gravity's zero (docs/lab.md#the-zero-of-the-potential): the choices and their tooltips, the one
  // taken, why the origin stands in for it (empty: it does not), whether the zero is off the
  // origin, and lane 0's gravitational energy there (J), which the energy plot subtracts from
  // V and E (the bars come shifted, each lane by its own)
  std::vector<std::string> potential_zeros, potential_zero_tips;
  int potential_zero = 0;
  std::string potential_zero_note;
  bool zero_moved = false;
  double potential_offset = 0.0;
  // lane 0's energy ledger since its anchor (J): what dissipation took out, what the grab put in
  double work_dissipated = 0.0, work_external = 0.0, work_contacts = 0.0;
};

// The measurements (app::Measurements::fill): dt's limit for lane 0's integrator at its current
// state, each lane's limit and period, the stopwatch, the arrows' fixed scales.
struct MeasureView {
  double dt_limit = 0.0;           // s; 0: none known
  std::vector<LaneMeasure> lanes;  // in lane order
  double stopwatch = 0.0;          // s, on simulated time (docs/lab.md#the-stopwatch)
  bool stopwatch_running = false;
  double arrow_velocity_scale = 0.1;       // m of arrow per m/s (docs/exploring.md#arrows)
  double arrow_acceleration_scale = 0.01;  // m of arrow per m/s²
  // The forces' key (docs/exploring.md#forces): lane 0's traced body's force sources, each with
  // its arrows' colour, and their scale, m of arrow per N (0: no body moves)
  struct ForceKey {
    std::string label;
    float r = 1.0f, g = 1.0f, b = 1.0f;
  };
  std::vector<ForceKey> force_keys;
  double force_scale = 0.0;
};

// The background jobs of the Lab section: the stability map and the orders (app::LabJobs::fill).
struct JobsView {
  StabilityMapView stability;
  std::vector<OrderRow> orders;
  bool orders_running = false;
};

// How the scene is drawn (app::FrameDriver::fillDisplay): the display flags, each shown by its
// row in displayFlags(), and what the overlays need.
struct DisplayView {
  double strain_scale = 0.05;
  bool strain_auto = true;  // the scale follows the scene's strains (DisplayFlag::StrainAuto)
  bool wireframe = false, show_trails = true, show_springs = true;
  bool show_wind = true;          // the wind's streaks, where a wind acts (drag > 0, wind not zero)
  bool show_equilibrium = false;  // the static equilibrium as a grey ghost
  bool show_arrows = false, show_ruler = false;  // docs/exploring.md#arrows, #ruler
  bool show_forces = false, show_rest_lengths = false, show_protractor = false;  // #forces ...
  bool follow = false;           // DisplayFlag::Follow
  bool split_lanes = false;      // DisplayFlag::SplitLanes
  bool smooth_frames = false;    // the pacing (DisplayFlag::SmoothFrames), else real-time motion
  std::string equilibrium_note;  // why there is none to show ("nothing holds it..."), if so
  // edit mode's selection box being dragged, in framebuffer px (x0, y0, x1, y1); empty: none
  std::vector<double> selection_box;
  bool surface = true;  // the system has a drawn surface (cloth): the Wireframe choice applies
  bool planar = false;  // the view is 2-D: left-drag pans instead of orbiting
  float scene_viewport_x = 0.0f;  // px: the scene's viewport starts right of the panel
  double grid_spacing = 0.0;      // m, the ground grid's cells as drawn (0: no grid)
  // the status line (a failed load, a saved screenshot): drawn by drawStatus until the app clears
  // it (a successful load clears a failed load's message)
  std::string status;
  bool status_error = false;
  // recording (ToggleRecording): the clip's elapsed simulated time, e.g. "REC 0:03.25"
  bool recording = false;
  std::string recording_label;
  int clip_size = 0;  // index in clipSizes()
};

// What the last frame cost, and whether this is a recorded clip's (app::FrameDriver).
struct FrameView {
  double steps_per_second = 0.0, realtime_percent = 100.0;
  double ms_sim = 0.0, ms_render = 0.0, ms_present = 0.0;
  bool clock_locked = false;  // each frame advances exactly 1/fps: real time is not kept
  // what a software GL's window draws cheaper (app::FrameOptions::scale_down_software); empty:
  // nothing
  std::string software_note;
  // a recorded clip (springlab record): no wall-clock figures (a replay must draw the same
  // pixels), and the Scene and Physics sections start closed so that the plots fit the picture
  bool clip = false;
};

struct PanelModel {
  SceneInfo scene;
  ClockView clock;
  EditView edit;
  PhysicsView physics;
  LanesView lanes;
  PlotsView plots;
  MeasureView measure;
  JobsView jobs;
  DisplayView display;
  FrameView frame;
};

// A display flag's row (SetDisplayFlag): its name, its control's label and tooltip in the panel,
// and the DisplayView field that shows it (FrameDriver::fillDisplay fills each from the driver).
struct DisplayFlagRow {
  DisplayFlag flag;
  const char* name;  // "trails"
  const char* label;
  const char* tooltip;
  bool DisplayView::*shown;
};
// Every flag's row, in DisplayFlag's order.
std::span<const DisplayFlagRow> displayFlags();
const DisplayFlagRow& displayFlag(DisplayFlag flag);

// Testing aid (tests/test_ui.cpp): when a probe is given, every widget drawn reports its name (its
// visible label; combo entries as "integrator/<name>", "scene/<name>", "phase/<name>"; help rows as
// "binding/<keys>") and its screen rectangle, so that a test can move a simulated mouse onto it.
// The app passes none.
struct ItemRect {
  std::string name;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
struct ItemProbe {
  std::vector<ItemRect> items;
  const ItemRect* find(std::string_view name) const {
    for (const ItemRect& r : items)
      if (r.name == name) return &r;
    return nullptr;
  }
};

// Per-window widget state kept between frames (text fields, a slider being dragged).
struct PanelState {
  char file_path[512] = "";
  char save_path[512] = "";  // where Save as writes; empty: SceneInfo::save_default
  bool show_help = false;    // toggled by the panel's "Help" button; the app also toggles it on F1
  // the slider whose change is committed on release, and its value while it is being dragged
  unsigned int edit_id = 0;
  double edit_value = 0.0;
  // fine mode (Shift while dragging a slider): the slider, where the drag was anchored, the value
  // there and the latest one, and whether Shift was held
  unsigned int fine_id = 0;
  double fine_anchor_value = 0.0, fine_value = 0.0;
  float fine_anchor_x = 0.0f;
  bool fine_shift = false;
  ItemProbe* probe = nullptr;  // testing aid, see ItemProbe
  // the Lab section's lane picker: the integrator and dt of the next lane (empty / 0: lane 0's)
  std::string lab_integrator;
  double lab_dt = 0.0;
  // and its own set-up, "stiffness_scale=4" (docs/lab.md#parameter-lanes; empty: the scene's)
  char lab_setup[256] = {};
  char edit_mesh_file[256] = {};  // the Edit section's Mesh file tool path being typed
  // the energy bars: shown or not, and their scale (J) either side of zero, which grows at once
  // and shrinks slowly (docs/integrators.md#energy-bars)
  bool show_energy_bars = true;
  double energy_bars_positive = 0.0, energy_bars_negative = 0.0;
  int energy_bars_zero = -1;  // the potential's zero that scale is for (another starts afresh)
};

// When the simulated clock falls behind (real time below 95 %, running), which part of the frame
// costs most, e.g. "simulation is the bottleneck: 38 ms of 50 ms"; empty otherwise.
std::string costSummary(const PanelModel& model);
// Edit mode's selection box (DisplayView::selection_box), outlined over the scene.
void drawSelectionBox(const PanelModel& model);
// Whether a press at framebuffer pixel (x, y) is the UI's: ImGui wants the mouse, or the pixel is
// on a window of the last frame that takes the mouse (the panel, a popup, the banner). ImGui's
// WantCaptureMouse alone is where the mouse was at the last frame: a press that arrives with a
// move onto the panel, before a frame has seen it there, would go to the scene behind.
bool uiWantsMouseAt(double x, double y);
// Draws the panel window; returns the commands the user issued this frame.
std::vector<Command> drawPanel(const PanelModel& model, PanelState& state);
// The divergence banner, at the top centre of the scene viewport (right of
// display.scene_viewport_x), with the report's numbers shortened (compactNumbers) and the buttons
// "Reset" and "Back 1 s" (Rewind; disabled unless clock.can_rewind). In a small window the report
// scrolls and the buttons stay on screen; only a viewport too narrow for the buttons lets the
// banner reach over the panel.
std::vector<Command> drawDivergenceBanner(const PanelModel& model, ItemProbe* probe = nullptr);
// The banner's title is set this many times the text's size (app::createImGui loads ImGui's
// font a second time at that size): read at a glance in a small clip, and by OCR.
inline constexpr float kBannerTitleScale = 2.0f;
// The report text for display: every decimal number with more than `digits` significant digits
// (say a time "3.1166000000021525") is rewritten with %.<digits>g ("3.1166"); integers (indices,
// counts) and numbers inside words ("x3", "seed004", "1.2.3") are kept as they are.
std::string compactNumbers(std::string_view text, int digits = 6);
// With two lanes or more, which lane is which (docs/lab.md#lanes): a legend of colour swatches,
// integrators and steps at the bottom left of the scene, or, side by side, a label atop each
// lane's column; a diverged lane's entry says so.
void drawLaneLegend(const PanelModel& model, ItemProbe* probe = nullptr);
// The same with a caption line (none when empty) and, after a divergence, the banner (its
// buttons' commands returned) or, while the blow-up's slow motion plays, its tag in the banner's
// place: the caption, the banner, the lane labels or legend and the strain legend (when drawn
// before) laid out by layOutOverlays (ui/overlay_layout.hpp), so that none overlaps another and
// all stay in the picture, a label too long for its place shortened.
struct SceneOverlays {
  std::vector<Command> commands;  // the banner's buttons'
  float top_px = 0.0f;            // px: how far down the caption and the banner reach (0: none)
};
SceneOverlays drawSceneOverlays(const PanelModel& model, const std::string& caption,
                                ItemProbe* probe = nullptr);
// With the arrows shown (model.display.show_arrows), their key at the top right of the scene
// viewport: the grid's spacing ("grid 0.5 m") and each arrow's colour and scale
// (docs/exploring.md#arrows).
void drawMeasureLegend(const PanelModel& model, ItemProbe* probe = nullptr);
// A pendulum's joint angles (docs/exploring.md#angles-at-the-joints): link i's angle from the
// downward vertical, in degrees (counter-clockwise positive, -180 to 180), beside its upper joint
// at pixel (x, y), on a dark band so that it reads over the grid.
struct JointLabel {
  float x = 0.0f, y = 0.0f;  // px, the joint's
  double degrees = 0.0;
};
// The ruler (docs/exploring.md#ruler): its ends on screen (px) and what it reads.
struct RulerView {
  float ax = 0.0f, ay = 0.0f, bx = 0.0f, by = 0.0f;  // px
  double length = 0.0;                               // m
  double from_vertical_deg = 0.0;  // the angle of a -> b from the downward vertical, degrees
  float end_clearance = 0.0f;      // px: the label keeps this from either end (a body's radius)
};
void drawRuler(const RulerView& ruler, ItemProbe* probe = nullptr);
// Where the ruler's reading goes: the top left of a box w x h px beside the ruler's middle, off
// the line on the side facing up the screen (right of a vertical one), far enough out that it
// keeps `clearance` px from both ends (the bodies a ruler is laid between) and from the line.
struct LabelSpot {
  float x = 0.0f, y = 0.0f;
};
LabelSpot rulerLabelSpot(const RulerView& ruler, float w, float h, float clearance);
// The protractor (docs/exploring.md#protractor): its vertex and rays' ends on screen (px) and the
// angle between the rays.
struct ProtractorView {
  float vx = 0.0f, vy = 0.0f, ax = 0.0f, ay = 0.0f, bx = 0.0f, by = 0.0f;  // px
  double degrees = 0.0;
};
void drawProtractor(const ProtractorView& protractor, ItemProbe* probe = nullptr);
// A spring's rest length marked along it (docs/exploring.md#rest-lengths): the segment from
// (x0, y0) to (x1, y1), px, as long as the rest length, with a tick across each end.
struct RestMark {
  float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
};
void drawRestLengths(const std::vector<RestMark>& marks);
// A divergence's culprit outside the picture (docs/integrators.md#divergence: a particle flung
// far is left out of the framing): an arrow on the scene viewport's edge pointing at it, and how
// far it is. `pointed`: whether there is one (the culprit is off screen).
struct OffscreenPointer {
  bool pointed = false;
  float x = 0.0f, y = 0.0f;    // px: the arrow's tip, kPointerInset inside the viewport's edge
  float dx = 0.0f, dy = 0.0f;  // unit: the direction it points (screen y down)
  double metres = 0.0;         // the culprit's distance from the view's centre
  float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;  // px: the box, which holds the label
};
// The pointer to screen point (sx, sy) (behind the camera: the point the projection flips to,
// reflected) from the box [x0, x1) x [y0, y1) (the viewport below the caption and banner): none
// when it is inside, else on the ray from the box's centre towards it, where the ray meets the
// box's edge inset by `inset`.
OffscreenPointer offscreenPointer(float sx, float sy, bool behind, float x0, float y0, float x1,
                                  float y1, float inset);
// px at UI scale 1: how far inside the edge the arrow's tip sits
inline constexpr float kPointerInset = 14.0f;
void drawOffscreenPointer(const OffscreenPointer& pointer, ItemProbe* probe = nullptr);
void drawJointAngles(const std::vector<JointLabel>& joints, ItemProbe* probe = nullptr);
// The strain legend (bottom right) for this strain scale.
void drawStrainLegend(double strain_scale);
// The same, only where there are springs (model.scene.springs > 0), with
// model.display.strain_scale.
void drawStrainLegend(const PanelModel& model, ItemProbe* probe = nullptr);
// model.display.status at the bottom centre of the scene viewport (red when status_error); where it
// would overlap the strain legend (when that is drawn first), above it. Nothing when status is
// empty.
void drawStatus(const PanelModel& model, ItemProbe* probe = nullptr);
// The help overlay listing every binding (F1).
void drawHelpOverlay(bool* open, ItemProbe* probe = nullptr);
// The same, centred in the scene viewport, saying what left-drag does in this scene
// (model.display.planar).
void drawHelpOverlay(bool* open, const PanelModel& model, ItemProbe* probe = nullptr);

// The renderer's strain colour map (render::strainColor), x = strain / strain scale: x is clamped
// to [-1, 1] (NaN counts as 0), s = |x| (2 - |x|) eases out (half the strain scale already gives
// 3/4 of the colour), and the colour is rest * (1 - s) + end * s in float, with rest the grey
// (0.74, 0.75, 0.77), end the red (0.93, 0.13, 0.10) for x >= 0 (stretched) or the blue
// (0.12, 0.36, 0.98) for x < 0 (compressed).
struct Rgb {
  float r, g, b;
};
Rgb strainColour(double x);

// The key bindings shown by the help overlay (also used by the app to document them).
struct Binding {
  const char* keys;
  const char* action;
};
std::span<const Binding> bindings();

}  // namespace ui
