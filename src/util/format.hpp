// Numbers in messages: at most 6 significant digits ("t = 2.132 s", "1e+30 steps"), never a raw
// double's 17 digits or std::to_string's fixed "0.000001". Files meant to be read back (CSV)
// keep their own 17 digits.
#pragma once

#include <cstdio>
#include <string>

namespace util {

inline std::string messageNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

}  // namespace util
