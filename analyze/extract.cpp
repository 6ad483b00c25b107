#include "analyze/extract.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "analyze/cursor.hpp"
#include "analyze/model.hpp"
#include "lint/libclang/cursor.hpp"
#include "lint/support/glob.hpp"
#include "lint/parse/parse.hpp"
#include "lint/project/project.hpp"
#include "lint/run/scheduler.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

// ---- what one translation unit says, before merging -------------------------------------------------

struct RawOp {
  std::string usr, name, category;
  Signature signature;
  Place declared;
};

using RawBody = Body;

// A public method of a backend class, or an external function of a backend (functions shape).
struct RawImpl {
  std::string backend, usr, name, owner;  // name: the op's name (functions: the {op} of the function's name)
  Signature signature;                    // the declaration's (with its defaults)
  Place declared;
  std::vector<std::string> overrides;  // class shape: USRs of the overridden methods
  bool marker = false;
  std::string spelled;  // the function's own name, when it differs from `name`
  // Class shape: the base outside the backend's folders whose implementation the backend's class inherits
  // (a frontend's reference implementation), empty for the class's own methods.
  std::string inherited_from;
  const std::string& function() const { return spelled.empty() ? name : spelled; }
};

struct RawBackendClass {
  std::string backend, name;
  Place declared;
};

struct TuResult {
  std::vector<RawOp> ops;
  std::vector<RawImpl> impls;
  std::vector<RawBody> bodies;
  std::vector<RawBackendClass> classes;
  std::set<std::string> interface_methods;  // class shape: every method of the interface and its bases
  // Definitions whose bodies were skipped because they live in a preamble header: USR and header.
  std::vector<std::pair<std::string, fs::path>> skipped;
  std::optional<Failure> failure;
  std::vector<Dependency> dependencies;  // with a cache: what the parse read
  bool opened = true;                    // false: the file could not even be read
  // The text of the regions a disabled #if removed from the backend files of the unit, by file: where an
  // op's definition may be, under other flags.
  std::map<fs::path, std::string> disabled;
  std::unique_ptr<UnitFacts> model;  // what a registered model found (its units are walked even with errors)
  std::set<fs::path> included;       // the headers the unit read (not the main file)
};

// ---- one translation unit ----------------------------------------------------------------------------

class TuWalker {
 public:
  TuWalker(const ExtractInput& in, CXTranslationUnit tu, TuResult& out) : in_(in), tu_(tu), out_(out) {}

  void run() {
    CXCursor root = clang::root(tu_);
    walk(root);
  }

 private:
  bool header_is_interface(const fs::path& file) const {
    for (const auto& g : in_.ops->headers) {
      if (g.matches_path(file)) return true;
    }
    return false;
  }
  bool in_project(const fs::path& file) const {
    return !file.empty() && !relative_to(file, in_.config->root).empty() && !in_.config->excluded(file);
  }

  // The interface class and its bases: their virtual methods declared in the interface headers are ops.
  void collect_interface(CXCursor cls) {
    if (!seen_classes_.insert(usr(cls)).second) return;
    for (CXCursor c : children(cls)) {
      CXCursorKind k = clang::kind(c);
      if (k == CXCursor_CXXBaseSpecifier) {
        CXCursor base = clang::definition(clang::declaration_of(clang::type_of(c)));
        if (!clang::is_null(base)) collect_interface(base);
      } else if (k == CXCursor_CXXMethod && clang::is_virtual_method(c)) {
        out_.interface_methods.insert(usr(c));
        Place p = place_of(c);
        if (!header_is_interface(p.file)) continue;
        out_.ops.push_back({usr(c), clang::spelling(c), category_of(p.file), signature_of(tu_, c), p});
      }
    }
  }

  bool derives_from_interface(CXCursor cls, int depth = 0) const {
    if (depth > 32) return false;
    for (CXCursor c : children(cls)) {
      if (clang::kind(c) != CXCursor_CXXBaseSpecifier) continue;
      CXCursor base = clang::definition(clang::declaration_of(clang::type_of(c)));
      if (clang::is_null(base)) continue;
      if (qualified_name(base) == in_.ops->interface_class || derives_from_interface(base, depth + 1))
        return true;
    }
    return false;
  }

  // Every backend whose folders hold a file: a folder shared by two backends (a gpu/ of Metal and CUDA) holds
  // an implementing class of each.
  std::vector<std::string> backends_of_file(const fs::path& file) const {
    if (file.empty()) return {};
    Layer layer = classify_path(*in_.config, file);
    if (layer.kind != LayerKind::backend) return {};
    std::vector<std::string> out = {layer.backend};
    out.insert(out.end(), layer.also.begin(), layer.also.end());
    return out;
  }

  void class_shape_class(CXCursor cls) {
    std::string name = qualified_name(cls);
    if (name == in_.ops->interface_class) collect_interface(cls);
    Place p = place_of(cls);
    for (const std::string& backend : backends_of_file(p.file)) {
      auto configured = in_.ops->implementations.find(backend);
      bool is_impl = configured != in_.ops->implementations.end() ? configured->second == name
                                                                  : derives_from_interface(cls);
      if (!is_impl || !impl_classes_.insert(backend + "\x1f" + usr(cls)).second) continue;
      out_.classes.push_back({backend, name, p});
      for (CXCursor c : children(cls)) {
        if (clang::kind(c) != CXCursor_CXXMethod) continue;
        if (!clang::is_public(c)) continue;
        std::string method = clang::spelling(c);
        if (method.rfind("operator", 0) == 0) continue;
        RawImpl impl{
            backend, usr(c), method, name, signature_of(tu_, c), place_of(c), {}, has_fallback_marker(c),
            {},      {}};
        add_overridden(c, impl.overrides);
        out_.impls.push_back(std::move(impl));
      }
      std::set<std::string> overridden;
      for (CXCursor c : children(cls)) {
        if (clang::kind(c) != CXCursor_CXXMethod) continue;
        overridden.insert(usr(c));
        std::vector<std::string> chain;
        add_overridden(c, chain);
        overridden.insert(chain.begin(), chain.end());
      }
      add_inherited(cls, backend, overridden);
    }
  }

  // Every method `m` overrides, directly or through intermediate bases (a backend's class deriving from a
  // reference implementation that derives from the interface).
  static void add_overridden(CXCursor m, std::vector<std::string>& out, int depth = 0) {
    if (depth > 16) return;
    for (CXCursor o : clang::overridden(m)) {
      out.push_back(usr(o));
      add_overridden(o, out, depth + 1);
    }
  }

  // The ops a backend's class inherits from a base outside the backend's folders that implements them (a
  // frontend's reference implementation): that base's code runs for them. A base in the backend's own folders
  // is an implementing class of its own.
  void add_inherited(CXCursor cls, const std::string& backend, std::set<std::string>& overridden,
                     int depth = 0) {
    if (depth > 16) return;
    for (CXCursor c : children(cls)) {
      if (clang::kind(c) != CXCursor_CXXBaseSpecifier) continue;
      CXCursor base = clang::definition(clang::declaration_of(clang::type_of(c)));
      if (clang::is_null(base)) continue;
      const std::string base_name = qualified_name(base);
      if (base_name == in_.ops->interface_class || !derives_from_interface(base)) continue;
      const auto owners = backends_of_file(place_of(base).file);
      if (std::find(owners.begin(), owners.end(), backend) != owners.end()) continue;
      for (CXCursor m : children(base)) {
        if (clang::kind(m) != CXCursor_CXXMethod || !clang::is_public(m) || !clang::is_virtual_method(m) ||
            clang::is_pure_virtual_method(m))
          continue;
        const std::string u = usr(m);
        // Only what overrides the interface's methods: a virtual the base adds is no op.
        if (clang::overridden(m).empty() || !overridden.insert(u).second) continue;
        RawImpl impl{backend,     u,  clang::spelling(m),     base_name, signature_of(tu_, m),
                     place_of(m), {}, has_fallback_marker(m), {},        {}};
        impl.inherited_from = base_name;
        // Its body is in a header whose bodies this unit skipped: the header gets a parse of its own.
        if (const Place where = place_of(m); is_header_path(where.file) && in_project(where.file))
          out_.skipped.emplace_back(u, where.file);
        add_overridden(m, impl.overrides);
        overridden.insert(impl.overrides.begin(), impl.overrides.end());
        out_.impls.push_back(std::move(impl));
      }
      add_inherited(base, backend, overridden, depth + 1);
    }
  }

  void function_shape_decl(CXCursor fn) {
    Place p = place_of(fn);
    std::string ns = enclosing_namespace(fn);
    const std::string spelled = clang::spelling(fn);
    if (ns == in_.ops->ops_namespace && header_is_interface(p.file)) {
      if (auto op = in_.ops->op_names.match(spelled)) {
        Signature sig = signature_of(tu_, fn);
        strip_namespace(sig, ns);
        out_.ops.push_back({usr(fn), *op, category_of(p.file), std::move(sig), p});
      }
      return;
    }
    if (!clang::has_external_linkage(fn) || ns.find("(anonymous)") != std::string::npos) return;
    // A backend's function: in its configured namespace, else anywhere in its folder.
    std::optional<std::string> backend;
    for (const auto& b : in_.config->backends) {
      auto it = in_.ops->implementations.find(b.name);
      if (it != in_.ops->implementations.end() && (ns == it->second || ns.rfind(it->second + "::", 0) == 0)) {
        backend = b.name;
      }
    }
    if (!backend) {
      const auto by_file = backends_of_file(p.file);
      if (!by_file.empty() && !in_.ops->implementations.count(by_file.front())) backend = by_file.front();
    }
    // A name pattern with {backend} ("{op}_{backend}") names the backend wherever the function is.
    std::optional<std::string> op;
    if (backend) op = in_.ops->implementation_names.for_backend(*backend).match(spelled);
    if (!op && in_.ops->implementation_names.has_backend() && !header_is_interface(p.file)) {
      for (const auto& b : in_.config->backends) {
        if ((op = in_.ops->implementation_names.for_backend(b.name).match(spelled))) {
          backend = b.name;
          break;
        }
      }
    }
    if (!backend || !op) return;
    Signature sig = signature_of(tu_, fn);
    strip_namespace(sig, ns);  // types compared modulo the backend's own namespace
    out_.impls.push_back({*backend,
                          usr(fn),
                          *op,
                          ns,
                          std::move(sig),
                          p,
                          {},
                          has_fallback_marker(fn),
                          *op == spelled ? std::string() : spelled,
                          {}});
  }

  void definition(CXCursor fn) {
    Place p = place_of(fn);
    if (!in_project(p.file)) return;
    CXCursor body = body_of(fn);
    if (clang::is_null(body)) {
      // Skipped because it is in a preamble header (or defaulted): the header gets its own parse if this
      // turns out to be an op's implementation.
      if (is_header_path(p.file)) out_.skipped.emplace_back(usr(fn), p.file);
      return;
    }
    RawBody b;
    b.usr = usr(fn);
    b.defined = p;
    b.signature = signature_of(tu_, fn);
    classify_body(fn, body, b);
    out_.bodies.push_back(std::move(b));
  }

  void walk(CXCursor parent) {
    visit(parent, [&](CXCursor c) {
      CXCursorKind k = clang::kind(c);
      switch (k) {
        case CXCursor_Namespace:
        case CXCursor_LinkageSpec:
          walk(c);
          break;
        case CXCursor_ClassDecl:
        case CXCursor_StructDecl:
          if (clang::is_definition(c)) {
            if (in_.ops->shape == OpsConfig::Shape::class_) class_shape_class(c);
            walk(c);  // in-class method definitions
          }
          break;
        case CXCursor_CXXMethod:
        case CXCursor_FunctionDecl:
        case CXCursor_FunctionTemplate:  // function templates are ops and implementations like any other
          if (k != CXCursor_CXXMethod && in_.ops->shape == OpsConfig::Shape::functions)
            function_shape_decl(c);
          if (clang::is_definition(c)) definition(c);
          break;
        default:
          break;
      }
      return CXChildVisit_Continue;
    });
  }

  const ExtractInput& in_;
  CXTranslationUnit tu_;
  TuResult& out_;
  std::set<std::string> seen_classes_, impl_classes_;
};

TuResult parse_one(const clang::Index& index, const ExtractInput& in, const CompileCommand& command,
                   const InventoryModel* model) {
  TuResult out;
  // Plain `//` comments attach to declarations only with all_comments: the `emberlint-fallback:` marker.
  // Bodies of the headers before the first line of code are skipped: the ops are defined in the main files,
  // and skipping library template bodies is what keeps a parse of Eigen-heavy sources fast.
  // The preprocessing record keeps the ranges a disabled #if skipped (see `disabled`).
  UnitParse how;
  how.skip_preamble_bodies = true;
  how.all_comments = true;
  ParsedUnit parsed = parse_unit(index, command, in.resource_dir, how);
  const clang::TranslationUnit& tu = parsed.tu;
  if (!parsed) {
    out.failure = Failure{command.file, "error: libclang could not parse this file", {}, 0, 0};
    // The same file and command fail the same way: the result holds while the file's bytes do (or, when it
    // cannot be read, while its folder's listing does).
    if (ResultCache* cache = in.cache) {
      std::ifstream file(command.file, std::ios::binary);
      std::ostringstream bytes;
      bytes << file.rdbuf();
      if (file) {
        out.dependencies.push_back(cache->dependency(command.file, bytes.str()));
      } else {
        out.opened = false;
        out.dependencies.push_back(cache->folder_dependency(command.file.parent_path()));
      }
    }
    return out;
  }
  // Errors as `check` reports them: the first few, with their cause (a missing SDK header, a generated file
  // not built yet, ...), which the config's expected_parse_errors may expect.
  ParseResult errors;
  if (collect_parse_errors(tu.get(), command.directory, errors)) {
    out.failure = Failure{command.file, errors.failure, errors.failure_file, errors.failure_line,
                          errors.failure_column};
    out.failure->cause = errors.cause;
    out.failure->errors = errors.errors;
    out.failure->partial = model != nullptr;  // the models read units with errors; the class walk does not
  }
  clang::for_each_inclusion(tu.get(), [&](CXFile file, unsigned) {
    fs::path name = clang::file_name(file);
    out.included.insert(canonical_path(name.is_relative() ? command.directory / name : name));
  });
  for_each_skipped_range(tu.get(), command.directory, [&](const fs::path& path, std::string_view text) {
    if (classify_path(*in.config, path).kind != LayerKind::backend) return;
    out.disabled[path].append(text).push_back('\n');
  });
  if (ResultCache* cache = in.cache) {
    for_each_input(tu.get(), command.directory, [&](const fs::path& p, std::string_view bytes) {
      out.dependencies.push_back(cache->dependency(p, bytes));
    });
    for (const fs::path& folder : missing_file_folders(command, errors.errors))
      out.dependencies.push_back(cache->folder_dependency(folder));
  }
  if (model) {
    ModelContext context{in.config, in.ops};
    out.model = model->walk(context, tu.get());
  } else if (!out.failure) {
    TuWalker(in, tu.get(), out).run();
  }
  return out;
}

// ---- merging -----------------------------------------------------------------------------------------

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
      BackendInfo info{b.name, {}, {}};
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

std::vector<TuResult> parse_all(const ExtractInput& input, const std::vector<CompileCommand>& commands,
                                const InventoryModel* model = nullptr) {
  std::vector<TuResult> results(commands.size());
  for_each_unit(commands.size(), input.jobs, [&](const clang::Index& index, std::size_t i) {
    results[i] = parse_one(index, input, commands[i], model);
  });
  return results;
}

// Whether `word` occurs in `text` as a whole identifier.
// Whether `text` names `word`: as a whole identifier, or as the first part of one before an underscore (a
// backend's class of the op: `Conv_x86`, `Convolution_x86_avx512`).
bool has_identifier(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    bool before = at > 0 && is_identifier_char(text[at - 1]);
    const std::size_t end = at + word.size();
    bool after = end < text.size() && is_identifier_char(text[end]) && text[end] != '_';
    if (!before && !after) return true;
  }
  return false;
}

// A backend source whose disabled #if regions name the op (its implementation's name for the functions
// model, else the op's own name: the enumerator, the op class): the op may be defined there under other
// flags, so the cell is unknown rather than missing.
std::optional<fs::path> disabled_definition(const ExtractInput& input, const std::vector<TuResult>& results,
                                            const std::string& backend, const Op& op) {
  ModelContext context{input.config, input.ops};
  std::string needle = op.name;
  if (input.ops->shape == OpsConfig::Shape::functions) {
    if (auto name = input.ops->implementation_names.for_backend(backend).expand(op.name)) needle = *name;
  }
  if (needle.empty()) return std::nullopt;
  for (const TuResult& r : results) {
    for (const auto& [file, text] : r.disabled) {
      auto owners = context.backends_of(file);
      if (std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
      if (has_identifier(text, needle)) return file;
    }
  }
  return std::nullopt;
}

// A cell the code cannot tell: a missing cell of a backend some of whose sources did not parse (or parsed
// with guessed flags), or none of whose sources was parsed; an implemented cell whose source parsed with
// guessed flags.
void mark_unknown(const ExtractInput& input, const std::vector<TuResult>& results, Inventory& inv) {
  ModelContext context{input.config, input.ops};
  std::map<fs::path, std::string> guessed;
  for (std::size_t i = 0; i < input.commands.size() && i < input.guesses.size(); ++i) {
    if (!input.guesses[i].empty()) guessed[input.commands[i].file] = input.guesses[i];
  }
  for (std::size_t b = 0; b < inv.backends.size(); ++b) {
    const std::string& backend = inv.backends[b].name;
    std::size_t total = 0, failed = 0;
    // The backend's sources whose code emberlint did not see whole: parsed with errors, or with guessed
    // flags.
    std::vector<std::pair<fs::path, std::string>> doubtful;  // file, why
    for (std::size_t i = 0; i < input.commands.size() && i < results.size(); ++i) {
      auto owners = context.backends_of(input.commands[i].file);
      if (std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
      ++total;
      const fs::path& file = input.commands[i].file;
      if (results[i].failure && results[i].failure->partial) {
        // What parsed is there; what the errors cut may be missing: the ops the source names stay open.
        doubtful.emplace_back(file, "parsed with errors (" + results[i].failure->cause + ")");
      } else if (results[i].failure) {
        ++failed;
        doubtful.emplace_back(file, "could not be parsed");
      } else if (auto it = guessed.find(file); it != guessed.end()) {
        doubtful.emplace_back(file, "was parsed with guessed compile flags (" + it->second + ")");
      }
    }
    std::size_t unparsed = 0;
    for (const auto& [file, why] : input.unparsed) {
      auto owners = context.backends_of(file);
      if (std::find(owners.begin(), owners.end(), backend) == owners.end()) continue;
      ++unparsed;
      doubtful.emplace_back(file, why);
    }
    auto rel = [&](const fs::path& p) {
      std::string r = relative_to(p, input.config->root);
      return r.empty() ? p.string() : r;
    };
    // A functions-shape backend found by its namespace may live anywhere: its folders say nothing.
    if (input.ops->shape == OpsConfig::Shape::functions && input.ops->implementations.count(backend))
      continue;
    bool implemented = std::any_of(inv.cells.begin(), inv.cells.end(), [&](const std::vector<Cell>& row) {
      return row[b].status != Status::missing;
    });
    // A backend the code says nothing of: every missing cell is unknown.
    std::string why;
    if (total == 0 && !implemented) {
      why = unparsed ? "none of the backend's " + std::to_string(unparsed) +
                           " sources is in the compile database (not parsed; ops_interface.guess_flags may "
                           "allow guessing their flags)"
                     : "no source of this backend was parsed";
    } else if (total && failed == total) {
      why = "none of the backend's " + std::to_string(total) + " sources could be parsed";
    }
    // Otherwise a missing cell is unknown only where a source not seen whole names the op (the class, the
    // enumerator, the function): a source that never names it cannot define it.
    std::map<fs::path, std::string> texts;
    auto naming = [&](const Op& op) -> const std::pair<fs::path, std::string>* {
      for (const auto& d : doubtful) {
        auto [it, added] = texts.try_emplace(d.first);
        if (added) {
          std::ifstream in(d.first, std::ios::binary);
          std::ostringstream bytes;
          bytes << in.rdbuf();
          it->second = bytes.str();
        }
        if (has_identifier(it->second, op.name)) return &d;
      }
      return nullptr;
    };
    for (std::size_t r = 0; r < inv.cells.size(); ++r) {
      Cell& cell = inv.cells[r][b];
      if (cell.status == Status::missing && why.empty()) {
        if (const auto* d = naming(inv.ops[r])) {
          cell.status = Status::unknown;
          cell.reason = rel(d->first) + " " + d->second + " and names it: the op may be there";
        } else if (auto file = disabled_definition(input, results, backend, inv.ops[r])) {
          cell.status = Status::unknown;
          cell.reason = "a disabled #if in " + rel(*file) + " names it: it may be defined under other flags";
        }
      }
      if (cell.status == Status::missing && !why.empty()) {
        cell.status = Status::unknown;
        cell.reason = why;
      } else if (cell.status != Status::missing && cell.status != Status::unknown) {
        if (auto it = guessed.find(cell.defined.file); it != guessed.end()) {
          cell.reason = "would be " + std::string(to_string(cell.status)) +
                        (cell.reason.empty() ? "" : " (" + cell.reason + ")") +
                        ", but its source was parsed with guessed compile flags (" + it->second + ")";
          cell.status = Status::unknown;
        }
      }
    }
  }
}

}  // namespace

ExtractResult extract_inventory(const ExtractInput& input) {
  const ModelInfo* info = find_model(input.ops->model);
  std::unique_ptr<InventoryModel> model = info && info->make ? info->make() : nullptr;
  std::vector<TuResult> results = parse_all(input, input.commands, model.get());
  const std::size_t primary = results.size();
  ExtractResult out;
  auto keep_dependencies = [&out](std::vector<TuResult>& units) {
    for (TuResult& r : units) {
      out.cacheable = out.cacheable && r.opened;
      for (Dependency& d : r.dependencies) out.dependencies.push_back(std::move(d));
      r.dependencies.clear();
    }
  };
  keep_dependencies(results);
  // The sources not parsed are read for the ops they name (mark_unknown): their texts are inputs too.
  if (input.cache) {
    for (const auto& [file, why] : input.unparsed) {
      std::ifstream in(file, std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      if (!in) {
        out.cacheable = false;
        continue;
      }
      out.dependencies.push_back(input.cache->dependency(file, bytes.str()));
    }
  }
  // A header parsed on its own (one of ops_interface.headers) that another unit of the run includes and reads
  // without a failure is no failure of the run: helper headers are often not self-contained (they rely on
  // what their includer included first), and the includer's parse saw their declarations.
  std::set<fs::path> read_by_clean_units;
  for (std::size_t i = 0; i < primary; ++i) {
    if (!results[i].failure)
      read_by_clean_units.insert(results[i].included.begin(), results[i].included.end());
  }
  for (std::size_t i = 0; i < primary; ++i) {
    const fs::path& file = input.commands[i].file;
    if (results[i].failure && is_header_path(file) && read_by_clean_units.count(canonical_path(file)))
      results[i].failure.reset();
    if (results[i].failure) {
      out.failures.push_back(*results[i].failure);
    } else {
      ++out.files_analyzed;
    }
  }
  std::sort(out.failures.begin(), out.failures.end());
  if (model) {
    std::vector<std::unique_ptr<UnitFacts>> units;
    for (auto& r : results) {
      if (r.model) units.push_back(std::move(r.model));
    }
    out.inventory = model->build(ModelContext{input.config, input.ops}, units);
    out.inventory.model = input.ops->model;
    if (out.inventory.shape.empty()) out.inventory.shape = input.ops->model;
    mark_unknown(input, results, out.inventory);
    return out;
  }
  // Second round: headers that define an implementation inline, whose bodies the preamble skipped. Each is
  // parsed on its own with the flags of the first unit that included it.
  std::set<std::string> implemented, defined;
  for (const auto& r : results) {
    for (const auto& impl : r.impls) implemented.insert(impl.usr);
    for (const auto& b : r.bodies) defined.insert(b.usr);
  }
  std::map<fs::path, CompileCommand> headers;
  for (std::size_t i = 0; i < primary; ++i) {
    for (const auto& [u, file] : results[i].skipped) {
      if (!implemented.count(u) || defined.count(u) || headers.count(file)) continue;
      CompileCommand c = input.commands[i];
      c.file = file;
      if (!is_header_path(input.commands[i].file)) c.arguments.insert(c.arguments.begin(), {"-x", "c++"});
      headers.emplace(file, std::move(c));
    }
  }
  std::vector<CompileCommand> second;
  for (auto& [file, c] : headers) second.push_back(std::move(c));
  std::vector<TuResult> headers_parsed = parse_all(input, second);
  keep_dependencies(headers_parsed);
  for (auto& r : headers_parsed) {
    if (!r.failure) results.push_back(std::move(r));  // a header that does not parse alone adds nothing
  }
  out.inventory = Merger(input, results).run();
  mark_unknown(input, results, out.inventory);
  return out;
}

}  // namespace emberlint::analyze
