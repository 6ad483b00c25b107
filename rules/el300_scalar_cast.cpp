// EL300 scalar-cast: a tensor converted to a C++ arithmetic type.
#include <map>
#include <set>
#include <tuple>

#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{
    "EL300",
    "scalar-cast",
    "scalar",
    Severity::warning,
    false,
    "a tensor converted to a C++ arithmetic type: explicit cast, functional cast, or implicit conversion",
    R"(## What it does
Flags a value of a configured tensor type converted to an arithmetic type (`bool`, integers, floating
point): `static_cast<double>(t)`, `(float)t`, `double(t)`, `double{t}`, `double x{t};`, `t.operator double()`, and implicit conversions
through the tensor's conversion operator (`double x = t;`, `f(t)` with a `double` parameter, `t * 2.0` when
it resolves to the built-in operator), also as the element of a braced list of numbers (`std::vector<float>
v{t};`, `float a[] = {t};`), in a range of tensors that the standard library copies into numbers element by
element (`std::vector<float> v(t.begin(), t.end())`, also through `std::begin`, `v.assign(first, last)`,
`v.insert(pos, first, last)`, `std::copy(first, last, out)` and the other copy algorithms) and inside a generic lambda, or a class's call operator template, that `std::visit`
or `std::invoke` instantiates with a tensor (reported once, at the lambda's or the operator's line). Conversions to a truth value used as a condition are EL201's. The test
layer is not governed: tests read values to check them.

## Why is this bad?
The conversion is a scalar extraction that no one sees: it waits for the device, copies one element to the
host, and throws (or picks an element) when the tensor has more than one. Code full of such conversions
silently does its work element by element on the host.

## What it costs
ember defers element-wise ops and runs a chain of them as one fused kernel (docs/ember.md, "Lazy evaluation and fusion"). An
extraction evaluates everything pending that it depends on, there and then: the chain is cut in two, and
each part reads and writes memory on its own. Measured with `build/release/ember_bench
--benchmark_filter=fusion_expr` on 16M float32 (2-core Xeon, 2026-11-22), `exp(-x) + sqrt(x*x + y*x*y) * 0.5`:

| backend | fused | one sync in the middle | op by op (eager) |
| --- | --- | --- | --- |
| eigen | 49.4 ms | 76.9 ms (1.6x) | 320 ms (6.5x) |
| opencl (pocl) | 40.4 ms | 64.4 ms (1.6x) | 288 ms (7.1x) |

On a device the extraction also waits for the queue and copies the value back: a launch and wait costs about
63 us on pocl, against 0.2 us for a host op.

## Example
```cpp
double s = static_cast<double>(ember::ops::sum(x));
float f = t;
```

## Use instead
```cpp
double s = ember::ops::sum(x).item<double>();   // one explicit, allowed extraction (EL301)
```
or keep the value a tensor and continue with ops.
)"};

class ScalarCast final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    const TuFacts& facts = model.facts();
    auto arithmetic = [&](int type) {
      const TypeFacts* t = facts.type(type);
      return t && t->arithmetic;
    };
    // Explicit casts, by the range of the expression they convert.
    std::map<std::tuple<FileId, unsigned, unsigned>, const Conversion*> casts;
    for (const auto& c : facts.conversions) {
      if (c.kind == "operator" || c.operand.file < 0 || !arithmetic(c.to)) continue;
      casts.emplace(std::make_tuple(c.operand.file, c.operand.offset, c.operand.end_offset), &c);
    }
    // One finding per converted expression: a template's conversion seen in several instantiations (a
    // generic lambda visited with each alternative of a variant) is one place to fix.
    std::set<std::tuple<FileId, unsigned, unsigned>> reported;
    auto first_at = [&](const Location& at) {
      return reported.emplace(at.file, at.offset, at.end_offset).second;
    };
    auto report_cast = [&](const Conversion& cast, const std::string& type) {
      if (!model.scalar_rules_govern(cast.at.file) || !first_at(cast.at)) return;
      std::string how = cast.kind == "c-style"               ? "a C-style cast"
                        : cast.kind == "functional"          ? "a functional cast"
                        : cast.kind == "list-initialization" ? "list-initialization"
                        : cast.kind == "range"               ? cast.via + ", element by element"
                                                             : cast.kind;
      reporter.report(cast.at,
                      "tensor of type '" + type + "' converted to '" + cast.to_type + "' by " + how +
                          ": a hidden scalar extraction; use an allowed extractor or keep it a tensor");
    };
    for (const auto& c : facts.conversions) {
      if (!model.is_tensor(c.from) || !arithmetic(c.to)) continue;
      const std::string type = facts.type(c.from)->spelling;
      if (c.kind != "operator") {
        report_cast(c, type);
        continue;
      }
      // The conversion operator a cast calls is reported as that cast.
      if (auto it = casts.find({c.at.file, c.at.offset, c.at.end_offset}); it != casts.end()) {
        report_cast(*it->second, type);
        continue;
      }
      const TypeFacts* to = facts.type(c.to);
      if (!c.explicit_call && (c.condition || to->is_bool)) continue;  // EL201
      if (!model.scalar_rules_govern(c.at.file) || !first_at(c.at)) continue;
      reporter.report(c.at, "tensor of type '" + type + "' converted to '" + c.to_type + "' by " +
                                (c.explicit_call ? std::string("an explicit call of its conversion operator")
                                                 : std::string("an implicit conversion")) +
                                ": a hidden scalar extraction; use an allowed extractor or keep it a tensor");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_scalar_cast() {
  return std::make_unique<ScalarCast>();
}

}  // namespace emberlint
