// Timeline::fill: the panel's view of the clock (the Simulation section and the divergence
// banner), of the lanes and the timeline (the Lab section), and of the plotted series, the energy
// bars and the ledger (the Diagnostics section).
#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "app/timeline.hpp"
#include "sim/diagnostics.hpp"
#include "sim/registry.hpp"
#include "ui/panel.hpp"

namespace app {

namespace {
// A series without its last `hidden` samples (those after a seek's time).
std::span<const float> shown(const std::vector<float>& v, std::size_t hidden) {
  return std::span<const float>(v).first(v.size() - std::min(hidden, v.size()));
}

// The registry's name of a residual ("‖∇G‖ / weights") in the panel font's ASCII:
// "|grad G| / weights".
std::string asciiResidualName(std::string_view name) {
  std::string out(name);
  for (const auto& [from, to] :
       {std::pair<std::string_view, std::string_view>{"‖", "|"}, {"∇", "grad "}, {"−", "-"}})
    for (size_t at = out.find(from); at != std::string::npos; at = out.find(from, at))
      out.replace(at, from.size(), to), at += to.size();
  return out;
}
}  // namespace

void Timeline::fill(ui::ClockView& v) const {
  const scene::Built& b = scene_.built();
  const sim::IntegratorInfo& method = sim::info(primary().method());
  v.integrators.clear();
  for (const sim::Method m : b.integrators())
    v.integrators.push_back({std::string(sim::info(m).name), b.integratorTooltip(m)});
  v.integrator = std::string(method.name);
  v.integrator_iterated = method.iterated;
  v.dt = primary().dt();
  v.time_scale = time_scale_;
  v.paused = paused_;
  v.sim_time = shownLane(0).state().t;  // the replay's frame while it plays
  v.diverged = divergence().has_value();
  v.divergence = summary(divergence());  // drawn: the state it found (lab::Lane::shownState)
  if (const auto& d = divergence()) {
    char head[96];  // 6 significant digits for reading, as summary
    std::snprintf(head, sizeof head, "diverged at t = %.6g s with ", d->t);
    v.divergence_headline = head + std::string(sim::info(d->method).name);
    v.divergence_detail = d->what;
  }
  v.can_rewind = canRewind();
  v.replay_frame = replay_ ? replay_->frame() : -1;
  v.replay_frames = replay_ ? replay_->frames() : 0;
  v.replay_dt = primary().dt();
}

void Timeline::fill(ui::LanesView& v) const {
  v.max_lanes = kMaxLanes;
  v.rows.clear();
  for (int i = 0; i < laneCount(); ++i) {
    const lab::Lane& lane = lanes_[i];
    const PlotHistory::LaneSeries& series = plots_.lane(i);
    ui::LaneRow row;
    row.integrator = std::string(sim::info(lane.method()).name);
    row.setup = lanes_.setup(i);
    row.dt = lane.dt();
    row.diverged = lane.diverged();
    row.diverged_t = row.diverged ? lane.divergence()->t : 0.0;
    row.divergence = summary(lane.divergence());
    const std::size_t hidden = plots_.hidden(i);
    row.time = shown(series.t, hidden);
    row.drift = shown(series.drift, hidden);
    row.distance = shown(series.distance, hidden);
    row.residual = shown(series.residual, hidden);
    row.step_residual = lane.lastResidual();
    row.step_residual_name = asciiResidualName(sim::info(lane.method()).residual);
    v.rows.push_back(std::move(row));
  }
  v.history_size = static_cast<int>(history_.size());
  v.history_t0 = history_.size() ? history_.at(0).t : 0.0;
  v.history_t1 = history_.size() ? history_.at(history_.size() - 1).t : 0.0;
  v.history_index = history_.indexAtOrBefore(time());
  v.history_mb = static_cast<double>(history_.bytes()) / (1 << 20);
}

namespace {
// Each lane's energies split by source and its ledger, at the state it shows (a diverged lane's
// last checked one), the balance recomputed there so that the bars always add up.
ui::EnergyBars energyBars(const lab::Lane& lane) {
  const sim::Energy e = lane.shownEnergy();
  const lab::Lane::Ledger ledger = lane.ledger();
  ui::EnergyBars b;
  b.kinetic = e.kinetic, b.gravitational = e.gravitational, b.elastic = e.elastic;
  b.total = e.total();
  b.dissipated = ledger.dissipated, b.grab = ledger.external, b.contacts = ledger.contacts;
  b.e0 = lane.e0();
  b.error = b.total - b.e0 + b.dissipated + b.contacts - b.grab;  // Lane::ledger's residual, here
  b.diverged = lane.diverged();
  return b;
}
}  // namespace

void Timeline::fill(ui::PlotsView& v) const {
  const std::size_t hidden = plots_.hidden();
  v.energy_time = shown(plots_.time(), hidden);
  v.kinetic = shown(plots_.kinetic(), hidden);
  v.potential = shown(plots_.potential(), hidden);
  v.total = shown(plots_.total(), hidden);
  v.energy_base = plots_.energyBase();
  v.drift = shown(plots_.drift(), hidden);
  v.phase_q = shown(plots_.phaseQ(), hidden);
  v.phase_v = shown(plots_.phaseV(), hidden);
  v.phase_t = shown(plots_.phaseT(), hidden);
  v.phase_coordinates.clear();
  const int n = static_cast<int>(primary().state().x.size());
  for (int j = 0; j < n && j < kPhaseCoordinatesListed; ++j)
    v.phase_coordinates.push_back(scene_.built().coordinateName(j));
  v.phase_coordinate = phase_coordinate_;
  v.marks.clear();  // those up to the time shown
  for (const float t : plots_.marks())
    if (t <= static_cast<float>(time())) v.marks.push_back(t);
  v.drift_label = sim::driftIsRelative(primary().e0(), primary().scales())
                      ? "|E - E0| / |E0|"
                      : "|E - E0| / S (scene energy scale)";
  // lane 0's ledger among the bars: one energy pass fewer than asking again
  v.energy_bars.clear();
  for (int i = 0; i < laneCount(); ++i) v.energy_bars.push_back(energyBars(shownLane(i)));
  v.energy_scale = primary().scales().energy;
  const sim::MassSpringModel* model = scene_.built().massSpring();
  v.contacts = model && (!model->colliders.empty() || model->self_thickness > 0.0);
  v.work_dissipated = v.energy_bars.front().dissipated;
  v.work_external = v.energy_bars.front().grab;
  v.work_contacts = v.energy_bars.front().contacts;
}

}  // namespace app
