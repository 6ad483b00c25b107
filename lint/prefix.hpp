// A precompiled prefix shared by the units of one command: the headers from outside the project that they
// include (the standard library, a framework's, an SDK's), parsed once with their function bodies skipped, as
// a unit's preamble skips them, and saved as a PCH that each unit loads (-include-pch) instead of parsing
// those headers again. Most of a unit's parse is those headers: loading them is what makes a cold run cheaper
// than a compiler's.
//
// A prefix is the text of its headers before the unit's first line, so a unit loads it only where nothing it
// reads could tell (PrefixFit): no macro that the prefix's files test in an #if is defined or undefined in
// the project files the unit reads, and no macro that they define is tested there before the unit includes a
// header of the prefix that defines it. A unit that has errors with it is parsed again without it
// (ParseOptions::prefix), so an error a prefix caused is never reported.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lint/clang.hpp"
#include "lint/compile_db.hpp"

namespace emberlint {

struct Prefix {
  std::filesystem::path pch;         // the saved prefix
  std::vector<std::string> headers;  // the names it includes, as in `#include <NAME>`, in order
  std::vector<std::string> dropped;  // the names left out: not found, or with errors of their own
  // What the files it read test in their #if conditions; what they define or undefine, per header (parallel
  // to `headers`: the files that header was the first to read) and in all.
  std::set<std::string> tested;
  std::vector<std::set<std::string>> defined_by;
  std::set<std::string> defined;
};

// Builds the prefix of `headers` (names as in `#include <NAME>`) for `command`'s flags and saves it as `pch`,
// its text beside it (`pch` with the extension .hpp, or .h for C). A header that is not found or
// has errors of its own is left out and the rest built again, once. Nullopt, with why in `why`, when no
// header is left, the rest still has errors, or libclang cannot save it.
std::optional<Prefix> build_prefix(const clang::Index& index, const CompileCommand& command,
                                   const std::string& resource_dir, const std::vector<std::string>& headers,
                                   const std::filesystem::path& pch, std::string* why = nullptr);

// Whether a unit reads the prefix's headers as the prefix does, told what its project files do in the order
// the compiler reads them (lint/runner.cpp walks them).
class PrefixFit {
 public:
  explicit PrefixFit(const Prefix& prefix);
  // `#include <NAME>` outside any #if, found outside the project: the macros the prefix says it defines are
  // defined from here on.
  void includes(const std::string& name);
  void defines(const std::string& macro);  // a #define or #undef
  void tests(const std::string& macro);    // a macro an #if condition names
  bool fits() const { return fits_; }

 private:
  const Prefix& prefix_;
  std::set<std::string> available_;
  bool fits_ = true;
};

// A run's folder of prefixes, made in the system's temporary folder on first use and removed with what it
// holds when the run ends.
class PrefixFolder {
 public:
  PrefixFolder() = default;
  PrefixFolder(const PrefixFolder&) = delete;
  PrefixFolder& operator=(const PrefixFolder&) = delete;
  ~PrefixFolder();
  // The folder; empty when it could not be made.
  const std::filesystem::path& path();

 private:
  std::filesystem::path path_;
  bool tried_ = false;
};

}  // namespace emberlint
