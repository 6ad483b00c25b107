// Linear algebra with Eigen matrices mapped over the row-major storage.
#include <Eigen/Dense>
#include <stdexcept>

#include "ops/eigen/eigen_ops.hpp"

namespace legacy::eigen {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::Map<const RowMajor> as_matrix(const Tensor& t) {
  return Eigen::Map<const RowMajor>(t.data.data(), static_cast<Eigen::Index>(t.rows),
                                    static_cast<Eigen::Index>(t.cols));
}

Tensor from_matrix(const RowMajor& m) {
  Tensor out(static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.cols()));
  Eigen::Map<RowMajor>(out.data.data(), m.rows(), m.cols()) = m;
  return out;
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a.cols != b.rows) throw std::invalid_argument("eigen: matmul: inner dimensions differ");
  return from_matrix(as_matrix(a) * as_matrix(b));
}

double dot(const Tensor& a, const Tensor& b) {
  if (a.size() != b.size()) throw std::invalid_argument("eigen: dot: sizes differ");
  return as_matrix(a).reshaped().dot(as_matrix(b).reshaped());
}

Tensor transpose(const Tensor& x) {
  return from_matrix(as_matrix(x).transpose());
}

double norm(const Tensor& x) {
  return as_matrix(x).norm();
}

}  // namespace legacy::eigen
