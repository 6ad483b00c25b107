// The HTML report: one self-contained file (inline CSS and script, no network). A heat map of the matrix by
// category, a coverage bar per backend, search and status filters, and each cell's signature and location
// on hover. Cells carry data-op/data-backend/data-status so tests (and scripts) can read the rendered page.
#include "reports/analyze_report.hpp"

namespace emberlint {

namespace {

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2430;background:#fff}
h1{font-size:20px;margin:0 0 4px} h2{font-size:16px;margin:24px 0 8px} .sub{color:#5b6573;margin-bottom:16px}
.bars{display:grid;grid-template-columns:max-content 1fr max-content;gap:6px 12px;align-items:center;max-width:720px}
.bar{display:flex;height:14px;border-radius:3px;overflow:hidden;background:#eceff3}
.bar span{display:block;height:100%}
.native{background:#2e9e5b;color:#fff}.fallback{background:#3b82c4;color:#fff}.stub{background:#e3a21a;color:#1d2430}
.missing{background:#d64545;color:#fff}.unknown{background:#8a93a3;color:#fff}
.controls{margin:16px 0;display:flex;gap:12px;flex-wrap:wrap;align-items:center}
.controls input[type=search]{padding:4px 8px;min-width:260px}
table{border-collapse:collapse} th,td{padding:3px 10px;text-align:left}
th{position:sticky;top:0;background:#fff;border-bottom:2px solid #cdd3db}
tr.cat th{background:#f3f5f8;font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#475162}
td.cell{text-align:center;font-size:12px;border:1px solid #fff;min-width:70px;cursor:default}
td.cell.differs{outline:2px dashed #1d2430;outline-offset:-3px}
td.op{font-family:ui-monospace,monospace}
#heat td{text-align:center;min-width:80px;font-size:12px;cursor:pointer;border:1px solid #fff}
.legend span{display:inline-block;padding:1px 8px;border-radius:3px;margin-right:6px;font-size:12px}
.findings td{font-size:13px;border-bottom:1px solid #eceff3;vertical-align:top}
.role{font-size:11px;padding:0 6px;margin-left:6px;border-radius:8px;background:#eceff3;color:#475162;font-weight:normal}
.roles{color:#5b6573;margin:8px 0 0;padding-left:20px}
#tip{position:fixed;pointer-events:none;background:#1d2430;color:#fff;padding:6px 9px;border-radius:4px;
font:12px/1.4 ui-monospace,monospace;max-width:640px;white-space:pre-wrap;display:none;z-index:9}
)";

constexpr const char* kScript = R"(
(function(){
  const search=document.getElementById('search');
  const boxes=[...document.querySelectorAll('input[data-status-filter]')];
  function apply(){
    const q=search.value.trim().toLowerCase();
    const shown=new Set(boxes.filter(b=>b.checked).map(b=>b.dataset.statusFilter));
    document.querySelectorAll('tr.oprow').forEach(tr=>{
      const text=(tr.dataset.op+' '+tr.dataset.category).toLowerCase();
      const cells=[...tr.querySelectorAll('td.cell')];
      const statusHit=cells.some(c=>shown.has(c.dataset.status));
      tr.style.display=(!q||text.includes(q))&&statusHit?'':'none';
    });
    document.querySelectorAll('tbody.category').forEach(tb=>{
      const any=[...tb.querySelectorAll('tr.oprow')].some(tr=>tr.style.display!=='none');
      tb.querySelector('tr.cat').style.display=any?'':'none';
    });
  }
  search.addEventListener('input',apply); boxes.forEach(b=>b.addEventListener('change',apply));
  // file.html#search=sum opens the report filtered (shareable links; the Chromium test uses it too).
  const m=location.hash.match(/^#search=(.*)$/);
  if(m){search.value=decodeURIComponent(m[1]);apply();}
  document.querySelectorAll('#heat td[data-category]').forEach(td=>td.addEventListener('click',()=>{
    search.value=td.dataset.category;apply();}));
  const tip=document.getElementById('tip');
  document.querySelectorAll('td.cell').forEach(td=>{
    td.addEventListener('mousemove',e=>{tip.textContent=td.dataset.tip;tip.style.display='block';
      tip.style.left=Math.min(e.clientX+14,innerWidth-660)+'px';tip.style.top=(e.clientY+14)+'px';});
    td.addEventListener('mouseleave',()=>{tip.style.display='none';});
  });
})();
)";

// A backend's role (ops_interface.roles) after its name: "stubs" (every op throws by design) or "fallback"
// (what it declines runs elsewhere). Empty for an ordinary backend.
std::string role_badge(const std::string& role) {
  if (role.empty()) return {};
  const char* title = role == "stubs" ? "stubs by design: its stub cells are not reported as EL403"
                                      : "falls back by design: the ops it declines run elsewhere";
  return " <span class=\"role\" data-role=\"" + esc(role) + "\" title=\"" + title + "\">" + esc(role) +
         "</span>";
}

// Category x backend, each cell colored by the share of ops implemented (native or fallback): the heat map.
void render_heat_map(std::ostream& out, const analyze::Inventory& inv) {
  out << "<h2>Coverage by category</h2><table id=\"heat\"><thead><tr><th>category</th>";
  for (const auto& b : inv.backends) out << "<th>" << esc(b.name) << "</th>";
  out << "</tr></thead><tbody>\n";
  for (const auto& category : inv.categories()) {
    out << "<tr><th>" << esc(category) << "</th>";
    for (std::size_t b = 0; b < inv.backends.size(); ++b) {
      std::size_t total = 0, done = 0;
      for (std::size_t o = 0; o < inv.ops.size(); ++o) {
        if (inv.ops[o].category != category) continue;
        ++total;
        auto s = inv.cells[o][b].status;
        if (s == analyze::Status::native || s == analyze::Status::fallback) ++done;
      }
      // Red (0%) through amber to green (100%) in HSL hue.
      int hue = total ? static_cast<int>(120 * done / total) : 120;
      out << "<td data-category=\"" << esc(category) << "\" data-backend=\"" << esc(inv.backends[b].name)
          << "\" style=\"background:hsl(" << hue << ",55%,45%);color:#fff\" title=\"" << done << " of "
          << total << " implemented\">" << done << "/" << total << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

void render_analyze_html(std::ostream& out, const AnalyzeReport& report) {
  const auto& inv = report.inventory;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>emberlint inventory: "
      << esc(inv.interface_name) << "</title>\n<style>" << kStyle << "</style></head><body>\n"
      << "<h1>Operations inventory of <code>" << esc(inv.interface_name)
      << "</code></h1>\n<div class=\"sub\">" << inv.ops.size() << " ops &times; " << inv.backends.size()
      << " backends, " << inv.categories().size() << " categories (model " << esc(inv.model) << "); "
      << report.findings.diagnostics.size() << " finding(s). emberlint " << kVersion
      << "</div>\n<div class=\"bars\">\n";
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    auto c = inv.counts(b);
    double total = inv.ops.empty() ? 1.0 : static_cast<double>(inv.ops.size());
    std::size_t pct = inv.ops.empty() ? 100 : (100 * (c[0] + c[1])) / inv.ops.size();
    out << "<div><b>" << esc(inv.backends[b].name) << "</b>" << role_badge(inv.backends[b].role)
        << "</div><div class=\"bar\" data-backend=\"" << esc(inv.backends[b].name) << "\" title=\"" << c[0]
        << " native, " << c[1] << " fallback, " << c[2] << " stub, " << c[3] << " missing, " << c[4]
        << " unknown\">";
    const char* names[] = {"native", "fallback", "stub", "missing", "unknown"};
    for (std::size_t s = 0; s < analyze::kStatusCount; ++s) {
      if (c[s])
        out << "<span class=\"" << names[s] << "\" style=\"width:" << (100.0 * c[s] / total) << "%\"></span>";
    }
    out << "</div><div class=\"coverage\" data-backend=\"" << esc(inv.backends[b].name) << "\">" << pct
        << "% (" << (c[0] + c[1]) << "/" << inv.ops.size() << ")</div>\n";
  }
  out << "</div>\n";
  // One line per backend with a role: what its stub or fallback cells mean (no EL403 for a stubs backend).
  const auto roles = analyze::role_summaries(inv);
  if (!roles.empty()) {
    out << "<ul class=\"roles\">";
    for (const auto& line : roles) out << "<li>" << esc(line) << "</li>";
    out << "</ul>\n";
  }
  render_heat_map(out, inv);
  out << "<div class=\"controls\"><input id=\"search\" type=\"search\" placeholder=\"filter ops or "
         "categories\"><span class=\"legend\">";
  for (const char* s : {"native", "fallback", "stub", "missing", "unknown"}) {
    out << "<label><input type=\"checkbox\" checked data-status-filter=\"" << s << "\"><span class=\"" << s
        << "\">" << s << "</span></label> ";
  }
  out << "</span></div>\n<table id=\"matrix\"><thead><tr><th>op</th>";
  for (const auto& b : inv.backends) out << "<th>" << esc(b.name) << role_badge(b.role) << "</th>";
  out << "</tr></thead>\n";
  for (const auto& category : inv.categories()) {
    out << "<tbody class=\"category\" data-category=\"" << esc(category)
        << "\"><tr class=\"cat\"><th colspan=\"" << inv.backends.size() + 1 << "\">" << esc(category)
        << "</th></tr>\n";
    for (std::size_t o = 0; o < inv.ops.size(); ++o) {
      const auto& op = inv.ops[o];
      if (op.category != category) continue;
      out << "<tr class=\"oprow\" data-op=\"" << esc(op.id) << "\" data-category=\"" << esc(category)
          << "\"><td class=\"op\" title=\"" << esc(op.describe()) << "\">" << esc(op.id) << "</td>";
      for (std::size_t b = 0; b < inv.backends.size(); ++b) {
        const auto& cell = inv.cells[o][b];
        std::string status(analyze::to_string(cell.status));
        std::string tip = (cell.signature.empty() ? op.describe() : cell.signature);
        std::string location;
        if (!cell.defined.file.empty()) {
          location = analyze_path(report, cell.defined.file);
          location.append(":").append(std::to_string(cell.defined.line));
          tip.append("\n").append(location);
        }
        if (!cell.reason.empty()) tip.append("\n").append(cell.reason);
        for (const auto& m : cell.mismatches) tip.append("\nsignature differs: ").append(m);
        out << "<td class=\"cell " << status << (cell.mismatches.empty() ? "" : " differs") << "\" data-op=\""
            << esc(op.id) << "\" data-backend=\"" << esc(inv.backends[b].name) << "\" data-status=\""
            << status << "\" data-location=\"" << esc(location) << "\" data-tip=\"" << esc(tip)
            << "\" title=\"" << esc(tip) << "\">" << status << "</td>";
      }
      out << "</tr>\n";
    }
    out << "</tbody>\n";
  }
  out << "</table>\n";
  if (!report.findings.diagnostics.empty()) {
    out << "<h2>Findings</h2><table class=\"findings\">";
    for (const auto& d : report.findings.diagnostics) {
      out << "<tr><td>" << d.code << "</td><td>" << esc(display_path(report.findings, d.file)) << ":"
          << d.line << "</td><td>" << esc(d.message) << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  if (report.plan) {
    const auto& plan = *report.plan;
    out << "<h2>Migration plan (" << esc(plan.backend) << ", " << (plan.applied ? "applied" : "dry run")
        << ")</h2><table class=\"findings\" id=\"plan\"><tr><th>function</th><th>backend</th><th>source</th>"
           "<th>target</th><th>helpers</th><th>includes</th><th>frontend dispatch</th></tr>\n";
    for (const auto& m : plan.moves) {
      std::string helpers, includes;
      for (const auto& h : m.helpers) helpers += (helpers.empty() ? "" : ", ") + h;
      for (const auto& i : m.includes) includes += (includes.empty() ? "" : ", ") + i;
      out << "<tr><td><code>" << esc(m.function) << "</code></td><td>" << esc(m.backend) << "</td><td>"
          << esc(analyze_path(report, m.source.file)) << ":" << m.source.line << "</td><td>"
          << esc(analyze_path(report, m.target)) << "</td><td>" << esc(helpers) << "</td><td>"
          << esc(includes) << "</td><td><code>" << esc(m.dispatch) << "</code></td></tr>\n";
    }
    out << "</table>\n";
  }
  out << "<div id=\"tip\"></div>\n<script>" << kScript << "</script>\n</body></html>\n";
}

}  // namespace emberlint
