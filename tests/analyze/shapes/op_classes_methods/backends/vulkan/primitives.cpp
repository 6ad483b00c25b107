#include "kiln/primitives.hpp"

namespace kiln {

void Negate::eval_device(const std::vector<Array>& inputs, Array& out) {
  out.data.clear();
  for (float x : inputs[0].data) out.data.push_back(-x);
}

}  // namespace kiln
