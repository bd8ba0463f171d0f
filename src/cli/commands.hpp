// Headless subcommands (docs/cli.md). Each returns the process exit status:
// 0 success, 2 bad input (one line on stderr naming the place), 3 divergence, 130 interrupted.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "lab/events.hpp"
#include "scene/scene_def.hpp"
#include "sim/kind.hpp"
#include "sim/registry.hpp"

namespace cli {

// `run` and `compare` check the runaway rule on every row they write, on the last step, and at
// least this many times over a run that writes few rows (--every N), so that a blow-up between
// rows is still reported.
inline constexpr long long kRunawayChecks = 1000;

// The steps between two of those checks over a run of `steps` steps of m on a system of `counts`
// (docs/cli.md#run): steps / kRunawayChecks, and on a big system stepped by an explicit method at
// least enough steps that the checks (the energy and the torn rule, about three force passes)
// cost a sixteenth of the stepping. On a small system a check is cheap whatever the method, and a
// method with a solver spends many force passes on each step.
long long runawayCheckSpacing(long long steps, sim::Method m, const sim::Counts& counts);

// duration / dt at or above this is refused: a run of 1e15 steps would take decades even at a
// nanosecond per step, and below it the step count is an exact whole number in a double
// (2^53 ~ 9e15) and fits a long long.
constexpr double kMaxStepRatio = 1e15;

// The problem with a run of `seconds` at steps of `dt`, each named as the user gave it, or
// nothing: "--duration 1e+30 s at --dt 1 s is 1e+30 steps, more than the 1e+15 a run may make";
// a count beyond a double's range is "... is more than the 1e+15 steps a run may make".
std::optional<std::string> stepsProblem(const std::string& durationName, double seconds,
                                        const std::string& dtName, double dt);

// A run's work, its steps times the system's particles and springs (a pendulum's links), above
// this is refused before the system is built (docs/cli.md#limits). The force pass evaluates at
// most about 1e9 springs a second on this machine's two cores (docs/benchmarks.md), so 1e15 is
// twelve days of a cloth's force passes alone: beyond it the request is a mistake (a dt in
// seconds meant in milliseconds, a duration with three zeros too many), and the message says how
// long it would take. A shorter long run shows its progress and time left, and Ctrl+C ends it
// with its files kept.
constexpr double kMaxWork = 1e15;
// Elements (a particle or a spring) stepped a second, for the message's estimate: the force
// pass's best rate above, so the estimate is a lower bound.
constexpr double kWorkRate = 1e9;

// The methods that factor a sparse matrix of a mass-spring system (implicit_euler, time_fe,
// projective) refuse more particles than this (docs/cli.md#limits). implicit_euler took 640 MB
// on a 256 x 256 cloth and 2.8 GB on a 512 x 512 one (about 11 KB a particle, growing with the
// size as the factor fills in), and a step of the latter took minutes: a million particles need
// about 12 GB, the largest scene's 4 000 000 some 50 GB, more than this 24 GiB machine has.
constexpr long long kMaxFactoredParticles = 1'000'000;

// The problem with stepping `def`'s system by `m`, or nothing: "implicit_euler factors a sparse
// matrix: 4000000 particles, more than the 1000000 it may take (about 11 KB of memory each)".
std::optional<std::string> solverProblem(const scene::SceneDef& def, sim::Method m);

// The problem with `steps` steps of `def`'s system, or nothing: "1e+13 steps of 28000000
// particles and springs is 2.8e+20 element-steps, more than the 1e+15 a run may do (at least
// 8880 years at 1e+09 a second)".
std::optional<std::string> workProblem(const scene::SceneDef& def, double steps);

// The energy ledger's CSV header (run --ledger, compare --ledger).
constexpr const char* kLedgerHeader = "t,lane,total,dissipated,contacts,external,residual\n";

int runCommand(const Args& args);
int listCommand(const Args& args);
int benchCommand(const Args& args);
int compareCommand(const Args& args);
int infoCommand(const Args& args);
int sweepCommand(const Args& args);
int orderCommand(const Args& args);
int dispatch(int argc, char** argv);

// springlab run's options (runOptions() lists them); unset ones take the scene's values
struct RunOptions {
  std::string scene;
  std::optional<std::string> integrator;
  std::optional<double> dt, duration;  // s
  long long every = 1;
  std::optional<std::string> out, energy, ledger;
  std::vector<lab::Event> events;  // --at, in command-line order
};
// Returns the problem with the options, without the "springlab run: " prefix, or nothing.
std::optional<std::string> parseRunOptions(const Args& args, RunOptions& o);

// springlab bench's options (benchOptions() lists them)
struct BenchOptions {
  std::vector<std::string> scenes = {"cloth_16", "cloth_32", "cloth_64", "cloth_128", "cloth_256"};
  std::vector<sim::Method> integrators;  // every mass-spring integrator unless given
  double seconds = 1.0;                  // s of stepping per cell
  long long max_steps = 500;
  std::string suite = "all";  // all, cloth, stiff, self or pendulum
  // the stiff-cloth swings: the 128 x 128 cloth with its method (projective) and with xpbd
  std::vector<std::string> stiff = {"cloth_128", "cloth_128_xpbd"};
  // self-collision's cost: each scene with its own method, without and with it
  std::vector<std::string> self = {"cloth_64", "cloth_128", "cloth_fold"};
  double swing = 5.0;  // s simulated
};
std::optional<std::string> parseBenchOptions(const Args& args, BenchOptions& o);

// "A,B" (names or method files, scene::lookupIntegrator) into methods that apply to `kind`: the
// problem ("--integrators: ...") or nothing. order's and info's --integrators.
std::optional<std::string> parseIntegratorList(const std::string& text, sim::SystemKind kind,
                                               std::vector<sim::Method>& out);

// compare's, info's, sweep's and order's arguments parsed as the command parses them, up to the
// loading of SCENE: the problem in one line (without the "springlab CMD: " prefix; a line break
// in a value written as an escape, as the command prints it) or nothing. The options
// fuzz target calls them (docs/fuzzing.md).
std::optional<std::string> parseCompareArgs(const Args& args);
std::optional<std::string> parseInfoArgs(const Args& args);
std::optional<std::string> parseSweepArgs(const Args& args);
std::optional<std::string> parseOrderArgs(const Args& args);

// Loads SCENE (a built-in name or a .json path) into `def`; on bad input prints the scene error's
// one line ("FILE: json.path: problem") and returns false (exit status 2).
bool loadSceneOrReport(const std::string& arg, scene::SceneDef& def);

// Strict number parsing for options: the whole string must be a finite number.
bool parseDouble(const std::string& s, double& out);
bool parseWhole(const std::string& s, long long& out);  // decimal digits only

}  // namespace cli
