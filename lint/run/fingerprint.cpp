#include "lint/run/fingerprint.hpp"

#include <utility>

#include "lint/support/hash.hpp"

namespace emberlint {

namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

std::string normalized_context(const SourceText& text, unsigned line) {
  std::string out;
  for (long l = static_cast<long>(line) - 1; l <= static_cast<long>(line) + 1; ++l) {
    if (l != static_cast<long>(line) - 1) out += '\n';
    if (l < 1 || static_cast<std::size_t>(l) > text.line_count()) continue;
    bool pending_space = false;
    for (char c : text.line(static_cast<std::size_t>(l))) {
      if (blank(c)) {
        pending_space = !out.empty() && out.back() != '\n';
        continue;
      }
      if (pending_space) out += ' ';
      pending_space = false;
      out += c;
    }
  }
  return out;
}

Fingerprinter::Fingerprinter(std::filesystem::path root) : root_(std::move(root)) {}

std::string Fingerprinter::hash(const Diagnostic& d) {
  auto it = files_.find(d.file);
  if (it == files_.end()) it = files_.emplace(d.file, SourceText::read(d.file)).first;
  std::filesystem::path rel = d.file.lexically_relative(root_);
  if (rel.empty() || *rel.begin() == "..") rel = d.file;
  Hash128 h;
  h.field(d.code).field(rel.generic_string());
  // An unreadable file (deleted since the run) still gets a fingerprint: from its message and line.
  if (it->second) {
    h.field(normalized_context(*it->second, d.line));
  } else {
    h.field(d.message).field(std::to_string(d.line));
  }
  return h.hex();
}

std::vector<std::string> fingerprints(const CheckResult& result) {
  Fingerprinter fp(result.root);
  std::map<std::string, int> seen;
  std::vector<std::string> out;
  out.reserve(result.diagnostics.size());
  for (const Diagnostic& d : result.diagnostics) {
    std::string h = fp.hash(d);
    int n = ++seen[h];
    out.push_back(h + ":" + std::to_string(n));
  }
  return out;
}

}  // namespace emberlint
