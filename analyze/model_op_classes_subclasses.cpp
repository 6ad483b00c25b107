// op_classes_subclasses: the ops are the concrete subclasses of a base class declared in the frontend (ncnn's
// `Layer` subclasses in src/layer/*.h); a backend's cell is a subclass of the op class in the backend's
// folders
// (`Convolution_x86 : Convolution` in src/layer/x86/) that overrides the configured methods (`forward`,
// `forward_inplace`).
//
//   native    a subclass overrides one of the methods, and a definition of it does more than throw
//   stub      every definition of its overrides only throws
//   fallback  the subclass overrides none of the methods: the op class's own implementation runs
//   unknown   the overrides are declared but no parsed source defines them
//   missing   no subclass in the backend's folders
#include "analyze/op_classes.hpp"

namespace emberlint::analyze {

namespace {

class OpClassesSubclassesModel : public OpClassesModel {
 public:
  Inventory build(const ModelContext& context,
                  const std::vector<std::unique_ptr<UnitFacts>>& units) const override {
    const OpsConfig& ops = *context.ops;
    OpClasses oc(context, units);
    Inventory inv = start(oc, context, "op_classes_subclasses");
    std::map<std::string, std::size_t> row;  // op class USR -> row
    for (std::size_t o = 0; o < oc.ops().size(); ++o) row[oc.ops()[o]->usr] = o;
    std::map<std::string, const MethodDefinition*> defined;
    for (const MethodDefinition* d : oc.definitions()) defined[d->usr] = d;

    for (std::size_t b = 0; b < context.config->backends.size(); ++b) {
      const std::string& backend = context.config->backends[b].name;
      auto patterns = ops.patterns_for(ops.methods, backend);
      std::string methods;
      for (const auto& p : patterns) methods += (methods.empty() ? "" : ", ") + p.pattern();
      BackendInfo info{backend, methods, {}, {}};
      std::vector<bool> filled(inv.ops.size(), false);
      for (auto& c : inv.cells) {
        c[b].status = Status::missing;
        c[b].reason = "no subclass in the backend's folders";
      }
      for (std::size_t o = 0; o < inv.ops.size(); ++o) inv.cells[o][b].defined = inv.ops[o].declared;
      std::size_t subclasses = 0;
      for (const auto& [u, cls] : oc.classes()) {
        auto owners = context.backends_of(cls.declared.file);
        if (row.count(u) || std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
        auto op = nearest_op(cls, oc, row);
        if (!op) continue;
        ++subclasses;
        if (info.declared.file.empty()) info.declared = cls.declared;
        Cell c = cell(cls, defined, patterns, methods, oc.ops()[*op]->name, ops);
        Cell& slot = inv.cells[*op][b];
        if (!filled[*op] || rank(c.status) < rank(slot.status)) slot = c;
        filled[*op] = true;
      }
      if (subclasses == 0)
        inv.warnings.push_back("ops_interface.base: no class in the folders of backend '" + backend +
                               "' derives from an op class");
      inv.backends.push_back(std::move(info));
    }
    oc.apply_fallback_methods(inv);
    return inv;
  }

 private:
  // The row of the nearest op class among a class's bases (breadth first).
  static std::optional<std::size_t> nearest_op(const ClassFacts& cls, const OpClasses& oc,
                                               const std::map<std::string, std::size_t>& row) {
    std::vector<std::string> todo = cls.bases;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < todo.size(); ++i) {
      if (!seen.insert(todo[i]).second) continue;
      if (auto r = row.find(todo[i]); r != row.end()) return r->second;
      if (auto it = oc.classes().find(todo[i]); it != oc.classes().end())
        todo.insert(todo.end(), it->second.bases.begin(), it->second.bases.end());
    }
    return std::nullopt;
  }

  static Cell cell(const ClassFacts& cls, const std::map<std::string, const MethodDefinition*>& defined,
                   const std::vector<NamePattern>& patterns, const std::string& methods,
                   const std::string& op, const OpsConfig& ops) {
    Cell out;
    out.defined = out.declared = cls.declared;
    out.signature = "class " + cls.name + " : " + op;
    std::vector<std::string> overrides;
    std::optional<Cell> best;
    for (const auto& [name, u] : cls.methods) {
      if (std::none_of(patterns.begin(), patterns.end(), [&](const NamePattern& p) { return p.match(name); }))
        continue;
      overrides.push_back(name);
      auto d = defined.find(u);
      if (d == defined.end()) continue;
      Cell c = cell_of(*d->second, ops);
      if (!best || rank(c.status) < rank(best->status)) best = c;
    }
    if (overrides.empty()) {
      out.status = Status::fallback;
      out.reason = cls.name + " overrides none of " + methods + ": " + op + "'s own implementation runs";
      return out;
    }
    if (!best) {
      out.status = Status::unknown;
      out.reason = cls.name + " declares " + overrides.front() + " but no parsed source defines it";
      return out;
    }
    best->signature = out.signature + " (" + best->signature + ")";
    return *best;
  }
  static int rank(Status s) {
    switch (s) {
      case Status::native:
        return 0;
      case Status::fallback:
        return 1;
      case Status::stub:
        return 2;
      case Status::unknown:
        return 3;
      case Status::missing:
        return 4;
    }
    return 4;
  }
};

}  // namespace

std::unique_ptr<InventoryModel> make_op_classes_subclasses_model() {
  return std::make_unique<OpClassesSubclassesModel>();
}

}  // namespace emberlint::analyze
