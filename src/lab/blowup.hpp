// The blow-up in slow motion (docs/lab.md#the-blow-up-in-slow-motion): a lane's steps from its
// last state checked intact on the blow-up grid (app::Timeline keeps it: the anchor) to the state
// the runaway rule found, one state per frame. The window's Replay slowly and a recording that
// runs away both play it through the Timeline, so that they show the same frames.
#pragma once

#include <memory>

#include "lab/lane.hpp"

namespace lab {

class BlowUp {
 public:
  // Re-steps `diverged`'s system with its method and dt from `anchor` (one of its own
  // checkpoints, taken after any event due there) to its step now, and checks that the steps
  // meet its state bit for bit: steps from a checkpoint are exact (Lane::seek), but a hand
  // (the grab, a slider) may have changed the system since. Then stands at the first frame.
  // The frames are the anchor's state and each step after it, at most `maxFrames` of them (the
  // last ones: the runaway state is always the last frame).
  BlowUp(const Lane& diverged, const Lane::Checkpoint& anchor, int maxFrames);

  // False when the steps did not meet the lane's state (or there was none to make): no frames.
  bool reproduced() const { return frames_ > 0; }
  int frames() const { return frames_; }
  int frame() const { return frame_; }  // 0 .. frames() - 1
  // The replay's lane at the current frame: its state, and its ledger on the diverged lane's books.
  const Lane& lane() const { return *replay_; }
  // One step on; false (and nothing done) at the last frame.
  bool next();

 private:
  std::unique_ptr<Lane> replay_;
  int frames_ = 0, frame_ = 0;
};

}  // namespace lab
