// Registers every backend compiled into this build. Lives beside the backends so that the frontend never
// names a backend: the frontend only declares detail::register_builtin_backends().
#include "ember/backend_registry.hpp"

#ifdef EMBER_HAVE_EIGEN
#include "eigen/eigen_backend.hpp"
#endif

namespace ember::detail {

void register_builtin_backends() {
#ifdef EMBER_HAVE_EIGEN
  register_backend(eigen::make_backend());
#endif
}

}  // namespace ember::detail
