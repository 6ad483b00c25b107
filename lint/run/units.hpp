// Which translation units a run lints, for build systems and CI: the per-unit mode that CMake's
// <LANG>_CLANG_TIDY calls (`emberlint check [OPTIONS] FILE -- COMPILER ARGS...`), clang-tidy's
// --extra-arg/--extra-arg-before, and `--shard K/N`, which splits the units of a run into N parts so that N
// CI jobs lint them in parallel (`emberlint merge` joins their reports: reports/merge.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lint/compile/compile_db.hpp"

namespace emberlint {

struct CheckOptions;
struct Config;

// Per-unit mode needs a compile command and exactly one path, and excludes -p and the unit selections
// (--diff, --units-of). Throws UsageError otherwise.
void check_unit_mode(const CheckOptions& options);

// Takes everything after the first `--` out of `args` (the `--` too): the compile command of per-unit mode,
// verbatim (compiler first). nullopt when there is no `--`; an empty command when nothing follows it.
std::optional<std::vector<std::string>> take_unit_command(std::vector<std::string>& args);

// Adds clang-tidy style extra compiler arguments to a command, cleaned like a database entry's (so
// `--extra-arg-before=--driver-mode=g++`, which CMake passes, is accepted and dropped).
void add_extra_args(CompileCommand& command, const std::vector<std::string>& before,
                    const std::vector<std::string>& after);

// The compile commands of a project: the run's database (-p, when given), with each backend's own
// (layers.backends.<name>.compile_database) standing for it on that backend's files. Throws
// CompileDatabaseError naming the config key of a backend database that cannot be read.
std::vector<CompileCommand> load_project_commands(const Config& config,
                                                  const std::optional<std::filesystem::path>& build_dir);

// The command of a file that no database compiles, from flags a config states (its compile_flags, or a
// backend's), run in `directory`: the file's language arguments (lint/compile/compile_db.hpp), a header read as C++
// unless its extension says otherwise, and a C or Objective-C file compiled by clang without the flags' C++
// standard.
CompileCommand stated_command(const std::filesystem::path& file, const std::filesystem::path& directory,
                              const std::vector<std::string>& flags);

// The command a backend states for a source of its folders (layers.backends.<name>.compile_flags), or
// nullopt when the file is no backend's or its backend states none.
std::optional<CompileCommand> stated_backend_command(const Config& config, const std::filesystem::path& file);

struct Shard {
  unsigned index = 1, count = 1;  // 1-based: the index-th of count parts
};

// "K/N" with 1 <= K <= N. Throws UsageError saying what was expected.
Shard parse_shard(const std::string& text);

// The shard's part of `items` (sorted by path): the items at positions K-1, K-1+N, K-1+2N, ... Round robin
// over the sorted units gives every unit exactly one shard and spreads each folder over all of them.
template <class T>
std::vector<T> take_shard(std::vector<T> items, const Shard& shard) {
  if (shard.count <= 1) return items;
  std::vector<T> out;
  for (std::size_t i = shard.index - 1; i < items.size(); i += shard.count)
    out.push_back(std::move(items[i]));
  return out;
}

}  // namespace emberlint
