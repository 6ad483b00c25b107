// The "ops_interface" section of .emberlint.json: which inventory model reads the code base and where its op
// set is. The lint config loader only checks that the section is an object; analyze validates its contents
// here, with the same kind of errors (file, JSON path, what was expected; exit code 2).
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/name_pattern.hpp"
#include "lint/project/config.hpp"
#include "lint/support/glob.hpp"

namespace emberlint::analyze {

struct MigrationConfig {
  std::filesystem::path dispatch_header;  // absolute; the frontend header the dispatch registry lives in
  std::string dispatch_include;           // how code includes it ("legacy/dispatch.hpp")
  std::filesystem::path dispatch_source;  // absolute; its implementation
  std::string dispatch_namespace;         // "<root of the ops namespace>::dispatch"
};

// Per backend, a list of names or name patterns: "*" holds what applies to every backend.
using PerBackend = std::map<std::string, std::vector<std::string>>;

// registrations: one way a backend registers an op (analyze/model_registrations.cpp).
struct RegistrationForm {
  // call: a macro use or a function, method or constructor call named `name`; registrar: a variable whose
  // class is named `name`, built with the arguments; table: a variable named `name` whose initializer lists
  // entries ({op, creator} or Entry(op, creator)).
  enum class Kind { call, registrar, table };
  Kind kind = Kind::call;
  NamePattern name;                    // with `*` and `{backend}`
  std::size_t op = 0;                  // the argument (table: the entry's field) that names the op
  std::optional<std::size_t> creator;  // the argument that is the creator (class, `new C`, function)
  bool creator_is_template = false;    // registrar: the creator is the class's template argument
  std::optional<std::size_t> device;   // the argument that names the device ...
  std::vector<std::string> device_is;  // ... which must be one of these for the registration to count here
  std::string path;                    // "registrations.cpu[0]", for messages
  // "call REGISTER_CPU_OP (op: argument 2)"
  std::string describe() const;
};

struct OpsConfig {
  // class_ and functions are read by extract.cpp's own walker; model means a registered InventoryModel.
  enum class Shape { class_, functions, model };
  Shape shape = Shape::class_;
  std::string model;           // "interface_class", "functions", "enum_dispatch", "op_classes_methods", ...
  std::filesystem::path file;  // the config file that holds the section, for errors found after parsing

  // interface_class: the abstract interface ("ember::Backend"); ops are its virtual methods (inherited too)
  std::string interface_class;
  // functions: the frontend namespace whose functions are the ops ("legacy::ops"; "" for the global one)
  std::string ops_namespace;
  // functions: the op's name in a frontend function's name ("ggml_{op}"; default "{op}") and in a
  // backend function's name ("{op}_{backend}", "ggml_backend_{backend}_{op}"; default "{op}").
  NamePattern op_names{"{op}"}, implementation_names{"{op}"};
  // enum_dispatch: the enum whose enumerators are the ops ("ggml_op")
  std::string enum_name;
  // op_classes_methods, op_classes_subclasses: the base class of the op classes ("mlx::core::Primitive")
  std::string base_class;
  // op_classes_*: the methods that make a backend's cell (per backend, or "*" for all)
  PerBackend methods;
  // enum_dispatch: the functions that dispatch on the op (a `switch` with `case OP:`) and the predicates
  // that say whether an op is supported, as name patterns per backend (or "*" with `{backend}`)
  PerBackend dispatch, supports;
  // enum_dispatch: calls that make a case a stub when they are all it does (abort-like)
  std::vector<Glob> stub_calls;
  // registrations: per backend (or "*"), the forms that register an op
  std::map<std::string, std::vector<RegistrationForm>> registrations;
  // registrations: the op set as a list of names (string-keyed registries); empty: the enum's enumerators, or
  // without an enum every op some backend registers
  std::vector<std::string> op_list;
  // Per backend, its role: "stubs" (every op throws by design: MLX's no_gpu) or "fallback" (an op it
  // declines, a creator returning null or a predicate saying no, runs elsewhere: MNN's and ggml's GPU
  // backends hand it to the CPU). Absent: an ordinary backend. analyze/roles.cpp applies them.
  std::map<std::string, std::string> roles;
  // The roles ops_interface.roles accepts (docs/config.md documents each; tests/docs probes this list).
  static constexpr std::array<std::string_view, 2> kBackendRoles = {"stubs", "fallback"};
  // op_classes_*: methods (name globs) whose declaration in an op class (or a base between it and `base`)
  // says the caller computes a composite when a backend declines the op (MLX's `use_fallback`): that op's
  // stub and missing cells are fallback.
  std::vector<Glob> fallback_methods;
  // ops to leave out (enumerator or class name globs): sentinels like "*_COUNT", "*_NONE"
  std::vector<Glob> exclude;

  // Where ops are declared; only declarations in these headers are ops. The header is the op's category.
  // The models other than interface_class and functions default to the frontend layer.
  std::vector<Glob> headers;
  // Per backend: the implementing class (class shape) or namespace (functions shape). Optional: by default
  // every class in the backend's folder that derives from the interface, or every function defined there.
  std::map<std::string, std::string> implementations;
  // Calls that make a body a fallback: functions in these namespaces (a composite of frontend ops) and
  // functions whose qualified name matches these globs (host or registry delegation).
  std::vector<std::string> fallback_namespaces;
  std::vector<Glob> fallback_calls;
  // With a compile database: the backend sources outside it that are parsed with flags interpolated from
  // their nearest entry (path globs; `true` is every source). The rest are not parsed: a build that leaves
  // a backend out (no SDK on this machine) costs nothing, and its cells say why they are unknown.
  std::vector<Glob> guess_flags;
  std::optional<MigrationConfig> migration;

  // The names configured for one backend (its own entry, else "*" with `{backend}` substituted).
  std::vector<NamePattern> patterns_for(const PerBackend& map, const std::string& backend) const;
  // The registration forms of one backend (its own entry, else "*"), `{backend}` substituted.
  std::vector<RegistrationForm> forms_for(const std::string& backend) const;
  // A configuration error found after parsing: "<file>: ops_interface.<path>: <what>".
  [[noreturn]] void fail(const std::string& path, const std::string& what) const;
};

// A config with no "ops_interface" section (nor a parent that has one): the project states no inventory.
// `analyze` says so and exits 0; `--migrate`, which needs the interface, reports it as a ConfigError.
struct NoOpsInterface : ConfigError {
  using ConfigError::ConfigError;
};

// Reads "ops_interface" from the config (the nearest file, or the files it inherits from). Throws
// NoOpsInterface when no file has the section, ConfigError when there is no config or it is malformed.
OpsConfig load_ops_config(const Config& config);

}  // namespace emberlint::analyze
