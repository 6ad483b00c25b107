#include "rules/registry.hpp"

#include "rules/el001_unused_suppression.hpp"
#include "rules/el4_inventory.hpp"

namespace emberlint {

const std::vector<std::unique_ptr<Rule>>& rules() {
  static const std::vector<std::unique_ptr<Rule>> all = [] {
    std::vector<std::unique_ptr<Rule>> r;
    r.push_back(make_frontend_includes_backend());      // EL100
    r.push_back(make_frontend_uses_backend_symbol());   // EL101
    r.push_back(make_backend_code_outside_backends());  // EL102
    r.push_back(make_cross_backend_dependency());       // EL103
    r.push_back(make_test_bypasses_frontend());         // EL104
    r.push_back(make_tensor_operator());                // EL200
    r.push_back(make_tensor_in_condition());            // EL201
    r.push_back(make_eigen_auto_expression());          // EL202
    r.push_back(make_scalar_cast());                    // EL300
    r.push_back(make_scalar_item());                    // EL301
    r.push_back(make_host_roundtrip());                 // EL302
    r.push_back(make_element_loop());                   // EL303
    return r;
  }();
  return all;
}

const RuleCatalog& rule_catalog() {
  static const RuleCatalog catalog = [] {
    std::vector<const Rule*> file_rules;
    std::vector<const RuleInfo*> infos = {&unused_suppression_info()};
    for (const auto& r : rules()) {
      file_rules.push_back(r.get());
      infos.push_back(&r->info());
    }
    for (const RuleInfo* info : inventory_rule_infos()) infos.push_back(info);  // EL400-EL403, analyze's
    return RuleCatalog(std::move(file_rules), std::move(infos), unused_suppression_info(),
                       unused_suppression_diagnostic);
  }();
  return catalog;
}

std::vector<const RuleInfo*> rule_infos() {
  return rule_catalog().infos();
}

const RuleInfo* find_rule(const std::string& code_or_name) {
  return rule_catalog().find(code_or_name);
}

bool rule_selected(const RuleInfo& rule, const std::vector<std::string>& select,
                   const std::vector<std::string>& ignore) {
  return rule_catalog().selected(rule, select, ignore);
}

std::optional<std::string> RegistryNames::code_of(const std::string& code_or_name) const {
  return rule_catalog().code_of(code_or_name);
}

std::vector<std::string> RegistryNames::options_of(const std::string& code) const {
  return rule_catalog().options_of(code);
}

}  // namespace emberlint
