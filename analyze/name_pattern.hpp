// Name patterns of the inventory models: a function or class name with `*` (any text) and captures
// `{op}` and `{backend}` ("ggml_backend_{backend}_*", "{op}_{backend}"). Matching is on the whole name;
// `{backend}` is substituted with a backend's name before matching, so only `{op}` is ever captured.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace emberlint::analyze {

class NamePattern {
 public:
  NamePattern() = default;
  explicit NamePattern(std::string pattern) : pattern_(std::move(pattern)) {}

  const std::string& pattern() const { return pattern_; }
  bool has_op() const { return pattern_.find("{op}") != std::string::npos; }
  bool has_backend() const { return pattern_.find("{backend}") != std::string::npos; }

  // The pattern for one backend: every `{backend}` replaced by its name.
  NamePattern for_backend(std::string_view backend) const;
  // Whether `name` matches; the text `{op}` matched when the pattern has it, else "" (never nullopt on a
  // match). `*` and `{op}` match any text (`{op}` at least one character).
  std::optional<std::string> match(std::string_view name) const;
  // The name an op would have: `{op}` replaced, nullopt when the pattern still has `*` or `{backend}`.
  std::optional<std::string> expand(std::string_view op) const;

 private:
  std::string pattern_;
};

// The edit distance of two names (insertions, deletions, substitutions), for "did you mean" candidates.
std::size_t edit_distance(std::string_view a, std::string_view b);

// Up to `limit` names nearest to `wanted`, nearest first (ties in name order); empty input gives nothing.
template <class Names>
std::string nearest_names(std::string_view wanted, const Names& names, std::size_t limit = 3);

}  // namespace emberlint::analyze

#include <algorithm>
#include <vector>

namespace emberlint::analyze {

template <class Names>
std::string nearest_names(std::string_view wanted, const Names& names, std::size_t limit) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& n : names) scored.emplace_back(edit_distance(wanted, n), std::string(n));
  std::sort(scored.begin(), scored.end());
  scored.erase(std::unique(scored.begin(), scored.end()), scored.end());
  std::string out;
  for (std::size_t i = 0; i < scored.size() && i < limit; ++i) out += (i ? ", " : "") + scored[i].second;
  return out.empty() ? "none" : out;
}

}  // namespace emberlint::analyze
