#include <stdexcept>

#include "host/host_backend.hpp"

namespace forge {

class HostElementwise : public Execution {
 public:
  int run() override { return 0; }
};

class HostAddCreator : public Creator {
 public:
  Execution* onCreate(const Op&) const override { return new HostElementwise; }
};
REGISTER_HOST_OP_CREATOR(HostAddCreator, OpType_Add);

// Registered, but it makes nothing: the host has no subtraction yet.
class HostSubCreator : public Creator {
 public:
  Execution* onCreate(const Op&) const override { return nullptr; }
};
REGISTER_HOST_OP_CREATOR(HostSubCreator, OpType_Sub);

class HostConvCreator : public Creator {
 public:
  Execution* onCreate(const Op&) const override;
};
Execution* HostConvCreator::onCreate(const Op&) const {
  throw std::runtime_error("Conv: not implemented on the host");
}
REGISTER_HOST_OP_CREATOR(HostConvCreator, forge::OpType_Conv);

// Declines some arities (a conditional null is no stub).
class HostReluCreator : public Creator {
 public:
  Execution* onCreate(const Op& op) const override {
    if (op.arity != 1) return nullptr;
    return new HostElementwise;
  }
};
REGISTER_HOST_OP_CREATOR(HostReluCreator, OpType_Relu);

class HostDiagCreator : public Creator {
 public:
  Execution* onCreate(const Op&) const override { return new HostElementwise; }
};

void register_host_extras() {
  HostBackend::addCreator(OpType_Diag, new HostDiagCreator);
}

}  // namespace forge
