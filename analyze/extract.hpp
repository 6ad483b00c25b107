// Inventory extraction: parse the backend (and, for the functions shape, frontend) sources with libclang,
// find the op set of the configured interface and every backend's implementation of each op, and classify
// each implementation's body.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analyze/inventory.hpp"
#include "analyze/ops_config.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/diagnostic.hpp"
#include "lint/project/config.hpp"
#include "lint/run/cache.hpp"
#include "lint/run/runner.hpp"

namespace emberlint::analyze {

struct ExtractInput {
  const Config* config = nullptr;
  const OpsConfig* ops = nullptr;
  std::vector<CompileCommand> commands;  // the translation units to parse
  std::vector<std::string> guesses;      // per command: why its flags are a guess ("" when they are not)
  // Backend sources that were not parsed, and why (outside the compile database, no guess allowed): a
  // missing cell of an op one of them names is unknown.
  std::vector<std::pair<std::filesystem::path, std::string>> unparsed;
  // The functions shape: a command for each backend header, parsed on its own when no unit read it and it
  // names an op (its definitions are seen nowhere else).
  std::vector<CompileCommand> headers_alone;
  unsigned jobs = 0;  // 0 = all cores
  std::string resource_dir;
  ResultCache* cache = nullptr;  // when set, every unit's inputs are recorded as dependencies
  bool shared_prefix = true;     // units of one command share a precompiled prefix (--no-shared-prefix: not)
};

struct ExtractResult {
  Inventory inventory;
  std::vector<Failure> failures;  // units that could not be parsed (exit code 3)
  std::size_t files_analyzed = 0;
  // The parses this extraction made (none when it came from the cache): units, the headers parsed alone for
  // their bodies, the shared prefixes built and the units that loaded one.
  ParseCounts parses;
  // With ExtractInput::cache: every file the parses read and every folder where a missing file could appear;
  // `cacheable` is false when a source could not even be read.
  std::vector<Dependency> dependencies;
  bool cacheable = true;
};

ExtractResult extract_inventory(const ExtractInput& input);

}  // namespace emberlint::analyze
