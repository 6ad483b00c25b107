// An inventory model: how one shape of multi-backend code base states its op set and each backend's
// implementation of each op. A model is one file in analyze/ (model_<name>.cpp), its fixture shape is in
// tests/analyze/shapes/<name>/, and it is registered with one line in models.cpp; extract.cpp parses the
// units and hands each to the configured model without knowing which models exist.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/inventory.hpp"
#include "analyze/ops_config.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/libclang/clang.hpp"
#include "lint/project/config.hpp"

namespace emberlint::analyze {

// What a model reads about the project, shared by every unit.
struct ModelContext {
  const Config* config = nullptr;
  const OpsConfig* ops = nullptr;
  // The run's units and the backend sources it does not parse (ExtractInput's), for build(); null in walk().
  const std::vector<CompileCommand>* commands = nullptr;
  const std::vector<std::pair<std::filesystem::path, std::string>>* unparsed = nullptr;

  // Every backend whose folders hold the file (a folder may serve several: MLX's backend/gpu).
  std::vector<std::string> backends_of(const std::filesystem::path& file) const;
  // Whether the file is one of the op-declaring headers (the configured ones, else the frontend layer).
  bool declares_ops(const std::filesystem::path& file) const;
  bool in_project(const std::filesystem::path& file) const;
  bool excluded_op(const std::string& name) const;
  // "backends/cpu/ops.cpp:12": a place relative to the project root, for reasons and warnings.
  std::string where(const Place& place) const;
  // Why the run can see nothing a backend states, and what to do: none of its sources is a unit of the run
  // ("none of its 209 sources is in the compile database (source/arm/add.cc, ...): configure ..."), or its
  // folders hold no source. "" when one of its own sources (no other backend's folders list it) is parsed, or
  // without `commands`.
  std::string unparsed_backend(const std::string& backend) const;
};

// One enumerator of the enum whose enumerators are the ops (enum_dispatch, registrations).
struct Enumerator {
  std::string name;
  long long value = 0;
  Place declared;
};

// Adds the ops of ops_interface.enum, declared at `declared` (the header is their category), less those
// `exclude` names; ConfigError (ops_interface.exclude) when that leaves none.
void add_enumerator_ops(const ModelContext& context, const std::vector<Enumerator>& enumerators,
                        const Place& declared, Inventory& inv);

// What one unit said, in the model's own terms; merged by the same model's build().
struct UnitFacts {
  virtual ~UnitFacts() = default;
};

class InventoryModel {
 public:
  virtual ~InventoryModel() = default;
  // Walks one parsed unit. Units with errors are walked too: what they show is there, what they lack is
  // not evidence (extract.cpp turns such a backend's missing cells into unknown).
  virtual std::unique_ptr<UnitFacts> walk(const ModelContext& context, CXTranslationUnit tu) const = 0;
  // Merges the units into the matrix (ops sorted by category then id, backends in configuration order).
  // Throws ConfigError (via OpsConfig::fail) when the config names an enum, class or method no unit has.
  virtual Inventory build(const ModelContext& context,
                          const std::vector<std::unique_ptr<UnitFacts>>& units) const = 0;
  // Whether the op-declaring headers are parsed on their own too (C++ headers that declare one op each:
  // an op with no backend implementation is seen only there).
  virtual bool parses_headers() const { return false; }
  // Whether an op is named only by its whole name (enumerators, registry keys): a source that names
  // GGML_OP_DIAG_MASK_INF does not name GGML_OP_DIAG. Otherwise a name before an underscore counts too (a
  // backend's class of the op: `Conv_x86`).
  virtual bool whole_names() const { return false; }
};

// A registered model: its config name, the older `shape` name it answers to, the keys it takes besides the
// common ones (the first `required` of them must be there), and its factory (none for the two models
// extract.cpp walks itself).
struct ModelInfo {
  std::string_view name;
  std::string_view shape_alias;
  std::vector<std::string_view> keys;
  std::size_t required = 1;
  std::unique_ptr<InventoryModel> (*make)();
};

// Every model, in documentation order.
const std::vector<ModelInfo>& inventory_models();
const ModelInfo* find_model(std::string_view name_or_shape);

}  // namespace emberlint::analyze
