// EL403 stub-op: an implementation that only throws "not implemented".
#include "rules/el4_inventory.hpp"

namespace emberlint {

const RuleInfo& stub_op_info() {
  static const RuleInfo info{
      "EL403",           "stub-op", "inventory",
      Severity::warning, false,     "an implementation that only throws \"not implemented\"",
      R"(## What it does
Flags an op implementation whose body, apart from empty statements and `(void)x;` discards, is nothing but
`throw` statements, or that unconditionally throws an error saying the op is "not implemented",
"unimplemented", "not yet implemented" or "not supported".

## Why is this bad?
The op compiles, links and shows up as implemented, and fails only when a user calls it. The inventory would
lie; a missing op should be visible, and a backend that cannot compute an op should delegate explicitly.

## Example
```cpp
void OpenCLBackend::cumsum(const Tensor&, int, Tensor&) {
  throw BackendError("opencl: cumsum is not implemented yet");
}
```

## Use instead
Implement the op natively, or as an explicit fallback: a composite of other ops, the host, or another
backend (mark a hand-written delegation with a `// emberlint-fallback: <why>` comment on the definition).
)"};
  return info;
}

void check_stub_op(const analyze::Inventory& inv, std::vector<Diagnostic>& out) {
  const RuleInfo& info = stub_op_info();
  for (std::size_t o = 0; o < inv.ops.size(); ++o) {
    for (std::size_t b = 0; b < inv.backends.size(); ++b) {
      const analyze::Cell& cell = inv.cells[o][b];
      // A backend of stubs by design (ops_interface.roles): its stubs are what it is for.
      if (cell.status != analyze::Status::stub || inv.backends[b].role == "stubs") continue;
      out.push_back(inventory_diagnostic(info, cell.defined,
                                         "backend '" + inv.backends[b].name + "' implements op '" +
                                             inv.ops[o].id + "' as a stub: it " + cell.reason));
    }
  }
}

}  // namespace emberlint
