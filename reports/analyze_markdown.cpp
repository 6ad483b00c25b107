// The Markdown report: a summary table per backend, then one matrix table per category.
#include "reports/analyze_report.hpp"

namespace emberlint {

namespace {

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '<' || c == '>' || c == '*' || c == '_' || c == '`') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

void render_analyze_markdown(std::ostream& out, const AnalyzeReport& report) {
  const auto& inv = report.inventory;
  out << "# Operations inventory of `" << inv.interface_name << "`\n\n"
      << inv.ops.size() << " ops x " << inv.backends.size() << " backends (model `" << inv.model << "`).\n\n";
  for (const auto& w : inv.warnings) out << "> warning: " << md_escape(w) << "\n\n";
  for (const auto& line : analyze::role_summaries(inv)) out << "> " << md_escape(line) << "\n\n";
  out << "| backend | implementation | native | fallback | stub | missing | unknown | coverage |\n"
      << "|---|---|---:|---:|---:|---:|---:|---:|\n";
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    auto c = inv.counts(b);
    std::size_t pct = inv.ops.empty() ? 100 : (100 * (c[0] + c[1])) / inv.ops.size();
    // A backend's role (ops_interface.roles) beside its name: its stub or fallback count is by design.
    const std::string& role = inv.backends[b].role;
    out << "| " << inv.backends[b].name << (role.empty() ? "" : " (role: " + role + ")") << " | `"
        << inv.backends[b].implementation << "` | " << c[0] << " | " << c[1] << " | " << c[2] << " | " << c[3]
        << " | " << c[4] << " | " << pct << "% |\n";
  }
  for (const auto& category : inv.categories()) {
    out << "\n## " << category << "\n\n| op |";
    for (const auto& b : inv.backends) out << " " << b.name << " |";
    out << "\n|---|";
    for (std::size_t b = 0; b < inv.backends.size(); ++b) out << "---|";
    out << "\n";
    for (std::size_t o = 0; o < inv.ops.size(); ++o) {
      if (inv.ops[o].category != category) continue;
      out << "| `" << inv.ops[o].id << "` |";
      for (std::size_t b = 0; b < inv.backends.size(); ++b) {
        const auto& cell = inv.cells[o][b];
        out << " " << analyze::to_string(cell.status)
            << (cell.mismatches.empty() ? "" : " (signature differs)");
        if (!cell.defined.file.empty() && cell.status != analyze::Status::missing &&
            cell.status != analyze::Status::unknown)
          out << " [" << md_escape(analyze_path(report, cell.defined.file)) << ":" << cell.defined.line
              << "]";
        out << " |";
      }
      out << "\n";
    }
  }
  if (!report.findings.diagnostics.empty()) {
    out << "\n## Findings\n\n| code | location | message |\n|---|---|---|\n";
    for (const auto& d : report.findings.diagnostics) {
      out << "| " << d.code << " " << d.name << " | " << md_escape(display_path(report.findings, d.file))
          << ":" << d.line << " | " << md_escape(d.message) << " |\n";
    }
  }
  if (report.plan) {
    const auto& plan = *report.plan;
    out << "\n## Migration plan (" << plan.backend << ", " << (plan.applied ? "applied" : "dry run")
        << ")\n\n"
        << "| function | backend | source | target | helpers | includes | frontend dispatch |\n"
        << "|---|---|---|---|---|---|---|\n";
    for (const auto& m : plan.moves) {
      std::string helpers, includes;
      for (const auto& h : m.helpers) helpers += (helpers.empty() ? "" : ", ") + h;
      for (const auto& i : m.includes) includes += (includes.empty() ? "" : ", ") + i;
      out << "| `" << m.function << "` | " << m.backend << " | "
          << md_escape(analyze_path(report, m.source.file)) << ":" << m.source.line << " | "
          << md_escape(analyze_path(report, m.target)) << " | " << md_escape(helpers) << " | "
          << md_escape(includes) << " | " << (m.dispatch.empty() ? "" : "`" + m.dispatch + "`") << " |\n";
    }
    for (const auto& f : plan.created) out << "\n- create `" << analyze_path(report, f) << "`";
    for (const auto& f : plan.changed) out << "\n- change `" << analyze_path(report, f) << "`";
    for (const auto& f : plan.removed) out << "\n- remove `" << analyze_path(report, f) << "`";
    out << "\n";
  }
}

}  // namespace emberlint
