// The headers of an `emberlint check` run parsed on their own (their bodies are main-file code there), in
// batches of those that share a command: one parse whose main file includes each, each header keeping its own
// result and cache entry.
#include <algorithm>
#include <tuple>

#include "lint/parse/include_graph.hpp"
#include "lint/project/project.hpp"
#include "lint/run/scheduler.hpp"
#include "lint/run/session.hpp"

namespace emberlint::checking {

namespace {

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

}  // namespace

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

}  // namespace emberlint::checking
