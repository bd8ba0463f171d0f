// The one way a fallible function reports its failure (docs/architecture.md#reporting-errors):
// a check, or an action with no value, returns a util::Problem, nothing when all went well, else
// its one-line problem; a function with a value returns a util::Expected<T>, the value or the
// one-line problem. No out-parameters, no flags: what went wrong travels with the result.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace util {

// Nothing when the check passed or the action succeeded; else what went wrong, one line.
using Problem = std::optional<std::string>;

// A problem on its way into an Expected<T> of any T: `return util::fail("lane 5: no such lane");`
struct Failure {
  std::string problem;
};

inline Failure fail(std::string problem) {
  return Failure{std::move(problem)};
}

// A value of type T, or the one-line problem that stands for it. Asking for the value of a
// problem (or the problem of a value) is a programming error: std::bad_variant_access.
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Expected(Failure f) : v_(std::in_place_index<1>, std::move(f.problem)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const std::string& problem() const { return std::get<1>(v_); }
  // The problem as a Problem: nothing when there is a value (a check that needs no value).
  Problem error() const { return ok() ? Problem() : Problem(problem()); }

 private:
  std::variant<T, std::string> v_;  // index 1 is the problem, even when T is std::string
};

}  // namespace util
