// EL104 test-bypasses-frontend: test code reaches a backend directly instead of through the frontend.
#include "rules/owned_references.hpp"
#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{"EL104",
                     "test-bypasses-frontend",
                     "purity",
                     Severity::warning,
                     false,
                     "test code reaches a backend directly instead of through the frontend",
                     R"(## What it does
Flags, in a test file (`layers.tests`), an `#include` of a backend library header or of a file in a backend's
folder, and every reference to a declaration a backend owns (a file's uses of one symbol are one finding, at
the first use, with the number of uses and their lines).

## Why is this bad?
Tests are the frontend's first users. A test that builds an `Eigen::MatrixXd` or calls a backend class
directly checks one backend's internals, not the behaviour every backend must share; it passes while the
public API is broken, and it cannot be parameterized over backends.

## Example
```cpp
// tests/math_test.cpp
#include "backends/eigen/eigen_backend.hpp"
ember::eigen::EigenBackend b;
b.add(x, y, out);
```

## Use instead
```cpp
ember::BackendScope scope(GetParam());  // "eigen", "blas", "opencl"
auto out = ember::ops::add(x, y);
```
A test that really checks one backend's internals can be listed in `per_file_ignores`.
)",
                     {"report_type_only"}};

class TestBypassesFrontend final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    for (const Include& inc : model.facts().includes) {
      if (model.layer(inc.at.file).kind != LayerKind::tests) continue;
      if (auto owner = model.header_owner(inc); owner && !model.may_use(inc.at.file, *owner)) {
        reporter.report(inc.at,
                        "test includes '" + inc.spelled + "', a header of " + owner->describe() +
                            "; test through the frontend",
                        {}, {}, explain_include(model, inc, *owner));
      }
    }
    auto refs = owned_references(model, kInfo.code, [&](FileId file, const Owner& owner) {
      return model.layer(file).kind == LayerKind::tests && !model.may_use(file, owner);
    });
    for (const auto& r : refs) {
      reporter.report(r.reference->at, "test uses " + describe(r) + " directly; test through the frontend",
                      {}, subject(r), explain(model, r));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_test_bypasses_frontend() {
  return std::make_unique<TestBypassesFrontend>();
}

}  // namespace emberlint
