// The series the panel plots (docs/lab.md): lane 0's energies, drift and phase coordinate, each
// lane's drift, distance from lane 0 and ledger residual, and the marks of the conservative
// changes; each the last kSamples samples (one per rendered frame that moved). A seek on the
// timeline shows them up to its time (showUpTo) and keeps the rest, so a scrub forward shows them
// again; stepping on from there drops them (rollBackTo). Part of the Timeline (app/timeline.hpp).
#pragma once

#include <cstddef>
#include <deque>
#include <limits>
#include <vector>

#include "sim/energy.hpp"

namespace app {

class PlotHistory {
 public:
  static constexpr std::size_t kSamples = 600;  // 10 s at 60 frames/s

  struct LaneSeries {
    std::vector<float> t, drift, distance, residual;
  };

  // Empty series for `lanes` lanes, no marks.
  void clear(int lanes);
  void addLane() { lanes_.emplace_back(); }
  void removeLane(int i) { lanes_.erase(lanes_.begin() + i); }
  // Another phase coordinate: its plot starts afresh.
  void clearPhase() { phase_q_.clear(), phase_v_.clear(), phase_t_.clear(); }
  // A conservative change at time t (s): a mark on the plots (once per time).
  void mark(float t);
  // Lane 0's sample at time t (s): its energy (J), |drift|, and the phase coordinate's value and
  // rate when there is one.
  void pushPrimary(float t, const sim::Energy& e, float drift, const float* phase);
  void pushLane(int i, float t, float drift, float distance, float residual);
  // Shows the samples up to time t (s) only, keeping those after it: a seek.
  void showUpTo(double t) { shown_up_to_ = t; }
  bool seeking() const { return shown_up_to_ != kEverySample; }
  // Drops the samples after time t (s) and shows every sample again: stepping on from there.
  void rollBackTo(double t);
  // How many of the newest samples of lane 0's series (i = -1) or lane i's lie after the time
  // shown: the series' last ones, hidden after a seek (the series are aligned at their ends).
  std::size_t hidden(int i = -1) const;
  // Marks older than the plotted history have scrolled out.
  void dropOldMarks();

  const std::vector<float>& time() const { return t_; }
  const std::vector<float>& kinetic() const { return kinetic_; }
  // V and E less energyBase(): a float keeps 7 digits of the difference, so that a swing of
  // 5e-4 J under gravity's -9.81 J at the origin (pendulum_small_angle) is not rounded to steps
  // of 1e-6 J (docs/lab.md#the-zero-of-the-potential)
  const std::vector<float>& potential() const { return potential_; }
  const std::vector<float>& total() const { return total_; }
  double energyBase() const { return energy_base_; }  // J: the first sample's potential
  const std::vector<float>& drift() const { return drift_; }
  const std::vector<float>& phaseQ() const { return phase_q_; }
  const std::vector<float>& phaseV() const { return phase_v_; }
  // each phase sample's time (s): the plot breaks its line where the samples are far apart in time
  // (a frame that took long, a seek), ui::phaseRuns
  const std::vector<float>& phaseT() const { return phase_t_; }
  const std::vector<float>& marks() const { return marks_; }  // all, the hidden ones included
  const LaneSeries& lane(int i) const { return lanes_[static_cast<std::size_t>(i)]; }

 private:
  std::vector<float> t_, kinetic_, potential_, total_, drift_, phase_q_, phase_v_, phase_t_;
  std::vector<float> marks_;  // s, times of the conservative changes within the history
  std::deque<LaneSeries> lanes_;
  static constexpr double kEverySample = std::numeric_limits<double>::infinity();
  double shown_up_to_ = kEverySample;  // s
  double energy_base_ = 0.0;           // J, set by the first sample after clear()
};

}  // namespace app
