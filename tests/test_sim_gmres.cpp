// sim::gmres against a dense LU solve on small nonsymmetric systems.
#include <doctest/doctest.h>

#include <Eigen/Dense>

#include "sim/gmres.hpp"

namespace {

// A nonsymmetric, well-conditioned n x n matrix: a fixed pseudo-random part plus 3 n on the
// diagonal (the same every run: Eigen's Random draws from std::rand, seeded here).
Eigen::MatrixXd testMatrix(int n) {
  std::srand(12345);
  Eigen::MatrixXd A = Eigen::MatrixXd::Random(n, n);
  A.diagonal().array() += 3.0 * n;
  A(0, n - 1) += 5.0;  // and surely not symmetric
  return A;
}

sim::LinearOperator product(const Eigen::MatrixXd& A, int& products) {
  return [&A, &products](const Eigen::VectorXd& d, Eigen::VectorXd& out) {
    ++products;
    out = A * d;
  };
}

}  // namespace

TEST_CASE("gmres solves a nonsymmetric system to its tolerance in at most n iterations") {
  for (int n : {1, 5, 12, 30}) {
    CAPTURE(n);
    const Eigen::MatrixXd A = testMatrix(n);
    if (n > 1) REQUIRE((A - A.transpose()).norm() > 1.0);
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
    const Eigen::VectorXd exact = A.partialPivLu().solve(b);
    int products = 0;
    Eigen::VectorXd x;
    sim::GmresSettings s;
    s.restart = n;  // no restart: the exact-arithmetic bound holds
    s.tolerance = 1e-12;
    const sim::GmresResult r = sim::gmres(product(A, products), b, x, s);
    CHECK(r.converged);
    CHECK(r.iterations <= n);
    CHECK(products <= n + 1);  // one per iteration, plus the initial residual
    CHECK((b - A * x).norm() <= 1.01e-12 * b.norm());
    // the error is bounded by the condition number times the relative residual
    const double cond = A.jacobiSvd().singularValues()(0) / A.jacobiSvd().singularValues()(n - 1);
    CHECK((x - exact).norm() <= cond * 1.01e-12 * exact.norm());
  }
}

TEST_CASE("gmres with restarts still converges, and stops at its iteration budget") {
  const int n = 30;
  const Eigen::MatrixXd A = testMatrix(n);
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
  int products = 0;
  Eigen::VectorXd x;
  sim::GmresSettings s;
  s.restart = 4;
  s.tolerance = 1e-12;
  const sim::GmresResult r = sim::gmres(product(A, products), b, x, s);
  CHECK(r.converged);
  CHECK((b - A * x).norm() <= 1.01e-12 * b.norm());

  s.max_iterations = 3;
  const sim::GmresResult cut = sim::gmres(product(A, products), b, x, s);
  CHECK_FALSE(cut.converged);
  CHECK(cut.iterations == 3);
}

TEST_CASE("gmres: the identity takes one iteration, a zero right-hand side none") {
  int products = 0;
  Eigen::VectorXd x;
  const auto identity = [&](const Eigen::VectorXd& d, Eigen::VectorXd& out) {
    ++products;
    out = d;
  };
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(6, 1.0, 6.0);
  const sim::GmresResult one = sim::gmres(identity, b, x, {});
  CHECK(one.converged);
  CHECK(one.iterations == 1);  // the Krylov space {b} is invariant: an exact breakdown
  CHECK(x == b);
  const sim::GmresResult none = sim::gmres(identity, Eigen::VectorXd::Zero(6), x, {});
  CHECK(none.converged);
  CHECK(none.iterations == 0);
  CHECK(x.isZero(0.0));
}
