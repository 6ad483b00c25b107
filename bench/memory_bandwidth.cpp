// The machine's memory limit, measured by loops of our own (STREAM's kernels, on ember_bench's 16M float32
// size: 64 MiB arrays, twice the 32 MiB L3 of the machines we measure on, so every pass goes to memory):
//   read   s += a[i]                 (the full sum's pattern: one array read)
//   copy   c[i] = a[i]               (unary ops, transpose, concatenate: one read, one write)
//   add    c[i] = a[i] + b[i]        (binary ops: two reads, one write)
//   triad  c[i] = a[i] + 3 * b[i]
// on 1 thread and on ember's host thread count, with ordinary stores and (copy, add, triad) with non-temporal
// ones (no read-for-ownership of the output's lines). Bytes are counted as STREAM counts them: each array
// read or written once per pass (the counter `bytes`). bench/report.sh takes each kernel's fastest variant as
// the limit of the cases of that pattern and shows each memory-bound 16M case's bandwidth as a fraction of
// it.
//
// A limit must be the best a simple loop of the pattern reaches, or ember's own cases beat it. So the loops
// run the way ember's kernels run: on ember's own host thread pool (host::parallel_for, whose workers spin
// between back-to-back jobs: a pass does not wait for a sleeping thread's wake-up), in explicit vectors of
// each SIMD level the CPU has (SSE2, AVX2, AVX-512; ordinary stores as vector stores too, not a memcpy that
// may stream on its own), whole 64-byte lines a step, and each benchmark times the level that was fastest
// over a few untimed passes (its label). With the previous loops (a thread of their own woken by a futex for
// each pass, SSE only), ember's abs over 16M floats ran at 161 % of the copy loop: see docs/benchmarks.md.
//
// Names: stream_<kernel>_16M_f32/threads_<N>[_nt]; a group without peers, so no ratio row of its own.
#include "memory_bandwidth.hpp"

#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "host/parallel.hpp"
#include "host/simd_targets.hpp"

namespace ember_bench {
namespace {

constexpr std::int64_t kElements = std::int64_t{16} << 20;
// Every share of a pass (host::parallel_for's grain) is a multiple of this many floats: 512 bytes, whole
// lines for the stores and whole steps of the read loop's eight accumulators at every level.
constexpr std::int64_t kGrain = 128;

enum class Kernel { read, copy, add, triad };

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};
using Array = std::unique_ptr<float[], FreeDeleter>;

// 2 MiB aligned and advised for transparent huge pages, as ember's own buffers of 2 MiB and more are
// (frontend/src/host/host_memory.hpp): over 4 KiB pages the loops would also measure page walks (two-level
// ones in a virtual machine) that ember's 16M cases do not pay, and take a lower limit than the machine's.
Array make_array(float value) {
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  constexpr std::size_t kBytes = kElements * sizeof(float);  // a multiple of kHugePage
  auto* p = static_cast<float*>(std::aligned_alloc(kHugePage, kBytes));
  if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  ::madvise(p, kBytes, MADV_HUGEPAGE);
#endif
  for (std::int64_t i = 0; i < kElements; ++i) p[i] = value;  // first touch: the pages exist before timing
  return Array(p);
}

// One pass of K over [begin, end) (multiples of kGrain) in vectors of level V: V::Vec of V::kLanes floats
// (GCC's vector extensions: plain arithmetic, no vector crosses a function's boundary), aligned loads, stores
// ordinary or (NT) V::stream's; read sums into eight vectors, so the loop is bound by the loads, not by the
// adds' latency. Each level's pass is a function of that level's target with every call inlined (flatten),
// as ember's leveled kernels are (frontend/src/host/vector_kernels.cpp).
template <class V, Kernel K, bool NT>
inline float pass_body(const float* __restrict a, const float* __restrict b, float* __restrict c,
                       std::int64_t begin, std::int64_t end) {
  using Vec = typename V::Vec;
  constexpr std::int64_t w = V::kLanes;
  const Vec* va = reinterpret_cast<const Vec*>(a + begin);
  const Vec* vb = reinterpret_cast<const Vec*>(b + begin);
  Vec* vc = reinterpret_cast<Vec*>(c + begin);
  const std::int64_t n = (end - begin) / w;  // vectors
  if constexpr (K == Kernel::read) {
    Vec s0{}, s1{}, s2{}, s3{}, s4{}, s5{}, s6{}, s7{};
    for (std::int64_t i = 0; i < n; i += 8) {
      s0 += va[i];
      s1 += va[i + 1];
      s2 += va[i + 2];
      s3 += va[i + 3];
      s4 += va[i + 4];
      s5 += va[i + 5];
      s6 += va[i + 6];
      s7 += va[i + 7];
    }
    const Vec s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    return s[0];
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      Vec v = va[i];
      // The copy's value through an empty asm (V::opaque), so that GCC does not make the loop a memcpy call
      // (glibc's streams large copies itself).
      if constexpr (K == Kernel::copy && !NT) V::opaque(&v);
      if constexpr (K == Kernel::add) v += vb[i];
      if constexpr (K == Kernel::triad) v += 3.0f * vb[i];
      if constexpr (NT) {
        V::stream(vc + i, &v);
      } else {
        vc[i] = v;
      }
    }
    if constexpr (NT) V::fence();
    return 0.0f;
  }
}

using PassFn = float (*)(const float*, const float*, float*, std::int64_t, std::int64_t);

#if EMBER_HAVE_SIMD_LEVELS
struct Sse {
  using Vec = float __attribute__((vector_size(16), may_alias));
  static constexpr std::int64_t kLanes = 4;
  static void stream(Vec* p, const Vec* v) { _mm_stream_ps(reinterpret_cast<float*>(p), *v); }
  static void opaque(Vec* v) { asm("" : "+x"(*v)); }
  static void fence() { _mm_sfence(); }
};
struct Avx2 {
  using Vec = float __attribute__((vector_size(32), may_alias));
  static constexpr std::int64_t kLanes = 8;
  EMBER_TARGET_AVX2 static void opaque(Vec* v) { asm("" : "+x"(*v)); }
  EMBER_TARGET_AVX2 static void stream(Vec* p, const Vec* v) {
    _mm256_stream_ps(reinterpret_cast<float*>(p), *v);
  }
  static void fence() { _mm_sfence(); }
};
struct Avx512 {
  using Vec = float __attribute__((vector_size(64), may_alias));
  static constexpr std::int64_t kLanes = 16;
  EMBER_TARGET_AVX512 static void opaque(Vec* v) { asm("" : "+v"(*v)); }
  EMBER_TARGET_AVX512 static void stream(Vec* p, const Vec* v) {
    _mm512_stream_ps(reinterpret_cast<float*>(p), *v);
  }
  static void fence() { _mm_sfence(); }
};
template <Kernel K, bool NT>
[[gnu::flatten]] float pass_sse(const float* a, const float* b, float* c, std::int64_t begin,
                                std::int64_t end) {
  return pass_body<Sse, K, NT>(a, b, c, begin, end);
}
template <Kernel K, bool NT>
EMBER_TARGET_AVX2 [[gnu::flatten]] float pass_avx2(const float* a, const float* b, float* c,
                                                   std::int64_t begin, std::int64_t end) {
  return pass_body<Avx2, K, NT>(a, b, c, begin, end);
}
template <Kernel K, bool NT>
EMBER_TARGET_AVX512 [[gnu::flatten]] float pass_avx512(const float* a, const float* b, float* c,
                                                       std::int64_t begin, std::int64_t end) {
  return pass_body<Avx512, K, NT>(a, b, c, begin, end);
}
// The passes of K at each SIMD level this CPU has, named.
template <Kernel K, bool NT>
std::vector<std::pair<const char*, PassFn>> passes() {
  std::vector<std::pair<const char*, PassFn>> out{{"sse2", &pass_sse<K, NT>}};
  if (__builtin_cpu_supports("avx2")) out.emplace_back("avx2", &pass_avx2<K, NT>);
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw")) {
    out.emplace_back("avx512", &pass_avx512<K, NT>);
  }
  return out;
}
#else
// Elsewhere one loop in GCC's generic 16-byte vectors, without non-temporal stores (those variants are the
// ordinary ones).
struct Generic {
  using Vec = float __attribute__((vector_size(16), may_alias));
  static constexpr std::int64_t kLanes = 4;
  static void stream(Vec* p, const Vec* v) { *p = *v; }
  static void opaque(Vec* v) { asm("" : "+m"(*v)); }
  static void fence() {}
};
template <Kernel K, bool NT>
float pass_generic(const float* a, const float* b, float* c, std::int64_t begin, std::int64_t end) {
  return pass_body<Generic, K, NT>(a, b, c, begin, end);
}
template <Kernel K, bool NT>
std::vector<std::pair<const char*, PassFn>> passes() {
  return {{"generic", &pass_generic<K, NT>}};
}
#endif

// One pass over the whole arrays: on the calling thread, or split over ember's host thread pool as ember's
// element-wise ops are (host::parallel_for, its default chunks: four a thread).
float run_pass(PassFn pass, int threads, const float* a, const float* b, float* c) {
  if (threads <= 1) return pass(a, b, c, 0, kElements);
  ember::host::parallel_for(
      kElements,
      [&](std::int64_t begin, std::int64_t end) { benchmark::DoNotOptimize(pass(a, b, c, begin, end)); },
      ember::host::kParallelMin, kGrain);
  return 0.0f;
}

template <Kernel K, bool NT>
void BM_stream(benchmark::State& state, int threads) {
  const Array a = make_array(1.0f), b = make_array(2.0f), c = make_array(0.0f);
  // The level: the fastest of three untimed passes at each (after one to wake the pool and warm the TLB).
  const auto levels = passes<K, NT>();
  std::pair<const char*, PassFn> best = levels.front();
  double best_seconds = 0.0;
  for (const auto& level : levels) {
    run_pass(level.second, threads, a.get(), b.get(), c.get());
    for (int i = 0; i < 3; ++i) {
      const auto start = std::chrono::steady_clock::now();
      run_pass(level.second, threads, a.get(), b.get(), c.get());
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (best_seconds == 0.0 || s < best_seconds) best_seconds = s, best = level;
    }
  }
  run_pass(best.second, threads, a.get(), b.get(), c.get());
  for (auto _ : state) {
    benchmark::DoNotOptimize(run_pass(best.second, threads, a.get(), b.get(), c.get()));
    benchmark::ClobberMemory();
  }
  const int arrays = K == Kernel::read ? 1 : K == Kernel::copy ? 2 : 3;
  // Bytes per pass; bench/report.sh divides by the real time (a rate counter would use the main thread's CPU
  // time).
  state.counters["bytes"] = static_cast<double>(arrays * kElements * std::int64_t{sizeof(float)});
  state.SetLabel(best.first);
}

template <Kernel K>
void register_kernel(const char* name, int threads) {
  std::vector<int> counts{1};
  if (threads > 1) counts.push_back(threads);
  for (int t : counts) {
    const std::string label = std::string("stream_") + name + "_16M_f32/threads_" + std::to_string(t);
    benchmark::RegisterBenchmark(label.c_str(), BM_stream<K, false>, t)->Unit(benchmark::kMillisecond);
    if constexpr (K != Kernel::read) {
      benchmark::RegisterBenchmark((label + "_nt").c_str(), BM_stream<K, true>, t)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

void register_memory_bandwidth(int threads) {
  register_kernel<Kernel::read>("read", threads);
  register_kernel<Kernel::copy>("copy", threads);
  register_kernel<Kernel::add>("add", threads);
  register_kernel<Kernel::triad>("triad", threads);
}

}  // namespace ember_bench
