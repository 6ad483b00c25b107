#include "analyze/analyze.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cctype>
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
#include "analyze/precheck.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/compile/driver_query.hpp"
#include "lint/findings/fixes.hpp"
#include "lint/project/config.hpp"
#include "lint/project/project.hpp"
#include "lint/run/cache.hpp"
#include "lint/run/git_diff.hpp"
#include "lint/run/units.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

fs::path normalize(const fs::path& p) {
  return canonical_path(p);
}

// Every file of the project (hidden and excluded folders aside) that `keep` wants, sorted.
template <class Keep>
std::vector<fs::path> project_files(const Config& cfg, Keep&& keep) {
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
    if (!hidden && !cfg.excluded(p) && keep(p)) out.push_back(normalize(p));
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool declares_ops(const OpsConfig& ops, const fs::path& p) {
  return is_header_path(p) && std::any_of(ops.headers.begin(), ops.headers.end(),
                                          [&](const Glob& g) { return g.matches_path(p); });
}

// The sources analyze parses: every C and C++ file in a backend folder and, for the functions shape, in the
// frontend too (the predecessor's ops/<backend>/ folders live there); for a model that reads its op set from
// headers and for the functions shape, the headers that declare the ops too. Headers are otherwise parsed
// through the sources that include them (and on their own only when they define an op inline, see
// extract.cpp).
std::vector<fs::path> project_sources(const Config& cfg, const OpsConfig& ops) {
  const ModelInfo* info = find_model(ops.model);
  // The functions shape too: a header-only library has no source that declares its ops.
  const bool headers =
      ((info && info->make && info->make()->parses_headers()) || ops.shape == OpsConfig::Shape::functions) &&
      !ops.headers.empty();
  return project_files(cfg, [&](const fs::path& p) {
    if (headers && declares_ops(ops, p)) return true;
    if (!is_source_path(p)) return false;
    Layer layer = classify_path(cfg, p);
    return layer.kind == LayerKind::backend ||
           (ops.shape == OpsConfig::Shape::functions && layer.kind == LayerKind::frontend);
  });
}

// The functions shape: the backends' headers, which the second round parses on their own when no unit read
// one that names an op (a header-only library's backend, included by the frontend under an #if of its own).
std::vector<fs::path> backend_headers(const Config& cfg, const OpsConfig& ops) {
  if (ops.shape != OpsConfig::Shape::functions) return {};
  return project_files(cfg, [&](const fs::path& p) {
    return is_header_path(p) && !declares_ops(ops, p) && classify_path(cfg, p).kind == LayerKind::backend;
  });
}

// The compile database of -p (none without it); a malformed one is a usage error.
std::vector<CompileCommand> database(const Config& cfg, const std::optional<fs::path>& build_dir) {
  try {
    return load_project_commands(cfg, build_dir);
  } catch (const CompileDatabaseError& e) {
    throw UsageError(e.what());
  }
}

// One command per file: its compile database entry; else, with a database, the entry of its nearest file
// (a guess: `guesses` says so); else the config's compile_flags (the user's own statement, no guess). C
// sources run as C (the clang driver, no C++ -std), headers as C++ unless every other unit is C. Each is
// completed by `driver` as check completes its units (what the command's compiler leaves implicit: its -std,
// target, the macros of -mavx2 and the like, its system include folders), so the two parse alike.
std::vector<CompileCommand> commands_for(const std::vector<fs::path>& files, const Config& cfg,
                                         const OpsConfig& ops, const std::optional<fs::path>& build_dir,
                                         std::vector<std::string>& guesses,
                                         std::vector<std::pair<fs::path, std::string>>& unparsed,
                                         DriverQuery& driver) {
  const std::vector<CompileCommand> db = database(cfg, build_dir);
  // A source the database compiles several times (once per backend, with other defines) is several units,
  // each parsed with its own command.
  std::map<fs::path, std::vector<const CompileCommand*>> by_file;
  for (const auto& c : db) by_file[c.file].push_back(&c);
  std::vector<CompileCommand> out;
  auto add = [&](CompileCommand c, std::string guess) {
    if (is_header_path(c.file) &&
        std::find(c.arguments.begin(), c.arguments.end(), "-x") == c.arguments.end())
      c.arguments.insert(c.arguments.begin(), {"-x", "c++"});
    driver.complete(c);
    guesses.push_back(std::move(guess));
    out.push_back(std::move(c));
  };
  for (const auto& f : files) {
    if (auto it = by_file.find(f); it != by_file.end()) {
      for (const CompileCommand* each : it->second) add(*each, "");
      continue;
    }
    if (auto stated = stated_backend_command(cfg, f)) {  // the backend's own statement: no guess
      add(std::move(*stated), "");
      continue;
    }
    CompileCommand c;
    std::string guess;
    const bool may_guess = std::any_of(ops.guess_flags.begin(), ops.guess_flags.end(),
                                       [&](const Glob& g) { return g.matches_path(f); });
    if (build_dir && !db.empty() && !may_guess && !is_header_path(f)) {
      unparsed.emplace_back(f,
                            "is not in the compile database (not parsed; ops_interface.guess_flags may allow "
                            "guessing its flags)");
      continue;
    }
    if (auto near = build_dir ? interpolate_command(db, f) : std::nullopt) {
      const fs::path donor = nearest_command(db, f)->file;
      // A header has no entry of its own: its nearest unit's flags are how a tool compiles it (the headers
      // of a backend of headers only), no guess; an error in its parse still makes its cells unknown.
      if (!is_header_path(f))
        guess = "not in the compile database: flags interpolated from " +
                (relative_to(donor, cfg.root).empty() ? donor.string() : relative_to(donor, cfg.root));
      c = *near;
      c.file = f;
    } else {
      c = stated_command(
          f, cfg.root,
          cfg.compile_flags.empty() ? std::vector<std::string>{"-std=c++20"} : cfg.compile_flags);
    }
    add(std::move(c), std::move(guess));
  }
  return out;
}

// Whether a command defines a macro named after a backend (`-DLIB_WITH_OPENCL` for opencl): a unit of a build
// that selects it.
bool selects_backend(const CompileCommand& c, const std::string& backend) {
  const std::string id = ascii_lower(backend);
  for (std::size_t i = 0; i < c.arguments.size(); ++i) {
    std::string_view a = c.arguments[i];
    if (a == "-D" && i + 1 < c.arguments.size())
      a = c.arguments[i + 1];
    else if (a.rfind("-D", 0) == 0)
      a.remove_prefix(2);
    else
      continue;
    const auto w = words(a.substr(0, a.find('=')));
    if (std::find(w.begin(), w.end(), id) != w.end()) return true;
  }
  return false;
}

// The commands of the backend headers parsed on their own (backend_headers): the nearest unit's flags among
// the units that select the header's backend with a macro when there are any (a header of the opencl backend
// compiles in the units that define LIB_WITH_OPENCL), else among every unit; no guess either way.
std::vector<CompileCommand> header_commands(const std::vector<fs::path>& headers, const Config& cfg,
                                            const OpsConfig& ops, const std::optional<fs::path>& build_dir,
                                            DriverQuery& driver) {
  std::vector<std::string> no_guesses;
  std::vector<std::pair<fs::path, std::string>> no_unparsed;
  if (!build_dir) return commands_for(headers, cfg, ops, build_dir, no_guesses, no_unparsed, driver);
  const std::vector<CompileCommand> db = database(cfg, build_dir);
  std::map<std::string, std::vector<CompileCommand>> selecting;  // backend -> its units
  std::vector<CompileCommand> out;
  for (const auto& f : headers) {
    const std::string backend = classify_path(cfg, f).backend;
    auto [it, added] = selecting.try_emplace(backend);
    if (added) {
      for (const auto& c : db)
        if (selects_backend(c, backend)) it->second.push_back(c);
    }
    const auto& from = it->second.empty() ? db : it->second;
    if (auto near = interpolate_command(from, f)) {
      near->file = f;
      if (std::find(near->arguments.begin(), near->arguments.end(), "-x") == near->arguments.end())
        near->arguments.insert(near->arguments.begin(), {"-x", "c++"});
      driver.complete(*near);
      out.push_back(std::move(*near));
    }
  }
  return out;
}

// The inventory through the result cache: one entry for the whole run, named by everything besides file
// contents it depends on (the commands with their guesses, the model, the config files) and valid while
// every file the parses read is unchanged, so a warm run of an unchanged tree parses nothing.
// `first` runs before any parse (not on a hit): the checks that need only the op-declaring headers.
ExtractResult cached_extract(const ExtractInput& input, ResultCache* cache, std::optional<CacheStats>& stats,
                             const std::function<void()>& first) {
  if (!cache) {
    first();
    return extract_inventory(input);
  }
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
  for (const auto& [file, why] : input.unparsed)
    key.arguments.insert(key.arguments.end(), {"\x1e", file.native()});
  for (const CompileCommand& c : input.headers_alone) {
    key.arguments.insert(key.arguments.end(), {"\x1d", c.file.native(), c.directory.native()});
    key.arguments.insert(key.arguments.end(), c.arguments.begin(), c.arguments.end());
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
  first();
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

AnalyzeReport run_analyze(const AnalyzeOptions& options, const RuleCatalog& rules,
                          const InventoryCheck& check) {
  auto start = std::chrono::steady_clock::now();
  // A rule code, a rule name, or a prefix of some code ("EL4").
  auto check_item = [&](const std::string& item, const char* flag) {
    if (!rules.names_some_rule(item))
      throw UsageError(std::string(flag) + ": unknown rule '" + item + "' (see `emberlint rules`)");
  };
  for (const auto& item : options.select) check_item(item, "--select");
  for (const auto& item : options.ignore) check_item(item, "--ignore");
  ConfigLoader loader(rules);
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
  OpsConfig ops;
  try {
    ops = load_ops_config(*cfg);
  } catch (const NoOpsInterface& e) {
    // A project that states no inventory has nothing to analyze, which is no error; a migration needs one.
    if (options.migrate) throw;
    AnalyzeReport report;
    report.findings.root = cfg->root;
    report.no_interface = e.what();
    return report;
  }
  // An --apply that was interrupted (killed, power cut) is completed, or undone, before anything is read.
  if (std::string note = recover_migration(cfg->root); !note.empty())
    std::cerr << "emberlint: " << note << "\n";

  ExtractInput input;
  input.config = cfg.get();
  input.ops = &ops;
  input.jobs = options.jobs;
  input.shared_prefix = options.shared_prefix;
  input.resource_dir = find_resource_dir();

  std::optional<ResultCache> cache;
  if (options.cache_dir) cache.emplace(*options.cache_dir);
  input.cache = cache ? &*cache : nullptr;

  AnalyzeReport report;
  report.findings.root = cfg->root;
  // The inventory and its findings; run again after an applied migration, so the report shows the new tree.
  DriverQuery driver(options.query_driver);  // one query per compiler and flags, shared by the inventory runs
  auto inventory = [&] {
    input.guesses.clear();
    input.unparsed.clear();
    input.commands = commands_for(project_sources(*cfg, ops), *cfg, ops, options.build_dir, input.guesses,
                                  input.unparsed, driver);
    input.headers_alone = header_commands(backend_headers(*cfg, ops), *cfg, ops, options.build_dir, driver);
    // First what the headers that declare the ops can tell: a wrong name fails before any backend is parsed.
    auto names_first = [&] {
      if (ops.headers.empty()) return;
      std::vector<std::string> guesses;
      std::vector<std::pair<fs::path, std::string>> unparsed;
      const auto headers = project_files(*cfg, [&](const fs::path& p) { return declares_ops(ops, p); });
      check_declared_names(*cfg, ops,
                           commands_for(headers, *cfg, ops, options.build_dir, guesses, unparsed, driver),
                           input.resource_dir, options.jobs);
    };
    ExtractResult extracted =
        cached_extract(input, cache ? &*cache : nullptr, report.findings.cache, names_first);
    report.inventory = std::move(extracted.inventory);
    report.findings.files_analyzed = extracted.files_analyzed;
    report.findings.parses = extracted.parses;
    // As check reports them: a unit that parsed in part is analyzed (partial), one that did not is a failure.
    report.findings.failures.clear();
    report.findings.partial.clear();
    for (Failure& f : extracted.failures) {
      f.expected = cfg->expects_parse_error(f.file, f.cause);
      (f.partial ? report.findings.partial : report.findings.failures).push_back(std::move(f));
    }
    report.findings.diagnostics.clear();
    for (Diagnostic& d : check(report.inventory)) {
      const RuleInfo* info = rules.find(d.code);
      if (!info || !rules.selected(*info, options.select, options.ignore)) continue;
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
  for (const auto& note : driver.notes()) std::cerr << "emberlint: note: " << note << "\n";
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

}  // namespace emberlint::analyze
