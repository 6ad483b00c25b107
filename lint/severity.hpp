#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace emberlint {

// `error` and `warning` fail the run (exit 1); `info` is reported but does not fail; `off` disables a rule.
enum class Severity { off, info, warning, error };

inline std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::off:
      return "off";
    case Severity::info:
      return "info";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "warning";
}

inline std::optional<Severity> parse_severity(std::string_view s) {
  if (s == "off") return Severity::off;
  if (s == "info") return Severity::info;
  if (s == "warning") return Severity::warning;
  if (s == "error") return Severity::error;
  return std::nullopt;
}

inline bool fails(Severity s) {
  return s == Severity::warning || s == Severity::error;
}

}  // namespace emberlint
