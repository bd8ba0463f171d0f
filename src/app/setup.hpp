// Loading a session from the command line's SCENE, --integrator, --dt, --lanes and --at: the
// window and record share it, so both accept and reject the same values with the same messages.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/session.hpp"

namespace app {

// What the command line asks of a session beyond its scene.
struct SessionOptions {
  std::string integrator;       // empty: the scene's
  double dt = 0.0;              // s; 0: the scene's
  std::string lanes;            // SPEC,SPEC (docs/cli.md#compare); empty: one lane
  std::vector<std::string> at;  // events T:KEY=VALUE, as given
};

// The syntax of one --at (the scene is not known yet); the problem ("--at: ...") or nothing.
std::optional<std::string> checkEventSyntax(const std::string& text);

// Loads `scene` (a built-in name or a .json path) and applies the options. Returns the one-line
// message for standard error ("FILE: path: what", or "PREFIX: --integrator: ...", "PREFIX: --dt:
// ...", "PREFIX: --lanes: ...", "PREFIX: --at: ...") or nothing.
std::optional<std::string> setUpSession(Session& s, const std::string& scene,
                                        const SessionOptions& o, const std::string& prefix);

// What the messages call each session option: the command line's names, or a provenance file's
// keys ("p.json: key \"integrator\""), so that a replay's bad value blames the file.
struct SessionOptionNames {
  std::string integrator = "--integrator", dt = "--dt", lanes = "--lanes", at = "--at";
  static SessionOptionNames ofFile(const std::string& path);
};

// The second half of setUpSession, for a session loaded otherwise (a provenance file's scene).
std::optional<std::string> applySessionOptions(Session& s, const SessionOptions& o,
                                               const std::string& prefix,
                                               const SessionOptionNames& names = {});

}  // namespace app
