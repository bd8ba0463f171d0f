// The parameter table owns each parameter (docs/architecture.md#one-parameter-table): for every
// row and every kind it applies to, a scene file, `--at` and System::setParameter (where the
// panel's commands end, after the window's range) accept and refuse the same values; a row that
// does not apply is refused by the file with the table's reason; a saved scene keeps each row's
// value; and every number parser takes the same spellings (util/number.hpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lab/events.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "scene/save.hpp"
#include "util/number.hpp"

namespace {

// A small scene of `kind` with `entry` ("\"key\": value", or empty) at `slot`; a mass-spring one
// has drag where `drag` says (the wind acts through it).
std::string sceneText(sim::SystemKind kind, sim::SceneSlot slot, const std::string& entry,
                      bool drag = false) {
  std::string system = kind == sim::SystemKind::MassSpring
                           ? R"("type": "mass_spring", "particles": [{"position": [0, 0, 0],
                 "fixed": true}, {"position": [1, 0, 0], "mass": 1}], "springs": [{"a": 0,
                 "b": 1, "stiffness": 10}])"
                           : R"("type": "pendulum", "lengths": [1], "masses": [1],
                 "angles": [0.3])";
  if (drag) system += R"(, "drag": 0.5)";
  std::string top = R"("dt": 0.001)";
  if (!entry.empty()) (slot == sim::SceneSlot::Top ? top : system) += ", " + entry;
  return "{" + top + R"(, "system": {)" + system + "}}";
}

bool fileTakes(const std::string& text) {
  try {
    scene::parse(text, "rows.json");
    return true;
  } catch (const scene::Error&) {
    return false;
  }
}

struct Candidate {
  std::string json;  // the value as a file spells it
  double scalar = 0.0;
  sim::Vec3 vec = sim::Vec3::Zero();
};

std::vector<Candidate> candidates(const sim::ParameterInfo& row) {
  if (sim::isVector(row))
    return {{"[0, -9.81, 0]", 0, {0, -9.81, 0}},
            {"[0, 0, 0]", 0, {0, 0, 0}},
            {"[60, 80, 0]", 0, {60, 80, 0}},  // 100 m/s: a Velocity's limit, included
            {"[150, 0, 0]", 0, {150, 0, 0}},  // faster than a Velocity may be
            {"[-1000, 0, 0]", 0, {-1000, 0, 0}}};
  return {{"-1", -1}, {"0", 0}, {"0.5", 0.5}, {"1", 1}, {"2", 2}, {"1000", 1000}, {"1001", 1001}};
}

const sim::SystemKind kKinds[] = {sim::SystemKind::MassSpring, sim::SystemKind::Pendulum};

}  // namespace

TEST_CASE("parameters: a file, --at and setParameter take and refuse the same values, row by row") {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene == sim::SceneSlot::None) continue;  // not a scene key (a spring's own k)
    for (const sim::SystemKind kind : kKinds) {
      if (sim::notApplicable(row.parameter, kind)) continue;
      CAPTURE(row.key);
      CAPTURE(sim::systemName(kind));
      const bool drag = row.acts_through.has_value();
      scene::Built base = scene::build(scene::parse(sceneText(kind, row.scene, "", drag), "b"));
      for (const Candidate& c : candidates(row)) {
        CAPTURE(c.json);
        const double v[3] = {c.vec.x(), c.vec.y(), c.vec.z()};
        const bool rule =
            !(sim::isVector(row) ? sim::checkVector(row, v) : sim::checkValue(row, c.scalar));
        const std::string entry = "\"" + std::string(row.key) + "\": " + c.json;
        CHECK(fileTakes(sceneText(kind, row.scene, entry, drag)) == rule);
        scene::Built b = base;
        CHECK(!b.setParameter(row.parameter, c.scalar, c.vec) == rule);
        if (!row.event) continue;
        lab::Event e;
        const bool at = !lab::parseEvent("1:" + std::string(row.key) + "=" + c.json, e) &&
                        !lab::checkEvent(e, kind);
        CHECK(at == rule);
      }
    }
  }
}

TEST_CASE("parameters: a row that does not apply is refused in a file with the table's reason") {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene == sim::SceneSlot::None) continue;
    for (const sim::SystemKind kind : kKinds) {
      const auto absent = sim::notApplicable(row.parameter, kind);
      if (!absent) continue;
      CAPTURE(row.key);
      const std::string value = sim::isVector(row) ? "[1, 0, 0]" : "1";
      try {
        scene::parse(sceneText(kind, row.scene, "\"" + std::string(row.key) + "\": " + value),
                     "rows.json");
        FAIL("accepted");
      } catch (const scene::Error& e) {
        const std::string where = row.scene == sim::SceneSlot::Top ? "" : "system.";
        CHECK(std::string(e.what()) ==
              "rows.json: " + where + std::string(row.key) + ": " + *absent);
      }
    }
  }
}

TEST_CASE("parameters: a saved scene keeps every row's value, and builds with it") {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene == sim::SceneSlot::None) continue;
    for (const sim::SystemKind kind : kKinds) {
      if (sim::notApplicable(row.parameter, kind)) continue;
      CAPTURE(row.key);
      const std::string value = sim::isVector(row) ? "[3, -4, 0]" : "7";
      const scene::SceneDef def =
          scene::parse(sceneText(kind, row.scene, "\"" + std::string(row.key) + "\": " + value,
                                 row.acts_through.has_value()),
                       "rows.json");
      const scene::SceneDef back = scene::parse(scene::toJson(def), "saved");
      CHECK(back.parameters == def.parameters);
      const scene::Built b = scene::build(back);
      if (sim::isVector(row))
        CHECK(b.vectorParameter(row.parameter) == sim::Vec3(3, -4, 0));
      else
        CHECK(b.parameter(row.parameter) == 7.0);
    }
  }
}

TEST_CASE("parameters: zero substeps in a file is automatic, as in the panel and --at") {
  const scene::SceneDef def = scene::parse(
      sceneText(sim::SystemKind::MassSpring, sim::SceneSlot::Top, R"("substeps": 0)"), "z.json");
  CHECK(scene::build(def).parameter(sim::Parameter::Substeps) == sim::kAutomatic);
}

TEST_CASE("numbers: one parser takes a leading +, refuses a second sign, space and overflow") {
  CHECK(util::parseFiniteNumber("+30") == 30.0);
  CHECK(util::parseFiniteNumber("-0.5") == -0.5);
  CHECK(util::parseFiniteNumber("1e-3") == 1e-3);
  for (const char* bad :
       {"", "+", "+-1", "++1", " 1", "1 ", "1e999", "nan", "inf", "0x10", "1,5"}) {
    CAPTURE(bad);
    CHECK_FALSE(util::parseFiniteNumber(bad));
  }
  CHECK(util::parseWholeNumber("42") == 42);
  CHECK_FALSE(util::parseWholeNumber("+42"));
  CHECK_FALSE(util::parseWholeNumber("1234567890123456789"));  // 19 digits
}
