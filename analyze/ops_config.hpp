// The "ops_interface" section of .emberlint.json: which shape the code base has and where its op set is.
// The lint config loader only checks that the section is an object; analyze validates its contents here,
// with the same kind of errors (file, JSON path, what was expected; exit code 2).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lint/config.hpp"
#include "lint/glob.hpp"

namespace emberlint::analyze {

struct MigrationConfig {
  std::filesystem::path dispatch_header;  // absolute; the frontend header the dispatch registry lives in
  std::string dispatch_include;           // how code includes it ("legacy/dispatch.hpp")
  std::filesystem::path dispatch_source;  // absolute; its implementation
  std::string dispatch_namespace;         // "<root of the ops namespace>::dispatch"
};

struct OpsConfig {
  enum class Shape { class_, functions };
  Shape shape = Shape::class_;
  // class shape: the abstract interface ("ember::Backend"); ops are its virtual methods (inherited too)
  std::string interface_class;
  // functions shape: the frontend namespace whose functions are the ops ("legacy::ops")
  std::string ops_namespace;
  // Where ops are declared; only declarations in these headers are ops. The header is the op's category.
  std::vector<Glob> headers;
  // Per backend: the implementing class (class shape) or namespace (functions shape). Optional: by default
  // every class in the backend's folder that derives from the interface, or every function defined there.
  std::map<std::string, std::string> implementations;
  // Calls that make a body a fallback: functions in these namespaces (a composite of frontend ops) and
  // functions whose qualified name matches these globs (host or registry delegation).
  std::vector<std::string> fallback_namespaces;
  std::vector<Glob> fallback_calls;
  std::optional<MigrationConfig> migration;
};

// Reads "ops_interface" from the config (the nearest file, or the files it inherits from). Throws
// ConfigError when it is absent or malformed.
OpsConfig load_ops_config(const Config& config);

}  // namespace emberlint::analyze
