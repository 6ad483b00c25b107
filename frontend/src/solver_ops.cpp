// ember::ops, category "solver": NumPy's linalg. Batch axes are folded into one leading axis B for the
// backend; integers and bool are promoted to float64 and float16 is computed as float32 and rounded back.
#include "ember/ops/solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dispatch.hpp"
#include "ember/ops/dtype.hpp"
#include "ember/ops/math.hpp"
#include "ember/ops/tensor.hpp"
#include "tensor_axes.hpp"

namespace ember::ops {

namespace {

// The dtype results have (float16 stays float16) and the one the backend computes in.
struct SolverTypes {
  DType result;
  DType compute;
};
SolverTypes solver_types(DType dtype) {
  if (dtype == DType::float16) return {DType::float16, DType::float32};
  if (dtype == DType::float32) return {DType::float32, DType::float32};
  return {DType::float64, DType::float64};
}

Shape batch_of(const Tensor& x, std::int64_t trailing) {
  return Shape(x.shape().begin(), x.shape().end() - trailing);
}

Shape with_tail(Shape shape, std::initializer_list<std::int64_t> tail) {
  shape.insert(shape.end(), tail.begin(), tail.end());
  return shape;
}

// x (..., rows, cols) as (B, rows, cols) in the compute dtype.
Tensor batched(const Tensor& x, DType compute) {
  const std::int64_t rows = x.dim(-2), cols = x.dim(-1), b = shape_numel(batch_of(x, 2));
  return detail::cast_to(x, compute).view({b, rows, cols});
}

void require_matrix(const char* op, const Tensor& a, bool square) {
  if (a.ndim() < 2) {
    throw ShapeError(std::string(op) + ": expected at least 2 dimensions (..., m, n), got " +
                     detail::describe(a));
  }
  if (square && a.dim(-1) != a.dim(-2)) {
    throw ShapeError(std::string(op) + ": expected square matrices (..., n, n), got " + detail::describe(a));
  }
}

Tensor empty_result(const char* op, const Tensor& like, const Shape& shape, DType dtype) {
  return detail::empty_like(op, like, shape, dtype);
}

// out computed in `compute`, returned as the caller's result dtype.
Tensor finish(const Tensor& out, DType result, const Shape& shape) {
  return detail::cast_to(out, result).view(shape);
}

}  // namespace

Tensor solve(const Tensor& a, const Tensor& b) {
  const char* op = "solve";
  Backend& backend = detail::common_backend(op, {&a, &b});
  require_matrix(op, a, true);
  const std::int64_t n = a.dim(-1);
  const SolverTypes types = solver_types(result_type(a.dtype(), b.dtype()));
  const Shape a_batch = batch_of(a, 2);
  // b is a vector (n,) or a stack of vectors (..., n) when it has one dimension fewer than a (NumPy 1.x).
  const bool vector = b.ndim() == 1 || b.ndim() == a.ndim() - 1;
  if (b.ndim() < 1 || b.dim(vector ? -1 : -2) != n) {
    throw ShapeError("solve: b " + detail::describe(b) + " does not match a " + detail::describe(a));
  }
  const Tensor bm = vector ? expand_dims(b, -1) : b;
  const std::int64_t k = bm.dim(-1);
  const Shape batch = broadcast_shapes(a_batch, batch_of(bm, 2), op);
  const Tensor ab = broadcast_to(a, with_tail(batch, {n, n}));
  const Tensor bb = broadcast_to(bm, with_tail(batch, {n, k}));
  const Tensor a3 = batched(ab, types.compute), b3 = batched(bb, types.compute);
  Tensor out = detail::empty(op, backend, a.device(), b3.shape(), types.compute);
  if (out.size() != 0) backend.solve(a3, b3, out);
  return finish(out, types.result, vector ? with_tail(batch, {n}) : with_tail(batch, {n, k}));
}

Tensor inv(const Tensor& a) {
  detail::common_backend("inv", {&a});
  require_matrix("inv", a, true);
  const SolverTypes types = solver_types(a.dtype());
  const Tensor a3 = batched(a, types.compute);
  Tensor out = empty_result("inv", a, a3.shape(), types.compute);
  if (out.size() != 0) a.backend().inv(a3, out);
  return finish(out, types.result, a.shape());
}

Tensor det(const Tensor& a) {
  detail::common_backend("det", {&a});
  require_matrix("det", a, true);
  const SolverTypes types = solver_types(a.dtype());
  const Tensor a3 = batched(a, types.compute);
  Tensor out = empty_result("det", a, {a3.dim(0)}, types.compute);
  if (out.size() != 0) a.backend().det(a3, out);
  return finish(out, types.result, batch_of(a, 2));
}

Tensor cholesky(const Tensor& a) {
  detail::common_backend("cholesky", {&a});
  require_matrix("cholesky", a, true);
  const SolverTypes types = solver_types(a.dtype());
  const Tensor a3 = batched(a, types.compute);
  Tensor out = empty_result("cholesky", a, a3.shape(), types.compute);
  if (out.size() != 0) a.backend().cholesky(a3, out);
  return finish(out, types.result, a.shape());
}

QRResult qr(const Tensor& a) {
  detail::common_backend("qr", {&a});
  require_matrix("qr", a, false);
  const SolverTypes types = solver_types(a.dtype());
  const std::int64_t m = a.dim(-2), n = a.dim(-1), k = std::min(m, n);
  const Tensor a3 = batched(a, types.compute);
  Tensor q = empty_result("qr", a, {a3.dim(0), m, k}, types.compute);
  Tensor r = empty_result("qr", a, {a3.dim(0), k, n}, types.compute);
  if (k != 0 && a3.dim(0) != 0) a.backend().qr(a3, q, r);
  if (k == 0 && r.size() != 0) r = zeros_like(r);
  const Shape batch = batch_of(a, 2);
  return {finish(q, types.result, with_tail(batch, {m, k})),
          finish(r, types.result, with_tail(batch, {k, n}))};
}

SVDResult svd(const Tensor& a, bool full_matrices, bool compute_uv) {
  detail::common_backend("svd", {&a});
  require_matrix("svd", a, false);
  const SolverTypes types = solver_types(a.dtype());
  const std::int64_t m = a.dim(-2), n = a.dim(-1), k = std::min(m, n);
  const Shape batch = batch_of(a, 2);
  const Tensor a3 = batched(a, types.compute);
  const std::int64_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
  Tensor s = empty_result("svd", a, {a3.dim(0), k}, types.compute);
  Tensor u, vt;
  if (compute_uv) {
    u = empty_result("svd", a, {a3.dim(0), m, ucols}, types.compute);
    vt = empty_result("svd", a, {a3.dim(0), vrows, n}, types.compute);
  }
  SVDResult result;
  if (k != 0 && a3.dim(0) != 0) {
    a.backend().svd(a3, u, s, vt, compute_uv);
  } else if (compute_uv) {  // no singular values: the full bases are identities
    u = broadcast_to(eye(m, ucols, 0, types.compute, a.device()), u.shape());
    vt = broadcast_to(eye(vrows, n, 0, types.compute, a.device()), vt.shape());
  }
  result.s = finish(s, types.result, with_tail(batch, {k}));
  if (compute_uv) {
    result.u = finish(u, types.result, with_tail(batch, {m, ucols}));
    result.vt = finish(vt, types.result, with_tail(batch, {vrows, n}));
  }
  return result;
}

EighResult eigh(const Tensor& a) {
  detail::common_backend("eigh", {&a});
  require_matrix("eigh", a, true);
  const SolverTypes types = solver_types(a.dtype());
  const std::int64_t n = a.dim(-1);
  const Tensor a3 = batched(a, types.compute);
  Tensor w = empty_result("eigh", a, {a3.dim(0), n}, types.compute);
  Tensor v = empty_result("eigh", a, a3.shape(), types.compute);
  if (v.size() != 0) a.backend().eigh(a3, w, v);
  return {finish(w, types.result, with_tail(batch_of(a, 2), {n})), finish(v, types.result, a.shape())};
}

LstsqResult lstsq(const Tensor& a, const Tensor& b, std::optional<double> rcond) {
  const char* op = "lstsq";
  detail::common_backend(op, {&a, &b});
  if (a.ndim() != 2 || (b.ndim() != 1 && b.ndim() != 2) || b.dim(0) != a.dim(0)) {
    throw ShapeError("lstsq: expected a (m, n) and b (m,) or (m, k), got " + detail::describe({&a, &b}));
  }
  const SolverTypes types = solver_types(result_type(a.dtype(), b.dtype()));
  const std::int64_t m = a.dim(0), n = a.dim(1), k = b.ndim() == 2 ? b.dim(1) : 1;
  const double eps = types.compute == DType::float32 ? std::numeric_limits<float>::epsilon()
                                                     : std::numeric_limits<double>::epsilon();
  const double cutoff = rcond.value_or(eps * static_cast<double>(std::max(m, n)));
  const Tensor ac = detail::cast_to(a, types.compute);
  const Tensor bc = detail::cast_to(b, types.compute).view({m, k});
  Tensor x = empty_result(op, a, {n, k}, types.compute);
  Tensor s = empty_result(op, a, {std::min(m, n)}, types.compute);
  std::int64_t rank = 0;
  if (m != 0 && n != 0) {
    a.backend().lstsq(ac, bc, cutoff, x, rank, s);
  } else {
    x = zeros_like(x);
  }
  LstsqResult result;
  result.rank = rank;
  result.x = finish(x, types.result, b.ndim() == 2 ? Shape{n, k} : Shape{n});
  if (rank == n && m > n) {
    const Tensor r = subtract(bc, matmul(ac, x));
    result.residuals = detail::cast_to(sum(multiply(r, r), std::vector<std::int64_t>{0}), types.result);
  } else {
    result.residuals = empty_result(op, a, {0}, types.result);
  }
  result.singular_values = finish(s, types.result, {std::min(m, n)});
  return result;
}

namespace {

struct NormOrder {
  bool given = false;
  bool fro = false;
  bool nuc = false;
  double p = 2.0;
};

NormOrder parse_order(const std::optional<std::string>& ord) {
  NormOrder o;
  if (!ord) return o;
  o.given = true;
  if (*ord == "fro") {
    o.fro = true;
  } else if (*ord == "nuc") {
    o.nuc = true;
  } else {
    std::size_t used = 0;
    try {
      o.p = std::stod(*ord, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != ord->size() || std::isnan(o.p)) {
      throw ValueError("norm: invalid order '" + *ord + "'; use fro, nuc, inf, -inf or a number");
    }
  }
  return o;
}

// The p-norm over `axes` (sorted, distinct) through the backend, in x's result dtype.
Tensor vector_norm(const Tensor& x, double p, const std::vector<int>& axes, bool keepdims) {
  const SolverTypes types = solver_types(x.dtype());
  const Tensor xc = detail::cast_to(x, types.compute);
  const Shape kept = detail::reduced_shape(x.shape(), axes, true);
  std::int64_t extent = 1;
  for (int a : axes) extent *= x.shape()[static_cast<std::size_t>(a)];
  Tensor out = detail::empty_like("norm", x, kept, types.compute);
  if (std::isinf(p) && extent == 0 && out.size() != 0) {
    throw ShapeError("norm: an infinity norm of an empty extent of " + detail::describe(x) + " has no value");
  }
  if (out.size() != 0) x.backend().norm(xc, p, axes, out);
  return finish(out, types.result, detail::reduced_shape(x.shape(), axes, keepdims));
}

// Norms defined by the singular values of the matrices spanned by axes (r, c).
Tensor spectral_norm(const Tensor& x, const NormOrder& o, int r, int c, bool keepdims) {
  std::vector<std::int64_t> perm;
  for (int d = 0; d < x.ndim(); ++d) {
    if (d != r && d != c) perm.push_back(d);
  }
  perm.push_back(r);
  perm.push_back(c);
  const Tensor s = svd(transpose(x, perm), false, false).s;
  const Axes last = std::vector<std::int64_t>{-1};
  const Tensor v = o.nuc ? sum(s, last) : o.p > 0 ? max(s, last) : min(s, last);
  if (!keepdims) return v;
  Shape shape = x.shape();
  shape[static_cast<std::size_t>(r)] = shape[static_cast<std::size_t>(c)] = 1;
  return v.view(shape);
}

}  // namespace

Tensor norm(const Tensor& x, std::optional<std::string> ord, Axes axis, bool keepdims) {
  detail::common_backend("norm", {&x});
  const NormOrder o = parse_order(ord);
  std::vector<int> axes;
  if (axis) {
    for (auto a : *axis) axes.push_back(detail::axis_of("norm", a, x));
  } else if (!o.given) {
    return vector_norm(x, 2.0, detail::normalize_axes(std::nullopt, x.ndim(), "norm"), keepdims);
  } else if (x.ndim() == 1 || x.ndim() == 2) {
    axes = detail::normalize_axes(std::nullopt, x.ndim(), "norm");
  } else {
    throw ShapeError("norm: an order needs a 1-d or 2-d tensor or explicit axes, got " + detail::describe(x));
  }
  if (axes.size() == 1) {
    if (o.fro || o.nuc) throw ValueError("norm: order '" + *ord + "' is for matrices, not vectors");
    return vector_norm(x, o.p, axes, keepdims);
  }
  if (axes.size() != 2)
    throw ShapeError("norm: expected one or two axes, got " + std::to_string(axes.size()));
  const int r = axes[0], c = axes[1];
  if (r == c) throw ShapeError("norm: the two axes must differ (" + detail::describe(x) + ")");
  if (!o.given || o.fro) return vector_norm(x, 2.0, {std::min(r, c), std::max(r, c)}, keepdims);
  if (o.nuc || o.p == 2.0 || o.p == -2.0) return spectral_norm(x, o, r, c, keepdims);
  // 1 / -1: max / min over columns of the column sums; inf / -inf: the same over rows.
  int inner = 0, outer_axis = 0;
  if (o.p == 1.0 || o.p == -1.0) {
    inner = r;
    outer_axis = c;
  } else if (std::isinf(o.p)) {
    inner = c;
    outer_axis = r;
  } else {
    throw ValueError("norm: invalid order '" + *ord + "' for matrices");
  }
  const SolverTypes types = solver_types(x.dtype());
  const Tensor sums = sum(abs(detail::cast_to(x, types.compute)), std::vector<std::int64_t>{inner}, true);
  const Axes over = std::vector<std::int64_t>{outer_axis};
  Tensor v = o.p > 0 ? max(sums, over, true) : min(sums, over, true);
  v = detail::cast_to(v, types.result);
  return keepdims ? v : v.view(detail::reduced_shape(x.shape(), {std::min(r, c), std::max(r, c)}, false));
}

Tensor diag(const Tensor& x, std::int64_t k) {
  detail::common_backend("diag", {&x});
  if (x.ndim() == 2) return diagonal(x, k);
  if (x.ndim() != 1) throw ShapeError("diag: expected a 1-d or 2-d tensor, got " + detail::describe(x));
  std::int64_t size = 0;
  if (k == std::numeric_limits<std::int64_t>::min() ||
      __builtin_add_overflow(x.size(), k < 0 ? -k : k, &size)) {
    throw ShapeError("diag: offset " + std::to_string(k) + " is too large");
  }
  Tensor out = detail::empty_like("diag", x, {size, size}, x.dtype());
  if (out.size() != 0) x.backend().diag(x, k, out);
  return out;
}

Tensor diagonal(const Tensor& x, std::int64_t offset, std::int64_t axis1, std::int64_t axis2) {
  detail::common_backend("diagonal", {&x});
  if (x.ndim() < 2) throw ShapeError("diagonal: expected at least 2 dimensions, got " + detail::describe(x));
  const int a1 = detail::axis_of("diagonal", axis1, x), a2 = detail::axis_of("diagonal", axis2, x);
  if (a1 == a2)
    throw ShapeError("diagonal: axis1 and axis2 must differ, got " + std::to_string(axis1) + ", " +
                     std::to_string(axis2));
  std::vector<std::int64_t> perm;
  for (int d = 0; d < x.ndim(); ++d) {
    if (d != a1 && d != a2) perm.push_back(d);
  }
  perm.push_back(a1);
  perm.push_back(a2);
  const Tensor moved = transpose(x, perm);
  const std::int64_t n = moved.dim(-2), m = moved.dim(-1);
  std::int64_t length = 0;
  if (offset >= 0) {
    length = offset < m ? std::min(n, m - offset) : 0;
  } else {
    length = offset > -n ? std::min(n + offset, m) : 0;
  }
  const Tensor x3 = batched(moved, moved.dtype());
  Tensor out = detail::empty_like("diagonal", x, {x3.dim(0), length}, x.dtype());
  if (out.size() != 0) x.backend().diagonal(x3, offset, out);
  return out.view(with_tail(batch_of(moved, 2), {length}));
}

Tensor trace(const Tensor& x, std::int64_t offset) {
  detail::common_backend("trace", {&x});
  if (x.ndim() < 2) throw ShapeError("trace: expected at least 2 dimensions, got " + detail::describe(x));
  // Sums like ops::sum: small integers and bool accumulate in int64.
  const DType d = x.dtype();
  const DType acc = is_integer(d) || d == DType::bool_ ? DType::int64 : d;
  std::vector<std::int64_t> perm;
  for (int i = 2; i < x.ndim(); ++i) perm.push_back(i);
  perm.push_back(0);
  perm.push_back(1);
  const Tensor moved = transpose(x, perm);
  const Tensor x3 = batched(moved, acc);
  Tensor out = detail::empty_like("trace", x, {x3.dim(0)}, acc);
  if (out.size() != 0) x.backend().trace(x3, offset, out);
  return out.view(batch_of(moved, 2));
}

Tensor outer(const Tensor& a, const Tensor& b) {
  detail::common_backend("outer", {&a, &b});
  const DType dtype = result_type(a.dtype(), b.dtype());
  const Tensor af = detail::cast_to(flatten(a), dtype), bf = detail::cast_to(flatten(b), dtype);
  Tensor out = detail::empty_like("outer", a, {af.size(), bf.size()}, dtype);
  if (out.size() != 0) a.backend().outer(af, bf, out);
  return out;
}

}  // namespace ember::ops
