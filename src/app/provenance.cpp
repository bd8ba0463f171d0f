#include "app/provenance.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/prefs.hpp"
#include "cli/options.hpp"
#include "scene/load.hpp"
#include "scene/scene_def.hpp"
#include "util/atomic_file.hpp"
#include "util/bounded_file.hpp"
#include "util/one_line.hpp"

namespace app {

namespace {
using nlohmann::json;
// bumped when a key changes meaning: 2 has "ui" (the panel in the picture, off by default) where
// 1 had only "no_ui" (the panel shown unless it was true)
constexpr int kFormatVersion = 2;
}  // namespace

std::string provenancePath(const std::string& out, bool sequence) {
  if (!sequence) return out + ".json";
  const std::filesystem::path folder = std::filesystem::path(out).parent_path();
  return folder.empty() ? std::string("record.json") : (folder / "record.json").string();
}

bool writeProvenance(const std::string& path, const Provenance& p, std::string* error) {
  const RecordOptions& o = p.options;
  json j;
  j["springlab"] = std::string(cli::versionString());
  j["format"] = kFormatVersion;
  // the scene exactly as loaded: its definition as parsed JSON (numbers round-trip exactly)
  j["scene"] = {{"name", o.scene_name},
                {"source", o.scene_source},
                {"definition", json::parse(o.scene_json)}};
  j["integrator"] = p.integrator;
  j["dt"] = p.dt;
  j["fps"] = o.fps;
  j["width"] = o.width;
  j["height"] = o.height;
  j["seconds"] = *o.seconds;
  j["frames"] = p.frames;
  j["frames_written"] = p.frames_written;
  j["ended"] = p.ended;
  j["ui"] = o.ui;
  j["no_ui"] = !o.ui;  // what a build before "ui" reads: it replays these files the same way
  j["caption"] = o.caption;
  j["camera"] = o.camera;
  j["lanes"] = o.session.lanes;
  j["side_by_side"] = o.side_by_side;
  j["arrows"] = o.arrows;
  j["forces"] = o.forces;
  j["events"] = o.session.at;
  j["output"] = o.out;
  j["command"] = p.args;
  const util::Problem why = util::writeFileAtomically(path, j.dump(2) + "\n");
  if (!why) return true;
  if (error) *error = "cannot write " + path + ": " + *why;
  return false;
}

namespace {

// The value of `key` as T, or an exception naming it (caught below).
template <class T>
T field(const json& j, const char* key) {
  if (!j.contains(key)) throw std::runtime_error(std::string("missing key \"") + key + "\"");
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(std::string("key \"") + key + "\" has the wrong type");
  }
}

// A number of `key` from lo to hi (whole where `whole`), or an exception naming the range: a
// file's values meet the limits of the options they stand for (docs/cli.md#record), so that a
// replay never sizes a picture or a clip beyond what the command line allows.
double bounded(const json& j, const char* key, double lo, double hi, bool whole = false) {
  const double x = field<double>(j, key);
  if (!(x >= lo && x <= hi) || (whole && x != std::floor(x))) {
    char range[96];
    std::snprintf(range, sizeof range, "%s from %g to %g", whole ? "a whole number" : "a number",
                  lo, hi);
    throw std::runtime_error(std::string("key \"") + key + "\" must be " + range + ", not " +
                             j.at(key).dump());
  }
  return x;
}

// A duration or step: a number > 0 (as --seconds and --dt).
double positive(const json& j, const char* key) {
  const double x = field<double>(j, key);
  if (!(x > 0))
    throw std::runtime_error(std::string("key \"") + key + "\" must be a number > 0, not " +
                             j.at(key).dump());
  return x;
}

void fillScene(const json& j, RecordOptions& o) {
  const json& scene = j.at("scene");
  o.scene_name = field<std::string>(scene, "name");
  o.scene_source = field<std::string>(scene, "source");
  if (!scene.contains("definition") || !scene.at("definition").is_object())
    throw std::runtime_error("key \"scene.definition\" must be the scene's JSON object");
  o.scene_json = scene.at("definition").dump();
}

void fill(const json& j, RecordOptions& o) {
  fillScene(j, o);
  o.session.integrator = field<std::string>(j, "integrator");
  o.session.dt = positive(j, "dt");
  // absent in provenance files of springlab 0.8 (before lanes and events)
  if (j.contains("lanes")) o.session.lanes = field<std::string>(j, "lanes");
  if (j.contains("side_by_side")) o.side_by_side = field<bool>(j, "side_by_side");
  if (j.contains("arrows")) o.arrows = field<bool>(j, "arrows");
  if (j.contains("forces")) o.forces = field<bool>(j, "forces");
  o.session.at = field<std::vector<std::string>>(j, "events");
  o.fps = bounded(j, "fps", kMinRecordFps, kMaxRecordFps);
  o.width = int(bounded(j, "width", kMinWindowSide, kMaxRecordWidth, true));
  o.height = int(bounded(j, "height", kMinWindowSide, kMaxRecordHeight, true));
  o.seconds = positive(j, "seconds");
  // "ui" where present; a file of a build before it has only "no_ui", and that build drew the
  // panel unless no_ui was true: replayed as it was recorded
  o.ui = j.contains("ui") ? field<bool>(j, "ui") : !field<bool>(j, "no_ui");
  o.caption = field<bool>(j, "caption");
  o.camera = field<std::vector<std::string>>(j, "camera");
  scene::CameraDef probe;  // as --camera: each item must apply
  for (const std::string& item : o.camera)
    if (auto problem = scene::applyCameraOption(item, probe))
      throw std::runtime_error("key \"camera\": " + *problem);
}

}  // namespace

std::optional<std::string> readProvenance(const std::string& path, RecordOptions& o) {
  const auto text = util::readBoundedFile(path, kMaxProvenanceBytes);
  if (!text) return util::oneLine(path + ": " + text.problem());
  return parseProvenance(*text, path, o);
}

namespace {
std::optional<std::string> parseProvenanceText(std::string_view text, const std::string& name,
                                               RecordOptions& o) {
  // the scene's limit on nesting, with the two levels around its definition ("scene", then
  // "definition"): the definition is printed again, which recurses once per level
  constexpr int kMaxDepth = scene::kMaxJsonDepth + 2;
  const auto limitDepth = [](int depth, json::parse_event_t, json&) {
    if (depth > kMaxDepth)
      throw std::runtime_error("arrays and objects nested deeper than " +
                               std::to_string(kMaxDepth) + " levels");
    return true;
  };
  try {
    const json j = json::parse(text, limitDepth);
    if (!j.is_object() || !j.contains("scene") || !j.at("scene").is_object())
      return name + ": not a springlab provenance file (no \"scene\" object)";
    fill(j, o);
  } catch (const json::parse_error& e) {
    return name + ": not valid JSON (byte " + std::to_string(e.byte) + ")";
  } catch (const std::exception& e) {
    return name + ": " + e.what();
  }
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> parseProvenance(std::string_view text, const std::string& name,
                                           RecordOptions& o) {
  auto problem = parseProvenanceText(text, name, o);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

scene::SceneDef provenanceScene(const RecordOptions& o, const std::string& name) {
  try {
    return scene::parse(o.scene_json, o.scene_source);
  } catch (const scene::Error& e) {
    // the scene's message names its source first ("builtin:cloth_16: system..."): that source
    // is not at fault, the file that carried the scene is
    std::string what = e.what();
    if (const std::string source = o.scene_source + ": "; what.starts_with(source))
      what.erase(0, source.size());
    throw scene::Error(util::oneLine(name + ": key \"scene.definition\" (recorded from " +
                                     o.scene_source + "): " + what));
  }
}

}  // namespace app
