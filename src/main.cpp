// springlab: subcommand dispatch. The top-level catch keeps the promise of docs/cli.md#exit-status
// that no input crashes the program.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "sim/parallel.hpp"
#include "util/team.hpp"
#ifdef SPRINGLAB_VIEWER
#include "app/record.hpp"
#include "app/viewer.hpp"
#endif

namespace {
// the headless subcommands; anything else is the window's [SCENE] [options]
bool isSubcommand(const char* a) {
  for (const char* c : {"run", "list", "bench", "record", "compare", "sweep", "info", "order",
                        "--help", "-h", "--version"})
    if (std::strcmp(a, c) == 0) return true;
  return false;
}

bool asksForHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

// `springlab [SCENE] [options] --help`: the window's options are in the overview
bool windowAsksForHelp(int argc, char** argv) {
  return argc >= 2 && !isSubcommand(argv[1]) && asksForHelp(argc, argv);
}
// The kernels' threads: every core, or SPRINGLAB_THREADS=N (1 to sim::kMaxKernelThreads) where
// the user shares the machine out (docs/cli.md#threads); false, with a line on stderr, when the
// variable holds anything else.
bool setKernelThreadsFromEnvironment() {
  const char* env = std::getenv("SPRINGLAB_THREADS");
  if (!env || !*env) {
    sim::setKernelThreads(sim::hardwareThreads());
    return true;
  }
  long long n = 0;
  if (!cli::parseWhole(env, n) || n < 1 || n > sim::kMaxKernelThreads) {
    std::fprintf(stderr,
                 "springlab: SPRINGLAB_THREADS: must be a whole number from 1 to %d, not \"%s\"\n",
                 sim::kMaxKernelThreads, env);
    return false;
  }
  sim::setKernelThreads(static_cast<int>(n));
  return true;
}
}  // namespace

int main(int argc, char** argv) {
  // this thread owns the machine: its kernels may use every core (sim/parallel.hpp), or one
  // while the machine is too busy for their team to be worth it (util::TeamGovernor)
  if (!setKernelThreadsFromEnvironment()) return 2;
  util::teamGovernor().enable(true);
  try {
    if (windowAsksForHelp(argc, argv)) {
      std::fputs(cli::usage("")->c_str(), stdout);
      return 0;
    }
#ifdef SPRINGLAB_VIEWER
    if (argc < 2 || !isSubcommand(argv[1]))
      return app::viewerMain(std::vector<std::string>(argv + 1, argv + argc));
    // record renders (src/app); its --help is the command line's, like every subcommand's
    if (std::strcmp(argv[1], "record") == 0 && !asksForHelp(argc, argv))
      return app::recordMain(std::vector<std::string>(argv + 2, argv + argc));
#endif
    return cli::dispatch(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("springlab: out of memory\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "springlab: internal error: %s\n", e.what());
  } catch (...) {
    std::fputs("springlab: internal error\n", stderr);
  }
  return 1;
}
