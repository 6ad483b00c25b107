// Inventory extraction: parse the backend (and, for the functions shape, frontend) sources with libclang,
// find the op set of the configured interface and every backend's implementation of each op, and classify
// each implementation's body.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analyze/inventory.hpp"
#include "analyze/ops_config.hpp"
#include "lint/compile_db.hpp"
#include "lint/config.hpp"
#include "lint/diagnostic.hpp"

namespace emberlint::analyze {

struct ExtractInput {
  const Config* config = nullptr;
  const OpsConfig* ops = nullptr;
  std::vector<CompileCommand> commands;  // the translation units to parse
  unsigned jobs = 0;                     // 0 = all cores
  std::string resource_dir;
};

struct ExtractResult {
  Inventory inventory;
  std::vector<Failure> failures;  // units that could not be parsed (exit code 3)
  std::size_t files_analyzed = 0;
};

ExtractResult extract_inventory(const ExtractInput& input);

// The body classification rule, for documentation and tests: a body is a stub when, ignoring empty
// statements and `(void)x;` discards, it is nothing but throw statements, or when it unconditionally
// throws an error whose message says the op is not implemented ("not implemented", "unimplemented",
// "not yet implemented", "not supported"). It is a fallback when it calls a function of a configured
// fallback namespace (a composite of frontend ops), a function matching a configured fallback call (host or
// registry delegation), another op of the interface (a composite of the backend's own ops), another
// backend's implementation, or when a comment attached to it says `emberlint-fallback:`. Otherwise native.
bool says_not_implemented(std::string_view message);

}  // namespace emberlint::analyze
