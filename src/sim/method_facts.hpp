// What a method's coefficients say about it (docs/integrators.md#your-own-method): the order from
// the order conditions, the stability function R(z) = 1 + z b^T (I - z A)^-1 1 and its boundaries
// on the imaginary and negative real axes, and a splitting's largest h omega on x'' = -omega^2 x.
#pragma once

#include <complex>
#include <optional>
#include <vector>

#include "sim/user_methods.hpp"

namespace sim {

using Tableau = std::vector<std::vector<double>>;  // a Butcher matrix by rows

// The largest p <= 5 for which every order condition of the rooted trees with up to p vertices
// holds (to kOrderConditionTolerance), 0 when even sum b = 1 fails; c the nodes.
int orderFromConditions(const Tableau& a, const std::vector<double>& b,
                        const std::vector<double>& c);
// R(z) for a lower-triangular a (explicit or diagonally implicit)
std::complex<double> stabilityFunction(const Tableau& a, const std::vector<double>& b,
                                       std::complex<double> z);
// The largest y with |R(i y')| <= 1 for 0 < y' <= y (0 when |R(i y)| > 1 right from 0); nothing
// when |R(i y)| <= 1 for every y > 0 (the method is stable on the whole imaginary axis).
std::optional<double> imaginaryBoundary(const Tableau& a, const std::vector<double>& b);
// The same along the negative real axis: the largest x with |R(-x')| <= 1 for 0 < x' <= x.
std::optional<double> negativeRealBoundary(const Tableau& a, const std::vector<double>& b);
// b_i a_ij + b_j a_ji = b_i b_j for every i, j (the tableau's method is symplectic)
bool symplecticTableau(const Tableau& a, const std::vector<double>& b);
// A splitting's largest theta = h omega for which its propagator of x'' = -omega^2 x stays
// bounded for every 0 < theta' <= theta (|trace| < 2, its determinant being 1).
double splittingBoundary(const std::vector<MethodCoefficients::Stage>& stages);
// The splitting's propagator's trace at theta (a test's closed form: 2 - theta^2 for verlet)
double splittingTrace(const std::vector<MethodCoefficients::Stage>& stages, double theta);

// Everything above for a checked method.
MethodFacts methodFacts(const MethodCoefficients& m);

}  // namespace sim
