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

// The clang-tidy export format: MainSourceFile, Diagnostics with DiagnosticName, DiagnosticMessage{Message,
// FilePath, FileOffset, Replacements[FilePath, Offset, Length, ReplacementText]}, Level. Each replacement of
// the plan appears once, with the first diagnostic that carries it.
void write_fixes_yaml(std::ostream& out, const std::vector<Diagnostic>& diagnostics, const FixPlan& plan);

}  // namespace emberlint
