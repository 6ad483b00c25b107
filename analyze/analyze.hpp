// `emberlint analyze`: the operations inventory matrix, its consistency findings (EL400-EL403) and, with
// --migrate, the migration plan of backend code that lives outside the backend folders.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "reports/analyze_report.hpp"

namespace emberlint::analyze {

struct AnalyzeOptions {
  std::vector<std::filesystem::path> paths;  // the first one locates the project (default: current folder)
  std::optional<std::filesystem::path> build_dir;
  std::optional<std::filesystem::path> config_file;
  unsigned jobs = 0;
  std::vector<std::string> select, ignore;
  bool migrate = false;
  std::string backend;  // --backend NAME|all (with --migrate)
  bool apply = false;   // --apply; otherwise --dry-run
  std::optional<std::filesystem::path> cache_dir;  // the result cache (lint/cache.hpp); nullopt: none
};

// Throws UsageError or ConfigError (exit code 2) for problems found before any analysis.
AnalyzeReport run_analyze(const AnalyzeOptions& options);

// The `analyze` subcommand: parses its own arguments (everything after "analyze") and returns the exit code.
int analyze_main(const std::vector<std::string>& args);

}  // namespace emberlint::analyze
