// `emberlint check`: compile database -> parse -> facts -> rules -> severities, per-file ignores and
// suppressions -> a sorted result, the same whatever the number of jobs.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "lint/compile/driver_query.hpp"
#include "lint/diagnostic.hpp"
#include "lint/findings/rule.hpp"
#include "lint/project/config.hpp"
#include "lint/run/baseline.hpp"
#include "lint/run/units.hpp"

namespace emberlint {

class WarmUnits;

// A usage or configuration problem: nothing is analyzed, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CheckOptions {
  std::vector<std::filesystem::path> paths;          // files or folders; empty = the project root
  std::optional<std::filesystem::path> build_dir;    // -p
  std::optional<std::filesystem::path> config_file;  // --config: used for every file
  unsigned jobs = 0;                                 // 0 = all cores
  std::vector<std::string> select, ignore;           // codes, names or code prefixes
  std::optional<std::filesystem::path> cache_dir;    // the result cache (lint/run/cache.hpp); nullopt: none
  bool progress = false;  // `[done/total] file` on stderr while units are analyzed (stderr is a terminal)
  // Parse every function body, also in the headers of each file's preamble (slower; for comparison).
  bool parse_all_bodies = false;
  // Load the headers from outside the project that a command's units share from one precompiled prefix
  // (lint/parse/prefix.hpp) instead of parsing them in every unit; false: --no-shared-prefix.
  bool shared_prefix = true;
  // --explain: each finding keeps its explanation (Diagnostic::explanation) for the reports.
  bool explain = false;
  // --diff REV: only the units affected by changes since REV (lint/run/git_diff.hpp,
  // lint/parse/include_graph.hpp); --diff-lines: only the findings on added or modified lines.
  std::optional<std::string> diff_rev;
  bool diff_lines = false;
  // --units-of: the paths are files whose translation units to lint (a header's: the units including it).
  bool units_of = false;
  // With --units-of, at most this many of the units that include a header (0: all): the source named after
  // the header first, then units that include it by name, in path order. The language server's bound, so
  // that a header included by hundreds of units is checked in the time of a few.
  std::size_t units_per_header = 0;
  // Per-unit mode, as CMake's <LANG>_CLANG_TIDY calls it (`check FILE -- COMPILER ARGS...`): the one path is
  // linted with this compile command, cleaned like a database entry run in the current directory
  // (lint/run/units.hpp). Extra arguments (--extra-arg-before, --extra-arg) apply to every unit's command.
  std::optional<std::vector<std::string>> unit_command;
  std::vector<std::string> extra_args_before, extra_args;
  Shard shard;  // --shard K/N: only the K-th of N parts of the units
  // Ask each command's compiler what the command leaves implicit (lint/compile/driver_query.hpp);
  // --no-query-driver turns it off.
  bool query_driver = true;
  // The compilers' answers kept across runs (the language server's, which checks on every edit); null: the
  // run asks each compiler once for itself.
  std::shared_ptr<DriverQuery> driver;
  // Units kept parsed across runs and reparsed (lint/parse/parse.hpp), the language server's; null: none.
  std::shared_ptr<WarmUnits> warm_units;
};

// How the result cache did: units whose entry held (hits) and units analyzed anew (misses).
struct CacheStats {
  std::size_t hits = 0, misses = 0;
  std::string error;  // the first entry that could not be written, or empty
};

// The libclang parses a run made (cache hits make none): units, and the project headers parsed for their
// bodies, most of them in batches (lint/run/runner.cpp: run_header_jobs), the others alone.
struct ParseCounts {
  std::size_t units = 0, headers = 0, batches = 0, headers_alone = 0;
  // Shared prefixes built (lint/parse/prefix.hpp), and the units that parsed with one.
  std::size_t prefixes = 0, prefixed_units = 0;
};

struct CheckResult {
  std::filesystem::path root;  // paths in output are relative to it
  // What SARIF and GitHub annotations are relative to: the repository's top level (or --project-root), which
  // code scanning resolves paths against. Empty: `root`.
  std::filesystem::path repository_root;
  std::size_t files_analyzed = 0;
  // --shard K/N with N > 1: this run is the K-th of N parts, and its reports say so (`emberlint merge` checks
  // that it joins each part once and all of them).
  std::optional<Shard> shard;
  // Per-unit mode (`check FILE -- COMMAND`): the one unit this run checked, which its reports name so that
  // `emberlint merge` can join the reports of many such runs (a build system's, one action per unit).
  std::optional<std::filesystem::path> unit;
  std::vector<Diagnostic> diagnostics;
  std::vector<Failure> failures;  // units that could not be analyzed at all
  // Units analyzed despite parse errors: their findings are in `diagnostics` (Failure::partial).
  std::vector<Failure> partial;
  // One line each about how the run went that is no finding (a compiler that could not be queried).
  std::vector<std::string> notes;
  // What the config leaves unenforced (no backend, no library, a layer glob that matches no file, a --config
  // outside the checked tree).
  std::vector<std::string> warnings;
  // With --fix: how many diagnostics were fixed (they are no longer in `diagnostics`).
  std::optional<std::size_t> fixed;
  std::optional<CacheStats> cache;  // with a cache
  ParseCounts parses;
  // The units linted per configuration (lint/compile/configurations.hpp), "" for those of none; empty when
  // the run's config states no configurations.
  std::map<std::string, std::size_t> configuration_units;
  // Each project file the run checked (absolute), with the codes of the rules active in it: a baseline
  // judges only the entries the run could have matched.
  std::map<std::filesystem::path, std::set<std::string>> checked_rules;
  // With --baseline or --write-baseline: what it did, and its stale entries (lint/run/baseline.hpp).
  std::optional<BaselineOutcome> baseline;
};

// A file as reports show it: relative to the result's root, or absolute when outside it (or no root).
std::string display_path(const CheckResult& result, const std::filesystem::path& file);

// A file as SARIF and GitHub annotations name it: relative to repository_root (else root), or absolute.
std::string repository_path(const CheckResult& result, const std::filesystem::path& file);

// Why a config enforces less than a user would think, one line each: no backend layer (no purity rule can
// fire), no library, a layer glob whose folder or file does not exist (a typo, a moved folder), or a config
// whose folder holds none of `paths` (--config from another project).
std::vector<std::string> unenforced(const Config& config, const std::vector<std::filesystem::path>& paths);

// Whether a failed or partial unit is one the config does not expect (exit code 3).
bool has_unexpected_failures(const CheckResult& result);

// Throws UsageError (or ConfigError, CompileDatabaseError) for problems that stop the run before analysis.
// `rules`: every rule the run knows (rules/registry.hpp's rule_catalog()).
CheckResult run_check(const CheckOptions& options, const RuleCatalog& rules);

// The project root for a run: the folder of --config, else of the config governing the first path (or the
// current directory), else the current directory.
std::filesystem::path project_root(const CheckOptions& options, const RuleNames& names);

}  // namespace emberlint
