#include "rules/owned_references.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace emberlint {

std::vector<OwnedReference> owned_references(const ProjectModel& model, const std::string& rule,
                                             const std::function<bool(FileId, const Owner&)>& keep) {
  const TuFacts& facts = model.facts();
  const bool type_only = model.rule_setting(rule).report_type_only;
  // Per (file, line, backend): every symbol the line names directly is a use of its own (`v = f(g(x))` uses f
  // and g; the same symbol twice is one). What arrives indirectly (through an alias, a typedef, a macro or a
  // deduced type) and a namespace that qualifies a name count only on a line with no direct use of a named
  // symbol: then the best one stands for the line, as it is the same use seen another way.
  struct Line {
    std::map<int, OwnedReference> direct;  // by symbol
    std::optional<OwnedReference> best;
  };
  auto better = [](const OwnedReference& a, const OwnedReference& b) {
    if (a.symbol->is_namespace != b.symbol->is_namespace) return !a.symbol->is_namespace;
    if (a.reference->via != b.reference->via) return a.reference->via < b.reference->via;
    return a.reference->at.column < b.reference->at.column;
  };
  std::map<std::tuple<FileId, unsigned, std::string>, Line> lines;
  for (const Reference& ref : facts.references) {
    if (ref.at.file < 0 || !facts.files[static_cast<std::size_t>(ref.at.file)].in_project) continue;
    if (ref.type_only && !type_only) continue;
    auto owner = model.symbol_owner(ref.symbol);
    if (!owner || !keep(ref.at.file, *owner) || model.configured_by_unit(ref.at, *owner)) continue;
    // The selected backend's alias (`cfloat` for cl_float2) in backend-agnostic code: its interface.
    if (model.agnostic(ref.at.file) && model.through_selected_interface(ref)) continue;
    OwnedReference candidate{&ref, &facts.symbols[static_cast<std::size_t>(ref.symbol)], *owner};
    Line& line = lines[{ref.at.file, ref.at.line, owner->backend}];
    if (!line.best || better(candidate, *line.best)) line.best = candidate;
    if (ref.via != Via::direct || candidate.symbol->is_namespace) continue;
    auto [it, added] = line.direct.emplace(ref.symbol, candidate);
    if (!added && better(candidate, it->second)) it->second = candidate;
  }
  std::vector<OwnedReference> out;
  for (auto& [key, line] : lines) {
    if (line.direct.empty()) {
      out.push_back(*line.best);
      continue;
    }
    for (auto& [symbol, r] : line.direct) out.push_back(r);
  }
  std::sort(out.begin(), out.end(), [](const OwnedReference& a, const OwnedReference& b) {
    return std::tie(a.reference->at.file, a.reference->at.line, a.reference->at.column) <
           std::tie(b.reference->at.file, b.reference->at.line, b.reference->at.column);
  });
  return out;
}

std::string subject(const OwnedReference& r) {
  std::string what = r.symbol->is_macro       ? "macro '" + r.symbol->qualified_name + "'"
                     : r.symbol->is_namespace ? "namespace '" + r.symbol->qualified_name + "'"
                                              : "'" + r.symbol->qualified_name + "'";
  // Type-only uses are a finding of their own: a real use of the same symbol is not hidden in their group.
  return what + " of " + r.owner.describe() +
         (r.reference->type_only ? " (type only: the declaration, nothing at link or run time)" : "");
}

std::string describe(const OwnedReference& r) {
  std::string out = subject(r);
  const std::string& via = r.reference->via_name;
  switch (r.reference->via) {
    case Via::direct:
      break;
    case Via::macro:
      out += via.empty() ? " through a macro" : " through macro '" + via + "'";
      break;
    case Via::alias:
      out += " through alias '" + via + "'";
      break;
    case Via::typedef_:
      out += " through typedef '" + via + "'";
      break;
    case Via::type:
      out += " in the type of '" + via + "'";
      break;
  }
  return out;
}

std::vector<std::string> explain(const ProjectModel& model, const OwnedReference& r) {
  const TuFacts& facts = model.facts();
  std::vector<std::string> out;
  std::string use =
      "line " + std::to_string(r.reference->at.line) + " names '" + r.symbol->qualified_name + "'";
  if (r.reference->via != Via::direct && !r.reference->via_name.empty())
    use += " through '" + r.reference->via_name + "'";
  if (r.symbol->declared.file >= 0)
    use += ", declared at " + model.relative(facts.path(r.symbol->declared.file)) + ":" +
           std::to_string(r.symbol->declared.line);
  out.push_back(use);
  out.push_back(model.explain_owner(r.owner));
  out.push_back(model.explain_layer(r.reference->at.file));
  return out;
}

std::vector<std::string> explain_include(const ProjectModel& model, const Include& include,
                                         const Owner& owner) {
  std::vector<std::string> out;
  out.push_back("'" + include.spelled + "'" +
                (include.included >= 0
                     ? " resolves to " + model.relative(model.facts().path(include.included))
                     : std::string(" is not found on this machine")));
  out.push_back(model.explain_owner(owner));
  out.push_back(model.explain_layer(include.at.file));
  return out;
}

}  // namespace emberlint
