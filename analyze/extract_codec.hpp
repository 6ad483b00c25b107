// An ExtractResult as bytes, for the result cache: a warm `emberlint analyze` of an unchanged tree reads the
// inventory back instead of parsing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analyze/extract.hpp"

namespace emberlint::analyze {

std::string encode_extract_result(const ExtractResult& result);
// nullopt when the bytes are not an encoded result (a damaged or older entry: the caller parses again).
std::optional<ExtractResult> decode_extract_result(std::string_view bytes);

}  // namespace emberlint::analyze
