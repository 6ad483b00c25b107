// `emberlint lsp`: a Language Server Protocol server over stdio. It publishes the findings of the unit that
// contains each open file (a header: the units that include it, as `check --units-of`), checked on the
// editor's unsaved text on open, on change (debounced) and on save, with the workspace's compile database
// and .emberlint.json; offers each fix-it and a "suppress with a reason" comment as code actions, and the
// rule's documentation on hover. Checks run on a worker thread, so a slow parse never holds up a request;
// the result cache makes an untouched file free. docs/editors.md shows the editor setups.
#pragma once

#include <filesystem>
#include <optional>

#include "lint/findings/rule.hpp"

namespace emberlint::lsp {

struct ServerOptions {
  // -p: the folder with compile_commands.json. Else the client's initializationOptions.buildDir, else the
  // first of ROOT, ROOT/build and ROOT/build/* that has one, else flags from the config.
  std::optional<std::filesystem::path> build_dir;
  std::optional<std::filesystem::path> config_file;  // --config: for every file
  std::optional<std::filesystem::path> cache_dir;    // the result cache; nullopt: none
  // Quiet time after a change before the file is checked (initializationOptions.debounceMs overrides it).
  unsigned debounce_ms = 150;
  unsigned jobs = 0;  // parallel units for a header's includers (0 = all cores)
  // How many of the units that include a header check it (0: all; initializationOptions.headerUnits).
  unsigned header_units = 2;
};

// Serves one client, reading messages from `in` and writing to `out`, until `exit` or the end of input.
// Returns the exit status the protocol asks for: 0 after shutdown and exit, 1 otherwise.
int serve(int in, int out, const ServerOptions& options, const RuleCatalog& rules);

}  // namespace emberlint::lsp
