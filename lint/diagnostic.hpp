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

  auto key() const { return std::tie(file, line, column, code, message); }
  bool operator<(const Diagnostic& o) const { return key() < o.key(); }
  bool operator==(const Diagnostic& o) const { return key() == o.key(); }
};

// A file that could not be analyzed (exit code 3).
struct Failure {
  std::filesystem::path file;
  std::string message;          // "error: expected ';' after expression"
  std::filesystem::path where;  // the file of the first error (maybe a header), if known
  unsigned line = 0, column = 0;
  bool operator<(const Failure& o) const { return std::tie(file, message) < std::tie(o.file, o.message); }
};

}  // namespace emberlint
