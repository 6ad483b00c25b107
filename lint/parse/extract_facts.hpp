// The walk of one parsed unit into its facts (lint/facts.hpp): the Extractor that lint/parse/parse.cpp runs
// on every translation unit. extract_facts.cpp walks the cursors (files, locations, types, symbols,
// references, macro expansions, definitions, template instantiations); extract_expressions.cpp records what
// the rules read in expressions and statements (calls, operators, assignments, conditions, loops, namespace
// uses, conversions, structured bindings); extract_ranges.cpp the ranges the standard library copies
// element by element; extract_lambdas.cpp makes lambdas definitions and instantiations of their own.
// Internal to lint/parse/.
#pragma once

#include <clang-c/Index.h>

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lint/parse/parse.hpp"

namespace emberlint::extraction {

// "ns::Class::name": the cursor's name with its enclosing namespaces and classes (anonymous namespaces are
// "(anonymous namespace)", inline ones are kept).
std::string qualified_name(CXCursor c);

struct CursorHash {
  std::size_t operator()(const CXCursor& c) const { return clang_hashCursor(c); }
};
struct CursorEq {
  bool operator()(const CXCursor& a, const CXCursor& b) const { return clang_equalCursors(a, b) != 0; }
};

class Extractor {
 public:
  Extractor(CXTranslationUnit tu, TuFacts& facts, const ParseOptions& options, const CompileCommand& command)
      : tu_(tu), facts_(facts), options_(options), command_(command) {}

  void run();

 private:
  struct Scope {
    Extractor* self;
    int definition;
  };
  // The parenthesized head of `if`/`while`/`switch`/`for` starting at `begin`: the offsets of its `(` and
  // `)` and of the `;` at its top level. Empty when the text there is not such a statement (a macro made it).
  struct Head {
    std::size_t open = 0, close = 0;
    std::vector<std::size_t> semicolons;
  };
  struct PairHash {
    std::size_t operator()(const std::pair<CXFile, unsigned>& p) const {
      return std::hash<const void*>()(p.first) ^ (std::hash<unsigned>()(p.second) << 1);
    }
  };

  // The walk (extract_facts.cpp).
  static CXChildVisitResult top_level(CXCursor c, CXCursor, CXClientData data);
  static CXChildVisitResult child(CXCursor c, CXCursor, CXClientData data);
  void visit_children(CXCursor c, int definition);
  FileId file_id(CXFile file);
  Location location(CXSourceLocation loc);
  Location range(CXSourceRange r);
  Location extent(CXCursor c);
  Location at_offset(FileId file, std::size_t offset);
  Location operator_token(const Location& whole, const std::vector<Location>& operands,
                          std::string_view spelling);
  bool in_project(FileId id) const;
  std::string_view text(FileId id);
  std::string_view text(const Location& l);
  static std::string unqualified_spelling(CXType t);
  int type_id(CXType t);
  void class_names(CXCursor decl, std::vector<std::string>& out, int depth);
  static std::string qualified_name(CXCursor c);
  int symbol_id(CXCursor referenced);
  void type_declarations(CXType t, std::vector<CXCursor>& out, int depth = 0);
  void add_type_references(CXType t, const Location& at, Via via, const std::string& via_name,
                           int definition);
  bool is_definedness_test(CXCursor c) const;
  void add_using_declaration(CXCursor c, int definition);
  CXCursor used_typedef(const std::string& name, CXType type) const;
  CXCursor typedef_written_at(CXCursor type_ref, CXCursor referenced) const;
  void add_reference(CXCursor c, int definition);
  static std::pair<CXFile, unsigned> expansion_key(CXCursor c);
  void visit(CXCursor c, int definition);
  void visit_instantiated(CXCursor c, CXCursorKind kind, int definition);
  void visit_instantiation(CXCursor callee);

  // Lambdas (extract_lambdas.cpp).
  int add_lambda(CXCursor c, int definition);
  void add_call_operator_template(CXCursor c);
  void visit_namespace_variable(CXCursor c);
  bool library_specialization(CXCursor function);
  static CXCursor record_of(CXCursor expr);
  void add_lambda_carrier(CXCursor callee, const std::vector<CXCursor>& args);
  void follow_lambda(CXCursor function, CXCursor lambda, int depth, std::vector<CXCursor>& operators);
  void visit_library_lambda_instantiations();

  // Expressions and statements (extract_expressions.cpp).
  static std::vector<CXCursor> children(CXCursor c);
  static bool is_expression(CXCursor c);
  std::string between(const Location& a, const Location& b);
  void add_condition(const Location& l);
  bool is_condition(const Location& l) const;
  bool reads_metadata_only(CXCursor conversion_function);
  int variable_of(CXCursor expr);
  void add_assignment(const Location& at, CXCursor target, CXCursor value, int definition);
  static bool tracked_operator(std::string_view op);
  static bool tracked_unary(std::string_view op);
  Operator make_operator(const Location& at, std::string spelling, int definition);
  void add_call(CXCursor c, int definition);
  bool named_member_call(CXCursor call, CXCursor object);
  bool class_typed(int type) const;
  void add_builtin_operator(CXCursor c, CXCursorKind kind, int definition);
  static std::size_t skip_blanks(std::string_view t, std::size_t i);
  std::optional<Head> statement_head(FileId file, std::size_t begin);
  void add_statement(CXCursor c, CXCursorKind kind, int definition);
  void add_variable(CXCursor c, int definition);
  std::string nominated_namespace(CXCursor c, int depth = 0);
  void add_namespace_use(CXCursor c, CXCursorKind kind, int definition);
  void add_conversion(CXCursor c, const char* kind, int definition);
  static CXCursor single_element(CXCursor list);
  void add_list_initialization(CXCursor c, int definition);
  void add_decomposition(CXCursor c, int definition);
  void add_binding(CXCursor binding);

  // Range copies by the standard library (extract_ranges.cpp).
  void add_range_copy(CXCursor call, CXCursor callee, const std::vector<CXCursor>& args, CXCursor object,
                      int definition);

  CXTranslationUnit tu_;
  TuFacts& facts_;
  const ParseOptions& options_;
  const CompileCommand& command_;
  std::unordered_map<CXFile, FileId> file_ids_;
  std::unordered_map<FileId, std::string_view> contents_;
  std::unordered_map<FileId, CXFile> cxfiles_;
  std::unordered_map<int, int> builtin_types_;
  std::unordered_map<CXCursor, int, CursorHash, CursorEq> class_types_;
  std::unordered_map<CXCursor, bool, CursorHash, CursorEq> metadata_only_;  // conversion functions seen
  std::vector<std::string> namespaces_;  // the namespaces enclosing the cursor being visited
  int instantiation_depth_ = 0;
  std::unordered_set<CXCursor, CursorHash, CursorEq> instantiations_;
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
  // The typedefs and aliases that using-declarations in project files brought into a scope (`using
  // detail::cfloat;`), each under the name it is written by and under its qualified name: where such a name
  // is used, libclang shows the type it stands for (a TypeRef to the class, an unexposed type), not the
  // typedef.
  std::unordered_multimap<std::string, CXCursor> used_typedefs_;
  // The namespace-scope variable whose initializer is being visited, and the definition its lambda made.
  CXCursor variable_ = clang_getNullCursor();
  int variable_definition_ = -1;
  // The closure classes of generic lambdas and the classes with a call operator template (`struct V {
  // template <class T> void operator()(T&); }`) written in project files; the library function templates a
  // call passed a closure to (`std::visit(lambda, v)`), followed once the walk is done; those already
  // followed.
  std::unordered_set<CXCursor, CursorHash, CursorEq> generic_lambdas_;
  std::vector<std::pair<CXCursor, CXCursor>> lambda_carriers_;
  std::unordered_set<CXCursor, CursorHash, CursorEq> followed_;
  // Structured bindings (`auto [a, b] = init;`) by the file and offset of each name: the range its value
  // comes from (its element of a pair or tuple built in place, else the whole initializer) and the
  // enclosing definition. A binding becomes an Assignment when it is first used.
  std::map<std::pair<FileId, unsigned>, std::pair<Location, int>> bindings_;
};

}  // namespace emberlint::extraction
