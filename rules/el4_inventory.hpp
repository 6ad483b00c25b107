// The consistency rules of `emberlint analyze`: EL400 missing-op, EL401 signature-mismatch, EL402
// unexposed-op, EL403 stub-op. They read the whole inventory (not one translation unit), so they are not
// per-file Rules; `emberlint rules` and `emberlint rule` list them with the others.
#pragma once

#include <vector>

#include "analyze/inventory.hpp"
#include "lint/diagnostic.hpp"
#include "lint/findings/rule.hpp"

namespace emberlint {

const RuleInfo& missing_op_info();
const RuleInfo& signature_mismatch_info();
const RuleInfo& unexposed_op_info();
const RuleInfo& stub_op_info();

void check_missing_op(const analyze::Inventory& inventory, std::vector<Diagnostic>& out);
void check_signature_mismatch(const analyze::Inventory& inventory, std::vector<Diagnostic>& out);
void check_unexposed_op(const analyze::Inventory& inventory, std::vector<Diagnostic>& out);
void check_stub_op(const analyze::Inventory& inventory, std::vector<Diagnostic>& out);

// EL400-EL403 in code order.
std::vector<const RuleInfo*> inventory_rule_infos();
// Every inventory rule's diagnostics at its default severity, sorted.
std::vector<Diagnostic> check_inventory(const analyze::Inventory& inventory);

// A diagnostic of an inventory rule at a place.
inline Diagnostic inventory_diagnostic(const RuleInfo& info, const analyze::Place& at, std::string message) {
  Diagnostic d;
  d.code = info.code;
  d.name = info.name;
  d.severity = info.default_severity;
  d.file = at.file;
  d.line = at.line;
  d.column = at.column;
  d.end_line = at.line;
  d.end_column = at.column;
  d.message = std::move(message);
  return d;
}

}  // namespace emberlint
