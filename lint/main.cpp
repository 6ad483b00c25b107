// The emberlint command line: check (the default), rules, rule, init. Exit codes: 0 clean, 1 findings,
// 2 usage or configuration error, 3 an input could not be analyzed (precedence 2 > 3 > 1 > 0).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>

#include "analyze/analyze.hpp"
#include "lint/compile_db.hpp"
#include "lint/config.hpp"
#include "lint/fixes.hpp"
#include "lint/init.hpp"
#include "lint/runner.hpp"
#include "reports/report.hpp"
#include "rules/registry.hpp"

namespace fs = std::filesystem;
using namespace emberlint;

namespace {

constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;
constexpr int kExitFailures = 3;

int usage_error(const std::string& message) {
  std::cerr << "emberlint: error: " << message << "\n";
  return kExitUsage;
}

void print_rules(std::ostream& out) {
  out << "code   name                            family     severity  fixable  summary\n";
  for (const RuleInfo* r : rule_infos()) {
    std::string name = r->name;
    out << r->code << "  " << name << std::string(name.size() < 32 ? 32 - name.size() : 1, ' ') << r->family
        << std::string(r->family.size() < 11 ? 11 - r->family.size() : 1, ' ')
        << to_string(r->default_severity) << std::string(10 - to_string(r->default_severity).size(), ' ')
        << (r->fixable ? "yes" : "no ") << "      " << r->summary << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  // `emberlint [check] [PATHS...]`: check is the default subcommand.
  std::vector<std::string> args(argv + 1, argv + argc);
  // `emberlint analyze ...` parses its own options (analyze/analyze.cpp).
  if (!args.empty() && args.front() == "analyze")
    return analyze::analyze_main({args.begin() + 1, args.end()});
  static const std::set<std::string> kTop = {"check", "rules", "rule", "init", "-h", "--help", "--version"};
  if (args.empty() || !kTop.count(args.front())) args.insert(args.begin(), "check");

  CLI::App app{"emberlint: frontend/backend purity checks for C++ tensor code bases, built on libclang"};
  app.set_version_flag("--version", std::string("emberlint ") + kVersion);
  app.require_subcommand(1, 1);

  CheckOptions options;
  std::vector<std::string> paths;
  std::string build_dir, config_file, output, format = "text", color = "auto";
  std::string export_fixes;
  bool statistics = false, exit_zero = false, quiet = false, fix = false;
  CLI::App* check = app.add_subcommand("check", "lint files or folders (default: the project root)");
  check->add_option("paths", paths, "files or folders to lint");
  check->add_option("-p,--build-dir", build_dir, "folder with compile_commands.json");
  check->add_option("--config", config_file, ".emberlint.json to use for every file (default: nearest)");
  check->add_option("-j,--jobs", options.jobs, "parallel jobs (0 = all cores)")
      ->check(CLI::NonNegativeNumber);
  check->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
  check->add_option("-o,--output", output, "write the report to FILE");
  check->add_option("--select", options.select, "only these rules (codes, names or prefixes)")
      ->delimiter(',')
      ->allow_extra_args(false);
  check->add_option("--ignore", options.ignore, "not these rules (codes, names or prefixes)")
      ->delimiter(',')
      ->allow_extra_args(false);
  check->add_flag("--fix", fix, "apply the automatic fixes in place");
  check->add_option("--export-fixes", export_fixes, "write the fixes as YAML for clang-apply-replacements");
  check->add_flag("--statistics", statistics, "count diagnostics per rule");
  check->add_flag("--exit-zero", exit_zero, "exit 0 when there are findings (not for errors or failures)");
  check->add_flag("--quiet", quiet, "no summary line");
  check->add_flag("--parse-all-bodies", options.parse_all_bodies,
                  "also parse function bodies in included headers (slower; the default skips them and parses "
                  "each project header on its own)");
  check->add_option("--color", color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));

  CLI::App* rules_cmd = app.add_subcommand("rules", "list every rule: code, name, family, severity, fixable");
  CLI::App* rule_cmd = app.add_subcommand("rule", "explain one rule: what, why, example, fix");
  std::string rule_name;
  rule_cmd->add_option("rule", rule_name, "code or name")->required();
  // Listed for --help only: `analyze` is dispatched before parsing and has its own options.
  app.add_subcommand("analyze",
                     "operations inventory matrix, EL400-EL403 and migration (emberlint analyze --help)");
  CLI::App* init_cmd = app.add_subcommand("init", "write a starter .emberlint.json for the current tree");
  bool force = false;
  std::string init_dir = ".";
  init_cmd->add_option("folder", init_dir, "where to write it (default: the current folder)");
  init_cmd->add_flag("--force", force, "overwrite an existing .emberlint.json");

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(std::string(e.what()) + "\nRun 'emberlint --help' for usage.");
  }

  if (rules_cmd->parsed()) {
    print_rules(std::cout);
    return 0;
  }
  if (rule_cmd->parsed()) {
    const RuleInfo* info = find_rule(rule_name);
    if (!info) return usage_error("unknown rule '" + rule_name + "' (see `emberlint rules`)");
    std::cout << "# " << info->code << " " << info->name << "\n\nFamily: " << info->family
              << ". Default severity: " << to_string(info->default_severity)
              << ". Fixable: " << (info->fixable ? "yes" : "no") << ".\n\n"
              << info->doc;
    return 0;
  }
  if (init_cmd->parsed()) {
    fs::path target = fs::path(init_dir) / kConfigFileName;
    std::error_code ec;
    if (!fs::is_directory(init_dir, ec)) return usage_error(init_dir + ": no such folder");
    if (fs::exists(target, ec) && !force) {
      return usage_error(target.string() + " already exists; use --force to overwrite it");
    }
    std::string text = starter_config(fs::absolute(init_dir));
    std::ofstream(target) << text;
    std::cout << "wrote " << target.string() << "\n";
    return 0;
  }

  for (const auto& p : paths) options.paths.emplace_back(p);
  if (!build_dir.empty()) options.build_dir = build_dir;
  if (!config_file.empty()) options.config_file = config_file;
  CheckResult result;
  bool exit_after_fix_errors = false;  // a file could not be fixed: like an input that failed (exit 3)
  try {
    result = run_check(options);
  } catch (const UsageError& e) {
    return usage_error(e.what());
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  }

  if (fix || !export_fixes.empty()) {
    FixPlan plan = plan_fixes(result.diagnostics);
    if (!export_fixes.empty()) {
      std::ofstream yaml(export_fixes, std::ios::binary);
      if (!yaml) return usage_error("--export-fixes " + export_fixes + ": cannot write this file");
      write_fixes_yaml(yaml, result.diagnostics, plan);
    }
    if (fix) {
      std::vector<std::string> errors = apply_fixes(plan);
      for (const auto& e : errors) std::cerr << "emberlint: error: " << e << "\n";
      // Diagnostics in a file that could not be written stay reported.
      std::set<fs::path> failed;
      for (const auto& [file, edits] : plan.edits) {
        for (const auto& e : errors) {
          if (e.rfind(file.string() + ":", 0) == 0) failed.insert(file);
        }
      }
      std::vector<Diagnostic> remaining;
      std::size_t fixed = 0;
      for (std::size_t i = 0; i < result.diagnostics.size(); ++i) {
        const Diagnostic& d = result.diagnostics[i];
        bool done = plan.fixed.count(i) &&
                    std::none_of(d.fix.begin(), d.fix.end(),
                                 [&](const Replacement& r) { return failed.count(r.file) > 0; });
        if (done) {
          ++fixed;
        } else {
          remaining.push_back(d);
        }
      }
      result.diagnostics = std::move(remaining);
      result.fixed = fixed;
      if (!errors.empty()) exit_after_fix_errors = true;
    }
  }

  std::ofstream file;
  if (!output.empty()) {
    file.open(output);
    if (!file) return usage_error("-o " + output + ": cannot write this file");
  }
  std::ostream& out = output.empty() ? std::cout : file;
  if (format == "json") {
    render_json(out, result, statistics);
  } else {
    TextOptions text;
    text.quiet = quiet;
    text.color = color == "always" ||
                 (color == "auto" && output.empty() && isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR"));
    render_text(out, result, text);
    if (statistics) render_statistics(out, result);
  }
  out.flush();

  if (!result.failures.empty() || exit_after_fix_errors) return kExitFailures;
  bool failing = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                             [](const Diagnostic& d) { return fails(d.severity); });
  return failing && !exit_zero ? kExitFindings : 0;
}
