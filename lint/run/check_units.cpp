// The units of an `emberlint check` run parsed and checked: one job's parse, rules and fix checks, the result
// cache in front of it, and the prefixes that units of one command share (shared_prefixes.hpp).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <tuple>

#include "lint/findings/fix_check.hpp"
#include "lint/project/parse_errors.hpp"
#include "lint/project/project.hpp"
#include "lint/run/scheduler.hpp"
#include "lint/run/session.hpp"
#include "lint/run/shared_prefixes.hpp"

namespace emberlint::checking {

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
    if (!parsed.cause.empty()) out.failure->cause = owned_parse_cause(cfg, parsed.cause, parsed.error_files);
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
    std::vector<PrefixUnit> units;
    for (const Job& job : jobs) units.push_back({&job.command, job.config.get()});
    given = shared.plan(units, todo, requested, resource_dir);
    session.prefixes += shared.built();
    if (std::string note = shared.note(); !note.empty()) session.notes.push_back(std::move(note));
  }
  for_each_unit(jobs.size(), requested, [&](const clang::Index& index, std::size_t i) {
    if (todo[i])
      results[i] = run_cached_job(index, jobs[i], resource_dir, session, skip_bodies,
                                  given[i].prefix ? &given[i] : nullptr, prefixes);
  });
  return results;
}

}  // namespace emberlint::checking
