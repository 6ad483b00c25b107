// The result cache of `emberlint check`: one entry per translation unit (and per header parsed on its own),
// so that a run over an unchanged tree parses nothing and a changed header re-analyzes only its dependents.
//
// An entry's name is a hash of everything besides file contents that the result depends on (the file, its
// compile arguments and folder, the governing configs, the selected rules, the resource dir, the parse mode,
// the tool and cache-format versions). Inside it: every file the parse read, with its size, modification
// time and a hash of the bytes libclang parsed, and the result (diagnostics with fixes, the failure, the
// project files). A lookup trusts an unchanged size and mtime, tells a changed size at once, and hashes the
// content otherwise, so `touch` keeps an entry valid. Entries carry a checksum (a damaged one is a miss and
// is rewritten) and are written through a temporary file and a rename, so concurrent runs are safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/project/config.hpp"
#include "lint/diagnostic.hpp"
#include "lint/support/hash.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

// A file one result was computed from, as it was then.
struct Dependency {
  std::filesystem::path path;
  std::uint64_t size = 0;
  // -1: not trusted (modified close to the parse, or changed since); the size and content are compared.
  std::int64_t mtime_ns = -1;
  std::string hash;  // Hash128::digest of the bytes the parse read
};

// What one unit's analysis produced: everything the runner keeps of it.
struct UnitResult {
  std::vector<Diagnostic> diagnostics;
  std::optional<Failure> failure;
  std::vector<std::filesystem::path> project_files;
  std::vector<Dependency> dependencies;  // filled by the parse; empty when nothing was read
  std::string payload;                   // a consumer's own result (analyze: the inventory), stored as is
};

// Everything besides file contents that a unit's result depends on.
struct UnitKey {
  std::filesystem::path file, directory;
  std::vector<std::string> arguments;
  const Config* config = nullptr;  // the governing config (its files are hashed)
  std::string rules;               // the selected rule codes
  std::string resource_dir;
  bool skip_bodies = true;  // the parse mode
};

// $XDG_CACHE_HOME/emberlint, else $HOME/.cache/emberlint; nullopt when neither variable is set.
std::optional<std::filesystem::path> default_cache_dir();

// The folder a run caches in: `requested` (--cache-dir) when not empty, else default_cache_dir(), made
// absolute and prepared. When it cannot be used, says so once on `warnings` and returns nullopt: the run
// goes on without a cache.
std::optional<std::filesystem::path> usable_cache_dir(const std::string& requested, std::ostream& warnings);

// Removes the cache folder: emberlint's entries, then the folder itself (kept, with an error, when it holds
// anything else). `removed` counts the entries. An error message, or empty (also when there is no folder).
std::string clean_cache(const std::filesystem::path& dir, std::size_t& removed);

class ResultCache {
 public:
  // Creates the folder and checks that entries can be written there; an error message when not.
  static std::string prepare(const std::filesystem::path& dir);
  // The editor buffers set when the cache is made (lint/support/source_text.hpp) are its view of their files.
  explicit ResultCache(std::filesystem::path dir) : dir_(std::move(dir)), overlays_(current_overlays()) {}

  // The entry's name (32 hex digits) for a key.
  std::string entry_name(const UnitKey& key);
  // The stored result when the entry is intact and every file it was computed from is unchanged; counts a
  // hit or a miss.
  std::optional<UnitResult> load(const std::string& name);
  // What the parse read of one file (`parsed`: the bytes it parsed), for UnitResult::dependencies.
  Dependency dependency(const std::filesystem::path& path, std::string_view parsed);
  // A folder where a file that was not found could appear: the result holds while its listing is the same.
  Dependency folder_dependency(const std::filesystem::path& folder);
  // Records a result computed from a parse that started at `started` (now_ns()). A result is not stored
  // when a file it was computed from changed during the parse. A unit that missed a file depends on the
  // folders where it could appear (folder_dependency), so that file's arrival invalidates it.
  void store(const std::string& name, const UnitResult& result, std::int64_t started);

  std::size_t hits() const { return hits_; }
  std::size_t misses() const { return misses_; }
  // The first problem writing an entry, or empty.
  std::string error() const;

 private:
  struct FileState {
    bool exists = false;
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
    std::optional<std::string> hash;  // of the content on disk, once computed
  };
  FileState state(const std::filesystem::path& path);
  std::string content_hash(const std::filesystem::path& path);
  // Remembers a file's hash for this run when the file is too old to change within its mtime's resolution.
  void remember(const std::filesystem::path& path, const FileState& state);
  bool unchanged(const Dependency& dep);
  std::string config_hash(const Config& config);
  std::filesystem::path entry_path(const std::string& name) const;

  std::filesystem::path dir_;
  std::shared_ptr<const Overlays> overlays_;
  std::atomic<std::size_t> hits_{0}, misses_{0};
  mutable std::mutex mutex_;  // guards the memos and error_
  std::mutex write_mutex_;    // one entry write at a time (write_file_atomically reads the umask)
  std::unordered_map<std::string, FileState> files_;  // by path, as seen first in this run
  std::map<const Config*, std::string> configs_;
  std::string error_;
};

// The folders where the files a unit did not find ("'x.h' file not found") could appear: for each missing
// name and each folder the command searches (and the folder of the file that included it), the deepest
// existing folder on the way to where the file would be. A result depends on their listings
// (folder_dependency).
std::vector<std::filesystem::path> missing_file_folders(const CompileCommand& command,
                                                        const std::vector<ParseError>& errors);

// Nanoseconds since the epoch, the clock file modification times use.
std::int64_t now_ns();

}  // namespace emberlint
