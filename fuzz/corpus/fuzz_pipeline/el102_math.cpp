// EL102 fixture: frontend definitions whose bodies use a backend library belong in the backend's folder.
#include "common/linalg_types.hpp"
#include "ember/tensor.hpp"

extern "C" double cblas_ddot(int n, const double* x, int incx, const double* y, int incy);

namespace ember::ops {

double norm(const ember::Tensor& t) {  // expect: EL102
  Eigen::MatrixXd m(long(t.item()), 1);  // expect: EL101
  return double(m.rows());  // expect: EL101
}

double dot(const double* x, int n) {  // expect: EL102
  return cblas_ddot(n, x, 1, x, 1);  // expect: EL101
}

// Negatives: a definition that only uses the frontend, plain arithmetic, names in comments and strings.
double scale(const ember::Tensor& t, int n) { return t.item() * (n - 1); }
const char* describe() { return "uses Eigen::MatrixXd and cblas_ddot only in this string"; }

// A suppressed definition.
double suppressed(const ember::Tensor& t) {  // emberlint: ignore[EL102]
  return double(common::Mat(long(t.item()), 1).rows());  // emberlint: ignore[EL101]
}

}  // namespace ember::ops
