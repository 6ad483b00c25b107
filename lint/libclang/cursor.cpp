#include "lint/libclang/cursor.hpp"

namespace emberlint::clang {

std::vector<CXCursor> overridden(CXCursor method) {
  CXCursor* cursors = nullptr;
  unsigned n = 0;
  clang_getOverriddenCursors(method, &cursors, &n);
  std::vector<CXCursor> out(cursors, cursors + n);
  clang_disposeOverriddenCursors(cursors);
  return out;
}

std::vector<CXCursor> children(CXCursor c) {
  std::vector<CXCursor> out;
  visit(c, [&](CXCursor child) {
    out.push_back(child);
    return CXChildVisit_Continue;
  });
  return out;
}

CXCursor unwrap(CXCursor c) {
  while (clang_getCursorKind(c) == CXCursor_UnexposedExpr || clang_getCursorKind(c) == CXCursor_ParenExpr) {
    auto kids = children(c);
    if (kids.size() != 1) break;
    c = kids.front();
  }
  return c;
}

CXCursor body_of(CXCursor fn) {
  CXCursor body = clang_getNullCursor();
  for (CXCursor c : children(fn)) {
    CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CompoundStmt) body = c;
    if (k == CXCursor_CXXTryStmt) {
      for (CXCursor t : children(c)) {
        if (clang_getCursorKind(t) == CXCursor_CompoundStmt) return t;
      }
    }
  }
  return body;
}

std::optional<long long> evaluate_int(CXCursor expr) {
  CXEvalResult r = clang_Cursor_Evaluate(expr);
  if (!r) return std::nullopt;
  std::optional<long long> out;
  if (clang_EvalResult_getKind(r) == CXEval_Int) out = clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return out;
}

std::string qualified_name(CXCursor c) {
  std::vector<std::string> parts;
  for (CXCursor p = c; !clang_Cursor_isNull(p) && !clang_isTranslationUnit(clang_getCursorKind(p));
       p = clang_getCursorSemanticParent(p)) {
    CXCursorKind k = clang_getCursorKind(p);
    if (k == CXCursor_LinkageSpec) continue;
    if (k == CXCursor_InvalidFile || clang_isInvalid(k)) break;
    std::string s = spelling(p);
    if (k == CXCursor_Namespace && s.empty()) s = "(anonymous)";
    if (k == CXCursor_Namespace && clang_Cursor_isInlineNamespace(p)) continue;
    parts.push_back(s);
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += (out.empty() ? "" : "::") + *it;
  return out;
}

std::string enclosing_namespace(CXCursor c) {
  return qualified_name(clang_getCursorSemanticParent(c));
}

void for_each_inclusion(CXTranslationUnit tu, const std::function<void(CXFile, unsigned)>& each) {
  clang_getInclusions(
      tu,
      [](CXFile included, CXSourceLocation* stack, unsigned depth, CXClientData data) {
        if (depth == 0) return;
        unsigned line = 0;
        clang_getExpansionLocation(stack[depth - 1], nullptr, &line, nullptr, nullptr);
        (*static_cast<const std::function<void(CXFile, unsigned)>*>(data))(included, line);
      },
      const_cast<std::function<void(CXFile, unsigned)>*>(&each));
}

void for_each_include_in(CXTranslationUnit tu, CXFile file,
                         const std::function<void(CXFile, unsigned)>& each) {
  CXCursorAndRangeVisitor visitor{
      const_cast<std::function<void(CXFile, unsigned)>*>(&each), [](void* data, CXCursor c, CXSourceRange) {
        unsigned line = 0;
        clang_getSpellingLocation(clang_getCursorLocation(c), nullptr, &line, nullptr, nullptr);
        if (CXFile included = clang_getIncludedFile(c))
          (*static_cast<const std::function<void(CXFile, unsigned)>*>(data))(included, line);
        return CXVisit_Continue;
      }};
  clang_findIncludesInFile(tu, file, visitor);
}

std::vector<std::string> token_spellings(CXTranslationUnit tu, CXSourceRange range) {
  CXToken* tokens = nullptr;
  unsigned n = 0;
  clang_tokenize(tu, range, &tokens, &n);
  std::vector<std::string> out;
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) out.push_back(take(clang_getTokenSpelling(tu, tokens[i])));
  clang_disposeTokens(tu, tokens, n);
  return out;
}

bool has_skipped_body(CXTranslationUnit tu, CXCursor c) {
  // libclang calls a function template whose body was skipped no definition, and its extent stops at the
  // parameters: the body's '{' is the next thing in the file.
  CXFile file = nullptr;
  unsigned offset = 0;
  clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &file, nullptr, nullptr, &offset);
  if (!file) return false;
  std::size_t size = 0;
  const char* text = clang_getFileContents(tu, file, &size);
  if (!text) return false;
  for (std::size_t i = offset; i < size; ++i) {
    const char ch = text[i];
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') continue;
    return ch == '{';
  }
  return false;
}

std::optional<std::string> first_error(CXTranslationUnit tu) {
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    Diagnostic d(clang_getDiagnostic(tu, i));
    if (d.severity() >= CXDiagnostic_Error) return d.format();
  }
  return std::nullopt;
}

}  // namespace emberlint::clang
