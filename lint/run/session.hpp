// The state of one `emberlint check` run (lint/run/runner.hpp) and the steps its files share: runner.cpp
// drives the run (run_check) and merges its results, collect_jobs.cpp picks the units it checks,
// check_units.cpp parses and checks them (with the result cache and shared prefixes), check_headers.cpp the
// headers parsed on their own, in batches. Internal to lint/run/.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lint/compile/configurations.hpp"
#include "lint/compile/driver_query.hpp"
#include "lint/parse/parse.hpp"
#include "lint/parse/prefix.hpp"
#include "lint/project/config.hpp"
#include "lint/run/cache.hpp"
#include "lint/run/git_diff.hpp"
#include "lint/run/runner.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/progress.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::checking {

namespace fs = std::filesystem;

inline std::filesystem::path normalize(const std::filesystem::path& p) {
  return canonical_path(p);
}

class Session {
 public:
  Session(const CheckOptions& o, const RuleCatalog& rules)
      : options_(o), rules_(rules), loader_(rules), progress_(o.progress), driver_(o.query_driver) {
    if (o.cache_dir) cache_ = std::make_unique<ResultCache>(*o.cache_dir);
    if (o.config_file) {
      fs::path f = normalize(*o.config_file);
      std::error_code ec;
      if (!fs::is_regular_file(f, ec))
        throw UsageError("--config " + o.config_file->string() + ": no such file");
      override_ = loader_.load_file(f);
    }
    for (const auto& item : o.select) check_rule_item(item, "--select");
    for (const auto& item : o.ignore) check_rule_item(item, "--ignore");
    for (const Rule* rule : rules.file_rules()) {
      if (selected(rule->info().code)) rule_codes_ += rule->info().code + ",";
    }
  }

  std::shared_ptr<const Config> config_for(const fs::path& folder) {
    if (override_) return override_;
    return loader_.for_folder(folder, fs::current_path());
  }

  bool selected(const std::string& code) const {
    const RuleInfo* info = rules_.find(code);
    return info && rules_.selected(*info, options_.select, options_.ignore);
  }

  // The severity of a rule for a file, or nullopt when it is off, not selected, or ignored for the file.
  std::optional<Severity> severity(const RuleInfo& info, const fs::path& file) {
    if (!selected(info.code)) return std::nullopt;
    auto cfg = config_for(file.parent_path());
    Severity s = info.default_severity;
    if (auto it = cfg->rules.find(info.code); it != cfg->rules.end() && it->second.severity)
      s = *it->second.severity;
    if (s == Severity::off) return std::nullopt;
    for (const auto& pfi : cfg->per_file_ignores) {
      if (!pfi.glob.matches_path(file)) continue;
      for (const auto& c : pfi.codes) {
        if (c == "ALL" || c == info.code) return std::nullopt;
      }
    }
    return s;
  }

  // Whether `path` is pruned while descending from `start` (excludes are read from each parent's config).
  bool excluded_below(const fs::path& path, const fs::path& start) {
    for (fs::path p = path; p != start && is_under(p, start) && p != p.parent_path(); p = p.parent_path()) {
      if (config_for(p.parent_path())->excluded(p)) return true;
    }
    return false;
  }

  const CheckOptions& options() const { return options_; }
  const RuleCatalog& rules() const { return rules_; }
  ResultCache* cache() { return cache_.get(); }                  // nullptr without a cache
  const std::string& rule_codes() const { return rule_codes_; }  // the selected rules, for cache keys
  Progress& progress() { return progress_; }
  // What was parsed (CheckResult::parses), counted from the worker threads.
  std::atomic<std::size_t> parsed_units{0}, parsed_headers{0}, batches{0}, headers_alone{0}, prefixes{0},
      prefixed_units{0};
  DriverQuery& driver() { return options_.driver ? *options_.driver : driver_; }
  // How the run went that is no finding, besides the driver's (CheckResult::notes); from the main thread.
  std::vector<std::string> notes;

 private:
  void check_rule_item(const std::string& item, const char* flag) const {
    if (rules_.names_some_rule(item)) return;
    throw UsageError(std::string(flag) + ": unknown rule '" + item + "' (see `emberlint rules`)");
  }

  const CheckOptions& options_;
  const RuleCatalog& rules_;
  ConfigLoader loader_;
  std::shared_ptr<const Config> override_;
  std::unique_ptr<ResultCache> cache_;
  std::string rule_codes_;
  Progress progress_;
  DriverQuery driver_;
};

struct Job {
  CompileCommand command;
  std::shared_ptr<const Config> config;
  // Kept parsed for the next run (CheckOptions::warm_units): the run's own units, not the headers parsed on
  // their own, which would push them out.
  bool keep_warm = false;
  // The configuration the command was compiled in (lint/compile/configurations.hpp), "" for none, and its
  // entry in the run's config.
  std::string configuration;
  const ConfigurationSpec* selected = nullptr;
};

// A job of `command`, in the configuration the run's config (`project`) gives it.
inline Job configured_job(CompileCommand command, std::shared_ptr<const Config> config,
                          const Config& project) {
  const ConfigurationSpec* spec = configuration_of(command, project.configurations);
  return {std::move(command), std::move(config), false, spec ? spec->name : std::string(), spec};
}

using JobResult = UnitResult;  // lint/run/cache.hpp

// What a batch of headers needs to know of its parse besides the result.
struct BatchParse {
  std::vector<fs::path> headers;               // the batch's headers, in its order (given)
  std::multimap<fs::path, fs::path> includes;  // each header read, under the file whose #include read it
  std::set<fs::path> error_files;              // every file with an error
  std::vector<ParseError> missing_includes;    // every "file not found" error
};

// Units (collect_jobs.cpp).
// Whether a header has code of its own: a function body (after a parameter list or a trailing qualifier),
// which the units that include it skip and a rule may flag whatever the header's words. Declarations alone
// are seen through those units.
bool has_function_body(const fs::path& header);
// The units of the run's paths: the compile database's (with -p or per-unit mode), each file once per
// configuration that compiles it (`plan` says what it merged or left out), or the tree's files.
std::vector<Job> collect_jobs(Session& session, const std::vector<fs::path>& paths, ConfigurationPlan& plan);
// With a compile database, the project headers under the run's paths that no parse read, each with the
// command of its nearest unit; `units` are the run's units before --shard took its part.
std::vector<Job> unread_header_jobs(Session& session, const std::vector<fs::path>& paths,
                                    const std::set<fs::path>& read, const std::vector<CompileCommand>& units);
// --diff and --units-of: the jobs whose translation unit reads a target.
std::vector<Job> affected_jobs(Session& session, std::vector<Job> jobs,
                               const std::optional<ChangeSet>& changes, const std::vector<fs::path>& paths,
                               const fs::path& root);
// At most `count` of the units that read `header`.
std::vector<Job> representative_units(std::vector<Job> jobs, const fs::path& header, std::size_t count);

// Parses and rules (check_units.cpp, check_headers.cpp).
// One job parsed and checked; `batch` for a batch of headers, `prefix` a shared prefix it loads.
JobResult run_job(const clang::Index& index, const Job& job, const std::string& resource_dir,
                  Session& session, bool skip_bodies, BatchParse* batch = nullptr,
                  const PrefixUse* prefix = nullptr);
// The name of a job's result cache entry (empty without a cache).
std::string cache_entry(Session& session, const Job& job, const std::string& resource_dir, bool skip_bodies);
// The run's units on `requested` threads, through the cache, with shared prefixes for those it misses.
std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, unsigned requested,
                                const std::string& resource_dir, Session& session, bool skip_bodies);
// The headers parsed on their own, in batches of those that share a command.
std::vector<JobResult> run_header_jobs(const std::vector<Job>& jobs, unsigned requested,
                                       const std::string& resource_dir, Session& session, bool skip_bodies);

}  // namespace emberlint::checking
