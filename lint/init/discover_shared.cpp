// The code backends share outside a shared folder:
// - a frontend header that only backends include and that picks each backend's code by the macros the build
//   selects backends with (`#if defined LIB_COMPILING_CUDA ... #elif ... #else <host code> #endif`): it is
//   compiled into every backend, `shared` once the build has configurations;
// - a backend's headers that another backend includes (directly, or through such a selecting header's branch
//   that backend's build takes) and that declare nothing in the backend's own namespace: host code the two
//   share (a reference/ folder whose batch helpers an OpenMP backend compiles too), listed by both. A header
//   that declares the backend's namespace is its own, and another backend's include of it stays EL103.
#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lint/init/discoverer.hpp"
#include "lint/parse/include_graph.hpp"

namespace emberlint::discovery {

namespace fs = std::filesystem;

namespace {

// One enclosing #if chain of an include: the macros its current branch's condition names, those its earlier
// branches named, and whether the branch is taken when its macros are not defined (#else, #ifndef, a `!`).
struct Branch {
  std::set<std::string> names, earlier;
  bool negated = false;
};

struct BranchedInclude {
  std::string name;           // as spelled, without its quotes or brackets
  std::vector<Branch> under;  // the enclosing chains, outermost first
};

std::set<std::string> condition_macros(std::string_view condition) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < condition.size();) {
    if (std::isalpha(static_cast<unsigned char>(condition[i])) || condition[i] == '_') {
      std::size_t j = i;
      while (j < condition.size() && is_identifier_char(condition[j])) ++j;
      if (std::string name(condition.substr(i, j - i)); name != "defined") out.insert(std::move(name));
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(condition[i]))) {
      while (i < condition.size() && is_identifier_char(condition[i])) ++i;  // 0x1F, 201703L
    } else {
      ++i;
    }
  }
  return out;
}

// The file's #include directives with the #if chains around each. Continued lines are joined and a comment
// after a condition is cut off.
std::vector<BranchedInclude> branched_includes(const std::string& text) {
  std::vector<BranchedInclude> out;
  std::vector<Branch> open;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    line.append(text, start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.back() == '\\') {
      line.pop_back();
      continue;
    }
    std::string_view d(line);
    const auto first = d.find_first_not_of(" \t");
    if (first != std::string_view::npos && d[first] == '#') {
      d.remove_prefix(first + 1);
      d.remove_prefix(std::min(d.size(), d.find_first_not_of(" \t")));
      std::size_t k = 0;
      while (k < d.size() && std::isalpha(static_cast<unsigned char>(d[k]))) ++k;
      const std::string_view keyword = d.substr(0, k);
      std::string_view rest = d.substr(k);
      rest = rest.substr(0, std::min(rest.find("//"), rest.find("/*")));
      const auto lead = rest.find_first_not_of(" \t");
      const bool bang = lead != std::string_view::npos && rest[lead] == '!';  // `#if !defined(X) && ...`
      if (keyword == "if" || keyword == "ifdef" || keyword == "ifndef") {
        open.push_back({condition_macros(rest), {}, keyword == "ifndef" || bang});
      } else if (keyword == "elif" && !open.empty()) {
        Branch& b = open.back();
        b.earlier.insert(b.names.begin(), b.names.end());
        b.names = condition_macros(rest);
        b.negated = bang;
      } else if (keyword == "else" && !open.empty()) {
        Branch& b = open.back();
        b.earlier.insert(b.names.begin(), b.names.end());
        b.names.clear();
        b.negated = true;
      } else if (keyword == "endif" && !open.empty()) {
        open.pop_back();
      } else if (keyword == "include") {
        const auto q = rest.find_first_of("\"<");
        const auto e = q == std::string_view::npos ? q : rest.find(rest[q] == '<' ? '>' : '"', q + 1);
        if (e != std::string_view::npos) out.push_back({std::string(rest.substr(q + 1, e - q - 1)), open});
      }
    }
    line.clear();
  }
  return out;
}

// The namespaces a file's code opens (each part of `a::b::c`), aliases not counted.
std::set<std::string> opened_namespaces(const std::vector<Token>& t) {
  std::set<std::string> out;
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    if (t[k].text != "namespace") continue;
    std::vector<std::string> parts;
    std::size_t j = k + 1;
    while (j < t.size() && is_ident(t[j].text)) {
      parts.emplace_back(t[j].text);
      if (j + 1 < t.size() && t[j + 1].text == "::") {
        j += 2;
      } else {
        ++j;
        break;
      }
    }
    if (j < t.size() && t[j].text == "{") out.insert(parts.begin(), parts.end());
  }
  return out;
}

std::string macro_word(const std::string& backend) {
  std::string out;
  for (char c : backend) out += std::isalnum(static_cast<unsigned char>(c)) ? std::toupper(c) : '_';
  return out;
}

}  // namespace

// A frontend header that includes, in the branches of its #if chains named after two known libraries or more
// (`#ifdef OPENCL_API #include "clpp11.hpp" #elif CUDA_API #include "cupp11.hpp" #endif`), a project header
// per branch that includes that library: the build picks a backend with the macro, and each header so
// included is the backend of its library (CLBlast's wrappers over the OpenCL and CUDA driver APIs, and its
// API header for each). A branch taken when a macro is not defined, or one whose macro says a backend is off
// (`NO_CUDA`), names none.
void Discoverer::find_selected_wrappers() {
  auto library_of_macro = [](const std::string& macro) -> const KnownLibrary* {
    const KnownLibrary* out = nullptr;
    for (const std::string& w : words(macro)) {
      if (one_of(w, {"no", "not", "disable", "disabled", "without", "skip"})) return nullptr;
      if (const KnownLibrary* l = named_library(w)) out = l;
    }
    return out;
  };
  std::map<std::string, const ScannedFile*> by_rel;
  for (const ScannedFile& f : files_) by_rel.emplace(f.rel, &f);
  for (const ScannedFile& f : files_) {
    if (!f.header || !frontend_file(f) ||
        std::none_of(f.includes.begin(), f.includes.end(), [](const auto& i) { return i.second; }))
      continue;
    std::map<const KnownLibrary*, std::map<std::string, std::string>> picked;  // library -> header -> macro
    for (const BranchedInclude& i : branched_includes(read_text(root_ / f.rel))) {
      if (i.under.empty() || i.under.back().negated) continue;
      std::set<const KnownLibrary*> named;
      std::string macro;
      for (const std::string& m : i.under.back().names) {
        if (const KnownLibrary* l = library_of_macro(m)) named.insert(l), macro = m;
      }
      if (named.size() != 1) continue;
      const KnownLibrary* l = *named.begin();
      const std::string g = resolve_include(f, i.name);
      const auto it = by_rel.find(g);
      if (it == by_rel.end() || !it->second->header || !frontend_file(*it->second) ||
          !it->second->libraries.count(l))
        continue;
      picked[l].emplace(g, macro);
    }
    if (picked.size() < 2) continue;
    for (const auto& [l, headers] : picked) {
      std::string id = l->backend;
      for (const auto& [backend, folders] : backend_folders_) {
        if (named_library(backend) == l) id = backend;
      }
      ProposedBackend* b = backend(id);
      for (const auto& [g, macro] : headers) {
        // Another selecting header may have picked it already (an API header two of them include).
        if (file_backends_.count(g) ||
            std::find(b->public_headers.begin(), b->public_headers.end(), g) != b->public_headers.end())
          continue;
        // A public header (include/) is the backend's API, which users and tests include: its `public`
        // (`interop` once it includes the library); the rest is its code.
        if (g.rfind("include/", 0) == 0 || g.find("/include/") != std::string::npos) {
          b->public_headers.push_back(g);
          b->why += std::string(b->why.empty() ? "" : "; ") + "public: " + g + " (included when " + macro +
                    " is defined, " + f.rel + ")";
          continue;
        }
        file_backends_[g] = {id};
        b->paths.push_back(g);
        ++b->files;
        b->why += (b->why.empty() ? "" : "; ") + g + ": included when " + macro + " is defined (" + f.rel +
                  "), includes <" + by_rel.at(g)->libraries.at(l) + ">";
      }
      backend_folders_[id];
    }
  }
}

std::set<std::string> Discoverer::owners(const ScannedFile& f) const {
  if (auto it = file_backends_.find(f.rel); it != file_backends_.end())
    return {it->second.begin(), it->second.end()};
  std::set<std::string> out;
  for (const auto& [id, folders] : backend_folders_) {
    if (in_any(f.dir, folders)) out.insert(id);
  }
  return out;
}

void Discoverer::find_shared_code() {
  std::set<std::string> all;
  for (const ProposedBackend& b : out_.backends) all.insert(b.name);
  // The macros of the scheme the build selects backends with: `LIB_COMPILING_OMP` selecting omp names
  // `LIB_COMPILING_CUDA` cuda, though this build configures no cuda unit.
  std::map<std::string, std::string> macro_backend;
  for (const ProposedBackend& b : out_.backends) {
    const std::string word = macro_word(b.name);
    const std::string& s = b.selected_by;
    if (s.size() <= word.size() || !s.ends_with(word) || s.find('=') != std::string::npos) continue;
    const std::string prefix = s.substr(0, s.size() - word.size());
    for (const std::string& id : all) macro_backend.emplace(prefix + macro_word(id), id);
  }
  auto named = [&](const std::set<std::string>& macros) {
    std::set<std::string> out;
    for (const std::string& m : macros) {
      if (auto it = macro_backend.find(m); it != macro_backend.end()) out.insert(it->second);
    }
    return out;
  };
  // The backends whose builds take the branch an include sits in: the innermost chain that names backends
  // decides; none does: every backend.
  auto taken_by = [&](const std::vector<Branch>& under) {
    for (auto it = under.rbegin(); it != under.rend(); ++it) {
      const std::set<std::string> now = named(it->names), before = named(it->earlier);
      if (now.empty() && before.empty()) continue;
      std::set<std::string> out;
      for (const std::string& id : all) {
        const bool in_now = now.count(id) != 0;
        if (!before.count(id) && (now.empty() || in_now != it->negated)) out.insert(id);
      }
      return out;
    }
    return all;
  };

  std::map<std::string, const ScannedFile*> by_rel;
  for (const ScannedFile& f : files_) by_rel.emplace(f.rel, &f);
  auto library_code = [&](const ScannedFile& f) {
    return !in_any(f.dir, tests_) && !in_any(f.dir, glue_) && !excluded(f.dir);
  };
  // Who includes each file: the backends of the library code that does, and whether frontend code does.
  std::map<std::string, std::set<std::string>> included_by;
  std::set<std::string> frontend_includes;
  for (const ScannedFile& f : files_) {
    if (!library_code(f)) continue;
    const std::set<std::string> own = owners(f);
    for (const auto& [name, conditional] : f.includes) {
      const std::string g = resolve_include(f, name);
      if (g.empty()) continue;
      if (!own.empty()) {
        included_by[g].insert(own.begin(), own.end());
      } else if (frontend_file(f)) {
        frontend_includes.insert(g);
      }
    }
  }

  // The selecting headers.
  std::map<std::string, std::vector<BranchedInclude>> selecting;
  std::vector<std::string> why;
  for (const ScannedFile& f : files_) {
    if (!f.header || !frontend_file(f) || frontend_includes.count(f.rel) || macro_backend.empty()) continue;
    const auto users = included_by.find(f.rel);
    if (users == included_by.end() || users->second.size() < 2) continue;
    const std::string text = read_text(root_ / f.rel);
    std::set<std::string> tested, picked;
    for (const auto& [line, macro] : scan_directives(text).tested) {
      if (macro_backend.count(macro)) tested.insert(macro);
    }
    picked = named(tested);
    if (picked.size() < 2) continue;
    selecting[f.rel] = branched_includes(text);
    out_.shared_files.push_back(f.rel);
    std::vector<std::string> macros(tested.begin(), tested.end()),
        includers(users->second.begin(), users->second.end());
    why.push_back(f.rel + " (#if on " + join_why(macros, 3) + "; included by " + join_why(includers, 4) +
                  ")");
  }
  if (!why.empty())
    out_.shared_files_why = join_why(why, 4) +
                            ": frontend headers that only backends include, each picking " +
                            "the code of the backend the build selects";

  // The backends' own namespaces: the backend's name or its folder's, where its files open it.
  std::map<std::string, std::set<std::string>> opened;  // file -> namespaces
  auto namespaces_of = [&](const std::string& rel) -> const std::set<std::string>& {
    auto it = opened.find(rel);
    if (it == opened.end()) it = opened.emplace(rel, opened_namespaces(tokens(rel))).first;
    return it->second;
  };
  std::map<std::string, std::set<std::string>> own_namespaces;
  for (const ScannedFile& f : files_) {
    const std::set<std::string> own = owners(f);
    if (own.size() != 1 || !library_code(f)) continue;
    const std::string& id = *own.begin();
    std::set<std::string> names{id};
    for (const std::string& folder : backend_folders_[id]) names.insert(name_of(folder));
    for (const std::string& ns : namespaces_of(f.rel)) {
      if (names.count(ns)) own_namespaces[id].insert(ns);
    }
  }

  // backend -> the backend whose headers it shares -> those headers
  std::map<std::string, std::map<std::string, std::set<std::string>>> served;
  std::map<std::string, std::set<std::string>> own_code;  // backend -> headers of others that are theirs
  auto visit = [&](const std::string& user, const std::string& first) {
    std::deque<std::string> todo{first};
    while (!todo.empty()) {
      const std::string rel = todo.front();
      todo.pop_front();
      const auto fit = by_rel.find(rel);
      if (fit == by_rel.end() || !fit->second->header || !library_code(*fit->second)) continue;
      const ScannedFile& h = *fit->second;
      const std::set<std::string> own = owners(h);
      if (own.size() != 1 || own.count(user)) continue;
      const std::string& x = *own.begin();
      const bool uses =
          std::any_of(out_.backends.begin(), out_.backends.end(), [&](const ProposedBackend& b) {
            return b.name == user && std::find(b.uses.begin(), b.uses.end(), x) != b.uses.end();
          });
      if (uses) continue;
      const auto ns = own_namespaces.find(x);
      if (ns == own_namespaces.end() || served[user][x].count(rel) || own_code[user].count(rel)) continue;
      const std::set<std::string>& declared = namespaces_of(rel);
      // Its own code: it opens the backend's namespace, or includes a library of the backend's alone.
      bool theirs = std::any_of(ns->second.begin(), ns->second.end(),
                                [&](const std::string& n) { return declared.count(n) != 0; });
      for (const auto& [library, header] : h.libraries) {
        for (const ProposedLibrary& p : out_.libraries) {
          if (p.library == library && !h.conditional.count(library) &&
              std::find(p.backends.begin(), p.backends.end(), user) == p.backends.end())
            theirs = true;
        }
      }
      if (theirs) {
        own_code[user].insert(rel);
        continue;
      }
      served[user][x].insert(rel);
      for (const auto& [name, conditional] : h.includes) {
        if (std::string g = resolve_include(h, name); !g.empty()) todo.push_back(g);
      }
    }
  };
  for (const ScannedFile& f : files_) {
    if (!library_code(f)) continue;
    for (const std::string& user : owners(f)) {
      for (const auto& [name, conditional] : f.includes) {
        const std::string g = resolve_include(f, name);
        if (g.empty()) continue;
        visit(user, g);
        const auto sel = selecting.find(g);
        if (sel == selecting.end()) continue;
        for (const BranchedInclude& i : sel->second) {
          if (!taken_by(i.under).count(user)) continue;
          if (std::string h = resolve_include(*by_rel.at(g), i.name); !h.empty()) visit(user, h);
        }
      }
    }
  }
  for (const auto& [user, by_owner] : served) {
    ProposedBackend* b = backend(user);
    if (!b) continue;
    for (const auto& [x, headers] : by_owner) {
      if (headers.empty()) continue;
      const std::vector<std::string> listed(headers.begin(), headers.end());
      b->paths.insert(b->paths.end(), listed.begin(), listed.end());
      const std::set<std::string>& ns = own_namespaces.at(x);
      b->why += "; " + plural(listed.size(), "header") + " of " + x + " (" + join_why(listed, 3) +
                ") that its code includes and that open" + (listed.size() == 1 ? "s" : "") +
                " no namespace " + *ns.begin() + ": code the two share, listed by both";
    }
  }
}

}  // namespace emberlint::discovery
