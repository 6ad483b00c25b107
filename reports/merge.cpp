// `emberlint merge` (reports/merge.hpp): reads the shards' reports, checks they are emberlint's, of one
// format and one version, and writes the report of the whole run in the order and form the renderers use.
#include "reports/merge.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <tuple>

#include "lint/findings/fixes.hpp"
#include "reports/report.hpp"

namespace emberlint {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The part of a `check --shard K/N` run a report is (1-based).
struct ShardOf {
  std::size_t index = 0, count = 0;
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

struct Report {
  const MergeInput* input = nullptr;
  json doc;
  std::string format;            // "json" or "sarif"
  std::string version;           // of the emberlint that wrote it
  std::optional<ShardOf> shard;  // none: the report of a whole run
};

// The order of the unsharded run (Diagnostic::key): the file compared as a path, line, column, code, message.
// It also identifies a finding: the shards of two units that include one header report its findings twice.
using FindingKey = std::tuple<fs::path, std::size_t, std::size_t, std::string, std::string>;

[[noreturn]] void fail(const MergeInput& in, const std::string& what) {
  throw MergeError(in.name + ": " + what);
}

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// Members with their expected types; errors name the JSON path.
const json& member(const MergeInput& in, const json& object, const std::string& path,
                   const std::string& key) {
  if (!object.is_object()) fail(in, (path.empty() ? "the document" : path) + ": expected an object");
  auto it = object.find(key);
  if (it == object.end()) fail(in, join(path, key) + ": missing");
  return *it;
}

std::string string_member(const MergeInput& in, const json& object, const std::string& path,
                          const std::string& key) {
  const json& v = member(in, object, path, key);
  if (!v.is_string()) fail(in, join(path, key) + ": expected a string");
  return v.get<std::string>();
}

std::size_t count_member(const MergeInput& in, const json& object, const std::string& path,
                         const std::string& key) {
  const json& v = member(in, object, path, key);
  if (!v.is_number_unsigned()) fail(in, join(path, key) + ": expected a non-negative integer");
  return v.get<std::size_t>();
}

const json& array_member(const MergeInput& in, const json& object, const std::string& path,
                         const std::string& key) {
  const json& v = member(in, object, path, key);
  if (!v.is_array()) fail(in, join(path, key) + ": expected an array");
  return v;
}

std::string indexed(const std::string& path, const std::string& key, std::size_t i) {
  return join(path, key) + "[" + std::to_string(i) + "]";
}

// The "shard" member of a report (JSON) or of a run's property bag (SARIF), if any.
std::optional<ShardOf> read_shard(const MergeInput& in, const json& holder, const std::string& path) {
  if (!holder.is_object() || !holder.contains("shard")) return std::nullopt;
  const std::string at = join(path, "shard");
  const json& s = member(in, holder, path, "shard");
  ShardOf shard{count_member(in, s, at, "index"), count_member(in, s, at, "count")};
  if (shard.count < 2 || shard.index < 1 || shard.index > shard.count)
    fail(in, at + ": " + shard.text() + ", expected K/N with 1 <= K <= N and N >= 2");
  return shard;
}

Report read_report(const MergeInput& in) {
  Report r;
  r.input = &in;
  try {
    r.doc = json::parse(in.text);
  } catch (const json::exception& e) {
    fail(in, std::string("not valid JSON: ") + e.what());
  }
  if (!r.doc.is_object()) fail(in, "expected an emberlint JSON report or a SARIF log (a JSON object)");
  if (r.doc.contains("runs")) {
    r.format = "sarif";
    const json& runs = array_member(in, r.doc, "", "runs");
    if (runs.empty()) fail(in, "runs: expected at least one run");
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::string path = indexed("", "runs", i) + ".tool";
      const json& driver = member(in, member(in, runs[i], indexed("", "runs", i), "tool"), path, "driver");
      std::string name = string_member(in, driver, path + ".driver", "name");
      if (name != "emberlint") fail(in, "a SARIF log of '" + name + "', not of emberlint");
      std::string version = string_member(in, driver, path + ".driver", "version");
      if (i > 0 && version != r.version)
        fail(in, path + ".driver.version: " + version + ", but runs[0] has " + r.version);
      r.version = version;
      const std::string where = indexed("", "runs", i);
      std::optional<ShardOf> shard =
          runs[i].contains("properties")
              ? read_shard(in, member(in, runs[i], where, "properties"), where + ".properties")
              : std::nullopt;
      if (i > 0 && (shard.has_value() != r.shard.has_value() || (shard && shard->text() != r.shard->text())))
        fail(in, where + ": another shard than runs[0]'s");
      r.shard = shard;
    }
  } else if (r.doc.contains("tool")) {
    r.format = "json";
    std::string tool = string_member(in, r.doc, "", "tool");
    if (tool != "emberlint") fail(in, "not an emberlint report (its tool is '" + tool + "')");
    r.version = string_member(in, r.doc, "", "version");
    r.shard = read_shard(in, r.doc, "");
  } else {
    fail(in, "neither an emberlint JSON report (no \"tool\") nor a SARIF log (no \"runs\")");
  }
  return r;
}

std::string label(const Report& r) {
  return r.format == "sarif" ? "SARIF" : "JSON";
}

std::vector<Report> read_reports(const std::vector<MergeInput>& inputs, const std::string& format) {
  if (inputs.empty()) throw MergeError("no reports to merge");
  std::vector<Report> reports;
  for (const MergeInput& in : inputs) reports.push_back(read_report(in));
  const Report& first = reports.front();
  for (const Report& r : reports) {
    if (r.format != first.format) {
      throw MergeError(r.input->name + " is a " + label(r) + " report but " + first.input->name + " is a " +
                       label(first) + " report: merge reports of one format");
    }
    if (r.version != first.version) {
      throw MergeError(r.input->name + ": written by emberlint " + r.version + ", but " + first.input->name +
                       " by emberlint " + first.version + ": merge the shards of one run");
    }
  }
  if (!format.empty() && format != first.format)
    throw MergeError("--format " + format + ", but " + first.input->name + " is a " + label(first) +
                     " report");
  return reports;
}

// The shards of one run, each once: a report given twice, shards of runs split differently, or a whole run's
// report among shards are refused; returns the shards none of the reports is ("2/3"), in order.
std::vector<std::string> missing_shards(const std::vector<Report>& reports) {
  auto twice = [](const Report& a, const Report& b) {
    const std::string what = a.shard ? "shard" : "report";
    if (a.input->name == b.input->name)
      return MergeError(a.input->name + " is named twice: merge each " + what + " once");
    return MergeError(a.input->name + " and " + b.input->name +
                      (a.shard ? " are both shard " + a.shard->text() : std::string(" are the same report")) +
                      ": merge each " + what + " once");
  };
  const auto sharded = std::find_if(reports.begin(), reports.end(), [](const Report& r) { return r.shard; });
  if (sharded == reports.end()) {
    for (std::size_t i = 0; i < reports.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (reports[j].input->text == reports[i].input->text) throw twice(reports[j], reports[i]);
      }
    }
    return {};
  }
  std::map<std::size_t, const Report*> seen;
  for (const Report& r : reports) {
    if (!r.shard)
      throw MergeError(r.input->name + " is the report of a whole run (no --shard), but " +
                       sharded->input->name + " is shard " + sharded->shard->text() +
                       ": merge the shards of one run");
    if (r.shard->count != sharded->shard->count)
      throw MergeError(r.input->name + " is shard " + r.shard->text() + ", but " + sharded->input->name +
                       " is shard " + sharded->shard->text() + ": merge the shards of one run");
    auto [it, added] = seen.emplace(r.shard->index, &r);
    if (!added) throw twice(*it->second, r);
  }
  std::vector<std::string> missing;
  for (std::size_t k = 1; k <= sharded->shard->count; ++k) {
    if (!seen.count(k)) missing.push_back(ShardOf{k, sharded->shard->count}.text());
  }
  return missing;
}

std::string missing_text(const std::string& shard) {
  return "shard " + shard + " is missing: no report of it was merged, so its units were not analyzed";
}

// Calls `merge` for each report; a member of a type the checks do not cover is an error naming the report.
template <class F>
void each_report(const std::vector<Report>& reports, F merge) {
  for (const Report& r : reports) {
    try {
      merge(r, *r.input);
    } catch (const json::exception& e) {
      fail(*r.input, std::string("malformed report: ") + e.what());
    }
  }
}

// A finding (a JSON diagnostic, a SARIF result's property bag) that another report has too: it holds in the
// configurations of both, sorted as the runner sorts them (Diagnostic::configurations).
void unite_configurations(json& into, const json& other) {
  if (!other.is_object() || !other.contains("configurations") || !other["configurations"].is_array()) return;
  std::set<std::string> names;
  for (const json* list : {static_cast<const json*>(&into["configurations"]), &other["configurations"]}) {
    if (!list->is_array()) continue;
    for (const json& n : *list) {
      if (n.is_string()) names.insert(n.get<std::string>());
    }
  }
  into["configurations"] = names;
}

std::string dump(const json& doc) {
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

// ---- JSON ----------------------------------------------------------------------------------------------

std::string merge_json(const std::vector<Report>& reports, const std::vector<std::string>& missing) {
  // Summed or merged below; every other member must be the same in all reports that have it. The merged
  // report is the whole run's: no "shard", and "missing_shards" when some were not merged; the "unit"s of
  // per-unit runs become its "units".
  static const std::set<std::string> kMerged = {"files_analyzed", "diagnostics", "failures",
                                                "partial",        "fixed",       "statistics",
                                                "shard",          "unit",        "units"};
  std::set<std::string> units;
  json merged = json::object();
  std::size_t files = 0;
  std::optional<std::size_t> fixed;
  bool statistics = false;
  std::map<FindingKey, json> diagnostics;
  std::map<std::pair<fs::path, std::string>, json> failures, partial;
  bool has_partial = false;
  each_report(reports, [&](const Report& r, const MergeInput& in) {
    files += count_member(in, r.doc, "", "files_analyzed");
    const json& diags = array_member(in, r.doc, "", "diagnostics");
    for (std::size_t i = 0; i < diags.size(); ++i) {
      const std::string path = indexed("", "diagnostics", i);
      const json& d = diags[i];
      FindingKey key{string_member(in, d, path, "file"), count_member(in, d, path, "line"),
                     count_member(in, d, path, "column"), string_member(in, d, path, "code"),
                     string_member(in, d, path, "message")};
      auto [it, added] = diagnostics.emplace(std::move(key), d);
      // One finding in the units of several configurations, which other shards checked: one, in each.
      if (!added) unite_configurations(it->second, d);
    }
    const json& fails = array_member(in, r.doc, "", "failures");
    for (std::size_t i = 0; i < fails.size(); ++i) {
      const std::string path = indexed("", "failures", i);
      failures.emplace(std::pair<fs::path, std::string>{string_member(in, fails[i], path, "file"),
                                                        string_member(in, fails[i], path, "message")},
                       fails[i]);
    }
    // Units analyzed partially (reports of older versions have none).
    if (r.doc.contains("partial")) {
      has_partial = true;
      const json& parts = array_member(in, r.doc, "", "partial");
      for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string path = indexed("", "partial", i);
        partial.emplace(std::pair<fs::path, std::string>{string_member(in, parts[i], path, "file"),
                                                         string_member(in, parts[i], path, "message")},
                        parts[i]);
      }
    }
    if (r.doc.contains("fixed")) fixed = fixed.value_or(0) + count_member(in, r.doc, "", "fixed");
    if (r.doc.contains("unit")) units.insert(string_member(in, r.doc, "", "unit"));
    if (r.doc.contains("units")) {
      const json& list = array_member(in, r.doc, "", "units");
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string()) fail(in, indexed("", "units", i) + ": expected a string");
        units.insert(list[i].get<std::string>());
      }
    }
    statistics = statistics || r.doc.contains("statistics");
    for (const auto& [key, value] : r.doc.items()) {
      if (kMerged.count(key)) continue;
      if (!merged.contains(key)) {
        merged[key] = value;
      } else if (merged[key] != value) {
        fail(in, "\"" + key + "\" differs from " + reports.front().input->name +
                     "'s: merge can only keep what the reports agree on");
      }
    }
  });
  merged["files_analyzed"] = files;
  merged["diagnostics"] = json::array();
  std::map<std::string, std::size_t> counts;
  for (auto& [key, d] : diagnostics) {
    ++counts[std::get<3>(key)];
    merged["diagnostics"].push_back(std::move(d));
  }
  merged["failures"] = json::array();
  for (auto& [key, f] : failures) merged["failures"].push_back(std::move(f));
  if (has_partial) {
    merged["partial"] = json::array();
    for (auto& [key, f] : partial) merged["partial"].push_back(std::move(f));
  }
  if (fixed) merged["fixed"] = *fixed;
  if (statistics) merged["statistics"] = counts;
  if (!units.empty()) merged["units"] = units;
  if (!missing.empty()) merged["missing_shards"] = missing;
  return dump(merged);
}

// ---- SARIF ---------------------------------------------------------------------------------------------

std::string percent_decode(const std::string& uri) {
  auto hex = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

// A result's place in the unsharded order: its file (relative to %SRCROOT%, or absolute), region, rule and
// message.
FindingKey result_key(const MergeInput& in, const json& result, const std::string& path) {
  std::string uri;
  std::size_t line = 0, column = 0;
  const json& locations = array_member(in, result, path, "locations");
  if (!locations.empty()) {
    const json physical = locations[0].value("physicalLocation", json::object());
    uri = percent_decode(physical.value("artifactLocation", json::object()).value("uri", ""));
    if (uri.rfind("file://", 0) == 0) uri.erase(0, 7);
    const json region = physical.value("region", json::object());
    line = region.value("startLine", std::size_t{0});
    column = region.value("startColumn", std::size_t{0});
  }
  const std::string message =
      string_member(in, member(in, result, path, "message"), path + ".message", "text");
  return {uri, line, column, string_member(in, result, path, "ruleId"), message};
}

// Fingerprints count equal hashes in the result's order ("<hash>:<n>"): counted again in the merged order.
void renumber_fingerprints(json& results) {
  std::map<std::string, int> seen;
  for (json& r : results) {
    auto prints = r.find("partialFingerprints");
    if (prints == r.end() || !prints->is_object()) continue;
    auto hash = prints->find(kFingerprintKey);
    if (hash == prints->end() || !hash->is_string()) continue;
    std::string h = hash->get<std::string>();
    h = h.substr(0, h.rfind(':'));
    *hash = h + ":" + std::to_string(++seen[h]);
  }
}

// The unsharded order of notifications is that of the failed and partial units: by the unit's file, which
// the renderer puts first in the text ("<file>: could not be analyzed: ...", "<file>: analyzed partially").
std::pair<fs::path, std::string> notification_key(const json& n) {
  std::string text;
  if (n.is_object() && n.contains("message") && n["message"].is_object())
    text = n["message"].value("text", "");
  std::size_t end = std::min(text.find(": could not be analyzed"), text.find(": analyzed partially"));
  return {text.substr(0, end), n.dump()};
}

std::string merge_sarif(const std::vector<Report>& reports, const std::vector<std::string>& missing) {
  json base;  // the first run: its driver, uri base ids and settings
  json rules = json::array();
  std::map<std::string, std::size_t> rule_index;
  std::map<FindingKey, json> results;
  std::map<std::pair<fs::path, std::string>, json> notifications;
  std::map<std::string, json> units;  // the per-unit runs' units (properties.unit, properties.units)
  bool successful = true;
  each_report(reports, [&](const Report& r, const MergeInput& in) {
    const json& runs = r.doc["runs"];
    for (std::size_t j = 0; j < runs.size(); ++j) {
      const json& run = runs[j];
      const std::string path = indexed("", "runs", j);
      if (base.is_null()) base = run;
      if (run.contains("properties") && run["properties"].is_object()) {
        const json& properties = run["properties"];
        if (properties.contains("unit")) units.emplace(properties["unit"].dump(), properties["unit"]);
        if (properties.contains("units")) {
          for (const json& u : array_member(in, properties, path + ".properties", "units"))
            units.emplace(u.dump(), u);
        }
      }
      const json& driver = run["tool"]["driver"];
      if (driver.contains("rules")) {
        const json& list = array_member(in, driver, path + ".tool.driver", "rules");
        for (std::size_t i = 0; i < list.size(); ++i) {
          std::string id = string_member(in, list[i], indexed(path + ".tool.driver", "rules", i), "id");
          if (rule_index.emplace(id, rules.size()).second) rules.push_back(list[i]);
        }
      }
      if (run.contains("results")) {
        const json& list = array_member(in, run, path, "results");
        for (std::size_t i = 0; i < list.size(); ++i) {
          auto [it, added] = results.emplace(result_key(in, list[i], indexed(path, "results", i)), list[i]);
          // As in the JSON merge: one result, in the configurations of each shard that found it.
          const json& bag = list[i].contains("properties") ? list[i]["properties"] : json::object();
          if (!added && bag.is_object() && bag.contains("configurations"))
            unite_configurations(it->second["properties"], bag);
        }
      }
      if (!run.contains("invocations")) continue;
      for (const json& invocation : array_member(in, run, path, "invocations")) {
        if (!invocation.is_object()) continue;
        successful = successful && invocation.value("executionSuccessful", true);
        for (const json& n : invocation.value("toolExecutionNotifications", json::array()))
          notifications.emplace(notification_key(n), n);
      }
    }
  });

  json merged_results = json::array();
  for (auto& [key, result] : results) {
    if (auto it = rule_index.find(std::get<3>(key)); it != rule_index.end()) {
      result["ruleIndex"] = it->second;
    } else {
      result.erase("ruleIndex");
    }
    merged_results.push_back(std::move(result));
  }
  renumber_fingerprints(merged_results);

  // A shard not merged: its units were not analyzed, as a unit that could not be.
  for (const std::string& shard : missing) {
    json n = {{"level", "error"}, {"message", {{"text", missing_text(shard)}}}};
    notifications.emplace(notification_key(n), std::move(n));
  }
  json invocation = json::object();
  if (base.contains("invocations") && !base["invocations"].empty() && base["invocations"][0].is_object())
    invocation = base["invocations"][0];
  invocation["executionSuccessful"] = successful && missing.empty();
  invocation.erase("toolExecutionNotifications");
  if (!notifications.empty()) {
    json list = json::array();
    for (auto& [key, n] : notifications) list.push_back(std::move(n));
    invocation["toolExecutionNotifications"] = std::move(list);
  }

  json run = std::move(base);
  if (run.contains("properties") && run["properties"].is_object()) {
    run["properties"].erase("shard");  // the merged run is the whole one
    run["properties"].erase("unit");
    run["properties"].erase("units");
    if (run["properties"].empty()) run.erase("properties");
  }
  if (!units.empty()) {
    json list = json::array();
    for (auto& [key, u] : units) list.push_back(std::move(u));
    run["properties"]["units"] = std::move(list);
  }
  run["tool"]["driver"]["rules"] = std::move(rules);
  run["results"] = std::move(merged_results);
  run["invocations"] = json::array({std::move(invocation)});
  json doc = reports.front().doc;
  doc["runs"] = json::array({std::move(run)});
  return dump(doc);
}

}  // namespace

MergeResult merge_reports(const std::vector<MergeInput>& inputs, const std::string& format) {
  std::vector<Report> reports = read_reports(inputs, format);
  MergeResult out;
  out.missing_shards = missing_shards(reports);
  out.text = reports.front().format == "sarif" ? merge_sarif(reports, out.missing_shards)
                                               : merge_json(reports, out.missing_shards);
  return out;
}

int merge_report_files(const std::vector<std::string>& files, const std::string& format,
                       const std::string& output, std::ostream& out, std::ostream& err) {
  constexpr int kExitUsage = 2, kExitNotAnalyzed = 3;
  auto error = [&](const std::string& message) {
    err << "emberlint: error: " << message << "\n";
    return kExitUsage;
  };
  std::vector<MergeInput> inputs;
  for (const std::string& file : files) {
    std::error_code ec;
    if (fs::is_directory(file, ec)) return error(file + ": a folder, not a report");
    std::ifstream in(file, std::ios::binary);
    if (!in) return error(file + ": cannot read this file");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    inputs.push_back({file, std::move(text)});
  }
  MergeResult merged;
  try {
    merged = merge_reports(inputs, format);
  } catch (const MergeError& e) {
    return error(e.what());
  }
  if (output.empty()) {
    out << merged.text;
  } else if (std::string problem = write_output_file(output, merged.text); !problem.empty()) {
    return error(problem);
  }
  // Written all the same, as a run writes the report of the units it could analyze.
  for (const std::string& shard : merged.missing_shards) error(missing_text(shard));
  return merged.missing_shards.empty() ? 0 : kExitNotAnalyzed;
}

}  // namespace emberlint
