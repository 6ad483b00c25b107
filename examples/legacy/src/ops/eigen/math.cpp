// Element-wise math and reductions with Eigen arrays mapped over the tensor's storage.
#include <Eigen/Dense>
#include <stdexcept>
#include <string>

#include "ops/eigen/eigen_ops.hpp"

namespace legacy::eigen {

namespace {

using ConstArray = Eigen::Map<const Eigen::ArrayXd>;

ConstArray view(const Tensor& t) {
  return ConstArray(t.data.data(), static_cast<Eigen::Index>(t.size()));
}

Tensor like(const Tensor& shape, const Eigen::ArrayXd& values) {
  return Tensor(shape.rows, shape.cols, std::vector<double>(values.data(), values.data() + values.size()));
}

void check_same_shape(const Tensor& a, const Tensor& b, const char* op) {
  if (a.rows != b.rows || a.cols != b.cols)
    throw std::invalid_argument(std::string("eigen: ") + op + ": shapes differ");
}

}  // namespace

Tensor add(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "add");
  return like(a, view(a) + view(b));
}

Tensor add(const Tensor& a, double scalar) {
  return like(a, view(a) + scalar);
}

Tensor subtract(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "subtract");
  return like(a, view(a) - view(b));
}

Tensor multiply(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "multiply");
  return like(a, view(a) * view(b));
}

Tensor exp(const Tensor& x) {
  return like(x, view(x).exp());
}

double sum(const Tensor& x) {
  return view(x).sum();
}

}  // namespace legacy::eigen
