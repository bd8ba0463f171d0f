// The command-line options of every subcommand, one table each: the parsers accept exactly the
// names in a table and the help text is printed from the same table, so they cannot disagree
// (docs/cli.md). The window's table lives here too so that `springlab --help` can list it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

using Args = std::vector<std::string>;  // the arguments after the subcommand name

struct OptionSpec {
  std::string_view name;         // "--dt"
  std::string_view placeholder;  // "S" in "--dt S"; empty for a flag that takes no value
  std::string_view help;         // one line: what the option means ({event keys}: --at's keys)
  std::string_view fallback;     // the default, as the help prints it; empty: none worth saying
};
using OptionTable = std::span<const OptionSpec>;

OptionTable runOptions();
OptionTable benchOptions();
OptionTable compareOptions();
OptionTable infoOptions();
OptionTable sweepOptions();
OptionTable orderOptions();
OptionTable windowOptions();  // parsed by app::parseViewerOptions
OptionTable recordOptions();  // parsed by app::parseRecordOptions

const OptionSpec* findOption(OptionTable table, std::string_view name);

// One option as given on the command line, with its value ("" for a flag).
struct GivenOption {
  const OptionSpec* spec = nullptr;
  std::string value;
};
struct SplitArgs {
  std::vector<GivenOption> options;  // in command-line order
  std::vector<std::string> positional;
};
// Splits `args` into options from `table` (`--name value` or `--name=value`; a flag takes no
// value) and positional arguments. Returns the problem ("unknown option --x", "--dt: missing
// value") or nothing.
std::optional<std::string> splitArgs(const Args& args, OptionTable table, SplitArgs& out);

// Whether a command must be given its SCENE, or may go without (the window, record --replay).
enum class SceneArg { Required, Optional };
// The one positional argument, SCENE, into `scene` (left as it is when there is none). Returns
// the problem: a second positional argument ("unexpected argument \"x\" (one SCENE only)"), or
// none where one is required (missingScene()).
std::optional<std::string> takeScene(const SplitArgs& split, std::string& scene,
                                     SceneArg need = SceneArg::Required);
// "missing SCENE (a .json file or a built-in name from springlab list)": for a command that
// checks other options before it asks for its scene (record).
std::string missingScene();

// "  --dt S            fixed step, s (default: the scene's)" lines, aligned, one per option.
std::string optionsHelp(OptionTable table);

// The help of one subcommand ("run", "list", "bench", "record"), or the overview for "".
// Returns nothing for an unknown name.
std::optional<std::string> usage(std::string_view command);

// "springlab X.Y.Z" or "springlab X.Y.Z (git 1a2b3c4[-dirty])" (generated at configure time).
std::string_view versionString();

}  // namespace cli
