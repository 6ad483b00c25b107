// registrations: a backend says which ops it implements by registering them (MNN's
// `REGISTER_CPU_OP_CREATOR(ConvCreator, OpType_Convolution)`, `backend->addCreator(OpType_Mul, new
// MulCreator)`, a static registrar object, a table of {op, creator} entries, a kernel registry's
// `REG("MatMul", DEVICE_GPU, MatMulGpuOp)`). The op set is the enumerators of `enum` (a generated header
// is as good as any), the names of `ops`, or else every op some backend registers. The forms are
// `registrations` (analyze/ops_config.hpp's RegistrationForm), for every backend or per backend.
//
//   native    a registration of the op in the backend's folders (and with its device, if the form has one)
//   stub      every registration's creator, where it can be seen, returns null or only throws: a creator
//             function, or a creator class whose overrides all do
//   fallback  the creator delegates (an `emberlint-fallback:` comment, fallback_namespaces, fallback_calls)
//   missing   no registration of the op
//   unknown   missing, but the backend has a registration whose op argument is computed (not a literal or
//             an enumerator): it may be this op; the cell names where (also listed in the warnings)
//
// An op argument that calls a class's static member with no arguments (`CalcBondsKernel::Name()`) names the
// class's op. A backend whose class extends a class of another backend whose member functions register ops
// (a CPU platform deriving from the reference platform) inherits those registrations: the ops it does not
// register itself are `fallback`, run by the other backend's code. A registration made only on platforms of
// one class (`if (dynamic_cast<ReferencePlatform*>(&platform)) platform.registerKernelFactory(...)`, a
// plugin's loop over every platform) is made on every backend one of whose classes is that class or extends
// it: the other backends' cells are `fallback` too, and say which guard.
//
// This file merges the units' facts into the matrix; analyze/model_registrations_walk.cpp reads one unit.
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "analyze/model.hpp"
#include "analyze/op_classes.hpp"
#include "analyze/registrations.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

using namespace registrations;

int rank(Status s) {
  return s == Status::native ? 0 : s == Status::fallback ? 1 : 2;
}

// Where ops_interface.ops lists `name`: the line and column of its string in the config file (the file's
// first line when the text cannot be found: a config that builds the list from inherited files).
Place listed_at(const OpsConfig& ops, const std::string& name) {
  Place at{ops.file, 1, 1};
  std::ifstream in(ops.file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const std::size_t list = s.find("\"ops\"");
  const std::size_t found = list == std::string::npos ? list : s.find("\"" + name + "\"", list);
  if (found == std::string::npos) return at;
  const std::size_t line_start = s.rfind('\n', found);
  at.line =
      static_cast<unsigned>(1 + std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(found), '\n'));
  at.column = static_cast<unsigned>(found - (line_start == std::string::npos ? 0 : line_start + 1) + 2);
  return at;
}

// The file where backend `b` registers most of its ops, when it is a registry (two ops or more, more than
// half of those it registers); empty when each op is registered beside its creator.
fs::path registry_file(const Inventory& inv, std::size_t b, const std::vector<bool>& filled) {
  std::map<fs::path, std::size_t> per_file;
  std::size_t registered = 0;
  for (std::size_t o = 0; o < inv.ops.size(); ++o) {
    if (!filled[o]) continue;
    ++registered;
    ++per_file[inv.cells[o][b].defined.file];
  }
  fs::path most;
  std::size_t n = 0;
  for (const auto& [file, count] : per_file) {
    if (count > n) std::tie(most, n) = std::tie(file, count);
  }
  return n >= 2 && 2 * n > registered ? most : fs::path();
}

// Where a missing cell of backend `b` points (EL400's location): in a registry, the registration of the
// nearest op before it (where its own would go), else the registry's first; without one, nowhere (EL400 then
// points at the op's declaration: its enumerator, its entry in ops_interface.ops).
Place missing_place(const Inventory& inv, std::size_t b, const std::vector<bool>& filled,
                    const fs::path& registry, std::size_t op) {
  if (registry.empty()) return {};
  for (std::size_t o = op; o-- > 0;) {
    if (filled[o] && inv.cells[o][b].defined.file == registry) return inv.cells[o][b].defined;
  }
  Place first;
  for (std::size_t o = 0; o < inv.ops.size(); ++o) {
    const Place& at = inv.cells[o][b].defined;
    if (filled[o] && at.file == registry &&
        (first.file.empty() || std::tie(at.line, at.column) < std::tie(first.line, first.column)))
      first = at;
  }
  return first;
}

using RegistrationKey = std::tuple<std::string, fs::path, unsigned, unsigned, std::string>;

// The registrations backend `b` inherits: a class of its folders extends (directly or further up) a class of
// another backend's folders whose member functions register ops (a CPU platform deriving from the reference
// platform, whose constructor registers every kernel). The ops `b` does not register itself run that
// backend's code: `fallback` cells at the inherited registration.
void inherit(const ModelContext& context, std::size_t b,
             const std::map<RegistrationKey, const Registration*>& regs,
             const std::map<std::string, const CreatorClass*>& classes,
             const std::map<std::string, std::size_t>& row, Inventory& inv, std::vector<bool>& filled) {
  const std::string& backend = context.config->backends[b].name;
  auto in_backend = [&](const fs::path& file) {
    const auto owners = context.backends_of(file);
    return std::find(owners.begin(), owners.end(), backend) != owners.end();
  };
  // Every class of another backend's folders some class of b's folders extends, with that class.
  std::map<std::string, const CreatorClass*> extended;  // base USR -> the class of b that extends it
  for (const auto& [u, c] : classes) {
    if (!in_backend(c->declared.file)) continue;
    std::vector<std::string> todo = c->bases;
    std::set<std::string> done;
    while (!todo.empty()) {
      const std::string base = todo.back();
      todo.pop_back();
      if (!done.insert(base).second) continue;
      auto it = classes.find(base);
      if (it == classes.end()) continue;
      if (!in_backend(it->second->declared.file)) extended.emplace(base, c);
      todo.insert(todo.end(), it->second->bases.begin(), it->second->bases.end());
    }
  }
  if (extended.empty()) return;
  for (const auto& [key, r] : regs) {
    if (r->backend == backend || r->owner_usr.empty() || r->op.kind == Named::Kind::computed ||
        r->op.kind == Named::Kind::absent)
      continue;
    auto by = extended.find(r->owner_usr);
    auto o = row.find(r->op.name);
    if (by == extended.end() || o == row.end() || filled[o->second]) continue;
    Cell& cell = inv.cells[o->second][b];
    cell.status = Status::fallback;
    cell.defined = r->at;
    cell.declared = r->at;
    cell.signature = r->written;
    cell.reason = "inherited: " + by->second->qualified + " extends " + classes.at(r->owner_usr)->qualified +
                  " of backend '" + r->backend + "', which registers it at " + context.where(r->at);
    filled[o->second] = true;
  }
}

// The registrations other backends' folders make only on platforms of one class (a plugin's reference
// kernels, registered `if (dynamic_cast<RefPlatform*>(&platform))`) that backend `b` has: one of its classes
// is that class or extends it. A guard on a class no backend's folders declare changes nothing. The ops `b`
// does not register itself are `fallback` cells at the guarded registration.
void guarded(const ModelContext& context, std::size_t b,
             const std::map<RegistrationKey, const Registration*>& regs,
             const std::map<std::string, const CreatorClass*>& classes,
             const std::map<std::string, std::size_t>& row, Inventory& inv, std::vector<bool>& filled) {
  const std::string& backend = context.config->backends[b].name;
  // The class of b's folders that is `guard` or extends it, if any.
  auto platform_of = [&](const std::string& guard) -> const CreatorClass* {
    for (const auto& [u, c] : classes) {
      const auto owners = context.backends_of(c->declared.file);
      if (std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
      std::vector<std::string> todo{u};
      std::set<std::string> done;
      while (!todo.empty()) {
        const std::string k = todo.back();
        todo.pop_back();
        if (k == guard) return c;
        if (!done.insert(k).second) continue;
        if (auto it = classes.find(k); it != classes.end())
          todo.insert(todo.end(), it->second->bases.begin(), it->second->bases.end());
      }
    }
    return nullptr;
  };
  for (const auto& [key, r] : regs) {
    if (r->backend == backend || r->guard_usr.empty() || r->op.kind == Named::Kind::computed ||
        r->op.kind == Named::Kind::absent)
      continue;
    auto o = row.find(r->op.name);
    auto g = classes.find(r->guard_usr);
    if (o == row.end() || filled[o->second] || g == classes.end() ||
        context.backends_of(g->second->declared.file).empty())
      continue;
    const CreatorClass* platform = platform_of(r->guard_usr);
    if (!platform) continue;
    Cell& cell = inv.cells[o->second][b];
    cell.status = Status::fallback;
    cell.defined = r->at;
    cell.declared = r->at;
    cell.signature = r->written;
    cell.reason = "guarded: backend '" + r->backend + "' registers it at " + context.where(r->at) +
                  " on platforms of class " + g->second->qualified + " (`" + r->guard + "`), and " +
                  (platform == g->second ? "it is " : platform->qualified + " extends it, ") +
                  "a class of '" + backend + "'";
    filled[o->second] = true;
  }
}

class RegistrationsModel : public InventoryModel {
 public:
  bool whole_names() const override { return true; }
  std::unique_ptr<UnitFacts> walk(const ModelContext& context, CXTranslationUnit tu) const override {
    return walk_unit(context, tu);
  }

  Inventory build(const ModelContext& context,
                  const std::vector<std::unique_ptr<UnitFacts>>& units) const override {
    const OpsConfig& ops = *context.ops;
    std::vector<const RegistrationFacts*> facts;
    for (const auto& u : units) facts.push_back(static_cast<const RegistrationFacts*>(u.get()));

    // Each registration once (a header's registration is seen by every unit that includes it).
    std::map<RegistrationKey, const Registration*> regs;
    std::map<std::string, const CreatorBody*> bodies;                  // by USR
    std::map<std::string, std::vector<const CreatorBody*>> overrides;  // class USR -> its overrides
    std::map<std::string, const CreatorClass*> classes;                // by USR
    std::map<std::string, std::set<std::string>> calls, types, variables;
    std::set<std::string> seen;
    std::set<std::string> enums;
    const RegistrationFacts* declaring = nullptr;
    for (const RegistrationFacts* f : facts) {
      if (f->found && !declaring) declaring = f;
      enums.insert(f->enum_names.begin(), f->enum_names.end());
      for (const auto& r : f->registrations)
        regs.emplace(std::tuple(r.backend, r.at.file, r.at.line, r.at.column, r.op.text + "\x1f" + r.written),
                     &r);
      for (const auto& b : f->bodies) {
        if (!bodies.emplace(b.usr, &b).second) continue;
        if (!b.owner_usr.empty()) overrides[b.owner_usr].push_back(&b);
      }
      for (const auto& c : f->classes) classes.emplace(c.usr, &c);
      for (const auto& [b, n] : f->calls) calls[b].insert(n.begin(), n.end());
      for (const auto& [b, n] : f->types) types[b].insert(n.begin(), n.end());
      for (const auto& [b, n] : f->variables) variables[b].insert(n.begin(), n.end());
      seen.insert(f->backends_seen.begin(), f->backends_seen.end());
    }

    Inventory inv;
    inv.shape = "registrations";
    // The op set.
    std::set<std::string> enumerator_names;
    if (!ops.enum_name.empty()) {
      if (!declaring)
        ops.fail("enum", "no enum '" + ops.enum_name + "' is defined in the parsed sources; nearest: " +
                             nearest_names(ops.enum_name, enums));
      if (!ops.headers.empty() && !context.declares_ops(declaring->declared.file))
        ops.fail("headers", "the enum '" + ops.enum_name + "' is declared in " +
                                context.where(declaring->declared) + ", outside these headers");
      inv.interface_name = ops.enum_name;
      for (const auto& e : declaring->enumerators) enumerator_names.insert(e.name);
      add_enumerator_ops(context, declaring->enumerators, declaring->declared, inv);
    } else if (!ops.op_list.empty()) {
      inv.interface_name = "ops_interface.ops";
      for (const auto& name : ops.op_list) {
        if (context.excluded_op(name)) continue;
        Op op;
        op.id = op.name = name;
        op.category = "ops";
        op.declared = listed_at(ops, name);
        op.declaration = "op \"" + name + "\" of ops_interface.ops";
        inv.ops.push_back(std::move(op));
      }
    } else {
      // Every op some backend registers, by name, where the first registration is.
      inv.interface_name = "the registrations";
      std::map<std::string, const Registration*> first;
      for (const auto& [key, r] : regs) {
        if (r->op.kind == Named::Kind::computed || r->op.kind == Named::Kind::absent) continue;
        if (context.excluded_op(r->op.name)) continue;
        auto [it, added] = first.emplace(r->op.name, r);
        if (!added && std::tie(r->at.file, r->at.line) < std::tie(it->second->at.file, it->second->at.line))
          it->second = r;
      }
      for (const auto& [name, r] : first) {
        Op op;
        op.id = op.name = name;
        op.category = "ops";
        op.declared = r->op.declared.file.empty() ? r->at : r->op.declared;
        op.declaration = (r->op.declared.file.empty() ? std::string() : "class " + name + ", ") +
                         "registered as " + r->written + " at " + context.where(r->at);
        inv.ops.push_back(std::move(op));
      }
      if (inv.ops.empty()) {
        std::set<std::string> all;
        for (const auto& [b, n] : calls) all.insert(n.begin(), n.end());
        const auto forms = ops.forms_for(context.config->backends.front().name);
        ops.fail("registrations",
                 "no registration names an op in the parsed sources; nearest callee names: " +
                     nearest_names(forms.empty() ? "" : forms.front().name.pattern(), all));
      }
    }
    std::map<std::string, std::size_t> row;
    for (std::size_t i = 0; i < inv.ops.size(); ++i) row.emplace(inv.ops[i].name, i);

    // A creator by name, for macro arguments: the classes and functions of the backend folders.
    auto by_name = [&](const std::string& written, const Place& where) -> std::string {
      const std::string last = last_part(written);
      std::string found;
      auto consider = [&](const std::string& u, const std::string& spelled, const std::string& qualified,
                          const fs::path& file) {
        if (spelled != last) return;
        if (written.find("::") != std::string::npos && qualified.size() >= written.size() &&
            qualified.compare(qualified.size() - written.size(), written.size(), written) != 0)
          return;
        if (found.empty() || file == where.file) found = u;
      };
      for (const auto& [u, c] : classes) consider(u, c->name, c->qualified, c->declared.file);
      for (const auto& [u, b] : bodies) {
        if (b->owner_usr.empty()) consider(u, b->name, b->qualified, b->cell.defined.file);
      }
      return found;
    };
    // The cell a creator gives: a function's body; a class whose overrides all return null or throw is a
    // stub, one that delegates a fallback; a creator that cannot be seen is trusted.
    auto creator_cell = [&](const Registration& r) {
      Cell cell;
      cell.status = Status::native;
      const std::string u =
          r.creator.usr.empty() && !r.creator.name.empty() ? by_name(r.creator.name, r.at) : r.creator.usr;
      if (u.empty()) return cell;
      if (auto it = bodies.find(u); it != bodies.end()) {
        cell = it->second->cell;
        if (!cell.reason.empty()) cell.reason += " (creator " + it->second->qualified + ")";
        return cell;
      }
      auto it = overrides.find(u);
      if (it == overrides.end()) return cell;
      const CreatorBody* best = nullptr;
      for (const CreatorBody* b : it->second) {
        if (!best || rank(b->cell.status) < rank(best->cell.status)) best = b;
      }
      cell = best->cell;
      if (!cell.reason.empty()) cell.reason += " (creator " + best->qualified + ")";
      return cell;
    };

    inv.cells.assign(inv.ops.size(), std::vector<Cell>(context.config->backends.size()));
    for (std::size_t b = 0; b < context.config->backends.size(); ++b) {
      const std::string& backend = context.config->backends[b].name;
      const auto forms = ops.forms_for(backend);
      BackendInfo info{backend, {}, {}, {}};
      for (const auto& f : forms)
        info.implementation += (info.implementation.empty() ? "" : ", ") + f.describe();
      std::vector<bool> matched(forms.size(), false);
      std::vector<const Registration*> computed;
      std::vector<bool> filled(inv.ops.size(), false);
      for (const auto& [key, r] : regs) {
        if (r->backend != backend) continue;
        matched[r->form] = true;
        if (info.declared.file.empty()) info.declared = r->at;
        std::optional<std::size_t> o;
        bool other_op = false;  // names an op outside the configured set
        if (r->op.kind == Named::Kind::enumerator || r->op.kind == Named::Kind::identifier ||
            r->op.kind == Named::Kind::string) {
          // An enumerator of another enum is no op of this one, whatever its name.
          if (r->op.kind == Named::Kind::enumerator && !ops.enum_name.empty() &&
              r->op.enum_name != ops.enum_name) {
            other_op = true;
          } else if (auto it = row.find(r->op.name); it != row.end()) {
            o = it->second;
          } else if (context.excluded_op(r->op.name) || enumerator_names.count(r->op.name) ||
                     (ops.enum_name.empty() && r->op.kind != Named::Kind::enumerator)) {
            other_op = true;  // excluded, or a name outside ops_interface.ops (warned below)
            if (!ops.op_list.empty() && !context.excluded_op(r->op.name))
              inv.warnings.push_back("ops_interface.ops: backend '" + backend + "' registers '" + r->op.name +
                                     "' at " + context.where(r->at) + ", which is not in the list");
          }
        }
        if (!o) {
          if (!other_op) computed.push_back(r);
          continue;
        }
        Cell c = creator_cell(*r);
        c.defined = r->at;
        if (c.declared.file.empty()) c.declared = r->at;
        c.signature = r->written;
        Cell& cell = inv.cells[*o][b];
        if (!filled[*o] || rank(c.status) < rank(cell.status)) cell = std::move(c);
        filled[*o] = true;
      }
      // A registration whose op the code computes may register any op: the backend's missing cells are
      // unknown, and say where.
      std::string why;
      if (!computed.empty()) {
        const Registration& r = *computed.front();
        why = context.where(r.at) + " registers an op it does not name (" +
              (r.op.text.empty() ? std::string("no op argument") : "`" + r.op.text + "`") + ")" +
              (computed.size() > 1 ? " and " + std::to_string(computed.size() - 1) + " more" : "") +
              ": it may be this one";
        for (const Registration* c : computed) {
          inv.warnings.push_back("ops_interface.registrations: backend '" + backend + "' registers at " +
                                 context.where(c->at) + " an op it does not name: " +
                                 (c->op.text.empty() ? "no argument " + std::to_string(forms[c->form].op)
                                                     : "`" + c->op.text + "`") +
                                 " in " + c->written);
        }
      }
      const fs::path registry = registry_file(inv, b, filled);
      guarded(context, b, regs, classes, row, inv, filled);
      inherit(context, b, regs, classes, row, inv, filled);
      for (std::size_t o = 0; o < inv.ops.size(); ++o) {
        if (filled[o]) continue;
        Cell& cell = inv.cells[o][b];
        cell.defined = missing_place(inv, b, filled, registry, o);
        if (!why.empty()) {
          cell.status = Status::unknown;
          cell.reason = why;
        } else {
          cell.status = Status::missing;
          cell.reason = "no registration of it in the backend's folders";
        }
      }
      // A form that matches nothing: the names the backend's folders do use, nearest first. A backend none of
      // whose sources the run parses (a build without it) can match nothing: the warning says that instead.
      const std::string unparsed = std::count(matched.begin(), matched.end(), false) == 0
                                       ? std::string()
                                       : context.unparsed_backend(backend);
      if (!unparsed.empty()) {
        inv.warnings.push_back("ops_interface.registrations." + backend + ": backend '" + backend +
                               "' has no unit to read its registrations from: " + unparsed);
      } else if (seen.count(backend)) {
        for (std::size_t f = 0; f < forms.size(); ++f) {
          if (matched[f]) continue;
          const auto& names = forms[f].kind == RegistrationForm::Kind::call        ? calls[backend]
                              : forms[f].kind == RegistrationForm::Kind::registrar ? types[backend]
                                                                                   : variables[backend];
          std::string wanted;
          for (char ch : forms[f].name.pattern()) {
            if (ch != '*') wanted += ch;
          }
          inv.warnings.push_back("ops_interface." + forms[f].path + ": no " + forms[f].describe() +
                                 " in the folders of backend '" + backend +
                                 "'; nearest: " + nearest_names(wanted, names));
        }
      }
      inv.backends.push_back(std::move(info));
    }
    return inv;
  }
};

}  // namespace

std::unique_ptr<InventoryModel> make_registrations_model() {
  return std::make_unique<RegistrationsModel>();
}

}  // namespace emberlint::analyze
