// The kernels of host/vector_kernels.hpp. Each body is written once as an always-inline function whose loop
// the compiler vectorizes (no branches: special cases are selects or a second scalar pass) and compiled three
// times through EMBER_VECTOR_KERNEL: at the baseline and with target("avx2") and target("avx512..."); the
// AVX-512 Philox generator is written with intrinsics (draw_words_philox16), integer work that cannot differ.
// This file is compiled with -ffp-contract=off (no FMA, whatever the target), -fno-math-errno (sqrt needs no
// errno branch) and -fno-trapping-math (both sides of a select may be computed); none of these changes a
// value, so the three levels and the scalar samplers of ember/random/distributions.h agree bit for bit.
#include "host/vector_kernels.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "ember/random/distributions.h"
#include "host/parallel.hpp"
#include "host/simd_targets.hpp"

namespace ember::host {

namespace {

SimdLevel detect_level() {
#if EMBER_HAVE_SIMD_LEVELS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw")) {
    return SimdLevel::avx512;
  }
  if (__builtin_cpu_supports("avx2")) return SimdLevel::avx2;
#endif
  return SimdLevel::baseline;
}

std::atomic<int>& level_in_use() {
  static std::atomic<int> level{[] {
    SimdLevel l = supported_simd_level();
    if (const char* env = std::getenv("EMBER_HOST_SIMD")) {
      const std::string_view v(env);
      const SimdLevel want = v == "baseline" ? SimdLevel::baseline
                             : v == "avx2"   ? SimdLevel::avx2
                                             : SimdLevel::avx512;
      l = std::min(l, want);
    }
    return static_cast<int>(l);
  }()};
  return level;
}

// Defines NAME_baseline, NAME_avx2 and NAME_avx512 (each running the statement given for it, with the
// attributes ATTR) and NAME_at(level), the one for a level.
#if EMBER_HAVE_SIMD_LEVELS
#define EMBER_KERNEL_LEVELS(NAME, ATTR, PARAMS, BASELINE, AVX2, AVX512) \
  ATTR void NAME##_baseline PARAMS {                                    \
    BASELINE;                                                           \
  }                                                                     \
  ATTR EMBER_TARGET_AVX2 void NAME##_avx2 PARAMS {                      \
    AVX2;                                                               \
  }                                                                     \
  ATTR EMBER_TARGET_AVX512 void NAME##_avx512 PARAMS {                  \
    AVX512;                                                             \
  }                                                                     \
  auto NAME##_at(SimdLevel level) {                                     \
    return level == SimdLevel::avx512 ? NAME##_avx512                   \
           : level == SimdLevel::avx2 ? NAME##_avx2                     \
                                      : NAME##_baseline;                \
  }
#else
#define EMBER_KERNEL_LEVELS(NAME, ATTR, PARAMS, BASELINE, AVX2, AVX512) \
  ATTR void NAME##_baseline PARAMS {                                    \
    BASELINE;                                                           \
  }                                                                     \
  auto NAME##_at(SimdLevel) {                                           \
    return NAME##_baseline;                                             \
  }
#endif
// The levels of NAME_body ARGS, the same code compiled for each.
#define EMBER_VECTOR_KERNEL(NAME, PARAMS, ARGS) \
  EMBER_KERNEL_LEVELS(NAME, , PARAMS, NAME##_body ARGS, NAME##_body ARGS, NAME##_body ARGS)
// The levels of a body that takes its level as a template argument (NAME_body<level> ARGS), every call in
// them inlined (flatten): the body's calls of functions compiled for a level (stream_256's) are inlined into
// the function of that level only, where they may be.
#define EMBER_LEVELED_KERNEL(NAME, PARAMS, ARGS)                                             \
  EMBER_KERNEL_LEVELS(NAME, [[gnu::flatten]], PARAMS, NAME##_body<SimdLevel::baseline> ARGS, \
                      NAME##_body<SimdLevel::avx2> ARGS, NAME##_body<SimdLevel::avx512> ARGS)

// ---- exp of float32 ---------------------------------------------------------------------------------------

// n = round(x / ln 2) by adding 1.5 * 2^23, whose low bits are then n itself; r = x - n ln 2 in two parts
// (Cody-Waite); Cephes' degree-6 polynomial for exp(r) (within 2 ulp of the correctly rounded value); times
// 2^n built in the exponent bits. Inputs outside [-87, 88] (where 2^n leaves the normal range), NaN and
// infinities give garbage there; the loop notes whether there were any, and only then a second, scalar pass
// recomputes them with std::exp (exp_f32_main returns whether there were any, exp_f32_fix is that pass). x
// and out do not overlap.
[[gnu::always_inline]] inline int exp_f32_main(const float* x, float* out, std::int64_t n) {
  constexpr float shifter = 12582912.0f;  // 1.5 * 2^23
  int outside = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    outside |= !(v >= -87.0f && v <= 88.0f);
    const float t = v * 1.44269504088896341f + shifter;
    const float k = t - shifter;
    const float r = (v - k * 0.693359375f) - k * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float y = p * (r * r) + r + 1.0f;
    const std::uint32_t k_bits = std::bit_cast<std::uint32_t>(t) - std::bit_cast<std::uint32_t>(shifter);
    out[i] = y * std::bit_cast<float>((k_bits + 127u) << 23);
  }
  return outside;
}
inline void exp_f32_fix(const float* x, float* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    if (!(x[i] >= -87.0f && x[i] <= 88.0f)) out[i] = std::exp(x[i]);
  }
}
// exp of float64 the same way: k = round(x / ln 2) by adding 1.5 * 2^52; fdlibm's reduction with the split
// ln 2 and its rational form (ember_exp_reduced_f64 of ember/random/distributions.h, < 1 ulp); times 2^k
// built in the exponent bits. Inputs outside [-708, 709] (2^k leaves the normal range), NaN and infinities
// are recomputed with std::exp in a second pass, only when there are any (exp_f64_main, exp_f64_fix). x and
// out do not overlap.
[[gnu::always_inline]] inline int exp_f64_main(const double* x, double* out, std::int64_t n) {
  constexpr double shifter = 6755399441055744.0;  // 1.5 * 2^52
  int outside = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    outside |= !(v >= -708.0 && v <= 709.0);
    const double t = v * 1.44269504088896338700e+00 + shifter;
    const double k = t - shifter;
    const double y = ember_exp_reduced_f64(v - k * EMBER_LN2_HI_F64, k * EMBER_LN2_LO_F64);
    const std::uint64_t k_bits = std::bit_cast<std::uint64_t>(t) - std::bit_cast<std::uint64_t>(shifter);
    out[i] = y * std::bit_cast<double>((k_bits + 1023u) << 52);
  }
  return outside;
}
inline void exp_f64_fix(const double* x, double* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    if (!(x[i] >= -708.0 && x[i] <= 709.0)) out[i] = std::exp(x[i]);
  }
}

// [begin, end) of x into out (T float or double). In place (out == x), each chunk of the input is copied
// first.
// ---- + - * / ----------------------------------------------------------------------------------------------

template <BinaryOp Op, class T>
[[gnu::always_inline]] inline T apply_binary(T x, T y) {
  if constexpr (Op == BinaryOp::add) {
    return x + y;
  } else if constexpr (Op == BinaryOp::subtract) {
    return x - y;
  } else if constexpr (Op == BinaryOp::multiply) {
    return x * y;
  } else {
    return x / y;
  }
}
template <BinaryOp Op, class T>
[[gnu::always_inline]] inline void binary_loop(const T* a, bool a_scalar, const T* b, bool b_scalar, T* out,
                                               std::int64_t begin, std::int64_t end) {
  if (a_scalar) {
    const T x = a[0];
    for (std::int64_t i = begin; i < end; ++i) out[i] = apply_binary<Op>(x, b[i]);
  } else if (b_scalar) {
    const T y = b[0];
    for (std::int64_t i = begin; i < end; ++i) out[i] = apply_binary<Op>(a[i], y);
  } else {
    for (std::int64_t i = begin; i < end; ++i) out[i] = apply_binary<Op>(a[i], b[i]);
  }
}
#if defined(__x86_64__)
// binary_loop with non-temporal stores (SSE2, every x86-64 cpu): out's lines go to memory without being read
// first, a third less traffic for out = a + b from memory. The same IEEE operation on each element, so the
// same values; the stores are fenced before return. For outputs larger than the caches (binary_f32).
template <BinaryOp Op>
inline __m128 apply_binary_sse(__m128 x, __m128 y) {
  if constexpr (Op == BinaryOp::add) {
    return _mm_add_ps(x, y);
  } else if constexpr (Op == BinaryOp::subtract) {
    return _mm_sub_ps(x, y);
  } else if constexpr (Op == BinaryOp::multiply) {
    return _mm_mul_ps(x, y);
  } else {
    return _mm_div_ps(x, y);
  }
}
template <BinaryOp Op>
inline __m128d apply_binary_sse(__m128d x, __m128d y) {
  if constexpr (Op == BinaryOp::add) {
    return _mm_add_pd(x, y);
  } else if constexpr (Op == BinaryOp::subtract) {
    return _mm_sub_pd(x, y);
  } else if constexpr (Op == BinaryOp::multiply) {
    return _mm_mul_pd(x, y);
  } else {
    return _mm_div_pd(x, y);
  }
}
inline __m128 load_sse(const float* p) {
  return _mm_loadu_ps(p);
}
inline __m128d load_sse(const double* p) {
  return _mm_loadu_pd(p);
}
inline __m128 splat_sse(float v) {
  return _mm_set1_ps(v);
}
inline __m128d splat_sse(double v) {
  return _mm_set1_pd(v);
}
inline void stream_sse(float* p, __m128 v) {
  _mm_stream_ps(p, v);
}
inline void stream_sse(double* p, __m128d v) {
  _mm_stream_pd(p, v);
}
template <BinaryOp Op, class T>
void binary_stream_loop(const T* a, bool a_scalar, const T* b, bool b_scalar, T* out, std::int64_t begin,
                        std::int64_t end) {
  const auto one = [&](std::int64_t i) {
    out[i] = apply_binary<Op>(a_scalar ? a[0] : a[i], b_scalar ? b[0] : b[i]);
  };
  std::int64_t i = begin;
  for (; i < end && reinterpret_cast<std::uintptr_t>(out + i) % 16 != 0; ++i) one(i);
  constexpr std::int64_t kLanes = 16 / static_cast<std::int64_t>(sizeof(T));
  const auto lanes = [&](auto x_of, auto y_of) {
    for (; i + kLanes <= end; i += kLanes) stream_sse(out + i, apply_binary_sse<Op>(x_of(i), y_of(i)));
  };
  const auto from_a = [&](std::int64_t k) { return load_sse(a + k); };
  const auto from_b = [&](std::int64_t k) { return load_sse(b + k); };
  if (a_scalar) {
    const auto x = splat_sse(a[0]);
    lanes([&](std::int64_t) { return x; }, from_b);
  } else if (b_scalar) {
    const auto y = splat_sse(b[0]);
    lanes(from_a, [&](std::int64_t) { return y; });
  } else {
    lanes(from_a, from_b);
  }
  for (; i < end; ++i) one(i);
  _mm_sfence();
}
template <class T>
void binary_stream(BinaryOp op, const T* a, bool a_scalar, const T* b, bool b_scalar, T* out,
                   std::int64_t begin, std::int64_t end) {
  switch (op) {
    case BinaryOp::add:
      return binary_stream_loop<BinaryOp::add>(a, a_scalar, b, b_scalar, out, begin, end);
    case BinaryOp::subtract:
      return binary_stream_loop<BinaryOp::subtract>(a, a_scalar, b, b_scalar, out, begin, end);
    case BinaryOp::multiply:
      return binary_stream_loop<BinaryOp::multiply>(a, a_scalar, b, b_scalar, out, begin, end);
    case BinaryOp::divide:
      return binary_stream_loop<BinaryOp::divide>(a, a_scalar, b, b_scalar, out, begin, end);
  }
}
#endif

template <class T>
[[gnu::always_inline]] inline void binary_body(BinaryOp op, const T* a, bool a_scalar, const T* b,
                                               bool b_scalar, T* out, std::int64_t begin, std::int64_t end) {
  switch (op) {
    case BinaryOp::add:
      return binary_loop<BinaryOp::add>(a, a_scalar, b, b_scalar, out, begin, end);
    case BinaryOp::subtract:
      return binary_loop<BinaryOp::subtract>(a, a_scalar, b, b_scalar, out, begin, end);
    case BinaryOp::multiply:
      return binary_loop<BinaryOp::multiply>(a, a_scalar, b, b_scalar, out, begin, end);
    case BinaryOp::divide:
      return binary_loop<BinaryOp::divide>(a, a_scalar, b, b_scalar, out, begin, end);
  }
}
[[gnu::always_inline]] inline void binary_f32_body(BinaryOp op, const float* a, bool a_scalar, const float* b,
                                                   bool b_scalar, float* out, std::int64_t begin,
                                                   std::int64_t end) {
  binary_body(op, a, a_scalar, b, b_scalar, out, begin, end);
}
EMBER_VECTOR_KERNEL(binary_f32,
                    (BinaryOp op, const float* a, bool a_scalar, const float* b, bool b_scalar, float* out,
                     std::int64_t begin, std::int64_t end),
                    (op, a, a_scalar, b, b_scalar, out, begin, end))
[[gnu::always_inline]] inline void binary_f64_body(BinaryOp op, const double* a, bool a_scalar,
                                                   const double* b, bool b_scalar, double* out,
                                                   std::int64_t begin, std::int64_t end) {
  binary_body(op, a, a_scalar, b, b_scalar, out, begin, end);
}
EMBER_VECTOR_KERNEL(binary_f64,
                    (BinaryOp op, const double* a, bool a_scalar, const double* b, bool b_scalar, double* out,
                     std::int64_t begin, std::int64_t end),
                    (op, a, a_scalar, b, b_scalar, out, begin, end))

// Rows of a broadcast op: the level and the op chosen once for all of them.
template <class T>
[[gnu::always_inline]] inline void binary_rows_body(BinaryOp op, const T* a, bool a_scalar,
                                                    std::int64_t a_row, const T* b, bool b_scalar,
                                                    std::int64_t b_row, T* out, std::int64_t len,
                                                    std::int64_t rows) {
  const auto each = [&](auto op_tag) {
    constexpr BinaryOp kOp = decltype(op_tag)::value;
    for (std::int64_t r = 0; r < rows; ++r)
      binary_loop<kOp>(a + r * a_row, a_scalar, b + r * b_row, b_scalar, out + r * len, 0, len);
  };
  switch (op) {
    case BinaryOp::add:
      return each(std::integral_constant<BinaryOp, BinaryOp::add>{});
    case BinaryOp::subtract:
      return each(std::integral_constant<BinaryOp, BinaryOp::subtract>{});
    case BinaryOp::multiply:
      return each(std::integral_constant<BinaryOp, BinaryOp::multiply>{});
    case BinaryOp::divide:
      return each(std::integral_constant<BinaryOp, BinaryOp::divide>{});
  }
}
[[gnu::always_inline]] inline void binary_rows_f32_body(BinaryOp op, const float* a, bool a_scalar,
                                                        std::int64_t a_row, const float* b, bool b_scalar,
                                                        std::int64_t b_row, float* out, std::int64_t len,
                                                        std::int64_t rows) {
  binary_rows_body(op, a, a_scalar, a_row, b, b_scalar, b_row, out, len, rows);
}
EMBER_VECTOR_KERNEL(binary_rows_f32,
                    (BinaryOp op, const float* a, bool a_scalar, std::int64_t a_row, const float* b,
                     bool b_scalar, std::int64_t b_row, float* out, std::int64_t len, std::int64_t rows),
                    (op, a, a_scalar, a_row, b, b_scalar, b_row, out, len, rows))
[[gnu::always_inline]] inline void binary_rows_f64_body(BinaryOp op, const double* a, bool a_scalar,
                                                        std::int64_t a_row, const double* b, bool b_scalar,
                                                        std::int64_t b_row, double* out, std::int64_t len,
                                                        std::int64_t rows) {
  binary_rows_body(op, a, a_scalar, a_row, b, b_scalar, b_row, out, len, rows);
}
EMBER_VECTOR_KERNEL(binary_rows_f64,
                    (BinaryOp op, const double* a, bool a_scalar, std::int64_t a_row, const double* b,
                     bool b_scalar, std::int64_t b_row, double* out, std::int64_t len, std::int64_t rows),
                    (op, a, a_scalar, a_row, b, b_scalar, b_row, out, len, rows))

// ---- log --------------------------------------------------------------------------------------------------

// log of positive normal finite x with fdlibm's kernels (ember_log_normal_f32/_f64 of distributions.h, < 1
// ulp); other inputs (zero, subnormal, negative, infinite, NaN) are recomputed with std::log in a second
// pass, only when there are any (log_main, log_fix). x and out do not overlap.
template <class T>
[[gnu::always_inline]] inline int log_main(const T* x, T* out, std::int64_t n) {
  constexpr T lowest = std::numeric_limits<T>::min(), highest = std::numeric_limits<T>::max();
  int outside = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const T v = x[i];
    outside |= !(v >= lowest && v <= highest);
    if constexpr (std::is_same_v<T, float>) {
      out[i] = ember_log_normal_f32(std::bit_cast<std::uint32_t>(v), 0);
    } else {
      out[i] = ember_log_normal_f64(std::bit_cast<std::uint64_t>(v), 0);
    }
  }
  return outside;
}
template <class T>
inline void log_fix(const T* x, T* out, std::int64_t n) {
  constexpr T lowest = std::numeric_limits<T>::min(), highest = std::numeric_limits<T>::max();
  for (std::int64_t i = 0; i < n; ++i) {
    if (!(x[i] >= lowest && x[i] <= highest)) out[i] = std::log(x[i]);
  }
}

// ---- exp and log over ranges, in place too ------------------------------------------------------------

enum class Unary { exp, log, abs };
// F's vector loop over n elements; whether some need unary_fix's scalar pass.
template <Unary F, class T>
[[gnu::always_inline]] inline int unary_main(const T* x, T* out, std::int64_t n) {
  if constexpr (F == Unary::abs) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = std::fabs(x[i]);  // the sign bit cleared, NaN's too
    return 0;
  } else if constexpr (F == Unary::log) {
    return log_main(x, out, n);
  } else if constexpr (std::is_same_v<T, float>) {
    return exp_f32_main(x, out, n);
  } else {
    return exp_f64_main(x, out, n);
  }
}
template <Unary F, class T>
void unary_fix(const T* x, T* out, std::int64_t n) {
  if constexpr (F == Unary::log) {
    log_fix(x, out, n);
  } else if constexpr (F == Unary::exp && std::is_same_v<T, float>) {
    exp_f32_fix(x, out, n);
  } else if constexpr (F == Unary::exp) {
    exp_f64_fix(x, out, n);
  }
}
template <Unary F, class T>
[[gnu::always_inline]] inline void unary_run(const T* x, T* out, std::int64_t n) {
  if (unary_main<F>(x, out, n) != 0) unary_fix<F>(x, out, n);
}
template <Unary F, class T>
[[gnu::always_inline]] inline void unary_body(const T* x, T* out, std::int64_t begin, std::int64_t end) {
  if (x != out) {
    unary_run<F>(x + begin, out + begin, end - begin);
    return;
  }
  constexpr std::int64_t kChunk = 512;
  alignas(64) T in[kChunk];
  for (std::int64_t at = begin; at < end; at += kChunk) {
    const std::int64_t len = std::min(kChunk, end - at);
    std::memcpy(in, x + at, static_cast<std::size_t>(len) * sizeof(T));
    unary_run<F>(in, out + at, len);
  }
}
#if defined(__x86_64__)
// 256 bytes from `from` to `to` (both 64-byte aligned) with non-temporal stores as wide as level L's: four
// SSE stores a line cost exp's AVX-512 loop a fifth more instructions (and time, where the cores are busy).
[[gnu::always_inline]] inline void stream_256_sse(void* to, const void* from) {
  auto* d = static_cast<__m128i*>(to);
  const auto* s = static_cast<const __m128i*>(from);
  for (int k = 0; k < 16; ++k) _mm_stream_si128(d + k, _mm_load_si128(s + k));
}
#if EMBER_HAVE_SIMD_LEVELS
EMBER_TARGET_AVX2 inline void stream_256_avx2(void* to, const void* from) {
  auto* d = static_cast<__m256i*>(to);
  const auto* s = static_cast<const __m256i*>(from);
  for (int k = 0; k < 8; ++k) _mm256_stream_si256(d + k, _mm256_load_si256(s + k));
}
EMBER_TARGET_AVX512 inline void stream_256_avx512(void* to, const void* from) {
  auto* d = static_cast<__m512i*>(to);
  const auto* s = static_cast<const __m512i*>(from);
  for (int k = 0; k < 4; ++k) _mm512_stream_si512(d + k, _mm512_load_si512(s + k));
}
#endif
template <SimdLevel L>
[[gnu::always_inline]] inline void stream_256(void* to, const void* from) {
#if EMBER_HAVE_SIMD_LEVELS
  if constexpr (L == SimdLevel::avx512) {
    stream_256_avx512(to, from);
    return;
  } else if constexpr (L == SimdLevel::avx2) {
    stream_256_avx2(to, from);
    return;
  }
#endif
  stream_256_sse(to, from);
}
#endif
// unary_body into an output that is not x with non-temporal stores (x86-64): the elements up to out's first
// 64-byte boundary and after its last whole block as unary_body writes them, the blocks between computed
// 256 bytes at a time into a buffer in L1 (the same loop, its length known, so the same vector code) and
// streamed from there; the scalar pass, when needed, once after the range. A block that small keeps the loads
// and the stores interleaved: on an AMD EPYC, |x| over 64 MiB on two threads ran at 51 GB/s so, 45 with 1 KiB
// blocks, 18 with 16 KiB blocks and 39 with ordinary stores.
template <Unary F, SimdLevel L, class T>
[[gnu::always_inline]] inline void unary_stream_body(const T* x, T* out, std::int64_t begin,
                                                     std::int64_t end) {
#if defined(__x86_64__)
  constexpr std::int64_t kBlock = 256 / static_cast<std::int64_t>(sizeof(T));
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out + begin) % 64);
  const std::int64_t head =
      std::min(end - begin, (64 - misaligned) % 64 / static_cast<std::int64_t>(sizeof(T)));
  int outside = unary_main<F>(x + begin, out + begin, head);
  std::int64_t i = begin + head;
  alignas(64) T block[kBlock];
  for (; i + kBlock <= end; i += kBlock) {
    outside |= unary_main<F>(x + i, block, kBlock);
    stream_256<L>(out + i, block);
  }
  outside |= unary_main<F>(x + i, out + i, end - i);
  _mm_sfence();
  if (outside != 0) unary_fix<F>(x + begin, out + begin, end - begin);  // no call inside the loop above
#else
  unary_body<F>(x, out, begin, end);
#endif
}
// NAME (unary_body) and NAME_stream (unary_stream_body at NAME_stream's level) of F over T.
#define EMBER_UNARY_KERNELS(NAME, F, T)                                                                      \
  [[gnu::always_inline]] inline void NAME##_body(const T* x, T* out, std::int64_t begin, std::int64_t end) { \
    unary_body<F>(x, out, begin, end);                                                                       \
  }                                                                                                          \
  EMBER_VECTOR_KERNEL(NAME, (const T* x, T* out, std::int64_t begin, std::int64_t end),                      \
                      (x, out, begin, end))                                                                  \
  template <SimdLevel L>                                                                                     \
  [[gnu::always_inline]] inline void NAME##_stream_body(const T* x, T* out, std::int64_t begin,              \
                                                        std::int64_t end) {                                  \
    unary_stream_body<F, L>(x, out, begin, end);                                                             \
  }                                                                                                          \
  EMBER_LEVELED_KERNEL(NAME##_stream, (const T* x, T* out, std::int64_t begin, std::int64_t end),            \
                       (x, out, begin, end))
EMBER_UNARY_KERNELS(exp_f32, Unary::exp, float)
EMBER_UNARY_KERNELS(exp_f64, Unary::exp, double)
EMBER_UNARY_KERNELS(log_f32, Unary::log, float)
EMBER_UNARY_KERNELS(log_f64, Unary::log, double)
EMBER_UNARY_KERNELS(abs_f32, Unary::abs, float)
EMBER_UNARY_KERNELS(abs_f64, Unary::abs, double)
#undef EMBER_UNARY_KERNELS

// ---- sums ------------------------------------------------------------------------------------------------

// Eight rows per sweep over acc: each acc[i] still adds the rows in order, one rounding per row, but acc is
// loaded and stored once per eight rows and eight input streams run at once; the columns in bands of
// kAddRowsBand (acc's band, 16 KiB, stays in L1 over every row).
[[gnu::always_inline]] inline void add_rows_f32_to_f64_body(double* acc, const float* rows,
                                                            std::int64_t stride, std::int64_t count,
                                                            std::int64_t n) {
  for (std::int64_t c = 0; c < n; c += kAddRowsBand) {
    double* a = acc + c;
    const std::int64_t w = std::min(kAddRowsBand, n - c);
    std::int64_t k = 0;
    for (; k + 8 <= count; k += 8) {
      const float* r0 = rows + k * stride + c;
      const float *r1 = r0 + stride, *r2 = r1 + stride, *r3 = r2 + stride, *r4 = r3 + stride,
                  *r5 = r4 + stride, *r6 = r5 + stride, *r7 = r6 + stride;
      for (std::int64_t i = 0; i < w; ++i) {
        double s = a[i];
        s += static_cast<double>(r0[i]);
        s += static_cast<double>(r1[i]);
        s += static_cast<double>(r2[i]);
        s += static_cast<double>(r3[i]);
        s += static_cast<double>(r4[i]);
        s += static_cast<double>(r5[i]);
        s += static_cast<double>(r6[i]);
        s += static_cast<double>(r7[i]);
        a[i] = s;
      }
    }
    for (; k < count; ++k) {
      const float* r = rows + k * stride + c;
      for (std::int64_t i = 0; i < w; ++i) a[i] += static_cast<double>(r[i]);
    }
  }
}
EMBER_VECTOR_KERNEL(add_rows_f32_to_f64,
                    (double* acc, const float* rows, std::int64_t stride, std::int64_t count, std::int64_t n),
                    (acc, rows, stride, count, n))

// ---- random fills -----------------------------------------------------------------------------------------

// Words 0, 1 and 2 of draw 0 (ember_rng_draw) of elements first .. first + n - 1.
using WordsFn = void (*)(ember_u64 first, std::int64_t n, ember_u64 seed, ember_u32 call, ember_u32* w0,
                         ember_u32* w1, ember_u32* w2);
[[gnu::always_inline]] inline void draw_words_body(ember_u64 first, std::int64_t n, ember_u64 seed,
                                                   ember_u32 call, ember_u32* w0, ember_u32* w1,
                                                   ember_u32* w2) {
  for (std::int64_t j = 0; j < n; ++j) {
    const ember_rng_block b = ember_rng_draw(seed, call, first + static_cast<ember_u64>(j), 0u);
    w0[j] = b.w[0];
    w1[j] = b.w[1];
    w2[j] = b.w[2];
  }
}
EMBER_VECTOR_KERNEL(draw_words,
                    (ember_u64 first, std::int64_t n, ember_u64 seed, ember_u32 call, ember_u32* w0,
                     ember_u32* w1, ember_u32* w2),
                    (first, n, seed, call, w0, w1, w2))

#if EMBER_HAVE_SIMD_LEVELS
// GCC 12 warns inside its own shift and multiply intrinsics (their _mm512_undefined_epi32 source, GCC bug
// 105593).
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
// Philox4x32-10 on 16 counters a vector, V vectors at once (the rounds of one vector are a chain of
// multiplies; independent vectors keep the multipliers busy). The 32 x 32 -> 64-bit products of even and odd
// lanes (_mm512_mul_epu32): each of high and low words is one masked dword shuffle of the two products, which
// the compiler does not find by itself.
EMBER_TARGET_AVX512 inline void mulhilo16(__m512i a, __m512i m, __m512i& hi, __m512i& lo) {
  const __m512i even = _mm512_mul_epu32(a, m);                        // lanes 2i: low word, 2i + 1: high
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);  // the products of lanes 2i + 1
  hi = _mm512_mask_shuffle_epi32(odd, 0x5555, even, _MM_PERM_CDAB);
  lo = _mm512_mask_shuffle_epi32(even, 0xAAAA, odd, _MM_PERM_CDAB);
}
// Words 0 to 2 of draw 0 of counters i .. i + 16 V - 1, whose high words are all i >> 32, into w0, w1, w2.
template <int V>
EMBER_TARGET_AVX512 inline void philox16(ember_u64 i, ember_u64 seed, ember_u32 call, ember_u32* w0,
                                         ember_u32* w1, ember_u32* w2) {
  const __m512i m0 = _mm512_set1_epi32(static_cast<int>(EMBER_PHILOX_M0));
  const __m512i m1 = _mm512_set1_epi32(static_cast<int>(EMBER_PHILOX_M1));
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i high = _mm512_set1_epi32(static_cast<int>(static_cast<ember_u32>(i >> 32)));
  auto k0 = static_cast<ember_u32>(seed), k1 = static_cast<ember_u32>(seed >> 32);
  __m512i c0[V], c1[V], c2[V], c3[V];
  // Round 0: word 2 (the draw) is 0, so its product is 0.
  for (int v = 0; v < V; ++v) {
    const auto low = static_cast<ember_u32>(i) + 16u * static_cast<ember_u32>(v);
    __m512i hi0, lo0;
    mulhilo16(_mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(low)), lane), m0, hi0, lo0);
    c0[v] = _mm512_xor_si512(high, _mm512_set1_epi32(static_cast<int>(k0)));
    c1[v] = _mm512_setzero_si512();
    c2[v] = _mm512_xor_si512(_mm512_xor_si512(hi0, _mm512_set1_epi32(static_cast<int>(call))),
                             _mm512_set1_epi32(static_cast<int>(k1)));
    c3[v] = lo0;
  }
  for (int round = 1; round < EMBER_PHILOX_ROUNDS; ++round) {
    k0 += EMBER_PHILOX_W0;
    k1 += EMBER_PHILOX_W1;
    for (int v = 0; v < V; ++v) {
      __m512i hi0, lo0, hi1, lo1;
      mulhilo16(c0[v], m0, hi0, lo0);
      mulhilo16(c2[v], m1, hi1, lo1);
      c0[v] = _mm512_xor_si512(_mm512_xor_si512(hi1, c1[v]), _mm512_set1_epi32(static_cast<int>(k0)));
      c1[v] = lo1;
      c2[v] = _mm512_xor_si512(_mm512_xor_si512(hi0, c3[v]), _mm512_set1_epi32(static_cast<int>(k1)));
      c3[v] = lo0;
    }
  }
  for (int v = 0; v < V; ++v) {
    _mm512_storeu_si512(w0 + 16 * v, c0[v]);
    _mm512_storeu_si512(w1 + 16 * v, c1[v]);
    _mm512_storeu_si512(w2 + 16 * v, c2[v]);
  }
}
EMBER_TARGET_AVX512 void draw_words_philox16(ember_u64 first, std::int64_t n, ember_u64 seed, ember_u32 call,
                                             ember_u32* w0, ember_u32* w1, ember_u32* w2) {
  // Runs of 64 counters, then of 16, while the low counter word does not wrap inside the run.
  const auto in_one_high_word = [first](std::int64_t j, std::int64_t len) {
    const ember_u64 i = first + static_cast<ember_u64>(j);
    return (i >> 32) == ((i + static_cast<ember_u64>(len) - 1) >> 32);
  };
  std::int64_t j = 0;
  for (; j + 64 <= n && in_one_high_word(j, 64); j += 64)
    philox16<4>(first + static_cast<ember_u64>(j), seed, call, w0 + j, w1 + j, w2 + j);
  for (; j + 16 <= n && in_one_high_word(j, 16); j += 16)
    philox16<1>(first + static_cast<ember_u64>(j), seed, call, w0 + j, w1 + j, w2 + j);
  draw_words_body(first + static_cast<ember_u64>(j), n - j, seed, call, w0 + j, w1 + j, w2 + j);
}
#pragma GCC diagnostic pop
#endif

WordsFn draw_words_for(SimdLevel level) {
#if EMBER_HAVE_SIMD_LEVELS
  if (level == SimdLevel::avx512) return draw_words_philox16;
#endif
  return draw_words_at(level);
}

// The fills draw their Philox words a chunk at a time (words), then turn them into samples in a loop the
// compiler vectorizes.
constexpr std::int64_t kWordChunk = 256;

[[gnu::always_inline]] inline void uniform_f32_body(float* out, std::int64_t begin, std::int64_t end,
                                                    ember_u64 seed, ember_u32 call, float low, float high,
                                                    float cap, WordsFn words) {
  alignas(64) ember_u32 w0[kWordChunk], w1[kWordChunk], w2[kWordChunk];
  for (std::int64_t at = begin; at < end; at += kWordChunk) {
    const std::int64_t len = std::min(kWordChunk, end - at);
    words(static_cast<ember_u64>(at), len, seed, call, w0, w1, w2);
    for (std::int64_t j = 0; j < len; ++j)
      out[at + j] = ember_below_f32(ember_uniform_from_word_f32(w0[j], low, high), cap);
  }
}
EMBER_VECTOR_KERNEL(uniform_f32,
                    (float* out, std::int64_t begin, std::int64_t end, ember_u64 seed, ember_u32 call,
                     float low, float high, float cap, WordsFn words),
                    (out, begin, end, seed, call, low, high, cap, words))

[[gnu::always_inline]] inline void normal_f32_body(float* out, std::int64_t begin, std::int64_t end,
                                                   ember_u64 seed, ember_u32 call, float mean, float stddev,
                                                   WordsFn words) {
  alignas(64) ember_u32 w0[kWordChunk], w1[kWordChunk], w2[kWordChunk];
  for (std::int64_t at = begin; at < end; at += kWordChunk) {
    const std::int64_t len = std::min(kWordChunk, end - at);
    words(static_cast<ember_u64>(at), len, seed, call, w0, w1, w2);
    for (std::int64_t j = 0; j < len; ++j)
      out[at + j] = ember_normal_from_words_f32(w0[j], w1[j], mean, stddev);
  }
}
EMBER_VECTOR_KERNEL(normal_f32,
                    (float* out, std::int64_t begin, std::int64_t end, ember_u64 seed, ember_u32 call,
                     float mean, float stddev, WordsFn words),
                    (out, begin, end, seed, call, mean, stddev, words))

[[gnu::always_inline]] inline void exponential_f32_body(float* out, std::int64_t begin, std::int64_t end,
                                                        ember_u64 seed, ember_u32 call, float scale,
                                                        WordsFn words) {
  alignas(64) ember_u32 w0[kWordChunk], w1[kWordChunk], w2[kWordChunk];
  for (std::int64_t at = begin; at < end; at += kWordChunk) {
    const std::int64_t len = std::min(kWordChunk, end - at);
    words(static_cast<ember_u64>(at), len, seed, call, w0, w1, w2);
    for (std::int64_t j = 0; j < len; ++j) out[at + j] = ember_exponential_from_word_f32(w0[j], scale);
  }
}
EMBER_VECTOR_KERNEL(exponential_f32,
                    (float* out, std::int64_t begin, std::int64_t end, ember_u64 seed, ember_u32 call,
                     float scale, WordsFn words),
                    (out, begin, end, seed, call, scale, words))

// Gamma: attempt 0 of Marsaglia and Tsang for every element of a chunk from its words of draw 0, branch-free
// (ember_gamma_squeeze_f32, then ember_gamma_log_test_f32); an element it does not accept (a few in a
// hundred) runs the shared sampler's loop from attempt 0 (ember_gamma_mt_f32) in a scalar pass, and shapes
// below 1 take their boost from their own draw (ember_gamma_finish_f32): the bits of ember_sample_gamma_f32.
[[gnu::always_inline]] inline void gamma_f32_body(float* out, std::int64_t begin, std::int64_t end,
                                                  ember_u64 seed, ember_u32 call, float alpha, float scale,
                                                  WordsFn words) {
  const float shape = ember_gamma_mt_shape_f32(alpha);
  const float d = ember_gamma_d_f32(shape), c = ember_gamma_c_f32(d);
  const bool boosted = !(ember_gamma_alpha_f32(alpha) >= 1.0f);  // ember_gamma_finish_f32's own test
  alignas(64) ember_u32 w0[kWordChunk], w1[kWordChunk], w2[kWordChunk];
  for (std::int64_t at = begin; at < end; at += kWordChunk) {
    const std::int64_t len = std::min(kWordChunk, end - at);
    float* o = out + at;
    words(static_cast<ember_u64>(at), len, seed, call, w0, w1, w2);
    ember_u32 rejected = 0;
    for (std::int64_t j = 0; j < len; ++j) {
      float x2, v, u;
      const int squeezed = ember_gamma_squeeze_f32(w0[j], w1[j], w2[j], c, &x2, &v, &u);
      // u >= 2^-24, and v where it is a positive normal float: ember_log_f32 without its special cases. A
      // smaller v (a rejection when not squeezed, or a subnormal) is left to the scalar pass.
      const int v_normal = v >= 0x1p-126f;
      const float log_u = ember_log_normal_f32(ember_f32_bits(u), 0);
      const float log_v = ember_log_normal_f32(ember_f32_bits(v_normal ? v : 1.0f), 0);
      const auto accepted =
          static_cast<ember_u32>(squeezed | (v_normal & ember_gamma_log_test_f32(x2, v, d, log_u, log_v)));
      o[j] = d * v;
      w0[j] = accepted;  // word 0 is spent: it keeps whether attempt 0 accepted
      rejected |= accepted ^ 1u;
    }
    const auto index = [&](std::int64_t j) { return static_cast<ember_u64>(at + j); };
    if (rejected != 0) {
      for (std::int64_t j = 0; j < len; ++j) {
        if (w0[j] == 0) o[j] = ember_gamma_mt_f32(seed, call, index(j), shape);
      }
    }
    // The same call on both sides: on the second the compiler knows ember_gamma_finish_f32's test holds, so
    // the loop is scale * g, vectorized.
    if (boosted) {
      for (std::int64_t j = 0; j < len; ++j)
        o[j] = ember_gamma_finish_f32(seed, call, index(j), alpha, scale, o[j]);
    } else {
      for (std::int64_t j = 0; j < len; ++j)
        o[j] = ember_gamma_finish_f32(seed, call, index(j), alpha, scale, o[j]);
    }
  }
}
EMBER_VECTOR_KERNEL(gamma_f32,
                    (float* out, std::int64_t begin, std::int64_t end, ember_u64 seed, ember_u32 call,
                     float alpha, float scale, WordsFn words),
                    (out, begin, end, seed, call, alpha, scale, words))

// The vector kernels take 0.07 (add, in cache) to 3 ns an element on one core: from 16K elements splitting
// pays for handing chunks to awake workers (0.3 us); sleeping ones are woken from 256K elements only
// (parallel_for's wake_min; waking costs several us).
constexpr std::int64_t kVectorParallelMin = kParallelMin / 4;
// binary_rows_f32 and _f64 by `kernel` (ordinary stores) or, when `stream` on x86-64, by binary_stream a row
// at a time: the same values.
template <class T, class Kernel>
void binary_rows_split(Kernel kernel, BinaryOp op, const T* a, bool a_scalar, std::int64_t a_row, const T* b,
                       bool b_scalar, std::int64_t b_row, T* out, std::int64_t len, std::int64_t rows,
                       bool stream) {
#if defined(__x86_64__)
  if (stream) {
    for (std::int64_t r = 0; r < rows; ++r)
      binary_stream(op, a + r * a_row, a_scalar, b + r * b_row, b_scalar, out + r * len, 0, len);
    return;
  }
#endif
  kernel(op, a, a_scalar, a_row, b, b_scalar, b_row, out, len, rows);
}

// out = a op b over [0, n) by `kernel` (ordinary stores) or, for an output that stream_stores on x86-64, by
// binary_stream: the same values.
template <class T, class Kernel>
void binary_split(Kernel kernel, BinaryOp op, const T* a, bool a_scalar, const T* b, bool b_scalar, T* out,
                  std::int64_t n) {
#if defined(__x86_64__)
  if (stream_stores(n * static_cast<std::int64_t>(sizeof(T)))) {
    parallel_for(
        n,
        [&](std::int64_t begin, std::int64_t end) {
          binary_stream(op, a, a_scalar, b, b_scalar, out, begin, end);
        },
        kVectorParallelMin);
    return;
  }
#endif
  parallel_for(
      n, [&](std::int64_t begin, std::int64_t end) { kernel(op, a, a_scalar, b, b_scalar, out, begin, end); },
      kVectorParallelMin);
}
// Random fills take 0.3 to 2 ns an element: from 64K elements (20 us and more) they are worth waking the
// pool's workers for (the others from parallel_for's default, 16 times kVectorParallelMin).
constexpr std::int64_t kRandomWakeMin = kParallelMin;

// A random fill kernel (the NAME_at of its EMBER_VECTOR_KERNEL, taking out, begin, end, the seed, call and
// params, then the words function) at the current level, over n elements on every core.
template <class KernelAt, class... Params>
void fill_f32(KernelAt kernel_at, float* out, std::int64_t n, ember_u64 seed, ember_u32 call,
              Params... params) {
  const SimdLevel level = simd_level();
  const auto kernel = kernel_at(level);
  const WordsFn words = draw_words_for(level);
  parallel_for(
      n, [&](std::int64_t begin, std::int64_t end) { kernel(out, begin, end, seed, call, params..., words); },
      kVectorParallelMin, 64, kRandomWakeMin);
}

// out[i] = f(x[i]) by the kernel of the level in use (its _stream one for an output not x that
// stream_stores), split over threads from kVectorParallelMin elements.
template <class KernelAt, class StreamAt, class T>
void unary(KernelAt kernel_at, StreamAt stream_at, const T* x, T* out, std::int64_t n) {
  const SimdLevel level = simd_level();
  const auto kernel = x != out && stream_stores(n * static_cast<std::int64_t>(sizeof(T))) ? stream_at(level)
                                                                                          : kernel_at(level);
  parallel_for(
      n, [&](std::int64_t begin, std::int64_t end) { kernel(x, out, begin, end); }, kVectorParallelMin);
}

}  // namespace

SimdLevel supported_simd_level() {
  static const SimdLevel level = detect_level();
  return level;
}

SimdLevel simd_level() {
  return static_cast<SimdLevel>(level_in_use().load(std::memory_order_relaxed));
}

SimdLevel set_simd_level(SimdLevel level) {
  const SimdLevel l = std::min(level, supported_simd_level());
  level_in_use().store(static_cast<int>(l), std::memory_order_relaxed);
  return l;
}

const char* simd_level_name(SimdLevel level) {
  switch (level) {
    case SimdLevel::avx512:
      return "avx512";
    case SimdLevel::avx2:
      return "avx2";
    case SimdLevel::baseline:
      break;
  }
  return "baseline";
}

namespace {
// The whole output's bytes of the innermost WholeOutputScope on this thread, 0 outside any.
thread_local std::int64_t whole_output_bytes = 0;
}  // namespace

bool stream_stores(std::int64_t bytes, std::int64_t read_bytes) {
#if defined(__x86_64__)
  return std::max(bytes, whole_output_bytes) >= kStreamStoreBytes ||
         (bytes >= kStreamStoreBytes / 4 && bytes + read_bytes >= 2 * kStreamStoreBytes);
#else
  (void)bytes;
  (void)read_bytes;
  return false;
#endif
}

WholeOutputScope::WholeOutputScope(std::int64_t whole_bytes) : previous_(whole_output_bytes) {
  whole_output_bytes = whole_bytes;
}

WholeOutputScope::~WholeOutputScope() {
  whole_output_bytes = previous_;
}

void stream_fence() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

void stream_copy(void* dst, const void* src, std::int64_t bytes, bool fence) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
#if defined(__x86_64__)
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(d) % 64);
  const std::int64_t head = std::min(bytes, (64 - misaligned) % 64);
  if (head > 0) std::memcpy(d, s, static_cast<std::size_t>(head));
  std::int64_t i = head;
  for (; i + 64 <= bytes; i += 64) {  // a line at a time: loads and stores interleaved
    const auto* from = reinterpret_cast<const __m128i*>(s + i);
    auto* to = reinterpret_cast<__m128i*>(d + i);
    const __m128i v0 = _mm_loadu_si128(from), v1 = _mm_loadu_si128(from + 1), v2 = _mm_loadu_si128(from + 2),
                  v3 = _mm_loadu_si128(from + 3);
    _mm_stream_si128(to, v0);
    _mm_stream_si128(to + 1, v1);
    _mm_stream_si128(to + 2, v2);
    _mm_stream_si128(to + 3, v3);
  }
  if (i < bytes) std::memcpy(d + i, s + i, static_cast<std::size_t>(bytes - i));
  if (fence) _mm_sfence();
#else
  (void)fence;
  if (bytes > 0) std::memcpy(d, s, static_cast<std::size_t>(bytes));
#endif
}

void add_rows_f32_to_f64(double* acc, const float* rows, std::int64_t stride, std::int64_t count,
                         std::int64_t n) {
  add_rows_f32_to_f64_at(simd_level())(acc, rows, stride, count, n);
}

void binary_f32(BinaryOp op, const float* a, bool a_scalar, const float* b, bool b_scalar, float* out,
                std::int64_t n) {
  binary_split(binary_f32_at(simd_level()), op, a, a_scalar, b, b_scalar, out, n);
}

void binary_f64(BinaryOp op, const double* a, bool a_scalar, const double* b, bool b_scalar, double* out,
                std::int64_t n) {
  binary_split(binary_f64_at(simd_level()), op, a, a_scalar, b, b_scalar, out, n);
}

void binary_rows_f32(BinaryOp op, const float* a, bool a_scalar, std::int64_t a_row, const float* b,
                     bool b_scalar, std::int64_t b_row, float* out, std::int64_t len, std::int64_t rows,
                     bool stream) {
  binary_rows_split(binary_rows_f32_at(simd_level()), op, a, a_scalar, a_row, b, b_scalar, b_row, out, len,
                    rows, stream);
}

void binary_rows_f64(BinaryOp op, const double* a, bool a_scalar, std::int64_t a_row, const double* b,
                     bool b_scalar, std::int64_t b_row, double* out, std::int64_t len, std::int64_t rows,
                     bool stream) {
  binary_rows_split(binary_rows_f64_at(simd_level()), op, a, a_scalar, a_row, b, b_scalar, b_row, out, len,
                    rows, stream);
}

void exp_f32(const float* x, float* out, std::int64_t n) {
  unary(&exp_f32_at, &exp_f32_stream_at, x, out, n);
}

void exp_f64(const double* x, double* out, std::int64_t n) {
  unary(&exp_f64_at, &exp_f64_stream_at, x, out, n);
}

void abs_f32(const float* x, float* out, std::int64_t n) {
  unary(&abs_f32_at, &abs_f32_stream_at, x, out, n);
}

void abs_f64(const double* x, double* out, std::int64_t n) {
  unary(&abs_f64_at, &abs_f64_stream_at, x, out, n);
}

void log_f32(const float* x, float* out, std::int64_t n) {
  unary(&log_f32_at, &log_f32_stream_at, x, out, n);
}

void log_f64(const double* x, double* out, std::int64_t n) {
  unary(&log_f64_at, &log_f64_stream_at, x, out, n);
}

void uniform_f32(float* out, std::int64_t n, std::uint64_t seed, std::uint32_t call, float low, float high,
                 float cap) {
  fill_f32(uniform_f32_at, out, n, seed, call, low, high, cap);
}

void normal_f32(float* out, std::int64_t n, std::uint64_t seed, std::uint32_t call, float mean,
                float stddev) {
  fill_f32(normal_f32_at, out, n, seed, call, mean, stddev);
}

void exponential_f32(float* out, std::int64_t n, std::uint64_t seed, std::uint32_t call, float scale) {
  fill_f32(exponential_f32_at, out, n, seed, call, scale);
}

void gamma_f32(float* out, std::int64_t n, std::uint64_t seed, std::uint32_t call, float alpha, float scale) {
  fill_f32(gamma_f32_at, out, n, seed, call, alpha, scale);
}

}  // namespace ember::host
