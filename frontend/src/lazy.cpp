// Lazy evaluation (ember/lazy.hpp): deferring element-wise ops into a graph of LazyNodes, collecting a graph
// into a FusedProgram, and the eager switch. FusedProgram's helpers live here too.
#include "lazy.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "dispatch.hpp"
#include "ember/ops/dtype.hpp"
#include "host/fused.hpp"

namespace ember {

// ---- FusedProgram ----------------------------------------------------------------------------------------

const char* element_op_name(ElementOp op) {
  switch (op) {
    case ElementOp::add:
      return "add";
    case ElementOp::subtract:
      return "subtract";
    case ElementOp::multiply:
      return "multiply";
    case ElementOp::divide:
      return "divide";
    case ElementOp::floor_divide:
      return "floor_divide";
    case ElementOp::mod:
      return "mod";
    case ElementOp::power:
      return "power";
    case ElementOp::minimum:
      return "minimum";
    case ElementOp::maximum:
      return "maximum";
    case ElementOp::negative:
      return "negative";
    case ElementOp::abs:
      return "abs";
    case ElementOp::sign:
      return "sign";
    case ElementOp::square:
      return "square";
    case ElementOp::sqrt:
      return "sqrt";
    case ElementOp::exp:
      return "exp";
    case ElementOp::expm1:
      return "expm1";
    case ElementOp::log:
      return "log";
    case ElementOp::log1p:
      return "log1p";
    case ElementOp::log2:
      return "log2";
    case ElementOp::log10:
      return "log10";
    case ElementOp::sin:
      return "sin";
    case ElementOp::cos:
      return "cos";
    case ElementOp::tan:
      return "tan";
    case ElementOp::sinh:
      return "sinh";
    case ElementOp::cosh:
      return "cosh";
    case ElementOp::tanh:
      return "tanh";
    case ElementOp::floor:
      return "floor";
    case ElementOp::ceil:
      return "ceil";
    case ElementOp::round:
      return "round";
    case ElementOp::cast:
      return "cast";
  }
  return "unknown";
}

int element_op_arity(ElementOp op) {
  return op <= ElementOp::maximum ? 2 : 1;
}

namespace {

std::string ref_key(const FusedRef& r) {
  std::string key(1, r.kind == FusedRef::Kind::input ? 'i' : r.kind == FusedRef::Kind::constant ? 'c' : 's');
  key += std::to_string(r.index);
  return key;
}

}  // namespace

std::string FusedProgram::structure() const {
  std::string key = "in";
  for (const Tensor& t : inputs) key.append(":").append(ops::dtype_name(t.dtype()));
  key.append(";c");
  for (const FusedConstant& c : constants) key.append(":").append(ops::dtype_name(c.dtype));
  for (const FusedStep& s : steps) {
    key.append(";").append(element_op_name(s.op)).append(".").append(ops::dtype_name(s.dtype));
    key.append("(").append(ref_key(s.a));
    if (element_op_arity(s.op) == 2) key.append(",").append(ref_key(s.b));
    key.append(")");
  }
  return key;
}

// ---- the eager switch ------------------------------------------------------------------------------------

namespace {

thread_local int eager_scopes = 0;

// Whether environment variable `name` is set to something other than "" or "0".
int env_flag(const char* name) {
  const char* env = std::getenv(name);
  return env != nullptr && std::strcmp(env, "") != 0 && std::strcmp(env, "0") != 0 ? 1 : 0;
}

std::atomic<int>& process_eager() {
  static std::atomic<int> eager{env_flag("EMBER_EAGER")};
  return eager;
}

}  // namespace

bool is_eager() {
  return eager_scopes > 0 || process_eager().load(std::memory_order_relaxed) != 0;
}

void set_eager(bool eager) {
  process_eager().store(eager ? 1 : 0, std::memory_order_relaxed);
}

EagerScope::EagerScope() {
  ++eager_scopes;
}
EagerScope::~EagerScope() {
  --eager_scopes;
}

namespace {

std::atomic<int>& process_verify() {
  static std::atomic<int> verify{env_flag("EMBER_LAZY_VERIFY")};
  return verify;
}

std::atomic<std::int64_t>& process_min_elements() {
  static std::atomic<std::int64_t> elements = [] {
    const char* env = std::getenv("EMBER_FUSION_MIN_ELEMENTS");
    char* end = nullptr;
    const long long value = env != nullptr ? std::strtoll(env, &end, 10) : -1;
    return env != nullptr && end != env && *end == '\0' && value >= 0 ? static_cast<std::int64_t>(value)
                                                                      : kFusionMinElements;
  }();
  return elements;
}

}  // namespace

std::int64_t fusion_min_elements() {
  return process_min_elements().load(std::memory_order_relaxed);
}

void set_fusion_min_elements(std::int64_t elements) {
  process_min_elements().store(elements < 0 ? 0 : elements, std::memory_order_relaxed);
}

bool verifies_fusion() {
  return process_verify().load(std::memory_order_relaxed) != 0;
}

void set_verify_fusion(bool verify) {
  process_verify().store(verify ? 1 : 0, std::memory_order_relaxed);
}

Tensor eval(const Tensor& x) {
  if (x.lazy_node()) x.buffer();
  return x;
}

Tensor eval_into(const Tensor& x, const Tensor& out) {
  // The message names both tensors; it is built only on failure (formatting them costs more than a 1K add).
  const auto both = [&] { return " (value " + x.str() + ", out " + out.str() + ")"; };
  if (&x.backend() != &out.backend()) throw BackendError("eval_into: out is on another backend" + both());
  if (x.device() != out.device()) throw DeviceError("eval_into: out is on another device" + both());
  if (x.shape() != out.shape()) throw ShapeError("eval_into: out has another shape" + both());
  if (x.dtype() != out.dtype()) throw DTypeError("eval_into: out has another dtype" + both());
  Tensor target(out.buffer(), out.byte_offset(), out.shape(), out.dtype(), &out.backend());
  const std::shared_ptr<detail::LazyNode>& node = x.lazy_node();
  if (node && !detail::evaluated(*node)) {
    Tensor as_node = target.view(node->shape);  // x may be a reshaped view of the node's value
    detail::evaluate_into(*node, as_node);
  } else if (out.buffer() != x.buffer() || out.byte_offset() != x.byte_offset()) {
    x.backend().copy(x, target);
  }
  return out;
}

}  // namespace ember

namespace ember::detail {

namespace {

// A snapshot of a pending op node's operands, or nothing once it is evaluated (its operands are then
// released).
std::vector<Tensor> pending_operands(LazyNode& node) {
  if (node.done.load(std::memory_order_acquire)) return {};
  std::lock_guard<std::mutex> lock(node.mutex);
  return node.done.load(std::memory_order_acquire) ? std::vector<Tensor>() : node.operands;
}

// Collects the pending graph under a node into a FusedProgram: pending ops of the node's shape become steps
// (each once, however often it is used), pending scalars become constants, everything else an input (each
// distinct tensor once). Counts what the caps of ember/lazy.hpp limit.
class ProgramBuilder {
 public:
  FusedProgram program;
  int height = 0;

  // The steps for `node`, whose operands the caller has made safe to read (locked or not yet shared).
  FusedRef add_node(const LazyNode& node, const std::vector<Tensor>& operands) {
    if (auto it = std::find(nodes_.begin(), nodes_.end(), &node); it != nodes_.end()) {
      return {FusedRef::Kind::step, static_cast<std::uint32_t>(it - nodes_.begin())};
    }
    FusedStep step;
    step.op = node.op;
    step.dtype = node.dtype;
    int h = 0;
    step.a = add(operands.at(0), h);
    if (element_op_arity(node.op) == 2) step.b = add(operands.at(1), h);
    program.steps.push_back(step);
    nodes_.push_back(&node);
    heights_.push_back(h + 1);
    height = std::max(height, h + 1);
    return {FusedRef::Kind::step, static_cast<std::uint32_t>(program.steps.size() - 1)};
  }

 private:
  // The reference for operand t, raising `h` to the height of the steps under it.
  FusedRef add(const Tensor& t, int& h) {
    const std::shared_ptr<LazyNode>& node = t.lazy_node();
    if (node && !node->done.load(std::memory_order_acquire)) {
      if (node->is_constant) return constant(*node);
      if (t.shape() == node->shape) {
        const std::vector<Tensor> operands = pending_operands(*node);
        if (!operands.empty()) {
          const FusedRef r = add_node(*node, operands);
          h = std::max(h, heights_[r.index]);
          return r;
        }
      }
    }
    return input(t);
  }

  FusedRef constant(const LazyNode& node) {
    for (std::size_t i = 0; i < constant_nodes_.size(); ++i) {
      if (constant_nodes_[i] == &node) return {FusedRef::Kind::constant, static_cast<std::uint32_t>(i)};
    }
    constant_nodes_.push_back(&node);
    program.constants.push_back(node.constant);
    return {FusedRef::Kind::constant, static_cast<std::uint32_t>(program.constants.size() - 1)};
  }

  FusedRef input(const Tensor& t) {
    for (std::size_t i = 0; i < program.inputs.size(); ++i) {
      const Tensor& u = program.inputs[i];
      const bool same_storage =
          t.lazy_node() ? t.lazy_node() == u.lazy_node() : (!u.lazy_node() && t.buffer() == u.buffer());
      if (same_storage && t.byte_offset() == u.byte_offset() && t.shape() == u.shape() &&
          t.dtype() == u.dtype()) {
        return {FusedRef::Kind::input, static_cast<std::uint32_t>(i)};
      }
    }
    program.inputs.push_back(t);
    return {FusedRef::Kind::input, static_cast<std::uint32_t>(program.inputs.size() - 1)};
  }

  std::vector<const LazyNode*> nodes_;  // per step
  std::vector<int> heights_;            // per step
  std::vector<const LazyNode*> constant_nodes_;
};

bool within_caps(const ProgramBuilder& b) {
  return b.height <= kMaxFusedHeight &&
         b.program.inputs.size() <= static_cast<std::size_t>(kMaxFusedInputs) &&
         b.program.constants.size() <= static_cast<std::size_t>(kMaxFusedConstants) &&
         b.program.steps.size() <= static_cast<std::size_t>(kMaxFusedSteps);
}

// The pending op operand with the most steps under it (the one to evaluate first), or nullptr.
const Tensor* largest_pending(const std::vector<Tensor>& operands) {
  const Tensor* best = nullptr;
  std::size_t best_steps = 0;
  for (const Tensor& t : operands) {
    const auto& node = t.lazy_node();
    if (!node || node->is_constant || !t.pending()) continue;
    const std::vector<Tensor> inner = pending_operands(*node);
    if (inner.empty()) continue;
    ProgramBuilder b;
    b.add_node(*node, inner);
    if (best == nullptr || b.program.steps.size() > best_steps) {
      best = &t;
      best_steps = b.program.steps.size();
    }
  }
  return best;
}

// The node's value computed as eager evaluation would: one backend call per op, full-size temporaries.
Tensor eager_value(const LazyNode& node, const std::vector<Tensor>& operands) {
  const char* op = node.is_constant ? "scalar" : element_op_name(node.op);
  Tensor out = empty(op, *node.backend, node.device, node.shape, node.dtype);
  if (node.is_constant) {
    node.backend->full(out, node.constant.value);
    return out;
  }
  std::vector<Tensor> values;
  for (const Tensor& t : operands) {
    const std::shared_ptr<LazyNode>& child = t.lazy_node();
    const std::vector<Tensor> inner = child ? pending_operands(*child) : std::vector<Tensor>();
    const bool pending = !inner.empty() || (child && child->is_constant && !evaluated(*child));
    values.push_back(pending ? eager_value(*child, inner).view(t.shape()) : t);
  }
  host::apply_element_op(*node.backend, node.op, values.at(0), values.size() > 1 ? &values[1] : nullptr, out);
  return out;
}

std::vector<unsigned char> host_bytes(const Tensor& t) {
  std::vector<unsigned char> bytes(t.nbytes());
  if (!bytes.empty()) t.backend().to_host(t, bytes.data());
  return bytes;
}

void verify_against_eager(const LazyNode& node, const FusedProgram& program, const Tensor& fused) {
  const std::vector<unsigned char> want = host_bytes(eager_value(node, node.operands)),
                                   got = host_bytes(fused);
  if (want == got) return;
  std::size_t i = 0;
  while (want[i] == got[i]) ++i;
  throw std::logic_error("ember: EMBER_LAZY_VERIFY: the fused result of " + program.structure() + " on " +
                         node.backend->name() + " differs from eager evaluation at element " +
                         std::to_string(i / fused.itemsize()) + " of " + shape_str(node.shape));
}

}  // namespace

ElementOp element_op_named(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(ElementOp::cast); ++i) {
    const auto op = static_cast<ElementOp>(i);
    if (name == element_op_name(op)) return op;
  }
  throw std::logic_error("ember: no element-wise op named " + std::string(name));
}

bool evaluated(const LazyNode& node) {
  return node.done.load(std::memory_order_acquire);
}

const std::shared_ptr<Buffer>& evaluate(LazyNode& node) {
  if (node.done.load(std::memory_order_acquire)) return node.result;
  std::lock_guard<std::mutex> lock(node.mutex);
  if (node.done.load(std::memory_order_relaxed)) return node.result;
  const char* op = node.is_constant ? "scalar" : element_op_name(node.op);
  Tensor out = empty(op, *node.backend, node.device, node.shape, node.dtype);
  if (node.is_constant) {
    node.backend->full(out, node.constant.value);
  } else {
    ProgramBuilder b;
    b.add_node(node, node.operands);
    // Inputs that are themselves pending (a reshaped pending tensor, say) are evaluated now, on their own.
    for (const Tensor& t : b.program.inputs) t.buffer();
    node.backend->fused_elementwise(b.program, out);
    if (verifies_fusion()) verify_against_eager(node, b.program, out);
  }
  node.result = out.buffer();
  node.operands.clear();  // the graph is no longer needed: release the inputs it kept alive
  node.operands.shrink_to_fit();
  node.done.store(true, std::memory_order_release);
  return node.result;
}

void evaluate_into(LazyNode& node, Tensor& out) {
  std::lock_guard<std::mutex> lock(node.mutex);
  if (node.done.load(std::memory_order_relaxed)) {  // evaluated meanwhile: copy its value
    node.backend->copy(Tensor(node.result, 0, node.shape, node.dtype, node.backend), out);
    return;
  }
  if (node.is_constant) {
    node.backend->full(out, node.constant.value);
    return;
  }
  ProgramBuilder b;
  b.add_node(node, node.operands);
  bool overlaps = false;  // an input shares out's storage other than as the very same view
  for (const Tensor& t : b.program.inputs) {
    t.buffer();
    overlaps = overlaps || (t.buffer() == out.buffer() &&
                            (t.byte_offset() != out.byte_offset() || t.nbytes() != out.nbytes()));
  }
  // The eager bytes first: out may be an input, which the fused evaluation overwrites.
  const std::vector<unsigned char> want =
      verifies_fusion() ? host_bytes(eager_value(node, node.operands)) : std::vector<unsigned char>();
  if (overlaps) {
    Tensor temp = empty("eval_into", *node.backend, node.device, node.shape, node.dtype);
    node.backend->fused_elementwise(b.program, temp);
    node.backend->copy(temp, out);
  } else {
    node.backend->fused_elementwise(b.program, out);
  }
  if (verifies_fusion() && host_bytes(out) != want) {
    throw std::logic_error("ember: EMBER_LAZY_VERIFY: eval_into's result of " + b.program.structure() +
                           " on " + node.backend->name() + " differs from eager evaluation");
  }
}

bool may_defer(const Shape& shape) {
  if (is_eager()) return false;
  const std::int64_t n = shape_numel(shape);
  return n > 0 && n >= fusion_min_elements();
}

std::optional<Tensor> defer(const char* op, DType dtype, const Shape& shape,
                            std::initializer_list<const Tensor*> operands) {
  if (!may_defer(shape)) return std::nullopt;
  return defer(element_op_named(op), dtype, shape, operands);
}

std::optional<Tensor> defer(ElementOp op, DType dtype, const Shape& shape,
                            std::initializer_list<const Tensor*> operand_list) {
  if (!may_defer(shape) || operand_list.size() == 0) return std::nullopt;
  const Tensor& first = **operand_list.begin();
  Backend& backend = first.backend();
  const Device device = first.device();
  if (!backend.fuses(op, dtype, first.dtype(), device)) return std::nullopt;
  std::vector<Tensor> operands;
  operands.reserve(operand_list.size());
  for (const Tensor* t : operand_list) operands.push_back(*t);

  auto node = std::make_shared<LazyNode>();
  node->op = op;
  node->dtype = dtype;
  node->shape = shape;
  node->backend = &backend;
  node->device = device;
  // Evaluate the largest pending operand until the program under the new node fits the caps.
  for (;;) {
    ProgramBuilder b;
    b.add_node(*node, operands);
    if (within_caps(b)) break;
    const Tensor* largest = largest_pending(operands);
    if (largest == nullptr) break;  // only inputs and constants left: at most two of them, always within caps
    largest->buffer();
  }
  node->operands = std::move(operands);
  return Tensor(std::move(node), shape, dtype, &backend, device);
}

std::optional<Tensor> defer_constant(Backend& backend, Device device, Scalar value, DType dtype) {
  if (is_eager()) return std::nullopt;
  auto node = std::make_shared<LazyNode>();
  node->is_constant = true;
  node->constant = FusedConstant{value, dtype};
  node->dtype = dtype;
  node->backend = &backend;
  node->device = device;
  return Tensor(std::move(node), Shape{}, dtype, &backend, device);
}

}  // namespace ember::detail
