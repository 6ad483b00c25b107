// An editor's view of a file: `file://` URIs, positions in the encoding the client and server agreed on
// (LSP counts columns in UTF-16 code units unless the client offers UTF-8 or UTF-32), and the changes
// `textDocument/didChange` sends (whole text, or a range replaced).
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "lint/support/source_text.hpp"

namespace emberlint::lsp {

enum class PositionEncoding { utf16, utf8, utf32 };
std::string to_string(PositionEncoding encoding);  // "utf-16", as the protocol names it

// A position: 0-based line and character (in the encoding's units).
struct Position {
  std::size_t line = 0, character = 0;
};

// The path of a `file://` URI (percent-decoded), or nullopt for another scheme or a malformed URI.
std::optional<std::filesystem::path> uri_to_path(const std::string& uri);
// The `file://` URI of an absolute path, percent-encoding what RFC 3986 does not allow in a path.
std::string path_to_uri(const std::filesystem::path& path);

// Byte offset of a position in `text`; a character past the end of its line is clamped to the line's end,
// a line past the end to the text's end (as the protocol asks).
std::size_t offset_of(std::string_view text, Position position, PositionEncoding encoding);
// Position of a byte offset (clamped to the text), found through the text's line index.
Position position_of(const SourceText& text, std::size_t offset, PositionEncoding encoding);

// JSON forms.
nlohmann::json to_json(Position p);
Position position_from_json(const nlohmann::json& j);  // throws nlohmann::json::exception when malformed
nlohmann::json range_json(Position start, Position end);

// Applies one entry of didChange's contentChanges: {"text"} replaces everything, {"range", "text"} a range.
// Throws nlohmann::json::exception when the change is malformed.
void apply_change(std::string& text, const nlohmann::json& change, PositionEncoding encoding);

}  // namespace emberlint::lsp
