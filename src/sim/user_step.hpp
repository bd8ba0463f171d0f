// One step of a method file's method (docs/integrators.md#your-own-method): an explicit
// Runge-Kutta tableau on (x, v)' = (v, a(x, v)) for every kind, a diagonally implicit one on a
// mass-spring system (each stage's Newton solve, dirk_stage.cpp), and a splitting's drifts and
// kicks. A coefficient within round-off of a fraction n / D with a small D is applied as
// (h / D) sum n_j k_j, the way the built-in rk4 and verlet are written, so that rk4.json steps
// exactly as rk4 does (a test).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/model.hpp"
#include "sim/pendulum.hpp"
#include "sim/user_methods.hpp"

namespace sim {

class DirkStageSolver;  // dirk_stage.cpp

class UserMethodSolver {
 public:
  UserMethodSolver();
  ~UserMethodSolver();
  // One step of `method` from `in` over h; exactly one of the models is given. False (with
  // error()) when a stage's solve fails or the method does not apply to the system.
  bool step(const MethodCoefficients& method, const MassSpringModel* springs,
            const PendulumModel* pendulum, const State& in, double h, State& out);
  const std::string& error() const { return error_; }
  // A diagonally implicit method's last step: the largest relative residual of its stages'
  // Newton solves (dirk_stage.hpp); NaN for an explicit method or a splitting (nothing solved).
  double lastResidual() const { return residual_; }

  // base + h sum coefficient_j k_j, as n / D fractions where the coefficients are (user_step.cpp)
  struct Combination {
    double divisor = 0.0;                       // D, or 0: the coefficients as they are
    std::vector<std::pair<int, double>> terms;  // (stage j, n_j or coefficient), non-zero only
  };

 private:
  void prepare(const MethodCoefficients& method);
  void accel(const Eigen::VectorXd& x, const Eigen::VectorXd& v, Eigen::VectorXd& a);
  void combine(const Eigen::VectorXd& base, const Combination& c,
               const std::vector<Eigen::VectorXd>& k, double h, Eigen::VectorXd& out);
  bool rungeKutta(const MethodCoefficients& method, const State& in, double h, State& out);
  void splitting(const MethodCoefficients& method, const State& in, double h, State& out);
  const MassSpringModel* springs_ = nullptr;
  const PendulumModel* pendulum_ = nullptr;
  PendulumWork pwork_;
  const MethodCoefficients* prepared_ = nullptr;
  std::vector<Combination> rows_;  // each stage's input, then (last) the weights
  std::vector<Eigen::VectorXd> kx_, kv_;
  Eigen::VectorXd sum_, a_;
  std::unique_ptr<DirkStageSolver> dirk_;
  std::string error_;
  double residual_ = 0.0;
};

}  // namespace sim
