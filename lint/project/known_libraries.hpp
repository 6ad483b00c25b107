// The well-known vendor libraries of numeric C and C++ code (BLAS, CUDA, Metal, Vulkan, SIMD intrinsics,
// ...): the one table that `emberlint init` proposes libraries and backends from and that the parse-error
// classifier (lint/project/parse_errors.hpp) reads to tell a missing SDK header from a missing project file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace emberlint {

struct KnownLibrary {
  std::string name;                       // the config's library name: "CUDA"
  std::string backend;                    // the backend name init proposes for it: "cuda"
  std::vector<std::string> folder_words;  // words of a folder name that mean this backend: "cuda"
  std::vector<std::string> headers;       // include globs as the code spells them: "cuda*.h", "cub/**"
  std::vector<std::string> namespaces;    // its C++ namespaces
  std::vector<std::string> symbols;       // globs of its C symbols
  bool sdk = false;  // a toolkit a CI machine often lacks (its missing headers are missing-sdk-header)
};

// Every known library, most specific first (SYCL's CL/sycl.hpp before OpenCL's CL/**).
const std::vector<KnownLibrary>& known_libraries();

// The known library an #include name belongs to (its spelling, as written between the delimiters), or null:
// a header glob matches the whole spelling, or its file name when the glob names files ("cuda*.h").
// `ignore_case`: match the names case-insensitively (the classifier's view of file systems that ignore case).
const KnownLibrary* library_of_include(std::string_view spelled, bool ignore_case = false);

}  // namespace emberlint
