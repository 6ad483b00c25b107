// path: backends/eigen/fuzz.cpp
// EL202: `auto` bound to an Eigen expression template; concrete types and plain `auto` values are fine.
#include <Eigen/Core>

double expressions() {
  Eigen::MatrixXd a(2, 2), b(2, 2);
  auto diff = a - b;         // expect: EL202
  const auto& prod = a * b;  // expect: EL202
  auto sum = a + b;
  Eigen::MatrixXd kept = a + b;
  auto rows = diff.rows();
  return double(rows + sum.rows() + kept.rows()) + (&prod != nullptr ? 1.0 : 0.0);
}
