// The walk of one parsed unit into its facts (extract_facts.hpp): the unit's files and their texts,
// locations, types and symbols interned, references (through macros, typedefs and aliases, and which of them
// need only a declaration), definitions, and the bodies of instantiated project templates.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "lint/libclang/cursor.hpp"
#include "lint/parse/extract_facts.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::extraction {

namespace fs = std::filesystem;

namespace {

bool is_function_kind(CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate;
}

bool is_scope_kind(CXCursorKind k) {
  return k == CXCursor_Namespace || k == CXCursor_ClassDecl || k == CXCursor_StructDecl ||
         k == CXCursor_UnionDecl || k == CXCursor_EnumDecl || k == CXCursor_ClassTemplate ||
         k == CXCursor_ClassTemplatePartialSpecialization;
}

// The byte ranges of the unevaluated operands written in a source: the parentheses after `decltype`,
// `sizeof`, `alignof` and `noexcept`, in code (not in comments or literals, whose parentheses count for
// nothing either).
std::vector<std::pair<unsigned, unsigned>> unevaluated_operands(std::string_view source) {
  const std::string code = code_only(source);
  const std::string_view t = code;
  std::vector<std::pair<unsigned, unsigned>> out;
  for (std::string_view word : {"decltype", "sizeof", "alignof", "noexcept"}) {
    for (std::size_t at = t.find(word); at != std::string_view::npos; at = t.find(word, at + 1)) {
      if ((at > 0 && is_identifier_char(t[at - 1])) ||
          (at + word.size() < t.size() && is_identifier_char(t[at + word.size()])))
        continue;
      std::size_t open = t.find_first_not_of(" \t\r\n", at + word.size());
      if (open == std::string_view::npos || t[open] != '(') continue;
      int depth = 0;
      std::size_t close = open;
      for (; close < t.size(); ++close) {
        if (t[close] == '(') ++depth;
        if (t[close] == ')' && --depth == 0) break;
      }
      if (close < t.size()) out.emplace_back(static_cast<unsigned>(open), static_cast<unsigned>(close));
    }
  }
  return out;
}

}  // namespace

std::string qualified_name(CXCursor c) {
  std::string name = clang::spelling(c);
  for (CXCursor p = clang_getCursorSemanticParent(c); !clang_Cursor_isNull(p);
       p = clang_getCursorSemanticParent(p)) {
    CXCursorKind k = clang_getCursorKind(p);
    if (k == CXCursor_TranslationUnit || clang_isInvalid(k)) break;
    if (!is_scope_kind(k)) continue;
    std::string part = clang::spelling(p);
    if (part.empty()) part = k == CXCursor_Namespace ? "(anonymous namespace)" : "(anonymous)";
    name = part + "::" + name;
  }
  return name;
}

void Extractor::run() {
  CXFile main = clang_getFile(tu_, command_.file.c_str());
  facts_.main = file_id(main);
  for (const auto& header : options_.batch) {
    if (CXFile f = clang_getFile(tu_, header.c_str())) facts_.batch.push_back(file_id(f));
  }
  clang_visitChildren(clang_getTranslationUnitCursor(tu_), &Extractor::top_level, this);
  visit_library_lambda_instantiations();
  // The conditional blocks of the project files the unit reached, for ProjectModel::configured_by_unit,
  // which never asks about the unit's own file (nor a batch's headers).
  for (const auto& [id, bytes] : contents_) {
    if (id != facts_.main && std::find(facts_.batch.begin(), facts_.batch.end(), id) == facts_.batch.end())
      facts_.files[static_cast<std::size_t>(id)].conditionals = scan_directives(bytes).conditionals;
  }
  // Macro expansions and declarations are not visited in source order. A reference whose expansion point
  // is where a macro was expanded came out of that macro: the macro's name is the token written there.
  for (const auto& [index, key] : pending_macro_names_) {
    if (auto it = macro_at_.find(key); it != macro_at_.end()) {
      facts_.references[index].via = Via::macro;
      facts_.references[index].via_name = it->second;
    }
  }
  // References that need the declaration only (lint/facts.hpp, Reference::type_only).
  std::map<FileId, std::vector<std::pair<unsigned, unsigned>>> unevaluated;
  for (auto& ref : facts_.references) {
    const Symbol& sym = facts_.symbols[static_cast<std::size_t>(ref.symbol)];
    const bool record = sym.kind == "StructDecl" || sym.kind == "ClassDecl" || sym.kind == "UnionDecl";
    if (record && !sym.defined) {
      ref.type_only = true;
      continue;
    }
    if (ref.at.file < 0 || !in_project(ref.at.file)) continue;
    auto it = unevaluated.find(ref.at.file);
    if (it == unevaluated.end())
      it = unevaluated.emplace(ref.at.file, unevaluated_operands(text(ref.at.file))).first;
    ref.type_only = std::any_of(it->second.begin(), it->second.end(), [&](const auto& r) {
      return ref.at.offset >= r.first && ref.at.offset < r.second;
    });
  }
  // `cl::` in `cl::Buffer*` is as type-only as what it qualifies (innermost qualifier first).
  std::map<std::pair<FileId, unsigned>, std::size_t> starting_at;
  for (std::size_t i = 0; i < facts_.references.size(); ++i) {
    starting_at.emplace(std::make_pair(facts_.references[i].at.file, facts_.references[i].at.offset), i);
  }
  for (auto it = starting_at.rbegin(); it != starting_at.rend(); ++it) {
    Reference& ref = facts_.references[it->second];
    if (ref.type_only || !facts_.symbols[static_cast<std::size_t>(ref.symbol)].is_namespace) continue;
    // References are points: the qualified name starts after the namespace's name and its `::`.
    std::string_view t = ref.at.file >= 0 ? text(ref.at.file) : std::string_view();
    std::size_t after = ref.at.offset;
    while (after < t.size() && is_identifier_char(t[after])) ++after;
    while (after < t.size() && (t[after] == ' ' || t[after] == ':')) ++after;
    auto next = starting_at.find({ref.at.file, static_cast<unsigned>(after)});
    if (next != starting_at.end()) ref.type_only = facts_.references[next->second].type_only;
  }
  // A call the template could not resolve (`x.template item<T>()` on a dependent `x`) is known in each
  // instantiation: each distinct callee is a call at the template's location, in the template's function.
  std::set<std::tuple<FileId, unsigned, unsigned, int>> added;
  for (auto& call : instantiated_calls_) {
    auto it = dependent_calls_.find({call.at.file, call.at.offset, call.at.end_offset});
    if (it == dependent_calls_.end()) continue;
    if (!added.emplace(call.at.file, call.at.offset, call.at.end_offset, call.callee).second) continue;
    call.definition = it->second;
    facts_.calls.push_back(std::move(call));
  }
}

CXChildVisitResult Extractor::top_level(CXCursor c, CXCursor, CXClientData data) {
  auto* self = static_cast<Extractor*>(data);
  Location at = self->location(clang_getCursorLocation(c));
  if (at.file < 0 || !self->facts_.files[static_cast<std::size_t>(at.file)].in_project) {
    return CXChildVisit_Continue;
  }
  self->visit(c, -1);
  return CXChildVisit_Continue;
}

CXChildVisitResult Extractor::child(CXCursor c, CXCursor, CXClientData data) {
  auto* scope = static_cast<Scope*>(data);
  scope->self->visit(c, scope->definition);
  return CXChildVisit_Continue;
}

void Extractor::visit_children(CXCursor c, int definition) {
  Scope scope{this, definition};
  clang_visitChildren(c, &Extractor::child, &scope);
}

FileId Extractor::file_id(CXFile file) {
  if (!file) return -1;
  auto it = file_ids_.find(file);
  if (it != file_ids_.end()) return it->second;
  fs::path p = clang::file_name(file);
  if (p.is_relative()) p = command_.directory / p;
  const fs::path canonical = canonical_path(p);
  FileId id = static_cast<FileId>(facts_.files.size());
  facts_.files.push_back({canonical, options_.in_project ? options_.in_project(canonical) : true, {}});
  file_ids_.emplace(file, id);
  cxfiles_.emplace(id, file);
  if (facts_.files.back().in_project) {
    std::size_t size = 0;
    const char* data = clang_getFileContents(tu_, file, &size);
    if (data) contents_.emplace(id, std::string_view(data, size));
  }
  return id;
}

Location Extractor::location(CXSourceLocation loc) {
  CXFile file = nullptr;
  unsigned line = 0, column = 0, offset = 0;
  clang_getExpansionLocation(loc, &file, &line, &column, &offset);
  return {file_id(file), line, column, line, column, offset, offset};
}

Location Extractor::range(CXSourceRange r) {
  Location begin = location(clang_getRangeStart(r));
  Location end = location(clang_getRangeEnd(r));
  if (end.file == begin.file) {
    begin.end_line = end.line, begin.end_column = end.column;
    // A range that a macro expansion produced can end at the expansion point, before its start.
    begin.end_offset = std::max(begin.offset, end.offset);
  }
  return begin;
}

Location Extractor::extent(CXCursor c) {
  return range(clang_getCursorExtent(c));
}

// The location of a byte offset in a project file; a file < 0 location when there is none.
Location Extractor::at_offset(FileId file, std::size_t offset) {
  auto it = cxfiles_.find(file);
  if (it == cxfiles_.end() || offset > text(file).size()) return {};
  return location(clang_getLocationForOffset(tu_, it->second, static_cast<unsigned>(offset)));
}

// Whether the text at `at` is the operator token `spelling`, or its alternative token (`and`, `not`, ...);
// its length when it is, 0 when not. `[]` and `()` are spelled by their opening bracket.
static std::size_t spells_operator(std::string_view t, std::size_t at, std::string_view spelling) {
  static const std::map<std::string_view, std::string_view> kAlternative = {
      {"&&", "and"},  {"||", "or"},     {"!", "not"},     {"&", "bitand"}, {"|", "bitor"},  {"^", "xor"},
      {"~", "compl"}, {"!=", "not_eq"}, {"&=", "and_eq"}, {"|=", "or_eq"}, {"^=", "xor_eq"}};
  // No text past the end: a file whose text was not read (outside the project: a generated file included in
  // a function body, `#include "codegen/body.inc"`) has none.
  if (at >= t.size()) return 0;
  if (spelling == "[]" || spelling == "()") spelling = spelling.substr(0, 1);
  if (!spelling.empty() && t.compare(at, spelling.size(), spelling) == 0) return spelling.size();
  auto alt = kAlternative.find(spelling);
  if (alt != kAlternative.end() && t.compare(at, alt->second.size(), alt->second) == 0 &&
      (at + alt->second.size() >= t.size() || !is_identifier_char(t[at + alt->second.size()])))
    return alt->second.size();
  return 0;
}

// Where an operator's token is: between the operands, or before or after the one operand, past blanks and
// comments (`a /* lhs */ + b`); for an operator called by name (`operator+(a, b)`, `a.operator-()`), the
// token after the keyword. Its end is the token's end; when the text spells no such token (it changed, or
// the expression is not written as source text), the first character after the operand, with an empty range.
Location Extractor::operator_token(const Location& whole, const std::vector<Location>& operands,
                                   std::string_view spelling) {
  std::string_view t = text(whole.file);
  std::size_t from = whole.offset;
  if (operands.size() >= 2) {
    from = operands[0].end_offset;
  } else if (operands.size() == 1 && operands[0].offset <= whole.offset) {
    from = operands[0].end_offset;  // postfix, or the object of a call by name
  }
  from = skip_blanks(t, from);
  auto token = [&](std::size_t at, std::size_t length) {
    Location l = at_offset(whole.file, at);
    l.end_offset = l.offset + static_cast<unsigned>(length);
    l.end_line = l.line;
    l.end_column = l.column + static_cast<unsigned>(length);
    return l;
  };
  if (std::size_t n = spells_operator(t, from, spelling)) return token(from, n);
  const std::size_t end = std::min<std::size_t>(whole.end_offset, t.size());
  for (std::size_t k = t.find("operator", whole.offset); k != std::string_view::npos && k < end;
       k = t.find("operator", k + 1)) {
    if ((k > 0 && is_identifier_char(t[k - 1])) || (k + 8 < t.size() && is_identifier_char(t[k + 8])))
      continue;
    std::size_t after = skip_blanks(t, k + 8);
    if (std::size_t n = spells_operator(t, after, spelling)) return token(after, n);
  }
  return token(from, 0);
}

bool Extractor::in_project(FileId id) const {
  return id >= 0 && facts_.files[static_cast<std::size_t>(id)].in_project;
}

// The text of a file as libclang read it (the file on disk), for operator spellings and conditions.
std::string_view Extractor::text(FileId id) {
  auto it = contents_.find(id);
  return it == contents_.end() ? std::string_view() : it->second;
}
std::string_view Extractor::text(const Location& l) {
  std::string_view t = text(l.file);
  if (l.end_offset < l.offset || l.end_offset > t.size()) return {};
  return t.substr(l.offset, l.end_offset - l.offset);
}

// The spelling of a type without its top-level cv-qualifiers.
std::string Extractor::unqualified_spelling(CXType t) {
  std::string s = clang::type_spelling(t);
  for (bool again = true; again;) {
    again = false;
    for (std::string_view q : {"const ", "volatile "}) {
      if (s.rfind(q, 0) == 0) {
        s.erase(0, q.size());
        again = true;
      }
    }
  }
  return s;
}

// Types, interned by the declaration they name (or the builtin kind): looking through typedefs,
// aliases, references and cv-qualifiers is the canonical type's job.
int Extractor::type_id(CXType t) {
  if (t.kind == CXType_Invalid) return -1;
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_LValueReference || c.kind == CXType_RValueReference)
    c = clang_getCanonicalType(clang_getPointeeType(c));
  if (c.kind >= CXType_FirstBuiltin && c.kind <= CXType_LastBuiltin) {
    auto [it, added] = builtin_types_.emplace(c.kind, static_cast<int>(facts_.types.size()));
    if (added) {
      TypeFacts tf;
      tf.spelling = unqualified_spelling(c);
      tf.is_bool = c.kind == CXType_Bool;
      tf.arithmetic = c.kind >= CXType_Bool && c.kind <= CXType_LongDouble && c.kind != CXType_NullPtr &&
                      c.kind != CXType_Overload && c.kind != CXType_Dependent;
      tf.arithmetic =
          tf.arithmetic || c.kind == CXType_Float128 || c.kind == CXType_Half || c.kind == CXType_Float16;
      facts_.types.push_back(std::move(tf));
    }
    return it->second;
  }
  CXCursor decl = clang_getTypeDeclaration(c);
  CXCursorKind dk = clang_getCursorKind(decl);
  if (clang_Cursor_isNull(decl) || dk == CXCursor_NoDeclFound || clang_isInvalid(dk)) return -1;
  auto it = class_types_.find(decl);
  if (it != class_types_.end()) return it->second;
  TypeFacts tf;
  tf.spelling = unqualified_spelling(c);
  class_names(decl, tf.classes, 0);
  int id = static_cast<int>(facts_.types.size());
  facts_.types.push_back(std::move(tf));
  class_types_.emplace(decl, id);
  return id;
}

// The qualified names of a class, of its template, and of its bases. An implicit instantiation has no
// base specifiers of its own to visit, so its template's are read instead.
void Extractor::class_names(CXCursor decl, std::vector<std::string>& out, int depth) {
  if (depth > 12 || clang_Cursor_isNull(decl)) return;
  std::string name = qualified_name(decl);
  if (std::find(out.begin(), out.end(), name) != out.end()) return;
  out.push_back(name);
  CXCursor pattern = decl;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  if (!clang_Cursor_isNull(tmpl) && !clang_isInvalid(clang_getCursorKind(tmpl))) {
    std::string tname = qualified_name(tmpl);
    if (std::find(out.begin(), out.end(), tname) == out.end()) out.push_back(tname);
    pattern = tmpl;
  }
  std::vector<CXCursor> bases;
  auto collect = [](CXCursor ch, CXCursor, CXClientData d) {
    if (clang_getCursorKind(ch) == CXCursor_CXXBaseSpecifier)
      static_cast<std::vector<CXCursor>*>(d)->push_back(ch);
    return CXChildVisit_Continue;
  };
  clang_visitChildren(decl, collect, &bases);
  if (bases.empty() && !clang_equalCursors(pattern, decl)) clang_visitChildren(pattern, collect, &bases);
  for (const auto& b : bases) {
    CXType bt = clang_getCanonicalType(clang_getCursorType(b));
    CXCursor bd = clang_getTypeDeclaration(bt);
    if (clang_Cursor_isNull(bd) || clang_isInvalid(clang_getCursorKind(bd)))
      bd = clang_getCursorReferenced(b);
    if (clang_Cursor_isNull(bd) || clang_isInvalid(clang_getCursorKind(bd))) continue;
    class_names(bd, out, depth + 1);
  }
}

std::string Extractor::qualified_name(CXCursor c) {
  return extraction::qualified_name(c);
}

int Extractor::symbol_id(CXCursor referenced) {
  CXCursor canonical = clang_getCanonicalCursor(referenced);
  auto it = symbol_ids_.find(canonical);
  if (it != symbol_ids_.end()) return it->second;
  Symbol s;
  CXCursorKind kind = clang_getCursorKind(referenced);
  s.is_macro = kind == CXCursor_MacroDefinition;
  s.is_namespace = kind == CXCursor_Namespace || kind == CXCursor_NamespaceAlias;
  s.qualified_name = s.is_macro ? clang::spelling(referenced) : qualified_name(canonical);
  s.kind = clang::take(clang_getCursorKindSpelling(kind));
  CXCursor where = referenced;
  if (!s.is_macro && !s.is_namespace) {
    CXCursor def = clang_getCursorDefinition(referenced);
    if (!clang_Cursor_isNull(def)) {
      where = def;
      s.defined = true;
    }
  }
  s.declared = location(clang_getCursorLocation(where));
  const bool record = kind == CXCursor_StructDecl || kind == CXCursor_ClassDecl || kind == CXCursor_UnionDecl;
  if (record && !clang_isCursorDefinition(canonical))
    s.forward_declared = location(clang_getCursorLocation(canonical));
  int id = static_cast<int>(facts_.symbols.size());
  facts_.symbols.push_back(std::move(s));
  symbol_ids_.emplace(canonical, id);
  return id;
}

// The declarations a type names: the type itself, what it points to, and its template arguments.
void Extractor::type_declarations(CXType t, std::vector<CXCursor>& out, int depth) {
  if (depth > 8 || t.kind == CXType_Invalid) return;
  // The typedefs it is spelled through, too: a library's handle type (OpenCL's cl_mem, a pointer to a struct
  // no unit sees defined) is the library's name, though the struct alone is a type-only use.
  for (CXType sugar = t; sugar.kind != CXType_Invalid;) {
    if (sugar.kind == CXType_Elaborated) {
      sugar = clang_Type_getNamedType(sugar);
    } else if (sugar.kind == CXType_Pointer || sugar.kind == CXType_LValueReference ||
               sugar.kind == CXType_RValueReference) {
      sugar = clang_getPointeeType(sugar);
    } else if (CXCursor d = clang_getTypeDeclaration(sugar);
               sugar.kind == CXType_Typedef && !clang_Cursor_isNull(d) && out.size() < 16) {
      out.push_back(d);
      sugar = clang_getTypedefDeclUnderlyingType(d);
    } else if (CXCursor u = sugar.kind == CXType_Unexposed ? used_typedef(unqualified_spelling(sugar), sugar)
                                                           : clang_getNullCursor();
               !clang_Cursor_isNull(u) && out.size() < 16) {
      // A typedef named through a using-declaration (`using detail::cfloat;` then `cfloat v;`): libclang
      // exposes no declaration for that sugar, but its spelling is the typedef's qualified name.
      out.push_back(u);
      sugar = clang_getTypedefDeclUnderlyingType(u);
    } else {
      break;
    }
  }
  t = clang_getCanonicalType(t);
  while (t.kind == CXType_Pointer || t.kind == CXType_LValueReference || t.kind == CXType_RValueReference ||
         t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
    t = t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ? clang_getArrayElementType(t)
                                                                           : clang_getPointeeType(t);
  }
  CXCursor decl = clang_getTypeDeclaration(t);
  if (clang_Cursor_isNull(decl) || clang_getCursorKind(decl) == CXCursor_NoDeclFound) return;
  out.push_back(decl);
  int n = clang_Type_getNumTemplateArguments(t);
  for (int i = 0; i < n; ++i)
    type_declarations(clang_Type_getTemplateArgumentAsType(t, static_cast<unsigned>(i)), out, depth + 1);
}

void Extractor::add_type_references(CXType t, const Location& at, Via via, const std::string& via_name,
                                    int definition) {
  std::vector<CXCursor> decls;
  type_declarations(t, decls);
  for (const auto& d : decls) facts_.references.push_back({at, symbol_id(d), via, via_name, definition});
}

// Whether a macro reference is a test of definedness: the name follows `defined` (or `defined(`) or is the
// operand of #ifdef, #ifndef, #elifdef or #elifndef.
bool Extractor::is_definedness_test(CXCursor c) const {
  CXFile file = nullptr;
  unsigned offset = 0;
  clang_getSpellingLocation(clang_getCursorLocation(c), &file, nullptr, nullptr, &offset);
  std::size_t size = 0;
  const char* data = file ? clang_getFileContents(tu_, file, &size) : nullptr;
  if (!data || offset > size) return false;
  std::size_t line = offset;
  while (line > 0 && data[line - 1] != '\n') --line;
  std::string before(data + line, offset - line);
  auto trim = [](std::string& s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  };
  trim(before);
  if (!before.empty() && before.back() == '(') {
    before.pop_back();
    trim(before);
  }
  auto ends_with = [&](std::string_view word) {
    if (before.size() < word.size() || before.compare(before.size() - word.size(), word.size(), word) != 0)
      return false;
    const std::size_t at = before.size() - word.size();
    return at == 0 || !is_identifier_char(before[at - 1]);
  };
  if (ends_with("defined")) return true;
  std::string directive;
  for (char ch : before) {
    if (!std::isspace(static_cast<unsigned char>(ch))) directive += ch;
  }
  return directive == "#ifdef" || directive == "#ifndef" || directive == "#elifdef" ||
         directive == "#elifndef";
}

// `using other::kernel;`: a use of what it names, at the name (the overloads of one name are one use), and
// `using detail::cfloat;`: the typedefs and aliases it brings into scope, for used_typedef.
void Extractor::add_using_declaration(CXCursor c, int definition) {
  CXCursor ref = clang_getCursorReferenced(c);
  if (clang_getCursorKind(ref) != CXCursor_OverloadedDeclRef) return;
  const Location at = location(clang_getCursorLocation(c));
  std::set<std::string> named;
  for (unsigned i = 0, n = clang_getNumOverloadedDecls(ref); i < n; ++i) {
    CXCursor d = clang_getOverloadedDecl(ref, i);
    if (in_project(at.file) && named.insert(qualified_name(d)).second) {
      pending_macro_names_.emplace_back(facts_.references.size(), expansion_key(c));
      facts_.references.push_back({at, symbol_id(d), Via::direct, {}, definition});
    }
    const CXCursorKind k = clang_getCursorKind(d);
    if (k != CXCursor_TypedefDecl && k != CXCursor_TypeAliasDecl) continue;
    used_typedefs_.emplace(clang::spelling(d), d);
    used_typedefs_.emplace(qualified_name(d), d);
  }
}

// The typedef or alias a using-declaration brought in under `name` (plain or qualified) that stands for
// `type`; a null cursor when there is none.
CXCursor Extractor::used_typedef(const std::string& name, CXType type) const {
  const CXType canonical = clang_getCanonicalType(type);
  for (auto [it, end] = used_typedefs_.equal_range(name); it != end; ++it) {
    const CXType target = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(it->second));
    if (clang_equalTypes(target, canonical)) return it->second;
  }
  return clang_getNullCursor();
}

// A TypeRef to a class, struct, union or enum written by another name: the typedef a using-declaration
// brought in under that name, which libclang looks through (`using detail::cfloat;` then `cfloat v;` refers
// to the union that `cl_float2`, the alias's target, names). A null cursor when the name is the class's own.
CXCursor Extractor::typedef_written_at(CXCursor type_ref, CXCursor referenced) const {
  if (used_typedefs_.empty()) return clang_getNullCursor();
  const CXCursorKind k = clang_getCursorKind(referenced);
  if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl && k != CXCursor_UnionDecl &&
      k != CXCursor_EnumDecl)
    return clang_getNullCursor();
  CXFile file = nullptr;
  unsigned offset = 0;
  clang_getSpellingLocation(clang_getCursorLocation(type_ref), &file, nullptr, nullptr, &offset);
  std::size_t size = 0;
  const char* data = file ? clang_getFileContents(tu_, file, &size) : nullptr;
  if (!data || offset >= size) return clang_getNullCursor();
  std::size_t end = offset;
  while (end < size && is_identifier_char(data[end])) ++end;
  const std::string written(data + offset, end - offset);
  if (written.empty() || written == clang::spelling(referenced)) return clang_getNullCursor();
  return used_typedef(written, clang_getCursorType(referenced));
}

void Extractor::add_reference(CXCursor c, int definition) {
  CXCursor ref = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(ref) || clang_isInvalid(clang_getCursorKind(ref))) return;
  if (clang_getCursorKind(c) == CXCursor_TypeRef) {
    if (CXCursor written = typedef_written_at(c, ref); !clang_Cursor_isNull(written)) ref = written;
  }
  Location at = location(clang_getCursorLocation(c));
  // Whether it came from a macro is known once every macro expansion has been seen (see run()).
  pending_macro_names_.emplace_back(facts_.references.size(), expansion_key(c));
  facts_.references.push_back({at, symbol_id(ref), Via::direct, {}, definition});
  CXCursorKind rk = clang_getCursorKind(ref);
  if (rk == CXCursor_UnexposedDecl) add_binding(ref);
  if (rk == CXCursor_TypedefDecl || rk == CXCursor_TypeAliasDecl) {
    Via via = rk == CXCursor_TypeAliasDecl ? Via::alias : Via::typedef_;
    add_type_references(clang_getTypedefDeclUnderlyingType(ref), at, via, clang::spelling(ref), definition);
  }
}

// Where the macro that produced a cursor was expanded: the macro name's file and offset.
std::pair<CXFile, unsigned> Extractor::expansion_key(CXCursor c) {
  CXFile file = nullptr;
  unsigned offset = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, nullptr, nullptr, &offset);
  return {file, offset};
}

void Extractor::visit(CXCursor c, int definition) {
  CXCursorKind kind = clang_getCursorKind(c);
  if (instantiation_depth_ > 0) {
    visit_instantiated(c, kind, definition);
    return;
  }
  switch (kind) {
    case CXCursor_InclusionDirective: {
      Include inc;
      inc.at = range(clang_getCursorExtent(c));
      inc.spelled = clang::spelling(c);
      inc.included = file_id(clang_getIncludedFile(c));
      facts_.includes.push_back(std::move(inc));
      return;
    }
    case CXCursor_MacroExpansion: {
      // `#ifdef X`, `#ifndef X` and `defined(X)` only test whether a configuration macro is set: libclang
      // records them as references, but they use nothing of whoever defines it.
      if (is_definedness_test(c)) return;
      std::string name = clang::spelling(c);
      macro_at_[expansion_key(c)] = name;
      CXCursor def = clang_getCursorReferenced(c);
      if (clang_Cursor_isNull(def)) return;
      Location at = range(clang_getCursorExtent(c));
      if (in_project(at.file)) facts_.macro_expansions.push_back(at);
      facts_.references.push_back({at, symbol_id(def), Via::direct, name, definition});
      return;
    }
    case CXCursor_MacroDefinition:
      return;
    case CXCursor_TypeRef:
    case CXCursor_TemplateRef:
    case CXCursor_NamespaceRef:
    case CXCursor_MemberRef:
    case CXCursor_VariableRef:
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
      add_reference(c, definition);
      break;
    case CXCursor_CallExpr:
      add_call(c, definition);
      break;
    case CXCursor_CStyleCastExpr:
      add_conversion(c, "c-style", definition);
      break;
    case CXCursor_CXXStaticCastExpr:
      add_conversion(c, "static_cast", definition);
      break;
    case CXCursor_CXXFunctionalCastExpr:
      add_conversion(c, "functional", definition);
      break;
    case CXCursor_InitListExpr:
      add_list_initialization(c, definition);
      break;
    case CXCursor_CXXReinterpretCastExpr:
      add_conversion(c, "reinterpret_cast", definition);
      break;
    case CXCursor_CXXConstCastExpr:
      add_conversion(c, "const_cast", definition);
      break;
    case CXCursor_VarDecl:
    case CXCursor_FieldDecl:
    case CXCursor_ParmDecl: {
      add_type_references(clang_getCursorType(c), location(clang_getCursorLocation(c)), Via::type,
                          clang::spelling(c), definition);
      if (kind == CXCursor_VarDecl) add_variable(c, definition);
      break;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
    case CXCursor_UnaryOperator:
      add_builtin_operator(c, kind, definition);
      break;
    case CXCursor_IfStmt:
    case CXCursor_WhileStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_DoStmt:
    case CXCursor_ForStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_ConditionalOperator:
      add_statement(c, kind, definition);
      break;
    case CXCursor_UsingDeclaration:
      add_using_declaration(c, definition);
      break;
    case CXCursor_LambdaExpr:
      definition = add_lambda(c, definition);
      break;
    case CXCursor_FunctionTemplate:
      add_call_operator_template(c);
      break;
    case CXCursor_UnexposedDecl:
      add_decomposition(c, definition);
      break;
    case CXCursor_UsingDirective:
    case CXCursor_NamespaceAlias:
      add_namespace_use(c, kind, definition);
      break;
    default:
      break;
  }
  if (is_function_kind(kind)) {
    add_type_references(clang_getCursorResultType(c), location(clang_getCursorLocation(c)), Via::type,
                        clang::spelling(c), definition);
    if (clang_isCursorDefinition(c)) {
      Definition d;
      d.qualified_name = qualified_name(c);
      d.kind = clang::take(clang_getCursorKindSpelling(kind));
      d.at = location(clang_getCursorLocation(c));
      d.extent = range(clang_getCursorExtent(c));
      definition = static_cast<int>(facts_.definitions.size());
      facts_.definitions.push_back(std::move(d));
    }
  }
  if (kind == CXCursor_VarDecl && definition < 0) {
    visit_namespace_variable(c);
    return;
  }
  if (kind == CXCursor_Namespace) {
    std::string name = clang::spelling(c);
    namespaces_.push_back(name.empty() ? "(anonymous namespace)" : name);
    visit_children(c, definition);
    namespaces_.pop_back();
    return;
  }
  visit_children(c, definition);
}

// Inside the body of a function template instantiated from project code, the types are known: only the
// operators, conversions and further instantiations are read (everything else was read in the template).
void Extractor::visit_instantiated(CXCursor c, CXCursorKind kind, int definition) {
  switch (kind) {
    case CXCursor_CallExpr:
      add_call(c, definition);
      break;
    case CXCursor_CStyleCastExpr:
      add_conversion(c, "c-style", definition);
      break;
    case CXCursor_CXXStaticCastExpr:
      add_conversion(c, "static_cast", definition);
      break;
    case CXCursor_CXXFunctionalCastExpr:
      add_conversion(c, "functional", definition);
      break;
    case CXCursor_InitListExpr:
      add_list_initialization(c, definition);
      break;
    default:
      break;
  }
  visit_children(c, definition);
}

// Visits once the body of an instantiation whose template is project code: a function template's, or a
// member function's of a class template (`Accumulator<Tensor>::add`, whose `total += x` is a tensor
// operator only in that instantiation).
void Extractor::visit_instantiation(CXCursor callee) {
  if (instantiation_depth_ >= 4) return;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(callee);
  if (clang_Cursor_isNull(tmpl)) return;
  CXCursorKind tk = clang_getCursorKind(tmpl);
  if (tk != CXCursor_FunctionTemplate) {
    CXCursorKind parent = clang_getCursorKind(clang_getCursorSemanticParent(tmpl));
    const bool member_of_template =
        (tk == CXCursor_CXXMethod || tk == CXCursor_Constructor || tk == CXCursor_Destructor ||
         tk == CXCursor_ConversionFunction) &&
        (parent == CXCursor_ClassTemplate || parent == CXCursor_ClassTemplatePartialSpecialization);
    if (!member_of_template) return;
  }
  if (!in_project(location(clang_getCursorLocation(tmpl)).file)) return;
  if (!instantiations_.insert(callee).second) return;
  ++instantiation_depth_;
  visit_children(callee, -1);
  --instantiation_depth_;
}

}  // namespace emberlint::extraction
