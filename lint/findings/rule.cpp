#include "lint/findings/rule.hpp"

#include <algorithm>
#include <cctype>

namespace emberlint {

void Reporter::report(const Location& at, std::string message, std::vector<Replacement> fix,
                      std::string group, std::vector<std::string> explanation) const {
  if (at.file < 0 || !facts_.files[static_cast<std::size_t>(at.file)].in_project) return;
  Diagnostic d;
  d.code = info_.code;
  d.name = info_.name;
  d.severity = info_.default_severity;
  d.file = facts_.path(at.file);
  d.line = at.line;
  d.column = at.column;
  d.end_line = at.end_line ? at.end_line : at.line;
  d.end_column = at.end_column ? at.end_column : at.column;
  d.message = std::move(message);
  d.fix = std::move(fix);
  d.group = std::move(group);
  d.explanation = std::move(explanation);
  out_.push_back(std::move(d));
}

RuleCatalog::RuleCatalog(std::vector<const Rule*> file_rules, std::vector<const RuleInfo*> infos,
                         const RuleInfo& unused_suppression, SuppressionDiagnostic suppression_diagnostic)
    : file_rules_(std::move(file_rules)),
      infos_(std::move(infos)),
      unused_suppression_(unused_suppression),
      suppression_diagnostic_(std::move(suppression_diagnostic)) {}

const RuleInfo* RuleCatalog::find(const std::string& code_or_name) const {
  std::string upper = code_or_name;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const RuleInfo* info : infos_) {
    if (info->code == upper || info->name == code_or_name) return info;
  }
  return nullptr;
}

bool RuleCatalog::selected(const RuleInfo& rule, const std::vector<std::string>& select,
                           const std::vector<std::string>& ignore) const {
  auto matches = [&](const std::string& item) {
    if (item == "ALL") return true;
    if (const RuleInfo* named = find(item)) return named->code == rule.code;
    return rule.code.rfind(item, 0) == 0;  // a code prefix such as EL1
  };
  const bool in = select.empty() || std::any_of(select.begin(), select.end(), matches);
  return in && std::none_of(ignore.begin(), ignore.end(), matches);
}

bool RuleCatalog::names_some_rule(const std::string& item) const {
  if (item == "ALL" || find(item)) return true;
  return std::any_of(infos_.begin(), infos_.end(),
                     [&](const RuleInfo* info) { return info->code.rfind(item, 0) == 0; });
}

std::optional<std::string> RuleCatalog::code_of(const std::string& code_or_name) const {
  if (const RuleInfo* info = find(code_or_name)) return info->code;
  return std::nullopt;
}

std::vector<std::string> RuleCatalog::options_of(const std::string& code) const {
  const RuleInfo* info = find(code);
  return info ? info->options : std::vector<std::string>{};
}

}  // namespace emberlint
