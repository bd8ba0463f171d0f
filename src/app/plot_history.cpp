#include "app/plot_history.hpp"

#include <cmath>

namespace app {

namespace {
// Appends x, dropping the oldest samples beyond kSamples (ring buffers as vectors trimmed from the
// front: the panel plots them as contiguous spans).
void push(std::vector<float>& v, float x) {
  if (v.size() >= PlotHistory::kSamples)
    v.erase(v.begin(), v.begin() + static_cast<long>(v.size() - PlotHistory::kSamples + 1));
  v.push_back(x);
}

// Pops the samples of `series` while their time (the first series) is after t, compared in
// float as the samples were stored (a sample of time t itself stays).
void popAfter(float t, std::initializer_list<std::vector<float>*> series) {
  std::vector<float>& times = **series.begin();
  while (!times.empty() && times.back() > t)
    for (std::vector<float>* v : series)
      if (!v->empty()) v->pop_back();
}
}  // namespace

void PlotHistory::clear(int lanes) {
  for (auto* v : {&t_, &kinetic_, &potential_, &total_, &drift_, &phase_q_, &phase_v_, &phase_t_})
    v->clear();
  lanes_.assign(static_cast<std::size_t>(lanes), LaneSeries{});
  marks_.clear();
  shown_up_to_ = kEverySample;
}

void PlotHistory::mark(float t) {
  if (marks_.empty() || marks_.back() != t) marks_.push_back(t);
}

void PlotHistory::pushPrimary(float t, const sim::Energy& e, float drift, const float* phase) {
  push(t_, t);
  push(kinetic_, static_cast<float>(e.kinetic));
  if (t_.size() == 1) energy_base_ = std::isfinite(e.potential) ? e.potential : 0.0;
  push(potential_, static_cast<float>(e.potential - energy_base_));
  push(total_, static_cast<float>(e.total() - energy_base_));
  push(drift_, drift);
  if (phase) push(phase_q_, phase[0]), push(phase_v_, phase[1]), push(phase_t_, t);
}

void PlotHistory::pushLane(int i, float t, float drift, float distance, float residual) {
  LaneSeries& s = lanes_[static_cast<std::size_t>(i)];
  push(s.t, t);
  push(s.drift, drift);
  push(s.distance, distance);
  push(s.residual, residual);
}

void PlotHistory::rollBackTo(double t) {
  const auto at = static_cast<float>(t);
  popAfter(at, {&t_, &kinetic_, &potential_, &total_, &drift_, &phase_q_, &phase_v_, &phase_t_});
  for (LaneSeries& s : lanes_) popAfter(at, {&s.t, &s.drift, &s.distance, &s.residual});
  while (!marks_.empty() && marks_.back() > at) marks_.pop_back();
  shown_up_to_ = kEverySample;
}

std::size_t PlotHistory::hidden(int i) const {
  const std::vector<float>& times = i < 0 ? t_ : lanes_[static_cast<std::size_t>(i)].t;
  std::size_t n = 0;
  // the samples are float times of the clock: compare in float, so a seek's own sample shows
  const auto shown = static_cast<float>(shown_up_to_);
  while (n < times.size() && times[times.size() - 1 - n] > shown) ++n;
  return n;
}

void PlotHistory::dropOldMarks() {
  while (!marks_.empty() && !t_.empty() && marks_.front() < t_.front())
    marks_.erase(marks_.begin());
}

}  // namespace app
