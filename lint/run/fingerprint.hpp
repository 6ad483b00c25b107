// Location-independent identities of findings, shared by the baseline and SARIF's partialFingerprints.
//
// A fingerprint hashes the rule code, the project-relative path and the whitespace-normalized text of the
// flagged line and its two neighbours; the line number is not part of it, so inserting or removing lines
// elsewhere in the file keeps it, while editing the flagged code (or its immediate context) makes a new one.
// Equal hashes within one result (the same rule twice on one line, or repeated identical code) are told
// apart by an occurrence index in the result's order: "<32 hex digits>:<n>", n from 1. The hash is the
// cache's Hash128 (lint/support/hash.hpp), each input a length-prefixed field.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/diagnostic.hpp"
#include "lint/run/runner.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

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
