#pragma once
// Reference solution of Robertson's stiff chemical kinetics (Hairer & Wanner II, p. 3):
// y1' = -0.04 y1 + 1e4 y2 y3, y2' = 0.04 y1 - 1e4 y2 y3 - 3e7 y2^2, y3' = 3e7 y2^2,
// y(0) = (1, 0, 0).
//
// At t = 0.4 * 10^k, k = 0..11: SciPy 1.10's Radau IIA (Hairer & Wanner's 5th order) at rtol
// 1e-13, atol (1e-22, 1e-28, 1e-20), stopping on each output time; it reproduces the value
// below at 1e11 to 12 digits, and a run at rtol 1e-12 agrees with it to 12 digits. At 1e11: the
// published high-precision value of the "Test Set for IVP Solvers" (F. Mazzia, C. Magherini,
// University of Bari), problem ROBER. SUNDIALS' cvRoberts_dns.out table comes from an rtol 1e-4 run
// and is good to only ~1e-3 (y3(0.4) = 1.480205e-02 against 1.479402e-02), so it is not used.

#include <array>

namespace hopsim::test {

struct RobertsonPoint {
  double t;
  std::array<double, 3> y;
};

inline constexpr std::array<RobertsonPoint, 13> kRobertson = {{
    {4e-1, {9.851721138610e-01, 3.386395378975e-05, 1.479402218522e-02}},
    {4e+0, {9.055186785843e-01, 2.240475687560e-05, 9.445891665887e-02}},
    {4e+1, {7.158270687194e-01, 9.185534764558e-06, 2.841637457458e-01}},
    {4e+2, {4.505186684711e-01, 3.222901441675e-06, 5.494781086275e-01}},
    {4e+3, {1.832022577767e-01, 8.942371252776e-07, 8.167968479862e-01}},
    {4e+4, {3.898337708548e-02, 1.621768315910e-07, 9.610164607377e-01}},
    {4e+5, {4.938274520980e-03, 1.984994087955e-08, 9.950617056291e-01}},
    {4e+6, {5.168096014925e-04, 2.068294491225e-09, 9.994831883302e-01}},
    {4e+7, {5.203071844121e-05, 2.081335731893e-10, 9.999479690734e-01}},
    {4e+8, {5.207702103573e-06, 2.083091559415e-11, 9.999947922771e-01}},
    {4e+9, {5.208276611436e-07, 2.083311716605e-12, 9.999994791703e-01}},
    {4e+10, {5.208345176799e-08, 2.083338177925e-13, 9.999999479163e-01}},
    {1e+11, {0.2083340149701255e-07, 0.8333360770334713e-13, 0.9999999791665050}},
}};

}  // namespace hopsim::test
