#include "lint/support/hash.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace emberlint {

namespace {

constexpr std::uint64_t kC1 = 0x87c37b91114253d5ull, kC2 = 0x4cf5ad432745937full;

std::uint64_t rotl(std::uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

std::uint64_t fmix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

}  // namespace

std::uint64_t load_le(const unsigned char* p) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

void append_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

void Hash128::block(const unsigned char* p) {
  std::uint64_t k1 = load_le(p), k2 = load_le(p + 8);
  h1_ ^= rotl(k1 * kC1, 31) * kC2;
  h1_ = (rotl(h1_, 27) + h2_) * 5 + 0x52dce729;
  h2_ ^= rotl(k2 * kC2, 33) * kC1;
  h2_ = (rotl(h2_, 31) + h1_) * 5 + 0x38495ab5;
}

Hash128& Hash128::add(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size();
  length_ += n;
  if (pending_size_ > 0) {
    std::size_t take = std::min<std::size_t>(n, 16 - pending_size_);
    std::memcpy(pending_ + pending_size_, p, take);
    pending_size_ += static_cast<unsigned>(take);
    p += take;
    n -= take;
    if (pending_size_ < 16) return *this;
    block(pending_);
    pending_size_ = 0;
  }
  for (; n >= 16; p += 16, n -= 16) block(p);
  std::memcpy(pending_, p, n);
  pending_size_ = static_cast<unsigned>(n);
  return *this;
}

Hash128& Hash128::field(std::string_view bytes) {
  std::string length;
  append_le(length, bytes.size(), 8);
  return add(length).add(bytes);
}

std::string Hash128::digest() const {
  std::uint64_t h1 = h1_, h2 = h2_;
  unsigned char tail[16] = {};
  std::memcpy(tail, pending_, pending_size_);
  if (pending_size_ > 8) h2 ^= rotl(load_le(tail + 8) * kC2, 33) * kC1;
  if (pending_size_ > 0) h1 ^= rotl(load_le(tail) * kC1, 31) * kC2;
  h1 ^= length_;
  h2 ^= length_;
  h1 += h2;
  h2 += h1;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 += h2;
  h2 += h1;
  std::string out;
  append_le(out, h1, 8);
  append_le(out, h2, 8);
  return out;
}

std::string Hash128::hex() const {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : digest()) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

}  // namespace emberlint
