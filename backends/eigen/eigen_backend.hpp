// The Eigen backend: every op of ember::Backend, computed with Eigen 3 on the host.
// One source file per op category; this header is private to backends/eigen/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ember/backend.hpp"
#include "ember/error.hpp"

namespace ember::eigen {

class EigenBackend final : public Backend {
 public:
  EigenBackend();
  std::string name() const override { return "eigen"; }

  // tensor_ops.cpp
  void full(Tensor& out, Scalar value) override;
  void eye(Tensor& out, std::int64_t k) override;
  void arange(Tensor& out, double start, double step) override;
  void linspace(Tensor& out, double start, double stop, bool endpoint) override;
  void from_data(Tensor& out, const void* host) override;
  void to_host(const Tensor& x, void* host) override;
  void copy(const Tensor& x, Tensor& out) override;
  void transpose(const Tensor& x, const std::vector<int>& perm, Tensor& out) override;
  void broadcast_to(const Tensor& x, Tensor& out) override;
  void concatenate(const std::vector<Tensor>& xs, int axis, Tensor& out) override;
  void tile(const Tensor& x, Tensor& out) override;
  void pad(const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pads, PadMode mode,
           Scalar value, Tensor& out) override;
  void slice(const Tensor& x, const std::vector<std::int64_t>& starts, const std::vector<std::int64_t>& steps,
             Tensor& out) override;
  void gather(const Tensor& x, const Tensor& indices, int axis, Tensor& out) override;
  void scatter_add(const Tensor& x, const Tensor& indices, const Tensor& updates, int axis,
                   Tensor& out) override;
  void flip(const Tensor& x, const std::vector<int>& axes, Tensor& out) override;
  void sort(const Tensor& x, int axis, bool descending, Tensor& out) override;
  void argsort(const Tensor& x, int axis, bool descending, Tensor& out) override;

  // math_ops.cpp
  void add(const Tensor& a, const Tensor& b, Tensor& out) override;
  void subtract(const Tensor& a, const Tensor& b, Tensor& out) override;
  void multiply(const Tensor& a, const Tensor& b, Tensor& out) override;
  void divide(const Tensor& a, const Tensor& b, Tensor& out) override;
  void floor_divide(const Tensor& a, const Tensor& b, Tensor& out) override;
  void mod(const Tensor& a, const Tensor& b, Tensor& out) override;
  void power(const Tensor& a, const Tensor& b, Tensor& out) override;
  void minimum(const Tensor& a, const Tensor& b, Tensor& out) override;
  void maximum(const Tensor& a, const Tensor& b, Tensor& out) override;
  void negative(const Tensor& x, Tensor& out) override;
  void abs(const Tensor& x, Tensor& out) override;
  void sign(const Tensor& x, Tensor& out) override;
  void square(const Tensor& x, Tensor& out) override;
  void sqrt(const Tensor& x, Tensor& out) override;
  void exp(const Tensor& x, Tensor& out) override;
  void expm1(const Tensor& x, Tensor& out) override;
  void log(const Tensor& x, Tensor& out) override;
  void log1p(const Tensor& x, Tensor& out) override;
  void log2(const Tensor& x, Tensor& out) override;
  void log10(const Tensor& x, Tensor& out) override;
  void sin(const Tensor& x, Tensor& out) override;
  void cos(const Tensor& x, Tensor& out) override;
  void tan(const Tensor& x, Tensor& out) override;
  void sinh(const Tensor& x, Tensor& out) override;
  void cosh(const Tensor& x, Tensor& out) override;
  void tanh(const Tensor& x, Tensor& out) override;
  void floor(const Tensor& x, Tensor& out) override;
  void ceil(const Tensor& x, Tensor& out) override;
  void round(const Tensor& x, Tensor& out) override;
  void clip(const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi, Tensor& out) override;
  void matmul(const Tensor& a, const Tensor& b, Tensor& out) override;
  void dot(const Tensor& a, const Tensor& b, Tensor& out) override;
  void sum(const Tensor& x, const std::vector<int>& axes, Tensor& out) override;
  void prod(const Tensor& x, const std::vector<int>& axes, Tensor& out) override;
  void mean(const Tensor& x, const std::vector<int>& axes, Tensor& out) override;
  void var(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) override;
  void std(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) override;
  void min(const Tensor& x, const std::vector<int>& axes, Tensor& out) override;
  void max(const Tensor& x, const std::vector<int>& axes, Tensor& out) override;
  void argmin(const Tensor& x, int axis, Tensor& out) override;
  void argmax(const Tensor& x, int axis, Tensor& out) override;
  void cumsum(const Tensor& x, int axis, Tensor& out) override;

  // comparison_ops.cpp
  void equal(const Tensor& a, const Tensor& b, Tensor& out) override;
  void not_equal(const Tensor& a, const Tensor& b, Tensor& out) override;
  void less(const Tensor& a, const Tensor& b, Tensor& out) override;
  void less_equal(const Tensor& a, const Tensor& b, Tensor& out) override;
  void greater(const Tensor& a, const Tensor& b, Tensor& out) override;
  void greater_equal(const Tensor& a, const Tensor& b, Tensor& out) override;
  void logical_and(const Tensor& a, const Tensor& b, Tensor& out) override;
  void logical_or(const Tensor& a, const Tensor& b, Tensor& out) override;
  void logical_xor(const Tensor& a, const Tensor& b, Tensor& out) override;
  void logical_not(const Tensor& x, Tensor& out) override;
  void isnan(const Tensor& x, Tensor& out) override;
  void isinf(const Tensor& x, Tensor& out) override;
  void isfinite(const Tensor& x, Tensor& out) override;
  void isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
               Tensor& out) override;
  void all(const Tensor& x, const std::vector<int>& axes, Tensor& out) override;
  void any(const Tensor& x, const std::vector<int>& axes, Tensor& out) override;
  void where(const Tensor& cond, const Tensor& x, const Tensor& y, Tensor& out) override;

  // random_ops.cpp
  void random_uniform(Tensor& out, double low, double high, RandomKey key) override;
  void random_normal(Tensor& out, double mean, double stddev, RandomKey key) override;
  void random_bernoulli(Tensor& out, double p, RandomKey key) override;
  void random_exponential(Tensor& out, double scale, RandomKey key) override;
  void random_gamma(Tensor& out, double alpha, double scale, RandomKey key) override;
  void random_poisson(Tensor& out, double lam, RandomKey key) override;
  void random_categorical(const Tensor& logits, Tensor& out, RandomKey key) override;
  void random_permutation(Tensor& out, RandomKey key) override;
  void shuffle(const Tensor& x, Tensor& out, RandomKey key) override;

  // device_ops.cpp
  bool is_available() override;
  std::vector<Device> devices() override;
  std::shared_ptr<Buffer> allocate(std::size_t nbytes, Device device) override;
  void to_device(const Tensor& x, Tensor& out) override;
  void synchronize(Device device) override;
  MemoryInfo memory_info(Device device) override;

  // dtype_ops.cpp
  void cast(const Tensor& x, Tensor& out) override;
  bool supports_dtype(DType dtype, Device device) override;

  // fusion_ops.cpp
  bool fuses(ElementOp op, DType dtype, DType operand_dtype, Device device) override;
  void fused_elementwise(const FusedProgram& program, Tensor& out) override;

  // solver_ops.cpp
  void solve(const Tensor& a, const Tensor& b, Tensor& out) override;
  void inv(const Tensor& a, Tensor& out) override;
  void det(const Tensor& a, Tensor& out) override;
  void cholesky(const Tensor& a, Tensor& out) override;
  void qr(const Tensor& a, Tensor& q, Tensor& r) override;
  void svd(const Tensor& a, Tensor& u, Tensor& s, Tensor& vt, bool compute_uv) override;
  void eigh(const Tensor& a, Tensor& w, Tensor& v) override;
  void lstsq(const Tensor& a, const Tensor& b, double rcond, Tensor& x, std::int64_t& rank,
             Tensor& s) override;
  void norm(const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out) override;
  void diag(const Tensor& x, std::int64_t k, Tensor& out) override;
  void diagonal(const Tensor& x, std::int64_t offset, Tensor& out) override;
  void trace(const Tensor& x, std::int64_t offset, Tensor& out) override;
  void outer(const Tensor& a, const Tensor& b, Tensor& out) override;

 private:
  struct Allocator;
  std::shared_ptr<Allocator> allocator_;
  Allocator& allocator();
};

}  // namespace ember::eigen

namespace ember::eigen {

std::unique_ptr<Backend> make_backend();

}  // namespace ember::eigen
