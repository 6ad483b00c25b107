// `emberlint analyze`'s command line: its options (the shared ones from cli/options.hpp), the run, and the
// reports in every format it was asked for.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "analyze/analyze.hpp"
#include "analyze/migrate.hpp"
#include "cli/options.hpp"
#include "lint/findings/fixes.hpp"
#include "lint/project/config.hpp"
#include "lint/run/cache.hpp"
#include "lint/run/git_diff.hpp"
#include "reports/analyze_report.hpp"
#include "reports/outputs.hpp"
#include "reports/report.hpp"
#include "rules/el4_inventory.hpp"
#include "rules/registry.hpp"

namespace emberlint::cli {

namespace fs = std::filesystem;

int analyze_command(const std::vector<std::string>& args) {
  constexpr int kExitFindings = 1, kExitFailures = 3;
  CLI::App app{
      "emberlint analyze: the operations inventory matrix, its consistency rules (EL400-EL403) and "
      "the migration of backend code into the backend folders",
      "emberlint analyze"};
  analyze::AnalyzeOptions options;
  CommonOptions common;
  bool dry_run = false;
  add_common_options(
      app, common,
      {"a folder of the project to analyze (default: the current folder)",
       ".emberlint.json to use (default: the nearest)",
       "table, markdown, json, csv, html, or the findings as `check` prints them: text, sarif, github or "
       "junit",
       "write the report to FILE; repeat it for several reports, each in the format of its extension (.txt "
       ".json .html .csv .md .sarif .xml), or name a FOLDER/ to get one of each",
       {"table", "markdown", "json", "csv", "html", "text", "sarif", "github", "junit"}});
  auto* migrate = app.add_flag("--migrate", options.migrate, "plan (or apply) the migration of backend code");
  app.add_option("--backend", options.backend, "with --migrate: the backend to migrate, or all")
      ->needs(migrate);
  auto* dry =
      app.add_flag("--dry-run", dry_run, "with --migrate: print the plan, change nothing")->needs(migrate);
  app.add_flag("--apply", options.apply, "with --migrate: move the code and rewrite the frontend")
      ->needs(migrate)
      ->excludes(dry);
  bool no_shared_prefix = false;
  app.add_flag("--no-shared-prefix", no_shared_prefix,
               "parse the system and library headers in every unit instead of loading them from one "
               "precompiled prefix per compile command, as check does (slower; for comparison)");
  bool no_query_driver = false;
  app.add_flag("--no-query-driver", no_query_driver,
               "do not ask each command's compiler (gcc, g++, clang, ... on PATH or by absolute path) for "
               "its default standard, target, instruction-set macros and system include folders (as check "
               "--no-query-driver)");
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(std::string(e.what()) + "\nRun 'emberlint analyze --help' for usage.");
  }
  if (options.migrate && options.backend.empty()) return usage_error("--migrate needs --backend NAME|all");
  if (options.migrate && !dry_run && !options.apply)
    return usage_error("--migrate needs --dry-run or --apply");
  std::vector<OutputTarget> targets;
  if (std::string problem = plan_outputs(common.outputs, common.format, kAnalyzeOutputs, targets);
      !problem.empty())
    return usage_error(problem);
  for (const auto& p : common.paths) options.paths.emplace_back(p);
  if (!common.build_dir.empty()) options.build_dir = common.build_dir;
  if (!common.config_file.empty()) options.config_file = common.config_file;
  if (!common.no_cache) options.cache_dir = usable_cache_dir(common.cache_dir, std::cerr);
  options.jobs = common.jobs;
  options.shared_prefix = !no_shared_prefix;
  options.query_driver = !no_query_driver;
  options.select = common.select;
  options.ignore = common.ignore;

  AnalyzeReport report;
  try {
    report = analyze::run_analyze(options, rule_catalog(), check_inventory);
  } catch (const UsageError& e) {
    return usage_error(e.what());
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  } catch (const analyze::MigrationError& e) {
    return usage_error(std::string("--migrate: ") + e.what());
  }

  if (!report.no_interface.empty()) {
    // Nothing to inventory: said once, no report written, exit 0 (docs/inventory.md#running-it).
    std::cerr << "emberlint: nothing to inventory, no report written: " << report.no_interface
              << "; `emberlint init --dry-run` shows whether init finds one in the code\n";
    return 0;
  }
  if (!common.quiet) {
    for (const auto& w : report.inventory.warnings) std::cerr << "emberlint: warning: " << w << "\n";
  }
  if (for_code_scanning(targets))
    report.findings.repository_root = common.project_root.empty()
                                          ? repository_top_level(report.findings.root)
                                          : fs::absolute(common.project_root).lexically_normal();
  const auto& cache = report.findings.cache;
  if (cache && !cache->error.empty())
    std::cerr << "emberlint: warning: the result cache could not be written: " << cache->error << "\n";
  const std::string cached = cache && cache->hits ? ", from the cache" : "";
  // What the run parsed: its units, and how many of them loaded a prefix shared by their command's units.
  const ParseCounts& counts = report.findings.parses;
  const std::string parses = counts.units
                                 ? ", " + std::to_string(counts.units) + " units parsed, " +
                                       std::to_string(counts.prefixed_units) + " with a shared prefix"
                                 : "";
  for (const OutputTarget& target : targets) {
    std::ostringstream file;  // -o: written whole, atomically, at the end
    std::ostream& out = target.file.empty() ? std::cout : file;
    const std::string& fmt = target.format;
    bool tty = target.file.empty() && isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
    bool use_color = common.color == "always" || (common.color == "auto" && tty);
    if (fmt == "json") {
      render_analyze_json(out, report);
    } else if (fmt == "markdown") {
      render_analyze_markdown(out, report);
    } else if (fmt == "csv") {
      render_analyze_csv(out, report);
    } else if (fmt == "html") {
      render_analyze_html(out, report);
    } else if (fmt == "sarif") {
      render_sarif(out, report.findings);
    } else if (fmt == "github") {
      render_github(out, report.findings);
    } else if (fmt == "junit") {
      std::vector<const RuleInfo*> rules;
      for (const RuleInfo* info : inventory_rule_infos()) {
        if (rule_selected(*info, options.select, options.ignore)) rules.push_back(info);
      }
      render_junit(out, report.findings, {"emberlint analyze", rules});
    } else if (fmt == "text") {
      TextOptions text;
      text.quiet = common.quiet;
      text.color = use_color;
      render_text(out, report.findings, text);
    } else {
      render_analyze_table(out, report, use_color);
      if (!report.findings.diagnostics.empty() || !report.findings.failures.empty() ||
          !report.findings.partial.empty()) {
        out << "\n";
        TextOptions text;
        text.quiet = common.quiet;
        text.color = use_color;
        render_text(out, report.findings, text);
      }
    }
    out.flush();
    if (target.file.empty()) continue;
    if (std::string error = write_output_file(target.file, file.str()); !error.empty())
      return usage_error("-o " + target.file.string() + ": cannot write this file: " + error);
    if (!common.quiet) {
      std::cerr << "emberlint: wrote " << target.file.string() << " (" << fmt << ", "
                << report.inventory.ops.size() << " ops x " << report.inventory.backends.size()
                << " backends, " << std::to_string(static_cast<int>(report.seconds * 1000)) << " ms" << cached
                << parses << ")\n";
    }
  }

  // As for check: 3 for a unit that failed or parsed partially unless expected_parse_errors expects its
  // cause.
  if (has_unexpected_failures(report.findings)) return kExitFailures;
  bool failing = std::any_of(report.findings.diagnostics.begin(), report.findings.diagnostics.end(),
                             [](const Diagnostic& d) { return fails(d.severity); });
  return failing && !common.exit_zero ? kExitFindings : 0;
}

}  // namespace emberlint::cli
