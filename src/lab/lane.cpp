#include "lab/lane.hpp"

#include <cmath>

namespace lab {

long long nearestStep(double origin, double dt, double t) {
  return std::llround((t - origin) / dt);
}

Lane::Lane(const sim::System& system, const sim::State& from, sim::Method method, double dt)
    : system_(&system), stepper_(system.stepper(method, dt, from)) {
  reanchor();
}

bool Lane::step() {
  if (divergence_) return false;
  if ((divergence_ = stepper_->advance())) return false;
  ++steps_;
  // NaN: the method solves nothing; compared quietly (an ordered > on NaN raises FE_INVALID)
  const double r = stepper_->lastResidual();
  if (std::isgreater(r, worst_residual_.value) ||
      (std::isnan(worst_residual_.value) && !std::isnan(r)))
    worst_residual_ = {r, method()};
  return true;
}

void Lane::stepTo(double t) {
  const sim::Stepper::Clock c = clock();
  const long long due = nearestStep(c.origin, dt(), t) - c.steps;
  for (long long k = 0; k < due && step(); ++k) {
  }
}

const std::optional<sim::Divergence>& Lane::checkRunaway(const sim::Energy* now) {
  if (divergence_) return divergence_;
  system_->positions(state(), positions_);
  const double e = now ? now->total() : energy().total();
  divergence_ = system_->runaway(scales_, e0_, e, positions_, state().t, method());
  return divergence_;
}

void Lane::restart(const sim::State& s) {
  restart(s, 0);
}

void Lane::restart(const sim::State& s, long long steps) {
  stepper_ = system_->stepper(method(), dt(), s);
  steps_ = steps;
  divergence_.reset();
  worst_residual_ = {};
  reanchor();
}

void Lane::seek(const Checkpoint& c) {
  stepper_ = system_->stepper(method(), dt(), c.state);
  // the kept clock counts steps of the kept dt: in another dt it would read another time
  stepper_->setClock(c.dt == dt() ? c.clock : sim::Stepper::Clock{c.state.t, 0});
  stepper_->setWork(c.work);
  steps_ = c.steps;
  divergence_.reset();
}

void Lane::reanchor() {
  e0_ = energy().total();
  scales_ = system_->scales(state());
  work0_ = stepper_->work();
}

void Lane::copyAnchor(const Lane& other) {
  e0_ = other.e0_, scales_ = other.scales_;
  // this lane's work counts from 0: its anchor sits below it by the other's work since its anchor
  const sim::Work& mine = stepper_->work();
  const sim::Work& theirs = other.stepper_->work();
  work0_.dissipated = mine.dissipated - (theirs.dissipated - other.work0_.dissipated);
  work0_.external = mine.external - (theirs.external - other.work0_.external);
  work0_.contacts = mine.contacts - (theirs.contacts - other.work0_.contacts);
}

Lane::Ledger Lane::ledger() const {
  Ledger l;
  l.total = energy().total();
  l.dissipated = stepper_->work().dissipated - work0_.dissipated;
  l.external = stepper_->work().external - work0_.external;
  l.contacts = stepper_->work().contacts - work0_.contacts;
  l.residual = l.total - e0_ + l.dissipated + l.contacts - l.external;
  return l;
}

}  // namespace lab
