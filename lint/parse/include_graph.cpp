#include "lint/parse/include_graph.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "lint/project/config.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool horizontal_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

char at(std::string_view s, std::size_t i) {
  return i < s.size() ? s[i] : '\0';
}

std::size_t identifier_end(std::string_view s, std::size_t i) {
  while (i < s.size() && is_identifier_char(s[i])) ++i;
  return i;
}

// From "/*": just past the closing "*/" (or the end of the text).
std::size_t skip_block_comment(std::string_view s, std::size_t i) {
  std::size_t end = s.find("*/", i + 2);
  return end == std::string_view::npos ? s.size() : end + 2;
}

// From an opening ' or ": just past the closing quote, or at the newline that ends an unterminated literal
// (an apostrophe in `#error don't` must not swallow the file).
std::size_t skip_quoted(std::string_view s, std::size_t i) {
  const char quote = s[i];
  for (std::size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\') {
      ++j;
    } else if (s[j] == quote) {
      return j + 1;
    } else if (s[j] == '\n') {
      return j;
    }
  }
  return s.size();
}

// From the '"' of R"delim( ... )delim": just past the closing quote.
std::size_t skip_raw_string(std::string_view s, std::size_t i) {
  std::size_t paren = s.find('(', i + 1);
  if (paren == std::string_view::npos || paren - i - 1 > 16) return skip_quoted(s, i);
  std::string_view delim = s.substr(i + 1, paren - i - 1);
  if (delim.find_first_of(" \\)\t\n\"") != std::string_view::npos) return skip_quoted(s, i);
  std::string close = ")" + std::string(delim) + "\"";
  std::size_t end = s.find(close, paren + 1);
  return end == std::string_view::npos ? s.size() : end + close.size();
}

// Horizontal whitespace and comments inside a directive line (a block comment may span lines).
std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size()) {
    if (horizontal_space(s[i])) {
      ++i;
    } else if (s[i] == '/' && at(s, i + 1) == '*') {
      i = skip_block_comment(s, i);
    } else {
      break;
    }
  }
  return i;
}

// The rest of a directive line with comments removed and whitespace trimmed; `end` is set to the newline.
std::string rest_of_line(std::string_view s, std::size_t i, std::size_t& end) {
  std::string out;
  while (i < s.size() && s[i] != '\n') {
    if (s[i] == '/' && at(s, i + 1) == '/') {
      i = std::min(s.find('\n', i), s.size());
      break;
    }
    if (s[i] == '/' && at(s, i + 1) == '*') {
      i = skip_block_comment(s, i);
      out += ' ';
      continue;
    }
    if (s[i] == '"' || s[i] == '\'') {
      std::size_t j = skip_quoted(s, i);
      out.append(s.substr(i, j - i));
      i = j;
      continue;
    }
    out += s[i++];
  }
  end = i;
  std::size_t first = out.find_first_not_of(" \t\r\f\v");
  if (first == std::string::npos) return {};
  return out.substr(first, out.find_last_not_of(" \t\r\f\v") + 1 - first);
}

// A header name at `i`: "x", <x>, a lone identifier (a macro to expand) or anything else. `end` is set past
// the delimiter of a header name, else to the end of the line.
HeaderName read_header_name(std::string_view s, std::size_t i, std::size_t& end) {
  HeaderName out;
  const char open = at(s, i);
  if (open == '"' || open == '<') {
    const char close = open == '"' ? '"' : '>';
    std::size_t j = s.find_first_of(std::string{close, '\n'}, i + 1);
    if (j != std::string_view::npos && s[j] == close) {
      out.form = open == '"' ? HeaderName::Form::quoted : HeaderName::Form::angled;
      out.text = std::string(s.substr(i + 1, j - i - 1));
      end = j + 1;
      return out;
    }
  }
  out.text = rest_of_line(s, i, end);
  bool identifier = !out.text.empty() && ident_start(out.text[0]) &&
                    std::all_of(out.text.begin(), out.text.end(), is_identifier_char);
  out.form = identifier ? HeaderName::Form::macro : HeaderName::Form::other;
  return out;
}

// Translation phase 2: backslash-newlines removed; the offsets where they were give back original lines.
struct Spliced {
  std::string text;
  std::vector<std::size_t> splices, newlines;

  explicit Spliced(std::string_view source) {
    text.reserve(source.size());
    for (std::size_t i = 0; i < source.size(); ++i) {
      if (source[i] == '\\') {
        std::size_t j = i + 1;
        while (j < source.size() && horizontal_space(source[j])) ++j;
        if (j < source.size() && source[j] == '\n') {
          splices.push_back(text.size());
          i = j;
          continue;
        }
      }
      if (source[i] == '\n') newlines.push_back(text.size());
      text += source[i];
    }
  }

  unsigned line(std::size_t offset) const {
    auto before = [&](const std::vector<std::size_t>& v, bool inclusive) {
      return inclusive ? std::upper_bound(v.begin(), v.end(), offset) - v.begin()
                       : std::lower_bound(v.begin(), v.end(), offset) - v.begin();
    };
    return static_cast<unsigned>(1 + before(newlines, false) + before(splices, true));
  }
};

// What the scan of one file keeps between its directives: the open conditional blocks, and what the first two
// directives say about an include guard.
struct ScanState {
  DirectiveScan& out;
  struct Open {
    unsigned line = 0;
    bool guard = false;
    DirectiveScan::Branches branches;
  };
  std::vector<Open> open;
  unsigned directives = 0;  // seen so far
  std::string guard_name;   // the macro the first directive tests for being undefined
};

// `X` of `!defined(X)` or `!defined X` (the condition of an #if, comments stripped); empty otherwise.
std::string undefined_test(std::string_view condition) {
  std::size_t i = 0;
  auto space = [&] {
    while (i < condition.size() && horizontal_space(condition[i])) ++i;
  };
  space();
  if (at(condition, i) != '!') return {};
  ++i;
  space();
  if (condition.substr(i, 7) != "defined") return {};
  i += 7;
  space();
  const bool paren = at(condition, i) == '(';
  if (paren) ++i;
  space();
  const std::size_t name_end = identifier_end(condition, i);
  std::string name(condition.substr(i, name_end - i));
  i = name_end;
  space();
  if (paren) {
    if (at(condition, i) != ')') return {};
    ++i;
    space();
  }
  return i == condition.size() ? name : std::string();
}

// A conditional directive (`word` at `i`, its name ending at `word_end`): opens or closes a block.
void read_conditional(const Spliced& sp, std::size_t hash, std::string_view word, std::size_t word_end,
                      ScanState& st, std::size_t& end) {
  std::string_view s = sp.text;
  if (word == "if" || word == "ifdef" || word == "ifndef") {
    std::string rest = rest_of_line(s, word_end, end);
    std::string tested;
    if (word == "ifndef") {
      tested = rest.substr(0, identifier_end(rest, 0));
    } else if (word == "if") {
      tested = undefined_test(rest);
    }
    // The first directive of the file may open its include guard; the next one says whether it does.
    if (st.directives == 1 && !tested.empty()) st.guard_name = tested;
    st.open.push_back({sp.line(hash), false, {}});
  } else if (word == "endif" && !st.open.empty()) {
    ScanState::Open block = std::move(st.open.back());
    st.open.pop_back();
    if (!block.guard) {
      st.out.conditionals.emplace_back(block.line, sp.line(hash));
      st.out.branches.push_back(std::move(block.branches));
    }
  } else if (!st.open.empty()) {  // #elif, #elifdef, #elifndef, #else
    st.open.back().branches.lines.push_back(sp.line(hash));
    if (word == "else") st.open.back().branches.has_else = true;
  }
}

// A directive whose '#' is at `hash`: records an include, an object-like #define or a conditional block;
// returns where the ordinary scan goes on (past what was read, so the rest of the line is still lexed for
// comments).
std::size_t read_directive(const Spliced& sp, std::size_t hash, ScanState& st) {
  DirectiveScan& out = st.out;
  std::string_view s = sp.text;
  std::size_t i = skip_space(s, hash + 1);
  std::size_t word_end = identifier_end(s, i);
  std::string_view word = s.substr(i, word_end - i);
  std::size_t end = word_end;
  if (word.empty()) return end;  // a null directive
  ++st.directives;
  if (word == "if" || word == "ifdef" || word == "ifndef" || word == "elif" || word == "elifdef" ||
      word == "elifndef") {
    std::size_t condition_end = word_end;
    const std::string condition = rest_of_line(s, word_end, condition_end);
    for (std::size_t k = 0; k < condition.size();) {
      if (!is_identifier_char(condition[k])) {
        ++k;
        continue;
      }
      const std::size_t name_end = identifier_end(condition, k);
      // A number (201703L) is no name; `defined` is the operator.
      if (!std::isdigit(static_cast<unsigned char>(condition[k])) &&
          condition.compare(k, name_end - k, "defined") != 0)
        out.tested.emplace_back(sp.line(hash), condition.substr(k, name_end - k));
      k = name_end;
    }
  } else if (word == "define" || word == "undef") {
    const std::size_t name_begin = skip_space(s, word_end);
    const std::size_t name_end = identifier_end(s, name_begin);
    if (name_end > name_begin) out.defined.insert(std::string(s.substr(name_begin, name_end - name_begin)));
  }
  if (st.directives == 2 && !st.guard_name.empty() && st.open.size() == 1 && word == "define") {
    std::size_t name_begin = skip_space(s, word_end);
    if (s.substr(name_begin, identifier_end(s, name_begin) - name_begin) == st.guard_name)
      st.open.back().guard = true;
  }
  if (word == "if" || word == "ifdef" || word == "ifndef" || word == "endif" || word == "else" ||
      word == "elif" || word == "elifdef" || word == "elifndef") {
    read_conditional(sp, hash, word, word_end, st, end);
  } else if (word == "include" || word == "include_next" || word == "import") {
    HeaderName name = read_header_name(s, skip_space(s, word_end), end);
    if (name.form != HeaderName::Form::other || !name.text.empty())
      out.includes.push_back({std::move(name), word == "include_next", sp.line(hash)});
  } else if (word == "define") {
    std::size_t name_begin = skip_space(s, word_end);
    std::size_t name_end = identifier_end(s, name_begin);
    if (name_end == name_begin || at(s, name_end) == '(') return name_end;  // malformed or function-like
    HeaderName value = read_header_name(s, skip_space(s, name_end), end);
    out.defines.emplace(std::string(s.substr(name_begin, name_end - name_begin)), std::move(value));
  }
  return end;
}

bool raw_string_prefix(std::string_view word) {
  return word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
}

// From the first character of an identifier or a number: past it, and past the raw string literal it
// prefixes (R"x(...)x"), whose opening quote is then set in `literal` (npos when there is none). A number's
// digit separators (1'000'000) are no character literal.
std::size_t skip_word(std::string_view s, std::size_t i, std::size_t& literal) {
  literal = std::string_view::npos;
  std::size_t end = identifier_end(s, i);
  if (at(s, end) == '"' && raw_string_prefix(s.substr(i, end - i))) {
    literal = end;
    return skip_raw_string(s, end);
  }
  if (std::isdigit(static_cast<unsigned char>(s[i]))) {
    while (at(s, end) == '\'' && is_identifier_char(at(s, end + 1))) end = identifier_end(s, end + 1);
  }
  return end;
}

std::optional<std::string> read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path normalized(const fs::path& p) {
  return canonical_path(p);
}

bool under_folder(const fs::path& file, const fs::path& folder) {
  fs::path rel = file.lexically_relative(folder);
  return !rel.empty() && *rel.begin() != "..";
}

// The value of a flag given as "-Ifoo" or "-I foo"; advances `i` past a separate value.
std::optional<std::string> flag_value(const std::vector<std::string>& args, std::size_t& i,
                                      std::string_view flag) {
  const std::string& a = args[i];
  if (a == flag) {
    if (i + 1 >= args.size()) return std::nullopt;
    return args[++i];
  }
  if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0) return a.substr(flag.size());
  return std::nullopt;
}

}  // namespace

DirectiveScan scan_directives(std::string_view source) {
  const Spliced sp(source);
  std::string_view s = sp.text;
  DirectiveScan out;
  ScanState st{out, {}, 0, {}};
  bool line_start = true;  // only whitespace and comments so far on this line
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
    } else if (horizontal_space(c)) {
      ++i;
    } else if (c == '/' && at(s, i + 1) == '/') {
      i = std::min(s.find('\n', i), s.size());
    } else if (c == '/' && at(s, i + 1) == '*') {
      i = skip_block_comment(s, i);
    } else if (c == '#' && line_start) {
      line_start = false;
      i = read_directive(sp, i, st);
    } else if (c == '"' || c == '\'') {
      line_start = false;
      i = skip_quoted(s, i);
    } else if (is_identifier_char(c)) {
      line_start = false;
      std::size_t literal = 0;
      i = skip_word(s, i, literal);
    } else {
      line_start = false;
      ++i;
    }
  }
  const unsigned last_line = sp.line(s.empty() ? 0 : s.size() - 1);
  for (ScanState::Open& block : st.open) {
    if (block.guard) continue;
    out.conditionals.emplace_back(block.line, last_line);
    out.branches.push_back(std::move(block.branches));
  }
  return out;
}

bool every_build_reads(const DirectiveScan& scan, const std::vector<unsigned>& lines) {
  const auto& blocks = scan.conditionals;
  // Whether the region strictly between lines `lo` and `hi` reads one of `lines` in every build: one in no
  // block within the region, or one in each branch of a block within it (in no other such block) with an
  // #else.
  std::function<bool(unsigned, unsigned)> reads = [&](unsigned lo, unsigned hi) {
    auto within = [&](std::size_t b) { return lo < blocks[b].first && blocks[b].second < hi; };
    for (unsigned line : lines) {
      if (line <= lo || line >= hi) continue;
      bool nested = false;
      for (std::size_t b = 0; b < blocks.size() && !nested; ++b)
        nested = within(b) && blocks[b].first <= line && line <= blocks[b].second;
      if (!nested) return true;
    }
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      if (!within(b) || b >= scan.branches.size() || !scan.branches[b].has_else) continue;
      bool inner = false;  // inside another block of the region
      for (std::size_t o = 0; o < blocks.size() && !inner; ++o)
        inner =
            o != b && within(o) && blocks[o].first < blocks[b].first && blocks[b].second < blocks[o].second;
      if (inner) continue;
      unsigned from = blocks[b].first;
      bool every = true;
      for (unsigned to : scan.branches[b].lines) {
        every = every && reads(from, to);
        from = to;
      }
      if (every && reads(from, blocks[b].second)) return true;
    }
    return false;
  };
  return reads(0, std::numeric_limits<unsigned>::max());
}

std::string code_only(std::string_view s) {
  std::string out(s);
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < out.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '/' && at(s, i + 1) == '/') {
      std::size_t end = i;
      do {  // a backslash-newline continues the comment on the next line
        end = std::min(s.find('\n', end + 1), s.size());
      } while (end < s.size() && end > 0 && s[end - 1] == '\\');
      blank(i, end);
      i = end;
    } else if (c == '/' && at(s, i + 1) == '*') {
      const std::size_t end = skip_block_comment(s, i);
      blank(i, end);
      i = end;
    } else if (c == '"' || c == '\'') {
      const std::size_t end = skip_quoted(s, i);
      blank(i, end);
      i = end;
    } else if (is_identifier_char(c)) {
      std::size_t literal = 0;
      const std::size_t end = skip_word(s, i, literal);
      if (literal != std::string_view::npos) blank(literal, end);
      i = end;
    } else {
      ++i;
    }
  }
  return out;
}

IncludePaths include_paths(const CompileCommand& command) {
  IncludePaths out;
  std::vector<fs::path> user, system, after;
  auto folder = [&](const std::string& p) { return (command.directory / p).lexically_normal(); };
  const auto& args = command.arguments;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (auto v = flag_value(args, i, "-iquote")) {
      out.quote.push_back(folder(*v));
    } else if (auto v = flag_value(args, i, "-isystem")) {
      system.push_back(folder(*v));
    } else if (auto v = flag_value(args, i, "-idirafter")) {
      after.push_back(folder(*v));
    } else if (auto v = flag_value(args, i, "-include")) {
      out.forced.push_back(*v);
    } else if (auto v = flag_value(args, i, "-imacros")) {
      out.forced.push_back(*v);
    } else if (auto v = flag_value(args, i, "-I")) {
      if (*v != "-") user.push_back(folder(*v));
    } else if (auto v = flag_value(args, i, "-D")) {
      std::size_t eq = v->find('=');
      std::string value = eq == std::string::npos ? "1" : v->substr(eq + 1);
      std::size_t end = 0;
      out.defines.emplace(v->substr(0, eq), read_header_name(value, 0, end));
    }
  }
  out.angle = std::move(user);
  out.angle.insert(out.angle.end(), system.begin(), system.end());
  out.angle.insert(out.angle.end(), after.begin(), after.end());
  return out;
}

std::optional<fs::path> resolve_include(const HeaderName& name, bool next, const fs::path& includer,
                                        const IncludePaths& paths) {
  if (name.form != HeaderName::Form::quoted && name.form != HeaderName::Form::angled) return std::nullopt;
  const fs::path spelled(name.text);
  std::error_code ec;
  if (spelled.is_absolute()) {
    if (!fs::is_regular_file(spelled, ec)) return std::nullopt;
    return normalized(spelled);
  }
  std::vector<const fs::path*> folders;
  const fs::path own = includer.parent_path();
  if (name.form == HeaderName::Form::quoted) {
    folders.push_back(&own);
    for (const auto& f : paths.quote) folders.push_back(&f);
  }
  for (const auto& f : paths.angle) folders.push_back(&f);
  // #include_next searches the folders after the one the including file was found in; when it was not
  // found through them, the first other file of that name.
  bool passed = !next;
  std::optional<fs::path> first_other;
  for (const fs::path* f : folders) {
    const fs::path candidate = *f / spelled;
    if (!fs::is_regular_file(candidate, ec)) continue;
    fs::path found = normalized(candidate);
    // A plain #include of the including file itself (a header that includes its own name under its guard)
    // finds that file; only #include_next looks past it.
    if (next && found == includer) {
      passed = true;
      continue;
    }
    if (passed) return found;
    if (!first_other) first_other = found;
  }
  return next ? first_other : std::nullopt;
}

const DirectiveScan& IncludeGraph::scan(const fs::path& file) {
  auto it = scans_.find(file);
  if (it != scans_.end()) return it->second;
  auto text = read_file(file);
  return scans_.emplace(file, text ? scan_directives(*text) : DirectiveScan{}).first->second;
}

std::optional<fs::path> IncludeGraph::resolve(const HeaderName& name, bool next, const fs::path& includer,
                                              std::size_t paths) {
  // Only a quoted name depends on the includer's folder, only #include_next on the includer itself.
  fs::path from = next                                    ? includer
                  : name.form == HeaderName::Form::quoted ? includer.parent_path()
                                                          : fs::path();
  auto key = std::make_tuple(from, name.text, static_cast<int>(name.form), next, paths);
  auto it = resolved_.find(key);
  if (it != resolved_.end()) return it->second;
  auto found = resolve_include(name, next, includer, paths_[paths]);
  resolved_.emplace(std::move(key), found);
  return found;
}

UnitIncludes IncludeGraph::unit(const CompileCommand& command) {
  IncludePaths paths = include_paths(command);
  std::size_t index = 0;
  while (index < paths_.size() && (paths_[index].quote != paths.quote || paths_[index].angle != paths.angle))
    ++index;
  if (index == paths_.size()) paths_.push_back(paths);

  UnitIncludes out;
  std::vector<fs::path> todo;
  auto visit = [&](const std::optional<fs::path>& file) {
    if (file && out.files.insert(*file).second) todo.push_back(*file);
  };
  visit(command.file);
  for (const auto& forced : paths.forced) {
    std::error_code ec;
    fs::path direct = command.directory / forced;
    if (fs::is_regular_file(direct, ec)) {
      visit(normalized(direct));
    } else {
      visit(resolve({HeaderName::Form::quoted, forced.string()}, false, command.file, index));
    }
  }

  // The header names a macro can expand to, through the definitions of every file read so far and -D;
  // nullopt when one definition is no header name (the include cannot be followed).
  auto expand = [&](const std::string& macro) -> std::optional<std::vector<HeaderName>> {
    std::vector<HeaderName> names;
    std::set<std::string> seen;
    std::vector<std::string> stack{macro};
    while (!stack.empty()) {
      std::string m = stack.back();
      stack.pop_back();
      if (!seen.insert(m).second) continue;
      std::vector<const HeaderName*> values;
      for (auto [b, e] = paths.defines.equal_range(m); b != e; ++b) values.push_back(&b->second);
      for (const auto& f : out.files) {
        for (auto [b, e] = scan(f).defines.equal_range(m); b != e; ++b) values.push_back(&b->second);
      }
      for (const HeaderName* v : values) {
        if (v->form == HeaderName::Form::other) return std::nullopt;
        if (v->form == HeaderName::Form::macro) {
          stack.push_back(v->text);
        } else {
          names.push_back(*v);
        }
      }
    }
    return names;
  };

  std::vector<std::pair<fs::path, IncludeDirective>> macro_includes;
  while (!todo.empty()) {
    while (!todo.empty()) {
      fs::path file = std::move(todo.back());
      todo.pop_back();
      for (const auto& inc : scan(file).includes) {
        if (inc.name.form == HeaderName::Form::macro || inc.name.form == HeaderName::Form::other) {
          macro_includes.emplace_back(file, inc);
        } else {
          visit(resolve(inc.name, inc.next, file, index));
        }
      }
    }
    // Files reached through macros may define more macros: go round until nothing new is reached.
    for (const auto& [file, inc] : macro_includes) {
      auto names = inc.name.form == HeaderName::Form::macro ? expand(inc.name.text) : std::nullopt;
      if (!names) {
        out.unresolved = true;
        continue;
      }
      for (const auto& n : *names) visit(resolve(n, inc.next, file, index));
    }
  }
  return out;
}

Affected affected_units(const std::vector<CompileCommand>& units, const std::set<fs::path>& targets) {
  Affected out;
  out.units.assign(units.size(), false);
  out.unread = targets;
  std::vector<fs::path> config_folders;
  for (const auto& t : targets) {
    if (t.filename() == kConfigFileName) {
      config_folders.push_back(t.parent_path());
      out.unread.erase(t);
    }
  }
  if (targets.empty()) return out;
  IncludeGraph graph;
  for (std::size_t i = 0; i < units.size(); ++i) {
    UnitIncludes reads = graph.unit(units[i]);
    bool hit = reads.unresolved;
    for (const auto& t : targets) {
      if (!reads.files.count(t)) continue;
      hit = true;
      out.unread.erase(t);
    }
    for (const auto& folder : config_folders) {
      if (under_folder(units[i].file, folder)) hit = true;
    }
    out.units[i] = hit;
  }
  return out;
}

}  // namespace emberlint
