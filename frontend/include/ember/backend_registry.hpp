// Registering backends. ember's own backends register themselves on first use of the registry
// (backends/builtin.cpp); applications may add theirs with register_backend.
#pragma once

#include <memory>

#include "ember/backend.hpp"

namespace ember {

// Adds `backend` under backend->name(); BackendError if that name is taken.
void register_backend(std::unique_ptr<Backend> backend);

namespace detail {
// Defined next to the backends (backends/builtin.cpp): registers every backend compiled in.
void register_builtin_backends();
}  // namespace detail

}  // namespace ember
