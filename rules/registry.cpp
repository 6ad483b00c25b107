#include "rules/registry.hpp"

#include "rules/el4_inventory.hpp"

#include <algorithm>
#include <cctype>

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

std::vector<const RuleInfo*> rule_infos() {
  std::vector<const RuleInfo*> out = {&unused_suppression_info()};
  for (const auto& r : rules()) out.push_back(&r->info());
  for (const RuleInfo* info : inventory_rule_infos()) out.push_back(info);  // EL400-EL403, analyze's
  return out;
}

const RuleInfo* find_rule(const std::string& code_or_name) {
  std::string upper = code_or_name;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const RuleInfo* info : rule_infos()) {
    if (info->code == upper || info->name == code_or_name) return info;
  }
  return nullptr;
}

std::vector<std::string> RegistryNames::options_of(const std::string& code) const {
  const RuleInfo* info = find_rule(code);
  return info ? info->options : std::vector<std::string>{};
}

bool rule_selected(const RuleInfo& rule, const std::vector<std::string>& select,
                   const std::vector<std::string>& ignore) {
  auto matches = [&](const std::string& item) {
    if (item == "ALL") return true;
    if (const RuleInfo* named = find_rule(item)) return named->code == rule.code;
    return rule.code.rfind(item, 0) == 0;  // a code prefix such as EL1
  };
  const bool in = select.empty() || std::any_of(select.begin(), select.end(), matches);
  return in && std::none_of(ignore.begin(), ignore.end(), matches);
}

std::optional<std::string> RegistryNames::code_of(const std::string& code_or_name) const {
  if (const RuleInfo* info = find_rule(code_or_name)) return info->code;
  return std::nullopt;
}

}  // namespace emberlint
