#include "app/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scene/build.hpp"
#include "scene/catalog.hpp"
#include "scene/load.hpp"
#include "sim/spectrum.hpp"
#include "sim/xpbd.hpp"

namespace app {

namespace {
constexpr size_t kHistory = 600;  // samples kept for the plots (10 s at 60 frames/s)

template <class T>
void push(std::vector<T>& v, T x) {
  if (v.size() >= kHistory) v.erase(v.begin(), v.begin() + (v.size() - kHistory + 1));
  v.push_back(x);
}

bool finite(double v) {
  return std::isfinite(v);
}
}  // namespace

Session::Session() : history_(kHistoryBudget, kHistorySpacing) {}

void Session::load(const std::string& sceneArg) {
  const scene::SceneDef def = scene::loadSceneArg(sceneArg);  // throws: the old scene stays
  const bool builtin = scene::findBuiltin(sceneArg) != nullptr;
  loadDef(def, def.name.empty() ? sceneArg : def.name, builtin ? std::string() : sceneArg);
  arg_ = sceneArg;
}

void Session::loadDef(const scene::SceneDef& def, const std::string& name,
                      const std::string& path) {
  def_ = def;
  name_ = name;
  path_ = path;
  lanes_.clear();  // before the system they reference goes
  built_ = std::make_unique<scene::Built>(scene::build(def_));
  loaded_system_ = std::make_unique<sim::System>(*built_);
  jobs_.stopAll();
  omega0_ = built_->omegaMax(built_->state);
  lanes_.emplace_back(*built_, built_->state, def_.integrator, def_.dt);
  restart(built_->state);
  phase_coordinate_ = built_->defaultPhaseCoordinate(kPhaseCoordinatesListed);
}

void Session::setEvents(std::vector<lab::Event> events) {
  events_ = lab::EventSchedule(std::move(events));
}

void Session::restart(const sim::State& s) {
  if (!events_.empty()) {
    // the events replay from the start: the parameters go back to those at load
    built_->restore(*loaded_system_);
    events_.rewindTo(s.t);
  }
  for (auto& slot : lanes_) slot.lane.restart(s);
  steps_ = 0;
  clock_t_ = s.t;
  history_.clear();
  keepState();
  clearHistory();
}

void Session::clearHistory() {
  for (auto* v : {&hist_t_, &hist_k_, &hist_p_, &hist_e_, &hist_drift_, &phase_q_, &phase_v_})
    v->clear();
  for (auto& slot : lanes_)
    for (auto* v : {&slot.t, &slot.drift, &slot.distance, &slot.residual}) v->clear();
  marks_.clear();
  last_sample_t_ = -1.0;
}

void Session::reanchor() {
  for (auto& slot : lanes_) slot.lane.reanchor();
  const auto t = static_cast<float>(clock_t_);
  if (marks_.empty() || marks_.back() != t) marks_.push_back(t);
}

bool Session::anyLaneAlive() const {
  for (const auto& slot : lanes_)
    if (!slot.lane.diverged()) return true;
  return false;
}

void Session::applyDueEvents() {
  if (events_.empty()) return;
  std::vector<lab::Lane*> lanes;
  for (auto& slot : lanes_) lanes.push_back(&slot.lane);
  if (events_.applyDue(clock_t_, *built_, lanes).conservative) reanchor();
}

void Session::bringLanesTo(double t) {
  // lane i's step nearest in time: step while the next one ends nearer to t than this one
  for (size_t i = 1; i < lanes_.size(); ++i) {
    lab::Lane& lane = lanes_[i].lane;
    while (!lane.diverged() && lane.state().t + 0.5 * lane.dt() <= t) lane.step();
  }
}

bool Session::stepOnce() {
  if (!anyLaneAlive()) return false;
  applyDueEvents();
  lab::Lane& lane0 = lanes_.front().lane;
  if (!lane0.diverged()) {
    lane0.step();
    clock_t_ = lane0.state().t;
  } else {
    clock_t_ += lane0.dt();  // lane 0 is frozen; its clock goes on for the others
  }
  bringLanesTo(clock_t_);
  ++steps_;
  if (!anyLaneAlive()) {
    paused_ = true;  // every lane diverged: pause; never a silent reset
    return false;
  }
  keepState();
  return true;
}

void Session::keepState() {
  if (!history_.due(clock_t_)) return;
  lab::History::Entry e;
  for (const auto& slot : lanes_) e.lanes.push_back(slot.lane.checkpoint());
  e.steps = steps_;
  e.t = clock_t_;
  history_.push(std::move(e));
}

void Session::seek(int entry) {
  const lab::History::Entry& e = history_.at(static_cast<size_t>(entry));
  for (size_t i = 0; i < lanes_.size(); ++i)
    // a lane added after that moment starts there from lane 0's state
    lanes_[i].lane.seek(i < e.lanes.size() ? e.lanes[i] : e.lanes.front());
  steps_ = e.steps;
  clock_t_ = e.t;
  events_.rewindTo(e.t);
  history_.dropAfter(e.t);  // stepping on from here writes a new future
  paused_ = true;
  // the plots go back with the state
  while (!hist_t_.empty() && hist_t_.back() > e.t)
    for (auto* v : {&hist_t_, &hist_k_, &hist_p_, &hist_e_, &hist_drift_, &phase_q_, &phase_v_})
      if (!v->empty()) v->pop_back();
  for (auto& slot : lanes_)
    while (!slot.t.empty() && slot.t.back() > e.t)
      for (auto* v : {&slot.t, &slot.drift, &slot.distance, &slot.residual})
        if (!v->empty()) v->pop_back();
  while (!marks_.empty() && marks_.back() > e.t) marks_.pop_back();
  last_sample_t_ = -1.0;
}

void Session::rewind() {
  // the newest kept state at least kRewindBack before the divergence, else the oldest kept
  seek(history_.indexAtOrBefore(divergence()->t - kRewindBack));
}

void Session::setGrab(int body, const sim::Vec3& target) {
  const int before = grabbed();
  built_->setGrab(body, target, grab_stiffness_);
  if (grabbed() != before) reanchor();
}

namespace {
// "what: out of range" / "what: not a finite number", or empty when lo <= v <= hi
std::string rangeError(double v, double lo, double hi, const char* what) {
  if (!finite(v)) return std::string(what).append(": not a finite number");
  if (v < lo || v > hi) return std::string(what).append(": out of range");
  return {};
}
}  // namespace

bool Session::apply(const ui::Command& c, std::string* message, bool* handled) {
  if (handled) *handled = true;
  std::string why;
  for (auto family : {&Session::applyClock, &Session::applyLanes, &Session::applyLifecycle,
                      &Session::applyPhysics, &Session::applyGrabAndPlots, &Session::applyJobs}) {
    const Outcome o = (this->*family)(c, why);
    if (o == Outcome::NotMine) continue;
    if (o == Outcome::Rejected && message) *message = why;
    return o == Outcome::Applied;
  }
  if (handled) *handled = false;  // visual-only: the app's
  return true;
}

std::vector<lab::Lane*> Session::targetLanes(const ui::Command& c, std::string& why) {
  std::vector<lab::Lane*> out;
  if (c.lane == -1)
    for (auto& slot : lanes_) out.push_back(&slot.lane);
  else if (c.lane >= 0 && c.lane < laneCount())
    out.push_back(&lanes_[static_cast<size_t>(c.lane)].lane);
  else
    why = "lane " + std::to_string(c.lane) + ": no such lane";
  return out;
}

// integrator, dt, time scale, pause, single steps
Session::Outcome Session::applyClock(const ui::Command& c, std::string& why) {
  using K = ui::Command::Kind;
  using L = ui::Limits;
  switch (c.kind) {
    case K::SetIntegrator: {
      const auto lookup = built_->lookupIntegrator(c.text);
      if (!lookup.method) return why = lookup.error, Outcome::Rejected;
      const auto lanes = targetLanes(c, why);
      for (lab::Lane* lane : lanes) lane->setMethod(*lookup.method);
      return lanes.empty() ? Outcome::Rejected : Outcome::Applied;
    }
    case K::SetDt: {
      why = rangeError(c.value, L::kDtMin, L::kDtMax, "dt");
      if (!why.empty()) return Outcome::Rejected;
      const auto lanes = targetLanes(c, why);
      for (lab::Lane* lane : lanes) lane->setDt(c.value);  // time_fe refactorises once
      return lanes.empty() ? Outcome::Rejected : Outcome::Applied;
    }
    case K::SetTimeScale:
      why = rangeError(c.value, L::kTimeScaleMin, L::kTimeScaleMax, "time scale");
      if (!why.empty()) return Outcome::Rejected;
      time_scale_ = c.value;
      return Outcome::Applied;
    case K::SetPaused:
      paused_ = c.value != 0.0;
      return Outcome::Applied;
    case K::Step:
      if (c.count < 1 || c.count > L::kStepCountMax)
        return why = "step count: out of range", Outcome::Rejected;
      paused_ = true;
      for (int i = 0; i < c.count; ++i)
        if (!stepOnce()) break;
      return Outcome::Applied;
    default:
      return Outcome::NotMine;
  }
}

bool Session::addLane(int source, const std::string& integrator, double dt, std::string& why) {
  if (laneCount() >= kMaxLanes)
    return why = "lanes: at most " + std::to_string(kMaxLanes) + " on screen", false;
  if (source < 0 || source >= laneCount())
    return why = "lane " + std::to_string(source) + ": no such lane", false;
  const auto lookup = built_->lookupIntegrator(integrator);
  if (!lookup.method) return why = lookup.error, false;
  why = rangeError(dt, ui::Limits::kDtMin, ui::Limits::kDtMax, "dt");
  if (!why.empty()) return false;
  const lab::Lane& from = lane(source);
  lanes_.emplace_back(*built_, from.state(), *lookup.method, dt);
  lanes_.back().lane.copyAnchor(from);  // drifts measured from the same E0 compare
  return true;
}

// lanes: add, branch, remove; the timeline
Session::Outcome Session::applyLanes(const ui::Command& c, std::string& why) {
  using K = ui::Command::Kind;
  switch (c.kind) {
    case K::AddLane:  // from lane 0's current state: every lane starts from the same state
      return addLane(0, c.text, c.value, why) ? Outcome::Applied : Outcome::Rejected;
    case K::BranchLane:
      return addLane(c.lane, c.text, c.value, why) ? Outcome::Applied : Outcome::Rejected;
    case K::RemoveLane:
      if (c.lane < 1 || c.lane >= laneCount())
        return why = "lane " + std::to_string(c.lane) + ": not a lane that can go (lane 0 stays)",
               Outcome::Rejected;
      lanes_.erase(lanes_.begin() + c.lane);
      return Outcome::Applied;
    case K::SeekHistory:
      if (c.count < 0 || static_cast<size_t>(c.count) >= history_.size())
        return why = "timeline: no such state", Outcome::Rejected;
      seek(c.count);
      return Outcome::Applied;
    default:
      return Outcome::NotMine;
  }
}

// reset, rewind, load, reload
Session::Outcome Session::applyLifecycle(const ui::Command& c, std::string& why) {
  using K = ui::Command::Kind;
  try {
    switch (c.kind) {
      case K::Reset:
        restart(built_->state);
        return Outcome::Applied;
      case K::Rewind:
        if (!canRewind()) return why = "rewind: no divergence to go back from", Outcome::Rejected;
        rewind();
        return Outcome::Applied;
      case K::LoadBuiltin:
      case K::LoadFile:
        load(c.text);
        return Outcome::Applied;
      case K::Reload:  // the file again (a built-in scene: its definition again)
        if (!path_.empty()) {
          const auto def = scene::loadFile(path_);
          loadDef(def, def.name.empty() ? path_ : def.name, path_);
        } else {
          loadDef(def_, name_, path_);
        }
        return Outcome::Applied;
      default:
        return Outcome::NotMine;
    }
  } catch (const scene::Error& e) {
    why = e.what();  // the previous scene stays
    return Outcome::Rejected;
  }
}

namespace {
static_assert(ui::Limits::kSubstepsMax == sim::kMaxSubsteps &&
              ui::Limits::kIterationsMax == sim::kMaxIterations);

// The physics parameters a command sets, and its name in messages.
struct PhysicsParameter {
  sim::Parameter parameter;
  const char* what;
  double lo, hi;
};
std::optional<PhysicsParameter> physicsParameter(ui::Command::Kind k) {
  using K = ui::Command::Kind;
  using L = ui::Limits;
  using P = sim::Parameter;
  switch (k) {
    case K::SetStiffnessScale:
      return PhysicsParameter{P::StiffnessScale, "stiffness scale", L::kStiffnessScaleMin,
                              L::kStiffnessScaleMax};
    case K::SetSpringDamping:
      return PhysicsParameter{P::SpringDamping, "spring damping", 0.0, L::kDampingMax};
    case K::SetDrag:
      return PhysicsParameter{P::Drag, "drag", 0.0, L::kDragMax};
    case K::SetJointDamping:
      return PhysicsParameter{P::JointDamping, "joint damping", 0.0, L::kJointDampingMax};
    case K::SetSubsteps:
      return PhysicsParameter{P::Substeps, "substeps", 1.0, L::kSubstepsMax};
    case K::SetIterations:
      return PhysicsParameter{P::Iterations, "iterations", 1.0, L::kIterationsMax};
    default:
      return std::nullopt;
  }
}
}  // namespace

// the System's parameters, shared by every lane; the conservative ones (k, gravity) re-anchor
// the energy drift
Session::Outcome Session::applyPhysics(const ui::Command& c, std::string& why) {
  if (c.kind == ui::Command::Kind::SetGravity) {
    const sim::Vec3 g(c.vec[0], c.vec[1], c.vec[2]);
    if (!g.allFinite()) return why = "gravity: not a finite vector", Outcome::Rejected;
    if (g.norm() > ui::Limits::kGravityMax) return why = "gravity: out of range", Outcome::Rejected;
    built_->setParameter(sim::Parameter::Gravity, 0.0, g);
    reanchor();
    return Outcome::Applied;
  }
  if (c.kind == ui::Command::Kind::SetWind) {
    if (auto bad = built_->setParameter(sim::Parameter::Wind, 0.0, {c.vec[0], c.vec[1], c.vec[2]}))
      return why = "wind: " + *bad, Outcome::Rejected;
    return Outcome::Applied;  // the wind's work is in the ledger with the drag's: no re-anchor
  }
  const auto p = physicsParameter(c.kind);
  if (!p) return Outcome::NotMine;
  why = rangeError(c.value, p->lo, p->hi, p->what);
  if (!why.empty()) return Outcome::Rejected;
  if (auto bad = built_->setParameter(p->parameter, c.value))
    return why = std::string(p->what) + ": " + *bad, Outcome::Rejected;
  if (sim::parameterInfo(p->parameter).conservative) reanchor();
  return Outcome::Applied;
}

// the mouse spring's stiffness, the phase plot's coordinate
Session::Outcome Session::applyGrabAndPlots(const ui::Command& c, std::string& why) {
  using K = ui::Command::Kind;
  using L = ui::Limits;
  switch (c.kind) {
    case K::SetGrabStiffness:
      why = rangeError(c.value, L::kGrabStiffnessMin, L::kGrabStiffnessMax, "grab stiffness");
      if (!why.empty()) return Outcome::Rejected;
      grab_stiffness_ = c.value;
      if (built_->grabbed() >= 0) setGrab(built_->grabbed(), built_->grabTarget());
      return Outcome::Applied;
    case K::SetPhaseCoordinate: {
      const int n = static_cast<int>(state().x.size());
      if (c.count < 0 || c.count >= n)
        return why = "phase coordinate: out of range", Outcome::Rejected;
      phase_coordinate_ = c.count;
      phase_q_.clear(), phase_v_.clear();
      return Outcome::Applied;
    }
    default:
      return Outcome::NotMine;
  }
}

double Session::omegaMax() const {
  return omega0_ * built_->omegaRatio(*loaded_system_);
}

std::optional<double> Session::dtLimit(sim::Method m) const {
  return sim::dtLimit(m, omegaMax());
}

scene::SceneDef Session::currentDef() const {
  scene::SceneDef d = scene::withParameters(def_, *built_);
  d.integrator = method();
  d.dt = dt();
  return d;
}

// the stability map and the orders: background jobs on the scene as it is now
Session::Outcome Session::applyJobs(const ui::Command& c, std::string& why) {
  using K = ui::Command::Kind;
  switch (c.kind) {
    case K::RunStabilityMap: {
      const auto limit = sim::dtLimit(method(), omegaMax() / std::sqrt(stiffnessScale()));
      jobs_.startMap({currentDef(), method(), dt(), stiffnessScale(),
                      limit && std::isfinite(*limit) ? *limit : 0.0, omegaMax(),
                      built_->has(sim::Parameter::StiffnessScale)});
      return Outcome::Applied;
    }
    case K::CancelStabilityMap:
      jobs_.cancelMap();
      return Outcome::Applied;
    case K::MeasureOrder: {
      jobs_.startOrders(currentDef(), built_->integrators(), dt());
      return Outcome::Applied;
    }
    default:
      (void)why;
      return Outcome::NotMine;
  }
}

void Session::sample() {
  if (clock_t_ == last_sample_t_) return;  // nothing moved (paused): the plots hold still
  last_sample_t_ = clock_t_;
  // the primary's energy once a frame: its runaway check, the plots and its drift
  const sim::Energy e = energy();
  for (auto& slot : lanes_) slot.lane.checkRunaway(&slot == &lanes_.front() ? &e : nullptr);
  if (!anyLaneAlive()) paused_ = true;
  push(hist_t_, static_cast<float>(clock_t_));
  push(hist_k_, static_cast<float>(e.kinetic));
  push(hist_p_, static_cast<float>(e.potential));
  push(hist_e_, static_cast<float>(e.total()));
  push(hist_drift_, static_cast<float>(std::abs(primary().driftAt(e))));
  const int j = std::min<int>(phase_coordinate_, static_cast<int>(state().x.size()) - 1);
  if (j >= 0) {
    push(phase_q_, static_cast<float>(state().x[j]));
    push(phase_v_, static_cast<float>(state().v[j]));
  }
  Eigen::VectorXd primaryPositions;
  built_->positions(state(), primaryPositions);
  for (auto& slot : lanes_) sampleLane(slot, primaryPositions);
  // marks older than the plotted history have scrolled out
  while (!marks_.empty() && marks_.front() < hist_t_.front()) marks_.erase(marks_.begin());
}

// One lane's drift and distance from lane 0 (frozen where it diverged).
void Session::sampleLane(LaneSlot& slot, const Eigen::VectorXd& primaryPositions) {
  Eigen::VectorXd x;
  built_->positions(slot.lane.state(), x);
  double distance = 0.0;
  for (Eigen::Index i = 0; i + 2 < x.size(); i += 3)
    distance = std::max(distance, (x.segment<3>(i) - primaryPositions.segment<3>(i)).norm());
  push(slot.t, static_cast<float>(clock_t_));
  push(slot.drift, static_cast<float>(std::abs(slot.lane.drift())));
  push(slot.distance, static_cast<float>(distance));
  // the ledger's balance relative to the drift's reference: the method's own energy error
  const double residual = slot.lane.ledger().residual;
  push(slot.residual, static_cast<float>(std::abs(residual) /
                                         sim::driftReference(slot.lane.e0(), slot.lane.scales())));
}

std::string Session::summary(const std::optional<sim::Divergence>& d) {
  if (!d) return {};
  // 6 significant digits for reading; `run` prints %.17g (Divergence::message) for CSV matching
  char t[32];
  std::snprintf(t, sizeof t, "%.6g", d->t);
  std::string out = "diverged at t = ";
  out.append(t).append(" s with ").append(sim::info(d->method).name);
  return out.append(": ").append(d->what);
}

void Session::fillPanel(ui::PanelModel& pm) const {
  pm.builtin_scenes = scene::builtinNames();
  pm.scene_name = name_;
  pm.scene_path = path_;
  pm.pendulum = !built_->has(sim::Parameter::StiffnessScale);
  const sim::Counts counts = built_->counts();
  pm.particles = counts.particles;
  pm.springs = counts.springs;
  pm.links = counts.links;
  pm.dofs = built_->dofs();
  pm.integrators.clear();
  for (const sim::Method m : built_->integrators())
    pm.integrators.push_back({std::string(sim::info(m).name), built_->integratorTooltip(m)});
  pm.integrator = std::string(sim::info(method()).name);
  pm.dt = dt();
  pm.time_scale = time_scale_;
  pm.paused = paused_;
  pm.stiffness_scale = stiffnessScale();
  pm.spring_damping = springDamping();
  pm.drag = built_->parameter(sim::Parameter::Drag);
  pm.substeps = static_cast<int>(built_->parameter(sim::Parameter::Substeps));
  pm.iterations = static_cast<int>(built_->parameter(sim::Parameter::Iterations));
  const sim::Vec3 g = built_->gravity(), wind = built_->vectorParameter(sim::Parameter::Wind);
  for (int k = 0; k < 3; ++k) pm.gravity[k] = g[k], pm.wind[k] = wind[k];
  pm.joint_damping = built_->parameter(sim::Parameter::JointDamping);
  pm.grab_stiffness = grab_stiffness_;
  pm.sim_time = clock_t_;
  pm.energy_time = hist_t_;
  pm.kinetic = hist_k_;
  pm.potential = hist_p_;
  pm.total = hist_e_;
  pm.drift = hist_drift_;
  pm.phase_q = phase_q_;
  pm.phase_v = phase_v_;
  pm.phase_coordinates.clear();
  const int n = static_cast<int>(state().x.size());
  for (int j = 0; j < n && j < kPhaseCoordinatesListed; ++j)
    pm.phase_coordinates.push_back(built_->coordinateName(j));
  pm.phase_coordinate = phase_coordinate_;
  pm.diverged = divergence().has_value();
  pm.divergence = divergenceSummary();
  pm.can_rewind = canRewind();
  pm.marks = marks_;
  pm.drift_label = sim::driftIsRelative(initialEnergy(), scales())
                       ? "|E - E0| / |E0|"
                       : "|E - E0| / S (scene energy scale)";
  fillLanes(pm);
  const auto limit = dtLimit(method());
  pm.dt_limit = limit && std::isfinite(*limit) ? *limit : 0.0;
  const lab::Lane::Ledger ledger = primary().ledger();
  pm.work_dissipated = ledger.dissipated;
  pm.work_external = ledger.external;
  jobs_.fill(pm);
}

void Session::fillLanes(ui::PanelModel& pm) const {
  pm.max_lanes = kMaxLanes;
  pm.lanes.clear();
  for (const auto& slot : lanes_) {
    ui::LaneRow row;
    row.integrator = std::string(sim::info(slot.lane.method()).name);
    row.dt = slot.lane.dt();
    const auto limit = dtLimit(slot.lane.method());
    row.dt_over_limit = limit && *limit > 0.0 && std::isfinite(*limit) ? row.dt / *limit : 0.0;
    row.diverged = slot.lane.diverged();
    row.diverged_t = row.diverged ? slot.lane.divergence()->t : 0.0;
    row.divergence = summary(slot.lane.divergence());
    row.time = slot.t;
    row.drift = slot.drift;
    row.distance = slot.distance;
    row.residual = slot.residual;
    pm.lanes.push_back(std::move(row));
  }
  pm.history_size = static_cast<int>(history_.size());
  pm.history_t0 = history_.size() ? history_.at(0).t : 0.0;
  pm.history_t1 = history_.size() ? history_.at(history_.size() - 1).t : 0.0;
  pm.history_mb = static_cast<double>(history_.bytes()) / (1 << 20);
}

}  // namespace app
