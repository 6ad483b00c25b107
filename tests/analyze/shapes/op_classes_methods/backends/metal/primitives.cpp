#include "kiln/primitives.hpp"

namespace kiln {

void Negate::eval_device(const std::vector<Array>& inputs, Array& out) {
  out.data = inputs[0].data;
  for (float& x : out.data) x = 0.0f - x;
}

// No kernel yet: the host evaluation runs on the device's data.
void Exp::eval_device(const std::vector<Array>& inputs, Array& out) {
  host::run(*this, inputs, out);
}

void Reduce::eval_device(const std::vector<Array>& inputs, Array& out) {
  float sum = 0;
  for (float x : inputs[0].data) sum += x;
  out.data.assign(1, sum);
}

}  // namespace kiln
