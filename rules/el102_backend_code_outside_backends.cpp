// EL102 backend-code-outside-backends: a definition outside the backend folders uses a backend library.
#include <map>
#include <set>
#include <tuple>

#include "rules/owned_references.hpp"
#include "rules/registry.hpp"

namespace emberlint {
namespace {

namespace fs = std::filesystem;

const RuleInfo kInfo{"EL102",
                     "backend-code-outside-backends",
                     "purity",
                     Severity::warning,
                     false,
                     "a definition outside the backend folders whose body uses a backend library",
                     R"(## What it does
Flags a function definition in the frontend or in a file of no layer whose body uses a backend library (a
declaration from the library's headers, namespaces or symbol globs). A lambda stored in a variable outside
any function (`namespace fe { auto sync = [] { clFinish(q); }; }`) is such a definition, reported at the
variable's name. It reports the definition once per
library, names the first use, and says where the code belongs: the folder of the library's backend, as the
config's `layers.backends` names it, and the file there when the backend already has one for the category of
the file's name (`math.cpp` -> `<folder>/math_ops.cpp`, the layout `emberlint analyze --migrate` writes).
Tests (EL104) and glue files are not governed by this rule.

## Why is this bad?
Backend code outside the backend folders is the predecessor's `ops/torch/` problem: the implementation of an
op lives next to the frontend, so the frontend cannot be built without the library, the op is missing from the
backend that should own it, and the inventory shows a gap where there is code.

## Example
```cpp
// frontend/src/solver.cpp
ember::Tensor inv(const ember::Tensor& a) {
  Eigen::Map<const Eigen::MatrixXd> m(a.data<double>(), a.dim(0), a.dim(1));
  ...
}
```

## Use instead
```cpp
// backends/eigen/solver_ops.cpp
void EigenBackend::inv(const Tensor& a, Tensor& out) { /* Eigen code here */ }
// frontend/src/solver.cpp
ember::Tensor inv(const ember::Tensor& a) { return dispatch(a).inv(a); }
```
)",
                     {"report_type_only"}};

std::string category_file(const std::filesystem::path& file) {
  static const std::map<std::string, std::string> synonyms = {
      {"linalg", "solver"},      {"linear_algebra", "solver"}, {"solve", "solver"}, {"rng", "random"},
      {"compare", "comparison"}, {"devices", "device"},        {"types", "dtype"},  {"tensors", "tensor"}};
  static const std::set<std::string> categories = {"tensor", "math",  "random", "comparison",
                                                   "device", "dtype", "solver"};
  std::string stem = file.stem().string();
  if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, "_ops") == 0) stem.resize(stem.size() - 4);
  for (const auto& [word, category] : synonyms) {
    if (stem.find(word) != std::string::npos) {
      stem = category;
      break;
    }
  }
  if (!categories.count(stem)) {
    for (const auto& c : categories) {
      if (stem.find(c) != std::string::npos) {
        stem = c;
        break;
      }
    }
  }
  return stem + "_ops.cpp";
}

class BackendCodeOutsideBackends final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }
  void check(const ProjectModel& model, const Reporter& reporter) const override {
    const TuFacts& facts = model.facts();
    auto governed = [&](FileId file) {
      LayerKind k = model.layer(file).kind;
      return k == LayerKind::frontend || k == LayerKind::shared || k == LayerKind::none;
    };
    // The first library use in each (definition, backend), in source order.
    std::map<std::pair<int, std::string>, const Reference*> first;
    const bool type_only = model.rule_setting(kInfo.code).report_type_only;
    for (const Reference& ref : facts.references) {
      if (ref.definition < 0 || !governed(ref.at.file)) continue;
      if (ref.type_only && !type_only) continue;  // needs the declaration only (EL101's doc)
      if (ref.at.file < 0 || !facts.files[static_cast<std::size_t>(ref.at.file)].in_project) continue;
      auto owner = model.symbol_owner(ref.symbol);
      if (!owner || owner->library.empty() || model.through_selected_interface(ref)) continue;
      auto key = std::make_pair(ref.definition, owner->library);
      auto it = first.find(key);
      // Name the first use of a real symbol; a namespace qualifier only when there is nothing else.
      auto before = [&](const Reference* a, const Reference* b) {
        bool a_ns = facts.symbols[static_cast<std::size_t>(a->symbol)].is_namespace;
        bool b_ns = facts.symbols[static_cast<std::size_t>(b->symbol)].is_namespace;
        return std::make_tuple(a_ns, a->at.line, a->at.column) <
               std::make_tuple(b_ns, b->at.line, b->at.column);
      };
      if (it == first.end() || before(&ref, it->second)) first[key] = &ref;
    }
    for (const auto& [key, ref] : first) {
      const Definition& def = facts.definitions[static_cast<std::size_t>(key.first)];
      auto owner = *model.symbol_owner(ref->symbol);
      const Symbol& sym = facts.symbols[static_cast<std::size_t>(ref->symbol)];
      // Where the config says the backend lives; the category file only where the backend has one.
      const std::string folder = model.backend_folder(owner.backend);
      const std::string file = folder + "/" + category_file(facts.path(def.at.file));
      std::error_code ec;
      const bool has_file = fs::is_regular_file(model.config().root / file, ec);
      const std::string target =
          has_file ? file : "the folder of backend '" + owner.backend + "' (" + folder + "/)";
      reporter.report(def.at,
                      "'" + def.qualified_name + "' uses " + owner.describe() + " ('" + sym.qualified_name +
                          "' at line " + std::to_string(ref->at.line) + "); it belongs in " + target +
                          ", with the frontend dispatching to it",
                      {}, {}, explain(model, OwnedReference{ref, &sym, owner}));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_backend_code_outside_backends() {
  return std::make_unique<BackendCodeOutsideBackends>();
}

}  // namespace emberlint
