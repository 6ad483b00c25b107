// Facts about one translation unit, extracted once from libclang and read by every rule: the includes,
// the references to declarations (and where those live), the definitions, calls and conversions found in
// project files. Rules see only these values, never libclang.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace emberlint {

using FileId = int;  // index into TuFacts::files; -1 when there is no file (builtins)

struct Location {
  FileId file = -1;
  unsigned line = 0, column = 0;          // 1-based, where the user's code spells it (macro expansion point)
  unsigned end_line = 0, end_column = 0;  // exclusive end column on end_line
};

struct FileFacts {
  std::filesystem::path path;  // absolute, normalized
  bool in_project = false;     // under the project root and not excluded: its code was walked
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
  Location declared;  // the definition when there is one, else the declaration
};

struct Reference {
  Location at;
  int symbol = -1;  // index into TuFacts::symbols
  Via via = Via::direct;
  std::string via_name;  // the alias, typedef, macro or declaration the reference came through
  int definition = -1;   // the enclosing function definition, index into TuFacts::definitions
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
  std::string operator_spelling;            // "+", "==", "[]"; empty for named functions
  std::vector<std::string> argument_types;  // operator calls only: the operand types as written
  std::string result_type;
  int definition = -1;
};

struct Conversion {
  Location at;
  std::string kind;  // "c-style", "static_cast", "functional", "reinterpret_cast", "const_cast", "operator"
  std::string from_type, to_type;
  int definition = -1;
};

struct TuFacts {
  std::filesystem::path main_file;
  FileId main = -1;
  std::vector<FileFacts> files;
  std::vector<Include> includes;  // directives in project files
  std::vector<Symbol> symbols;
  std::vector<Reference> references;  // in project files
  std::vector<Definition> definitions;
  std::vector<Call> calls;
  std::vector<Conversion> conversions;

  const std::filesystem::path& path(FileId id) const { return files[static_cast<std::size_t>(id)].path; }
};

}  // namespace emberlint
