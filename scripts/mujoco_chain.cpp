// MuJoCo's side of scripts/bench_mujoco.sh: the uniform chain of springlab's pendulum benchmark
// (N hinge links, 1 m and 1 kg in all, point-like bobs at the link ends, released straight at
// 45 degrees, gravity 9.81 m/s^2, no contacts, RK4) built in MJCF and stepped with mj_step.
//
//   mujoco_chain time  N DT SECONDS   -> "us_per_step STEPS" (mj_step timed for at least SECONDS
//                                        of wall time and at least kMinSteps steps)
//   mujoco_chain state N DT T         -> "phi1 phiN" after T seconds (radians, each link's angle
//                                        from the downward vertical, as springlab's phi)
//
// Built by the script: g++ -O2 scripts/mujoco_chain.cpp -lmujoco. Not part of springlab's build.
#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

constexpr double kRelease = M_PI / 4;  // rad, every link's angle at release
// A bob's rotational inertia: a point mass as closely as MuJoCo allows. A fraction of m L^2, but
// no less than kLeastInertia (a body's inertia must exceed mjMINVAL = 1e-15 kg m^2; at N = 1000,
// m L^2 = 1e-9 kg m^2).
constexpr double kBobInertia = 1e-9, kLeastInertia = 1e-14;  // -, kg m^2
constexpr int kMinSteps = 3;  // timed steps at least, however slow (after one untimed)

// MuJoCo's XML parser stops at an element depth of 100: each file holds this many nested bodies
// and includes the next inside its innermost one.
constexpr int kBodiesPerFile = 40;

// N nested bodies, each a hinge about y at its top and its bob (the inertial frame) at
// (0, 0, -L): MuJoCo's chain hangs along -z, gravity along -z. Written to dir/chain.xml and
// dir/partK.xml; returns the main file's path.
std::string writeChain(const std::string& dir, int n, double dt) {
  const double len = 1.0 / n, mass = 1.0 / n;
  const double inertia = std::max(kBobInertia * mass * len * len, kLeastInertia);
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<mujoco model=\"chain\"><option timestep=\"%.17g\" integrator=\"RK4\" "
                "gravity=\"0 0 -9.81\"><flag contact=\"disable\"/></option><worldbody>"
                "<include file=\"part0.xml\"/></worldbody></mujoco>\n",
                dt);
  std::string main = dir + "/chain.xml";
  FILE* f = std::fopen(main.c_str(), "w");
  std::fputs(buf, f);
  std::fclose(f);
  for (int part = 0, first = 0; first < n; ++part, first += kBodiesPerFile) {
    const int last = std::min(n, first + kBodiesPerFile);
    f = std::fopen((dir + "/part" + std::to_string(part) + ".xml").c_str(), "w");
    std::fputs("<mujocoinclude>", f);
    for (int i = first; i < last; ++i)
      std::fprintf(
          f,
          "<body pos=\"0 0 %.17g\"><joint type=\"hinge\" axis=\"0 1 0\"/>"
          "<inertial pos=\"0 0 %.17g\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n",
          i == 0 ? 0.0 : -len, -len, mass, inertia, inertia, inertia);
    if (last < n) std::fprintf(f, "<include file=\"part%d.xml\"/>", part + 1);
    for (int i = first; i < last; ++i) std::fputs("</body>", f);
    std::fputs("</mujocoinclude>\n", f);
    std::fclose(f);
  }
  return main;
}

// The model from files in a temporary folder (mj_loadXML reads files; 2.2.2 has no in-memory
// loader), removed once loaded.
mjModel* loadChain(int n, double dt) {
  char dir[] = "/tmp/mujoco_chain_XXXXXX";
  if (!mkdtemp(dir)) return nullptr;
  const std::string path = writeChain(dir, n, dt);
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  std::filesystem::remove_all(dir);
  if (!m) std::fprintf(stderr, "mujoco_chain: %s\n", error);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: mujoco_chain time|state N DT SECONDS\n");
    return 2;
  }
  const std::string mode = argv[1];
  const int n = std::atoi(argv[2]);
  const double dt = std::atof(argv[3]), seconds = std::atof(argv[4]);
  mjModel* m = loadChain(n, dt);
  if (!m) return 1;
  mjData* d = mj_makeData(m);
  d->qpos[0] = kRelease;  // joint angles are relative: the chain is straight at 45 degrees
  if (mode == "state") {
    const long steps = std::lround(seconds / dt);
    for (long k = 0; k < steps; ++k) mj_step(m, d);
    double last = 0.0;
    for (int i = 0; i < n; ++i) last += d->qpos[i];
    std::printf("%.17g %.17g\n", d->qpos[0], last);
  } else {
    mj_step(m, d);  // untimed: first touches of memory
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    long steps = 0;
    double wall = 0.0;
    while (wall < seconds || steps < kMinSteps) {
      mj_step(m, d);
      ++steps;
      wall = std::chrono::duration<double>(Clock::now() - start).count();
    }
    std::printf("%.6g %ld\n", 1e6 * wall / static_cast<double>(steps), steps);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
