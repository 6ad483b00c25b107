// The terminal table: one row per op grouped by category, one column per backend, colored on a TTY.
#include <algorithm>

#include "reports/analyze_report.hpp"

namespace emberlint {

namespace {

const char* color_of(analyze::Status s) {
  switch (s) {
    case analyze::Status::native:
      return "\033[32m";
    case analyze::Status::fallback:
      return "\033[36m";
    case analyze::Status::stub:
      return "\033[33m";
    case analyze::Status::missing:
      return "\033[31m";
    case analyze::Status::unknown:
      return "\033[35m";
  }
  return "";
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s += std::string(width - s.size(), ' ');
  return s;
}

void render_plan_table(std::ostream& out, const AnalyzeReport& report) {
  const auto& plan = *report.plan;
  out << "\nmigration plan (backend " << plan.backend << ", " << (plan.applied ? "applied" : "dry run")
      << "): " << plan.moves.size() << " function" << (plan.moves.size() == 1 ? "" : "s") << "\n";
  for (const auto& m : plan.moves) {
    out << "  " << m.function << " [" << m.backend << "]\n"
        << "    from     " << analyze_path(report, m.source.file) << ":" << m.source.line << "\n"
        << "    to       " << analyze_path(report, m.target) << "\n";
    if (!m.helpers.empty()) {
      out << "    helpers ";
      for (const auto& h : m.helpers) out << " " << h;
      out << "\n";
    }
    if (!m.includes.empty()) {
      out << "    includes";
      for (const auto& i : m.includes) out << " " << i;
      out << "\n";
    }
    if (!m.dispatch.empty()) out << "    dispatch " << m.dispatch << "\n";
    for (const auto& c : m.call_sites)
      out << "    replaces " << analyze_path(report, c.file) << ":" << c.line << "\n";
  }
  for (const auto& f : plan.created) out << "  create " << analyze_path(report, f) << "\n";
  for (const auto& f : plan.changed) out << "  change " << analyze_path(report, f) << "\n";
  for (const auto& f : plan.removed) out << "  remove " << analyze_path(report, f) << "\n";
}

}  // namespace

void render_analyze_table(std::ostream& out, const AnalyzeReport& report, bool color) {
  const auto& inv = report.inventory;
  const char* reset = color ? "\033[0m" : "";
  const char* bold = color ? "\033[1m" : "";
  std::size_t name_width = 12;
  for (const auto& op : inv.ops) name_width = std::max(name_width, op.id.size() + 4);
  std::size_t col = 10;
  for (const auto& b : inv.backends) col = std::max(col, b.name.size() + 2);
  out << bold << "operations inventory of " << inv.interface_name << reset << " (model " << inv.model
      << "): " << inv.ops.size() << " ops x " << inv.backends.size() << " backends\n";
  out << bold << pad("op", name_width);
  for (const auto& b : inv.backends) out << pad(b.name, col);
  out << reset << "\n";
  std::string category;
  for (std::size_t o = 0; o < inv.ops.size(); ++o) {
    const auto& op = inv.ops[o];
    if (op.category != category) {
      category = op.category;
      out << bold << category << reset << "\n";
    }
    out << "  " << pad(op.id, name_width - 2);
    for (std::size_t b = 0; b < inv.backends.size(); ++b) {
      const auto& cell = inv.cells[o][b];
      std::string text = std::string(analyze::to_string(cell.status)) + (cell.mismatches.empty() ? "" : "*");
      out << (color ? color_of(cell.status) : "") << pad(text, col) << reset;
    }
    out << "\n";
  }
  out << bold << pad("coverage", name_width) << reset;
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    auto c = inv.counts(b);
    std::size_t implemented = c[0] + c[1];
    out << pad(std::to_string(implemented) + "/" + std::to_string(inv.ops.size()), col);
  }
  out << "\n";
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    auto c = inv.counts(b);
    out << "  " << inv.backends[b].name << " ("
        << (inv.backends[b].implementation.empty() ? "-" : inv.backends[b].implementation) << "): " << c[0]
        << " native, " << c[1] << " fallback, " << c[2] << " stub, " << c[3] << " missing"
        << (c[4] ? ", " + std::to_string(c[4]) + " unknown" : std::string()) << "\n";
  }
  for (const auto& line : analyze::role_summaries(inv)) out << "  " << line << "\n";
  bool any_mismatch = false;
  for (const auto& row : inv.cells) {
    for (const auto& cell : row) any_mismatch = any_mismatch || !cell.mismatches.empty();
  }
  if (any_mismatch) out << "  * the signature differs from the interface (EL401)\n";
  if (!inv.unexposed.empty()) out << "  " << inv.unexposed.size() << " unexposed operation(s) (EL402)\n";
  for (const auto& w : inv.warnings) out << "  warning: " << w << "\n";
  if (report.plan) render_plan_table(out, report);
}

}  // namespace emberlint
