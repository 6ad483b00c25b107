// The textual C++ scanner behind `emberlint init`'s discovery: code with its comments and strings blanked,
// its tokens, and the shapes discovery reads off them (the namespace a token is in, class heads and their
// first base, function heads). No parse: discovery reads trees that have no build yet.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace emberlint::discovery {

// Comments and string literals blanked (newlines kept), so that the scans below see code.
std::string code_only(const std::string& text);

// The tokens of code without comments and strings (code_only): identifiers, "::" and single punctuation
// characters; numbers and preprocessor lines are skipped. A hand scanner, not std::regex: regex matching
// recurses per character and overflows the stack on large files.
struct Token {
  std::string_view text;
  unsigned line = 0;
  bool head = false;  // the first token of its line, in column 0
};

bool is_ident(std::string_view t);
// The tokens of `code`; their text views into it.
std::vector<Token> tokenize(std::string_view code);

// The namespace token `at` is in ("mlx::core"), from the namespace blocks opened before it.
std::string namespace_at(const std::vector<Token>& t, std::size_t at);

// The index of the class or struct name after the `class`/`struct` token at k (an export macro between them
// is skipped: `class NCNN_EXPORT Mat`), or 0 when none or when what follows the name is no class head: a
// template's type parameter (`class T,`), an elaborated type (`struct stat*`).
std::size_t class_name_at(const std::vector<Token>& t, std::size_t k);

// For a class definition at k with a base list, the last component of its first base ("Layer" for
// `class ReLU_x86 : public ncnn::ReLU`); empty otherwise. `name` gets the class's name.
std::string first_base(const std::vector<Token>& t, std::size_t k, std::string& name);

// The function heads of a file: lines that start in column 0 with a name and a parameter list and hold no
// ';' (a definition's first line, in the usual formatting), as (line, name), in order.
std::vector<std::pair<unsigned, std::string>> function_heads(const std::vector<Token>& t);

// A function declared or defined at namespace scope, in any formatting (indented inside its namespaces or
// not): the namespace it is in ("fcd::ops::native", "" for the global one), its name and line, and whether
// this is its definition. Methods, out-of-line definitions of qualified names, operators and macro uses
// without a return type are left out.
struct NamespaceFunction {
  std::string ns;
  std::string name;
  unsigned line = 0;
  bool definition = false;
};
std::vector<NamespaceFunction> namespace_functions(const std::vector<Token>& t);

}  // namespace emberlint::discovery
