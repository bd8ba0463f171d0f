// The scene writer's pen (docs/scenes.md#saved-scenes), shared by save.cpp and each kind's
// writer (mass_spring_scene.cpp, pendulum_scene.cpp). Private to the scene library.
#pragma once

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scene/scene_def.hpp"

namespace scene::detail {

// Appends the JSON text of one value; the text is built in one string (a fine cloth's file is
// tens of megabytes: no tree of JSON values in between).
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  void number(double v) {
    if (!std::isfinite(v)) throw Error("cannot save a scene with a number that is not finite");
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    // "-0" would read back as the integer 0: keep the sign of a negative zero
    if (v == 0.0 && std::signbit(v)) out_ += ".0";
  }
  void integer(long long v) { out_ += std::to_string(v); }
  void string(const std::string& s) {
    out_ += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  void vec(const Vec3& v) {
    out_ += '[';
    for (int i = 0; i < 3; ++i) {
      if (i) out_ += ", ";
      number(v[i]);
    }
    out_ += ']';
  }
  void numbers(const std::vector<double>& v) {
    out_ += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ", ";
      number(v[i]);
    }
    out_ += ']';
  }
  // `"key": ` after a comma where one is due (`first` tracks the object being written)
  void key(const char* k, bool& first) {
    out_ += first ? "" : ", ";
    first = false;
    out_ += '"';
    out_ += k;
    out_ += "\": ";
  }
  std::string& raw() { return out_; }

 private:
  std::string& out_;
};

// +0 exactly: the loader's default for a velocity or a dashpot (a -0 is written, to keep its bit)
inline bool isPlusZero(double v) {
  return v == 0.0 && !std::signbit(v);
}
inline bool isPlusZero(const Vec3& v) {
  return isPlusZero(v.x()) && isPlusZero(v.y()) && isPlusZero(v.z());
}

// The parameter table's rows of `slot` (sim::ParameterInfo::scene) that apply to def's kind, each
// as `",\n" + indent + "\"key\": value"` (save.cpp).
void writeParameters(Writer& w, const SceneDef& def, sim::SceneSlot slot, const char* indent);

}  // namespace scene::detail
