// Which units of a configured but unbuilt tree will parse with errors on this machine, and why, before any
// parse: each unit's unconditional #include chain (#includes inside #if blocks are not followed: an SDK
// header included only under `#ifdef USE_MKL` is no error of a build without MKL) is resolved the way the
// compiler searches (lint/parse/include_graph.hpp), and the first name no folder has is the unit's cause,
// classed as the parse-error classifier would class it (lint/project/parse_errors.hpp): a quoted project
// header the build writes (missing-generated-file), an SDK or dependency header that is not installed
// (missing-sdk-header). A database entry whose source does not exist yet (a generated build-info.cpp) is
// missing-generated-file too. `emberlint init` proposes these as `expected_parse_errors`, so that the first
// `check` is green and still strict about every other error.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "lint/compile/compile_db.hpp"

namespace emberlint {

struct ExpectedErrors {
  std::string glob;                 // relative to the root: "src/cuda/**", "common/build-info.cpp"
  std::vector<std::string> causes;  // "missing-generated-file", "missing-sdk-header"
  std::string why;                  // "3 units: <cuda_runtime.h> is not installed here (src/cuda/add.cu)"
};

struct UnbuiltScan {
  std::filesystem::path root;               // absolute
  std::vector<CompileCommand> commands;     // the compile database; empty: `sources` with `fallback_flags`
  std::vector<std::string> sources;         // without a database: the C and C++ sources to lint (relative)
  std::vector<std::string> fallback_flags;  // the compile_flags the config states ("-Iinclude")
  // Whether a file (relative to the root) is excluded: its unit is not linted, its headers still resolve.
  std::function<bool(const std::string&)> excluded;
  // The folders searched last for angled names (the system's); empty: this machine's compiler folders.
  std::vector<std::filesystem::path> system_folders;
};

// The parse errors the linted units of `scan` will have here, as globs with causes, the fewest globs that
// cover them (a folder per unit's folder, lifted to parent folders when there are many). Sorted by glob.
std::vector<ExpectedErrors> expected_unbuilt_errors(const UnbuiltScan& scan);

// This machine's folders of system and compiler headers: /usr/include and its multiarch folder, the C++
// library's, the compiler's own (intrinsics), /usr/local/include.
std::vector<std::filesystem::path> system_header_folders();

}  // namespace emberlint
