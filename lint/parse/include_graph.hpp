// The include graph of translation units, from a fast textual scan: which files a unit reads (its own file
// and every header it includes, directly or transitively), with #include resolved the way the compiler
// searches. `emberlint check --diff` and `--units-of` use it to map changed files to the units that see them.
// It over-approximates on purpose so that a change is never missed: includes in conditional blocks count, and
// an #include MACRO that cannot be followed makes the unit affected by every change.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "lint/compile/compile_db.hpp"

namespace emberlint {

// What an #include names: "x" (quoted), <x> (angled), or macro text to expand.
struct HeaderName {
  enum class Form { quoted, angled, macro, other };
  Form form = Form::other;
  std::string text;  // the name between the delimiters, or the macro text (comments stripped, trimmed)
};

struct IncludeDirective {
  HeaderName name;
  bool next = false;  // #include_next
  unsigned line = 0;  // 1-based
};

// The directives of one file that matter for the graph: its includes and its object-like macro definitions
// (`#define NAME "x.h"` feeds `#include NAME`). Comments and string literals (raw ones too) hide nothing.
struct DirectiveScan {
  std::vector<IncludeDirective> includes;  // #include, #include_next and #import, also in #if blocks
  std::multimap<std::string, HeaderName> defines;
  // The lines of each conditional block, from its #if, #ifdef or #ifndef through its #endif (1-based,
  // inclusive; nested blocks overlap), except the include guard: a file whose first directive is `#ifndef X`
  // or `#if !defined(X)` and whose second is `#define X`. An #if left open counts to the end of the file.
  std::vector<std::pair<unsigned, unsigned>> conditionals;
  // For each block of `conditionals`, in the same order: the lines of its #elif and #else directives, and
  // whether it has an #else (its branches then cover every build).
  struct Branches {
    std::vector<unsigned> lines;
    bool has_else = false;
  };
  std::vector<Branches> branches;
  // The macros the file's #if, #ifdef, #ifndef and #elif conditions name (not `defined` itself), each with
  // its line, in order, and the macros it defines or undefines (function-like ones too, include guards too):
  // what a precompiled prefix of other headers must agree with (lint/parse/prefix.hpp).
  std::vector<std::pair<unsigned, std::string>> tested;
  std::set<std::string> defined;
};
DirectiveScan scan_directives(std::string_view text);

// Whether every build of the file reads one of the includes at `lines` (one library's, say): one outside
// every conditional block, or one in each branch of a block with an #else that every build reads (a platform
// switch: `#ifdef __APPLE__` <OpenCL/cl.h> `#else` <CL/cl.h> `#endif`).
bool every_build_reads(const DirectiveScan& scan, const std::vector<unsigned>& lines);

// The text with its comments and its string and character literals (raw ones too) made spaces, newlines kept:
// the same length and lines, for a textual search that must find code only (`sizeof(` in a comment is none).
std::string code_only(std::string_view text);

// A unit's include search path, in the compiler's order, from its compile command's arguments.
struct IncludePaths {
  std::vector<std::filesystem::path> quote;        // -iquote: for "x" only, after the including file's folder
  std::vector<std::filesystem::path> angle;        // -I, then -isystem, then -idirafter: for both forms
  std::vector<std::filesystem::path> forced;       // -include and -imacros files, as spelled
  std::multimap<std::string, HeaderName> defines;  // -D NAME=VALUE
};
IncludePaths include_paths(const CompileCommand& command);

// Where the compiler finds `name` included from `includer`: the includer's folder first for quoted names,
// then the search path. Nullopt when no folder has it (a system header the search path does not list).
std::optional<std::filesystem::path> resolve_include(const HeaderName& name, bool next,
                                                     const std::filesystem::path& includer,
                                                     const IncludePaths& paths);

// What one translation unit reads.
struct UnitIncludes {
  std::set<std::filesystem::path> files;  // the unit's file and everything it includes, normalized
  // An #include MACRO whose macro expands to something other than a header name (or another such macro):
  // the unit may read any file. A macro no scanned file nor -D defines cannot be active (the compiler
  // would reject the directive), so it adds nothing.
  bool unresolved = false;
};

// Builds units' include sets, scanning each file once and resolving each name once per search path.
class IncludeGraph {
 public:
  UnitIncludes unit(const CompileCommand& command);
  // A file's directives, scanned once (an unreadable file has none).
  const DirectiveScan& scan(const std::filesystem::path& file);

 private:
  std::optional<std::filesystem::path> resolve(const HeaderName& name, bool next,
                                               const std::filesystem::path& includer, std::size_t paths);

  std::map<std::filesystem::path, DirectiveScan> scans_;
  std::vector<IncludePaths> paths_;  // interned search paths: resolutions are cached per index
  std::map<std::tuple<std::filesystem::path, std::string, int, bool, std::size_t>,
           std::optional<std::filesystem::path>>
      resolved_;
};

// Which of `units` read one of `targets` (absolute, normalized files): their own file or an included one,
// or possibly (an include that could not be followed, when there is any target). A target named
// .emberlint.json changes how every file below its folder is linted: it affects every unit there.
struct Affected {
  std::vector<bool> units;                 // parallel to the units given
  std::set<std::filesystem::path> unread;  // targets that no unit reads
};
Affected affected_units(const std::vector<CompileCommand>& units,
                        const std::set<std::filesystem::path>& targets);

}  // namespace emberlint
