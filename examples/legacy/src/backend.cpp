#include "legacy/backend.hpp"

#include <stdexcept>

namespace legacy {

namespace {
std::string& selected() {
  static std::string name = "eigen";
  return name;
}
}  // namespace

void set_backend(const std::string& name) {
  if (name != "eigen" && name != "blas" && name != "opencl")
    throw std::invalid_argument("unknown backend '" + name + "' (eigen, blas or opencl)");
  selected() = name;
}

const std::string& current_backend() {
  return selected();
}

}  // namespace legacy
