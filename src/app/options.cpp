// The window's and record's command-line options (docs/cli.md#the-window, docs/cli.md#record)
// parsed into their structs. Kept free of GL, so that the options fuzz target (docs/fuzzing.md)
// runs these very parsers.
#include <optional>
#include <string>
#include <vector>

#include "app/prefs.hpp"
#include "app/record.hpp"
#include "app/viewer.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "lab/events.hpp"
#include "scene/load.hpp"
#include "util/one_line.hpp"

namespace app {

std::optional<std::string> checkEventSyntax(const std::string& text) {
  lab::Event e;
  if (auto bad = lab::parseEvent(text, e)) return "--at: " + *bad;
  return std::nullopt;
}

namespace {

constexpr int kMinFps = kMinRecordFps, kMaxFps = kMaxRecordFps;
constexpr int kMinSide = kMinWindowSide, kMaxWidth = kMaxRecordWidth, kMaxHeight = kMaxRecordHeight;

// One option's value into `o`; the problem or nothing. The names are cli::recordOptions().
std::optional<std::string> applyRecordOption(const std::string& name, const std::string& v,
                                             RecordOptions& o) {
  double x = 0.0;
  if (name == "--out") {
    if (v.empty()) return "--out: missing file name";
    o.out = v;
  } else if (name == "--seconds") {
    if (!cli::parseDouble(v, x) || !(x > 0))
      return "--seconds: must be a finite number > 0, not \"" + v + "\"";
    o.seconds = x;
  } else if (name == "--fps") {
    if (!cli::parseDouble(v, x) || !(x >= kMinFps && x <= kMaxFps))
      return "--fps: must be a number from " + std::to_string(kMinFps) + " to " +
             std::to_string(kMaxFps) + ", not \"" + v + "\"";
    o.fps = x;
  } else if (name == "--size") {
    if (!parseWindowSize(v, o.width, o.height) || o.width > kMaxWidth || o.height > kMaxHeight)
      return "--size: must be WxH with " + std::to_string(kMinSide) +
             " <= W <= " + std::to_string(kMaxWidth) + " and " + std::to_string(kMinSide) +
             " <= H <= " + std::to_string(kMaxHeight) + ", not \"" + v + "\"";
  } else if (name == "--integrator") {
    o.session.integrator = v;
  } else if (name == "--dt") {
    if (!cli::parseDouble(v, o.session.dt) || !(o.session.dt > 0))
      return "--dt: must be a finite number > 0, not \"" + v + "\"";
  } else if (name == "--lanes") {
    if (v.empty()) return std::string("--lanes: missing SPEC,SPEC");
    o.session.lanes = v;
  } else if (name == "--at") {
    if (auto bad = checkEventSyntax(v)) return bad;
    o.session.at.push_back(v);
  } else if (name == "--ui") {
    o.ui = true;
  } else if (name == "--no-ui") {  // the default; the last of --ui and --no-ui wins
    o.ui = false;
  } else if (name == "--side-by-side") {
    o.side_by_side = true;
  } else if (name == "--caption") {
    o.caption = true;
  } else if (name == "--arrows") {
    o.arrows = true;
  } else if (name == "--forces") {
    o.forces = true;
  } else if (name == "--stats") {
    o.stats = true;
  } else if (name == "--camera") {
    scene::CameraDef probe;
    if (auto problem = scene::applyCameraOption(v, probe)) return "--camera: " + *problem;
    o.camera.push_back(v);
  } else if (name == "--replay") {
    o.replay = v;
  } else {
    return "option " + name + " is not handled by record";  // a table entry nothing handles
  }
  return std::nullopt;
}

}  // namespace

namespace {
std::optional<std::string> parseRecordOptionsText(const std::vector<std::string>& args,
                                                  RecordOptions& o) {
  cli::SplitArgs split;
  if (auto problem = cli::splitArgs(args, cli::recordOptions(), split)) return problem;
  for (const cli::GivenOption& given : split.options)
    if (auto problem = applyRecordOption(std::string(given.spec->name), given.value, o))
      return problem;
  // a missing SCENE is reported last: --replay takes its scene from the provenance file
  if (auto problem = cli::takeScene(split, o.scene, cli::SceneArg::Optional)) return problem;
  if (o.out.empty()) return "--out FILE is required (.mp4, .webm, .gif, .png or frames/%05d.png)";
  if (!o.replay.empty()) {
    if (!o.scene.empty() || split.options.size() != 2)
      return "--replay takes only --out: the rest comes from the provenance file";
    return std::nullopt;
  }
  if (o.scene.empty()) return cli::missingScene();
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> parseRecordOptions(const std::vector<std::string>& args,
                                              RecordOptions& o) {
  auto problem = parseRecordOptionsText(args, o);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

namespace {
// One window option's value into `o`; false with `error` set. The names are cli::windowOptions().
bool applyViewerOption(const std::string& name, const std::string& v, ViewerOptions& o,
                       std::string& error) {
  if (name == "--integrator") {
    o.session.integrator = v;
  } else if (name == "--dt") {
    if (!cli::parseDouble(v, o.session.dt) || !(o.session.dt > 0))
      return error = "--dt: must be a finite number > 0, not \"" + v + "\"", false;
  } else if (name == "--lanes") {
    if (v.empty()) return error = "--lanes: missing SPEC,SPEC", false;
    o.session.lanes = v;
  } else if (name == "--at") {
    if (auto bad = checkEventSyntax(v)) return error = *bad, false;
    o.session.at.push_back(v);
  } else if (name == "--size") {
    o.size_given = true;
    if (!parseWindowSize(v, o.width, o.height))
      return error = "--size: must be WxH with 16 <= W, H <= 16384, not \"" + v + "\"", false;
  } else if (name == "--frames") {
    if (!cli::parseWhole(v, o.frames) || o.frames < 1)
      return error = "--frames: must be a whole number >= 1, not \"" + v + "\"", false;
  } else if (name == "--screenshot") {
    o.screenshot = v;
    if (o.screenshot.empty()) return error = "--screenshot: missing file name", false;
  } else if (name == "--headless") {
    o.headless = true;
  } else if (name == "--no-ui") {
    o.no_ui = true;
  } else if (name == "--side-by-side") {
    o.side_by_side = true;
  } else if (name == "--stats") {
    o.stats = true;
  } else {
    // a name in the table that nothing here handles: a programming error, caught by a test
    return error = "option " + name + " is not handled by the window", false;
  }
  return true;
}
}  // namespace

// The problem in one line (util/one_line.hpp): a value may hold a line break
int parseViewerOptions(const std::vector<std::string>& args, ViewerOptions& o, std::string& error) {
  cli::SplitArgs split;
  if (const auto problem = cli::splitArgs(args, cli::windowOptions(), split)) {
    error = util::oneLine(*problem);
    return 2;
  }
  for (const cli::GivenOption& given : split.options)
    if (!applyViewerOption(std::string(given.spec->name), given.value, o, error)) {
      error = util::oneLine(error);
      return 2;
    }
  // no SCENE: the last session's, else the default (loadScene)
  if (auto problem = cli::takeScene(split, o.scene, cli::SceneArg::Optional)) {
    error = util::oneLine(*problem);
    return 2;
  }
  if (!split.positional.empty()) o.scene_given = true;
  return 0;
}

}  // namespace app
