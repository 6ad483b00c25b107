// PLACEHOLDER factory until device_ops.cpp defines the allocator.
#include "eigen_backend.hpp"

namespace ember::eigen {

std::unique_ptr<Backend> make_backend() { return std::make_unique<EigenBackend>(); }

}  // namespace ember::eigen
