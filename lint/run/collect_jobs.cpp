// Which units an `emberlint check` run checks: the compile database's commands under its paths (or the tree's
// files with the config's flags), the headers no unit reads, the units that read what --diff or --units-of
// name, and a header's representative units.
#include <algorithm>
#include <fstream>
#include <functional>

#include "lint/compile/compile_db.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/project/project.hpp"
#include "lint/run/session.hpp"
#include "lint/run/units.hpp"

namespace emberlint::checking {

namespace {

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

}  // namespace

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

std::vector<Job> collect_jobs(Session& session, const std::vector<fs::path>& paths, ConfigurationPlan& plan) {
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
  // With a database: each file's commands under the paths, linted once per configuration (the plan).
  std::vector<CompileCommand> picked;
  std::set<fs::path> picked_files;
  // Walking the tree without -p: the commands of the backends' own databases by file, the first of each.
  std::map<fs::path, const CompileCommand*> backend_commands;
  if (!database) {
    for (const auto& c : commands) backend_commands.emplace(c.file, &c);
  }
  for (const auto& start : paths) {
    std::error_code ec;
    if (database) {
      for (std::size_t i = 0; i < commands.size(); ++i) {
        const CompileCommand& c = commands[i];
        if ((i > 0 && commands[i - 1].file == c.file) || !is_under(c.file, start) ||
            session.excluded_below(c.file, start) || !picked_files.insert(c.file).second)
          continue;
        for (std::size_t j = i; j < commands.size() && commands[j].file == c.file; ++j)
          picked.push_back(commands[j]);
      }
      // A backend's sources that no database compiles, with the flags the backend states for them.
      if (backend_flags && fs::is_directory(start, ec)) {
        walk_sources(session, start, [&](const fs::path& p) {
          if (!is_source_path(p) || chosen.count(p) || picked_files.count(p)) return;
          if (auto c = stated_backend_command(project, p)) chosen.emplace(p, std::move(*c));
        });
      }
      if (fs::is_regular_file(start, ec) && !chosen.count(start) && !picked_files.count(start)) {
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
  if (database) {
    // By file (the paths may come in any order), each file's in the database's order.
    std::stable_sort(picked.begin(), picked.end(),
                     [](const CompileCommand& a, const CompileCommand& b) { return a.file < b.file; });
    plan = plan_configurations(picked, project.configurations, project.root, project.file);
  }
  std::vector<Job> jobs;
  for (auto& u : plan.units) chosen.emplace(u.command.file, CompileCommand{});  // keeps the file order below
  std::size_t planned = 0;
  for (auto& [file, c] : chosen) {
    std::vector<CompileCommand> of_file;
    for (; planned < plan.units.size() && plan.units[planned].command.file == file; ++planned)
      of_file.push_back(std::move(plan.units[planned].command));
    if (of_file.empty()) of_file.push_back(std::move(c));
    for (CompileCommand& command : of_file) {
      session.driver().complete(command);
      add_extra_args(command, o.extra_args_before, o.extra_args);
      jobs.push_back(configured_job(std::move(command), session.config_for(file.parent_path()), project));
    }
  }
  plan.units.clear();
  return jobs;
}

// The folder of the project a compile database builds: CMake's source folder (CMAKE_HOME_DIRECTORY in the
// build folder's CMakeCache.txt), else the folder that holds the build folder and every file the database
// compiles. In a monorepo, `-p sub/build` from the top level is sub's project, not its neighbours'.
fs::path database_project(const fs::path& build_dir, const std::vector<CompileCommand>& database) {
  std::ifstream cache(build_dir / "CMakeCache.txt");
  for (std::string line; std::getline(cache, line);) {
    const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    if (line.rfind(key, 0) == 0 && fs::path(line.substr(key.size())).is_absolute())
      return fs::path(line.substr(key.size())).lexically_normal();
  }
  fs::path common = fs::absolute(build_dir).lexically_normal().parent_path();
  for (const CompileCommand& c : database) {
    while (!is_under(c.file, common) && common != common.parent_path()) common = common.parent_path();
  }
  return common;
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
  try {
    database = load_compile_database(*o.build_dir);
  } catch (const CompileDatabaseError&) {
    return {};  // the first load reported it
  }
  const std::vector<CompileCommand>& nearest = units.empty() ? database : units;
  // Only the database's project is walked: the folders of the run inside it, or all of it inside them.
  const fs::path project = database_project(*o.build_dir, database);
  std::vector<Job> out;
  std::set<fs::path> added;
  for (const auto& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec) || (!is_under(path, project) && !is_under(project, path))) continue;
    const fs::path start = is_under(path, project) ? path : project;
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
      out.push_back(configured_job(std::move(*c), cfg, *session.config_for(start)));
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
// includes, directly or not: lint/parse/include_graph.hpp). The targets are the changed files, or the given
// files minus those the config excludes. A target no unit reads is linted on its own, as when named without
// the flag: with --diff a changed source or header under the paths (new, so not in the compile database yet,
// or a header that no source includes: its findings would be lost, and a PR gate pass what it should fail),
// with --units-of a C/C++ file or a folder.
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
    const bool project_header =
        is_header_path(t) && !is_library_header(*session.config_for(t.parent_path()), t);
    if (changes ? (is_source_path(t) || project_header) && in_paths && !excluded(t)
                : is_source_path(t) || is_header_path(t) || fs::is_directory(t))
      alone.push_back(t);
  }
  ConfigurationPlan plan;  // of targets no unit reads: their notes are the run's own plan's
  for (auto& j : collect_jobs(session, alone, plan)) out.push_back(std::move(j));
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

}  // namespace emberlint::checking
