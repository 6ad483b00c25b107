// The kernel of host/sort_kernels.hpp: an AVX-512 quicksort of 32-bit unsigned keys. The values become keys
// as the first partition reads them and keys become values again as the last step of each range stores
// them, so the values are read and written once more than the partitions need and no more.
#include "host/sort_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <exception>
#include <thread>
#include <utility>

#include "host/host_memory.hpp"
#include "host/parallel.hpp"
#include "host/simd_targets.hpp"
#include "host/vector_kernels.hpp"

namespace ember::host {

namespace {

#if EMBER_HAVE_SIMD_LEVELS
// GCC 12 warns inside its own intrinsics (their _mm512_undefined_epi32 source, GCC bug 105593).
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#define EMBER_SORT_INLINE EMBER_TARGET_AVX512 inline __attribute__((always_inline))

using u32 = std::uint32_t;
using i64 = std::int64_t;

// key = (bits ^ (sign-spread(bits) & flip)) ^ constant, and back: the flip of a negative float's magnitude
// bits (flip 0x7fffffff) or nothing (integers), then the constant (the sign bit for ascending float32 and
// int32, all bits for descending uint32, ...). flip never touches the sign bit, so the inverse reads the
// sign from the key with the constant undone.
struct Keying {
  __m512i flip, constant;
  bool check;  // float32: NaN and -0 have no exact key
};

EMBER_SORT_INLINE __m512i to_key(__m512i bits, const Keying& k) {
  const __m512i spread = _mm512_srai_epi32(bits, 31);
  return _mm512_xor_si512(_mm512_xor_si512(bits, _mm512_and_si512(spread, k.flip)), k.constant);
}
EMBER_SORT_INLINE __m512i from_key(__m512i key, const Keying& k) {
  const __m512i u = _mm512_xor_si512(key, k.constant);
  return _mm512_xor_si512(u, _mm512_and_si512(_mm512_srai_epi32(u, 31), k.flip));
}
// Lanes holding a NaN or -0 (float32 only).
EMBER_SORT_INLINE __mmask16 inexact(__m512i bits, const Keying& k, __mmask16 lanes) {
  if (!k.check) return 0;
  const __m512i magnitude = _mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff));
  return static_cast<__mmask16>(
      (_mm512_cmpgt_epu32_mask(magnitude, _mm512_set1_epi32(0x7f800000)) |
       _mm512_cmpeq_epu32_mask(bits, _mm512_set1_epi32(static_cast<int>(0x80000000u)))) &
      lanes);
}

EMBER_SORT_INLINE __mmask16 first_lanes(i64 count) {
  return count >= 16 ? __mmask16(0xffff) : count <= 0 ? __mmask16(0) : __mmask16((1u << count) - 1);
}

// ---- bitonic networks in registers ------------------------------------------------------------------------

// The lanes of vector v of a 16 * NV-key bitonic network that take the larger key at step (k, j), j < 16.
constexpr std::uint16_t max_lanes(int v, int k, int j) {
  std::uint16_t m = 0;
  for (int lane = 0; lane < 16; ++lane) {
    const int e = 16 * v + lane;
    if (((e & j) != 0) != ((e & k) != 0)) m = static_cast<std::uint16_t>(m | (1u << lane));
  }
  return m;
}
// x with lane i moved to lane i ^ j.
template <int J>
EMBER_SORT_INLINE __m512i lanes_xor(__m512i x) {
  if constexpr (J == 1) return _mm512_shuffle_epi32(x, _MM_PERM_CDAB);
  if constexpr (J == 2) return _mm512_shuffle_epi32(x, _MM_PERM_BADC);
  if constexpr (J == 4) return _mm512_shuffle_i32x4(x, x, _MM_SHUFFLE(2, 3, 0, 1));
  if constexpr (J == 8) return _mm512_shuffle_i32x4(x, x, _MM_SHUFFLE(1, 0, 3, 2));
}
template <int NV, int K, int J, int V>
EMBER_SORT_INLINE void network_step(__m512i* a) {
  if constexpr (J >= 16) {
    constexpr int W = V ^ (J / 16);
    if constexpr (W > V) {
      const __m512i lo = _mm512_min_epu32(a[V], a[W]), hi = _mm512_max_epu32(a[V], a[W]);
      const bool ascending = ((16 * V) & K) == 0;
      a[V] = ascending ? lo : hi;
      a[W] = ascending ? hi : lo;
    }
  } else {
    const __m512i p = lanes_xor<J>(a[V]);
    a[V] = _mm512_mask_blend_epi32(max_lanes(V, K, J), _mm512_min_epu32(a[V], p), _mm512_max_epu32(a[V], p));
  }
}
template <int NV, int K, int J, int... V>
EMBER_SORT_INLINE void network_steps(__m512i* a, std::integer_sequence<int, V...>) {
  (network_step<NV, K, J, V>(a), ...);
}
template <int NV, int K, int J>
EMBER_SORT_INLINE void network_merge(__m512i* a) {
  network_steps<NV, K, J>(a, std::make_integer_sequence<int, NV>{});
  if constexpr (J > 1) network_merge<NV, K, J / 2>(a);
}
// Sorts the 16 * NV keys of a[0, NV) ascending, vector by vector then lane by lane.
template <int NV, int K = 2>
EMBER_SORT_INLINE void bitonic_sort(__m512i* a) {
  network_merge<NV, K, K / 2>(a);
  if constexpr (K < 16 * NV) bitonic_sort<NV, 2 * K>(a);
}

// Sorts in[0, n), n <= 16 * NV, into out as values: keys already (kValues false) or values made keys here
// (then false, with nothing stored, when one of them has no exact key).
template <int NV, bool kValues>
EMBER_SORT_INLINE bool sort_in_registers(const u32* in, u32* out, i64 n, const Keying& k) {
  __m512i a[NV];
  const __m512i pad = _mm512_set1_epi32(-1);
  __mmask16 bad = 0;
  for (int v = 0; v < NV; ++v) {
    const __mmask16 lanes = first_lanes(n - 16 * v);
    a[v] = _mm512_mask_loadu_epi32(pad, lanes, in + 16 * v);
    if constexpr (kValues) {
      bad = static_cast<__mmask16>(bad | inexact(a[v], k, lanes));
      a[v] = _mm512_mask_mov_epi32(pad, lanes, to_key(a[v], k));
    }
  }
  if (bad != 0) return false;
  bitonic_sort<NV>(a);
  for (int v = 0; v < NV; ++v)
    _mm512_mask_storeu_epi32(out + 16 * v, first_lanes(n - 16 * v), from_key(a[v], k));
  return true;
}

inline constexpr i64 kRegisterSortMax = 256;

template <bool kValues>
EMBER_TARGET_AVX512 bool sort_small(const u32* in, u32* out, i64 n, const Keying& k) {
  if (n <= 16) return sort_in_registers<1, kValues>(in, out, n, k);
  if (n <= 32) return sort_in_registers<2, kValues>(in, out, n, k);
  if (n <= 64) return sort_in_registers<4, kValues>(in, out, n, k);
  if (n <= 128) return sort_in_registers<8, kValues>(in, out, n, k);
  return sort_in_registers<16, kValues>(in, out, n, k);
}

// ---- partitions -------------------------------------------------------------------------------------------

// The keys of v (its lanes `lanes`) below pivot (kStrict) or not above it to out[left, ...), the others to
// out[..., right), each side in order; values made keys first when kValues, their inexact lanes added to bad.
template <bool kStrict, bool kValues>
EMBER_SORT_INLINE void partition_vector(__m512i v, __mmask16 lanes, __m512i pivot, const Keying& k, u32* out,
                                        i64& left, i64& right, __mmask16& bad) {
  if constexpr (kValues) {
    bad = static_cast<__mmask16>(bad | inexact(v, k, lanes));
    v = to_key(v, k);
  }
  const __mmask16 low = static_cast<__mmask16>(
      (kStrict ? _mm512_cmplt_epu32_mask(v, pivot) : _mm512_cmple_epu32_mask(v, pivot)) & lanes);
  const __mmask16 high = static_cast<__mmask16>(~low & lanes);
  const unsigned nl = static_cast<unsigned>(std::popcount(static_cast<unsigned>(low)));
  const unsigned nh = static_cast<unsigned>(std::popcount(static_cast<unsigned>(high)));
  _mm512_mask_storeu_epi32(out + left, static_cast<__mmask16>((1u << nl) - 1),
                           _mm512_maskz_compress_epi32(low, v));
  left += nl;
  right -= nh;
  _mm512_mask_storeu_epi32(out + right, static_cast<__mmask16>((1u << nh) - 1),
                           _mm512_maskz_compress_epi32(high, v));
}

// Moves in[0, n) to out: the keys below pivot (kStrict) or not above it to out[0, m), in order, the others to
// out[m, n); returns m. kValues: in holds values, made keys here; -1 when one of them has no exact key.
template <bool kStrict, bool kValues>
EMBER_TARGET_AVX512 i64 partition(const u32* in, u32* out, i64 n, u32 pivot, const Keying& k) {
  const __m512i p = _mm512_set1_epi32(static_cast<int>(pivot));
  i64 left = 0, right = n, i = 0;
  __mmask16 bad = 0;
  for (; i + 16 <= n; i += 16) {
    partition_vector<kStrict, kValues>(_mm512_loadu_si512(in + i), 0xffff, p, k, out, left, right, bad);
  }
  if (i < n) {
    const __mmask16 lanes = first_lanes(n - i);
    partition_vector<kStrict, kValues>(_mm512_maskz_loadu_epi32(lanes, in + i), lanes, p, k, out, left, right,
                                       bad);
  }
  return bad != 0 ? -1 : left;
}

// The median of 16 keys spread over in[0, n) (values made keys when kValues).
template <bool kValues>
EMBER_TARGET_AVX512 u32 pick_pivot(const u32* in, i64 n, const Keying& k) {
  alignas(64) u32 sample[16];
  for (int i = 0; i < 16; ++i) sample[i] = in[n / 16 * i + n / 32];
  __m512i a[1] = {_mm512_load_si512(sample)};
  if constexpr (kValues) a[0] = to_key(a[0], k);
  bitonic_sort<1>(a);
  _mm512_store_si512(sample, a[0]);
  return sample[8];
}

EMBER_TARGET_AVX512 void store_values(const u32* keys, u32* out, i64 n, const Keying& k) {
  for (i64 i = 0; i < n; i += 16) {
    const __mmask16 lanes = first_lanes(n - i);
    _mm512_mask_storeu_epi32(out + i, lanes, from_key(_mm512_maskz_loadu_epi32(lanes, keys + i), k));
  }
}

EMBER_TARGET_AVX512 void fill_value(u32 key, u32* out, i64 n, const Keying& k) {
  const __m512i v = from_key(_mm512_set1_epi32(static_cast<int>(key)), k);
  for (i64 i = 0; i < n; i += 16) _mm512_mask_storeu_epi32(out + i, first_lanes(n - i), v);
}

// Sorts the keys a[0, n) into out as values; b is scratch of n keys.
EMBER_TARGET_AVX512 void sort_keys(u32* a, u32* b, i64 n, u32* out, const Keying& k, int depth) {
  if (n <= kRegisterSortMax) {
    sort_small<false>(a, out, n, k);
    return;
  }
  if (depth == 0) {  // many bad pivots: the comparison sort bounds the time
    std::sort(a, a + n);
    store_values(a, out, n, k);
    return;
  }
  const u32 pivot = pick_pivot<false>(a, n, k);
  i64 m = partition<true, false>(a, b, n, pivot, k);
  if (m == 0) {  // the pivot is the least key: the keys equal to it are done, the larger ones sorted
    m = partition<false, false>(b, a, n, pivot, k);
    fill_value(pivot, out, m, k);
    sort_keys(a + m, b + m, n - m, out + m, k, depth - 1);
    return;
  }
  sort_keys(b, a, m, out, k, depth - 1);
  sort_keys(b + m, a + m, n - m, out + m, k, depth - 1);
}

void both_sides(u32* a, u32* b, i64 n, i64 m, u32* out, const Keying& k, int depth, int threads);

// Ranges at least this long are split over threads, the two sides of a partition each on its own.
inline constexpr i64 kParallelSortMin = i64{1} << 18;

// sort_keys on up to `threads` threads: the sides of each partition sorted at the same time while threads
// are left. Each side's keys go to their own places of out, so the bytes are those of one thread.
EMBER_TARGET_AVX512 void sort_keys_on(u32* a, u32* b, i64 n, u32* out, const Keying& k, int depth,
                                      int threads) {
  if (threads <= 1 || n < kParallelSortMin || depth == 0) {
    sort_keys(a, b, n, out, k, depth);
    return;
  }
  const u32 pivot = pick_pivot<false>(a, n, k);
  i64 m = partition<true, false>(a, b, n, pivot, k);
  if (m == 0) {
    m = partition<false, false>(b, a, n, pivot, k);
    fill_value(pivot, out, m, k);
    sort_keys_on(a + m, b + m, n - m, out + m, k, depth - 1, threads);
    return;
  }
  both_sides(b, a, n, m, out, k, depth - 1, threads);
}

// Sorts the keys a[0, m) and a[m, n) into out[0, m) and out[m, n) (b scratch), the first side on a thread of
// its own.
void both_sides(u32* a, u32* b, i64 n, i64 m, u32* out, const Keying& k, int depth, int threads) {
  const int half = threads / 2;
  std::exception_ptr error;
  std::thread side([&] {
    try {
      sort_keys_on(a, b, m, out, k, depth, half);
    } catch (...) {
      error = std::current_exception();
    }
  });
  try {
    sort_keys_on(a + m, b + m, n - m, out + m, k, depth, threads - half);
  } catch (...) {
    side.join();
    throw;
  }
  side.join();
  if (error) std::rethrow_exception(error);
}

EMBER_TARGET_AVX512 bool sort_values(const u32* src, u32* dst, i64 n, u32 flip, u32 constant, bool check) {
  const Keying k{_mm512_set1_epi32(static_cast<int>(flip)), _mm512_set1_epi32(static_cast<int>(constant)),
                 check};
  if (n <= kRegisterSortMax) return sort_small<true>(src, dst, n, k);
  const std::size_t nbytes = static_cast<std::size_t>(n) * 2 * sizeof(u32);
  std::size_t capacity = 0;
  HostBlockCache& cache = HostBlockCache::instance();
  auto* a = static_cast<u32*>(cache.allocate(nbytes, capacity));
  struct Release {
    HostBlockCache& cache;
    void* p;
    std::size_t capacity;
    ~Release() { cache.release(p, capacity); }
  } release{cache, a, capacity};
  u32* b = a + n;
  const int depth = 2 * std::bit_width(static_cast<std::uint64_t>(n)) + 4;
  const int threads = in_parallel_chunk() ? 1 : host_threads();
  const u32 pivot = pick_pivot<true>(src, n, k);
  i64 m = partition<true, true>(src, a, n, pivot, k);
  if (m < 0) return false;
  if (m == 0) {
    m = partition<false, false>(a, b, n, pivot, k);
    fill_value(pivot, dst, m, k);
    sort_keys_on(b + m, a + m, n - m, dst + m, k, depth, threads);
    return true;
  }
  if (threads > 1 && n >= kParallelSortMin) {
    both_sides(a, b, n, m, dst, k, depth, threads);
  } else {
    sort_keys(a, b, m, dst, k, depth);
    sort_keys(a + m, b + m, n - m, dst + m, k, depth);
  }
  return true;
}

#pragma GCC diagnostic pop
#endif  // EMBER_HAVE_SIMD_LEVELS

}  // namespace

bool sort_exact_32(Key32 kind, const void* src, void* dst, std::int64_t n, bool descending) {
#if EMBER_HAVE_SIMD_LEVELS
  if (simd_level() != SimdLevel::avx512) return false;
  if (n <= 0) return true;
  const u32 flip = kind == Key32::float32 ? 0x7fffffffu : 0u;
  u32 constant = kind == Key32::uint32 ? 0u : 0x80000000u;
  if (descending) constant = ~constant;
  return sort_values(static_cast<const u32*>(src), static_cast<u32*>(dst), n, flip, constant,
                     kind == Key32::float32);
#else
  (void)kind, (void)src, (void)dst, (void)n, (void)descending;
  return false;
#endif
}

}  // namespace ember::host
