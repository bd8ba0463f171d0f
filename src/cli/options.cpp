#include "cli/options.hpp"

#include <algorithm>
#include <array>

#include "lab/clock_settings.hpp"
#include "lab/events.hpp"
#include "util/one_line.hpp"

namespace cli {

namespace {

// Stands in an option's help for the keys --at may set (lab::eventKeyList(), from the parameter
// table), so that a new parameter shows in every command's help at once (docs/cli.md#events).
constexpr std::string_view kEventKeys = "{event keys}";

// "integrator, dt, ..., drag or joint_damping"
std::string eventKeysInWords() {
  std::string keys = lab::eventKeyList();
  const size_t last = keys.rfind(", ");
  if (last != std::string::npos) keys.replace(last, 2, " or ");
  return keys;
}

// Stands in an option's help for dt's range in the window and `record`, the Session's own row
// (lab/clock_settings.hpp).
constexpr std::string_view kDtRange = "{dt range}";

// An option's help as printed: kEventKeys replaced by the keys, kDtRange by the range.
std::string helpText(std::string_view help) {
  std::string text(help);
  if (const size_t at = text.find(kEventKeys); at != std::string::npos)
    text.replace(at, kEventKeys.size(), eventKeysInWords());
  if (const size_t at = text.find(kDtRange); at != std::string::npos)
    text.replace(at, kDtRange.size(), lab::rangeText(lab::ClockSetting::Dt));
  return text;
}

constexpr std::array kRunOptions = {
    OptionSpec{"--integrator", "NAME", "integrator; it must apply to the system", "the scene's"},
    OptionSpec{"--dt", "S", "fixed step, s; a finite number > 0", "the scene's"},
    OptionSpec{"--duration", "S", "simulated time, s; steps = round(duration / dt)", "the scene's"},
    OptionSpec{"--every", "N", "write every N-th step (step 0 and the last step always)", "1"},
    OptionSpec{"--out", "FILE", "trajectory CSV; - is standard output", "not written"},
    OptionSpec{"--energy", "FILE", "energy CSV; - is standard output", "not written"},
    OptionSpec{"--ledger", "FILE",
               "energy ledger CSV t,lane,total,dissipated,contacts,external,residual; - is "
               "standard output",
               "not written"},
    OptionSpec{"--at", "T:KEY=VALUE", "at simulated time T set {event keys}; repeatable", ""},
};

constexpr std::array kBenchOptions = {
    OptionSpec{"--scenes", "A,B,...", "mass-spring scenes to time (built-in names or files)",
               "cloth_16,cloth_32,cloth_64,cloth_128,cloth_256"},
    OptionSpec{"--integrators", "A,B,...", "mass-spring integrators to time",
               "all that apply to mass-spring systems"},
    OptionSpec{"--seconds", "S", "wall-time budget per cell, s; a number > 0", "1"},
    OptionSpec{"--max-steps", "N", "at most N timed steps per cell (20 N in the pendulum table)",
               "500"},
    OptionSpec{"--suite", "NAME",
               "cloth (the scenes table), stiff (the stiff-cloth swing), self (self-collision's "
               "cost), pendulum (the N-link table) or all",
               "all"},
    OptionSpec{"--stiff", "A,B,...",
               "the swings (the stiff cloths, the mesh and lattice scenes): each scene with its "
               "own method, for --swing seconds",
               "cloth_128,cloth_128_xpbd,tablecloth_on_sphere,flag_in_wind,jelly_cube,jelly_ball,"
               "jelly_hanging"},
    OptionSpec{"--self", "A,B,...",
               "self-collision's cost: each scene with its own method, without and with it, for "
               "--swing seconds",
               "cloth_64,cloth_128,cloth_fold"},
    OptionSpec{"--swing", "S",
               "simulated seconds of the stiff-cloth swing and of the self-collision runs; a "
               "number > 0",
               "5"},
};

constexpr std::array kWindowOptions = {
    OptionSpec{"--integrator", "NAME", "integrator; it must apply to the system", "the scene's"},
    OptionSpec{"--dt", "S", "time step, s; {dt range}", "the scene's"},
    OptionSpec{"--lanes", "SPEC,SPEC",
               "up to 4 lanes side by side, each NAME or NAME@DT (lane 0 the first)", "one lane"},
    OptionSpec{"--at", "T:KEY=VALUE", "at simulated time T set {event keys}; repeatable", ""},
    OptionSpec{"--size", "WxH", "window size (image size when headless), pixels", "1280x720"},
    OptionSpec{"--frames", "N", "stop after N rendered frames (a scripted run)",
               "until the window is closed"},
    OptionSpec{"--screenshot", "FILE", "write the last frame to FILE as PNG before quitting", ""},
    OptionSpec{"--no-ui", "", "no panel, banner or legend: the scene only", ""},
    OptionSpec{"--side-by-side", "", "lanes in split viewports instead of overlaid", ""},
    OptionSpec{
        "--stats", "",
        "print the average frame time (simulation, rendering, presenting) and the real-time %", ""},
    OptionSpec{"--headless", "", "render through EGL even where a display exists", ""},
};

constexpr std::array kRecordOptions = {
    OptionSpec{"--out", "FILE",
               ".mp4, .webm, .gif, .png (the last frame) or a pattern like frames/%05d.png",
               "required"},
    OptionSpec{"--seconds", "S", "simulated time, s; the clip has round(S * fps) frames",
               "the scene's duration"},
    OptionSpec{"--fps", "F", "frames per second of the clip, 1 to 240", "60"},
    OptionSpec{"--size", "WxH", "image size, pixels, 16x16 to 3840x2160", "1280x720"},
    OptionSpec{"--integrator", "NAME", "integrator; it must apply to the system", "the scene's"},
    OptionSpec{"--dt", "S", "time step, s; {dt range}", "the scene's"},
    OptionSpec{"--lanes", "SPEC,SPEC",
               "up to 4 lanes side by side, each NAME or NAME@DT (lane 0 the first)", "one lane"},
    OptionSpec{"--at", "T:KEY=VALUE", "at simulated time T set {event keys}; repeatable", ""},
    OptionSpec{"--ui", "",
               "draw the panel into the picture; without it the scene alone, with its caption, "
               "lane labels, legend and banner",
               ""},
    OptionSpec{"--no-ui", "", "the scene alone (the default; kept for older scripts)", ""},
    OptionSpec{"--side-by-side", "", "lanes in split viewports instead of overlaid", ""},
    OptionSpec{"--arrows", "",
               "draw the traced body's velocity and acceleration arrows, the grid's spacing and a "
               "pendulum's joint angles",
               ""},
    OptionSpec{"--forces", "",
               "draw each force on the traced body as an arrow in its source's colour, with their "
               "key",
               ""},
    OptionSpec{"--caption", "",
               "burn a caption into the frame: scene, integrator, dt, t, the energy change split "
               "into dissipated, contacts, put in and integrator error",
               ""},
    OptionSpec{"--camera", "KEY=VALUE",
               "camera: target=X,Y,Z distance yaw pitch fov (degrees) orbit (degrees per "
               "simulated s); repeatable",
               "the scene's \"render\" section, else framed"},
    OptionSpec{"--stats", "",
               "print where the time went: stepping, drawing, reading back, waiting on the encoder",
               ""},
    OptionSpec{"--replay", "FILE",
               "render again the frames of a provenance file (FILE.json beside a recording); "
               "only --out may be given with it",
               ""},
};

constexpr std::array kCompareOptions = {
    OptionSpec{"--lanes", "SPEC,SPEC,...",
               "2 to 8 lanes, each NAME or NAME@DT (an integrator and its step, s)", "required"},
    OptionSpec{"--dt", "S", "the step of lanes given without @DT, s; a number > 0", "the scene's"},
    OptionSpec{"--duration", "S", "simulated time, s; lane 0 makes round(duration / dt) steps",
               "the scene's"},
    OptionSpec{"--every", "N", "write every N-th step of lane 0 (step 0 and the last always)", "1"},
    OptionSpec{"--out", "FILE",
               "CSV t,lane,integrator,dt,kinetic,potential,total,distance; - is "
               "standard output",
               "a summary table"},
    OptionSpec{"--ledger", "FILE",
               "energy ledger CSV t,lane,total,dissipated,contacts,external,residual; - is "
               "standard output",
               "not written"},
    OptionSpec{"--at", "T:KEY=VALUE",
               "at simulated time T set {event keys} in every lane; repeatable", ""},
};

constexpr std::array kInfoOptions = {
    OptionSpec{"--json", "", "one JSON object instead of the table", ""},
    OptionSpec{"--seconds", "T", "length of the reference run omega_max is taken over, s",
               "the scene's duration, at most 10"},
    OptionSpec{"--save-expanded", "FILE",
               "also write the scene as an explicit scene file, generators expanded",
               "not written"},
    OptionSpec{"--integrators", "A,B,...",
               "the integrators to give limits for; names or method files (.json)",
               "every one that applies to the scene"},
};

constexpr std::array kOrderOptions = {
    OptionSpec{"--integrators", "A,B,...", "the integrators to measure",
               "every one that applies to the scene"},
    OptionSpec{"--dt", "H", "the largest step, s; the runs use H, H/2 and H/4", "the scene's"},
    OptionSpec{"--duration", "S", "simulated time of each run, s",
               "the scene's duration, at most 1 s"},
};

constexpr std::array kSweepOptions = {
    OptionSpec{"--integrators", "A,B,...", "the integrators to map", "required"},
    OptionSpec{"--dt", "LO:HI:N", "N steps from LO to HI s, geometric, both included", "required"},
    OptionSpec{"--stiffness", "LO:HI:N", "N stiffness scales from LO to HI (mass-spring only)",
               "1:1:1"},
    OptionSpec{"--seconds", "T", "simulated time of each cell, s", "the scene's duration"},
    OptionSpec{"--threshold", "X", "relative energy error above which a cell is drifting", "0.01"},
    OptionSpec{"--shard", "I/N", "only the cells whose grid index is I-1 modulo N", "1/1"},
    OptionSpec{"--threads", "K", "worker threads", "every core"},
    OptionSpec{"--out", "FILE",
               "CSV integrator,dt,stiffness_scale,class,drift,t_end; - is "
               "standard output",
               "-"},
    OptionSpec{"--png", "FILE", "the map as an image, the theoretical limit drawn over it", ""},
};

constexpr std::string_view kOverview =
    "springlab: mass-spring systems and N-link pendulums with selectable integrators\n"
    "\n"
    "usage:\n"
    "  springlab [SCENE] [options]     the interactive window (or headless frames)\n"
    "  springlab run SCENE [options]   headless simulation, CSV output; no window, no OpenGL\n"
    "  springlab list                  the built-in scenes, one name per line\n"
    "  springlab bench [options]       timings of the integrators\n"
    "  springlab compare SCENE --lanes SPEC,SPEC[,...] [options]\n"
    "                                  integrators side by side from one initial state\n"
    "  springlab info SCENE [--json]   omega_max over the motion and each integrator's dt limit\n"
    "  springlab sweep SCENE --integrators A,B --dt LO:HI:N [options]\n"
    "                                  a stability map over dt and stiffness\n"
    "  springlab order SCENE [options] the observed order of each integrator\n"
    "  springlab record SCENE --out FILE [options]\n"
    "                                  render to a video or images, with or without a display\n"
    "  springlab --help                this help; springlab SUBCOMMAND --help for one command\n"
    "  springlab --version             the version (and git commit)\n"
    "\n"
    "SCENE is a built-in name (springlab list) or a scene file in JSON.\n";

constexpr std::string_view kExitStatus =
    "Exit status: 0 success, 1 internal error, 2 bad input, 3 diverged, 130 interrupted.\n"
    "Documentation: docs/cli.md.\n";

constexpr std::string_view kBothForms =
    "Each option takes its value as the next argument or after '=' (--dt=0.001).\n";

std::string runUsage() {
  return "usage: springlab run SCENE [options]\n"
         "\n"
         "Simulates SCENE (a built-in name or a scene file) from its initial state without a\n"
         "window and writes CSV files; prints a summary when no file goes to standard output.\n"
         "\n"
         "options:\n" +
         optionsHelp(runOptions()) + "\n" + std::string(kBothForms) + std::string(kExitStatus);
}

std::string benchUsage() {
  return "usage: springlab bench [options]\n"
         "\n"
         "Measures the time of a step of each integrator: the scenes table (mass-spring scenes)\n"
         "and the pendulum table (uniform chains of 2 to 10000 links). Figures, not tests.\n"
         "\n"
         "options:\n" +
         optionsHelp(benchOptions()) + "\n" + std::string(kBothForms);
}

std::string recordUsage() {
  return "usage: springlab record SCENE --out FILE [options]\n"
         "       springlab record --replay FILE.json --out FILE\n"
         "\n"
         "Renders SCENE offscreen (headless EGL when there is no display) to a video (.mp4 H.264,\n"
         ".webm VP9, .gif: encoded by an ffmpeg child process), to one PNG of the last frame, or\n"
         "to numbered PNGs. Simulated time is locked to the clip's clock: frame k shows the state\n"
         "after step round(k / (fps dt)), however fast the machine renders. Beside the output a\n"
         "provenance file FILE.json (record.json in an image sequence's folder) says how to "
         "render\n"
         "the same frames again. Ctrl+C stops with a playable file of the frames so far.\n"
         "\n"
         "options:\n" +
         optionsHelp(recordOptions()) + "\n" + std::string(kBothForms) + std::string(kExitStatus);
}

std::string compareUsage() {
  return "usage: springlab compare SCENE --lanes SPEC,SPEC[,...] [options]\n"
         "\n"
         "Runs SCENE 2 to 8 times from its initial state, one lane per SPEC (an integrator, or\n"
         "NAME@DT with its own step). Lane 0 sets the clock: at each of its written steps every\n"
         "other lane is at its step nearest in time. Each lane's states are those of springlab "
         "run\n"
         "with its integrator and dt. A lane that diverges stops; the others go on (exit status "
         "3).\n"
         "\n"
         "options:\n" +
         optionsHelp(compareOptions()) + "\n" + std::string(kBothForms) + std::string(kExitStatus);
}

std::string infoUsage() {
  return "usage: springlab info SCENE [--json] [--seconds T] [--save-expanded FILE]\n"
         "\n"
         "The scene's size and stability facts: omega_max, the largest local frequency over the\n"
         "initial state and the states of an accurate reference run (rk4, its step following\n"
         "the motion) over T seconds (for a pendulum including the rods' tension from its\n"
         "velocities); omega_max_initial, the square root of the largest eigenvalue of M^-1 K\n"
         "at the initial state (K the potential's Hessian, over the free coordinates); and each\n"
         "integrator's step limit on undamped oscillation from omega_max.\n"
         "\n"
         "options:\n" +
         optionsHelp(infoOptions()) + "\n" + std::string(kExitStatus);
}

std::string orderUsage() {
  return "usage: springlab order SCENE [options]\n"
         "\n"
         "The observed order of convergence of each integrator on SCENE: runs at H, H/2 and H/4\n"
         "from the initial state, then log2 of the ratio of the successive differences of the\n"
         "final state. CSV integrator,order on standard output (nan where undefined, with the\n"
         "reason on standard error).\n"
         "\n"
         "options:\n" +
         optionsHelp(orderOptions()) + "\n" + std::string(kBothForms) + std::string(kExitStatus);
}

std::string sweepUsage() {
  return "usage: springlab sweep SCENE --integrators A,B,... --dt LO:HI:N [options]\n"
         "\n"
         "A stability map: each cell (integrator, dt, stiffness scale) runs SCENE from its\n"
         "initial state and is classed diverged, drifting or stable. Cells run on a pool of\n"
         "threads; --shard spreads them over machines (GNU parallel, a job array: README).\n"
         "\n"
         "options:\n" +
         optionsHelp(sweepOptions()) + "\n" + std::string(kBothForms) + std::string(kExitStatus);
}

std::string overviewUsage() {
  return std::string(kOverview) + "\nwindow options (each value as the next argument):\n" +
         optionsHelp(windowOptions()) + "\nrun options:\n" + optionsHelp(runOptions()) +
         "\nbench options:\n" + optionsHelp(benchOptions()) + "\nrecord options:\n" +
         optionsHelp(recordOptions()) + "\n" + std::string(kBothForms) + std::string(kExitStatus);
}

}  // namespace

OptionTable runOptions() {
  return kRunOptions;
}
OptionTable benchOptions() {
  return kBenchOptions;
}
OptionTable sweepOptions() {
  return kSweepOptions;
}
OptionTable infoOptions() {
  return kInfoOptions;
}
OptionTable orderOptions() {
  return kOrderOptions;
}
OptionTable compareOptions() {
  return kCompareOptions;
}
OptionTable windowOptions() {
  return kWindowOptions;
}
OptionTable recordOptions() {
  return kRecordOptions;
}

const OptionSpec* findOption(OptionTable table, std::string_view name) {
  const auto it =
      std::find_if(table.begin(), table.end(), [&](const OptionSpec& o) { return o.name == name; });
  return it == table.end() ? nullptr : &*it;
}

namespace {
std::optional<std::string> splitArgsText(const Args& args, OptionTable table, SplitArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      out.positional.push_back(a);
      continue;
    }
    const auto eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const OptionSpec* spec = findOption(table, name);
    if (!spec) return "unknown option " + name;
    GivenOption given{spec, {}};
    if (spec->placeholder.empty()) {
      if (eq != std::string::npos) return name + ": takes no value";
    } else if (eq != std::string::npos) {
      given.value = a.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      given.value = args[++i];
    } else {
      return name + ": missing value";
    }
    out.options.push_back(std::move(given));
  }
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> splitArgs(const Args& args, OptionTable table, SplitArgs& out) {
  auto problem = splitArgsText(args, table, out);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

namespace {
std::optional<std::string> takeSceneText(const SplitArgs& split, std::string& scene,
                                         SceneArg need) {
  if (split.positional.size() > 1)
    return "unexpected argument \"" + split.positional[1] + "\" (one SCENE only)";
  if (!split.positional.empty())
    scene = split.positional[0];
  else if (need == SceneArg::Required)
    return missingScene();
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> takeScene(const SplitArgs& split, std::string& scene, SceneArg need) {
  auto problem = takeSceneText(split, scene, need);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

std::string missingScene() {
  return "missing SCENE (a .json file or a built-in name from springlab list)";
}

std::string optionsHelp(OptionTable table) {
  // the help column starts after the longest "--name VALUE"; a default that would run past
  // kHelpWidth columns goes on a line of its own, under the help
  constexpr size_t kHelpWidth = 100;
  size_t column = 0;
  for (const auto& o : table) column = std::max(column, o.name.size() + 1 + o.placeholder.size());
  column += 4;
  std::string text;
  for (const auto& o : table) {
    std::string line = "  ";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "x" + s
    line += o.name;
    if (!o.placeholder.empty()) line.append(" ").append(o.placeholder);
    line.resize(column, ' ');
    line += helpText(o.help);
    if (!o.fallback.empty()) {
      const std::string fallback = "(default: " + std::string(o.fallback) + ")";
      if (line.size() + 1 + fallback.size() > kHelpWidth)
        line.append("\n").append(column, ' ');
      else
        line += ' ';
      line += fallback;
    }
    text.append(line).append("\n");
  }
  return text;
}

std::optional<std::string> usage(std::string_view command) {
  if (command.empty()) return overviewUsage();
  if (command == "run") return runUsage();
  if (command == "bench") return benchUsage();
  if (command == "list")
    return std::string(
        "usage: springlab list\n"
        "\n"
        "Prints the names of the built-in scenes, one per line, sorted. It takes no options.\n");
  if (command == "record") return recordUsage();
  if (command == "compare") return compareUsage();
  if (command == "info") return infoUsage();
  if (command == "sweep") return sweepUsage();
  if (command == "order") return orderUsage();
  return std::nullopt;
}

}  // namespace cli
