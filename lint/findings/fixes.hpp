// Fixes: choosing one consistent set of replacements from a check's diagnostics, applying it in place, and
// exporting it as the YAML that clang-apply-replacements reads.
#pragma once

#include <filesystem>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "lint/diagnostic.hpp"

namespace emberlint {

struct FixPlan {
  // Per file, the replacements to make, sorted by offset, none overlapping another.
  std::map<std::filesystem::path, std::vector<Replacement>> edits;
  // Indices (into the diagnostics given to plan_fixes) of the diagnostics whose whole fix is in the plan.
  std::set<std::size_t> fixed;
};

// Takes each diagnostic's fix in order when it is consistent with what was taken before: identical
// replacements are shared (nested operators carry the same rewrite), overlapping ones make the later
// diagnostic's fix wait for the next run.
FixPlan plan_fixes(const std::vector<Diagnostic>& diagnostics);

// Applies the plan file by file, each atomically: the new text goes to a temporary file in the same folder,
// with the original's permissions, which then replaces the original. Returns one message per file that
// could not be fixed (those files are left as they were).
std::vector<std::string> apply_fixes(const FixPlan& plan);

// Writes `text` to `file` atomically the same way (a new file gets 0666 less the umask): an error message
// naming the file, or empty.
std::string write_file_atomically(const std::filesystem::path& file, const std::string& text);

// A killed writer leaves its temporary (".<name>.emberlint-XXXXXX", hidden and with no source extension)
// behind: removes those of `folder` that no live process holds locked. Done for each folder the first time
// write_file_atomically writes into it.
void remove_abandoned_temporaries(const std::filesystem::path& folder);

// Reports (-o, --export-fixes): why `file` cannot be written ("cannot write this file: no such folder 'x'"),
// checked before anything runs; empty when it can be tried.
std::string output_file_problem(const std::filesystem::path& file);
// Writes a report: atomically as write_file_atomically when `file` is a regular file or missing, written
// through when it is a device, pipe or symbolic link (-o /dev/stdout). An error message, or empty.
std::string write_output_file(const std::filesystem::path& file, const std::string& text);

// The clang-tidy export format: MainSourceFile, Diagnostics with DiagnosticName, DiagnosticMessage{Message,
// FilePath, FileOffset, Replacements[FilePath, Offset, Length, ReplacementText]}, Level. Each replacement of
// the plan appears once, with the first diagnostic that carries it.
void write_fixes_yaml(std::ostream& out, const std::vector<Diagnostic>& diagnostics, const FixPlan& plan);

}  // namespace emberlint
