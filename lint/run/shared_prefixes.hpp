// Prefixes that the units of one command share in a cold run (lint/parse/prefix.hpp): `check` and `analyze`
// plan them the same way. Units of one folder, flags, language and compiler, three or more, share one made of
// the headers from outside the project that their project files include outside any #if (found by the
// textual include graph), built on every thread; each unit whose project files agree with it on macros
// (PrefixFit) is given it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/parse/prefix.hpp"
#include "lint/project/config.hpp"

namespace emberlint {

// One unit of a run, as the planning reads it.
struct PrefixUnit {
  const CompileCommand* command = nullptr;
  const Config* config = nullptr;
};

// A command's units that share a prefix: what their project files include from outside the project.
struct PrefixGroup {
  std::vector<std::size_t> units;
  std::vector<std::string> headers;  // `#include <NAME>` names, in the order first met
  std::optional<Prefix> prefix;
};

// A run's prefixes and their folder, removed with them: it must outlive the parses that load them.
class SharedPrefixes {
 public:
  // Plans and builds the prefixes of the units marked in `todo` (on `jobs` threads) and says which prefix
  // each unit loads (none: PrefixUse::prefix is null).
  std::vector<PrefixUse> plan(const std::vector<PrefixUnit>& units, const std::vector<bool>& todo,
                              unsigned jobs, const std::string& resource_dir);
  // How many prefixes were built.
  std::size_t built() const;
  // Why the run parses without some or all prefixes (no folder, too little space); empty if neither.
  std::string note() const { return folder_.note(); }

 private:
  PrefixFolder folder_;
  std::vector<PrefixGroup> groups_;
};

}  // namespace emberlint
