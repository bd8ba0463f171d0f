#include "checks.hpp"

#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <vector>

#include <unistd.h>
#include <Eigen/Geometry>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "lab/events.hpp"
#include "lab/lane_spec.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "scene/method_file.hpp"
#include "scene/obj_reader.hpp"
#include "sim/method_facts.hpp"
#include "sim/user_step.hpp"

namespace fuzz {
namespace {

// A scene is parsed as a built-in one: its meshes ("../meshes/NAME.obj") are the compiled-in
// ones, so a fuzzed path never reads the machine's files.
constexpr std::string_view kSceneOrigin = "builtin:fuzz";
constexpr std::string_view kObjName = "fuzz.obj";
// The stepping budget: a few steps of the default integrator, only on a system small enough that
// they stay cheap under the sanitizers (larger ones are built and checked, not stepped): a
// pendulum's implicit_midpoint solves a dense N x N system, hence its smaller bound.
constexpr long kSteps = 3;
constexpr Eigen::Index kMaxSteppedParticles = 1000;
constexpr Eigen::Index kMaxSteppedLinks = 64;
constexpr int kCoordinatesPerParticle = 3;

bool tooLargeToStep(const scene::Built& built) {
  const Eigen::Index n = built.state.x.size();
  return built.kind() == sim::SystemKind::Pendulum
             ? n > kMaxSteppedLinks
             : n > kMaxSteppedParticles * kCoordinatesPerParticle;
}

}  // namespace

std::optional<std::string> buildAndStep(const scene::SceneDef& def) {
  const scene::Built built = scene::build(def);
  if (!built.state.x.allFinite() || !built.state.v.allFinite())
    return std::string("a built system's initial state is not finite");
  if (tooLargeToStep(built)) return std::nullopt;
  const auto stepper = built.stepper(def.integrator, def.dt);
  stepper->advance(kSteps);  // a divergence is a value (sim::Divergence), not a broken contract
  if (!stepper->state().x.allFinite()) return std::string("a step left a non-finite position");
  return std::nullopt;
}

namespace {

// Splits on '\0' and '\n'; a trailing empty piece is dropped, an inner one kept (an empty
// argument is an argument).
cli::Args splitArgv(std::string_view text) {
  cli::Args args;
  std::string current;
  for (char c : text) {
    if (c == '\0' || c == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) args.push_back(current);
  return args;
}

std::optional<std::string> checkEventSpec(const std::string& text) {
  lab::Event e;
  if (auto problem = lab::parseEvent(text, e)) return notOneLine(*problem);
  for (sim::SystemKind kind : {sim::SystemKind::MassSpring, sim::SystemKind::Pendulum})
    if (auto problem = lab::checkEvent(e, kind))
      if (auto bad = notOneLine(*problem)) return bad;
  return std::nullopt;
}

std::optional<std::string> checkLaneSpec(const std::string& text) {
  for (sim::SystemKind kind : {sim::SystemKind::MassSpring, sim::SystemKind::Pendulum}) {
    std::vector<lab::LaneSpec> lanes;
    if (auto problem = lab::parseLaneSpecs(text, kind, lanes)) {
      if (auto bad = notOneLine(*problem)) return bad;
      continue;
    }
    if (lanes.empty() || int(lanes.size()) > lab::kMaxLanes)
      return "accepted " + std::to_string(lanes.size()) + " lanes";
    for (const lab::LaneSpec& lane : lanes)
      if (lane.dt && !(std::isfinite(*lane.dt) && *lane.dt > 0))
        return "accepted a lane whose dt is not a finite number > 0";
  }
  return std::nullopt;
}

std::optional<std::string> checkCameraSpec(const std::string& text) {
  scene::CameraDef camera;
  if (auto problem = scene::applyCameraOption(text, camera)) return notOneLine(*problem);
  const auto finite = [](const std::optional<double>& x) { return !x || std::isfinite(*x); };
  if (!finite(camera.distance) || !finite(camera.yaw_deg) || !finite(camera.pitch_deg) ||
      !finite(camera.fov_deg) || !std::isfinite(camera.orbit_deg_per_s) ||
      (camera.target && !camera.target->allFinite()))
    return std::string("accepted a camera value that is not finite");
  return std::nullopt;
}

// Each subcommand's own parser, as the command calls it, up to the loading of its scene: run,
// bench, compare, info, sweep and order here; the window and record (the app room's) in
// checks_app.cpp where the build has that room, else the parsing they share (their option
// table's splitArgs, then takeScene).
std::optional<std::string> parseOptions(unsigned which, const cli::Args& args) {
  switch (which) {
    case 0: {
      cli::RunOptions o;
      return cli::parseRunOptions(args, o);
    }
    case 1: {
      cli::BenchOptions o;
      return cli::parseBenchOptions(args, o);
    }
    case 2:
      return cli::parseCompareArgs(args);
    case 3:
      return cli::parseInfoArgs(args);
    case 4:
      return cli::parseSweepArgs(args);
    case 5:
      return cli::parseOrderArgs(args);
    default:
      break;
  }
  const bool record = which == kRecordParser;
#ifdef SPRINGLAB_FUZZ_APP
  return parseAppOptions(record, args);
#else
  cli::SplitArgs split;
  if (auto problem =
          cli::splitArgs(args, record ? cli::recordOptions() : cli::windowOptions(), split))
    return problem;
  std::string scene;
  return cli::takeScene(split, scene, cli::SceneArg::Optional);
#endif
}

}  // namespace

std::optional<std::string> notOneLine(const std::string& message) {
  if (message.empty()) return std::string("an empty error message");
  if (message.find_first_of("\n\r") != std::string::npos)
    return "an error message of more than one line: " + message;
  return std::nullopt;
}

std::optional<std::string> badError(const std::string& message, std::string_view place) {
  if (auto problem = notOneLine(message)) return problem;
  if (!message.starts_with(place))
    return "the error does not start with \"" + std::string(place) + "\": " + message;
  return std::nullopt;
}

std::optional<std::string> checkScene(std::string_view bytes) {
  return guarded([&]() -> std::optional<std::string> {
    try {
      return buildAndStep(scene::parse(bytes, std::string(kSceneOrigin)));
    } catch (const scene::Error& e) {
      return badError(e.what(), kSceneOrigin);
    }
  });
}

namespace {

// The scratch folder of this process's OBJ files: a scene names its mesh by a path, so the bytes
// are written where a scene file beside them can name them.
const std::filesystem::path& scratchFolder() {
  static const std::filesystem::path folder = [] {
    auto f = std::filesystem::temp_directory_path() /
             ("springlab-fuzz-obj-" + std::to_string(static_cast<long long>(::getpid())));
    std::filesystem::create_directories(f);
    return f;
  }();
  return folder;
}

// A double as JSON, exactly (std::to_string would round a small one to 0.000000)
std::string numberText(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

// A lattice fills the mesh's bounding box at this many spacings along its longest side: a few
// hundred points at most, a grid a fuzzed mesh of any size gives at the same cost.
constexpr double kLatticeSpacingsAcross = 6.0;

// The bytes as a scene's bodies read them (docs/scenes.md#mesh, #lattice): written to a file, the
// mesh generator (with bending springs) and, for a mesh with a finite extent, a lattice filling it,
// each parsed, built and stepped as a scene is. The errors start with the scratch folder's path
// (the scene's or the OBJ file's).
std::optional<std::string> checkObjBodies(std::string_view bytes, const scene::ObjMesh& mesh) {
  const std::filesystem::path folder = scratchFolder();
  std::ofstream(folder / "fuzz.obj", std::ios::binary)
      .write(bytes.data(), std::streamsize(bytes.size()));
  const std::string sceneName = (folder / "fuzz.json").string();
  std::vector<std::string> generators = {
      R"({"kind": "mesh", "file": "fuzz.obj", "mass": 1, "stiffness": 100, "bending_stiffness": 1})"};
  Eigen::AlignedBox3d box;
  for (const auto& v : mesh.vertices) box.extend(v);
  const double extent = box.isEmpty() ? 0.0 : box.sizes().maxCoeff();
  if (std::isfinite(extent) && extent > 0.0)
    generators.push_back(R"({"kind": "lattice", "shape": "mesh", "file": "fuzz.obj", "mass": 1, )"
                         R"("stiffness": 100, "spacing": )" +
                         numberText(extent / kLatticeSpacingsAcross) + "}");
  for (const std::string& g : generators) {
    const std::string text =
        R"({"integrator": "symplectic_euler", "dt": 0.001, "system": {"type": "mass_spring", )"
        R"("generators": [)" +
        g + "]}}";
    try {
      if (auto problem = buildAndStep(scene::parse(text, sceneName))) return problem;
    } catch (const scene::Error& e) {
      if (auto problem = badError(e.what(), folder.string())) return problem;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> checkObj(std::string_view bytes) {
  return guarded([&]() -> std::optional<std::string> {
    try {
      const scene::ObjMesh mesh = scene::parseObj(bytes, std::string(kObjName));
      const int n = int(mesh.vertices.size());
      if (mesh.vertex_lines.size() != mesh.vertices.size() ||
          mesh.triangle_lines.size() != mesh.triangles.size())
        return std::string("the line numbers do not match the vertices and triangles");
      for (const auto& t : mesh.triangles)
        for (int i : t)
          if (i < 0 || i >= n)
            return "a triangle's index " + std::to_string(i) + " is out of range";
      for (const auto& v : mesh.vertices)
        if (!v.allFinite()) return std::string("a vertex is not finite");
      return checkObjBodies(bytes, mesh);
    } catch (const scene::Error& e) {
      return badError(e.what(), kObjName);
    }
  });
}

namespace {

constexpr std::string_view kMethodName = "fuzz_method.json";

// The coefficients' invariants that parseMethod promises (scene/method_file.hpp)
std::optional<std::string> badCoefficients(const sim::MethodCoefficients& m) {
  const size_t s =
      m.type == sim::MethodCoefficients::Type::RungeKutta ? m.b.size() : m.stages.size();
  if (s == 0 || s > size_t(sim::kMaxMethodStages))
    return "accepted with " + std::to_string(s) + " stages";
  if (m.type == sim::MethodCoefficients::Type::Splitting) return std::nullopt;
  if (m.a.size() != s || m.c.size() != s) return std::string("accepted with mismatched sizes");
  for (size_t i = 0; i < s; ++i) {
    if (m.a[i].size() != s) return std::string("accepted a ragged a");
    for (size_t j = i + 1; j < s; ++j)
      if (m.a[i][j] != 0.0) return std::string("accepted an a above its diagonal");
  }
  return std::nullopt;
}

// A few steps of the method on two built-in scenes, through the solver (not the registry, which
// would grow with every input)
std::optional<std::string> stepMethod(const sim::MethodCoefficients& m) {
  for (const char* name : {"seed002_elastic_pendulum", "seed004_double_pendulum"}) {
    const scene::Built built = scene::build(scene::loadSceneArg(name));
    sim::UserMethodSolver solver;
    sim::State in = built.state, out = built.state;
    for (long k = 0; k < kSteps; ++k) {
      if (!solver.step(m, built.massSpring(), built.pendulum(), in, 1e-3, out)) {
        if (auto bad = notOneLine(solver.error())) return bad;
        break;
      }
      std::swap(in, out);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> checkMethod(std::string_view bytes) {
  return guarded([&]() -> std::optional<std::string> {
    const auto m = scene::parseMethod(bytes, std::string(kMethodName));
    if (!m) return badError(m.problem(), kMethodName);
    if (auto bad = badCoefficients(*m)) return bad;
    const sim::MethodFacts facts = sim::methodFacts(*m);
    for (const auto& b : {facts.imaginary_axis, facts.negative_real_axis})
      if (b && !(*b >= 0.0)) return std::string("a stability boundary is negative or NaN");
    return stepMethod(*m);
  });
}

std::optional<std::string> checkSpecs(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  const std::string text(bytes.substr(1));
  return guarded([&]() -> std::optional<std::string> {
    switch (static_cast<unsigned char>(bytes[0]) % 3) {
      case 0:
        return checkEventSpec(text);
      case 1:
        return checkLaneSpec(text);
      default:
        return checkCameraSpec(text);
    }
  });
}

std::optional<std::string> checkOptions(std::string_view bytes) {
  // run, bench, compare, info, sweep, order, the window (kRecordParser - 1) and record
  if (bytes.empty()) return std::nullopt;
  const unsigned which = static_cast<unsigned char>(bytes[0]) % (kRecordParser + 1);
  const cli::Args args = splitArgv(bytes.substr(1));
  return guarded([&]() -> std::optional<std::string> {
    if (auto problem = parseOptions(which, args)) return notOneLine(*problem);
    return std::nullopt;
  });
}

}  // namespace fuzz
