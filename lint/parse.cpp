#include "lint/parse.hpp"

#include <unordered_map>

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

std::vector<std::string> libclang_arguments(const CompileCommand& command, const std::string& resource_dir) {
  std::vector<std::string> argv = {command.driver};
  argv.insert(argv.end(), command.arguments.begin(), command.arguments.end());
  if (!command.directory.empty()) argv.push_back("-working-directory=" + command.directory.string());
  if (!resource_dir.empty()) {
    argv.push_back("-resource-dir");
    argv.push_back(resource_dir);
  }
  argv.push_back("-fsyntax-only");
  argv.push_back("-w");  // rules do not read compiler warnings; errors still mark a failed parse
  return argv;
}

namespace {

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

class Extractor {
 public:
  Extractor(CXTranslationUnit tu, TuFacts& facts, const ParseOptions& options, const CompileCommand& command)
      : tu_(tu), facts_(facts), options_(options), command_(command) {}

  void run() {
    CXFile main = clang_getFile(tu_, command_.file.c_str());
    facts_.main = file_id(main);
    clang_visitChildren(clang_getTranslationUnitCursor(tu_), &Extractor::top_level, this);
    // Macro expansions and declarations are not visited in source order. A reference whose expansion point
    // is where a macro was expanded came out of that macro: the macro's name is the token written there.
    for (const auto& [index, key] : pending_macro_names_) {
      if (auto it = macro_at_.find(key); it != macro_at_.end()) {
        facts_.references[index].via = Via::macro;
        facts_.references[index].via_name = it->second;
      }
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
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(p, ec);
    if (ec) canonical = p.lexically_normal();
    FileId id = static_cast<FileId>(facts_.files.size());
    facts_.files.push_back({canonical, options_.in_project ? options_.in_project(canonical) : true});
    file_ids_.emplace(file, id);
    return id;
  }

  Location location(CXSourceLocation loc) {
    CXFile file = nullptr;
    unsigned line = 0, column = 0;
    clang_getExpansionLocation(loc, &file, &line, &column, nullptr);
    return {file_id(file), line, column, line, column};
  }

  Location range(CXSourceRange r) {
    Location begin = location(clang_getRangeStart(r));
    Location end = location(clang_getRangeEnd(r));
    if (end.file == begin.file) begin.end_line = end.line, begin.end_column = end.column;
    return begin;
  }

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
      if (!clang_Cursor_isNull(def)) where = def;
    }
    s.declared = location(clang_getCursorLocation(where));
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
        std::string name = clang::spelling(c);
        macro_at_[expansion_key(c)] = name;
        CXCursor def = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(def)) return;
        facts_.references.push_back(
            {range(clang_getCursorExtent(c)), symbol_id(def), Via::direct, name, definition});
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
        break;
      }
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
    visit_children(c, definition);
  }

  void add_call(CXCursor c, int definition) {
    CXCursor callee = clang_getCursorReferenced(c);
    Call call;
    call.at = range(clang_getCursorExtent(c));
    call.definition = definition;
    if (clang_Cursor_isNull(callee) || clang_isInvalid(clang_getCursorKind(callee))) {
      facts_.calls.push_back(std::move(call));
      return;
    }
    call.callee = symbol_id(callee);
    std::string name = clang::spelling(callee);
    call.result_type = clang::type_spelling(clang_getCursorType(c));
    if (clang_getCursorKind(callee) == CXCursor_ConversionFunction) {
      Conversion conv{call.at, "operator", {}, call.result_type, definition};
      if (clang_Cursor_getNumArguments(c) == 0) {
        CXCursor object = first_child(c);
        if (!clang_Cursor_isNull(object)) conv.from_type = clang::type_spelling(clang_getCursorType(object));
      }
      facts_.conversions.push_back(std::move(conv));
    } else if (name.rfind("operator", 0) == 0 && name.size() > 8 &&
               !std::isalnum(static_cast<unsigned char>(name[8])) && name[8] != '_') {
      call.operator_spelling = name.substr(8);
      while (!call.operator_spelling.empty() && call.operator_spelling.front() == ' ') {
        call.operator_spelling.erase(0, 1);
      }
      int n = clang_Cursor_getNumArguments(c);
      for (int i = 0; i < n; ++i) {
        call.argument_types.push_back(
            clang::type_spelling(clang_getCursorType(clang_Cursor_getArgument(c, static_cast<unsigned>(i)))));
      }
    }
    facts_.calls.push_back(std::move(call));
  }

  void add_conversion(CXCursor c, const char* kind, int definition) {
    Conversion conv;
    conv.at = range(clang_getCursorExtent(c));
    conv.kind = kind;
    conv.to_type = clang::type_spelling(clang_getCursorType(c));
    conv.definition = definition;
    // The operand is the last child (a TypeRef to the target type may come first).
    CXCursor operand = clang_getNullCursor();
    clang_visitChildren(
        c,
        [](CXCursor ch, CXCursor, CXClientData d) {
          if (clang_isExpression(clang_getCursorKind(ch))) *static_cast<CXCursor*>(d) = ch;
          return CXChildVisit_Continue;
        },
        &operand);
    if (!clang_Cursor_isNull(operand)) conv.from_type = clang::type_spelling(clang_getCursorType(operand));
    facts_.conversions.push_back(std::move(conv));
  }

  static CXCursor first_child(CXCursor c) {
    CXCursor out = clang_getNullCursor();
    clang_visitChildren(
        c,
        [](CXCursor ch, CXCursor, CXClientData d) {
          *static_cast<CXCursor*>(d) = ch;
          return CXChildVisit_Break;
        },
        &out);
    return out;
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
  std::unordered_map<CXCursor, int, CursorHash, CursorEq> symbol_ids_;
  std::unordered_map<std::pair<CXFile, unsigned>, std::string, PairHash> macro_at_;
  std::vector<std::pair<std::size_t, std::pair<CXFile, unsigned>>> pending_macro_names_;
};

// Fills the result's failure from the first error clang reported; false when there was none.
bool first_error(CXTranslationUnit tu, const fs::path& directory, ParseResult& result) {
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    clang::Diagnostic d(clang_getDiagnostic(tu, i));
    if (d.severity() < CXDiagnostic_Error) continue;
    CXFile file = nullptr;
    unsigned line = 0, column = 0;
    clang_getExpansionLocation(d.location(), &file, &line, &column, nullptr);
    if (file) {
      fs::path p = clang::file_name(file);
      if (p.is_relative()) p = directory / p;
      result.failure_file = p.lexically_normal();
      result.failure_line = line;
      result.failure_column = column;
    }
    result.failure = "error: " + d.spelling();
    return true;
  }
  return false;
}

}  // namespace

ParseResult parse_translation_unit(const clang::Index& index, const CompileCommand& command,
                                   const ParseOptions& options) {
  ParseResult result;
  std::vector<std::string> argv = libclang_arguments(command, options.resource_dir);
  std::vector<const char*> cargv;
  for (const auto& a : argv) cargv.push_back(a.c_str());
  unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |
                   CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
  if (options.skip_preamble_bodies) {
    flags |= CXTranslationUnit_PrecompiledPreamble | CXTranslationUnit_CreatePreambleOnFirstParse |
             CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_LimitSkipFunctionBodiesToPreamble;
  }
  CXTranslationUnit raw = nullptr;
  CXErrorCode err =
      clang_parseTranslationUnit2FullArgv(index.get(), command.file.c_str(), cargv.data(),
                                          static_cast<int>(cargv.size()), nullptr, 0, flags, &raw);
  clang::TranslationUnit tu(raw);
  if (err != CXError_Success || !tu) {
    result.failure =
        "libclang could not parse the file (error " + std::to_string(static_cast<int>(err)) + ")";
    return result;
  }
  if (first_error(tu.get(), command.directory, result)) return result;
  TuFacts facts;
  facts.main_file = command.file;
  Extractor(tu.get(), facts, options, command).run();
  result.facts = std::move(facts);
  return result;
}

}  // namespace emberlint
