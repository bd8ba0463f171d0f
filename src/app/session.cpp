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
  divergence_.reset();
  steps_ = 0;
  rebuildStepper(def_.integrator, def_.dt, built_->state);
  e0_ = energy().total();
  scales_ = built_->scales();
  // the phase plot starts on the last moving body's first coordinate
  phase_coordinate_ = 0;
  if (built_->kind == sim::SystemKind::MassSpring)
    for (int i = built_->mass_spring.particles() - 1; i >= 0; --i)
      if (!built_->mass_spring.fixed(i)) {
        phase_coordinate_ = 3 * i;
        break;
      }
  clearHistory();
}

void Session::rebuildStepper(sim::Method m, double h, const sim::State& s) {
  stepper_ = built_->stepper(m, h, s);
}

void Session::clearHistory() {
  for (auto* v : {&hist_t_, &hist_k_, &hist_p_, &hist_e_, &hist_drift_, &phase_q_, &phase_v_})
    v->clear();
}

bool Session::stepOnce() {
  if (divergence_) return false;
  if (auto d = stepper_->advance()) {
    divergence_ = *d;
    paused_ = true;  // divergence pauses the simulation; never a silent reset
    return false;
  }
  ++steps_;
  return true;
}

void Session::setGrab(int body, const sim::Vec3& target) {
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
}

int Session::grabbed() const {
  return built_->kind == sim::SystemKind::Pendulum ? built_->pendulum.grab
                                                   : built_->mass_spring.grab;
}

bool Session::apply(const ui::Command& c, std::string* message, bool* handled) {
  using K = ui::Command::Kind;
  using L = ui::Limits;
  if (handled) *handled = true;
  auto reject = [&](const std::string& m) {
    if (message) *message = m;
    return false;
  };
  auto inRange = [&](double v, double lo, double hi, const char* what) {
    if (!finite(v)) return reject(std::string(what) + ": not a finite number");
    if (v < lo || v > hi) return reject(std::string(what) + ": out of range");
    return true;
  };
  const bool pendulum = built_->kind == sim::SystemKind::Pendulum;
  switch (c.kind) {
    case K::SetIntegrator: {
      const auto lookup = sim::lookupIntegrator(c.text, built_->kind);
      if (!lookup.method) return reject(lookup.error);
      const auto m = lookup.method;
      stepper_->setMethod(*m);
      return true;
    }
    case K::SetDt:
      if (!inRange(c.value, L::kDtMin, L::kDtMax, "dt")) return false;
      stepper_->setDt(c.value);  // time_fe refactorises on its next step, once
      return true;
    case K::SetTimeScale:
      if (!inRange(c.value, L::kTimeScaleMin, L::kTimeScaleMax, "time scale")) return false;
      time_scale_ = c.value;
      return true;
    case K::SetPaused:
      paused_ = c.value != 0.0;
      return true;
    case K::Step:
      if (c.count < 1 || c.count > L::kStepCountMax) return reject("step count: out of range");
      paused_ = true;
      for (int i = 0; i < c.count; ++i)
        if (!stepOnce()) break;
      return true;
    case K::Reset: {
      divergence_.reset();
      steps_ = 0;
      rebuildStepper(stepper_->method(), stepper_->dt(), built_->state);
      e0_ = energy().total();
      scales_ = built_->scales();
      clearHistory();
      return true;
    }
    case K::Rewind:
      // the stepper never commits a non-finite step: its state is the last finite one
      divergence_.reset();
      paused_ = true;
      return true;
    case K::LoadBuiltin:
    case K::LoadFile:
      try {
        load(c.text);
      } catch (const scene::Error& e) {
        return reject(e.what());
      }
      return true;
    case K::Reload:  // the file again (a built-in scene: its definition again)
      try {
        if (!path_.empty()) {
          const auto def = scene::loadFile(path_);
          loadDef(def, def.name.empty() ? path_ : def.name, path_);
        } else {
          loadDef(def_, name_, path_);
        }
      } catch (const scene::Error& e) {
        return reject(e.what());
      }
      return true;
    case K::SetStiffnessScale:
      if (pendulum) return reject("stiffness: a pendulum has no springs");
      if (!inRange(c.value, L::kStiffnessScaleMin, L::kStiffnessScaleMax, "stiffness scale"))
        return false;
      stiffness_scale_ = c.value;
      built_->mass_spring.stiffness = base_stiffness_ * c.value;
      ++built_->mass_spring.revision;  // refactorise time_fe once
      return true;
    case K::SetSpringDamping:
      if (pendulum) return reject("spring damping: a pendulum has no springs");
      if (!inRange(c.value, 0.0, L::kDampingMax, "spring damping")) return false;
      spring_damping_ = c.value;
      built_->mass_spring.damping.setConstant(c.value);
      return true;
    case K::SetDrag:
      if (pendulum) return reject("drag: not modelled for pendulums (use joint damping)");
      if (!inRange(c.value, 0.0, L::kDragMax, "drag")) return false;
      built_->mass_spring.drag = c.value;
      return true;
    case K::SetGravity: {
      for (double g : c.vec)
        if (!finite(g)) return reject("gravity: not a finite vector");
      const sim::Vec3 g(c.vec[0], c.vec[1], c.vec[2]);
      if (g.norm() > L::kGravityMax) return reject("gravity: out of range");
      built_->mass_spring.gravity = g;
      built_->pendulum.gravity = g;
      return true;
    }
    case K::SetJointDamping:
      if (!pendulum) return reject("joint damping: only pendulums have joints");
      if (!inRange(c.value, 0.0, L::kJointDampingMax, "joint damping")) return false;
      built_->pendulum.joint_damping = c.value;
      return true;
    case K::SetGrabStiffness:
      if (!inRange(c.value, L::kGrabStiffnessMin, L::kGrabStiffnessMax, "grab stiffness"))
        return false;
      grab_stiffness_ = c.value;
      built_->mass_spring.grab_stiffness = c.value;
      built_->pendulum.grab_stiffness = c.value;
      return true;
    case K::SetPhaseCoordinate: {
      const int n = static_cast<int>(state().x.size());
      if (c.count < 0 || c.count >= n) return reject("phase coordinate: out of range");
      phase_coordinate_ = c.count;
      phase_q_.clear(), phase_v_.clear();
      return true;
    }
    default:
      if (handled) *handled = false;
      return true;
  }
}

void Session::sample() {
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
    std::string tip = std::string(i.description) + "\norder " + std::to_string(i.order) + ", " +
                      (i.symplectic ? "symplectic" : "not symplectic");
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
  for (int j = 0; j < n && j < 3000; ++j)
    pm.phase_coordinates.push_back(pendulum ? "phi" + std::to_string(j)
                                            : std::string(1, "xyz"[j % 3]) + std::to_string(j / 3));
  pm.phase_coordinate = phase_coordinate_;
  pm.diverged = divergence_.has_value();
  pm.divergence = divergence_ ? divergence_->message() : std::string();
}

}  // namespace app
