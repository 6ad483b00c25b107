// Location-independent identities of findings, shared by the baseline and SARIF's partialFingerprints.
//
// A fingerprint hashes the rule code, the project-relative path and the whitespace-normalized text of the
// flagged line and its two neighbours; the line number is not part of it, so inserting or removing lines
// elsewhere in the file keeps it, while editing the flagged code (or its immediate context) makes a new one.
// Equal hashes within one result (the same rule twice on one line, or repeated identical code) are told
// apart by an occurrence index in the result's order: "<32 hex digits>:<n>", n from 1.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/diagnostic.hpp"
#include "lint/runner.hpp"
#include "lint/source_text.hpp"

namespace emberlint {

// A stable 128-bit hash (two independently seeded 64-bit FNV-1a lanes with a final avalanche), the same on
// every platform and run; not cryptographic.
class StableHash {
 public:
  StableHash& add(std::string_view bytes);
  // Adds the bytes and a separator, so ("ab","c") and ("a","bc") differ.
  StableHash& field(std::string_view bytes);
  std::string hex() const;  // 32 lowercase hex digits

 private:
  std::uint64_t a_ = 0xcbf29ce484222325ull;
  std::uint64_t b_ = 0x84222325cbf29ce4ull;
};

// The flagged line and its neighbours with leading/trailing blanks removed and inner runs of blanks made one
// space; lines past either end of the file are empty.
std::string normalized_context(const SourceText& text, unsigned line);

class Fingerprinter {
 public:
  explicit Fingerprinter(std::filesystem::path root);
  // The hash part (32 hex digits) of a diagnostic's fingerprint; the file is read once and kept.
  std::string hash(const Diagnostic& diagnostic);

 private:
  std::filesystem::path root_;
  std::map<std::filesystem::path, std::optional<SourceText>> files_;
};

// One "<hash>:<n>" per diagnostic of the result, in the result's order.
std::vector<std::string> fingerprints(const CheckResult& result);

}  // namespace emberlint
