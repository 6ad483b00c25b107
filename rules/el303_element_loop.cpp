// EL303 element-loop: per-element tensor access inside a loop over the tensor's extent.
#include <algorithm>
#include <map>
#include <set>

#include "rules/registry.hpp"

namespace emberlint {
namespace {

const RuleInfo kInfo{
    "EL303",           "element-loop", "scalar",
    Severity::warning, false,          "per-element tensor access inside a loop where a vectorized op exists",
    R"(## What it does
Flags element access to a configured tensor type (`t[i]`, `t(i, j)`, `t.item(...)`, `t.at(...)`,
`t.get(...)`, or a configured scalar extractor) inside the body of a `for`, `while` or `do` loop whose
condition depends on a tensor's extent: a call of `size()`, `numel()`, `shape()`, `dim()`, `rows()`,
`cols()`, `extent()` or `length()` on a tensor, directly or through a variable initialized from one (`auto n =
t.size(); for (i = 0; i < n; ++i)`, or a structured binding of it: `auto [n, r] = std::pair{t.size(), 2}`). A range-based `for` over a tensor itself is flagged too. Loops over
dimensions (`ndim()`) that read `dim(i)` are not element access and are not flagged. The test layer is not
governed.

## Why is this bad?
Each access is a separate dispatch, device sync and host copy: the loop runs element by element on the host
what one vectorized op would do on the device, orders of magnitude slower on every backend.

## Example
```cpp
for (std::int64_t i = 0; i < x.size(); ++i) total += x[i].item<double>();
```

## Use instead
```cpp
ember::Tensor total = ember::ops::sum(x);
```
)"};

class ElementLoop final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    static const std::set<std::string> kExtent = {"size", "numel", "shape",  "dim",
                                                  "rows", "cols",  "extent", "length"};
    static const std::set<std::string> kAccess = {"item", "at", "get"};
    const TuFacts& facts = model.facts();
    if (facts.loops.empty()) return;
    // Per function: extent calls, the variables that hold an extent, and the element accesses.
    std::map<int, std::vector<const Call*>> extents;
    std::map<int, std::vector<Location>> accesses;
    for (const auto& c : facts.calls) {
      if (c.definition < 0) continue;
      if (kExtent.count(c.name) && model.is_tensor(c.object)) extents[c.definition].push_back(&c);
      bool access = kAccess.count(c.name) && model.is_tensor(c.object);
      if (!access && c.callee >= 0) {
        access = model.is_scalar_extractor(facts.symbols[static_cast<std::size_t>(c.callee)].qualified_name);
      }
      if (access) accesses[c.definition].push_back(c.at);
    }
    for (const auto& op : facts.operators) {
      if ((op.spelling == "[]" || op.spelling == "()") && op.definition >= 0 && !op.operand_types.empty() &&
          model.is_tensor(op.operand_types[0])) {
        accesses[op.definition].push_back(op.at);
      }
    }
    // Only functions that ask a tensor for its extent can loop over it; their references and assignments.
    std::map<int, std::vector<const Reference*>> refs;
    std::map<int, std::vector<const Assignment*>> assigns;
    for (const auto& r : facts.references) {
      if (extents.count(r.definition)) refs[r.definition].push_back(&r);
    }
    for (const auto& a : facts.assignments) {
      if (extents.count(a.definition)) assigns[a.definition].push_back(&a);
    }
    std::map<int, std::set<int>> extent_vars;
    for (const auto& [def, calls] : extents) {
      std::set<int>& vars = extent_vars[def];
      for (bool grew = true; grew;) {
        grew = false;
        for (const Assignment* a : assigns[def]) {
          if (vars.count(a->variable)) continue;
          bool from_extent = std::any_of(calls.begin(), calls.end(),
                                         [&](const Call* c) { return a->value.contains(c->at); });
          from_extent =
              from_extent || std::any_of(refs[def].begin(), refs[def].end(), [&](const Reference* r) {
                return vars.count(r->symbol) && a->value.contains(r->at);
              });
          if (from_extent) grew = vars.insert(a->variable).second || grew;
        }
      }
    }
    std::set<std::pair<FileId, unsigned>> reported;
    for (const auto& loop : facts.loops) {
      if (loop.definition < 0 || !model.scalar_rules_govern(loop.at.file)) continue;
      if (loop.range_for) {
        if (model.is_tensor(loop.range_type)) {
          reporter.report(loop.condition,
                          "range-based for over a tensor reads it element by element: use a "
                          "vectorized op");
        }
        continue;
      }
      auto e = extents.find(loop.definition);
      if (loop.condition.file < 0 || e == extents.end()) continue;
      const auto& vars = extent_vars[loop.definition];
      bool over_extent = std::any_of(e->second.begin(), e->second.end(),
                                     [&](const Call* c) { return loop.condition.contains(c->at); });
      over_extent =
          over_extent ||
          std::any_of(refs[loop.definition].begin(), refs[loop.definition].end(), [&](const Reference* r) {
            return vars.count(r->symbol) && loop.condition.contains(r->at);
          });
      if (!over_extent) continue;
      for (const Location& at : accesses[loop.definition]) {
        if (!loop.body.contains(at) || !reported.insert({at.file, at.offset}).second) continue;
        reporter.report(at, "per-element tensor access in a loop over a tensor's extent (line " +
                                std::to_string(loop.at.line) + "): use a vectorized op");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_element_loop() {
  return std::make_unique<ElementLoop>();
}

}  // namespace emberlint
