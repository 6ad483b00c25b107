// Renderers for `emberlint analyze`: the inventory matrix, its EL400-EL403 findings and, with --migrate, the
// migration plan, as table (terminal), markdown, json, csv and html. They read plain values only (no
// libclang), print paths relative to the project root, and keep the inventory's deterministic order.
#pragma once

#include <optional>
#include <ostream>

#include "analyze/analyze.hpp"
#include "reports/report.hpp"

namespace emberlint {

void render_analyze_table(std::ostream& out, const AnalyzeReport& report, bool color);
void render_analyze_markdown(std::ostream& out, const AnalyzeReport& report);
void render_analyze_json(std::ostream& out, const AnalyzeReport& report);
void render_analyze_csv(std::ostream& out, const AnalyzeReport& report);
void render_analyze_html(std::ostream& out, const AnalyzeReport& report);

// A path relative to the report's root ("backends/eigen/math_ops.cpp"), or as given when outside it.
std::string analyze_path(const AnalyzeReport& report, const std::filesystem::path& file);

}  // namespace emberlint
