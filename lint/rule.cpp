#include "lint/rule.hpp"

namespace emberlint {

void Reporter::report(const Location& at, std::string message, std::vector<Replacement> fix,
                      std::string group) const {
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
  out_.push_back(std::move(d));
}

}  // namespace emberlint
