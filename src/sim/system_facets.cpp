// System's facets (sim/facets.hpp): each forwards to the kind it holds.
#include "sim/kinds.hpp"
#include "sim/system.hpp"

namespace sim {

Equilibrium System::staticEquilibrium(const State& from) const {
  return visit([&](const auto& k) { return k.equilibrium(from); });
}

std::optional<double> System::theoryPeriod(const State& s) const {
  return visit([&](const auto& k) { return k.theoryPeriod(s); });
}

std::optional<std::string> System::placeBody(State& s, int body, const Vec3& target) const {
  if (body < 0 || body >= bodies())
    return "body " + std::to_string(body) + ": no such particle or bob";
  if (!target.allFinite()) return "place " + bodyName(body) + ": not a finite point";
  visit([&](const auto& k) { k.place(s, body, target); });
  s.v.setZero();
  return std::nullopt;
}

std::optional<std::string> System::scale(Scale which, double f) {
  return visit([&](auto& k) { return k.scale(which, f); });
}

std::vector<JointAngle> System::jointAngles(const State& s) const {
  return visit([&](const auto& k) { return k.jointAngles(s); });
}

EditFacts System::editFacts(const State& s, const std::vector<int>& selection) const {
  return visit([&](const auto& k) { return k.editFacts(s, selection); });
}

std::vector<BodyForce> System::bodyForces(const State& s, int body) const {
  return visit([&](const auto& k) { return k.bodyForces(s, body); });
}

std::vector<BodyForce> System::contactForce(const State& s, int body, const Vec3& observed) const {
  return visit([&](const auto& k) { return k.contactForce(s, body, observed); });
}

std::optional<std::string> System::scaleAbsent(Scale which, SystemKind kind) {
  const std::string_view why =
      withKind(kind, [which](auto unit) { return decltype(unit)::type::scaleAbsent(which); });
  if (why.empty()) return std::nullopt;
  return std::string(why);
}

}  // namespace sim
