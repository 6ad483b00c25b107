// The build without a device: every device evaluation throws, written once per op by a macro.
#include <stdexcept>

#include "kiln/primitives.hpp"

#define KILN_NO_DEVICE(op)                                                  \
  void op::eval_device(const std::vector<Array>&, Array&) {                \
    throw std::runtime_error(#op " has no device implementation"); \
  }

namespace kiln {

KILN_NO_DEVICE(Negate)
KILN_NO_DEVICE(Exp)
KILN_NO_DEVICE(Add)
KILN_NO_DEVICE(Reduce)
KILN_NO_DEVICE(Sort)

}  // namespace kiln
