// `emberlint analyze`: the operations inventory matrix, its consistency findings (EL400-EL403) and, with
// --migrate, the migration plan of backend code that lives outside the backend folders.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyze/inventory.hpp"
#include "analyze/migration_plan.hpp"
#include "lint/run/runner.hpp"

namespace emberlint {

// What `emberlint analyze` found, for the renderers (reports/analyze_report.hpp).
struct AnalyzeReport {
  analyze::Inventory inventory;
  CheckResult findings;  // EL400-EL403 diagnostics and parse failures, as `check` reports them
  std::optional<analyze::MigrationPlan> plan;
  double seconds = 0;  // wall time of the analysis
  // Set when the config states no inventory (no "ops_interface" section): why nothing was analyzed.
  std::string no_interface;
};

}  // namespace emberlint

namespace emberlint::analyze {

struct AnalyzeOptions {
  std::vector<std::filesystem::path> paths;  // the first one locates the project (default: current folder)
  std::optional<std::filesystem::path> build_dir;
  std::optional<std::filesystem::path> config_file;
  unsigned jobs = 0;
  std::vector<std::string> select, ignore;
  bool migrate = false;
  std::string backend;                             // --backend NAME|all (with --migrate)
  bool apply = false;                              // --apply; otherwise --dry-run
  std::optional<std::filesystem::path> cache_dir;  // the result cache (lint/run/cache.hpp); nullopt: none
  bool shared_prefix =
      true;  // units of one command load one precompiled prefix (lint/run/shared_prefixes.hpp)
  // Each command's compiler is asked for what it leaves implicit (lint/compile/driver_query.hpp), as check
  // asks it; --no-query-driver: not.
  bool query_driver = true;
};

// The consistency rules over an inventory (rules/el4_inventory.hpp's check_inventory): every finding at
// its rule's default severity.
using InventoryCheck = std::function<std::vector<Diagnostic>(const Inventory&)>;

// Throws UsageError or ConfigError (exit code 2) for problems found before any analysis. `rules` is every
// rule the run knows and `check` the inventory rules, handed down by the composition root (cli/).
AnalyzeReport run_analyze(const AnalyzeOptions& options, const RuleCatalog& rules,
                          const InventoryCheck& check);

}  // namespace emberlint::analyze
