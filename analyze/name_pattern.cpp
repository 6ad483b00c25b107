#include "analyze/name_pattern.hpp"

#include <vector>

namespace emberlint::analyze {

namespace {

// Backtracking over the pattern's pieces: literal text, `*`, `{op}`.
bool match_from(std::string_view p, std::string_view s, std::string& op) {
  while (!p.empty()) {
    if (p.front() == '*' || p.rfind("{op}", 0) == 0) {
      bool capture = p.front() == '{';
      std::string_view rest = p.substr(capture ? 4 : 1);
      for (std::size_t n = capture ? 1 : 0; n <= s.size(); ++n) {
        std::string saved = op;
        if (capture) op = std::string(s.substr(0, n));
        if (match_from(rest, s.substr(n), op)) return true;
        op = saved;
      }
      return false;
    }
    if (s.empty() || p.front() != s.front()) return false;
    p.remove_prefix(1);
    s.remove_prefix(1);
  }
  return s.empty();
}

}  // namespace

NamePattern NamePattern::for_backend(std::string_view backend) const {
  std::string out = pattern_;
  for (std::size_t at = out.find("{backend}"); at != std::string::npos; at = out.find("{backend}", at))
    out.replace(at, 9, backend), at += backend.size();
  return NamePattern(out);
}

std::optional<std::string> NamePattern::match(std::string_view name) const {
  std::string op;
  if (!match_from(pattern_, name, op)) return std::nullopt;
  return op;
}

std::optional<std::string> NamePattern::expand(std::string_view op) const {
  if (pattern_.find('*') != std::string::npos || has_backend()) return std::nullopt;
  std::string out = pattern_;
  for (std::size_t at = out.find("{op}"); at != std::string::npos; at = out.find("{op}", at))
    out.replace(at, 4, op), at += op.size();
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace emberlint::analyze
