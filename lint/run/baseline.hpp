// Baselines: a file of accepted findings, so a run reports only what is new. `--write-baseline FILE` records
// the findings by fingerprint (lint/run/fingerprint.hpp); `--baseline FILE` hides the findings it holds (as a
// multiset: two identical findings need two entries) and reports its entries that match no finding as
// stale, which fails the run until `--prune-baseline` removes them. The file is deterministic JSON:
//   {"tool": "emberlint", "version": "X.Y.Z",
//    "findings": [{"fingerprint": "<32 hex>:<n>", "code": "EL200", "file": "src/x.cpp", "line": 12,
//                  "message": "..."}]}
// sorted by file, line, code and fingerprint; "line" and "message" are informative only.
//
// A run judges only the entries it could have matched: those of a file it checked with the entry's rule
// active there, and those of a file that no longer exists under the checked paths. Entries of other files
// (a run on some paths only, a file that could not be analyzed) or of rules left out (--select, --ignore, a
// rule turned off) are kept as they are: never stale, never pruned, and kept by --write-baseline, which
// replaces only the entries in the run's scope.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace emberlint {

struct CheckResult;

// A baseline that cannot be read, parsed or written: the message names the file (and the JSON path of what
// is wrong). A usage error: exit code 2.
struct BaselineError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct BaselineEntry {
  std::string fingerprint;  // "<32 hex digits>:<n>"
  std::string code;         // "EL200"
  std::string file;         // relative to the project root, '/'-separated
  unsigned line = 0;        // informative only
  std::string message;      // informative only
};

struct Baseline {
  std::string version;  // of the emberlint that wrote it
  std::vector<BaselineEntry> entries;
};

// What the baseline options did to a run (CheckResult::baseline).
struct BaselineOutcome {
  std::string file;                    // as given on the command line
  std::size_t matched = 0;             // findings hidden because the baseline holds them
  std::vector<BaselineEntry> stale;    // entries in the run's scope that match no finding: they fail the run
  std::size_t pruned = 0;              // --prune-baseline: stale entries removed from the file
  std::optional<std::size_t> written;  // --write-baseline: entries the file now holds
};

// The baseline options of `emberlint check`.
struct BaselineOptions {
  std::optional<std::filesystem::path> use;    // --baseline
  std::optional<std::filesystem::path> write;  // --write-baseline
  bool prune = false;                          // --prune-baseline (with --baseline)
  std::vector<std::filesystem::path> paths;    // the checked paths (empty = the project root)
};

// Parses a baseline's text; `name` (the file as given) starts every error message. Throws BaselineError for
// text that is not JSON (with line and column), a wrong type, a missing or unknown key, a malformed or
// duplicate fingerprint.
Baseline parse_baseline(std::string_view text, const std::string& name);
// Reads and parses a baseline file; throws BaselineError when it is missing, unreadable or malformed.
Baseline read_baseline(const std::filesystem::path& file);
// The file's text: sorted entries, two-space indentation, a final newline; the same for the same entries.
std::string baseline_json(const Baseline& baseline);
// Writes the file atomically (a temporary file in the same folder, then a rename; an existing file keeps its
// permissions). Throws BaselineError.
void write_baseline(const std::filesystem::path& file, const Baseline& baseline);

// The entries that record a result's diagnostics, given their fingerprints (one per diagnostic, in order).
std::vector<BaselineEntry> baseline_entries(const CheckResult& result,
                                            const std::vector<std::string>& prints);

// Whether a run could have matched the entry (see the top of this file): its file was checked with the
// entry's rule active, or it no longer exists under the checked paths (empty = the project root).
bool in_scope(const CheckResult& result, const std::vector<std::filesystem::path>& paths,
              const BaselineEntry& entry);

struct BaselineMatch {
  std::vector<std::size_t> fresh;  // indices of the findings the baseline does not hold
  std::vector<std::size_t> stale;  // indices of the entries in scope that match no finding
  std::size_t matched = 0;
};

// Multiset matching on the hash part of the fingerprints: an entry matches one finding with the same hash;
// when a hash has more findings than entries, the later findings are new, when it has more entries than
// findings, the entries with the higher occurrence numbers are stale (if in scope).
BaselineMatch match_baseline(const std::vector<BaselineEntry>& entries,
                             const std::vector<std::string>& prints, const std::vector<bool>& entry_in_scope);

// Checks the options before anything runs, throwing BaselineError (exit 2): --baseline with
// --write-baseline, --prune-baseline without --baseline, a --baseline file that cannot be read or parsed, a
// --write-baseline file that exists but is no baseline, or whose folder does not exist.
void check_baseline_options(const BaselineOptions& options);

// Applies the options to a finished run (after --fix): writes, or matches and maybe prunes, the baseline;
// keeps only the new findings in `result.diagnostics` and fills `result.baseline`. Throws BaselineError.
void apply_baseline(CheckResult& result, const BaselineOptions& options);

}  // namespace emberlint
