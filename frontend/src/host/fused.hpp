// The host backends' fused element-wise evaluation (FusionOps::fused_elementwise for eigen and blas).
//
// The program runs over out in blocks of kFusedBlock elements: every step is the backend's own MathOps or
// DTypeOps method applied to block-sized tensors, so each element goes through exactly the code eager
// evaluation runs (bit-identical by construction), but the intermediates live in a few block-sized scratch
// buffers that stay in cache instead of full-size tensors. Steps whose operands are all scalars run once.
// Scratch memory is private to the evaluation and not counted as tensor allocations; out is the only tensor.
// Blocks are independent: large outputs are split over the host threads (host/parallel.hpp).
#pragma once

#include <cstdint>

#include "ember/backend.hpp"

namespace ember::host {

inline constexpr std::int64_t kFusedBlock = 4096;
// Outputs with fewer elements run on the calling thread only.
inline constexpr std::int64_t kFusedParallelMin = std::int64_t{1} << 18;

// Evaluates `program` into out (FusionOps::fused_elementwise for host backends).
void run_fused(Backend& backend, const FusedProgram& program, Tensor& out);

// One step as eager evaluation runs it: the backend's MathOps method named by `op` (b for binary ops only),
// or DTypeOps::cast.
void apply_element_op(Backend& backend, ElementOp op, const Tensor& a, const Tensor* b, Tensor& out);

}  // namespace ember::host
