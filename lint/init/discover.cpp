// `emberlint init`'s discovery, the tree's layout: the walk (files, the vendor libraries each includes, the
// folders not to lint), tests and glue, the backend folders, the libraries each backend owns, the frontend,
// the backends' public headers and SDKs missing here. The backend folders are found in discover_backends.cpp,
// the code-reading steps are in discover_model.cpp.
#include "lint/init/discover.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

#include "lint/init/discoverer.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace discovery {

namespace {

constexpr std::uintmax_t kLargestFile = 4u << 20;  // larger files are data, not code to scan

// A build tree by its name: build, builds, build-release, build_arm, cmake-build-debug (not buildKernel/).
bool build_name(const std::string& name) {
  const std::string n = ascii_lower(name);
  for (const char* prefix : {"build", "cmake-build"}) {
    const std::string p = prefix;
    if (n.rfind(p, 0) != 0) continue;
    if (n.size() == p.size() || n == p + "s" || n[p.size()] == '-' || n[p.size()] == '_') return true;
  }
  return false;
}
bool vendored_name(const std::string& name) {
  return build_name(name) ||
         one_of(ascii_lower(name),
                {"third_party", "third-party", "thirdparty", "3rdparty",     "3rd_party",    "3rd-party",
                 "3rd",         "external",    "externals",  "extern",       "vendor",       "vendors",
                 "vendored",    "deps",        "_deps",      "dependencies", "node_modules", "subprojects",
                 "submodules",  "tpl",         "tpls"});
}
// A folder of someone else's code by its license file (LICENSE, COPYING, LICENSE.txt), below the root.
bool has_license_file(const fs::path& folder) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    const std::string n = ascii_lower(e.path().stem().string());
    if ((n == "license" || n == "licence" || n == "copying") && e.is_regular_file(ec)) return true;
  }
  return false;
}
// Code generators (codegen/cuda/ writes CUDA kernels): glue, not backends.
bool generator_name(const std::string& name) {
  return one_of(ascii_lower(name), {"codegen", "code_gen", "code-gen", "generator", "generators", "gen"});
}
bool test_name(const std::string& name) {
  return one_of(ascii_lower(name), {"test", "tests", "unittest", "unittests", "unit_test", "unit_tests",
                                    "unit-test", "unit-tests", "testing", "gtest"});
}
bool glue_name(const std::string& name) {
  return one_of(ascii_lower(name),
                {"examples", "example", "samples", "sample", "tools", "benchmark", "benchmarks", "bench",
                 "perf_test", "perf_tests", "apps", "python", "bindings", "docs", "doc", "scripts", "cmake"});
}

// The paths in .gitmodules: submodules are someone else's code.
std::set<std::string> submodule_paths(const fs::path& root) {
  std::set<std::string> out;
  std::istringstream in(read_text(root / ".gitmodules"));
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::istringstream key(line.substr(0, eq)), value(line.substr(eq + 1));
    std::string k, v;
    if (key >> k && k == "path" && value >> v) out.insert(v);
  }
  return out;
}

}  // namespace

std::string read_text(const fs::path& p) {
  std::error_code ec;
  if (fs::file_size(p, ec) > kLargestFile || ec) return {};
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

std::string parent_of(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

std::string plural(std::size_t n, const std::string& one) {
  const bool sibilant = !one.empty() && (one.back() == 's' || one.back() == 'x' || one.ends_with("ch"));
  return std::to_string(n) + " " + one + (n == 1 ? "" : sibilant ? "es" : "s");
}

const KnownLibrary* named_library(const std::string& folder) {
  const auto w = words(folder);
  for (const KnownLibrary& l : known_libraries()) {
    for (const auto& fw : l.folder_words) {
      if (std::find(w.begin(), w.end(), fw) != w.end()) return &l;
    }
  }
  return nullptr;
}

std::string name_of(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? rel : rel.substr(slash + 1);
}

bool under(const std::string& rel, const std::string& folder) {
  return folder.empty() || rel == folder || rel.rfind(folder + "/", 0) == 0;
}

Discovery Discoverer::run() {
  scan();
  find_tests_and_glue();
  find_backends();
  find_suffix_backends();
  find_named_files();
  find_selected_wrappers();
  find_backend_code_in_frontend();
  find_libraries();
  find_backend_programs();
  find_backend_tests();
  find_frontend();
  find_tested_macros();
  for (const auto& [base, n] : include_bases_) {
    // Not a backend's own folder: all of them on one include path, a backend's header would resolve to
    // whichever backend comes first.
    const bool library = base == "." || !(in_any(base, tests_) || in_any(base, glue_) || excluded(base) ||
                                          (!base.empty() && in_any(base, chosen_)));
    if (library && (n >= 2 || include_bases_.size() <= 3)) out_.include_folders.push_back(base);
  }
  find_public_headers();
  find_extended_backends();
  find_built_in_folders();
  find_shared_code();
  find_tensor_type();
  find_model();
  if (!glue_files_.empty())
    out_.glue_why += (out_.glue_why.empty() ? "" : "; ") + join_why(glue_files_) +
                     ": files beside the backend folders, which register or select them";
  out_.read = plural(files_.size(), "C and C++ file") + " under the folder";
  return std::move(out_);
}

// ---- the walk ----
void Discoverer::scan() {
  const std::set<std::string> submodules = submodule_paths(root_);
  std::map<std::string, std::string> excluded;  // folder, why
  std::vector<std::string> vendored_files;      // copies of a library's header (vendored.hpp)
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root_, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path p = it->path();
    const std::string name = p.filename().string();
    const std::string rel = p.lexically_relative(root_).generic_string();
    if (it->is_directory(ec)) {
      if (name.rfind('.', 0) == 0) {
        it.disable_recursion_pending();
      } else if (fs::exists(p / "CMakeCache.txt", ec)) {
        excluded.emplace(rel, "a build folder (CMakeCache.txt)");
      } else if (submodules.count(rel) || fs::exists(p / ".git", ec)) {
        excluded.emplace(rel, "a git submodule");
      } else if (vendored_name(name)) {
        excluded.emplace(rel, build_name(name) ? "a build folder" : "vendored code");
      } else if (has_license_file(p)) {
        excluded.emplace(rel, "vendored code (a license file of its own)");
      }
      if (excluded.count(rel)) it.disable_recursion_pending();
      continue;
    }
    if (!is_source_path(p) && !is_header_path(p)) continue;
    const std::string text = read_text(p);
    if (!vendored(rel, text).empty()) {
      vendored_files.push_back(rel);
      continue;
    }
    ScannedFile f;
    f.rel = rel;
    f.dir = parent_of(rel);
    f.header = is_header_path(p);
    const DirectiveScan directives = scan_directives(text);
    std::map<const KnownLibrary*, std::vector<unsigned>> lines;  // of each library's includes
    for (const IncludeDirective& d : directives.includes) {
      if (d.name.form != HeaderName::Form::quoted && d.name.form != HeaderName::Form::angled) continue;
      // An include inside an #if block (`#ifdef USE_MKL`) is a use of some builds, not of every one.
      const bool conditional =
          std::any_of(directives.conditionals.begin(), directives.conditionals.end(),
                      [&](const auto& c) { return c.first <= d.line && d.line <= c.second; });
      f.includes.emplace_back(d.name.text, conditional);
      if (project_header(d.name.text, p.parent_path())) continue;
      const KnownLibrary* l = library_of_include(d.name.text);
      if (!l) continue;
      f.libraries.emplace(l, d.name.text);
      lines[l].push_back(d.line);
    }
    // A library every build includes, if through a platform switch (<OpenCL/cl.h> on one system, <CL/cl.h>
    // on the others), is an unconditional one.
    for (const auto& [l, at] : lines) {
      if (!every_build_reads(directives, at)) f.conditional.insert(l);
    }
    texts_.emplace(rel, code_only(text));
    files_.push_back(std::move(f));
  }
  for (const ScannedFile& f : files_) {
    std::string d = f.dir;
    for (;;) {
      FolderStats& s = folders_[d];
      ++s.files;
      for (const auto& [l, header] : f.libraries) {
        ++s.any_files[l];
        if (f.conditional.count(l)) continue;
        ++s.library_files[l];
        ++s.headers[l][header];
      }
      if (d.empty()) break;
      const std::string up = parent_of(d);
      folders_[up].children.insert(d);
      d = up;
    }
  }
  // A vendored copy is excluded with the outermost folder below the root whose files are all copies (CL/ for
  // CL/opencl.hpp), else alone.
  for (const std::string& rel : vendored_files) {
    std::string folder;
    for (std::string d = parent_of(rel); !d.empty(); d = parent_of(d)) {
      if (folders_.count(d) && folders_.at(d).files > 0) break;  // the project's own files are there
      folder = d;
    }
    if (folder.empty()) {
      out_.exclude.push_back(rel);
      exclude_why_.push_back(rel + " (" + vendored_why_.at(rel) + ")");
    } else if (!excluded.count(folder)) {
      excluded.emplace(folder, vendored_why_.at(rel));
    } else {
      excluded[folder] += "; " + vendored_why_.at(rel);
    }
  }
  for (const auto& entry : excluded) {
    // Only the outermost: a build folder inside vendored code is covered by it. (No structured binding: a
    // lambda may not capture one before C++20's clang 16.)
    const std::string& folder = entry.first;
    if (std::any_of(excluded.begin(), excluded.end(),
                    [&](const auto& e) { return e.first != folder && under(folder, e.first); }))
      continue;
    out_.exclude.push_back(folder + "/**");
    exclude_why_.push_back(folder + "/ (" + entry.second + ")");
  }
  out_.exclude_why = join_why(exclude_why_);
}

// A name found next to the includer, in a folder above it within the tree, or in the tree's include/ or
// src/ is the project's own header ("mlx/backend/cuda/cuda.h"), whatever library its file name suggests.
// The folders above the includer where a name was found are the include folders the build passes (-I):
// counted for compile_flags.
bool Discoverer::project_header(const std::string& name, const fs::path& includer_folder) {
  std::error_code ec;
  for (fs::path folder = includer_folder;;) {
    if (fs::exists(folder / name, ec)) {
      // A vendored copy of a library's header (<CL/opencl.hpp>) is an include of that library.
      const std::string rel = (folder / name).lexically_normal().lexically_relative(root_).generic_string();
      if (!vendored(rel, {}).empty()) return false;
      if (folder != includer_folder) ++include_bases_[folder.lexically_relative(root_).generic_string()];
      return true;
    }
    if (folder == root_ || !folder.has_parent_path() || folder.parent_path() == folder) break;
    folder = folder.parent_path();
  }
  for (const char* base : {"include", "src"}) {
    if (fs::exists(root_ / base / name, ec)) {
      if (!vendored((fs::path(base) / name).lexically_normal().generic_string(), {}).empty()) return false;
      ++include_bases_[base];
      return true;
    }
  }
  return false;
}

const std::string& Discoverer::vendored(const std::string& rel, const std::string& text) {
  auto it = vendored_why_.find(rel);
  if (it != vendored_why_.end()) return it->second;
  std::string why;
  if (!rel.empty() && rel.rfind("../", 0) != 0)
    why = vendored_files_.why(rel, text.empty() ? read_text(root_ / rel) : text);
  return vendored_why_.emplace(rel, std::move(why)).first->second;
}

std::string Discoverer::join_why(const std::vector<std::string>& items, std::size_t most) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < most; ++i) out += (out.empty() ? "" : "; ") + items[i];
  if (items.size() > most) out += "; and " + std::to_string(items.size() - most) + " more";
  return out;
}

// ---- tests, examples and tools ----
void Discoverer::find_tests_and_glue() {
  std::vector<std::string> tests_why, glue_why;
  for (const auto& [folder, stats] : folders_) {
    if (folder.empty() || stats.files == 0) continue;
    const std::string name = name_of(folder);
    if (test_name(name) && !in_any(folder, tests_)) {
      tests_.push_back(folder);
      tests_why.push_back(folder + "/ (" + plural(stats.files, "file") + ")");
    } else if ((glue_name(name) && parent_of(folder).empty()) ||
               (generator_name(name) && !in_any(folder, glue_))) {
      glue_.push_back(folder);
      glue_why.push_back(folder + (generator_name(name) ? "/ (a code generator)" : "/"));
    }
  }
  // Units of the database whose object file is a test target's.
  std::size_t test_units = 0;
  for (const auto& c : commands_) {
    for (std::size_t i = 0; i + 1 < c.arguments.size(); ++i) {
      if (c.arguments[i] == "-o" && ascii_lower(c.arguments[i + 1]).find("test") != std::string::npos)
        ++test_units;
    }
  }
  for (const auto& t : tests_) out_.tests.push_back(t + "/**");
  out_.tests_why = join_why(tests_why);
  if (test_units)
    out_.tests_why += (out_.tests_why.empty() ? "" : "; ") + plural(test_units, "unit") +
                      " of the compile database build test targets";
  for (const auto& g : glue_) out_.glue.push_back(g + "/**");
  if (!glue_.empty())
    out_.glue_why =
        join_why(glue_why) + ": programs and bindings that pick a backend, governed by no purity rule";
}

bool Discoverer::in_any(const std::string& folder, const std::vector<std::string>& folders) const {
  return std::any_of(folders.begin(), folders.end(), [&](const std::string& f) { return under(folder, f); });
}

// ---- libraries ----
void Discoverer::find_libraries() {
  for (const KnownLibrary& l : known_libraries()) {
    // backend -> files including it (outside #if blocks, and in all)
    std::map<std::string, std::size_t> uses, conditional_uses;
    for (const auto& [id, folders] : backend_folders_) {
      for (const auto& f : folders) {
        const FolderStats& s = folders_[f];
        const auto all = s.any_files.find(&l);
        if (all == s.any_files.end()) continue;
        const auto plain = s.library_files.find(&l);
        const std::size_t n = plain == s.library_files.end() ? 0 : plain->second;
        uses[id] += all->second;
        conditional_uses[id] += all->second - n;
      }
    }
    // The files of a backend by their suffix, in folders of the frontend.
    for (const auto& f : files_) {
      auto owner = file_backends_.find(f.rel);
      if (owner == file_backends_.end() || !f.libraries.count(&l)) continue;
      for (const std::string& id : owner->second) {
        ++uses[id];
        conditional_uses[id] += f.conditional.count(&l);
      }
    }
    // Files outside every backend, test, example and excluded folder that include it.
    std::vector<std::string> outside;
    for (const auto& f : files_) {
      if (!f.libraries.count(&l) || in_any(f.dir, chosen_) || in_any(f.dir, tests_) || in_any(f.dir, glue_) ||
          file_backends_.count(f.rel))
        continue;
      outside.push_back(f.rel);
    }
    auto note_outside = [&](const std::string& then) {
      if (outside.empty()) return;
      out_.notes.push_back(plural(outside.size(), "file") + " outside the backend folders " +
                           (outside.size() == 1 ? "includes " : "include ") + l.name + " headers (" +
                           outside.front() + ": <" + file_header(outside.front(), &l) + ">)" + then);
    };
    // Every backend whose files include it uses it (three backends may share BLAS), and so do the backends
    // named after it, whether or not their files include its headers (ncnn's src/layer/vulkan/ reaches Vulkan
    // through the project's own loader).
    const std::vector<std::string> owners = library_owners(l);
    if (owners.empty()) {
      note_outside(" and no backend folder does: a backend of its own, or glue?");
      continue;
    }
    ProposedLibrary p;
    p.library = &l;
    p.backends = owners;
    std::vector<std::string> why;
    for (const auto& [id, n] : uses) {
      const std::size_t c = conditional_uses[id];
      why.push_back(plural(n, "file") + " of " + id +
                    (c == 0   ? ""
                     : c == n ? " (all inside #if blocks)"
                              : " (" + std::to_string(c) + " inside #if blocks)"));
    }
    p.why = why.empty() ? "named after it: backend " + owners.front() + " (no file includes its headers)"
                        : "included by " + join_why(why);
    out_.libraries.push_back(std::move(p));
    note_outside(": EL100 reports each unless it moves into a backend or is listed as glue");
  }
}

std::string Discoverer::file_header(const std::string& rel, const KnownLibrary* l) const {
  for (const auto& f : files_) {
    if (f.rel == rel) return f.libraries.at(l);
  }
  return {};
}

// ---- frontend ----
void Discoverer::find_frontend() {
  std::vector<std::string> why;
  std::size_t n = 0;
  for (const auto& top : folders_[""].children) {
    const FolderStats& s = folders_[top];
    if (s.files == 0 || in_any(top, tests_) || in_any(top, glue_) || excluded(top)) continue;
    if (in_any(top, chosen_) ||
        std::find(backend_parents_.begin(), backend_parents_.end(), top) != backend_parents_.end())
      continue;  // backends/ itself: its children are the backends
    std::size_t own = 0;
    for (const auto& f : files_) {
      if (under(f.dir, top) && !in_any(f.dir, chosen_) && !file_backends_.count(f.rel)) ++own;
    }
    if (own == 0) continue;
    out_.frontend.push_back(top + "/**");
    why.push_back(top + "/ (" + std::to_string(own) + ")");
    n += own;
  }
  if (!out_.frontend.empty())
    out_.frontend_why = plural(n, "file") +
                        " of library code outside the backend, test and example folders: " + join_why(why) +
                        " (a backend's own folders take precedence over these globs)";
}

// A frontend header whose name ends with a backend's name (include/ggml-cuda.h for cuda) is that backend's
// public API: what the frontend and applications include to pick it.
void Discoverer::find_public_headers() {
  // A header is one backend's entry when it belongs to a family, one per backend with the same stem before
  // the backend's name (tml-cpu.h, tml-cuda.h), or includes a vendor library: a single header that merely
  // ends in a backend's name (accessor/row_major_reference.hpp beside a `reference` backend) is not.
  std::map<std::string, std::set<std::string>> family;  // stem before the name -> backends
  auto stem_before = [](const std::string& rel, const std::string& backend) -> std::optional<std::string> {
    const auto w = words(fs::path(rel).stem().string());
    if (w.size() < 2 || w.back() != backend) return std::nullopt;
    std::string before;
    for (std::size_t i = 0; i + 1 < w.size(); ++i) before += w[i] + "/";
    return parent_of(rel) + ":" + before;
  };
  for (const ProposedBackend& b : out_.backends) {
    for (const auto& f : files_) {
      if (!f.header || !frontend_file(f)) continue;
      if (auto before = stem_before(f.rel, b.name)) family[*before].insert(b.name);
    }
  }
  for (ProposedBackend& b : out_.backends) {
    std::vector<std::string> named;  // beside those a macro selects (find_selected_wrappers)
    for (const auto& f : files_) {
      if (!f.header || !frontend_file(f)) continue;
      const auto before = stem_before(f.rel, b.name);
      if (before && (family[*before].size() >= 2 || !f.libraries.empty()) &&
          std::find(b.public_headers.begin(), b.public_headers.end(), f.rel) == b.public_headers.end())
        named.push_back(f.rel);
    }
    if (named.empty()) continue;
    b.public_headers.insert(b.public_headers.end(), named.begin(), named.end());
    b.why += "; public: " + join_why(named) + " (named after it, outside its folders)";
  }
}

bool Discoverer::excluded(const std::string& folder) const {
  return std::any_of(out_.exclude.begin(), out_.exclude.end(),
                     [&](const std::string& g) { return under(folder, g.substr(0, g.size() - 3)); });
}

bool Discoverer::frontend_file(const ScannedFile& f) const {
  return !in_any(f.dir, chosen_) && !in_any(f.dir, tests_) && !in_any(f.dir, glue_) && !excluded(f.dir) &&
         !file_backends_.count(f.rel) &&
         std::find(out_.glue.begin(), out_.glue.end(), f.rel) == out_.glue.end();
}

std::string Discoverer::backend_of(const ScannedFile& f) const {
  if (auto it = file_backends_.find(f.rel); it != file_backends_.end()) return it->second.front();
  for (const auto& [id, folders] : backend_folders_) {
    if (in_any(f.dir, folders)) return id;
  }
  return {};
}

}  // namespace discovery

Discovery discover(const fs::path& root, const std::vector<CompileCommand>& commands) {
  return discovery::Discoverer(root, commands).run();
}

}  // namespace emberlint
