// What a compile command leaves implicit, asked of the compiler that runs it, as clangd's --query-driver
// does: its default language standard (g++ 12 defaults to gnu++17, libclang to C++14 or C++17 depending on
// the version), its target, the macros the command's instruction-set flags define (__AVX2__ for
// -march=haswell) and its system include folders in their order. One query per (compiler, flags that matter),
// shared by every command of a run; a compiler that cannot be queried leaves the command as cleaned, with one
// note.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lint/compile/compile_db.hpp"

namespace emberlint {

// A compiler's answer for one set of flags.
struct DriverFacts {
  std::string standard;  // "-std=gnu++17", empty when the compiler did not say
  std::string target;    // "x86_64-linux-gnu"
  // The system include folders before the compiler's own builtin headers (libstdc++) and after them (the C
  // library), without the builtin folders themselves: libclang brings its own.
  // Not the compiler's builtin folder: its headers are written for that compiler (GCC's omp.h uses attributes
  // clang rejects, and clang's stdatomic.h would defer to GCC's); libomp-dev gives libclang an omp.h.
  std::vector<std::string> includes_before, includes_after;
  std::map<std::string, std::string> macros;  // every predefined macro: name -> value
};

// Reads the output of `COMPILER FLAGS -x LANG -E -dM -v -` (stdout: the #define lines; stderr: the -v
// report); nullopt when it holds no macro definitions (not a GCC-compatible compiler).
std::optional<DriverFacts> parse_driver_output(const std::string& defines, const std::string& report);

// The -std flag that a predefined __cplusplus or __STDC_VERSION__ stands for ("-std=gnu++17").
std::string standard_flag(const std::map<std::string, std::string>& macros, bool cxx);

class DriverQuery {
 public:
  // `enabled` false: nothing is queried (--no-query-driver).
  explicit DriverQuery(bool enabled = true) : enabled_(enabled) {}

  // Adds what `command` leaves implicit to its arguments (a -std it lacks, the target, the instruction-set
  // macros, the system include folders). Commands without a compiler (made from the config), CUDA and
  // Objective-C units are left alone. Thread-safe.
  void complete(CompileCommand& command);

  // One line per compiler that could not be queried, in the order they were met.
  std::vector<std::string> notes() const;

 private:
  // The compiler's answer for these flags, queried once; nullopt when it cannot be asked.
  std::optional<DriverFacts> facts(const std::string& compiler, const std::vector<std::string>& flags,
                                   const std::string& language, const std::filesystem::path& directory);

  bool enabled_;
  mutable std::mutex mutex_;
  std::map<std::string, std::optional<DriverFacts>> answers_;  // by compiler, language and flags
  std::map<std::string, bool> noted_;                          // by compiler
  std::vector<std::string> notes_;
};

}  // namespace emberlint
