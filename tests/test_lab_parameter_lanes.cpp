// Parameter lanes (docs/lab.md#parameter-lanes): a lane that differs from lane 0 by a physical
// parameter or a scale of the model, on its own copy of the system. Its set-up parses and refuses
// as the contract's other inputs do, its motion is the closed form of its own parameters, and each
// compare lane with a set-up is bit-identical to `springlab run` of the scene edited to match.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "lab/lane.hpp"
#include "lab/lane_spec.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "util.hpp"

using namespace testutil;

namespace {

// Seed 002's harmonic oscillator with spring stiffness k and bob mass m (asset
// seed002_harmonic_oscillator: fixture at (0, 10), rest length 5, released at rest at (0, 3)).
std::string oscillator(double k, double m) {
  return R"({"gravity": [0, -9.81, 0], "integrator": "rk4", "dt": 0.0005, "duration": 1.5,
    "system": {"type": "mass_spring", "particles": [
      {"position": [0, 10, 0], "fixed": true},
      {"position": [0, 3, 0], "mass": )" +
         std::to_string(m) + R"(}],
      "springs": [{"a": 0, "b": 1, "stiffness": )" +
         std::to_string(k) + R"(, "rest_length": 5}]}})";
}

// The bob's height at time t in closed form: about the equilibrium 10 - 5 - m g / k, from y = 3
// at rest, at omega = sqrt(k / m).
double oscillatorHeight(double k, double m, double t) {
  const double g = 9.81, equilibrium = 5.0 - m * g / k;
  return equilibrium + (3.0 - equilibrium) * std::cos(std::sqrt(k / m) * t);
}

// Particle 1's height at t in a lane with `setup` on its own copy of the built scene's system.
double laneHeightAt(const scene::Built& built, const std::string& setup, double dt, double t) {
  std::vector<lab::LaneSetting> settings;
  REQUIRE_FALSE(lab::parseLaneSetup(setup, built.kind(), settings));
  sim::System system = built;
  REQUIRE_FALSE(lab::applyLaneSettings(settings, system));
  lab::Lane lane(system, built.state, sim::Method::Rk4, dt);
  lane.stepTo(t);
  REQUIRE(lane.state().t == doctest::Approx(t));
  return lane.state().x[4];  // particle 1's y
}

std::string specProblem(const std::string& text, sim::SystemKind kind) {
  std::vector<lab::LaneSpec> specs;
  const auto bad = lab::parseLaneSpecs(text, kind, specs);
  return bad ? *bad : std::string("accepted");
}

}  // namespace

TEST_CASE("parameter lanes: a set-up parses after the integrator and its dt") {
  std::vector<lab::LaneSpec> specs;
  REQUIRE_FALSE(lab::parseLaneSpecs("rk4,rk4@0.001:stiffness_scale=4:mass_scale=0.5,verlet:drag=0",
                                    sim::SystemKind::MassSpring, specs));
  REQUIRE(specs.size() == 3);
  CHECK(specs[0].settings.empty());
  CHECK(specs[0].setup().empty());
  CHECK(specs[1].dt == 0.001);
  REQUIRE(specs[1].settings.size() == 2);
  CHECK(specs[1].settings[0].parameter == sim::Parameter::StiffnessScale);
  CHECK(specs[1].settings[0].value == 4.0);
  CHECK_FALSE(specs[1].settings[1].parameter);
  CHECK(specs[1].settings[1].key == "mass_scale");
  CHECK(specs[1].setup() == "stiffness_scale=4:mass_scale=0.5");
  CHECK(specs[1].sets(sim::Parameter::StiffnessScale));
  CHECK_FALSE(specs[1].sets(sim::Parameter::Drag));
  CHECK(specs[2].sets(sim::Parameter::Drag));
  CHECK(specs[2].settings[0].value == 0.0);
}

TEST_CASE("parameter lanes: a bad set-up is one line naming the lane, the key and the problem") {
  const auto ms = sim::SystemKind::MassSpring;
  const std::pair<std::string, std::string> cases[] = {
      {"rk4:stiffness_scale=4,rk4",
       "lane 0 \"rk4:stiffness_scale=4\": lane 0 is the reference, with the scene's own set-up "
       "(set a later lane's, or give the scene's with --at 0:KEY=VALUE)"},
      {"rk4,rk4:stiffness=4",
       "lane 1 \"rk4:stiffness=4\": unknown key \"stiffness\" (keys: mass_scale, length_scale, " +
           sim::eventParameterKeys() + ")"},
      {"rk4,rk4:stiffness_scale",
       "lane 1 \"rk4:stiffness_scale\": \"stiffness_scale\" is not "
       "KEY=VALUE"},
      {"rk4,rk4:stiffness_scale=-1",
       "lane 1 \"rk4:stiffness_scale=-1\": stiffness_scale: must be a finite number > 0, not "
       "\"-1\""},
      {"rk4,rk4:stiffness_scale=nan",
       "lane 1 \"rk4:stiffness_scale=nan\": stiffness_scale: must be a finite number > 0, not "
       "\"nan\""},
      {"rk4,rk4:mass_scale=0",
       "lane 1 \"rk4:mass_scale=0\": mass_scale: must be a factor from "
       "0.001 to 1000, not \"0\""},
      {"rk4,rk4:mass_scale=2:mass_scale=3",
       "lane 1 \"rk4:mass_scale=2:mass_scale=3\": mass_scale: given twice"},
      {"rk4,rk4:length_scale=2",
       "lane 1 \"rk4:length_scale=2\": length_scale: a spring network's lengths are its scene's "
       "(it applies to a pendulum's links)"},
      {"rk4,rk4:joint_damping=1", "lane 1 \"rk4:joint_damping=1\": joint_damping: " +
                                      *sim::notApplicable(sim::Parameter::JointDamping, ms)},
      {"rk4,rk4:", "lane 1 \"rk4:\": \"\" is not KEY=VALUE"},
  };
  for (const auto& [text, message] : cases) {
    CAPTURE(text);
    CHECK(specProblem(text, ms) == message);
  }
  // out of the window's range: a lane the panel could not have made
  const sim::ParameterInfo& k = sim::parameterInfo(sim::Parameter::StiffnessScale);
  char big[64];
  std::snprintf(big, sizeof big, "%g", k.hi * 10);
  CHECK(specProblem(std::string("rk4,rk4:stiffness_scale=") + big, ms).find("is out of range") !=
        std::string::npos);
  CHECK(specProblem("rk4,rk4:length_scale=2", sim::SystemKind::Pendulum) == "accepted");
  CHECK(specProblem("rk4,rk4:stiffness_scale=2", sim::SystemKind::Pendulum) ==
        "lane 1 \"rk4:stiffness_scale=2\": stiffness_scale: " +
            *sim::notApplicable(sim::Parameter::StiffnessScale, sim::SystemKind::Pendulum));
}

TEST_CASE(
    "parameter lanes: four times the stiffness halves the period, four times the mass "
    "doubles it") {
  const double k = 20.0, m = 1.0, dt = 1e-4;
  const scene::Built built =
      scene::build(scene::loadSceneArg(writeFile("osc.json", oscillator(k, m)).string()));
  for (const double t : {0.37, 1.1}) {
    CAPTURE(t);
    // rk4 at omega h <= 1e-3: its error is far below the tolerance
    CHECK(laneHeightAt(built, "stiffness_scale=4", dt, t) ==
          doctest::Approx(oscillatorHeight(4 * k, m, t)).epsilon(1e-9));
    CHECK(laneHeightAt(built, "mass_scale=4", dt, t) ==
          doctest::Approx(oscillatorHeight(k, 4 * m, t)).epsilon(1e-9));
    // and the closed forms differ: the lane is not the scene's
    CHECK(std::abs(oscillatorHeight(4 * k, m, t) - oscillatorHeight(k, m, t)) > 0.1);
  }
}

TEST_CASE("parameter lanes: a pendulum four times as long swings at half the frequency") {
  const scene::Built built = scene::build(scene::loadSceneArg("pendulum_small_angle"));
  std::vector<lab::LaneSetting> settings;
  REQUIRE_FALSE(lab::parseLaneSetup("length_scale=4:mass_scale=3", built.kind(), settings));
  sim::System system = built;
  REQUIRE_FALSE(lab::applyLaneSettings(settings, system));
  const double theta0 = built.state.x[0], g = 9.81, length = 4.0;
  lab::Lane lane(system, built.state, sim::Method::Rk4, 1e-3);
  for (const double t : {1.0, 2.5, 4.0}) {
    lane.stepTo(t);
    // small angle: theta0 cos(sqrt(g / L) t), the amplitude's own correction theta0^2 / 16 ~ 6e-6
    // of the frequency; the mass does not enter
    CHECK(std::abs(lane.state().x[0] - theta0 * std::cos(std::sqrt(g / length) * t)) < 1e-6);
  }
  Eigen::VectorXd x;
  system.positions(lane.state(), x);
  CHECK(x.segment<3>(0).norm() == doctest::Approx(4.0));  // the bob on its longer rod
}

TEST_CASE(
    "parameter lanes: each compare lane with a set-up is springlab run of the scene edited "
    "to match") {
  const double k = 20.0, m = 1.0;
  const auto scene = writeFile("osc_compare.json", oscillator(k, m));
  const auto stiff = writeFile("osc_stiff.json", oscillator(4 * k, m));
  const auto heavy = writeFile("osc_heavy.json", oscillator(k, 4 * m));
  const auto c = springlab({"compare", scene.string(), "--lanes",
                            "rk4,rk4:stiffness_scale=4,rk4:mass_scale=4", "--out", "-"});
  REQUIRE(c.status == 0);
  const auto rows = csvRows(c.out);
  for (const auto& [lane, file] : {std::pair{1, stiff}, std::pair{2, heavy}}) {
    CAPTURE(lane);
    const auto r = springlab({"run", file.string(), "--energy", "-"});
    REQUIRE(r.status == 0);
    const auto expected = csvRows(r.out);
    std::vector<std::vector<double>> got;
    for (const auto& row : rows)
      if (static_cast<int>(row[1]) == lane) got.push_back(row);
    REQUIRE(got.size() == expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i][0] == expected[i][0]);  // t
      CHECK(got[i][4] == expected[i][1]);  // kinetic, bit for bit
      CHECK(got[i][5] == expected[i][2]);  // potential
    }
  }
  // the summary names each lane by its spec
  const auto summary = springlab(
      {"compare", scene.string(), "--lanes", "rk4,rk4:stiffness_scale=4", "--duration", "0.1"});
  REQUIRE(summary.status == 0);
  CHECK(summary.out.find("rk4:stiffness_scale=4") != std::string::npos);
}

TEST_CASE("parameter lanes: an event on a parameter a lane sets passes that lane by") {
  const double k = 20.0, m = 1.0;
  const auto scene = writeFile("osc_event.json", oscillator(k, m));
  const auto stiff = writeFile("osc_event_stiff.json", oscillator(4 * k, m));
  const auto c = springlab({"compare", scene.string(), "--lanes", "rk4,rk4:stiffness_scale=4",
                            "--at", "0.5:stiffness_scale=2", "--out", "-"});
  REQUIRE(c.status == 0);
  const auto r0 =
      springlab({"run", scene.string(), "--at", "0.5:stiffness_scale=2", "--energy", "-"});
  const auto r1 = springlab({"run", stiff.string(), "--energy", "-"});
  REQUIRE(r0.status == 0);
  REQUIRE(r1.status == 0);
  const auto rows = csvRows(c.out);
  const auto lane0 = csvRows(r0.out), lane1 = csvRows(r1.out);
  REQUIRE(rows.size() == 2 * lane0.size());
  for (size_t i = 0; i < lane0.size(); ++i) {
    CHECK(rows[2 * i][4] == lane0[i][1]);      // lane 0 takes the event
    CHECK(rows[2 * i + 1][4] == lane1[i][1]);  // lane 1 keeps its own stiffness
  }
}
