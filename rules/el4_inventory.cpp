#include "rules/el4_inventory.hpp"

#include <algorithm>

namespace emberlint {

std::vector<const RuleInfo*> inventory_rule_infos() {
  return {&missing_op_info(), &signature_mismatch_info(), &unexposed_op_info(), &stub_op_info()};
}

std::vector<Diagnostic> check_inventory(const analyze::Inventory& inventory) {
  std::vector<Diagnostic> out;
  check_missing_op(inventory, out);
  check_signature_mismatch(inventory, out);
  check_unexposed_op(inventory, out);
  check_stub_op(inventory, out);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace emberlint
