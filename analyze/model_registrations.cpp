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
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "analyze/cursor.hpp"
#include "analyze/model.hpp"
#include "analyze/op_classes.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

// An argument that names an op (or a device): what it is, as far as the code says.
struct Named {
  enum class Kind { enumerator, string, identifier, computed, absent };
  Kind kind = Kind::absent;
  std::string name;       // the enumerator, string or identifier (last part of a qualified name)
  std::string enum_name;  // enumerator: the enum's qualified name
  std::string text;       // as written
};

// The creator an argument names: a class (`new C`, `&object_of_C`, a class name) or a function.
struct CreatorRef {
  std::string usr;   // resolved in the unit, else empty
  std::string name;  // as written (a macro argument's tokens are resolved by name when merging)
};

struct Registration {
  std::string backend;
  std::size_t form = 0;  // index into the backend's forms
  Named op;
  CreatorRef creator;
  std::string written;  // "REG(\"Add\", DEVICE_CPU, AddOp)"
  Place at;
};

// What a creator does when it is asked for the op's execution: a function's body, or a class's overrides.
struct CreatorBody {
  std::string usr, name, qualified;  // name: as spelled
  std::string owner_usr;             // a method: its class; empty for a function
  Cell cell;                         // stub / fallback / native, with the place and reason
};

struct CreatorClass {
  std::string usr, name, qualified;
  Place declared;
};

struct RegistrationFacts : UnitFacts {
  bool found = false;  // the configured enum
  Place declared;
  std::vector<Enumerator> enumerators;
  std::set<std::string> enum_names;
  std::vector<Registration> registrations;
  std::vector<CreatorBody> bodies;
  std::vector<CreatorClass> classes;
  // What the backend folders call, construct and name, for the warning of a form that matches nothing.
  std::map<std::string, std::set<std::string>> calls, types, variables;  // backend -> names
  std::set<std::string> backends_seen;                                   // a backend file was in the unit
};

std::string join(const std::vector<std::string>& tokens, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (!out.empty() && !t.empty() && is_identifier_char(t.front()) && is_identifier_char(out.back()))
      out += ' ';
    out += t;
  }
  return out;
}

bool is_identifier(const std::string& t) {
  return !t.empty() && !std::isdigit(static_cast<unsigned char>(t.front())) &&
         std::all_of(t.begin(), t.end(), [](char ch) { return is_identifier_char(ch); });
}

std::string unquote(const std::string& literal) {
  std::size_t open = literal.find('"');
  std::size_t close = literal.rfind('"');
  if (open == std::string::npos || close <= open) return literal;
  return literal.substr(open + 1, close - open - 1);
}

// `OpType_Add`, `forge::OpType_Add`, `"Add"`: a name; anything else is computed.
Named named_from_tokens(const std::vector<std::string>& tokens) {
  Named n;
  n.text = join(tokens, 0, tokens.size());
  if (tokens.empty()) return n;
  if (tokens.size() == 1 && tokens.front().size() >= 2 && tokens.front().back() == '"') {
    n.kind = Named::Kind::string;
    n.name = unquote(tokens.front());
    return n;
  }
  std::size_t start = tokens.front() == "::" ? 1 : 0;
  bool qualified = start < tokens.size();
  for (std::size_t i = start; i < tokens.size(); ++i) {
    const bool want_identifier = (i - start) % 2 == 0;
    if (want_identifier ? !is_identifier(tokens[i]) : tokens[i] != "::") qualified = false;
  }
  if (qualified && (tokens.size() - start) % 2 == 1) {
    n.kind = Named::Kind::identifier;
    n.name = tokens.back();
  } else {
    n.kind = Named::Kind::computed;
  }
  return n;
}

// The last part of a qualified name ("Device::GPU" -> "GPU").
std::string last_part(const std::string& name) {
  const std::size_t at = name.rfind("::");
  return at == std::string::npos ? name : name.substr(at + 2);
}

class Walker {
 public:
  Walker(const ModelContext& context, CXTranslationUnit tu, RegistrationFacts& out)
      : context_(context), tu_(tu), out_(out) {
    for (const auto& b : context.config->backends) forms_[b.name] = context.ops->forms_for(b.name);
  }

  void run() {
    for (CXCursor c : children(clang::root(tu_))) {
      if (clang::kind(c) == CXCursor_MacroExpansion) {
        macro(c);
      } else {
        top(c);
      }
    }
  }

 private:
  // A declaration outside the backend folders matters only as the enum (or a namespace holding it).
  void top(CXCursor c) {
    const fs::path& file = places_.file(c);
    if (file.empty()) return;
    const CXCursorKind k = clang::kind(c);
    if (k == CXCursor_EnumDecl && clang::is_definition(c)) enumeration(c);
    const auto backends = context_.backends_of(file);
    if (backends.empty()) {
      if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
        for (CXCursor child : children(c)) top(child);
      }
      return;
    }
    out_.backends_seen.insert(backends.begin(), backends.end());
    deep(c, backends);
  }

  void deep(CXCursor c, const std::vector<std::string>& backends) {
    look(c, backends);
    visit(c, [&](CXCursor child) {
      look(child, backends);
      return CXChildVisit_Recurse;
    });
  }

  void look(CXCursor c, const std::vector<std::string>& backends) {
    switch (clang::kind(c)) {
      case CXCursor_EnumDecl:
        if (clang::is_definition(c)) enumeration(c);
        break;
      case CXCursor_CallExpr:
        call(c, backends);
        break;
      case CXCursor_VarDecl:
        variable(c, backends);
        break;
      case CXCursor_ClassDecl:
      case CXCursor_StructDecl:
        if (clang::is_definition(c))
          out_.classes.push_back({usr(c), clang::spelling(c), qualified_name(c), places_(c)});
        break;
      case CXCursor_CXXMethod:
      case CXCursor_FunctionDecl:
        if (clang::is_definition(c)) creator_body(c);
        break;
      default:
        break;
    }
  }

  void enumeration(CXCursor c) {
    std::string name = qualified_name(c);
    if (name.empty() || !context_.in_project(places_.file(c))) return;
    out_.enum_names.insert(name);
    if (context_.ops->enum_name.empty() || name != context_.ops->enum_name || out_.found) return;
    out_.found = true;
    out_.declared = places_(c);
    for (CXCursor e : children(c)) {
      if (clang::kind(e) == CXCursor_EnumConstantDecl)
        out_.enumerators.push_back({clang::spelling(e), clang::enum_value(e), places_(e)});
    }
  }

  // ---- the forms ------------------------------------------------------------------------------------

  void macro(CXCursor c) {
    const fs::path& file = places_.file(c);
    if (file.empty()) return;
    const auto backends = context_.backends_of(file);
    if (backends.empty()) return;
    const std::string name = clang::spelling(c);
    std::vector<std::vector<std::string>> args;
    bool split = false;
    for (const auto& b : backends) {
      out_.calls[b].insert(name);
      for (std::size_t f = 0; f < forms_[b].size(); ++f) {
        const RegistrationForm& form = forms_[b][f];
        if (form.kind != RegistrationForm::Kind::call || !form.name.match(name)) continue;
        if (!split) args = macro_arguments(c), split = true;
        Registration r;
        r.backend = b;
        r.form = f;
        r.at = places_(c);
        r.written = name + "(";
        for (std::size_t i = 0; i < args.size(); ++i) r.written += (i ? ", " : "") + join(args[i], 0, 1000);
        r.written += ")";
        auto arg = [&](std::size_t i) { return i < args.size() ? args[i] : std::vector<std::string>{}; };
        r.op = named_from_tokens(arg(form.op));
        if (form.creator) {
          auto tokens = arg(*form.creator);
          // `new C`, `&object`, `C`: the class or function the creator names.
          while (!tokens.empty() && (tokens.front() == "new" || tokens.front() == "&"))
            tokens.erase(tokens.begin());
          Named creator = named_from_tokens(tokens);
          if (creator.kind == Named::Kind::identifier) r.creator.name = join(tokens, 0, tokens.size());
        }
        if (!device_matches(form,
                            named_from_tokens(form.device ? arg(*form.device) : std::vector<std::string>{})))
          continue;
        out_.registrations.push_back(std::move(r));
      }
    }
  }

  // The arguments of a macro use, split at its top-level commas.
  std::vector<std::vector<std::string>> macro_arguments(CXCursor c) const {
    const auto tokens = clang::token_spellings(tu_, clang::extent(c));
    std::vector<std::vector<std::string>> args;
    if (tokens.size() < 2 || tokens[1] != "(") return args;
    int depth = 0;
    args.emplace_back();
    for (std::size_t i = 2; i < tokens.size(); ++i) {
      const std::string& t = tokens[i];
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") {
        if (depth == 0) break;
        --depth;
      }
      if (t == "," && depth == 0) {
        args.emplace_back();
        continue;
      }
      args.back().push_back(t);
    }
    if (args.size() == 1 && args.front().empty()) args.clear();
    return args;
  }

  void call(CXCursor c, const std::vector<std::string>& backends) {
    const std::string name = clang::spelling(c);
    if (name.empty()) return;
    for (const auto& b : backends) {
      out_.calls[b].insert(name);
      for (std::size_t f = 0; f < forms_[b].size(); ++f) {
        const RegistrationForm& form = forms_[b][f];
        if (form.kind != RegistrationForm::Kind::call || !form.name.match(name)) continue;
        registration(b, f, name, arguments(c), places_(c), {});
      }
    }
  }

  static std::vector<CXCursor> arguments(CXCursor call) {
    std::vector<CXCursor> out;
    const int n = clang::argument_count(call);
    for (int i = 0; i < n; ++i) out.push_back(clang::argument(call, static_cast<unsigned>(i)));
    return out;
  }

  void variable(CXCursor var, const std::vector<std::string>& backends) {
    // The variable's class (a registrar's), its template argument, and its initializer.
    std::string type;
    CXCursor template_argument = clang::null_cursor();
    CXCursor init = clang::null_cursor();
    bool after_template = false;
    for (CXCursor child : children(var)) {
      const CXCursorKind k = clang::kind(child);
      if ((k == CXCursor_TemplateRef || k == CXCursor_TypeRef) && type.empty()) {
        type = clang::spelling(clang::referenced(child));
        after_template = k == CXCursor_TemplateRef;
      } else if (k == CXCursor_TypeRef && after_template && clang::is_null(template_argument)) {
        template_argument = child;
      } else if (clang::is_expression(k)) {
        init = child;
      }
    }
    const std::string name = clang::spelling(var);
    for (const auto& b : backends) {
      if (!type.empty()) out_.types[b].insert(type);
      out_.variables[b].insert(name);
      for (std::size_t f = 0; f < forms_[b].size(); ++f) {
        const RegistrationForm& form = forms_[b][f];
        if (form.kind == RegistrationForm::Kind::registrar && !type.empty() && form.name.match(type)) {
          CXCursor ctor = constructor_call(init);
          std::vector<CXCursor> args;
          if (!clang::is_null(ctor)) args = arguments(ctor);
          CreatorRef creator;
          if (form.creator_is_template && !clang::is_null(template_argument))
            creator = creator_of(template_argument);
          registration(b, f, type, args, places_(var), creator);
        } else if (form.kind == RegistrationForm::Kind::table && form.name.match(name) &&
                   !clang::is_null(init)) {
          table(b, f, name, init);
        }
      }
    }
  }

  static CXCursor constructor_call(CXCursor init) {
    if (clang::is_null(init)) return init;
    CXCursor found = clang::null_cursor();
    if (clang::kind(init) == CXCursor_CallExpr) return init;
    visit(init, [&](CXCursor c) {
      if (clang::kind(c) != CXCursor_CallExpr) return CXChildVisit_Recurse;
      found = c;
      return CXChildVisit_Break;
    });
    return found;
  }

  void table(const std::string& backend, std::size_t f, const std::string& name, CXCursor init) {
    CXCursor list = unwrap(init);
    if (clang::kind(list) != CXCursor_InitListExpr) return;
    for (CXCursor entry : children(list)) {
      CXCursor e = unwrap(entry);
      std::vector<CXCursor> fields;
      if (clang::kind(e) == CXCursor_InitListExpr) {
        fields = children(e);
      } else if (clang::kind(e) == CXCursor_CallExpr) {
        fields = arguments(e);
      } else {
        continue;
      }
      registration(backend, f, name + "[]", fields, places_(entry), {});
    }
  }

  void registration(const std::string& backend, std::size_t f, const std::string& callee,
                    const std::vector<CXCursor>& args, const Place& at, CreatorRef creator) {
    const RegistrationForm& form = forms_[backend][f];
    if (form.device &&
        !device_matches(form, *form.device < args.size() ? named(args[*form.device]) : Named{}))
      return;
    Registration r;
    r.backend = backend;
    r.form = f;
    r.at = at;
    r.op = form.op < args.size() ? named(args[form.op]) : Named{};
    if (form.creator && *form.creator < args.size()) creator = creator_of(args[*form.creator]);
    r.creator = std::move(creator);
    r.written = callee + "(";
    for (std::size_t i = 0; i < args.size(); ++i) r.written += (i ? ", " : "") + text(args[i]);
    r.written += ")";
    out_.registrations.push_back(std::move(r));
  }

  static bool device_matches(const RegistrationForm& form, const Named& device) {
    if (!form.device) return true;
    if (device.kind == Named::Kind::absent || device.kind == Named::Kind::computed) return false;
    return std::any_of(form.device_is.begin(), form.device_is.end(),
                       [&](const std::string& d) { return last_part(d) == last_part(device.name); });
  }

  std::string text(CXCursor c) const { return join(clang::token_spellings(tu_, clang::extent(c)), 0, 1000); }

  // What an argument names: an enumerator, a string literal, an identifier, or nothing it can tell.
  Named named(CXCursor arg) const {
    CXCursor e = unwrap(arg);
    Named n;
    n.text = text(arg);
    const CXCursorKind k = clang::kind(e);
    if (k == CXCursor_DeclRefExpr) {
      CXCursor ref = clang::referenced(e);
      if (clang::kind(ref) == CXCursor_EnumConstantDecl) {
        n.kind = Named::Kind::enumerator;
        n.name = clang::spelling(ref);
        n.enum_name = qualified_name(clang::semantic_parent(ref));
        return n;
      }
    }
    if (k == CXCursor_StringLiteral) {
      n.kind = Named::Kind::string;
      n.name = unquote(clang::spelling(e));
      return n;
    }
    // A std::string or string_view made of one literal: the literal is all its tokens say.
    Named tokens = named_from_tokens(clang::token_spellings(tu_, clang::extent(arg)));
    if (tokens.kind == Named::Kind::string) return tokens;
    n.kind = Named::Kind::computed;
    return n;
  }

  // The first class or function the argument refers to: `new C`, `&object` (its class), `&make_c`, a lambda
  // that returns `new C`.
  static CreatorRef creator_of(CXCursor arg) {
    CreatorRef out;
    auto take = [&](CXCursor c) {
      const CXCursorKind k = clang::kind(c);
      if (k != CXCursor_TypeRef && k != CXCursor_DeclRefExpr) return false;
      CXCursor ref = clang::referenced(c);
      const CXCursorKind rk = clang::kind(ref);
      if (rk == CXCursor_VarDecl) ref = clang::declaration_of(clang::type_of(ref));
      const CXCursorKind dk = clang::kind(ref);
      if (dk != CXCursor_ClassDecl && dk != CXCursor_StructDecl && dk != CXCursor_FunctionDecl &&
          dk != CXCursor_CXXMethod)
        return false;
      out.usr = usr(ref);
      out.name = qualified_name(ref);
      return true;
    };
    if (take(arg)) return out;
    visit(arg, [&](CXCursor c) { return take(c) ? CXChildVisit_Break : CXChildVisit_Recurse; });
    return out;
  }

  // ---- creators -------------------------------------------------------------------------------------

  void creator_body(CXCursor fn) {
    const bool method = clang::kind(fn) == CXCursor_CXXMethod;
    if (method && clang::overridden(fn).empty()) return;  // a creator's work is an override (onCreate)
    CXCursor body = body_of(fn);
    if (clang::is_null(body)) return;
    MethodDefinition d;
    d.usr = usr(fn);
    d.name = clang::spelling(fn);
    d.signature = signature_of(tu_, fn);
    d.body.defined = places_(fn);
    classify_body(fn, body, d.body);
    CreatorBody c;
    c.usr = d.usr;
    c.name = d.name;
    c.qualified = qualified_name(fn);
    if (method) c.owner_usr = usr(clang::semantic_parent(fn));
    c.cell = cell_of(d, *context_.ops);
    if (c.cell.status == Status::native && returns_only_null(body)) {
      c.cell.status = Status::stub;
      c.cell.reason = "returns null";
    }
    out_.bodies.push_back(std::move(c));
  }

  // The body is one `return nullptr;` (NULL, 0), discards aside.
  bool returns_only_null(CXCursor body) const {
    std::vector<CXCursor> statements;
    for (CXCursor s : children(body)) {
      if (clang::kind(s) != CXCursor_NullStmt) statements.push_back(s);
    }
    if (statements.size() != 1 || clang::kind(statements.front()) != CXCursor_ReturnStmt) return false;
    const auto tokens = clang::token_spellings(tu_, clang::extent(statements.front()));
    return tokens.size() >= 2 && tokens[0] == "return" &&
           (tokens[1] == "nullptr" || tokens[1] == "NULL" || tokens[1] == "0") &&
           (tokens.size() == 2 || tokens[2] == ";");
  }

  const ModelContext& context_;
  CXTranslationUnit tu_;
  RegistrationFacts& out_;
  Places places_;
  std::map<std::string, std::vector<RegistrationForm>> forms_;
};

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

class RegistrationsModel : public InventoryModel {
 public:
  bool whole_names() const override { return true; }
  std::unique_ptr<UnitFacts> walk(const ModelContext& context, CXTranslationUnit tu) const override {
    auto facts = std::make_unique<RegistrationFacts>();
    Walker(context, tu, *facts).run();
    return facts;
  }

  Inventory build(const ModelContext& context,
                  const std::vector<std::unique_ptr<UnitFacts>>& units) const override {
    const OpsConfig& ops = *context.ops;
    std::vector<const RegistrationFacts*> facts;
    for (const auto& u : units) facts.push_back(static_cast<const RegistrationFacts*>(u.get()));

    // Each registration once (a header's registration is seen by every unit that includes it).
    std::map<std::tuple<std::string, fs::path, unsigned, unsigned, std::string>, const Registration*> regs;
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
        op.declared = r->at;
        op.declaration = "registered as " + r->written + " at " + context.where(r->at);
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
