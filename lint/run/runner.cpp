#include "lint/run/runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "lint/run/cache.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/project/config.hpp"
#include "lint/compile/driver_query.hpp"
#include "lint/findings/fix_check.hpp"
#include "lint/run/git_diff.hpp"
#include "lint/support/glob.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/parse/parse.hpp"
#include "lint/parse/prefix.hpp"
#include "lint/support/progress.hpp"
#include "lint/project/project.hpp"
#include "lint/run/scheduler.hpp"
#include "lint/support/source_text.hpp"
#include "lint/findings/suppressions.hpp"
#include "lint/run/units.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

fs::path normalize(const fs::path& p) {
  return canonical_path(p);
}

bool is_under(const fs::path& file, const fs::path& folder) {
  if (file == folder) return true;
  return !relative_to(file, folder).empty();
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
};

using JobResult = UnitResult;  // lint/run/cache.hpp

// Whether a header has code of its own: a function body (after a parameter list or a trailing qualifier),
// which the units that include it skip and a rule may flag whatever the header's words. Declarations alone
// are seen through those units.
bool has_function_body(const fs::path& header) {
  auto text = SourceText::read(header);
  if (!text) return false;
  std::string code = text->text();
  for (const Comment& c : find_comments(code)) code.replace(c.offset, c.text.size(), c.text.size(), ' ');
  for (std::size_t at = code.find('{'); at != std::string::npos; at = code.find('{', at + 1)) {
    std::size_t end = code.find_last_not_of(" \t\r\n", at == 0 ? 0 : at - 1);
    if (end == std::string::npos) continue;
    if (code[end] == ')') return true;
    std::size_t begin = end;
    while (begin > 0 && is_identifier_char(code[begin - 1])) --begin;
    std::string_view w(code.data() + begin, end + 1 - begin);
    if (w == "const" || w == "noexcept" || w == "override" || w == "final" || w == "mutable") return true;
  }
  return false;
}

// The C/C++ sources and headers under a folder that no config excludes, hidden files and folders skipped.
void walk_sources(Session& session, const fs::path& start,
                  const std::function<void(const fs::path&)>& visit) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(start, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path p = it->path();
    bool hidden = p.filename().string().rfind('.', 0) == 0;
    if (it->is_directory(ec)) {
      if (hidden || session.config_for(p.parent_path())->excluded(p)) it.disable_recursion_pending();
      continue;
    }
    if (hidden || (!is_source_path(p) && !is_header_path(p))) continue;
    if (!session.config_for(p.parent_path())->excluded(p)) visit(normalize(p));
  }
}

std::vector<Job> collect_jobs(Session& session, const std::vector<fs::path>& paths) {
  const CheckOptions& o = session.options();
  if (paths.empty()) return {};
  std::vector<CompileCommand> commands;
  // The config of the run's first path names the backends' own databases and flags.
  const Config& project =
      *session.config_for(fs::is_directory(paths.front()) ? paths.front() : paths.front().parent_path());
  const bool backend_databases =
      std::any_of(project.backends.begin(), project.backends.end(),
                  [](const BackendLayer& b) { return b.compile_database.has_value(); });
  const bool backend_flags = std::any_of(project.backends.begin(), project.backends.end(),
                                         [](const BackendLayer& b) { return !b.compile_flags.empty(); });
  // Per-unit mode: a database of one entry. Without one, the tree is walked (a backend's own database still
  // gives the commands of its files).
  const bool database = o.build_dir || o.unit_command;
  if (o.unit_command && !session.excluded_below(paths.front(), paths.front().root_path()))
    commands.push_back(clean_command(*o.unit_command, paths.front(), fs::current_path()));
  if (o.build_dir || backend_databases) {
    try {
      commands = load_project_commands(project, o.build_dir);
    } catch (const CompileDatabaseError& e) {
      throw UsageError(e.what());
    }
  }
  std::map<fs::path, CompileCommand> chosen;
  // Walking the tree without -p: the commands of the backends' own databases by file, the first of each.
  std::map<fs::path, const CompileCommand*> backend_commands;
  if (!database) {
    for (const auto& c : commands) backend_commands.emplace(c.file, &c);
  }
  for (const auto& start : paths) {
    std::error_code ec;
    if (database) {
      for (const auto& c : commands) {
        // check lints a file once, with its first command (analyze parses every command of a file).
        if (is_under(c.file, start) && !session.excluded_below(c.file, start)) chosen.emplace(c.file, c);
      }
      // A backend's sources that no database compiles, with the flags the backend states for them.
      if (backend_flags && fs::is_directory(start, ec)) {
        walk_sources(session, start, [&](const fs::path& p) {
          if (!is_source_path(p) || chosen.count(p)) return;
          if (auto c = stated_backend_command(project, p)) chosen.emplace(p, std::move(*c));
        });
      }
      if (fs::is_regular_file(start, ec) && !chosen.count(start)) {
        if (auto c = stated_backend_command(project, start)) {
          chosen.emplace(start, std::move(*c));
        } else if (auto c = interpolate_command(commands, start)) {
          chosen.emplace(start, *c);
        }
      }
      continue;
    }
    auto add = [&](const fs::path& file) {
      if (auto own = backend_commands.find(file); own != backend_commands.end()) {
        chosen.emplace(file, *own->second);
        return;
      }
      auto cfg = session.config_for(file.parent_path());
      if (auto stated = stated_backend_command(*cfg, file)) {
        chosen.emplace(file, std::move(*stated));
        return;
      }
      chosen.emplace(file, stated_command(file, cfg->root,
                                          cfg->compile_flags.empty() ? std::vector<std::string>{"-std=c++20"}
                                                                     : cfg->compile_flags));
    };
    if (fs::is_regular_file(start, ec)) {
      add(start);
      continue;
    }
    walk_sources(session, start, add);
  }
  std::vector<Job> jobs;
  for (auto& [file, c] : chosen) {
    session.driver().complete(c);
    add_extra_args(c, o.extra_args_before, o.extra_args);
    jobs.push_back({std::move(c), session.config_for(file.parent_path())});
  }
  return jobs;
}

// With a compile database, the project headers under the folders of the run that no parse read (header-only
// code: templates and inline functions only a user's build includes), each with the command of its nearest
// unit of the run (the database's interpolation), so that their code is checked too. `units` are the run's
// units before --shard took its part: with shards, a header that a unit of another shard includes (by the
// include scanner) is that shard's, and the rest are dealt out round robin, so each is checked once.
std::vector<Job> unread_header_jobs(Session& session, const std::vector<fs::path>& paths,
                                    const std::set<fs::path>& read,
                                    const std::vector<CompileCommand>& units) {
  const CheckOptions& o = session.options();
  if (!o.build_dir) return {};
  // A run of header folders alone has no unit of its own: the nearest of the whole database then.
  std::vector<CompileCommand> database;
  if (units.empty()) {
    try {
      database = load_compile_database(*o.build_dir);
    } catch (const CompileDatabaseError&) {
      return {};  // the first load reported it
    }
  }
  const std::vector<CompileCommand>& nearest = units.empty() ? database : units;
  std::vector<Job> out;
  std::set<fs::path> added;
  for (const auto& start : paths) {
    std::error_code ec;
    if (!fs::is_directory(start, ec)) continue;
    walk_sources(session, start, [&](const fs::path& p) {
      if (!is_header_path(p) || read.count(p) || !added.insert(p).second) return;
      auto cfg = session.config_for(p.parent_path());
      if (is_library_header(*cfg, p) || !has_function_body(p)) return;  // declarations alone use nothing
      auto c = interpolate_command(nearest, p);
      if (!c) return;
      if (units.empty()) {
        session.driver().complete(*c);
        add_extra_args(*c, o.extra_args_before, o.extra_args);
      }
      out.push_back({std::move(*c), cfg});
    });
  }
  if (o.shard.count > 1) {
    std::set<fs::path> headers;
    for (const auto& j : out) headers.insert(j.command.file);
    const std::set<fs::path> unread = affected_units(units, headers).unread;
    std::erase_if(out, [&](const Job& j) { return !unread.count(j.command.file); });
    std::sort(out.begin(), out.end(),
              [](const Job& a, const Job& b) { return a.command.file < b.command.file; });
    out = take_shard(std::move(out), o.shard);
  }
  return out;
}

// --diff and --units-of: the jobs whose translation unit reads a target (its own file, or a header it
// includes, directly or not: lint/parse/include_graph.hpp). The targets are the changed files, or the given files
// minus those the config excludes. A target no unit reads is linted on its own, as when named without the
// flag: with --diff a changed source file under the paths (new, so not in the compile database yet), with
// --units-of a C/C++ file or a folder.
std::vector<Job> affected_jobs(Session& session, std::vector<Job> jobs,
                               const std::optional<ChangeSet>& changes, const std::vector<fs::path>& paths,
                               const fs::path& root) {
  auto excluded = [&](const fs::path& p) {
    return session.excluded_below(p, is_under(p, root) ? root : p.root_path());
  };
  std::set<fs::path> targets;
  if (changes) {
    for (const auto& [file, change] : changes->files) targets.insert(file);
  } else {
    for (const auto& p : paths) {
      if (!excluded(p)) targets.insert(p);
    }
  }
  std::vector<CompileCommand> units;
  for (const auto& j : jobs) units.push_back(j.command);
  Affected affected = affected_units(units, targets);
  std::vector<Job> out;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (affected.units[i]) out.push_back(std::move(jobs[i]));
  }
  std::vector<fs::path> alone;
  for (const auto& t : affected.unread) {
    bool in_paths =
        std::any_of(paths.begin(), paths.end(), [&](const fs::path& p) { return is_under(t, p); });
    if (changes ? is_source_path(t) && in_paths && !excluded(t)
                : is_source_path(t) || is_header_path(t) || fs::is_directory(t))
      alone.push_back(t);
  }
  for (auto& j : collect_jobs(session, alone)) out.push_back(std::move(j));
  auto by_file = [](const Job& a, const Job& b) { return a.command.file < b.command.file; };
  std::stable_sort(out.begin(), out.end(), by_file);
  out.erase(std::unique(out.begin(), out.end(),
                        [](const Job& a, const Job& b) { return a.command.file == b.command.file; }),
            out.end());
  return out;
}

// At most `count` of the units that read `header`: the source named after it first (x.cpp for x.h), then
// the units whose own file includes it by name (its direct includers), then the others, each in path order.
std::vector<Job> representative_units(std::vector<Job> jobs, const fs::path& header, std::size_t count) {
  if (jobs.size() <= count) return jobs;
  const std::string stem = header.stem().string(), name = header.filename().string();
  auto rank = [&](const Job& j) {
    if (j.command.file.stem() == stem) return 0;
    auto text = SourceText::read(j.command.file);
    return text && text->text().find(name) != std::string::npos ? 1 : 2;
  };
  std::vector<std::pair<int, std::size_t>> order;
  for (std::size_t i = 0; i < jobs.size(); ++i) order.emplace_back(rank(jobs[i]), i);
  std::sort(order.begin(), order.end());  // by rank, then by position (jobs are in path order)
  std::vector<Job> out;
  for (std::size_t k = 0; k < count; ++k) out.push_back(std::move(jobs[order[k].second]));
  std::sort(out.begin(), out.end(),
            [](const Job& a, const Job& b) { return a.command.file < b.command.file; });
  return out;
}

// A file's findings of one rule and group (Diagnostic::group) become one: the first use, its message saying
// how many uses there are and on which other lines. After suppressions, so a suppressed use is not counted.
void group_findings(std::set<Diagnostic>& merged) {
  std::map<std::tuple<fs::path, std::string, std::string>, std::vector<Diagnostic>> groups;
  for (auto it = merged.begin(); it != merged.end();) {
    if (it->group.empty()) {
      ++it;
      continue;
    }
    groups[{it->file, it->code, it->group}].push_back(*it);
    it = merged.erase(it);
  }
  for (auto& [key, uses] : groups) {
    Diagnostic first = uses.front();  // the set's order: by line and column
    first.uses = static_cast<unsigned>(uses.size());
    if (uses.size() > 1) {
      std::set<unsigned> lines;
      for (std::size_t i = 1; i < uses.size(); ++i) {
        if (uses[i].line != first.line) lines.insert(uses[i].line);
      }
      std::string where;
      std::size_t shown = 0;
      for (unsigned line : lines) {
        if (shown == 5) break;
        where += (shown++ ? ", " : "") + std::to_string(line);
      }
      if (lines.size() > shown) where += " and " + std::to_string(lines.size() - shown) + " more";
      first.message +=
          " (" + std::to_string(uses.size()) + " uses in this file" +
          (where.empty() ? "" : "; also line" + std::string(lines.size() > 1 ? "s " : " ") + where) + ")";
    }
    merged.insert(std::move(first));
  }
}

// What a batch of headers needs to know of its parse besides the result.
struct BatchParse {
  std::vector<fs::path> headers;               // the batch's headers, in its order (given)
  std::multimap<fs::path, fs::path> includes;  // each header read, under the file whose #include read it
  std::set<fs::path> error_files;              // every file with an error
  std::vector<ParseError> missing_includes;    // every "file not found" error
};

// Whether a file's code is the project's: under the config's root and not excluded, in a layer or else not a
// library's own header.
bool project_file(const Config& cfg, const fs::path& p) {
  if (!is_under(p, cfg.root) || cfg.excluded(p)) return false;
  return classify_path(cfg, p).kind != LayerKind::none || !is_library_header(cfg, p);
}

JobResult run_job(const clang::Index& index, const Job& job, const std::string& resource_dir,
                  Session& session, bool skip_bodies, BatchParse* batch = nullptr,
                  const PrefixUse* prefix = nullptr) {
  JobResult out;
  const Config& cfg = *job.config;
  ParseOptions po;
  po.resource_dir = resource_dir;
  po.skip_preamble_bodies = skip_bodies;
  if (batch) {
    po.batch = batch->headers;
    po.on_include = [batch](const fs::path& includer, const fs::path& header) {
      batch->includes.emplace(includer.lexically_normal(), header.lexically_normal());
    };
  }
  if (job.keep_warm) po.warm = session.options().warm_units;
  if (ResultCache* cache = session.cache()) {
    // `cache` by value: the pointer lives only in this if statement, the callback runs during the parse.
    po.on_input = [&out, cache](const fs::path& p, std::string_view bytes) {
      out.dependencies.push_back(cache->dependency(p, bytes));
    };
  }
  po.in_project = [&](const fs::path& p) {
    if (job.command.contents && p == job.command.file) return false;  // a batch's list of headers
    return project_file(cfg, p);
  };
  po.prefix = prefix;
  ParseResult parsed = parse_translation_unit(index, job.command, po);
  if (parsed.prefixed) ++session.prefixed_units;
  if (batch) {
    batch->error_files = parsed.error_files;
    batch->missing_includes = parsed.missing_includes;
  }
  if (!parsed.errors.empty() || !parsed.facts) {
    out.failure = Failure{job.command.file, parsed.failure, parsed.failure_file, parsed.failure_line,
                          parsed.failure_column};
    if (!parsed.cause.empty()) out.failure->cause = parsed.cause;
    out.failure->errors = parsed.errors;
    out.failure->partial = parsed.facts.has_value();
    if (ResultCache* cache = session.cache()) {
      for (const auto& folder : missing_file_folders(job.command, parsed.errors))
        out.dependencies.push_back(cache->folder_dependency(folder));
    }
  }
  if (!parsed.facts) {
    // libclang only says "error 1" for a file it cannot open: missing (a database entry, or removed mid-run),
    // not a file, or unreadable.
    if (std::error_code ec; !fs::is_regular_file(job.command.file, ec))
      out.failure->message = fs::exists(job.command.file, ec) ? "not a regular file" : "no such file";
    else if (::access(job.command.file.c_str(), R_OK) != 0)
      out.failure->message = std::string("cannot read it: ") + std::strerror(errno);
    // libclang read nothing (its driver refused the command): the result holds while the file and the
    // command (part of the entry's name) are unchanged, so a warm run does not try again.
    else if (ResultCache* cache = session.cache(); cache && out.dependencies.empty()) {
      if (auto text = SourceText::read(job.command.file))
        out.dependencies.push_back(cache->dependency(job.command.file, text->text()));
    }
    return out;
  }
  const TuFacts& facts = *parsed.facts;
  for (const auto& f : facts.files) {
    if (f.in_project) out.project_files.push_back(f.path);
  }
  ProjectModel model(cfg, facts);
  for (const Rule* rule : session.rules().file_rules()) {
    if (!session.selected(rule->info().code)) continue;
    rule->check(model, Reporter(rule->info(), facts, out.diagnostics));
  }
  check_fixes(index, job.command, resource_dir, !parsed.errors.empty(), out.diagnostics);
  return out;
}

// The name of a job's result cache entry (empty without a cache).
std::string cache_entry(Session& session, const Job& job, const std::string& resource_dir, bool skip_bodies) {
  ResultCache* cache = session.cache();
  const CompileCommand& c = job.command;
  return cache ? cache->entry_name({c.file, c.directory, c.arguments, job.config.get(), session.rule_codes(),
                                    resource_dir, skip_bodies})
               : std::string();
}

// run_job through the result cache: an entry whose files are unchanged stands for the parse and the rules.
// With `missed`, the cache was already asked and had no entry.
JobResult run_cached_job(const clang::Index& index, const Job& job, const std::string& resource_dir,
                         Session& session, bool skip_bodies, const PrefixUse* prefix = nullptr,
                         bool missed = false) {
  JobResult out;
  ResultCache* cache = session.cache();
  const CompileCommand& c = job.command;
  std::string entry = cache_entry(session, job, resource_dir, skip_bodies);
  if (auto hit = cache && !missed ? cache->load(entry) : std::nullopt) {
    out = std::move(*hit);
  } else {
    const std::int64_t started = now_ns();
    ++session.parsed_units;
    out = run_job(index, job, resource_dir, session, skip_bodies, nullptr, prefix);
    if (cache) cache->store(entry, out, started);
  }
  out.dependencies = {};  // hundreds per unit, and only the cache needs them
  session.progress().done(c.file);
  return out;
}

// A command's units that share a prefix: what their project files include from outside the project.
struct PrefixGroup {
  std::vector<std::size_t> units;
  std::vector<std::string> headers;  // `#include <NAME>` names, in the order first met
  std::optional<Prefix> prefix;
};

// What shares a prefix: one folder, flags, language and compiler.
using PrefixKey =
    std::tuple<fs::path, std::vector<std::string>, std::string, std::string, std::vector<std::string>>;
PrefixKey prefix_key(const CompileCommand& c) {
  return {c.directory, c.arguments, c.driver, c.compiler, c.driver_flags};
}

// A run's prefixes and their folder, removed with them.
struct SharedPrefixes {
  PrefixFolder folder;
  std::vector<PrefixGroup> groups;
};

// Whether a unit can load a prefix at all: C or C++ from a file (not CUDA, Objective-C or a batch of
// headers), without forced includes or a language of its own, which would come before the prefix.
bool prefix_language(const CompileCommand& c) {
  static const std::set<std::string> extensions = {".c", ".cc", ".cpp", ".cxx", ".c++", ".C"};
  if (c.contents || !extensions.count(c.file.extension().string())) return false;
  return std::none_of(c.arguments.begin(), c.arguments.end(), [](const std::string& a) {
    return a.rfind("-include", 0) == 0 || a.rfind("-imacros", 0) == 0 || a.rfind("-x", 0) == 0 ||
           a.rfind("--language", 0) == 0;
  });
}

// Whether a line of a scanned file is inside a conditional block (not the include guard).
bool in_conditional(const DirectiveScan& scan, unsigned line) {
  return std::any_of(scan.conditionals.begin(), scan.conditionals.end(),
                     [line](const auto& b) { return b.first <= line && line <= b.second; });
}

// The `#include <NAME>` names of a file's scan outside any #if that are found outside the project (or not
// found: a system folder the command does not list).
std::vector<std::string> outside_includes(const DirectiveScan& scan, const fs::path& file,
                                          const IncludePaths& paths, const Config& cfg) {
  std::vector<std::string> out;
  for (const IncludeDirective& inc : scan.includes) {
    if (inc.name.form != HeaderName::Form::angled || inc.next) continue;
    if (in_conditional(scan, inc.line) || inc.name.text.find_first_of("<>\n") != std::string::npos) continue;
    if (auto found = resolve_include(inc.name, false, file, paths); found && project_file(cfg, *found))
      continue;
    out.push_back(inc.name.text);
  }
  return out;
}

// Walks a unit's project files from `file` in the order the compiler reads them (each once: `seen`), telling
// `fit` what they include from outside the project, define and test, each where it is.
void walk_project_files(IncludeGraph& graph, const IncludePaths& paths, const Config& cfg,
                        const fs::path& file, std::set<fs::path>& seen, PrefixFit& fit) {
  const DirectiveScan& scan = graph.scan(file);
  for (const std::string& macro : scan.defined) fit.defines(macro);
  std::size_t tested = 0;
  for (const IncludeDirective& inc : scan.includes) {
    for (; tested < scan.tested.size() && scan.tested[tested].first < inc.line; ++tested)
      fit.tests(scan.tested[tested].second);
    auto found = resolve_include(inc.name, inc.next, file, paths);
    if (found && project_file(cfg, *found)) {
      if (seen.insert(*found).second) walk_project_files(graph, paths, cfg, *found, seen, fit);
    } else if (inc.name.form == HeaderName::Form::angled || inc.name.form == HeaderName::Form::quoted) {
      fit.includes(inc.name.text, !in_conditional(scan, inc.line) && !inc.next);
    }
  }
  for (; tested < scan.tested.size(); ++tested) fit.tests(scan.tested[tested].second);
}

// The prefixes of a run's units that are not cached (`todo`): units of one command and language, three or
// more, share one made of the headers from outside the project that their project files include outside
// any #if (found by the textual include graph), built on every thread; each unit whose project files agree
// with it on macros (PrefixFit, told by walk_project_files) is given it in `given`.
void plan_prefixes(const std::vector<Job>& jobs, const std::vector<bool>& todo, unsigned requested,
                   const std::string& resource_dir, Session& session, SharedPrefixes& shared,
                   std::vector<PrefixUse>& given) {
  constexpr std::size_t fewest = 3;  // below, building it costs about what it saves
  std::map<PrefixKey, std::size_t> index_of;
  std::vector<PrefixGroup>& groups = shared.groups;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const CompileCommand& c = jobs[i].command;
    if (!todo[i] || !prefix_language(c)) continue;
    auto [it, added] = index_of.try_emplace(prefix_key(c), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].units.push_back(i);
  }
  std::erase_if(groups, [&](const PrefixGroup& g) { return g.units.size() < fewest; });
  if (groups.empty()) return;
  const fs::path& folder = shared.folder.path();
  if (folder.empty()) {
    groups.clear();
    return;
  }
  IncludeGraph graph;
  for (PrefixGroup& group : groups) {
    const IncludePaths paths = include_paths(jobs[group.units.front()].command);
    std::set<std::string> seen;
    for (std::size_t i : group.units) {
      const Config& cfg = *jobs[i].config;
      for (const fs::path& f : graph.unit(jobs[i].command).files) {
        if (!project_file(cfg, f)) continue;
        for (const std::string& name : outside_includes(graph.scan(f), f, paths, cfg)) {
          if (seen.insert(name).second) group.headers.push_back(name);
        }
      }
    }
  }
  for_each_unit(groups.size(), requested, [&](const clang::Index& index, std::size_t g) {
    PrefixGroup& group = groups[g];
    if (group.headers.empty()) return;
    const fs::path pch = folder / (std::to_string(g) + ".pch");
    group.prefix = build_prefix(index, jobs[group.units.front()].command, resource_dir, group.headers, pch);
    if (group.prefix) ++session.prefixes;
  });
  for (const PrefixGroup& group : groups) {
    if (!group.prefix) continue;
    const IncludePaths paths = include_paths(jobs[group.units.front()].command);
    for (std::size_t i : group.units) {
      PrefixFit fit(*group.prefix);
      std::set<fs::path> seen{jobs[i].command.file};
      walk_project_files(graph, paths, *jobs[i].config, jobs[i].command.file, seen, fit);
      given[i] = fit.use();
    }
  }
}

std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, unsigned requested,
                                const std::string& resource_dir, Session& session, bool skip_bodies) {
  std::vector<JobResult> results(jobs.size());
  session.progress().add(jobs.size());
  // Shared prefixes for the units that miss the cache: a cold run's (the language server's units are kept
  // warm, with preambles of their own instead).
  std::vector<bool> todo(jobs.size(), true);
  std::vector<PrefixUse> given(jobs.size());
  SharedPrefixes shared;  // outlives the units' parses
  const bool prefixes = skip_bodies && session.options().shared_prefix && !session.options().warm_units;
  ResultCache* cache = session.cache();
  if (prefixes) {
    // The cache first, on every thread as a warm run's loads were: only what it misses shares prefixes.
    if (cache) {
      std::vector<char> hit(jobs.size(), 0);  // not vector<bool>: threads set neighbouring elements
      for_each_unit(jobs.size(), requested, [&](const clang::Index&, std::size_t i) {
        if (auto entry = cache->load(cache_entry(session, jobs[i], resource_dir, skip_bodies))) {
          results[i] = std::move(*entry);
          results[i].dependencies = {};
          session.progress().done(jobs[i].command.file);
          hit[i] = 1;
        }
      });
      for (std::size_t i = 0; i < jobs.size(); ++i) todo[i] = !hit[i];
    }
    plan_prefixes(jobs, todo, requested, resource_dir, session, shared, given);
  }
  for_each_unit(jobs.size(), requested, [&](const clang::Index& index, std::size_t i) {
    if (todo[i])
      results[i] = run_cached_job(index, jobs[i], resource_dir, session, skip_bodies,
                                  given[i].prefix ? &given[i] : nullptr, prefixes);
  });
  return results;
}

// The main file of a batch of headers: where no file is, in the language of the command (its -x, if any,
// decides over the name).
fs::path batch_file(const CompileCommand& command, std::size_t number) {
  return command.directory /
         (".emberlint-headers-" + std::to_string(number) + (command.driver == "clang++" ? ".cpp" : ".c"));
}

// Whether `#include "PATH"` names the file: a quoted include has no escapes.
bool includable(const fs::path& p) {
  const std::string s = p.string();
  return s.find_first_of("\"\n\r") == std::string::npos;
}

// The headers parsed on their own (their bodies are the main file's code there), in batches: the headers that
// share a command (their includer's flags, language and config) are parsed together, as one unit whose main
// file includes each of them, so that what they include in common (the standard library, a framework's
// headers) is parsed once and not once per header. Each header keeps its own result and cache entry: the
// findings in the files its includes reach (a file several reach: the first's; the merge deduplicates). In a
// batch with errors, the headers an error touches are parsed again alone, unless alone they would miss the
// same file.
std::vector<JobResult> run_header_jobs(const std::vector<Job>& jobs, unsigned requested,
                                       const std::string& resource_dir, Session& session, bool skip_bodies) {
  std::vector<JobResult> results(jobs.size());
  std::vector<std::string> entries(jobs.size());
  ResultCache* cache = session.cache();
  session.progress().add(jobs.size());
  // A batch's headers share a command, a config and a layer (TuFacts::batch).
  using Group = std::tuple<fs::path, std::vector<std::string>, std::string, std::string,
                           std::vector<std::string>, const Config*, LayerKind, std::string>;
  std::map<Group, std::vector<std::size_t>> groups;
  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const CompileCommand& c = jobs[i].command;
    if (cache) {
      entries[i] = cache_entry(session, jobs[i], resource_dir, skip_bodies);
      if (auto hit = cache->load(entries[i])) {
        results[i] = std::move(*hit);
        results[i].dependencies = {};
        session.progress().done(c.file);
        continue;
      }
    }
    const Layer layer = classify_path(*jobs[i].config, c.file);
    if (includable(c.file))
      groups[{c.directory, c.arguments, c.driver, c.compiler, c.driver_flags, jobs[i].config.get(),
              layer.kind, layer.backend}]
          .push_back(i);
    else
      batches.push_back({i});
  }
  // At most 16 headers a batch: one parse is as much as two cores share out at the end of a run.
  constexpr std::size_t most = 16;
  for (auto& [key, members] : groups) {
    std::sort(members.begin(), members.end(),
              [&](std::size_t a, std::size_t b) { return jobs[a].command.file < jobs[b].command.file; });
    const std::size_t count = (members.size() + most - 1) / most;
    const std::size_t size = (members.size() + count - 1) / count;
    for (std::size_t at = 0; at < members.size(); at += size)
      batches.emplace_back(members.begin() + at, members.begin() + std::min(members.size(), at + size));
  }
  auto alone = [&](const clang::Index& index, std::size_t i) {
    const std::int64_t started = now_ns();
    ++session.parsed_headers;
    ++session.headers_alone;
    results[i] = run_job(index, jobs[i], resource_dir, session, skip_bodies);
    if (cache) cache->store(entries[i], results[i], started);
    results[i].dependencies = {};
    session.progress().done(jobs[i].command.file);
  };
  for_each_unit(batches.size(), requested, [&](const clang::Index& index, std::size_t b) {
    const std::vector<std::size_t>& batch = batches[b];
    if (batch.size() == 1) return alone(index, batch.front());
    Job unit = jobs[batch.front()];
    unit.command.file = batch_file(unit.command, b);
    unit.command.contents.emplace();
    for (std::size_t i : batch)
      *unit.command.contents += "#include \"" + jobs[i].command.file.string() + "\"\n";
    const std::int64_t started = now_ns();
    // No preamble: the headers' bodies are what the batch is for.
    BatchParse parse;
    for (std::size_t i : batch) parse.headers.push_back(jobs[i].command.file);
    ++session.batches;
    JobResult whole = run_job(index, unit, resource_dir, session, false, &parse);
    if (whole.failure && !whole.failure->partial) {  // nothing parsed
      for (std::size_t i : batch) alone(index, i);
      return;
    }
    // What each header read, as its own parse would have: the files its includes reach (libclang names each
    // file once, under its first includer: the textual include graph adds those a later header of the batch
    // includes again behind their guard). Its result holds the findings in those files (a file two of them
    // reach: the first's) and depends on them alone, so that an edit of one header reanalyzes only what
    // reads it.
    IncludeGraph graph;
    std::vector<std::set<fs::path>> reached(batch.size());
    std::vector<bool> unresolved(batch.size(), false);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      std::vector<fs::path> todo{jobs[batch[k]].command.file};
      reached[k].insert(todo.front());
      while (!todo.empty()) {
        const fs::path at = std::move(todo.back());
        todo.pop_back();
        for (auto [it, end] = parse.includes.equal_range(at); it != end; ++it) {
          if (reached[k].insert(it->second).second) todo.push_back(it->second);
        }
      }
      const UnitIncludes text = graph.unit(jobs[batch[k]].command);
      reached[k].insert(text.files.begin(), text.files.end());
      unresolved[k] = text.unresolved;
    }
    // A batch with errors: a header that reaches a file with an error is parsed again alone (an error may
    // come from two headers that do not go together, one per platform, say), unless it reaches an #include
    // of a file that is not there (an SDK this machine lacks): alone it would miss that file too, so it keeps
    // the batch's result, partial, with that error. The others keep the batch's result, which no error
    // touched.
    std::vector<std::size_t> kept;
    std::vector<std::optional<ParseError>> missing(batch.size());
    for (std::size_t k = 0; k < batch.size(); ++k) {
      for (const ParseError& e : parse.missing_includes) {
        if (!missing[k] && reached[k].count(e.where)) missing[k] = e;
      }
      const bool touched =
          unresolved[k] || std::any_of(parse.error_files.begin(), parse.error_files.end(),
                                       [&](const fs::path& f) { return reached[k].count(f); });
      if (whole.failure && touched && !missing[k])
        alone(index, batch[k]);
      else
        kept.push_back(k);
    }
    if (kept.empty()) return;
    auto reader = [&](const fs::path& file) -> std::optional<std::size_t> {
      const fs::path normal = file.lexically_normal();
      for (std::size_t k : kept) {
        if (normal == jobs[batch[k]].command.file) return k;
      }
      for (std::size_t k : kept) {
        if (reached[k].count(normal)) return k;
      }
      if (whole.failure)
        return std::nullopt;  // a file of a header parsed again alone: its findings are its own
      return kept.front();
    };
    for (auto& d : whole.diagnostics) {
      if (auto k = reader(d.file)) results[batch[*k]].diagnostics.push_back(std::move(d));
    }
    for (const fs::path& f : whole.project_files) {
      if (auto k = reader(f)) results[batch[*k]].project_files.push_back(f);
    }
    // Files outside the project (the standard library, an SDK) count for every header of the batch.
    std::set<fs::path> in_project;
    for (const fs::path& f : whole.project_files) in_project.insert(f.lexically_normal());
    session.parsed_headers += kept.size();
    for (std::size_t k : kept) {
      const std::size_t i = batch[k];
      const CompileCommand& c = jobs[i].command;
      if (missing[k]) {
        const ParseError& e = *missing[k];
        results[i].failure = Failure{c.file, e.message, e.where, e.line, e.column};
        results[i].failure->errors = {e};
        results[i].failure->partial = true;
      }
      if (cache) {
        if (missing[k]) {
          for (const auto& folder : missing_file_folders(c, {*missing[k]}))
            results[i].dependencies.push_back(cache->folder_dependency(folder));
        }
        for (const Dependency& d : whole.dependencies) {
          const fs::path normal = d.path.lexically_normal();
          if (d.path == unit.command.file) continue;  // the batch's own list, no file
          if (unresolved[k] || !in_project.count(normal) || reached[k].count(normal))
            results[i].dependencies.push_back(d);
        }
        cache->store(entries[i], results[i], started);
        results[i].dependencies = {};
      }
      session.progress().done(c.file);
    }
  });
  return results;
}

}  // namespace

fs::path project_root(const CheckOptions& options, const RuleNames& names) {
  ConfigLoader loader(names);
  if (options.config_file) return normalize(*options.config_file).parent_path();
  fs::path start = options.paths.empty() ? fs::current_path() : normalize(options.paths.front());
  std::error_code ec;
  if (!fs::is_directory(start, ec)) start = start.parent_path();
  try {
    return loader.for_folder(start, fs::current_path())->root;
  } catch (const ConfigError&) {
    return fs::current_path();
  }
}

bool has_unexpected_failures(const CheckResult& result) {
  auto unexpected = [](const Failure& f) { return !f.expected; };
  return std::any_of(result.failures.begin(), result.failures.end(), unexpected) ||
         std::any_of(result.partial.begin(), result.partial.end(), unexpected);
}

CheckResult run_check(const CheckOptions& options, const RuleCatalog& rules) {
  check_unit_mode(options);
  Session session(options, rules);
  CheckResult result;
  result.root = project_root(options, rules);
  std::vector<fs::path> paths;
  for (const auto& p : options.paths) {
    std::error_code ec;
    if (!fs::exists(p, ec)) throw UsageError(p.string() + ": no such file or folder");
    paths.push_back(normalize(p));
  }
  if (paths.empty()) paths.push_back(result.root);
  // Load every config the inputs need before any work starts, so configuration errors stop the run (exit 2).
  std::set<const Config*> governing;
  for (const auto& p : paths)
    governing.insert(session.config_for(fs::is_directory(p) ? p : p.parent_path()).get());
  // A config that enforces nothing says so, rather than letting "No problems" read as a clean tree.
  for (const Config* cfg : governing) {
    for (const std::string& warning : unenforced(*cfg, paths)) result.warnings.push_back(warning);
  }
  std::optional<ChangeSet> changes;
  try {
    if (options.diff_rev) changes = git_changes(*options.diff_rev, result.root);
  } catch (const GitError& e) {
    throw UsageError(e.what());
  }
  std::vector<Job> jobs =
      collect_jobs(session, options.units_of ? std::vector<fs::path>{result.root} : paths);
  if (changes || options.units_of)
    jobs = affected_jobs(session, std::move(jobs), changes, paths, result.root);
  if (options.units_of && options.units_per_header > 0 && paths.size() == 1 && is_header_path(paths.front()))
    jobs = representative_units(std::move(jobs), paths.front(), options.units_per_header);
  std::vector<CompileCommand> run_units;  // every unit of the run, before --shard takes its part
  for (const auto& j : jobs) run_units.push_back(j.command);
  jobs = take_shard(std::move(jobs), options.shard);
  for (Job& j : jobs) j.keep_warm = true;

  const std::string resource_dir = find_resource_dir();
  const bool skip_bodies = !options.parse_all_bodies;
  std::vector<JobResult> results = run_jobs(jobs, options.jobs, resource_dir, session, skip_bodies);
  // Walking a tree, every header is a unit of its own. One that another unit of the run reads without a
  // failure is no failure of the run when it does not parse alone: helper headers often rely on what their
  // includer included first. What its own parse found is still reported.
  if (!options.build_dir && !options.unit_command) {
    std::set<fs::path> read_by_clean_units;
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (results[i].failure) continue;
      for (const auto& f : results[i].project_files)
        if (f != jobs[i].command.file) read_by_clean_units.insert(f);
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (results[i].failure && is_header_path(jobs[i].command.file) &&
          read_by_clean_units.count(jobs[i].command.file))
        results[i].failure.reset();
    }
  }

  // Function bodies in a translation unit's preamble headers were skipped, so project headers reached only
  // that way get a parse of their own (with the flags of the first unit that included them), where their
  // bodies are main-file code. Every project header with a function body gets it, whatever its words: `a + b`
  // on tensors in an inline function is a finding even in a header that never says `operator`. Such a
  // header is no input of the run: if it does not parse alone, its declarations were still seen through the
  // units that include it, and nothing is reported.
  std::size_t primary = jobs.size();
  if (skip_bodies && (options.build_dir || options.unit_command)) {
    std::set<fs::path> seen;
    for (const auto& j : jobs) seen.insert(j.command.file);
    std::vector<Job> headers;
    for (std::size_t i = 0; i < primary; ++i) {
      for (const auto& f : results[i].project_files) {
        if (!is_header_path(f) || !seen.insert(f).second) continue;
        auto cfg = session.config_for(f.parent_path());
        if (!has_function_body(f)) continue;
        CompileCommand c = jobs[i].command;
        c.file = f;
        headers.push_back({std::move(c), cfg});
      }
    }
    auto more = run_header_jobs(headers, options.jobs, resource_dir, session, skip_bodies);
    for (auto& r : more) {
      if (r.failure) continue;
      results.push_back(std::move(r));
    }
  }
  // Project headers with code that no unit reads at all. One that does not parse alone reports what parsed;
  // its errors are no failure of the run, since no build compiles it as it stands.
  if (options.build_dir && !options.units_of && !changes) {
    std::set<fs::path> read;
    for (const auto& r : results) read.insert(r.project_files.begin(), r.project_files.end());
    for (const auto& j : jobs) read.insert(j.command.file);
    auto unread = run_header_jobs(unread_header_jobs(session, paths, read, run_units), options.jobs,
                                  resource_dir, session, false);
    for (auto& r : unread) {
      if (r.failure && !r.failure->partial) continue;
      r.failure.reset();
      results.push_back(std::move(r));
    }
  }

  session.progress().finish();
  if (ResultCache* cache = session.cache())
    result.cache = CacheStats{cache->hits(), cache->misses(), cache->error()};
  result.parses = {session.parsed_units,  session.parsed_headers, session.batches,
                   session.headers_alone, session.prefixes,       session.prefixed_units};

  // Merge: deduplicate (a header is seen by many translation units), apply severities and per-file ignores.
  std::set<Diagnostic> merged;
  std::set<fs::path> project_files;
  for (std::size_t i = 0; i < results.size(); ++i) {
    JobResult& r = results[i];
    if (r.failure) {
      Failure f = *r.failure;
      f.expected = session.config_for(f.file.parent_path())->expects_parse_error(f.file, f.cause);
      (f.partial ? result.partial : result.failures).push_back(f);
      if (!f.partial) continue;
    }
    if (i < primary) ++result.files_analyzed;
    project_files.insert(r.project_files.begin(), r.project_files.end());
    for (auto& d : r.diagnostics) {
      const RuleInfo* info = rules.find(d.code);
      auto sev = session.severity(*info, d.file);
      if (!sev) continue;
      d.severity = *sev;
      merged.insert(std::move(d));
    }
  }

  // Suppressions, file by file; what suppressed nothing becomes EL001.
  const RuleInfo& el001 = rules.unused_suppression();
  for (const auto& file : project_files) {
    auto text = SourceText::read(file);
    if (!text) continue;
    auto sups = scan_suppressions(*text);
    if (sups.empty()) continue;
    Diagnostic first;
    first.file = file;
    auto begin = merged.lower_bound(first);
    for (auto it = begin; it != merged.end() && it->file == file;) {
      bool hit = false;
      for (auto& s : sups) {
        if (covers(s, *it)) s.used = hit = true;
      }
      it = hit ? merged.erase(it) : std::next(it);
    }
    auto el001_sev = session.severity(el001, file);
    if (!el001_sev) continue;
    for (const auto& s : sups) {
      std::string unknown;
      bool all_active = true;
      for (const auto& item : s.rules) {
        bool any = false;
        for (const RuleInfo* info : rules.infos()) {
          if (!suppression_item_matches(item, info->code, info->name)) continue;
          any = true;
          if (info != &el001 && !session.severity(*info, file)) all_active = false;
        }
        if (!any && unknown.empty()) unknown = item;
      }
      bool report = !s.problem.empty() || !unknown.empty() || (!s.used && s.report_unused && all_active);
      if (!report || (s.kind == Suppression::Kind::end && s.problem.empty())) continue;
      Diagnostic d = rules.suppression_diagnostic(s, file, unknown);
      d.severity = *el001_sev;
      merged.insert(std::move(d));
    }
  }

  group_findings(merged);

  // What was checked where, for the baseline's scope (lint/run/baseline.hpp).
  for (const auto& file : project_files) {
    std::set<std::string>& codes = result.checked_rules[file];
    for (const RuleInfo* info : rules.infos()) {
      if (session.severity(*info, file)) codes.insert(info->code);
    }
  }

  result.diagnostics.assign(merged.begin(), merged.end());
  std::sort(result.diagnostics.begin(), result.diagnostics.end());
  if (!options.explain) {
    for (Diagnostic& d : result.diagnostics) d.explanation.clear();
  }
  std::sort(result.failures.begin(), result.failures.end());
  std::sort(result.partial.begin(), result.partial.end());
  result.notes = session.driver().notes();
  if (changes && options.diff_lines) {
    // Findings on unchanged lines are left out; a baseline does not judge the files they were in.
    std::erase_if(result.diagnostics, [&](const Diagnostic& d) {
      bool keep = changes->touches(d.file, d.line, std::max(d.line, d.end_line));
      if (!keep) result.checked_rules.erase(d.file);
      return !keep;
    });
  }
  return result;
}

std::vector<std::string> unenforced(const Config& config, const std::vector<fs::path>& paths) {
  std::vector<std::string> out;
  const std::string name = config.file.empty()
                               ? std::string("the built-in default config (no .emberlint.json found)")
                               : config.file.string();
  if (config.backends.empty())
    out.push_back(name +
                  " defines no backend in layers.backends: the purity rules EL100-EL104 enforce nothing");
  else if (config.libraries.empty())
    out.push_back(name +
                  " defines no library: only backend folders are owned, library headers and symbols are not "
                  "checked (EL100, EL101, EL102)");
  // A layer glob whose literal folder or file does not exist matches nothing: a typo or a moved folder, and
  // the files it meant are governed by no rule of that layer.
  auto nothing_matched = [&](const std::vector<Glob>& globs, const std::string& key) {
    for (const auto& g : globs) {
      const std::string prefix = g.literal_prefix();
      std::error_code ec;
      if (prefix.empty() || fs::exists(g.base() / prefix, ec)) continue;
      out.push_back(name + ": " + key + " \"" + g.pattern() + "\" matches no file (" + prefix +
                    " does not exist)");
    }
  };
  if (!config.file.empty()) {
    nothing_matched(config.frontend, "layers.frontend");
    for (const auto& b : config.backends) {
      nothing_matched(b.globs, "layers.backends." + b.name);
      nothing_matched(b.public_headers, "layers.backends." + b.name + ".public");
      nothing_matched(b.tests, "layers.backends." + b.name + ".tests");
    }
    nothing_matched(config.tests, "layers.tests");
    nothing_matched(config.glue, "layers.glue");
  }
  if (!config.file.empty() && !paths.empty() &&
      std::none_of(paths.begin(), paths.end(), [&](const fs::path& p) { return is_under(p, config.root); }))
    out.push_back(name + " is outside the checked files: its globs are relative to " + config.root.string() +
                  " and may match none of them");
  return out;
}

std::string display_path(const CheckResult& result, const fs::path& file) {
  fs::path rel = file.lexically_relative(result.root);
  if (rel.empty()) return file.generic_string();
  return rel.generic_string();
}

std::string repository_path(const CheckResult& result, const fs::path& file) {
  if (result.root.empty() || result.repository_root.empty()) return display_path(result, file);
  fs::path rel = file.lexically_relative(result.repository_root);
  if (rel.empty() || *rel.begin() == "..") return file.generic_string();
  return rel.generic_string();
}

}  // namespace emberlint
