// Host kernels compiled once for each vector width the cpu may have (SSE2 baseline, AVX2, AVX-512) and
// chosen at run time, as NumPy's and Eigen's packet math are: + - * /, abs, exp and log of float32 and
// float64, the float32 uniform, normal, exponential and gamma fills, the leaves of float32 pairwise sums and
// the row step of float32 sums over a leading axis (host/vector_kernels.cpp; the pairwise sums in
// host/pairwise_kernels.cpp). Every level computes the same bits (same IEEE operations in the same order: no
// FMA contraction, no reassociation; host/*.cpp is compiled with -ffp-contract=off), so the level, like the
// number of threads, never changes a result. Large inputs are split over threads (host/parallel.hpp).
// Backend-agnostic: no backend library header may be included here.
#pragma once

#include <cstdint>

namespace ember::host {

enum class SimdLevel { baseline = 0, avx2 = 1, avx512 = 2 };

// The level the kernels run at: the widest the cpu supports, lowered by EMBER_HOST_SIMD (baseline, avx2 or
// avx512) or by set_simd_level.
SimdLevel simd_level();
// The widest level this cpu supports.
SimdLevel supported_simd_level();
// Sets the level (at most supported_simd_level()) and returns the level now in use.
SimdLevel set_simd_level(SimdLevel level);
const char* simd_level_name(SimdLevel level);

// acc[i] += double(row_k[i]) for i in [0, n), for rows row_k = rows + k * stride, k = 0 .. count - 1 in
// order: a float32 sum over a leading axis (on one thread; the reduction splits the columns). Eight rows a
// sweep over bands of kAddRowsBand columns. The rows' pattern decides its speed: on an AMD EPYC (one thread
// over a 2048-column half of a 4096 x 4096 matrix, as each of two threads sums it) four rows a sweep ran at
// 17 GB/s, eight at 23 GB/s and sixteen at 19 GB/s, and eight over 512-column bands (2 KiB of each row, the
// split of four chunks a thread) at 14 GB/s: a caller hands each thread bands of kAddRowsBand columns where
// it can.
inline constexpr std::int64_t kAddRowsBand = 2048;
void add_rows_f32_to_f64(double* acc, const float* rows, std::int64_t stride, std::int64_t count,
                         std::int64_t n);

// sums[r] = pairwise_sum<double>(p + r * len, len, widen) for r in [0, rows) (host/loops.hpp): NumPy's
// pairwise summation of float32 rows into double, bit for bit, with four of the tree's 128-element leaves (of
// one row or of several short ones, a quarter of a batch of up to 64K elements apart) summed at once, on the
// calling thread.
void pairwise_sums_f32(const float* p, std::int64_t rows, std::int64_t len, double* sums);

// out = a op b for n elements of float or double, where a and b each hold n elements or one (a scalar):
// IEEE addition, subtraction, multiplication and division, exactly what a scalar loop computes. An output of
// kStreamStoreBytes and more (the L3 of the machines we measure: it leaves the caches before the next op
// reads it; stream_stores) is written with non-temporal stores on x86-64, which do not read each line of out
// from memory before writing it: a third less traffic. On an AMD EPYC, one thread adding two 16M-element
// float32 arrays into a third took 5.7 to 6.0 ms of CPU time that way and 8.2 to 8.7 ms with ordinary stores.
inline constexpr std::int64_t kStreamStoreBytes = std::int64_t{32} << 20;
// Whether the host kernels write an output of `bytes` with non-temporal stores (x86-64): kStreamStoreBytes
// and more, or any part of an output that large on a thread inside a WholeOutputScope; or, for an op that
// also reads read_bytes (a strided copy reads whole lines), a quarter of that and more when the two together
// are twice kStreamStoreBytes (what it reads evicts what it wrote before the next op could read it).
bool stream_stores(std::int64_t bytes, std::int64_t read_bytes = 0);
// While it lives, the kernels called on this thread write a part of one output of `whole_bytes` bytes and
// decide their stores by that size: the fused evaluation hands each thread a range of a large output, each
// range smaller than the caches, the whole not (host/fused.hpp). Scopes nest; the innermost holds.
class WholeOutputScope {
 public:
  explicit WholeOutputScope(std::int64_t whole_bytes);
  ~WholeOutputScope();
  WholeOutputScope(const WholeOutputScope&) = delete;
  WholeOutputScope& operator=(const WholeOutputScope&) = delete;

 private:
  std::int64_t previous_;
};
// dst[0, bytes) = src[0, bytes) on the calling thread, dst's whole 64-byte lines with non-temporal stores on
// x86-64 (memcpy elsewhere): the same bytes. dst and src do not overlap. Without `fence`, the caller calls
// stream_fence() after its last stream_copy, before the data is read by another thread.
void stream_copy(void* dst, const void* src, std::int64_t bytes, bool fence = true);
void stream_fence();
enum class BinaryOp { add, subtract, multiply, divide };
void binary_f32(BinaryOp op, const float* a, bool a_scalar, const float* b, bool b_scalar, float* out,
                std::int64_t n);
void binary_f64(BinaryOp op, const double* a, bool a_scalar, const double* b, bool b_scalar, double* out,
                std::int64_t n);
// The same op over `rows` rows of a broadcast, on the calling thread (the caller splits the rows over
// threads): for r in [0, rows), out[r * len + j] = a[r * a_row + j] op b[r * b_row + j], where a_scalar (or
// b_scalar) reads a[r * a_row] for every j; not both scalar. `stream`: with non-temporal stores on x86-64
// (stream_stores of the caller's whole output).
void binary_rows_f32(BinaryOp op, const float* a, bool a_scalar, std::int64_t a_row, const float* b,
                     bool b_scalar, std::int64_t b_row, float* out, std::int64_t len, std::int64_t rows,
                     bool stream = false);
void binary_rows_f64(BinaryOp op, const double* a, bool a_scalar, std::int64_t a_row, const double* b,
                     bool b_scalar, std::int64_t b_row, double* out, std::int64_t len, std::int64_t rows,
                     bool stream = false);

// The unary kernels below write out with non-temporal stores when stream_stores(out's bytes) and out is not
// x (an in-place op reads out's lines anyway): the same values.
// out[i] = exp(x[i]) for n floats (within 2 ulp) or doubles (within 1 ulp); out may be x.
void exp_f32(const float* x, float* out, std::int64_t n);
void exp_f64(const double* x, double* out, std::int64_t n);
// out[i] = |x[i]| for n floats or doubles (the sign bit cleared, NaN's too, as std::fabs); out may be x.
void abs_f32(const float* x, float* out, std::int64_t n);
void abs_f64(const double* x, double* out, std::int64_t n);
// out[i] = log(x[i]) for n floats or doubles (within 1 ulp); out may be x.
void log_f32(const float* x, float* out, std::int64_t n);
void log_f64(const double* x, double* out, std::int64_t n);

// out[i] = ember_below_f32(ember_sample_uniform_f32(seed, call, i, low, high), cap) for i in [0, n).
void uniform_f32(float* out, std::int64_t n, std::uint64_t seed, std::uint32_t call, float low, float high,
                 float cap);
// out[i] = ember_sample_normal_f32(seed, call, i, mean, stddev) for i in [0, n).
void normal_f32(float* out, std::int64_t n, std::uint64_t seed, std::uint32_t call, float mean, float stddev);
// out[i] = ember_sample_exponential_f32(seed, call, i, scale) for i in [0, n).
void exponential_f32(float* out, std::int64_t n, std::uint64_t seed, std::uint32_t call, float scale);
// out[i] = ember_sample_gamma_f32(seed, call, i, alpha, scale) for i in [0, n).
void gamma_f32(float* out, std::int64_t n, std::uint64_t seed, std::uint32_t call, float alpha, float scale);

}  // namespace ember::host
