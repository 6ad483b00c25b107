// EL001 unused-suppression: a suppression comment that suppressed nothing. Produced by the suppression pass
// (lint/findings/suppressions.hpp), after every other rule has run.
#include "rules/el001_unused_suppression.hpp"

#include "rules/registry.hpp"

namespace emberlint {

const RuleInfo& unused_suppression_info() {
  static const RuleInfo info{"EL001",
                             "unused-suppression",
                             "meta",
                             Severity::warning,
                             false,
                             "a suppression comment that suppressed nothing",
                             R"(## What it does
Flags a suppression comment that did not suppress any diagnostic: an `emberlint: ignore...` comment, a
`NOLINT...(emberlint-...)` comment or the predecessor's `EMBERLINT: IGNORE`. It also flags malformed
suppressions (an unknown directive, an unknown rule code, a begin without an end) because they suppress
nothing the author meant them to. A bare `NOLINT` is honored but never reported: it may be for clang-tidy.
A suppression is only reported when every rule it names ran on the file.

## Why is this bad?
Suppressions outlive the code they were written for. A stale one hides the next real finding on that line,
and a misspelled one gives a false sense that a finding was reviewed.

## Example
```cpp
int n = size - 1;  // emberlint: ignore[EL200]   <- nothing to suppress here
```

## Use instead
Delete the comment, or fix its rule list so it names the diagnostic it is meant for.
)"};
  return info;
}

Diagnostic unused_suppression_diagnostic(const Suppression& s, const std::filesystem::path& file,
                                         const std::string& unknown_rule) {
  Diagnostic d;
  const RuleInfo& info = unused_suppression_info();
  d.code = info.code;
  d.name = info.name;
  d.severity = info.default_severity;
  d.file = file;
  d.line = d.end_line = s.line;
  d.column = s.column;
  d.end_column = s.column + static_cast<unsigned>(s.spelling.size());
  if (!s.problem.empty()) {
    d.message = "malformed suppression: " + s.problem;
  } else if (!unknown_rule.empty()) {
    d.message = "suppression '" + s.spelling + "' names unknown rule '" + unknown_rule + "'";
  } else {
    d.message = "unused suppression '" + s.spelling + "': no diagnostic it names was reported here";
  }
  return d;
}

}  // namespace emberlint
