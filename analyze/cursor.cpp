#include "analyze/cursor.hpp"

#include <algorithm>
#include <cctype>

#include "lint/glob.hpp"
#include "lint/source_text.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

Place place_of(CXCursor c) {
  CXFile file = nullptr;
  unsigned line = 0, column = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &column, nullptr);
  Place p;
  if (file) p.file = canonical_path(clang::file_name(file));
  p.line = line;
  p.column = column;
  return p;
}

Place Places::operator()(CXCursor c) {
  CXFile f = nullptr;
  unsigned line = 0, column = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &column, nullptr);
  Place p;
  p.file = file(c);
  p.line = line;
  p.column = column;
  return p;
}

const fs::path& Places::file(CXCursor c) {
  static const fs::path none;
  CXSourceLocation loc = clang_getCursorLocation(c);
  if (clang_Location_isInSystemHeader(loc)) return none;
  CXFile f = nullptr;
  clang_getExpansionLocation(loc, &f, nullptr, nullptr, nullptr);
  if (!f) return none;
  auto it = files_.find(f);
  if (it != files_.end()) return it->second;
  return files_.emplace(f, canonical_path(clang::file_name(f))).first->second;
}

std::string qualified_name(CXCursor c) {
  std::vector<std::string> parts;
  for (CXCursor p = c; !clang_Cursor_isNull(p) && !clang_isTranslationUnit(clang_getCursorKind(p));
       p = clang_getCursorSemanticParent(p)) {
    CXCursorKind k = clang_getCursorKind(p);
    if (k == CXCursor_LinkageSpec) continue;
    if (k == CXCursor_InvalidFile || clang_isInvalid(k)) break;
    std::string s = clang::spelling(p);
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

std::string usr(CXCursor c) {
  return clang::take(clang_getCursorUSR(c));
}

std::vector<CXCursor> children(CXCursor c) {
  std::vector<CXCursor> out;
  visit(c, [&](CXCursor child) {
    out.push_back(child);
    return CXChildVisit_Continue;
  });
  return out;
}

namespace {

// Token text of a range, spaced only where two words would otherwise run together.
std::string tokens_text(CXTranslationUnit tu, CXSourceRange range, std::size_t skip_until_after_equals) {
  CXToken* tokens = nullptr;
  unsigned n = 0;
  clang_tokenize(tu, range, &tokens, &n);
  std::string out;
  bool started = skip_until_after_equals == 0;
  int depth = 0;
  auto wordy = [](const std::string& s) { return !s.empty() && is_identifier_char(s.back()); };
  for (unsigned i = 0; i < n; ++i) {
    std::string t = clang::take(clang_getTokenSpelling(tu, tokens[i]));
    if (!started) {
      if (t == "(" || t == "[" || t == "{" || t == "<") ++depth;
      if (t == ")" || t == "]" || t == "}" || t == ">") --depth;
      if (t == "=" && depth == 0) started = true;
      continue;
    }
    bool word = !t.empty() && is_identifier_char(t.front());
    if (word && wordy(out)) out += ' ';
    out += t;
  }
  clang_disposeTokens(tu, tokens, n);
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return s;
}

bool is_void_discard(CXCursor stmt) {
  CXCursorKind k = clang_getCursorKind(stmt);
  if (k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr) return false;
  return clang_getCursorType(stmt).kind == CXType_Void;
}

void collect_strings(CXCursor c, std::string& out) {
  visit(c, [&](CXCursor child) {
    if (clang_getCursorKind(child) == CXCursor_StringLiteral) out += clang::spelling(child) + " ";
    return CXChildVisit_Recurse;
  });
}

// A call to a configured abort-like function (`GGML_ABORT(...)` expands to `ggml_abort(...)`), possibly
// wrapped in a `do { ... } while (0)` of a macro.
bool is_stub_call(CXCursor s, const std::vector<Glob>* stub_calls) {
  if (!stub_calls || stub_calls->empty()) return false;
  CXCursorKind k = clang_getCursorKind(s);
  if (k == CXCursor_DoStmt) {
    auto kids = children(s);
    return !kids.empty() && is_stub_call(unwrap(kids.front()), stub_calls);
  }
  if (k == CXCursor_CompoundStmt) {
    // `{ log(...); abort(...); }`: a block that ends in an abort.
    auto kids = children(s);
    return !kids.empty() && is_stub_call(unwrap(kids.back()), stub_calls);
  }
  if (k != CXCursor_CallExpr) return false;
  std::string name = clang::spelling(s);
  return std::any_of(stub_calls->begin(), stub_calls->end(),
                     [&](const Glob& g) { return g.matches_name(name); });
}

}  // namespace

CXCursor unwrap(CXCursor c) {
  while (clang_getCursorKind(c) == CXCursor_UnexposedExpr || clang_getCursorKind(c) == CXCursor_ParenExpr) {
    auto kids = children(c);
    if (kids.size() != 1) break;
    c = kids.front();
  }
  return c;
}

Signature signature_of(CXTranslationUnit tu, CXCursor fn) {
  Signature s;
  CXType result = clang_getCursorResultType(fn);
  // A function template has no result type or arguments of its own in libclang: its (dependent) function
  // type has the result, its ParmDecl children are the parameters.
  if (result.kind == CXType_Invalid) result = clang_getResultType(clang_getCursorType(fn));
  s.result = clang::type_spelling(result);
  s.result_canonical = clang::type_spelling(clang_getCanonicalType(result));
  std::vector<CXCursor> args;
  const int n = clang_Cursor_getNumArguments(fn);
  for (int i = 0; i < n; ++i) args.push_back(clang_Cursor_getArgument(fn, static_cast<unsigned>(i)));
  if (n < 0) {
    for (CXCursor c : children(fn)) {
      if (clang_getCursorKind(c) == CXCursor_ParmDecl) args.push_back(c);
    }
  }
  for (CXCursor arg : args) {
    Param p;
    CXType t = clang_getCursorType(arg);
    p.type = clang::type_spelling(t);
    p.canonical = clang::type_spelling(clang_getCanonicalType(t));
    p.name = clang::spelling(arg);
    // A default argument is an expression child of the parameter; its tokens follow the '='.
    bool has_default = false;
    visit(arg, [&](CXCursor child) {
      CXCursorKind k = clang_getCursorKind(child);
      if (clang_isExpression(k)) has_default = true;
      return CXChildVisit_Continue;
    });
    if (has_default) p.default_value = tokens_text(tu, clang_getCursorExtent(arg), 1);
    s.params.push_back(std::move(p));
  }
  s.is_const = clang_getCursorKind(fn) == CXCursor_CXXMethod && clang_CXXMethod_isConst(fn);
  return s;
}

void strip_namespace(Signature& s, const std::string& ns) {
  if (ns.empty() || ns == "::") return;
  const std::string prefix = ns + "::";
  auto strip = [&](std::string& type) {
    for (std::size_t at = type.find(prefix); at != std::string::npos; at = type.find(prefix, at)) {
      const bool boundary = at == 0 || !(is_identifier_char(type[at - 1]) || type[at - 1] == ':');
      if (boundary) {
        type.erase(at, prefix.size());
      } else {
        at += prefix.size();
      }
    }
  };
  strip(s.result_canonical);
  for (Param& p : s.params) strip(p.canonical);
}

bool has_fallback_marker(CXCursor c) {
  std::string comment = clang::take(clang_Cursor_getRawCommentText(c));
  return comment.find("emberlint-fallback:") != std::string::npos;
}

std::string category_of(const fs::path& header) {
  std::string stem = header.stem().string();
  if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, "_ops") == 0) stem.resize(stem.size() - 4);
  return stem;
}

void classify_statements(const std::vector<CXCursor>& statements, Body& out,
                         const std::vector<Glob>* stub_calls) {
  std::size_t counted = 0, throws = 0;
  for (CXCursor stmt : statements) {
    CXCursor s = unwrap(stmt);
    CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_NullStmt || is_void_discard(s)) continue;
    ++counted;
    if (k == CXCursor_CXXThrowExpr) {
      ++throws;
      out.aborts = true;
      std::string text;
      collect_strings(s, text);
      out.throw_text += text;
      if (says_not_implemented(text)) out.not_implemented = true;
    } else if (is_stub_call(s, stub_calls)) {
      ++throws;
      out.aborts = true;
      std::string text;
      collect_strings(s, text);
      out.throw_text += text;
    }
  }
  out.only_throws = counted > 0 && counted == throws;
  auto call = [&](CXCursor c) {
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
      CXCursor callee = clang_getCursorReferenced(c);
      CXCursorKind k = clang_getCursorKind(callee);
      if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate) {
        out.callees.push_back({usr(callee), qualified_name(callee), place_of(callee).file});
      }
    }
    return CXChildVisit_Recurse;
  };
  for (CXCursor stmt : statements) {
    call(stmt);
    visit(stmt, call);
  }
}

void classify_body(CXCursor def, CXCursor body, Body& out, const std::vector<Glob>* stub_calls) {
  classify_statements(children(body), out, stub_calls);
  out.marker = has_fallback_marker(def);
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

bool says_not_implemented(std::string_view message) {
  std::string m = lower(std::string(message));
  for (const char* phrase : {"not implemented", "unimplemented", "not yet implemented", "not supported"}) {
    if (m.find(phrase) != std::string::npos) return true;
  }
  return false;
}

}  // namespace emberlint::analyze
