// The timeline of past states (docs/lab.md#the-timeline): every lane's state at regular moments of
// simulated time, in a ring bounded by memory. When the budget is reached the ring is thinned
// (every other state dropped, the spacing doubled), so it always spans the whole run at a
// coarser grain instead of forgetting the start or running out of memory.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include "lab/lane.hpp"

namespace lab {

class History {
 public:
  struct Entry {
    std::vector<Lane::Checkpoint> lanes;  // lane i's, for the lanes that existed then
    StepClock clock;                      // the lanes' clock (lab::LaneGroup)
    double t = 0.0;                       // s, its time
  };

  // Keeps one state per `spacing` of simulated time at first, in at most `budgetBytes`.
  History(std::size_t budgetBytes, double spacing);

  void clear();
  // Whether a state at time t is due (the spacing since the newest has passed).
  bool due(double t) const { return entries_.empty() || t >= entries_.back().t + spacing_; }
  // Appends a state (the caller checks due()); thins the ring when it is over budget.
  void push(Entry e);
  // Drops the states after time t (the future was rewritten: a seek, then a step).
  void dropAfter(double t);
  // The newest state at or before time t, or the oldest if none; -1 when empty.
  int indexAtOrBefore(double t) const;

  std::size_t size() const { return entries_.size(); }
  const Entry& at(std::size_t i) const { return entries_[i]; }
  std::size_t bytes() const { return bytes_; }
  std::size_t budget() const { return budget_; }
  double spacing() const { return spacing_; }  // s, between two kept states now
  void setBudget(std::size_t budgetBytes);

 private:
  static std::size_t sizeOf(const Entry& e);
  void thin();  // every other state dropped (the newest kept), the spacing doubled
  std::deque<Entry> entries_;
  std::size_t budget_;
  std::size_t bytes_ = 0;
  double spacing_, initial_spacing_;
};

}  // namespace lab
