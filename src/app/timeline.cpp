#include "app/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scene/method_file.hpp"
#include "sim/registry.hpp"
#include "ui/panel.hpp"
#include "util/one_line.hpp"

namespace app {

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
      Timeline::kPhaseProbeStep);
  if (!probe.step()) return j;
  const Eigen::VectorXd moved = (probe.state().x - b.state.x).segment(first, perBody).cwiseAbs();
  Eigen::Index most = 0;
  moved.maxCoeff(&most);
  return moved[most] > 0.0 ? static_cast<int>(first + most) : j;
}
}  // namespace

Timeline::Timeline(LoadedScene& scene) : scene_(scene), history_(kHistoryBudget, kHistorySpacing) {}

void Timeline::reset() {
  const scene::Built& b = scene_.built();
  replay_.reset();  // on the system just replaced
  anchor_cell_ = -1;
  lanes_.reset(b, b.state, scene_.def().integrator, scene_.def().dt);
  phase_coordinate_ = movingCoordinate(b, b.defaultPhaseCoordinate(kPhaseCoordinatesListed));
}

void Timeline::restart(const sim::State& s) {
  if (!events_.empty()) {
    scene_.restoreParameters();  // the events replay from the start
    lanes_.followScene();
    events_.rewindTo(s.t);
  }
  lanes_.restart(s);
  replay_.reset();
  anchor_cell_ = -1;
  history_.clear();
  keepState();
  plots_.clear(laneCount());
  last_sample_t_ = -1.0;
  ++restores_;
}

void Timeline::setEvents(std::vector<lab::Event> events) {
  events_ = lab::EventSchedule(std::move(events));
}

void Timeline::reanchor() {
  for (int i = 0; i < laneCount(); ++i) lanes_[i].reanchor();
  plots_.mark(static_cast<float>(time()));
}

bool Timeline::applyDueEvents() {
  if (events_.empty()) return false;
  std::vector<lab::Lane*> lanes;
  for (int i = 0; i < laneCount(); ++i) lanes.push_back(&lanes_[i]);
  const double t = time();
  const lab::EventEffect effect = events_.applyDue(t, scene_.built(), lanes);
  if (effect.dt_changed) lanes_.restartClockAt(t);
  lanes_.followScene();  // an event on a parameter a lane sets passes that lane by
  if (effect.conservative) reanchor();
  return effect.conservative;
}

Timeline::Stepped Timeline::step() {
  Stepped r;
  if (!lanes_.anyAlive()) return r;
  // the rule on the state this step starts from, when one is due: a frame's own check
  // (sample) then never repeats one made here
  const bool anchor = anchorDue();
  if (anchor || std::abs(time() - last_check_t_) >= kRunawayCheckSpacing) checkRunaways(nullptr);
  if (!lanes_.anyAlive()) {
    paused_ = true;  // the rule caught every lane
    return r;
  }
  dropFuture();
  r.reanchored = applyDueEvents();
  if (anchor && !primary().diverged()) {
    // after the events: the steps from it are made with the dt and parameters they were made in
    anchor_ = primary().checkpoint();
    anchor_cell_ =
        static_cast<long long>(std::floor((time() + 0.5 * primary().dt()) * kAnchorRate));
  }
  if (!lanes_.step()) {
    paused_ = true;  // every lane diverged: pause; never a silent reset
    return r;
  }
  keepState();
  r.stepped = true;
  return r;
}

bool Timeline::anchorDue() const {
  if (anchor_cell_ < 0 || events_.dueAt(time())) return true;
  // the step nearest each grid time k / kAnchorRate starts a new cell (a 30 fps clip's frames)
  return std::floor((time() + 0.5 * primary().dt()) * kAnchorRate) >
         static_cast<double>(anchor_cell_);
}

bool Timeline::startReplay(int maxFrames, std::string& why) {
  replay_.reset();
  if (!divergence()) return why = "replay: no divergence to replay", false;
  auto replay = std::make_unique<lab::BlowUp>(primary(), anchor_, maxFrames);
  if (!replay->reproduced())
    return why =
               "replay: the steps before the divergence could not be made again (the system "
               "was changed by hand since)",
           false;
  replay_ = std::move(replay);
  return true;
}

void Timeline::advanceReplay() {
  if (replay_ && !replay_->next()) replay_.reset();
}

void Timeline::checkRunaways(const sim::Energy* e) {
  last_check_t_ = time();
  for (int i = 0; i < laneCount(); ++i) lanes_[i].checkRunaway(i == 0 ? e : nullptr);
}

void Timeline::keepState() {
  if (history_.due(time())) history_.push(lanes_.checkpoint());
}

void Timeline::seek(int entry) {
  // a copy: keeping the present below may thin the ring under the reference
  const lab::History::Entry e = history_.at(static_cast<size_t>(entry));
  keepPresent();
  lanes_.seek(e);
  replay_.reset();
  anchor_cell_ = -1;
  events_.rewindTo(e.t);
  paused_ = true;
  plots_.showUpTo(e.t);     // the plots follow the seek; the samples after it stay
  last_sample_t_ = time();  // the samples up to here are already plotted
  ++restores_;
}

void Timeline::keepPresent() {
  const std::size_t n = history_.size();
  const bool atPresent = n == 0 || history_.at(n - 1).t < time();
  if (atPresent) history_.push(lanes_.checkpoint());
}

void Timeline::dropFuture() {
  const bool keptAfter = history_.size() > 0 && history_.at(history_.size() - 1).t > time();
  if (keptAfter) history_.dropAfter(time());
  if (keptAfter || plots_.seeking()) plots_.rollBackTo(time());
}

int Timeline::rewindEntry() const {
  return history_.indexAtOrBefore(divergence()->t - kRewindBack);
}

bool Timeline::addLane(int source, const std::string& integrator, double dt,
                       const std::string& setup, std::string& why) {
  if (auto bad = lanes_.canAdd(source)) return why = *bad, false;
  const scene::Built& b = scene_.built();
  const auto lookup = scene::lookupIntegrator(integrator, b.kind());  // method files too
  if (!lookup.method) return why = lookup.error, false;
  if (!checkDt(dt, why)) return false;
  std::vector<lab::LaneSetting> settings;
  if (!setup.empty())
    if (auto bad = lab::parseLaneSetup(setup, b.kind(), settings))
      return why = "set-up \"" + util::oneLine(setup) + "\": " + *bad, false;
  lanes_.add(source, *lookup.method, dt, settings, setup);
  plots_.addLane();
  replay_.reset(), anchor_cell_ = -1;
  return true;
}

bool Timeline::removeLane(int lane, std::string& why) {
  if (auto bad = lanes_.remove(lane)) return why = *bad, false;
  plots_.removeLane(lane);
  replay_.reset(), anchor_cell_ = -1;  // lane 0 may be another lane now
  return true;
}

bool Timeline::setPhaseCoordinate(int j, std::string& why) {
  if (j < 0 || j >= static_cast<int>(primary().state().x.size()))
    return why = "phase coordinate: out of range", false;
  phase_coordinate_ = j;
  plots_.clearPhase();
  return true;
}

void Timeline::sample() {
  if (time() == last_sample_t_) return;  // nothing moved (paused): the plots hold still
  last_sample_t_ = time();
  // the primary's energy once a frame: its runaway check, the plots and its drift
  const lab::Lane& lane0 = primary();
  const sim::Energy e = lane0.energy();
  checkRunaways(&e);
  if (!lanes_.anyAlive()) paused_ = true;
  // a lane that has diverged is not plotted: its series end at its last checked state, the one
  // drawn (Lane::shownState), never at one that ran away ("K inf J")
  if (!lane0.diverged()) {
    const sim::State& s = lane0.state();
    const int j = std::min<int>(phase_coordinate_, static_cast<int>(s.x.size()) - 1);
    const float phase[2] = {j >= 0 ? static_cast<float>(s.x[j]) : 0.0f,
                            j >= 0 ? static_cast<float>(s.v[j]) : 0.0f};
    plots_.pushPrimary(static_cast<float>(time()), e,
                       static_cast<float>(std::abs(lane0.driftAt(e))), j >= 0 ? phase : nullptr);
  }
  Eigen::VectorXd primaryPositions;
  scene_.built().positions(lane0.shownState(), primaryPositions);
  for (int i = 0; i < laneCount(); ++i)
    if (!lanes_[i].diverged()) sampleLane(i, primaryPositions);
  plots_.dropOldMarks();
}

// One lane's drift and distance from lane 0 (frozen where it diverged).
void Timeline::sampleLane(int i, const Eigen::VectorXd& primaryPositions) {
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

bool Timeline::checkDt(double dt, std::string& why) {
  why = rangeError(dt, lab::ClockSetting::Dt);
  return why.empty();
}

Outcome Timeline::Applier::operator()(const ui::SetIntegrator& c) const {
  const auto lookup = scene::lookupIntegrator(c.name, timeline.scene_.built().kind());
  if (!lookup.method) return why = lookup.error, Outcome::Rejected;
  const auto lanes = timeline.lanes_.select(c.lane);
  if (!lanes) return why = lanes.problem(), Outcome::Rejected;
  for (lab::Lane* lane : *lanes) lane->setMethod(*lookup.method);
  return Outcome::Applied;
}

Outcome Timeline::Applier::operator()(const ui::SetDt& c) const {
  if (!checkDt(c.dt, why)) return Outcome::Rejected;
  const auto lanes = timeline.lanes_.select(c.lane);
  if (!lanes) return why = lanes.problem(), Outcome::Rejected;
  timeline.lanes_.setDt(*lanes, c.dt);
  return Outcome::Applied;
}

Outcome Timeline::Applier::operator()(const ui::SetTimeScale& c) const {
  why = rangeError(c.scale, lab::ClockSetting::TimeScale);
  if (!why.empty()) return Outcome::Rejected;
  timeline.time_scale_ = c.scale;
  return Outcome::Applied;
}

std::string Timeline::summary(const std::optional<sim::Divergence>& d) {
  if (!d) return {};
  // 6 significant digits for reading, as Divergence::message
  char t[32];
  std::snprintf(t, sizeof t, "%.6g", d->t);
  std::string out = "diverged at t = ";
  out.append(t).append(" s with ").append(sim::info(d->method).name);
  return out.append(": ").append(d->what);
}

}  // namespace app
