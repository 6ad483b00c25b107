// What the migration reads: a candidate file of backend code through libclang (its top-level declarations,
// what each references, its include directives) and the places of cursors. analyze/migrate.cpp plans from it.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyze/inventory.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/libclang/cursor.hpp"

namespace emberlint::analyze::migration {

// A range's file and byte offsets, and its first line and column.
struct Offsets {
  std::filesystem::path file;
  unsigned begin = 0, end = 0, line = 0, column = 0;
};

std::filesystem::path normalized(const std::filesystem::path& p);
Offsets offsets_of(CXSourceRange range);
std::filesystem::path file_of(CXCursor c);
// The USR of a cursor's canonical declaration.
std::string usr_of(CXCursor c);
// A file's bytes; throws MigrationError when it cannot be read.
std::string read_text(const std::filesystem::path& p);

// A unit parsed for the migration (with its comments): throws MigrationError when it does not compile.
class Tu {
 public:
  Tu(const clang::Index& index, const CompileCommand& command, const std::string& resource_dir);
  CXTranslationUnit get() const { return tu_.get(); }
  CXCursor root() const { return clang::root(tu_.get()); }
  const std::filesystem::path& main() const { return main_; }

 private:
  clang::TranslationUnit tu_;
  std::filesystem::path main_;
};

struct TopDecl {
  std::string usr, name, qualified;
  std::vector<std::string> namespaces;  // enclosing namespaces, outermost first; "" is anonymous
  unsigned begin = 0, end = 0, line = 0;
  bool is_public_function = false;  // an external function definition: it moves as a plan entry
  bool everywhere = false;     // a using-directive or -declaration: every moved part of the file needs it
  Signature signature;         // public functions
  std::string function_type;   // public functions: the canonical function type
  std::set<std::string> uses;  // USRs of other top-level declarations of the file it references
  std::set<std::filesystem::path> decl_files;  // files of the declarations it references (for includes)
};

struct Directive {
  unsigned line = 0, begin = 0, end = 0;  // the whole line
  std::string text;                       // "#include <Eigen/Dense>"
  std::filesystem::path included;
  bool angled = false;
};

struct SourceFile {
  std::filesystem::path path;
  std::string backend;
  std::string text;
  std::vector<TopDecl> decls;
  std::vector<Directive> includes;
  std::map<std::filesystem::path, unsigned> first_reached_via;  // header -> line of the top-level directive
};

// "name(params)": how a function is matched to its op.
std::string key_of(const std::string& name, const Signature& s);

// Reads the main file of a parsed candidate of `backend`.
SourceFile read_candidate(const Tu& tu, const std::string& backend);

}  // namespace emberlint::analyze::migration
