#include <stdexcept>

#include "forge/backend.hpp"

namespace forge {

class CudaBackend {
 public:
  static void addCreator(OpType type, Creator* creator);
};

template <class T>
class CudaCreatorRegistrar {
 public:
  explicit CudaCreatorRegistrar(OpType type) { CudaBackend::addCreator(type, new T); }
};

class CudaConv : public Execution {
 public:
  int run() override { return 2; }
};

class CudaConvCreator : public Creator {
 public:
  Execution* onCreate(const Op&) const override { return new CudaConv; }
};

class CudaSoftmaxCreator : public Creator {
 public:
  Execution* onCreate(const Op&) const override { throw std::logic_error("Softmax is not supported on CUDA"); }
};

static CudaCreatorRegistrar<CudaConvCreator> g_conv(OpType_Conv);
static CudaCreatorRegistrar<CudaSoftmaxCreator> g_softmax(OpType_Softmax);

}  // namespace forge
