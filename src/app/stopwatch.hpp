// The panel's stopwatch on simulated time (docs/lab.md#the-stopwatch): it reads the Session's
// clock, so it holds still while paused and never depends on how fast the machine steps.
#pragma once

namespace app {

class Stopwatch {
 public:
  // t: the simulated time now (s)
  void start(double t) {
    if (!running_) origin_ = t, running_ = true;
  }
  void stop(double t) {
    if (running_) held_ += t - origin_, running_ = false;
  }
  void zero(double t) { held_ = 0.0, origin_ = t; }  // keeps running if it was
  void clear() { *this = Stopwatch(); }              // Reset, a seek, a load: stopped at 0
  double elapsed(double t) const { return held_ + (running_ ? t - origin_ : 0.0); }
  bool running() const { return running_; }

 private:
  bool running_ = false;
  double origin_ = 0.0;  // s, when it last started
  double held_ = 0.0;    // s, the time counted before that
};

}  // namespace app
