// Device code shared by the metal and vulkan backends (both list this folder).
#include "kiln/primitives.hpp"

namespace kiln {

void Add::eval_device(const std::vector<Array>& inputs, Array& out) {
  out.data.resize(inputs[0].data.size());
  for (std::size_t i = 0; i < out.data.size(); ++i) out.data[i] = inputs[0].data[i] + inputs[1].data[i];
}

}  // namespace kiln
