// `emberlint init`'s discovery, the backend folders: sibling folders named after a library, an architecture
// or a processor, selected by a macro named after them, or the children of a backend/ folder; the siblings
// those vouch for (a folder whose files include one of their libraries, a folder a family of per-backend
// files names); the shared folders among them (common/, and gpu/ beside GPU backends).
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include "lint/compile/configurations.hpp"
#include "lint/init/discoverer.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::discovery {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMirrored = 3;  // files of a folder with namesakes in another's: the same code

bool shared_name(const std::string& name) {
  return one_of(ascii_lower(name), {"common", "shared", "utils", "util", "detail", "base"});
}
bool gpu_library(const KnownLibrary* l) {
  return l && one_of(l->name, {"CUDA", "HIP", "MUSA", "Metal", "Vulkan", "OpenCL", "CLBlast", "SYCL",
                               "WebGPU", "Kompute"});
}
bool names_a_processor(const std::string& folder) {
  const auto w = words(folder);
  return std::find(w.begin(), w.end(), "cpu") != w.end() || std::find(w.begin(), w.end(), "gpu") != w.end();
}
// The most used header of a library in a folder's subtree.
std::string top_header(const FolderStats& s, const KnownLibrary* l) {
  auto it = s.headers.find(l);
  if (it == s.headers.end() || it->second.empty()) return {};
  return std::max_element(it->second.begin(), it->second.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

// The target a command's object file is built for, by the build's layout of object files: CMake's
// `CMakeFiles/<target>.dir` (Make and Ninja generators) or Meson's `<target>.p`, with the folders before it
// (two targets of one name in two folders are two). Empty when the path shows none.
std::string object_target(const std::string& output) {
  const fs::path p(output);
  fs::path prefix;
  for (const fs::path& part : p.parent_path()) {
    prefix /= part;
    const std::string n = part.string();
    if ((n.size() > 4 && n.ends_with(".dir")) || (n.size() > 2 && n.ends_with(".p")))
      return prefix.generic_string();
  }
  return {};
}

}  // namespace

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

// The macros of the database's commands that the library code tests in a conditional directive (`#ifdef
// VEXCL_BACKEND_OPENCL`, `#if defined(LIB_WITH_CUDA) && ...`): what the build selects with them, the
// code shows. Tests, glue and excluded files do not count: an example that tests `-DHAVE_CUDA` selects no
// backend of the library.
void Discoverer::find_tested_macros() {
  std::set<std::string> defined;
  for (const CompileCommand& c : commands_) {
    for (const std::string& d : command_defines(c)) defined.insert(d.substr(0, d.find('=')));
  }
  if (defined.empty()) return;
  for (const ScannedFile& f : files_) {
    const std::string backend = backend_of(f);
    if (backend.empty() && !frontend_file(f)) continue;
    const auto t = texts_.find(f.rel);
    if (t == texts_.end()) continue;
    const std::string& text = t->second;
    std::set<std::string> tested;
    for (std::size_t begin = 0; begin < text.size();) {
      const std::size_t end = std::min(text.find('\n', begin), text.size());
      std::size_t i = text.find_first_not_of(" \t", begin);
      if (i < end && text[i] == '#') {
        i = text.find_first_not_of(" \t", i + 1);
        std::size_t k = i;
        while (k < end && std::isalpha(static_cast<unsigned char>(text[k]))) ++k;
        const std::string directive = i < end ? text.substr(i, k - i) : std::string();
        if (one_of(directive, {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"})) {
          for (std::size_t j = k; j < end;) {
            const unsigned char ch = static_cast<unsigned char>(text[j]);
            if (!std::isalpha(ch) && ch != '_') {
              // Skip a number's digits and suffix whole, so 0x1F is no identifier "x1F".
              if (std::isdigit(ch)) {
                while (j < end && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
              } else {
                ++j;
              }
              continue;
            }
            std::size_t e = j;
            while (e < end && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) ++e;
            if (std::string id = text.substr(j, e - j); defined.count(id)) tested.insert(std::move(id));
            j = e;
          }
        }
      }
      begin = end + 1;
    }
    for (const std::string& m : tested) ++out_.tested_macros[m][backend];
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
  for (const std::string& parent : file_groups_) group_files(parent, true);
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
  // A backend folder of an outer group has the name (devices/omp/ beside the backend omp/); a backend of
  // files alone (backend/cpu_ram.hpp) names no folder.
  auto outer_backend = [&](const std::string& folder) {
    auto it = backend_folders_.find(ascii_lower(name_of(folder)));
    return it != backend_folders_.end() && !it->second.empty();
  };
  std::vector<std::string> hinted;
  for (const auto& c : children) {
    // Named after a library or a processor, selected by a macro named after it, or named as a backend an
    // outer group already has.
    if (named_library(name_of(c)) || names_a_processor(name_of(c)) || selecting_macro_.count(c) ||
        outer_backend(c))
      hinted.push_back(c);
  }
  const bool backend_parent = one_of(ascii_lower(name_of(parent)), {"backend", "backends"});
  // Folders named cpu/ and gpu/ and nothing else are no group of backends when nothing in them is a device's
  // code: no vendor library included, no file mirrored between them (a tuning database's devices/cpu/ and
  // devices/gpu/ tables).
  if (!backend_parent && hinted.size() >= 2 &&
      std::all_of(hinted.begin(), hinted.end(),
                  [&](const std::string& h) {
                    return !named_library(name_of(h)) && !selecting_macro_.count(h) && !outer_backend(h) &&
                           folders_[h].any_files.empty();
                  }) &&
      mirrored_files(hinted.front(), hinted.back()) < kMirrored)
    return;
  // A backend(s)/ folder without backend folders may hold its backends as files.
  // Grouped once the folder groups are known (find_backends).
  if (backend_parent && hinted.empty() && group_files(parent, false)) {
    file_groups_.push_back(parent);
    return;
  }
  if (hinted.size() < 2 && !(backend_parent && !children.empty())) return;
  if (hinted.size() >= 2) vouch_for_siblings(parent, children, hinted);
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
    if (shared_name(name) && serves_parent(c)) {
      // linalg/detail/ beside linalg/cuda/ and linalg/opencl/, included by linalg/*.hpp: the frontend's.
      continue;
    } else if (shared_name(name)) {
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
    } else if (!selecting_macro_.count(folder) && !vouched_.count(folder)) {
      why += ", no vendor header found in its files";
    }
    if (auto v = vouched_.find(folder); v != vouched_.end()) why += ", " + v->second;
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

// A backend(s)/ folder whose files are the backends (a header-only library's backend/cuda.hpp, eigen.hpp,
// vexcl.hpp, each a policy class the algorithms are instantiated with): two files or more named after a
// known library or a processor, or after the folder of the vendor headers they include outside #if blocks
// (vexcl.hpp includes <vexcl/vector.hpp>), by the first word of their name. The files sharing that word are
// that backend's (vexcl_static_matrix.hpp); the rest stay the frontend's (the default backend the others
// build on, the interface they implement), and so do its subfolders (detail/).
bool Discoverer::group_files(const std::string& parent, bool apply) {
  std::map<std::string, std::vector<const ScannedFile*>> by_word;  // first word of the stem -> its files
  for (const ScannedFile& f : files_) {
    if (f.dir != parent) continue;
    const auto w = words(fs::path(f.rel).stem().string());
    if (!w.empty()) by_word[w.front()].push_back(&f);
  }
  std::map<std::string, std::string> evidence;  // word -> why it names a backend
  for (const auto& [word, members] : by_word) {
    if (const KnownLibrary* l = named_library(word)) {
      evidence[word] = "named after " + l->name;
    } else if (names_a_processor(word)) {
      evidence[word] = "named after a processor";
    } else {
      for (const ScannedFile* f : members) {
        for (const auto& [name, conditional] : f->includes) {
          if (conditional || name.rfind(word + "/", 0) != 0 ||
              !resolve_include(*f, name).empty())  // the project's own folder of that name
            continue;
          evidence[word] = "includes <" + name + ">, a library named like it";
          break;
        }
        if (evidence.count(word)) break;
      }
    }
  }
  if (evidence.size() < 2 || !apply) return evidence.size() >= 2;
  // Beside backend folders found elsewhere (ViennaCL's linalg/cuda/, linalg/opencl/), the files are those
  // backends' (its memory backends backend/cuda.hpp, backend/opencl.hpp), and a file that names none of them
  // (backend/cpu_ram.hpp) makes no backend of its own.
  std::vector<std::string> folder_backends;
  for (const auto& [id, folders] : backend_folders_) {
    if (!folders.empty()) folder_backends.push_back(id);
  }
  for (const auto& [word, why] : evidence) {
    const std::vector<const ScannedFile*>& members = by_word.at(word);
    std::string id = word;
    std::replace(id.begin(), id.end(), '-', '_');
    if (!folder_backends.empty()) {
      const KnownLibrary* l = named_library(word);
      const auto joined =
          std::find_if(folder_backends.begin(), folder_backends.end(),
                       [&](const std::string& b) { return b == id || (l && named_library(b) == l); });
      if (joined == folder_backends.end()) continue;
      id = *joined;
    }
    ProposedBackend* b = backend(id);
    std::vector<std::string> listed;
    for (const ScannedFile* f : members) {
      b->paths.push_back(f->rel);
      file_backends_[f->rel] = {id};
      listed.push_back(f->rel);
    }
    b->files += members.size();
    b->why += (b->why.empty() ? "" : "; ") + join_why(listed, 3) + ": " + why + ", one of " +
              std::to_string(evidence.size()) + " backends of " + parent + "/ by their file";
    if (!folder_backends.empty()) continue;
    backend_folders_[id];  // a backend of files only has no folder of its own
    policy_backends_.insert(id);
  }
  return true;
}

// The siblings of a group of backends that are backends too though named after nothing known: a folder whose
// files include a library a backend beside it uses (OpenMPTarget/ includes <omp.h>, which OpenMP/ is named
// after), and a folder named by a member of a family of per-backend files beside it (decl/xs_decl_SERIAL.hpp
// beside decl/xs_decl_CUDA.hpp and decl/xs_decl_HPX.hpp names Serial/). Adds them to `hinted`, with their
// evidence in `vouched_`.
void Discoverer::vouch_for_siblings(const std::string& parent, const std::vector<std::string>& children,
                                    std::vector<std::string>& hinted) {
  auto is_hinted = [&](const std::string& c) {
    return std::find(hinted.begin(), hinted.end(), c) != hinted.end();
  };
  // The library each named folder is a backend of: the one it is named after, or that its files include most.
  std::map<const KnownLibrary*, std::string> owned;
  for (const auto& h : hinted) {
    if (const KnownLibrary* l = named_library(name_of(h))) owned.emplace(l, h);
    if (const KnownLibrary* l = top_library(folders_[h])) owned.emplace(l, h);
  }
  // The words that name a backend in a file's name: a named folder's, cpu and gpu (src/ops/scale_gpu.cpp is
  // one backend's file in a folder of ops, lint/init/discover_files.cpp).
  std::set<std::string> backend_words = {"cpu", "gpu"};
  for (const auto& h : hinted) {
    for (const auto& w : words(name_of(h))) backend_words.insert(w);
  }
  std::vector<std::string> found;
  for (const auto& c : children) {
    if (is_hinted(c) || shared_name(name_of(c))) continue;
    // Its files mirror those of two named folders: the same code for another device (host_based/ with the
    // vector_operations.hpp and matrix_operations.hpp of cuda/ and opencl/).
    std::vector<std::string> mirrored, mirrored_folders;
    for (const auto& h : hinted) {
      if (mirrored_files(c, h) < kMirrored) continue;
      mirrored.push_back(name_of(h) + "/");
      mirrored_folders.push_back(h);
    }
    // Unless the backends build on it: the frontend that declares what each backend implements under the
    // same file names (Ginkgo's core/matrix/dense_kernels.hpp, which cuda/ and omp/ include).
    if (mirrored.size() >= 2 && !built_on(c, mirrored_folders)) {
      vouched_[c] = "its files mirror those of " + join_why(mirrored, 3) + " (" + std::to_string(kMirrored) +
                    " or more of the same name)";
      found.push_back(c);
      continue;
    }
    // Its files that include a library a named folder is a backend of (outside #if blocks), each library's
    // count, and none named after a backend.
    std::map<const KnownLibrary*, std::size_t> including;
    std::size_t files = 0;
    for (const auto& f : files_) {
      if (!under(f.dir, c)) continue;
      ++files;
      const auto w = words(fs::path(f.rel).stem().string());
      if (std::any_of(w.begin(), w.end(), [&](const std::string& x) { return backend_words.count(x) > 0; }))
        continue;
      for (const auto& [l, header] : f.libraries) {
        if (owned.count(l) && !f.conditional.count(l)) ++including[l];
      }
    }
    const auto top = std::max_element(including.begin(), including.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
    if (top == including.end()) continue;
    // Most of a backend's files reach the library through its own headers: a quarter including it is a
    // folder written in it, one file among many is a frontend helper.
    const auto [l, n] = *top;
    if (n < 2 || n * 4 < files) continue;
    vouched_[c] = "beside " + owned.at(l) + "/, which is a backend of " + l->name + " too";
    found.push_back(c);
  }
  // The family: files of the parent or a sibling folder whose names differ in one word, a backend's name.
  // (folder, words before, words after) -> the words that vary, and a file of each.
  std::map<std::string, std::string> name_words;  // "openmptarget" -> core/src/OpenMPTarget
  for (const auto& c : children) {
    std::string joined;
    for (const auto& w : words(name_of(c))) joined += w;
    name_words.emplace(joined, c);
  }
  std::map<std::tuple<std::string, std::string, std::string>, std::map<std::string, std::string>> families;
  for (const auto& f : files_) {
    if (f.dir != parent && !(parent_of(f.dir) == parent && !is_hinted(f.dir))) continue;
    const auto w = words(fs::path(f.rel).stem().string());
    for (std::size_t i = 0; i < w.size() && w.size() >= 2; ++i) {
      if (!name_words.count(w[i])) continue;
      std::string before, after;
      for (std::size_t k = 0; k < i; ++k) before += w[k] + "/";
      for (std::size_t k = i + 1; k < w.size(); ++k) after += w[k] + "/";
      families[{f.dir, before, after}].emplace(w[i], f.rel);
    }
  }
  for (const auto& [key, members] : families) {
    std::vector<std::string> known;
    for (const auto& [word, file] : members) {
      if (is_hinted(name_words.at(word))) known.push_back(name_of(file));
    }
    if (known.size() < 2) continue;
    for (const auto& [word, file] : members) {
      const std::string& c = name_words.at(word);
      // A file named after its own folder names no sibling (accessor/accessor_helper.hpp beside
      // accessor/cuda_helper.hpp).
      if (is_hinted(c) || shared_name(name_of(c)) || vouched_.count(c) || in_any(c, tests_) ||
          in_any(c, glue_) || under(file, c))
        continue;
      vouched_[c] = "named by " + file + ", one of a family of per-backend files with " + join_why(known, 3);
      found.push_back(c);
    }
  }
  hinted.insert(hinted.end(), found.begin(), found.end());
}

// How many files of `a` have a namesake in `b`, the folders' own names taken out of the file names
// (Serial/Kokkos_Serial_Task.hpp and OpenMP/Kokkos_OpenMP_Task.hpp are both Kokkos__Task.hpp).
std::size_t Discoverer::mirrored_files(const std::string& a, const std::string& b) const {
  auto stems = [&](const std::string& folder) {
    const std::string own = ascii_lower(name_of(folder));
    std::set<std::string> out;
    for (const ScannedFile& f : files_) {
      if (!under(f.dir, folder)) continue;
      std::string stem = ascii_lower(f.rel.substr(folder.size() + 1));
      stem = stem.substr(0, stem.rfind('.'));
      for (std::size_t at; !own.empty() && (at = stem.find(own)) != std::string::npos;)
        stem.erase(at, own.size());
      out.insert(stem);
    }
    return out;
  };
  const auto sa = stems(a), sb = stems(b);
  return static_cast<std::size_t>(
      std::count_if(sa.begin(), sa.end(), [&](const std::string& x) { return sb.count(x) != 0; }));
}

// Whether a quarter or more of the files of `backends` include a file of `folder` (an include as spelled that
// ends with the file's path from the root): the folder is what they build on, not one of them.
bool Discoverer::built_on(const std::string& folder, const std::vector<std::string>& backends) const {
  std::vector<std::string> own;
  for (const ScannedFile& f : files_) {
    if (under(f.dir, folder)) own.push_back(f.rel);
  }
  auto names_own = [&](const std::string& spelled) {
    return std::any_of(own.begin(), own.end(), [&](const std::string& rel) {
      return rel == spelled || (rel.size() > spelled.size() && rel.ends_with("/" + spelled));
    });
  };
  std::size_t files = 0, including = 0;
  for (const ScannedFile& f : files_) {
    if (std::none_of(backends.begin(), backends.end(), [&](const std::string& b) { return under(f.dir, b); }))
      continue;
    ++files;
    if (std::any_of(f.includes.begin(), f.includes.end(),
                    [&](const auto& inc) { return names_own(inc.first); }))
      ++including;
  }
  return files > 0 && including * 4 >= files;
}

// Whether the files directly in a folder's parent include it: a detail/ folder that serves the code beside
// it, not the backends beside it.
bool Discoverer::serves_parent(const std::string& folder) const {
  const std::string parent = parent_of(folder), own = name_of(folder);
  const std::string spelled = (parent.empty() ? "" : name_of(parent) + "/") + own + "/";
  for (const ScannedFile& f : files_) {
    if (f.dir != parent || std::find(glue_files_.begin(), glue_files_.end(), f.rel) != glue_files_.end())
      continue;
    for (const auto& [name, conditional] : f.includes) {
      if (name.rfind(own + "/", 0) == 0 || name.rfind(spelled, 0) == 0 ||
          name.find("/" + spelled) != std::string::npos)
        return true;
    }
  }
  return false;
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
  ProposedBackend added;
  added.name = id;
  out_.backends.push_back(std::move(added));
  return &out_.backends.back();
}

// A backend that extends another: classes of its files derive from classes that only the other's files
// declare (a CPU platform built on the reference platform, its kernels on the reference kernels). It may use
// that backend's files (`uses`): EL103 would otherwise report the design itself, once per use. Two such
// classes are the evidence; one could be a slip.
void Discoverer::find_extended_backends() {
  std::map<std::string, std::set<std::string>> declared;  // class name -> the backends declaring it
  // A backend's tests are no part of its design: their fixtures reuse the names of the classes they test.
  for (const auto& f : files_) {
    const std::string id = backend_of(f);
    if (id.empty() || in_any(f.dir, tests_)) continue;
    const auto t = tokens(f.rel);
    for (std::size_t k = 0; k < t.size(); ++k) {
      if (const std::size_t j = class_name_at(t, k); j && j + 1 < t.size() && t[j + 1].text != ";")
        declared[std::string(t[j].text)].insert(id);
    }
  }
  // backend -> extended backend -> "Derived : Base" examples
  std::map<std::string, std::map<std::string, std::vector<std::string>>> extends;
  for (const auto& f : files_) {
    const std::string id = backend_of(f);
    if (id.empty() || in_any(f.dir, tests_)) continue;
    const auto t = tokens(f.rel);
    for (std::size_t k = 0; k < t.size(); ++k) {
      std::string name;
      const std::string base = first_base(t, k, name);
      auto it = declared.find(base);
      if (base.empty() || it == declared.end() || it->second.count(id) || it->second.size() != 1) continue;
      extends[id][*it->second.begin()].push_back(name + " : " + base + " (" + f.rel + ")");
    }
  }
  for (auto& [id, bases] : extends) {
    ProposedBackend* b = backend(id);
    if (!b) continue;
    std::vector<std::string> why;
    for (auto& [other, examples] : bases) {
      std::sort(examples.begin(), examples.end());
      examples.erase(std::unique(examples.begin(), examples.end()), examples.end());
      if (examples.size() < 2) continue;
      b->uses.push_back(other);
      why.push_back(other + " (" + plural(examples.size(), "class") +
                    " derive from its classes: " + join_why(examples, 3) + ")");
    }
    if (!why.empty()) b->uses_why = "it extends " + join_why(why, 4) + " and may use it (uses)";
  }
}

// A backend folder the build compiles into the frontend's own library (each of its sources writes its object
// into a target that frontend sources write theirs into: a reference platform built into the core library,
// whose constants and random numbers the frontend calls), while another backend's folder is a library of its
// own, is part of the frontend's library: the headers of it that code outside it includes outside #if (the
// frontend, a shared folder, the backends that link that library; tests and glue are no evidence) are every
// layer's (`public`), with what they declare. A build that compiles every backend into one library shows no
// such difference, and a folder several backends list is a backend's alone.
void Discoverer::find_built_in_folders() {
  std::map<std::string, const ScannedFile*> by_rel;
  for (const ScannedFile& f : files_) by_rel.emplace(f.rel, &f);
  std::vector<std::pair<std::string, std::string>> sources;  // compiled file, its target
  std::set<std::string> frontend_targets;
  for (const CompileCommand& c : commands_) {
    const std::string rel = relative_to(c.file, root_), target = object_target(c.output);
    if (rel.empty() || rel.rfind("../", 0) == 0) continue;
    sources.emplace_back(rel, target);
    auto it = by_rel.find(rel);
    if (!target.empty() && it != by_rel.end() && frontend_file(*it->second)) frontend_targets.insert(target);
  }
  if (frontend_targets.empty()) return;
  std::map<std::string, std::size_t> listed;  // folder -> the backends listing it
  for (const auto& [id, folders] : backend_folders_) {
    for (const std::string& d : folders) ++listed[d];
  }
  struct Built {
    std::string id, folder;
    std::set<std::string> targets;  // the frontend's targets it is compiled into
    std::size_t sources = 0;
  };
  std::vector<Built> built_in;
  std::set<std::string> separate;  // backends with a folder compiled into targets of its own only
  for (const auto& [id, folders] : backend_folders_) {
    for (const std::string& folder : folders) {
      if (listed[folder] != 1) continue;
      Built b{id, folder, {}, 0};
      std::size_t own = 0;
      for (const auto& [rel, target] : sources) {
        if (!under(rel, folder) || in_any(parent_of(rel), tests_)) continue;
        ++b.sources;
        if (frontend_targets.count(target)) {
          b.targets.insert(name_of(target).substr(0, name_of(target).rfind('.')));
        } else if (!target.empty()) {
          ++own;
        }
      }
      if (b.sources && own == b.sources) separate.insert(id);
      if (b.sources && b.targets.size() && !own) built_in.push_back(std::move(b));
    }
  }
  std::map<std::string, std::vector<std::string>> why;  // backend -> its built-in folders in words
  for (const Built& f : built_in) {
    if (separate.empty() || (separate.size() == 1 && separate.count(f.id))) continue;
    ProposedBackend* b = backend(f.id);
    if (!b) continue;
    std::set<std::string> included;
    for (const ScannedFile& g : files_) {
      if (under(g.dir, f.folder) || in_any(g.dir, tests_) || in_any(g.dir, glue_) || excluded(g.dir))
        continue;
      // Its own other folders, and a backend that extends it (`uses`), may include all of it anyway.
      const std::string by = backend_of(g);
      auto user = std::find_if(out_.backends.begin(), out_.backends.end(),
                               [&](const ProposedBackend& p) { return !by.empty() && p.name == by; });
      if (by == f.id || (user != out_.backends.end() &&
                         std::find(user->uses.begin(), user->uses.end(), f.id) != user->uses.end()))
        continue;
      for (const auto& [name, conditional] : g.includes) {
        if (conditional) continue;
        const std::string h = resolve_include(g, name);
        auto it = by_rel.find(h);
        if (!h.empty() && under(h, f.folder) && it != by_rel.end() && it->second->header) included.insert(h);
      }
    }
    if (included.empty()) continue;
    std::vector<std::string> t(f.targets.begin(), f.targets.end()), mine(included.begin(), included.end());
    why[f.id].push_back(f.folder + "/ is compiled into the frontend's " + join_why(t, 2) + " (" +
                        plural(f.sources, "source") + "); the code outside it includes " + join_why(mine, 4));
    for (const std::string& h : mine) {
      if (std::find(b->public_headers.begin(), b->public_headers.end(), h) == b->public_headers.end())
        b->public_headers.push_back(h);
    }
  }
  for (const auto& [id, folders] : why)
    backend(id)->why +=
        "; public: " + join_why(folders, 3) +
        " (a part of the frontend's library, where other backends are libraries of their own)";
}

}  // namespace emberlint::discovery
