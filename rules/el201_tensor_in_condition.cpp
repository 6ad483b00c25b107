// EL201 tensor-in-condition: a tensor, or a tensor comparison, used as a condition.
#include <set>
#include <tuple>

#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{
    "EL201",
    "tensor-in-condition",
    "operators",
    Severity::warning,
    false,
    "a tensor (or tensor comparison) used as a condition: a hidden scalar extraction and device sync",
    R"(## What it does
Flags a value of a configured tensor type that is converted to a truth value: the condition of `if`,
`while`, `for`, `do ... while` and `switch`, the condition of `?:`, an operand of `&&`, `||` and `!`, and any
other implicit conversion to `bool` through the tensor's conversion operator. This includes the result of a
tensor comparison (`if (a > b)`), which is itself a tensor. Explicit casts are EL300's. A conversion operator
whose body reads only the tensor's metadata (`operator bool() const { return !empty(); }`: its size, shape,
rank or emptiness) extracts no element and is not reported.

## Why is this bad?
A tensor has no single truth value: the conversion silently extracts one element (or fails at run time for
more than one), waits for the device to finish and copies the value to the host. Whether "all elements" or
"any element" was meant is not written anywhere.

## What it costs
The condition forces evaluation: every deferred element-wise op the tensor depends on runs at that point
(ember fuses such chains into one kernel until a value is needed, docs/ember.md, "Lazy evaluation and fusion"), and a device
backend waits for its queue and copies the value to the host. In `build/release/ember_bench
--benchmark_filter=fusion_expr` (16M float32, `exp(-x) + sqrt(x*x + y*x*y) * 0.5`, 2-core Xeon, 2026-11-22),
one such sync in the middle of the expression takes it from 49.4 ms to 76.9 ms on eigen (1.6x) and from
40.4 ms to 64.4 ms on opencl (1.6x); every op on its own (no fusion at all) takes 320 ms and 288 ms. Each
device round trip costs about 63 us on pocl. Inside a loop, these costs repeat on every iteration.

## Example
```cpp
if (a > b) { ... }
while (residual) { ... }
bool done = converged && step;
```

## Use instead
```cpp
if (ember::ops::all(ember::ops::greater(a, b)).item<bool>()) { ... }
while (ember::ops::any(ember::ops::not_equal(residual, 0.0)).item<bool>()) { ... }
```
The reduction says what is meant, and the one scalar extraction is explicit (and allowed by EL301 where the
project allows it).
)"};

class TensorInCondition final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    const TuFacts& facts = model.facts();
    // The conversion an explicit cast makes is the cast's (EL300), wherever the cast is.
    std::set<std::tuple<FileId, unsigned, unsigned>> cast_operands;
    for (const auto& c : facts.conversions) {
      if (c.kind != "operator" && c.operand.file >= 0)
        cast_operands.emplace(c.operand.file, c.operand.offset, c.operand.end_offset);
    }
    for (const auto& c : facts.conversions) {
      if (c.kind != "operator" || c.explicit_call || c.metadata_only || !model.is_tensor(c.from)) continue;
      if (cast_operands.count({c.at.file, c.at.offset, c.at.end_offset})) continue;
      if (!model.operator_rules_govern(c.at.file)) continue;
      const TypeFacts* to = facts.type(c.to);
      if (!c.condition && !(to && to->is_bool)) continue;
      const std::string type = facts.type(c.from)->spelling;
      reporter.report(c.at, "tensor of type '" + type + "' used as " +
                                (c.condition ? std::string("a condition") : std::string("a truth value")) +
                                ": reduce it with ops::all or ops::any and extract the result explicitly");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_tensor_in_condition() {
  return std::make_unique<TensorInCondition>();
}

}  // namespace emberlint
