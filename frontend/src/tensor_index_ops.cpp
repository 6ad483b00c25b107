// ember::ops, category "tensor", part 2: joining, splitting, padding, slicing, indexing and sorting.
#include <algorithm>
#include <string>

#include "dispatch.hpp"
#include "ember/ops/dtype.hpp"
#include "ember/ops/tensor.hpp"
#include "tensor_axes.hpp"

namespace ember::ops {

namespace {

Backend& common_backend_of(const char* op, const std::vector<Tensor>& xs) {
  if (xs.empty()) throw ValueError(std::string(op) + ": needs at least one tensor");
  Backend& backend = detail::common_backend(op, {&xs[0]});
  for (std::size_t i = 1; i < xs.size(); ++i) detail::common_backend(op, {&xs[0], &xs[i]});
  return backend;
}

Tensor as_index_tensor(const char* op, const Tensor& indices) {
  detail::require_dtype(is_integer(indices.dtype()), op, "integer indices", indices);
  return detail::cast_to(indices, DType::int64);
}

// x.shape[:axis] + middle + x.shape[axis+1:]
Shape replace_axis(const Shape& shape, int axis, const Shape& middle) {
  Shape out(shape.begin(), shape.begin() + axis);
  out.insert(out.end(), middle.begin(), middle.end());
  out.insert(out.end(), shape.begin() + axis + 1, shape.end());
  return out;
}

struct AxisSlice {
  std::int64_t start = 0;
  std::int64_t step = 1;
  std::int64_t length = 0;
};

// Python's slice.indices(n) followed by the slice length (PySlice_AdjustIndices).
AxisSlice resolve_slice(const Slice& s, std::int64_t n) {
  AxisSlice r;
  r.step = s.step;
  std::int64_t start = 0, stop = 0;
  if (s.step > 0) {
    start = s.start.value_or(0);
    stop = s.stop.value_or(n);
    if (start < 0) start = std::max<std::int64_t>(start + n, 0);
    if (stop < 0) stop = std::max<std::int64_t>(stop + n, 0);
    start = std::min(start, n);
    stop = std::min(stop, n);
    r.length = stop > start ? (stop - start - 1) / s.step + 1 : 0;
  } else {
    start = s.start.value_or(n - 1);
    stop = s.stop ? *s.stop : -1;
    if (s.start && start < 0) start = std::max<std::int64_t>(start + n, -1);
    if (s.stop && stop < 0) stop = std::max<std::int64_t>(stop + n, -1);
    start = std::min(start, n - 1);
    stop = std::min(stop, n - 1);
    r.length = start > stop ? (stop - start + 1) / s.step + 1 : 0;
  }
  r.start = start;
  if (r.length <= 1) r.step = 1;  // one element or none: any step addresses the same
  return r;
}

}  // namespace

Tensor concatenate(const std::vector<Tensor>& xs, std::int64_t axis) {
  const char* op = "concatenate";
  Backend& backend = common_backend_of(op, xs);
  const Tensor& first = xs[0];
  if (first.ndim() == 0)
    throw ShapeError("concatenate: zero-dimensional tensors cannot be concatenated (input 0 is " +
                     detail::describe(first) + ")");
  const int ax = detail::axis_of(op, axis, first);
  DType dtype = first.dtype();
  Shape shape = first.shape();
  shape[static_cast<std::size_t>(ax)] = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const Tensor& x = xs[i];
    bool same = x.ndim() == first.ndim();
    for (std::size_t d = 0; same && d < shape.size(); ++d) {
      same = static_cast<int>(d) == ax || x.shape()[d] == first.shape()[d];
    }
    if (!same) {
      throw ShapeError("concatenate: input " + std::to_string(i) + " (" + detail::describe(x) +
                       ") does not match input 0 (" + detail::describe(first) + ") outside axis " +
                       std::to_string(ax));
    }
    dtype = result_type(dtype, x.dtype());
    if (__builtin_add_overflow(shape[static_cast<std::size_t>(ax)], x.shape()[static_cast<std::size_t>(ax)],
                               &shape[static_cast<std::size_t>(ax)])) {
      throw ShapeError("concatenate: the result has too many elements");
    }
  }
  std::vector<Tensor> cast;
  cast.reserve(xs.size());
  for (const Tensor& x : xs) cast.push_back(detail::cast_to(x, dtype));
  Tensor out = detail::empty(op, backend, first.device(), shape, dtype);
  if (out.size() != 0) backend.concatenate(cast, ax, out);
  return out;
}

Tensor stack(const std::vector<Tensor>& xs, std::int64_t axis) {
  common_backend_of("stack", xs);
  const int ax = detail::axis_of("stack", axis, xs[0].ndim() + 1, xs[0]);
  std::vector<Tensor> expanded;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].shape() != xs[0].shape()) {
      throw ShapeError("stack: input " + std::to_string(i) + " (" + detail::describe(xs[i]) +
                       ") does not have the shape of input 0 (" + detail::describe(xs[0]) + ")");
    }
    expanded.push_back(expand_dims(xs[i], ax));
  }
  return concatenate(expanded, ax);
}

std::vector<Tensor> split(const Tensor& x, std::int64_t sections, std::int64_t axis) {
  detail::common_backend("split", {&x});
  const int ax = detail::axis_of("split", axis, x);
  if (sections <= 0)
    throw ValueError("split: number of sections must be positive, got " + std::to_string(sections));
  const std::int64_t n = x.shape()[static_cast<std::size_t>(ax)];
  if (n % sections != 0) {
    throw ShapeError("split: axis " + std::to_string(ax) + " of " + detail::describe(x) +
                     " does not divide into " + std::to_string(sections) + " equal sections");
  }
  std::vector<std::int64_t> indices;
  for (std::int64_t i = 1; i < sections; ++i) indices.push_back(i * (n / sections));
  return split(x, indices, ax);
}

std::vector<Tensor> split(const Tensor& x, const std::vector<std::int64_t>& indices, std::int64_t axis) {
  detail::common_backend("split", {&x});
  const int ax = detail::axis_of("split", axis, x);
  std::vector<Tensor> parts;
  std::vector<Slice> slices(static_cast<std::size_t>(ax) + 1);
  std::optional<std::int64_t> start;
  for (std::size_t i = 0; i <= indices.size(); ++i) {
    slices.back() = Slice{start, i < indices.size() ? std::optional(indices[i]) : std::nullopt, 1};
    parts.push_back(slice(x, slices));
    if (i < indices.size()) start = indices[i];
  }
  return parts;
}

Tensor tile(const Tensor& x, const std::vector<std::int64_t>& reps) {
  detail::common_backend("tile", {&x});
  for (auto r : reps) {
    if (r < 0)
      throw ValueError("tile: repetitions must be non-negative, got " + std::to_string(r) + " for " +
                       detail::describe(x));
  }
  const std::size_t nd = std::max(reps.size(), x.shape().size());
  Shape xshape(nd - x.shape().size(), 1), r(nd - reps.size(), 1), shape(nd);
  xshape.insert(xshape.end(), x.shape().begin(), x.shape().end());
  r.insert(r.end(), reps.begin(), reps.end());
  for (std::size_t d = 0; d < nd; ++d) {
    if (__builtin_mul_overflow(xshape[d], r[d], &shape[d])) throw ShapeError("tile: the result is too large");
  }
  const Tensor xv = x.view(xshape);
  Tensor out = detail::empty_like("tile", x, shape, x.dtype());
  if (out.size() != 0) x.backend().tile(xv, out);
  return out;
}

Tensor pad(const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width, PadMode mode,
           Scalar value) {
  detail::common_backend("pad", {&x});
  const auto nd = static_cast<std::size_t>(x.ndim());
  if (pad_width.size() != nd && pad_width.size() != 1) {
    throw ShapeError("pad: " + std::to_string(pad_width.size()) + " (before, after) pairs for " +
                     detail::describe(x) + "; give one per axis or one for all");
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> pads(nd);
  Shape shape(nd);
  bool reflect_single = false;  // NumPy reflects an extent-1 axis as its edge
  for (std::size_t d = 0; d < nd; ++d) {
    pads[d] = pad_width.size() == 1 ? pad_width[0] : pad_width[d];
    const auto [before, after] = pads[d];
    const std::int64_t n = x.shape()[d];
    if (before < 0 || after < 0)
      throw ValueError("pad: pad widths must be non-negative (" + detail::describe(x) + ")");
    if (mode != PadMode::constant && n == 0 && before + after > 0) {
      throw ValueError("pad: cannot extend the empty axis " + std::to_string(d) + " of " +
                       detail::describe(x) + " with mode edge or reflect");
    }
    reflect_single = reflect_single || (mode == PadMode::reflect && n == 1 && before + after > 0);
    if (__builtin_add_overflow(n, before, &shape[d]) || __builtin_add_overflow(shape[d], after, &shape[d])) {
      throw ShapeError("pad: the result is too large");
    }
  }
  Tensor src = x;
  if (reflect_single) {  // first pad the extent-1 axes with edge, then reflect the others
    std::vector<std::pair<std::int64_t, std::int64_t>> edge_pads(nd, {0, 0});
    for (std::size_t d = 0; d < nd; ++d) {
      if (x.shape()[d] == 1) std::swap(edge_pads[d], pads[d]);
    }
    src = pad(x, edge_pads, PadMode::edge, value);
  }
  Tensor out = detail::empty_like("pad", x, shape, x.dtype());
  if (out.size() != 0) x.backend().pad(src, pads, mode, value, out);
  return out;
}

Tensor slice(const Tensor& x, const std::vector<Slice>& slices) {
  detail::common_backend("slice", {&x});
  if (static_cast<std::int64_t>(slices.size()) > x.ndim()) {
    throw ShapeError("slice: " + std::to_string(slices.size()) + " slices for " + detail::describe(x));
  }
  const auto nd = static_cast<std::size_t>(x.ndim());
  std::vector<std::int64_t> starts(nd, 0), steps(nd, 1);
  Shape shape = x.shape();
  for (std::size_t d = 0; d < slices.size(); ++d) {
    if (slices[d].step == 0)
      throw ValueError("slice: step of axis " + std::to_string(d) + " must not be zero (" +
                       detail::describe(x) + ")");
    const AxisSlice r = resolve_slice(slices[d], x.shape()[d]);
    starts[d] = r.start;
    steps[d] = r.step;
    shape[d] = r.length;
  }
  Tensor out = detail::empty_like("slice", x, shape, x.dtype());
  if (out.size() != 0) x.backend().slice(x, starts, steps, out);
  return out;
}

Tensor gather(const Tensor& x, const Tensor& indices, std::optional<std::int64_t> axis) {
  detail::common_backend("gather", {&x, &indices});
  const Tensor idx = as_index_tensor("gather", indices);
  const Tensor src = axis ? x : x.view({x.size()});
  const int ax = detail::axis_of("gather", axis.value_or(0), src);
  Tensor out = detail::empty_like("gather", x, replace_axis(src.shape(), ax, idx.shape()), x.dtype());
  if (out.size() != 0 || idx.size() != 0) x.backend().gather(src, idx, ax, out);
  return out;
}

Tensor scatter_add(const Tensor& x, const Tensor& indices, const Tensor& updates, std::int64_t axis) {
  detail::common_backend("scatter_add", {&x, &indices, &updates});
  const Tensor idx = as_index_tensor("scatter_add", indices);
  const int ax = detail::axis_of("scatter_add", axis, x);
  const Shape expected = replace_axis(x.shape(), ax, idx.shape());
  Tensor upd = updates;
  if (upd.shape() != expected) {
    try {
      upd = broadcast_to(upd, expected);
    } catch (const ShapeError&) {
      throw ShapeError("scatter_add: updates " + detail::describe(updates) + " do not match shape " +
                       shape_str(expected) + " for x " + detail::describe(x) + " and indices " +
                       detail::describe(indices));
    }
  }
  upd = detail::cast_to(upd, x.dtype());
  Tensor out = detail::empty_like("scatter_add", x, x.shape(), x.dtype());
  x.backend().scatter_add(x, idx, upd, ax, out);
  return out;
}

Tensor flip(const Tensor& x, std::optional<std::vector<std::int64_t>> axes) {
  detail::common_backend("flip", {&x});
  const auto ax = detail::axes_of("flip", axes, x);
  Tensor out = detail::empty_like("flip", x, x.shape(), x.dtype());
  if (out.size() != 0) x.backend().flip(x, ax, out);
  return out;
}

Tensor sort(const Tensor& x, std::int64_t axis, bool descending) {
  detail::common_backend("sort", {&x});
  const int ax = detail::axis_of("sort", axis, x);
  Tensor out = detail::empty_like("sort", x, x.shape(), x.dtype());
  if (out.size() != 0) x.backend().sort(x, ax, descending, out);
  return out;
}

Tensor argsort(const Tensor& x, std::int64_t axis, bool descending) {
  detail::common_backend("argsort", {&x});
  const int ax = detail::axis_of("argsort", axis, x);
  Tensor out = detail::empty_like("argsort", x, x.shape(), DType::int64);
  if (out.size() != 0) x.backend().argsort(x, ax, descending, out);
  return out;
}

}  // namespace ember::ops
