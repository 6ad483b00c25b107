// What ops_interface names that the headers declaring the ops can confirm, checked before any backend source
// is parsed: a wrong enum or base class (an unqualified `OpType`, a misspelt `Primitve`)
// exits 2 in seconds, with the nearest qualified names, instead of after the parse of every backend.
#pragma once

#include <string>
#include <vector>

#include "analyze/ops_config.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/project/config.hpp"

namespace emberlint::analyze {

// Parses `headers` (the files of ops_interface.headers, with the commands analyze would give them) with
// every function body skipped, and throws ConfigError (the key's JSON path) when the configured enum or
// base class is declared in none of them while a name near it is, or while they all parsed cleanly.
// Headers that do not parse alone and declare nothing near it prove nothing: the full run decides then.
void check_declared_names(const Config& config, const OpsConfig& ops,
                          const std::vector<CompileCommand>& headers, const std::string& resource_dir,
                          unsigned jobs);

}  // namespace emberlint::analyze
