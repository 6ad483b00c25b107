// Frontend-internal: the expression graph behind pending tensors (ember/lazy.hpp) and its evaluation as one
// FusedProgram per graph through the backend's fused_elementwise.
#pragma once

#include <atomic>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "ember/backend.hpp"
#include "ember/lazy.hpp"
#include "ember/tensor.hpp"

namespace ember::detail {

// One deferred op, or a deferred scalar operand. Immutable once made, except for the evaluation state:
// result and done, set once under mutex; operands are released after evaluation.
struct LazyNode {
  bool is_constant = false;
  FusedConstant constant;  // is_constant: a 0-d tensor of constant.dtype filled with constant.value
  ElementOp op = ElementOp::add;
  DType dtype = DType::float32;
  Shape shape;
  Backend* backend = nullptr;
  Device device;
  std::vector<Tensor> operands;  // op's operands, each broadcasting to shape

  std::mutex mutex;
  std::shared_ptr<Buffer> result;
  std::atomic<bool> done{false};
};

// The ElementOp whose name (element_op_name) is `name`; std::logic_error for any other name.
ElementOp element_op_named(std::string_view name);

// The node's storage, evaluating it first if needed (thread-safe; evaluates once).
const std::shared_ptr<Buffer>& evaluate(LazyNode& node);
// Computes a pending node's value into out (of the node's shape and dtype) without evaluating the node.
void evaluate_into(LazyNode& node, Tensor& out);
bool evaluated(const LazyNode& node);

// Whether an op with a result of `shape` may be deferred at all: lazy mode on this thread and a result of at
// least fusion_min_elements() elements. Cheap; callers test it before anything else.
bool may_defer(const Shape& shape);
// A pending tensor for `op` on `operands` (already of the dtypes the op takes) with result `dtype` and
// `shape`, or nullopt when the op must run eagerly: !may_defer(shape), or a backend that does not fuse this
// op. Operands whose graph would exceed the size caps are evaluated first. `op` is an ElementOp or its name.
std::optional<Tensor> defer(ElementOp op, DType dtype, const Shape& shape,
                            std::initializer_list<const Tensor*> operands);
std::optional<Tensor> defer(const char* op, DType dtype, const Shape& shape,
                            std::initializer_list<const Tensor*> operands);
// A pending 0-d tensor holding `value` as `dtype` on `backend` and `device`, or nullopt in eager mode.
std::optional<Tensor> defer_constant(Backend& backend, Device device, Scalar value, DType dtype);

}  // namespace ember::detail
