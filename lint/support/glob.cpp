#include "lint/support/glob.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace emberlint {

namespace {

void validate(const std::string& p) {
  if (p.empty()) throw GlobError("empty pattern");
  int brace = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\') {
      if (i + 1 == p.size()) throw GlobError("trailing '\\' escapes nothing");
      ++i;
    } else if (c == '[') {
      std::size_t j = i + 1;
      if (j < p.size() && (p[j] == '!' || p[j] == '^')) ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') {
        if (p[j] == '/') throw GlobError("'[' at column " + std::to_string(i + 1) + " spans a '/'");
        ++j;
      }
      if (j >= p.size()) throw GlobError("unclosed '[' at column " + std::to_string(i + 1));
      i = j;
    } else if (c == '{') {
      ++brace;
    } else if (c == '}') {
      if (--brace < 0) throw GlobError("unmatched '}' at column " + std::to_string(i + 1));
    } else if (c == '*' && i + 1 < p.size() && p[i + 1] == '*') {
      bool starts = i == 0 || p[i - 1] == '/' || p[i - 1] == '{' || p[i - 1] == ',';
      std::size_t k = i + 2;
      bool ends = k == p.size() || p[k] == '/' || p[k] == '}' || p[k] == ',';
      if (!starts || !ends) {
        throw GlobError("'**' at column " + std::to_string(i + 1) + " must be a whole path component");
      }
      ++i;
    }
  }
  if (brace > 0) throw GlobError("unclosed '{'");
}

// A pattern's {a,b} groups multiply: past this many alternatives it is an error, not minutes of expansion.
constexpr std::size_t kMaxAlternatives = 1024;

// Expands the first top-level {a,b} group recursively.
void expand_braces(const std::string& p, std::vector<std::string>& out) {
  std::size_t open = std::string::npos;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
    } else if (p[i] == '{') {
      open = i;
      break;
    }
  }
  if (open == std::string::npos) {
    if (out.size() == kMaxAlternatives) {
      throw GlobError("its {...} groups expand to more than " + std::to_string(kMaxAlternatives) +
                      " alternatives");
    }
    out.push_back(p);
    return;
  }
  int depth = 0;
  std::vector<std::string> options;
  std::size_t start = open + 1, close = open;
  for (std::size_t i = open; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
    } else if (p[i] == '{') {
      ++depth;
    } else if (p[i] == '}') {
      if (--depth == 0) {
        options.push_back(p.substr(start, i - start));
        close = i;
        break;
      }
    } else if (p[i] == ',' && depth == 1) {
      options.push_back(p.substr(start, i - start));
      start = i + 1;
    }
  }
  for (const auto& o : options) expand_braces(p.substr(0, open) + o + p.substr(close + 1), out);
}

std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = s.find('/', start);
    std::string_view part = s.substr(start, slash == std::string_view::npos ? s.npos : slash - start);
    if (!part.empty() && part != ".") parts.emplace_back(part);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

// `failed` remembers the (pattern, path) positions after a "**" that did not match, so that patterns with
// many "**" (`**/a/**/a/**/b`) take time proportional to pattern times path, not exponential in the "**".
bool match_components(const std::vector<std::string>& pat, std::size_t pi,
                      const std::vector<std::string>& path, std::size_t si, std::vector<bool>& failed) {
  while (pi < pat.size()) {
    if (pat[pi] == "**") {
      if (pi + 1 == pat.size()) return true;
      for (std::size_t k = si; k <= path.size(); ++k) {
        std::size_t state = (pi + 1) * (path.size() + 1) + k;
        if (failed[state]) continue;
        if (match_components(pat, pi + 1, path, k, failed)) return true;
        failed[state] = true;
      }
      return false;
    }
    if (si >= path.size() || fnmatch(pat[pi].c_str(), path[si].c_str(), FNM_PERIOD) != 0) return false;
    ++pi;
    ++si;
  }
  return si == path.size();
}

bool match_components(const std::vector<std::string>& pat, const std::vector<std::string>& path,
                      std::size_t si) {
  std::vector<bool> failed((pat.size() + 1) * (path.size() + 1));
  return match_components(pat, 0, path, si, failed);
}

}  // namespace

Glob::Glob(std::string pattern, std::filesystem::path base)
    : pattern_(std::move(pattern)), base_(std::move(base)) {
  validate(pattern_);
  expand_braces(pattern_, flat_alternatives_);
  for (const auto& alt : flat_alternatives_) {
    std::vector<std::string> parts = split(alt);
    // "**/**" matches what "**" matches: one is enough.
    auto twice = [](const std::string& a, const std::string& b) { return a == "**" && b == "**"; };
    parts.erase(std::unique(parts.begin(), parts.end(), twice), parts.end());
    alternatives_.push_back(std::move(parts));
  }
}

bool Glob::matches_relative(std::string_view relative) const {
  auto path = split(relative);
  for (const auto& alt : alternatives_) {
    if (match_components(alt, path, 0)) return true;
  }
  return false;
}

bool Glob::matches_path(const std::filesystem::path& absolute) const {
  std::string rel = relative_to(absolute, base_);
  return !rel.empty() && matches_relative(rel);
}

bool Glob::matches_suffix(std::string_view path) const {
  auto parts = split(path);
  for (const auto& alt : alternatives_) {
    for (std::size_t start = 0; start < parts.size(); ++start) {
      if (match_components(alt, parts, start)) return true;
    }
  }
  return false;
}

bool Glob::matches_name(std::string_view name) const {
  std::string n(name);
  for (const auto& alt : flat_alternatives_) {
    if (fnmatch(alt.c_str(), n.c_str(), 0) == 0) return true;
  }
  return false;
}

std::string Glob::literal_prefix() const {
  std::string out;
  for (const auto& part : alternatives_.empty() ? std::vector<std::string>{} : alternatives_.front()) {
    if (part.find_first_of("*?[{\\") != std::string::npos) break;
    if (!out.empty()) out += '/';
    out += part;
  }
  return out;
}

std::string relative_to(const std::filesystem::path& path, const std::filesystem::path& base) {
  const std::string p = path.generic_string();
  std::string b = base.generic_string();
  if (b.empty()) return p;
  if (b.back() != '/') b += '/';
  if (p.size() < b.size() || p.compare(0, b.size(), b) != 0) return {};
  return p.substr(b.size());
}

bool is_under(const std::filesystem::path& file, const std::filesystem::path& folder) {
  return file == folder || !relative_to(file, folder).empty();
}

std::filesystem::path canonical_path(const std::filesystem::path& p) {
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(p, ec);
  if (ec) return p.lexically_normal();
  std::filesystem::path out = std::filesystem::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : out;
}

std::string percent_encode(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string file_uri(const std::filesystem::path& absolute) {
  return "file://" + percent_encode(absolute.generic_string());
}

}  // namespace emberlint
