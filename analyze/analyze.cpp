#include "analyze/analyze.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "analyze/extract.hpp"
#include "analyze/extract_codec.hpp"
#include "analyze/migrate.hpp"
#include "analyze/model.hpp"
#include "analyze/ops_config.hpp"
#include "lint/cache.hpp"
#include "lint/compile_db.hpp"
#include "lint/config.hpp"
#include "lint/fixes.hpp"
#include "lint/git_diff.hpp"
#include "lint/project.hpp"
#include "reports/outputs.hpp"
#include "rules/el4_inventory.hpp"
#include "rules/registry.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

fs::path normalize(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  fs::path out = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : out;
}

bool selected(const AnalyzeOptions& o, const RuleInfo& info) {
  auto matches = [&](const std::string& item) {
    return item == "ALL" || item == info.code || item == info.name || info.code.rfind(item, 0) == 0;
  };
  bool in = o.select.empty() || std::any_of(o.select.begin(), o.select.end(), matches);
  return in && std::none_of(o.ignore.begin(), o.ignore.end(), matches);
}

// The sources analyze parses: every C and C++ file in a backend folder and, for the functions shape, in the
// frontend too (the predecessor's ops/<backend>/ folders live there); for a model that reads its op set from
// headers, those headers too. Sorted, so the run is deterministic.
std::vector<fs::path> project_sources(const Config& cfg, const OpsConfig& ops) {
  const ModelInfo* info = find_model(ops.model);
  const bool headers = info && info->make && info->make()->parses_headers() && !ops.headers.empty();
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it =
           fs::recursive_directory_iterator(cfg.root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path p = it->path();
    bool hidden = p.filename().string().rfind('.', 0) == 0;
    if (it->is_directory(ec)) {
      if (hidden || cfg.excluded(p)) it.disable_recursion_pending();
      continue;
    }
    // Headers are parsed through the sources that include them (and on their own only when they define an
    // op inline, see extract.cpp).
    if (hidden || cfg.excluded(p)) continue;
    if (headers && is_header_path(p) &&
        std::any_of(ops.headers.begin(), ops.headers.end(),
                    [&](const Glob& g) { return g.matches_path(p); })) {
      out.push_back(normalize(p));
      continue;
    }
    if (!is_source_path(p)) continue;
    Layer layer = classify_path(cfg, p);
    bool wanted = layer.kind == LayerKind::backend ||
                  (ops.shape == OpsConfig::Shape::functions && layer.kind == LayerKind::frontend);
    if (wanted) out.push_back(normalize(p));
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool is_c_path(const fs::path& p) {
  return p.extension() == ".c";
}

// One command per file: its compile database entry; else, with a database, the entry of its nearest file
// (a guess: `guesses` says so); else the config's compile_flags (the user's own statement, no guess). C
// sources run as C (the clang driver, no C++ -std), headers as C++ unless every other unit is C.
std::vector<CompileCommand> commands_for(const std::vector<fs::path>& files, const Config& cfg,
                                         const std::optional<fs::path>& build_dir,
                                         std::vector<std::string>& guesses) {
  std::vector<CompileCommand> db;
  if (build_dir) {
    try {
      db = load_compile_database(*build_dir);
    } catch (const CompileDatabaseError& e) {
      throw UsageError(e.what());
    }
  }
  // A source the database compiles several times (once per backend, with other defines) is several units,
  // each parsed with its own command.
  std::map<fs::path, std::vector<const CompileCommand*>> by_file;
  for (const auto& c : db) by_file[c.file].push_back(&c);
  std::vector<CompileCommand> out;
  auto add = [&](CompileCommand c, std::string guess) {
    if (is_header_path(c.file) &&
        std::find(c.arguments.begin(), c.arguments.end(), "-x") == c.arguments.end())
      c.arguments.insert(c.arguments.begin(), {"-x", "c++"});
    guesses.push_back(std::move(guess));
    out.push_back(std::move(c));
  };
  for (const auto& f : files) {
    if (auto it = by_file.find(f); it != by_file.end()) {
      for (const CompileCommand* each : it->second) add(*each, "");
      continue;
    }
    CompileCommand c;
    std::string guess;
    if (auto near = build_dir ? interpolate_command(db, f) : std::nullopt) {
      guess = "not in the compile database: flags interpolated from " +
              (relative_to(near->file, cfg.root).empty() ? near->file.string()
                                                         : relative_to(near->file, cfg.root));
      c = *near;
      c.file = f;
    } else {
      c.file = f;
      c.directory = cfg.root;
      c.arguments = cfg.compile_flags.empty() ? std::vector<std::string>{"-std=c++20"} : cfg.compile_flags;
      if (is_c_path(f)) {
        c.driver = "clang";
        std::erase_if(c.arguments, [](const std::string& a) {
          return a.rfind("-std=c++", 0) == 0 || a.rfind("-std=gnu++", 0) == 0;
        });
      }
    }
    add(std::move(c), std::move(guess));
  }
  return out;
}

// The inventory through the result cache: one entry for the whole run, named by everything besides file
// contents it depends on (the commands with their guesses, the model, the config files) and valid while
// every file the parses read is unchanged, so a warm run of an unchanged tree parses nothing.
ExtractResult cached_extract(const ExtractInput& input, ResultCache* cache,
                             std::optional<CacheStats>& stats) {
  if (!cache) return extract_inventory(input);
  UnitKey key;
  key.file = input.config->root / "emberlint-analyze";
  key.directory = input.config->root;
  key.arguments.push_back("model=" + input.ops->model);
  for (std::size_t i = 0; i < input.commands.size(); ++i) {
    const CompileCommand& c = input.commands[i];
    key.arguments.insert(key.arguments.end(), {"\x1f", c.file.native(), c.directory.native(), c.driver});
    key.arguments.insert(key.arguments.end(), c.arguments.begin(), c.arguments.end());
    if (i < input.guesses.size()) key.arguments.push_back(input.guesses[i]);
  }
  key.config = input.config;
  key.rules = "analyze";
  key.resource_dir = input.resource_dir;
  const std::string entry = cache->entry_name(key);
  if (auto hit = cache->load(entry)) {
    if (auto decoded = decode_extract_result(hit->payload)) {
      stats = CacheStats{1, 0, cache->error()};
      return std::move(*decoded);
    }
  }
  const std::int64_t started = now_ns();
  ExtractResult out = extract_inventory(input);
  if (out.cacheable) {
    UnitResult stored;
    stored.payload = encode_extract_result(out);
    stored.dependencies = std::move(out.dependencies);
    cache->store(entry, stored, started);
  }
  out.dependencies.clear();
  stats = CacheStats{0, 1, cache->error()};
  return out;
}

}  // namespace

AnalyzeReport run_analyze(const AnalyzeOptions& options) {
  auto start = std::chrono::steady_clock::now();
  // A rule code, a rule name, or a prefix of some code ("EL4").
  auto check_item = [](const std::string& item, const char* flag) {
    if (item == "ALL" || RegistryNames().code_of(item)) return;
    for (const RuleInfo* info : rule_infos()) {
      if (info->code.rfind(item, 0) == 0) return;
    }
    throw UsageError(std::string(flag) + ": unknown rule '" + item + "' (see `emberlint rules`)");
  };
  for (const auto& item : options.select) check_item(item, "--select");
  for (const auto& item : options.ignore) check_item(item, "--ignore");
  RegistryNames names;
  ConfigLoader loader(names);
  std::shared_ptr<const Config> cfg;
  if (options.config_file) {
    fs::path f = normalize(*options.config_file);
    std::error_code ec;
    if (!fs::is_regular_file(f, ec))
      throw UsageError("--config " + options.config_file->string() + ": no such file");
    cfg = loader.load_file(f);
  } else {
    fs::path where = options.paths.empty() ? fs::current_path() : normalize(options.paths.front());
    std::error_code ec;
    if (!fs::exists(where, ec)) throw UsageError(where.string() + ": no such file or folder");
    if (!fs::is_directory(where, ec)) where = where.parent_path();
    cfg = loader.for_folder(where, fs::current_path());
  }
  OpsConfig ops = load_ops_config(*cfg);
  // An --apply that was interrupted (killed, power cut) is completed, or undone, before anything is read.
  if (std::string note = recover_migration(cfg->root); !note.empty())
    std::cerr << "emberlint: " << note << "\n";

  ExtractInput input;
  input.config = cfg.get();
  input.ops = &ops;
  input.jobs = options.jobs;
  input.resource_dir = find_resource_dir();

  std::optional<ResultCache> cache;
  if (options.cache_dir) cache.emplace(*options.cache_dir);
  input.cache = cache ? &*cache : nullptr;

  AnalyzeReport report;
  report.findings.root = cfg->root;
  // The inventory and its findings; run again after an applied migration, so the report shows the new tree.
  auto inventory = [&] {
    input.guesses.clear();
    input.commands = commands_for(project_sources(*cfg, ops), *cfg, options.build_dir, input.guesses);
    ExtractResult extracted = cached_extract(input, cache ? &*cache : nullptr, report.findings.cache);
    report.inventory = std::move(extracted.inventory);
    report.findings.files_analyzed = extracted.files_analyzed;
    report.findings.failures = std::move(extracted.failures);
    for (Failure& f : report.findings.failures) f.expected = cfg->expects_parse_error(f.file, f.cause);
    report.findings.diagnostics.clear();
    for (Diagnostic& d : check_inventory(report.inventory)) {
      const RuleInfo* info = nullptr;
      for (const RuleInfo* i : inventory_rule_infos()) {
        if (i->code == d.code) info = i;
      }
      if (!selected(options, *info)) continue;
      if (auto it = cfg->rules.find(d.code); it != cfg->rules.end() && it->second.severity)
        d.severity = *it->second.severity;
      if (d.severity == Severity::off) continue;
      bool ignored =
          std::any_of(cfg->per_file_ignores.begin(), cfg->per_file_ignores.end(), [&](const auto& p) {
            return p.glob.matches_path(d.file) &&
                   std::any_of(p.codes.begin(), p.codes.end(),
                               [&](const auto& c) { return c == "ALL" || c == d.code; });
          });
      if (!ignored) report.findings.diagnostics.push_back(std::move(d));
    }
    std::sort(report.findings.diagnostics.begin(), report.findings.diagnostics.end());
  };
  inventory();
  if (options.migrate) {
    MigrateInput mi;
    mi.config = cfg.get();
    mi.ops = &ops;
    mi.inventory = &report.inventory;
    mi.commands = input.commands;
    mi.resource_dir = input.resource_dir;
    mi.backend = options.backend;
    Migration migration = plan_migration(mi);
    if (options.apply) {
      apply_migration(migration);
      migration.plan.applied = true;
      inventory();
    }
    report.plan = std::move(migration.plan);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

int analyze_main(const std::vector<std::string>& args) {
  constexpr int kExitFindings = 1, kExitUsage = 2, kExitFailures = 3;
  auto usage_error = [&](const std::string& message) {
    std::cerr << "emberlint: error: " << message << "\n";
    return kExitUsage;
  };
  CLI::App app{
      "emberlint analyze: the operations inventory matrix, its consistency rules (EL400-EL403) and "
      "the migration of backend code into the backend folders",
      "emberlint analyze"};
  AnalyzeOptions options;
  std::vector<std::string> paths;
  std::string build_dir, config_file, format, color = "auto";
  std::vector<std::string> outputs;
  bool exit_zero = false, quiet = false, dry_run = false, no_cache = false;
  std::string cache_dir, project_root_dir;
  app.add_option("--project-root", project_root_dir,
                 "what SARIF and GitHub annotation paths are relative to (default: the git top level)");
  app.add_option("paths", paths, "a folder of the project to analyze (default: the current folder)");
  app.add_option("-p,--build-dir", build_dir, "folder with compile_commands.json");
  app.add_option("--config", config_file, ".emberlint.json to use (default: the nearest)");
  app.add_option("-j,--jobs", options.jobs, "parallel jobs (0 = all cores)")->check([](const std::string& n) {
    bool digits = !n.empty() && n.find_first_not_of("0123456789") == std::string::npos;
    return digits ? std::string() : "expected 0 (all cores) or a number of jobs, got '" + n + "'";
  });
  app.add_option("--format", format,
                 "table, markdown, json, csv, html, or the findings as `check` prints them: text, sarif, "
                 "github or junit")
      ->check(
          CLI::IsMember({"table", "markdown", "json", "csv", "html", "text", "sarif", "github", "junit"}));
  app.add_option("-o,--output", outputs,
                 "write the report to FILE; repeat it for several reports, each in the format of its "
                 "extension (.txt .json .html .csv .md .sarif .xml), or name a FOLDER/ to get one of each")
      ->allow_extra_args(false);
  app.add_option("--select", options.select, "only these rules (codes, names or prefixes)")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--ignore", options.ignore, "not these rules (codes, names or prefixes)")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_flag("--exit-zero", exit_zero, "exit 0 when there are findings (not for errors or failures)");
  app.add_flag("--quiet", quiet, "no summary line");
  app.add_option("--color", color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  CLI::Option* no_cache_opt = app.add_flag("--no-cache", no_cache, "do not use the result cache");
  app.add_option("--cache-dir", cache_dir, "the result cache (default: $XDG_CACHE_HOME/emberlint)")
      ->excludes(no_cache_opt);
  auto* migrate = app.add_flag("--migrate", options.migrate, "plan (or apply) the migration of backend code");
  app.add_option("--backend", options.backend, "with --migrate: the backend to migrate, or all")
      ->needs(migrate);
  auto* dry =
      app.add_flag("--dry-run", dry_run, "with --migrate: print the plan, change nothing")->needs(migrate);
  app.add_flag("--apply", options.apply, "with --migrate: move the code and rewrite the frontend")
      ->needs(migrate)
      ->excludes(dry);
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
  if (std::string problem = plan_outputs(outputs, format, kAnalyzeOutputs, targets); !problem.empty())
    return usage_error(problem);
  for (const auto& p : paths) options.paths.emplace_back(p);
  if (!build_dir.empty()) options.build_dir = build_dir;
  if (!config_file.empty()) options.config_file = config_file;
  if (!no_cache) options.cache_dir = usable_cache_dir(cache_dir, std::cerr);

  AnalyzeReport report;
  try {
    report = run_analyze(options);
  } catch (const UsageError& e) {
    return usage_error(e.what());
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  } catch (const MigrationError& e) {
    return usage_error(std::string("--migrate: ") + e.what());
  }

  if (!quiet) {
    for (const auto& w : report.inventory.warnings) std::cerr << "emberlint: warning: " << w << "\n";
  }
  if (for_code_scanning(targets))
    report.findings.repository_root = project_root_dir.empty()
                                          ? repository_top_level(report.findings.root)
                                          : fs::absolute(project_root_dir).lexically_normal();
  const auto& cache = report.findings.cache;
  if (cache && !cache->error.empty())
    std::cerr << "emberlint: warning: the result cache could not be written: " << cache->error << "\n";
  const std::string cached = cache && cache->hits ? ", from the cache" : "";
  for (const OutputTarget& target : targets) {
    std::ostringstream file;  // -o: written whole, atomically, at the end
    std::ostream& out = target.file.empty() ? std::cout : file;
    const std::string& fmt = target.format;
    bool tty = target.file.empty() && isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
    bool use_color = color == "always" || (color == "auto" && tty);
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
        if (selected(options, *info)) rules.push_back(info);
      }
      render_junit(out, report.findings, {"emberlint analyze", rules});
    } else if (fmt == "text") {
      TextOptions text;
      text.quiet = quiet;
      text.color = use_color;
      render_text(out, report.findings, text);
    } else {
      render_analyze_table(out, report, use_color);
      if (!report.findings.diagnostics.empty() || !report.findings.failures.empty()) {
        out << "\n";
        TextOptions text;
        text.quiet = quiet;
        text.color = use_color;
        render_text(out, report.findings, text);
      }
    }
    out.flush();
    if (target.file.empty()) continue;
    if (std::string error = write_output_file(target.file, file.str()); !error.empty())
      return usage_error("-o " + target.file.string() + ": cannot write this file: " + error);
    if (!quiet) {
      std::cerr << "emberlint: wrote " << target.file.string() << " (" << fmt << ", "
                << report.inventory.ops.size() << " ops x " << report.inventory.backends.size()
                << " backends, " << std::to_string(static_cast<int>(report.seconds * 1000)) << " ms" << cached
                << ")\n";
    }
  }

  // As for check: 3 for a unit that failed or parsed partially unless expected_parse_errors expects its
  // cause.
  if (has_unexpected_failures(report.findings)) return kExitFailures;
  bool failing = std::any_of(report.findings.diagnostics.begin(), report.findings.diagnostics.end(),
                             [](const Diagnostic& d) { return fails(d.severity); });
  return failing && !exit_zero ? kExitFindings : 0;
}

}  // namespace emberlint::analyze
