#include "lab/period.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace lab {

void PeriodMeter::reset() {
  *this = PeriodMeter();
}

bool PeriodMeter::swingIsMotion(double hi, double lo) const {
  const double magnitude = std::max(std::abs(hi), std::abs(lo));
  return hi - lo > kRoundOffSwing * magnitude && hi > lo;
}

void PeriodMeter::addCrossing(double t, double swing) {
  // the kept crossings whose swing was a fraction of this one's: noise before the oscillation
  for (int k = 0; k < kept_; ++k)
    if (swings_[(next_ + kCrossingsKept - 1 - k) % kCrossingsKept] < kSwingRatio * swing) {
      seen_ -= kept_ - k, kept_ = k;
      break;
    }
  crossings_[next_] = t, swings_[next_] = swing;
  next_ = (next_ + 1) % kCrossingsKept;
  kept_ = std::min(kept_ + 1, kCrossingsKept);
  ++seen_;
}

double PeriodMeter::vertex(double t, double q, double sign) const {
  if (samples_ < 2 || sign * (q_prev_ - q_pp_) < 0.0 || sign * (q_prev_ - q) < 0.0) return q_prev_;
  // p(s) = q_prev + b (s - t_prev) + a (s - t_prev)^2 through the three samples
  const double h0 = t_prev_ - t_pp_, d0 = (q_prev_ - q_pp_) / h0,
               d1 = (q - q_prev_) / (t - t_prev_);
  const double a = (d1 - d0) / (t - t_pp_), b = d0 + a * h0;
  if (!(sign * a < 0.0)) return q_prev_;  // flat: the sample itself
  // at most a quarter of the larger neighbour's drop, the most a parabola between equally spaced
  // samples can rise above the sample: noise cannot move the extreme further
  const double cap = 0.25 * sign * (q_prev_ - (sign > 0 ? std::min(q_pp_, q) : std::max(q_pp_, q)));
  return q_prev_ + sign * std::min(cap, sign * (-b * b / (4.0 * a)));
}

// Armed below the centre: the minimum is over once q rises through the centre, the midpoint of
// the maximum before it and this minimum.
void PeriodMeter::below(double t, double q) {
  run_lo_ = std::min(run_lo_, vertex(t, q, -1.0));
  const double centre = 0.5 * (last_hi_ + run_lo_);
  if (q_prev_ < centre && q >= centre) {
    addCrossing(t_prev_ + (centre - q_prev_) / (q - q_prev_) * (t - t_prev_), last_hi_ - run_lo_);
    phase_ = Phase::Above, last_lo_ = run_lo_, run_hi_ = q;
  }
}

// Armed again once q is well below the centre of this excursion's maximum and the last minimum:
// until then, noise about the crossing counts nothing.
void PeriodMeter::above(double q) {
  const double centre = 0.5 * (run_hi_ + last_lo_);
  const double band = kHysteresis * (run_hi_ - last_lo_);
  if (q < centre - band) phase_ = Phase::Below, last_hi_ = run_hi_, run_lo_ = q;
}

void PeriodMeter::push(double t, double q) {
  if (!std::isfinite(t) || !std::isfinite(q)) return;  // a lane's last state before it ran away
  if (samples_ > 0 && t < t_prev_) reset();            // a seek back: start afresh
  if (samples_ > 0 && t == t_prev_) return;
  if (samples_ == 0) all_hi_ = all_lo_ = q;
  all_hi_ = std::max(all_hi_, q), all_lo_ = std::min(all_lo_, q);
  if (phase_ == Phase::Unknown) {
    // the extremes of every sample so far stand for the last maximum and minimum
    last_hi_ = all_hi_, last_lo_ = all_lo_;
    const double centre = 0.5 * (last_hi_ + last_lo_);
    const double band = kHysteresis * (last_hi_ - last_lo_);
    if (swingIsMotion(last_hi_, last_lo_) && q < centre - band) phase_ = Phase::Below, run_lo_ = q;
  } else if (phase_ == Phase::Below) {
    below(t, q);
  } else {
    run_hi_ = std::max(run_hi_, vertex(t, q, 1.0));
    above(q);
  }
  t_pp_ = t_prev_, q_pp_ = q_prev_, t_prev_ = t, q_prev_ = q;
  ++samples_;
}

std::optional<PeriodReading> PeriodMeter::reading() const {
  // the run's first crossing, once two more follow it: its centre came from the samples before a
  // whole swing, whose extreme at the start (a release from rest) no parabola refines
  const int used = kept_ >= 3 && seen_ == kept_ ? kept_ - 1 : kept_;
  if (used < 2) return std::nullopt;
  const double newest = crossings_[(next_ + kCrossingsKept - 1) % kCrossingsKept];
  const double oldest = crossings_[(next_ + kCrossingsKept - used) % kCrossingsKept];
  const double period = (newest - oldest) / (used - 1);
  if (!(period > 0.0) || t_prev_ - newest > kStalePeriods * period) return std::nullopt;
  return PeriodReading{period, used};
}

std::optional<double> theoryPeriod(const sim::System& system, const sim::State& s) {
  return system.theoryPeriod(s);
}

}  // namespace lab
