#include "lint/init/unbuilt.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "lint/parse/include_graph.hpp"
#include "lint/project/parse_errors.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// Why one unit will not parse cleanly: the first name its unconditional includes miss.
struct Missing {
  std::string cause;     // a parse-error cause
  std::string name;      // as spelled: <cuda_runtime.h>, "layer_type.h"
  std::string includer;  // the file that includes it, relative to the root
};

class UnitWalker {
 public:
  explicit UnitWalker(const UnbuiltScan& scan)
      : scan_(scan), system_(scan.system_folders.empty() ? system_header_folders() : scan.system_folders) {}

  // The first missing include of a unit, following only project files (system headers are whole).
  std::optional<Missing> unit(const fs::path& file, const IncludePaths& paths, std::size_t paths_id) {
    std::set<fs::path> open;
    return walk(file.lexically_normal(), paths, paths_id, open);
  }

  // The first file of a folder the config excludes (vendored code) that a unit's unconditional includes
  // reach, relative to the root; empty when none is.
  std::string excluded_reached(const fs::path& file, const IncludePaths& paths, std::size_t paths_id) {
    std::set<fs::path> open;
    return reach_excluded(file.lexically_normal(), paths, paths_id, open);
  }

  bool in_system(const std::string& name) {
    auto [it, fresh] = system_found_.emplace(name, false);
    if (fresh) {
      std::error_code ec;
      it->second = std::any_of(system_.begin(), system_.end(),
                               [&](const fs::path& f) { return fs::exists(f / name, ec); });
    }
    return it->second;
  }

 private:
  // The #includes of a file outside #if blocks, each with the file it resolves to (none: not found).
  std::vector<std::pair<const IncludeDirective*, std::optional<fs::path>>> unconditional_includes(
      const fs::path& file, const IncludePaths& paths) {
    std::vector<std::pair<const IncludeDirective*, std::optional<fs::path>>> out;
    const DirectiveScan& scan = graph_.scan(file);
    for (const IncludeDirective& d : scan.includes) {
      if (d.name.form != HeaderName::Form::quoted && d.name.form != HeaderName::Form::angled) continue;
      if (std::any_of(scan.conditionals.begin(), scan.conditionals.end(),
                      [&](const auto& c) { return c.first <= d.line && d.line <= c.second; }))
        continue;
      out.emplace_back(&d, resolve_include(d.name, d.next, file, paths));
    }
    return out;
  }

  std::optional<Missing> walk(const fs::path& file, const IncludePaths& paths, std::size_t paths_id,
                              std::set<fs::path>& open) {
    const auto key = std::make_pair(file, paths_id);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    if (!open.insert(file).second) return std::nullopt;  // an include cycle: the guard stops it
    std::optional<Missing> out;
    for (const auto& [d, found] : unconditional_includes(file, paths)) {
      if (!found) {
        if (in_system(d->name.text)) continue;
        const bool quoted = d->name.form == HeaderName::Form::quoted;
        const std::string spelled = quoted ? "\"" + d->name.text + "\"" : "<" + d->name.text + ">";
        out = Missing{
            std::string(classify_parse_error("'" + d->name.text + "' file not found", "#include " + spelled)),
            spelled, file.lexically_relative(scan_.root).generic_string()};
        break;
      }
      const fs::path header = found->lexically_normal();
      if (!is_under(header, scan_.root)) continue;  // a dependency's installed headers: whole
      // An empty header of the tree stands for one the configure step did not write (a download an offline
      // configure could not make): the code after it fails as if it were missing.
      if (std::error_code ec; fs::file_size(header, ec) == 0 && !ec) {
        const bool quoted = d->name.form == HeaderName::Form::quoted;
        out = Missing{std::string(kCauseMissingGenerated),
                      (quoted ? "\"" + d->name.text + "\"" : "<" + d->name.text + ">") + " (an empty file)",
                      file.lexically_relative(scan_.root).generic_string()};
        break;
      }
      if (auto inner = walk(header, paths, paths_id, open)) {
        out = inner;
        break;
      }
    }
    open.erase(file);
    memo_.emplace(key, out);
    return out;
  }

  std::string reach_excluded(const fs::path& file, const IncludePaths& paths, std::size_t paths_id,
                             std::set<fs::path>& open) {
    const auto key = std::make_pair(file, paths_id);
    if (auto it = reached_.find(key); it != reached_.end()) return it->second;
    if (!open.insert(file).second) return {};
    std::string out;
    for (const auto& [d, found] : unconditional_includes(file, paths)) {
      if (!found) continue;
      const fs::path header = found->lexically_normal();
      if (!is_under(header, scan_.root)) continue;
      const std::string rel = header.lexically_relative(scan_.root).generic_string();
      // An excluded build folder's header is one the project's build wrote (a generated config.hpp), no
      // one else's code.
      out = scan_.excluded && scan_.excluded(rel) && !in_build_folder(header.parent_path())
                ? rel
                : reach_excluded(header, paths, paths_id, open);
      if (!out.empty()) break;
    }
    open.erase(file);
    reached_.emplace(key, out);
    return out;
  }

  // Whether a folder of the tree is a build folder or inside one (CMake's or Meson's, by the files they
  // leave at its top).
  bool in_build_folder(const fs::path& folder) {
    if (folder == scan_.root || !is_under(folder, scan_.root)) return false;
    auto [it, fresh] = build_folder_.emplace(folder, false);
    if (fresh) {
      std::error_code ec;
      it->second = fs::exists(folder / "CMakeCache.txt", ec) || fs::exists(folder / "meson-info", ec) ||
                   in_build_folder(folder.parent_path());
    }
    return it->second;
  }

  const UnbuiltScan& scan_;
  std::vector<fs::path> system_;
  std::map<fs::path, bool> build_folder_;
  IncludeGraph graph_;
  std::map<std::pair<fs::path, std::size_t>, std::optional<Missing>> memo_;
  std::map<std::string, bool> system_found_;
  std::map<std::pair<fs::path, std::size_t>, std::string> reached_;
};

std::string folder_of(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

bool cuda_source(const fs::path& p) {
  const std::string e = ascii_lower(p.extension().string());
  return e == ".cu" || e == ".cuh";
}

// The globs for one cause's units: each unit's folder ("dir/**"), lifted to its parent while there are more
// than `most` folders (the deepest first), and none under another; a unit at the root is named itself.
std::vector<std::string> cover(const std::vector<std::string>& units, std::size_t most = 8) {
  std::set<std::string> folders, files;
  for (const auto& u : units) {
    const std::string f = folder_of(u);
    (f.empty() ? files : folders).insert(f.empty() ? u : f);
  }
  auto depth = [](const std::string& f) { return std::count(f.begin(), f.end(), '/'); };
  while (folders.size() > most) {
    const auto deepest = std::max_element(folders.begin(), folders.end(),
                                          [&](const auto& a, const auto& b) { return depth(a) < depth(b); });
    if (depth(*deepest) == 0) break;
    const long level = depth(*deepest);
    std::set<std::string> lifted;
    for (const auto& f : folders) lifted.insert(depth(f) == level ? folder_of(f) : f);
    folders = std::move(lifted);
  }
  std::vector<std::string> out;
  for (const auto& f : folders) {
    const bool covered = std::any_of(folders.begin(), folders.end(), [&](const std::string& o) {
      return o != f && f.rfind(o + "/", 0) == 0;
    });
    if (!covered) out.push_back(f + "/**");
  }
  out.insert(out.end(), files.begin(), files.end());
  return out;
}

}  // namespace

std::vector<fs::path> system_header_folders() {
  std::vector<fs::path> out = {"/usr/local/include", "/usr/include"};
  std::error_code ec;
  auto children = [&](const fs::path& folder, auto&& keep) {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      if (e.is_directory(ec) && keep(e.path().filename().string())) found.push_back(e.path());
    }
    std::sort(found.begin(), found.end());
    return found;
  };
  auto multiarch = [](const std::string& n) { return n.find("-linux-") != std::string::npos; };
  auto any = [](const std::string&) { return true; };
  for (const auto& arch : children("/usr/include", multiarch)) {
    out.push_back(arch);
    for (const auto& v : children(arch / "c++", any)) out.push_back(v);
  }
  for (const auto& v : children("/usr/include/c++", any)) out.push_back(v);
  for (const auto& arch : children("/usr/lib/gcc", multiarch)) {
    for (const auto& v : children(arch, any)) out.push_back(v / "include");
  }
  for (const auto& llvm :
       children("/usr/lib", [](const std::string& n) { return n.rfind("llvm-", 0) == 0; })) {
    for (const auto& v : children(llvm / "lib/clang", any)) out.push_back(v / "include");
  }
  return out;
}

std::vector<ExpectedErrors> expected_unbuilt_errors(const UnbuiltScan& scan) {
  UnitWalker walker(scan);
  struct Hit {
    std::string unit, name, via;  // the unit, the name it misses, the file that includes it (when another)
  };
  std::map<std::string, std::vector<Hit>> hits;  // cause -> units
  std::vector<std::string> generated_sources;
  auto excluded = [&](const std::string& rel) { return scan.excluded && scan.excluded(rel); };
  const bool cuda_installed = walker.in_system("cuda_runtime.h");

  auto add = [&](const std::string& rel, const fs::path& file, const IncludePaths& paths, std::size_t id) {
    std::optional<Missing> m = walker.unit(file, paths, id);
    // clang parses CUDA with the toolkit's headers, which it includes itself.
    if (!m && cuda_source(file) && !cuda_installed)
      m = Missing{std::string(kCauseMissingSdk), "the CUDA toolkit", rel};
    if (m) hits[m->cause].push_back({rel, m->name, m->includer == rel ? std::string() : m->includer});
    // A unit that compiles vendored code: this compiler may reject that code (an old test framework's copy
    // that a newer C library breaks), which is no error of the project's own files.
    if (std::string v = walker.excluded_reached(file, paths, id); !v.empty())
      hits[std::string(kCauseUnowned)].push_back({rel, v, {}});
  };

  if (!scan.commands.empty()) {
    std::map<std::vector<std::string>, std::size_t> ids;  // a search path per distinct argument list
    std::set<fs::path> seen;
    for (const CompileCommand& c : scan.commands) {
      if (!is_under(c.file, scan.root) || !seen.insert(c.file).second) continue;  // check lints a file once
      const std::string rel = c.file.lexically_relative(scan.root).generic_string();
      if (excluded(rel)) continue;
      std::error_code ec;
      if (!fs::exists(c.file, ec)) {
        generated_sources.push_back(rel);
        continue;
      }
      const std::size_t id = ids.emplace(c.arguments, ids.size()).first->second;
      add(rel, c.file, include_paths(c), id);
    }
  } else {
    CompileCommand stated;
    stated.directory = scan.root;
    stated.arguments = scan.fallback_flags;
    const IncludePaths paths = include_paths(stated);
    for (const auto& rel : scan.sources) {
      if (!excluded(rel)) add(rel, scan.root / rel, paths, 0);
    }
  }

  std::map<std::string, ExpectedErrors> by_glob;
  for (const auto& [cause, list] : hits) {
    std::vector<std::string> units;
    for (const auto& h : list) units.push_back(h.unit);
    for (const auto& glob : cover(units)) {
      const bool folder = glob.size() > 3 && glob.compare(glob.size() - 3, 3, "/**") == 0;
      const std::string prefix = folder ? glob.substr(0, glob.size() - 2) : glob;  // "dir/" or the file
      // The evidence: how many units here miss which names, the most common first, each with an example.
      std::map<std::string, std::pair<std::size_t, const Hit*>> names;
      std::size_t here = 0;
      for (const auto& h : list) {
        if (folder ? h.unit.rfind(prefix, 0) != 0 : h.unit != glob) continue;
        ++here;
        auto& [n, first] = names[h.name];
        if (n++ == 0) first = &h;
      }
      std::vector<std::pair<std::string, std::pair<std::size_t, const Hit*>>> ranked(names.begin(),
                                                                                     names.end());
      std::stable_sort(ranked.begin(), ranked.end(),
                       [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
      const bool unowned = cause == kCauseUnowned;
      std::string why = std::to_string(here) + (unowned ? (here == 1 ? " unit includes " : " units include ")
                                                : here == 1 ? " unit misses "
                                                            : " units miss ");
      for (std::size_t i = 0; i < ranked.size() && i < 3; ++i) {
        const Hit& h = *ranked[i].second.second;
        why +=
            (i ? ", " : "") + ranked[i].first + " (" + h.unit + (h.via.empty() ? "" : " via " + h.via) + ")";
      }
      if (ranked.size() > 3) why += " and " + std::to_string(ranked.size() - 3) + " more";
      why += unowned ? ": vendored code the config excludes; errors only there (a compiler that rejects it) "
                       "leave the unit partial, its own files linted"
             : cause == kCauseMissingGenerated ? ": files the build writes, not built yet"
                                               : ": not installed on this machine";
      ExpectedErrors& e = by_glob[glob];
      e.glob = glob;
      e.causes.push_back(cause);
      e.why += (e.why.empty() ? "" : "; ") + why;
    }
  }
  for (const auto& rel : generated_sources) {
    ExpectedErrors& e = by_glob[rel];
    e.glob = rel;
    if (std::find(e.causes.begin(), e.causes.end(), kCauseMissingGenerated) == e.causes.end())
      e.causes.emplace_back(kCauseMissingGenerated);
    e.why += (e.why.empty() ? "" : "; ") +
             std::string("the compile database compiles it and it does not exist: a source the build writes");
  }
  std::vector<ExpectedErrors> out;
  for (auto& [glob, e] : by_glob) out.push_back(std::move(e));
  return out;
}

}  // namespace emberlint
