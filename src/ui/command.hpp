// What the panel, the keys and the mouse ask for (docs/architecture.md#the-session-and-commands):
// one small struct per command, with its own typed fields (MuJoCo simulate's pending actions), in
// the variant of the one who applies it: the Session (the simulation's and edit mode's, between
// steps), the frame driver (the display's) or the front end (screenshot, recording, quit).
#pragma once

#include <array>
#include <string>
#include <type_traits>
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
// After a divergence: the blow-up in slow motion, lane 0's steps up to the runaway one frame
// each (app::Timeline::startReplay), at most `max_frames` (2 s at 30 frames/s by default)
struct ReplayBlowUp {
  int max_frames = 60;
};
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
// --- the physics: a row of the parameter table (PhysicsView::parameters names it by `id`)
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
struct SetPotentialZero {  // gravity's zero in the energy bars and plot (docs/lab.md)
  int zero = 0;            // index in lab::kPotentialZeros (PlotsView::potential_zeros)
};
// --- the display (the frame driver's)
struct SetStrainScale {
  double scale = 0.05;  // strain at full colour; fixes the scale
};
// What SetDisplayFlag turns on or off: each has its row in displayFlags() (ui/panel.hpp: its name,
// label, tooltip and DisplayView field) and its place in the frame driver (FrameDriver::flagSlot).
enum class DisplayFlag {
  StrainAuto,    // the strain scale follows the scene's strains
  Wireframe,     // a cloth as lines instead of shaded triangles
  Trails,        // the recent path of the bobs / marked particles
  Springs,       // springs and rods as lines
  Equilibrium,   // the static equilibrium as a grey ghost (docs/exploring.md)
  Ruler,         // a ruler to drag in the scene: its length and its angle from the vertical
  Wind,          // the wind's streaks
  Arrows,        // the traced body's velocity and acceleration (docs/exploring.md#arrows)
  Forces,        // each force on the traced body (docs/exploring.md#forces)
  RestLengths,   // each spring's rest length marked along it (docs/exploring.md#rest-lengths)
  Protractor,    // two rays from a vertex to drag, reading the angle between them
  Follow,        // the camera follows the scene's motion
  SplitLanes,    // lanes side by side in split viewports, else overlaid
  SmoothFrames,  // the pacing: smooth frames (60 frames/s), else real-time motion (stepping may
                 // take the frame budget down to ~20 frames/s before the clock slows)
  Count          // not a flag: their number
};
inline constexpr int kDisplayFlagCount = static_cast<int>(DisplayFlag::Count);
struct SetDisplayFlag {
  DisplayFlag flag = DisplayFlag::Trails;
  bool on = true;
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
  // its transform (scene::ToolSettings): scale, 0 fits it to the tools' 1 m; rotate, degrees
  double mesh_scale = 0.0;
  std::array<double, 3> mesh_rotate_deg{};
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

// The commands by owner, each applied by one visitor with exactly one overload per alternative and
// no catch-all (docs/architecture.md#the-session-and-commands), so that a command added here
// without its handler does not compile:
// the Session's (Session::Applier, app/session_commands.cpp): the clock (its Timeline's applier's),
// the scene, the physics, the lab and the stopwatch (its Measurements' applier's)
using SessionCommand =
    std::variant<SetIntegrator, SetDt, SetTimeScale, SetPaused, Step, Reset, Rewind, ReplayBlowUp,
                 LoadBuiltin, LoadFile, Reload, SaveScene, SetParameter, SetVectorParameter,
                 SetGrabStiffness, SetPhaseCoordinate, SetPotentialZero, AddLane, RemoveLane,
                 BranchLane, SeekHistory, RunStabilityMap, CancelStabilityMap, MeasureOrder,
                 SaveMapPng, StartStopwatch, StopStopwatch, ResetStopwatch>;
// edit mode's, through the Session (Editor::Applier, app/editor.cpp)
using EditCommand = std::variant<SetEditMode, EditAddParticle, EditPlaceTool, SetEditTool,
                                 EditAddSpring, EditMoveBody, EditSelect, EditSelectMany,
                                 EditTogglePin, EditDelete, EditSetMass, EditSetSpring, EditSetLink,
                                 EditAddLink, EditRemoveLink, SetNewSpring, NewScene, Undo, Redo>;
// the display's (FrameDriver::applyDisplay, app/frame_driver.cpp)
using DisplayCommand = std::variant<SetStrainScale, SetDisplayFlag, SetClipSize>;
// the front end's, which the frame driver hands back (the window's Viewer, app/viewer.cpp)
using FrontEndCommand = std::variant<Screenshot, ToggleRecording, Quit>;
// Any command. Each struct belongs to exactly one owner, so `Command c = SetDt{...}` picks it.
using Command = std::variant<SessionCommand, EditCommand, DisplayCommand, FrontEndCommand>;

namespace detail {
template <class T, class Variant>
inline constexpr bool kIsAlternative = false;
template <class T, class... A>
inline constexpr bool kIsAlternative<T, std::variant<A...>> = (... || std::is_same_v<T, A>);
// how many owners' variants of Command hold T
template <class T, class Owners = Command>
inline constexpr int kOwners = 0;
template <class T, class... O>
inline constexpr int kOwners<T, std::variant<O...>> = (0 + ... + int(kIsAlternative<T, O>));
template <class Owner>
inline constexpr bool kOwnsAlone = false;
template <class... C>
inline constexpr bool kOwnsAlone<std::variant<C...>> = (... && (kOwners<C> == 1));
template <class Owners = Command>
inline constexpr bool kEachOwnedOnce = false;
template <class... O>
inline constexpr bool kEachOwnedOnce<std::variant<O...>> = (... && kOwnsAlone<O>);
template <class V, class Variant>
inline constexpr bool kHandlesEach = false;
template <class V, class... C>
inline constexpr bool kHandlesEach<V, std::variant<C...>> =
    (... && std::is_invocable_v<const V&, const C&>);
template <class V, class Variant>
inline constexpr bool kHandlesNone = false;
template <class V, class... C>
inline constexpr bool kHandlesNone<V, std::variant<C...>> =
    (... && !std::is_invocable_v<const V&, const C&>);
// V handles none of the other owners' commands
template <class V, class Owner, class Owners = Command>
inline constexpr bool kHandlesOnly = false;
template <class V, class Owner, class... O>
inline constexpr bool kHandlesOnly<V, Owner, std::variant<O...>> =
    (... && (std::is_same_v<O, Owner> || kHandlesNone<V, O>));
struct NotACommand {};
}  // namespace detail

static_assert(detail::kEachOwnedOnce<>, "a command struct belongs to exactly one owner");

// Whether T is a command struct (of one owner) or an owner's variant.
template <class T>
inline constexpr bool kIsCommand = detail::kIsAlternative<T, Command> || detail::kOwners<T> == 1;

// Visitor V applies exactly Owner's commands: an overload for each of them, none for another
// owner's, and no catch-all (it takes nothing that is not a command). With Owner = Command: one
// overload per owner (the routing). Each applier asserts it.
template <class V, class Owner>
inline constexpr bool kAppliesExactly =
    detail::kHandlesEach<V, Owner> && !std::is_invocable_v<const V&, const detail::NotACommand&> &&
    (std::is_same_v<Owner, Command> ||
     (detail::kIsAlternative<Owner, Command> && detail::kHandlesOnly<V, Owner>));

// The command struct T (or the owner's variant T) that `c` holds, or null: what tests read.
template <class T>
const T* commandAs(const Command& c) {
  static_assert(kIsCommand<T>, "not a command");
  if constexpr (detail::kIsAlternative<T, Command>) {
    return std::get_if<T>(&c);
  } else {
    return std::visit(
        [](const auto& owner) -> const T* {
          if constexpr (detail::kIsAlternative<T, std::decay_t<decltype(owner)>>)
            return std::get_if<T>(&owner);
          else
            return nullptr;
        },
        c);
  }
}

// A visitor from lambdas, one per command type it handles (std::visit(Overloaded{...}, c)).
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

}  // namespace ui
