#include "analyze/model.hpp"

#include <algorithm>

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {
bool any_matches(const std::vector<Glob>& globs, const fs::path& p) {
  return std::any_of(globs.begin(), globs.end(), [&](const Glob& g) { return g.matches_path(p); });
}
}  // namespace

std::vector<std::string> ModelContext::backends_of(const fs::path& file) const {
  std::vector<std::string> out;
  if (file.empty() || any_matches(config->glue, file)) return out;
  for (const auto& b : config->backends) {
    if (any_matches(b.globs, file)) out.push_back(b.name);
  }
  return out;
}

bool ModelContext::declares_ops(const fs::path& file) const {
  if (file.empty()) return false;
  const auto& globs = ops->headers.empty() ? config->frontend : ops->headers;
  return any_matches(globs, file);
}

bool ModelContext::in_project(const fs::path& file) const {
  return !file.empty() && !relative_to(file, config->root).empty() && !config->excluded(file);
}

bool ModelContext::excluded_op(const std::string& name) const {
  return std::any_of(ops->exclude.begin(), ops->exclude.end(),
                     [&](const Glob& g) { return g.matches_name(name); });
}

}  // namespace emberlint::analyze
