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

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/libclang/clang.hpp"
#include "lint/support/temp_folder.hpp"

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
  // Every file it read (not its own text), with the bytes read, and for each header (parallel to `headers`)
  // the ones it reaches: a unit that loads the prefix reads those of the headers it includes.
  std::vector<std::pair<std::filesystem::path, std::string>> inputs;
  std::set<std::filesystem::path>
      input_paths;  // the inputs' paths: libclang lists them for every unit loading it
  std::vector<std::vector<std::size_t>> reads;
};

// A prefix as one unit (or batch of headers) loads it: the prefix's inputs it reads through it (indices into
// Prefix::inputs), which the result cache counts among the unit's inputs.
struct PrefixUse {
  const Prefix* prefix = nullptr;
  std::vector<std::size_t> inputs;
};

// Whether a unit reads the prefix's headers as the prefix does, told what its project files do in the order
// the compiler reads them (lint/run/runner.cpp walks them).
class PrefixFit {
 public:
  explicit PrefixFit(const Prefix& prefix);
  // `#include <NAME>` found outside the project: what the prefix says that header reads is read; outside any
  // #if, the macros the prefix says it defines are defined from here on.
  void includes(const std::string& name, bool unconditional);
  void defines(const std::string& macro);  // a #define or #undef
  void tests(const std::string& macro);    // a macro an #if condition names
  bool fits() const { return fits_; }
  // The prefix as the unit loads it (no prefix when it does not fit).
  PrefixUse use() const;

 private:
  const Prefix& prefix_;
  std::set<std::string> available_;
  std::set<std::size_t> reads_;
  bool fits_ = true;
};

// A run's folder of prefixes: `emberlint-prefix-XXXXXX` in the temporary folder, removed with what it holds
// when the run ends, by SIGINT, SIGTERM or SIGHUP too, or by the next run when it was killed
// (lint/support/temp_folder.hpp); and the space its prefixes may take there. A prefix that would not fit is
// not built: its units parse the headers themselves, and note() says why (libclang aborts the process when
// its output stream meets a full disk, so it must never be asked to write what does not fit).
class PrefixFolder {
 public:
  // The folder, made on first use; empty when it could not be made (note() says why).
  const std::filesystem::path& path();
  // Takes `bytes` of the folder's free space for a prefix about to be saved, beside those being saved on
  // other threads, until release(); false (and a note) when they do not fit. Thread-safe.
  bool reserve(std::uintmax_t bytes);
  void release(std::uintmax_t bytes);
  // Why the run parses without some or all prefixes: no folder, or too little space in it; empty if neither.
  std::string note() const;

 private:
  TempFolder folder_{"emberlint-prefix"};
  mutable std::mutex mutex_;
  std::uintmax_t reserved_ = 0, needed_ = 0, available_ = 0;
  std::size_t left_out_ = 0;
};

// Builds the prefix of `headers` (names as in `#include <NAME>`) for `command`'s flags and saves it as
// `<name>.pch` in `folder`, its text beside it (`<name>.hpp`, or .h for C). A header that is not found or
// has errors of its own is left out and the rest built again, once. Nullopt, with why in `why`, when no
// header is left, the rest still has errors, the folder has too little space for it or libclang cannot save
// it.
std::optional<Prefix> build_prefix(const clang::Index& index, const CompileCommand& command,
                                   const std::string& resource_dir, const std::vector<std::string>& headers,
                                   PrefixFolder& folder, const std::string& name, std::string* why = nullptr);

}  // namespace emberlint
