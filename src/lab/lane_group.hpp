// The window's lanes (docs/lab.md#lanes): 1 to kMaxLanes lanes on one System, in lock-step of
// simulated time; a parameter lane (docs/lab.md#parameter-lanes) steps its own copy of that System
// with its own set-up, which follows every other change of the scene's parameters. Lane 0 sets the
// clock (a lab::StepClock: t = origin + k dt, counted on in its dt once it has diverged); after
// each of its steps every other lane goes to its step nearest to that time (lab::nearestStep, the
// rule compare follows). A lane that diverges freezes; the others go on.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "lab/history.hpp"
#include "lab/lane.hpp"
#include "lab/lane_spec.hpp"
#include "util/expected.hpp"

namespace lab {

class LaneGroup {
 public:
  static constexpr int kMaxLanes = 4;

  // One lane, lane 0, on `system` (referenced: keep it alive and in place) from `from`.
  void reset(const sim::System& system, const sim::State& from, sim::Method method, double dt);
  // Every lane from `s`, the clock at s.t.
  void restart(const sim::State& s);

  int size() const { return static_cast<int>(lanes_.size()); }
  const Lane& operator[](int i) const { return lanes_[static_cast<size_t>(i)]; }
  Lane& operator[](int i) { return lanes_[static_cast<size_t>(i)]; }
  const Lane& primary() const { return lanes_.front(); }
  bool anyAlive() const;

  // Whether a lane may be added from lane `source` (room on screen, an existing source): the
  // problem when not.
  util::Problem canAdd(int source) const;
  // A lane from lane `source`'s current state with its energy anchor (canAdd first). With a
  // set-up (parseLaneSetup), the lane steps its own copy of the system given it, and anchors its
  // energy on its own start (a heavier copy's energy is another number).
  void add(int source, sim::Method method, double dt, const std::vector<LaneSetting>& setup = {},
           const std::string& setupText = {});
  // Lane i's set-up as given ("stiffness_scale=4"), empty for a lane of the scene's own.
  const std::string& setup(int i) const { return setups_[static_cast<size_t>(i)].text; }
  // After a change of the scene's parameters: every parameter lane's copy takes those it does not
  // set itself (lab::followParameters).
  void followScene();
  // The mouse spring on every parameter lane's copy too (the scene's own is the caller's).
  void setGrab(int body, const sim::Vec3& target, double stiffness);
  // Removes lane i (not 0), or says why not.
  util::Problem remove(int i);
  // The lanes `lane` names: one, or -1 for every lane; the problem when none.
  util::Expected<std::vector<Lane*>> select(int lane);
  // dt of the selected lanes; lane 0's restarts the clock's origin.
  void setDt(const std::vector<Lane*>& lanes, double dt);
  // Lane 0 one step (or its clock one step on, once it has diverged), then the others to it.
  // False when every lane has diverged.
  bool step();

  double time() const { return clock_.time(primary().dt()); }  // s, the clock's
  const StepClock& clock() const { return clock_; }
  // The clock restarts at t, its time before events changed every lane's dt.
  void restartClockAt(double t) { clock_.restartAt(t); }
  // Every lane's checkpoint and the clock, for the timeline.
  History::Entry checkpoint() const;
  // Every lane back to a kept moment (a lane added since starts there from lane 0's state).
  void seek(const History::Entry& e);

 private:
  // A parameter lane's own system and set-up; no system for a lane on the scene's.
  struct Setup {
    std::unique_ptr<sim::System> system;  // in place: its lane's stepper references it
    std::vector<LaneSetting> settings;
    std::string text;
  };
  const sim::System* system_ = nullptr;
  std::deque<Lane> lanes_;    // a deque: lanes never move (the app keeps references)
  std::deque<Setup> setups_;  // one per lane
  StepClock clock_;
};

}  // namespace lab
