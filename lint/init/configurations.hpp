// What `emberlint init` proposes for a build that picks the backend at compile time: the configurations (the
// same source compiled once per backend folder on -I, each with the macros only that backend's commands
// define) and the shared layer (a folder every backend lists, such as backend/common, when the database
// compiles it per backend). Read off the compile database; discover.hpp's backends say which folders are
// backends.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/init/discover.hpp"

namespace emberlint {

struct ProposedConfiguration {
  std::string name;                  // the backend's
  std::vector<std::string> defines;  // macros each command of it defines and no other backend's does
  std::vector<std::string> include;  // the backend's folder, relative to the root
  std::string why;
};

struct ConfigurationProposal {
  std::vector<ProposedConfiguration> configurations;
  std::vector<std::string> shared;  // globs, moved out of the backends' paths
  std::string shared_why;
  // Per backend: its public headers that include one of its libraries' headers (a constructor from the
  // library's handle for users) or a header of its own folders (an entry header that pulls in its
  // declarations): its interop headers, moved out of `public`, and what each includes ("a.hpp includes
  // <omp.h> (OpenMP)").
  std::map<std::string, std::vector<std::string>> interop, interop_why;
  // Macros named after a backend whose evidence was too weak for a configuration, and why:
  // "LIB_HAVE_CUDA (defined by 1 of 48 commands)".
  std::vector<std::string> not_proposed;
};

// Configurations and the shared layer only when the database compiles some file with two or more backends'
// folders on -I (one per command).
ConfigurationProposal propose_configurations(const std::filesystem::path& root,
                                             const std::vector<CompileCommand>& commands, const Discovery& d);

// Takes the proposal's shared globs out of each backend's paths, and its interop headers out of `public`.
void apply_proposal(const ConfigurationProposal& proposal, Discovery& d);

}  // namespace emberlint
