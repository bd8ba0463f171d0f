#include "app/provenance.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/options.hpp"
#include "util/atomic_file.hpp"

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
  j["events"] = o.session.at;
  j["output"] = o.out;
  j["command"] = p.args;
  std::string why;
  if (util::writeFileAtomically(path, j.dump(2) + "\n", &why)) return true;
  if (error) *error = "cannot write " + path + ": " + why;
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

void fill(const json& j, RecordOptions& o) {
  const json& scene = j.at("scene");
  o.scene_name = field<std::string>(scene, "name");
  o.scene_source = field<std::string>(scene, "source");
  if (!scene.contains("definition") || !scene.at("definition").is_object())
    throw std::runtime_error("key \"scene.definition\" must be the scene's JSON object");
  o.scene_json = scene.at("definition").dump();
  o.session.integrator = field<std::string>(j, "integrator");
  o.session.dt = field<double>(j, "dt");
  // absent in provenance files of springlab 0.8 (before lanes and events)
  if (j.contains("lanes")) o.session.lanes = field<std::string>(j, "lanes");
  if (j.contains("side_by_side")) o.side_by_side = field<bool>(j, "side_by_side");
  o.session.at = field<std::vector<std::string>>(j, "events");
  o.fps = field<double>(j, "fps");
  o.width = field<int>(j, "width");
  o.height = field<int>(j, "height");
  o.seconds = field<double>(j, "seconds");
  // "ui" where present; a file of a build before it has only "no_ui", and that build drew the
  // panel unless no_ui was true: replayed as it was recorded
  o.ui = j.contains("ui") ? field<bool>(j, "ui") : !field<bool>(j, "no_ui");
  o.caption = field<bool>(j, "caption");
  o.camera = field<std::vector<std::string>>(j, "camera");
}

}  // namespace

std::optional<std::string> readProvenance(const std::string& path, RecordOptions& o) {
  std::ifstream in(path);
  if (!in) return path + ": cannot read the provenance file";
  std::stringstream text;
  text << in.rdbuf();
  try {
    const json j = json::parse(text.str());
    if (!j.is_object() || !j.contains("scene") || !j.at("scene").is_object())
      return path + ": not a springlab provenance file (no \"scene\" object)";
    fill(j, o);
  } catch (const json::parse_error& e) {
    return path + ": not valid JSON (byte " + std::to_string(e.byte) + ")";
  } catch (const std::exception& e) {
    return path + ": " + e.what();
  }
  return std::nullopt;
}

}  // namespace app
