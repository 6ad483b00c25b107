// path: backends/builtin.cpp
// Glue: registers every backend by including each backend's own header. No purity rule governs it.
#include "backends/eigen/eigen_backend.hpp"

namespace ember {
int registered_backends() {
  eigen::EigenBackend eigen;
  (void)eigen;
  return 1;
}
// Glue is governed by no operator rule.
Tensor glue_sum(const Tensor& a, const Tensor& b) { return a + b; }
}  // namespace ember
