// EL401 signature-mismatch: a backend implementation whose parameters, return type or defaults differ from
// the interface.
#include "rules/el4_inventory.hpp"

namespace emberlint {

const RuleInfo& signature_mismatch_info() {
  static const RuleInfo info{
      "EL401",
      "signature-mismatch",
      "inventory",
      Severity::warning,
      false,
      "a backend implementation whose parameters, return type or defaults differ from the "
      "interface",
      R"(## What it does
Compares each backend implementation with the op the interface declares: the return type, every parameter
type (canonical, so aliases do not matter), const-ness, and default arguments. An override that changes a
default, or a same-named method or function that does not match the declared op, is flagged with what differs.

## Why is this bad?
Default arguments of a virtual call come from the static type: `backend.sum(x)` through the interface and
through the backend class silently use different values. A free function with other parameter types is never
called by the frontend's dispatch, so the backend effectively lacks the op.

## Example
```cpp
// interface: virtual void var(const Tensor& x, const std::vector<int>& axes, double ddof = 0, Tensor& out)
void var(const Tensor& x, const std::vector<int>& axes, double ddof = 1, Tensor& out) override;
```

## Use instead
Declare the implementation exactly as the interface does (same types, same defaults, or none).
)"};
  return info;
}

void check_signature_mismatch(const analyze::Inventory& inv, std::vector<Diagnostic>& out) {
  const RuleInfo& info = signature_mismatch_info();
  for (std::size_t o = 0; o < inv.ops.size(); ++o) {
    for (std::size_t b = 0; b < inv.backends.size(); ++b) {
      const analyze::Cell& cell = inv.cells[o][b];
      if (cell.mismatches.empty()) continue;
      std::string what;
      for (const auto& m : cell.mismatches) what += (what.empty() ? "" : "; ") + m;
      out.push_back(inventory_diagnostic(info, cell.declared.file.empty() ? cell.defined : cell.declared,
                                         "backend '" + inv.backends[b].name + "' implements op '" +
                                             inv.ops[o].id + "' with a different signature: " + what +
                                             "; interface: " + inv.ops[o].signature.render(inv.ops[o].name)));
    }
  }
}

}  // namespace emberlint
