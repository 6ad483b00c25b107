// Hash128, the stable 128-bit hash of emberlint's result cache (entry names, checksums, file contents) and of
// the findings' fingerprints, and the little-endian byte helpers of both and of the cache's entry format.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace emberlint {

// A stable 128-bit hash: MurmurHash3 x64-128 (seed 0), two 64-bit lanes fed 16 bytes a step, streamed. The
// same value on every platform and run, and fast enough to hash every header a unit reads; not
// cryptographic.
class Hash128 {
 public:
  Hash128& add(std::string_view bytes);
  // Adds the length, then the bytes, so ("ab", "c") and ("a", "bc") differ.
  Hash128& field(std::string_view bytes);
  std::string digest() const;  // 16 raw bytes
  std::string hex() const;     // 32 lowercase hex digits, the digest's bytes in order

 private:
  void block(const unsigned char* p);

  std::uint64_t h1_ = 0, h2_ = 0;
  std::uint64_t length_ = 0;
  unsigned char pending_[16] = {};
  unsigned pending_size_ = 0;
};

// The 8 bytes at `p` as a little-endian number, on any platform.
std::uint64_t load_le(const unsigned char* p);
// Appends the low `bytes` bytes of `v`, least significant first.
void append_le(std::string& out, std::uint64_t v, int bytes);

}  // namespace emberlint
