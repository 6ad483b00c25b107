// What changed since a git revision, for `emberlint check --diff REV`: the files changed by the commits
// REV..HEAD, in the index and in the working tree (one `git diff REV`), plus the untracked files, with the
// lines each added or modified. Deleted files are left out.
#pragma once

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace emberlint {

// git is missing, the folder is in no repository, or the revision is unknown: a usage error (exit 2).
struct GitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using LineRanges = std::vector<std::pair<unsigned, unsigned>>;  // [first, last], 1-based, sorted

struct FileChange {
  bool whole = false;  // a new (untracked) file: every line counts as changed
  LineRanges lines;    // the added or modified lines of the new text
};

struct ChangeSet {
  std::filesystem::path top_level;                    // the repository's work tree
  std::map<std::filesystem::path, FileChange> files;  // absolute, normalized paths

  // Whether a finding on lines [first, last] of `file` touches a changed line.
  bool touches(const std::filesystem::path& file, unsigned first, unsigned last) const;
};

// Runs git in `folder` (which may be below the top level). Throws GitError with a message naming the
// problem when git is not on PATH, `folder` is in no git work tree or `rev` names no commit.
ChangeSet git_changes(const std::string& rev, const std::filesystem::path& folder);

// The top level of the git work tree that holds `folder`; `folder` itself when it is in none (or git is
// missing). For paths that code scanning resolves against the repository.
std::filesystem::path repository_top_level(const std::filesystem::path& folder);

// The added or modified lines per new-side path of a `git diff -U0` patch (paths as the patch spells them
// after the "b/" prefix, C-style quoting undone); a deleted file (+++ /dev/null) has no entry.
std::map<std::string, LineRanges> parse_unified_diff(std::string_view patch);

}  // namespace emberlint
