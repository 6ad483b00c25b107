// The Markdown summary, sized for `$GITHUB_STEP_SUMMARY`: the totals, a table of findings per rule, a table
// of the findings themselves (location, code, severity, the configurations it holds in when the run has
// configurations, message) capped with an "and N more" line, and the
// files that could not be analyzed. Table cells are escaped so that no message can break the table or
// inject HTML: `|` always, line breaks become spaces, and Markdown's special characters outside code spans.
#include <algorithm>
#include <map>

#include "lint/support/source_text.hpp"
#include "reports/report.hpp"

namespace emberlint {

namespace {

std::string cell(std::string_view raw) {
  std::string text = sanitize_utf8(raw);
  // Code spans stay code spans when the backticks pair up; otherwise every backtick is literal.
  bool spans = std::count(text.begin(), text.end(), '`') % 2 == 0;
  bool in_code = false;
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (c == '|') {
      out += "\\|";
    } else if (c == '`' && spans) {
      in_code = !in_code;
      out += c;
    } else if (!in_code && std::string_view("\\`*_<>[]~#&").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void totals(std::ostream& out, const CheckResult& result) {
  std::size_t by[4] = {0, 0, 0, 0};
  for (const Diagnostic& d : result.diagnostics) ++by[static_cast<int>(d.severity)];
  std::size_t total = result.diagnostics.size();
  if (total == 0) {
    out << "**No problems**";
  } else {
    out << "**" << plural(total, "problem", "problems") << "** ("
        << plural(by[static_cast<int>(Severity::error)], "error", "errors") << ", "
        << plural(by[static_cast<int>(Severity::warning)], "warning", "warnings") << ", "
        << by[static_cast<int>(Severity::info)] << " info)";
  }
  out << " in " << plural(result.files_analyzed, "file", "files");
  if (!result.configuration_units.empty()) out << " (" << configuration_counts(result) << ")";
  out << ".";
  if (!result.failures.empty())
    out << " **" << plural(result.failures.size(), "file", "files") << " could not be analyzed.**";
  if (!result.partial.empty())
    out << " " << plural(result.partial.size(), "file", "files") << " analyzed partially.";
  if (result.fixed) out << " Fixed " << plural(*result.fixed, "problem", "problems") << ".";
  out << "\n";
}

void per_rule(std::ostream& out, const CheckResult& result) {
  struct Row {
    std::string code, name;
    Severity worst = Severity::info;
    std::size_t count = 0;
  };
  std::map<std::string, Row> rows;
  for (const Diagnostic& d : result.diagnostics) {
    Row& r = rows[d.code];
    r.code = d.code;
    r.name = d.name;
    r.worst = std::max(r.worst, d.severity);
    ++r.count;
  }
  std::vector<Row> sorted;
  for (auto& [code, row] : rows) sorted.push_back(row);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Row& a, const Row& b) { return a.count > b.count; });
  out << "\n| code | rule | severity | findings |\n|---|---|---|---:|\n";
  for (const Row& r : sorted) {
    out << "| " << cell(r.code) << " | " << cell(r.name) << " | " << to_string(r.worst) << " | " << r.count
        << " |\n";
  }
}

void findings(std::ostream& out, const CheckResult& result, std::size_t limit) {
  // A configurations column when the run has configurations (a finding of a unit in none leaves it empty).
  const bool configured = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                                      [](const Diagnostic& d) { return !d.configurations.empty(); });
  out << "\n### Findings\n\n| location | code | severity | "
      << (configured ? "configurations | message |\n|---|---|---|---|---|\n"
                     : "message |\n|---|---|---|---|\n");
  std::size_t shown = std::min(limit, result.diagnostics.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const Diagnostic& d = result.diagnostics[i];
    std::string where = display_path(result, d.file) + ":" + std::to_string(d.line);
    out << "| " << cell(where) << " | " << cell(d.code + " " + d.name) << " | " << to_string(d.severity)
        << " | ";
    if (configured) out << cell(join_configurations(d.configurations)) << " | ";
    out << cell(d.message) << " |\n";
  }
  if (shown < result.diagnostics.size()) {
    out << "\n_... and " << result.diagnostics.size() - shown
        << " more (the text, json and sarif formats list every finding)._\n";
  }
}

void failures(std::ostream& out, const CheckResult& result) {
  out << "\n### Could not be analyzed\n\n| file | error |\n|---|---|\n";
  for (const Failure& f : result.failures) {
    out << "| " << cell(display_path(result, f.file)) << " | " << cell(failure_message(result, f)) << " |\n";
  }
}

void partial(std::ostream& out, const CheckResult& result) {
  out << "\n### Analyzed partially\n\n| file | cause | expected | first error |\n|---|---|---|---|\n";
  for (const Failure& f : result.partial) {
    out << "| " << cell(display_path(result, f.file)) << " | " << cell(f.cause) << " | "
        << (f.expected ? "yes" : "**no**") << " | " << cell(failure_message(result, f)) << " |\n";
  }
}

}  // namespace

void render_markdown(std::ostream& out, const CheckResult& result, const MarkdownOptions& options) {
  out << "## " << cell(options.title) << "\n\n";
  totals(out, result);
  if (!result.diagnostics.empty()) {
    per_rule(out, result);
    findings(out, result, options.max_findings);
  }
  if (!result.failures.empty()) failures(out, result);
  if (!result.partial.empty()) partial(out, result);
  if (result.baseline && result.baseline->matched > 0) {
    out << "\n"
        << plural(result.baseline->matched, "known problem", "known problems") << " hidden by `"
        << result.baseline->file << "`.\n";
  }
  if (result.baseline && !result.baseline->stale.empty()) {
    out << "\n### Stale baseline entries\n\nThey match no finding any more and fail the run until "
           "`emberlint check --baseline "
        << result.baseline->file
        << " --prune-baseline` removes them.\n\n| code | file:line | message |\n|---|---|---|\n";
    for (const BaselineEntry& e : result.baseline->stale) {
      out << "| " << e.code << " | " << cell(e.file + ":" + std::to_string(e.line)) << " | "
          << cell(e.message) << " |\n";
    }
  }
}

}  // namespace emberlint
