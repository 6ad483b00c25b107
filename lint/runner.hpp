// `emberlint check`: compile database -> parse -> facts -> rules -> severities, per-file ignores and
// suppressions -> a sorted result, the same whatever the number of jobs.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lint/diagnostic.hpp"

namespace emberlint {

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
  // Parse every function body, also in the headers of each file's preamble (slower; for comparison).
  bool parse_all_bodies = false;
};

struct CheckResult {
  std::filesystem::path root;  // paths in output are relative to it
  std::size_t files_analyzed = 0;
  std::vector<Diagnostic> diagnostics;
  std::vector<Failure> failures;
  // With --fix: how many diagnostics were fixed (they are no longer in `diagnostics`).
  std::optional<std::size_t> fixed;
};

// Throws UsageError (or ConfigError, CompileDatabaseError) for problems that stop the run before analysis.
CheckResult run_check(const CheckOptions& options);

// The project root for a run: the folder of --config, else of the config governing the first path (or the
// current directory), else the current directory.
std::filesystem::path project_root(const CheckOptions& options);

}  // namespace emberlint
