#include "lint/init/configurations.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <utility>

#include "lint/compile/configurations.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

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

// The backend a -D macro names, by the words of its name (`VEXCL_BACKEND_OPENCL`, `LIB_WITH_HOST_BASED`: a
// backend's name among them, one backend's) or its whole value (`LIB_BACKEND=opencl`); null when it names
// none, two, or says a backend is off (`LIB_NO_CUDA`, `DISABLE_OPENCL`, `WITH_CUDA=0`) or is CMake's
// `<target>_EXPORTS`.
const ProposedBackend* backend_named(const std::string& define, const Discovery& d) {
  const std::size_t eq = define.find('=');
  const std::vector<std::string> name = words(define.substr(0, eq));
  const std::string value = eq == std::string::npos ? std::string() : ascii_lower(define.substr(eq + 1));
  if (name.empty() || name.back() == "exports") return nullptr;
  for (const std::string& w : name) {
    if (w == "no" || w == "not" || w == "disable" || w == "disabled" || w == "without" || w == "skip")
      return nullptr;
  }
  const ProposedBackend* found = nullptr;
  for (const ProposedBackend& b : d.backends) {
    const std::vector<std::string> own = words(b.name);
    bool named = false;
    if (eq == std::string::npos || value == "1") {
      named = !own.empty() && std::search(name.begin(), name.end(), own.begin(), own.end()) != name.end();
    } else {
      named = words(value) == own;
    }
    if (!named) continue;
    if (found) return nullptr;  // names two backends: no one's
    found = &b;
  }
  return found;
}

// Backends the build selects with a macro named after them wherever the file is (not only in the backend's
// folder): vexcl's -DVEXCL_BACKEND_OPENCL on every command, under which a using-directive makes vex::backend
// the OpenCL backend; ViennaCL's -DVIENNACL_WITH_OPENCL on the commands of its OpenCL builds. A macro counts
// when it names one backend (backend_named), library code outside that backend tests it in a conditional
// directive (Discovery::tested_macros: the code that selects; an example's -DHAVE_CUDA selects nothing, nor
// does vexcl's -DVEXCL_HAVE_OPENCL_HPP, which only the opencl backend's files test to pick a header) and two
// commands define it (or the database's one); per backend the macro the most commands define (then the most
// files test) is its configuration's. Backends whose macros one command defines together are none: that
// command would be in both, the build selects neither alone.
void propose_named_configurations(const std::vector<CompileCommand>& commands, const Discovery& d,
                                  ConfigurationProposal& out) {
  struct Candidate {
    std::set<std::size_t> commands;  // indices of the commands that define it
    std::size_t tested = 0;          // library files outside its backend whose #if tests it
  };
  std::map<const ProposedBackend*, std::map<std::string, Candidate>> by_backend;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const std::set<std::string> all = command_defines(commands[i]);
    for (const std::string& define : all) {
      // command_defines holds "NAME" for every macro and "NAME=VALUE" for one with a value.
      const std::size_t eq = define.find('=');
      const auto tested = d.tested_macros.find(define.substr(0, eq));
      if (tested == d.tested_macros.end()) continue;
      const ProposedBackend* b = backend_named(define, d);
      if (!b) continue;
      std::size_t outside = 0;
      for (const auto& [layer, files] : tested->second) outside += layer == b->name ? 0 : files;
      if (outside == 0) continue;
      // `WITH_CUDA=1` is `WITH_CUDA`; a value that names the backend is the selector itself.
      const std::string selector =
          eq != std::string::npos && define.substr(eq + 1) == "1" ? define.substr(0, eq) : define;
      if (eq == std::string::npos) {
        // A macro given a value that names no backend (`CL_TARGET_OPENCL_VERSION=120`) sets, not selects.
        const auto valued = all.lower_bound(define + "=");
        if (valued != all.end() && valued->rfind(define + "=", 0) == 0 && *valued != define + "=1") continue;
      }
      Candidate& c = by_backend[b][selector];
      c.commands.insert(i);
      c.tested = outside;
    }
  }
  struct Chosen {
    const ProposedBackend* backend;
    std::string macro;
    Candidate evidence;
  };
  std::vector<Chosen> chosen;
  for (const auto& [b, candidates] : by_backend) {
    const auto best =
        std::max_element(candidates.begin(), candidates.end(), [](const auto& x, const auto& y) {
          return std::make_pair(x.second.commands.size(), x.second.tested) <
                 std::make_pair(y.second.commands.size(), y.second.tested);
        });
    const std::size_t n = best->second.commands.size();
    if (n < 2 && n < commands.size()) {
      out.not_proposed.push_back(best->first + " (defined by 1 of " + std::to_string(commands.size()) +
                                 " commands)");
      continue;
    }
    chosen.push_back({b, best->first, best->second});
  }
  std::set<std::size_t> overlapping;  // indices into chosen
  for (std::size_t a = 0; a < chosen.size(); ++a) {
    for (std::size_t b = a + 1; b < chosen.size(); ++b) {
      const auto& x = chosen[a].evidence.commands;
      const auto& y = chosen[b].evidence.commands;
      if (std::any_of(x.begin(), x.end(), [&](std::size_t i) { return y.count(i); })) {
        overlapping.insert(a);
        overlapping.insert(b);
      }
    }
  }
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const Chosen& c = chosen[k];
    if (overlapping.count(k)) {
      out.not_proposed.push_back(c.macro + " (its commands define another backend's macro too)");
      continue;
    }
    ProposedConfiguration p;
    p.name = c.backend->name;
    p.defines.push_back(c.macro);
    const std::size_t n = c.evidence.commands.size();
    p.why =
        (n == commands.size() ? "all " + std::to_string(n) + " commands"
                              : std::to_string(n) + " of " + std::to_string(commands.size()) + " commands") +
        " define " + c.macro + ", named after this backend, which " +
        (c.evidence.tested == 1 ? std::string("1 file") : std::to_string(c.evidence.tested) + " files") +
        " of the library code outside it test in #if";
    out.configurations.push_back(std::move(p));
  }
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
  if (!propose_include_configurations(root, commands, listed, d, out) &&
      !propose_macro_configurations(root, commands, listed, d, out))
    propose_named_configurations(commands, d, out);
  // The frontend headers that pick each backend's code are shared once the build has configurations to
  // parse them in, one backend selected each.
  if (!out.configurations.empty() && !d.shared_files.empty()) {
    out.shared.insert(out.shared.end(), d.shared_files.begin(), d.shared_files.end());
    out.shared_why += (out.shared_why.empty() ? "" : "; ") + d.shared_files_why;
  }
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
