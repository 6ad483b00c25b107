// path: tests/fuzz.cpp
// EL104 fixture: a test that reaches a backend directly instead of through the frontend.
#include <Eigen/Core>  // expect: EL104

#include "backends/eigen/eigen_backend.hpp"  // expect: EL104
#include "ember/tensor.hpp"

namespace {

double bypass(const ember::Tensor& a, const ember::Tensor& b) {
  ember::eigen::EigenBackend backend;  // expect: EL104
  Eigen::MatrixXd m(2, 2);  // expect: EL104
  return backend.add(a, b).item() + double(m.rows());  // expect: EL104
}

// Negatives: the frontend, plain arithmetic, names in comments and strings, a suppressed line.
double through_frontend(const ember::Tensor& a, const ember::Tensor& b) { return (a - b).item(); }  // expect: EL200
int arithmetic(int n) { return n * 2 - 1; }
const char* kText = "ember::eigen::EigenBackend";
long suppressed() { return Eigen::MatrixXd(1, 1).rows(); }  // emberlint: ignore[EL104] reviewed

}  // namespace

int main() { return bypass(ember::Tensor(), ember::Tensor()) + through_frontend(ember::Tensor(), ember::Tensor()) > 0 ? 0 : arithmetic(1) + int(suppressed()) + (kText != nullptr); }
