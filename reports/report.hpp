// Renderers for `emberlint check` results. Every renderer prints paths relative to the project root and
// keeps the result's (deterministic) order.
#pragma once

#include <ostream>
#include <string>

#include "lint/runner.hpp"

namespace emberlint {

inline constexpr const char* kVersion = "0.1.0";

struct TextOptions {
  bool color = false;
  bool quiet = false;  // diagnostics only: no summary line
};

// clang style: `path:line:col: warning: message [EL100 frontend-includes-backend]`, the source line, a caret.
void render_text(std::ostream& out, const CheckResult& result, const TextOptions& options);
// The JSON schema of DESIGN.md section 3; with statistics, a "statistics" object is added.
void render_json(std::ostream& out, const CheckResult& result, bool statistics);
// Counts per rule, most frequent first: `  3  EL101  frontend-uses-backend-symbol`.
void render_statistics(std::ostream& out, const CheckResult& result);

std::string display_path(const CheckResult& result, const std::filesystem::path& file);
// "frontend/x.cpp:3:5: error: expected ';'", paths relative to the root.
std::string failure_message(const CheckResult& result, const Failure& failure);

}  // namespace emberlint
