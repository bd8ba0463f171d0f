// The panel's ranges (ui::Limits) are the Session's rows (lab/clock_settings.hpp): the ui room
// cannot see lab, so it keeps a mirror, and this file, which sees both, holds the two together.
#include "lab/clock_settings.hpp"
#include "ui/panel.hpp"

namespace app {

namespace {
constexpr bool mirrors(lab::ClockSetting s, double lo, double hi) {
  return lab::clockSetting(s).lo == lo && lab::clockSetting(s).hi == hi;
}
}  // namespace

static_assert(mirrors(lab::ClockSetting::Dt, ui::Limits::kDtMin, ui::Limits::kDtMax));
static_assert(mirrors(lab::ClockSetting::TimeScale, ui::Limits::kTimeScaleMin,
                      ui::Limits::kTimeScaleMax));
static_assert(mirrors(lab::ClockSetting::GrabStiffness, ui::Limits::kGrabStiffnessMin,
                      ui::Limits::kGrabStiffnessMax));

}  // namespace app
