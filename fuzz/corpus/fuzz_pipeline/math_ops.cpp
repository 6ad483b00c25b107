// path: backends/eigen/fuzz.cpp
// Backend code using its own library: no purity rule fires here (EL101 and EL102 do not govern backends).
#include "backends/eigen/eigen_backend.hpp"

namespace ember::eigen {
ember::Tensor EigenBackend::add(const ember::Tensor& a, const ember::Tensor& b) const {
  Eigen::MatrixXd m(2, 2);
  Eigen::MatrixXd n = m + m;
  (void)n;
  return a - b;  // expect: EL200
}
Eigen::MatrixXd to_matrix(const ember::Tensor& t) { return Eigen::MatrixXd(long(t.item()), 1); }
}  // namespace ember::eigen
