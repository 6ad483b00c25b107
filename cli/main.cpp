// The emberlint command line, the composition root: the one place that wires the commands (check, the
// default; analyze, in cli/analyze_command.cpp; rules, rule, init, clean, merge) to the engine. Exit codes: 0
// clean, 1 findings, 2 usage or configuration error, 3 an input could not be analyzed (precedence 2 > 3 > 1 >
// 0).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/options.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/findings/fixes.hpp"
#include "lint/init/init.hpp"
#include "lint/project/config.hpp"
#include "lint/project/layer_listing.hpp"
#include "lint/run/cache.hpp"
#include "lint/run/git_diff.hpp"
#include "lint/run/runner.hpp"
#include "lint/run/units.hpp"
#include "lint/support/glob.hpp"
#include "lsp/server.hpp"
#include "reports/merge.hpp"
#include "reports/outputs.hpp"
#include "reports/report.hpp"
#include "rules/registry.hpp"

namespace fs = std::filesystem;
using namespace emberlint;
using namespace emberlint::cli;

namespace {

constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;
constexpr int kExitFailures = 3;

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

// The rules `check` runs (all but analyze's EL400-EL403), narrowed by --select and --ignore as the runner
// narrows them: one JUnit testcase each.
std::vector<const RuleInfo*> checked_rules(const CheckOptions& options) {
  std::vector<const RuleInfo*> out;
  for (const RuleInfo* rule : rule_infos()) {
    if (rule->family != "inventory" && rule_selected(*rule, options.select, options.ignore))
      out.push_back(rule);
  }
  return out;
}

// `emberlint layers`: one line per file (text), or a JSON array.
int print_layers(const std::vector<std::string>& args, const std::string& format) {
  std::vector<fs::path> paths;
  for (const auto& a : args) {
    std::error_code ec;
    if (!fs::exists(a, ec)) return usage_error(a + ": no such file or folder");
    paths.emplace_back(a);
  }
  if (paths.empty()) paths.emplace_back(".");
  ConfigLoader loader(rule_catalog());
  std::vector<FileLayer> files;
  try {
    files = list_layers(loader, paths, fs::current_path());
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  }
  const fs::path cwd = fs::current_path();
  auto shown = [&](const fs::path& p) {
    const fs::path rel = p.lexically_relative(cwd);
    return (rel.empty() || *rel.begin() == ".." ? p : rel).generic_string();
  };
  if (format == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : files) {
      nlohmann::json why = nlohmann::json::array();
      for (const auto& w : f.why)
        why.push_back({{"key", w.key}, {"pattern", w.pattern}, {"config", shown(w.file)}, {"line", w.line}});
      out.push_back({{"file", shown(f.file)},
                     {"layer", f.layer},
                     {"backends", f.backends},
                     {"public_of", f.public_of},
                     {"libraries", f.libraries},
                     {"why", why}});
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const auto& f : files) {
    std::cout << shown(f.file) << (f.folder ? "/  " : "  ") << f.layer;
    for (std::size_t i = 0; i < f.backends.size(); ++i) std::cout << (i ? ", " : " ") << f.backends[i];
    if (!f.public_of.empty()) {
      std::cout << ", public header of";
      for (const auto& b : f.public_of) std::cout << " " << b;
    }
    if (!f.libraries.empty()) {
      std::cout << "; may use";
      for (std::size_t i = 0; i < f.libraries.size(); ++i) std::cout << (i ? ", " : " ") << f.libraries[i];
    }
    if (f.why.empty()) std::cout << "  (no layer glob matches it: no purity rule governs it)";
    for (const auto& w : f.why) {
      std::cout << "  (" << w.key << " \"" << w.pattern << "\"";
      if (w.line) std::cout << ", " << shown(w.file) << ":" << w.line;
      std::cout << ")";
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // `emberlint [check] [PATHS...]`: check is the default subcommand.
  std::vector<std::string> args(argv + 1, argv + argc);
  // `emberlint analyze ...` parses its own options (analyze/analyze.cpp).
  if (!args.empty() && args.front() == "analyze") return analyze_command({args.begin() + 1, args.end()});
  static const std::set<std::string> kTop = {"check", "rules", "rule", "init",   "layers",   "lsp",
                                             "clean", "merge", "-h",   "--help", "--version"};
  if (args.empty() || !kTop.count(args.front())) {
    // A bare word that is no path was most likely meant as a command.
    const std::string& first = args.empty() ? std::string() : args.front();
    std::error_code ec;
    if (!first.empty() && first[0] != '-' && first.find_first_of("./") == std::string::npos &&
        !fs::exists(first, ec))
      return usage_error(
          "'" + first +
          "' is neither a command (check, analyze, rules, rule, init, layers, lsp, clean, merge) " +
          "nor a file or folder");
    args.insert(args.begin(), "check");
  }

  // Named, so that --help says "Usage: emberlint [OPTIONS] SUBCOMMAND" (and each subcommand's
  // "Usage: emberlint check ...").
  CLI::App app{"emberlint: frontend/backend purity checks for C++ tensor code bases, built on libclang",
               "emberlint"};
  app.set_version_flag("--version", std::string("emberlint ") + kVersion);
  app.require_subcommand(1, 1);

  CheckOptions options;
  CommonOptions common;
  std::string export_fixes;
  bool statistics = false, fix = false;
  CLI::App* check = app.add_subcommand("check", "lint files or folders (default: the project root)");
  add_common_options(*check, common,
                     {"files or folders to lint",
                      ".emberlint.json to use for every file (default: nearest)",
                      "text, json, sarif, github, junit or markdown",
                      "write the report to FILE; repeat it for several reports, each in the format of its "
                      "extension (.txt .json .sarif .xml .md), or name a FOLDER/ to get one of each",
                      {"text", "json", "sarif", "github", "junit", "markdown"}});
  check->add_flag("--fix", fix, "apply the automatic fixes in place");
  check->add_option("--export-fixes", export_fixes, "write the fixes as YAML for clang-apply-replacements");
  std::string baseline_file, write_baseline_file;
  bool prune_baseline = false;
  check->add_option("--baseline", baseline_file,
                    "report only the findings not in this baseline FILE; its stale entries fail the run");
  check->add_option("--write-baseline", write_baseline_file,
                    "record the current findings in a baseline FILE");
  check->add_flag("--prune-baseline", prune_baseline, "with --baseline: remove its stale entries from FILE");
  check->add_flag("--statistics", statistics,
                  "count diagnostics per rule, the parses made, and cache hits and misses");
  std::string diff_rev;
  CLI::Option* diff_opt =
      check->add_option("--diff", diff_rev,
                        "only the translation units affected by changes since git revision "
                        "REV (commits, index, work tree, untracked files; a changed "
                        "header: the units that include it)");
  diff_opt->type_name("REV");
  CLI::Option* diff_lines = check->add_flag("--diff-lines", options.diff_lines,
                                            "with --diff: only the findings on added or modified lines");
  diff_lines->needs(diff_opt);
  CLI::Option* units_of = check->add_flag(
      "--units-of", options.units_of,
      "lint the translation units that contain the given files (a header: the units that "
      "include it; files the config excludes and non-C/C++ files are skipped): for pre-commit");
  units_of->excludes(diff_opt);
  check->add_flag("--explain", options.explain,
                  "say why each purity finding fired: the declaration or header used, the config entry that "
                  "makes its owner a backend's and the one that puts the file in its layer (text and JSON)");
  check->add_flag("--parse-all-bodies", options.parse_all_bodies,
                  "also parse function bodies in included headers (slower; the default skips them and parses "
                  "the project headers that have code for their bodies, several to a parse)");
  bool no_shared_prefix = false;
  check->add_flag("--no-shared-prefix", no_shared_prefix,
                  "parse the system and library headers in every unit instead of loading them from one "
                  "precompiled prefix per compile command (slower; for comparison)");
  bool no_query_driver = false;
  check->add_flag("--no-query-driver", no_query_driver,
                  "do not ask each command's compiler (gcc, g++, clang, ... on PATH or by absolute path) for "
                  "its default standard, target, instruction-set macros and system include folders");
  // Build systems and CI (lint/run/units.hpp): `check FILE -- COMPILER ARGS...` lints one unit with that
  // command (CMake's <LANG>_CLANG_TIDY); --shard K/N lints a part of the units, `emberlint merge` joins the
  // reports.
  if (args.front() == "check") options.unit_command = take_unit_command(args);
  check->footer(
      "Per-unit mode, for CMake's <LANG>_CLANG_TIDY: emberlint check [OPTIONS] FILE -- COMPILER ARGS...");
  std::string shard = "1/1";
  check->add_option("--shard", shard, "lint only the K-th of N parts of the units (K/N, 1-based)")
      ->check([](const std::string& s) {
        try {
          parse_shard(s);
          return std::string();
        } catch (const UsageError& e) {
          return std::string(e.what());
        }
      });
  check->add_option("--extra-arg", options.extra_args, "append this argument to every compile command")
      ->allow_extra_args(false);
  check->add_option("--extra-arg-before", options.extra_args_before, "prepend it to every compile command")
      ->allow_extra_args(false);

  CLI::App* rules_cmd = app.add_subcommand("rules", "list every rule: code, name, family, severity, fixable");
  CLI::App* rule_cmd = app.add_subcommand("rule", "explain one rule: what, why, example, fix");
  std::string rule_name;
  rule_cmd->add_option("rule", rule_name, "code or name")->required();
  // Listed for --help only: `analyze` is dispatched before parsing and has its own options.
  app.add_subcommand("analyze",
                     "operations inventory matrix, EL400-EL403 and migration (emberlint analyze --help)");
  CLI::App* init_cmd = app.add_subcommand(
      "init",
      "write a .emberlint.json proposed from the tree's layout and vendor includes, with its evidence");
  bool force = false, dry_run = false;
  std::string init_dir = ".", init_build;
  init_cmd->add_option("folder", init_dir,
                       "the project's root, where it is written (default: the current folder)");
  init_cmd->add_flag("--force", force, "overwrite an existing .emberlint.json");
  init_cmd->add_flag("--dry-run", dry_run, "print the proposed config instead of writing it");
  init_cmd->add_option("-p,--build-dir", init_build,
                       "a folder with compile_commands.json: its test targets are evidence too");
  CLI::App* layers_cmd = app.add_subcommand(
      "layers", "where each file lands: its layer, backends, libraries and the config entry");
  std::vector<std::string> layers_paths;
  std::string layers_format = "text";
  layers_cmd->add_option("paths", layers_paths, "files or folders (default: the current folder)");
  layers_cmd->add_option("--format", layers_format, "text or json")->check(CLI::IsMember({"text", "json"}));
  CLI::App* lsp_cmd = app.add_subcommand(
      "lsp", "a language server over stdio: findings as you type, fixes as code actions, rule docs on hover");
  std::string lsp_build, lsp_config, lsp_cache;
  bool lsp_no_cache = false;
  lsp::ServerOptions lsp_options;
  lsp_cmd->add_option("-p,--build-dir", lsp_build,
                      "folder with compile_commands.json (default: initializationOptions.buildDir, else the "
                      "workspace, build/ or build/*)");
  lsp_cmd->add_option("--config", lsp_config, ".emberlint.json to use for every file (default: nearest)");
  lsp_cmd->add_option("--debounce-ms", lsp_options.debounce_ms,
                      "quiet time after an edit before the file is checked (default: 150)");
  lsp_cmd
      ->add_option("-j,--jobs", lsp_options.jobs, "parallel units for a header's includers (0 = all cores)")
      ->check(job_count);
  lsp_cmd->add_option("--header-units", lsp_options.header_units,
                      "how many of the units that include a header check it (0 = all; default: 2)");
  CLI::Option* lsp_no_cache_opt =
      lsp_cmd->add_flag("--no-cache", lsp_no_cache, "do not use the result cache");
  lsp_cmd->add_option("--cache-dir", lsp_cache, "the result cache (default: $XDG_CACHE_HOME/emberlint)")
      ->excludes(lsp_no_cache_opt);
  CLI::App* clean_cmd = app.add_subcommand("clean", "remove the result cache");
  std::string cache_dir;
  clean_cmd->add_option("--cache-dir", cache_dir, "the cache's folder (default: as for check)");
  CLI::App* merge_cmd =
      app.add_subcommand("merge", "join the JSON or SARIF reports of `check --shard K/N` runs");
  std::vector<std::string> merge_inputs;
  std::string merge_format, merge_output;
  merge_cmd->add_option("reports", merge_inputs, "the reports of the shards")->required();
  merge_cmd->add_option("--format", merge_format, "json or sarif (default: the reports' format)")
      ->check(CLI::IsMember({"json", "sarif"}));
  merge_cmd->add_option("-o,--output", merge_output, "write the merged report to FILE");

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

  if (merge_cmd->parsed())
    return merge_report_files(merge_inputs, merge_format, merge_output, std::cout, std::cerr);
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
    if (fs::exists(target, ec) && !force && !dry_run) {
      return usage_error(target.string() +
                         " already exists; use --force to overwrite it, or --dry-run to see "
                         "what init proposes");
    }
    std::vector<CompileCommand> commands;
    std::size_t entries = 0;
    if (!init_build.empty()) {
      try {
        commands = load_compile_database(init_build, &entries);
      } catch (const CompileDatabaseError& e) {
        return usage_error(e.what());
      }
    }
    std::string text = starter_config(canonical_path(init_dir), commands, entries);
    if (dry_run) {
      std::cout << text;
      return 0;
    }
    if (std::string error = write_output_file(target, text); !error.empty()) return usage_error(error);
    std::cout << "wrote " << target.string()
              << " (review each proposal's comment; `emberlint check` runs it)\n";
    return 0;
  }

  if (layers_cmd->parsed()) return print_layers(layers_paths, layers_format);

  if (lsp_cmd->parsed()) {
    if (!lsp_build.empty()) lsp_options.build_dir = fs::absolute(lsp_build);
    if (!lsp_config.empty()) {
      std::error_code ec;
      if (!fs::is_regular_file(lsp_config, ec))
        return usage_error("--config " + lsp_config + ": no such file");
      lsp_options.config_file = fs::absolute(lsp_config);
    }
    // Warnings about the cache go to stderr, which editors keep in their server log.
    if (!lsp_no_cache) lsp_options.cache_dir = usable_cache_dir(lsp_cache, std::cerr);
    return lsp::serve(STDIN_FILENO, STDOUT_FILENO, lsp_options, rule_catalog());
  }

  if (clean_cmd->parsed()) {
    std::optional<fs::path> dir = cache_dir.empty() ? default_cache_dir() : fs::path(cache_dir);
    if (!dir) return usage_error("no cache folder: XDG_CACHE_HOME and HOME are unset; use --cache-dir");
    if (std::error_code ec; !fs::exists(*dir, ec)) {
      std::cout << "no cache at " << dir->string() << "\n";
      return 0;
    }
    std::size_t removed = 0;
    if (std::string error = clean_cache(*dir, removed); !error.empty()) return usage_error(error);
    std::cout << "removed " << dir->string() << ": " << removed << (removed == 1 ? " entry\n" : " entries\n");
    return 0;
  }

  for (const auto& p : common.paths) options.paths.emplace_back(p);
  options.jobs = common.jobs;
  options.select = common.select;
  options.ignore = common.ignore;
  const bool quiet = common.quiet;
  const std::string& color = common.color;
  const std::string& project_root_dir = common.project_root;
  options.shard = parse_shard(shard);
  // Per-unit mode: the build tool runs the units in parallel, so one job each unless -j says otherwise.
  if (options.unit_command && check->get_option("--jobs")->count() == 0) options.jobs = 1;
  if (!common.no_cache) options.cache_dir = usable_cache_dir(common.cache_dir, std::cerr);
  options.progress = isatty(STDERR_FILENO);
  if (!common.build_dir.empty()) options.build_dir = common.build_dir;
  if (!common.config_file.empty()) options.config_file = common.config_file;
  if (diff_opt->count() > 0) options.diff_rev = diff_rev;
  BaselineOptions baseline{{}, {}, prune_baseline, options.paths};
  if (!baseline_file.empty()) baseline.use = baseline_file;
  if (!write_baseline_file.empty()) baseline.write = write_baseline_file;
  // Reports go where they can be written, else nothing runs (and nothing is fixed).
  std::vector<OutputTarget> targets;
  if (std::string problem = plan_outputs(common.outputs, common.format, kCheckOutputs, targets);
      !problem.empty())
    return usage_error(problem);
  if (std::string problem = export_fixes.empty() ? "" : output_file_problem(export_fixes); !problem.empty())
    return usage_error("--export-fixes " + export_fixes + ": " + problem);
  try {
    check_baseline_options(baseline);  // before anything runs or is fixed
  } catch (const BaselineError& e) {
    return usage_error(e.what());
  }
  CheckResult result;
  bool exit_after_fix_errors = false;  // a file could not be fixed: like an input that failed (exit 3)
  options.query_driver = !no_query_driver;
  options.shared_prefix = !no_shared_prefix;
  try {
    result = run_check(options, rule_catalog());
  } catch (const UsageError& e) {
    return usage_error(e.what());
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  }
  if (!result.root.empty() && for_code_scanning(targets))
    result.repository_root = project_root_dir.empty() ? repository_top_level(result.root)
                                                      : fs::absolute(project_root_dir).lexically_normal();
  if (!quiet) {
    for (const auto& note : result.notes) std::cerr << "emberlint: note: " << note << "\n";
  }
  for (const auto& warning : result.warnings) std::cerr << "emberlint: warning: " << warning << "\n";
  if (result.cache && !result.cache->error.empty())
    std::cerr << "emberlint: warning: the result cache could not be written: " << result.cache->error << "\n";

  if (fix || !export_fixes.empty()) {
    FixPlan plan = plan_fixes(result.diagnostics);
    if (!export_fixes.empty()) {
      std::ostringstream yaml;  // written whole, atomically
      write_fixes_yaml(yaml, result.diagnostics, plan);
      if (std::string error = write_output_file(export_fixes, yaml.str()); !error.empty())
        return usage_error("--export-fixes " + export_fixes + ": cannot write this file: " + error);
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

  // The baseline comes last, so it describes the code as the run leaves it: a baselined finding that --fix
  // fixed is gone (its entry is stale, or pruned), and fixed files are analyzed again for fingerprints of
  // their new text.
  if (baseline.use || baseline.write) {
    try {
      if (result.fixed.value_or(0) > 0) {
        const std::optional<std::size_t> fixed = result.fixed;
        result = run_check(options, rule_catalog());
        result.fixed = fixed;
      }
      apply_baseline(result, baseline);
    } catch (const std::runtime_error& e) {  // BaselineError, or the rerun's UsageError or ConfigError
      return usage_error(e.what());
    }
  }

  // Per-unit mode's text: absolute paths, as the compiler prints them in the build log. Its JSON and SARIF
  // reports keep paths relative to the project root, like every report, so that `emberlint merge` joins the
  // reports of the units of one tree (a build system's per-unit actions) as it joins shards.
  CheckResult build_log;
  if (options.unit_command) {
    build_log = result;
    build_log.root.clear();
  }
  for (const OutputTarget& target : targets) {
    std::ostringstream file;  // -o: written whole, atomically, at the end
    std::ostream& out = target.file.empty() ? std::cout : file;
    const std::string& fmt = target.format;
    if (fmt == "json") {
      render_json(out, result, statistics);
    } else if (fmt == "sarif") {
      render_sarif(out, result);
    } else if (fmt == "github") {
      render_github(out, result);
    } else if (fmt == "junit") {
      render_junit(out, result, {"emberlint check", checked_rules(options)});
    } else if (fmt == "markdown") {
      render_markdown(out, result, {});
    } else {
      TextOptions text;
      text.quiet = quiet || options.unit_command;  // per-unit mode: a build log line per unit is noise
      text.color = color == "always" || (color == "auto" && target.file.empty() && isatty(STDOUT_FILENO) &&
                                         !std::getenv("NO_COLOR"));
      render_text(out, options.unit_command ? build_log : result, text);
      if (statistics) render_statistics(out, result);
    }
    out.flush();
    if (target.file.empty()) continue;
    if (std::string error = write_output_file(target.file, file.str()); !error.empty())
      return usage_error("-o " + target.file.string() + ": cannot write this file: " + error);
    if (targets.size() > 1 && !quiet)
      std::cerr << "emberlint: wrote " << target.file.string() << " (" << fmt << ")\n";
  }

  if (has_unexpected_failures(result) || exit_after_fix_errors) return kExitFailures;
  bool failing = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                             [](const Diagnostic& d) { return fails(d.severity); });
  bool stale = result.baseline && !result.baseline->stale.empty();
  return (failing || stale) && !common.exit_zero ? kExitFindings : 0;
}

namespace emberlint::cli {

int usage_error(const std::string& message) {
  std::cerr << "emberlint: error: " << message << "\n";
  return kExitUsage;
}

}  // namespace emberlint::cli
