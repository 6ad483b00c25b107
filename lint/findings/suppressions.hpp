// Suppression comments: emberlint's own forms, clang-tidy's NOLINT family with emberlint-* globs, and the
// predecessor's upper-case ignore comment (docs/emberlint.md, "Suppressions and exit codes"). Comments are
// found with a small lexer, so text in string literals (raw strings included) is never taken for a
// suppression.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lint/diagnostic.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

struct Suppression {
  enum class Kind { line, next_line, begin, end, file };
  Kind kind = Kind::line;
  std::string spelling;                    // the directive as written, for messages
  unsigned line = 0, column = 0;           // where the comment is
  unsigned first_line = 0, last_line = 0;  // the lines it covers (0 = the whole file for Kind::file)
  std::vector<std::string> rules;          // codes, names or globs; empty = every rule
  bool nolint = false;                     // clang-tidy syntax (rule items had "emberlint-" stripped)
  bool report_unused = true;               // false for a bare NOLINT, which may be meant for clang-tidy
  std::string problem;                     // malformed: why (reported as EL001 whatever it suppressed)
  bool used = false;
};

struct Comment {
  std::size_t offset = 0;
  std::string text;  // including the // or /* */ markers
};

// The comments of a C or C++ source, skipping string, character and raw string literals.
std::vector<Comment> find_comments(const std::string& text);

// Every suppression in a file, with begin/end pairs resolved into line ranges.
std::vector<Suppression> scan_suppressions(const SourceText& source);

// Whether an item of a suppression ("EL101", "frontend-*", "el10?") names the rule.
bool suppression_item_matches(const std::string& item, const std::string& code, const std::string& name);

// Whether a suppression covers a diagnostic's line and rule.
bool covers(const Suppression& s, const Diagnostic& d);

}  // namespace emberlint
