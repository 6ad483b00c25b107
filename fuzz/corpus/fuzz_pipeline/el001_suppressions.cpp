// EL001 fixture: suppressions that suppressed nothing, and every suppression form used correctly.
#include "common/linalg_types.hpp"
#include "ember/tensor.hpp"

namespace ember::detail {

int unused(int n) {
  int a = n - 1;  // emberlint: ignore[EL101]  expect: EL001
  int b = n * 2;  // NOLINT(emberlint-EL101)  expect: EL001
  int c = n + 3;  // EMBERLINT: IGNORE  expect: EL001
  // emberlint: ignore-next-line[EL101]  expect: EL001
  int d = n;
  int e = n;  // emberlint: ignore[EL999]  expect: EL001
  int f = n;  // emberlint: ignroe[EL101]  expect: EL001
  int g = n;  // NOLINT(bugprone-*): for clang-tidy, not ours: silent
  int h = n;  // NOLINT: bare, maybe for clang-tidy: never reported
  return a + b + c + d + e + f + g + h;
}

void used() {  // expect: EL102
  Eigen::MatrixXd a(1, 1);  // emberlint: ignore
  Eigen::MatrixXd b(1, 1);  // EMBERLINT: IGNORE (the predecessor's form)
  // emberlint: ignore-next-line[frontend-uses-backend-symbol]
  Eigen::MatrixXd c(1, 1);
  // emberlint: begin-ignore[EL101]
  Eigen::MatrixXd d(1, 1);
  Eigen::MatrixXd e(1, 1);
  // emberlint: end-ignore
  // NOLINTBEGIN(emberlint-*)
  Eigen::MatrixXd f(1, 1);
  // NOLINTEND(emberlint-*)
  (void)a, (void)b, (void)c, (void)d, (void)e, (void)f;
}

}  // namespace ember::detail
