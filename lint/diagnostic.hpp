#pragma once

#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "lint/severity.hpp"

namespace emberlint {

// One edit of a fix: replace `length` bytes at byte `offset` of `file` (as on disk) with `replacement`.
struct Replacement {
  std::filesystem::path file;  // absolute
  std::size_t offset = 0, length = 0;
  std::string replacement;
  // The functions the replacement calls: where each name starts in `replacement` and the qualified name it
  // must resolve to from there. The fix is checked by reparsing the unit with it applied
  // (lint/findings/fix_check.hpp) before it is offered; not part of the key, not written to caches or
  // reports.
  struct Call {
    std::size_t offset = 0;
    std::string qualified_name;
  };
  std::vector<Call> calls;
  auto key() const { return std::tie(file, offset, length, replacement); }
  bool operator<(const Replacement& o) const { return key() < o.key(); }
  bool operator==(const Replacement& o) const { return key() == o.key(); }
};

struct Diagnostic {
  std::string code;  // "EL101"
  std::string name;  // "frontend-uses-backend-symbol"
  Severity severity = Severity::warning;
  std::filesystem::path file;  // absolute
  unsigned line = 0, column = 0, end_line = 0, end_column = 0;
  std::string message;
  std::vector<Replacement> fix;  // empty when the rule offers no automatic fix here
  // Rules that would flag every use of one thing (EL101, EL104) name it here ("'__m128i' of library SSE"):
  // after suppressions, a file's findings of one rule and group become one, at the first use, with the
  // count in `uses` and the message. Empty: reported as is.
  std::string group;
  unsigned uses = 1;
  // Why it fired, one step per line (`check --explain`): the use, the declaration, the config entry that
  // makes its owner a backend's and the one that puts the file in its layer. Empty unless asked for.
  std::vector<std::string> explanation;
  // The configurations it holds in (lint/compile/configurations.hpp), sorted: a source compiled once per
  // backend is checked in each, and a finding of several is reported once. Empty when the run's config
  // states no configurations or the unit is in none. Not part of the key.
  std::vector<std::string> configurations;

  auto key() const { return std::tie(file, line, column, code, message); }
  bool operator<(const Diagnostic& o) const { return key() < o.key(); }
  bool operator==(const Diagnostic& o) const { return key() == o.key(); }
};

// One error clang reported while parsing a unit.
struct ParseError {
  std::string message;          // "error: 'cuda_runtime.h' file not found"
  std::filesystem::path where;  // its file (maybe a header), if known
  unsigned line = 0, column = 0;
};

// A file that could not be analyzed (exit code 3), or a partial unit: one with parse errors whose parsed
// parts were analyzed (exit code 3 too, unless the config's expected_parse_errors expects its cause).
struct Failure {
  Failure() = default;
  Failure(std::filesystem::path file_, std::string message_, std::filesystem::path where_ = {},
          unsigned line_ = 0, unsigned column_ = 0)
      : file(std::move(file_)),
        message(std::move(message_)),
        where(std::move(where_)),
        line(line_),
        column(column_) {}

  std::filesystem::path file;
  std::string message;          // "error: expected ';' after expression"
  std::filesystem::path where;  // the file of the first error (maybe a header), if known
  unsigned line = 0, column = 0;
  // Why: "missing-sdk-header", "missing-generated-file", "unsupported-feature", "unowned-code" or "other"
  // (lint/project/parse_errors.hpp).
  std::string cause = "other";
  bool partial = false;            // the unit was analyzed despite its errors
  bool expected = false;           // the governing config expects this cause here
  std::vector<ParseError> errors;  // the first errors, the first of them as above; empty when not a parse
  bool operator<(const Failure& o) const { return std::tie(file, message) < std::tie(o.file, o.message); }
};

}  // namespace emberlint
