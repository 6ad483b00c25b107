// op_classes_methods: the ops are the concrete subclasses of a base class declared in the frontend (MLX's
// `Primitive` subclasses in mlx/primitives.h); a backend's cell is the out-of-line definition of one of its
// configured methods (`Add::eval_cpu` in backend/cpu/, `Add::eval_gpu` in backend/metal/) in the backend's
// folders. One folder may serve several backends (backend/gpu/ for metal and cuda).
//
//   native    the op class (or a base class between it and the configured base) has a definition of the
//             method in the backend's folders
//   stub      that definition only throws (also when a macro wrote it: `NO_GPU(Add)`)
//   fallback  that definition is marked `emberlint-fallback:` or calls fallback_namespaces/fallback_calls
//   missing   no definition there
#include "analyze/op_classes.hpp"

namespace emberlint::analyze {

namespace {

class OpClassesMethodsModel : public OpClassesModel {
 public:
  Inventory build(const ModelContext& context,
                  const std::vector<std::unique_ptr<UnitFacts>>& units) const override {
    const OpsConfig& ops = *context.ops;
    OpClasses oc(context, units);
    Inventory inv = start(oc, context, "op_classes_methods");
    for (std::size_t b = 0; b < context.config->backends.size(); ++b) {
      const std::string& backend = context.config->backends[b].name;
      auto patterns = ops.patterns_for(ops.methods, backend);
      BackendInfo info{backend, {}, {}, {}};
      for (const auto& p : patterns)
        info.implementation += (info.implementation.empty() ? "" : ", ") + p.pattern();
      // The backend's definitions of a configured method, by the class they belong to.
      std::map<std::string, std::vector<const MethodDefinition*>> by_class;
      for (const MethodDefinition* d : oc.definitions()) {
        auto owners = context.backends_of(d->body.defined.file);
        if (std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
        if (std::none_of(patterns.begin(), patterns.end(),
                         [&](const NamePattern& p) { return p.match(d->name); }))
          continue;
        by_class[d->owner_usr].push_back(d);
        if (info.declared.file.empty()) info.declared = d->body.defined;
      }
      if (by_class.empty() && !patterns.empty()) {
        inv.warnings.push_back("ops_interface.methods: no op class has a definition of " +
                               info.implementation + " in the folders of backend '" + backend + "'");
      }
      for (std::size_t o = 0; o < inv.ops.size(); ++o)
        inv.cells[o][b] = cell(*oc.ops()[o], by_class, oc, info.implementation);
      inv.backends.push_back(std::move(info));
    }
    oc.apply_fallback_methods(inv);
    return inv;
  }

 private:
  static Cell cell(const ClassFacts& op,
                   const std::map<std::string, std::vector<const MethodDefinition*>>& by_class,
                   const OpClasses& oc, const std::string& methods) {
    // The op class's own definitions, else the nearest base's (a shared implementation it inherits).
    std::vector<std::string> todo = {op.usr};
    std::set<std::string> seen;
    for (std::size_t i = 0; i < todo.size(); ++i) {
      if (!seen.insert(todo[i]).second) continue;
      if (auto it = by_class.find(todo[i]); it != by_class.end()) {
        // Overloads: the best of them stands for the op (native over fallback over stub).
        const MethodDefinition* best = nullptr;
        Cell chosen;
        for (const MethodDefinition* d : it->second) {
          Cell c = cell_of(*d, *oc.ops_config());
          if (!best || rank(c.status) < rank(chosen.status)) best = d, chosen = c;
        }
        if (i > 0) {
          auto cls = oc.classes().find(todo[i]);
          std::string inherited =
              "inherits " + (cls == oc.classes().end() ? todo[i] : cls->second.name) + "::" + best->name;
          chosen.reason = chosen.reason.empty() ? inherited : inherited + "; " + chosen.reason;
        }
        return chosen;
      }
      if (auto cls = oc.classes().find(todo[i]); cls != oc.classes().end())
        todo.insert(todo.end(), cls->second.bases.begin(), cls->second.bases.end());
    }
    Cell missing;
    missing.status = Status::missing;
    missing.defined = op.declared;
    missing.reason = "no definition of " + op.name + "::" + methods + " in the backend's folders";
    return missing;
  }
  static int rank(Status s) { return s == Status::native ? 0 : s == Status::fallback ? 1 : 2; }
};

}  // namespace

std::unique_ptr<InventoryModel> make_op_classes_methods_model() {
  return std::make_unique<OpClassesMethodsModel>();
}

}  // namespace emberlint::analyze
