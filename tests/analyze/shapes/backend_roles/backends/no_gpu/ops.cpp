// The build without a GPU: every run_gpu throws, by design, written by one macro.
#include <stdexcept>

#include "quill/ops.hpp"

#define QUILL_NO_GPU(op) \
  void op::run_gpu(const Tensors&, Tensor&) { throw std::runtime_error(#op " is not available without a GPU"); }

namespace quill {

bool Composite::prefers_composite(int) { return true; }

QUILL_NO_GPU(Add)
QUILL_NO_GPU(Mul)
QUILL_NO_GPU(Sort)
QUILL_NO_GPU(LayerNorm)
QUILL_NO_GPU(Attention)

}  // namespace quill
