#include "lab/blowup.hpp"

#include <algorithm>

namespace lab {

namespace {
// A lane at `anchor` on `diverged`'s system, method, dt and energy books.
std::unique_ptr<Lane> laneAt(const Lane& diverged, const Lane::Checkpoint& anchor) {
  auto lane =
      std::make_unique<Lane>(diverged.system(), anchor.state, diverged.method(), diverged.dt());
  lane->seek(anchor);  // the checkpoint's clock and work: the same steps as before
  lane->shareAnchor(diverged);
  return lane;
}
}  // namespace

BlowUp::BlowUp(const Lane& diverged, const Lane::Checkpoint& anchor, int maxFrames) {
  const long long steps = diverged.steps() - anchor.steps;
  if (steps < 0 || maxFrames < 1 || anchor.state.x.size() != diverged.state().x.size()) return;
  replay_ = laneAt(diverged, anchor);
  for (long long k = 0; k < steps && replay_->step(); ++k) {
  }
  const sim::State& end = replay_->state();
  const sim::State& found = diverged.state();
  if (replay_->steps() != diverged.steps() || end.t != found.t || end.x != found.x ||
      end.v != found.v)
    return;  // not the same steps: no slow motion rather than a wrong one
  frames_ = static_cast<int>(std::min<long long>(steps + 1, maxFrames));
  replay_ = laneAt(diverged, anchor);
  for (long long k = 0; k < steps + 1 - frames_; ++k) replay_->step();
}

bool BlowUp::next() {
  if (frame_ + 1 >= frames_) return false;
  replay_->step();
  ++frame_;
  return true;
}

}  // namespace lab
