#include "lint/findings/suppressions.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>

#include "lint/support/source_text.hpp"

namespace emberlint {

namespace {

std::vector<std::string> split_items(const std::string& list) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : list + ",") {
    if (c == ',') {
      while (!cur.empty() && std::isspace(static_cast<unsigned char>(cur.back()))) cur.pop_back();
      std::size_t b = 0;
      while (b < cur.size() && std::isspace(static_cast<unsigned char>(cur[b]))) ++b;
      if (b < cur.size()) out.push_back(cur.substr(b));
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

}  // namespace

std::vector<Comment> find_comments(const std::string& t) {
  std::vector<Comment> out;
  const std::size_t n = t.size();
  std::size_t i = 0;
  while (i < n) {
    char c = t[i];
    if (c == '/' && i + 1 < n && t[i + 1] == '/') {
      std::size_t end = t.find('\n', i);
      if (end == std::string::npos) end = n;
      out.push_back({i, t.substr(i, end - i)});
      i = end;
    } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
      std::size_t end = t.find("*/", i + 2);
      end = end == std::string::npos ? n : end + 2;
      out.push_back({i, t.substr(i, end - i)});
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c)) && (i == 0 || !is_identifier_char(t[i - 1]))) {
      // A pp-number, digit separators included (1'000'000, 0xFF'FF).
      ++i;
      while (i < n &&
             (is_identifier_char(t[i]) || t[i] == '.' ||
              (t[i] == '\'' && i + 1 < n && is_identifier_char(t[i + 1])) ||
              ((t[i] == '+' || t[i] == '-') && std::string("eEpP").find(t[i - 1]) != std::string::npos))) {
        ++i;
      }
    } else if (c == '"' && i > 0 && t[i - 1] == 'R' &&
               (i < 2 || !is_identifier_char(t[i - 2]) || t[i - 2] == 'u' || t[i - 2] == 'U' ||
                t[i - 2] == 'L' || t[i - 2] == '8')) {
      std::size_t paren = t.find('(', i + 1);
      if (paren == std::string::npos) break;
      std::string close = ")";  // appended, not `")" + ...`, which GCC 12 misreads (-Wrestrict)
      close += t.substr(i + 1, paren - i - 1);
      close += '"';
      std::size_t end = t.find(close, paren + 1);
      i = end == std::string::npos ? n : end + close.size();
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < n && t[i] != c && t[i] != '\n') i += t[i] == '\\' ? 2 : 1;
      ++i;
    } else if (is_identifier_char(c)) {
      while (i < n && is_identifier_char(t[i])) ++i;
    } else {
      ++i;
    }
  }
  return out;
}

namespace {

// Parses the directives of one comment.
void parse_comment(const Comment& comment, const SourceText& source, std::vector<Suppression>& out) {
  const std::string& text = comment.text;
  auto [line, column] = source.position(comment.offset);
  const unsigned end_line = static_cast<unsigned>(source.position(comment.offset + text.size()).first);
  auto make = [&](std::size_t at) {
    Suppression s;
    auto [l, c] = source.position(comment.offset + at);
    s.line = static_cast<unsigned>(l);
    s.column = static_cast<unsigned>(c);
    return s;
  };
  (void)line;
  (void)column;

  // The emberlint directive, an optional [rule list] and a reason; the predecessor's spelling of the
  // plain ignore directive is the same directive in capitals, so the match is case-insensitive.
  const std::string low = ascii_lower(text);
  for (std::size_t at = low.find("emberlint:"); at != std::string::npos;
       at = low.find("emberlint:", at + 1)) {
    if (at > 0 && (is_identifier_char(low[at - 1]) || low[at - 1] == '-')) continue;
    if (at + 10 < low.size() && low[at + 10] == ':') continue;  // emberlint::something, a C++ name
    std::size_t p = at + 10;
    while (p < low.size() && low[p] == ' ') ++p;
    std::size_t w = p;
    while (w < low.size() && (std::isalpha(static_cast<unsigned char>(low[w])) || low[w] == '-')) ++w;
    const std::string word = low.substr(p, w - p);
    Suppression s = make(at);
    if (word == "ignore") {
      s.kind = Suppression::Kind::line;
    } else if (word == "ignore-next-line") {
      s.kind = Suppression::Kind::next_line;
    } else if (word == "begin-ignore") {
      s.kind = Suppression::Kind::begin;
    } else if (word == "end-ignore") {
      s.kind = Suppression::Kind::end;
    } else if (word == "ignore-file") {
      s.kind = Suppression::Kind::file;
    } else {
      s.problem = "unknown suppression 'emberlint: " + text.substr(p, w - p) +
                  "'; expected ignore, ignore-next-line, begin-ignore, end-ignore or ignore-file";
    }
    std::size_t end = w;
    if (s.problem.empty() && w < low.size() && low[w] == '[') {
      std::size_t close = text.find(']', w);
      if (close == std::string::npos) {
        s.problem = "unclosed '[' in suppression";
      } else {
        s.rules = split_items(text.substr(w + 1, close - w - 1));
        if (s.rules.empty()) s.problem = "empty rule list '[]' in suppression";
        end = close + 1;
      }
    }
    s.spelling = text.substr(at, end - at);
    out.push_back(std::move(s));
  }

  // clang-tidy: NOLINT, NOLINTNEXTLINE, NOLINTBEGIN, NOLINTEND, optionally with (check globs).
  for (std::size_t at = text.find("NOLINT"); at != std::string::npos; at = text.find("NOLINT", at + 1)) {
    if (at > 0 && is_identifier_char(text[at - 1])) continue;
    std::size_t w = at + 6;
    while (w < text.size() && std::isupper(static_cast<unsigned char>(text[w]))) ++w;
    const std::string word = text.substr(at, w - at);
    Suppression s = make(at);
    s.nolint = true;
    if (word == "NOLINT") {
      s.kind = Suppression::Kind::line;
    } else if (word == "NOLINTNEXTLINE") {
      s.kind = Suppression::Kind::next_line;
    } else if (word == "NOLINTBEGIN") {
      s.kind = Suppression::Kind::begin;
    } else if (word == "NOLINTEND") {
      s.kind = Suppression::Kind::end;
    } else {
      continue;
    }
    std::size_t end = w;
    if (w < text.size() && text[w] == '(') {
      std::size_t close = text.find(')', w);
      if (close == std::string::npos) continue;
      end = close + 1;
      bool ours = false;
      for (const auto& item : split_items(text.substr(w + 1, close - w - 1))) {
        if (ascii_lower(item) == "*") {
          ours = true;
          s.rules.clear();
          s.report_unused = false;
          break;
        }
        if (ascii_lower(item).rfind("emberlint-", 0) == 0) {
          ours = true;
          s.rules.push_back(item.substr(10));
        }
      }
      if (!ours) continue;  // a suppression for other clang-tidy checks only
    } else {
      s.report_unused = false;  // a bare NOLINT silences everything, clang-tidy's checks included
    }
    s.spelling = text.substr(at, end - at);
    out.push_back(std::move(s));
  }
  for (auto& s : out) {
    if (s.last_line != 0 || s.first_line != 0) continue;
    if (s.kind == Suppression::Kind::line) s.first_line = s.last_line = s.line;
    if (s.kind == Suppression::Kind::next_line) s.first_line = s.last_line = end_line + 1;
  }
}

}  // namespace

std::vector<Suppression> scan_suppressions(const SourceText& source) {
  std::vector<Suppression> out;
  for (const Comment& c : find_comments(source.text())) {
    // Cheap filter first: most comments hold neither marker.
    if (c.text.find("NOLINT") == std::string::npos &&
        ascii_lower(c.text).find("emberlint:") == std::string::npos) {
      continue;
    }
    parse_comment(c, source, out);
  }
  // Pair begin/end per syntax (emberlint's and NOLINT's), innermost first.
  std::vector<std::size_t> open[2];
  for (std::size_t i = 0; i < out.size(); ++i) {
    Suppression& s = out[i];
    auto& stack = open[s.nolint ? 1 : 0];
    if (s.kind == Suppression::Kind::begin) {
      s.first_line = s.line;
      stack.push_back(i);
    } else if (s.kind == Suppression::Kind::end) {
      if (stack.empty()) {
        s.problem = "'" + s.spelling + "' has no matching begin";
        continue;
      }
      out[stack.back()].last_line = s.line;
      stack.pop_back();
      s.first_line = s.last_line = s.line;
      s.report_unused = false;  // the begin reports for the pair
    } else if (s.kind == Suppression::Kind::file) {
      s.first_line = 1;
      s.last_line = static_cast<unsigned>(source.line_count());
    }
  }
  for (auto& stack : open) {
    for (std::size_t i : stack) {
      out[i].last_line = static_cast<unsigned>(source.line_count());
      out[i].problem = "'" + out[i].spelling + "' has no matching end";
    }
  }
  return out;
}

bool suppression_item_matches(const std::string& item, const std::string& code, const std::string& name) {
  const std::string i = ascii_lower(item);
  return fnmatch(i.c_str(), ascii_lower(code).c_str(), 0) == 0 || fnmatch(i.c_str(), name.c_str(), 0) == 0;
}

bool covers(const Suppression& s, const Diagnostic& d) {
  if (s.kind == Suppression::Kind::end) return false;
  // A malformed directive suppresses nothing, except an unterminated begin, which covers to the end.
  if (!s.problem.empty() && s.kind != Suppression::Kind::begin) return false;
  if (d.line < s.first_line || d.line > s.last_line) return false;
  if (s.rules.empty()) return true;
  return std::any_of(s.rules.begin(), s.rules.end(),
                     [&](const std::string& item) { return suppression_item_matches(item, d.code, d.name); });
}

}  // namespace emberlint
