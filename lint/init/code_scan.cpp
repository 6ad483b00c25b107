// The textual C++ scanner behind `emberlint init`'s discovery (code_scan.hpp): comments and strings blanked,
// tokens, and the few shapes discovery reads off them (namespaces, class heads, function heads).
#include "lint/init/code_scan.hpp"

#include <cctype>
#include <set>

namespace emberlint::discovery {

namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

std::string code_only(const std::string& text) {
  std::string out = text;
  enum { code, line, block, str, chr } state = code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    char c = out[i], n = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case code:
        if (c == '/' && n == '/')
          state = line, out[i] = ' ';
        else if (c == '/' && n == '*')
          state = block, out[i] = ' ';
        else if (c == '"')
          state = str;
        else if (c == '\'')
          state = chr;
        break;
      case line:
        if (c == '\n')
          state = code;
        else
          out[i] = ' ';
        break;
      case block:
        if (c == '*' && n == '/')
          out[i] = out[i + 1] = ' ', ++i, state = code;
        else if (c != '\n')
          out[i] = ' ';
        break;
      case str:
      case chr:
        if (c == '\\') {
          out[i] = ' ';
          if (i + 1 < out.size() && out[i + 1] != '\n') out[++i] = ' ';
        } else if (c == (state == str ? '"' : '\'') || c == '\n') {
          state = code;
        } else {
          out[i] = ' ';
        }
        break;
    }
  }
  return out;
}

bool is_ident(std::string_view t) {
  return !t.empty() && ident_start(t.front());
}

std::vector<Token> tokenize(std::string_view code) {
  std::vector<Token> out;
  unsigned line = 1;
  bool line_start = true;
  std::size_t column = 0;
  for (std::size_t i = 0; i < code.size();) {
    const char c = code[i];
    if (c == '\n') {
      ++line, ++i, column = 0, line_start = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i, ++column;
      continue;
    }
    const bool head = line_start && column == 0;
    const bool first = line_start;
    line_start = false;
    if (c == '#' && first) {  // a preprocessor line, with its continuations
      while (i < code.size() && code[i] != '\n') {
        if (code[i] == '\\' && i + 1 < code.size() && code[i + 1] == '\n') ++line, ++i;
        ++i;
      }
      continue;
    }
    std::size_t j = i + 1;
    if (ident_start(c)) {
      while (j < code.size() && ident_char(code[j])) ++j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (j < code.size() && (ident_char(code[j]) || code[j] == '.' || code[j] == '\'')) ++j;
      column += j - i, i = j;
      continue;
    } else if (c == ':' && j < code.size() && code[j] == ':') {
      ++j;
    }
    out.push_back({code.substr(i, j - i), line, head});
    column += j - i, i = j;
  }
  return out;
}

std::string namespace_at(const std::vector<Token>& t, std::size_t at) {
  std::vector<std::pair<std::string, int>> open;  // name, depth inside it
  int depth = 0;
  for (std::size_t k = 0; k < at && k < t.size(); ++k) {
    if (t[k].text == "namespace") {
      std::string name;
      std::size_t j = k + 1;
      while (j < at && (is_ident(t[j].text) || t[j].text == "::")) name += t[j++].text;
      if (j < at && t[j].text == "{") {
        open.emplace_back(name, ++depth);
        k = j;
      }
    } else if (t[k].text == "{") {
      ++depth;
    } else if (t[k].text == "}") {
      --depth;
      while (!open.empty() && open.back().second > depth) open.pop_back();
    }
  }
  std::string out;
  for (const auto& [name, d] : open) {
    if (!name.empty()) out += (out.empty() ? "" : "::") + name;
  }
  return out;
}

std::size_t class_name_at(const std::vector<Token>& t, std::size_t k) {
  if (t[k].text != "class" && t[k].text != "struct") return 0;
  std::size_t j = k + 1;
  if (j + 1 < t.size() && is_ident(t[j].text) && is_ident(t[j + 1].text) && t[j + 1].text != "final") ++j;
  if (j >= t.size() || !is_ident(t[j].text)) return 0;
  // A class's head goes on with its body, its bases, `final` or the `;` of a declaration; a template's
  // type parameter (`template <class T, int N>`) and an elaborated type (`struct stat* s`) go on otherwise.
  if (j + 1 < t.size()) {
    const std::string_view next = t[j + 1].text;
    if (next != "{" && next != ":" && next != ";" && next != "final") return 0;
  }
  return j;
}

std::string first_base(const std::vector<Token>& t, std::size_t k, std::string& name) {
  std::size_t j = class_name_at(t, k);
  if (!j) return {};
  name = std::string(t[j].text);
  ++j;
  if (j < t.size() && t[j].text == "final") ++j;
  if (j >= t.size() || t[j].text != ":") return {};
  ++j;
  while (j < t.size() && (t[j].text == "public" || t[j].text == "protected" || t[j].text == "private" ||
                          t[j].text == "virtual"))
    ++j;
  std::string base;
  while (j < t.size() && (is_ident(t[j].text) || t[j].text == "::")) {
    if (is_ident(t[j].text)) base = std::string(t[j].text);
    ++j;
  }
  return base;
}

std::vector<std::pair<unsigned, std::string>> function_heads(const std::vector<Token>& t) {
  std::vector<std::pair<unsigned, std::string>> out;
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (!t[k].head || !is_ident(t[k].text)) continue;
    std::size_t end = k;
    while (end < t.size() && t[end].line == t[k].line) ++end;
    std::string name;
    bool semicolon = false;
    for (std::size_t j = k; j < end; ++j) {
      if (t[j].text == ";") semicolon = true;
      if (t[j].text == "(" && j > k && is_ident(t[j - 1].text) && name.empty())
        name = std::string(t[j - 1].text);
    }
    static const std::set<std::string_view> kNot = {"if",   "for",     "while",   "switch", "return", "else",
                                                    "case", "default", "typedef", "using",  "do"};
    if (!semicolon && !name.empty() && !kNot.count(t[k].text) && !kNot.count(name))
      out.emplace_back(t[k].line, name);
    k = end - 1;
  }
  return out;
}

std::vector<NamespaceFunction> namespace_functions(const std::vector<Token>& t) {
  static const std::set<std::string_view> kNot = {
      "if",       "for",           "while",  "switch", "return", "sizeof", "decltype", "alignof", "noexcept",
      "operator", "static_assert", "typeid", "catch",  "new",    "delete", "throw",    "alignas"};
  std::vector<NamespaceFunction> out;
  // The open blocks: the namespace each names, or "" with `other` set for any other block.
  struct Block {
    std::string ns;
    bool other = false;
  };
  std::vector<Block> open;
  std::size_t others = 0;  // open blocks that are not namespaces
  auto current = [&]() { return open.empty() ? std::string() : open.back().ns; };
  for (std::size_t k = 0; k < t.size(); ++k) {
    const std::string_view x = t[k].text;
    if (x == "{") {
      // `namespace a::b {`, `namespace {`, `extern "C" {` (the string blanked) open namespace scopes.
      std::size_t j = k;
      std::string name;
      while (j > 0 && (is_ident(t[j - 1].text) || t[j - 1].text == "::") && t[j - 1].text != "namespace" &&
             t[j - 1].text != "extern")
        name.insert(0, t[--j].text);
      const bool ns = j > 0 && (t[j - 1].text == "namespace" || (t[j - 1].text == "extern" && name.empty()));
      if (ns && t[j - 1].text == "namespace") {
        const std::string outer = current();
        open.push_back({name.empty() ? outer : (outer.empty() ? name : outer + "::" + name), false});
      } else if (ns) {
        open.push_back({current(), false});
      } else {
        open.push_back({current(), true});
        ++others;
      }
      continue;
    }
    if (x == "}") {
      if (!open.empty()) {
        others -= open.back().other ? 1 : 0;
        open.pop_back();
      }
      continue;
    }
    if (others || !is_ident(x) || k + 1 >= t.size() || t[k + 1].text != "(" || kNot.count(x) || k == 0)
      continue;
    // A return type before the name: an identifier, a template's closing '>', '*' or '&' (not `a::f`, a
    // qualified definition, and not the start of a statement, a macro use).
    const std::string_view before = t[k - 1].text;
    static const std::set<std::string_view> kStatement = {"return", "else",  "case",    "new",
                                                          "delete", "throw", "typedef", "using"};
    if (!(is_ident(before) || before == ">" || before == "*" || before == "&") || kStatement.count(before))
      continue;
    int depth = 0;
    std::size_t j = k + 1;
    for (; j < t.size(); ++j) {
      if (t[j].text == "(") ++depth;
      if (t[j].text == ")" && --depth == 0) break;
    }
    // After the parameters: qualifiers and a trailing return type up to the body or the ';'.
    std::size_t e = j + 1;
    while (e < t.size() && t[e].text != "{" && t[e].text != ";" && t[e].text != "=" && t[e].text != "(" &&
           t[e].text != ",")
      ++e;
    if (e >= t.size() || (t[e].text != "{" && t[e].text != ";")) continue;
    out.push_back({current(), std::string(x), t[k].line, t[e].text == "{"});
  }
  return out;
}

}  // namespace emberlint::discovery
