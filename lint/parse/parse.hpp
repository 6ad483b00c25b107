// Parsing one compile command with libclang and extracting its TuFacts.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/diagnostic.hpp"
#include "lint/facts.hpp"
#include "lint/libclang/clang.hpp"

namespace emberlint {

class WarmUnits;
struct PrefixUse;

struct ParseOptions {
  std::string resource_dir;
  // Units kept parsed between runs (the language server's), reparsed when parsed again; null: none.
  std::shared_ptr<WarmUnits> warm;
  // Whether a file's code is walked for facts (project files); system and library headers are not.
  std::function<bool(const std::filesystem::path&)> in_project;
  // Skip function bodies in the headers included before the first line of code (the preamble). The
  // preamble is rebuilt per file, so this only pays when those headers have heavy inline code.
  bool skip_preamble_bodies = false;
  // Called once per file the parse read (the main file and every header it included), with the bytes it
  // parsed, also when the file has errors: what a cache needs to tell later whether the result still holds.
  std::function<void(const std::filesystem::path&, std::string_view)> on_input;
  // A batch of headers: the headers its main file includes, each a unit's own file (TuFacts::batch).
  std::vector<std::filesystem::path> batch;
  // Called once per header the parse read, with the file whose #include read it (names as on_input's).
  std::function<void(const std::filesystem::path& includer, const std::filesystem::path& header)> on_include;
  // A precompiled prefix of the headers from outside the project (lint/parse/prefix.hpp) that the unit loads
  // instead of parsing them; null: none. A unit with errors is parsed again without it, so that an error the
  // prefix caused is never reported.
  const PrefixUse* prefix = nullptr;
};

struct ParseResult {
  std::optional<TuFacts> facts;        // empty when the file could not be analyzed
  std::string failure;                 // why not: the first error clang reported, or what failed
  std::filesystem::path failure_file;  // where that error is, when clang said
  unsigned failure_line = 0, failure_column = 0;
  // The first errors clang reported (facts are still extracted from what parsed: a partial unit) and their
  // cause class (lint/project/parse_errors.hpp); empty when the unit parsed cleanly.
  std::vector<ParseError> errors;
  std::string cause;
  // Every file with an error (lexically normal), not only the first errors' files.
  std::set<std::filesystem::path> error_files;
  std::vector<ParseError> missing_includes;  // every "file not found" error
  bool prefixed = false;                     // the result is the parse with ParseOptions::prefix
};

// How a unit is parsed; every libclang parse of emberlint goes through parse_unit.
struct UnitParse {
  // Skip the bodies of the headers before the first line of code (through a precompiled preamble). A unit
  // with an error where its preamble ends (a header that opens a scope the main file closes) is parsed again
  // without one.
  bool skip_preamble_bodies = false;
  // Keep the preprocessing record: macro expansions, inclusion directives and the ranges a disabled #if
  // skipped.
  bool preprocessing_record = true;
  // Attach plain `//` comments to declarations too (the `emberlint-fallback:` marker).
  bool all_comments = false;
  // Leave out the warnings of included files (the errors stay).
  bool quiet_includes = true;
  // Files that stand for theirs on disk (libclang's unsaved files): absolute path and text.
  std::vector<std::pair<std::string, std::string_view>> unsaved;
  // Take the unit from these warm units and reparse it when they hold it, and give it back to them after.
  std::shared_ptr<WarmUnits> warm;
  // Load this precompiled prefix first (-include-pch); empty: none.
  std::filesystem::path include_pch;
  // Parse the main file as a header to be saved as a precompiled prefix (lint/parse/prefix.hpp): every
  // function body skipped, as the preamble's are, and no end-of-unit template instantiation.
  bool prefix_header = false;
};

struct ParsedUnit {
  ParsedUnit() = default;
  ParsedUnit(ParsedUnit&&) noexcept = default;
  ParsedUnit& operator=(ParsedUnit&&) noexcept = default;
  ~ParsedUnit();  // a warm unit goes back to its WarmUnits

  // A warm unit's own index; declared before `tu`, which must go first.
  std::unique_ptr<clang::Index> index;
  clang::TranslationUnit tu;  // empty when libclang could not parse at all
  CXErrorCode error = CXError_Success;
  bool reparsed = false;  // an earlier parse of the same command was reparsed (its preamble reused)
  std::shared_ptr<WarmUnits> warm;
  std::string warm_key;
  explicit operator bool() const { return static_cast<bool>(tu); }
};

// Parsed units kept between runs, as the language server checks the same unit on every edit: parsed again
// with the same command and options, a unit is reparsed (clang_reparseTranslationUnit) on the current
// files and unsaved buffers, reusing its precompiled preamble, so an edit below the includes costs the parse
// of the file's own code. Each unit has an index of its own and is lent to one parse at a time; at most
// `capacity` are kept, the least recently used dropped. Thread-safe.
class WarmUnits : public std::enable_shared_from_this<WarmUnits> {
 public:
  explicit WarmUnits(std::size_t capacity = 6) : capacity_(capacity) {}
  // How many parses reused a unit, and how many parsed anew, since the last call.
  std::pair<std::size_t, std::size_t> take_counts();

 private:
  friend ParsedUnit parse_unit(const clang::Index&, const CompileCommand&, const std::string&,
                               const UnitParse&);
  friend struct ParsedUnit;
  struct Held {
    std::unique_ptr<clang::Index> index;
    clang::TranslationUnit tu;
    std::uint64_t used = 0;
  };
  std::optional<Held> take(const std::string& key);
  void count(bool reparsed);
  // The main files whose preamble cut a scope (parse_unit): parsed whole from then on.
  bool needs_whole(const std::filesystem::path& file);
  void mark_whole(const std::filesystem::path& file);
  void give_back(const std::string& key, std::unique_ptr<clang::Index> index, clang::TranslationUnit tu);

  std::size_t capacity_;
  std::mutex mutex_;
  std::map<std::string, Held> held_;
  std::set<std::filesystem::path> whole_;
  std::uint64_t clock_ = 0;
  std::size_t reparsed_ = 0, parsed_ = 0;
};

// The one call of libclang's parser: the command's arguments (libclang_arguments) with `how`'s options.
ParsedUnit parse_unit(const clang::Index& index, const CompileCommand& command,
                      const std::string& resource_dir, const UnitParse& how);

// Hands each range of a file of the unit that a disabled `#if` removed to `visit`, with the file's path
// (relative names resolved against `directory`) and the removed text, for the files `wanted` accepts (asked
// once per file). A unit that loads a precompiled prefix or preamble holds the ranges of every library header
// in it (Eigen's thousands): only a wanted file's text is read, once, since libclang finds a file's text by
// scanning every source location entry of the unit, the prefix's included.
void for_each_skipped_range(CXTranslationUnit tu, const std::filesystem::path& directory,
                            const std::function<bool(const std::filesystem::path&)>& wanted,
                            const std::function<void(const std::filesystem::path&, std::string_view)>& visit);

// Parses with the given per-thread index. Never throws for bad C++: errors become ParseResult::failure.
ParseResult parse_translation_unit(const clang::Index& index, const CompileCommand& command,
                                   const ParseOptions& options);

// Fills the result's errors (the first few), their cause (lint/project/parse_errors.hpp) and the failure
// fields from the first error clang reported; false when there was none.
bool collect_parse_errors(CXTranslationUnit tu, const std::filesystem::path& directory, ParseResult& result);

// Hands every file the translation unit read (its main file and every header), with the bytes it parsed, to
// `visit`; relative names are resolved against `directory` (the command's).
void for_each_input(CXTranslationUnit tu, const std::filesystem::path& directory,
                    const std::function<void(const std::filesystem::path&, std::string_view)>& visit);
// The same for a unit that loaded `prefix` (null: none): its own files and what it reads through the
// prefix (PrefixUse::inputs), not the prefix's own text nor what only other units include, which libclang
// lists for every unit that loads it.
void for_each_input(CXTranslationUnit tu, const std::filesystem::path& directory, const PrefixUse* prefix,
                    const std::function<void(const std::filesystem::path&, std::string_view)>& visit);

// A file's text as a fix would leave it, with the calls the fix wrote (offsets into `text`).
struct EditedFile {
  std::filesystem::path path;  // absolute
  std::string text;
  std::vector<Replacement::Call> calls;
};

// What went wrong in an edited unit: why (empty when nothing did), and where, when that is in an edited
// file: its index in the files and the byte offset into its edited text.
struct EditProblem {
  std::string why;
  std::size_t file = static_cast<std::size_t>(-1);
  std::size_t offset = 0;
};

// Parses the command again with the edited files standing for theirs on disk (libclang's unsaved files):
// its errors, and the calls of `calls` that do not resolve to the function they name; none when it is sound.
std::vector<EditProblem> check_edited_unit(const clang::Index& index, const CompileCommand& command,
                                           const std::string& resource_dir,
                                           const std::vector<EditedFile>& files);

// The argv (driver first) that parse_translation_unit hands to libclang; exposed for tests and --verbose.
std::vector<std::string> libclang_arguments(const CompileCommand& command, const std::string& resource_dir);

}  // namespace emberlint
