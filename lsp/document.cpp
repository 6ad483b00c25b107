#include "lsp/document.hpp"

#include <algorithm>

#include "lint/support/glob.hpp"

namespace emberlint::lsp {

namespace fs = std::filesystem;

std::string to_string(PositionEncoding encoding) {
  switch (encoding) {
    case PositionEncoding::utf8:
      return "utf-8";
    case PositionEncoding::utf32:
      return "utf-32";
    case PositionEncoding::utf16:
      break;
  }
  return "utf-16";
}

namespace {
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Bytes of the UTF-8 sequence that starts with `lead` (1 for a stray continuation byte: counted alone).
std::size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0 && lead < 0xF8) return 4;
  if (lead >= 0xE0) return lead < 0xF0 ? 3 : 1;
  if (lead >= 0xC0) return 2;
  return 1;
}

// Units of one code point starting with `lead` in the encoding.
std::size_t units(unsigned char lead, std::size_t bytes, PositionEncoding encoding) {
  switch (encoding) {
    case PositionEncoding::utf8:
      return bytes;
    case PositionEncoding::utf32:
      return 1;
    case PositionEncoding::utf16:
      break;
  }
  return lead >= 0xF0 && bytes == 4 ? 2 : 1;  // outside the BMP: a surrogate pair
}

// Byte offsets of the start of line `line` and of its end (before \r\n or \n); the text's end for a line
// past it.
std::pair<std::size_t, std::size_t> line_bounds(std::string_view text, std::size_t line) {
  std::size_t start = 0;
  for (std::size_t l = 0; l < line; ++l) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {text.size(), text.size()};
    start = nl + 1;
  }
  std::size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  if (end > start && text[end - 1] == '\r') --end;
  return {start, end};
}
}  // namespace

std::optional<fs::path> uri_to_path(const std::string& uri) {
  const std::string scheme = "file://";
  if (uri.compare(0, scheme.size(), scheme) != 0) return std::nullopt;
  std::string rest = uri.substr(scheme.size());
  // file://host/path: only an empty host or localhost names this machine.
  std::size_t slash = rest.find('/');
  if (slash == std::string::npos) return std::nullopt;
  std::string host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost") return std::nullopt;
  std::string path;
  for (std::size_t i = slash; i < rest.size(); ++i) {
    if (rest[i] == '?' || rest[i] == '#') break;
    if (rest[i] == '%') {
      if (i + 2 >= rest.size()) return std::nullopt;
      int hi = hex_digit(rest[i + 1]), lo = hex_digit(rest[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      path += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      path += rest[i];
    }
  }
  if (path.find('\0') != std::string::npos) return std::nullopt;
  return fs::path(path).lexically_normal();
}

std::string path_to_uri(const fs::path& path) {
  return file_uri(path);
}

std::size_t offset_of(std::string_view text, Position position, PositionEncoding encoding) {
  auto [start, end] = line_bounds(text, position.line);
  if (encoding == PositionEncoding::utf8) return std::min(end, start + position.character);
  std::size_t at = start, counted = 0;
  while (at < end && counted < position.character) {
    const auto lead = static_cast<unsigned char>(text[at]);
    std::size_t bytes = std::min(sequence_length(lead), end - at);
    counted += units(lead, bytes, encoding);
    at += bytes;
  }
  return at;
}

Position position_of(const SourceText& source, std::size_t offset, PositionEncoding encoding) {
  const std::string& text = source.text();
  offset = std::min(offset, text.size());
  auto [line, column] = source.position(offset);  // the line index: no scan from the text's start
  Position p;
  p.line = line - 1;
  for (std::size_t at = offset - (column - 1); at < offset;) {
    const auto lead = static_cast<unsigned char>(text[at]);
    std::size_t bytes = std::min(sequence_length(lead), offset - at);
    p.character += units(lead, bytes, encoding);
    at += bytes;
  }
  return p;
}

nlohmann::json to_json(Position p) {
  return {{"line", p.line}, {"character", p.character}};
}

Position position_from_json(const nlohmann::json& j) {
  return Position{j.at("line").get<std::size_t>(), j.at("character").get<std::size_t>()};
}

nlohmann::json range_json(Position start, Position end) {
  return {{"start", to_json(start)}, {"end", to_json(end)}};
}

void apply_change(std::string& text, const nlohmann::json& change, PositionEncoding encoding) {
  const std::string& replacement = change.at("text").get_ref<const std::string&>();
  if (!change.contains("range")) {
    text = replacement;
    return;
  }
  const nlohmann::json& range = change.at("range");
  std::size_t begin = offset_of(text, position_from_json(range.at("start")), encoding);
  std::size_t end = offset_of(text, position_from_json(range.at("end")), encoding);
  if (end < begin) std::swap(begin, end);
  text.replace(begin, end - begin, replacement);
}

}  // namespace emberlint::lsp
