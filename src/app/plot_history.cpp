#include "app/plot_history.hpp"

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
  for (auto* v : {&t_, &kinetic_, &potential_, &total_, &drift_, &phase_q_, &phase_v_}) v->clear();
  lanes_.assign(static_cast<std::size_t>(lanes), LaneSeries{});
  marks_.clear();
  shown_up_to_ = kEverySample;
}

void PlotHistory::mark(float t) {
  if (marks_.empty() || marks_.back() != t) marks_.push_back(t);
  restartPeriods();
}

void PlotHistory::restartPeriods() {
  for (LaneSeries& s : lanes_) s.period = LanePeriod{};
}

void PlotHistory::pushPeriod(int i, const sim::System& system, const sim::State& s, int j) {
  if (j < 0 || j >= s.x.size()) return;
  LanePeriod& p = lanes_[static_cast<std::size_t>(i)].period;
  if (!p.started) {
    // the theory of the motion from here: the lane's own amplitude, before its integrator's error
    // has changed it (a copy only where there is a theory: a system of one or two bodies)
    p.started = true;
    if (lab::theoryPeriod(system, s)) p.from = s;
  }
  p.meter.push(s.t, s.x[j]);
}

std::optional<lab::PeriodReading> PlotHistory::period(int i) const {
  return lanes_[static_cast<std::size_t>(i)].period.meter.reading();
}

std::optional<double> PlotHistory::theoryPeriod(int i, const sim::System& system) const {
  const LanePeriod& p = lanes_[static_cast<std::size_t>(i)].period;
  // on the system as it is now: a dashpot or a grab since then leaves no theory
  return p.from ? lab::theoryPeriod(system, *p.from) : std::nullopt;
}

void PlotHistory::pushPrimary(float t, const sim::Energy& e, float drift, const float* phase) {
  push(t_, t);
  push(kinetic_, static_cast<float>(e.kinetic));
  push(potential_, static_cast<float>(e.potential));
  push(total_, static_cast<float>(e.total()));
  push(drift_, drift);
  if (phase) push(phase_q_, phase[0]), push(phase_v_, phase[1]);
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
  popAfter(at, {&t_, &kinetic_, &potential_, &total_, &drift_, &phase_q_, &phase_v_});
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
