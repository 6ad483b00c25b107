// The SARIF 2.1.0 report, shaped for GitHub code scanning: one run whose driver lists every registry rule
// (descriptions, help, default level, tags, precision, problem.severity), one result per diagnostic with a
// repository-relative location (uriBaseId %SRCROOT%), a region whose columns count Unicode code points, a
// partial fingerprint and the diagnostic's fix, and one error notification per file that could not be
// analyzed.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "lint/run/fingerprint.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"
#include "reports/report.hpp"
#include "rules/registry.hpp"

namespace emberlint {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char* kRootId = "%SRCROOT%";

// By Severity: off, info, warning, error.
const char* sarif_level(Severity s) {
  static const char* kLevels[] = {"none", "note", "warning", "error"};
  return kLevels[static_cast<int>(s)];
}

// GitHub's problem.severity: error, warning or recommendation.
const char* problem_severity(Severity s) {
  return s == Severity::error ? "error" : s == Severity::warning ? "warning" : "recommendation";
}

// How often a rule's findings are true positives: the purity rules and EL001 decide from includes,
// declarations and comments; the others from types and inventories, with EL303's loop heuristic least sure.
const char* precision(const RuleInfo& info) {
  if (info.code == "EL303") return "medium";
  if (info.family == "purity" || info.family == "meta") return "very-high";
  return "high";
}

// The folder %SRCROOT% stands for: the repository's top level (code scanning resolves URIs against it).
fs::path source_root(const CheckResult& result) {
  return result.repository_root.empty() ? result.root : result.repository_root;
}

// A file relative to %SRCROOT% when it lies inside it, else an absolute file URI.
json artifact_location(const CheckResult& result, const fs::path& file) {
  fs::path rel = file.lexically_relative(source_root(result));
  bool inside = !source_root(result).empty() && !rel.empty() && *rel.begin() != ".." && rel.is_relative();
  if (!inside) return {{"uri", file_uri(file)}};
  return {{"uri", percent_encode(rel.generic_string())}, {"uriBaseId", kRootId}};
}

// Code points in text (each byte of an invalid UTF-8 sequence counts as one, as sanitize_utf8 replaces it).
std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (unsigned char c : sanitize_utf8(text)) n += (c & 0xC0) != 0x80;
  return n;
}

// Source files read once each, to turn byte columns and offsets into code point ones.
class Sources {
 public:
  const SourceText* get(const fs::path& file) {
    auto [it, inserted] = cache_.try_emplace(file);
    if (inserted) it->second = SourceText::read(file);
    return it->second ? &*it->second : nullptr;
  }
  // A 1-based byte column of a 1-based line as a 1-based code point column.
  unsigned column(const fs::path& file, unsigned line, unsigned byte_column) {
    const SourceText* src = get(file);
    if (!src || line == 0 || byte_column == 0) return byte_column;
    std::string_view text = src->line(line);
    std::size_t bytes = std::min<std::size_t>(byte_column - 1, text.size());
    return static_cast<unsigned>(code_points(text.substr(0, bytes)) + (byte_column - 1 - bytes) + 1);
  }
  // A byte offset of the file as a character offset.
  std::size_t offset(const fs::path& file, std::size_t byte_offset) {
    const SourceText* src = get(file);
    if (!src) return byte_offset;
    std::string_view text = src->text();
    std::size_t bytes = std::min(byte_offset, text.size());
    return code_points(text.substr(0, bytes)) + (byte_offset - bytes);
  }

 private:
  std::map<fs::path, std::optional<SourceText>> cache_;
};

// 1-based; no region for a diagnostic about a whole file, no endColumn for an empty range.
std::optional<json> region(Sources& sources, const Diagnostic& d) {
  if (d.line == 0) return std::nullopt;
  json r = {{"startLine", d.line}};
  if (d.column == 0) return r;
  unsigned start = sources.column(d.file, d.line, d.column);
  r["startColumn"] = start;
  unsigned end_line = std::max(d.end_line, d.line);
  if (d.end_column == 0) return r;
  unsigned end = sources.column(d.file, end_line, d.end_column);
  if (end_line == d.line && end <= start) return r;
  r["endLine"] = end_line;
  r["endColumn"] = end;
  return r;
}

// The first paragraph of the doc's "What it does" section, on one line; else the summary.
std::string full_description(const RuleInfo& info) {
  const std::string heading = "## What it does\n";
  std::size_t begin = info.doc.find(heading);
  if (begin == std::string::npos) return info.summary;
  begin += heading.size();
  std::size_t end = info.doc.find("\n\n", begin);
  std::string text = info.doc.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  return text.empty() ? info.summary : text;
}

json rule_descriptor(const RuleInfo& info) {
  const char* level = sarif_level(info.default_severity);
  return {{"id", info.code},
          {"name", info.name},
          {"shortDescription", {{"text", info.summary}}},
          {"fullDescription", {{"text", full_description(info)}}},
          {"help", {{"text", info.doc}, {"markdown", info.doc}}},
          {"defaultConfiguration", {{"level", level}, {"enabled", info.default_severity != Severity::off}}},
          {"properties",
           {{"tags", {"emberlint", info.family}},
            {"precision", precision(info)},
            {"problem.severity", problem_severity(info.default_severity)},
            {"family", info.family},
            {"fixable", info.fixable}}}};
}

// One artifactChange per file, in the order the fix first touches it; offsets in characters and bytes.
json fixes(const CheckResult& result, Sources& sources, const Diagnostic& d) {
  json changes = json::array();
  std::map<fs::path, std::size_t> index;
  for (const Replacement& r : d.fix) {
    auto [it, inserted] = index.try_emplace(r.file, changes.size());
    if (inserted)
      changes.push_back(
          {{"artifactLocation", artifact_location(result, r.file)}, {"replacements", json::array()}});
    std::size_t begin = sources.offset(r.file, r.offset);
    std::size_t end = sources.offset(r.file, r.offset + r.length);
    changes[it->second]["replacements"].push_back(
        {{"deletedRegion",
          {{"charOffset", begin},
           {"charLength", end - begin},
           {"byteOffset", r.offset},
           {"byteLength", r.length}}},
         {"insertedContent", {{"text", sanitize_utf8(r.replacement)}}}});
  }
  json fix = {{"description", {{"text", "Apply emberlint's fix for " + d.code + " " + d.name}}},
              {"artifactChanges", std::move(changes)}};
  return json::array({std::move(fix)});
}

json notification(const CheckResult& result, const Failure& f) {
  const bool unexpected = !f.expected;
  const fs::path& where = f.where.empty() ? f.file : f.where;
  json physical = {{"artifactLocation", artifact_location(result, where)}};
  if (!f.where.empty() && f.line > 0) {
    physical["region"] = {{"startLine", f.line}};
    if (f.column > 0) physical["region"]["startColumn"] = f.column;
  }
  json location = {{"physicalLocation", std::move(physical)}};
  // A partial unit: a warning (a note when the config expects its cause); a failed one: an error.
  const char* level = f.partial ? (unexpected ? "warning" : "note") : (unexpected ? "error" : "note");
  std::string text =
      f.partial ? display_path(result, f.file) + ": " + partial_message(result, f)
                : display_path(result, f.file) + ": could not be analyzed: " + failure_message(result, f);
  return {{"level", level},
          {"message", {{"text", sanitize_utf8(text)}}},
          {"locations", json::array({std::move(location)})},
          {"properties", {{"cause", f.cause}, {"expected", f.expected}, {"partial", f.partial}}}};
}

}  // namespace

void render_sarif(std::ostream& out, const CheckResult& result) {
  std::vector<const RuleInfo*> infos = rule_infos();
  json rules = json::array();
  std::map<std::string, std::size_t> rule_index;
  for (const RuleInfo* info : infos) {
    rule_index[info->code] = rules.size();
    rules.push_back(rule_descriptor(*info));
  }

  Sources sources;
  std::vector<std::string> prints = fingerprints(result);
  json results = json::array();
  for (std::size_t i = 0; i < result.diagnostics.size(); ++i) {
    const Diagnostic& d = result.diagnostics[i];
    json physical = {{"artifactLocation", artifact_location(result, d.file)}};
    if (auto r = region(sources, d)) physical["region"] = std::move(*r);
    json res = {{"ruleId", d.code},
                {"level", sarif_level(d.severity)},
                {"message", {{"text", sanitize_utf8(d.message)}}},
                {"locations", json::array({{{"physicalLocation", std::move(physical)}}})}};
    if (auto it = rule_index.find(d.code); it != rule_index.end()) res["ruleIndex"] = it->second;
    // Our own key: primaryLocationLineHash is GitHub's, computed by its upload action, which warns on each
    // result that brings its own.
    if (i < prints.size()) res["partialFingerprints"] = {{kFingerprintKey, prints[i]}};
    if (!d.fix.empty()) res["fixes"] = fixes(result, sources, d);
    if (!d.configurations.empty()) res["properties"] = {{"configurations", d.configurations}};
    results.push_back(std::move(res));
  }

  json notifications = json::array();
  // Failed and partial units by file, as `emberlint merge` orders them.
  std::vector<std::pair<std::pair<std::string, std::string>, json>> units;
  for (const auto* list : {&result.failures, &result.partial}) {
    for (const Failure& f : *list) {
      json n = notification(result, f);
      units.push_back({{display_path(result, f.file), n.dump()}, std::move(n)});
    }
  }
  std::sort(units.begin(), units.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& u : units) notifications.push_back(std::move(u.second));
  // Stale baseline entries fail the run (exit 1) without being results: one error notification each, on the
  // baseline file.
  bool stale = result.baseline && !result.baseline->stale.empty();
  if (stale) {
    for (const BaselineEntry& e : result.baseline->stale) {
      json location = {{"physicalLocation", {{"artifactLocation", {{"uri", result.baseline->file}}}}}};
      notifications.push_back({{"level", "error"},
                               {"message", {{"text", "stale baseline entry " + stale_entry_text(e)}}},
                               {"locations", json::array({std::move(location)})}});
    }
  }
  json invocation = {{"executionSuccessful", !has_unexpected_failures(result) && !stale}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = std::move(notifications);

  std::string root_uri = file_uri(source_root(result).lexically_normal());
  if (root_uri.empty() || root_uri.back() != '/') root_uri += '/';
  json run = {{"tool",
               {{"driver",
                 {{"name", "emberlint"},
                  {"version", kVersion},
                  {"semanticVersion", kVersion},
                  {"rules", std::move(rules)}}}}},
              {"originalUriBaseIds",
               {{kRootId,
                 {{"uri", root_uri},
                  {"description", {{"text", "The repository's top level: paths are relative to it"}}}}}}},
              {"invocations", json::array({std::move(invocation)})},
              {"columnKind", "unicodeCodePoints"},
              {"defaultEncoding", "utf-8"},
              {"results", std::move(results)}};
  // --shard K/N: the run's part, in its property bag (`emberlint merge` reads it; code scanning ignores it).
  if (result.shard)
    run["properties"] = {{"shard", {{"index", result.shard->index}, {"count", result.shard->count}}}};
  // Per-unit mode: the unit checked, as its results' locations name files (`emberlint merge` reads it).
  if (result.unit) run["properties"]["unit"] = artifact_location(result, *result.unit);
  json doc = {{"$schema", kSchema}, {"version", "2.1.0"}, {"runs", json::array({std::move(run)})}};
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace emberlint
