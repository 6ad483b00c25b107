// Renderers for `emberlint check` results. Every renderer prints paths relative to the project root (SARIF
// and GitHub annotations: to the repository's top level, CheckResult::repository_root) and keeps the result's
// (deterministic) order.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "lint/run/runner.hpp"
#include "lint/version.hpp"

namespace emberlint {

struct RuleInfo;

// The key of a SARIF result's partialFingerprints that holds emberlint's fingerprint
// (lint/run/fingerprint.hpp).
inline constexpr const char* kFingerprintKey = "emberlint/v1";

// --statistics: the files with the most findings and the grouped symbols (EL101, EL104) with the most uses,
// most first, then by name; at most `limit` each.
struct Ranked {
  std::string name;  // a display path, or a finding's group ("'__m128i' of library SSE (backend 'x86')")
  std::string code;  // the rule of a symbol; empty for a file
  std::size_t count = 0;
};
std::vector<Ranked> top_files(const CheckResult& result, std::size_t limit = 10);
std::vector<Ranked> top_symbols(const CheckResult& result, std::size_t limit = 10);

struct TextOptions {
  bool color = false;
  bool quiet = false;  // diagnostics only: no summary line
};

// clang style: `path:line:col: warning: message [EL100 frontend-includes-backend]`, the source line, a caret.
void render_text(std::ostream& out, const CheckResult& result, const TextOptions& options);
// The JSON report of docs/emberlint.md, "Formats and reports"; with statistics, a "statistics" object is
// added: the count per rule code and, with a result cache, "cache": {"hits": N, "misses": M}.
void render_json(std::ostream& out, const CheckResult& result, bool statistics);
// Counts per rule, most frequent first: `  3  EL101  frontend-uses-backend-symbol`; then, with a result
// cache, `cache: 12 hits, 1 miss` (units taken from the cache, units analyzed).
void render_statistics(std::ostream& out, const CheckResult& result);

// SARIF 2.1.0 for GitHub code scanning (reports/sarif.cpp): every registry rule in tool.driver.rules, one
// result per diagnostic with a %SRCROOT%-relative location (%SRCROOT%: the repository's top level), code
// point columns, a fingerprint under kFingerprintKey and its fix, and an error notification per file that
// could not be analyzed.
void render_sarif(std::ostream& out, const CheckResult& result);
// GitHub Actions workflow commands (reports/github.cpp): `::warning
// file=F,line=L,col=C,endLine=L,endColumn=C, title=EL200 tensor-operator::message` per diagnostic
// (error/warning/notice), `::error` per failure.
void render_github(std::ostream& out, const CheckResult& result);

struct JunitOptions {
  std::string suite = "emberlint";
  // One testcase per rule, in this order (empty: every registry rule); findings of other rules get their own.
  std::vector<const RuleInfo*> rules;
};
// JUnit XML (reports/junit.cpp): a testcase per rule (a <failure> listing its findings at a failing severity)
// and per file that could not be analyzed (an <error>).
void render_junit(std::ostream& out, const CheckResult& result, const JunitOptions& options);

struct MarkdownOptions {
  std::string title = "emberlint";
  std::size_t max_findings = 100;  // the findings table stops there with an "and N more" line
};
// A Markdown summary for $GITHUB_STEP_SUMMARY (reports/markdown.cpp): totals, findings per rule, findings.
void render_markdown(std::ostream& out, const CheckResult& result, const MarkdownOptions& options);

// "EL200 src/x.cpp:50: message (run with --prune-baseline)": a stale baseline entry, for every format.
std::string stale_entry_text(const BaselineEntry& entry);
// "frontend/x.cpp:3:5: error: expected ';'", paths relative to the root.
std::string failure_message(const CheckResult& result, const Failure& failure);
// "analyzed partially (missing SDK or system header, expected): <failure_message>": a partial unit, for every
// format.
std::string partial_message(const CheckResult& result, const Failure& partial);
// " (configuration cpu)", " (configurations cpu, opencl)": where a finding holds; empty when it says none.
std::string configuration_suffix(const Diagnostic& d);
// "2 configurations: cpu 60 units, opencl 58 units, 3 units in none" (CheckResult::configuration_units).
std::string configuration_counts(const CheckResult& result);

}  // namespace emberlint
