// EL301 scalar-item: a configured scalar extractor outside the places allowed to use it.
#include <algorithm>
#include <string_view>

#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{
    "EL301",
    "scalar-item",
    "scalar",
    Severity::warning,
    false,
    "a configured scalar extractor (`item<T>()`, `to_scalar`, ...) outside the places allowed to use it",
    R"(## What it does
Flags every call of a function named in the config's `scalar_extractors` (qualified names or name globs,
e.g. `"ember::Tensor::item"`, `"ember::ops::item"`), reached however it is spelled (through `using`, an alias
of the tensor type, a derived class, a template, or a generic lambda that only `std::visit` or `std::invoke`
instantiates), unless the call is in an allowed place (or in the definition of an extractor itself, such as a typed
`item<T>()` built on `item()`, or the extractor's definition for a class nested in its class, such as
`array::array_proxy::scalar<T>()` forwarding to `array::scalar<T>()`, which an instantiation macro writes for
each type):
```jsonc
"rules": {"EL301": {
  "allowed_files": ["examples/**", "frontend/src/format.cpp"],   // path globs, relative to this config
  "allowed_functions": ["ember::detail::print*"]                 // globs of qualified function names
}}
```
The test layer is not governed: tests extract values to check them.

## Why is this bad?
Each extraction waits for the device and copies a value to the host. One at the end of a computation is
fine; extractions spread through library code serialize it and usually mean that a loop over elements runs on
the host. Keeping them to a few named places makes them visible and reviewable.

## Example
```cpp
double total = 0;
for (std::int64_t i = 0; i < n; ++i) total += ember::ops::item(ember::ops::slice(x, i)).as_double();
```

## Use instead
```cpp
ember::Tensor total = ember::ops::sum(x);   // stays on the device; extract once where it is allowed
```
)",
    {"allowed_files", "allowed_functions"}};

// Whether `function` is `extractor`'s name in a class nested in the extractor's class:
// "af::array::array_proxy::scalar" for "af::array::scalar".
bool nested_definition(const std::string& function, const std::string& extractor) {
  const std::size_t cut = extractor.rfind("::");
  if (cut == std::string::npos || function.size() <= extractor.size()) return false;
  const std::string_view scope(extractor.data(), cut + 2),
      last(extractor.data() + cut, extractor.size() - cut);
  return function.compare(0, scope.size(), scope) == 0 &&
         function.compare(function.size() - last.size(), last.size(), last) == 0;
}

class ScalarItem final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    const Config& cfg = model.config();
    if (cfg.scalar_extractors.empty()) return;
    const RuleSetting& setting = model.rule_setting(kInfo.code);
    const TuFacts& facts = model.facts();
    for (const auto& call : facts.calls) {
      if (call.callee < 0 || !model.scalar_rules_govern(call.at.file)) continue;
      const std::string& name = facts.symbols[static_cast<std::size_t>(call.callee)].qualified_name;
      if (!model.is_scalar_extractor(name)) continue;
      const auto& file = facts.path(call.at.file);
      auto in_file = [&](const Glob& g) { return g.matches_path(file); };
      if (std::any_of(setting.allowed_files.begin(), setting.allowed_files.end(), in_file)) continue;
      if (call.definition >= 0) {
        const std::string& fn = facts.definitions[static_cast<std::size_t>(call.definition)].qualified_name;
        auto in_function = [&](const Glob& g) { return g.matches_name(fn); };
        if (std::any_of(setting.allowed_functions.begin(), setting.allowed_functions.end(), in_function))
          continue;
        // An extractor built on another (`item<T>()` on `item()`) is the API itself, not a use of it; so is
        // the extractor's own definition for a class nested in its class (`array::array_proxy::scalar<T>()`
        // forwarding to `array::scalar<T>()`, written for each type by an instantiation macro).
        if (model.is_scalar_extractor(fn) || nested_definition(fn, name)) continue;
      }
      reporter.report(call.at,
                      "scalar extractor '" + name +
                          "' used outside the allowed places (rules.EL301.allowed_files and "
                          "allowed_functions): keep the value a tensor, or extract it where allowed");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_scalar_item() {
  return std::make_unique<ScalarItem>();
}

}  // namespace emberlint
