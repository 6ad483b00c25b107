// Facts about one translation unit, extracted once from libclang and read by every rule: the includes,
// the references to declarations (and where those live), the definitions, calls, operators, conversions,
// variable initializations and loops found in project files, and the types they involve. Rules see only
// these values, never libclang.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace emberlint {

using FileId = int;  // index into TuFacts::files; -1 when there is no file (builtins)

struct Location {
  FileId file = -1;
  unsigned line = 0, column = 0;          // 1-based, where the user's code spells it (macro expansion point)
  unsigned end_line = 0, end_column = 0;  // exclusive end column on end_line
  unsigned offset = 0, end_offset = 0;    // byte offsets of [begin, end) in the file as on disk

  // Whether `inner` lies within this range of the same file.
  bool contains(const Location& inner) const {
    return file >= 0 && inner.file == file && inner.offset >= offset && inner.end_offset <= end_offset;
  }
};

// A type as the rules need it: the class it names once typedefs, `using` aliases, references and
// cv-qualifiers are looked through, and every class it derives from.
struct TypeFacts {
  std::string spelling;  // canonical spelling
  // Qualified names of the class, of its template when it is a specialization (or a dependent spelling
  // of one), and of every base class, transitively.
  std::vector<std::string> classes;
  bool arithmetic = false;  // bool, character, integer or floating-point
  bool is_bool = false;
};

struct FileFacts {
  std::filesystem::path path;  // absolute, normalized
  bool in_project = false;     // under the project root and not excluded: its code was walked
  // Of a project file: the line ranges of its conditional blocks, the include guard left out (see
  // DirectiveScan::conditionals in lint/parse/include_graph.hpp).
  std::vector<std::pair<unsigned, unsigned>> conditionals;
};

struct Include {
  Location at;          // the #include directive
  std::string spelled;  // "Eigen/Core" for #include <Eigen/Core>
  bool angled = false;
  FileId included = -1;  // the resolved header; -1 when it was not found
};

// How a reference reached the user's code.
enum class Via {
  direct,    // written in the file
  macro,     // produced by a macro expansion at this location
  alias,     // a `using X = ...` alias (via_name) whose target is the symbol
  typedef_,  // a typedef (via_name) whose target is the symbol
  type,      // the type of a declaration (via_name), e.g. `auto x = f();` or a template argument of it
};

std::string_view to_string(Via v);

struct Symbol {
  std::string qualified_name;  // "Eigen::Matrix", "cblas_dgemm", "EIGEN_VERSION_AT_LEAST" for macros
  std::string kind;  // libclang cursor kind spelling ("ClassDecl", "FunctionDecl", "macro definition")
  bool is_namespace = false;
  bool is_macro = false;
  Location declared;     // the definition when there is one, else the declaration
  bool defined = false;  // the unit sees the definition (a body, a class definition): `declared` is it
  // A class, struct or union first declared without its definition (`struct handle;`): where. A type the
  // frontend declares and a backend defines is an opaque handle, the frontend's (file -1: none).
  Location forward_declared;
};

struct Reference {
  Location at;
  int symbol = -1;  // index into TuFacts::symbols
  Via via = Via::direct;
  std::string via_name;  // the alias, typedef, macro or declaration the reference came through
  int definition = -1;   // the enclosing function definition, index into TuFacts::definitions
  // Needs only the declaration at compile time, nothing at link or run time: written inside an unevaluated
  // operand (`decltype(...)`, `sizeof(...)`, `alignof(...)`, `noexcept(...)`), or naming a class the unit
  // never sees defined (only pointers and references to it are possible).
  bool type_only = false;
};

struct Definition {
  std::string qualified_name;
  std::string kind;  // "FunctionDecl", "CXXMethod", ...
  Location at;       // the name
  Location extent;   // the whole definition
};

struct Call {
  Location at;
  int callee = -1;                          // index into symbols; -1 for calls through pointers
  std::string name;                         // the callee's unqualified name ("to_host", "operator+")
  std::string operator_spelling;            // "+", "==", "[]"; empty for named functions
  std::vector<std::string> argument_types;  // operator calls only: the operand types as written
  std::string result_type;
  int result = -1;  // index into TuFacts::types; -1 when unknown
  int object = -1;  // member calls: the type of the object (`t` in `t.size()`), index into types
  std::vector<Location> arguments;
  std::vector<int> argument_type_ids;  // index into types per argument, -1 when unknown
  int definition = -1;
};

// An operator expression that may apply to a tensor: every call of an overloaded operator function, and
// built-in-form operators whose operand has a class type (dependent expressions in templates).
struct Operator {
  Location at;           // the whole expression
  Location operator_at;  // the operator token (its expansion point when a macro produced it)
  std::string spelling;  // "+", "+=", "-", "<", "[]", "()"
  std::string token;     // the token at operator_at as written ("+", "and", "[" of "[]"); empty: not found
  bool unary = false;
  bool prefix = false;        // unary: the operator comes before its operand
  bool overloaded = false;    // a resolved call of an operator function
  bool instantiated = false;  // found in the instantiation of a function template (at the template's text)
  std::vector<Location> operands;
  std::vector<int> operand_types;       // index into types per operand, -1 when unknown
  std::vector<std::string> namespaces;  // enclosing namespaces, outermost first ("ember", "detail")
  int definition = -1;
};

struct Conversion {
  Location at;
  std::string kind;  // "c-style", "static_cast", "functional", "reinterpret_cast", "const_cast",
                     // "list-initialization" (`double x{t}`, `double x = {t}`), "operator", "range" (a
                     // standard container or algorithm copying a range: each element converted, lint/parse/
                     // extract_ranges.cpp)
  std::string from_type, to_type;
  int from = -1, to = -1;      // index into types
  Location operand;            // the converted expression
  bool explicit_call = false;  // "operator": written as `t.operator double()`
  std::string via;  // "range": the call that converts ("'std::copy'", "the range constructor of ...")
  // "operator": the conversion function's body (seen in this unit) reads only the object's metadata, its
  // size, shape or emptiness (`operator bool() const { return !empty(); }`): no element is extracted.
  bool metadata_only = false;
  bool condition = false;  // the converted expression is a condition (if, while, for, do, switch, ?:,
                           // an operand of &&, || or !)
  int definition = -1;
};

// `T v = init;`, `T v(init)`, and `v = value;` inside a function: what a variable takes its value from.
struct Assignment {
  Location at;        // the variable's name or the assignment
  int variable = -1;  // index into symbols
  Location value;
  bool declaration = false;   // a variable declaration with an initializer
  bool written_auto = false;  // declarations: the declared type is spelled with `auto`
  int type = -1;              // declarations: the variable's type, index into types
  std::string type_spelling;  // declarations: the variable's (deduced) type, canonical
  int definition = -1;
};

struct Loop {
  Location at;         // the whole statement
  Location condition;  // for/while/do: the condition; range-based for: the range expression
  Location body;
  bool range_for = false;
  int range_type = -1;  // range-based for: the type of the range, index into types
  int definition = -1;
};

// `using namespace X;` (alias empty) or `namespace A = X;`, and the scope it is visible in.
struct NamespaceUse {
  Location at;
  std::string target;  // qualified name of the namespace it names
  std::string alias;
  // The enclosing namespace (qualified; empty at file scope) or, in a function, that function's extent.
  std::string scope_namespace;
  Location scope_block;  // file < 0 unless it is in a function or block
};

struct TuFacts {
  std::filesystem::path main_file;
  FileId main = -1;
  // A batch of headers (lint/run/runner.cpp: its main file only includes them): the headers, each standing
  // for a unit's own file. They share a layer; the first stands for the unit in
  // ProjectModel::configured_by_unit.
  std::vector<FileId> batch;
  std::vector<FileFacts> files;
  std::vector<Include> includes;  // directives in project files
  std::vector<Symbol> symbols;
  std::vector<Reference> references;  // in project files
  std::vector<Definition> definitions;
  std::vector<Call> calls;
  std::vector<Conversion> conversions;
  std::vector<Operator> operators;
  std::vector<Assignment> assignments;
  std::vector<Loop> loops;
  std::vector<NamespaceUse> namespace_uses;
  std::vector<Location> macro_expansions;  // every macro invocation in project files
  std::vector<TypeFacts> types;

  const TypeFacts* type(int id) const { return id < 0 ? nullptr : &types[static_cast<std::size_t>(id)]; }

  const std::filesystem::path& path(FileId id) const { return files[static_cast<std::size_t>(id)].path; }
};

}  // namespace emberlint
