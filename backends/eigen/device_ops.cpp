// PLACEHOLDER: replaced by the real device ops.
#include "eigen_backend.hpp"

namespace ember::eigen {

bool EigenBackend::is_available() { throw BackendError("eigen: is_available pending"); }
std::vector<Device> EigenBackend::devices() { throw BackendError("eigen: devices pending"); }
std::shared_ptr<Buffer> EigenBackend::allocate(std::size_t /*nbytes*/, Device /*device*/) { throw BackendError("eigen: allocate pending"); }
void EigenBackend::to_device(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: to_device pending"); }
void EigenBackend::synchronize(Device /*device*/) { throw BackendError("eigen: synchronize pending"); }
MemoryInfo EigenBackend::memory_info(Device /*device*/) { throw BackendError("eigen: memory_info pending"); }

}  // namespace ember::eigen
