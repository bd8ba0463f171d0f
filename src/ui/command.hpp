// What the panel, the keys and the mouse ask for (docs/architecture.md#the-session-and-commands):
// one small struct per command, with its own typed fields (MuJoCo simulate's pending actions), in
// a variant. The panel emits them; the app's Session applies those that change the simulation
// between steps (std::visit), the frame driver the display ones, the front end the rest.
#pragma once

#include <array>
#include <string>
#include <variant>
#include <vector>

namespace ui {

// --- the clock; `lane` names one lane, or -1 every lane
struct SetIntegrator {
  std::string name;
  int lane = 0;
};
struct SetDt {
  double dt = 0.0;  // s
  int lane = 0;
};
struct SetTimeScale {
  double scale = 1.0;  // simulated seconds per real second
};
struct SetPaused {
  bool paused = true;
};
struct Step {
  int count = 1;  // steps of lane 0's dt
};
// --- the scene
struct Reset {};   // back to the initial state (the camera frames the scene again)
struct Rewind {};  // after a divergence: the state about a second before the banner
struct LoadBuiltin {
  std::string name;
};
struct LoadFile {
  std::string path;
};
struct Reload {};    // the scene file again
struct SaveScene {   // the system as it starts now, with the current parameters, as a scene file
  std::string path;  // empty: "SCENE-edited.json" in the current folder
};
// --- the physics: a row of the parameter table (PanelModel::parameters names it by `id`)
struct SetParameter {
  int id = 0;
  double value = 0.0;
};
struct SetVectorParameter {
  int id = 0;
  std::array<double, 3> value{};  // gravity (m/s^2), wind (m/s)
};
struct SetGrabStiffness {
  double stiffness = 0.0;  // N/m, the mouse spring
};
struct SetPhaseCoordinate {
  int coordinate = 0;  // index of the coordinate in the phase plot
};
// --- the display (the frame driver's)
struct SetStrainScale {
  double scale = 0.05;  // strain at full colour; fixes the scale
};
struct SetStrainAuto {
  bool on = true;  // the strain scale follows the scene's strains
};
struct SetWireframe {
  bool on = false;
};
struct SetShowTrails {
  bool on = true;
};
struct SetShowSprings {
  bool on = true;  // springs and rods as lines
};
struct SetShowEquilibrium {  // the static equilibrium as a grey ghost (docs/exploring.md)
  bool on = true;
};
struct SetShowRuler {  // a ruler to drag in the scene: its length and its angle from the vertical
  bool on = true;
};
struct SetShowWind {
  bool on = true;  // the wind's streaks
};
struct SetShowArrows {
  bool on = false;  // the traced body's velocity and acceleration (docs/exploring.md#arrows)
};
struct SetPacing {
  // false: real-time motion (stepping may take the frame budget down to ~20 frames/s before the
  // clock slows); true: smooth frames (60 frames/s)
  bool smooth = false;
};
struct SetFollow {
  bool on = false;  // the camera follows the scene's motion
};
struct SetSplitLanes {
  bool on = false;  // lanes side by side in split viewports, else overlaid
};
struct SetClipSize {
  int index = 0;  // in clipSizes() (0: the window's framebuffer)
};
// --- the front end's
struct Screenshot {
  std::string path;  // empty: a default name
};
struct ToggleRecording {};  // start a sim-time-locked clip, or stop it and say where it is
struct Quit {};
// --- the lab (docs/lab.md#lanes)
struct AddLane {  // from lane 0's current state
  std::string integrator;
  double dt = 0.0;         // s
  std::string setup = {};  // a parameter lane's "KEY=VALUE[:KEY=VALUE]" (docs/lab.md); empty: none
};
struct RemoveLane {
  int lane = 1;  // not 0
};
struct BranchLane {  // from the source lane's current state
  int lane = 0;
  std::string integrator;
  double dt = 0.0;         // s
  std::string setup = {};  // as AddLane's
};
struct SeekHistory {
  int entry = 0;  // a kept state on the timeline (paused)
};
struct RunStabilityMap {};  // a sweep of the current scene over dt and stiffness, in the background
struct CancelStabilityMap {};  // stops it
struct MeasureOrder {};        // the observed order of each integrator, in the background
struct SaveMapPng {            // the stability map as a picture (lab/sweep_map.hpp), atomically
  std::string path;            // empty: "SCENE-map-INTEGRATOR.png" beside the scene file, or here
};
// --- the stopwatch on simulated time (docs/lab.md#the-stopwatch)
struct StartStopwatch {};
struct StopStopwatch {};
struct ResetStopwatch {};  // back to 0; keeps running if it was

// --- edit mode and the Bodies section (docs/exploring.md#edit-mode); every edit is undoable
struct SetEditMode {
  bool on = true;  // on: the simulation pauses; running again (Space) leaves it
};
struct EditAddParticle {
  std::array<double, 3> at{};  // m
};
struct EditPlaceTool {  // the current tool (SetEditTool) at the point: a particle, a chain...
  std::array<double, 3> at{};  // m
};
struct SetEditTool {
  int tool = 0;           // scene::EditTool
  std::string mesh_file;  // the Mesh file tool's OBJ
};
struct EditAddSpring {  // at rest at the particles' distance, with the new-spring settings
  int a = 0, b = 1;
};
struct EditMoveBody {  // a particle to the point, a bob's rod towards it; at rest
  int body = 0;
  std::array<double, 3> at{};  // m
};
struct EditSelect {
  int body = -1;     // -1: select nothing
  bool add = false;  // Shift: add it to the selection (or take it out)
};
struct EditSelectMany {  // a box's bodies
  std::vector<int> bodies;
  bool add = false;  // Shift: added to the selection; else they are the selection
};
struct EditTogglePin {};  // the selected particles
struct EditDelete {};     // the selected particles, with their springs
struct EditSetMass {
  int body = 0;
  double mass = 1.0;  // kg
};
struct EditSetSpring {  // the spring joining the two selected particles
  double stiffness = 0.0, damping = 0.0, rest_length = 0.0;  // N/m, N s/m, m
};
struct EditSetLink {
  int link = 0;
  double length = 1.0, mass = 1.0, angle_deg = 0.0;  // m, kg, degrees from the vertical
};
struct EditAddLink {};
struct EditRemoveLink {};
struct SetNewSpring {                                   // what the next spring and particle get
  double stiffness = 100.0, damping = 0.0, mass = 1.0;  // N/m, N s/m, kg
};
struct NewScene {};  // one fixed particle to build on (scene::newScene)
struct Undo {};
struct Redo {};

using Command = std::variant<
    SetIntegrator, SetDt, SetTimeScale, SetPaused, Step, Reset, Rewind, LoadBuiltin, LoadFile,
    Reload, SaveScene, SetParameter, SetVectorParameter, SetGrabStiffness, SetPhaseCoordinate,
    SetStrainScale, SetStrainAuto, SetWireframe, SetShowTrails, SetShowSprings, SetShowWind,
    SetShowEquilibrium, SetPacing, SetFollow, SetSplitLanes, SetClipSize, Screenshot,
    ToggleRecording, Quit, AddLane, RemoveLane, BranchLane, SeekHistory, RunStabilityMap,
    CancelStabilityMap, MeasureOrder, SaveMapPng, SetEditMode, EditAddParticle, EditAddSpring,
    EditMoveBody, EditSelect, EditTogglePin, EditDelete, EditSetMass, EditSetSpring, EditSetLink,
    EditAddLink, EditRemoveLink, SetNewSpring, NewScene, Undo, Redo, EditPlaceTool, SetEditTool,
    EditSelectMany, StartStopwatch, StopStopwatch, ResetStopwatch, SetShowArrows, SetShowRuler>;

// A visitor from lambdas, one per command type it handles (std::visit(Overloaded{...}, c)).
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

}  // namespace ui
