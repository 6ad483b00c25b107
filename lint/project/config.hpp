// .emberlint.json: layers, libraries, tensor types, rule severities, per-file ignores, excludes and flags.
// Found from each file's folder upwards; the nearest wins, and "inherit": true merges it over its parent.
// Every problem is a ConfigError naming the file, the JSON path and what was expected (exit code 2).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lint/compile/configurations.hpp"
#include "lint/severity.hpp"
#include "lint/support/glob.hpp"

namespace emberlint {

inline constexpr const char* kConfigFileName = ".emberlint.json";

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A backend: its folders, and (object form of layers.backends.<name>) what other layers may use of it and
// what it may use of other backends.
struct BackendLayer {
  std::string name;
  std::vector<Glob> globs;           // "paths": its files
  std::vector<Glob> public_headers;  // "public": its headers every layer may include, with what they declare
  std::vector<std::string> uses;     // "uses": backends whose files and libraries it may draw on
  std::vector<Glob> tests;           // "tests": test files of this backend, which may reach into it
  // "interop": the backend's headers for users outside its folders (a constructor from the library's own
  // handle in include/): the backend's public API, in its layer, which every layer may include.
  std::vector<Glob> interop;
  // "compile_database": the build folder (or compile_commands.json) of this backend's own build (a cross
  // build for arm/ sources); its entries for the backend's files replace those of the run's database.
  std::optional<std::filesystem::path> compile_database;
  // "compile_flags": the flags of the backend's sources that no database compiles (the backend's own
  // statement, so its cells are no guess); without them such a source gets its nearest unit's flags.
  std::vector<std::string> compile_flags;
};

struct Library {
  std::string name;
  std::string backend;            // the backend layer that owns it (the first of "backend": [...])
  std::vector<std::string> also;  // further backends it serves ("backend": ["blas", "eigen"])
  std::vector<Glob> headers;      // spelled include names or resolved path suffixes
  std::vector<std::string> namespaces;
  std::vector<Glob> symbols;  // qualified or plain names
};

struct PerFileIgnore {
  Glob glob;
  std::vector<std::string> codes;  // rule codes; "ALL" for every rule
};

// An entry of "expected_parse_errors": files whose units may have parse errors of these causes
// (lint/project/parse_errors.hpp) without failing the run.
struct ExpectedParseErrors {
  Glob glob;
  std::vector<std::string> causes;  // cause classes; "any" for every cause
};

// A rule's entry under "rules": its severity and the options some rules take.
struct RuleSetting {
  std::optional<Severity> severity;
  std::optional<std::string> ops_namespace;  // EL200: the namespace of the ops its fixes call
  std::vector<Glob> allowed_files;           // EL301: files that may extract scalars
  std::vector<Glob> allowed_functions;       // EL301: functions (qualified-name globs) that may
  // EL101 to EL104: also report uses that need only a declaration (Reference::type_only)
  bool report_type_only = false;
};

struct Config {
  std::filesystem::path file;  // the nearest .emberlint.json; empty for the built-in default
  std::filesystem::path root;  // its folder: paths in output are relative to it
  std::vector<Glob> frontend, tests, glue;
  // layers.shared: code compiled into every backend (a backend/common/ folder), judged per configuration.
  std::vector<Glob> shared;
  // "configurations": what selects each backend on a command line (lint/compile/configurations.hpp).
  std::vector<ConfigurationSpec> configurations;
  std::vector<BackendLayer> backends;
  std::vector<Library> libraries;
  std::vector<std::string> tensor_types;
  std::vector<std::string> scalar_extractors;
  std::map<std::string, RuleSetting> rules;  // keyed by rule code
  std::vector<PerFileIgnore> per_file_ignores;
  std::vector<ExpectedParseErrors> expected_parse_errors;
  std::vector<Glob> exclude;
  std::vector<std::string> compile_flags;  // relative include paths already made absolute

  const BackendLayer* backend(const std::string& name) const;
  const ConfigurationSpec* configuration(const std::string& name) const;
  bool excluded(const std::filesystem::path& absolute) const;
  // Whether parse errors of `cause` in the unit of `file` (absolute) are expected here.
  bool expects_parse_error(const std::filesystem::path& file, const std::string& cause) const;
};

// Maps rule names and codes to codes; lets the config validate "rules" keys without knowing the registry.
struct RuleNames {
  virtual ~RuleNames() = default;
  virtual std::optional<std::string> code_of(const std::string& code_or_name) const = 0;
  // The keys of `rules.<code>` besides "severity" that the rule reads (its RuleInfo::options).
  virtual std::vector<std::string> options_of(const std::string& code) const = 0;
};

// Loads configs and caches one effective Config per folder. Thread-safe.
class ConfigLoader {
 public:
  explicit ConfigLoader(const RuleNames& names) : names_(names) {}
  // The effective config for files in `folder` (absolute): the nearest file, merged over parents when it
  // inherits; a default config rooted at `fallback_root` when there is none.
  std::shared_ptr<const Config> for_folder(const std::filesystem::path& folder,
                                           const std::filesystem::path& fallback_root);
  // Loads one explicit file (--config); it does not inherit from folders above it unless it says so.
  std::shared_ptr<const Config> load_file(const std::filesystem::path& file);

 private:
  std::optional<std::filesystem::path> nearest_file(const std::filesystem::path& folder);
  std::shared_ptr<const Config> load_locked(const std::filesystem::path& file);

  const RuleNames& names_;
  std::mutex mutex_;
  std::map<std::filesystem::path, std::shared_ptr<const Config>> by_file_;
  std::map<std::filesystem::path, std::optional<std::filesystem::path>> nearest_;
};

// Parses one config text (JSON with comments) into raw, validated JSON; exposed for tests.
// Throws ConfigError "<file>:<line>:<col>: ..." for syntax errors and "<file>: <json path>: ..." otherwise.
// The name globs one `tensor_types` entry stands for: the entry without a leading "::" and, when
// it names specializations ("ns::Basic<*>"), the template itself ("ns::Basic"). The loader
// checks that each is a valid glob.
std::vector<std::string> tensor_type_patterns(const std::string& entry);

void validate_config_text(const std::string& text, const std::filesystem::path& file, const RuleNames& names);

// The line of a config file where an entry's glob or name is written: after the key's components in order
// (`"layers"`, `"backends"`, `"metal"`), the value as a JSON string; 0 when it is not found. Thread-safe.
unsigned config_line(const std::filesystem::path& config_file, const std::string& key,
                     const std::string& value);

}  // namespace emberlint
