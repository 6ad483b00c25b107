// Why a unit has parse errors, in classes a config can expect: a header of an SDK or system library that is
// not installed (CUDA, Metal, SYCL on a CI machine without them), a file the build generates that is not
// built yet, a language feature or compiler extension libclang does not support, or anything else.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace emberlint {

inline constexpr std::string_view kCauseMissingSdk = "missing-sdk-header";
inline constexpr std::string_view kCauseMissingGenerated = "missing-generated-file";
inline constexpr std::string_view kCauseUnsupported = "unsupported-feature";
inline constexpr std::string_view kCauseOther = "other";
// Errors only in code the project does not own: a vendored folder the config excludes, or a dependency's
// installed headers that this compiler rejects (a test framework's copy that a newer C library breaks).
inline constexpr std::string_view kCauseUnowned = "unowned-code";

// Every cause class, for config validation and messages.
const std::vector<std::string>& parse_error_causes();

// The class of one error: its message ("'cuda_runtime.h' file not found") and the source line it points at
// (`#include <cuda_runtime.h>`, which tells an angled system include from a quoted project one).
std::string_view classify_parse_error(std::string_view message, std::string_view source_line);

// Whether an error is an #include of a file that is not there ("'cuda_runtime.h' file not found").
bool is_missing_file_error(std::string_view message);

struct ClassifiedError {
  std::string message, source_line;
};

// The cause of a unit's errors: the first missing file when one is missing (the errors after it follow from
// it), else the class of the first error; "other" for none.
std::string unit_parse_cause(const std::vector<ClassifiedError>& errors);

// A readable name of a cause ("missing SDK or system header").
std::string_view describe_parse_cause(std::string_view cause);

}  // namespace emberlint
