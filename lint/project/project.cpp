#include "lint/project/project.hpp"

#include <algorithm>
#include <string_view>

#include "lint/project/parse_errors.hpp"

namespace emberlint {

namespace fs = std::filesystem;

std::string Owner::describe() const {
  if (library.empty() && also.empty()) return "backend '" + backend + "'";
  if (library.empty()) {
    std::string owners = "'" + backend + "'";
    for (const auto& b : also) owners += ", '" + b + "'";
    return "backends " + owners;
  }
  if (also.empty()) return "library " + library + " (backend '" + backend + "')";
  std::string served = "'" + backend + "'";
  for (const auto& b : also) served += ", '" + b + "'";
  return "library " + library + " (backends " + served + ")";
}

namespace {
bool any_matches(const std::vector<Glob>& globs, const fs::path& p) {
  return std::any_of(globs.begin(), globs.end(), [&](const Glob& g) { return g.matches_path(p); });
}
// Whether a glob of `globs` matches; the first that does is added to `why` under `key`.
bool matches(const std::vector<Glob>& globs, const fs::path& p, std::string_view key,
             std::vector<LayerMatch>* why) {
  if (!why) return any_matches(globs, p);
  for (const auto& g : globs) {
    if (!g.matches_path(p)) continue;
    why->push_back({std::string(key), g.pattern()});
    return true;
  }
  return false;
}
}  // namespace

Layer classify_path(const Config& config, const fs::path& absolute, std::vector<LayerMatch>* why) {
  if (matches(config.glue, absolute, "layers.glue", why)) return {LayerKind::glue, {}, {}};
  // A backend's interop headers (outside its folders, in include/ say) are its own.
  for (const auto& b : config.backends) {
    if (b.interop.empty()) continue;
    if (why ? matches(b.interop, absolute, "layers.backends." + b.name + ".interop", why)
            : any_matches(b.interop, absolute))
      return {LayerKind::backend, b.name, {}};
  }
  // Shared code before the backends: a common/ folder that the backends' globs also cover is shared.
  if (matches(config.shared, absolute, "layers.shared", why)) return {LayerKind::shared, {}, {}};
  Layer backend{LayerKind::backend, {}, {}};
  for (const auto& b : config.backends) {
    const bool in = why ? matches(b.globs, absolute, "layers.backends." + b.name, why)
                        : any_matches(b.globs, absolute);  // no key string built on the hot path
    if (!in) continue;
    (backend.backend.empty() ? backend.backend : backend.also.emplace_back()) = b.name;
  }
  if (!backend.backend.empty()) return backend;
  // Tests before the frontend: a tests folder inside a frontend folder (core/unit_test/ under core/**).
  if (matches(config.tests, absolute, "layers.tests", why)) return {LayerKind::tests, {}, {}};
  if (matches(config.frontend, absolute, "layers.frontend", why)) return {LayerKind::frontend, {}, {}};
  return {};
}

bool is_library_header(const Config& config, const fs::path& absolute) {
  const std::string path = absolute.generic_string();
  for (const auto& lib : config.libraries) {
    for (const auto& g : lib.headers) {
      if (g.matches_suffix(path)) return true;
    }
  }
  return false;
}

bool project_file(const Config& config, const fs::path& absolute) {
  if (!is_under(absolute, config.root) || config.excluded(absolute)) return false;
  return classify_path(config, absolute).kind != LayerKind::none || !is_library_header(config, absolute);
}

std::string owned_parse_cause(const Config& config, const std::string& cause,
                              const std::set<fs::path>& error_files) {
  if (cause == kCauseMissingSdk || cause == kCauseMissingGenerated || error_files.empty()) return cause;
  for (const fs::path& f : error_files) {
    if (project_file(config, f)) return cause;
  }
  return std::string(kCauseUnowned);
}

ProjectModel::ProjectModel(const Config& config, const TuFacts& facts, const ConfigurationSpec* selected)
    : config_(config), facts_(facts), selected_(selected) {}

bool ProjectModel::agnostic(FileId file) const {
  const LayerKind k = layer(file).kind;
  return k == LayerKind::frontend || k == LayerKind::shared;
}

bool ProjectModel::selected_interface(const Owner& owner) const {
  if (!selected_ || selected_->backend.empty() || !owner.library.empty()) return false;
  return owner.backend == selected_->backend ||
         std::find(owner.also.begin(), owner.also.end(), selected_->backend) != owner.also.end();
}

bool ProjectModel::selected_interface(const Include& include, const Owner& owner) const {
  if (!selected_interface(owner)) return false;
  if (selected_->include.empty() || include.included < 0) return true;
  // Found through an include folder of the configuration: the folder holds the spelled name.
  const fs::path& header = facts_.path(include.included);
  const fs::path spelled = fs::path(include.spelled).lexically_normal();
  for (fs::path folder = header.parent_path(); folder.has_relative_path(); folder = folder.parent_path()) {
    if (header.lexically_relative(folder) != spelled) continue;
    for (const Glob& g : selected_->include) {
      if (g.matches_path(folder)) return true;
    }
  }
  return false;
}

Layer ProjectModel::layer(FileId file) const {
  if (file < 0) return {};
  auto it = layers_.find(file);
  if (it != layers_.end()) return it->second;
  Layer l = classify_path(config_, facts_.path(file));
  layers_.emplace(file, l);
  return l;
}

std::string ProjectModel::entry(const LayerMatch& m) const {
  std::string out = m.key + " \"" + m.pattern + "\"";
  if (config_.file.empty()) return out + " (the built-in default config)";
  out += " (";
  out += relative(config_.file);
  if (const unsigned line = config_line(config_.file, m.key, m.pattern)) {
    out += ':';
    out += std::to_string(line);
  }
  out += ')';
  return out;
}

std::string ProjectModel::explain_owner(const Owner& owner) const {
  return "owned by " + owner.describe() + (owner.by.key.empty() ? std::string() : ": " + entry(owner.by));
}

std::string ProjectModel::explain_layer(FileId file) const {
  if (file < 0) return {};
  std::vector<LayerMatch> why;
  const Layer l = classify_path(config_, facts_.path(file), &why);
  const char* kind = l.kind == LayerKind::frontend  ? "the frontend"
                     : l.kind == LayerKind::shared  ? "the shared layer"
                     : l.kind == LayerKind::backend ? "a backend"
                     : l.kind == LayerKind::tests   ? "the tests"
                     : l.kind == LayerKind::glue    ? "the glue"
                                                    : "no layer";
  std::string out = relative(facts_.path(file)) + " is in " + kind;
  if (l.kind == LayerKind::backend) out += " ('" + l.backend + "')";
  if (!why.empty()) out += ": " + entry(why.front());
  return out;
}

bool ProjectModel::through_selected_interface(const Reference& ref) const {
  if (!selected_ || selected_->backend.empty()) return false;
  auto plain = [](const std::string& q) {
    const std::size_t cut = q.rfind("::");
    return cut == std::string::npos ? q : q.substr(cut + 2);
  };
  if (!selected_names_) {
    selected_names_.emplace();
    selected_aliases_at_.emplace();
    std::vector<bool> selected(facts_.symbols.size(), false);
    for (std::size_t i = 0; i < facts_.symbols.size(); ++i) {
      const Symbol& s = facts_.symbols[i];
      if (s.declared.file < 0) continue;
      const Layer l = layer(s.declared.file);
      if (l.kind != LayerKind::backend ||
          (l.backend != selected_->backend &&
           std::find(l.also.begin(), l.also.end(), selected_->backend) == l.also.end()))
        continue;
      selected_names_->insert(plain(s.qualified_name));
      selected[i] = s.kind == "TypedefDecl" || s.kind == "TypeAliasDecl";
    }
    // Where an alias or typedef of the selected backend is named: a library type at the same place is the
    // one that alias stands for (the declarations of a variable's type, `handle h` with `using handle =
    // cl_mem;`).
    for (const Reference& r : facts_.references) {
      if (r.symbol >= 0 && selected[static_cast<std::size_t>(r.symbol)])
        selected_aliases_at_->insert({r.at.file, r.at.line, r.at.column});
    }
    // What those aliases stand for (`cl_float2` for `cfloat`): its members, such as the copy assignment
    // that `c = det<cfloat>(in)` calls, are the alias's too.
    selected_types_.emplace();
    for (const Reference& r : facts_.references) {
      if ((r.via == Via::alias || r.via == Via::typedef_) && r.symbol >= 0 &&
          selected_names_->count(plain(r.via_name)))
        selected_types_->insert(facts_.symbols[static_cast<std::size_t>(r.symbol)].qualified_name);
    }
  }
  if ((ref.via == Via::alias || ref.via == Via::typedef_) && selected_names_->count(plain(ref.via_name)))
    return true;
  if (ref.symbol >= 0) {
    const std::string& q = facts_.symbols[static_cast<std::size_t>(ref.symbol)].qualified_name;
    const std::size_t cut = q.rfind("::");
    if (cut != std::string::npos && selected_types_->count(q.substr(0, cut))) return true;
  }
  return selected_aliases_at_->count({ref.at.file, ref.at.line, ref.at.column}) > 0;
}

std::optional<Owner> ProjectModel::file_owner(FileId file, const std::string& spelled) const {
  if (file >= 0) {
    if (auto it = file_owners_.find(file); it != file_owners_.end() && spelled.empty()) return it->second;
  }
  std::optional<Owner> owner;
  Layer l = layer(file);
  if (l.kind == LayerKind::backend) {
    // A backend's public headers are every layer's to include, with what they declare.
    if (!is_public_header(file)) {
      std::vector<LayerMatch> why;
      classify_path(config_, facts_.path(file), &why);
      owner = Owner{l.backend, {}, l.also, why.empty() ? LayerMatch{} : why.front()};
    }
  } else if (l.kind == LayerKind::none) {
    const std::string resolved = file >= 0 ? facts_.path(file).generic_string() : std::string();
    for (const auto& lib : config_.libraries) {
      for (const auto& g : lib.headers) {
        if ((!resolved.empty() && g.matches_suffix(resolved)) ||
            (!spelled.empty() && g.matches_relative(spelled))) {
          owner = Owner{lib.backend, lib.name, lib.also, {"libraries." + lib.name + ".headers", g.pattern()}};
          break;
        }
      }
      if (owner) break;
    }
  }
  if (file >= 0 && spelled.empty()) file_owners_.emplace(file, owner);
  return owner;
}

bool ProjectModel::is_public_header(FileId file) const {
  if (file < 0) return false;
  const fs::path& path = facts_.path(file);
  return std::any_of(config_.backends.begin(), config_.backends.end(), [&](const BackendLayer& b) {
    return any_matches(b.public_headers, path) || any_matches(b.interop, path);
  });
}

std::optional<Owner> ProjectModel::header_owner(const Include& include) const {
  if (auto o = file_owner(include.included, {})) return o;
  return include.included < 0 || layer(include.included).kind == LayerKind::none
             ? file_owner(-1, include.spelled)
             : std::nullopt;
}

std::optional<Owner> ProjectModel::symbol_owner(int symbol) const {
  if (auto it = symbol_owners_.find(symbol); it != symbol_owners_.end()) return it->second;
  const Symbol& s = facts_.symbols[static_cast<std::size_t>(symbol)];
  std::optional<Owner> owner;
  // Namespaces are open: only a configured library namespace makes one a backend's. A type the frontend
  // declares and a backend defines (an opaque handle) is the frontend's: only a library can still own it.
  const bool opaque_handle =
      s.forward_declared.file >= 0 && layer(s.forward_declared.file).kind == LayerKind::frontend;
  if (!s.is_namespace && !opaque_handle) owner = file_owner(s.declared.file, {});
  if (!owner) {
    const std::string& q = s.qualified_name;
    const std::string plain = q.substr(q.rfind("::") == std::string::npos ? 0 : q.rfind("::") + 2);
    for (const auto& lib : config_.libraries) {
      for (const auto& ns : lib.namespaces) {
        if (q == ns || (q.size() > ns.size() + 2 && q.compare(0, ns.size() + 2, ns + "::") == 0)) {
          owner = Owner{lib.backend, lib.name, lib.also, {"libraries." + lib.name + ".namespaces", ns}};
        }
      }
      // A symbol glob names what a library declares: a function or type the project defines in one of its
      // layers is the project's own, whatever its name (`clPad` is not OpenCL's for "cl[A-Z]*"). A library
      // function the project only redeclares (`extern "C" double cblas_ddot(...)`) is still the library's.
      const bool in_project = s.declared.file >= 0 && layer(s.declared.file).kind != LayerKind::none;
      const bool own = s.defined && in_project;
      // A C library's names live in the global namespace: a name the project declares in a namespace of
      // its own (ncnn's `ncnn::vkCreateBuffer` function pointers) is matched by a plain glob ("vk*") only by
      // its last part, and is the project's.
      const bool namespaced_own = in_project && q != plain;
      // What a backend's `public` header declares is that backend's public API, every layer's to use.
      const bool public_api = in_project && is_public_header(s.declared.file);
      if (!s.is_namespace && !own && !public_api) {
        for (const auto& g : lib.symbols) {
          if (g.matches_name(q) || (g.matches_name(plain) && !namespaced_own))
            owner =
                Owner{lib.backend, lib.name, lib.also, {"libraries." + lib.name + ".symbols", g.pattern()}};
        }
      }
      if (owner) break;
    }
  }
  symbol_owners_.emplace(symbol, owner);
  return owner;
}

std::optional<std::string> ProjectModel::backend_that_may_not_use(FileId file, const Owner& owner) const {
  Layer l = layer(file);
  if (l.kind != LayerKind::backend) return std::nullopt;
  auto serves = [&](const std::string& backend) {
    return owner.backend == backend ||
           std::find(owner.also.begin(), owner.also.end(), backend) != owner.also.end();
  };
  auto may = [&](const std::string& backend) {
    if (serves(backend)) return true;
    const BackendLayer* b = config_.backend(backend);
    return b && std::any_of(b->uses.begin(), b->uses.end(), serves);
  };
  if (!may(l.backend)) return l.backend;
  for (const auto& other : l.also) {
    if (!may(other)) return other;
  }
  return std::nullopt;
}

bool ProjectModel::may_use(FileId file, const Owner& owner) const {
  Layer l = layer(file);
  auto serves = [&](const std::string& backend) {
    return owner.backend == backend ||
           std::find(owner.also.begin(), owner.also.end(), backend) != owner.also.end();
  };
  if (l.kind == LayerKind::backend) return !backend_that_may_not_use(file, owner);
  if (l.kind == LayerKind::tests && file >= 0) {
    for (const auto& b : config_.backends) {
      if (serves(b.name) && any_matches(b.tests, facts_.path(file))) return true;
    }
  }
  return false;
}

bool ProjectModel::configured_by_unit(const Location& at, const Owner& owner) const {
  const auto& batch = facts_.batch;
  // A batch of headers stands for as many units, all of one layer: its first header speaks for them.
  const FileId unit = batch.empty() ? facts_.main : batch.front();
  if (at.file < 0 || at.file == unit || unit < 0) return false;
  if (std::find(batch.begin(), batch.end(), at.file) != batch.end()) return false;
  const auto& blocks = facts_.files[static_cast<std::size_t>(at.file)].conditionals;
  const bool conditional = std::any_of(blocks.begin(), blocks.end(), [&](const auto& block) {
    return block.first < at.line && at.line < block.second;
  });
  return conditional && layer(unit).kind == LayerKind::backend && may_use(unit, owner);
}

std::string ProjectModel::backend_folder(const std::string& backend) const {
  if (const BackendLayer* b = config_.backend(backend); b && !b->globs.empty()) {
    const Glob& first = b->globs.front();
    std::string prefix = first.literal_prefix();
    // A backend of files (`include/lib/backend/opencl.hpp`): the folder they are in.
    if (prefix == first.pattern()) prefix = fs::path(prefix).parent_path().generic_string();
    fs::path folder = first.base() / prefix;
    if (!prefix.empty()) return relative(folder);
  }
  return "backends/" + backend;
}

std::string ProjectModel::relative(const fs::path& p) const {
  std::string r = relative_to(p, config_.root);
  return r.empty() ? p.generic_string() : r;
}

bool ProjectModel::is_tensor(int type) const {
  const TypeFacts* t = facts_.type(type);
  if (!t || t->classes.empty()) return false;
  if (auto it = tensor_types_.find(type); it != tensor_types_.end()) return it->second;
  if (!tensor_globs_) {
    tensor_globs_.emplace();
    for (const std::string& entry : config_.tensor_types) {
      // The config loader checked that every pattern is a valid glob.
      for (std::string& pattern : tensor_type_patterns(entry))
        tensor_globs_->emplace_back(std::move(pattern));
    }
  }
  bool tensor = std::any_of(t->classes.begin(), t->classes.end(), [&](const std::string& c) {
    return std::any_of(tensor_globs_->begin(), tensor_globs_->end(),
                       [&](const Glob& g) { return g.matches_name(c); });
  });
  tensor_types_.emplace(type, tensor);
  return tensor;
}

bool ProjectModel::is_scalar_extractor(const std::string& qualified_name) const {
  if (!extractor_globs_) {
    extractor_globs_.emplace();
    // The config loader checked that every entry is a valid glob.
    for (const std::string& e : config_.scalar_extractors) {
      extractor_globs_->emplace_back(e.rfind("::", 0) == 0 ? e.substr(2) : e);
    }
  }
  return std::any_of(extractor_globs_->begin(), extractor_globs_->end(),
                     [&](const Glob& g) { return g.matches_name(qualified_name); });
}

bool ProjectModel::operator_rules_govern(FileId file) const {
  if (file < 0 || !facts_.files[static_cast<std::size_t>(file)].in_project) return false;
  return layer(file).kind != LayerKind::glue;
}

bool ProjectModel::scalar_rules_govern(FileId file) const {
  if (!operator_rules_govern(file)) return false;
  return layer(file).kind != LayerKind::tests;
}

const RuleSetting& ProjectModel::rule_setting(const std::string& code) const {
  static const RuleSetting kDefault;
  auto it = config_.rules.find(code);
  return it == config_.rules.end() ? kDefault : it->second;
}

}  // namespace emberlint
