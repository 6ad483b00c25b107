// Compile commands: read from compile_commands.json or made from the config's compile_flags, then cleaned
// the way clangd does so that a database written for g++ parses with libclang.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace emberlint {

struct CompileCommand {
  std::filesystem::path file;          // absolute, normalized
  std::filesystem::path directory;     // the working directory of the command
  std::vector<std::string> arguments;  // argv without the compiler and without the input file
  std::string driver = "clang++";      // the clang driver this command runs as
  // The compiler the build runs (argv[0] as written; empty for commands made from the config) and the flags
  // of the original command that change what it leaves implicit (-std, -m*, --target, --sysroot, ...):
  // lint/compile/driver_query.hpp asks that compiler for its defaults with them.
  std::string compiler;
  std::vector<std::string> driver_flags;
  // The object file the command writes, as the database spells it (its `output`, else the `-o` argument;
  // empty when neither): CMake's CMakeFiles/<target>.dir/ in it names the library the source is built into.
  std::string output;
  // The main file's text when it is no file on disk (lint/run/runner.cpp's batch of headers: a unit that only
  // includes them); libclang reads it as an unsaved file.
  std::optional<std::string> contents;
};

struct CompileDatabaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The file -p BUILD_DIR names: BUILD_DIR/compile_commands.json, or BUILD_DIR itself when it is a file.
std::filesystem::path compile_database_path(const std::filesystem::path& build_dir);

// Reads BUILD_DIR/compile_commands.json (or the file itself). Throws CompileDatabaseError with a message
// the user can act on. Sorted by file; a file compiled with several distinct commands (once per backend, with
// other defines) keeps each, in the database's order, and an exact repeat is dropped.
// `entries`, when given, receives the database's own number of entries, the dropped repeats included.
std::vector<CompileCommand> load_compile_database(const std::filesystem::path& build_dir,
                                                  std::size_t* entries = nullptr);

// Parses the text of a compile database; `origin` (the file it came from) starts every error message. Throws
// CompileDatabaseError for text that is not a JSON array of entries with string "directory" and "file" and an
// "arguments" array or a "command" string. Sorted and deduplicated like load_compile_database.
std::vector<CompileCommand> parse_compile_database(std::string_view text, const std::string& origin,
                                                   std::size_t* entries = nullptr);

// Splits a shell command line the way a POSIX shell would for compile commands (quotes and backslashes).
std::vector<std::string> split_command_line(const std::string& command);

// Cleans a full argv (compiler first): resolves the driver, keeps the flags that change how code parses
// (-I, -isystem, -iquote, -idirafter, -include, -D, -U, -std, -x, --target, -f language flags, ...) with
// their arguments, drops everything else (GCC-only flags and their arguments, outputs, dependency files,
// warnings, optimization, the input file). Relative paths stay relative to `directory`, which parsing uses.
CompileCommand clean_command(const std::vector<std::string>& argv, const std::filesystem::path& file,
                             const std::filesystem::path& directory);

// The entry a file with no database entry borrows its flags from: a source of the same stem (foo.hpp ->
// foo.cpp), else of the same language (C, C++, Objective-C(++), CUDA; a header takes any), else any, with the
// longest shared folder prefix, as clangd's interpolating database does; null when the list is empty.
const CompileCommand* nearest_command(const std::vector<CompileCommand>& commands,
                                      const std::filesystem::path& file);

// A command for a file with no database entry: nearest_command's, for this file. Borrowed from a source of
// another language, its -std and -x are dropped and the file's own language and driver are used.
std::optional<CompileCommand> interpolate_command(const std::vector<CompileCommand>& commands,
                                                  const std::filesystem::path& file);

// The clang resource directory matching the loaded libclang (builtin headers such as stddef.h).
// Order: $EMBERLINT_RESOURCE_DIR, next to the libclang shared object, the configure-time value, then
// `clang-<major> -print-resource-dir`. Empty when none has an include/stddef.h.
std::string find_resource_dir();

// The language a source file is parsed as, when its extension is not C or C++: Objective-C (.m),
// Objective-C++ (.mm), and CUDA (.cu) host side only, without a CUDA installation (none is needed to check
// host code; the toolkit's headers then count as a missing SDK). Empty for C and C++.
std::vector<std::string> language_arguments(const std::filesystem::path& file);

// The extensions emberlint reads as headers and as sources (".hpp", ".cpp", ...): the one list, which the
// pre-commit hook's `files:` pattern follows.
const std::vector<std::string>& header_extensions();
const std::vector<std::string>& source_extensions();
bool is_header_path(const std::filesystem::path& p);
bool is_source_path(const std::filesystem::path& p);

}  // namespace emberlint
