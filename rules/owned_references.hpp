// Shared by the purity rules: references to backend-owned symbols, one per line, backend and symbol.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lint/project/project.hpp"

namespace emberlint {

struct OwnedReference {
  const Reference* reference;
  const Symbol* symbol;
  Owner owner;
};

// References in project files for which `keep(file, owner)` holds, to symbols a backend owns, in source
// order. On each line and for each owning backend: one reference per symbol the line names directly, or, on a
// line without such, the one that stands for it (a named symbol before a namespace, a direct use before one
// through an alias, typedef, macro or deduced type, then the leftmost). Type-only
// references (Reference::type_only) count only when the rule's `report_type_only` option says so.
std::vector<OwnedReference> owned_references(const ProjectModel& model, const std::string& rule,
                                             const std::function<bool(FileId, const Owner&)>& keep);

// "'Eigen::Matrix' of library Eigen (backend 'eigen') through alias 'Mat'"
std::string describe(const OwnedReference& r);
// What is used, without how it arrived: "'Eigen::Matrix' of library Eigen (backend 'eigen')", marked when
// the use is type-only. The group of a finding per use (Diagnostic::group): a file's uses of one symbol are
// reported once, its type-only uses once more.
std::string subject(const OwnedReference& r);

// `check --explain`: why a use or an include is a finding, one step per line: where the symbol is declared
// (or the header the include resolves to), the config entry that makes its owner a backend's, and the one
// that puts the using file in its layer.
std::vector<std::string> explain(const ProjectModel& model, const OwnedReference& r);
std::vector<std::string> explain_include(const ProjectModel& model, const Include& include,
                                         const Owner& owner);

}  // namespace emberlint
