#include "app/energy_zero.hpp"

#include "sim/parameters.hpp"
#include "ui/panel.hpp"

namespace app {

const lab::ZeroReference& EnergyZero::reference(const scene::Built& b) const {
  std::vector<double> key{static_cast<double>(systems_), static_cast<double>(zero_)};
  for (const sim::ParameterInfo& row : sim::parameters()) {
    key.push_back(b.parameter(row.parameter));
    const sim::Vec3 v = b.vectorParameter(row.parameter);
    key.insert(key.end(), {v.x(), v.y(), v.z()});
  }
  if (key != key_) {
    reference_ = lab::zeroReference(b, b.state, zero_);
    key_ = std::move(key);
  }
  return reference_;
}

void EnergyZero::shift(const scene::Built& built, const Timeline& timeline,
                       ui::PlotsView& v) const {
  v.potential_zeros.clear(), v.potential_zero_tips.clear();
  for (const lab::PotentialZeroInfo& z : lab::kPotentialZeros)
    v.potential_zeros.emplace_back(z.name), v.potential_zero_tips.emplace_back(z.tip);
  v.potential_zero = 0;
  for (size_t i = 0; i < std::size(lab::kPotentialZeros); ++i)
    if (lab::kPotentialZeros[i].zero == zero_) v.potential_zero = static_cast<int>(i);
  const lab::ZeroReference& ref = reference(built);
  v.potential_zero_note = ref.note;
  v.zero_moved = ref.rest || ref.line;
  v.potential_offset = 0.0;
  for (int i = 0; i < timeline.laneCount() && i < static_cast<int>(v.energy_bars.size()); ++i) {
    const double at_zero = lab::gravityAtZero(timeline.lane(i).system(), ref);
    ui::EnergyBars& b = v.energy_bars[static_cast<size_t>(i)];
    b.gravitational -= at_zero, b.total -= at_zero, b.e0 -= at_zero;  // error: a difference
    if (i == 0) v.potential_offset = at_zero;
  }
}

}  // namespace app
