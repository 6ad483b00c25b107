// host::run_fused (host/fused.hpp): block-wise evaluation of a FusedProgram through the backend's own
// element-wise methods.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "ember/ops/dtype.hpp"
#include "host/fused.hpp"
#include "host/parallel.hpp"
#include "host/strided_index.hpp"
#include "host/vector_kernels.hpp"

namespace ember::host {

namespace {
using BinaryMethod = void (MathOps::*)(const Tensor&, const Tensor&, Tensor&);
using UnaryMethod = void (MathOps::*)(const Tensor&, Tensor&);

BinaryMethod binary_method(ElementOp op) {
  switch (op) {
    case ElementOp::add:
      return &MathOps::add;
    case ElementOp::subtract:
      return &MathOps::subtract;
    case ElementOp::multiply:
      return &MathOps::multiply;
    case ElementOp::divide:
      return &MathOps::divide;
    case ElementOp::floor_divide:
      return &MathOps::floor_divide;
    case ElementOp::mod:
      return &MathOps::mod;
    case ElementOp::power:
      return &MathOps::power;
    case ElementOp::minimum:
      return &MathOps::minimum;
    case ElementOp::maximum:
      return &MathOps::maximum;
    default:
      return nullptr;
  }
}

UnaryMethod unary_method(ElementOp op) {
  switch (op) {
    case ElementOp::negative:
      return &MathOps::negative;
    case ElementOp::abs:
      return &MathOps::abs;
    case ElementOp::sign:
      return &MathOps::sign;
    case ElementOp::square:
      return &MathOps::square;
    case ElementOp::sqrt:
      return &MathOps::sqrt;
    case ElementOp::exp:
      return &MathOps::exp;
    case ElementOp::expm1:
      return &MathOps::expm1;
    case ElementOp::log:
      return &MathOps::log;
    case ElementOp::log1p:
      return &MathOps::log1p;
    case ElementOp::log2:
      return &MathOps::log2;
    case ElementOp::log10:
      return &MathOps::log10;
    case ElementOp::sin:
      return &MathOps::sin;
    case ElementOp::cos:
      return &MathOps::cos;
    case ElementOp::tan:
      return &MathOps::tan;
    case ElementOp::sinh:
      return &MathOps::sinh;
    case ElementOp::cosh:
      return &MathOps::cosh;
    case ElementOp::tanh:
      return &MathOps::tanh;
    case ElementOp::floor:
      return &MathOps::floor;
    case ElementOp::ceil:
      return &MathOps::ceil;
    case ElementOp::round:
      return &MathOps::round;
    default:
      return nullptr;
  }
}

}  // namespace

void apply_element_op(Backend& backend, ElementOp op, const Tensor& a, const Tensor* b, Tensor& out) {
  if (op == ElementOp::cast) {
    backend.cast(a, out);
  } else if (BinaryMethod m = binary_method(op)) {
    (backend.*m)(a, *b, out);
  } else if (UnaryMethod u = unary_method(op)) {
    (backend.*u)(a, out);
  } else {
    throw std::logic_error("apply_element_op: unknown element-wise op");
  }
}

namespace {

// Host memory for block intermediates and gathered inputs: not a tensor allocation of any backend.
class ScratchBuffer final : public Buffer {
 public:
  explicit ScratchBuffer(std::size_t nbytes)
      : Buffer(nbytes, Device::cpu()), bytes_(std::make_unique<unsigned char[]>(nbytes == 0 ? 1 : nbytes)) {}
  void* host_data() override { return bytes_.get(); }

 private:
  std::unique_ptr<unsigned char[]> bytes_;
};

// Copies elements [start, start + len) of `in` broadcast to `shape` into dst (elements of `size` bytes).
void gather(const Tensor& in, const Shape& shape, const Shape& strides, std::int64_t start, std::int64_t len,
            unsigned char* dst) {
  const std::size_t size = in.itemsize();
  const auto* src = static_cast<const unsigned char*>(in.raw_data());
  const std::size_t nd = shape.size();
  if (nd == 0) {
    for (std::int64_t i = 0; i < len; ++i) std::memcpy(dst + static_cast<std::size_t>(i) * size, src, size);
    return;
  }
  std::vector<std::int64_t> idx(nd, 0);
  std::int64_t offset = 0, rest = start;
  for (std::size_t d = nd; d-- > 0;) {
    idx[d] = rest % shape[d];
    rest /= shape[d];
    offset += idx[d] * strides[d];
  }
  // Runs along the innermost axis: one memcpy when it is contiguous, one element repeated when broadcast.
  const std::size_t last = nd - 1;
  const std::int64_t inner = shape[last], inner_stride = strides[last];
  for (std::int64_t i = 0; i < len;) {
    const std::int64_t run = std::min(len - i, inner - idx[last]);
    unsigned char* d = dst + static_cast<std::size_t>(i) * size;
    const unsigned char* s = src + static_cast<std::size_t>(offset) * size;
    if (inner_stride == 1) {
      std::memcpy(d, s, static_cast<std::size_t>(run) * size);
    } else {
      for (std::int64_t j = 0; j < run; ++j) {
        std::memcpy(d + static_cast<std::size_t>(j) * size,
                    s + static_cast<std::ptrdiff_t>(j * inner_stride) * static_cast<std::ptrdiff_t>(size),
                    size);
      }
    }
    i += run;
    idx[last] += run;
    offset += run * inner_stride;
    if (idx[last] < inner) continue;
    offset -= inner_stride * inner;
    idx[last] = 0;
    next_index(idx, offset, last, shape, strides);
  }
}

// What every block needs, prepared once per evaluation.
struct Plan {
  const FusedProgram* program = nullptr;
  Backend* backend = nullptr;
  std::int64_t n = 0;
  std::vector<bool> scalar_step;                  // all operands scalars: computed once, held in step_value
  std::vector<std::optional<Tensor>> step_value;  // 0-d results of scalar steps
  std::vector<Tensor> constant_value;             // 0-d tensors filled by the backend's full()
  std::vector<std::optional<Tensor>>
      scalar_input;  // size-1 inputs viewed as 0-d; unset entries are not scalar
  std::vector<bool> input_is_scalar, input_is_full;
  std::vector<Shape> input_strides;  // broadcast strides of the other inputs
  std::vector<int> step_slot;        // scratch slot of each block step (-1: scalar or the result)
  int slots = 0;
};

bool ref_is_scalar(const Plan& p, const FusedRef& r) {
  switch (r.kind) {
    case FusedRef::Kind::constant:
      return true;
    case FusedRef::Kind::input:
      return p.input_is_scalar[r.index];
    case FusedRef::Kind::step:
      return p.scalar_step[r.index];
  }
  return false;
}

Tensor scratch_tensor(const std::shared_ptr<Buffer>& buffer, const Shape& shape, DType dtype,
                      Backend& backend) {
  return Tensor(buffer, 0, shape, dtype, &backend);
}

Plan make_plan(Backend& backend, const FusedProgram& program, const Tensor& out) {
  Plan p;
  p.program = &program;
  p.backend = &backend;
  p.n = out.size();
  const std::size_t ni = program.inputs.size(), ns = program.steps.size();
  p.input_is_scalar.resize(ni);
  p.input_is_full.resize(ni);
  p.input_strides.resize(ni);
  p.scalar_input.resize(ni);
  for (std::size_t i = 0; i < ni; ++i) {
    const Tensor& in = program.inputs[i];
    p.input_is_scalar[i] = in.size() == 1;
    p.input_is_full[i] = !p.input_is_scalar[i] && in.size() == p.n;
    if (p.input_is_scalar[i]) p.scalar_input[i] = in.view(Shape{});
    if (!p.input_is_scalar[i] && !p.input_is_full[i])
      p.input_strides[i] = broadcast_strides(in.shape(), out.shape());
  }
  for (const FusedConstant& c : program.constants) {
    Tensor t =
        scratch_tensor(std::make_shared<ScratchBuffer>(ops::itemsize(c.dtype)), Shape{}, c.dtype, backend);
    backend.full(t, c.value);
    p.constant_value.push_back(t);
  }
  p.scalar_step.resize(ns);
  p.step_value.resize(ns);
  // Scalar steps, once.
  for (std::size_t s = 0; s < ns; ++s) {
    const FusedStep& step = program.steps[s];
    const bool binary = element_op_arity(step.op) == 2;
    p.scalar_step[s] = ref_is_scalar(p, step.a) && (!binary || ref_is_scalar(p, step.b));
  }
  // Block steps: a scratch slot each (reused once its last reader has run; never the slot of an operand).
  std::vector<std::size_t> last_use(ns, 0);
  for (std::size_t s = 0; s < ns; ++s) {
    const FusedStep& step = program.steps[s];
    if (step.a.kind == FusedRef::Kind::step) last_use[step.a.index] = s;
    if (element_op_arity(step.op) == 2 && step.b.kind == FusedRef::Kind::step) last_use[step.b.index] = s;
  }
  p.step_slot.assign(ns, -1);
  std::vector<int> free_slots;
  for (std::size_t s = 0; s + 1 < ns; ++s) {
    if (p.scalar_step[s]) continue;
    if (free_slots.empty()) {
      p.step_slot[s] = p.slots++;
    } else {
      p.step_slot[s] = free_slots.back();
      free_slots.pop_back();
    }
    for (std::size_t t = 0; t < s; ++t) {
      if (p.step_slot[t] >= 0 && last_use[t] == s) free_slots.push_back(p.step_slot[t]);
    }
  }
  return p;
}

// Runs the scalar steps (before any block); the result step writes into out when it is scalar itself.
void run_scalar_steps(Plan& p, Tensor& out) {
  const FusedProgram& program = *p.program;
  const std::size_t ns = program.steps.size();
  for (std::size_t s = 0; s < ns; ++s) {
    if (!p.scalar_step[s]) continue;
    const FusedStep& step = program.steps[s];
    auto operand = [&](const FusedRef& r) -> Tensor {
      switch (r.kind) {
        case FusedRef::Kind::constant:
          return p.constant_value[r.index];
        case FusedRef::Kind::input:
          return *p.scalar_input[r.index];
        case FusedRef::Kind::step:
          return *p.step_value[r.index];
      }
      throw std::logic_error("run_fused: bad operand");
    };
    Tensor result = s + 1 == ns ? out.view(Shape{})
                                : scratch_tensor(std::make_shared<ScratchBuffer>(ops::itemsize(step.dtype)),
                                                 Shape{}, step.dtype, *p.backend);
    const Tensor a = operand(step.a);
    std::optional<Tensor> b;
    if (element_op_arity(step.op) == 2) b = operand(step.b);
    apply_element_op(*p.backend, step.op, a, b ? &*b : nullptr, result);
    p.step_value[s] = result;
  }
}

// Blocks [first, last) of the output, with this thread's scratch.
void run_blocks(const Plan& p, Tensor& out, std::int64_t first, std::int64_t last) {
  const FusedProgram& program = *p.program;
  Backend& backend = *p.backend;
  const std::size_t ni = program.inputs.size(), ns = program.steps.size();
  constexpr std::size_t kMaxItem = 8;
  std::vector<std::shared_ptr<Buffer>> slot_buffers;
  for (int i = 0; i < p.slots; ++i)
    slot_buffers.push_back(std::make_shared<ScratchBuffer>(kFusedBlock * kMaxItem));
  std::vector<std::shared_ptr<Buffer>> gathered(ni);
  for (std::size_t i = 0; i < ni; ++i) {
    if (!p.input_is_scalar[i] && !p.input_is_full[i])
      gathered[i] = std::make_shared<ScratchBuffer>(kFusedBlock * kMaxItem);
  }
  std::vector<std::optional<Tensor>> inputs(ni), steps(ns);
  for (std::int64_t block = first; block < last; ++block) {
    const std::int64_t start = block * kFusedBlock;
    const std::int64_t len = std::min(kFusedBlock, p.n - start);
    const Shape shape{len};
    for (std::size_t i = 0; i < ni; ++i) {
      const Tensor& in = program.inputs[i];
      if (p.input_is_scalar[i]) {
        inputs[i] = p.scalar_input[i];
      } else if (p.input_is_full[i]) {
        inputs[i] = Tensor(in.buffer(), in.byte_offset() + static_cast<std::size_t>(start) * in.itemsize(),
                           shape, in.dtype(), &backend);
      } else {
        gather(in, out.shape(), p.input_strides[i], start, len,
               static_cast<unsigned char*>(gathered[i]->host_data()));
        inputs[i] = scratch_tensor(gathered[i], shape, in.dtype(), backend);
      }
    }
    auto operand = [&](const FusedRef& r) -> const Tensor& {
      switch (r.kind) {
        case FusedRef::Kind::constant:
          return p.constant_value[r.index];
        case FusedRef::Kind::input:
          return *inputs[r.index];
        case FusedRef::Kind::step:
          return p.scalar_step[r.index] ? *p.step_value[r.index] : *steps[r.index];
      }
      throw std::logic_error("run_fused: bad operand");
    };
    for (std::size_t s = 0; s < ns; ++s) {
      if (p.scalar_step[s]) continue;
      const FusedStep& step = program.steps[s];
      // The last step writes out's block: its stores by out's size (the scratch stays in the cache).
      const std::optional<WholeOutputScope> whole =
          s + 1 == ns
              ? std::optional<WholeOutputScope>(std::in_place, static_cast<std::int64_t>(out.nbytes()))
              : std::nullopt;
      Tensor result =
          s + 1 == ns
              ? Tensor(out.buffer(), out.byte_offset() + static_cast<std::size_t>(start) * out.itemsize(),
                       shape, out.dtype(), &backend)
              : scratch_tensor(slot_buffers[static_cast<std::size_t>(p.step_slot[s])], shape, step.dtype,
                               backend);
      apply_element_op(backend, step.op, operand(step.a),
                       element_op_arity(step.op) == 2 ? &operand(step.b) : nullptr, result);
      steps[s] = std::move(result);
    }
  }
}

}  // namespace

void run_fused(Backend& backend, const FusedProgram& program, Tensor& out) {
  if (out.size() == 0 || program.steps.empty()) return;
  Plan p = make_plan(backend, program, out);
  run_scalar_steps(p, out);
  if (p.scalar_step.back()) return;
  if (program.steps.size() == 1) {
    // One op: the backend's method over whole operands, exactly as eager evaluation calls it, instead of
    // once per block (the per-block calls cost more than a 64K-element add). Large outputs whose inputs are
    // all full-size or scalars are split into one contiguous range per thread (host/parallel.hpp); a
    // broadcast is the method's own, which splits out's rows over the threads (host/loops.hpp) and reads the
    // broadcast operand in place instead of gathering it block by block.
    const FusedStep& step = program.steps[0];
    const auto whole = [&](const FusedRef& r) -> const Tensor& {
      return r.kind == FusedRef::Kind::constant ? p.constant_value[r.index] : program.inputs[r.index];
    };
    const bool binary = element_op_arity(step.op) == 2;
    const auto splittable = [&](const FusedRef& r) {
      return r.kind == FusedRef::Kind::constant || p.input_is_scalar[r.index] || p.input_is_full[r.index];
    };
    if (p.n < kFusedParallelMin || !splittable(step.a) || (binary && !splittable(step.b))) {
      apply_element_op(backend, step.op, whole(step.a), binary ? &whole(step.b) : nullptr, out);
      return;
    }
    const auto range = [&](const Tensor& t, std::int64_t begin, std::int64_t len) {
      return Tensor(t.buffer(), t.byte_offset() + static_cast<std::size_t>(begin) * t.itemsize(), Shape{len},
                    t.dtype(), &backend);
    };
    const auto part = [&](const FusedRef& r, std::int64_t begin, std::int64_t len) {
      if (r.kind == FusedRef::Kind::constant) return p.constant_value[r.index];
      return p.input_is_scalar[r.index] ? *p.scalar_input[r.index] : range(whole(r), begin, len);
    };
    parallel_for(
        p.n,
        [&](std::int64_t begin, std::int64_t end) {
          const WholeOutputScope whole(static_cast<std::int64_t>(out.nbytes()));  // its stores: by out's size
          const Tensor a = part(step.a, begin, end - begin);
          const std::optional<Tensor> b =
              binary ? std::optional<Tensor>(part(step.b, begin, end - begin)) : std::nullopt;
          Tensor o = range(out, begin, end - begin);
          apply_element_op(backend, step.op, a, b ? &*b : nullptr, o);
        },
        kFusedParallelMin, kFusedBlock);
    return;
  }
  // Blocks are independent: large outputs split them over the host threads.
  const std::int64_t blocks = (p.n + kFusedBlock - 1) / kFusedBlock;
  // A program costs several ops an element: every split is worth waking the workers for.
  const std::int64_t min_blocks = (kFusedParallelMin + kFusedBlock - 1) / kFusedBlock;
  parallel_for(
      blocks, [&](std::int64_t first, std::int64_t last) { run_blocks(p, out, first, last); }, min_blocks, 1,
      min_blocks);
}

}  // namespace ember::host
