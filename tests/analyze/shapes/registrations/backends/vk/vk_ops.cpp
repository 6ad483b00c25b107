#include "forge/backend.hpp"

namespace forge {

class VkBackend {
 public:
  void addCreator(OpType type, Creator* creator);
};

class VkAdd : public Execution {
 public:
  int run() override { return 1; }
};

class VkAddCreator : public Creator {
 public:
  Execution* onCreate(const Op&) const override { return new VkAdd; }
};

// The host computes it.
class VkMulCreator : public Creator {
 public:
  Execution* onCreate(const Op& op) const override { return host::make(op); }
};

class VkUnaryCreator : public Creator {
 public:
  Execution* onCreate(const Op&) const override { return new VkAdd; }
};

void register_vk_ops(VkBackend* backend, int first_unary, int last_unary) {
  backend->addCreator(OpType_Add, new VkAddCreator);
  backend->addCreator(OpType_Mul, new VkMulCreator);
  for (int t = first_unary; t <= last_unary; ++t) backend->addCreator(static_cast<OpType>(t), new VkUnaryCreator);
}

}  // namespace forge
