// Configurations: a build that picks its backend at compile time compiles the same source once per backend
// (`-DLIB_CPU -Isrc/backend/cpu`, `-DLIB_OPENCL -Isrc/backend/opencl`). Each such command belongs to a
// configuration, which the config states by the macros and include folders that select it
// (`configurations` in .emberlint.json, docs/config.md). `emberlint check` lints a source once per
// configuration that compiles it, and every finding says which configurations it holds in.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/diagnostic.hpp"
#include "lint/support/glob.hpp"

namespace emberlint {

// One entry of `configurations`: what selects it on a command line, and the backend it selects.
struct ConfigurationSpec {
  std::string name;
  // The layers.backends entry this configuration compiles in ("cpu"); empty: none (a configuration that only
  // varies the frontend's flags).
  std::string backend;
  // Macros the command defines: "LIB_CPU" (any value) or "LIB_CPU=1" (that value).
  std::vector<std::string> defines;
  // Folders on the command's include path (-I, -isystem, -iquote, -idirafter), as globs of the folder
  // relative to the config: "src/backend/cpu".
  std::vector<Glob> include;

  // How many of its selectors a command meets, when it meets all of them; 0 when it misses one.
  std::size_t matches(const std::set<std::string>& command_defines,
                      const std::vector<std::filesystem::path>& command_includes) const;
  // "-DLIB_CPU and -I src/backend/cpu", for messages.
  std::string describe() const;
};

// The macros a command defines when it starts ("NAME" and "NAME=VALUE" for each -D, without those a later
// -U removes) and its include folders (absolute, normalized, in command order).
std::set<std::string> command_defines(const CompileCommand& command);
std::vector<std::filesystem::path> command_include_folders(const CompileCommand& command);

// The configuration of a command: the spec that it meets with the most selectors (the first declared on a
// tie); null when it meets none.
const ConfigurationSpec* configuration_of(const CompileCommand& command,
                                          const std::vector<ConfigurationSpec>& specs);

// A unit to lint: one command of a file, and the configuration it stands for (empty: none).
struct ConfiguredUnit {
  CompileCommand command;
  std::string configuration;
};

// What the run lints of a compile database's commands, with what it says about them.
struct ConfigurationPlan {
  std::vector<ConfiguredUnit> units;  // by file, then in the database's order
  // Units per configuration ("" for the units of no configuration); every declared configuration has an
  // entry, 0 when the database compiles nothing in it. Empty when no configuration is declared.
  std::map<std::string, std::size_t> units_per_configuration;
  std::vector<std::string> notes;     // what was merged or left out, and why
  std::vector<std::string> warnings;  // a declared configuration that no command selects
};

// Groups the commands (one file's in the database's order, sorted by file) by configuration: each file is
// linted once per configuration that compiles it, with the first command of that configuration. Commands of
// one file and configuration that differ in other flags are one unit, with a note; with no configuration
// declared, a file compiled by several commands is linted with the first, and a note says how many files
// that leaves partly unchecked. `root` makes the paths of the notes relative; `config_file` names the config
// in warnings.
ConfigurationPlan plan_configurations(const std::vector<CompileCommand>& commands,
                                      const std::vector<ConfigurationSpec>& specs,
                                      const std::filesystem::path& root,
                                      const std::filesystem::path& config_file);

// Marks each finding with the configuration of the unit that found it (none for "").
void mark_configuration(std::vector<Diagnostic>& diagnostics, const std::string& configuration);

// Findings of one key (file, place, rule, message) found in several configurations become one, holding the
// union of their configurations (sorted); the rest keep their order.
void merge_configurations(std::vector<Diagnostic>& diagnostics);

// "cpu, opencl": the configurations of a finding, in the order given.
std::string join_configurations(const std::vector<std::string>& names);

}  // namespace emberlint
