// What applying a command did (docs/architecture.md#the-session-and-commands), the same answer
// from every owner's applier (the Session's, the Timeline's, the Measurements', the Editor's), and
// the range check they share.
#pragma once

#include <cmath>
#include <string>

#include "lab/clock_settings.hpp"

namespace app {

// Rejected, or applied, and then what the view follows (FrameDriver::followSession): a scene
// loaded, the lanes started again (Reset, Rewind), a new scene to build on, the scene saved.
enum class Outcome { Rejected, Applied, Loaded, Restarted, NewScene, Saved };

inline Outcome appliedIf(bool applied) {
  return applied ? Outcome::Applied : Outcome::Rejected;
}

// "what: out of range" / "what: not a finite number", or empty when lo <= v <= hi
inline std::string rangeError(double v, double lo, double hi, const std::string& what) {
  if (!std::isfinite(v)) return what + ": not a finite number";
  if (v < lo || v > hi) return what + ": out of range";
  return {};
}

// The same against a row of the Session's own settings (lab/clock_settings.hpp), named as it names
// itself: "dt: out of range".
inline std::string rangeError(double v, lab::ClockSetting s) {
  const lab::ClockSettingInfo& row = lab::clockSetting(s);
  return rangeError(v, row.lo, row.hi, std::string(row.name));
}

}  // namespace app
