// The JSON reader of json_reader.hpp: every accessor checks the value's type and range, and a
// problem is one line naming the file and the JSON path (docs/scenes.md#errors).
#include "scene/json_reader.hpp"

#include <charconv>

namespace scene::detail {

std::string formatNumber(double v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

namespace {
const char* typeName(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "a number";
    default:
      return "an unsupported value";
  }
}

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
}  // namespace

double finiteNumber(const json& j, const std::string& path, const std::string& file) {
  if (!j.is_number()) throw Error(file + ": " + path + ": must be a number, not " + typeName(j));
  const double v = j.get<double>();
  if (!std::isfinite(v)) throw Error(file + ": " + path + ": must be finite");
  return v;
}

Obj::Obj(const json& j, std::string path, const std::string& file,
         std::initializer_list<const char*> allowed)
    : j_(j), path_(std::move(path)), file_(file) {
  checkKeys(allowed);
}

Obj::Obj(const json& j, std::string path, const std::string& file,
         const std::vector<std::string>& allowed)
    : j_(j), path_(std::move(path)), file_(file) {
  checkKeys(allowed);
}

template <class Names>
void Obj::checkKeys(const Names& allowed) const {
  const std::string where = path_.empty() ? "(top level)" : path_;
  if (!j_.is_object())
    throw Error(file_ + ": " + where + ": must be an object, not " + typeName(j_));
  for (const auto& [key, value] : j_.items()) {
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || key == a;
    if (ok) continue;
    throw Error(file_ + ": " + join(path_, key) +
                ": unknown key (allowed here: " + commaList(allowed) + ")");
  }
}

std::string Obj::at(const std::string& key) const {
  return join(path_, key);
}

void Obj::fail(const std::string& key, const std::string& what) const {
  throw Error(file_ + ": " + at(key) + ": " + what);
}

void Obj::failHere(const std::string& what) const {
  throw Error(file_ + ": " + (path_.empty() ? "(top level)" : path_) + ": " + what);
}

std::string Obj::string(const std::string& key) const {
  if (!has(key)) fail(key, "required key is missing");
  const json& v = j_.at(key);
  if (!v.is_string()) fail(key, std::string("must be a string, not ") + typeName(v));
  return v.get<std::string>();
}

std::optional<std::string> Obj::optString(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return string(key);
}

double Obj::number(const std::string& key) const {
  if (!has(key)) fail(key, "required key is missing");
  return finiteNumber(j_.at(key), at(key), file_);
}

std::optional<double> Obj::optNumber(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return number(key);
}

double Obj::positive(const std::string& key) const {
  const double v = number(key);
  if (!(v > 0)) fail(key, "must be > 0 (got " + formatNumber(v) + ")");
  return v;
}

double Obj::nonNegative(const std::string& key) const {
  const double v = number(key);
  if (!(v >= 0)) fail(key, "must be >= 0 (got " + formatNumber(v) + ")");
  return v;
}

double Obj::optNonNegative(const std::string& key, double dflt) const {
  return has(key) ? nonNegative(key) : dflt;
}

double Obj::optPositive(const std::string& key, double dflt) const {
  return has(key) ? positive(key) : dflt;
}

long long Obj::integer(const std::string& key, long long lo, long long hi) const {
  if (!has(key)) fail(key, "required key is missing");
  const json& v = j_.at(key);
  if (!v.is_number_integer())  // 1.0 is not an integer (docs/scenes.md#springs)
    fail(key, std::string("must be an integer, not ") +
                  (v.is_number() ? "a number with a fraction or exponent" : typeName(v)));
  const std::string range = "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
  if (v.is_number_unsigned()) {
    const auto u = v.get<unsigned long long>();
    if (u > static_cast<unsigned long long>(hi) || static_cast<long long>(u) < lo)
      fail(key, range + " (got " + std::to_string(u) + ")");
    return static_cast<long long>(u);
  }
  const long long x = v.get<long long>();
  if (x < lo || x > hi) fail(key, range + " (got " + std::to_string(x) + ")");
  return x;
}

bool Obj::boolean(const std::string& key, bool dflt) const {
  if (!has(key)) return dflt;
  const json& v = j_.at(key);
  if (!v.is_boolean()) fail(key, std::string("must be true or false, not ") + typeName(v));
  return v.get<bool>();
}

Vec3 Obj::vec(const std::string& key) const {
  if (!has(key)) fail(key, "required key is missing");
  const json& v = j_.at(key);
  if (!v.is_array() || (v.size() != 2 && v.size() != 3))
    fail(key, "must be an array of 2 or 3 numbers");
  Vec3 out = Vec3::Zero();
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = finiteNumber(v[i], at(key) + "[" + std::to_string(i) + "]", file_);
  return out;
}

Vec3 Obj::optVec(const std::string& key, const Vec3& dflt) const {
  return has(key) ? vec(key) : dflt;
}

std::vector<double> Obj::numbers(const std::string& key) const {
  if (!has(key)) fail(key, "required key is missing");
  const json& v = j_.at(key);
  if (!v.is_array()) fail(key, std::string("must be an array of numbers, not ") + typeName(v));
  std::vector<double> out;
  for (size_t i = 0; i < v.size(); ++i)
    out.push_back(finiteNumber(v[i], at(key) + "[" + std::to_string(i) + "]", file_));
  return out;
}

}  // namespace scene::detail
