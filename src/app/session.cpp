#include "app/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scene/catalog.hpp"
#include "scene/load.hpp"

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
  built_ = std::make_unique<scene::Built>(scene::build(def_));
  base_stiffness_ = built_->mass_spring.stiffness;
  stiffness_scale_ = 1.0;
  spring_damping_ =
      built_->mass_spring.damping.size() ? built_->mass_spring.damping.maxCoeff() : 0.0;
  rebuildStepper(def_.integrator, def_.dt, built_->state);
  restart(built_->state);
  // the phase plot starts on the last moving body's first coordinate among those the panel
  // lists (a cloth's last rows move most)
  phase_coordinate_ = 0;
  if (built_->kind == sim::SystemKind::MassSpring)
    for (int i = built_->mass_spring.particles() - 1; i >= 0; --i)
      if (!built_->mass_spring.fixed(i) && 3 * i < kPhaseCoordinatesListed) {
        phase_coordinate_ = 3 * i;
        break;
      }
}

void Session::rebuildStepper(sim::Method m, double h, const sim::State& s) {
  stepper_ = built_->stepper(m, h, s);
}

void Session::restart(const sim::State& s) {
  divergence_.reset();
  steps_ = 0;
  rebuildStepper(stepper_->method(), stepper_->dt(), s);
  e0_ = built_->energy(s).total();
  scales_ = built_->scales();
  snapshots_.assign(1, {s, 0});
  clearHistory();
}

void Session::clearHistory() {
  for (auto* v : {&hist_t_, &hist_k_, &hist_p_, &hist_e_, &hist_drift_, &phase_q_, &phase_v_})
    v->clear();
  marks_.clear();
  last_sample_t_ = -1.0;
}

void Session::reanchor() {
  e0_ = energy().total();
  scales_ = built_->kind == sim::SystemKind::Pendulum
                ? sim::sceneScales(built_->pendulum, state())
                : sim::sceneScales(built_->mass_spring, state());
  const auto t = static_cast<float>(state().t);
  if (marks_.empty() || marks_.back() != t) marks_.push_back(t);
}

bool Session::stepOnce() {
  if (divergence_) return false;
  if (auto d = stepper_->advance()) {
    divergence_ = *d;
    paused_ = true;  // divergence pauses the simulation; never a silent reset
    return false;
  }
  ++steps_;
  if (snapshots_.empty() || state().t >= snapshots_.back().state.t + kSnapshotInterval) {
    if (snapshots_.size() >= kSnapshots) snapshots_.pop_front();
    snapshots_.push_back({state(), steps_});
  }
  return true;
}

void Session::rewind() {
  // the newest snapshot at least kRewindBack before the divergence, else the oldest kept
  const double before = divergence_->t - kRewindBack;
  while (snapshots_.size() > 1 && snapshots_.back().state.t > before) snapshots_.pop_back();
  const Snapshot& snap = snapshots_.back();
  rebuildStepper(stepper_->method(), stepper_->dt(), snap.state);
  steps_ = snap.steps;
  divergence_.reset();
  paused_ = true;
  // the plots go back with the state
  while (!hist_t_.empty() && hist_t_.back() > snap.state.t)
    for (auto* v : {&hist_t_, &hist_k_, &hist_p_, &hist_e_, &hist_drift_, &phase_q_, &phase_v_})
      if (!v->empty()) v->pop_back();
  while (!marks_.empty() && marks_.back() > snap.state.t) marks_.pop_back();
  last_sample_t_ = -1.0;
}

void Session::setGrab(int body, const sim::Vec3& target) {
  const int before = grabbed();
  const int n = built_->bodies();
  const int b = body >= 0 && body < n ? body : -1;
  if (built_->kind == sim::SystemKind::Pendulum) {
    auto& p = built_->pendulum;
    p.grab = b, p.grab_target = target, p.grab_stiffness = grab_stiffness_;
  } else {
    auto& m = built_->mass_spring;
    m.grab = b >= 0 && !m.fixed(b) ? b : -1;
    m.grab_target = target, m.grab_stiffness = grab_stiffness_;
  }
  if (grabbed() != before) reanchor();
}

int Session::grabbed() const {
  return built_->kind == sim::SystemKind::Pendulum ? built_->pendulum.grab
                                                   : built_->mass_spring.grab;
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
  for (auto family : {&Session::applyClock, &Session::applyLifecycle, &Session::applyPhysics,
                      &Session::applyGrabAndPlots}) {
    const Outcome o = (this->*family)(c, why);
    if (o == Outcome::NotMine) continue;
    if (o == Outcome::Rejected && message) *message = why;
    return o == Outcome::Applied;
  }
  if (handled) *handled = false;  // visual-only: the app's
  return true;
}

// integrator, dt, time scale, pause, single steps
Session::Outcome Session::applyClock(const ui::Command& c, std::string& why) {
  using K = ui::Command::Kind;
  using L = ui::Limits;
  switch (c.kind) {
    case K::SetIntegrator: {
      const auto lookup = sim::lookupIntegrator(c.text, built_->kind);
      if (!lookup.method) return why = lookup.error, Outcome::Rejected;
      stepper_->setMethod(*lookup.method);
      return Outcome::Applied;
    }
    case K::SetDt:
      why = rangeError(c.value, L::kDtMin, L::kDtMax, "dt");
      if (!why.empty()) return Outcome::Rejected;
      stepper_->setDt(c.value);  // time_fe refactorises on its next step, once
      return Outcome::Applied;
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

// the model's parameters; the conservative ones (k, gravity) re-anchor the energy drift
Session::Outcome Session::applyPhysics(const ui::Command& c, std::string& why) {
  using K = ui::Command::Kind;
  using L = ui::Limits;
  const bool pendulum = built_->kind == sim::SystemKind::Pendulum;
  auto rejectRange = [&](double lo, double hi, const char* what) {
    why = rangeError(c.value, lo, hi, what);
    return !why.empty();
  };
  switch (c.kind) {
    case K::SetStiffnessScale:
      if (pendulum) return why = "stiffness: a pendulum has no springs", Outcome::Rejected;
      if (rejectRange(L::kStiffnessScaleMin, L::kStiffnessScaleMax, "stiffness scale"))
        return Outcome::Rejected;
      stiffness_scale_ = c.value;
      built_->mass_spring.stiffness = base_stiffness_ * c.value;
      ++built_->mass_spring.revision;  // refactorise time_fe once
      reanchor();
      return Outcome::Applied;
    case K::SetSpringDamping:
      if (pendulum) return why = "spring damping: a pendulum has no springs", Outcome::Rejected;
      if (rejectRange(0.0, L::kDampingMax, "spring damping")) return Outcome::Rejected;
      spring_damping_ = c.value;
      built_->mass_spring.damping.setConstant(c.value);
      return Outcome::Applied;
    case K::SetDrag:
      if (pendulum)
        return why = "drag: not modelled for pendulums (use joint damping)", Outcome::Rejected;
      if (rejectRange(0.0, L::kDragMax, "drag")) return Outcome::Rejected;
      built_->mass_spring.drag = c.value;
      return Outcome::Applied;
    case K::SetGravity: {
      for (double g : c.vec)
        if (!finite(g)) return why = "gravity: not a finite vector", Outcome::Rejected;
      const sim::Vec3 g(c.vec[0], c.vec[1], c.vec[2]);
      if (g.norm() > L::kGravityMax) return why = "gravity: out of range", Outcome::Rejected;
      built_->mass_spring.gravity = g;
      built_->pendulum.gravity = g;
      reanchor();
      return Outcome::Applied;
    }
    case K::SetJointDamping:
      if (!pendulum) return why = "joint damping: only pendulums have joints", Outcome::Rejected;
      if (rejectRange(0.0, L::kJointDampingMax, "joint damping")) return Outcome::Rejected;
      built_->pendulum.joint_damping = c.value;
      return Outcome::Applied;
    default:
      return Outcome::NotMine;
  }
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
      built_->mass_spring.grab_stiffness = c.value;
      built_->pendulum.grab_stiffness = c.value;
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

void Session::sample() {
  if (state().t == last_sample_t_) return;  // nothing moved (paused): the plots hold still
  last_sample_t_ = state().t;
  const sim::Energy e = energy();
  if (!divergence_) {
    Eigen::VectorXd x;
    built_->positions(state(), x);
    divergence_ = sim::checkRunaway(scales_, e0_, e.total(), x, state().t, method(),
                                    built_->kind == sim::SystemKind::Pendulum);
    if (divergence_) paused_ = true;
  }
  const double t = state().t;
  push(hist_t_, static_cast<float>(t));
  push(hist_k_, static_cast<float>(e.kinetic));
  push(hist_p_, static_cast<float>(e.potential));
  push(hist_e_, static_cast<float>(e.total()));
  push(hist_drift_, static_cast<float>(std::abs(sim::energyDrift(e0_, e.total(), scales_))));
  const int j = std::min<int>(phase_coordinate_, static_cast<int>(state().x.size()) - 1);
  if (j >= 0) {
    push(phase_q_, static_cast<float>(state().x[j]));
    push(phase_v_, static_cast<float>(state().v[j]));
  }
  // marks older than the plotted history have scrolled out
  while (!marks_.empty() && marks_.front() < hist_t_.front()) marks_.erase(marks_.begin());
}

std::string Session::divergenceSummary() const {
  if (!divergence_) return {};
  // 6 significant digits for reading; `run` prints %.17g (Divergence::message) for CSV matching
  char t[32];
  std::snprintf(t, sizeof t, "%.6g", divergence_->t);
  std::string out = "diverged at t = ";
  out.append(t).append(" s with ").append(sim::info(divergence_->method).name);
  return out.append(": ").append(divergence_->what);
}

void Session::fillPanel(ui::PanelModel& pm) const {
  const bool pendulum = built_->kind == sim::SystemKind::Pendulum;
  pm.builtin_scenes = scene::builtinNames();
  pm.scene_name = name_;
  pm.scene_path = path_;
  pm.pendulum = pendulum;
  pm.particles = pendulum ? 0 : built_->mass_spring.particles();
  pm.springs = pendulum ? 0 : built_->mass_spring.springs();
  pm.links = pendulum ? built_->pendulum.links() : 0;
  if (pendulum) {
    pm.dofs = built_->pendulum.links();
  } else {
    int free = 0;
    for (int i = 0; i < built_->mass_spring.particles(); ++i) free += !built_->mass_spring.fixed(i);
    pm.dofs = free * built_->mass_spring.dim;
  }
  pm.integrators.clear();
  for (const auto& i : sim::integrators()) {
    if (!sim::appliesTo(i.method, built_->kind)) continue;
    // appended piecewise: GCC 12 warns falsely (-Wrestrict) on chained string concatenation
    std::string tip(i.description);
    tip.append("\norder ").append(std::to_string(i.order)).append(", ");
    tip.append(i.symplectic ? "symplectic" : "not symplectic");
    pm.integrators.push_back({std::string(i.name), tip});
  }
  pm.integrator = std::string(sim::info(method()).name);
  pm.dt = dt();
  pm.time_scale = time_scale_;
  pm.paused = paused_;
  pm.stiffness_scale = stiffness_scale_;
  pm.spring_damping = spring_damping_;
  pm.drag = built_->mass_spring.drag;
  const sim::Vec3 g = pendulum ? built_->pendulum.gravity : built_->mass_spring.gravity;
  for (int k = 0; k < 3; ++k) pm.gravity[k] = g[k];
  pm.joint_damping = built_->pendulum.joint_damping;
  pm.grab_stiffness = grab_stiffness_;
  pm.sim_time = state().t;
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
    pm.phase_coordinates.push_back(
        pendulum ? std::string("phi").append(std::to_string(j))
                 : std::string(1, "xyz"[j % 3]).append(std::to_string(j / 3)));
  pm.phase_coordinate = phase_coordinate_;
  pm.diverged = divergence_.has_value();
  pm.divergence = divergenceSummary();
  pm.can_rewind = canRewind();
  pm.marks = marks_;
  pm.drift_label =
      sim::driftIsRelative(e0_, scales_) ? "|E - E0| / |E0|" : "|E - E0| / S (scene energy scale)";
}

}  // namespace app
