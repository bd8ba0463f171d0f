// The provenance file of a recording (docs/cli.md#the-provenance-file): everything needed to
// render the same frames again, with `springlab record --replay FILE.json --out OTHER`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/record.hpp"
#include "scene/load.hpp"

namespace app {

struct Provenance {
  RecordOptions options;          // as resolved: scene text, integrator, dt, seconds, size...
  std::string integrator;         // the integrator used (resolved name)
  double dt = 0.0;                // s, as used
  long long frames = 0;           // frames planned, round(seconds * fps)
  long long frames_written = 0;   // frames in the output
  std::string ended;              // "complete", "interrupted" or "diverged"
  std::vector<std::string> args;  // the command line after `record`
};

// The provenance file beside `out`: out + ".json", or record.json in an image sequence's folder.
std::string provenancePath(const std::string& out, bool sequence);
// Writes it atomically; false with `error`.
bool writeProvenance(const std::string& path, const Provenance& p, std::string* error);
// A provenance file larger than this is refused before it is read: it holds one scene (at most
// scene::kMaxSceneBytes as text) and a few options, and twice that leaves room for its quoting.
inline constexpr std::size_t kMaxProvenanceBytes = 2 * scene::kMaxSceneBytes;
// Reads one back into `o` (scene text, integrator, dt, fps, size, seconds, ui or an older file's
// no_ui, caption, camera, lanes, events); the problem (naming the file and key) or nothing.
std::optional<std::string> readProvenance(const std::string& path, RecordOptions& o);
// The same from the file's text, `name` naming it in the problem ("NAME: key \"fps\" must be...");
// every value within the limits the command line's options have (fps, size, seconds, dt, camera).
std::optional<std::string> parseProvenance(std::string_view text, const std::string& name,
                                           RecordOptions& o);
// The scene a provenance file `name` holds (o.scene_json, read back by readProvenance), parsed
// as from where it was recorded (o.scene_source: its meshes are found where they were). Its
// problems are the file's: scene::Error "p.json: key \"scene.definition\" (recorded from
// builtin:cloth_16): system.springs[0].stiffness: must be > 0 (got -1)".
scene::SceneDef provenanceScene(const RecordOptions& o, const std::string& name);

}  // namespace app
