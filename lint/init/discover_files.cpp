// `emberlint init`'s discovery, the files that name their backend outside the backend folders: a folder of
// per-device implementations chosen by the file's suffix (src/ops/softmax_cpu.cc beside softmax_gpu.cu), a
// program built once per backend that wires the selected one into the frontend (a main() that includes
// several backends' headers, each build one of them), and a backend's own tests (test/test_fftw.cpp).
#include <algorithm>
#include <functional>
#include <optional>

#include "lint/init/discoverer.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::discovery {

namespace fs = std::filesystem;

namespace {

// "softmax_cpu.cc" -> stem "softmax", separator '_', suffix "cpu", extension "cc".
struct SuffixName {
  std::string stem, suffix, ext;
  char separator = '_';
};
std::optional<SuffixName> split_suffix(const std::string& file) {
  const std::size_t dot = file.rfind('.');
  if (dot == std::string::npos || dot == 0) return std::nullopt;
  const std::string base = file.substr(0, dot);
  const std::size_t cut = base.find_last_of("_-");
  if (cut == std::string::npos || cut == 0 || cut + 1 == base.size()) return std::nullopt;
  return SuffixName{base.substr(0, cut), ascii_lower(base.substr(cut + 1)), file.substr(dot + 1), base[cut]};
}

// The known library a word names ("cuda", "neon", "avx2"), or null.
const KnownLibrary* library_word(const std::string& word) {
  for (const KnownLibrary& l : known_libraries()) {
    if (std::find(l.folder_words.begin(), l.folder_words.end(), word) != l.folder_words.end()) return &l;
  }
  return nullptr;
}

}  // namespace

bool names_backend(const std::vector<std::string>& w, const std::string& id) {
  const std::vector<std::string> idw = words(id);
  return !idw.empty() && std::search(w.begin(), w.end(), idw.begin(), idw.end()) != w.end();
}

// A folder of the frontend where several stems each come in per-device files named by a suffix
// (softmax.cc, softmax_cpu.cc, softmax_gpu.cu; topk_cpu.cc, topk_gpu.cu): each suffix that names a backend
// found already, a known library or architecture (cuda, opencl, metal, neon, avx2) or a processor (cpu, gpu)
// is that backend's, and its files there are the backend's. A gpu suffix goes to the GPU backends (each of
// them lists it) or, with none, is a backend of its own; a library's word joins the backend whose folder is
// named after that library. A lone stem with suffixes (timer_cpu.hpp, timer_cuda.hpp) is no such folder, nor
// a family of headers only (a backend's public headers include/x-cuda.h, include/x-metal.h).
void Discoverer::find_suffix_backends() {
  // The backend(s) a suffix word means, or none.
  auto backends_for = [&](const std::string& w) -> std::vector<std::string> {
    if (backend_folders_.count(w)) return {w};
    if (w == "gpu") {
      std::vector<std::string> gpus;
      for (const auto& [id, folders] : backend_folders_) {
        if (gpu_backend(id)) gpus.push_back(id);
      }
      return gpus.empty() ? std::vector<std::string>{w} : gpus;
    }
    const KnownLibrary* l = library_word(w);
    if (!l && w != "cpu") return {};
    for (const auto& [id, folders] : backend_folders_) {
      for (const auto& f : folders) {
        const auto fw = words(name_of(f));
        if (l &&
            std::any_of(fw.begin(), fw.end(), [&](const std::string& x) { return library_word(x) == l; }))
          return {id};
      }
    }
    if (l && backend_folders_.count(l->backend)) return {l->backend};
    return {l ? l->backend : w};
  };
  // folder -> suffix -> the stems of its sources with that suffix; stem -> suffixes.
  std::map<std::string, std::map<std::string, std::set<std::string>>> by_suffix;
  std::map<std::string, std::map<std::string, std::set<std::string>>> by_stem;
  std::set<std::string> suffix_folders;  // the folders where suffixes chose backends
  for (const ScannedFile& f : files_) {
    if (f.header || !frontend_file(f)) continue;
    const auto s = split_suffix(name_of(f.rel));
    if (!s || backends_for(s->suffix).empty()) continue;
    by_suffix[f.dir][s->suffix].insert(s->stem);
    by_stem[f.dir][s->stem].insert(s->suffix);
  }
  for (const auto& [folder, suffixes] : by_suffix) {
    // The suffixes that at least two stems of the folder carry, and the stems that come in two or more of
    // them.
    std::set<std::string> family;
    for (const auto& [suffix, stems] : suffixes) {
      if (stems.size() >= 2) family.insert(suffix);
    }
    std::size_t per_device = 0;
    for (const auto& [stem, its] : by_stem[folder]) {
      if (std::count_if(its.begin(), its.end(), [&](const std::string& x) { return family.count(x); }) >= 2)
        ++per_device;
    }
    if (family.size() < 2 || per_device < 2) continue;
    for (const std::string& suffix : family) {
      // The files with the suffix there, headers too, and their extensions: "src/ops/*_gpu.{cu,cuh}".
      std::set<std::string> exts;
      std::set<char> separators;
      std::vector<const ScannedFile*> members;
      for (const ScannedFile& f : files_) {
        if (f.dir != folder || !frontend_file(f)) continue;
        const auto s = split_suffix(name_of(f.rel));
        if (!s || s->suffix != suffix) continue;
        exts.insert(s->ext);
        separators.insert(s->separator);
        members.push_back(&f);
      }
      std::sort(members.begin(), members.end(),
                [](const ScannedFile* a, const ScannedFile* b) { return a->rel < b->rel; });
      std::string ext_glob;
      for (const auto& e : exts) ext_glob += (ext_glob.empty() ? "" : ",") + e;
      if (exts.size() > 1) ext_glob = "{" + ext_glob + "}";
      const std::string spelled =
          members.empty() ? suffix : split_suffix(name_of(members.front()->rel))->suffix;
      const std::vector<std::string> owners = backends_for(suffix);
      std::string others;
      for (const std::string& x : family) {
        if (x != suffix) others += (others.empty() ? "_" : ", _") + x;
      }
      for (char sep : separators) {
        const std::string glob = (folder.empty() ? "" : folder + "/") + "*" + sep + spelled + "." + ext_glob;
        for (const std::string& id : owners) {
          ProposedBackend* b = backend(id);
          b->paths.push_back(glob);
          b->files += std::count_if(members.begin(), members.end(), [&](const ScannedFile* m) {
            return split_suffix(name_of(m->rel))->separator == sep;
          });
          b->why += (b->why.empty() ? "" : "; ") + folder +
                    "/: " + plural(suffixes.at(suffix).size(), "stem") + " with a " + sep + spelled +
                    " file (" + name_of(members.front()->rel) + ") beside " + others +
                    ": each device's implementation chosen by the file's suffix" +
                    (owners.size() > 1 ? ", shared by the GPU backends" : "");
          backend_folders_[id];  // a backend of suffixed files only has no folder of its own
        }
      }
      for (const ScannedFile* m : members) file_backends_[m->rel] = owners;
      suffix_folders.insert(folder);
    }
  }
  find_dispatched_headers(backends_for, suffix_folders);
  find_suffix_headers(suffix_folders);
}

// A header-only library's ops (kernels/conv_op.h) that include their own per-device headers
// (conv_op_simd.h, conv_op_ref.h, conv_op_clblast.h) and pick one at run time. A header of the frontend that
// includes two or more of its folder's headers named after its own stem plus a suffix is a dispatcher; in a
// folder with two dispatchers or more, a suffix is a backend when it names one (a known library, an
// architecture or a processor: the owners `backends_for` gives) or, not naming one, when it sits beside such
// a suffix under two dispatchers or more (a reference implementation called "ref" or "internal"). Suffixes
// that never sit beside a known one (conv_impl.h, conv_utils.h) are no backends. The dispatchers are glue:
// each wires every backend into the frontend. The suffix may hold separators (conv_op_vendor_mkl.h).
void Discoverer::find_dispatched_headers(
    const std::function<std::vector<std::string>(const std::string&)>& backends_for,
    std::set<std::string>& suffix_folders) {
  // folder -> dispatcher -> the suffixes of the headers it includes; and suffix -> its files there.
  std::map<std::string, std::map<std::string, std::set<std::string>>> dispatchers;
  std::map<std::string, std::map<std::string, std::vector<std::string>>> suffixed;
  for (const ScannedFile& f : files_) {
    if (!f.header || !frontend_file(f)) continue;
    const std::string stem = fs::path(name_of(f.rel)).stem().string();
    for (const auto& [name, conditional] : f.includes) {
      const std::string h = resolve_include(f, name);
      if (h.empty() || h == f.rel || parent_of(h) != f.dir) continue;
      const std::string hs = fs::path(name_of(h)).stem().string();
      if (hs.size() <= stem.size() + 1 || hs.rfind(stem, 0) != 0 ||
          (hs[stem.size()] != '_' && hs[stem.size()] != '-'))
        continue;
      const std::string suffix = ascii_lower(hs.substr(stem.size() + 1));
      dispatchers[f.dir][f.rel].insert(suffix);
      auto& files = suffixed[f.dir][suffix];
      if (std::find(files.begin(), files.end(), h) == files.end()) files.push_back(h);
    }
  }
  // The owners of a suffix: the backends one of its words names ("vendor_mkl": mkl), or none.
  auto owners_of = [&](const std::string& suffix) -> std::vector<std::string> {
    if (auto o = backends_for(suffix); !o.empty()) return o;
    for (const std::string& w : words(suffix)) {
      if (auto o = backends_for(w); !o.empty()) return o;
    }
    return {};
  };
  for (auto& [folder, by_dispatcher] : dispatchers) {
    std::erase_if(by_dispatcher, [](const auto& d) { return d.second.size() < 2; });
    if (by_dispatcher.size() < 2) continue;
    std::map<std::string, std::vector<std::string>> owners;  // suffix -> its backends
    std::map<std::string, std::size_t> beside_known;         // unnamed suffix -> dispatchers with a named one
    for (const auto& [d, suffixes] : by_dispatcher) {
      const bool has_known =
          std::any_of(suffixes.begin(), suffixes.end(), [&](const auto& x) { return !owners_of(x).empty(); });
      for (const std::string& x : suffixes) {
        if (auto o = owners_of(x); !o.empty())
          owners[x] = o;
        else if (has_known)
          ++beside_known[x];
      }
    }
    for (const auto& [x, n] : beside_known) {
      if (n >= 2) owners[x] = {x};
    }
    if (owners.size() < 2) continue;
    // An op's header for a device its op header does not include (conv_op_opencl.h, which the layer
    // includes itself) is that device's too when its suffix names a known library.
    std::set<std::string> stems;
    for (const ScannedFile& f : files_) {
      if (f.dir == folder && f.header) stems.insert(fs::path(name_of(f.rel)).stem().string());
    }
    for (const ScannedFile& f : files_) {
      if (f.dir != folder || !f.header || !frontend_file(f) || file_backends_.count(f.rel)) continue;
      const std::string hs = fs::path(name_of(f.rel)).stem().string();
      for (std::size_t cut = hs.find_first_of("_-"); cut != std::string::npos;
           cut = hs.find_first_of("_-", cut + 1)) {
        const std::string x = ascii_lower(hs.substr(cut + 1));
        if (!stems.count(hs.substr(0, cut)) || x.empty()) continue;
        auto o = owners.count(x) ? owners[x] : owners_of(x);
        if (o.empty()) continue;
        owners[x] = o;
        auto& files = suffixed[folder][x];
        if (std::find(files.begin(), files.end(), f.rel) == files.end()) files.push_back(f.rel);
        break;
      }
    }
    for (const auto& [x, ids] : owners) {
      std::vector<std::string>& files = suffixed[folder][x];
      std::sort(files.begin(), files.end());
      std::set<std::string> exts;
      for (const auto& h : files) exts.insert(fs::path(h).extension().string().substr(1));
      std::string ext_glob;
      for (const auto& e : exts) ext_glob += (ext_glob.empty() ? "" : ",") + e;
      if (exts.size() > 1) ext_glob = "{" + ext_glob + "}";
      const std::string spelled = fs::path(name_of(files.front())).stem().string();
      const char sep = spelled[spelled.size() - x.size() - 1];
      const std::string glob = (folder.empty() ? "" : folder + "/") + "*" + sep +
                               spelled.substr(spelled.size() - x.size()) + "." + ext_glob;
      for (const std::string& id : ids) {
        ProposedBackend* b = backend(id);
        b->paths.push_back(glob);
        b->files += files.size();
        b->why += (b->why.empty() ? "" : "; ") + folder + "/: " + plural(files.size(), "header") + " " +
                  glob + " that the ops' headers include beside other devices' (" + name_of(files.front()) +
                  "): each device's implementation chosen by the file's suffix";
        backend_folders_[id];
      }
      for (const auto& h : files) file_backends_[h] = ids;
    }
    // The folder's other headers that include a device's header are ops' headers too (a gradient's,
    // conv_grad_op.hpp including conv_op_ref.hpp; an op with one device so far): glue as well.
    std::vector<std::string> glue;
    for (const ScannedFile& f : files_) {
      if (f.dir != folder || !f.header || file_backends_.count(f.rel) || !frontend_file(f)) continue;
      if (std::any_of(f.includes.begin(), f.includes.end(), [&](const auto& inc) {
            return file_backends_.count(resolve_include(f, inc.first)) > 0;
          }))
        glue.push_back(f.rel);
    }
    std::sort(glue.begin(), glue.end());
    for (const auto& d : glue) out_.glue.push_back(d);
    out_.glue_why += (out_.glue_why.empty() ? "" : "; ") + join_why(glue) +
                     " (an op's header that includes its devices' headers and picks one at run time)";
    suffix_folders.insert(folder);
  }
}

// A header of the frontend in a folder of per-device files or below it (src/ops/scale/launch.cuh) that only
// one backend's files include (scale_gpu.cu and fill_gpu.cu) is that backend's too, as are the headers only
// it includes in turn. One that files of two backends, or the frontend's, include stays the frontend's.
void Discoverer::find_suffix_headers(const std::set<std::string>& folders) {
  auto in_folders = [&](const std::string& rel) {
    return std::any_of(folders.begin(), folders.end(),
                       [&](const std::string& d) { return d.empty() || rel.rfind(d + "/", 0) == 0; });
  };
  for (bool changed = true; changed;) {
    changed = false;
    // header -> the owners of each file that includes it (empty: a file of no backend)
    std::map<std::string, std::set<std::vector<std::string>>> includers;
    for (const ScannedFile& f : files_) {
      std::vector<std::string> owners;
      if (auto it = file_backends_.find(f.rel); it != file_backends_.end())
        owners = it->second;
      else if (std::string id = backend_of(f); !id.empty())
        owners = {id};
      for (const auto& [name, conditional] : f.includes) {
        const std::string h = resolve_include(f, name);
        if (!h.empty() && h != f.rel && in_folders(h)) includers[h].insert(owners);
      }
    }
    for (const ScannedFile& f : files_) {
      auto it = includers.find(f.rel);
      if (!f.header || it == includers.end() || it->second.size() != 1 || it->second.begin()->empty() ||
          !frontend_file(f))
        continue;
      const std::vector<std::string>& owners = *it->second.begin();
      file_backends_[f.rel] = owners;
      for (const std::string& id : owners) {
        ProposedBackend* b = backend(id);
        b->paths.push_back(f.rel);
        ++b->files;
        b->why += "; " + f.rel + " (included by its files only)";
      }
      changed = true;
    }
  }
}

// A file of the frontend's folders named after a backend, or after a library only one backend is named
// after, that includes that library outside #if blocks: the backend's code kept beside the generic code it
// specializes (AMGCL's relaxation/cusparse_ilu0.hpp beside relaxation/ilu0.hpp, solver/eigen.hpp), that
// backend's file. A file named so that does not include the library (accessor/eigen_traits.hpp, declarations
// only) stays the frontend's.
void Discoverer::find_named_files() {
  for (const ScannedFile& f : files_) {
    if (!frontend_file(f)) continue;
    const auto w = words(fs::path(f.rel).stem().string());
    if (w.empty()) continue;
    std::string id;
    const KnownLibrary* l = nullptr;
    if (backend_folders_.count(w.front())) {
      id = w.front();
      l = named_library(id);
    } else if ((l = library_word(w.front()))) {
      for (const auto& [backend, folders] : backend_folders_) {
        if (named_library(backend) == l) id = backend;
      }
    }
    if (id.empty() || !l || !f.libraries.count(l) || f.conditional.count(l)) continue;
    file_backends_[f.rel] = {id};
    ProposedBackend* b = backend(id);
    b->paths.push_back(f.rel);
    ++b->files;
    b->why += "; " + f.rel + " (named after " + (w.front() == id ? "it" : l->name) + ", includes <" +
              f.libraries.at(l) + ">)";
  }
}

// The project file an #include of `f` names: found beside it, above it, in include/ or src/, or on a compile
// command's -I; empty when none is.
std::string Discoverer::resolve_include(const ScannedFile& f, const std::string& name) const {
  if (include_bases_all_.empty()) {
    std::set<fs::path> seen;
    for (const char* base : {"include", "src"}) {
      include_bases_all_.push_back(root_ / base);
      seen.insert(root_ / base);
    }
    for (const CompileCommand& c : commands_) {
      for (const fs::path& p : include_paths(c).angle) {
        const fs::path n = p.lexically_normal();
        if (is_under(n, root_) && seen.insert(n).second) include_bases_all_.push_back(n);
      }
    }
  }
  std::error_code ec;
  auto found = [&](const fs::path& b) {
    return fs::is_regular_file(b / name, ec)
               ? (b / name).lexically_normal().lexically_relative(root_).generic_string()
               : std::string();
  };
  for (std::string d = f.dir;; d = parent_of(d)) {
    if (std::string rel = found(root_ / d); !rel.empty()) return rel;
    if (d.empty()) break;
  }
  for (const fs::path& b : include_bases_all_) {
    if (std::string rel = found(b); !rel.empty()) return rel;
  }
  return {};
}

// The backends whose headers a file includes: their folders' and suffixed files' headers (resolve_include),
// and the libraries only backends use.
std::set<std::string> Discoverer::included_backends(const ScannedFile& f) const {
  std::set<std::string> out;
  for (const auto& [name, conditional] : f.includes) {
    const std::string found = resolve_include(f, name);
    if (!found.empty()) {
      for (const ScannedFile& g : files_) {
        if (g.rel != found) continue;
        if (std::string id = backend_of(g); !id.empty()) out.insert(id);
      }
      continue;
    }
    const KnownLibrary* l = library_of_include(name);
    for (const ProposedLibrary& p : out_.libraries) {
      if (p.library == l && p.backends.size() == 1) out.insert(p.backends.front());
    }
  }
  return out;
}

// A program outside the backends (it defines main) that includes the headers of two backends or more, one
// per build as a macro selects (gearshifft's benchmark.cpp, built once per FFT library) or all of them, wires
// a backend into the frontend: glue, not frontend.
void Discoverer::find_backend_programs() {
  std::vector<std::string> why;
  for (const ScannedFile& f : files_) {
    if (f.header || !frontend_file(f)) continue;
    const auto heads = function_heads(tokens(f.rel));
    if (std::none_of(heads.begin(), heads.end(), [](const auto& h) { return h.second == "main"; })) continue;
    const std::set<std::string> backends = included_backends(f);
    if (backends.size() < 2) continue;
    std::string names;
    for (const auto& b : backends) names += (names.empty() ? "" : ", ") + b;
    out_.glue.push_back(f.rel);
    why.push_back(f.rel + " (main() includes the headers of " + names + ")");
  }
  if (!why.empty())
    out_.glue_why += (out_.glue_why.empty() ? "" : "; ") + join_why(why) +
                     ": a program per backend, which wires the one its build selects into the frontend";
}

// A test file named after one backend (test/test_fftw.cpp, tests/cuda_streams_test.cpp) is that backend's
// own test: it may reach into it. One named after two (a comparison of backends) is no one's.
void Discoverer::find_backend_tests() {
  for (const ScannedFile& f : files_) {
    if (f.header || !in_any(f.dir, tests_) || excluded(f.dir)) continue;
    const auto w = words(fs::path(f.rel).stem().string());
    ProposedBackend* only = nullptr;
    std::size_t named = 0;
    for (ProposedBackend& b : out_.backends) {
      if (names_backend(w, b.name)) only = &b, ++named;
    }
    if (named != 1) continue;
    only->tests.push_back(f.rel);
  }
  for (ProposedBackend& b : out_.backends) {
    if (!b.tests.empty()) b.why += "; tests: " + join_why(b.tests) + " (named after it)";
  }
}

}  // namespace emberlint::discovery
