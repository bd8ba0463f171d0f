// The measurements (docs/architecture.md#the-session-and-commands): the Session's owner of what
// is read off the motion rather than stepped. The static equilibrium with the parameters as they
// are now (found when first asked for, then kept), each lane's period meter on the phase
// coordinate (docs/lab.md#period), the traced body's motion and the arrows' scales
// (docs/exploring.md#arrows), each lane's local frequency for the limit lines, and the stopwatch
// on the simulated clock (docs/lab.md#the-stopwatch). It reads the scene and the lanes; the
// Session tells it when the lanes step, start again or change (session.cpp).
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/loaded_scene.hpp"
#include "app/outcome.hpp"
#include "app/stopwatch.hpp"
#include "app/timeline.hpp"
#include "app/traced_motion.hpp"
#include "lab/equilibrium.hpp"
#include "lab/period.hpp"
#include "ui/command.hpp"

namespace ui {
struct MeasureView;
}

namespace app {

class Measurements {
 public:
  Measurements(const LoadedScene& scene, const Timeline& timeline);

  // --- what the Session tells it
  // Another system (a load, an edit): the equilibrium and the lanes' frequencies afresh, the
  // arrows' scales from its size.
  void newSystem();
  // Every lane starts again or jumps (Reset, a load, an edit, a seek): the stopwatch stopped at 0,
  // each lane's period afresh.
  void restart();
  // The motion changed (a conservative change, another phase coordinate): the periods afresh.
  void restartPeriods();
  void addLane();  // a lane was added to the timeline's, or lane i removed
  void removeLane(int i);
  // After each step of the lanes: each live lane's phase coordinate into its period meter (every
  // step, not every frame: a frame may span a good part of a fast oscillation's period), and the
  // traced body's motion.
  void afterStep();

  // --- the static equilibrium (lab/equilibrium.hpp) with the parameters as they are now: found
  // when first asked for after a change of the system, a parameter or the grab, then kept
  const lab::Equilibrium& equilibrium() const;

  // --- the traced body's arrows (app/traced_motion.hpp)
  // The body of the phase plot's coordinate (-1: none), and lane i's motion of it.
  int tracedBody() const;
  BodyMotion tracedMotion(int lane) const;
  // fixed when a system starts, from its initial size: every lane's arrows to one scale
  const ArrowScales& arrowScales() const { return arrow_scales_; }
  // The traced body's forces in lane i at the state it shows, one by one from the force law
  // (sim/body_forces.hpp), with a collider's push read off its last move while it touches one,
  // and their scale (docs/exploring.md#forces): m of arrow per N, such that the body's weight under
  // the reference gravity is about kWeightOfScene of the scene's size, rounded to 1, 2 or 5 times a
  // power of ten (fixed for the body and the scene, so that arrows compare over time and across
  // lanes). None where no body moves.
  struct TracedForces {
    double scale = 0.0;  // m per N
    std::vector<sim::BodyForce> forces;
  };
  TracedForces tracedForces(int lane) const;
  // short enough that a pendulum's rod pull and a spring's stay in view beside the body
  static constexpr double kWeightOfScene = 0.15;

  // The local frequency of lane i's current state (rad/s, LoadedScene::omegaAt), as of the last
  // refresh: every kOmegaRefreshFills panel fills (a few times a second at 60 frames a second),
  // at once when a lane appears or its clock goes back. The limit lines follow it.
  double laneOmega(int i) const;
  static constexpr int kOmegaRefreshFills = 15;

  const Stopwatch& stopwatch() const { return stopwatch_; }
  // The stopwatch's commands, which the Session's applier takes over whole (session_commands.cpp):
  // one overload each, at the clock's time `now` (s).
  struct Applier {
    Measurements& m;
    double now;
    Outcome operator()(const ui::StartStopwatch&) const;
    Outcome operator()(const ui::StopStopwatch&) const;
    Outcome operator()(const ui::ResetStopwatch&) const;
  };

  // The panel's view: lane 0's limit, each lane's limit and period, the stopwatch, the arrows'
  // scales. Refreshes the lanes' frequencies when due.
  void fill(ui::MeasureView& v) const;

 private:
  // A lane's period readout: its meter, and the state its theory is of (the first sampled since
  // the meter started, when the system then had a theory).
  struct LanePeriod {
    lab::PeriodMeter meter;
    std::optional<sim::State> from;
    bool started = false;
  };
  void pushPeriod(LanePeriod& p, const sim::System& system, const sim::State& s) const;
  void refreshLaneOmegas() const;  // the cache below, when due

  const LoadedScene& scene_;
  const Timeline& timeline_;
  long long systems_ = 0;  // newSystem calls: each starts another system
  // the equilibrium found, and what it was found for: the system and its parameters
  mutable lab::Equilibrium equilibrium_;
  mutable std::vector<double> equilibrium_key_;
  std::deque<LanePeriod> periods_;  // one per lane
  // Each lane's local omega and the time of the state it is of (laneOmega), and the panel fills
  // since it was taken: a cache the const panel fill refreshes.
  struct LaneOmega {
    double omega = 0.0, t = 0.0;  // rad/s, s
  };
  mutable std::vector<LaneOmega> lane_omega_;
  mutable int omega_fills_ = 0;
  TracedMotion motion_;  // the traced body's velocities, recorded after each step
  ArrowScales arrow_scales_;
  double scene_length_ = 1.0;  // m, the scene's size when it started (the arrows' scales')
  Stopwatch stopwatch_;        // on the clock; cleared by Reset, a seek, a load
};

}  // namespace app
