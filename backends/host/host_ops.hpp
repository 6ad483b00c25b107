// The host layer that the eigen and blas backends share: host::HostOps computes, once, every op that both
// run on the same host kernels (frontend/src/host/). A host backend derives from ember::Backend and from
// HostOps and adds only what is its own: matmul, dot and the solvers (Eigen's decompositions, LAPACKE), and
// where it has a faster path, its own version of a shared op (the eigen backend's + - * /, the blas backend's
// norm and outer). Private to the host backends (backends/eigen/, backends/blas/).
//
// The shared ops are listed once below, as X-macro lists: X(C, return type, name, (parameters),
// (arguments)). HostOps declares them from these lists, and so does each host backend's class
// (EMBER_HOST_DECLARE), with one-line definitions that call HostOps's (EMBER_HOST_FORWARD), one list per op
// category in the backend's file of that category. A backend's class thereby declares every op it serves,
// overriding the interface's directly: `emberlint analyze` reads a backend's inventory from its class's own
// overrides.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ember/backend.hpp"
#include "host/host_memory.hpp"

// tensor_ops.cpp: creation, copies, layout, indexing and sorting
#define EMBER_HOST_TENSOR_OPS(X, C)                                                                       \
  X(C, void, full, (Tensor & out, Scalar value), (out, value))                                            \
  X(C, void, eye, (Tensor & out, std::int64_t k), (out, k))                                               \
  X(C, void, arange, (Tensor & out, double start, double step), (out, start, step))                       \
  X(C, void, linspace, (Tensor & out, double start, double stop, bool endpoint),                          \
    (out, start, stop, endpoint))                                                                         \
  X(C, void, from_data, (Tensor & out, const void* host), (out, host))                                    \
  X(C, void, to_host, (const Tensor& x, void* host), (x, host))                                           \
  X(C, void, copy, (const Tensor& x, Tensor& out), (x, out))                                              \
  X(C, void, transpose, (const Tensor& x, const std::vector<int>& perm, Tensor& out), (x, perm, out))     \
  X(C, void, broadcast_to, (const Tensor& x, Tensor& out), (x, out))                                      \
  X(C, void, concatenate, (const std::vector<Tensor>& xs, int axis, Tensor& out), (xs, axis, out))        \
  X(C, void, tile, (const Tensor& x, Tensor& out), (x, out))                                              \
  X(C, void, pad,                                                                                         \
    (const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pads, PadMode mode,       \
     Scalar value, Tensor& out),                                                                          \
    (x, pads, mode, value, out))                                                                          \
  X(C, void, slice,                                                                                       \
    (const Tensor& x, const std::vector<std::int64_t>& starts, const std::vector<std::int64_t>& steps,    \
     Tensor& out),                                                                                        \
    (x, starts, steps, out))                                                                              \
  X(C, void, gather, (const Tensor& x, const Tensor& indices, int axis, Tensor& out),                     \
    (x, indices, axis, out))                                                                              \
  X(C, void, scatter_add,                                                                                 \
    (const Tensor& x, const Tensor& indices, const Tensor& updates, int axis, Tensor& out),               \
    (x, indices, updates, axis, out))                                                                     \
  X(C, void, flip, (const Tensor& x, const std::vector<int>& axes, Tensor& out), (x, axes, out))          \
  X(C, void, sort, (const Tensor& x, int axis, bool descending, Tensor& out), (x, axis, descending, out)) \
  X(C, void, argsort, (const Tensor& x, int axis, bool descending, Tensor& out), (x, axis, descending, out))

// math_ops.cpp: element-wise math but + - * /, and the reductions
#define EMBER_HOST_MATH_OPS(X, C)                                                                      \
  X(C, void, floor_divide, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))               \
  X(C, void, mod, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))                        \
  X(C, void, power, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))                      \
  X(C, void, minimum, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))                    \
  X(C, void, maximum, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))                    \
  X(C, void, negative, (const Tensor& x, Tensor& out), (x, out))                                       \
  X(C, void, abs, (const Tensor& x, Tensor& out), (x, out))                                            \
  X(C, void, sign, (const Tensor& x, Tensor& out), (x, out))                                           \
  X(C, void, square, (const Tensor& x, Tensor& out), (x, out))                                         \
  X(C, void, sqrt, (const Tensor& x, Tensor& out), (x, out))                                           \
  X(C, void, exp, (const Tensor& x, Tensor& out), (x, out))                                            \
  X(C, void, expm1, (const Tensor& x, Tensor& out), (x, out))                                          \
  X(C, void, log, (const Tensor& x, Tensor& out), (x, out))                                            \
  X(C, void, log1p, (const Tensor& x, Tensor& out), (x, out))                                          \
  X(C, void, log2, (const Tensor& x, Tensor& out), (x, out))                                           \
  X(C, void, log10, (const Tensor& x, Tensor& out), (x, out))                                          \
  X(C, void, sin, (const Tensor& x, Tensor& out), (x, out))                                            \
  X(C, void, cos, (const Tensor& x, Tensor& out), (x, out))                                            \
  X(C, void, tan, (const Tensor& x, Tensor& out), (x, out))                                            \
  X(C, void, sinh, (const Tensor& x, Tensor& out), (x, out))                                           \
  X(C, void, cosh, (const Tensor& x, Tensor& out), (x, out))                                           \
  X(C, void, tanh, (const Tensor& x, Tensor& out), (x, out))                                           \
  X(C, void, floor, (const Tensor& x, Tensor& out), (x, out))                                          \
  X(C, void, ceil, (const Tensor& x, Tensor& out), (x, out))                                           \
  X(C, void, round, (const Tensor& x, Tensor& out), (x, out))                                          \
  X(C, void, clip, (const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi, Tensor& out), \
    (x, lo, hi, out))                                                                                  \
  X(C, void, sum, (const Tensor& x, const std::vector<int>& axes, Tensor& out), (x, axes, out))        \
  X(C, void, prod, (const Tensor& x, const std::vector<int>& axes, Tensor& out), (x, axes, out))       \
  X(C, void, mean, (const Tensor& x, const std::vector<int>& axes, Tensor& out), (x, axes, out))       \
  X(C, void, var, (const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out),           \
    (x, axes, ddof, out))                                                                              \
  X(C, void, std, (const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out),           \
    (x, axes, ddof, out))                                                                              \
  X(C, void, min, (const Tensor& x, const std::vector<int>& axes, Tensor& out), (x, axes, out))        \
  X(C, void, max, (const Tensor& x, const std::vector<int>& axes, Tensor& out), (x, axes, out))        \
  X(C, void, argmin, (const Tensor& x, int axis, Tensor& out), (x, axis, out))                         \
  X(C, void, argmax, (const Tensor& x, int axis, Tensor& out), (x, axis, out))                         \
  X(C, void, cumsum, (const Tensor& x, int axis, Tensor& out), (x, axis, out))

// comparison_ops.cpp
#define EMBER_HOST_COMPARISON_OPS(X, C)                                                         \
  X(C, void, equal, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))               \
  X(C, void, not_equal, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))           \
  X(C, void, less, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))                \
  X(C, void, less_equal, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))          \
  X(C, void, greater, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))             \
  X(C, void, greater_equal, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))       \
  X(C, void, logical_and, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))         \
  X(C, void, logical_or, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))          \
  X(C, void, logical_xor, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))         \
  X(C, void, logical_not, (const Tensor& x, Tensor& out), (x, out))                             \
  X(C, void, isnan, (const Tensor& x, Tensor& out), (x, out))                                   \
  X(C, void, isinf, (const Tensor& x, Tensor& out), (x, out))                                   \
  X(C, void, isfinite, (const Tensor& x, Tensor& out), (x, out))                                \
  X(C, void, isclose,                                                                           \
    (const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan, Tensor& out),  \
    (a, b, rtol, atol, equal_nan, out))                                                         \
  X(C, void, all, (const Tensor& x, const std::vector<int>& axes, Tensor& out), (x, axes, out)) \
  X(C, void, any, (const Tensor& x, const std::vector<int>& axes, Tensor& out), (x, axes, out)) \
  X(C, void, where, (const Tensor& cond, const Tensor& x, const Tensor& y, Tensor& out), (cond, x, y, out))

// random_ops.cpp
#define EMBER_HOST_RANDOM_OPS(X, C)                                                                         \
  X(C, void, random_uniform, (Tensor & out, double low, double high, RandomKey key), (out, low, high, key)) \
  X(C, void, random_normal, (Tensor & out, double mean, double stddev, RandomKey key),                      \
    (out, mean, stddev, key))                                                                               \
  X(C, void, random_bernoulli, (Tensor & out, double p, RandomKey key), (out, p, key))                      \
  X(C, void, random_exponential, (Tensor & out, double scale, RandomKey key), (out, scale, key))            \
  X(C, void, random_gamma, (Tensor & out, double alpha, double scale, RandomKey key),                       \
    (out, alpha, scale, key))                                                                               \
  X(C, void, random_poisson, (Tensor & out, double lam, RandomKey key), (out, lam, key))                    \
  X(C, void, random_categorical, (const Tensor& logits, Tensor& out, RandomKey key), (logits, out, key))    \
  X(C, void, random_permutation, (Tensor & out, RandomKey key), (out, key))                                 \
  X(C, void, shuffle, (const Tensor& x, Tensor& out, RandomKey key), (x, out, key))

// device_ops.cpp: the single cpu device and counted host memory
#define EMBER_HOST_DEVICE_OPS(X, C)                                                              \
  X(C, bool, is_available, (), ())                                                               \
  X(C, std::vector<Device>, devices, (), ())                                                     \
  X(C, std::shared_ptr<Buffer>, allocate, (std::size_t nbytes, Device device), (nbytes, device)) \
  X(C, void, to_device, (const Tensor& x, Tensor& out), (x, out))                                \
  X(C, void, synchronize, (Device device), (device))                                             \
  X(C, MemoryInfo, memory_info, (Device device), (device))

// dtype_ops.cpp
#define EMBER_HOST_DTYPE_OPS(X, C)                           \
  X(C, void, cast, (const Tensor& x, Tensor& out), (x, out)) \
  X(C, bool, supports_dtype, (DType dtype, Device device), (dtype, device))

// fusion_ops.cpp
#define EMBER_HOST_FUSION_OPS(X, C)                                                  \
  X(C, bool, fuses, (ElementOp op, DType dtype, DType operand_dtype, Device device), \
    (op, dtype, operand_dtype, device))                                              \
  X(C, void, fused_elementwise, (const FusedProgram& program, Tensor& out), (program, out))

// solver_ops.cpp: the diagonal ops
#define EMBER_HOST_DIAGONAL_OPS(X, C)                                                         \
  X(C, void, diag, (const Tensor& x, std::int64_t k, Tensor& out), (x, k, out))               \
  X(C, void, diagonal, (const Tensor& x, std::int64_t offset, Tensor& out), (x, offset, out)) \
  X(C, void, trace, (const Tensor& x, std::int64_t offset, Tensor& out), (x, offset, out))

// math_ops.cpp: + - * / (the eigen backend has its own)
#define EMBER_HOST_ARITHMETIC_OPS(X, C)                                              \
  X(C, void, add, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))      \
  X(C, void, subtract, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out)) \
  X(C, void, multiply, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out)) \
  X(C, void, divide, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))

// solver_ops.cpp: norm and outer (the blas backend has its own)
#define EMBER_HOST_PRODUCT_OPS(X, C)                                                         \
  X(C, void, norm, (const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out), \
    (x, ord, axes, out))                                                                     \
  X(C, void, outer, (const Tensor& a, const Tensor& b, Tensor& out), (a, b, out))

// Every op that both host backends take from HostOps as it is.
#define EMBER_HOST_SHARED_OPS(X, C) \
  EMBER_HOST_TENSOR_OPS(X, C)       \
  EMBER_HOST_MATH_OPS(X, C)         \
  EMBER_HOST_COMPARISON_OPS(X, C)   \
  EMBER_HOST_RANDOM_OPS(X, C)       \
  EMBER_HOST_DEVICE_OPS(X, C)       \
  EMBER_HOST_DTYPE_OPS(X, C)        \
  EMBER_HOST_FUSION_OPS(X, C)       \
  EMBER_HOST_DIAGONAL_OPS(X, C)

// X for the lists: the declaration of a host backend's override in its class body.
#define EMBER_HOST_DECLARE(C, ret, name, params, args) ret name params override;
// X for the lists: the definition of C's override as a call of host::HostOps's (at namespace scope).
#define EMBER_HOST_FORWARD(C, ret, name, params, args) \
  ret C::name params {                                 \
    return HostOps::name args;                         \
  }
// X for the lists: host::HostOps's own declaration.
#define EMBER_HOST_DECLARE_SHARED(C, ret, name, params, args) ret name params;

namespace ember::host {

// The shared ops' implementations. A host backend derives from Backend and from HostOps, declares the shared
// ops (EMBER_HOST_DECLARE) and defines them as calls of HostOps's (EMBER_HOST_FORWARD). HostOps is no Backend
// itself: its methods override nothing, so each backend's ops override the interface's directly.
class HostOps {
 public:
  EMBER_HOST_SHARED_OPS(EMBER_HOST_DECLARE_SHARED, HostOps)
  EMBER_HOST_ARITHMETIC_OPS(EMBER_HOST_DECLARE_SHARED, HostOps)
  EMBER_HOST_PRODUCT_OPS(EMBER_HOST_DECLARE_SHARED, HostOps)

 protected:
  // `backend` is the backend's name, which every error message starts with; `self` is the backend, whose own
  // element-wise methods the fused loop calls.
  HostOps(const char* backend, Backend& self);

  const char* backend_;
  Backend& self_;
  // Counts this backend's host buffers; each buffer keeps it alive.
  std::shared_ptr<HostMemoryCounters> memory_;
};

}  // namespace ember::host
