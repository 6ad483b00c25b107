// The CSV report (RFC 4180): one row per cell, so a spreadsheet can pivot it; with --migrate, the plan's
// moves follow as rows of kind "move".
#include "reports/analyze_report.hpp"

namespace emberlint {

namespace {

std::string csv(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

void render_analyze_csv(std::ostream& out, const AnalyzeReport& report) {
  const auto& inv = report.inventory;
  out << "kind,category,op,backend,status,file,line,signature,signature_differs,reason,model\r\n";
  const std::string model = csv(inv.model);
  for (std::size_t o = 0; o < inv.ops.size(); ++o) {
    for (std::size_t b = 0; b < inv.backends.size(); ++b) {
      const auto& cell = inv.cells[o][b];
      std::string mism;
      for (const auto& m : cell.mismatches) mism += (mism.empty() ? "" : "; ") + m;
      out << "cell," << csv(inv.ops[o].category) << "," << csv(inv.ops[o].id) << ","
          << csv(inv.backends[b].name) << "," << analyze::to_string(cell.status) << ","
          << csv(analyze_path(report, cell.defined.file)) << ","
          << (cell.defined.line ? std::to_string(cell.defined.line) : "") << "," << csv(cell.signature) << ","
          << csv(mism) << "," << csv(cell.reason) << "," << model << "\r\n";
    }
  }
  for (const auto& u : inv.unexposed) {
    out << "unexposed,," << csv(u.name) << "," << csv(u.backend) << ",,"
        << csv(analyze_path(report, u.declared.file)) << "," << u.declared.line << "," << csv(u.signature)
        << ",,," << model << "\r\n";
  }
  if (report.plan) {
    for (const auto& m : report.plan->moves) {
      std::string extra = "target " + analyze_path(report, m.target);
      for (const auto& h : m.helpers) extra += "; helper " + h;
      for (const auto& i : m.includes) extra += "; include " + i;
      if (!m.dispatch.empty()) extra += "; dispatch " + m.dispatch;
      out << "move," << csv(m.category) << "," << csv(m.function) << "," << csv(m.backend) << ","
          << (report.plan->applied ? "applied" : "planned") << "," << csv(analyze_path(report, m.source.file))
          << "," << m.source.line << "," << csv(m.signature) << ",," << csv(extra) << "," << model << "\r\n";
    }
  }
}

}  // namespace emberlint
