// The table of registered methods (user_methods.hpp): append-only, each entry on the heap so that
// the references info() and onKind() hand out stay valid while others register. Registering
// takes a lock; reading is a load from a fixed array of slots, with no lock, because every step
// of a method file's method asks for its coefficients (on every sweep thread at once).
#include "sim/user_methods.hpp"

#include <array>
#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>

#include "sim/method_facts.hpp"

namespace sim {

namespace {

// What a diagonally implicit method's residual measures (dirk_stage.hpp)
constexpr std::string_view kDirkResidual = "Newton ‖M (V − V̂) − γ f‖ / scale";

struct Entry {
  MethodCoefficients coefficients;
  MethodFacts facts;
  std::string description;
  IntegratorInfo info;
  OnKind mass_spring, pendulum;
};

std::mutex& tableLock() {
  static std::mutex lock;
  return lock;
}
// the entries (owned, under the lock) and their slots (read without it)
std::vector<std::unique_ptr<Entry>>& table() {
  static std::vector<std::unique_ptr<Entry>> entries;
  return entries;
}
std::array<std::atomic<const Entry*>, kMaxUserMethods>& slots() {
  static std::array<std::atomic<const Entry*>, kMaxUserMethods> s{};
  return s;
}

const Entry* entry(Method m) {
  const int k = static_cast<int>(m) - kFirstUserMethod;
  if (k < 0 || k >= kMaxUserMethods) return nullptr;  // a built-in
  return slots()[k].load(std::memory_order_acquire);
}

std::string describe(const MethodCoefficients& m, const MethodFacts& f) {
  const bool rk = m.type == MethodCoefficients::Type::RungeKutta;
  std::string kind =
      rk ? (m.diagonallyImplicit() ? "diagonally implicit Runge-Kutta" : "explicit Runge-Kutta")
         : "splitting";
  std::string out = m.name + ": a " + kind + " method from " +
                    (m.path.empty() ? std::string("code") : m.path) + ", " +
                    std::to_string(rk ? m.b.size() : m.stages.size()) + " stages";
  if (f.order) out += ", order " + std::to_string(*f.order) + " by its order conditions";
  return out;
}

// Its row of the registry: the step limit from its imaginary-axis boundary (a method that loses
// energy on undamped oscillation at every step is Never, one stable on the whole axis has none).
void fillRegistryEntries(Entry& e) {
  const MethodCoefficients& m = e.coefficients;
  const bool implicit = m.diagonallyImplicit();
  e.info.method = Method::Euler;  // replaced by the caller with the registered value
  e.info.name = e.coefficients.name;
  e.info.description = e.description;
  if (!e.facts.imaginary_axis) {
    e.info.stability = Stability::Unconditional;
  } else if (*e.facts.imaginary_axis == 0.0) {
    e.info.stability = Stability::Never;
  } else {
    e.info.stability = Stability::Bounded;
    e.info.bound = *e.facts.imaginary_axis;
  }
  int kicks = 0;
  for (const auto& st : m.stages) kicks += st.drift ? 0 : 1;
  e.info.force_passes =
      m.type == MethodCoefficients::Type::Splitting ? kicks : (implicit ? 0 : int(m.b.size()));
  e.info.factorises = implicit;
  if (implicit) e.info.residual = kDirkResidual;
  const int order = e.facts.order.value_or(0);
  e.mass_spring = {true, order, e.facts.symplectic};
  // the Newton solve of a diagonally implicit stage is the mass-spring system's alone
  e.pendulum = {!implicit, order, e.facts.symplectic};
}

}  // namespace

bool MethodCoefficients::diagonallyImplicit() const {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i][i] != 0.0) return true;
  return false;
}

util::Expected<Method> registerMethod(MethodCoefficients coefficients) {
  auto e = std::make_unique<Entry>();
  e->facts = methodFacts(coefficients);
  e->coefficients = std::move(coefficients);
  e->description = describe(e->coefficients, e->facts);
  fillRegistryEntries(*e);
  std::lock_guard guard(tableLock());
  auto& entries = table();
  for (size_t k = 0; k < entries.size(); ++k)
    if (!e->coefficients.path.empty() && entries[k]->coefficients.path == e->coefficients.path)
      return static_cast<Method>(kFirstUserMethod + static_cast<int>(k));
  if (entries.size() == size_t(kMaxUserMethods))
    return util::fail("more than " + std::to_string(kMaxUserMethods) + " method files in one run");
  const int k = static_cast<int>(entries.size());
  const auto m = static_cast<Method>(kFirstUserMethod + k);
  e->info.method = m;
  slots()[k].store(e.get(), std::memory_order_release);
  entries.push_back(std::move(e));
  return m;
}

bool isUserMethod(Method m) {
  return static_cast<int>(m) >= kFirstUserMethod;
}

const MethodCoefficients* userCoefficients(Method m) {
  const Entry* e = entry(m);
  return e ? &e->coefficients : nullptr;
}

const MethodFacts* userFacts(Method m) {
  const Entry* e = entry(m);
  return e ? &e->facts : nullptr;
}

std::optional<Method> findUserMethod(std::string_view name) {
  // a path names its file's method too (an event's "integrator=m.json" applied after the check
  // that read it)
  std::string path;
  if (name.ends_with(".json")) {
    std::error_code ec;
    const auto p = std::filesystem::absolute(std::string(name), ec);
    if (!ec) path = p.lexically_normal().string();
  }
  std::lock_guard guard(tableLock());
  const auto& entries = table();
  for (size_t k = 0; k < entries.size(); ++k)
    if (entries[k]->coefficients.name == name ||
        (!path.empty() && entries[k]->coefficients.path == path))
      return static_cast<Method>(kFirstUserMethod + static_cast<int>(k));
  return std::nullopt;
}

std::string methodReference(Method m) {
  const Entry* e = entry(m);
  if (e && !e->coefficients.path.empty()) return e->coefficients.path;
  return std::string(info(m).name);
}

const IntegratorInfo& userInfo(Method m) {
  return entry(m)->info;  // the registry asks only for registered methods
}

const OnKind& userOnKind(Method m, SystemKind kind) {
  const Entry* e = entry(m);
  return kind == SystemKind::Pendulum ? e->pendulum : e->mass_spring;
}

}  // namespace sim
