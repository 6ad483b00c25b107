// A rule reads the facts of one translation unit through its ProjectModel and reports diagnostics.
// Each rule lives in one file in rules/ with its documentation: What it does / Why is this bad? /
// Example / Use instead.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lint/project/config.hpp"
#include "lint/diagnostic.hpp"
#include "lint/project/project.hpp"
#include "lint/findings/suppressions.hpp"

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
              std::string group = {}, std::vector<std::string> explanation = {}) const;

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

// Every rule a run knows, handed down by the composition root (rules/registry.hpp's rule_catalog()), so the
// check pipeline in lint/ runs the rules without naming one. It is also the config loader's RuleNames.
class RuleCatalog : public RuleNames {
 public:
  // EL001's diagnostic for a suppression: unused, malformed, or naming an unknown rule.
  using SuppressionDiagnostic =
      std::function<Diagnostic(const Suppression&, const std::filesystem::path&, const std::string& unknown)>;

  // `file_rules` run on every unit; `infos` is every rule in code order (EL001 and the inventory rules too).
  RuleCatalog(std::vector<const Rule*> file_rules, std::vector<const RuleInfo*> infos,
              const RuleInfo& unused_suppression, SuppressionDiagnostic suppression_diagnostic);

  const std::vector<const Rule*>& file_rules() const { return file_rules_; }
  const std::vector<const RuleInfo*>& infos() const { return infos_; }
  const RuleInfo& unused_suppression() const { return unused_suppression_; }
  Diagnostic suppression_diagnostic(const Suppression& s, const std::filesystem::path& file,
                                    const std::string& unknown_rule) const {
    return suppression_diagnostic_(s, file, unknown_rule);
  }

  // By code or name, case-insensitive for codes.
  const RuleInfo* find(const std::string& code_or_name) const;
  // Whether --select and --ignore leave a rule on: an item is "ALL", a rule's code or name, or a prefix of
  // codes ("EL1"); nothing selected selects every rule. The one reading of both options, for check and
  // analyze.
  bool selected(const RuleInfo& rule, const std::vector<std::string>& select,
                const std::vector<std::string>& ignore) const;
  // Whether an item of --select or --ignore names some rule (a code, a name, "ALL" or a code prefix).
  bool names_some_rule(const std::string& item) const;

  std::optional<std::string> code_of(const std::string& code_or_name) const override;
  std::vector<std::string> options_of(const std::string& code) const override;

 private:
  std::vector<const Rule*> file_rules_;
  std::vector<const RuleInfo*> infos_;
  const RuleInfo& unused_suppression_;
  SuppressionDiagnostic suppression_diagnostic_;
};

}  // namespace emberlint
