// The host thread pool (frontend/src/host/parallel.hpp, ember/host.hpp's host_threads_info): parallel_for
// runs every index exactly once whatever the split, rethrows a chunk's exception after the others have
// finished, keeps nested calls on their thread, serves several calling threads at once, survives fork(),
// starts its workers once for any number of ops, and wakes sleeping workers for a loop of small ops but not
// for one small op after a pause.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "backend_support.hpp"
#include "ember/ember.hpp"
#include "host/parallel.hpp"

namespace ember {
namespace {

// Counts how often parallel_for hands each index of [0, n) to f; every count must be 1.
std::vector<int> visits(std::int64_t n, std::int64_t min_parallel, std::int64_t grain) {
  std::vector<std::atomic<int>> seen(static_cast<std::size_t>(n));
  host::parallel_for(
      n,
      [&](std::int64_t begin, std::int64_t end) {
        EXPECT_LT(begin, end);
        EXPECT_TRUE(begin % grain == 0) << begin << " is not a multiple of the grain " << grain;
        for (std::int64_t i = begin; i < end; ++i) seen[static_cast<std::size_t>(i)].fetch_add(1);
      },
      min_parallel, grain);
  std::vector<int> counts;
  for (const std::atomic<int>& s : seen) counts.push_back(s.load());
  return counts;
}

TEST(HostThreads, EveryIndexRunsExactlyOnceAtEverySizeAndGrain) {
  for (const std::int64_t grain : {1, 7, 64}) {
    for (const std::int64_t n : {0, 1, 2, 3, 63, 64, 65, 100, 1000, 4097, 70000}) {
      const std::vector<int> counts = visits(n, 1, grain);
      for (std::size_t i = 0; i < counts.size(); ++i) {
        ASSERT_EQ(counts[i], 1) << "index " << i << " of n = " << n << ", grain " << grain;
      }
    }
  }
}

// How many chunks of `rounds` parallel_for calls ran on a thread other than the caller's.
int chunks_on_workers(int rounds) {
  std::atomic<int> on_workers{0};
  const std::thread::id caller = std::this_thread::get_id();
  for (int round = 0; round < rounds; ++round) {
    host::parallel_for(std::int64_t{1} << 20, [&](std::int64_t, std::int64_t) {
      if (std::this_thread::get_id() != caller) on_workers.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::microseconds(20));  // long enough for a worker to join in
    });
  }
  return on_workers.load();
}

TEST(HostThreads, LargeInputsUseThePoolAndItsWorkersStartOnce) {
  const HostThreadsInfo before = host_threads_info();
  if (before.threads < 2) GTEST_SKIP() << "one host thread (EMBER_NUM_THREADS or one core)";
  EXPECT_GT(chunks_on_workers(200), 0) << "no chunk ran on a worker";
  const HostThreadsInfo after = host_threads_info();
  EXPECT_EQ(after.workers_started, static_cast<std::size_t>(after.threads - 1))
      << "the pool starts threads - 1 workers once, not a thread per op";
  EXPECT_GE(after.parallel_jobs + after.jobs_run_alone, before.parallel_jobs + before.jobs_run_alone + 200);
}

// Waking a sleeping worker costs more than a small op saves: a small op after a pause runs on its caller, and
// only ops that follow each other closely (a loop) wake the workers.
TEST(HostThreads, ASmallOpAfterAPauseRunsOnItsCallerAndALoopWakesTheWorkers) {
  const int workers = host_threads_info().threads - 1;
  if (workers < 1) GTEST_SKIP() << "one host thread";
  // The workers go to sleep after their last op (this starts the pool): waited for as the event it is, with
  // no deadline that a busy machine could pass before they are scheduled (a pool that never sleeps hangs
  // here, which ctest reports).
  while (host_threads_info().workers_asleep != workers)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(host_threads_info().workers_asleep, workers);
  std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the pause: far longer than the workers' spin
  constexpr std::int64_t kMin = 1 << 12, kSmall = 1 << 13;    // split, but under the wake bound (16 * kMin)
  const HostThreadsInfo before = host_threads_info();
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> on_workers{0};
  const auto small_op = [&] {
    host::parallel_for(
        kSmall,
        [&](std::int64_t, std::int64_t) {
          if (std::this_thread::get_id() != caller) on_workers.fetch_add(1);
        },
        kMin);
  };
  small_op();
  EXPECT_EQ(on_workers.load(), 0);
  EXPECT_EQ(host_threads_info().jobs_run_alone, before.jobs_run_alone + 1);
  EXPECT_EQ(host_threads_info().parallel_jobs, before.parallel_jobs);
  for (int i = 0; i < 1000; ++i) small_op();
  EXPECT_GT(host_threads_info().parallel_jobs, before.parallel_jobs)
      << "back-to-back small ops never woke them";
}

TEST(HostThreads, TheFirstExceptionIsRethrownAfterEveryChunkHasRun) {
  for (const std::int64_t min_parallel : {std::int64_t{1}, std::int64_t{1} << 40}) {  // pool, and alone
    std::atomic<std::int64_t> covered{0};
    const auto run = [&] {
      host::parallel_for(
          1 << 16,
          [&](std::int64_t begin, std::int64_t end) {
            covered.fetch_add(end - begin);
            if (begin == 0) throw std::runtime_error("chunk 0 failed");
          },
          min_parallel);
    };
    EXPECT_THROW(run(), std::runtime_error);
    EXPECT_EQ(covered.load(), 1 << 16) << "a chunk was skipped after another threw";
    EXPECT_EQ(visits(1 << 16, 1, 64), std::vector<int>(1 << 16, 1)) << "the pool works after an exception";
  }
}

TEST(HostThreads, NestedCallsStayOnTheirThread) {
  std::atomic<std::int64_t> total{0};
  host::parallel_for(
      1 << 12,
      [&](std::int64_t begin, std::int64_t end) {
        const std::thread::id outer = std::this_thread::get_id();
        host::parallel_for((end - begin) * 16,
                           [&](std::int64_t b, std::int64_t e) {
                             EXPECT_EQ(std::this_thread::get_id(), outer);
                             total.fetch_add(e - b);
                           },
                           1);
      },
      1);
  EXPECT_EQ(total.load(), std::int64_t{1} << 16);
}

// Several threads of the program evaluating large ops at once: each op is split over the pool or, when
// another thread's op holds it, runs alone; every result is exact either way.
TEST(HostThreads, SeveralCallingThreadsGetExactResults) {
  constexpr std::int64_t n = 1 << 18;
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      const BackendScope backend(t % 2 == 1 && test::unavailable_reason("blas").empty() ? "blas" : "eigen");
      for (int round = 0; round < 20; ++round) {
        const Tensor x = ops::arange(0, static_cast<double>(n), 1, DType::float32);
        const Tensor y = eval(ops::add(ops::multiply(x, 2.0), static_cast<double>(t)));
        const float* p = y.data<const float>();
        for (std::int64_t i = 0; i < n; ++i) {
          if (p[i] != static_cast<float>(2 * i + t)) {
            wrong.fetch_add(1);
            break;
          }
        }
      }
    });
  }
  for (std::thread& c : callers) c.join();
  EXPECT_EQ(wrong.load(), 0);
}

// A child process has none of its parent's threads: it starts a pool of its own instead of handing chunks to
// workers that do not exist there.
TEST(HostThreads, AForkedChildRunsParallelWorkOnItsOwnWorkers) {
  if (host_threads_info().threads < 2) GTEST_SKIP() << "one host thread";
  ASSERT_GT(chunks_on_workers(50), 0);  // the parent's pool is running
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // No alarm: a busy machine can take longer than any fixed time; a hang is the test's hang, which ctest
    // reports, and the parent waits for the child's exit as the event it is.
    const bool exact = visits(1 << 16, 1, 64) == std::vector<int>(1 << 16, 1);
    _exit(exact && chunks_on_workers(50) > 0 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child did not exit (signal " << WTERMSIG(status) << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace ember
