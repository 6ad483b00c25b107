// EL100 frontend-includes-backend: a frontend file includes a backend library header or a backend's header.
#include "rules/owned_references.hpp"
#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{"EL100",
                     "frontend-includes-backend",
                     "purity",
                     Severity::warning,
                     false,
                     "a frontend file includes a backend library header or a backend's own header",
                     R"(## What it does
Flags an `#include` in a frontend file (a file matched by `layers.frontend`) that names a header of a
configured backend library (`libraries.<name>.headers`, matched against the spelled name and the resolved
path) or a header that lives in a backend's folder (`layers.backends.<name>`).

An include in a conditional block of a shared header (`#if defined(GGML_COMMON_DECL_CUDA)`) counts for the
unit that turned it on: when that unit is a backend's own and may use the library, the include is the
backend's, not the frontend's. A frontend unit that turns it on still gets the finding.

Files of the shared layer (`layers.shared`, code compiled into every backend) are judged the same way. In a
unit of a configuration that selects a backend (`configurations`), a header of that backend's folder found
through one of the configuration's include folders (`#include "mean.hpp"` with `-Isrc/backend/cpu`) is the
interface the build selected, not a finding; a header of a library, or one spelled by its path into a
backend's folder, still is.

## Why is this bad?
The frontend is the backend-agnostic API. Once it includes `<Eigen/Core>` or `cblas.h`, every user of the
frontend compiles that library, the frontend can no longer be built without it, and the backend's types leak
into code that must work the same on every backend.

## Example
```cpp
// frontend/src/math.cpp
#include <Eigen/Core>
#include "backends/eigen/eigen_backend.hpp"
```

## Use instead
```cpp
// frontend/src/math.cpp
#include "ember/backend.hpp"  // the ops interface every backend implements
```
Call the backend through the interface; keep library headers inside `backends/<name>/`.
)"};

class FrontendIncludesBackend final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    for (const Include& inc : model.facts().includes) {
      if (!model.agnostic(inc.at.file)) continue;
      auto owner = model.header_owner(inc);
      if (!owner || model.configured_by_unit(inc.at, *owner) || model.selected_interface(inc, *owner))
        continue;
      std::string spelled = inc.spelled;
      const bool shared = model.layer(inc.at.file).kind == LayerKind::shared;
      std::string where = owner->library.empty() && inc.included >= 0
                              ? " (" + model.relative(model.facts().path(inc.included)) + ")"
                              : "";
      reporter.report(inc.at,
                      std::string(shared ? "shared" : "frontend") + " file includes '" + spelled +
                          "', a header of " + owner->describe() + where +
                          "; reach the backend through the ops interface",
                      {}, {}, explain_include(model, inc, *owner));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_frontend_includes_backend() {
  return std::make_unique<FrontendIncludesBackend>();
}

}  // namespace emberlint
