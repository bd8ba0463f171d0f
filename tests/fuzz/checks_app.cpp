// fuzz::checkProvenance and fuzz::parseAppOptions (tests/fuzz/checks.hpp): apart from the other
// checks because they need the app room's headers (app/provenance.hpp, app/record.hpp,
// app/viewer.hpp; no GL) and its GL-free sources (provenance.cpp, options.cpp, prefs.cpp), which
// the build of the fuzz targets and the normal suite each provide.
#include <cmath>

#include "app/prefs.hpp"
#include "app/provenance.hpp"
#include "app/record.hpp"
#include "app/viewer.hpp"
#include "checks.hpp"
#include "lab/events.hpp"
#include "lab/lane_spec.hpp"
#include "scene/load.hpp"

namespace fuzz {
namespace {

constexpr std::string_view kProvenanceName = "fuzz.mp4.json";
constexpr std::string_view kBuiltin = "builtin:";
constexpr std::string_view kFallbackSource = "builtin:fuzz";

// What --replay would go on with: every value within the limits of its command-line option.
std::optional<std::string> outOfLimits(const app::RecordOptions& o) {
  if (!(o.fps >= app::kMinRecordFps && o.fps <= app::kMaxRecordFps))
    return "accepted fps " + std::to_string(o.fps);
  if (o.width < app::kMinWindowSide || o.width > app::kMaxRecordWidth ||
      o.height < app::kMinWindowSide || o.height > app::kMaxRecordHeight)
    return "accepted a size of " + std::to_string(o.width) + "x" + std::to_string(o.height);
  if (!o.seconds || !(*o.seconds > 0) || !std::isfinite(*o.seconds))
    return std::string("accepted seconds that are not a finite number > 0");
  if (!(o.session.dt > 0) || !std::isfinite(o.session.dt))
    return std::string("accepted a dt that is not a finite number > 0");
  return std::nullopt;
}

// The scene as --replay reads it, from its source so that its meshes are found, but only from a
// built-in one: a fuzzed path must never read the machine's files. Then its lanes and events.
std::optional<std::string> replayScene(const app::RecordOptions& o) {
  const std::string source =
      o.scene_source.starts_with(kBuiltin) ? o.scene_source : std::string(kFallbackSource);
  try {
    const scene::SceneDef def = scene::parse(o.scene_json, source);
    if (!o.session.lanes.empty()) {
      std::vector<lab::LaneSpec> lanes;
      if (auto problem = lab::parseLaneSpecs(o.session.lanes, def.kind, lanes))
        if (auto bad = notOneLine(*problem)) return bad;
    }
    for (const std::string& text : o.session.at) {
      lab::Event e;
      if (auto problem = lab::parseEvent(text, e))
        if (auto bad = notOneLine(*problem)) return bad;
    }
    return buildAndStep(def);
  } catch (const scene::Error& e) {
    return badError(e.what(), source);
  }
}

}  // namespace

std::optional<std::string> checkProvenance(std::string_view bytes) {
  return guarded([&]() -> std::optional<std::string> {
    app::RecordOptions o;
    if (auto problem = app::parseProvenance(bytes, std::string(kProvenanceName), o))
      return badError(*problem, kProvenanceName);
    if (auto problem = outOfLimits(o)) return problem;
    return replayScene(o);
  });
}

std::optional<std::string> parseAppOptions(bool record, const std::vector<std::string>& args) {
  if (record) {
    app::RecordOptions o;
    return app::parseRecordOptions(args, o);
  }
  app::ViewerOptions o;
  std::string error;
  if (app::parseViewerOptions(args, o, error) == 0) return std::nullopt;
  if (error.empty()) return std::string("the window's parser failed without a message");
  return error;
}

}  // namespace fuzz
