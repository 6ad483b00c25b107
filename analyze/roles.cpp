#include "analyze/roles.hpp"

namespace emberlint::analyze {

void apply_backend_roles(const OpsConfig& ops, Inventory& inv) {
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    auto it = ops.roles.find(inv.backends[b].name);
    if (it == ops.roles.end()) continue;
    inv.backends[b].role = it->second;
    if (it->second != "fallback") continue;
    for (auto& row : inv.cells) {
      Cell& cell = row[b];
      if (cell.status != Status::stub) continue;
      cell.status = Status::fallback;
      cell.reason = "declines the op (it " + cell.reason +
                    "); the caller runs it elsewhere (ops_interface.roles." + inv.backends[b].name +
                    ": \"fallback\")";
    }
  }
}

}  // namespace emberlint::analyze
