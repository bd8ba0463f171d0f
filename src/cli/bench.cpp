// springlab bench: microseconds per step of every mass-spring integrator on the cloth scenes, and
// spring evaluations per second of the explicit force pass. Figures, not tests.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "cli/commands.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/forces.hpp"
#include "sim/pendulum.hpp"
#include "sim/stepper.hpp"

namespace cli {

namespace {
using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a) {
  return std::chrono::duration<double>(Clock::now() - a).count();
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}
}  // namespace

namespace {
int benchCloth(const std::vector<std::string>& scenes, const std::vector<sim::Method>& ms,
               double budget, long long maxSteps);

// Time per step of `m` on a uniform chain of n links (1 m long, 1 kg), released at 45 degrees.
// `diverged` is set if the run diverged (its timing would then measure garbage states).
double pendulumStepTime(int n, sim::Method m, double h, double budget, long long maxSteps,
                        bool& diverged) {
  sim::PendulumModel pm;
  pm.length = Eigen::VectorXd::Constant(n, 1.0 / n);
  pm.mass = Eigen::VectorXd::Constant(n, 1.0 / n);
  sim::State s;
  s.x = Eigen::VectorXd::Constant(n, M_PI / 4);
  s.v = Eigen::VectorXd::Zero(n);
  sim::Stepper st(pm, s, m, h);
  long long steps = 0;
  diverged = false;
  const auto t0 = Clock::now();
  do {
    if (st.advance()) {
      diverged = true;
      break;
    }
    ++steps;
  } while (steps < maxSteps * 20 && seconds(t0) < budget);
  return seconds(t0) / double(std::max(steps, 1LL));
}

void benchPendulum(double budget, long long maxSteps) {
  // the cost of a step does not depend on h; the short links of long chains are stiff, so a
  // small h keeps every run finite (a diverging run would time garbage)
  const double hRk4 = 1e-7, hMid = 1e-5;
  std::printf("\n# pendulum: uniform chain of N links (1 m, 1 kg) released at 45 degrees\n");
  std::printf("%8s %22s %32s\n", "N", "rk4 us/step (h=1e-7)", "implicit_midpoint us/step (h=1e-5)");
  double t1000 = 0, t10000 = 0;
  for (int n : {2, 10, 100, 1000, 10000}) {
    bool div = false;
    const double rk = pendulumStepTime(n, sim::Method::Rk4, hRk4, budget, maxSteps, div);
    if (n == 1000) t1000 = rk;
    if (n == 10000) t10000 = rk;
    std::printf("%8d %16.2f%6s", n, 1e6 * rk, div ? "(div)" : "");
    std::fflush(stdout);
    if (n <= 1000) {
      const double mid =
          pendulumStepTime(n, sim::Method::ImplicitMidpoint, hMid, budget, maxSteps, div);
      std::printf(" %26.2f%6s\n", 1e6 * mid, div ? "(div)" : "");
    } else {
      std::printf(" %32s\n", "-");
    }
  }
  std::printf("rk4 scaling exponent between N = 1000 and 10000: %.3f\n",
              std::log(t10000 / t1000) / std::log(10.0));
}
}  // namespace

int benchCommand(const Args& args) {
  std::vector<std::string> scenes = {"cloth_16", "cloth_32", "cloth_64", "cloth_128", "cloth_256"};
  std::vector<std::string> methods;
  double budget = 1.0;  // s of stepping per cell
  long long maxSteps = 500;
  std::string suite = "all";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string { return i + 1 < args.size() ? args[++i] : std::string(); };
    if (a == "--scenes") {
      scenes = split(value());
    } else if (a == "--integrators") {
      methods = split(value());
    } else if (a == "--seconds") {
      const std::string v = value();
      if (!parseDouble(v, budget) || budget <= 0) {
        std::fprintf(stderr, "springlab bench: --seconds: must be a number > 0, not \"%s\"\n",
                     v.c_str());
        return 2;
      }
    } else if (a == "--suite") {
      suite = value();
      if (suite != "all" && suite != "cloth" && suite != "pendulum") {
        std::fprintf(stderr,
                     "springlab bench: --suite: must be all, cloth or pendulum, not \"%s\"\n",
                     suite.c_str());
        return 2;
      }
    } else if (a == "--max-steps") {
      const std::string v = value();
      if (!parseWhole(v, maxSteps) || maxSteps < 1) {
        std::fprintf(stderr,
                     "springlab bench: --max-steps: must be a whole number >= 1, not \"%s\"\n",
                     v.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr,
                   "springlab bench: unknown option \"%s\" (options: --scenes A,B --integrators "
                   "A,B --seconds S --max-steps N --suite all|cloth|pendulum)\n",
                   a.c_str());
      return 2;
    }
  }
  std::vector<sim::Method> ms;
  if (methods.empty()) {
    for (const auto& i : sim::integrators())
      if (i.mass_spring) ms.push_back(i.method);
  } else {
    for (const auto& name : methods) {
      const auto m = sim::findIntegrator(name);
      if (!m || !sim::appliesTo(*m, sim::SystemKind::MassSpring)) {
        std::fprintf(stderr, "springlab bench: --integrators: \"%s\" is not one of %s\n",
                     name.c_str(), sim::applicableList(sim::SystemKind::MassSpring).c_str());
        return 2;
      }
      ms.push_back(*m);
    }
  }

  if (suite != "pendulum" && benchCloth(scenes, ms, budget, maxSteps) != 0) return 2;
  if (suite != "cloth") benchPendulum(budget, maxSteps);
  return 0;
}

namespace {
int benchCloth(const std::vector<std::string>& scenes, const std::vector<sim::Method>& ms,
               double budget, long long maxSteps) {
  std::printf("# microseconds per step (first step, which factorises, excluded when more ran)\n");
  std::printf("%-12s %9s %9s", "scene", "particles", "springs");
  for (auto m : ms) std::printf(" %17s", std::string(sim::info(m).name).c_str());
  std::printf(" %14s\n", "spring-evals/s");
  for (const auto& name : scenes) {
    scene::SceneDef def;
    try {
      def = scene::loadSceneArg(name);
    } catch (const scene::Error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
    const scene::Built b = scene::build(def);
    std::printf("%-12s %9d %9d", name.c_str(), b.mass_spring.particles(), b.mass_spring.springs());
    std::fflush(stdout);
    for (auto m : ms) {
      sim::Stepper st(b.mass_spring, b.state, m, def.dt);
      // the first step builds caches (factorisations, patterns): timed apart
      auto t0 = Clock::now();
      auto d = st.advance();
      const double first = seconds(t0);
      long long n = 0;
      t0 = Clock::now();
      while (!d && n < maxSteps && seconds(t0) < budget) {
        d = st.advance();
        ++n;
      }
      const double per = n > 0 ? seconds(t0) / double(n) : first;
      char cell[32];
      std::snprintf(cell, sizeof cell, "%.1f%s", 1e6 * per, d ? " (div)" : "");
      std::printf(" %17s", cell);
      std::fflush(stdout);
    }
    // explicit force pass alone
    Eigen::VectorXd f;
    long long passes = 0;
    const auto t0 = Clock::now();
    while (seconds(t0) < budget * 0.5 || passes < 3) {
      sim::totalForce(b.mass_spring, b.state.x, b.state.v, f);
      ++passes;
    }
    std::printf(" %14.3g\n", double(passes) * b.mass_spring.springs() / seconds(t0));
  }
  return 0;
}

}  // namespace

}  // namespace cli
