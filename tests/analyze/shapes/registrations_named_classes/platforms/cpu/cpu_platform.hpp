// The portable platform (plain C++): plain loops for every kernel.
#pragma once

#include "loom/kernels.hpp"

namespace loom::cpu {

// Its matrix product, which other platforms build on for the rows their own kernels leave over.
class CpuMatMul : public MatMulKernel {
 public:
  void run(const float* in, float* out, int n) override {
    for (int i = 0; i < n; ++i) out[i] = in[i] * in[i];
  }
};

class CpuPlatform : public Platform {
 public:
  CpuPlatform();
};

}  // namespace loom::cpu
