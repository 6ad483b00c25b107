// cpu: every op but LayerNorm, whose run_cpu is the header's inline throw (the composite runs instead).
#include "quill/ops.hpp"

namespace quill {

bool Composite::prefers_composite(int device) { return device == 0; }

void Add::run_cpu(const Tensors& in, Tensor& out) {
  out = in[0];
  for (std::size_t i = 0; i < out.values.size(); ++i) out.values[i] += in[1].values[i];
}

void Mul::run_cpu(const Tensors& in, Tensor& out) {
  out = in[0];
  for (std::size_t i = 0; i < out.values.size(); ++i) out.values[i] *= in[1].values[i];
}

void Sort::run_cpu(const Tensors& in, Tensor& out) { out = in[0]; }

void Attention::run_cpu(const Tensors& in, Tensor& out) { out = in[0]; }

}  // namespace quill
