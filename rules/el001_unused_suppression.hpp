#pragma once

#include <filesystem>
#include <string>

#include "lint/diagnostic.hpp"
#include "lint/findings/suppressions.hpp"

namespace emberlint {

// The EL001 diagnostic for a suppression that suppressed nothing, is malformed, or names an unknown rule.
Diagnostic unused_suppression_diagnostic(const Suppression& s, const std::filesystem::path& file,
                                         const std::string& unknown_rule);

}  // namespace emberlint
