// EL101 frontend-uses-backend-symbol: frontend code references a declaration a backend owns.
#include "rules/owned_references.hpp"
#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{
    "EL101",
    "frontend-uses-backend-symbol",
    "purity",
    Severity::warning,
    false,
    "frontend code references a declaration that belongs to a backend library or a backend's folder",
    R"(## What it does
Flags every place in a frontend file that refers to a declaration owned by a backend: a type, function,
variable, enumerator or macro declared in a configured library's headers, in a library namespace
(`libraries.<name>.namespaces`), matching a library symbol glob, or declared in a backend's folder. It sees
through the ways such a symbol arrives without being spelled: a transitive include, a macro expansion, a
`using` alias, a typedef, a template argument and the deduced type of an `auto` variable. The diagnostic
points at the spelling in the frontend file (for a macro, where it is expanded). A file's uses of one symbol
are one finding, at the first use, with the number of uses and their lines.

Uses that need only a declaration, nothing of the backend at link or run time, are not reported unless
`rules.EL101.report_type_only` is `true`: names inside `decltype(...)`, `sizeof(...)`, `alignof(...)` and
`noexcept(...)` (a function pointer type taken from a library's declaration and filled from a plugin
registry at run time is the decoupling pattern itself), and classes the unit never sees defined (only
pointers and references to them are possible). EL102, EL103 and EL104 take the same option.

Code in a conditional block of a shared header that a backend's own unit turned on (`#if
defined(GGML_COMMON_DECL_CUDA)`, defined by the CUDA sources before they include it) is that backend's use, as
for EL100; EL102, EL103 and EL104 count it the same way.

The shared layer (`layers.shared`) is judged like the frontend, and its own declarations are no backend's.
In a unit of a configuration that selects a backend (`configurations`), what that backend's folder declares
(reached through a header of its include folder, a namespace alias such as `namespace detail = lib::cpu;`, or a
macro) is the interface the build selected: no finding, nor for a library type reached through an alias
that folder declares (`cfloat` for `cl_float2`, also when `using detail::cfloat;` brought it in) and its
members (the copy assignment `c = other` calls on it). A specific
other backend's declaration, or a library's named directly, still is one.

## Why is this bad?
An include can be removed and still leave the frontend depending on a backend through another header. What
matters is what the code uses: a frontend that names `Eigen::MatrixXd`, even through an alias, only works
with the Eigen backend and breaks the promise that every backend computes the same ops.

## Example
```cpp
// frontend/include/ember/detail/types.hpp (included from somewhere else)
using Mat = Eigen::MatrixXd;
// frontend/src/solver.cpp
Mat m(3, 3);                       // EL101 through alias 'Mat'
std::vector<Eigen::VectorXd> vs;   // EL101 as a template argument
```

## Use instead
```cpp
ember::Tensor m = ember::ops::zeros({3, 3}, ember::DType::float64);
```
Keep library types inside `backends/<name>/`; the frontend speaks only `ember::Tensor` and the ops API.
)",
    {"report_type_only"}};

class FrontendUsesBackendSymbol final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    auto refs = owned_references(model, kInfo.code, [&](FileId file, const Owner& owner) {
      return model.agnostic(file) && !model.selected_interface(owner);
    });
    for (const auto& r : refs) {
      const bool shared = model.layer(r.reference->at.file).kind == LayerKind::shared;
      reporter.report(r.reference->at,
                      std::string(shared ? "shared" : "frontend") + " code uses " + describe(r), {},
                      subject(r), explain(model, r));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_frontend_uses_backend_symbol() {
  return std::make_unique<FrontendUsesBackendSymbol>();
}

}  // namespace emberlint
