// Session::apply (docs/architecture.md#the-session-and-commands): each of the Session's commands is
// validated (range, applicability of the integrator or the parameter, lane index) and applied
// between steps by its owner, or rejected with a one-line reason that the window shows. The clock's
// go to the Timeline's applier and the stopwatch's to the Measurements', whole; the scene's, the
// physics', the lanes' and the jobs' cross owners and are applied here. Edit mode's are the
// Editor's (editor.cpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "app/session.hpp"
#include "scene/load.hpp"

namespace app {

namespace {
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

// One overload per ui::SessionCommand, and no catch-all (ui::kAppliesExactly, asserted in apply):
// the clock's and the stopwatch's are its owners' appliers' overloads, taken over whole.
struct Session::Applier : Timeline::Applier, Measurements::Applier {
  using Timeline::Applier::operator();
  using Measurements::Applier::operator();
  Session& s;
  std::string& why;
  using L = ui::Limits;

  Outcome reject(std::string reason) const {
    why = std::move(reason);
    return Outcome::Rejected;
  }

  // --- pause and step
  Outcome operator()(const ui::SetPaused& c) const {
    if (!c.paused) s.editor_.leave();  // running again leaves edit mode
    s.setPaused(c.paused);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::Step& c) const {
    if (c.count < 1 || c.count > L::kStepCountMax) return reject("step count: out of range");
    s.setPaused(true);
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
    if (!s.timeline_.canRewind()) return reject("rewind: no divergence to go back from");
    s.seek(s.timeline_.rewindEntry());
    return Outcome::Restarted;
  }
  Outcome operator()(const ui::ReplayBlowUp& c) const {
    if (c.max_frames < 1) return reject("replay: max frames: out of range");
    return s.timeline_.startReplay(c.max_frames, why) ? Outcome::Applied : Outcome::Rejected;
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
    s.timeline_.followScene();  // a parameter lane's copy takes it unless it sets it itself
    if (row.conservative) s.reanchor();
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetGrabStiffness& c) const {
    why = rangeError(c.stiffness, lab::ClockSetting::GrabStiffness);
    if (!why.empty()) return Outcome::Rejected;
    s.grab_stiffness_ = c.stiffness;
    if (s.grabbed() >= 0) s.setGrab(s.grabbed(), s.built().grabTarget());
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetPhaseCoordinate& c) const {
    if (!s.timeline_.setPhaseCoordinate(c.coordinate, why)) return Outcome::Rejected;
    s.measure_.restartPeriods();
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetPotentialZero& c) const {
    const int n = static_cast<int>(std::size(lab::kPotentialZeros));
    if (c.zero < 0 || c.zero >= n)
      return reject("potential zero: " + std::to_string(c.zero) + " is not one of 0 to " +
                    std::to_string(n - 1));
    s.zero_.set(lab::kPotentialZeros[c.zero].zero);
    return Outcome::Applied;
  }

  // --- the lab: lanes, the timeline, background jobs
  Outcome operator()(const ui::AddLane& c) const {  // from lane 0: every lane from one state
    return appliedIf(s.addLane(0, c.integrator, c.dt, c.setup, why));
  }
  Outcome operator()(const ui::BranchLane& c) const {
    return appliedIf(s.addLane(c.lane, c.integrator, c.dt, c.setup, why));
  }
  Outcome operator()(const ui::RemoveLane& c) const {
    if (!s.timeline_.removeLane(c.lane, why)) return Outcome::Rejected;
    s.measure_.removeLane(c.lane);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SeekHistory& c) const {
    if (c.entry < 0 || static_cast<size_t>(c.entry) >= s.timeline_.history().size())
      return reject("timeline: no such state");
    s.seek(c.entry);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::RunStabilityMap&) const {
    const double scale = s.stiffnessScale();
    // the map centres on the larger of the load-time limit and lane 0's now (a pendulum
    // released at rest stiffens as it moves)
    const double omega = std::max(s.scene_.omegaMax(), s.measure_.laneOmega(0));
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
    return appliedIf(s.jobs_.saveMap(c.path.empty() ? s.mapPngPath() : c.path, &why));
  }
  Outcome operator()(const ui::SaveScene& c) const {
    if (!s.scene_.save(s.savedDef(), c.path, why)) return Outcome::Rejected;
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

namespace {
// apply's answer: true unless rejected; the reason into `message`, the outcome into `outcome`
bool answer(Outcome o, std::string& why, std::string* message, Outcome* outcome) {
  if (outcome) *outcome = o;
  if (o == Outcome::Rejected && message) *message = std::move(why);
  return o != Outcome::Rejected;
}
}  // namespace

bool Session::apply(const ui::SessionCommand& c, std::string* message, Outcome* outcome) {
  static_assert(ui::kAppliesExactly<Applier, ui::SessionCommand>);
  std::string why;
  const Applier applier{{timeline_, why}, {measure_, time()}, *this, why};
  return answer(std::visit(applier, c), why, message, outcome);
}

bool Session::apply(const ui::EditCommand& c, std::string* message, Outcome* outcome) {
  std::string why;
  return answer(editor_.apply(c, *this, why), why, message, outcome);
}

}  // namespace app
