// The panel's background lab work (docs/lab.md#stability-limits-the-map-and-orders): a stability
// map of the current scene and the measured orders, on worker threads that never block a frame.
// Each job works on its own copy of the scene; the panel reads the results under a lock, as they
// fill. A new job, a new scene or the end of the session cancels the running one.
#pragma once

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "lab/sweep.hpp"
#include "scene/scene_def.hpp"
#include "sim/registry.hpp"
#include "ui/panel.hpp"

namespace app {

// What the map sweeps: the scene as it is now, lane 0's integrator around its dt and stiffness.
struct MapRequest {
  scene::SceneDef def;  // the current parameters written into it
  sim::Method method;
  double dt = 0.0;        // s, lane 0's
  double scale = 1.0;     // the current stiffness scale
  double limit_dt = 0.0;  // s, the integrator's limit at scale 1 (0: none known)
  double omega = 0.0;     // rad/s, omega_max at the current stiffness (0: unknown)
  bool scalable = true;   // the stiffness scale applies (a row per scale; else one row at 1)
};

class LabJobs {
 public:
  LabJobs() = default;
  LabJobs(const LabJobs&) = delete;
  LabJobs& operator=(const LabJobs&) = delete;
  ~LabJobs() { stopAll(); }

  void startMap(const MapRequest& r);
  void cancelMap();
  void startOrders(const scene::SceneDef& def, std::vector<sim::Method> methods, double h);
  void stopAll();  // cancels both and forgets their results (a new scene)
  // The map as it is (cells not run yet drawn so) into a PNG at `path`, atomically
  // (lab/sweep_map.hpp); false with *error set ("no stability map to save", or the writer's).
  // Either way the panel says what happened under the map.
  bool saveMap(const std::string& path, std::string* error);
  std::string mapIntegrator() const;  // the integrator of the map, or empty
  // The panel's view of the map and the orders.
  void fill(ui::JobsView& v) const;

  // The map's grid: kMapColumns values of dt, kMapRows of stiffness scale (1 for a pendulum),
  // each run for kMapSeconds of simulated time (or the scene's duration if shorter), or for
  // kMapPeriods periods of the fastest oscillation if that is longer: an instability needs a few
  // dozen steps to show, and near the limit a step is a third of a period.
  static constexpr int kMapColumns = 24, kMapRows = 12;
  static constexpr double kMapSeconds = 1.0;
  static constexpr double kMapPeriods = 50.0;
  // The orders are measured over at most this much simulated time: long enough for the error to
  // dominate round-off, short enough that chaos (a double pendulum) has not amplified it.
  static constexpr double kOrderSeconds = 1.0;

 private:
  void join(std::thread& t, std::atomic<bool>& cancel);
  mutable std::mutex mutex_;  // guards map_, orders_, orders_running_
  ui::StabilityMapView map_;
  // what the map's picture is drawn from: its sweep, the cells so far, omega_max at stiffness 1
  lab::SweepSpec map_spec_;
  std::vector<lab::CellResult> map_cells_;
  double map_omega_ = 0.0;  // rad/s
  std::vector<ui::OrderRow> orders_;
  bool orders_running_ = false;
  std::thread map_thread_, order_thread_;
  std::atomic<bool> map_cancel_{false}, order_cancel_{false};
};

}  // namespace app
