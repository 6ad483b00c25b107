// Registers every backend compiled into this build. Lives beside the backends so that the frontend never
// names a backend: the frontend only declares detail::register_builtin_backends().
#include "ember/backend_registry.hpp"

#ifdef EMBER_HAVE_EIGEN
#include "eigen/eigen_backend.hpp"
#endif
#ifdef EMBER_HAVE_BLAS
#include "blas/blas_backend.hpp"
#endif
#ifdef EMBER_HAVE_OPENCL
#include "opencl/opencl_backend.hpp"
#endif

namespace ember::detail {

void register_builtin_backends() {
#ifdef EMBER_HAVE_EIGEN
  register_backend(eigen::make_backend());
#endif
#ifdef EMBER_HAVE_BLAS
  register_backend(blas::make_backend());
#endif
#ifdef EMBER_HAVE_OPENCL
  register_backend(opencl::make_backend());
#endif
}

}  // namespace ember::detail
