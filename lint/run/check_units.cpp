// The units of an `emberlint check` run parsed and checked: one job's parse, rules and fix checks, the result
// cache in front of it, and the prefixes that units of one command share (precompiled headers from outside
// the project, built once per run).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <tuple>

#include "lint/findings/fix_check.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/project/parse_errors.hpp"
#include "lint/project/project.hpp"
#include "lint/run/scheduler.hpp"
#include "lint/run/session.hpp"

namespace emberlint::checking {

namespace {

// Whether a file's code is the project's: under the config's root and not excluded, in a layer or else not a
// library's own header.
bool project_file(const Config& cfg, const fs::path& p) {
  if (!is_under(p, cfg.root) || cfg.excluded(p)) return false;
  return classify_path(cfg, p).kind != LayerKind::none || !is_library_header(cfg, p);
}

}  // namespace

JobResult run_job(const clang::Index& index, const Job& job, const std::string& resource_dir,
                  Session& session, bool skip_bodies, BatchParse* batch, const PrefixUse* prefix) {
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
    if (std::error_code ec; !fs::is_regular_file(job.command.file, ec)) {
      const bool exists = fs::exists(job.command.file, ec);
      out.failure->message = exists ? "not a regular file" : "no such file";
      // A compile command for a source that is not there names one the build writes (a build-info.cpp, a
      // protobuf or moc source): a configured tree that is not built yet lacks it, which a config can expect.
      if (!exists) out.failure->cause = std::string(kCauseMissingGenerated);
    } else if (::access(job.command.file.c_str(), R_OK) != 0)
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
  ProjectModel model(cfg, facts, job.selected);
  for (const Rule* rule : session.rules().file_rules()) {
    if (!session.selected(rule->info().code)) continue;
    rule->check(model, Reporter(rule->info(), facts, out.diagnostics));
  }
  check_fixes(index, job.command, resource_dir, !parsed.errors.empty(), out.diagnostics);
  return out;
}

std::string cache_entry(Session& session, const Job& job, const std::string& resource_dir, bool skip_bodies) {
  ResultCache* cache = session.cache();
  const CompileCommand& c = job.command;
  return cache ? cache->entry_name({c.file, c.directory, c.arguments, job.config.get(), session.rule_codes(),
                                    resource_dir, skip_bodies})
               : std::string();
}

namespace {

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
  if (shared.folder.path().empty()) {
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
    group.prefix = build_prefix(index, jobs[group.units.front()].command, resource_dir, group.headers,
                                shared.folder, std::to_string(g));
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

}  // namespace

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
    if (std::string note = shared.folder.note(); !note.empty()) session.notes.push_back(std::move(note));
  }
  for_each_unit(jobs.size(), requested, [&](const clang::Index& index, std::size_t i) {
    if (todo[i])
      results[i] = run_cached_job(index, jobs[i], resource_dir, session, skip_bodies,
                                  given[i].prefix ? &given[i] : nullptr, prefixes);
  });
  return results;
}

}  // namespace emberlint::checking
