// EL103 fixture: the BLAS backend reaching into Eigen and into the Eigen backend's folder.
#include <Eigen/Core>  // expect: EL103
#include <cblas.h>

#include "backends/eigen/eigen_backend.hpp"  // expect: EL103
#include "ember/tensor.hpp"

namespace ember::blas {

double uses_eigen() {
  Eigen::MatrixXd m(2, 2);  // expect: EL103
  return double(m.rows());  // expect: EL103
}

double uses_eigen_backend(const ember::Tensor& t) {
  return double(ember::eigen::to_matrix(t).rows());  // expect: EL103
}

// Negatives: its own library, the frontend, plain arithmetic, names in strings, a suppressed line.
double own_library(const double* x, int n) { return cblas_ddot(n - 1, x, 1, x, 1) * 2; }
const char* kText = "Eigen::MatrixXd";
double suppressed() { return double(Eigen::MatrixXd(1, 1).rows()); }  // emberlint: ignore[EL103]

}  // namespace ember::blas
