// Every rule emberlint has, in code order. Adding a rule: one file in rules/, one line in registry.cpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lint/project/config.hpp"
#include "lint/findings/rule.hpp"

namespace emberlint {

// EL001 is not a Rule: the suppression pass produces it. Its documentation lives in its own file.
const RuleInfo& unused_suppression_info();

const std::vector<std::unique_ptr<Rule>>& rules();
// The catalog every run is handed (lint/findings/rule.hpp): the rules below, EL001 and the inventory rules.
const RuleCatalog& rule_catalog();
// Every rule's info in code order: EL001, the per-file rules, and analyze's inventory rules EL400-EL403.
std::vector<const RuleInfo*> rule_infos();
// By code or name, case-insensitive for codes.
const RuleInfo* find_rule(const std::string& code_or_name);

// The registry as the config loader sees it.
class RegistryNames : public RuleNames {
 public:
  std::optional<std::string> code_of(const std::string& code_or_name) const override;
  std::vector<std::string> options_of(const std::string& code) const override;
};

// rule_catalog().selected.
bool rule_selected(const RuleInfo& rule, const std::vector<std::string>& select,
                   const std::vector<std::string>& ignore);

std::unique_ptr<Rule> make_frontend_includes_backend();
std::unique_ptr<Rule> make_frontend_uses_backend_symbol();
std::unique_ptr<Rule> make_backend_code_outside_backends();
std::unique_ptr<Rule> make_cross_backend_dependency();
std::unique_ptr<Rule> make_test_bypasses_frontend();
std::unique_ptr<Rule> make_tensor_operator();
std::unique_ptr<Rule> make_tensor_in_condition();
std::unique_ptr<Rule> make_eigen_auto_expression();
std::unique_ptr<Rule> make_scalar_cast();
std::unique_ptr<Rule> make_scalar_item();
std::unique_ptr<Rule> make_host_roundtrip();
std::unique_ptr<Rule> make_element_loop();

}  // namespace emberlint
