// The one "whole string is a number" parser (docs/architecture.md#practices): every option, event,
// lane set-up, camera and grid value reads its numbers here, so that all take the same spellings.
// A leading '+' is taken (std::from_chars takes none), a second sign is not; no spaces, nothing
// after the number; a value beyond a double's range (1e999) is not finite and so not a number.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace util {

inline std::optional<double> parseFiniteNumber(std::string_view text) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, value);
  if (text.empty() || r.ec != std::errc() || r.ptr != end || !std::isfinite(value))
    return std::nullopt;
  return value;
}

// The same into `out`, left as it was when `text` is not a number.
inline bool parseFiniteNumber(std::string_view text, double& out) {
  const std::optional<double> v = parseFiniteNumber(text);
  if (v) out = *v;
  return v.has_value();
}

// Decimal digits only (no sign), at most 18 of them (below 2^63), as a whole number.
inline std::optional<long long> parseWholeNumber(std::string_view text) {
  constexpr std::size_t kMaxDigits = 18;
  if (text.empty() || text.size() > kMaxDigits) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  long long value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace util
