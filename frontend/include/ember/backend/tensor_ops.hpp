// Backend interface, category "tensor": creation, copies and layout changes.
//
// Contract for every backend method in ember/backend/*.hpp: the frontend has validated everything it can
// without reading element values (shapes, axes, dtypes, devices, backends). All tensors are contiguous,
// row-major and belong to this backend. `out` tensors are allocated by the frontend with their final
// shape and dtype; the backend writes every element of them and never resizes them. Element values that
// the frontend cannot check (indices) are checked by the backend, which throws ember::IndexError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "ember/scalar.hpp"
#include "ember/tensor.hpp"

namespace ember {

enum class PadMode : unsigned char { constant, edge, reflect };

class TensorOps {
 public:
  virtual ~TensorOps() = default;

  // Every element of `out` becomes `value` converted to out's dtype (Scalar::to semantics).
  virtual void full(Tensor& out, Scalar value) = 0;
  // out is (n, m): ones on the k-th diagonal, zeros elsewhere.
  virtual void eye(Tensor& out, std::int64_t k) = 0;
  // out[i] = start + i * step, computed in out's dtype (float: in float64 then rounded).
  virtual void arange(Tensor& out, double start, double step) = 0;
  // out[i] = start + i * (stop - start) / (n - 1 or n); the last element is exactly `stop` with endpoint.
  virtual void linspace(Tensor& out, double start, double stop, bool endpoint) = 0;
  // Copies out.nbytes() bytes of host memory, laid out as out's dtype, into out.
  virtual void from_data(Tensor& out, const void* host) = 0;
  // Copies x.nbytes() bytes of x into host memory.
  virtual void to_host(const Tensor& x, void* host) = 0;
  // out = x (same shape and dtype, new storage).
  virtual void copy(const Tensor& x, Tensor& out) = 0;
  // out.shape[i] == x.shape[perm[i]]; perm is a permutation of [0, ndim).
  virtual void transpose(const Tensor& x, const std::vector<int>& perm, Tensor& out) = 0;
  // x.ndim == out.ndim and x's shape broadcasts to out's shape.
  virtual void broadcast_to(const Tensor& x, Tensor& out) = 0;
  // All xs have out's dtype and ndim and agree with out's shape except along `axis`, where they add up.
  virtual void concatenate(const std::vector<Tensor>& xs, int axis, Tensor& out) = 0;
  // x.ndim == out.ndim; out.shape[i] is a multiple of x.shape[i] (x.shape[i] > 0 wherever out.shape[i] > 0).
  virtual void tile(const Tensor& x, Tensor& out) = 0;
  // pads[i] = (before, after) for axis i, all >= 0. reflect needs x.shape[i] > 1 wherever padding is
  // nonzero (NumPy's "reflect", edge not repeated); edge needs x.shape[i] > 0.
  virtual void pad(const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pads,
                   PadMode mode, Scalar value, Tensor& out) = 0;
  // out[i0, i1, ...] = x[starts[0] + i0 * steps[0], ...]; every addressed element is in range, steps != 0.
  virtual void slice(const Tensor& x, const std::vector<std::int64_t>& starts,
                     const std::vector<std::int64_t>& steps, Tensor& out) = 0;
  // NumPy take(x, indices, axis): indices is int64 (negative values count from the end);
  // out.shape == x.shape[:axis] + indices.shape + x.shape[axis+1:]. Out-of-range indices: IndexError.
  virtual void gather(const Tensor& x, const Tensor& indices, int axis, Tensor& out) = 0;
  // out = copy of x, then out[..., indices[j], ...] += updates[..., j, ...] along axis (np.add.at);
  // updates.shape == x.shape[:axis] + indices.shape + x.shape[axis+1:]. Out-of-range indices: IndexError.
  virtual void scatter_add(const Tensor& x, const Tensor& indices, const Tensor& updates, int axis,
                           Tensor& out) = 0;
  // Reverses the order of elements along each of `axes` (distinct, normalised).
  virtual void flip(const Tensor& x, const std::vector<int>& axes, Tensor& out) = 0;
  // Stable sort along axis; NaN sorts after +inf (NumPy); descending reverses the order (NaN first).
  virtual void sort(const Tensor& x, int axis, bool descending, Tensor& out) = 0;
  // int64 indices that sort x stably along axis, with sort's ordering; equal elements keep their order
  // in both directions.
  virtual void argsort(const Tensor& x, int axis, bool descending, Tensor& out) = 0;
};

}  // namespace ember
