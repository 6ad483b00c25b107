// `emberlint init`'s discovery, the tree's layout: the walk (files, the vendor libraries each includes, the
// folders not to lint), tests and glue, the backend folders, the libraries each backend owns, the frontend,
// the backends' public headers and SDKs missing here. The code-reading steps are in discover_model.cpp.
#include "lint/init/discover.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

#include "lint/compile/configurations.hpp"
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
bool shared_name(const std::string& name) {
  return one_of(ascii_lower(name), {"common", "shared", "utils", "util", "detail", "base"});
}
bool gpu_library(const KnownLibrary* l) {
  return l && one_of(l->name, {"CUDA", "HIP", "MUSA", "Metal", "Vulkan", "OpenCL", "CLBlast", "SYCL",
                               "WebGPU", "Kompute"});
}

// The known library a folder is named after ("ggml-cuda", "x86", "metal"), or null.
const KnownLibrary* named_library(const std::string& folder) {
  const auto w = words(folder);
  for (const KnownLibrary& l : known_libraries()) {
    for (const auto& fw : l.folder_words) {
      if (std::find(w.begin(), w.end(), fw) != w.end()) return &l;
    }
  }
  return nullptr;
}
bool names_a_processor(const std::string& folder) {
  const auto w = words(folder);
  return std::find(w.begin(), w.end(), "cpu") != w.end() || std::find(w.begin(), w.end(), "gpu") != w.end();
}

std::string read_text(const fs::path& p) {
  std::error_code ec;
  if (fs::file_size(p, ec) > kLargestFile || ec) return {};
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string name_of(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? rel : rel.substr(slash + 1);
}
bool under(const std::string& rel, const std::string& folder) {
  return folder.empty() || rel == folder || rel.rfind(folder + "/", 0) == 0;
}

// The most used header of a library in a folder's subtree.
std::string top_header(const FolderStats& s, const KnownLibrary* l) {
  auto it = s.headers.find(l);
  if (it == s.headers.end() || it->second.empty()) return {};
  return std::max_element(it->second.begin(), it->second.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
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

std::vector<std::string> words(const std::string& name) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

std::string parent_of(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

std::string plural(std::size_t n, const std::string& one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

Discovery Discoverer::run() {
  scan();
  find_tests_and_glue();
  find_backends();
  find_suffix_backends();
  find_libraries();
  find_backend_programs();
  find_backend_tests();
  find_frontend();
  for (const auto& [base, n] : include_bases_) {
    // Not a backend's own folder: all of them on one include path, a backend's header would resolve to
    // whichever backend comes first.
    const bool library = base == "." || !(in_any(base, tests_) || in_any(base, glue_) || excluded(base) ||
                                          (!base.empty() && in_any(base, chosen_)));
    if (library && (n >= 2 || include_bases_.size() <= 3)) out_.include_folders.push_back(base);
  }
  find_public_headers();
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
    ScannedFile f;
    f.rel = rel;
    f.dir = parent_of(rel);
    f.header = is_header_path(p);
    const std::string text = read_text(p);
    const DirectiveScan directives = scan_directives(text);
    std::set<const KnownLibrary*> unconditional;
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
      if (!conditional) unconditional.insert(l);
    }
    for (const auto& [l, header] : f.libraries) {
      if (!unconditional.count(l)) f.conditional.insert(l);
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
      if (folder != includer_folder) ++include_bases_[folder.lexically_relative(root_).generic_string()];
      return true;
    }
    if (folder == root_ || !folder.has_parent_path() || folder.parent_path() == folder) break;
    folder = folder.parent_path();
  }
  for (const char* base : {"include", "src"}) {
    if (fs::exists(root_ / base / name, ec)) {
      ++include_bases_[base];
      return true;
    }
  }
  return false;
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

// ---- backends ----

// The folders whose sources are all compiled with a macro that names the folder: `-DGKO_COMPILING_OMP` or
// `-DDEVICE_NAMESPACE=omp` on every command of omp/ (a word of the macro's name, or its whole value). The
// build selects a backend with such a macro; CMake's `<target>_EXPORTS` names a target, not a backend, and
// a macro every command of the database defines selects nothing.
void Discoverer::find_selecting_macros() {
  std::map<std::string, std::set<std::string>> every;  // folder -> the defines all its commands pass
  for (const CompileCommand& c : commands_) {
    const std::string rel = relative_to(c.file, root_);
    if (rel.empty() || rel.rfind("../", 0) == 0) continue;
    const std::set<std::string> defines = command_defines(c);
    for (std::string d = parent_of(rel);; d = parent_of(d)) {
      auto [it, fresh] = every.try_emplace(d, defines);
      if (!fresh) std::erase_if(it->second, [&](const std::string& x) { return !defines.count(x); });
      if (d.empty()) break;
    }
  }
  const std::set<std::string>& global = every[""];
  for (const auto& [folder, defines] : every) {
    if (folder.empty()) continue;
    const std::string name = ascii_lower(name_of(folder));
    std::string by_word, by_value;
    for (const std::string& d : defines) {
      if (global.count(d)) continue;
      const std::size_t eq = d.find('=');
      const std::string macro = ascii_lower(d.substr(0, eq));
      std::vector<std::string> w;
      for (std::size_t b = 0; b <= macro.size();) {
        const std::size_t e = std::min(macro.find('_', b), macro.size());
        if (e > b) w.push_back(macro.substr(b, e - b));
        b = e + 1;
      }
      if (!w.empty() && w.back() == "exports") continue;
      if (eq != std::string::npos && ascii_lower(d.substr(eq + 1)) == name && by_value.empty()) by_value = d;
      if (std::find(w.begin(), w.end(), name) != w.end() && by_word.empty())
        by_word = eq == std::string::npos ? d : d.substr(0, eq);
    }
    if (!by_word.empty() || !by_value.empty())
      selecting_macro_[folder] = by_word.empty() ? by_value : by_word;
  }
}

void Discoverer::find_backends() {
  find_selecting_macros();
  std::vector<std::string> order;
  for (const auto& [folder, stats] : folders_) order.push_back(folder);
  std::stable_sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) {
    return std::count(a.begin(), a.end(), '/') + !a.empty() <
           std::count(b.begin(), b.end(), '/') + !b.empty();
  });
  for (const std::string& parent : order) {
    if (in_any(parent, chosen_) || in_any(parent, tests_) || in_any(parent, glue_)) continue;
    group(parent);
  }
}

// The children of `parent` when they are a group of backends: at least two named after a library, an
// architecture or a processor (ggml's src/ggml-cuda, ncnn's src/layer/x86), or any children of a folder
// named backend(s) (MLX's mlx/backend/).
void Discoverer::group(const std::string& parent) {
  const FolderStats& ps = folders_[parent];
  std::vector<std::string> children;
  for (const auto& c : ps.children) {
    if (folders_[c].files > 0 && !in_any(c, tests_)) children.push_back(c);
  }
  std::vector<std::string> hinted;
  for (const auto& c : children) {
    // Named after a library or a processor, selected by a macro named after it, or named as a backend an
    // outer group already has (devices/omp/ beside the backend omp/).
    if (named_library(name_of(c)) || names_a_processor(name_of(c)) || selecting_macro_.count(c) ||
        backend_folders_.count(ascii_lower(name_of(c))))
      hinted.push_back(c);
  }
  const bool backend_parent = one_of(ascii_lower(name_of(parent)), {"backend", "backends"});
  if (hinted.size() < 2 && !(backend_parent && !children.empty())) return;
  // A prefix the named children share ("ggml-"): other children with it are backends too (ggml-rpc).
  std::string prefix = hinted.empty() ? std::string() : name_of(hinted.front());
  for (const auto& h : hinted) {
    const std::string n = name_of(h);
    std::size_t k = 0;
    while (k < prefix.size() && k < n.size() && prefix[k] == n[k]) ++k;
    prefix.resize(k);
  }
  if (auto cut = prefix.find_last_of("-_"); cut != std::string::npos)
    prefix.resize(cut + 1);
  else
    prefix.clear();

  // A gpu/ folder beside GPU backends serves them; with none beside it, it is a backend of its own.
  auto gpu_sibling = [&](const std::string& gpu) {
    return std::any_of(hinted.begin(), hinted.end(), [&](const std::string& h) {
      if (h == gpu) return false;
      const KnownLibrary* lib = named_library(name_of(h));
      return gpu_library(lib) || gpu_library(top_library(folders_[h])) || names_gpu(h);
    });
  };
  std::vector<std::string> shared_all, shared_gpu;
  std::vector<std::pair<std::string, std::string>> members;  // folder, backend name
  for (const auto& c : children) {
    std::string name = name_of(c);
    const bool with_prefix = !prefix.empty() && name.rfind(prefix, 0) == 0 && name.size() > prefix.size();
    const bool is_hinted = std::find(hinted.begin(), hinted.end(), c) != hinted.end();
    if (with_prefix) name = name.substr(prefix.size());
    if (shared_name(name)) {
      shared_all.push_back(c);
    } else if (ascii_lower(name) == "gpu" && hinted.size() > 1 && gpu_sibling(c)) {
      shared_gpu.push_back(c);
    } else if (is_hinted || backend_parent || with_prefix) {
      std::string id = ascii_lower(name);
      std::replace(id.begin(), id.end(), '-', '_');
      members.emplace_back(c, id);
    }
  }
  if (members.size() + (backend_parent ? 1 : 0) < 2) return;
  // Files directly in a backends/ folder register or select the backends: glue.
  if (backend_parent) {
    for (const auto& f : files_) {
      if (f.dir != parent) continue;
      out_.glue.push_back(f.rel);
      glue_files_.push_back(f.rel);
    }
    backend_parents_.push_back(parent);
  }
  // A folder of the shared one named after some of the backends here (common/cuda_hip/) serves those alone:
  // it is theirs (each one's own, as a folder several backends list is), the rest is every backend's.
  std::set<std::string> ids;
  for (const auto& [folder, id] : members) ids.insert(id);
  std::vector<std::string> shared_every;                                  // globs
  std::vector<std::pair<std::string, std::vector<std::string>>> serving;  // folder, the backends it serves
  for (const auto& sh : shared_all) {
    std::vector<std::string> rest;
    bool split = false;
    for (const auto& c : folders_[sh].children) {
      if (folders_[c].files == 0) continue;
      const auto w = words(name_of(c));
      if (!w.empty() && std::all_of(w.begin(), w.end(), [&](const std::string& x) { return ids.count(x); })) {
        serving.emplace_back(c, w);
        split = true;
      } else {
        rest.push_back(c + "/**");
      }
    }
    if (!split) {
      shared_every.push_back(sh + "/**");
      continue;
    }
    shared_every.insert(shared_every.end(), rest.begin(), rest.end());
    if (std::any_of(files_.begin(), files_.end(), [&](const ScannedFile& f) { return f.dir == sh; }))
      shared_every.push_back(sh + "/*");
  }
  for (const auto& [folder, id] : members) {
    const FolderStats& s = folders_[folder];
    const KnownLibrary* lib = named_library(name_of(folder));
    // The library the folder is named after, when its files include it; else the one they include most.
    const KnownLibrary* used = lib && s.library_files.count(lib) ? lib : top_library(s);
    const bool gpu = gpu_library(lib) || gpu_library(used) || names_gpu(folder);
    ProposedBackend* b = backend(id);
    b->paths.push_back(folder + "/**");
    b->files += s.files;
    std::string why = folder + "/: " + plural(s.files, "file");
    if (used) {
      why += ", " + std::to_string(s.library_files.at(used)) + " including <" + top_header(s, used) + "> (" +
             used->name + ")";
    } else if (lib) {
      why += ", named after " + lib->name + " (no vendor header found in its files)";
    } else if (!selecting_macro_.count(folder)) {
      why += ", no vendor header found in its files";
    }
    if (auto m = selecting_macro_.find(folder); m != selecting_macro_.end() && b->selected_by.empty()) {
      b->selected_by = m->second;
      why += ", every command of its sources defines " + m->second + " (named after it)";
    }
    for (const auto& g : shared_every) b->paths.push_back(g);
    for (const auto& sh : shared_all) why += "; " + sh + "/ is shared by every backend here";
    for (const auto& [c, served] : serving) {
      if (std::find(served.begin(), served.end(), id) == served.end()) continue;
      b->paths.push_back(c + "/**");
      why +=
          "; " + c + "/ serves it and " + plural(served.size() - 1, "other backend") + " (named after them)";
    }
    if (gpu) {
      for (const auto& sh : shared_gpu) {
        b->paths.push_back(sh + "/**");
        why += "; " + sh + "/ is shared by the GPU backends";
      }
    }
    b->why += (b->why.empty() ? "" : "; ") + why;
    chosen_.push_back(folder);
    backend_folders_[id].push_back(folder);
  }
  for (const auto& sh : shared_all) chosen_.push_back(sh), shared_.push_back(sh);
  for (const auto& sh : shared_gpu) chosen_.push_back(sh), shared_.push_back(sh);
}

// Whether a proposed backend is a GPU one: named after a GPU library, or its files include one most.
bool Discoverer::gpu_backend(const std::string& id) const {
  auto it = backend_folders_.find(id);
  if (it == backend_folders_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const std::string& f) {
    return gpu_library(named_library(name_of(f))) || gpu_library(top_library(folders_.at(f)));
  });
}

bool Discoverer::names_gpu(const std::string& folder) const {
  const auto w = words(name_of(folder));
  return std::find(w.begin(), w.end(), "gpu") != w.end() && std::find(w.begin(), w.end(), "no") == w.end();
}

const KnownLibrary* Discoverer::top_library(const FolderStats& s) {
  const KnownLibrary* best = nullptr;
  std::size_t most = 0;
  for (const auto& [l, n] : s.library_files) {
    if (n > most) best = l, most = n;
  }
  return best;
}

ProposedBackend* Discoverer::backend(const std::string& id) {
  for (auto& b : out_.backends) {
    if (b.name == id) return &b;
  }
  out_.backends.push_back(ProposedBackend{id, {}, {}, 0, {}, {}, {}});
  return &out_.backends.back();
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
    std::vector<std::string> owners;
    for (const auto& [id, folders] : backend_folders_) {
      const bool folder_named = std::any_of(folders.begin(), folders.end(), [&](const std::string& f) {
        return named_library(name_of(f)) == &l;
      });
      if (folder_named || uses.count(id)) owners.push_back(id);
    }
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
    for (const auto& f : files_) {
      if (!f.header || !frontend_file(f)) continue;
      const auto before = stem_before(f.rel, b.name);
      if (before && (family[*before].size() >= 2 || !f.libraries.empty())) b.public_headers.push_back(f.rel);
    }
    if (!b.public_headers.empty())
      b.why += "; public: " + join_why(b.public_headers) + " (named after it, outside its folders)";
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
