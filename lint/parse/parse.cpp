#include "lint/parse/parse.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "lint/libclang/cursor.hpp"
#include "lint/support/glob.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/project/parse_errors.hpp"
#include "lint/parse/prefix.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;

std::string_view to_string(Via v) {
  switch (v) {
    case Via::direct:
      return "direct";
    case Via::macro:
      return "macro";
    case Via::alias:
      return "alias";
    case Via::typedef_:
      return "typedef";
    case Via::type:
      return "type";
  }
  return "direct";
}

namespace {

// Whether a forced include has a precompiled form beside it (`-include cmake_pch.hxx` with GCC's
// cmake_pch.hxx.gch from target_precompile_headers): clang's driver would load that file as its own PCH and
// fail on GCC's format.
bool has_precompiled_form(const CompileCommand& command, const std::string& header) {
  fs::path p(header);
  if (p.is_relative()) p = command.directory / p;
  std::error_code ec;
  for (const char* ext : {".gch", ".pch"}) {
    if (fs::exists(p.string() + ext, ec)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> libclang_arguments(const CompileCommand& command, const std::string& resource_dir) {
  std::vector<std::string> argv = {command.driver};
  const auto& args = command.arguments;
  for (std::size_t i = 0; i < args.size(); ++i) {
    // A precompiled header is the text of its header: the front end includes the header itself, past the
    // driver's lookup of a .gch/.pch beside it.
    std::string header = args[i] == "-include" && i + 1 < args.size() ? args[i + 1]
                         : args[i].rfind("-include", 0) == 0 && args[i].size() > 8 && args[i][8] != '-'
                             ? args[i].substr(8)
                             : std::string();
    if (!header.empty() && has_precompiled_form(command, header)) {
      fs::path p(header);
      if (p.is_relative()) p = command.directory / p;
      argv.insert(argv.end(), {"-Xclang", "-include", "-Xclang", p.lexically_normal().string()});
      if (args[i] == "-include") ++i;
      continue;
    }
    argv.push_back(args[i]);
  }
  // The command's folder, for the front end only: the driver's -working-directory changes the working folder
  // of the whole process (chdir), which moves every relative path of the run and races between threads.
  if (!command.directory.empty()) {
    argv.push_back("-Xclang");
    argv.push_back("-working-directory=" + command.directory.string());
  }
  if (!resource_dir.empty()) {
    argv.push_back("-resource-dir");
    argv.push_back(resource_dir);
  }
  argv.push_back("-fsyntax-only");
  argv.push_back("-w");  // rules do not read compiler warnings; errors still mark a failed parse
  // No error limit: past 20 errors clang stops parsing, and a partial unit's later code would go unchecked.
  argv.push_back("-ferror-limit=0");
  return argv;
}

void for_each_input(CXTranslationUnit tu, const fs::path& directory,
                    const std::function<void(const fs::path&, std::string_view)>& visit) {
  struct Context {
    CXTranslationUnit tu;
    const fs::path& directory;
    const std::function<void(const fs::path&, std::string_view)>& visit;
  } context{tu, directory, visit};
  auto each = [](CXFile file, CXSourceLocation*, unsigned, CXClientData data) {
    auto& c = *static_cast<Context*>(data);
    fs::path p = clang::file_name(file);
    if (p.is_relative()) p = c.directory / p;
    std::size_t size = 0;
    const char* bytes = clang_getFileContents(c.tu, file, &size);
    // As libclang spelled it: removing ".." lexically would be wrong where a folder is a symbolic link.
    c.visit(p, bytes ? std::string_view(bytes, size) : std::string_view());
  };
  clang_getInclusions(tu, each, &context);
}

namespace {

// Every header the unit read with the file whose #include read it, names resolved as for_each_input's.
void for_each_include(CXTranslationUnit tu, const fs::path& directory,
                      const std::function<void(const fs::path&, const fs::path&)>& visit) {
  struct Context {
    const fs::path& directory;
    const std::function<void(const fs::path&, const fs::path&)>& visit;
  } context{directory, visit};
  auto each = [](CXFile file, CXSourceLocation* stack, unsigned depth, CXClientData data) {
    if (depth == 0) return;  // the main file
    auto& c = *static_cast<Context*>(data);
    CXFile includer = nullptr;
    clang_getSpellingLocation(stack[0], &includer, nullptr, nullptr, nullptr);
    if (!includer) return;
    auto resolve = [&c](CXFile f) {
      fs::path p = clang::file_name(f);
      return p.is_relative() ? c.directory / p : p;
    };
    c.visit(resolve(includer), resolve(file));
  };
  clang_getInclusions(tu, each, &context);
}

struct CursorHash {
  std::size_t operator()(const CXCursor& c) const { return clang_hashCursor(c); }
};
struct CursorEq {
  bool operator()(const CXCursor& a, const CXCursor& b) const { return clang_equalCursors(a, b) != 0; }
};

bool is_function_kind(CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate;
}

bool is_scope_kind(CXCursorKind k) {
  return k == CXCursor_Namespace || k == CXCursor_ClassDecl || k == CXCursor_StructDecl ||
         k == CXCursor_UnionDecl || k == CXCursor_EnumDecl || k == CXCursor_ClassTemplate ||
         k == CXCursor_ClassTemplatePartialSpecialization;
}

// "ns::Class::name": the cursor's name with its enclosing namespaces and classes.
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

class Extractor {
 public:
  Extractor(CXTranslationUnit tu, TuFacts& facts, const ParseOptions& options, const CompileCommand& command)
      : tu_(tu), facts_(facts), options_(options), command_(command) {}

  void run() {
    CXFile main = clang_getFile(tu_, command_.file.c_str());
    facts_.main = file_id(main);
    for (const auto& header : options_.batch) {
      if (CXFile f = clang_getFile(tu_, header.c_str())) facts_.batch.push_back(file_id(f));
    }
    clang_visitChildren(clang_getTranslationUnitCursor(tu_), &Extractor::top_level, this);
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

 private:
  struct Scope {
    Extractor* self;
    int definition;
  };

  static CXChildVisitResult top_level(CXCursor c, CXCursor, CXClientData data) {
    auto* self = static_cast<Extractor*>(data);
    Location at = self->location(clang_getCursorLocation(c));
    if (at.file < 0 || !self->facts_.files[static_cast<std::size_t>(at.file)].in_project) {
      return CXChildVisit_Continue;
    }
    self->visit(c, -1);
    return CXChildVisit_Continue;
  }

  static CXChildVisitResult child(CXCursor c, CXCursor, CXClientData data) {
    auto* scope = static_cast<Scope*>(data);
    scope->self->visit(c, scope->definition);
    return CXChildVisit_Continue;
  }

  void visit_children(CXCursor c, int definition) {
    Scope scope{this, definition};
    clang_visitChildren(c, &Extractor::child, &scope);
  }

  FileId file_id(CXFile file) {
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

  Location location(CXSourceLocation loc) {
    CXFile file = nullptr;
    unsigned line = 0, column = 0, offset = 0;
    clang_getExpansionLocation(loc, &file, &line, &column, &offset);
    return {file_id(file), line, column, line, column, offset, offset};
  }

  Location range(CXSourceRange r) {
    Location begin = location(clang_getRangeStart(r));
    Location end = location(clang_getRangeEnd(r));
    if (end.file == begin.file) {
      begin.end_line = end.line, begin.end_column = end.column;
      // A range that a macro expansion produced can end at the expansion point, before its start.
      begin.end_offset = std::max(begin.offset, end.offset);
    }
    return begin;
  }

  Location extent(CXCursor c) { return range(clang_getCursorExtent(c)); }

  // The location of a byte offset in a project file; a file < 0 location when there is none.
  Location at_offset(FileId file, std::size_t offset) {
    auto it = cxfiles_.find(file);
    if (it == cxfiles_.end() || offset > text(file).size()) return {};
    return location(clang_getLocationForOffset(tu_, it->second, static_cast<unsigned>(offset)));
  }

  // Where an operator's token is: between the operands, or before or after the one operand.
  Location operator_token(const Location& whole, const std::vector<Location>& operands) {
    std::string_view t = text(whole.file);
    std::size_t from = whole.offset;
    if (operands.size() >= 2) {
      from = operands[0].end_offset;
    } else if (operands.size() == 1 && operands[0].offset <= whole.offset) {
      from = operands[0].end_offset;  // postfix
    }
    while (from < t.size() && std::isspace(static_cast<unsigned char>(t[from]))) ++from;
    return at_offset(whole.file, from);
  }

  bool in_project(FileId id) const {
    return id >= 0 && facts_.files[static_cast<std::size_t>(id)].in_project;
  }

  // The text of a file as libclang read it (the file on disk), for operator spellings and conditions.
  std::string_view text(FileId id) {
    auto it = contents_.find(id);
    return it == contents_.end() ? std::string_view() : it->second;
  }
  std::string_view text(const Location& l) {
    std::string_view t = text(l.file);
    if (l.end_offset < l.offset || l.end_offset > t.size()) return {};
    return t.substr(l.offset, l.end_offset - l.offset);
  }

  // The spelling of a type without its top-level cv-qualifiers.
  static std::string unqualified_spelling(CXType t) {
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
  int type_id(CXType t) {
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
  void class_names(CXCursor decl, std::vector<std::string>& out, int depth) {
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

  static std::string qualified_name(CXCursor c) { return emberlint::qualified_name(c); }

  int symbol_id(CXCursor referenced) {
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
    const bool record =
        kind == CXCursor_StructDecl || kind == CXCursor_ClassDecl || kind == CXCursor_UnionDecl;
    if (record && !clang_isCursorDefinition(canonical))
      s.forward_declared = location(clang_getCursorLocation(canonical));
    int id = static_cast<int>(facts_.symbols.size());
    facts_.symbols.push_back(std::move(s));
    symbol_ids_.emplace(canonical, id);
    return id;
  }

  // The declarations a type names: the type itself, what it points to, and its template arguments.
  void type_declarations(CXType t, std::vector<CXCursor>& out, int depth = 0) {
    if (depth > 8 || t.kind == CXType_Invalid) return;
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

  void add_type_references(CXType t, const Location& at, Via via, const std::string& via_name,
                           int definition) {
    std::vector<CXCursor> decls;
    type_declarations(t, decls);
    for (const auto& d : decls) facts_.references.push_back({at, symbol_id(d), via, via_name, definition});
  }

  // Whether a macro reference is a test of definedness: the name follows `defined` (or `defined(`) or is the
  // operand of #ifdef, #ifndef, #elifdef or #elifndef.
  bool is_definedness_test(CXCursor c) const {
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

  void add_reference(CXCursor c, int definition) {
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(ref) || clang_isInvalid(clang_getCursorKind(ref))) return;
    Location at = location(clang_getCursorLocation(c));
    // Whether it came from a macro is known once every macro expansion has been seen (see run()).
    pending_macro_names_.emplace_back(facts_.references.size(), expansion_key(c));
    facts_.references.push_back({at, symbol_id(ref), Via::direct, {}, definition});
    CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_TypedefDecl || rk == CXCursor_TypeAliasDecl) {
      Via via = rk == CXCursor_TypeAliasDecl ? Via::alias : Via::typedef_;
      add_type_references(clang_getTypedefDeclUnderlyingType(ref), at, via, clang::spelling(ref), definition);
    }
  }

  // Where the macro that produced a cursor was expanded: the macro name's file and offset.
  static std::pair<CXFile, unsigned> expansion_key(CXCursor c) {
    CXFile file = nullptr;
    unsigned offset = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, nullptr, nullptr, &offset);
    return {file, offset};
  }

  void visit(CXCursor c, int definition) {
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
  void visit_instantiated(CXCursor c, CXCursorKind kind, int definition) {
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
  void visit_instantiation(CXCursor callee) {
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

  static std::vector<CXCursor> children(CXCursor c) {
    std::vector<CXCursor> out;
    clang_visitChildren(
        c,
        [](CXCursor ch, CXCursor, CXClientData d) {
          static_cast<std::vector<CXCursor>*>(d)->push_back(ch);
          return CXChildVisit_Continue;
        },
        &out);
    return out;
  }

  static bool is_expression(CXCursor c) { return clang_isExpression(clang_getCursorKind(c)) != 0; }

  // The text between two ranges of one file, without surrounding blanks: a binary operator's spelling.
  std::string between(const Location& a, const Location& b) {
    if (a.file != b.file || a.end_offset > b.offset) return {};
    std::string_view t = text(a.file);
    if (b.offset > t.size()) return {};
    std::string_view s = t.substr(a.end_offset, b.offset - a.end_offset);
    auto first = s.find_first_not_of(" \t\r\n\\");
    if (first == std::string_view::npos) return {};
    auto last = s.find_last_not_of(" \t\r\n\\");
    return std::string(s.substr(first, last - first + 1));
  }

  void add_condition(const Location& l) {
    if (l.file >= 0) conditions_.emplace(l.file, l.offset, l.end_offset);
  }
  bool is_condition(const Location& l) const {
    return conditions_.count({l.file, l.offset, l.end_offset}) > 0;
  }

  int variable_of(CXCursor expr) {
    if (clang_getCursorKind(expr) != CXCursor_DeclRefExpr) return -1;
    CXCursor ref = clang_getCursorReferenced(expr);
    CXCursorKind k = clang_getCursorKind(ref);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) return -1;
    return symbol_id(ref);
  }

  void add_assignment(const Location& at, CXCursor target, CXCursor value, int definition) {
    int var = variable_of(target);
    if (var < 0) return;
    Assignment a;
    a.at = at;
    a.variable = var;
    a.value = extent(value);
    a.definition = definition;
    facts_.assignments.push_back(std::move(a));
  }

  static bool tracked_operator(std::string_view op) {
    static const std::set<std::string_view> kOps = {"+",  "-",  "*",   "/",   "%",  "^",  "&",  "|",   "~",
                                                    "!",  "<",  ">",   "<=",  ">=", "==", "!=", "<=>", "&&",
                                                    "||", "<<", ">>",  "+=",  "-=", "*=", "/=", "%=",  "^=",
                                                    "&=", "|=", "<<=", ">>=", "++", "--", "[]", "()"};
    return kOps.count(op) > 0;
  }

  // Unary operators that compute (not `&` taking an address or `*` dereferencing).
  static bool tracked_unary(std::string_view op) {
    return op == "-" || op == "+" || op == "!" || op == "~" || op == "++" || op == "--";
  }

  Operator make_operator(const Location& at, std::string spelling, int definition) {
    Operator op;
    op.at = at;
    op.spelling = std::move(spelling);
    op.namespaces = namespaces_;
    op.definition = definition;
    return op;
  }

  void add_call(CXCursor c, int definition) {
    CXCursor callee = clang_getCursorReferenced(c);
    Call call;
    call.at = extent(c);
    call.definition = definition;
    call.result = type_id(clang_getCursorType(c));
    call.result_type = clang::type_spelling(clang_getCursorType(c));
    int n = clang_Cursor_getNumArguments(c);
    std::vector<CXCursor> args;
    for (int i = 0; i < n; ++i) {
      CXCursor arg = clang_Cursor_getArgument(c, static_cast<unsigned>(i));
      Location l = extent(arg);
      if (l.file < 0) continue;  // a default argument: not written here
      args.push_back(arg);
      call.arguments.push_back(l);
      call.argument_type_ids.push_back(type_id(clang_getCursorType(arg)));
    }
    CXCursorKind callee_kind = clang_getCursorKind(callee);
    bool resolved = !clang_Cursor_isNull(callee) && !clang_isInvalid(callee_kind);
    // An operator call in a template whose operands are dependent has no callee yet; its spelling names it.
    call.name = resolved ? clang::spelling(callee) : clang::spelling(c);
    if (resolved) call.callee = symbol_id(callee);
    if (resolved && (callee_kind == CXCursor_FunctionDecl || callee_kind == CXCursor_CXXMethod)) {
      visit_instantiation(callee);
    }
    CXCursor object = clang_getNullCursor();
    if (callee_kind == CXCursor_CXXMethod || callee_kind == CXCursor_ConversionFunction) {
      std::vector<CXCursor> kids = children(c);
      if (!kids.empty() && clang_getCursorKind(kids.front()) == CXCursor_MemberRefExpr) {
        std::vector<CXCursor> member = children(kids.front());
        if (!member.empty()) {
          object = member.front();
          call.object = type_id(clang_getCursorType(object));
        }
      }
    }
    if (callee_kind == CXCursor_ConversionFunction) {
      Conversion conv;
      conv.at = call.at;
      conv.kind = "operator";
      conv.to_type = call.result_type;
      conv.to = call.result;
      conv.definition = definition;
      if (!clang_Cursor_isNull(object)) {
        conv.from_type = clang::type_spelling(clang_getCursorType(object));
        conv.from = call.object;
        conv.operand = extent(object);
      }
      conv.explicit_call = text(call.at).find("operator") != std::string_view::npos;
      conv.condition = is_condition(call.at);
      facts_.conversions.push_back(std::move(conv));
    } else if (call.name.rfind("operator", 0) == 0 && call.name.size() > 8 &&
               !is_identifier_char(call.name[8])) {
      call.operator_spelling = call.name.substr(8);
      while (!call.operator_spelling.empty() && call.operator_spelling.front() == ' ') {
        call.operator_spelling.erase(0, 1);
      }
      for (const auto& arg : args)
        call.argument_types.push_back(clang::type_spelling(clang_getCursorType(arg)));
      if (call.operator_spelling == "=" && args.size() == 2) {
        if (instantiation_depth_ == 0) add_assignment(call.at, args[0], args[1], definition);
      } else if (tracked_operator(call.operator_spelling) && !args.empty()) {
        Operator op = make_operator(call.at, call.operator_spelling, definition);
        op.overloaded = resolved;
        op.instantiated = instantiation_depth_ > 0;
        std::size_t count = args.size();
        // Postfix ++ and -- carry a dummy int operand that is not in the source.
        if ((op.spelling == "++" || op.spelling == "--") && count == 2) count = 1;
        for (std::size_t i = 0; i < count; ++i) {
          op.operands.push_back(call.arguments[i]);
          op.operand_types.push_back(call.argument_type_ids[i]);
        }
        op.operator_at = operator_token(op.at, op.operands);
        op.unary = count == 1 && op.spelling != "()" && op.spelling != "[]";
        op.prefix = op.unary && op.operator_at.offset < op.operands[0].offset;
        if (!op.unary || tracked_unary(op.spelling)) facts_.operators.push_back(std::move(op));
      }
    }
    if (instantiation_depth_ == 0) {
      if (!resolved)
        dependent_calls_.emplace(std::make_tuple(call.at.file, call.at.offset, call.at.end_offset),
                                 definition);
      facts_.calls.push_back(std::move(call));
    } else if (resolved) {
      instantiated_calls_.push_back(std::move(call));
    }
  }

  bool class_typed(int type) const {
    return type >= 0 && !facts_.types[static_cast<std::size_t>(type)].classes.empty();
  }

  // Built-in-form operators: `&&`/`||`/`!` make their operands conditions, `=` assigns a variable, and an
  // operator with a class-typed operand (a dependent expression in a template) is kept for the rules.
  void add_builtin_operator(CXCursor c, CXCursorKind kind, int definition) {
    std::vector<CXCursor> kids = children(c);
    Location whole = extent(c);
    if (!in_project(whole.file)) return;
    if (kind == CXCursor_UnaryOperator) {
      if (kids.size() != 1) return;
      Location operand = extent(kids[0]);
      bool prefix = operand.offset > whole.offset;
      Location head = whole, tail = whole;
      head.end_offset = operand.offset;
      tail.offset = operand.end_offset;
      std::string spelling(text(prefix ? head : tail));
      spelling.erase(std::remove_if(spelling.begin(), spelling.end(),
                                    [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); }),
                     spelling.end());
      if (spelling == "!" || spelling == "not") add_condition(operand);
      int type = type_id(clang_getCursorType(kids[0]));
      if (!class_typed(type) || !tracked_unary(spelling)) return;
      Operator op = make_operator(whole, spelling, definition);
      op.unary = true;
      op.prefix = prefix;
      op.operands = {operand};
      op.operator_at = operator_token(whole, op.operands);
      op.operand_types = {type};
      facts_.operators.push_back(std::move(op));
      return;
    }
    if (kids.size() != 2) return;
    Location lhs = extent(kids[0]), rhs = extent(kids[1]);
    std::string spelling = between(lhs, rhs);
    if (spelling == "&&" || spelling == "||" || spelling == "and" || spelling == "or") {
      add_condition(lhs);
      add_condition(rhs);
    }
    if (spelling == "=") {
      add_assignment(whole, kids[0], kids[1], definition);
      return;
    }
    int lt = type_id(clang_getCursorType(kids[0])), rt = type_id(clang_getCursorType(kids[1]));
    if ((!class_typed(lt) && !class_typed(rt)) || !tracked_operator(spelling)) return;
    Operator op = make_operator(whole, spelling, definition);
    op.operands = {lhs, rhs};
    op.operator_at = operator_token(whole, op.operands);
    op.operand_types = {lt, rt};
    facts_.operators.push_back(std::move(op));
  }

  // Skips blanks and comments from `i`; returns the first other offset.
  static std::size_t skip_blanks(std::string_view t, std::size_t i) {
    while (i < t.size()) {
      if (std::isspace(static_cast<unsigned char>(t[i]))) {
        ++i;
      } else if (t.compare(i, 2, "//") == 0) {
        i = t.find('\n', i);
        if (i == std::string_view::npos) return t.size();
      } else if (t.compare(i, 2, "/*") == 0) {
        i = t.find("*/", i + 2);
        if (i == std::string_view::npos) return t.size();
        i += 2;
      } else {
        break;
      }
    }
    return i;
  }

  // The parenthesized head of `if`/`while`/`switch`/`for` starting at `begin`: the offsets of its `(` and
  // `)` and of the `;` at its top level. Empty when the text there is not such a statement (a macro made it).
  struct Head {
    std::size_t open = 0, close = 0;
    std::vector<std::size_t> semicolons;
  };
  std::optional<Head> statement_head(FileId file, std::size_t begin) {
    std::string_view t = text(file);
    std::size_t i = begin;
    auto word = [&] {
      std::size_t j = i;
      while (j < t.size() && is_identifier_char(t[j])) ++j;
      return t.substr(i, j - i);
    };
    std::string_view kw = word();
    if (kw != "if" && kw != "while" && kw != "switch" && kw != "for") return std::nullopt;
    i = skip_blanks(t, i + kw.size());
    if (word() == "constexpr") i = skip_blanks(t, i + 9);
    if (i >= t.size() || t[i] != '(') return std::nullopt;
    Head h;
    h.open = i;
    int depth = 0;
    for (; i < t.size(); ++i) {
      std::size_t next = skip_blanks(t, i);
      if (next != i) {
        i = next - 1;
        continue;
      }
      char ch = t[i];
      if (ch == '"' || ch == '\'') {
        for (++i; i < t.size() && t[i] != ch; ++i) {
          if (t[i] == '\\') ++i;
        }
      } else if (ch == '(' || ch == '[' || ch == '{') {
        ++depth;
      } else if (ch == ')' || ch == ']' || ch == '}') {
        if (--depth == 0) {
          h.close = i;
          return h;
        }
      } else if (ch == ';' && depth == 1) {
        h.semicolons.push_back(i);
      }
    }
    return std::nullopt;
  }

  // Conditions of statements and `?:`, and loops with their condition and body.
  void add_statement(CXCursor c, CXCursorKind kind, int definition) {
    std::vector<CXCursor> kids = children(c);
    Location whole = extent(c);
    if (kids.empty() || !in_project(whole.file)) return;
    std::vector<Location> at;
    for (const auto& k : kids) at.push_back(extent(k));
    if (kind == CXCursor_ConditionalOperator) {
      if (kids.size() == 3) add_condition(at[0]);
      return;
    }
    Loop loop;
    loop.at = whole;
    loop.definition = definition;
    if (kind == CXCursor_DoStmt) {
      if (kids.size() < 2) return;
      add_condition(at.back());
      loop.body = at.front();
      loop.condition = at.back();
      facts_.loops.push_back(std::move(loop));
      return;
    }
    auto head = statement_head(whole.file, whole.offset);
    if (!head) return;
    auto inside = [&](const Location& l, std::size_t from, std::size_t to) {
      return l.file == whole.file && l.offset > from && l.end_offset <= to;
    };
    std::optional<std::size_t> condition, range, body;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (at[i].offset > head->close) {
        body = i;
      } else if (kind == CXCursor_ForStmt) {
        if (head->semicolons.size() == 2 && inside(at[i], head->semicolons[0], head->semicolons[1]))
          condition = i;
      } else if (kind == CXCursor_CXXForRangeStmt) {
        if (inside(at[i], head->open, head->close) && is_expression(kids[i])) range = i;
      } else if (inside(at[i], head->open, head->close) && is_expression(kids[i])) {
        condition = i;
      }
    }
    if (condition) add_condition(at[*condition]);
    if (kind == CXCursor_IfStmt || kind == CXCursor_SwitchStmt || !body) return;
    loop.body = at[*body];
    if (condition) loop.condition = at[*condition];
    if (range) {
      loop.range_for = true;
      loop.condition = at[*range];
      loop.range_type = type_id(clang_getCursorType(kids[*range]));
    }
    facts_.loops.push_back(std::move(loop));
  }

  void add_variable(CXCursor c, int definition) {
    std::vector<CXCursor> kids = children(c);
    auto init = std::find_if(kids.rbegin(), kids.rend(), [](CXCursor k) { return is_expression(k); });
    if (init == kids.rend()) return;
    Location name = location(clang_getCursorLocation(c));
    if (!in_project(name.file)) return;
    Assignment a;
    a.at = name;
    a.variable = symbol_id(c);
    a.value = extent(*init);
    a.declaration = true;
    CXType type = clang_getCursorType(c);
    a.type = type_id(type);
    a.type_spelling = clang::type_spelling(clang_getCanonicalType(type));
    Location whole = extent(c);
    if (whole.file == name.file && whole.offset < name.offset) {
      Location head = whole;
      head.end_offset = name.offset;
      std::string_view t = text(head);
      for (std::size_t at = t.find("auto"); at != std::string_view::npos; at = t.find("auto", at + 1)) {
        if ((at == 0 || !is_identifier_char(t[at - 1])) &&
            (at + 4 >= t.size() || !is_identifier_char(t[at + 4])))
          a.written_auto = true;
      }
    }
    a.definition = definition;
    facts_.assignments.push_back(std::move(a));
  }

  // The namespace a using-directive or namespace alias names, through aliases of aliases.
  std::string nominated_namespace(CXCursor c, int depth = 0) {
    CXCursor last = clang_getNullCursor();
    for (const auto& k : children(c)) {
      if (clang_getCursorKind(k) == CXCursor_NamespaceRef) last = k;
    }
    if (clang_Cursor_isNull(last) || depth > 8) return {};
    CXCursor ns = clang_getCursorReferenced(last);
    if (clang_getCursorKind(ns) == CXCursor_NamespaceAlias) return nominated_namespace(ns, depth + 1);
    return clang_Cursor_isNull(ns) ? std::string() : qualified_name(ns);
  }

  void add_namespace_use(CXCursor c, CXCursorKind kind, int definition) {
    NamespaceUse use;
    use.at = extent(c);
    if (!in_project(use.at.file)) return;
    use.target = nominated_namespace(c);
    if (use.target.empty()) return;
    if (kind == CXCursor_NamespaceAlias) use.alias = clang::spelling(c);
    for (const auto& n : namespaces_) use.scope_namespace += (use.scope_namespace.empty() ? "" : "::") + n;
    if (definition >= 0) use.scope_block = facts_.definitions[static_cast<std::size_t>(definition)].extent;
    facts_.namespace_uses.push_back(std::move(use));
  }

  void add_conversion(CXCursor c, const char* kind, int definition) {
    Conversion conv;
    conv.at = extent(c);
    conv.kind = kind;
    conv.to_type = clang::type_spelling(clang_getCursorType(c));
    conv.to = type_id(clang_getCursorType(c));
    conv.definition = definition;
    // The operand is the last child (a TypeRef to the target type may come first). A braced cast
    // (`double{t}`) converts the list's one element; the list itself is then not a conversion of its own.
    CXCursor operand = clang_getNullCursor();
    for (const auto& k : children(c)) {
      if (is_expression(k)) operand = k;
    }
    if (!clang_Cursor_isNull(operand) && clang_getCursorKind(operand) == CXCursor_InitListExpr) {
      if (CXCursor element = single_element(operand); !clang_Cursor_isNull(element)) {
        Location list = extent(operand);
        braced_casts_.emplace(list.file, list.offset, list.end_offset);
        operand = element;
      }
    }
    if (!clang_Cursor_isNull(operand)) {
      conv.from_type = clang::type_spelling(clang_getCursorType(operand));
      conv.from = type_id(clang_getCursorType(operand));
      conv.operand = extent(operand);
    }
    facts_.conversions.push_back(std::move(conv));
  }

  // The one expression of a braced list (`{t}`), else null.
  static CXCursor single_element(CXCursor list) {
    CXCursor element = clang_getNullCursor();
    int n = 0;
    for (const auto& k : children(list)) {
      if (is_expression(k)) {
        element = k;
        ++n;
      }
    }
    return n == 1 ? element : clang_getNullCursor();
  }

  // `double x{t}` and `double x = {t}`: libclang shows the list's written element, not the implicit
  // conversion inside it, so a one-element list of a non-class type is recorded as the conversion of that
  // element (the rules keep those to arithmetic types; an aggregate's or a class's list is not one).
  void add_list_initialization(CXCursor c, int definition) {
    Location list = extent(c);
    if (braced_casts_.count({list.file, list.offset, list.end_offset})) return;
    CXType type = clang_getCanonicalType(clang_getCursorType(c));
    if (type.kind == CXType_Record || type.kind == CXType_Invalid || type.kind == CXType_Dependent) return;
    CXCursor element = single_element(c);
    if (clang_Cursor_isNull(element)) return;
    Conversion conv;
    conv.at = list;
    conv.kind = "list-initialization";
    conv.to_type = clang::type_spelling(clang_getCursorType(c));
    conv.to = type_id(clang_getCursorType(c));
    conv.definition = definition;
    conv.from_type = clang::type_spelling(clang_getCursorType(element));
    conv.from = type_id(clang_getCursorType(element));
    conv.operand = extent(element);
    facts_.conversions.push_back(std::move(conv));
  }

  struct PairHash {
    std::size_t operator()(const std::pair<CXFile, unsigned>& p) const {
      return std::hash<const void*>()(p.first) ^ (std::hash<unsigned>()(p.second) << 1);
    }
  };

  CXTranslationUnit tu_;
  TuFacts& facts_;
  const ParseOptions& options_;
  const CompileCommand& command_;
  std::unordered_map<CXFile, FileId> file_ids_;
  std::unordered_map<FileId, std::string_view> contents_;
  std::unordered_map<FileId, CXFile> cxfiles_;
  std::unordered_map<int, int> builtin_types_;
  std::unordered_map<CXCursor, int, CursorHash, CursorEq> class_types_;
  std::vector<std::string> namespaces_;
  int instantiation_depth_ = 0;
  std::unordered_set<CXCursor, CursorHash, CursorEq>
      instantiations_;  // the namespaces enclosing the cursor being visited
  // Condition expressions seen so far, by file and byte range: their conversions are EL201's.
  std::set<std::tuple<FileId, unsigned, unsigned>> conditions_;
  // Calls in templates that name no callee yet, with their enclosing definition, and the resolved calls
  // seen inside instantiations: run() keeps those of the second at a location of the first.
  std::map<std::tuple<FileId, unsigned, unsigned>, int> dependent_calls_;
  std::vector<Call> instantiated_calls_;
  // The braced lists of braced casts (`double{t}`): their conversion is the cast's.
  std::set<std::tuple<FileId, unsigned, unsigned>> braced_casts_;
  std::unordered_map<CXCursor, int, CursorHash, CursorEq> symbol_ids_;
  std::unordered_map<std::pair<CXFile, unsigned>, std::string, PairHash> macro_at_;
  std::vector<std::pair<std::size_t, std::pair<CXFile, unsigned>>> pending_macro_names_;
};

// How many of a unit's errors it keeps: the first ones say why, the rest mostly follow from them.
constexpr std::size_t kKeptErrors = 3;

// The line of a file that a location is on, as libclang read it.
std::string source_line(CXTranslationUnit tu, CXFile file, unsigned offset) {
  std::size_t size = 0;
  const char* data = file ? clang_getFileContents(tu, file, &size) : nullptr;
  if (!data || offset > size) return {};
  std::string_view text(data, size);
  std::size_t begin = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  begin = begin == std::string_view::npos || offset == 0 ? 0 : begin + 1;
  std::size_t end = text.find('\n', offset);
  return std::string(text.substr(begin, (end == std::string_view::npos ? size : end) - begin));
}

}  // namespace

bool collect_parse_errors(CXTranslationUnit tu, const fs::path& directory, ParseResult& result) {
  std::vector<ClassifiedError> classified;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    clang::Diagnostic d(clang_getDiagnostic(tu, i));
    if (d.severity() < CXDiagnostic_Error) continue;
    CXFile file = nullptr;
    unsigned line = 0, column = 0, offset = 0;
    clang_getExpansionLocation(d.location(), &file, &line, &column, &offset);
    ParseError e;
    e.message = "error: " + d.spelling();
    if (file) {
      fs::path p = clang::file_name(file);
      if (p.is_relative()) p = directory / p;
      e.where = p.lexically_normal();
      result.error_files.insert(e.where);
      e.line = line;
      e.column = column;
    }
    classified.push_back({e.message, source_line(tu, file, offset)});
    if (is_missing_file_error(e.message) && !e.where.empty()) result.missing_includes.push_back(e);
    if (result.errors.size() < kKeptErrors) result.errors.push_back(std::move(e));
  }
  if (result.errors.empty()) return false;
  const ParseError& first = result.errors.front();
  result.failure = first.message;
  result.failure_file = first.where;
  result.failure_line = first.line;
  result.failure_column = first.column;
  result.cause = unit_parse_cause(classified);
  return true;
}

std::vector<EditProblem> check_edited_unit(const clang::Index& index, const CompileCommand& command,
                                           const std::string& resource_dir,
                                           const std::vector<EditedFile>& files) {
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.path.string());
  // No precompiled preamble: it is a temporary file to write, and a check must not fail where the first
  // parse (which may have skipped preamble bodies) did not.
  UnitParse how;
  how.preprocessing_record = false;
  how.quiet_includes = false;
  for (std::size_t i = 0; i < files.size(); ++i) how.unsaved.emplace_back(names[i], files[i].text);
  ParsedUnit parsed = parse_unit(index, command, resource_dir, how);
  const clang::TranslationUnit& tu = parsed.tu;
  std::vector<EditProblem> problems;
  if (!parsed) return {{"libclang could not parse the fixed file"}};
  std::vector<CXFile> handles;
  for (const auto& name : names) handles.push_back(clang_getFile(tu.get(), name.c_str()));
  unsigned n = clang_getNumDiagnostics(tu.get());
  for (unsigned i = 0; i < n; ++i) {
    clang::Diagnostic d(clang_getDiagnostic(tu.get(), i));
    if (d.severity() < CXDiagnostic_Error) continue;
    CXFile file = nullptr;
    unsigned offset = 0;
    clang_getExpansionLocation(d.location(), &file, nullptr, nullptr, &offset);
    EditProblem problem{"the fixed code does not compile: " + d.spelling()};
    for (std::size_t f = 0; f < handles.size(); ++f) {
      if (file && handles[f] && clang_File_isEqual(file, handles[f])) {
        problem.file = f;
        problem.offset = offset;
      }
    }
    problems.push_back(std::move(problem));
  }
  for (std::size_t f = 0; f < files.size(); ++f) {
    for (const auto& call : files[f].calls) {
      CXSourceLocation where =
          clang_getLocationForOffset(tu.get(), handles[f], static_cast<unsigned>(call.offset));
      CXCursor callee = clang_getCursorReferenced(clang_getCursor(tu.get(), where));
      std::string resolved = clang_Cursor_isNull(callee) ? std::string() : qualified_name(callee);
      if (resolved != call.qualified_name) {
        problems.push_back({"the call it writes would name " +
                                (resolved.empty() ? std::string("nothing") : "'" + resolved + "'") +
                                " there, not '" + call.qualified_name + "'",
                            f, call.offset});
      }
    }
  }
  return problems;
}

ParsedUnit::~ParsedUnit() {
  if (warm && tu) warm->give_back(warm_key, std::move(index), std::move(tu));
}

std::pair<std::size_t, std::size_t> WarmUnits::take_counts() {
  std::lock_guard lock(mutex_);
  return {std::exchange(reparsed_, 0), std::exchange(parsed_, 0)};
}

void WarmUnits::count(bool reparsed) {
  std::lock_guard lock(mutex_);
  ++(reparsed ? reparsed_ : parsed_);
}

std::optional<WarmUnits::Held> WarmUnits::take(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = held_.find(key);
  if (it == held_.end()) return std::nullopt;
  Held held = std::move(it->second);
  held_.erase(it);
  return held;
}

void WarmUnits::give_back(const std::string& key, std::unique_ptr<clang::Index> index,
                          clang::TranslationUnit tu) {
  std::optional<Held> dropped;  // disposed outside the lock
  std::lock_guard lock(mutex_);
  Held& held = held_[key];
  held.tu = std::move(tu);  // a unit lent twice at once (two parses of one command) keeps the later one
  held.index = std::move(index);
  held.used = ++clock_;
  if (held_.size() > capacity_) {
    auto oldest = std::min_element(held_.begin(), held_.end(), [](const auto& a, const auto& b) {
      return a.second.used < b.second.used;
    });
    dropped = std::move(oldest->second);
    held_.erase(oldest);
  }
}

ParsedUnit parse_unit(const clang::Index& index, const CompileCommand& command,
                      const std::string& resource_dir, const UnitParse& how) {
  std::vector<std::string> argv = libclang_arguments(command, resource_dir);
  if (how.all_comments) argv.push_back("-fparse-all-comments");
  if (!how.include_pch.empty()) argv.insert(argv.end(), {"-include-pch", how.include_pch.string()});
  if (how.prefix_header)
    argv.insert(argv.end(), {"-x", command.driver == "clang++" ? "c++-header" : "c-header"});
  std::vector<const char*> cargv;
  for (const auto& a : argv) cargv.push_back(a.c_str());
  std::vector<CXUnsavedFile> unsaved;
  if (command.contents)
    unsaved.push_back({command.file.c_str(), command.contents->data(),
                       static_cast<unsigned long>(command.contents->size())});
  for (const auto& [name, text] : how.unsaved)
    unsaved.push_back({name.c_str(), text.data(), static_cast<unsigned long>(text.size())});
  // The editor's buffers (lint/support/source_text.hpp) stand for their files, unless the caller's edits do.
  const std::shared_ptr<const Overlays> overlays = current_overlays();
  if (overlays) {
    for (const auto& overlay : *overlays) {
      const fs::path& path = overlay.first;
      auto edited = [&path](const auto& u) { return fs::path(u.first) == path; };
      if (std::none_of(how.unsaved.begin(), how.unsaved.end(), edited))
        unsaved.push_back(
            {path.c_str(), overlay.second.data(), static_cast<unsigned long>(overlay.second.size())});
    }
  }
  unsigned flags = CXTranslationUnit_KeepGoing;
  if (how.preprocessing_record) flags |= CXTranslationUnit_DetailedPreprocessingRecord;
  if (how.quiet_includes) flags |= CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
  if (how.prefix_header) {
    flags |= CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_ForSerialization |
             CXTranslationUnit_Incomplete;
  } else if (how.skip_preamble_bodies) {
    flags |= CXTranslationUnit_PrecompiledPreamble | CXTranslationUnit_CreatePreambleOnFirstParse |
             CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_LimitSkipFunctionBodiesToPreamble;
  }
  ParsedUnit out;
  if (how.warm) {
    // The key: everything the parse depends on but the files' contents, which a reparse reads again.
    out.warm = how.warm;
    out.warm_key = command.file.string() + '\n' + std::to_string(flags) + '\n';
    for (const auto& a : argv) out.warm_key += a + '\n';
    if (auto held = how.warm->take(out.warm_key)) {
      const int status =
          clang_reparseTranslationUnit(held->tu.get(), static_cast<unsigned>(unsaved.size()), unsaved.data(),
                                       clang_defaultReparseOptions(held->tu.get()));
      if (status == 0) {
        out.index = std::move(held->index);
        out.tu = std::move(held->tu);
        out.reparsed = true;
        how.warm->count(true);
        return out;
      }
      // A failed reparse leaves the unit unusable: it is disposed (with its index, after it) and parsed anew.
    }
    out.index = std::make_unique<clang::Index>();
    how.warm->count(false);
  }
  CXTranslationUnit raw = nullptr;
  out.error = clang_parseTranslationUnit2FullArgv(
      (out.index ? *out.index : index).get(), command.file.c_str(), cargv.data(),
      static_cast<int>(cargv.size()), unsaved.data(), static_cast<unsigned>(unsaved.size()), flags, &raw);
  out.tu = clang::TranslationUnit(raw);
  if (out.error != CXError_Success)
    out.tu = clang::TranslationUnit();
  else if (!out.tu)
    out.error = CXError_Failure;
  return out;
}

void for_each_skipped_range(CXTranslationUnit tu, const fs::path& directory,
                            const std::function<void(const fs::path&, std::string_view)>& visit) {
  CXSourceRangeList* skipped = clang_getAllSkippedRanges(tu);
  if (!skipped) return;
  for (unsigned i = 0; i < skipped->count; ++i) {
    CXFile file = nullptr;
    unsigned begin = 0, end = 0;
    clang_getSpellingLocation(clang_getRangeStart(skipped->ranges[i]), &file, nullptr, nullptr, &begin);
    clang_getSpellingLocation(clang_getRangeEnd(skipped->ranges[i]), nullptr, nullptr, nullptr, &end);
    if (!file || end <= begin) continue;
    std::size_t size = 0;
    const char* bytes = clang_getFileContents(tu, file, &size);
    if (!bytes || end > size) continue;
    fs::path path = clang::file_name(file);
    if (path.is_relative()) path = directory / path;
    visit(path.lexically_normal(), std::string_view(bytes + begin, end - begin));
  }
  clang_disposeSourceRangeList(skipped);
}

ParseResult parse_translation_unit(const clang::Index& index, const CompileCommand& command,
                                   const ParseOptions& options) {
  ParseResult result;
  UnitParse how;
  how.skip_preamble_bodies = options.skip_preamble_bodies;
  how.warm = options.warm;
  if (options.prefix) how.include_pch = options.prefix->prefix->pch;
  ParsedUnit parsed = parse_unit(index, command, options.resource_dir, how);
  if (options.prefix) {
    result.prefixed = parsed && !clang::first_error(parsed.tu.get());
    if (!result.prefixed) {
      parsed = ParsedUnit();  // disposed before the parse without the prefix
      how.include_pch.clear();
      parsed = parse_unit(index, command, options.resource_dir, how);
    }
  }
  const clang::TranslationUnit& tu = parsed.tu;
  if (!parsed) {
    result.failure =
        "libclang could not parse the file (error " + std::to_string(static_cast<int>(parsed.error)) + ")";
    return result;
  }
  if (options.on_input && result.prefixed) {
    // libclang lists every file of the prefix as read; the unit's inputs are its own files and what it reads
    // through the prefix (PrefixUse::inputs), not the prefix's own text or what only other units include.
    const Prefix& prefix = *options.prefix->prefix;
    const fs::path folder = prefix.pch.parent_path();
    for_each_input(tu.get(), command.directory, [&](const fs::path& p, std::string_view bytes) {
      if (p.parent_path() != folder && !prefix.input_paths.count(p)) options.on_input(p, bytes);
    });
    for (std::size_t k : options.prefix->inputs)
      options.on_input(prefix.inputs[k].first, prefix.inputs[k].second);
  } else if (options.on_input) {
    for_each_input(tu.get(), command.directory, options.on_input);
  }
  if (options.on_include) for_each_include(tu.get(), command.directory, options.on_include);
  // A unit with errors is still analyzed: libclang keeps the AST of everything it could parse.
  collect_parse_errors(tu.get(), command.directory, result);
  TuFacts facts;
  facts.main_file = command.file;
  Extractor(tu.get(), facts, options, command).run();
  result.facts = std::move(facts);
  return result;
}

}  // namespace emberlint
