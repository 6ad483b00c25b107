#pragma once

#include <filesystem>
#include <string>
#include <tuple>

#include "lint/severity.hpp"

namespace emberlint {

struct Diagnostic {
  std::string code;  // "EL101"
  std::string name;  // "frontend-uses-backend-symbol"
  Severity severity = Severity::warning;
  std::filesystem::path file;  // absolute
  unsigned line = 0, column = 0, end_line = 0, end_column = 0;
  std::string message;

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
