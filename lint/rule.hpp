// A rule reads the facts of one translation unit through its ProjectModel and reports diagnostics.
// Each rule lives in one file in rules/ with its documentation: What it does / Why is this bad? /
// Example / Use instead.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lint/diagnostic.hpp"
#include "lint/project.hpp"

namespace emberlint {

struct RuleInfo {
  std::string code;    // "EL100"
  std::string name;    // "frontend-includes-backend"
  std::string family;  // "purity"
  Severity default_severity = Severity::warning;
  bool fixable = false;
  std::string summary;  // one line for `emberlint rules`
  std::string doc;      // Markdown with the four headings, for `emberlint rule X` and SARIF help
  // The keys of `rules.<code>` in .emberlint.json besides "severity" that the rule reads.
  std::vector<std::string> options = {};
};

// Collects one rule's diagnostics for one translation unit; reports only in project files.
class Reporter {
 public:
  Reporter(const RuleInfo& info, const TuFacts& facts, std::vector<Diagnostic>& out)
      : info_(info), facts_(facts), out_(out) {}
  void report(const Location& at, std::string message, std::vector<Replacement> fix = {},
              std::string group = {}) const;

 private:
  const RuleInfo& info_;
  const TuFacts& facts_;
  std::vector<Diagnostic>& out_;
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  // Rules that work on a whole translation unit override this; EL001 is computed by the suppression pass.
  virtual void check(const ProjectModel& model, const Reporter& reporter) const = 0;
};

}  // namespace emberlint
