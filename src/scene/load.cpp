// Reading a scene (docs/scenes.md): the file or the built-in text, the JSON, the top level's keys,
// and the system by its "type" (the parts of load_parts.hpp).
#include "scene/load.hpp"

#include <filesystem>

#include "scene/catalog.hpp"
#include "scene/kinds.hpp"
#include "scene/load_parts.hpp"
#include "scene/method_file.hpp"
#include "sim/kinds.hpp"
#include "util/bounded_file.hpp"
#include "util/one_line.hpp"

namespace scene {
namespace {

using detail::json;
using detail::Obj;

// "line L, column C" of the byte at `pos` in `text` (both counted from 1)
std::string lineColumn(std::string_view text, size_t pos) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < std::min(pos, text.size()); ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else
      ++col;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// Whether arrays and objects nest deeper than kMaxJsonDepth anywhere in `text`, strings skipped:
// one pass before the parse. (nlohmann's parser with a callback, which checked this as each value
// was read, scans an array again at the end of each object in it: a saved 256 x 256 cloth, 400 000
// spring objects, took a minute to read instead of a second.) For any text the parser accepts
// this is the document's depth; for one it refuses, either error is reported.
bool nestedTooDeep(std::string_view text) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;  // the escaped character, a quote included
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

}  // namespace

// The JSON document, or an Error naming the line and column of the problem (load_parts.hpp).
json detail::parseJson(std::string_view text, const std::string& origin) {
  if (nestedTooDeep(text))
    throw Error(origin + ": invalid JSON: arrays and objects nested deeper than " +
                std::to_string(kMaxJsonDepth) + " levels");
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    const auto colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    // e.byte is 1-based: the byte where parsing stopped
    throw Error(origin + ": " + lineColumn(text, e.byte > 0 ? e.byte - 1 : 0) +
                ": invalid JSON: " + what);
  } catch (const json::out_of_range& e) {
    // a number too large for a double ("1e999"): name where it stands
    const std::string what = e.what();
    const auto q1 = what.find('\''), q2 = what.rfind('\'');
    if (q1 == std::string::npos || !(q2 > q1)) throw Error(origin + ": invalid JSON: " + what);
    const std::string token = what.substr(q1 + 1, q2 - q1 - 1);
    const auto pos = text.find(token);
    const std::string where = pos == std::string_view::npos ? "" : lineColumn(text, pos) + ": ";
    throw Error(origin + ": " + where + "number " + token + " is out of range (must be finite)");
  } catch (const json::exception& e) {
    throw Error(origin + ": invalid JSON: " + std::string(e.what()));
  }
}

namespace {

// "a", "a" or "b", "a", "b" or "c": the kinds' type names as a message lists them
std::string typeNames() {
  std::string out;
  const size_t n = std::size(sim::kSystemKinds);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += i + 1 == n ? " or " : ", ";
    out.append("\"").append(sim::systemName(sim::kSystemKinds[i])).append("\"");
  }
  return out;
}

// def.kind and its part of def from the top level's "system", by the kind whose name its "type" is.
void parseSystem(const Obj& top, const json& root, SceneDef& def) {
  const std::string& origin = top.file();
  if (!top.has("system")) top.fail("system", "required key is missing");
  const json& sysj = root.at("system");
  if (!sysj.is_object()) top.fail("system", "must be an object");
  if (!sysj.contains("type")) throw Error(origin + ": system.type: required key is missing");
  if (!sysj.at("type").is_string()) throw Error(origin + ": system.type: must be a string");
  const std::string type = sysj.at("type").get<std::string>();
  for (const sim::SystemKind kind : sim::kSystemKinds) {
    if (sim::systemName(kind) != type) continue;
    def.kind = kind;
    detail::sceneKind(kind).parse(sysj, origin, def);
    return;
  }
  throw Error(origin + ": system.type: must be " + typeNames() + ", not \"" + type + "\"");
}

SceneDef parseText(std::string_view text, const std::string& origin) {
  const json root = detail::parseJson(text, origin);
  Obj top(root, "", origin,
          detail::withParameterKeys(
              {"name", "description", "integrator", "dt", "duration", "system", "ui", "render"},
              sim::SceneSlot::Top));
  SceneDef def;
  def.name = top.optString("name").value_or("");
  def.description = top.optString("description").value_or("");
  def.dt = top.optPositive("dt", def.dt);
  def.duration = top.optNonNegative("duration", def.duration);
  parseSystem(top, root, def);
  detail::parseParameters(top, sim::SceneSlot::Top, def.kind, def.parameters);
  if (top.has("render")) def.render = detail::parseRender(top.raw("render"), origin);
  const std::string integ = top.optString("integrator").value_or("rk4");
  // a method file's path is taken from the scene's folder, as a mesh's is (docs/scenes.md#mesh)
  const bool fromFile = !origin.starts_with("builtin:");
  const std::string folder =
      fromFile ? std::filesystem::path(origin).parent_path().string() : std::string();
  const auto lookup = scene::lookupIntegrator(integ, def.kind, folder);
  if (!lookup.method) top.fail("integrator", lookup.error);
  def.integrator = *lookup.method;
  return def;
}

}  // namespace

SceneDef parse(std::string_view text, const std::string& origin) {
  try {
    return parseText(text, origin);
  } catch (const Error& e) {
    throw Error(util::oneLine(e.what()));  // a key's or a file's name may hold a line break
  }
}

SceneDef loadFile(const std::string& path) {
  const auto text = util::readBoundedFile(path, kMaxSceneBytes);
  if (!text) throw Error(util::oneLine(path + ": " + text.problem()));
  return parse(*text, path);
}

SceneDef loadSceneArg(const std::string& arg) {
  if (const auto* text = findBuiltin(arg)) return parse(*text, "builtin:" + arg);
  // asked without opening the file: opening a FIFO would wait for a writer
  std::error_code ec;
  const bool exists = std::filesystem::exists(arg, ec);
  const bool looksLikePath = arg.find('/') != std::string::npos || arg.ends_with(".json");
  if (!exists && !looksLikePath)
    throw Error(util::oneLine(
        arg + ": no such file and no built-in scene of that name (see springlab list)"));
  return loadFile(arg);
}

}  // namespace scene
