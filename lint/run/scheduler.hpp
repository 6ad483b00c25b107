// The one scheduler of parses: `check`'s units, `analyze`'s inventory units and the migration's parses all
// run through for_each_unit, on as many threads as asked, each thread with its own libclang index.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "lint/libclang/clang.hpp"

namespace emberlint {

// The number of threads for `requested` jobs (0: one per core) and `count` items: at least one.
inline unsigned worker_count(unsigned requested, std::size_t count) {
  unsigned n = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  return std::min<unsigned>(n, static_cast<unsigned>(std::max<std::size_t>(1, count)));
}

// Calls work(index, i) once for every i in [0, count), items taken in order by the next free thread. The
// first exception a call throws is rethrown here once every thread has stopped (the rest are not started).
template <class Work>
void for_each_unit(std::size_t count, unsigned requested, Work&& work) {
  const unsigned n = worker_count(requested, count);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    clang::Index index;  // one per thread: libclang indexes are not shared across threads
    for (std::size_t i = next++; i < count && !stop; i = next++) {
      try {
        work(index, i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        stop = true;
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace emberlint
