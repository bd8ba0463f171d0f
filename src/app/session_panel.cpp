// Session::fillPanel: the simulation's part of the panel's model, read from the System, the
// parameter table (the Physics section's controls) and the registry (the integrators and their
// properties on this kind), so that the panel never asks which kind of system it shows.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "app/session.hpp"
#include "scene/catalog.hpp"

namespace app {

namespace {
// "%.3g N s/m", "x%.3g" for a factor, "%.0f" for a count
std::string formatOf(const sim::ParameterInfo& row) {
  if (row.rule == sim::Rule::Whole) return "%.0f";
  if (row.unit.empty()) return "x%.3g";
  return "%.3g " + std::string(row.unit);
}

ui::ParameterControl::Style styleOf(const sim::ParameterInfo& row) {
  if (row.rule == sim::Rule::Vector) return ui::ParameterControl::Style::Direction;
  if (row.rule == sim::Rule::Velocity) return ui::ParameterControl::Style::Heading;
  return ui::ParameterControl::Style::Slider;
}

// the largest value a typed entry may reach, as text: "1000"
std::string typedMax(double hi) {
  return std::to_string(static_cast<long long>(hi));
}
}  // namespace

// An automatic setting's text on its slider: "auto (12)", what lane 0's last step took.
std::string Session::automaticFormat(sim::Parameter p) const {
  const sim::Stepper::Settings used = primary().settingsUsed();
  const int n = p == sim::Parameter::Substeps ? used.substeps : used.iterations;
  return n > 0 ? "auto (" + std::to_string(n) + ")" : "auto";
}

// A row of the parameter table as the panel's control: its range, format, commit and tooltip;
// the iterated methods' settings say what they are for the current integrator.
ui::ParameterControl Session::control(const sim::ParameterInfo& row) const {
  ui::ParameterControl c;
  c.id = static_cast<int>(row.parameter);
  c.style = styleOf(row);
  c.label = std::string(row.label);
  c.format = formatOf(row);
  c.tooltip = std::string(row.tooltip);
  if (!row.unit.empty()) c.tooltip.append(" In ").append(row.unit).append(".");
  const sim::IntegratorInfo& method = sim::info(this->method());
  const std::string_view meaning =
      row.parameter == sim::Parameter::Substeps     ? method.substeps_meaning
      : row.parameter == sim::Parameter::Iterations ? method.iterations_meaning
                                                    : std::string_view();
  if (!meaning.empty())
    c.tooltip = std::string(method.name) + ": " + std::string(meaning) +
                " Ctrl+click to type up to " + typedMax(row.hi) + ".";
  c.lo = row.lo, c.hi = row.hi;
  c.slider_hi = row.slider_hi > 0.0 ? row.slider_hi : row.hi;
  c.logarithmic = row.logarithmic;
  c.live = row.live;
  c.whole = row.rule == sim::Rule::Whole;
  c.value = built().parameter(row.parameter);
  if (row.method_setting && c.value == sim::kAutomatic) c.format = automaticFormat(row.parameter);
  const sim::Vec3 v = built().vectorParameter(row.parameter);
  c.vec = {v.x(), v.y(), v.z()};
  return c;
}

void Session::fillPanel(ui::PanelModel& pm) const {
  fillScene(pm);
  fillEdit(pm);
  pm.integrators.clear();
  for (const sim::Method m : built().integrators())
    pm.integrators.push_back({std::string(sim::info(m).name), built().integratorTooltip(m)});
  pm.integrator = std::string(sim::info(method()).name);
  pm.integrator_iterated = sim::info(method()).iterated;
  pm.dt = dt();
  pm.time_scale = time_scale_;
  pm.paused = paused_;
  fillPhysics(pm);
  pm.sim_time = time();
  fillPlots(pm);
  pm.diverged = divergence().has_value();
  pm.divergence = divergenceSummary();
  if (pm.diverged) {
    // what the view and the plots show: not the state that ran away
    // (docs/integrators.md#runaway-rule)
    char shown[96];
    std::snprintf(shown, sizeof shown, ". Shown: the last checked state, t = %.6g s",
                  primary().shownState().t);
    pm.divergence += shown;
  }
  pm.can_rewind = canRewind();
  refreshLaneOmegas();
  fillLanes(pm);
  // lane 0's limit at its current state: the line follows the motion (a pendulum stiffens as
  // it moves)
  const auto limit = sim::dtLimit(method(), laneOmega(0));
  pm.dt_limit = limit && std::isfinite(*limit) ? *limit : 0.0;
  fillEnergyBars(pm);  // lane 0's ledger among them: one energy pass fewer than asking again
  pm.work_dissipated = pm.energy_bars.front().dissipated;
  pm.work_external = pm.energy_bars.front().grab;
  jobs_.fill(pm);
  pm.stability.scale_parameter = static_cast<int>(sim::Parameter::StiffnessScale);
  pm.stability.scale = stiffnessScale();
}

void Session::refreshLaneOmegas() const {
  const int n = laneCount();
  const bool due = ++omega_fills_ >= kOmegaRefreshFills || lane_omega_.size() != size_t(n);
  lane_omega_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    LaneOmega& c = lane_omega_[static_cast<size_t>(i)];
    const sim::State& s = lanes_[i].state();
    if (!due && s.t >= c.t) continue;  // went back (a seek, a restart): at once
    c = {scene_.omegaAt(lanes_[i].system(), s), s.t};
  }
  if (due) omega_fills_ = 0;
}

double Session::laneOmega(int i) const {
  if (i < 0 || static_cast<size_t>(i) >= lane_omega_.size()) return scene_.omegaAt(state());
  return lane_omega_[static_cast<size_t>(i)].omega;
}

void Session::fillScene(ui::PanelModel& pm) const {
  pm.builtin_scenes = scene::builtinNames();
  pm.scene_name = scene_.name();
  pm.scene_path = scene_.path();
  pm.save_default = savePath();
  const sim::Counts counts = built().counts();
  pm.particles = counts.particles;
  pm.springs = counts.springs;
  pm.links = counts.links;
  pm.dofs = built().dofs();
}

// The controls of the parameters that apply (substeps and iterations only while the integrator
// has them), gravity for the Heading control's basis, the drag for its note.
void Session::fillPhysics(ui::PanelModel& pm) const {
  const bool iterated = sim::info(method()).iterated;
  pm.parameters.clear();
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (!built().has(row.parameter)) continue;
    if (row.method_setting && !iterated) continue;
    pm.parameters.push_back(control(row));
  }
  const sim::Vec3 g = built().gravity();
  for (int k = 0; k < 3; ++k) pm.gravity[k] = g[k];
  pm.drag = built().parameter(sim::Parameter::Drag);
  pm.wind_acts = pm.drag > 0.0 && !built().vectorParameter(sim::Parameter::Wind).isZero();
  pm.grab_stiffness = grab_stiffness_;
}

namespace {
// A series without its last `hidden` samples (those after a seek's time).
std::span<const float> shown(const std::vector<float>& v, std::size_t hidden) {
  return std::span<const float>(v).first(v.size() - std::min(hidden, v.size()));
}
}  // namespace

void Session::fillPlots(ui::PanelModel& pm) const {
  const std::size_t hidden = plots_.hidden();
  pm.energy_time = shown(plots_.time(), hidden);
  pm.kinetic = shown(plots_.kinetic(), hidden);
  pm.potential = shown(plots_.potential(), hidden);
  pm.total = shown(plots_.total(), hidden);
  pm.drift = shown(plots_.drift(), hidden);
  pm.phase_q = shown(plots_.phaseQ(), hidden);
  pm.phase_v = shown(plots_.phaseV(), hidden);
  pm.phase_coordinates.clear();
  const int n = static_cast<int>(state().x.size());
  for (int j = 0; j < n && j < kPhaseCoordinatesListed; ++j)
    pm.phase_coordinates.push_back(built().coordinateName(j));
  pm.phase_coordinate = phase_coordinate_;
  pm.marks.clear();  // those up to the time shown
  for (const float t : plots_.marks())
    if (t <= static_cast<float>(time())) pm.marks.push_back(t);
  pm.drift_label = sim::driftIsRelative(initialEnergy(), scales())
                       ? "|E - E0| / |E0|"
                       : "|E - E0| / S (scene energy scale)";
}

// Lane i's period readout (docs/lab.md#period): none for a lane that diverged.
void Session::fillPeriod(int i, ui::LaneRow& row) const {
  if (lanes_[i].diverged()) return;
  if (const auto p = plots_.period(i)) row.period = p->period, row.crossings = p->crossings;
  if (const auto theory = plots_.theoryPeriod(i, lanes_[i].system())) {
    row.theory_period = *theory;
    if (row.period > 0.0) row.period_error = lab::periodError(row.period, *theory);
  }
}

// Each lane's energies split by source and its ledger, at the state it shows (a diverged lane's
// last checked one), the balance recomputed there so that the bars always add up.
void Session::fillEnergyBars(ui::PanelModel& pm) const {
  pm.energy_bars.clear();
  for (int i = 0; i < laneCount(); ++i) {
    const lab::Lane& lane = lanes_[i];
    const sim::Energy e = lane.shownEnergy();
    const lab::Lane::Ledger ledger = lane.ledger();
    ui::EnergyBars b;
    b.kinetic = e.kinetic, b.gravitational = e.gravitational, b.elastic = e.elastic;
    b.total = e.total();
    b.dissipated = ledger.dissipated, b.grab = ledger.external;
    b.e0 = lane.e0();
    b.error = b.total - b.e0 + b.dissipated - b.grab;  // Lane::ledger's residual, here
    b.diverged = lane.diverged();
    pm.energy_bars.push_back(b);
  }
  pm.energy_scale = primary().scales().energy;
  pm.stopwatch = stopwatch_.elapsed(time());
  pm.stopwatch_running = stopwatch_.running();
}

void Session::fillLanes(ui::PanelModel& pm) const {
  pm.max_lanes = kMaxLanes;
  pm.lanes.clear();
  for (int i = 0; i < laneCount(); ++i) {
    const lab::Lane& lane = lanes_[i];
    const PlotHistory::LaneSeries& series = plots_.lane(i);
    ui::LaneRow row;
    row.integrator = std::string(sim::info(lane.method()).name);
    row.setup = lanes_.setup(i);
    row.dt = lane.dt();
    const auto limit = sim::dtLimit(lane.method(), laneOmega(i));
    row.dt_over_limit = limit && *limit > 0.0 && std::isfinite(*limit) ? row.dt / *limit : 0.0;
    row.diverged = lane.diverged();
    row.diverged_t = row.diverged ? lane.divergence()->t : 0.0;
    row.divergence = summary(lane.divergence());
    const std::size_t hidden = plots_.hidden(i);
    row.time = shown(series.t, hidden);
    row.drift = shown(series.drift, hidden);
    row.distance = shown(series.distance, hidden);
    row.residual = shown(series.residual, hidden);
    fillPeriod(i, row);
    pm.lanes.push_back(std::move(row));
  }
  pm.history_size = static_cast<int>(history_.size());
  pm.history_t0 = history_.size() ? history_.at(0).t : 0.0;
  pm.history_t1 = history_.size() ? history_.at(history_.size() - 1).t : 0.0;
  pm.history_index = history_.indexAtOrBefore(time());
  pm.history_mb = static_cast<double>(history_.bytes()) / (1 << 20);
}

}  // namespace app
