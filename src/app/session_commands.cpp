// Session::apply (docs/architecture.md#the-session-and-commands): each command the Session owns is
// validated (range, applicability of the integrator or the parameter, lane index) and applied
// between steps, or rejected with a one-line reason that the window shows. Edit mode's commands are
// session_edit.cpp's.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "app/session.hpp"
#include "scene/load.hpp"
#include "scene/save.hpp"

namespace app {

namespace {
// "what: out of range" / "what: not a finite number", or empty when lo <= v <= hi
std::string rangeError(double v, double lo, double hi, const std::string& what) {
  if (!std::isfinite(v)) return what + ": not a finite number";
  if (v < lo || v > hi) return what + ": out of range";
  return {};
}

// a parameter's name in messages: its label in lower case ("stiffness scale")
std::string nameOf(const sim::ParameterInfo& row) {
  std::string name(row.label);
  if (!name.empty()) name[0] = static_cast<char>(std::tolower(name[0]));
  return name;
}

const sim::ParameterInfo* rowOf(int id) {
  const auto rows = sim::parameters();
  return id >= 0 && id < static_cast<int>(rows.size()) ? &rows[static_cast<size_t>(id)] : nullptr;
}
}  // namespace

bool Session::checkDt(double dt, std::string& why) {
  why = rangeError(dt, ui::Limits::kDtMin, ui::Limits::kDtMax, "dt");
  return why.empty();
}

// One overload per ui::SessionCommand, and no catch-all (ui::kAppliesExactly, asserted in apply).
struct Session::Applier {
  Session& s;
  std::string& why;
  using L = ui::Limits;

  Outcome done(bool applied) const { return applied ? Outcome::Applied : Outcome::Rejected; }
  Outcome reject(std::string reason) const {
    why = std::move(reason);
    return Outcome::Rejected;
  }

  // --- the clock
  Outcome operator()(const ui::SetIntegrator& c) const {
    const auto lookup = s.built().lookupIntegrator(c.name);
    if (!lookup.method) return reject(lookup.error);
    const auto lanes = s.lanes_.select(c.lane);
    if (!lanes) return reject(lanes.problem());
    for (lab::Lane* lane : *lanes) lane->setMethod(*lookup.method);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetDt& c) const {
    if (!checkDt(c.dt, why)) return Outcome::Rejected;
    const auto lanes = s.lanes_.select(c.lane);
    if (!lanes) return reject(lanes.problem());
    s.lanes_.setDt(*lanes, c.dt);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetTimeScale& c) const {
    why = rangeError(c.scale, L::kTimeScaleMin, L::kTimeScaleMax, "time scale");
    if (!why.empty()) return Outcome::Rejected;
    s.time_scale_ = c.scale;
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetPaused& c) const {
    if (!c.paused) s.editing_ = false;  // running again leaves edit mode
    s.paused_ = c.paused;
    return Outcome::Applied;
  }
  Outcome operator()(const ui::Step& c) const {
    if (c.count < 1 || c.count > L::kStepCountMax) return reject("step count: out of range");
    s.paused_ = true;
    for (int i = 0; i < c.count; ++i)
      if (!s.stepOnce()) break;
    return Outcome::Applied;
  }

  // --- the scene: reset, rewind, load, reload (a failed load keeps the previous scene)
  Outcome operator()(const ui::Reset&) const {
    s.restart(s.built().state);
    return Outcome::Restarted;
  }
  Outcome operator()(const ui::Rewind&) const {
    if (!s.canRewind()) return reject("rewind: no divergence to go back from");
    s.rewind();
    return Outcome::Restarted;
  }
  Outcome operator()(const ui::LoadBuiltin& c) const { return load(c.name); }
  Outcome operator()(const ui::LoadFile& c) const { return load(c.path); }
  Outcome operator()(const ui::Reload&) const {
    try {
      s.reload();
      return Outcome::Loaded;
    } catch (const scene::Error& e) {
      return reject(e.what());
    }
  }
  Outcome load(const std::string& arg) const {
    try {
      s.load(arg);
      return Outcome::Loaded;
    } catch (const scene::Error& e) {
      return reject(e.what());
    }
  }

  // --- the physics: the System's parameters, shared by every lane; the conservative ones (k,
  // gravity) re-anchor the energy drift
  Outcome operator()(const ui::SetParameter& c) const {
    const sim::ParameterInfo* row = rowOf(c.id);
    if (!row) return reject("parameter " + std::to_string(c.id) + ": no such parameter");
    const std::string what = nameOf(*row);
    if (auto absent = sim::notApplicable(row->parameter, s.built().kind()))
      return reject(what + ": " + *absent);
    if (isVector(*row)) return reject(what + ": a vector, not a number");
    why = rangeError(c.value, row->lo, row->hi, what);
    if (!why.empty()) return Outcome::Rejected;
    return setParameter(*row, c.value, sim::Vec3::Zero());
  }
  Outcome operator()(const ui::SetVectorParameter& c) const {
    const sim::ParameterInfo* row = rowOf(c.id);
    if (!row) return reject("parameter " + std::to_string(c.id) + ": no such parameter");
    const std::string what = nameOf(*row);
    if (auto absent = sim::notApplicable(row->parameter, s.built().kind()))
      return reject(what + ": " + *absent);
    if (!isVector(*row)) return reject(what + ": a number, not a vector");
    const sim::Vec3 v(c.value[0], c.value[1], c.value[2]);
    if (!v.allFinite()) return reject(what + ": not a finite vector");
    if (v.norm() > row->hi) return reject(what + ": out of range");
    return setParameter(*row, 0.0, v);
  }
  Outcome setParameter(const sim::ParameterInfo& row, double value, const sim::Vec3& v) const {
    if (auto bad = s.scene_.built().setParameter(row.parameter, value, v))
      return reject(nameOf(row) + ": " + *bad);
    s.lanes_.followScene();  // a parameter lane's copy takes it unless it sets it itself
    if (row.conservative) s.reanchor();
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetGrabStiffness& c) const {
    why = rangeError(c.stiffness, L::kGrabStiffnessMin, L::kGrabStiffnessMax, "grab stiffness");
    if (!why.empty()) return Outcome::Rejected;
    s.grab_stiffness_ = c.stiffness;
    if (s.grabbed() >= 0) s.setGrab(s.grabbed(), s.built().grabTarget());
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetPhaseCoordinate& c) const {
    if (c.coordinate < 0 || c.coordinate >= static_cast<int>(s.state().x.size()))
      return reject("phase coordinate: out of range");
    s.phase_coordinate_ = c.coordinate;
    s.plots_.clearPhase();
    return Outcome::Applied;
  }

  // --- the lab: lanes, the timeline, background jobs
  Outcome operator()(const ui::AddLane& c) const {  // from lane 0: every lane from one state
    return done(s.addLane(0, c.integrator, c.dt, c.setup, why));
  }
  Outcome operator()(const ui::BranchLane& c) const {
    return done(s.addLane(c.lane, c.integrator, c.dt, c.setup, why));
  }
  Outcome operator()(const ui::RemoveLane& c) const {
    if (auto bad = s.lanes_.remove(c.lane)) return reject(*bad);
    s.plots_.removeLane(c.lane);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SeekHistory& c) const {
    if (c.entry < 0 || static_cast<size_t>(c.entry) >= s.history_.size())
      return reject("timeline: no such state");
    s.seek(c.entry);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::StartStopwatch&) const {
    s.stopwatch_.start(s.time());
    return Outcome::Applied;
  }
  Outcome operator()(const ui::StopStopwatch&) const {
    s.stopwatch_.stop(s.time());
    return Outcome::Applied;
  }
  Outcome operator()(const ui::ResetStopwatch&) const {
    s.stopwatch_.zero(s.time());
    return Outcome::Applied;
  }
  Outcome operator()(const ui::RunStabilityMap&) const {
    const double scale = s.stiffnessScale();
    // the map centres on the larger of the load-time limit and lane 0's now (a pendulum
    // released at rest stiffens as it moves)
    const double omega = std::max(s.omegaMax(), s.laneOmega(0));
    const auto limit = sim::dtLimit(s.method(), omega / std::sqrt(scale));
    s.jobs_.startMap({s.currentDef(), s.method(), s.dt(), scale,
                      limit && std::isfinite(*limit) ? *limit : 0.0, omega,
                      s.built().has(sim::Parameter::StiffnessScale)});
    return Outcome::Applied;
  }
  Outcome operator()(const ui::CancelStabilityMap&) const {
    s.jobs_.cancelMap();
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SaveMapPng& c) const {
    return done(s.jobs_.saveMap(c.path.empty() ? s.mapPngPath() : c.path, &why));
  }
  Outcome operator()(const ui::SaveScene& c) const {
    const std::string path = c.path.empty() ? s.savePath() : c.path;
    if (auto bad = scene::saveScene(s.savedDef(), path)) return reject(*bad);
    s.last_saved_ = path;
    return Outcome::Saved;
  }
  Outcome operator()(const ui::MeasureOrder&) const {
    s.jobs_.startOrders(s.currentDef(), s.built().integrators(), s.dt());
    return Outcome::Applied;
  }
};

// "SCENE-map-INTEGRATOR.png" beside the scene file, or in the current folder for a built-in one.
std::string Session::mapPngPath() const {
  namespace fs = std::filesystem;
  const std::string& file = scene_.path();
  const std::string stem = file.empty() ? sceneArg() : fs::path(file).stem().string();
  const std::string integrator = jobs_.mapIntegrator();
  const fs::path name = stem + "-map-" +
                        (integrator.empty() ? std::string(sim::info(method()).name) : integrator) +
                        ".png";
  const fs::path folder = file.empty() ? fs::path() : fs::path(file).parent_path();
  return (folder / name).string();
}

std::string Session::savePath() const {
  const std::string& file = scene_.path();
  const std::string stem = file.empty() ? sceneArg() : std::filesystem::path(file).stem().string();
  return (stem.empty() ? std::string("scene") : stem) + "-edited.json";
}

scene::SceneDef Session::savedDef() const {
  return scene::withSystem(currentDef(), built(), built().state);
}

bool Session::answer(Outcome o, std::string& why, std::string* message, Outcome* outcome) {
  if (outcome) *outcome = o;
  if (o == Outcome::Rejected && message) *message = std::move(why);
  return o != Outcome::Rejected;
}

bool Session::apply(const ui::SessionCommand& c, std::string* message, Outcome* outcome) {
  static_assert(ui::kAppliesExactly<Applier, ui::SessionCommand>);
  std::string why;
  return answer(std::visit(Applier{*this, why}, c), why, message, outcome);
}

}  // namespace app
