#include "analyze/op_classes.hpp"

#include <algorithm>

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

class Walker {
 public:
  Walker(const ModelContext& context, CXTranslationUnit tu, OpClassUnit& out)
      : context_(context), tu_(tu), out_(out) {}
  void run() { walk(clang::root(tu_)); }

 private:
  void walk(CXCursor parent) {
    visit(parent, [&](CXCursor c) {
      CXCursorKind k = clang::kind(c);
      if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
        if (!places_.file(c).empty()) walk(c);  // not a system header's (std, an SDK)
      } else if ((k == CXCursor_ClassDecl || k == CXCursor_StructDecl) && clang::is_definition(c)) {
        if (context_.in_project(places_.file(c))) cls(c);
      } else if (k == CXCursor_CXXMethod && clang::is_definition(c)) {
        if (context_.in_project(places_.file(c))) method(c);  // out of line: `Add::eval_cpu(...) {}`
      }
      return CXChildVisit_Continue;
    });
  }

  void cls(CXCursor c) {
    ClassFacts f;
    f.usr = usr(c);
    f.name = qualified_name(c);
    f.abstract = clang::is_abstract_record(c);
    f.declared = places_(c);
    for (CXCursor m : children(c)) {
      CXCursorKind k = clang::kind(m);
      if (k == CXCursor_CXXBaseSpecifier) {
        CXCursor base = clang::definition(clang::declaration_of(clang::type_of(m)));
        if (clang::is_null(base)) base = clang::declaration_of(clang::type_of(m));
        if (!clang::is_null(base)) f.bases.push_back(usr(base));
      } else if (k == CXCursor_CXXMethod) {
        f.methods.emplace_back(clang::spelling(m), usr(m));
        if (clang::is_definition(m)) method(m);
      } else if ((k == CXCursor_ClassDecl || k == CXCursor_StructDecl) && clang::is_definition(m)) {
        cls(m);
      }
    }
    out_.classes.push_back(std::move(f));
  }

  void method(CXCursor m) {
    CXCursor body = body_of(m);
    if (clang::is_null(body)) return;
    MethodDefinition d;
    d.usr = usr(m);
    d.name = clang::spelling(m);
    d.owner_usr = usr(clang::semantic_parent(m));
    d.signature = signature_of(tu_, m);
    d.body.usr = d.usr;
    d.body.defined = places_(m);
    d.body.signature = d.signature;
    classify_body(m, body, d.body);
    out_.definitions.push_back(std::move(d));
  }

  const ModelContext& context_;
  CXTranslationUnit tu_;
  OpClassUnit& out_;
  Places places_;
};

bool glob_any(const std::vector<Glob>& globs, const std::string& name) {
  return std::any_of(globs.begin(), globs.end(), [&](const Glob& g) { return g.matches_name(name); });
}

}  // namespace

std::unique_ptr<UnitFacts> walk_op_classes(const ModelContext& context, CXTranslationUnit tu) {
  auto out = std::make_unique<OpClassUnit>();
  Walker(context, tu, *out).run();
  return out;
}

OpClasses::OpClasses(const ModelContext& context, const std::vector<std::unique_ptr<UnitFacts>>& units)
    : context_(context) {
  for (const auto& u : units) {
    const auto& unit = static_cast<const OpClassUnit&>(*u);
    for (const auto& c : unit.classes) classes_.emplace(c.usr, c);
    for (const auto& d : unit.definitions)
      by_place_.emplace(std::tuple(d.usr, d.body.defined.file, d.body.defined.line), d);
  }
  for (const auto& [key, d] : by_place_) definitions_.push_back(&d);
  std::sort(definitions_.begin(), definitions_.end(),
            [](const MethodDefinition* a, const MethodDefinition* b) {
              return std::tie(a->body.defined.file, a->body.defined.line) <
                     std::tie(b->body.defined.file, b->body.defined.line);
            });
  const OpsConfig& ops = *context.ops;
  std::string base_usr;
  std::vector<std::string> names;
  for (const auto& [u, c] : classes_) {
    if (c.name == ops.base_class) base_usr = u;
    names.push_back(c.name);
  }
  if (base_usr.empty())
    ops.fail("base", "no class '" + ops.base_class + "' is defined in the parsed sources; nearest: " +
                         nearest_names(ops.base_class, names));
  for (const auto& [u, c] : classes_) {
    if (c.abstract || !derives(u, base_usr) || !context.declares_ops(c.declared.file)) continue;
    if (context.excluded_op(c.name) || context.excluded_op(c.name.substr(c.name.rfind(':') + 1))) continue;
    ops_.push_back(&c);
  }
  if (ops_.empty())
    ops.fail("base", "no concrete subclass of '" + ops.base_class +
                         "' is declared in the op headers (ops_interface.headers, else the frontend layer)");
}

bool OpClasses::derives(const std::string& cls, const std::string& base) const {
  std::vector<std::string> todo = {cls};
  std::set<std::string> seen;
  while (!todo.empty()) {
    std::string u = todo.back();
    todo.pop_back();
    auto it = classes_.find(u);
    if (it == classes_.end() || !seen.insert(u).second) continue;
    for (const auto& b : it->second.bases) {
      if (b == base) return true;
      todo.push_back(b);
    }
  }
  return false;
}

void OpClasses::fill_ops(Inventory& inv) {
  for (const ClassFacts* c : ops_) {
    Op op;
    op.name = c->name.substr(c->name.rfind(':') == std::string::npos ? 0 : c->name.rfind(':') + 1);
    op.id = op.name;
    op.category = category_of(c->declared.file);
    op.declared = c->declared;
    op.declaration = "class " + c->name;
    inv.ops.push_back(std::move(op));
  }
  // Two op classes of one name in different namespaces keep their qualified names as ids.
  std::map<std::string, int> count;
  for (const auto& op : inv.ops) ++count[op.name];
  for (std::size_t i = 0; i < inv.ops.size(); ++i) {
    if (count[inv.ops[i].name] > 1) inv.ops[i].id = ops_[i]->name;
  }
  std::vector<std::size_t> order(inv.ops.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(inv.ops[a].category, inv.ops[a].id) < std::tie(inv.ops[b].category, inv.ops[b].id);
  });
  std::vector<Op> sorted;
  std::vector<const ClassFacts*> sorted_classes;
  for (std::size_t i : order) sorted.push_back(inv.ops[i]), sorted_classes.push_back(ops_[i]);
  inv.ops = std::move(sorted);
  ops_ = std::move(sorted_classes);
}

Inventory OpClassesModel::start(OpClasses& oc, const ModelContext& context, const std::string& shape) {
  oc.check_methods("ops_interface.methods");
  Inventory inv;
  inv.shape = shape;
  inv.interface_name = context.ops->base_class;
  oc.fill_ops(inv);
  inv.cells.assign(inv.ops.size(), std::vector<Cell>(context.config->backends.size()));
  return inv;
}

void OpClasses::apply_fallback_methods(Inventory& inv) const {
  const OpsConfig& ops = *context_.ops;
  if (ops.fallback_methods.empty()) return;
  std::set<std::string> declared;
  for (const auto& [u, c] : classes_) {
    for (const auto& [name, m] : c.methods) declared.insert(name);
  }
  for (std::size_t i = 0; i < ops.fallback_methods.size(); ++i) {
    const Glob& g = ops.fallback_methods[i];
    if (std::none_of(declared.begin(), declared.end(),
                     [&](const std::string& d) { return g.matches_name(d); }))
      ops.fail("fallback_methods[" + std::to_string(i) + "]",
               "no class declares a method '" + g.pattern() +
                   "'; nearest: " + nearest_names(g.pattern(), declared));
  }
  for (std::size_t o = 0; o < inv.ops.size() && o < ops_.size(); ++o) {
    // The op class's own declaration, else the nearest base's (`Custom::use_fallback` for every fast op).
    std::string guard;
    std::vector<std::string> todo = {ops_[o]->usr};
    std::set<std::string> seen;
    for (std::size_t i = 0; i < todo.size() && guard.empty(); ++i) {
      if (!seen.insert(todo[i]).second) continue;
      auto cls = classes_.find(todo[i]);
      if (cls == classes_.end()) continue;
      for (const auto& [name, m] : cls->second.methods) {
        if (std::any_of(ops.fallback_methods.begin(), ops.fallback_methods.end(),
                        [&](const Glob& g) { return g.matches_name(name); })) {
          guard = cls->second.name + "::" + name;
          break;
        }
      }
      todo.insert(todo.end(), cls->second.bases.begin(), cls->second.bases.end());
    }
    if (guard.empty()) continue;
    for (Cell& cell : inv.cells[o]) {
      if (cell.status != Status::stub && cell.status != Status::missing) continue;
      const std::string declined =
          cell.status == Status::stub ? "its method only throws" : "it has no method";
      cell.status = Status::fallback;
      cell.reason = "the caller computes a composite where " + guard + " says so (" + declined +
                    "; ops_interface.fallback_methods)";
    }
  }
}

void OpClasses::check_methods(const std::string& role) const {
  const OpsConfig& ops = *context_.ops;
  std::set<std::string> declared;
  for (const auto& [u, c] : classes_) {
    for (const auto& [name, m] : c.methods) declared.insert(name);
  }
  for (const auto& [backend, names] : ops.methods) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (std::any_of(declared.begin(), declared.end(),
                      [&](const std::string& d) { return NamePattern(names[i]).match(d).has_value(); }))
        continue;
      ops.fail("methods" + (ops.methods.size() == 1 && backend == "*" ? std::string() : "." + backend) + "[" +
                   std::to_string(i) + "]",
               "no class declares a method '" + names[i] + "' (" + role +
                   "); nearest: " + nearest_names(names[i], declared));
    }
  }
}

Cell cell_of(const MethodDefinition& d, const OpsConfig& ops) {
  Cell cell;
  cell.defined = cell.declared = d.body.defined;
  cell.signature = d.signature.render(d.name);
  const Body& b = d.body;
  if (b.only_throws || b.not_implemented) {
    cell.status = Status::stub;
    std::string text = b.throw_text;
    while (!text.empty() && text.back() == ' ') text.pop_back();
    cell.reason = b.not_implemented || !text.empty() ? "throws " + text : "only throws";
    return cell;
  }
  if (b.marker) {
    cell.status = Status::fallback;
    cell.reason = "marked `emberlint-fallback:`";
    return cell;
  }
  for (const Callee& c : b.callees) {
    const std::string ns = c.qualified.substr(0, c.qualified.rfind("::"));
    for (const auto& f : ops.fallback_namespaces) {
      if (ns == f || ns.rfind(f + "::", 0) == 0) {
        cell.status = Status::fallback;
        cell.reason = "composite of frontend ops: calls " + c.qualified;
        return cell;
      }
    }
    if (glob_any(ops.fallback_calls, c.qualified)) {
      cell.status = Status::fallback;
      cell.reason = "delegates: calls " + c.qualified;
      return cell;
    }
  }
  cell.status = Status::native;
  return cell;
}

}  // namespace emberlint::analyze
