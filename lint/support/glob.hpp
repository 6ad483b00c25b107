// Globs as .emberlint.json writes them: `*` and `?` within one path component, `**` for any number of
// components, `[...]` classes and `{a,b}` alternatives. Path globs are anchored at a base folder (the folder
// of the config file that holds them); name globs (headers, symbols) match a name or a path suffix.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace emberlint {

struct GlobError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Glob {
 public:
  Glob() = default;
  // Throws GlobError with a message that says what is wrong with the pattern.
  explicit Glob(std::string pattern, std::filesystem::path base = {});

  const std::string& pattern() const { return pattern_; }
  const std::filesystem::path& base() const { return base_; }

  // Matches a '/'-separated relative path against the whole pattern.
  bool matches_relative(std::string_view relative) const;
  // Matches an absolute path: relative to the base; false for paths outside the base.
  bool matches_path(const std::filesystem::path& absolute) const;
  // Matches the path or any of its trailing components ("Eigen/**" matches ".../eigen3/Eigen/src/Core.h").
  bool matches_suffix(std::string_view path) const;
  // Matches a name (no path semantics: `*` crosses "::" and '/').
  bool matches_name(std::string_view name) const;
  // The literal folder the pattern starts with ("backends/eigen" for "backends/eigen/**").
  std::string literal_prefix() const;

 private:
  std::string pattern_;
  std::filesystem::path base_;
  std::vector<std::vector<std::string>> alternatives_;  // brace-expanded, split into components
  std::vector<std::string> flat_alternatives_;          // brace-expanded, whole
};

// A path relative to base with '/' separators, or empty when path is not below base.
std::string relative_to(const std::filesystem::path& path, const std::filesystem::path& base);
// Whether `file` is `folder` or below it.
bool is_under(const std::filesystem::path& file, const std::filesystem::path& folder);

// The one spelling of a file's path that emberlint compares: absolute, symbolic links and `..` resolved as
// far as the path exists. A path the system refuses to resolve (a name too long, a folder that cannot be
// searched) stays as written, absolute and normalized: it must not become empty.
std::filesystem::path canonical_path(const std::filesystem::path& p);

// RFC 3986 percent-encoding of a path: every byte but the unreserved characters and '/' is encoded.
std::string percent_encode(const std::string& path);
// The `file://` URI of an absolute path (SARIF's artifact locations, the language server's documents).
std::string file_uri(const std::filesystem::path& absolute);

}  // namespace emberlint
