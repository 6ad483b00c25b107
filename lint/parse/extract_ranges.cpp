// Range copies (extract_facts.hpp): a standard container built or filled from an iterator range
// (`std::vector<float> v(t.begin(), t.end())`, `v.assign(first, last)`, `v.insert(pos, first, last)`) or a
// standard algorithm that copies one (`std::copy(first, last, out)`). The library converts each element of
// the range to the destination's element type inside its own instantiation, which the walk does not visit,
// so the call is recorded as a Conversion of kind "range" from the one element type to the other: the rules
// keep those from a tensor to an arithmetic type (EL300).
#include <string>
#include <string_view>

#include "lint/libclang/cursor.hpp"
#include "lint/parse/extract_facts.hpp"

namespace emberlint::extraction {
namespace {

bool standard_name(const std::string& qualified) {
  return qualified.rfind("std::", 0) == 0 || qualified.rfind("__gnu_cxx::", 0) == 0;
}

CXType canonical_value(CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_LValueReference || c.kind == CXType_RValueReference)
    c = clang_getCanonicalType(clang_getPointeeType(c));
  return c;
}

bool standard_record(CXType c) {
  if (c.kind != CXType_Record) return false;
  CXCursor decl = clang_getTypeDeclaration(c);
  return !clang_Cursor_isNull(decl) && standard_name(qualified_name(decl));
}

// The last part of a qualified name: "copy" of "std::copy", "assign" of "std::vector::assign".
std::string_view last_part(std::string_view qualified) {
  const std::size_t at = qualified.rfind("::");
  return at == std::string_view::npos ? qualified : qualified.substr(at + 2);
}

// The element type of a standard library class, through its first template argument: `float` of
// `std::vector<float>`, of `std::back_insert_iterator<std::vector<float>>`, of libstdc++'s
// `__normal_iterator<float*, std::vector<float>>` and of `std::ostream_iterator<float>`.
CXType standard_element(CXType c, int depth) {
  const CXType invalid{CXType_Invalid, {nullptr, nullptr}};
  if (depth > 6 || clang_Type_getNumTemplateArguments(c) < 1) return invalid;
  const CXType arg = canonical_value(clang_Type_getTemplateArgumentAsType(c, 0));
  if (arg.kind == CXType_Pointer) return clang_getCanonicalType(clang_getPointeeType(arg));
  if (standard_record(arg)) return standard_element(arg, depth + 1);
  return arg;
}

// The type of what an iterator yields: a pointer's pointee, a standard iterator's element, or what a project
// iterator's `operator*` returns. Invalid when it is none of these (a count, a value).
CXType iterated(CXType t) {
  const CXType invalid{CXType_Invalid, {nullptr, nullptr}};
  const CXType c = canonical_value(t);
  if (c.kind == CXType_Pointer) return clang_getCanonicalType(clang_getPointeeType(c));
  if (c.kind != CXType_Record) return invalid;
  if (standard_record(c)) return standard_element(c, 0);
  struct Found {
    CXType type;
  } found{invalid};
  clang_visitChildren(
      clang_getTypeDeclaration(c),
      [](CXCursor m, CXCursor, CXClientData d) {
        if (clang_getCursorKind(m) == CXCursor_CXXMethod && clang_Cursor_getNumArguments(m) == 0 &&
            clang::spelling(m) == "operator*") {
          static_cast<Found*>(d)->type = canonical_value(clang_getCursorResultType(m));
          return CXChildVisit_Break;
        }
        return CXChildVisit_Continue;
      },
      &found);
  return found.type;
}

}  // namespace

// The standard functions that copy a range: where its first iterator is and where the elements go (an
// output iterator's argument, or -1 for the container the call builds or fills).
void Extractor::add_range_copy(CXCursor call, CXCursor callee, const std::vector<CXCursor>& args,
                               CXCursor object, int definition) {
  if (args.size() < 2) return;
  const CXCursorKind kind = clang_getCursorKind(callee);
  std::size_t first = 0;
  bool needs_last = true;
  CXType destination{CXType_Invalid, {nullptr, nullptr}};
  std::string via;
  if (kind == CXCursor_Constructor) {
    const CXType built = canonical_value(clang_getCursorType(call));
    if (!standard_record(built)) return;
    destination = standard_element(built, 0);
    via = "the range constructor of '" + clang::type_spelling(built) + "'";
  } else if (kind == CXCursor_CXXMethod) {
    if (clang_Cursor_isNull(object)) return;
    const CXType container = canonical_value(clang_getCursorType(object));
    const std::string name = qualified_name(callee);
    const std::string_view method = last_part(name);
    if (!standard_record(container) || !standard_name(name)) return;
    if (method == "insert" && args.size() == 3) {
      first = 1;
    } else if (method != "assign" && method != "append" && method != "insert") {
      return;
    }
    destination = standard_element(container, 0);
    via = "'" + clang::type_spelling(container) + "::" + std::string(method) + "'";
  } else if (kind == CXCursor_FunctionDecl) {
    const std::string name = qualified_name(callee);
    if (name.rfind("std::", 0) != 0) return;
    const std::string_view f = last_part(name);
    std::size_t out = 2;
    if (f == "copy_n" || f == "uninitialized_copy_n") {
      needs_last = false;
    } else if (f != "copy" && f != "copy_backward" && f != "copy_if" && f != "move" && f != "move_backward" &&
               f != "uninitialized_copy" && f != "uninitialized_move") {
      return;
    }
    if (args.size() <= out) return;
    destination = iterated(clang_getCursorType(args[out]));
    via = "'" + name + "'";
  } else {
    return;
  }
  if (first + (needs_last ? 1 : 0) >= args.size()) return;
  const CXType begin = canonical_value(clang_getCursorType(args[first]));
  if (needs_last && !clang_equalTypes(begin, canonical_value(clang_getCursorType(args[first + 1])))) return;
  const CXType element = iterated(begin);
  // Only a class converted to a built-in type is a conversion the library makes through the class's own
  // conversion operator; numbers copied to numbers, or classes to classes, are not recorded.
  if (canonical_value(element).kind != CXType_Record || destination.kind < CXType_FirstBuiltin ||
      destination.kind > CXType_LastBuiltin)
    return;
  Conversion conv;
  conv.at = extent(call);
  conv.kind = "range";
  conv.via = std::move(via);
  conv.from_type = clang::type_spelling(element);
  conv.from = type_id(element);
  conv.to_type = clang::type_spelling(destination);
  conv.to = type_id(destination);
  conv.operand = extent(args[first]);
  conv.definition = definition;
  facts_.conversions.push_back(std::move(conv));
}

}  // namespace emberlint::extraction
