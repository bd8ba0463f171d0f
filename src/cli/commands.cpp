#include "cli/commands.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "scene/catalog.hpp"

namespace cli {

bool parseDouble(const std::string& s, double& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;  // from_chars rejects a leading '+'
  auto r = std::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e && std::isfinite(out);
}

bool parseWhole(const std::string& s, long long& out) {
  if (s.empty() || s.size() > 18) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

int listCommand(const Args& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "springlab list: unexpected argument \"%s\"\n", args[0].c_str());
    return 2;
  }
  for (const auto& n : scene::builtinNames()) std::printf("%s\n", n.c_str());
  return 0;
}

namespace {
const char* kUsage =
    "usage:\n"
    "  springlab [SCENE] [options]                   interactive window (default scene cloth_32)\n"
    "  springlab run SCENE [options]                 headless simulation, CSV output\n"
    "  springlab list                                built-in scenes, one name per line\n"
    "  springlab bench [options]                     integrator timings on the cloth scenes\n"
    "\n"
    "run options:\n"
    "  --integrator NAME   override the scene's integrator\n"
    "  --dt S              override the step (s)\n"
    "  --duration S        simulated time (s); steps = round(duration / dt)\n"
    "  --every N           write every N-th step (t = 0 and the last step always)\n"
    "  --out FILE          trajectory CSV (- for standard output)\n"
    "  --energy FILE       energy CSV (- for standard output)\n"
    "\n"
    "window options:\n"
    "  --integrator NAME, --dt S   as for run\n"
    "  --size WxH          window size in pixels (default 1280x720)\n"
    "  --frames N          quit after N rendered frames\n"
    "  --screenshot FILE   PNG of the last frame (no display needed: headless EGL)\n"
    "  --no-ui             no panel;  --stats  print frame timings at exit\n"
    "\n"
    "SCENE is a .json file or a built-in name. Exit status: 0 ok, 2 bad input, 3 diverged.\n";
}  // namespace

int dispatch(int argc, char** argv) {
  Args rest;
  for (int i = 2; i < argc; ++i) rest.emplace_back(argv[i]);
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    if (argc < 2)
      std::fputs(
          "springlab: the interactive window is not available in this build; use springlab run\n",
          stderr);
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  for (const auto& a : rest)
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
  if (cmd == "run") return runCommand(rest);
  if (cmd == "list") return listCommand(rest);
  if (cmd == "bench") return benchCommand(rest);
  if (cmd == "record") {
    std::fputs("springlab record: recording is not available in this build yet\n", stderr);
    return 2;
  }
  std::fprintf(stderr,
               "springlab: the interactive window is not available in this build; unknown command "
               "\"%s\" (commands: run, list, bench)\n",
               cmd.c_str());
  return 2;
}

}  // namespace cli
