// The host backends' one way to use several cores: parallel_for splits [0, n) into contiguous chunks run by a
// pool of persistent threads and the calling thread, for work whose result does not depend on the split
// (element-wise maps, counter-based random streams, copies, reductions whose every output is summed by one
// chunk), so results are bit-identical to one thread. Backend-agnostic: no backend library header may be
// included here.
//
// The pool (parallel.cpp) starts host_threads() - 1 workers on first use and keeps them. A worker that has
// finished a job spins for a short while (kPoolSpin, 20 us) before it sleeps, so the next op of a loop finds
// it awake: handing it a chunk then costs well under a microsecond instead of a thread start (about 30 us) or
// a wake-up. Sleeping workers are woken by large jobs, and by small ones that follow the previous job closely
// (a loop); a small job after a pause (a matmul on OpenBLAS's threads, the program's own work) runs on its
// caller, as waking would cost more than it saves. Every thread first runs the chunks of its own share of [0,
// n) (the same share for the same n, so a loop's data stays in the cache of the core that touched it last)
// and then takes the chunks others have not started: a worker that is late to wake costs nothing but its
// share's time on the caller.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <thread>

#include "ember/host.hpp"

namespace ember::host {

// Inputs with fewer elements than this run on the calling thread (callers whose elements cost more pass a
// smaller bound): handing chunks to awake workers costs about 0.3 us, a sleeping worker's wake-up several.
inline constexpr std::int64_t kParallelMin = std::int64_t{1} << 16;

// EMBER_NUM_THREADS if set (>= 1), else the number of cores, at most 64.
inline int host_threads() {
  static const int threads = [] {
    if (const char* env = std::getenv("EMBER_NUM_THREADS")) {
      const int v = std::atoi(env);
      if (v >= 1) return std::min(v, 64);
    }
    return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u));
  }();
  return threads;
}

// Whether this thread runs a chunk of a parallel_for (a pool worker always does): a nested parallel_for then
// stays on it (the cores are taken already).
bool& in_parallel_chunk();

// Runs task(context, i) for every i in [0, tasks) on up to `threads` threads (the caller and pool workers),
// thread s first taking the i of its share [s * tasks / threads, (s + 1) * tasks / threads). Returns once
// every task has finished; the first exception a task threw is then rethrown. The tasks run on the calling
// thread alone when another thread's job holds the pool, or when every worker sleeps, `wake` is false and
// the previous job ended more than the workers' spin time ago.
void run_tasks(std::int64_t tasks, int threads, bool wake, void (*task)(void* context, std::int64_t i),
               void* context);

// The pool's counts (ember::host_threads_info); asking starts the pool.
HostThreadsInfo pool_info();

// Calls f(begin, end) over contiguous chunks covering [0, n), each a multiple of `grain` elements except the
// last: on up to host_threads() threads when n >= min_parallel, else on the calling thread in one call. From
// wake_min elements (default 16 * min_parallel) it wakes sleeping workers; below, it uses awake ones
// (run_tasks). The first exception any chunk throws is rethrown after every chunk has finished.
template <class F>
void parallel_for(std::int64_t n, F&& f, std::int64_t min_parallel = kParallelMin, std::int64_t grain = 64,
                  std::int64_t wake_min = -1) {
  const int threads = n >= min_parallel && !in_parallel_chunk() ? host_threads() : 1;
  if (threads <= 1 || n <= grain) {
    if (n > 0) f(std::int64_t{0}, n);
    return;
  }
  // Four chunks a thread: enough for the others to even out a late or preempted thread.
  constexpr std::int64_t kChunksPerThread = 4;
  const std::int64_t grains = (n + grain - 1) / grain;
  const std::int64_t wanted = std::min<std::int64_t>(grains, std::int64_t{threads} * kChunksPerThread);
  const std::int64_t per = (grains + wanted - 1) / wanted * grain;
  const std::int64_t chunks = (n + per - 1) / per;
  struct Context {
    F& f;
    std::int64_t n, per;
  } context{f, n, per};
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const bool wake = n >= (wake_min >= 0 ? wake_min : min_parallel > kMax / 16 ? kMax : min_parallel * 16);
  run_tasks(
      chunks, static_cast<int>(std::min<std::int64_t>(threads, chunks)), wake,
      [](void* c, std::int64_t i) {
        const Context& x = *static_cast<Context*>(c);
        x.f(i * x.per, std::min(x.n, (i + 1) * x.per));
      },
      &context);
}

}  // namespace ember::host
