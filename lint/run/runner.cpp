#include "lint/run/runner.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "lint/compile/compile_db.hpp"
#include "lint/compile/configurations.hpp"
#include "lint/findings/suppressions.hpp"
#include "lint/project/config.hpp"
#include "lint/run/git_diff.hpp"
#include "lint/run/session.hpp"
#include "lint/run/units.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;

using checking::affected_jobs;
using checking::collect_jobs;
using checking::has_function_body;
using checking::Job;
using checking::JobResult;
using checking::normalize;
using checking::representative_units;
using checking::run_header_jobs;
using checking::run_jobs;
using checking::Session;
using checking::unread_header_jobs;

namespace {

// Whether -p's compile database has no entries at all (one it cannot read was reported when it was read).
bool database_is_empty(const fs::path& build_dir) {
  try {
    return load_compile_database(build_dir).empty();
  } catch (const CompileDatabaseError&) {
    return false;
  }
}

// A file's findings of one rule and group (Diagnostic::group) become one: the first use, its message saying
// how many uses there are and on which other lines. After suppressions, so a suppressed use is not counted.
void group_findings(std::set<Diagnostic>& merged) {
  std::map<std::tuple<fs::path, std::string, std::string>, std::vector<Diagnostic>> groups;
  for (auto it = merged.begin(); it != merged.end();) {
    if (it->group.empty()) {
      ++it;
      continue;
    }
    groups[{it->file, it->code, it->group}].push_back(*it);
    it = merged.erase(it);
  }
  for (auto& [key, uses] : groups) {
    Diagnostic first = uses.front();  // the set's order: by line and column
    first.uses = static_cast<unsigned>(uses.size());
    // A group holds in every configuration one of its uses holds in.
    for (const Diagnostic& u : uses)
      first.configurations.insert(first.configurations.end(), u.configurations.begin(),
                                  u.configurations.end());
    std::sort(first.configurations.begin(), first.configurations.end());
    first.configurations.erase(std::unique(first.configurations.begin(), first.configurations.end()),
                               first.configurations.end());
    if (uses.size() > 1) {
      std::set<unsigned> lines;
      for (std::size_t i = 1; i < uses.size(); ++i) {
        if (uses[i].line != first.line) lines.insert(uses[i].line);
      }
      std::string where;
      std::size_t shown = 0;
      for (unsigned line : lines) {
        if (shown == 5) break;
        where += (shown++ ? ", " : "") + std::to_string(line);
      }
      if (lines.size() > shown) where += " and " + std::to_string(lines.size() - shown) + " more";
      first.message +=
          " (" + std::to_string(uses.size()) + " uses in this file" +
          (where.empty() ? "" : "; also line" + std::string(lines.size() > 1 ? "s " : " ") + where) + ")";
    }
    merged.insert(std::move(first));
  }
}

}  // namespace

fs::path project_root(const CheckOptions& options, const RuleNames& names) {
  ConfigLoader loader(names);
  if (options.config_file) return normalize(*options.config_file).parent_path();
  fs::path start = options.paths.empty() ? fs::current_path() : normalize(options.paths.front());
  std::error_code ec;
  if (!fs::is_directory(start, ec)) start = start.parent_path();
  try {
    return loader.for_folder(start, fs::current_path())->root;
  } catch (const ConfigError&) {
    return fs::current_path();
  }
}

bool has_unexpected_failures(const CheckResult& result) {
  auto unexpected = [](const Failure& f) { return !f.expected; };
  return std::any_of(result.failures.begin(), result.failures.end(), unexpected) ||
         std::any_of(result.partial.begin(), result.partial.end(), unexpected);
}

CheckResult run_check(const CheckOptions& options, const RuleCatalog& rules) {
  check_unit_mode(options);
  Session session(options, rules);
  CheckResult result;
  result.root = project_root(options, rules);
  std::vector<fs::path> paths;
  for (const auto& p : options.paths) {
    std::error_code ec;
    if (!fs::exists(p, ec)) throw UsageError(p.string() + ": no such file or folder");
    paths.push_back(normalize(p));
  }
  if (paths.empty()) paths.push_back(result.root);
  // Load every config the inputs need before any work starts, so configuration errors stop the run (exit 2).
  std::set<const Config*> governing;
  for (const auto& p : paths)
    governing.insert(session.config_for(fs::is_directory(p) ? p : p.parent_path()).get());
  // A config that enforces nothing says so, rather than letting "No problems" read as a clean tree.
  for (const Config* cfg : governing) {
    for (const std::string& warning : unenforced(*cfg, paths)) result.warnings.push_back(warning);
  }
  std::optional<ChangeSet> changes;
  try {
    if (options.diff_rev) changes = git_changes(*options.diff_rev, result.root);
  } catch (const GitError& e) {
    throw UsageError(e.what());
  }
  ConfigurationPlan plan;
  std::vector<Job> jobs =
      collect_jobs(session, options.units_of ? std::vector<fs::path>{result.root} : paths, plan);
  result.warnings.insert(result.warnings.end(), plan.warnings.begin(), plan.warnings.end());
  if (changes || options.units_of)
    jobs = affected_jobs(session, std::move(jobs), changes, paths, result.root);
  if (options.units_of && options.units_per_header > 0 && paths.size() == 1 && is_header_path(paths.front()))
    jobs = representative_units(std::move(jobs), paths.front(), options.units_per_header);
  std::vector<CompileCommand> run_units;  // every unit of the run, before --shard takes its part
  for (const auto& j : jobs) run_units.push_back(j.command);
  // An empty database checks nothing: "No problems in 0 files" says so only with this hint.
  if (options.build_dir && run_units.empty() && database_is_empty(*options.build_dir))
    result.warnings.push_back(
        "the compile database " + compile_database_path(*options.build_dir).string() +
        " has no entries, so no file was checked: is -p the build folder that compiles "
        "the sources, and was it configured (CMake: -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)?");
  jobs = take_shard(std::move(jobs), options.shard);
  if (options.shard.count > 1) result.shard = options.shard;
  if (options.unit_command) result.unit = fs::absolute(paths.front()).lexically_normal();
  for (Job& j : jobs) j.keep_warm = true;

  const std::string resource_dir = find_resource_dir();
  const bool skip_bodies = !options.parse_all_bodies;
  std::vector<JobResult> results = run_jobs(jobs, options.jobs, resource_dir, session, skip_bodies);
  for (std::size_t i = 0; i < jobs.size(); ++i)
    mark_configuration(results[i].diagnostics, jobs[i].configuration);
  if (!plan.units_per_configuration.empty()) {
    for (const auto& [name, n] : plan.units_per_configuration) result.configuration_units[name] = 0;
    for (const Job& j : jobs) ++result.configuration_units[j.configuration];
    if (result.configuration_units[""] == 0) result.configuration_units.erase("");
  }
  // Walking a tree, every header is a unit of its own. One that another unit of the run reads without a
  // failure is no failure of the run when it does not parse alone: helper headers often rely on what their
  // includer included first. What its own parse found is still reported.
  if (!options.build_dir && !options.unit_command) {
    std::set<fs::path> read_by_clean_units;
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (results[i].failure) continue;
      for (const auto& f : results[i].project_files)
        if (f != jobs[i].command.file) read_by_clean_units.insert(f);
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (results[i].failure && is_header_path(jobs[i].command.file) &&
          read_by_clean_units.count(jobs[i].command.file))
        results[i].failure.reset();
    }
  }

  // Function bodies in a translation unit's preamble headers were skipped, so project headers reached only
  // that way get a parse of their own (with the flags of the first unit that included them), where their
  // bodies are main-file code. Every project header with a function body gets it, whatever its words: `a + b`
  // on tensors in an inline function is a finding even in a header that never says `operator`. Such a
  // header is no input of the run: if it does not parse alone, its declarations were still seen through the
  // units that include it, and nothing is reported.
  std::size_t primary = jobs.size();
  if (skip_bodies && (options.build_dir || options.unit_command)) {
    // Once per configuration: a header's code may hold in one and not in another.
    std::set<std::pair<fs::path, std::string>> seen;
    for (const auto& j : jobs) seen.insert({j.command.file, j.configuration});
    std::vector<Job> headers;
    for (std::size_t i = 0; i < primary; ++i) {
      for (const auto& f : results[i].project_files) {
        if (!is_header_path(f) || !seen.insert({f, jobs[i].configuration}).second) continue;
        auto cfg = session.config_for(f.parent_path());
        if (!has_function_body(f)) continue;
        Job header = jobs[i];
        header.command.file = f;
        header.config = cfg;
        header.keep_warm = false;
        headers.push_back(std::move(header));
      }
    }
    auto more = run_header_jobs(headers, options.jobs, resource_dir, session, skip_bodies);
    for (std::size_t i = 0; i < more.size(); ++i) {
      if (more[i].failure) continue;
      mark_configuration(more[i].diagnostics, headers[i].configuration);
      results.push_back(std::move(more[i]));
    }
  }
  // Project headers with code that no unit reads at all. One that does not parse alone reports what parsed;
  // its errors are no failure of the run, since no build compiles it as it stands.
  if (options.build_dir && !options.units_of && !changes) {
    std::set<fs::path> read;
    for (const auto& r : results) read.insert(r.project_files.begin(), r.project_files.end());
    for (const auto& j : jobs) read.insert(j.command.file);
    const std::vector<Job> unread_jobs = unread_header_jobs(session, paths, read, run_units);
    auto unread = run_header_jobs(unread_jobs, options.jobs, resource_dir, session, false);
    for (std::size_t i = 0; i < unread.size(); ++i) {
      JobResult& r = unread[i];
      if (r.failure && !r.failure->partial) continue;
      r.failure.reset();
      mark_configuration(r.diagnostics, unread_jobs[i].configuration);
      results.push_back(std::move(r));
    }
  }

  session.progress().finish();
  if (ResultCache* cache = session.cache())
    result.cache = CacheStats{cache->hits(), cache->misses(), cache->error()};
  result.parses = {session.parsed_units,  session.parsed_headers, session.batches,
                   session.headers_alone, session.prefixes,       session.prefixed_units};

  // Merge: deduplicate (a header is seen by many translation units), apply severities and per-file ignores.
  std::vector<Diagnostic> found;
  std::set<fs::path> project_files;
  for (std::size_t i = 0; i < results.size(); ++i) {
    JobResult& r = results[i];
    if (r.failure) {
      Failure f = *r.failure;
      f.expected = session.config_for(f.file.parent_path())->expects_parse_error(f.file, f.cause);
      (f.partial ? result.partial : result.failures).push_back(f);
      if (!f.partial) continue;
    }
    if (i < primary) ++result.files_analyzed;
    project_files.insert(r.project_files.begin(), r.project_files.end());
    for (auto& d : r.diagnostics) {
      const RuleInfo* info = rules.find(d.code);
      auto sev = session.severity(*info, d.file);
      if (!sev) continue;
      d.severity = *sev;
      found.push_back(std::move(d));
    }
  }
  // One finding of several configurations is reported once, in each.
  merge_configurations(found);
  std::set<Diagnostic> merged(std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));

  // Suppressions, file by file; what suppressed nothing becomes EL001.
  const RuleInfo& el001 = rules.unused_suppression();
  for (const auto& file : project_files) {
    auto text = SourceText::read(file);
    if (!text) continue;
    auto sups = scan_suppressions(*text);
    if (sups.empty()) continue;
    Diagnostic first;
    first.file = file;
    auto begin = merged.lower_bound(first);
    for (auto it = begin; it != merged.end() && it->file == file;) {
      bool hit = false;
      for (auto& s : sups) {
        if (covers(s, *it)) s.used = hit = true;
      }
      it = hit ? merged.erase(it) : std::next(it);
    }
    auto el001_sev = session.severity(el001, file);
    if (!el001_sev) continue;
    for (const auto& s : sups) {
      std::string unknown;
      bool all_active = true;
      for (const auto& item : s.rules) {
        bool any = false;
        for (const RuleInfo* info : rules.infos()) {
          if (!suppression_item_matches(item, info->code, info->name)) continue;
          any = true;
          if (info != &el001 && !session.severity(*info, file)) all_active = false;
        }
        if (!any && unknown.empty()) unknown = item;
      }
      bool report = !s.problem.empty() || !unknown.empty() || (!s.used && s.report_unused && all_active);
      if (!report || (s.kind == Suppression::Kind::end && s.problem.empty())) continue;
      Diagnostic d = rules.suppression_diagnostic(s, file, unknown);
      d.severity = *el001_sev;
      merged.insert(std::move(d));
    }
  }

  group_findings(merged);

  // What was checked where, for the baseline's scope (lint/run/baseline.hpp).
  for (const auto& file : project_files) {
    std::set<std::string>& codes = result.checked_rules[file];
    for (const RuleInfo* info : rules.infos()) {
      if (session.severity(*info, file)) codes.insert(info->code);
    }
  }

  result.diagnostics.assign(merged.begin(), merged.end());
  std::sort(result.diagnostics.begin(), result.diagnostics.end());
  if (!options.explain) {
    for (Diagnostic& d : result.diagnostics) d.explanation.clear();
  }
  std::sort(result.failures.begin(), result.failures.end());
  std::sort(result.partial.begin(), result.partial.end());
  result.notes = session.driver().notes();
  result.notes.insert(result.notes.end(), session.notes.begin(), session.notes.end());
  result.notes.insert(result.notes.end(), plan.notes.begin(), plan.notes.end());
  if (changes && options.diff_lines) {
    // Findings on unchanged lines are left out; a baseline does not judge the files they were in.
    std::erase_if(result.diagnostics, [&](const Diagnostic& d) {
      bool keep = changes->touches(d.file, d.line, std::max(d.line, d.end_line));
      if (!keep) result.checked_rules.erase(d.file);
      return !keep;
    });
  }
  return result;
}

std::vector<std::string> unenforced(const Config& config, const std::vector<fs::path>& paths) {
  std::vector<std::string> out;
  const std::string name = config.file.empty()
                               ? std::string("the built-in default config (no .emberlint.json found)")
                               : config.file.string();
  if (config.backends.empty())
    out.push_back(name +
                  " defines no backend in layers.backends: the purity rules EL100-EL104 enforce nothing");
  else if (config.libraries.empty())
    out.push_back(name +
                  " defines no library: only backend folders are owned, library headers and symbols are not "
                  "checked (EL100, EL101, EL102)");
  // A layer glob whose literal folder or file does not exist matches nothing: a typo or a moved folder, and
  // the files it meant are governed by no rule of that layer.
  auto nothing_matched = [&](const std::vector<Glob>& globs, const std::string& key) {
    for (const auto& g : globs) {
      const std::string prefix = g.literal_prefix();
      std::error_code ec;
      if (prefix.empty() || fs::exists(g.base() / prefix, ec)) continue;
      out.push_back(name + ": " + key + " \"" + g.pattern() + "\" matches no file (" + prefix +
                    " does not exist)");
    }
  };
  if (!config.file.empty()) {
    nothing_matched(config.frontend, "layers.frontend");
    for (const auto& b : config.backends) {
      nothing_matched(b.globs, "layers.backends." + b.name);
      nothing_matched(b.public_headers, "layers.backends." + b.name + ".public");
      nothing_matched(b.tests, "layers.backends." + b.name + ".tests");
    }
    nothing_matched(config.tests, "layers.tests");
    nothing_matched(config.glue, "layers.glue");
  }
  if (!config.file.empty() && !paths.empty() &&
      std::none_of(paths.begin(), paths.end(), [&](const fs::path& p) { return is_under(p, config.root); }))
    out.push_back(name + " is outside the checked files: its globs are relative to " + config.root.string() +
                  " and may match none of them");
  return out;
}

std::string display_path(const CheckResult& result, const fs::path& file) {
  fs::path rel = file.lexically_relative(result.root);
  if (rel.empty()) return file.generic_string();
  return rel.generic_string();
}

std::string repository_path(const CheckResult& result, const fs::path& file) {
  if (result.root.empty() || result.repository_root.empty()) return display_path(result, file);
  fs::path rel = file.lexically_relative(result.repository_root);
  if (rel.empty() || *rel.begin() == "..") return file.generic_string();
  return rel.generic_string();
}

}  // namespace emberlint
