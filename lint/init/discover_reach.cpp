// `emberlint init`'s discovery, the backend code the frontend's folders hold: a folder most of whose files
// include one backend's library or its own headers (every build of them, directly or through the folder's own
// headers) and none another backend's is that backend's (an OpenCL runtime's wrappers, a kernel generator
// built on them), and so is a file that does so in a folder whose files each serve one backend or another
// (memory/cuda.hpp beside memory/opencl.hpp).
#include <algorithm>
#include <functional>

#include "lint/init/discoverer.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::discovery {

namespace fs = std::filesystem;

// The backends that may use a library: those with a folder named after it, a backend(s)/ folder's policy
// header by its own name (amgcl/backend/eigen.hpp; not a family of per-device files: `_avx` files own no
// intrinsics the frontend's helpers also include), and those whose own files (their folders', their suffixed
// and named files) include it.
std::vector<std::string> Discoverer::library_owners(const KnownLibrary& l) const {
  std::vector<std::string> owners;
  for (const auto& [id, folders] : backend_folders_) {
    const bool used =
        (policy_backends_.count(id) && named_library(id) == &l) ||
        std::any_of(folders.begin(), folders.end(), [&](const std::string& f) {
          auto s = folders_.find(f);
          return named_library(name_of(f)) == &l || (s != folders_.end() && s->second.any_files.count(&l));
        });
    if (used) owners.push_back(id);
  }
  for (const auto& f : files_) {
    auto owner = file_backends_.find(f.rel);
    if (owner == file_backends_.end() || !f.libraries.count(&l)) continue;
    for (const std::string& id : owner->second) {
      if (std::find(owners.begin(), owners.end(), id) == owners.end()) owners.push_back(id);
    }
  }
  std::sort(owners.begin(), owners.end());
  return owners;
}

void Discoverer::find_backend_code_in_frontend() {
  if (backend_folders_.size() < 2) return;  // no other backend to tell it from
  // The library only one backend uses, and the backend.
  std::map<const KnownLibrary*, std::string> sole;
  for (const KnownLibrary& l : known_libraries()) {
    if (const auto owners = library_owners(l); owners.size() == 1) sole.emplace(&l, owners.front());
  }
  std::map<std::string, const ScannedFile*> by_rel;
  for (const ScannedFile& f : files_) by_rel.emplace(f.rel, &f);
  // The project's files each file includes, in every build.
  std::map<std::string, std::vector<const ScannedFile*>> reads;
  for (const ScannedFile& f : files_) {
    for (const auto& [name, conditional] : f.includes) {
      if (conditional) continue;
      if (auto g = by_rel.find(resolve_include(f, name)); g != by_rel.end() && g->second != &f)
        reads[f.rel].push_back(g->second);
    }
  }
  std::size_t frontend_files = 0;
  for (const ScannedFile& f : files_) frontend_files += frontend_file(f);
  // The backend whose library (its alone) every build of a file includes, itself or through files of that
  // backend's; empty when none. A backend's header that reaches no library of its own (a host backend's
  // helpers, which generic code includes in every build) makes no file that backend's.
  std::map<std::string, std::set<std::string>> library_memo;
  std::function<std::set<std::string>(const ScannedFile&, std::set<std::string>&)> library_of =
      [&](const ScannedFile& f, std::set<std::string>& open) {
        if (auto m = library_memo.find(f.rel); m != library_memo.end()) return m->second;
        std::set<std::string> out;
        for (const auto& [l, header] : f.libraries) {
          if (auto s = sole.find(l); s != sole.end() && !f.conditional.count(l)) out.insert(s->second);
        }
        if (!open.insert(f.rel).second) return out;  // an include cycle: the guard stops it
        const std::string own = backend_of(f);
        for (const ScannedFile* g : reads[f.rel]) {
          const std::string id = backend_of(*g);
          if (id.empty() || (!own.empty() && id != own)) continue;
          for (const std::string& x : library_of(*g, open)) {
            if (x == id) out.insert(x);
          }
        }
        open.erase(f.rel);
        return library_memo[f.rel] = out;
      };
  auto direct = [&](const ScannedFile& f) {
    std::set<std::string> open;
    return library_of(f, open);
  };

  // The folders this step gave a backend: folder -> backend; and the files of each and why.
  std::map<std::string, std::string> taken;
  std::map<std::string, std::pair<std::size_t, std::string>> taken_why;
  for (bool changed = true; changed;) {
    changed = false;
    library_memo.clear();
    // A folder of the frontend: not one that holds backends or tests, nor one with half the frontend. The
    // outermost first.
    std::vector<std::string> order;
    for (const auto& [folder, stats] : folders_) {
      auto holds = [&](const std::vector<std::string>& v) {
        return std::any_of(v.begin(), v.end(),
                           [&](const std::string& c) { return under(c, folder) && !taken.count(c); });
      };
      if (folder.empty() || in_any(folder, chosen_) || in_any(folder, tests_) || in_any(folder, glue_) ||
          excluded(folder) || holds(chosen_) || holds(tests_))
        continue;
      order.push_back(folder);
    }
    std::stable_sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) {
      return std::count(a.begin(), a.end(), '/') < std::count(b.begin(), b.end(), '/');
    });
    for (const std::string& folder : order) {
      if (in_any(folder, chosen_)) continue;
      std::vector<const ScannedFile*> own;
      std::map<std::string, std::size_t> reaching;  // backend -> files reaching it
      std::size_t files = 0;
      for (const ScannedFile& f : files_) {
        if (!under(f.dir, folder)) continue;
        // A folder below that this step gave a backend already reaches it.
        const auto t =
            std::find_if(taken.begin(), taken.end(), [&](const auto& x) { return under(f.dir, x.first); });
        if (t != taken.end()) ++reaching[t->second], ++files;
        if (t == taken.end() && frontend_file(f)) own.push_back(&f), ++files;
      }
      if (files < 2 || files * 2 > frontend_files) continue;
      std::sort(own.begin(), own.end(),
                [](const ScannedFile* x, const ScannedFile* y) { return x->rel < y->rel; });
      // What each reaches, by itself and through the headers of the folder it includes.
      std::map<std::string, std::set<std::string>> memo;
      std::set<std::string> open;
      std::function<std::set<std::string>(const ScannedFile&)> of = [&](const ScannedFile& f) {
        if (auto m = memo.find(f.rel); m != memo.end()) return m->second;
        std::set<std::string> out = direct(f);
        if (!open.insert(f.rel).second) return out;  // an include cycle: the guard stops it
        for (const ScannedFile* g : reads[f.rel]) {
          if (under(g->dir, folder) && frontend_file(*g)) out.merge(of(*g));
        }
        open.erase(f.rel);
        return memo[f.rel] = out;
      };
      bool mixed = false, itself = false;  // a file reaches two backends; one reaches a backend by itself
      for (const ScannedFile* f : own) {
        const auto r = of(*f);
        mixed = mixed || r.size() > 1;
        for (const auto& id : r) ++reaching[id];
        itself = itself || (r.size() == 1 && !direct(*f).empty());
      }
      if (mixed || reaching.size() != 1 || reaching.begin()->second * 2 <= files || !itself) continue;
      const std::string id = reaching.begin()->first;
      // An example: a file that includes the library, else one that includes a header of the backend's
      // outside the folder, else one that includes a header of the folder the backend has already.
      std::string what;
      const ScannedFile* example = nullptr;
      for (int pass = 0; pass < 3 && what.empty(); ++pass) {
        for (const ScannedFile* f : own) {
          for (const auto& [l, header] : f->libraries) {
            if (auto x = sole.find(l);
                pass == 0 && what.empty() && x != sole.end() && x->second == id && !f->conditional.count(l))
              what = "<" + header + ">";
          }
          for (const ScannedFile* g : reads[f->rel]) {
            if (pass > 0 && what.empty() && backend_of(*g) == id && (pass == 2 || !under(g->dir, folder)) &&
                direct(*g).count(id))
              what = g->rel;
          }
          if (!what.empty()) {
            example = f;
            break;
          }
        }
      }
      // It replaces the folders below it.
      for (auto t = taken.begin(); t != taken.end();) {
        if (!under(t->first, folder)) {
          ++t;
          continue;
        }
        std::erase(backend_folders_[id], t->first);
        std::erase(chosen_, t->first);
        taken_why.erase(t->first);
        t = taken.erase(t);
      }
      taken_why[folder] = {
          files,
          folder + "/: " + std::to_string(reaching.begin()->second) + " of " + plural(files, "file") +
              " include its library in every build (" + example->rel + ": " + what +
              "), directly or through its headers or the folder's, and none another backend's: its code"};
      chosen_.push_back(folder);
      backend_folders_[id].push_back(folder);
      taken.emplace(folder, id);
      library_memo.clear();
      changed = true;
    }
    // A file of the frontend named after the backend whose library every build of it includes, beside
    // another such file of another backend (memory/cuda.hpp, memory/opencl.hpp): each is its backend's.
    std::map<std::string, std::map<const ScannedFile*, std::string>> named;  // folder -> file -> backend
    for (const ScannedFile& f : files_) {
      if (!frontend_file(f)) continue;
      const auto r = direct(f);
      if (r.size() == 1 && names_backend(words(fs::path(f.rel).stem().string()), *r.begin()))
        named[f.dir].emplace(&f, *r.begin());
    }
    for (const auto& [folder, files] : named) {
      std::set<std::string> ids;
      for (const auto& [f, id] : files) ids.insert(id);
      for (const ScannedFile& f : files_) {
        if (f.dir == folder && file_backends_.count(f.rel)) ids.insert(file_backends_.at(f.rel).front());
      }
      if (ids.size() < 2) continue;
      for (const auto& [f, id] : files) {
        file_backends_[f->rel] = {id};
        ProposedBackend* b = backend(id);
        b->paths.push_back(f->rel);
        ++b->files;
        b->why += "; " + f->rel +
                  " (named after it, it includes its library in every build, as files beside it do another "
                  "backend's)";
        changed = true;
      }
    }
  }
  for (const auto& [folder, id] : taken) {
    ProposedBackend* b = backend(id);
    b->paths.push_back(folder + "/**");
    b->files += taken_why[folder].first;
    b->why += "; " + taken_why[folder].second;
  }
}

}  // namespace emberlint::discovery
