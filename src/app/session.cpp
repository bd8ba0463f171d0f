// The Session's operations that cross its owners: a start after a load or an edit, a restart, a
// step, a seek, a lane added or removed, a conservative change; each tells every owner concerned,
// here and nowhere else.
#include "app/session.hpp"

#include "app/physics_view.hpp"
#include "sim/registry.hpp"

namespace app {

Session::Session() = default;

void Session::load(const std::string& sceneArg) {
  scene_.load(sceneArg);  // throws: the old scene stays
  start();
}

void Session::loadDef(const scene::SceneDef& def, const std::string& name,
                      const std::string& path) {
  scene_.loadDef(def, name, path);
  start();
}

void Session::reload() {
  scene_.reload();  // throws: the old scene stays
  start();
}

void Session::start() {
  jobs_.stopAll();
  timeline_.reset();
  measure_.newSystem();
  zero_.newSystem();
  restart(built().state);
}

void Session::restart(const sim::State& s) {
  timeline_.restart(s);
  measure_.restart();
}

void Session::seek(int entry) {
  timeline_.seek(entry);
  measure_.restart();
}

void Session::reanchor() {
  timeline_.reanchor();
  measure_.restartPeriods();
}

bool Session::stepOnce() {
  const Timeline::Stepped r = timeline_.step();
  if (r.reanchored) measure_.restartPeriods();
  if (r.stepped) measure_.afterStep();
  return r.stepped;
}

void Session::setGrab(int body, const sim::Vec3& target) {
  const int before = grabbed();
  scene_.built().setGrab(body, target, grab_stiffness_);
  timeline_.setGrab(body, target, grab_stiffness_);  // the hand on every lane's copy alike
  if (grabbed() != before) reanchor();
}

bool Session::placeBody(int body, const sim::Vec3& target, std::string& why) {
  sim::State s = primary().shownState();
  if (auto bad = built().placeBody(s, body, target)) return why = *bad, false;
  s.t = 0.0;  // a new start: the clock, the timeline and the plots begin again from it
  scene_.built().state = s;
  restart(s);
  return true;
}

bool Session::addLane(int source, const std::string& integrator, double dt,
                      const std::string& setup, std::string& why) {
  if (!timeline_.addLane(source, integrator, dt, setup, why)) return false;
  measure_.addLane();
  return true;
}

bool Session::switchTo(const scene::SceneDef& def, std::string& why, const NewSceneName* fresh) {
  struct KeptLane {
    std::string integrator, setup;
    double dt;
  };
  std::vector<KeptLane> kept;
  for (int i = 1; i < laneCount(); ++i)
    kept.push_back(
        {std::string(sim::info(lane(i).method()).name), timeline_.lanes().setup(i), lane(i).dt()});
  const std::string name = fresh ? fresh->name : scene_.name(), path = fresh ? "" : scene_.path();
  try {
    scene_.loadDef(def, name, path);  // throws: the old scene stays
  } catch (const scene::Error& e) {
    return why = e.what(), false;
  }
  if (fresh) scene_.setArg(fresh->stem);
  start();
  for (const KeptLane& k : kept) {
    std::string ignored;  // a lane whose set-up no longer applies is left out
    addLane(0, k.integrator, k.dt, k.setup, ignored);
  }
  return true;
}

void Session::fillPanel(ui::PanelModel& pm) const {
  scene_.fill(pm.scene);
  editor_.fill(built(), pm.edit);
  timeline_.fill(pm.clock);
  fillPhysics(built(), primary(), grab_stiffness_, pm.physics);
  timeline_.fill(pm.lanes);
  timeline_.fill(pm.plots);
  zero_.shift(built(), timeline_, pm.plots);
  measure_.fill(pm.measure);
  jobs_.fill(pm.jobs);
  pm.jobs.stability.scale_parameter = static_cast<int>(sim::Parameter::StiffnessScale);
  pm.jobs.stability.scale = stiffnessScale();
}

}  // namespace app
