#include "lint/fingerprint.hpp"

#include <utility>

namespace emberlint {

namespace {

constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

// splitmix64's finalizer: spreads FNV's weak high bits over the whole word.
std::uint64_t avalanche(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

StableHash& StableHash::add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    a_ = (a_ ^ c) * kFnvPrime;
    b_ = (b_ ^ static_cast<unsigned char>(c + 0x5b)) * kFnvPrime;
  }
  return *this;
}

StableHash& StableHash::field(std::string_view bytes) {
  add(bytes);
  const char separator[1] = {'\0'};
  return add(std::string_view(separator, 1));
}

std::string StableHash::hex() const {
  static const char* kDigits = "0123456789abcdef";
  std::string out(32, '0');
  std::uint64_t words[2] = {avalanche(a_), avalanche(b_ ^ (a_ << 1))};
  for (int w = 0; w < 2; ++w) {
    for (int i = 0; i < 16; ++i) out[w * 16 + i] = kDigits[(words[w] >> (60 - 4 * i)) & 0xf];
  }
  return out;
}

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
  StableHash h;
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
