// What the two op-class models share: the op set is the concrete subclasses of a configured base class
// (MLX's `mlx::core::Primitive`, ncnn's `ncnn::Layer`) declared in the op-declaring headers, and the
// classes, methods and bodies a unit defines, keyed by USR so that units merge.
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyze/cursor.hpp"
#include "analyze/model.hpp"

namespace emberlint::analyze {

struct ClassFacts {
  std::string usr, name;           // name: qualified
  std::vector<std::string> bases;  // USRs of the direct bases
  bool abstract = false;
  Place declared;
  std::vector<std::pair<std::string, std::string>> methods;  // declared in the class: (name, USR)
};

struct MethodDefinition {
  std::string usr, name, owner_usr;  // owner: the class whose method it is
  Signature signature;
  Body body;
};

struct OpClassUnit : UnitFacts {
  std::vector<ClassFacts> classes;            // every class defined in the project
  std::vector<MethodDefinition> definitions;  // every method defined in the project (in class or out of line)
};

// Walks a unit for both models.
std::unique_ptr<UnitFacts> walk_op_classes(const ModelContext& context, CXTranslationUnit tu);

// The merged facts, with the op set resolved. Throws ConfigError (ops_interface.base / .methods) when the
// base class does not exist or no op class declares a configured method.
class OpClasses {
 public:
  OpClasses(const ModelContext& context, const std::vector<std::unique_ptr<UnitFacts>>& units);

  const std::map<std::string, ClassFacts>& classes() const { return classes_; }
  const OpsConfig* ops_config() const { return context_.ops; }
  // The op classes: concrete subclasses of the base in the op-declaring headers, by qualified name.
  const std::vector<const ClassFacts*>& ops() const { return ops_; }
  const std::vector<const MethodDefinition*>& definitions() const { return definitions_; }
  // Whether `cls` derives from `base` (transitively, not itself).
  bool derives(const std::string& cls, const std::string& base) const;
  // Fills inventory ops (sorted by category, then id) from ops(), and sorts ops() the same way.
  void fill_ops(Inventory& inv);
  // Throws ConfigError (ops_interface.methods[...]) for a configured method no class declares.
  void check_methods(const std::string& role) const;
  // ops_interface.fallback_methods: an op class that declares one (itself or a base) is computed by the
  // caller's composite where a backend declines it, so its stub and missing cells become fallback. Throws
  // ConfigError (ops_interface.fallback_methods[i]) for a pattern that no class declares.
  void apply_fallback_methods(Inventory& inv) const;

 private:
  const ModelContext& context_;
  std::map<std::string, ClassFacts> classes_;
  std::vector<const ClassFacts*> ops_;
  std::vector<const MethodDefinition*> definitions_;
  // One method may be defined once per backend (each build links one): keyed by USR and place.
  std::map<std::tuple<std::string, std::filesystem::path, unsigned>, MethodDefinition> by_place_;
};

// The part of both models that does not differ: the unit walk, and an inventory of the op rows.
class OpClassesModel : public InventoryModel {
 public:
  std::unique_ptr<UnitFacts> walk(const ModelContext& context, CXTranslationUnit tu) const override {
    return walk_op_classes(context, tu);
  }
  bool parses_headers() const override { return true; }

 protected:
  // Checks the configured methods (ConfigError otherwise), then an inventory named SHAPE with the op rows and
  // an empty cell per backend.
  static Inventory start(OpClasses& oc, const ModelContext& context, const std::string& shape);
};

// The cell of one definition: stub (only throws, or throws "not implemented"), fallback (an
// `emberlint-fallback:` comment, or a call into fallback_namespaces/fallback_calls), else native.
Cell cell_of(const MethodDefinition& d, const OpsConfig& ops);

}  // namespace emberlint::analyze
