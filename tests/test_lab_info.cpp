// springlab info and order (docs/cli.md#info, #order): omega_max against dense eigen-solves and a
// closed form, a pendulum's local frequency against closed forms, the limits over the motion
// against where sweep finds divergence, the dt limits, the JSON, the observed orders, and bad
// input.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <nlohmann/json.hpp>

#include "fp_trap.hpp"
#include "lab/step_limit.hpp"
#include "lab/sweep.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/forces.hpp"
#include "sim/spectrum.hpp"
#include "util.hpp"

using namespace testutil;

namespace {

// The largest lambda of H v = lambda M v (M symmetric positive definite): with M = L L^T, the
// largest eigenvalue of L^-1 H L^-T.
double largestGeneralisedEigenvalue(const Eigen::MatrixXd& H, const Eigen::MatrixXd& M) {
  const Eigen::LLT<Eigen::MatrixXd> llt(M);
  const Eigen::MatrixXd Linv = llt.matrixL().solve(Eigen::MatrixXd::Identity(M.rows(), M.cols()));
  const Eigen::MatrixXd A = Linv * H * Linv.transpose();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(A, Eigen::EigenvaluesOnly);
  return solver.eigenvalues().maxCoeff();
}

// The dense Hessian and mass matrix of a mass-spring system over its free coordinates (dim per
// free particle), and the largest generalised eigenvalue's square root.
double denseOmegaMassSpring(const sim::MassSpringModel& m, const sim::State& s) {
  const int dim = m.dim;
  std::vector<int> freeOf(m.particles(), -1);
  int nf = 0;
  for (int i = 0; i < m.particles(); ++i)
    if (!m.fixed(i)) freeOf[i] = nf++;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(nf * dim, nf * dim), M = H;
  const Eigen::VectorXd still = Eigen::VectorXd::Zero(s.x.size());
  for (int k = 0; k < m.springs(); ++k) {
    Eigen::Matrix3d K, D;
    sim::springJacobians(m, k, s.x, still, K, D);
    const int ends[2] = {m.spring_a[k], m.spring_b[k]};
    for (int p = 0; p < 2; ++p)
      for (int q = 0; q < 2; ++q) {
        if (freeOf[ends[p]] < 0 || freeOf[ends[q]] < 0) continue;
        const double sign = p == q ? -1.0 : 1.0;  // the Hessian is -df/dx
        H.block(freeOf[ends[p]] * dim, freeOf[ends[q]] * dim, dim, dim) +=
            sign * K.topLeftCorner(dim, dim);
      }
  }
  for (int i = 0; i < m.particles(); ++i)
    if (freeOf[i] >= 0)
      M.block(freeOf[i] * dim, freeOf[i] * dim, dim, dim) =
          m.mass[i] * Eigen::MatrixXd::Identity(dim, dim);
  REQUIRE(nf > 0);
  const double top = largestGeneralisedEigenvalue(H, M);
  return top > 0 ? std::sqrt(top) : 0.0;
}

// The pendulum's dense M(phi) (columns M e_j) and diagonal Hessian of its potential.
double denseOmegaPendulum(const sim::PendulumModel& m, const sim::State& s) {
  const int n = m.links();
  Eigen::MatrixXd M(n, n);
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd e = Eigen::VectorXd::Unit(n, j), col;
    sim::pendulumMomentum(m, s.x, e, col);
    M.col(j) = col;
  }
  // V(phi) by central differences of the energy: independent of the code under test
  const double eps = 1e-4;  // truncation O(eps^2), round-off O(1e-16 V / eps^2): both < 1e-7
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
  auto V = [&](const Eigen::VectorXd& phi) {
    sim::State t{phi, Eigen::VectorXd::Zero(n), 0.0};
    return sim::energy(m, t).potential;
  };
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd p = s.x, q = s.x;
    p[j] += eps, q[j] -= eps;
    H(j, j) = (V(p) - 2 * V(s.x) + V(q)) / (eps * eps);
  }
  const double top = largestGeneralisedEigenvalue(H, M);
  return top > 0 ? std::sqrt(top) : 0.0;
}

// A chain of n free masses m between two fixed ends, n + 1 springs k, no gravity, stretched by
// `stretch` (rest length l, spacing l (1 + stretch)); a 3-D variant bends it in z.
std::string chainScene(int n, double m, double k, double stretch, bool bent = false) {
  std::string particles, springs;
  for (int i = 0; i <= n + 1; ++i) {
    const bool fixed = i == 0 || i == n + 1;
    const double x = i * (1.0 + stretch), z = bent && !fixed ? 0.05 * std::sin(i) : 0.0;
    particles += (i ? "," : "") + std::string("{\"position\": [") + std::to_string(x) + ", 0, " +
                 std::to_string(z) + "]" +
                 (fixed ? ", \"fixed\": true}" : ", \"mass\": " + std::to_string(m) + "}");
    if (i <= n)
      springs += (i ? "," : "") + std::string("{\"a\": ") + std::to_string(i) +
                 ", \"b\": " + std::to_string(i + 1) + ", \"stiffness\": " + std::to_string(k) +
                 ", \"rest_length\": 1}";
  }
  return "{\"gravity\": [0, 0, 0], \"integrator\": \"verlet\", \"dt\": 0.001, \"duration\": 1, "
         "\"system\": {\"type\": \"mass_spring\", \"particles\": [" +
         particles + "], \"springs\": [" + springs + "]}}";
}

double omegaOf(const scene::SceneDef& def) {
  const scene::Built b = scene::build(def);
  return b.omegaMax(b.state);
}

}  // namespace

TEST_CASE("omega_max agrees with a dense generalised eigen-solve") {
  for (const char* name : {"cloth_16", "seed003_table1_case1", "seed000_closed_loop",
                           "seed002_elastic_double_pendulum"}) {
    CAPTURE(name);
    const scene::Built b = scene::build(scene::loadSceneArg(name));
    CHECK(b.omegaMax(b.state) ==
          doctest::Approx(denseOmegaMassSpring(*b.massSpring(), b.state)).epsilon(1e-8));
  }
  // compressed (the geometric term makes K indefinite) and bent out of plane (3-D)
  for (double stretch : {-0.3, 0.2}) {
    const auto def = scene::parse(chainScene(12, 0.1, 50.0, stretch, true), "chain");
    const scene::Built b = scene::build(def);
    CAPTURE(stretch);
    REQUIRE(b.massSpring()->dim == 3);
    CHECK(b.omegaMax(b.state) ==
          doctest::Approx(denseOmegaMassSpring(*b.massSpring(), b.state)).epsilon(1e-8));
  }
  for (const char* name :
       {"seed004_fig6b", "seed004_triple_pendulum", "pendulum_small_angle", "chain20_damped"}) {
    CAPTURE(name);
    const scene::Built b = scene::build(scene::loadSceneArg(name));
    CHECK(b.omegaMax(b.state) ==
          doctest::Approx(denseOmegaPendulum(*b.pendulum(), b.state)).epsilon(1e-6));
  }
}

TEST_CASE("omega_max of a chain with fixed ends is 2 sqrt(k/m) sin(n pi / (2 (n + 1)))") {
  for (int n : {1, 5, 40}) {
    CAPTURE(n);
    const double m = 0.2, k = 80.0;
    // at rest length the geometric term vanishes: the longitudinal modes alone
    const double exact = 2.0 * std::sqrt(k / m) * std::sin(n * M_PI / (2.0 * (n + 1)));
    CHECK(omegaOf(scene::parse(chainScene(n, m, k, 0.0), "chain")) ==
          doctest::Approx(exact).epsilon(1e-10));
  }
}

TEST_CASE("the dt limits: 2/omega, 2 sqrt(2)/omega, 0 for euler, none for implicit ones") {
  CHECK(*sim::dtLimit(sim::Method::SymplecticEuler, 100.0) == 0.02);
  CHECK(*sim::dtLimit(sim::Method::Verlet, 100.0) == 0.02);
  CHECK(*sim::dtLimit(sim::Method::Rk4, 100.0) == doctest::Approx(0.02 * std::sqrt(2.0)));
  CHECK(*sim::dtLimit(sim::Method::Euler, 100.0) == 0.0);
  CHECK_FALSE(sim::dtLimit(sim::Method::ImplicitEuler, 100.0));
  CHECK_FALSE(sim::dtLimit(sim::Method::TimeFe, 100.0));
  CHECK_FALSE(sim::dtLimit(sim::Method::ImplicitMidpoint, 100.0));
}

TEST_CASE("info --json gives omega_max, omega_max_initial and a dt_limit per integrator") {
  const auto r = springlab({"info", "cloth_16", "--json", "--seconds", "0.2"});
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const double omega = j.at("omega_max").get<double>();
  const scene::Built b = scene::build(scene::loadSceneArg("cloth_16"));
  CHECK(j.at("omega_max_initial").get<double>() ==
        doctest::Approx(denseOmegaMassSpring(*b.massSpring(), b.state)).epsilon(1e-8));
  // the motion's largest is at least the initial state's, and a hanging cloth's stays near it
  CHECK(omega >= j.at("omega_max_initial").get<double>());
  CHECK(omega <= 1.5 * j.at("omega_max_initial").get<double>());
  CHECK(j.at("reference").at("seconds").get<double>() == 0.2);
  const auto& limits = j.at("dt_limit");
  CHECK(limits.at("verlet").get<double>() == doctest::Approx(2.0 / omega));
  CHECK(limits.at("rk4").get<double>() == doctest::Approx(2.0 * std::sqrt(2.0) / omega));
  CHECK(limits.at("euler").get<double>() == 0.0);
  CHECK(limits.at("implicit_euler").is_null());
  CHECK_FALSE(limits.contains("implicit_midpoint"));  // it does not apply to a mass-spring system
  // xpbd and projective: no limit from omega, but not "stable at every dt" either
  CHECK(limits.at("xpbd").is_null());
  CHECK(j.at("stability").at("xpbd") == "settings");
  CHECK(j.at("stability").at("projective") == "settings");
  CHECK(j.at("stability").at("implicit_euler") == "unconditional");
  CHECK(j.at("stability").at("rk4") == "bounded");
  CHECK(j.at("stability").at("euler") == "never");
  const auto text = springlab({"info", "cloth_16", "--seconds", "0.2"});
  CHECK(text.status == 0);
  CHECK(text.out.find("xpbd               none from omega_max: depends on its substeps and "
                      "iterations\n") != std::string::npos);
  CHECK(text.out.find("implicit_euler     none (implicit: stable at every dt)\n") !=
        std::string::npos);
  const auto p = springlab({"info", "seed004_fig6b"});
  CHECK(p.status == 0);
  CHECK(p.out.find("implicit_midpoint  none (implicit") != std::string::npos);
  CHECK(p.out.find("(measured over T = 10 s: diverges from ") != std::string::npos);
}

TEST_CASE("a pendulum's local frequency: sqrt(g/R) hanging at rest, sqrt(5) Omega spinning") {
  // hanging straight down at rest, undamped: the Jacobian's eigenvalues are +-i omega_max
  sim::PendulumModel one;
  one.length = Eigen::VectorXd::Constant(1, 0.5);
  one.mass = Eigen::VectorXd::Constant(1, 2.0);
  const sim::State hanging{Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), 0.0};
  CHECK(sim::localOmega(one, hanging) == doctest::Approx(std::sqrt(9.81 / 0.5)).epsilon(1e-6));
  CHECK(sim::omegaMax(one, hanging) == doctest::Approx(std::sqrt(9.81 / 0.5)).epsilon(1e-9));
  // two equal links (R = 1 m, m = 1 kg), no gravity, straight and spinning at Omega: the rods'
  // tension from the motion holds the bend; linearising Lagrange's equations about psi = phi2 -
  // phi1 = 0 gives 2 phi1'' + phi2'' = Omega^2 psi, phi1'' + phi2'' = -Omega^2 psi, so psi'' =
  // -5 Omega^2 psi. The potential's Hessian is 0: omega_max_initial sees nothing.
  sim::PendulumModel two;
  two.length = Eigen::VectorXd::Ones(2);
  two.mass = Eigen::VectorXd::Ones(2);
  two.gravity = sim::Vec3::Zero();
  for (double spin : {1.0, 7.0}) {
    CAPTURE(spin);
    const sim::State s{Eigen::VectorXd::Constant(2, 0.3), Eigen::VectorXd::Constant(2, spin), 0.0};
    CHECK(sim::localOmega(two, s) == doctest::Approx(std::sqrt(5.0) * spin).epsilon(1e-6));
    CHECK(sim::omegaMax(two, s) == 0.0);
  }
}

namespace {

// The smallest dt at which `sweep` finds `method` diverging on `def` over `seconds`, on a grid of
// kCells steps from limit / 3 to 3 limit; 0 when none diverges.
double firstDiverged(const scene::SceneDef& def, sim::Method method, double limit, double seconds) {
  constexpr int kCells = 16;
  lab::SweepSpec spec;
  spec.def = def;
  spec.methods = {method};
  spec.dt = {limit / 3.0, 3.0 * limit, kCells};
  spec.seconds = seconds;
  for (const lab::CellResult& c : lab::runSweep(spec, 1, 1, 2, {}))
    if (c.cls == lab::CellClass::Diverged) return c.dt;
  return 0.0;
}

// info's limit for `method` on `scene` over `seconds`: lab::stepLimits, as `info` computes it.
lab::StepLimit infoLimit(const scene::SceneDef& def, sim::Method method, double seconds) {
  const testutil::FpTrapsOff scansDivergeOnPurpose;
  const scene::Built b = scene::build(def);
  const sim::MotionSpectrum r = sim::motionSpectrum(b, b.state, seconds);
  for (const lab::StepLimit& l : lab::stepLimits(def, b, r, seconds))
    if (l.method == method) return l;
  FAIL("no limit for " << sim::info(method).name);
  return {};
}

// info's limit against the sweep's first diverged dt: within a factor of 2
// (docs/integrators.md#stability-limits).
void checkAgainstSweep(const char* name, sim::Method method, double seconds) {
  const testutil::FpTrapsOff cellsDivergeOnPurpose;
  const scene::SceneDef def = scene::loadSceneArg(name);
  const double limit = *infoLimit(def, method, seconds).limit();
  const double diverged = firstDiverged(def, method, limit, seconds);
  CAPTURE(name);
  CAPTURE(sim::info(method).name);
  CAPTURE(limit);
  CHECK(diverged >= limit / 2.0);
  CHECK(diverged <= 2.0 * limit);
}

}  // namespace

TEST_CASE("info's limits hold where sweep finds divergence, for pendulums and springs") {
  // seed004_fig6b: the initial state's rk4 limit (0.65 s) is more than ten times too large; the
  // motion's (0.054 s) is where rk4 diverges (0.048 s)
  checkAgainstSweep("seed004_fig6b", sim::Method::Rk4, 10.0);
  checkAgainstSweep("seed004_double_pendulum", sim::Method::Rk4, 10.0);
  // a spring network: rk4 and symplectic_euler hold to their oscillation limits
  checkAgainstSweep("cloth_16", sim::Method::Rk4, 0.5);
  checkAgainstSweep("cloth_16", sim::Method::SymplecticEuler, 0.5);
  // symplectic_euler and verlet on a pendulum also fail by the velocity terms: 2/omega_max was
  // 2.5 to 6.5 times too large on these, and 2.2 times too small on fig6b's symplectic_euler
  for (const char* scene : {"seed004_fig6a", "seed004_fig6b", "seed004_triple_pendulum"}) {
    checkAgainstSweep(scene, sim::Method::SymplecticEuler, 10.0);
    checkAgainstSweep(scene, sim::Method::Verlet, 10.0);
  }
  checkAgainstSweep("rope_100", sim::Method::SymplecticEuler, 2.0);
}

TEST_CASE("a pendulum's explicit limits are measured, a spring network's are omega_max's") {
  // one link, small angle: nothing diverges over the scan, from 4 times the linear limit to a
  // quarter of it, so 2/omega_max stands
  const auto one =
      infoLimit(scene::loadSceneArg("pendulum_small_angle"), sim::Method::SymplecticEuler, 10.0);
  CHECK(one.measured);
  CHECK_FALSE(one.firstDiverged());
  CHECK(one.limit() == one.linear);
  REQUIRE(one.scan.size() == 17);  // 4 to 1/4 by 2^(1/4)
  CHECK(one.scan.front().dt == doctest::Approx(4.0 * *one.linear));
  CHECK(one.scan.back().dt == doctest::Approx(0.25 * *one.linear));
  // the double pendulum whips: symplectic_euler diverges below 2/omega_max; the limit is the
  // geometric middle of the smallest step that diverged and the one from which all did, and the
  // four grid steps below the smallest held
  const auto two =
      infoLimit(scene::loadSceneArg("seed004_double_pendulum"), sim::Method::SymplecticEuler, 10.0);
  const auto first = two.firstDiverged(), solid = two.solidFrom();
  REQUIRE(first);
  CHECK(*first < 0.8 * *two.linear);
  CHECK(*solid >= *first);
  CHECK(*two.limit() == doctest::Approx(std::sqrt(*first * *solid)));
  REQUIRE(two.scan.size() >= 5);
  for (size_t k = two.scan.size() - 4; k < two.scan.size(); ++k) CHECK_FALSE(two.scan[k].diverged);
  CHECK(two.scan[two.scan.size() - 5].dt == *first);
  // solidFrom: every step from it up to two grid steps above diverged
  for (const auto& p : two.scan)
    if (p.dt >= *solid && p.dt <= *solid * lab::kScanRatio * lab::kScanRatio * 1.000001)
      CHECK(p.diverged);
  CHECK(two.stopped.empty());
  // a spring network: no scan, the linear limit
  const auto cloth = infoLimit(scene::loadSceneArg("cloth_16"), sim::Method::Verlet, 0.5);
  CHECK_FALSE(cloth.measured);
  CHECK(cloth.scan.empty());
  CHECK(cloth.limit() == cloth.linear);
}

TEST_CASE(
    "order recovers 1, 1, 2, 4, 1, 1, 1, 1, 1 on an undamped spring pendulum, 4 and 2 on a "
    "pendulum") {
  const auto r = springlab({"order", "seed003_table1_case1"});
  REQUIRE(r.status == 0);
  const auto ls = lines(r.out);
  REQUIRE(ls.size() == 10);
  CHECK(ls[0] == "integrator,order");
  const std::vector<std::pair<std::string, double>> expected = {
      {"euler", 1}, {"symplectic_euler", 1}, {"verlet", 2},
      {"rk4", 4},   {"implicit_euler", 1},   {"time_fe", 1},
      {"xpbd", 1},  {"projective", 1},       {"vbd", 1}};
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(ls[i + 1]);
    const auto comma = ls[i + 1].find(',');
    CHECK(ls[i + 1].substr(0, comma) == expected[i].first);
    CHECK(std::stod(ls[i + 1].substr(comma + 1)) ==
          doctest::Approx(expected[i].second).epsilon(0.05));
  }
  const auto p = springlab({"order", "seed004_fig6b", "--integrators", "rk4,implicit_midpoint"});
  REQUIRE(p.status == 0);
  const auto rows = csvRows(p.out);  // the names read as 0: the orders are the second column
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][1] == doctest::Approx(4.0).epsilon(0.05));
  CHECK(rows[1][1] == doctest::Approx(2.0).epsilon(0.05));
}

TEST_CASE("order writes nan and the reason for a run that diverged or is not asymptotic") {
  // a spring chain at 10 and 30 times its dt: euler diverges; rk4's orders from h to h/4 and
  // from h/2 to h/8 disagree; time_fe's runs at h and h/2 are far apart
  const auto r = springlab({"order", "seed000_spring_pendulum_10", "--dt", "0.01", "--integrators",
                            "euler,rk4,implicit_euler"});
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("integrator,order\neuler,nan\nrk4,nan\nimplicit_euler,0.89", 0) == 0);
  CHECK(r.err ==
        "springlab order: euler: diverged at h\n"
        "springlab order: rk4: not in the asymptotic range: order 2.69 from h to h/4, 4.07 from "
        "h/2 to h/8\n");
  const auto far = springlab(
      {"order", "seed000_spring_pendulum_10", "--dt", "0.03", "--integrators", "time_fe"});
  CHECK(far.out == "integrator,order\ntime_fe,nan\n");
  CHECK(far.err.rfind("springlab order: time_fe: ", 0) == 0);
  // a smooth scene keeps its numbers: the runs at h/2, h/4 and h/8 agree with h, h/2 and h/4
  const auto ok = springlab({"order", "seed004_fig6b", "--integrators", "rk4"});
  CHECK(ok.err.empty());
}

TEST_CASE("bad info and order options exit 2 with one line") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"info", "cloth_16", "--dt", "1"}, "springlab info: unknown option --dt"},
      {{"info", "cloth_16", "--seconds", "0"},
       "springlab info: --seconds: must be a finite number > 0, not \"0\""},
      {{"info", "cloth_16", "--seconds", "nan"},
       "springlab info: --seconds: must be a finite number > 0, not \"nan\""},
      {{"info"},
       "springlab info: missing SCENE (a .json file or a built-in name from springlab list)"},
      {{"order", "cloth_16", "--dt", "0"},
       "springlab order: --dt: must be a finite number > 0, not \"0\""},
      {{"order", "cloth_16", "--integrators", "implicit_midpoint"},
       "springlab order: --integrators: implicit_midpoint does not apply to mass_spring systems; "
       "these apply: euler, symplectic_euler, verlet, rk4, implicit_euler, time_fe, xpbd, "
       "projective, vbd"},
      {{"order", "cloth_16", "--duration", "inf"},
       "springlab order: --duration: must be a finite number > 0, not \"inf\""},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(message);
    const auto r = springlab(args);
    CHECK(r.status == 2);
    CHECK(r.err == message + "\n");
    CHECK(r.out.empty());
  }
}
