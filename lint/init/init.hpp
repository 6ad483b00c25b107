#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lint/compile/compile_db.hpp"

namespace emberlint {

// A commented .emberlint.json for the tree at `root`, from what lint/init/discover.hpp finds there (and in
// `commands`, its compile database, when there is one): the layers (frontend, each backend, tests, glue),
// the libraries each backend includes, the tensor type, an inventory model and the folders not to lint, each
// with a comment that says the evidence. A starting point to edit, not a verdict. `entries` is the database's
// own number of entries (load_compile_database's), which its first line states beside the distinct commands.
std::string starter_config(const std::filesystem::path& root,
                           const std::vector<CompileCommand>& commands = {}, std::size_t entries = 0);

}  // namespace emberlint
