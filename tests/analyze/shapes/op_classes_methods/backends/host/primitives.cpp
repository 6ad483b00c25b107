#include <cmath>
#include <stdexcept>

#include "kiln/primitives.hpp"

namespace kiln {

void Negate::eval_host(const std::vector<Array>& inputs, Array& out) {
  out.data = inputs[0].data;
  for (float& x : out.data) x = -x;
}

void Exp::eval_host(const std::vector<Array>& inputs, Array& out) {
  out.data = inputs[0].data;
  for (float& x : out.data) x = std::exp(x);
}

void Add::eval_host(const std::vector<Array>& inputs, Array& out) {
  out.data = inputs[0].data;
  for (std::size_t i = 0; i < out.data.size(); ++i) out.data[i] += inputs[1].data[i];
}

void Reduce::eval_host(const std::vector<Array>& inputs, Array& out) {
  float sum = 0;
  for (float x : inputs[0].data) sum += x;
  out.data = {axis_ >= 0 ? sum : -sum};
}

void Sort::eval_host(const std::vector<Array>&, Array&) {
  throw std::runtime_error("Sort::eval_host is not implemented yet");
}

void host::run(Primitive& p, const std::vector<Array>& inputs, Array& out) {
  p.eval_host(inputs, out);
}

}  // namespace kiln
