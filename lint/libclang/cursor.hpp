// The one cursor-level wrapper of libclang: kinds, names, types, places, children and tokens of cursors. With
// lint/libclang/clang.hpp (handles) and lint/parse/parse.hpp (parsing) it is the only code that calls
// libclang; analyze/, rules/ and cli/ use these functions (tests/lint/architecture_test.cpp holds them to
// it).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "lint/libclang/clang.hpp"

namespace emberlint::clang {

// ---- Kinds and tests --------------------------------------------------------------------------------------

inline CXCursorKind kind(CXCursor c) {
  return clang_getCursorKind(c);
}
inline bool is_null(CXCursor c) {
  return clang_Cursor_isNull(c) != 0;
}
inline CXCursor null_cursor() {
  return clang_getNullCursor();
}
inline bool same(CXCursor a, CXCursor b) {
  return clang_equalCursors(a, b) != 0;
}
inline bool is_declaration(CXCursorKind k) {
  return clang_isDeclaration(k) != 0;
}
inline bool is_expression(CXCursorKind k) {
  return clang_isExpression(k) != 0;
}
inline bool is_definition(CXCursor c) {
  return clang_isCursorDefinition(c) != 0;
}
inline bool is_virtual_method(CXCursor c) {
  return clang_CXXMethod_isVirtual(c) != 0;
}
inline bool is_pure_virtual_method(CXCursor c) {
  return clang_CXXMethod_isPureVirtual(c) != 0;
}
inline bool is_const_method(CXCursor c) {
  return clang_CXXMethod_isConst(c) != 0;
}
inline bool is_static_method(CXCursor c) {
  return clang_CXXMethod_isStatic(c) != 0;
}
inline bool is_abstract_record(CXCursor c) {
  return clang_CXXRecord_isAbstract(c) != 0;
}
inline bool is_public(CXCursor c) {
  return clang_getCXXAccessSpecifier(c) == CX_CXXPublic;
}
inline bool has_external_linkage(CXCursor c) {
  return clang_getCursorLinkage(c) == CXLinkage_External;
}

// ---- Related cursors --------------------------------------------------------------------------------------

inline CXCursor root(CXTranslationUnit tu) {
  return clang_getTranslationUnitCursor(tu);
}
inline CXCursor referenced(CXCursor c) {
  return clang_getCursorReferenced(c);
}
inline CXCursor definition(CXCursor c) {
  return clang_getCursorDefinition(c);
}
inline CXCursor canonical_cursor(CXCursor c) {
  return clang_getCanonicalCursor(c);
}
inline CXCursor semantic_parent(CXCursor c) {
  return clang_getCursorSemanticParent(c);
}
// The n-th argument of a function declaration or call; argument_count is -1 where libclang has none (a
// function template).
inline int argument_count(CXCursor c) {
  return clang_Cursor_getNumArguments(c);
}
inline CXCursor argument(CXCursor c, unsigned i) {
  return clang_Cursor_getArgument(c, i);
}
// The methods a method overrides.
std::vector<CXCursor> overridden(CXCursor method);

// Calls f(child) for each child; f returns CXChildVisit_Continue, _Recurse or _Break.
template <class F>
void visit(CXCursor c, F&& f) {
  clang_visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData data) -> CXChildVisitResult {
        return (*static_cast<std::remove_reference_t<F>*>(data))(child);
      },
      &f);
}
std::vector<CXCursor> children(CXCursor c);
// Looks through implicit wrappers (cleanups, conversions, parentheses) that have a single child.
CXCursor unwrap(CXCursor c);
// The compound statement of a function definition (also of a function-try-block), or a null cursor.
CXCursor body_of(CXCursor fn);

// ---- Names and values -------------------------------------------------------------------------------------

inline std::string usr(CXCursor c) {
  return take(clang_getCursorUSR(c));
}
inline std::string raw_comment(CXCursor c) {
  return take(clang_Cursor_getRawCommentText(c));
}
inline bool is_inline_namespace(CXCursor c) {
  return clang_Cursor_isInlineNamespace(c) != 0;
}
inline long long enum_value(CXCursor c) {
  return clang_getEnumConstantDeclValue(c);
}
// The integer value of a constant expression, if it has one.
std::optional<long long> evaluate_int(CXCursor expr);
// "ember::ops::add"; anonymous namespaces are "(anonymous)", inline namespaces and extern "C" are skipped.
std::string qualified_name(CXCursor c);
std::string enclosing_namespace(CXCursor c);

// ---- Types ------------------------------------------------------------------------------------------------

inline CXType type_of(CXCursor c) {
  return clang_getCursorType(c);
}
inline CXType canonical(CXType t) {
  return clang_getCanonicalType(t);
}
// A function's result type: invalid for a function template, whose function type (type_of) has it.
inline CXType result_type(CXCursor fn) {
  return clang_getCursorResultType(fn);
}
inline CXType result_type(CXType function) {
  return clang_getResultType(function);
}
inline CXCursor declaration_of(CXType t) {
  return clang_getTypeDeclaration(t);
}
inline CXType pointee(CXType t) {
  return clang_getPointeeType(t);
}

// ---- Places -----------------------------------------------------------------------------------------------

// Where a location is after macro expansion: its file (null for built-ins), line, column and byte offset.
struct Expansion {
  CXFile file = nullptr;
  unsigned line = 0, column = 0, offset = 0;
};
inline Expansion expansion(CXSourceLocation loc) {
  Expansion e;
  clang_getExpansionLocation(loc, &e.file, &e.line, &e.column, &e.offset);
  return e;
}
inline CXSourceLocation location(CXCursor c) {
  return clang_getCursorLocation(c);
}
inline Expansion expansion(CXCursor c) {
  return expansion(location(c));
}
inline bool in_system_header(CXSourceLocation loc) {
  return clang_Location_isInSystemHeader(loc) != 0;
}
inline CXSourceRange extent(CXCursor c) {
  return clang_getCursorExtent(c);
}
inline CXSourceLocation range_start(CXSourceRange r) {
  return clang_getRangeStart(r);
}
inline CXSourceLocation range_end(CXSourceRange r) {
  return clang_getRangeEnd(r);
}
inline bool is_null(CXSourceRange r) {
  return clang_Range_isNull(r) != 0;
}
// The range of the comment attached to a declaration (null when there is none).
inline CXSourceRange comment_range(CXCursor c) {
  return clang_Cursor_getCommentRange(c);
}
// The file an inclusion directive includes (null when it was not found).
inline CXFile included_file(CXCursor directive) {
  return clang_getIncludedFile(directive);
}
// Each file the unit includes, directly or not (not the main file itself), with the line of the main
// file's directive through which it was reached, in libclang's order.
void for_each_inclusion(CXTranslationUnit tu, const std::function<void(CXFile, unsigned)>& each);
// Every #include directive the preprocessor ran in `file` (those it skipped behind an include guard too, not
// those in a disabled #if), with the file it names and the directive's line; the unit must have been parsed
// with its detailed preprocessing record.
void for_each_include_in(CXTranslationUnit tu, CXFile file,
                         const std::function<void(CXFile, unsigned)>& each);

// ---- Tokens and diagnostics -------------------------------------------------------------------------------

// The spellings of the tokens of a range.
std::vector<std::string> token_spellings(CXTranslationUnit tu, CXSourceRange range);
// Whether a function declaration that libclang calls no definition had its body skipped (the unit skips
// the bodies of its preamble's headers): its '{' follows its extent.
bool has_skipped_body(CXTranslationUnit tu, CXCursor c);
// The formatted text (with its place) of the unit's first diagnostic of error severity or worse.
std::optional<std::string> first_error(CXTranslationUnit tu);

}  // namespace emberlint::clang
