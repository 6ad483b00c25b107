// The registrations model's walk of one unit (analyze/registrations.hpp): the registrations of the configured
// forms in the backend folders (macro uses, calls, registrar objects, table entries), the creators they name
// and whether those return null, throw or delegate, and the configured enum. The merge into the matrix is
// analyze/model_registrations.cpp.
//
// An op argument that calls a static member function of a class with no arguments (`registerKernelFactory(
// CalcBondsKernel::Name(), factory)`, `add(SoftmaxOp::key(), ...)`) names that class's op. Each registration
// also records the class whose member function makes it, and each class its bases: the merge gives a backend
// whose class extends another backend's registering class that backend's registrations.
//
// A registration in the branch of `if (dynamic_cast<P*>(&platform) != nullptr)` (`if (auto* p =
// dynamic_cast<P*>(...))`), or after `dynamic_cast<P&>(platform)` in the same block, is made only on
// platforms of class P (a plugin's loop over every platform): it records P and the cast.
#include <algorithm>
#include <map>
#include <set>

#include "analyze/cursor.hpp"
#include "analyze/op_classes.hpp"
#include "analyze/registrations.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::analyze::registrations {

namespace fs = std::filesystem;

std::string last_part(const std::string& name) {
  const std::size_t at = name.rfind("::");
  return at == std::string::npos ? name : name.substr(at + 2);
}

namespace {

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

// A member function's definition in a backend file: where registrations inside it belong.
struct MemberExtent {
  std::filesystem::path file;
  unsigned begin = 0, end = 0;  // byte offsets
  std::string owner_usr;
};

// Where registrations are made only on platforms of one class.
struct GuardExtent {
  std::filesystem::path file;
  unsigned begin = 0, end = 0;  // byte offsets
  std::string class_usr, written;
};

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
    // Each registration's class: the innermost member function definition around it.
    for (Registration& r : out_.registrations) {
      const MemberExtent* inner = nullptr;
      for (const MemberExtent& m : members_) {
        if (m.file != r.at.file || r.offset < m.begin || r.offset >= m.end) continue;
        if (!inner || m.end - m.begin < inner->end - inner->begin) inner = &m;
      }
      if (inner) r.owner_usr = inner->owner_usr;
      const GuardExtent* guard = nullptr;
      for (const GuardExtent& g : guards_) {
        if (g.file != r.at.file || r.offset < g.begin || r.offset >= g.end) continue;
        if (!guard || g.end - g.begin < guard->end - guard->begin) guard = &g;
      }
      if (guard) r.guard_usr = guard->class_usr, r.guard = guard->written;
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
        if (clang::is_definition(c)) record_class(c);
        break;
      case CXCursor_CXXMethod:
      case CXCursor_FunctionDecl:
        if (clang::is_definition(c)) creator_body(c);
        if (clang::is_definition(c)) member_extent(c);
        break;
      case CXCursor_Constructor:
        if (clang::is_definition(c)) member_extent(c);
        break;
      case CXCursor_IfStmt:
        if_guard(c);
        break;
      case CXCursor_CompoundStmt:
        block_guards(c);
        break;
      default:
        break;
    }
  }

  void record_class(CXCursor c) {
    CreatorClass k{usr(c), clang::spelling(c), qualified_name(c), places_(c), {}};
    for (CXCursor m : children(c)) {
      if (clang::kind(m) != CXCursor_CXXBaseSpecifier) continue;
      CXCursor base = clang::declaration_of(clang::type_of(m));
      if (!clang::is_null(base)) k.bases.push_back(usr(base));
    }
    out_.classes.push_back(std::move(k));
  }

  // A member function (or constructor) definition: the registrations inside it are its class's.
  void member_extent(CXCursor c) {
    const CXCursor owner = clang::semantic_parent(c);
    const CXCursorKind k = clang::kind(owner);
    if (k != CXCursor_ClassDecl && k != CXCursor_StructDecl && k != CXCursor_ClassTemplate) return;
    const CXSourceRange range = clang::extent(c);
    MemberExtent m{places_.file(c), clang::expansion(clang::range_start(range)).offset,
                   clang::expansion(clang::range_end(range)).offset, usr(owner)};
    if (!m.file.empty() && m.end > m.begin) members_.push_back(std::move(m));
  }

  // ---- guards: registrations made only on platforms of one class ------------------------------------

  // The first dynamic_cast in `c` to a class pointer (or reference, `reference` says which), else null.
  static CXCursor dynamic_cast_in(CXCursor c, bool& reference) {
    CXCursor found = clang::null_cursor();
    auto take = [&](CXCursor e) {
      if (clang::kind(e) != CXCursor_CXXDynamicCastExpr) return false;
      found = e;
      return true;
    };
    if (!take(c)) visit(c, [&](CXCursor e) { return take(e) ? CXChildVisit_Break : CXChildVisit_Recurse; });
    if (clang::is_null(found)) return found;
    const CXType t = clang::canonical(clang::type_of(found));
    reference = t.kind != CXType_Pointer;
    return found;
  }

  // The class a dynamic_cast converts to (its definition's USR), or "".
  static std::string cast_class(CXCursor cast) {
    CXType t = clang::canonical(clang::type_of(cast));
    if (t.kind == CXType_Pointer) t = clang::canonical(clang::pointee(t));
    CXCursor cls = clang::declaration_of(t);
    const CXCursorKind k = clang::kind(cls);
    return k == CXCursor_ClassDecl || k == CXCursor_StructDecl ? usr(cls) : std::string();
  }

  void add_guard(CXCursor cast, unsigned begin, unsigned end) {
    GuardExtent g{places_.file(cast), begin, end, cast_class(cast), text(cast)};
    if (!g.file.empty() && !g.class_usr.empty() && g.end > g.begin) guards_.push_back(std::move(g));
  }

  // `if (dynamic_cast<P*>(x) != nullptr) then` and `if (auto* p = dynamic_cast<P*>(x)) then`: the then
  // branch. A negated test (`== nullptr`, `!`) guards nothing here.
  void if_guard(CXCursor c) {
    const auto parts = children(c);  // [init] [condition variable] condition then [else]
    std::size_t cond = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (clang::kind(parts[i]) == CXCursor_VarDecl) cond = i;
    }
    if (cond + 1 >= parts.size()) return;
    bool reference = false;
    CXCursor cast = dynamic_cast_in(parts[cond], reference);
    if (clang::is_null(cast) || reference) return;
    for (const std::string& t : clang::token_spellings(tu_, clang::extent(parts[cond]))) {
      if (t == "==" || t == "!") return;
    }
    const CXSourceRange then = clang::extent(parts[cond + 1]);
    add_guard(cast, clang::expansion(clang::range_start(then)).offset,
              clang::expansion(clang::range_end(then)).offset);
  }

  // `P& p = dynamic_cast<P&>(x);` (which throws unless x is a P): the statements after it in its block.
  void block_guards(CXCursor block) {
    const CXSourceRange range = clang::extent(block);
    for (CXCursor statement : children(block)) {
      const CXCursorKind k = clang::kind(statement);
      if (k == CXCursor_IfStmt || k == CXCursor_CompoundStmt || k == CXCursor_ForStmt ||
          k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt)
        continue;
      bool reference = false;
      CXCursor cast = dynamic_cast_in(statement, reference);
      if (clang::is_null(cast) || !reference) continue;
      add_guard(cast, clang::expansion(clang::range_end(clang::extent(statement))).offset,
                clang::expansion(clang::range_end(range)).offset);
      return;
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
        r.offset = clang::expansion(c).offset;
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
        registration(b, f, name, arguments(c), places_(c), {}, clang::expansion(c).offset);
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
          registration(b, f, type, args, places_(var), creator, clang::expansion(var).offset);
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
      registration(backend, f, name + "[]", fields, places_(entry), {}, clang::expansion(entry).offset);
    }
  }

  void registration(const std::string& backend, std::size_t f, const std::string& callee,
                    const std::vector<CXCursor>& args, const Place& at, CreatorRef creator, unsigned offset) {
    const RegistrationForm& form = forms_[backend][f];
    if (form.device &&
        !device_matches(form, *form.device < args.size() ? named(args[*form.device]) : Named{}))
      return;
    Registration r;
    r.backend = backend;
    r.form = f;
    r.at = at;
    r.offset = offset;
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
  Named named(CXCursor arg) {
    CXCursor e = unwrap(arg);
    // A copy of a temporary (a by-value std::string parameter before C++17): what is copied.
    while (clang::kind(e) == CXCursor_CallExpr && clang::argument_count(e) == 1 &&
           clang::kind(clang::referenced(e)) == CXCursor_Constructor)
      e = unwrap(clang::argument(e, 0));
    Named n;
    n.text = text(arg);
    const CXCursorKind k = clang::kind(e);
    // `Conv::Name()`: a static member function of a class, called with no arguments, names the class's op.
    if (k == CXCursor_CallExpr && clang::argument_count(e) == 0) {
      CXCursor fn = clang::referenced(e);
      if (clang::kind(fn) == CXCursor_CXXMethod && clang::is_static_method(fn)) {
        CXCursor cls = clang::semantic_parent(fn);
        const CXCursorKind ck = clang::kind(cls);
        if (ck == CXCursor_ClassDecl || ck == CXCursor_StructDecl || ck == CXCursor_ClassTemplate) {
          n.kind = Named::Kind::identifier;
          n.name = clang::spelling(cls);
          CXCursor def = clang::definition(cls);
          n.declared = places_(clang::is_null(def) ? cls : def);
          return n;
        }
      }
    }
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
  std::vector<MemberExtent> members_;
  std::vector<GuardExtent> guards_;
};

}  // namespace

std::unique_ptr<RegistrationFacts> walk_unit(const ModelContext& context, CXTranslationUnit tu) {
  auto facts = std::make_unique<RegistrationFacts>();
  Walker(context, tu, *facts).run();
  return facts;
}

}  // namespace emberlint::analyze::registrations
