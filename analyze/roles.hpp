// Backend roles (ops_interface.roles): what a backend is by design, applied to the matrix after the model
// built it, whatever the model.
#pragma once

#include "analyze/inventory.hpp"
#include "analyze/ops_config.hpp"

namespace emberlint::analyze {

// Marks each backend with its role. A "stubs" backend (every op throws by design: MLX's no_gpu) keeps its
// stub cells, which EL403 then leaves alone (the reports give one summary line for it instead); a
// "fallback" backend's stub cells (ops it declines: a creator that returns null, a predicate that says no)
// are fallback, since the caller runs them elsewhere.
void apply_backend_roles(const OpsConfig& ops, Inventory& inv);

}  // namespace emberlint::analyze
