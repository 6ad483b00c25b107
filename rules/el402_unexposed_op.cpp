// EL402 unexposed-op: a public backend operation that the frontend interface does not declare.
#include "rules/el4_inventory.hpp"

namespace emberlint {

const RuleInfo& unexposed_op_info() {
  static const RuleInfo info{
      "EL402",           "unexposed-op", "inventory",
      Severity::warning, false,          "a backend operation that the frontend interface does not declare",
      R"(## What it does
Flags a public method of a backend class (constructors, destructors and operators aside) or an external
function of a backend that is no op of the interface and overrides nothing the interface declares.

## Why is this bad?
The frontend can only reach a backend through the interface, so such an operation is either dead code or
reached by casting to the backend type, which ties callers to one backend. Either it is an op the interface
forgot, or it is a helper that should be private.

## Example
```cpp
class EigenBackend final : public ember::Backend {
 public:
  void fused_gemm(const Tensor& a, const Tensor& b, Tensor& out);  // no op of ember::Backend
};
```

## Use instead
Add the op to the interface (and to every backend), or make the helper private / give it internal linkage.
)"};
  return info;
}

void check_unexposed_op(const analyze::Inventory& inv, std::vector<Diagnostic>& out) {
  const RuleInfo& info = unexposed_op_info();
  for (const auto& u : inv.unexposed) {
    out.push_back(inventory_diagnostic(info, u.declared,
                                       "backend '" + u.backend + "' exposes '" + u.signature + "', which " +
                                           inv.interface_name + " does not declare"));
  }
}

}  // namespace emberlint
