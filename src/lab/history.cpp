#include "lab/history.hpp"

namespace lab {

History::History(std::size_t budgetBytes, double spacing)
    : budget_(budgetBytes), spacing_(spacing), initial_spacing_(spacing) {}

void History::clear() {
  entries_.clear();
  bytes_ = 0;
  spacing_ = initial_spacing_;
}

std::size_t History::sizeOf(const Entry& e) {
  std::size_t bytes = sizeof(Entry);
  for (const auto& c : e.lanes)
    bytes +=
        sizeof(c) + sizeof(double) * static_cast<std::size_t>(c.state.x.size() + c.state.v.size());
  return bytes;
}

void History::push(Entry e) {
  bytes_ += sizeOf(e);
  entries_.push_back(std::move(e));
  // one state alone may exceed a tiny budget: it is kept (the timeline is never empty)
  while (bytes_ > budget_ && entries_.size() > 1) thin();
}

void History::thin() {
  std::deque<Entry> kept;
  bytes_ = 0;
  // every other state counted from the newest, which always stays, and the first (the start)
  const std::size_t n = entries_.size();
  for (std::size_t i = 0; i < n; ++i)
    if ((n - 1 - i) % 2 == 0 || i == 0) {
      bytes_ += sizeOf(entries_[i]);
      kept.push_back(std::move(entries_[i]));
    }
  entries_ = std::move(kept);
  spacing_ *= 2.0;
}

void History::dropAfter(double t) {
  while (!entries_.empty() && entries_.back().t > t) {
    bytes_ -= sizeOf(entries_.back());
    entries_.pop_back();
  }
}

int History::indexAtOrBefore(double t) const {
  if (entries_.empty()) return -1;
  int i = static_cast<int>(entries_.size()) - 1;
  while (i > 0 && entries_[static_cast<std::size_t>(i)].t > t) --i;
  return i;
}

void History::setBudget(std::size_t budgetBytes) {
  budget_ = budgetBytes;
  while (bytes_ > budget_ && entries_.size() > 1) thin();
}

}  // namespace lab
