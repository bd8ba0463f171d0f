#include "lab/lane_group.hpp"

namespace lab {

void LaneGroup::reset(const sim::System& system, const sim::State& from, sim::Method method,
                      double dt) {
  system_ = &system;
  lanes_.clear();
  setups_.clear();
  lanes_.emplace_back(system, from, method, dt);
  setups_.emplace_back();
  clock_ = StepClock{from.t, 0, 0};
}

void LaneGroup::restart(const sim::State& s) {
  for (Lane& lane : lanes_) lane.restart(s);
  clock_ = StepClock{s.t, 0, 0};
}

bool LaneGroup::anyAlive() const {
  for (const Lane& lane : lanes_)
    if (!lane.diverged()) return true;
  return false;
}

util::Problem LaneGroup::canAdd(int source) const {
  if (size() >= kMaxLanes) return "lanes: at most " + std::to_string(kMaxLanes) + " on screen";
  if (source < 0 || source >= size()) return "lane " + std::to_string(source) + ": no such lane";
  return std::nullopt;
}

void LaneGroup::add(int source, sim::Method method, double dt,
                    const std::vector<LaneSetting>& setup, const std::string& setupText) {
  const Lane& from = (*this)[source];
  if (setup.empty()) {
    lanes_.emplace_back(*system_, from.state(), method, dt);
    setups_.emplace_back();
    lanes_.back().copyAnchor(from);  // drifts measured from the same E0 compare
    return;
  }
  // a copy of the scene's system as it is now, then the lane's own set-up
  auto own = std::make_unique<sim::System>(*system_);
  applyLaneSettings(setup, *own);
  lanes_.emplace_back(*own, from.state(), method, dt);
  setups_.push_back({std::move(own), setup, setupText});
}

void LaneGroup::followScene() {
  for (Setup& s : setups_)
    if (s.system) followParameters(*system_, s.settings, *s.system);
}

void LaneGroup::setGrab(int body, const sim::Vec3& target, double stiffness) {
  for (Setup& s : setups_)
    if (s.system) s.system->setGrab(body, target, stiffness);
}

util::Problem LaneGroup::remove(int i) {
  if (i < 1 || i >= size())
    return "lane " + std::to_string(i) + ": not a lane that can go (lane 0 stays)";
  lanes_.erase(lanes_.begin() + i);
  setups_.erase(setups_.begin() + i);
  return std::nullopt;
}

util::Expected<std::vector<Lane*>> LaneGroup::select(int lane) {
  if (lane != -1 && (lane < 0 || lane >= size()))
    return util::fail("lane " + std::to_string(lane) + ": no such lane");
  std::vector<Lane*> out;
  if (lane == -1)
    for (Lane& l : lanes_) out.push_back(&l);
  else
    out.push_back(&(*this)[lane]);
  return out;
}

void LaneGroup::setDt(const std::vector<Lane*>& lanes, double dt) {
  for (Lane* lane : lanes) {
    if (lane == &lanes_.front()) clock_.restartAt(time());
    lane->setDt(dt);  // time_fe refactorises once
  }
}

bool LaneGroup::step() {
  if (!anyAlive()) return false;
  lanes_.front().step();  // a diverged lane 0 stays; its clock goes on for the others
  clock_.tick();
  const double t = time();
  for (size_t i = 1; i < lanes_.size(); ++i) lanes_[i].stepTo(t);
  return anyAlive();
}

History::Entry LaneGroup::checkpoint() const {
  History::Entry e;
  for (const Lane& lane : lanes_) e.lanes.push_back(lane.checkpoint());
  e.clock = clock_;
  e.t = time();
  return e;
}

void LaneGroup::seek(const History::Entry& e) {
  for (size_t i = 0; i < lanes_.size(); ++i)
    lanes_[i].seek(i < e.lanes.size() ? e.lanes[i] : e.lanes.front());
  clock_ = e.clock;
  // lane 0's dt changed since: its steps count from a new origin at the kept time
  if (e.lanes.front().dt != primary().dt()) clock_.restartAt(e.t);
}

}  // namespace lab
