// The period readout (docs/lab.md#period): a coordinate's period measured from its upward
// crossings of its centre, the theory where a scene is one with a closed form (a mass on a
// spring, a simple pendulum), and the integrator's own period error against it.
#pragma once

#include <optional>

#include "sim/model.hpp"
#include "sim/system.hpp"

namespace lab {

// A period measured: the mean spacing of the last `crossings` upward crossings (>= 2).
struct PeriodReading {
  double period = 0.0;  // s
  int crossings = 0;
};

// Fed samples (t, q) of one coordinate in time order, finds the upward crossings of q through
// its running centre: the midpoint of the last maximum and the last minimum, each the vertex of
// the parabola through the extreme sample and its neighbours (the samples' own extremes would
// put the centre off by up to (omega h)^2 / 16 of the amplitude, h the spacing). That centre
// follows an equilibrium that drifts (a slider moved), and for a damped oscillation it sits a
// fixed fraction of the amplitude off, which shifts every crossing by the same phase and so
// leaves the spacing alone (a mean over all samples would be pulled by the early, larger swings).
// Each crossing is interpolated linearly between its two samples. Hysteresis: a crossing counts
// only once q has been below the centre by kHysteresis of the last swing since the one before, so
// noise near the centre adds none. Before the first extremes, the centre and swing are those of
// every sample so far, which at the start may be noise alone: a crossing whose swing is more than
// 1 / kSwingRatio times a kept one's drops that one and those before it. The first crossing,
// whose centre rests on those unrefined extremes, is left out of the period once two follow it.
class PeriodMeter {
 public:
  // The hysteresis band below the centre, as a fraction of the last peak-to-peak swing.
  static constexpr double kHysteresis = 0.1;
  // Crossings kept: the period is their mean spacing, enough to average the interpolation's and
  // the noise's error at each end, few enough to follow a period that changes (a damped
  // large-amplitude pendulum's shortens).
  static constexpr int kCrossingsKept = 8;
  // A swing smaller than this fraction of the coordinate's magnitude is round-off, not motion
  // (a body at rest at its equilibrium).
  static constexpr double kRoundOffSwing = 1e-9;
  // The reading lapses when no crossing has come for this many periods (the motion stopped: a
  // grab holding the body, an overdamped decay).
  static constexpr double kStalePeriods = 3.0;
  // A swing this fraction of a later one's was not the oscillation (noise before it set in).
  static constexpr double kSwingRatio = 0.5;

  // A sample at time t (s). A time before the last sample's (a seek back, a restart) starts the
  // meter afresh from this sample; a repeated time is ignored.
  void push(double t, double q);
  void reset();
  // The period from the kept crossings (the first of the run left out once there are three);
  // nothing until two, or when they have gone stale.
  std::optional<PeriodReading> reading() const;
  // The crossings in the current run: since the last reset or the last dropped ones.
  int crossingsSeen() const { return seen_; }

 private:
  enum class Phase { Unknown, Below, Above };
  void addCrossing(double t, double swing);
  void below(double t, double q);
  void above(double q);
  // The parabola's vertex through the last two samples and q when the last is an extreme
  // (sign +1: a maximum, -1: a minimum), else the last sample.
  double vertex(double t, double q, double sign) const;
  bool swingIsMotion(double hi, double lo) const;

  Phase phase_ = Phase::Unknown;
  int samples_ = 0;
  double t_pp_ = 0.0, q_pp_ = 0.0;  // the sample before the last
  double t_prev_ = 0.0, q_prev_ = 0.0;
  double all_hi_ = 0.0, all_lo_ = 0.0;     // every sample's extremes (before the first crossing)
  double last_hi_ = 0.0, last_lo_ = 0.0;   // the last maximum and minimum
  double run_hi_ = 0.0, run_lo_ = 0.0;     // the current excursion's extreme
  double crossings_[kCrossingsKept] = {};  // s, a ring
  double swings_[kCrossingsKept] = {};     // the peak-to-peak swing before each crossing
  int kept_ = 0, next_ = 0, seen_ = 0;
};

// The closed forms (sim/facets.hpp): a mass on a spring, a simple pendulum by the AGM.
using sim::agm;
using sim::pendulumPeriod;
using sim::springPeriod;

// The theory of a system in state s where it has one, else nothing: a single-link pendulum with
// no damping or grab (its amplitude from s's energy, so a bob set going from any angle and speed
// has one), or a single free particle on one spring to a fixed one, with no damping, drag, wind,
// grab or collider, moving along the spring's line (gravity along it too) or on a spring of rest
// length 0 (linear in every direction). For each, every coordinate that oscillates has that period.
std::optional<double> theoryPeriod(const sim::System& system, const sim::State& s);

// The integrator's period error: (measured - theory) / theory.
inline double periodError(double measured, double theory) {
  return (measured - theory) / theory;
}

}  // namespace lab
