// Shared prefixes (shared_prefixes.hpp): which units share one, what it holds, and which units may load it.
#include "lint/run/shared_prefixes.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "lint/parse/include_graph.hpp"
#include "lint/project/project.hpp"
#include "lint/run/scheduler.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// What shares a prefix: one folder, flags, language and compiler.
using PrefixKey =
    std::tuple<fs::path, std::vector<std::string>, std::string, std::string, std::vector<std::string>>;
PrefixKey prefix_key(const CompileCommand& c) {
  return {c.directory, c.arguments, c.driver, c.compiler, c.driver_flags};
}

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

}  // namespace

std::vector<PrefixUse> SharedPrefixes::plan(const std::vector<PrefixUnit>& units,
                                            const std::vector<bool>& todo, unsigned requested,
                                            const std::string& resource_dir) {
  std::vector<PrefixUse> given(units.size());
  constexpr std::size_t fewest = 3;  // below, building it costs about what it saves
  std::map<PrefixKey, std::size_t> index_of;
  std::vector<PrefixGroup>& groups = groups_;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const CompileCommand& c = *units[i].command;
    if (!todo[i] || !prefix_language(c)) continue;
    auto [it, added] = index_of.try_emplace(prefix_key(c), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].units.push_back(i);
  }
  std::erase_if(groups, [&](const PrefixGroup& g) { return g.units.size() < fewest; });
  if (groups.empty()) return given;
  if (folder_.path().empty()) {
    groups.clear();
    return given;
  }
  IncludeGraph graph;
  for (PrefixGroup& group : groups) {
    const IncludePaths paths = include_paths(*units[group.units.front()].command);
    std::set<std::string> seen;
    for (std::size_t i : group.units) {
      const Config& cfg = *units[i].config;
      for (const fs::path& f : graph.unit(*units[i].command).files) {
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
    group.prefix = build_prefix(index, *units[group.units.front()].command, resource_dir, group.headers,
                                folder_, std::to_string(g));
  });
  for (const PrefixGroup& group : groups) {
    if (!group.prefix) continue;
    const IncludePaths paths = include_paths(*units[group.units.front()].command);
    for (std::size_t i : group.units) {
      PrefixFit fit(*group.prefix);
      std::set<fs::path> seen{units[i].command->file};
      walk_project_files(graph, paths, *units[i].config, units[i].command->file, seen, fit);
      given[i] = fit.use();
    }
  }
  return given;
}

std::size_t SharedPrefixes::built() const {
  return static_cast<std::size_t>(std::count_if(groups_.begin(), groups_.end(),
                                                [](const PrefixGroup& g) { return g.prefix.has_value(); }));
}

}  // namespace emberlint
