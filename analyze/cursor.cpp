#include "analyze/cursor.hpp"

#include <algorithm>
#include <cctype>

#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

Place place_of(CXCursor c) {
  const clang::Expansion at = clang::expansion(c);
  Place p;
  if (at.file) p.file = canonical_path(clang::file_name(at.file));
  p.line = at.line;
  p.column = at.column;
  return p;
}

Place Places::operator()(CXCursor c) {
  const clang::Expansion at = clang::expansion(c);
  Place p;
  p.file = file(c);
  p.line = at.line;
  p.column = at.column;
  return p;
}

const fs::path& Places::file(CXCursor c) {
  static const fs::path none;
  CXSourceLocation loc = clang::location(c);
  if (clang::in_system_header(loc)) return none;
  CXFile f = clang::expansion(loc).file;
  if (!f) return none;
  auto it = files_.find(f);
  if (it != files_.end()) return it->second;
  return files_.emplace(f, canonical_path(clang::file_name(f))).first->second;
}

namespace {

// Token text of a range, spaced only where two words would otherwise run together.
std::string tokens_text(CXTranslationUnit tu, CXSourceRange range, std::size_t skip_until_after_equals) {
  std::string out;
  bool started = skip_until_after_equals == 0;
  int depth = 0;
  auto wordy = [](const std::string& s) { return !s.empty() && is_identifier_char(s.back()); };
  for (const std::string& t : clang::token_spellings(tu, range)) {
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
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return s;
}

bool is_void_discard(CXCursor stmt) {
  CXCursorKind k = clang::kind(stmt);
  if (k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr) return false;
  return clang::type_of(stmt).kind == CXType_Void;
}

void collect_strings(CXCursor c, std::string& out) {
  visit(c, [&](CXCursor child) {
    if (clang::kind(child) == CXCursor_StringLiteral) out += clang::spelling(child) + " ";
    return CXChildVisit_Recurse;
  });
}

// A call to a configured abort-like function (`GGML_ABORT(...)` expands to `ggml_abort(...)`), possibly
// wrapped in a `do { ... } while (0)` of a macro.
bool is_stub_call(CXCursor s, const std::vector<Glob>* stub_calls) {
  if (!stub_calls || stub_calls->empty()) return false;
  CXCursorKind k = clang::kind(s);
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

Signature signature_of(CXTranslationUnit tu, CXCursor fn) {
  Signature s;
  CXType result = clang::result_type(fn);
  // A function template has no result type or arguments of its own in libclang: its (dependent) function
  // type has the result, its ParmDecl children are the parameters.
  if (result.kind == CXType_Invalid) result = clang::result_type(clang::type_of(fn));
  s.result = clang::type_spelling(result);
  s.result_canonical = clang::type_spelling(clang::canonical(result));
  std::vector<CXCursor> args;
  const int n = clang::argument_count(fn);
  for (int i = 0; i < n; ++i) args.push_back(clang::argument(fn, static_cast<unsigned>(i)));
  if (n < 0) {
    for (CXCursor c : children(fn)) {
      if (clang::kind(c) == CXCursor_ParmDecl) args.push_back(c);
    }
  }
  for (CXCursor arg : args) {
    Param p;
    CXType t = clang::type_of(arg);
    p.type = clang::type_spelling(t);
    p.canonical = clang::type_spelling(clang::canonical(t));
    p.name = clang::spelling(arg);
    // A default argument is an expression child of the parameter; its tokens follow the '='.
    bool has_default = false;
    visit(arg, [&](CXCursor child) {
      CXCursorKind k = clang::kind(child);
      if (clang::is_expression(k)) has_default = true;
      return CXChildVisit_Continue;
    });
    if (has_default) p.default_value = tokens_text(tu, clang::extent(arg), 1);
    s.params.push_back(std::move(p));
  }
  s.is_const = clang::kind(fn) == CXCursor_CXXMethod && clang::is_const_method(fn);
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
  std::string comment = clang::raw_comment(c);
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
    CXCursorKind k = clang::kind(s);
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
    if (clang::kind(c) == CXCursor_CallExpr) {
      CXCursor callee = clang::referenced(c);
      CXCursorKind k = clang::kind(callee);
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

bool says_not_implemented(std::string_view message) {
  std::string m = lower(std::string(message));
  for (const char* phrase : {"not implemented", "unimplemented", "not yet implemented", "not supported"}) {
    if (m.find(phrase) != std::string::npos) return true;
  }
  return false;
}

}  // namespace emberlint::analyze
