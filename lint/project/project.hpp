// The project model one config gives a translation unit: which layer each file is in, and which backend
// owns a header or a symbol (through a configured library or because it lives in a backend's folder).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "lint/facts.hpp"
#include "lint/project/config.hpp"

namespace emberlint {

// `shared`: code compiled into every backend (layers.shared), judged in each configuration that compiles it.
enum class LayerKind { none, frontend, shared, backend, tests, glue };

struct Layer {
  LayerKind kind = LayerKind::none;
  std::string backend;            // for LayerKind::backend: the first backend whose folders hold the file
  std::vector<std::string> also;  // further backends whose folders hold it (a folder shared by several)
};

// A config entry that decided something: its key ("layers.backends.cuda", "libraries.BLAS.headers") and
// the glob or name it holds.
struct LayerMatch {
  std::string key;
  std::string pattern;
};

struct Owner {
  std::string backend;            // the owning backend layer
  std::string library;            // the library, or empty when the owner is the backend's own folder
  std::vector<std::string> also;  // further backends a library serves
  LayerMatch by;                  // the config entry that makes it the owner ("libraries.BLAS.headers")

  // "library Eigen (backend eigen)" or "backend eigen's folder"
  std::string describe() const;
};

class ProjectModel {
 public:
  // `selected`: the configuration the unit was compiled in (lint/compile/configurations.hpp), or null.
  ProjectModel(const Config& config, const TuFacts& facts, const ConfigurationSpec* selected = nullptr);

  const Config& config() const { return config_; }
  const TuFacts& facts() const { return facts_; }

  Layer layer(FileId file) const;
  // Whether the purity rules judge a file as backend-agnostic code: the frontend, or the shared layer.
  bool agnostic(FileId file) const;
  const ConfigurationSpec* selected() const { return selected_; }
  // Whether what `owner` owns is the interface of the backend this unit's configuration selected: that
  // backend's own folder (not its libraries), and for an include, a header found through one of the
  // configuration's include folders (`#include "mean.hpp"` with -Isrc/backend/cpu), not one spelled by its
  // path into the backend. A specific other backend, or a library, is never the interface.
  bool selected_interface(const Owner& owner) const;
  bool selected_interface(const Include& include, const Owner& owner) const;
  // Whether a reference reaches its symbol through an alias or typedef that the selected backend's folder
  // declares (`cfloat` with `using cfloat = cl_float2;` in the backend's types.hpp): the interface, whatever
  // library type it stands for, and so are that type's members (its copy assignment, its fields).
  bool through_selected_interface(const Reference& ref) const;
  // The owner of an included header: by its resolved path or spelled name.
  std::optional<Owner> header_owner(const Include& include) const;
  // The owner of a declaration or macro: its file, its namespace, or a symbol glob.
  std::optional<Owner> symbol_owner(int symbol) const;
  // Whether code in `file` may use what `owner` owns: its own backend's, a library that also serves that
  // backend, a backend it `uses`, or (for a test file in a backend's `tests`) that backend's.
  bool may_use(FileId file, const Owner& owner) const;
  // Whether what sits at `at` is there only because this unit configured a shared file for its backend: `at`
  // is in a conditional block of another file than the unit's own (`#if defined(GGML_USE_CUDA)` in a shared
  // header), and the unit's own file may use what `owner` owns. Such code is compiled only in that backend's
  // units, so it is that backend's use, not the shared file's.
  bool configured_by_unit(const Location& at, const Owner& owner) const;
  // Whether a file is one of a backend's `public` headers.
  bool is_public_header(FileId file) const;
  // The backend of a backend file that may not use what `owner` owns (neither owns it nor `uses` its
  // owner): with a folder shared by several backends, the file must be usable by each of them. nullopt when
  // every backend of the file may use it, or the file is no backend's.
  std::optional<std::string> backend_that_may_not_use(FileId file, const Owner& owner) const;
  // The project-relative folder of a backend ("backends/eigen"), for messages that say where code belongs.
  std::string backend_folder(const std::string& backend) const;
  std::string relative(const std::filesystem::path& p) const;
  // `key "pattern" (.emberlint.json:12)`: a config entry and where the config says it.
  std::string entry(const LayerMatch& m) const;
  // For `check --explain`: "owned by library BLAS (backend 'blas'): libraries.BLAS.headers "cblas.h"
  // (.emberlint.json:21)", and "frontend/x.cpp is in the frontend: layers.frontend "frontend/**" (...)".
  std::string explain_owner(const Owner& owner) const;
  std::string explain_layer(FileId file) const;

  // Whether a type (index into facts().types) is one of the configured tensor types: its class, its
  // template or one of its bases matches an entry of `tensor_types` (a qualified name or name glob; a
  // trailing template argument list in the entry is optional). Typedefs, aliases, references, cv and
  // `auto` are already looked through in the facts.
  bool is_tensor(int type) const;
  // Whether a qualified function name matches an entry of `scalar_extractors` (EL301, EL303).
  bool is_scalar_extractor(const std::string& qualified_name) const;
  // The operator (EL2xx) and scalar (EL3xx) rules govern every layer but glue; the scalar rules also
  // leave tests alone, which read values to check them.
  bool operator_rules_govern(FileId file) const;
  bool scalar_rules_govern(FileId file) const;
  // A rule's options from the config (defaults when it has none).
  const RuleSetting& rule_setting(const std::string& code) const;

 private:
  std::optional<Owner> file_owner(FileId file, const std::string& spelled) const;

  const Config& config_;
  const TuFacts& facts_;
  const ConfigurationSpec* selected_ = nullptr;
  mutable std::unordered_map<FileId, Layer> layers_;
  mutable std::unordered_map<FileId, std::optional<Owner>> file_owners_;
  mutable std::unordered_map<int, std::optional<Owner>> symbol_owners_;
  mutable std::optional<std::vector<Glob>> tensor_globs_;
  mutable std::unordered_map<int, bool> tensor_types_;
  mutable std::optional<std::vector<Glob>> extractor_globs_;
  mutable std::optional<std::set<std::string>> selected_names_;  // names the selected backend declares
  mutable std::optional<std::set<std::tuple<FileId, unsigned, unsigned>>> selected_aliases_at_;
  mutable std::optional<std::set<std::string>> selected_types_;  // what the selected aliases stand for
};

// The layer of a file: glue first, then every backend whose folders hold it, then the frontend, then tests.
// With `why`, the entries that decided it (`emberlint layers`).
Layer classify_path(const Config& config, const std::filesystem::path& absolute,
                    std::vector<LayerMatch>* why = nullptr);
// Whether a file is a header of a configured library (a vendored copy inside the project, say): such files
// are the libraries themselves and no rule governs them.
bool is_library_header(const Config& config, const std::filesystem::path& absolute);
// Whether a file's code is the project's: under the config's root and not excluded, in a layer or else not a
// library's own header.
bool project_file(const Config& config, const std::filesystem::path& absolute);
// The cause of a unit's parse errors with the project's own files told apart: errors in files none of which
// is the project's (project_file: a vendored folder the config excludes, a dependency's installed headers)
// are `unowned-code`, the project's own files still linted; a missing file keeps its cause, as do errors
// with no file.
std::string owned_parse_cause(const Config& config, const std::string& cause,
                              const std::set<std::filesystem::path>& error_files);

}  // namespace emberlint
