// The libclang reading the inventory models share: places, qualified names, signatures and the classification
// of a body (only throws, says "not implemented", what it calls). Built on lint/libclang/cursor.hpp's wrapper.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "analyze/inventory.hpp"
#include "lint/libclang/cursor.hpp"
#include "lint/support/glob.hpp"

namespace emberlint::analyze {

Place place_of(CXCursor c);

// place_of with the file's canonical path computed once per file: walks that look at every declaration of a
// unit (system headers' too) use it. One per unit.
class Places {
 public:
  Place operator()(CXCursor c);
  // The file of a cursor without its line, empty for system headers and built-ins.
  const std::filesystem::path& file(CXCursor c);

 private:
  std::map<CXFile, std::filesystem::path> files_;
};
// The generic cursor helpers of lint/libclang/cursor.hpp, by the names the models use.
using clang::body_of;
using clang::children;
using clang::enclosing_namespace;
using clang::qualified_name;
using clang::unwrap;
using clang::usr;
using clang::visit;

Signature signature_of(CXTranslationUnit tu, CXCursor fn);
// Types compared modulo a namespace: removes `ns::` from the canonical types of a signature (a backend's
// own `cpu::Array<T>` and the interface's `api::Array<T>` both become `Array<T>`).
void strip_namespace(Signature& s, const std::string& ns);
bool has_fallback_marker(CXCursor c);
// The op category of a declaring header: its stem without "_ops" ("math" for math_ops.hpp).
std::string category_of(const std::filesystem::path& header);

struct Callee {
  std::string usr;
  std::string qualified;       // "ember::ops::add"
  std::filesystem::path file;  // where it is declared
};

// What a body (or a run of statements: a `case`) does, for classification.
struct Body {
  std::string usr;
  Place defined;
  Signature signature;           // as written at the definition (parameter names)
  bool only_throws = false;      // every statement throws (or calls a configured abort-like function)
  bool aborts = false;           // some top-level statement (or block) unconditionally throws or aborts
  bool not_implemented = false;  // a top-level throw says "not implemented"
  bool marker = false;           // an attached comment says `emberlint-fallback:`
  std::string throw_text;
  std::vector<Callee> callees;
};

// Classifies statements; `stub_calls` (may be null) names calls that count as a throw (`abort`, `*_abort`).
void classify_statements(const std::vector<CXCursor>& statements, Body& out,
                         const std::vector<Glob>* stub_calls = nullptr);
// Classifies a function definition's compound body (and its fallback marker).
void classify_body(CXCursor def, CXCursor body, Body& out, const std::vector<Glob>* stub_calls = nullptr);

// Whether a throw message says the op is not implemented.
bool says_not_implemented(std::string_view message);

}  // namespace emberlint::analyze
