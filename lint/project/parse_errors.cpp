#include "lint/project/parse_errors.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "lint/project/known_libraries.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace {

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Headers of SDKs and vendor toolkits that a CI machine often lacks, however the include spells them (the
// table of lint/project/known_libraries.hpp, case ignored).
bool sdk_header(std::string_view name) {
  const KnownLibrary* library = library_of_include(name, true);
  return library && library->sdk;
}

// The name an error is about: "use of undeclared identifier 'blockIdx'" -> blockIdx; clang quotes most
// names, not all ("use of undeclared identifier __cudaPushCallConfiguration"): then the last word.
std::string_view quoted_name(std::string_view message) {
  auto a = message.find('\'');
  if (a == std::string_view::npos) {
    auto space = message.find_last_of(' ');
    return space == std::string_view::npos ? message : message.substr(space + 1);
  }
  auto b = message.find('\'', a + 1);
  return b == std::string_view::npos ? std::string_view() : message.substr(a + 1, b - a - 1);
}

// Names that only a GPU toolkit's headers declare (CUDA, HIP): a unit parsed without the toolkit (clang's
// CUDA host mode with -nocudainc, no CUDA installed) reports them undeclared, which is the missing SDK.
bool gpu_toolkit_name(std::string_view name) {
  static const std::array<std::string_view, 14> kNames = {"threadIdx",     "blockIdx",
                                                          "blockDim",      "gridDim",
                                                          "warpSize",      "dim3",
                                                          "__half",        "half2",
                                                          "__half2",       "atomicAdd",
                                                          "__ldg",         "__shfl_sync",
                                                          "__nv_bfloat16", "__cudaPushCallConfiguration"};
  static const std::array<std::string_view, 9> kPrefixes = {"cuda",  "cublas", "cufft", "curand", "cusparse",
                                                            "__nv_", "__shfl", "hip",   "rocblas"};
  if (std::find(kNames.begin(), kNames.end(), name) != kNames.end()) return true;
  return std::any_of(kPrefixes.begin(), kPrefixes.end(),
                     [&](std::string_view p) { return name.size() > p.size() && name.rfind(p, 0) == 0; });
}

}  // namespace

const std::vector<std::string>& parse_error_causes() {
  static const std::vector<std::string> kCauses = {
      std::string(kCauseMissingSdk), std::string(kCauseMissingGenerated), std::string(kCauseUnsupported),
      std::string(kCauseUnowned), std::string(kCauseOther)};
  return kCauses;
}

bool is_missing_file_error(std::string_view message) {
  return contains(message, "file not found");
}

std::string_view classify_parse_error(std::string_view message, std::string_view source_line) {
  if (is_missing_file_error(message)) {
    // "'foo/bar.h' file not found": the name between the first two quotes.
    if (sdk_header(quoted_name(message))) return kCauseMissingSdk;
    // An angled include names a library's header; a quoted one that is missing is the project's, which the
    // build writes (config.h, version headers, embedded shaders).
    auto directive = source_line.find("include");
    auto angle = source_line.find('<', directive == std::string_view::npos ? 0 : directive);
    auto quote = source_line.find('"', directive == std::string_view::npos ? 0 : directive);
    bool angled = directive != std::string_view::npos && angle != std::string_view::npos &&
                  (quote == std::string_view::npos || angle < quote);
    return angled ? kCauseMissingSdk : kCauseMissingGenerated;
  }
  if ((contains(message, "undeclared identifier") || contains(message, "unknown type name") ||
       contains(message, "no template named") || contains(message, "no member named")) &&
      gpu_toolkit_name(quoted_name(message)))
    return kCauseMissingSdk;
  std::string m = ascii_lower(message);
  static const std::array<std::string_view, 12> kUnsupported = {
      "not supported",     "unsupported",           "not yet supported",       "cannot yet",
      "__builtin_",        "unknown type name '__", "requires target feature", "is not a supported",
      "unknown attribute", "'__attribute__'",       "not implemented",         "objective-c"};
  if (std::any_of(kUnsupported.begin(), kUnsupported.end(),
                  [&](std::string_view p) { return contains(m, p); }))
    return kCauseUnsupported;
  return kCauseOther;
}

std::string unit_parse_cause(const std::vector<ClassifiedError>& errors) {
  for (const auto& e : errors) {
    if (is_missing_file_error(e.message)) return std::string(classify_parse_error(e.message, e.source_line));
  }
  if (errors.empty()) return std::string(kCauseOther);
  return std::string(classify_parse_error(errors.front().message, errors.front().source_line));
}

std::string_view describe_parse_cause(std::string_view cause) {
  if (cause == kCauseMissingSdk) return "missing SDK or system header";
  if (cause == kCauseMissingGenerated) return "missing generated file";
  if (cause == kCauseUnsupported) return "unsupported language feature";
  if (cause == kCauseUnowned) return "error in code the project does not own";
  return "other error";
}

}  // namespace emberlint
