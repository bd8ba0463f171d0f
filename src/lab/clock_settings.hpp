// The window's own settings beside the parameter table (docs/architecture.md#one-parameter-table):
// dt, the time scale and the mouse spring's stiffness, each a row with its name, unit and range.
// The Session checks a value against its row, `--help` prints the range from it, and the panel's
// controls take it through ui::Limits, a mirror (the ui room sees no lab) that app/limits.cpp
// holds to these rows at compile time.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace lab {

enum class ClockSetting { Dt, TimeScale, GrabStiffness };

struct ClockSettingInfo {
  ClockSetting setting;
  std::string_view name;  // in messages: "dt", "time scale", "grab stiffness"
  std::string_view unit;  // SI, "" for a factor
  double lo, hi;          // the range a value must lie in
};

// In ClockSetting's order.
inline constexpr ClockSettingInfo kClockSettings[] = {
    {ClockSetting::Dt, "dt", "s", 1e-7, 0.1},
    // slow motion down to 1/64, fast-forward up to 8 times real time
    {ClockSetting::TimeScale, "time scale", "", 1.0 / 64, 8.0},
    {ClockSetting::GrabStiffness, "grab stiffness", "N/m", 1e-2, 1e5},
};

constexpr const ClockSettingInfo& clockSetting(ClockSetting s) {
  return kClockSettings[static_cast<int>(s)];
}

// "1e-7 <= S <= 0.1": the range as `--help` gives it, S the option's value.
inline std::string rangeText(ClockSetting s) {
  char text[64];
  std::snprintf(text, sizeof text, "%g <= S <= %g", clockSetting(s).lo, clockSetting(s).hi);
  std::string out = text;
  for (const char* padded : {"e-0", "e+0"})  // %g's two-digit exponent: 1e-07 reads 1e-7
    for (size_t at; (at = out.find(padded)) != std::string::npos;) out.erase(at + 2, 1);
  return out;
}

}  // namespace lab
