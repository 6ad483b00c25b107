// Lazy evaluation: element-wise ops build an expression graph that runs as one fused kernel.
//
// With lazy evaluation on (the default), the element-wise arithmetic and transcendental ops of
// ember/ops/math.hpp (add ... maximum, negative ... round), their scalar operands and casts do not compute:
// they return a pending tensor (Tensor::pending()) that records the op. Shape and dtype errors are still
// thrown at once. The graph is evaluated, as one FusedProgram through the backend's fused_elementwise, when
// a value is needed:
//   - any op that is not fused (matmul, reductions, comparisons, to_host, item, ...) reads its operands;
//   - ember::eval(x);
//   - the graph reaches a size cap (kMaxFusedHeight ops deep, kMaxFusedInputs tensor inputs,
//     kMaxFusedConstants scalars or kMaxFusedSteps ops): the operand that would overflow it is evaluated
//     first and becomes an input.
// An evaluated result is kept and shared by every copy of the tensor; the graph behind it is released.
// Results are bit-identical to eager evaluation on every backend: each step runs the backend's own op
// semantics and rounds to its dtype. What fusion saves is the temporaries: a chain of N ops allocates only
// its output, and reads and writes memory once instead of N times.
//
// Small results are not deferred: a deferred op costs about a microsecond of graph bookkeeping, more than
// computing a few thousand elements, and fusion saves nothing there. Ops whose result has fewer than
// fusion_min_elements() elements (initially kFusionMinElements, or EMBER_FUSION_MIN_ELEMENTS in the
// environment) run eagerly.
//
// Eager evaluation (one backend call per op, as before) is for debugging and for measuring: set
// EMBER_EAGER=1 in the environment, call ember::set_eager(true), or hold an ember::EagerScope.
// A deferred op whose backend fails (out of memory, a device error) throws when the value is evaluated.
#pragma once

#include <cstdint>

#include "ember/tensor.hpp"

namespace ember {

inline constexpr int kMaxFusedHeight = 32;
inline constexpr int kMaxFusedInputs = 8;
inline constexpr int kMaxFusedConstants = 8;
inline constexpr int kMaxFusedSteps = 64;
inline constexpr std::int64_t kFusionMinElements = 4096;

// x with its value computed: evaluates a pending tensor (the result shares x's storage from then on) and
// returns it; any other tensor is returned as it is.
Tensor eval(const Tensor& x);

// Writes x's value into out's storage (NumPy's out=) and returns out; x and out have the same shape, dtype,
// backend and device (ShapeError, DTypeError, BackendError, DeviceError). A pending x (an element-wise
// expression) is evaluated straight into out, so no result buffer is allocated, and out may be one of the
// expression's inputs (in place: eval_into(ops::add(ops::multiply(a, 2.0), b), a)); x itself stays pending.
// Any other x (evaluated, eager, or below fusion_min_elements) is copied. out's storage is overwritten: the
// tensors sharing it (copies, views, and pending results that read it) see the new values, so evaluate
// those first.
Tensor eval_into(const Tensor& x, const Tensor& out);

// Whether ops on this thread are evaluated eagerly: inside an EagerScope, else the process setting
// (set_eager, initially EMBER_EAGER=1 in the environment).
bool is_eager();
// The process-wide setting, for threads outside any EagerScope.
void set_eager(bool eager);

std::int64_t fusion_min_elements();
void set_fusion_min_elements(std::int64_t elements);

// Checking mode, for test suites: every fused evaluation is also computed eagerly and compared byte for
// byte; a difference throws std::logic_error naming the program. Initially EMBER_LAZY_VERIFY=1 in the
// environment. Costs the eager evaluation's time and memory on top.
bool verifies_fusion();
void set_verify_fusion(bool verify);

// Ops on this thread are evaluated eagerly while the scope lives (scopes nest).
class EagerScope {
 public:
  EagerScope();
  ~EagerScope();
  EagerScope(const EagerScope&) = delete;
  EagerScope& operator=(const EagerScope&) = delete;
};

}  // namespace ember
