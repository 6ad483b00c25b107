// A source file's text with a line index: snippets for the text report, comment scanning for suppressions.
#pragma once

#include <cctype>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace emberlint {

// A letter, digit or underscore: a character of a C/C++ identifier.
inline bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Editor buffers that stand for files on disk (the language server's open documents), by absolute path.
// While they are set, every read of a file by the engine sees the buffer: SourceText::read, each parse
// (libclang's unsaved files) and the result cache's view of the file. One view for the whole process, as an
// editor has one; set it between runs, not during one.
using Overlays = std::map<std::filesystem::path, std::string>;
void set_overlays(std::shared_ptr<const Overlays> overlays);  // nullptr: none
std::shared_ptr<const Overlays> current_overlays();           // nullptr when none are set
// The buffer standing for `path`, or nullptr.
const std::string* overlay_of(const Overlays* overlays, const std::filesystem::path& path);

class SourceText {
 public:
  SourceText() = default;
  explicit SourceText(std::string text);
  // Reads a whole file (its overlay when one is set); nullopt when it cannot be read.
  static std::optional<SourceText> read(const std::filesystem::path& path);

  const std::string& text() const { return text_; }
  std::size_t line_count() const { return line_starts_.size(); }
  // 1-based line without its end-of-line characters; empty past the end.
  std::string_view line(std::size_t line) const;
  // 1-based line and byte column of a byte offset.
  std::pair<std::size_t, std::size_t> position(std::size_t offset) const;
  // Byte offset of a 1-based line and column (clamped to the text).
  std::size_t offset(std::size_t line, std::size_t column) const;

 private:
  std::string text_;
  std::vector<std::size_t> line_starts_;
};

// Offset of the first byte that is not valid UTF-8, or nullopt when the text is valid.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);
// The text with every invalid UTF-8 sequence replaced by U+FFFD, safe to print or put in JSON.
std::string sanitize_utf8(std::string_view text);
// The text with ASCII letters lower-cased (header names, folder words, rule options compared ignoring case).
std::string ascii_lower(std::string_view text);
// The lowercase alphanumeric words of a name: "ggml-cuda" -> ggml, cuda; "LIB_WITH_OPENCL" -> lib, with,
// opencl.
std::vector<std::string> words(std::string_view name);

}  // namespace emberlint
