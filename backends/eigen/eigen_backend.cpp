// The Eigen backend's factory. Its allocator is created on first use (EigenBackend::allocator()).
#include "eigen_backend.hpp"

namespace ember::eigen {

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<EigenBackend>();
}

}  // namespace ember::eigen
