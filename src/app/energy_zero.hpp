// Gravity's zero in the Diagnostics section's energy bars and energy plot
// (docs/lab.md#the-zero-of-the-potential): the choice (the panel's "Potential zero" combo, through
// ui::SetPotentialZero), its reference found once per system and parameters, and the shift of
// the panel's energies to it. The ledger, the drift, the caption and the CSV files keep the
// contract's origin (docs/integrators.md#energies).
#pragma once

#include <vector>

#include "app/loaded_scene.hpp"
#include "app/timeline.hpp"
#include "lab/potential_zero.hpp"

namespace ui {
struct PlotsView;
}

namespace app {

class EnergyZero {
 public:
  lab::PotentialZero zero() const { return zero_; }
  void set(lab::PotentialZero z) { zero_ = z, key_.clear(); }
  void newSystem() { ++systems_; }  // a load or an edit: the reference afresh
  // Each lane's energy bars and lane 0's potential and total series measured from the zero; the
  // combo's choices, the choice and its note.
  void shift(const scene::Built& built, const Timeline& timeline, ui::PlotsView& v) const;

 private:
  const lab::ZeroReference& reference(const scene::Built& built) const;
  lab::PotentialZero zero_ = lab::kDefaultPotentialZero;
  long long systems_ = 0;
  // the reference found, and what it was found for: the choice, the system and its parameters
  // (not the grab: a hand must not move the zero)
  mutable lab::ZeroReference reference_;
  mutable std::vector<double> key_;
};

}  // namespace app
