#include "forge/backend.hpp"

namespace forge {

class NpuKernel : public Execution {
 public:
  int run() override { return 3; }
};

Execution* npu_add(const Op&) { return new NpuKernel; }
Execution* npu_diag(const Op&) { return nullptr; }

using MakeExecution = Execution* (*)(const Op&);
struct NpuEntry {
  OpType type;
  MakeExecution make;
};

static const NpuEntry kNpuOps[] = {
    {OpType_Add, &npu_add},
    {OpType_Diag, npu_diag},
    {OpType_Diag_MaskInf, &npu_add},
};

}  // namespace forge
