#include "lint/support/glob.hpp"
#include "reports/analyze_report.hpp"

namespace emberlint {

std::string analyze_path(const AnalyzeReport& report, const std::filesystem::path& file) {
  if (file.empty()) return {};
  std::string rel = relative_to(file, report.findings.root);
  return rel.empty() ? file.string() : rel;
}

}  // namespace emberlint
