// EL202 eigen-auto-expression: `auto` bound to an Eigen expression template.
#include <array>

#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{
    "EL202",
    "eigen-auto-expression",
    "operators",
    Severity::warning,
    false,
    "`auto` bound to an Eigen expression template (dangling-temporary and repeated-evaluation hazard)",
    R"(## What it does
Flags a variable declared with `auto` (also `const auto&`, `auto&&`, `decltype(auto)`) whose deduced type is
an Eigen expression template: a lazy `CwiseBinaryOp`, `CwiseUnaryOp`, `CwiseNullaryOp`, `CwiseTernaryOp`,
`Product`, `Solve`, `Inverse`, `Replicate`, `Reverse`, `Select`, `PartialReduxExpr` or `Homogeneous`, also
when it is nested inside another type. Concrete types (`Matrix`, `Array`) and views (`Map`, `Ref`, `Block`)
are not flagged.

## Why is this bad?
An expression template stores references to its operands and computes nothing until it is assigned. Bound
to `auto`, it outlives temporaries it refers to (a dangling reference, undefined behaviour that often
"works" in tests) and it is recomputed every time it is read.

## Example
```cpp
auto c = a + b;             // Eigen::CwiseBinaryOp<...>
auto x = A.inverse() * y;   // Eigen::Product<...>
```

## Use instead
```cpp
Eigen::MatrixXd c = a + b;
auto x = (A.inverse() * y).eval();
```
)"};

class EigenAutoExpression final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    static const std::array<const char*, 12> kExpressions = {
        "CwiseBinaryOp", "CwiseUnaryOp", "CwiseNullaryOp",   "CwiseTernaryOp",
        "Product",       "Solve",        "Inverse",          "Replicate",
        "Reverse",       "Select",       "PartialReduxExpr", "Homogeneous"};
    const TuFacts& facts = model.facts();
    for (const auto& a : facts.assignments) {
      if (!a.declaration || !a.written_auto || a.type_spelling.find("Eigen::") == std::string::npos) continue;
      if (!model.operator_rules_govern(a.at.file)) continue;
      for (const char* name : kExpressions) {
        if (a.type_spelling.find("Eigen::" + std::string(name) + "<") == std::string::npos) continue;
        const std::string& var = facts.symbols[static_cast<std::size_t>(a.variable)].qualified_name;
        std::string shown = var.substr(var.rfind("::") == std::string::npos ? 0 : var.rfind("::") + 2);
        reporter.report(a.at, "'auto' variable '" + shown + "' holds the Eigen expression template 'Eigen::" +
                                  name + "<...>': declare a concrete type or call .eval()");
        break;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_eigen_auto_expression() {
  return std::make_unique<EigenAutoExpression>();
}

}  // namespace emberlint
