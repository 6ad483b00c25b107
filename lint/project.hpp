// The project model one config gives a translation unit: which layer each file is in, and which backend
// owns a header or a symbol (through a configured library or because it lives in a backend's folder).
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "lint/config.hpp"
#include "lint/facts.hpp"

namespace emberlint {

enum class LayerKind { none, frontend, backend, tests, glue };

struct Layer {
  LayerKind kind = LayerKind::none;
  std::string backend;  // for LayerKind::backend
};

struct Owner {
  std::string backend;  // the owning backend layer
  std::string library;  // the library, or empty when the owner is the backend's own folder

  // "library Eigen (backend eigen)" or "backend eigen's folder"
  std::string describe() const;
};

class ProjectModel {
 public:
  ProjectModel(const Config& config, const TuFacts& facts);

  const Config& config() const { return config_; }
  const TuFacts& facts() const { return facts_; }

  Layer layer(FileId file) const;
  // The owner of an included header: by its resolved path or spelled name.
  std::optional<Owner> header_owner(const Include& include) const;
  // The owner of a declaration or macro: its file, its namespace, or a symbol glob.
  std::optional<Owner> symbol_owner(int symbol) const;
  // The project-relative folder of a backend ("backends/eigen"), for messages that say where code belongs.
  std::string backend_folder(const std::string& backend) const;
  std::string relative(const std::filesystem::path& p) const;

 private:
  std::optional<Owner> file_owner(FileId file, const std::string& spelled) const;

  const Config& config_;
  const TuFacts& facts_;
  mutable std::unordered_map<FileId, Layer> layers_;
  mutable std::unordered_map<FileId, std::optional<Owner>> file_owners_;
  mutable std::unordered_map<int, std::optional<Owner>> symbol_owners_;
};

Layer classify_path(const Config& config, const std::filesystem::path& absolute);
// Whether a file is a header of a configured library (a vendored copy inside the project, say): such files
// are the libraries themselves and no rule governs them.
bool is_library_header(const Config& config, const std::filesystem::path& absolute);

}  // namespace emberlint
