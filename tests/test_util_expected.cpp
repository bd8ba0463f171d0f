// util::Expected and util::Problem (util/expected.hpp), the one way a fallible function reports
// its failure (docs/architecture.md#reporting-errors).
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "util/expected.hpp"

namespace {

util::Expected<int> half(int n) {
  if (n % 2 != 0) return util::fail(std::to_string(n) + ": odd");
  return n / 2;
}

util::Problem checkPositive(int n) {
  if (n <= 0) return "must be positive, not " + std::to_string(n);
  return std::nullopt;
}

}  // namespace

TEST_CASE("util::Expected: a value, or its one-line problem") {
  const util::Expected<int> v = half(8);
  CHECK(v.ok());
  CHECK(static_cast<bool>(v));
  CHECK(*v == 4);
  CHECK(v.value() == 4);
  CHECK_FALSE(v.error().has_value());

  const util::Expected<int> p = half(7);
  CHECK_FALSE(p.ok());
  CHECK_FALSE(static_cast<bool>(p));
  CHECK(p.problem() == "7: odd");
  CHECK(p.error() == std::string("7: odd"));
}

TEST_CASE("util::Expected<std::string>: the value and the problem are told apart") {
  // both are strings: which one it holds is how it was made, never its text
  const util::Expected<std::string> text = std::string("cannot open the file");
  REQUIRE(text.ok());
  CHECK(*text == "cannot open the file");
  CHECK(text->size() == 20);
  const util::Expected<std::string> failed = util::fail("cannot open the file");
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.problem() == "cannot open the file");
  const util::Expected<std::string> empty = std::string();
  CHECK(empty.ok());  // an empty value is a value
  CHECK(empty->empty());
}

TEST_CASE("util::Expected: the value is moved out, kept, or changed in place") {
  util::Expected<std::vector<int>> v = std::vector<int>{1, 2, 3};
  v->push_back(4);
  (*v)[0] = 0;
  CHECK(*v == std::vector<int>{0, 2, 3, 4});
  const std::vector<int> taken = *std::move(v);
  CHECK(taken == std::vector<int>{0, 2, 3, 4});
  // a type that can only be moved
  util::Expected<std::unique_ptr<int>> owned = std::make_unique<int>(5);
  const std::unique_ptr<int> mine = std::move(owned).value();
  REQUIRE(mine);
  CHECK(*mine == 5);
}

TEST_CASE("util::Expected: asking a problem for its value (or a value for its problem) throws") {
  const util::Expected<int> p = half(3);
  CHECK_THROWS_AS((void)p.value(), std::bad_variant_access);
  CHECK_THROWS_AS((void)*p, std::bad_variant_access);
  const util::Expected<int> v = half(2);
  CHECK_THROWS_AS((void)v.problem(), std::bad_variant_access);
}

TEST_CASE("util::Problem: nothing when the check passed, else what went wrong") {
  CHECK_FALSE(checkPositive(3).has_value());
  const util::Problem p = checkPositive(-1);
  REQUIRE(p.has_value());
  CHECK(*p == "must be positive, not -1");
  // a Problem passes on as a Failure into any Expected
  const auto step = [](int n) -> util::Expected<double> {
    if (auto bad = checkPositive(n)) return util::fail(*bad);
    return 1.0 / n;
  };
  CHECK(*step(4) == 0.25);
  CHECK(step(0).problem() == "must be positive, not 0");
}
