// The traced body's motion, per lane (docs/exploring.md#arrows): the body of the phase plot's
// coordinate, its velocity from the lane's state and its acceleration from the lane's own last
// move, (v_now - v_before) / (t_now - t_before). The lane's own motion, not the force law at its
// state: a wrong integrator's acceleration then shows as a wrong arrow.
#pragma once

#include <vector>

#include "lab/lane_group.hpp"
#include "sim/model.hpp"

namespace app {

// The arrows' fixed scales for a scene L metres across: m of arrow per m/s and per m/s², the
// same for every lane so that their arrows compare. With tau = sqrt(L / kReferenceGravity), about
// the time a body takes to fall L / 2: velocity tau * kVelocityOfTau, acceleration tau² *
// kAccelerationOfTau2, each rounded to the nearest 1, 2 or 5 times a power of ten (a tooltip reads
// "0.2 m per m/s"). A pendulum of length L released at 30° then draws a velocity arrow about L / 4
// long at the bottom, and gravity's pull about L / 2.
struct ArrowScales {
  double velocity = 0.1;                             // m per m/s (s)
  double acceleration = 0.01;                        // m per m/s² (s²)
  static constexpr double kReferenceGravity = 9.81;  // m/s²
  static constexpr double kVelocityOfTau = 0.5, kAccelerationOfTau2 = 0.5;
};
ArrowScales arrowScalesFor(double length);
// 1, 2 or 5 times a power of ten, the nearest to x on a log scale (x positive and finite; else x).
double nice125(double x);

struct BodyMotion {
  bool valid = false;                          // a moving body
  bool has_acceleration = false;               // the lane has moved twice since it (re)started
  sim::Vec3 velocity = sim::Vec3::Zero();      // m/s, at the lane's shown state
  sim::Vec3 acceleration = sim::Vec3::Zero();  // m/s², over the lane's last move
};

// The body of state coordinate j: a state that holds 3 coordinates per body is the particles'
// x y z, else one per body (a link's angle moves its bob). -1 when out of range.
int bodyOfCoordinate(const sim::System& system, const sim::State& state, int j);
// The velocity of `body` (m/s): the positions' derivative along the state's velocity (a central
// difference, exact for particles, to ~1e-10 relative for a pendulum's bobs).
sim::Vec3 bodyVelocity(const sim::System& system, const sim::State& state, int body);

class TracedMotion {
 public:
  // After a step of the session: each lane's velocity of `body` at its time, when the lane has
  // moved on since the last; a lane whose time went back (Reset, a seek, an edit) or another body
  // starts its track afresh.
  void record(const lab::LaneGroup& lanes, int body);
  // Lane `index`'s motion of `body` at its shown state.
  BodyMotion motion(const lab::Lane& lane, int index, int body) const;

 private:
  struct Track {
    int body = -1, samples = 0;  // samples: 0, 1 (now only) or 2
    double t_before = 0.0, t_now = 0.0;
    sim::Vec3 v_before = sim::Vec3::Zero(), v_now = sim::Vec3::Zero();
  };
  std::vector<Track> tracks_;
};

}  // namespace app
