// Typed, path-tracking access to a JSON object: every accessor checks type and range and throws
// scene::Error("FILE: path: problem"). Private to the scene library.
#pragma once

#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/scene_def.hpp"

namespace scene::detail {

using nlohmann::json;

std::string formatNumber(double v);

// "a, b, c": what a message lists as allowed, from the table that defines it, so that the two
// cannot disagree.
template <class Names>
std::string commaList(const Names& names) {
  std::string list;
  for (std::string_view name : names) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

class Obj {
 public:
  // Checks that j is an object whose keys are all in `allowed`.
  Obj(const json& j, std::string path, const std::string& file,
      std::initializer_list<const char*> allowed);
  Obj(const json& j, std::string path, const std::string& file,
      const std::vector<std::string>& allowed);

  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  [[noreturn]] void failHere(const std::string& what) const;
  std::string at(const std::string& key) const;  // "path.key"
  bool has(const std::string& key) const { return j_.contains(key); }
  const json& raw(const std::string& key) const { return j_.at(key); }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }

  std::string string(const std::string& key) const;
  std::optional<std::string> optString(const std::string& key) const;
  double number(const std::string& key) const;  // finite
  std::optional<double> optNumber(const std::string& key) const;
  double positive(const std::string& key) const;     // > 0
  double nonNegative(const std::string& key) const;  // >= 0
  double optNonNegative(const std::string& key, double dflt) const;
  double optPositive(const std::string& key, double dflt) const;
  long long integer(const std::string& key, long long lo, long long hi) const;
  bool boolean(const std::string& key, bool dflt) const;
  Vec3 vec(const std::string& key) const;
  Vec3 optVec(const std::string& key, const Vec3& dflt) const;
  std::vector<double> numbers(const std::string& key) const;  // array of finite numbers

 private:
  template <class Names>
  void checkKeys(const Names& allowed) const;
  const json& j_;
  std::string path_;
  const std::string& file_;
};

// A number at an arbitrary path (array elements).
double finiteNumber(const json& j, const std::string& path, const std::string& file);

}  // namespace scene::detail
