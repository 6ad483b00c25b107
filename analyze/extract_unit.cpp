// Inventory extraction, one translation unit: parse it (skipping preamble bodies, keeping all comments and
// the ranges a disabled #if skipped) and walk it for the interface's ops, the backends' implementing classes
// or functions and the bodies of their definitions (TuWalker), or hand it to a registered model's walk.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "analyze/cursor.hpp"
#include "analyze/extract_unit.hpp"
#include "lint/libclang/cursor.hpp"
#include "lint/parse/parse.hpp"
#include "lint/project/project.hpp"
#include "lint/run/scheduler.hpp"
#include "lint/run/shared_prefixes.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

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
      const auto& listed = in_.ops->op_list;  // ops_interface.ops: only these functions are ops
      if (auto op = in_.ops->op_names.match(spelled);
          op && (listed.empty() || std::find(listed.begin(), listed.end(), *op) != listed.end())) {
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
      // The unit's macro expansions and inclusions (the preprocessing record's, thousands from a prefix or
      // preamble) and every other kind the inventory does not read are passed over before their place is
      // looked up.
      if (k != CXCursor_Namespace && k != CXCursor_LinkageSpec && k != CXCursor_ClassDecl &&
          k != CXCursor_StructDecl && k != CXCursor_CXXMethod && k != CXCursor_FunctionDecl &&
          k != CXCursor_FunctionTemplate)
        return CXChildVisit_Continue;
      // The standard library, Eigen, an SDK: nothing of the inventory is declared outside the project, and a
      // unit that loads a shared prefix holds the headers of its command's every unit.
      if (!in_project(places_.file(c))) return CXChildVisit_Continue;
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
          if (clang::is_definition(c)) {
            definition(c);
          } else if (const Place p = place_of(c);
                     is_header_path(p.file) && in_project(p.file) && clang::has_skipped_body(tu_, c)) {
            out_.skipped.emplace_back(usr(c), p.file);  // a function template of a preamble header
          }
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
  Places places_;
};

TuResult parse_one(const clang::Index& index, const ExtractInput& in, const CompileCommand& command,
                   const InventoryModel* model, const PrefixUse* prefix) {
  TuResult out;
  // Plain `//` comments attach to declarations only with all_comments: the `emberlint-fallback:` marker.
  // Bodies of the headers before the first line of code are skipped: the ops are defined in the main files,
  // and skipping library template bodies is what keeps a parse of Eigen-heavy sources fast.
  // The preprocessing record keeps the ranges a disabled #if skipped (see `disabled`).
  UnitParse how;
  how.skip_preamble_bodies = true;
  how.all_comments = true;
  // The headers from outside the project come from the prefix that `check` would load (shared_prefixes.hpp),
  // when the unit has one; a unit with errors under it is parsed again without it, as check's are, so that
  // no error a prefix caused is ever reported.
  if (prefix) how.include_pch = prefix->prefix->pch;
  ParsedUnit parsed = parse_unit(index, command, in.resource_dir, how);
  bool prefixed = false;
  if (prefix) {
    prefixed = parsed && !clang::first_error(parsed.tu.get());
    if (!prefixed) {
      parsed = ParsedUnit();  // disposed before the parse without the prefix
      how.include_pch.clear();
      parsed = parse_unit(index, command, in.resource_dir, how);
    }
  }
  const clang::TranslationUnit& tu = parsed.tu;
  out.prefixed = prefixed;
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
    out.failure->cause = owned_parse_cause(*in.config, errors.cause, errors.error_files);
    out.failure->errors = errors.errors;
    out.failure->partial = model != nullptr;  // the models read units with errors; the class walk does not
  }
  clang::for_each_inclusion(tu.get(), [&](CXFile file, unsigned) {
    fs::path name = clang::file_name(file);
    out.included.insert(canonical_path(name.is_relative() ? command.directory / name : name));
  });
  for_each_skipped_range(
      tu.get(), command.directory,
      [&](const fs::path& path) { return classify_path(*in.config, path).kind == LayerKind::backend; },
      [&](const fs::path& path, std::string_view text) { out.disabled[path].append(text).push_back('\n'); });
  if (ResultCache* cache = in.cache) {
    for_each_input(tu.get(), command.directory, prefixed ? prefix : nullptr,
                   [&](const fs::path& p, std::string_view bytes) {
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

}  // namespace

std::vector<TuResult> parse_all(const ExtractInput& input, const std::vector<CompileCommand>& commands,
                                const InventoryModel* model, std::size_t* prefixes_built) {
  std::vector<TuResult> results(commands.size());
  // Units of one command share a prefix of the headers they include from outside the project, as check's do
  // (lint/run/shared_prefixes.hpp): most of a unit's parse is those headers. The prefixes outlive the parses.
  SharedPrefixes shared;
  std::vector<PrefixUse> given(commands.size());
  if (input.shared_prefix) {
    std::vector<PrefixUnit> units;
    for (const CompileCommand& c : commands) units.push_back({&c, input.config});
    given = shared.plan(units, std::vector<bool>(commands.size(), true), input.jobs, input.resource_dir);
    if (prefixes_built) *prefixes_built += shared.built();
  }
  for_each_unit(commands.size(), input.jobs, [&](const clang::Index& index, std::size_t i) {
    results[i] = parse_one(index, input, commands[i], model, given[i].prefix ? &given[i] : nullptr);
  });
  return results;
}

}  // namespace emberlint::analyze
