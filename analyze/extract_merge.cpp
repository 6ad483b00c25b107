// Inventory extraction, merging (class and functions shapes): the ops, implementations and bodies that the
// units found (extract_unit.cpp) joined by USR, each backend's implementations matched to the ops (an
// override, or the same name and parameters), each cell classified from its body (native, fallback, stub,
// missing) with its signature mismatches (EL401).
#include <algorithm>
#include <tuple>

#include "analyze/extract_unit.hpp"
#include "lint/project/project.hpp"
#include "lint/support/glob.hpp"

namespace emberlint::analyze {

namespace {

bool same_defaults(const Signature& a, const Signature& b, std::string& diff) {
  for (std::size_t i = 0; i < std::min(a.params.size(), b.params.size()); ++i) {
    if (a.params[i].default_value == b.params[i].default_value) continue;
    auto show = [](const std::string& v) { return v.empty() ? std::string("none") : "'" + v + "'"; };
    diff = "parameter " + std::to_string(i + 1) + " default " + show(b.params[i].default_value) +
           " (interface: " + show(a.params[i].default_value) + ")";
    return false;
  }
  return true;
}

// How an implementation's signature differs from the op's; empty when it does not.
std::vector<std::string> mismatches(const Signature& op, const Signature& impl) {
  std::vector<std::string> out;
  if (op.result_canonical != impl.result_canonical)
    out.push_back("returns '" + impl.result + "' (interface: '" + op.result + "')");
  if (op.params.size() != impl.params.size()) {
    out.push_back("takes " + std::to_string(impl.params.size()) +
                  " parameters (interface: " + std::to_string(op.params.size()) + ")");
  } else {
    for (std::size_t i = 0; i < op.params.size(); ++i) {
      if (op.params[i].canonical != impl.params[i].canonical)
        out.push_back("parameter " + std::to_string(i + 1) + " is '" + impl.params[i].type +
                      "' (interface: '" + op.params[i].type + "')");
    }
    std::string diff;
    if (!same_defaults(op, impl, diff)) out.push_back(diff);
  }
  if (op.is_const != impl.is_const)
    out.push_back(impl.is_const ? "is const (interface: not const)" : "is not const (interface: const)");
  return out;
}

bool glob_any(const std::vector<Glob>& globs, const std::string& name) {
  return std::any_of(globs.begin(), globs.end(), [&](const Glob& g) { return g.matches_name(name); });
}

class Merger {
 public:
  Merger(const ExtractInput& in, std::vector<TuResult>& results) : in_(in), results_(results) {}

  Inventory run() {
    Inventory inv;
    inv.model = in_.ops->model;
    inv.shape = in_.ops->shape == OpsConfig::Shape::class_ ? "class" : "functions";
    inv.interface_name =
        in_.ops->shape == OpsConfig::Shape::class_ ? in_.ops->interface_class : in_.ops->ops_namespace;
    if (inv.interface_name.empty()) inv.interface_name = "the global namespace";
    collect();
    for (const auto& b : in_.config->backends) {
      BackendInfo info{b.name, {}, {}, {}};
      if (auto it = classes_.find(b.name); it != classes_.end()) {
        info.implementation = it->second.name;
        info.declared = it->second.declared;
      } else if (auto impl = in_.ops->implementations.find(b.name); impl != in_.ops->implementations.end()) {
        info.implementation = impl->second;
      } else if (!b.globs.empty()) {
        info.implementation = b.globs.front().literal_prefix();
      }
      inv.backends.push_back(std::move(info));
    }
    // Ops: one per USR, ordered by category then name then parameters.
    std::vector<const RawOp*> ops;
    for (const auto& [u, op] : ops_) ops.push_back(&op);
    std::sort(ops.begin(), ops.end(), [](const RawOp* a, const RawOp* b) {
      return std::tie(a->category, a->name, a->declared.line) <
             std::tie(b->category, b->name, b->declared.line);
    });
    std::map<std::string, int> name_count;
    for (const RawOp* op : ops) ++name_count[op->name];
    for (const RawOp* op : ops) {
      Op o{op->name, op->name, op->category, op->signature, op->declared, {}};
      if (name_count[op->name] > 1) o.id = op->name + op->signature.parameter_key();
      inv.ops.push_back(std::move(o));
    }
    for (const auto& name : in_.ops->op_list) {
      if (!name_count.count(name))
        inv.warnings.push_back("ops_interface.ops: '" + name + "' is no function of " + inv.interface_name +
                               " in ops_interface.headers");
    }
    inv.cells.assign(inv.ops.size(), std::vector<Cell>(inv.backends.size()));
    for (std::size_t bi = 0; bi < inv.backends.size(); ++bi) fill_backend(inv, ops, bi);
    std::sort(inv.unexposed.begin(), inv.unexposed.end(), [](const Unexposed& a, const Unexposed& b) {
      return std::tie(a.backend, a.declared.file, a.declared.line, a.name) <
             std::tie(b.backend, b.declared.file, b.declared.line, b.name);
    });
    return inv;
  }

 private:
  void collect() {
    for (auto& r : results_) {
      for (auto& op : r.ops) ops_.emplace(op.usr, op);
      for (auto& impl : r.impls) {
        auto [it, fresh] = impls_.emplace(impl_key(impl.backend, impl.usr), impl);
        if (!fresh) {
          // A redeclaration: keep the first place, take defaults from whichever declaration spells them.
          for (std::size_t i = 0; i < impl.signature.params.size() && i < it->second.signature.params.size();
               ++i) {
            if (it->second.signature.params[i].default_value.empty())
              it->second.signature.params[i].default_value = impl.signature.params[i].default_value;
          }
          it->second.marker = it->second.marker || impl.marker;
          if (impl.declared.file < it->second.declared.file ||
              (impl.declared.file == it->second.declared.file &&
               impl.declared.line < it->second.declared.line)) {
            it->second.declared = impl.declared;
          }
        }
      }
      for (auto& body : r.bodies) bodies_.emplace(body.usr, body);
      for (auto& cls : r.classes) classes_.emplace(cls.backend, cls);
      interface_methods_.insert(r.interface_methods.begin(), r.interface_methods.end());
    }
    for (const auto& [key, impl] : impls_) {
      impl_by_usr_.emplace(impl.usr, &impl);
      if (overrides_.count(impl.usr)) continue;  // the same method implementing a second backend
      for (const auto& o : impl.overrides) overrides_[impl.usr].push_back(o);
    }
  }

  // The op an implementation (or anything it overrides, transitively) stands for.
  const RawOp* op_of(const std::string& u, int depth = 0) const {
    if (auto it = ops_.find(u); it != ops_.end()) return &it->second;
    if (depth > 16) return nullptr;
    if (auto it = overrides_.find(u); it != overrides_.end()) {
      for (const auto& o : it->second) {
        if (const RawOp* op = op_of(o, depth + 1)) return op;
      }
    }
    return nullptr;
  }

  // Whether a method overrides something the interface declares that is no op (`name()`, say).
  bool overrides_interface(const std::string& u, int depth = 0) const {
    if (interface_methods_.count(u)) return true;
    auto it = overrides_.find(u);
    if (depth > 16 || it == overrides_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](const std::string& o) { return overrides_interface(o, depth + 1); });
  }

  std::string backend_of_callee(const Callee& c) const {
    if (auto it = impl_by_usr_.find(c.usr); it != impl_by_usr_.end()) return it->second->backend;
    if (!c.file.empty()) {
      Layer layer = classify_path(*in_.config, c.file);
      if (layer.kind == LayerKind::backend) return layer.backend;
    }
    return {};
  }

  Cell classify(const std::string& backend, const RawImpl& impl) const {
    Cell cell;
    cell.signature = impl.signature.render(impl.function());
    cell.declared = impl.declared;
    auto body = bodies_.find(impl.usr);
    const std::string inherited = impl.inherited_from.empty() ? std::string()
                                                              : "inherited from " + impl.inherited_from +
                                                                    ", outside the backend's folders";
    if (body == bodies_.end() && !inherited.empty()) {
      cell.status = Status::fallback;
      cell.reason = inherited;
      return cell;
    }
    if (body == bodies_.end()) {
      cell.status = Status::missing;
      cell.defined = impl.declared;
      cell.reason = "declared but never defined";
      return cell;
    }
    const RawBody& b = body->second;
    cell.defined = b.defined;
    if (b.only_throws || b.not_implemented) {
      cell.status = Status::stub;
      cell.reason = b.not_implemented ? "throws " + trim(b.throw_text) : "only throws";
      return cell;
    }
    if (b.marker || impl.marker) {
      cell.status = Status::fallback;
      cell.reason = "marked `emberlint-fallback:`";
      return cell;
    }
    if (!inherited.empty()) {
      cell.status = Status::fallback;
      cell.reason = inherited;
      return cell;
    }
    for (const Callee& c : b.callees) {
      std::string reason;
      const std::string ns = c.qualified.substr(0, c.qualified.rfind("::"));
      for (const auto& f : in_.ops->fallback_namespaces) {
        if (ns == f || ns.rfind(f + "::", 0) == 0) reason = "composite of frontend ops: calls " + c.qualified;
      }
      if (reason.empty() && glob_any(in_.ops->fallback_calls, c.qualified))
        reason = "delegates: calls " + c.qualified;
      if (reason.empty()) {
        std::string other = backend_of_callee(c);
        if (!other.empty() && other != backend)
          reason = "delegates to backend " + other + ": calls " + c.qualified;
      }
      if (reason.empty() && c.usr != impl.usr) {
        if (const RawOp* op = op_of(c.usr); op && in_.ops->shape == OpsConfig::Shape::class_) {
          reason = "composite of ops: calls " + op->name;
        } else if (auto it = impls_.find(impl_key(backend, c.usr));
                   it != impls_.end() && in_.ops->shape == OpsConfig::Shape::functions &&
                   op_names_.count(it->second.name)) {
          reason = "composite of ops: calls " + c.qualified;
        }
      }
      if (!reason.empty()) {
        cell.status = Status::fallback;
        cell.reason = reason;
        return cell;
      }
    }
    cell.status = Status::native;
    return cell;
  }

  static std::string trim(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }

  void fill_backend(Inventory& inv, const std::vector<const RawOp*>& ops, std::size_t bi) {
    const std::string& backend = inv.backends[bi].name;
    std::map<std::string, std::size_t> index;  // op USR -> row
    for (std::size_t i = 0; i < ops.size(); ++i) {
      index[ops[i]->usr] = i;
      op_names_.insert(ops[i]->name);
    }
    std::vector<const RawImpl*> impls;
    for (const auto& [u, impl] : impls_) {
      if (impl.backend == backend) impls.push_back(&impl);
    }
    std::sort(impls.begin(), impls.end(), [](const RawImpl* a, const RawImpl* b) {
      return std::tie(a->declared.file, a->declared.line, a->usr) <
             std::tie(b->declared.file, b->declared.line, b->usr);
    });
    std::vector<bool> filled(ops.size(), false);
    std::vector<const RawImpl*> unmatched;
    // Exact matches: an override (class shape) or the same name and parameter types (functions shape).
    for (const RawImpl* impl : impls) {
      std::optional<std::size_t> row;
      if (in_.ops->shape == OpsConfig::Shape::class_) {
        if (const RawOp* op = op_of(impl->usr)) row = index[op->usr];
      } else {
        for (std::size_t i = 0; i < ops.size(); ++i) {
          if (ops[i]->name == impl->name &&
              ops[i]->signature.parameter_key() == impl->signature.parameter_key())
            row = i;
        }
      }
      if (!row || filled[*row]) {
        unmatched.push_back(impl);
        continue;
      }
      filled[*row] = true;
      Cell cell = classify(backend, *impl);
      cell.mismatches = mismatches(ops[*row]->signature, impl->signature);
      inv.cells[*row][bi] = std::move(cell);
    }
    // Same name, different signature: the implementation of that op, with a signature mismatch (EL401).
    for (const RawImpl* impl : unmatched) {
      std::optional<std::size_t> row;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        if (ops[i]->name != impl->name || filled[i]) continue;
        if (!row || ops[i]->signature.params.size() == impl->signature.params.size()) row = i;
      }
      if (!row) {
        if (overrides_interface(impl->usr)) continue;
        // A function of a namespace inside the backend's own (native::detail, opencl::kernels) is a helper,
        // not what the backend exposes.
        if (in_.ops->shape == OpsConfig::Shape::functions) {
          auto own = in_.ops->implementations.find(backend);
          if (own != in_.ops->implementations.end() && impl->owner != own->second) continue;
        }
        inv.unexposed.push_back(
            {backend, impl->function(), impl->signature.render(impl->function()), impl->declared});
        continue;
      }
      filled[*row] = true;
      Cell cell = classify(backend, *impl);
      cell.mismatches = mismatches(ops[*row]->signature, impl->signature);
      if (cell.mismatches.empty()) cell.mismatches.push_back("does not override the interface method");
      inv.cells[*row][bi] = std::move(cell);
    }
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (filled[i]) continue;
      Cell& cell = inv.cells[i][bi];
      cell.status = Status::missing;
      cell.defined = inv.backends[bi].declared;
      cell.reason =
          in_.ops->shape == OpsConfig::Shape::class_ ? "not overridden" : "no function of this name";
      auto expected = in_.ops->implementation_names.for_backend(backend).expand(ops[i]->name);
      if (in_.ops->shape == OpsConfig::Shape::functions && expected && *expected != ops[i]->name)
        cell.reason = "no function " + *expected + ops[i]->signature.parameter_key();
    }
  }

  const ExtractInput& in_;
  std::vector<TuResult>& results_;
  std::map<std::string, RawOp> ops_;
  // By backend and USR: a class in a folder two backends share implements both (impl_key).
  static std::string impl_key(const std::string& backend, const std::string& usr) {
    return backend + '\x1f' + usr;
  }
  std::map<std::string, RawImpl> impls_;
  std::map<std::string, const RawImpl*> impl_by_usr_;  // the first backend's, for callees
  std::map<std::string, RawBody> bodies_;
  std::map<std::string, RawBackendClass> classes_;
  std::map<std::string, std::vector<std::string>> overrides_;
  std::set<std::string> op_names_;
  std::set<std::string> interface_methods_;
};

}  // namespace

Inventory merge_units(const ExtractInput& input, std::vector<TuResult>& results) {
  return Merger(input, results).run();
}

}  // namespace emberlint::analyze
