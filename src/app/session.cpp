#include "app/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/one_line.hpp"

namespace app {

Session::Session() : history_(kHistoryBudget, kHistorySpacing) {}

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

namespace {
// Of the coordinates of the body that coordinate j belongs to (a particle's x, y, z; a bob's one
// angle), the one that moves most in the scene's first step: a mass on a vertical spring is
// plotted, and its period read, along y, not along an x that never moves.
int movingCoordinate(const scene::Built& b, int j) {
  const Eigen::Index perBody = b.bodies() > 0 ? b.state.x.size() / b.bodies() : 1;
  if (perBody <= 1 || j < 0 || j >= b.state.x.size()) return j;
  const Eigen::Index first = j - j % perBody;
  lab::Lane probe(
      b, b.state,
      b.accepts(sim::Method::SymplecticEuler) ? sim::Method::SymplecticEuler : sim::Method::Rk4,
      Session::kPhaseProbeStep);
  if (!probe.step()) return j;
  const Eigen::VectorXd moved = (probe.state().x - b.state.x).segment(first, perBody).cwiseAbs();
  Eigen::Index most = 0;
  moved.maxCoeff(&most);
  return moved[most] > 0.0 ? static_cast<int>(first + most) : j;
}
}  // namespace

void Session::start() {
  ++systems_built_;
  jobs_.stopAll();
  const scene::Built& b = built();
  lanes_.reset(b, b.state, def().integrator, def().dt);
  lane_omega_.clear();  // another system: the limit lines' frequencies afresh
  restart(b.state);
  phase_coordinate_ = movingCoordinate(b, b.defaultPhaseCoordinate(kPhaseCoordinatesListed));
  arrow_scales_ = arrowScalesFor(b.scales().length);
}

void Session::setEvents(std::vector<lab::Event> events) {
  events_ = lab::EventSchedule(std::move(events));
}

void Session::restart(const sim::State& s) {
  if (!events_.empty()) {
    scene_.restoreParameters();  // the events replay from the start
    lanes_.followScene();
    events_.rewindTo(s.t);
  }
  lanes_.restart(s);
  history_.clear();
  keepState();
  plots_.clear(laneCount());
  last_sample_t_ = -1.0;
  stopwatch_.clear();
  ++restores_;
}

void Session::reanchor() {
  for (int i = 0; i < laneCount(); ++i) lanes_[i].reanchor();
  plots_.mark(static_cast<float>(time()));
}

void Session::applyDueEvents() {
  if (events_.empty()) return;
  std::vector<lab::Lane*> lanes;
  for (int i = 0; i < laneCount(); ++i) lanes.push_back(&lanes_[i]);
  const double t = time();
  const lab::EventEffect effect = events_.applyDue(t, scene_.built(), lanes);
  if (effect.dt_changed) lanes_.restartClockAt(t);
  lanes_.followScene();  // an event on a parameter a lane sets passes that lane by
  if (effect.conservative) reanchor();
}

bool Session::stepOnce() {
  if (!lanes_.anyAlive()) return false;
  // the rule on the state this step starts from, when one is due: a frame's own check
  // (sample) then never repeats one made here
  if (std::abs(time() - last_check_t_) >= kRunawayCheckSpacing) checkRunaways(nullptr);
  if (!lanes_.anyAlive()) {
    paused_ = true;  // the rule caught every lane
    return false;
  }
  dropFuture();
  applyDueEvents();
  if (!lanes_.step()) {
    paused_ = true;  // every lane diverged: pause; never a silent reset
    return false;
  }
  keepState();
  samplePeriods();
  motion_.record(lanes_, tracedBody());
  return true;
}

// Every step, not every frame (docs/lab.md#period): a frame may span a good part of a fast
// oscillation's period (a stiff spring, a high time scale), a step never does where it is stable.
void Session::samplePeriods() {
  for (int i = 0; i < laneCount(); ++i)
    if (!lanes_[i].diverged())
      plots_.pushPeriod(i, lanes_[i].system(), lanes_[i].state(), phase_coordinate_);
}

void Session::checkRunaways(const sim::Energy* e) {
  last_check_t_ = time();
  for (int i = 0; i < laneCount(); ++i) lanes_[i].checkRunaway(i == 0 ? e : nullptr);
}

void Session::keepState() {
  if (history_.due(time())) history_.push(lanes_.checkpoint());
}

void Session::seek(int entry) {
  // a copy: keeping the present below may thin the ring under the reference
  const lab::History::Entry e = history_.at(static_cast<size_t>(entry));
  keepPresent();
  lanes_.seek(e);
  events_.rewindTo(e.t);
  paused_ = true;
  plots_.showUpTo(e.t);     // the plots follow the seek; the samples after it stay
  last_sample_t_ = time();  // the samples up to here are already plotted
  stopwatch_.clear();
  ++restores_;
}

void Session::keepPresent() {
  const std::size_t n = history_.size();
  const bool atPresent = n == 0 || history_.at(n - 1).t < time();
  if (atPresent) history_.push(lanes_.checkpoint());
}

void Session::dropFuture() {
  const bool keptAfter = history_.size() > 0 && history_.at(history_.size() - 1).t > time();
  if (keptAfter) history_.dropAfter(time());
  if (keptAfter || plots_.seeking()) plots_.rollBackTo(time());
}

void Session::rewind() {
  // the newest kept state at least kRewindBack before the divergence, else the oldest kept
  seek(history_.indexAtOrBefore(divergence()->t - kRewindBack));
}

void Session::setGrab(int body, const sim::Vec3& target) {
  const int before = grabbed();
  scene_.built().setGrab(body, target, grab_stiffness_);
  lanes_.setGrab(body, target, grab_stiffness_);  // the hand on every lane's copy alike
  if (grabbed() != before) reanchor();
}

const lab::Equilibrium& Session::equilibrium() {
  // what the equilibrium depends on: the system built (an edit or a load makes another), every
  // parameter and the grab
  std::vector<double> key{static_cast<double>(systems_built_), static_cast<double>(grabbed())};
  for (const sim::ParameterInfo& row : sim::parameters()) {
    key.push_back(built().parameter(row.parameter));
    const sim::Vec3 v = built().vectorParameter(row.parameter);
    key.insert(key.end(), {v.x(), v.y(), v.z()});
  }
  if (key != equilibrium_key_) {
    equilibrium_ = lab::staticEquilibrium(built(), built().state);
    equilibrium_key_ = std::move(key);
  }
  return equilibrium_;
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
  if (auto bad = lanes_.canAdd(source)) return why = *bad, false;
  const auto lookup = built().lookupIntegrator(integrator);
  if (!lookup.method) return why = lookup.error, false;
  if (!checkDt(dt, why)) return false;
  std::vector<lab::LaneSetting> settings;
  if (!setup.empty())
    if (auto bad = lab::parseLaneSetup(setup, built().kind(), settings))
      return why = "set-up \"" + util::oneLine(setup) + "\": " + *bad, false;
  lanes_.add(source, *lookup.method, dt, settings, setup);
  plots_.addLane();
  return true;
}

void Session::sample() {
  if (time() == last_sample_t_) return;  // nothing moved (paused): the plots hold still
  last_sample_t_ = time();
  // the primary's energy once a frame: its runaway check, the plots and its drift
  const sim::Energy e = energy();
  checkRunaways(&e);
  if (!lanes_.anyAlive()) paused_ = true;
  // a lane that has diverged is not plotted: its series end at its last checked state, the one
  // drawn (Lane::shownState), never at one that ran away ("K inf J")
  if (!primary().diverged()) {
    const int j = std::min<int>(phase_coordinate_, static_cast<int>(state().x.size()) - 1);
    const float phase[2] = {j >= 0 ? static_cast<float>(state().x[j]) : 0.0f,
                            j >= 0 ? static_cast<float>(state().v[j]) : 0.0f};
    plots_.pushPrimary(static_cast<float>(time()), e,
                       static_cast<float>(std::abs(primary().driftAt(e))),
                       j >= 0 ? phase : nullptr);
  }
  Eigen::VectorXd primaryPositions;
  built().positions(primary().shownState(), primaryPositions);
  for (int i = 0; i < laneCount(); ++i)
    if (!lanes_[i].diverged()) sampleLane(i, primaryPositions);
  plots_.dropOldMarks();
}

// One lane's drift and distance from lane 0 (frozen where it diverged).
void Session::sampleLane(int i, const Eigen::VectorXd& primaryPositions) {
  const lab::Lane& lane = lanes_[i];
  Eigen::VectorXd x;
  lane.system().positions(lane.state(), x);  // a parameter lane: its own lengths
  double distance = 0.0;
  for (Eigen::Index k = 0; k + 2 < x.size(); k += 3)
    distance = std::max(distance, (x.segment<3>(k) - primaryPositions.segment<3>(k)).norm());
  // the ledger's balance relative to the drift's reference: the method's own energy error
  const double residual =
      std::abs(lane.ledger().residual) / sim::driftReference(lane.e0(), lane.scales());
  plots_.pushLane(i, static_cast<float>(time()), static_cast<float>(std::abs(lane.drift())),
                  static_cast<float>(distance), static_cast<float>(residual));
}

int Session::tracedBody() const {
  return bodyOfCoordinate(built(), state(), phase_coordinate_);
}

BodyMotion Session::tracedMotion(int lane) const {
  if (lane < 0 || lane >= laneCount()) return {};
  return motion_.motion(lanes_[lane], lane, tracedBody());
}

std::string Session::summary(const std::optional<sim::Divergence>& d) {
  if (!d) return {};
  // 6 significant digits for reading, as Divergence::message
  char t[32];
  std::snprintf(t, sizeof t, "%.6g", d->t);
  std::string out = "diverged at t = ";
  out.append(t).append(" s with ").append(sim::info(d->method).name);
  return out.append(": ").append(d->what);
}

}  // namespace app
