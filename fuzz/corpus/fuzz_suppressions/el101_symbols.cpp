// EL101 fixture: frontend code that reaches Eigen, BLAS and OpenCL symbols without spelling an include of
// them: through a transitive include, a macro, a `using` alias, a typedef, a template argument, a deduced
// type, and a library macro.
#include <vector>

#include "common/linalg_types.hpp"
#include "ember/tensor.hpp"

extern "C" double cblas_ddot(int n, const double* x, int incx, const double* y, int incy);

namespace ember::detail {

void direct() {  // expect: EL102
  Eigen::MatrixXd m(2, 2);  // expect: EL101
  (void)m;
}

void through_alias() {  // expect: EL102
  common::Mat m(2, 2);  // expect: EL101
  (void)m;
}

void through_typedef() {  // expect: EL102
  common::Vec v;  // expect: EL101
  (void)v;
}

void through_macro() {  // expect: EL102
  auto m = MAKE_MATRIX(3);  // expect: EL101
  (void)m;
}

void through_template_argument() {  // expect: EL102
  std::vector<Eigen::VectorXd> vs;  // expect: EL101
  std::vector<common::Vec> ws;  // expect: EL101
}

void through_deduced_type() {  // expect: EL102
  auto m = common::make_identity(2);  // expect: EL101
  (void)m;
}

int library_macro() { return EIGEN_WORLD_VERSION; }  // expect: EL101

double symbol_glob(const double* x) { return cblas_ddot(1, x, 1, x, 1); }  // expect: EL101 EL102

// Negatives: Eigen::MatrixXd in a comment, a string, plain arithmetic, the frontend's own types.
const char* kText = "Eigen::MatrixXd m; cblas_ddot(...)";
int plain_arithmetic(int n, long size) { return static_cast<int>((n - 1) + size * 2); }
double frontend_types(const ember::Tensor& a, const ember::Tensor& b) { return (a - b).item(); }  // expect: EL200

void suppressed() {  // expect: EL102
  Eigen::MatrixXd m(1, 1);  // emberlint: ignore[EL101] reviewed
  common::Mat n(1, 1);  // NOLINT(emberlint-frontend-uses-backend-symbol)
  // NOLINTNEXTLINE(emberlint-EL101)
  common::Vec v;
  (void)m, (void)n, (void)v;
}

}  // namespace ember::detail
