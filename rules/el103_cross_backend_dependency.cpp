// EL103 cross-backend-dependency: one backend uses another backend's headers or symbols.
#include "rules/owned_references.hpp"
#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{"EL103",
                     "cross-backend-dependency",
                     "purity",
                     Severity::warning,
                     false,
                     "one backend uses another backend's headers or symbols",
                     R"(## What it does
Flags, in a file of backend A, an `#include` of a header that backend B owns (a header of one of B's
libraries or a file in B's folder) and every reference to a declaration B owns, a using-declaration that
names one included (`using ember::eigen::to_matrix;`).

## Why is this bad?
Backends are independent: each can be left out of a build, and each is selected at run time. A BLAS backend
that calls into the Eigen backend's helpers cannot be built without Eigen, and a fix to one backend silently
changes another's results.

## Example
```cpp
// backends/blas/math_ops.cpp
#include "backends/eigen/common.hpp"
ember::eigen::ArrayMap<float> m(...);
```

## Use instead
Move what both need into the frontend (backend-agnostic helpers over `ember::Tensor`) or duplicate the small
helper inside each backend's folder.

## When one backend is built on another
Some backends are, by design, built from another's sources (HIP from the CUDA folder) or share a library. Say
so in the config and the rule accepts it: `"layers": {"backends": {"hip": {"paths": ["src/hip/**"], "uses":
["cuda"]}}}` lets `hip` include and call `cuda`'s files and libraries; a library that serves several backends
names them all, `"libraries": {"BLAS": {"backend": ["blas", "eigen"], ...}}`; and a backend's headers that are
its public API for every layer are listed under its `"public"` key.
)",
                     {"report_type_only"}};

class CrossBackendDependency final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    for (const Include& inc : model.facts().includes) {
      if (model.layer(inc.at.file).kind != LayerKind::backend) continue;
      auto owner = model.header_owner(inc);
      if (!owner) continue;
      if (auto user = model.backend_that_may_not_use(inc.at.file, *owner))
        reporter.report(
            inc.at,
            "backend '" + *user + "' includes '" + inc.spelled + "', a header of " + owner->describe(), {},
            {}, explain_include(model, inc, *owner));
    }
    auto refs = owned_references(model, kInfo.code, [&](FileId file, const Owner& owner) {
      Layer l = model.layer(file);
      return l.kind == LayerKind::backend && !model.may_use(file, owner);
    });
    for (const auto& r : refs) {
      const std::string user = model.backend_that_may_not_use(r.reference->at.file, r.owner)
                                   .value_or(model.layer(r.reference->at.file).backend);
      reporter.report(r.reference->at, "backend '" + user + "' uses " + describe(r), {}, {},
                      explain(model, r));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_cross_backend_dependency() {
  return std::make_unique<CrossBackendDependency>();
}

}  // namespace emberlint
