// Backend selection: "eigen" (the default), "blas" or "opencl".
#pragma once

#include <string>

namespace legacy {

void set_backend(const std::string& name);
const std::string& current_backend();

}  // namespace legacy
