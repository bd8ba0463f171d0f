// The lanes and their timeline (docs/architecture.md#the-session-and-commands): the Session's
// owner of the clock. It holds the 1 to 4 lanes in lock-step on the loaded scene
// (lab/lane_group.hpp), the window's --at events (they replay after Reset), the timeline of kept
// states (lab/history.hpp), the plotted series (app/plot_history.hpp), pause and the time scale;
// it steps, samples, seeks and rewinds, applies the clock's commands (Applier) and fills the
// panel's Simulation section, lanes, timeline and plots (timeline_panel.cpp). What the
// measurements follow (a step, a restart, a seek) the Session tells them (session.cpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/loaded_scene.hpp"
#include "app/outcome.hpp"
#include "app/plot_history.hpp"
#include "lab/blowup.hpp"
#include "lab/events.hpp"
#include "lab/history.hpp"
#include "lab/lane_group.hpp"
#include "ui/command.hpp"

namespace ui {
struct ClockView;
struct LanesView;
struct PlotsView;
}  // namespace ui

namespace app {

class Timeline {
 public:
  explicit Timeline(LoadedScene& scene);

  // --- starting
  // Another system (a load, an edit): lane 0 alone, with the scene's integrator and dt, and the
  // phase plot on the coordinate that moves of the body the scene names.
  void reset();
  // Every lane from s, the events from its time, a fresh timeline and fresh plots.
  void restart(const sim::State& s);
  // Events --at (docs/cli.md#events) for the window; they replay after Reset.
  void setEvents(std::vector<lab::Event> events);

  // --- the clock
  // One step of lane 0's dt (Session::stepOnce): `stepped` false when every lane has diverged
  // (the clock then pauses); `reanchored` when an event due changed the energy (reanchor).
  struct Stepped {
    bool stepped = false, reanchored = false;
  };
  Stepped step();
  // The plots' samples of this frame and the runaway rule on every lane (Session::sample).
  void sample();
  // Every lane to a kept state (paused). The states after it stay on the timeline (scrubbing
  // goes back and forth) until the simulation steps on from an earlier state (dropFuture).
  void seek(int entry);
  bool canRewind() const { return divergence() && history_.size() > 0; }
  // The kept state Rewind goes to: the newest at least kRewindBack before the divergence, else
  // the oldest kept.
  int rewindEntry() const;
  // After a conservative change (k, gravity, grab, an event): every lane's E0 := its current E,
  // the scales from the current state, and a mark on the plots at the current time.
  void reanchor();
  // A lane from lane `source`'s state; false with `why` (a full group, an unknown integrator, dt
  // out of range, a set-up that does not apply).
  bool addLane(int source, const std::string& integrator, double dt, const std::string& setup,
               std::string& why);
  bool removeLane(int lane, std::string& why);
  // The phase plot's coordinate: its plot afresh; false with `why` when out of range.
  bool setPhaseCoordinate(int j, std::string& why);
  // The scene's parameters changed: a parameter lane's copy takes them unless it sets them itself.
  void followScene() { lanes_.followScene(); }
  // The mouse spring on every lane's copy alike (the scene's own is the Session's).
  void setGrab(int body, const sim::Vec3& target, double stiffness) {
    lanes_.setGrab(body, target, stiffness);
  }
  bool paused() const { return paused_; }
  void setPaused(bool p) { paused_ = p; }
  double timeScale() const { return time_scale_; }
  void setHistoryBudget(std::size_t bytes) { history_.setBudget(bytes); }
  // dt within the window's range, else false with `why` ("dt: out of range")
  static bool checkDt(double dt, std::string& why);

  // The clock's commands, which the Session's applier takes over whole (session_commands.cpp):
  // one overload each, no catch-all.
  struct Applier {
    Timeline& timeline;
    std::string& why;
    Outcome operator()(const ui::SetIntegrator& c) const;
    Outcome operator()(const ui::SetDt& c) const;
    Outcome operator()(const ui::SetTimeScale& c) const;
  };

  // --- the blow-up in slow motion (lab/blowup.hpp, docs/lab.md#the-blow-up-in-slow-motion)
  // Lane 0's steps from its anchor (the last state checked intact on the blow-up grid) to the
  // state the runaway rule found, at most `maxFrames` of them, the window's Replay slowly and a
  // recording's alike. False with `why` when lane 0 has not diverged or its steps could not be
  // made again (a hand changed the system since the anchor).
  bool startReplay(int maxFrames, std::string& why);
  bool replaying() const { return replay_ != nullptr; }
  // The next frame; past the last one the replay ends (the runaway state is drawn again).
  void advanceReplay();
  void stopReplay() { replay_.reset(); }
  const lab::BlowUp* replay() const { return replay_.get(); }
  // What lane i draws and the caption describes: the replay's frame for lane 0 while it plays,
  // else the lane itself.
  const lab::Lane& shownLane(int i) const {
    return i == 0 && replay_ ? replay_->lane() : lanes_[i];
  }
  // Lane 0's anchor: its last state checked intact on the blow-up grid (the framing of a
  // runaway starts from its extent).
  const sim::State& anchorState() const { return anchor_.state; }

  // --- what it holds
  const lab::LaneGroup& lanes() const { return lanes_; }
  int laneCount() const { return lanes_.size(); }
  const lab::Lane& lane(int i) const { return lanes_[i]; }
  // lane 0, the primary lane: what the panel's Simulation section and the caption describe
  const lab::Lane& primary() const { return lanes_.primary(); }
  const std::optional<sim::Divergence>& divergence() const { return primary().divergence(); }
  double time() const { return lanes_.time(); }             // s, the clock's
  long long steps() const { return lanes_.clock().total; }  // of the clock
  const lab::History& history() const { return history_; }  // the timeline of kept states
  const PlotHistory& plots() const { return plots_; }
  int phaseCoordinate() const { return phase_coordinate_; }  // the phase plot's
  // Counts the jumps of the state (Reset, a seek, Back 1 s): what follows the state smoothly
  // (the auto strain scale) starts afresh from the state restored.
  long long restores() const { return restores_; }

  // --- the panel (timeline_panel.cpp)
  void fill(ui::ClockView& v) const;  // the Simulation section and the divergence banner
  void fill(ui::LanesView& v) const;  // the Lab section's lanes and timeline
  void fill(ui::PlotsView& v) const;  // the Diagnostics section's plots, energy bars and ledger
  // A divergence report for the screen, times to 6 significant digits; empty if none.
  static std::string summary(const std::optional<sim::Divergence>& d);

  // The timeline: a state every kHistorySpacing of simulated time at first (a copy is O(N) and
  // rare next to the steps between two), within kHistoryBudget bytes unless the preferences say.
  static constexpr double kHistorySpacing = 1.0 / 30.0;      // s
  static constexpr std::size_t kHistoryBudget = 256u << 20;  // bytes
  // How far before the divergence Rewind goes: far enough to see the instability build up.
  static constexpr double kRewindBack = 1.0;  // s
  // The runaway rule is applied at least this often in simulated time, between rendered frames
  // too, so that the last checked state a blow-up shows (docs/lab.md) is at most this far before
  // it, whatever the frame rate (a 10 fps clip's frames are 0.1 s apart). A scene whose step is
  // longer is checked every step.
  static constexpr double kRunawayCheckSpacing = 1.0 / 240.0;  // s
  // Lane 0 keeps an anchor for the blow-up's slow motion at the first step of every
  // 1/kAnchorRate of simulated time (the frames of a 30 fps clip), checked by the runaway rule
  // first, and after every event (so that its steps can be made again exactly).
  static constexpr double kAnchorRate = 30.0;  // per simulated second
  // The phase plot's choices: the first coordinates only, since the panel rebuilds the list
  // every frame (a 256 x 256 cloth has 196 608).
  static constexpr int kPhaseCoordinatesListed = 3000;
  // The step of the probe that picks which of the plotted body's coordinates moves
  static constexpr double kPhaseProbeStep = 1e-3;  // s
  // Lanes on screen at once (lane 0 included).
  static constexpr int kMaxLanes = lab::LaneGroup::kMaxLanes;

 private:
  void keepState();       // on the timeline, when one is due
  void keepPresent();     // before a first seek: the newest state too, so a scrub comes back to it
  void dropFuture();      // stepping on from an earlier state: the kept states and samples after it
  bool applyDueEvents();  // true when one changed the energy (it reanchors)
  void sampleLane(int i, const Eigen::VectorXd& primaryPositions);
  // The runaway rule on every lane (lane 0 with its energy e, where the caller has it).
  void checkRunaways(const sim::Energy* e);
  // Before a step: whether lane 0's anchor is due here (a new cell of the grid, an event).
  bool anchorDue() const;

  LoadedScene& scene_;
  lab::LaneGroup lanes_;  // on scene_.built(): reset whenever it is replaced
  lab::EventSchedule events_;
  lab::History history_;
  PlotHistory plots_;
  bool paused_ = false;
  double time_scale_ = 1.0;
  int phase_coordinate_ = 0;
  double last_sample_t_ = -1.0;  // s, the clock time of the last sample (-1: none)
  double last_check_t_ = 0.0;    // s, the clock time of the last runaway check
  long long restores_ = 0;
  lab::Lane::Checkpoint anchor_;  // lane 0's, for the blow-up's slow motion
  long long anchor_cell_ = -1;    // the grid cell of the last anchor (-1: take one at once)
  std::unique_ptr<lab::BlowUp> replay_;
};

}  // namespace app
