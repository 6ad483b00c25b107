// The analyze JSON: the matrix (ops with their cells), the findings in `check`'s schema, and the plan.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "lint/support/source_text.hpp"
#include "reports/analyze_report.hpp"

namespace emberlint {

namespace {

using nlohmann::json;

json place(const AnalyzeReport& r, const analyze::Place& p) {
  if (p.file.empty()) return nullptr;
  return {{"file", analyze_path(r, p.file)}, {"line", p.line}, {"column", p.column}};
}

}  // namespace

void render_analyze_json(std::ostream& out, const AnalyzeReport& report) {
  const auto& inv = report.inventory;
  json doc;
  doc["tool"] = "emberlint";
  doc["version"] = kVersion;
  doc["command"] = "analyze";
  doc["model"] = inv.model;
  doc["shape"] = inv.shape;
  doc["interface"] = inv.interface_name;
  doc["files_analyzed"] = report.findings.files_analyzed;
  json backends = json::array();
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    auto c = inv.counts(b);
    backends.push_back(
        {{"name", inv.backends[b].name},
         {"implementation", inv.backends[b].implementation},
         {"declared", place(report, inv.backends[b].declared)},
         {"role", inv.backends[b].role},
         {"counts",
          {{"native", c[0]}, {"fallback", c[1]}, {"stub", c[2]}, {"missing", c[3]}, {"unknown", c[4]}}}});
  }
  doc["backends"] = std::move(backends);
  doc["categories"] = inv.categories();
  json ops = json::array();
  for (std::size_t o = 0; o < inv.ops.size(); ++o) {
    const auto& op = inv.ops[o];
    json cells = json::object();
    for (std::size_t b = 0; b < inv.backends.size(); ++b) {
      const auto& cell = inv.cells[o][b];
      json j = {{"status", std::string(analyze::to_string(cell.status))},
                {"location", place(report, cell.defined)},
                {"signature", sanitize_utf8(cell.signature)},
                {"reason", sanitize_utf8(cell.reason)},
                {"mismatches", cell.mismatches}};
      cells[inv.backends[b].name] = std::move(j);
    }
    ops.push_back({{"id", op.id},
                   {"name", op.name},
                   {"category", op.category},
                   {"signature", op.describe()},
                   {"declared", place(report, op.declared)},
                   {"cells", std::move(cells)}});
  }
  doc["ops"] = std::move(ops);
  doc["warnings"] = inv.warnings;
  doc["roles"] = analyze::role_summaries(inv);
  json unexposed = json::array();
  for (const auto& u : inv.unexposed) {
    unexposed.push_back({{"backend", u.backend},
                         {"name", u.name},
                         {"signature", u.signature},
                         {"declared", place(report, u.declared)}});
  }
  doc["unexposed"] = std::move(unexposed);
  json diags = json::array();
  for (const Diagnostic& d : report.findings.diagnostics) {
    diags.push_back({{"code", d.code},
                     {"name", d.name},
                     {"severity", std::string(to_string(d.severity))},
                     {"file", sanitize_utf8(display_path(report.findings, d.file))},
                     {"line", d.line},
                     {"column", d.column},
                     {"end_line", d.end_line},
                     {"end_column", d.end_column},
                     {"message", sanitize_utf8(d.message)},
                     {"fix", json::array()}});
  }
  doc["diagnostics"] = std::move(diags);
  json failures = json::array();
  std::vector<Failure> all = report.findings.failures;  // the failed and the partial units, as one list
  all.insert(all.end(), report.findings.partial.begin(), report.findings.partial.end());
  std::sort(all.begin(), all.end());
  for (const Failure& f : all) {
    failures.push_back({{"file", sanitize_utf8(display_path(report.findings, f.file))},
                        {"message", sanitize_utf8(failure_message(report.findings, f))},
                        {"cause", f.cause},
                        {"expected", f.expected},
                        {"partial", f.partial}});
  }
  doc["failures"] = std::move(failures);
  if (report.plan) {
    const auto& plan = *report.plan;
    json moves = json::array();
    for (const auto& m : plan.moves) {
      json sites = json::array();
      for (const auto& c : m.call_sites) sites.push_back(place(report, c));
      moves.push_back({{"function", m.function},
                       {"signature", m.signature},
                       {"backend", m.backend},
                       {"category", m.category},
                       {"op", m.op},
                       {"source", place(report, m.source)},
                       {"target", analyze_path(report, m.target)},
                       {"helpers", m.helpers},
                       {"includes", m.includes},
                       {"dispatch", m.dispatch},
                       {"call_sites", std::move(sites)}});
    }
    auto paths = [&](const std::vector<std::filesystem::path>& v) {
      json a = json::array();
      for (const auto& p : v) a.push_back(analyze_path(report, p));
      return a;
    };
    doc["migration"] = {{"backend", plan.backend},        {"applied", plan.applied},
                        {"moves", std::move(moves)},      {"created", paths(plan.created)},
                        {"changed", paths(plan.changed)}, {"removed", paths(plan.removed)}};
  }
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace emberlint
