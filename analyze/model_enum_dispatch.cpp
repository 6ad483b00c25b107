// enum_dispatch: the ops are the enumerators of one enum (ggml's `enum ggml_op`); a backend implements an op
// where one of its dispatch functions has a `case` for it, and says whether it supports it in a predicate
// (`supports_op`) whose `case OP: return false;` can be read statically.
//
//   native    a dispatch function of the backend has `case OP:` (alone or in a fall-through group) whose
//             statements do more than abort
//   stub      that case aborts (a top-level throw or `stub_calls` call, also at the end of a block), or the
//             predicate returns false
//             for the op (explicitly, or from its `default:`) although a dispatch case exists
//   missing   no dispatch case; the reason says what the predicate returns for it when it can be read
//   unknown   only a `default:` branch that does something handles it (the code cannot tell which ops it
//             serves; a default that aborts, does nothing or returns a constant declines the op), no case
//             handles it but the predicate names it and returns true (handled before the switch), or the
//             backend's sources did not parse (extract.cpp)
#include <algorithm>
#include <map>
#include <set>

#include "analyze/cursor.hpp"
#include "analyze/model.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

// The statements after one run of labels up to the next label: `case A: case B: stmt; break;`.
struct CaseGroup {
  std::vector<std::pair<std::string, Place>> labels;  // enumerators of the configured enum, where named
  bool is_default = false;
  Place at;
  Body body;
  std::optional<long long> returns;  // the group is one `return <constant>;`
  bool empty = false;                // the group has no statement before its `break`
};

struct Function {
  std::string name, backend;
  bool dispatch = false, supports = false;
  Place defined;
  std::vector<CaseGroup> groups;
};

struct EnumFacts : UnitFacts {
  bool found = false;
  Place declared;
  std::vector<Enumerator> enumerators;
  std::set<std::string> enum_names;                         // every enum of the project, for "nearest"
  std::vector<Function> functions;                          // dispatch functions and predicates
  std::map<std::string, std::set<std::string>> defined_by;  // backend -> names of functions it defines
};

class Walker {
 public:
  Walker(const ModelContext& context, CXTranslationUnit tu, EnumFacts& out)
      : context_(context), tu_(tu), out_(out) {}

  void run() { walk(clang::root(tu_)); }

 private:
  void walk(CXCursor parent) {
    visit(parent, [&](CXCursor c) {
      CXCursorKind k = clang::kind(c);
      if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
        if (!places_.file(c).empty()) walk(c);  // not a system header's (std, an SDK)
      } else if (k == CXCursor_EnumDecl && clang::is_definition(c)) {
        enumeration(c);
      } else if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod) && clang::is_definition(c)) {
        function(c);
      } else if ((k == CXCursor_ClassDecl || k == CXCursor_StructDecl) && clang::is_definition(c)) {
        if (!places_.file(c).empty()) walk(c);
      }
      return CXChildVisit_Continue;
    });
  }

  void enumeration(CXCursor c) {
    const fs::path& file = places_.file(c);
    if (!context_.in_project(file)) return;
    std::string name = qualified_name(c);
    if (name.empty()) return;
    out_.enum_names.insert(name);
    if (name != context_.ops->enum_name || out_.found) return;
    out_.found = true;
    out_.declared = places_(c);
    for (CXCursor e : children(c)) {
      if (clang::kind(e) != CXCursor_EnumConstantDecl) continue;
      out_.enumerators.push_back({clang::spelling(e), clang::enum_value(e), places_(e)});
    }
  }

  void function(CXCursor fn) {
    const fs::path& file = places_.file(fn);
    if (!context_.in_project(file)) return;
    const std::string name = clang::spelling(fn);
    for (const std::string& backend : context_.backends_of(file)) {
      out_.defined_by[backend].insert(name);
      Function f;
      f.name = name;
      f.backend = backend;
      f.dispatch = matches(context_.ops->dispatch, backend, name);
      f.supports = matches(context_.ops->supports, backend, name);
      if (!f.dispatch && !f.supports) continue;
      f.defined = places_(fn);
      CXCursor body = body_of(fn);
      if (!clang::is_null(body)) switches(body, f);
      out_.functions.push_back(std::move(f));
    }
  }

  bool matches(const PerBackend& map, const std::string& backend, const std::string& name) const {
    for (const auto& p : context_.ops->patterns_for(map, backend)) {
      if (p.match(name)) return true;
    }
    return false;
  }

  // Every switch of the body, nested ones too; groups without a label of the enum are dropped.
  void switches(CXCursor body, Function& f) {
    visit(body, [&](CXCursor c) {
      if (clang::kind(c) == CXCursor_SwitchStmt) {
        auto kids = children(c);
        if (!kids.empty() && clang::kind(kids.back()) == CXCursor_CompoundStmt) groups(kids.back(), f);
      }
      return CXChildVisit_Recurse;
    });
  }

  // The enumerator a case label names, when it is one of the configured enum's.
  std::optional<std::string> label(CXCursor expr) const {
    CXCursor e = unwrap(expr);
    CXCursor ref = clang::referenced(e);
    if (clang::kind(ref) != CXCursor_EnumConstantDecl) return std::nullopt;
    if (qualified_name(clang::semantic_parent(ref)) != context_.ops->enum_name) return std::nullopt;
    return clang::spelling(ref);
  }

  void groups(CXCursor compound, Function& f) {
    std::vector<CaseGroup> found;
    std::vector<std::vector<CXCursor>> statements;
    bool open_labels = false;  // the current group has labels but no statement yet: the next label joins it
    for (CXCursor stmt : children(compound)) {
      CXCursorKind k = clang::kind(stmt);
      if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt) {
        if (!statements.empty()) statements.back().push_back(stmt);
        open_labels = false;
        continue;
      }
      if (!open_labels) {
        found.push_back({});
        found.back().at = places_(stmt);
        statements.emplace_back();
      }
      // `case A: case B: stmt` nests: each label's last child is the next label or the first statement.
      CXCursor s = stmt;
      open_labels = true;
      while (true) {
        CXCursorKind sk = clang::kind(s);
        auto kids = children(s);
        if (sk == CXCursor_CaseStmt) {
          if (!kids.empty()) {
            if (auto l = label(kids.front())) found.back().labels.emplace_back(*l, places_(s));
          }
        } else if (sk == CXCursor_DefaultStmt) {
          found.back().is_default = true;
        } else {
          statements.back().push_back(s);
          open_labels = false;
          break;
        }
        if (kids.empty()) break;
        s = kids.back();
      }
    }
    for (std::size_t i = 0; i < found.size(); ++i) {
      CaseGroup& g = found[i];
      if (g.labels.empty() && !g.is_default) continue;
      // The group ends at its first `break` (what follows it is unreachable from the label).
      std::vector<CXCursor> run;
      for (CXCursor s : statements[i]) {
        if (clang::kind(s) == CXCursor_BreakStmt) break;
        run.push_back(s);
      }
      classify_statements(run, g.body, &context_.ops->stub_calls);
      // `default: { } break;` and `default: ;` do nothing as much as `default: break;`.
      g.empty = std::all_of(run.begin(), run.end(), [](CXCursor s) { return does_nothing(s); });
      if (run.size() == 1 && clang::kind(run.front()) == CXCursor_ReturnStmt) {
        auto kids = children(run.front());
        if (kids.size() == 1) g.returns = constant(kids.front());
      }
      f.groups.push_back(std::move(g));
    }
  }

  static std::optional<long long> constant(CXCursor expr) { return clang::evaluate_int(expr); }

  // A null statement, or a block of nothing but such.
  static bool does_nothing(CXCursor stmt) {
    const CXCursorKind k = clang::kind(stmt);
    if (k == CXCursor_NullStmt) return true;
    if (k != CXCursor_CompoundStmt) return false;
    auto kids = children(stmt);
    return std::all_of(kids.begin(), kids.end(), [](CXCursor c) { return does_nothing(c); });
  }

  const ModelContext& context_;
  CXTranslationUnit tu_;
  EnumFacts& out_;
  Places places_;
};

class EnumDispatchModel : public InventoryModel {
 public:
  bool whole_names() const override { return true; }
  std::unique_ptr<UnitFacts> walk(const ModelContext& context, CXTranslationUnit tu) const override {
    auto facts = std::make_unique<EnumFacts>();
    Walker(context, tu, *facts).run();
    return facts;
  }

  Inventory build(const ModelContext& context,
                  const std::vector<std::unique_ptr<UnitFacts>>& units) const override {
    const OpsConfig& ops = *context.ops;
    std::vector<const EnumFacts*> facts;
    for (const auto& u : units) facts.push_back(static_cast<const EnumFacts*>(u.get()));
    const EnumFacts* declaring = nullptr;
    std::set<std::string> enums;
    for (const EnumFacts* f : facts) {
      if (f->found && !declaring) declaring = f;
      enums.insert(f->enum_names.begin(), f->enum_names.end());
    }
    if (!declaring)
      ops.fail("enum", "no enum '" + ops.enum_name + "' is defined in the parsed sources; nearest: " +
                           nearest_names(ops.enum_name, enums));
    if (!context.declares_ops(declaring->declared.file))
      ops.fail("headers", "the enum '" + ops.enum_name + "' is declared in " +
                              context.where(declaring->declared) + ", outside these headers");

    Inventory inv;
    inv.shape = "enum_dispatch";
    inv.interface_name = ops.enum_name;
    add_enumerator_ops(context, declaring->enumerators, declaring->declared, inv);
    std::stable_sort(inv.ops.begin(), inv.ops.end(),
                     [](const Op& a, const Op& b) { return a.category < b.category; });

    // Each function once (a header's inline function is seen by every unit that includes it).
    std::map<std::tuple<std::string, std::string, fs::path, unsigned>, const Function*> functions;
    std::map<std::string, std::set<std::string>> defined_by;
    for (const EnumFacts* f : facts) {
      for (const auto& fn : f->functions)
        functions.emplace(std::tuple(fn.backend, fn.name, fn.defined.file, fn.defined.line), &fn);
      for (const auto& [b, names] : f->defined_by) defined_by[b].insert(names.begin(), names.end());
    }
    inv.cells.assign(inv.ops.size(), std::vector<Cell>(context.config->backends.size()));
    std::vector<std::string> unparsed;
    for (std::size_t b = 0; b < context.config->backends.size(); ++b) {
      const std::string& backend = context.config->backends[b].name;
      BackendInfo info{backend, {}, {}, {}};
      std::vector<const Function*> dispatch, supports;
      for (const auto& [key, fn] : functions) {
        if (fn->backend != backend) continue;
        if (fn->dispatch) dispatch.push_back(fn);
        if (fn->supports) supports.push_back(fn);
      }
      for (const Function* fn : dispatch)
        info.implementation += (info.implementation.empty() ? "" : ", ") + fn->name;
      if (!dispatch.empty()) info.declared = dispatch.front()->defined;
      // A backend none of whose sources was parsed defines nothing to match: its cells are unknown and say
      // why; one warning names all such backends, instead of two per backend with no candidate to offer.
      if (defined_by[backend].empty()) {
        if (!ops.patterns_for(ops.dispatch, backend).empty() ||
            !ops.patterns_for(ops.supports, backend).empty())
          unparsed.push_back(backend);
      } else {
        warn_unmatched(inv, ops, ops.dispatch, "dispatch", backend, dispatch.empty(), defined_by[backend]);
        warn_unmatched(inv, ops, ops.supports, "supports", backend, supports.empty(), defined_by[backend]);
      }
      inv.backends.push_back(std::move(info));
      for (std::size_t o = 0; o < inv.ops.size(); ++o)
        inv.cells[o][b] = cell(inv.ops[o].name, dispatch, supports, context);
    }
    if (!unparsed.empty()) {
      std::string list;
      for (const auto& b : unparsed) list += (list.empty() ? "'" : ", '") + b + "'";
      inv.warnings.push_back(
          "ops_interface: no source of backend" + std::string(unparsed.size() == 1 ? " " : "s ") + list +
          " was parsed, so " + (unparsed.size() == 1 ? "its" : "their") +
          " dispatch and supports functions could not be read; each cell says why it is unknown");
    }
    return inv;
  }

 private:
  static void warn_unmatched(Inventory& inv, const OpsConfig& ops, const PerBackend& map, const char* key,
                             const std::string& backend, bool none, const std::set<std::string>& names) {
    auto patterns = ops.patterns_for(map, backend);
    if (!none || patterns.empty()) return;
    std::string list, wanted;
    for (const auto& p : patterns) list += (list.empty() ? "'" : ", '") + p.pattern() + "'";
    for (char ch : patterns.front().pattern()) {
      if (ch != '*') wanted += ch;
    }
    inv.warnings.push_back(std::string("ops_interface.") + key + ": no function of backend '" + backend +
                           "' matches " + list + "; nearest: " + nearest_names(wanted, names));
  }

  static Cell cell(const std::string& op, const std::vector<const Function*>& dispatch,
                   const std::vector<const Function*>& supports, const ModelContext& context) {
    Cell cell;
    const CaseGroup* explicit_case = nullptr;
    const CaseGroup* default_case = nullptr;
    const Function* owner = nullptr;
    const Function* default_owner = nullptr;
    bool default_serves = false;
    Place label_at;
    for (const Function* fn : dispatch) {
      for (const auto& g : fn->groups) {
        auto label =
            std::find_if(g.labels.begin(), g.labels.end(), [&](const auto& l) { return l.first == op; });
        bool named = label != g.labels.end();
        if (named && !explicit_case) explicit_case = &g, owner = fn, label_at = label->second;
        // A default that computes something may serve the op; one that aborts, does nothing or only returns
        // a constant (`default: return false;`: "not handled") does not. The first that may serve it counts
        // (a first switch that skips a few ops with an empty default, then the real one), else the first
        // that aborts, else the first.
        if (!g.is_default) continue;
        const bool serves = !(g.body.aborts || g.returns || g.empty);
        auto rank = [](bool serves, bool aborts) { return serves ? 2 : aborts ? 1 : 0; };
        if (!default_case || rank(serves, g.body.aborts) > rank(default_serves, default_case->body.aborts)) {
          default_case = &g, default_owner = fn, default_serves = serves;
        }
      }
    }
    // What the predicate says: its explicit case first, else its default branch.
    std::optional<long long> says;
    std::string says_where;
    bool named_found = false, default_found = false;
    std::optional<long long> default_says;
    std::string default_where;
    for (const Function* fn : supports) {
      for (const auto& g : fn->groups) {
        auto label =
            std::find_if(g.labels.begin(), g.labels.end(), [&](const auto& l) { return l.first == op; });
        bool named = label != g.labels.end();
        if (named && !named_found) {
          named_found = true;
          says = g.returns;
          says_where = fn->name + " at " + context.where(g.at);
        }
        if (g.is_default && !default_found) {
          default_found = true;
          default_says = g.returns;
          default_where = "default: of " + fn->name + " at " + context.where(g.at);
        }
      }
    }
    if (!named_found && default_found) says = default_says, says_where = default_where;
    const bool unsupported = says && *says == 0;
    if (explicit_case) {
      cell.defined = cell.declared = label_at;
      cell.signature = "case " + op + " in " + owner->name;
      if (explicit_case->body.aborts) {
        cell.status = Status::stub;
        cell.reason = "aborts in its case of " + owner->name;
      } else if (unsupported) {
        cell.status = Status::stub;
        cell.reason = "is dispatched, but the predicate returns false (" + says_where + ")";
      } else {
        cell.status = Status::native;
      }
      return cell;
    }
    if (!dispatch.empty()) cell.defined = cell.declared = dispatch.front()->defined;
    if (default_case && default_serves) {
      cell.status = Status::unknown;
      cell.defined = default_case->at;
      cell.reason = "only the default: branch of " + default_owner->name + " handles it";
      return cell;
    }
    // The predicate names the op and accepts it, but no case dispatches it: the dispatch handles it before
    // its switch (metadata-only ops that return early), which cannot be read statically.
    if (named_found && says && *says != 0 && !dispatch.empty()) {
      cell.status = Status::unknown;
      cell.reason = "no case in the dispatch functions, but the predicate accepts it (" + says_where +
                    "): handled before the switch, or a predicate that claims too much";
      return cell;
    }
    cell.status = Status::missing;
    cell.reason =
        dispatch.empty() ? "the backend has no dispatch function" : "no case in the dispatch functions";
    if (default_case) {
      cell.reason += default_case->body.aborts ? " (their default: aborts)"
                     : default_case->returns
                         ? " (their default: returns " + std::to_string(*default_case->returns) + ")"
                         : " (their default: does nothing)";
    }
    if (says) {
      cell.reason +=
          std::string("; the predicate returns ") + (*says ? "true" : "false") + " (" + says_where + ")";
    }
    return cell;
  }
};

}  // namespace

std::unique_ptr<InventoryModel> make_enum_dispatch_model() {
  return std::make_unique<EnumDispatchModel>();
}

}  // namespace emberlint::analyze
