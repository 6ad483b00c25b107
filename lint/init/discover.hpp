// What `emberlint init` reads off a tree before it writes a config: which folders are backends (sibling
// folders named after a backend or an architecture, or the children of a backend/ folder), which well-known
// vendor libraries (lint/project/known_libraries.hpp) each folder's files include, the frontend (the rest of
// the library code), tests, example and tool folders, the folders not to lint (build trees, vendored code,
// submodules), the tensor type (a class with tensor members the frontend takes) and an inventory model. Each
// proposal carries its evidence in words, which init writes as a comment next to it. A textual scan: fast on
// any tree, and it needs neither a build nor a parse.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/project/known_libraries.hpp"

namespace emberlint {

struct ProposedBackend {
  std::string name;                         // "cuda"
  std::vector<std::string> paths;           // globs relative to the root: "src/ggml-cuda/**"
  std::string why;                          // "src/ggml-cuda/: 12 files include <cuda_runtime.h>"
  std::size_t files = 0;                    // C and C++ files under its own folder
  std::vector<std::string> public_headers;  // frontend headers named after it, its API: "include/ggml-cuda.h"
  // The macro every command of its sources defines and that names it (`GKO_COMPILING_OMP`, `DEVICE=omp` for
  // omp/): the build selects this backend with it; empty when none does.
  std::string selected_by;
  // Its own test files (tests named after it: "test/test_fftw.cpp"), which may reach into it.
  std::vector<std::string> tests;
  // The backends it extends (its classes derive from theirs: a CPU platform built on the reference one),
  // whose files and libraries it may use, and why.
  std::vector<std::string> uses;
  std::string uses_why;
};

struct ProposedLibrary {
  const KnownLibrary* library = nullptr;
  std::vector<std::string> backends;  // the backend(s) whose folders include it
  std::string why;
};

struct ProposedModel {
  std::string model;  // registrations, enum_dispatch, op_classes_subclasses, op_classes_methods
  std::vector<std::pair<std::string, std::string>> keys;  // key and its JSON value, in order
  std::string why;
};

struct Discovery {
  std::string
      read;  // what was read: "412 C and C++ files under the folder" (init adds the database's entries)
  std::vector<std::string> frontend, tests, glue, exclude;
  std::string frontend_why, tests_why, glue_why, exclude_why;
  std::vector<ProposedBackend> backends;
  std::vector<ProposedLibrary> libraries;
  std::vector<std::string> notes;  // what a maintainer should look at: vendor headers outside backends
  std::string tensor_type, tensor_why;
  std::optional<ProposedModel> model;
  // Without a model: the candidates whose evidence was too weak, and why ("enum ns::E (31 enumerators):
  // ...").
  std::vector<std::string> model_rejected;
  std::vector<std::string> include_folders;  // for compile_flags when there is no database: "include", "src"
  // The macros the database's commands define (-D) that the library code (frontend and backend files) tests
  // in an #if, #ifdef, #ifndef or #elif: macro -> where ("" the frontend, else a backend's name) -> how many
  // files there do.
  std::map<std::string, std::map<std::string, std::size_t>> tested_macros;
  // Frontend headers that only backends include and that pick each backend's code by the macros the build
  // selects backends with (`#if defined LIB_COMPILING_CUDA ... #else`): code compiled into every backend, for
  // `shared` when the build has configurations; and why.
  std::vector<std::string> shared_files;
  std::string shared_files_why;
};

// Reads the tree under `root`; `commands` (a compile database, may be empty) adds its units' folders and
// test targets to the evidence.
Discovery discover(const std::filesystem::path& root, const std::vector<CompileCommand>& commands);

}  // namespace emberlint
