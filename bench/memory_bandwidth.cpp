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
// Names: stream_<kernel>_16M_f32/threads_<N>[_nt]; a group without peers, so no ratio row of its own.
#include "memory_bandwidth.hpp"

#include <benchmark/benchmark.h>
#include <emmintrin.h>
#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ember_bench {
namespace {

constexpr std::int64_t kElements = std::int64_t{16} << 20;

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

// One pass of `kernel` over [begin, end); begin and end are multiples of 16 (64 bytes), so non-temporal
// stores of 4 floats are aligned.
float pass(Kernel kernel, bool nt, const float* __restrict a, const float* __restrict b, float* __restrict c,
           std::int64_t begin, std::int64_t end) {
  switch (kernel) {
    case Kernel::read: {
      // Four vector sums: the loop is bound by the loads, not by the adds' latency.
      __m128 s0 = _mm_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
      for (std::int64_t i = begin; i < end; i += 16) {
        s0 = _mm_add_ps(s0, _mm_load_ps(a + i));
        s1 = _mm_add_ps(s1, _mm_load_ps(a + i + 4));
        s2 = _mm_add_ps(s2, _mm_load_ps(a + i + 8));
        s3 = _mm_add_ps(s3, _mm_load_ps(a + i + 12));
      }
      float lanes[4];
      _mm_storeu_ps(lanes, _mm_add_ps(_mm_add_ps(s0, s1), _mm_add_ps(s2, s3)));
      return lanes[0] + lanes[1] + lanes[2] + lanes[3];
    }
    case Kernel::copy:
      if (nt) {
        for (std::int64_t i = begin; i < end; i += 4) _mm_stream_ps(c + i, _mm_load_ps(a + i));
      } else {
        for (std::int64_t i = begin; i < end; ++i) c[i] = a[i];
      }
      break;
    case Kernel::add:
      if (nt) {
        for (std::int64_t i = begin; i < end; i += 4) {
          _mm_stream_ps(c + i, _mm_add_ps(_mm_load_ps(a + i), _mm_load_ps(b + i)));
        }
      } else {
        for (std::int64_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
      }
      break;
    case Kernel::triad:
      if (nt) {
        const __m128 three = _mm_set1_ps(3.0f);
        for (std::int64_t i = begin; i < end; i += 4) {
          _mm_stream_ps(c + i, _mm_add_ps(_mm_load_ps(a + i), _mm_mul_ps(three, _mm_load_ps(b + i))));
        }
      } else {
        for (std::int64_t i = begin; i < end; ++i) c[i] = a[i] + 3.0f * b[i];
      }
      break;
  }
  if (nt) _mm_sfence();
  return 0.0f;
}

// threads - 1 workers, kept for the benchmark's whole run and woken for each pass (a futex wait, a few
// microseconds against a pass of milliseconds); the calling thread takes the first share.
class Team {
 public:
  Team(int threads, Kernel kernel, bool nt, const float* a, const float* b, float* c)
      : threads_(threads), kernel_(kernel), nt_(nt), a_(a), b_(b), c_(c) {
    for (int t = 1; t < threads_; ++t) workers_.emplace_back([this, t] { work(t); });
  }
  ~Team() {
    stop_ = true;
    generation_.fetch_add(1);
    generation_.notify_all();
    for (std::thread& w : workers_) w.join();
  }
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  float run() {
    done_.store(0);
    generation_.fetch_add(1);
    generation_.notify_all();
    float s = share(0);
    for (int d = done_.load(); d != threads_ - 1; d = done_.load()) done_.wait(d);
    return s;
  }

 private:
  float share(int t) {
    const std::int64_t chunks = kElements / 16;
    return pass(kernel_, nt_, a_, b_, c_, chunks * t / threads_ * 16, chunks * (t + 1) / threads_ * 16);
  }
  void work(int t) {
    std::uint64_t seen = 0;
    for (;;) {
      generation_.wait(seen);
      seen = generation_.load();
      if (stop_) return;
      benchmark::DoNotOptimize(share(t));
      done_.fetch_add(1);
      done_.notify_one();
    }
  }

  const int threads_;
  const Kernel kernel_;
  const bool nt_;
  const float* const a_;
  const float* const b_;
  float* const c_;
  std::vector<std::thread> workers_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> done_{0};
  std::atomic<bool> stop_{false};
};

void BM_stream(benchmark::State& state, Kernel kernel, int threads, bool nt) {
  const Array a = make_array(1.0f), b = make_array(2.0f), c = make_array(0.0f);
  Team team(threads, kernel, nt, a.get(), b.get(), c.get());
  team.run();
  for (auto _ : state) {
    benchmark::DoNotOptimize(team.run());
    benchmark::ClobberMemory();
  }
  const int arrays = kernel == Kernel::read ? 1 : kernel == Kernel::copy ? 2 : 3;
  // Bytes per pass; bench/report.sh divides by the real time (a rate counter would use the main thread's CPU
  // time).
  state.counters["bytes"] = static_cast<double>(arrays * kElements * std::int64_t{sizeof(float)});
}

}  // namespace

void register_memory_bandwidth(int threads) {
  const std::pair<const char*, Kernel> kernels[] = {
      {"read", Kernel::read}, {"copy", Kernel::copy}, {"add", Kernel::add}, {"triad", Kernel::triad}};
  std::vector<int> counts{1};
  if (threads > 1) counts.push_back(threads);
  for (const auto& [name, kernel] : kernels) {
    for (int t : counts) {
      for (bool nt : {false, true}) {
        if (nt && kernel == Kernel::read) continue;
        const std::string label =
            std::string("stream_") + name + "_16M_f32/threads_" + std::to_string(t) + (nt ? "_nt" : "");
        benchmark::RegisterBenchmark(label.c_str(), BM_stream, kernel, t, nt)->Unit(benchmark::kMillisecond);
      }
    }
  }
}

}  // namespace ember_bench
