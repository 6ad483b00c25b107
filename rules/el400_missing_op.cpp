// EL400 missing-op: an op of the frontend interface that a backend does not implement.
#include "rules/el4_inventory.hpp"

namespace emberlint {

const RuleInfo& missing_op_info() {
  static const RuleInfo info{
      "EL400",           "missing-op", "inventory",
      Severity::warning, false,        "an op of the frontend interface that a backend does not implement",
      R"(## What it does
`emberlint analyze` builds the op set from the configured interface (`ops_interface` in `.emberlint.json`)
and flags every op a backend has no implementation of: the backend class does not override it (the
interface's non-pure default runs instead), a declared override is never defined, or, for code bases of free
functions, the backend has no function of that name.

## Why is this bad?
A user who selects that backend gets the interface's default, a link error, or nothing at all. Each backend
implements every op, natively or as an explicit, visible fallback; nothing is silently missing.

## Example
```cpp
class BlasBackend final : public ember::Backend {
  // ... every op but cumsum: MathOps::cumsum's default throws at run time
};
```

## Use instead
```cpp
void BlasBackend::cumsum(const Tensor& x, int axis, Tensor& out) { /* native, or an explicit fallback */ }
```
)"};
  return info;
}

void check_missing_op(const analyze::Inventory& inv, std::vector<Diagnostic>& out) {
  const RuleInfo& info = missing_op_info();
  for (std::size_t o = 0; o < inv.ops.size(); ++o) {
    for (std::size_t b = 0; b < inv.backends.size(); ++b) {
      const analyze::Cell& cell = inv.cells[o][b];
      if (cell.status != analyze::Status::missing) continue;
      // Point at the backend (its class) when there is one, else at the op's declaration.
      analyze::Place at = cell.defined.file.empty() ? inv.ops[o].declared : cell.defined;
      out.push_back(inventory_diagnostic(info, at,
                                         "backend '" + inv.backends[b].name + "' does not implement op '" +
                                             inv.ops[o].id + "' (" + inv.ops[o].category +
                                             "): " + cell.reason));
    }
  }
}

}  // namespace emberlint
