#include <map>
#include <nlohmann/json.hpp>

#include "lint/support/source_text.hpp"
#include "reports/report.hpp"

namespace emberlint {

namespace {

nlohmann::json fix_json(const CheckResult& result, const Diagnostic& d) {
  nlohmann::json fix = nlohmann::json::array();
  for (const Replacement& r : d.fix) {
    fix.push_back({{"file", sanitize_utf8(display_path(result, r.file))},
                   {"offset", r.offset},
                   {"length", r.length},
                   {"replacement", sanitize_utf8(r.replacement)}});
  }
  return fix;
}

// "baseline": what --baseline / --write-baseline did; "stale_baseline": the entries that match no finding.
void add_baseline(nlohmann::json& doc, const BaselineOutcome& b) {
  nlohmann::json summary = {{"file", sanitize_utf8(b.file)}, {"matched", b.matched}, {"pruned", b.pruned}};
  if (b.written) summary["written"] = *b.written;
  doc["baseline"] = std::move(summary);
  nlohmann::json stale = nlohmann::json::array();
  for (const BaselineEntry& e : b.stale) {
    stale.push_back({{"fingerprint", e.fingerprint},
                     {"code", e.code},
                     {"file", sanitize_utf8(e.file)},
                     {"line", e.line},
                     {"message", sanitize_utf8(e.message)}});
  }
  doc["stale_baseline"] = std::move(stale);
}

}  // namespace

void render_json(std::ostream& out, const CheckResult& result, bool statistics) {
  using nlohmann::json;
  json doc;
  doc["tool"] = "emberlint";
  doc["version"] = kVersion;
  if (result.shard) doc["shard"] = {{"index", result.shard->index}, {"count", result.shard->count}};
  if (result.unit) doc["unit"] = sanitize_utf8(display_path(result, *result.unit));
  doc["files_analyzed"] = result.files_analyzed;
  json diags = json::array();
  std::map<std::string, std::size_t> counts;
  for (const Diagnostic& d : result.diagnostics) {
    ++counts[d.code];
    diags.push_back({{"code", d.code},
                     {"name", d.name},
                     {"severity", std::string(to_string(d.severity))},
                     {"file", sanitize_utf8(display_path(result, d.file))},
                     {"line", d.line},
                     {"column", d.column},
                     {"end_line", d.end_line},
                     {"end_column", d.end_column},
                     {"message", sanitize_utf8(d.message)},
                     {"fix", fix_json(result, d)},
                     {"configurations", d.configurations}});
    if (!d.explanation.empty()) {  // check --explain
      json steps = json::array();
      for (const auto& step : d.explanation) steps.push_back(sanitize_utf8(step));
      diags.back()["explanation"] = std::move(steps);
    }
  }
  doc["diagnostics"] = std::move(diags);
  json failures = json::array();
  for (const Failure& f : result.failures) {
    failures.push_back({{"file", sanitize_utf8(display_path(result, f.file))},
                        {"message", sanitize_utf8(failure_message(result, f))},
                        {"cause", f.cause},
                        {"expected", f.expected}});
  }
  doc["failures"] = std::move(failures);
  // Units analyzed despite parse errors: their findings are in "diagnostics".
  json partial = json::array();
  for (const Failure& f : result.partial) {
    json errors = json::array();
    for (const ParseError& e : f.errors) {
      errors.push_back(
          {{"file", sanitize_utf8(e.where.empty() ? std::string() : display_path(result, e.where))},
           {"line", e.line},
           {"column", e.column},
           {"message", sanitize_utf8(e.message)}});
    }
    partial.push_back({{"file", sanitize_utf8(display_path(result, f.file))},
                       {"message", sanitize_utf8(failure_message(result, f))},
                       {"cause", f.cause},
                       {"expected", f.expected},
                       {"errors", std::move(errors)}});
  }
  doc["partial"] = std::move(partial);
  if (result.fixed) doc["fixed"] = *result.fixed;
  if (!result.warnings.empty()) doc["warnings"] = result.warnings;
  if (result.baseline) add_baseline(doc, *result.baseline);
  if (statistics) {
    doc["statistics"] = counts;
    json files = json::array(), symbols = json::array();
    for (const Ranked& r : top_files(result)) files.push_back({{"file", r.name}, {"findings", r.count}});
    for (const Ranked& r : top_symbols(result))
      symbols.push_back({{"symbol", r.name}, {"code", r.code}, {"uses", r.count}});
    doc["statistics"]["top_files"] = std::move(files);
    doc["statistics"]["top_symbols"] = std::move(symbols);
  }
  if (statistics) {
    const ParseCounts& p = result.parses;
    doc["statistics"]["parses"] = {{"units", p.units},       {"headers", p.headers},
                                   {"batches", p.batches},   {"headers_alone", p.headers_alone},
                                   {"prefixes", p.prefixes}, {"prefixed_units", p.prefixed_units}};
  }
  if (statistics && !result.configuration_units.empty()) {
    // Units per configuration; those of none apart, as "" is no name.
    json units = json::object();
    std::size_t none = 0;
    for (const auto& [name, n] : result.configuration_units) {
      if (name.empty())
        none = n;
      else
        units[name] = n;
    }
    doc["statistics"]["configurations"] = std::move(units);
    doc["statistics"]["units_in_no_configuration"] = none;
  }
  if (statistics && result.cache)
    doc["statistics"]["cache"] = {{"hits", result.cache->hits}, {"misses", result.cache->misses}};
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace emberlint
