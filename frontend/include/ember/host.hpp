// The host (cpu) runtime every cpu backend (eigen, blas) shares: the cache of freed memory blocks that op
// results are allocated from, the threads of large ops, and the instruction set of the vectorized host
// kernels.
#pragma once

#include <cstddef>
#include <string>

namespace ember {

// What the host block cache holds and has done since the process started.
struct HostCacheInfo {
  std::size_t cached_bytes = 0;   // freed blocks held for reuse
  std::size_t cached_blocks = 0;  // how many
  std::size_t limit_bytes = 0;    // the most it holds (EMBER_HOST_CACHE_BYTES or set_host_cache_limit)
  std::size_t hits = 0;           // allocations served from the cache
  std::size_t misses = 0;         // allocations that went to the system
  std::size_t trimmed_bytes = 0;  // returned to the system by trim_host_cache and to stay under the limit
};
HostCacheInfo host_cache_info();
// Returns every cached block to the system (what a long-lived process does after a burst of large results);
// the number of bytes released.
std::size_t trim_host_cache();
// Bounds the cache (0 turns caching off), releasing blocks over the new bound; the previous bound.
std::size_t set_host_cache_limit(std::size_t bytes);

// The threads large host ops run on: a pool of threads - 1 workers started on first use and kept, with the
// calling thread. Results do not depend on the number of threads.
struct HostThreadsInfo {
  int threads = 1;                  // EMBER_NUM_THREADS if set, else the number of cores (at most 64)
  std::size_t workers_started = 0;  // threads the pool has started (threads - 1 once, however many ops ran)
  std::size_t parallel_jobs = 0;    // ops split over the pool
  std::size_t jobs_run_alone = 0;   // split-size ops that ran on their caller alone: the pool was busy with
                                    // another thread's op, or its workers slept and the op was too small to
                                    // wake them (the previous op ended over 20 us before)
  int workers_asleep = 0;           // workers sleeping now (a worker sleeps 20 us after its last op)
};
// Starts the pool if it has not started (threads > 1).
HostThreadsInfo host_threads_info();

// The instruction set the host kernels run at: "avx512", "avx2" or "baseline" (SSE2 on x86-64); the widest
// the cpu supports unless EMBER_HOST_SIMD names a narrower one. Every level gives the same bits.
std::string host_simd_level();
// Sets it to "baseline", "avx2" or "avx512", capped at what the cpu supports; the level now in use.
// ValueError for another name.
std::string set_host_simd_level(const std::string& level);

}  // namespace ember
