// PLACEHOLDER: replaced by the real tensor ops.
#include "eigen_backend.hpp"

namespace ember::eigen {

void EigenBackend::full(Tensor& /*out*/, Scalar /*value*/) { throw BackendError("eigen: full pending"); }
void EigenBackend::eye(Tensor& /*out*/, std::int64_t /*k*/) { throw BackendError("eigen: eye pending"); }
void EigenBackend::arange(Tensor& /*out*/, double /*start*/, double /*step*/) { throw BackendError("eigen: arange pending"); }
void EigenBackend::linspace(Tensor& /*out*/, double /*start*/, double /*stop*/, bool /*endpoint*/) { throw BackendError("eigen: linspace pending"); }
void EigenBackend::from_data(Tensor& /*out*/, const void* /*host*/) { throw BackendError("eigen: from_data pending"); }
void EigenBackend::to_host(const Tensor& /*x*/, void* /*host*/) { throw BackendError("eigen: to_host pending"); }
void EigenBackend::copy(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: copy pending"); }
void EigenBackend::transpose(const Tensor& /*x*/, const std::vector<int>& /*perm*/, Tensor& /*out*/) { throw BackendError("eigen: transpose pending"); }
void EigenBackend::broadcast_to(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: broadcast_to pending"); }
void EigenBackend::concatenate(const std::vector<Tensor>& /*xs*/, int /*axis*/, Tensor& /*out*/) { throw BackendError("eigen: concatenate pending"); }
void EigenBackend::tile(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: tile pending"); }
void EigenBackend::pad(const Tensor& /*x*/, const std::vector<std::pair<std::int64_t, std::int64_t>>& /*pads*/, PadMode /*mode*/, Scalar /*value*/, Tensor& /*out*/) { throw BackendError("eigen: pad pending"); }
void EigenBackend::slice(const Tensor& /*x*/, const std::vector<std::int64_t>& /*starts*/, const std::vector<std::int64_t>& /*steps*/, Tensor& /*out*/) { throw BackendError("eigen: slice pending"); }
void EigenBackend::gather(const Tensor& /*x*/, const Tensor& /*indices*/, int /*axis*/, Tensor& /*out*/) { throw BackendError("eigen: gather pending"); }
void EigenBackend::scatter_add(const Tensor& /*x*/, const Tensor& /*indices*/, const Tensor& /*updates*/, int /*axis*/, Tensor& /*out*/) { throw BackendError("eigen: scatter_add pending"); }
void EigenBackend::flip(const Tensor& /*x*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: flip pending"); }
void EigenBackend::sort(const Tensor& /*x*/, int /*axis*/, bool /*descending*/, Tensor& /*out*/) { throw BackendError("eigen: sort pending"); }
void EigenBackend::argsort(const Tensor& /*x*/, int /*axis*/, bool /*descending*/, Tensor& /*out*/) { throw BackendError("eigen: argsort pending"); }

}  // namespace ember::eigen
