#include "app/lab_jobs.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>

#include "lab/order.hpp"
#include "lab/sweep.hpp"
#include "lab/sweep_map.hpp"
#include "util/png.hpp"

namespace app {

namespace {
// The dt axis reaches this far below and above the limit (or the current dt without one), so
// that the boundary sits inside the map with room on both sides.
constexpr double kBelowLimit = 20.0, kAboveLimit = 4.0, kAroundDt = 30.0;
// The stiffness axis: from the current scale divided by this to the scale times it.
constexpr double kStiffnessSpan = 10.0;

ui::StabilityMapView::Cell cellOf(lab::CellClass c) {
  switch (c) {
    case lab::CellClass::Stable:
      return ui::StabilityMapView::Stable;
    case lab::CellClass::Drifting:
      return ui::StabilityMapView::Drifting;
    case lab::CellClass::Diverged:
      return ui::StabilityMapView::Diverged;
  }
  return ui::StabilityMapView::Pending;
}

lab::SweepSpec mapSpec(const MapRequest& r) {
  lab::SweepSpec spec;
  spec.def = r.def;
  spec.methods = {r.method};
  const bool limited = r.limit_dt > 0.0;
  // the limit at the current stiffness: dt_lim / sqrt(scale)
  const double centre = limited ? r.limit_dt / std::sqrt(r.scale) : r.dt;
  spec.dt = {centre / (limited ? kBelowLimit : kAroundDt),
             centre * (limited ? kAboveLimit : kAroundDt), LabJobs::kMapColumns};
  spec.stiffness = r.scalable ? lab::GridAxis{r.scale / kStiffnessSpan, r.scale * kStiffnessSpan,
                                              LabJobs::kMapRows}
                              : lab::GridAxis{1.0, 1.0, 1};
  spec.seconds = std::min(LabJobs::kMapSeconds, r.def.duration > 0 ? r.def.duration : 1.0);
  if (r.omega > 0.0)
    spec.seconds = std::max(spec.seconds, LabJobs::kMapPeriods * 2.0 * std::numbers::pi / r.omega);
  return spec;
}

// omega_max at stiffness scale 1 (rad/s) that puts the picture's limit line where the panel's is:
// from the panel's limit for a bounded method, else from the current omega_max.
double omegaAtScaleOne(const MapRequest& r) {
  const sim::IntegratorInfo& info = sim::info(r.method);
  if (info.stability == sim::Stability::Bounded && r.limit_dt > 0.0) return info.bound / r.limit_dt;
  return r.omega / std::sqrt(r.scale);
}
}  // namespace

void LabJobs::join(std::thread& t, std::atomic<bool>& cancel) {
  cancel = true;
  if (t.joinable()) t.join();
  cancel = false;
}

void LabJobs::startMap(const MapRequest& r) {
  join(map_thread_, map_cancel_);
  const lab::SweepSpec spec = mapSpec(r);
  {
    std::lock_guard lock(mutex_);
    map_ = ui::StabilityMapView{};
    map_.running = true;
    map_.integrator = std::string(sim::info(r.method).name);
    for (int i = 0; i < spec.dt.n; ++i) map_.dts.push_back(spec.dt.value(i));
    for (int i = 0; i < spec.stiffness.n; ++i) map_.scales.push_back(spec.stiffness.value(i));
    map_.cells.assign(map_.dts.size() * map_.scales.size(), ui::StabilityMapView::Pending);
    map_.limit_dt = r.limit_dt;
    map_spec_ = spec;
    map_cells_.clear();
    map_omega_ = omegaAtScaleOne(r);
  }
  map_thread_ = std::thread([this, spec] {
    const size_t rows = static_cast<size_t>(spec.stiffness.n);
    const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    lab::runSweep(
        spec, 1, 1, threads,
        [&](const lab::CellResult& c) {
          // grid order: dt, then stiffness (one integrator)
          const size_t column = c.index / rows, row = c.index % rows;
          std::lock_guard lock(mutex_);
          map_.cells[row * map_.dts.size() + column] = cellOf(c.cls);
          map_cells_.push_back(c);
          ++map_.done;
        },
        &map_cancel_);
    std::lock_guard lock(mutex_);
    map_.running = false;
  });
}

void LabJobs::cancelMap() {
  join(map_thread_, map_cancel_);
  std::lock_guard lock(mutex_);
  map_.running = false;
}

void LabJobs::startOrders(const scene::SceneDef& def, std::vector<sim::Method> methods, double h) {
  join(order_thread_, order_cancel_);
  {
    std::lock_guard lock(mutex_);
    orders_.clear();
    for (sim::Method m : methods)
      orders_.push_back({std::string(sim::info(m).name), sim::onKind(m, def.kind).order,
                         std::numeric_limits<double>::quiet_NaN(), "measuring"});
    orders_running_ = true;
  }
  order_thread_ = std::thread([this, def, methods, h] {
    const auto results =
        lab::measureOrders(def, methods, h, std::min(def.duration, kOrderSeconds), &order_cancel_);
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < results.size() && i < orders_.size(); ++i)
      orders_[i].observed = results[i].order, orders_[i].note = results[i].note;
    orders_running_ = false;
  });
}

void LabJobs::stopAll() {
  join(map_thread_, map_cancel_);
  join(order_thread_, order_cancel_);
  std::lock_guard lock(mutex_);
  map_ = ui::StabilityMapView{};
  map_cells_.clear();
  orders_.clear();
  orders_running_ = false;
}

std::string LabJobs::mapIntegrator() const {
  std::lock_guard lock(mutex_);
  return map_.integrator;
}

bool LabJobs::saveMap(const std::string& path, std::string* error) {
  std::unique_lock lock(mutex_);
  if (map_.cells.empty()) {
    if (error) *error = "no stability map to save: run one first";
    return false;
  }
  const lab::SweepSpec spec = map_spec_;
  const std::vector<lab::CellResult> cells = map_cells_;
  const double omega = map_omega_;
  lock.unlock();  // drawing and writing take a while: the map's worker goes on meanwhile
  const lab::SweepMap map = lab::drawSweepMap(spec, cells, omega);
  const util::Problem why =
      util::writePng(path, map.image.width(), map.image.height(), map.image.rgba());
  const bool ok = !why;
  lock.lock();
  std::error_code ec;  // the message names the folder too: "here" is rarely obvious in a window
  const std::filesystem::path where = std::filesystem::absolute(path, ec);
  map_.saved = ok ? "saved the map to " + (ec ? path : where.string()) : *why;
  map_.save_failed = !ok;
  if (!ok && error) *error = *why;
  return ok;
}

void LabJobs::fill(ui::JobsView& v) const {
  std::lock_guard lock(mutex_);
  v.stability = map_;
  v.orders = orders_;
  v.orders_running = orders_running_;
}

}  // namespace app
