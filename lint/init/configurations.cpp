#include "lint/init/configurations.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "lint/compile/configurations.hpp"
#include "lint/support/glob.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// "src/backend/cpu" for "src/backend/cpu/**"; empty for a glob that is no whole folder.
std::string folder_of(const std::string& glob) {
  const std::string tail = "/**";
  if (glob.size() <= tail.size() || glob.compare(glob.size() - tail.size(), tail.size(), tail) != 0)
    return {};
  std::string folder = glob.substr(0, glob.size() - tail.size());
  return folder.find_first_of("*?[{") == std::string::npos ? folder : std::string();
}

// Whether `path` (relative, '/'-separated) is `folder` or inside it.
bool within(const std::string& path, const std::string& folder) {
  return path == folder || (path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 &&
                            path[folder.size()] == '/');
}

// The file `name` (as an #include spells it) resolves to from a header in `folder`: next to it, in a folder
// above it within the tree, or in the tree's include/ or src/; empty when none has it.
std::string resolve_include(const fs::path& root, const std::string& folder, const std::string& name) {
  std::error_code ec;
  for (std::string f = folder;;) {
    const std::string candidate = f.empty() ? name : f + "/" + name;
    if (fs::is_regular_file(root / candidate, ec))
      return fs::path(candidate).lexically_normal().generic_string();
    if (f.empty()) break;
    const auto slash = f.rfind('/');
    f = slash == std::string::npos ? std::string() : f.substr(0, slash);
  }
  for (const char* base : {"include", "src"}) {
    if (fs::is_regular_file(root / base / name, ec)) return std::string(base) + "/" + name;
  }
  return {};
}

// The backends' public headers that include a header of a library proposed for that backend (a constructor
// from the library's handle), or a header of the backend's own folders (an entry header that pulls in the
// backend's declarations, xs/decl/declare_openmp.hpp including OpenMP/xs_openmp.hpp): the backend's code,
// which as the frontend's would be EL100 on each include. Its `interop` headers: its layer, every layer's to
// include.
void propose_interop(const fs::path& root, const Discovery& d, ConfigurationProposal& out) {
  const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  for (const ProposedBackend& b : d.backends) {
    std::vector<std::string> own;  // its folders
    for (const std::string& p : b.paths) {
      if (std::string f = folder_of(p); !f.empty()) own.push_back(f);
    }
    for (const std::string& header : b.public_headers) {
      std::ifstream in(root / header);
      std::string why;
      for (std::string line; why.empty() && std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        const std::string spelled = m[1].str();
        for (const ProposedLibrary& lib : d.libraries) {
          if (std::find(lib.backends.begin(), lib.backends.end(), b.name) == lib.backends.end()) continue;
          for (const std::string& glob : lib.library->headers) {
            if (why.empty() && Glob(glob).matches_relative(spelled))
              why = "includes <" + spelled + "> (" + lib.library->name + ")";
          }
        }
        const auto slash = header.rfind('/');
        const std::string resolved = resolve_include(
            root, slash == std::string::npos ? std::string() : header.substr(0, slash), spelled);
        if (why.empty() && !resolved.empty() &&
            std::any_of(own.begin(), own.end(), [&](const std::string& f) { return within(resolved, f); }))
          why = "includes its own " + resolved;
      }
      if (why.empty()) continue;
      out.interop[b.name].push_back(header);
      out.interop_why[b.name].push_back(header + " " + why);
    }
  }
}

// Backends the build selects with a macro named after them (discover.cpp's `selected_by`): a configuration
// each, keyed by that macro, so a command that defines it is in it wherever its file is; a folder several
// backends list whose sources are compiled under one of those macros is the shared layer, even when this
// build configures only one of the backends that compile it (the others' toolkits missing).
bool propose_macro_configurations(const fs::path& root, const std::vector<CompileCommand>& commands,
                                  const std::map<std::string, std::size_t>& listed, const Discovery& d,
                                  ConfigurationProposal& out) {
  std::vector<const ProposedBackend*> by_macro;
  for (const ProposedBackend& b : d.backends) {
    if (!b.selected_by.empty()) by_macro.push_back(&b);
  }
  if (by_macro.size() < 2) return false;
  std::map<std::string, std::set<std::string>> compiled_in;  // file (relative) -> configurations
  std::map<std::string, std::size_t> units;                  // configuration -> its commands
  for (const CompileCommand& c : commands) {
    const std::set<std::string> defines = command_defines(c);
    for (const ProposedBackend* b : by_macro) {
      // command_defines holds "NAME" and "NAME=VALUE" for each macro: "GKO_COMPILING_OMP" matches any value.
      if (!defines.count(b->selected_by)) continue;
      compiled_in[relative_to(c.file, root)].insert(b->name);
      ++units[b->name];
    }
  }
  for (const ProposedBackend* b : by_macro) {
    ProposedConfiguration c;
    c.name = b->name;
    c.defines.push_back(b->selected_by);
    c.why = std::to_string(units[b->name]) + " commands define " + b->selected_by +
            ", the macro named after this backend that selects it";
    out.configurations.push_back(std::move(c));
  }
  for (const auto& [glob, n] : listed) {
    const std::string folder = folder_of(glob);
    // Every backend's (common/unified/), not a few backends' own (common/cuda_hip/ of cuda and hip).
    if (n < 2 || n < d.backends.size() || folder.empty()) continue;
    std::size_t files = 0;
    std::set<std::string> in;
    for (const auto& [file, configurations] : compiled_in) {
      if (!within(file, folder)) continue;
      ++files;
      in.insert(configurations.begin(), configurations.end());
    }
    if (files == 0) continue;
    std::string names;
    for (const std::string& name : in) names += (names.empty() ? "" : ", ") + name;
    out.shared.push_back(glob);
    out.shared_why += (out.shared_why.empty() ? "" : "; ") + folder + ": listed by " + std::to_string(n) +
                      " backends, its " + std::to_string(files) + " sources compiled in the configuration" +
                      (in.size() > 1 ? "s " : " ") + names + " (a macro selects the backend)";
  }
  return true;
}

// The configurations of a source compiled once per backend folder on -I (the backend's macros with it), and
// the folder every backend lists that those commands compile: false when the database has no such source.
bool propose_include_configurations(const fs::path& root, const std::vector<CompileCommand>& commands,
                                    const std::map<std::string, std::size_t>& listed, const Discovery& d,
                                    ConfigurationProposal& out) {
  const std::vector<ProposedBackend>& backends = d.backends;
  std::vector<std::pair<std::string, std::string>> folders;  // folder, backend
  for (const ProposedBackend& b : backends) {
    for (const std::string& p : b.paths) {
      if (listed.at(p) > 1) continue;
      if (std::string f = folder_of(p); !f.empty()) folders.emplace_back(f, b.name);
    }
  }
  if (folders.size() < 2) return false;

  // Per backend: the commands of files compiled several times that have exactly its folder on -I.
  struct Seen {
    std::size_t commands = 0;
    std::set<std::string> files;
    std::optional<std::set<std::string>> defines;  // macros every one of them defines
  };
  std::map<std::string, Seen> seen;
  std::map<std::string, std::set<std::string>> defined_by;   // macro -> backends whose commands define it
  std::map<std::string, std::set<std::string>> compiled_in;  // file (relative) -> backends
  for (std::size_t begin = 0; begin < commands.size();) {
    std::size_t end = begin + 1;
    while (end < commands.size() && commands[end].file == commands[begin].file) ++end;
    // The backend of each command (the one backend folder on its -I); a file counts when its commands are of
    // two backends or more (a backend's own source compiled once per type macro does not).
    std::vector<std::string> backend_of(end - begin);
    std::set<std::string> of_file;
    for (std::size_t i = begin; end - begin > 1 && i < end; ++i) {
      std::set<std::string> on_path;
      for (const fs::path& inc : command_include_folders(commands[i])) {
        const std::string rel = relative_to(inc, root);
        for (const auto& [folder, backend] : folders) {
          if (!rel.empty() && within(rel, folder)) on_path.insert(backend);
        }
      }
      if (on_path.size() == 1) of_file.insert(backend_of[i - begin] = *on_path.begin());
    }
    for (std::size_t i = begin; of_file.size() > 1 && i < end; ++i) {
      const std::string& backend = backend_of[i - begin];
      if (backend.empty()) continue;
      std::set<std::string> names;
      for (const std::string& d : command_defines(commands[i])) {
        if (d.find('=') == std::string::npos) names.insert(d);
      }
      for (const std::string& n : names) defined_by[n].insert(backend);
      Seen& s = seen[backend];
      ++s.commands;
      const std::string file = relative_to(commands[i].file, root);
      s.files.insert(file);
      compiled_in[file].insert(backend);
      if (!s.defines) {
        s.defines = names;
      } else {
        std::set<std::string> both;
        std::set_intersection(s.defines->begin(), s.defines->end(), names.begin(), names.end(),
                              std::inserter(both, both.end()));
        s.defines = std::move(both);
      }
    }
    begin = end;
  }
  if (seen.size() < 2) return false;

  for (const auto& [folder, backend] : folders) {
    auto it = seen.find(backend);
    if (it == seen.end() || std::any_of(out.configurations.begin(), out.configurations.end(),
                                        [&](const auto& c) { return c.name == backend; }))
      continue;
    ProposedConfiguration c;
    c.name = backend;
    std::vector<std::string> named;  // AF_OPENCL for opencl: the macro named after the backend
    for (const std::string& d : *it->second.defines) {
      if (defined_by[d].size() != 1) continue;
      c.defines.push_back(d);
      std::string lower = d;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char ch) { return std::tolower(ch); });
      if (lower.find(backend) != std::string::npos) named.push_back(d);
    }
    if (!named.empty()) c.defines = named;
    c.include.push_back(folder);
    c.why = std::to_string(it->second.files.size()) + " files compiled once per backend have " + folder +
            " on -I in this backend's command" +
            (c.defines.empty() ? "" : ", which alone defines " + c.defines.front());
    out.configurations.push_back(std::move(c));
  }

  // A folder every backend lists whose sources the database compiles in two or more configurations.
  for (const auto& [glob, n] : listed) {
    const std::string folder = folder_of(glob);
    if (n < 2 || folder.empty()) continue;
    std::size_t files = 0, most = 0;
    for (const auto& [file, in] : compiled_in) {
      if (!within(file, folder)) continue;
      ++files;
      most = std::max(most, in.size());
    }
    if (most < 2) continue;
    out.shared.push_back(glob);
    out.shared_why += (out.shared_why.empty() ? "" : "; ") + folder + ": listed by " + std::to_string(n) +
                      " backends, its " + std::to_string(files) + " sources compiled in up to " +
                      std::to_string(most) + " configurations";
  }
  return !out.configurations.empty();
}

}  // namespace

ConfigurationProposal propose_configurations(const fs::path& root,
                                             const std::vector<CompileCommand>& commands,
                                             const Discovery& d) {
  ConfigurationProposal out;
  propose_interop(root, d, out);
  const std::vector<ProposedBackend>& backends = d.backends;
  // Globs several backends list: shared candidates, no backend's own folder.
  std::map<std::string, std::size_t> listed;
  for (const ProposedBackend& b : backends) {
    for (const std::string& p : b.paths) ++listed[p];
  }
  if (!propose_include_configurations(root, commands, listed, d, out))
    propose_macro_configurations(root, commands, listed, d, out);
  return out;
}

void apply_proposal(const ConfigurationProposal& proposal, Discovery& d) {
  for (ProposedBackend& b : d.backends) {
    std::erase_if(b.paths, [&](const std::string& p) {
      return std::find(proposal.shared.begin(), proposal.shared.end(), p) != proposal.shared.end();
    });
    auto it = proposal.interop.find(b.name);
    if (it == proposal.interop.end()) continue;
    std::erase_if(b.public_headers, [&](const std::string& h) {
      return std::find(it->second.begin(), it->second.end(), h) != it->second.end();
    });
  }
}

}  // namespace emberlint
