// Helpers private to backends/blas/: the backend's name for error messages and the shared host loops
// (frontend/src/host/) it builds on.
#pragma once

#include "host/loops.hpp"
#include "host/scalar_semantics.hpp"

namespace ember::blas {

// The name every error message of this backend starts with.
inline constexpr const char* kBackend = "blas";

using host::compute_t;
using host::load;
using host::store;

}  // namespace ember::blas
