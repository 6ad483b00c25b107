// The host thread pool behind parallel_for (host/parallel.hpp).
//
// One job at a time: the caller publishes the task and one share of task indices per thread, then bumps the
// generation word the workers watch. A share is one atomic word (the job's epoch, the next index, the end),
// so a worker that wakes after its job is over sees a stale epoch and takes nothing; task and context are
// read only after a claim succeeds, and the caller does not return (nor publish the next job) until every
// claimed task has finished.
#include "host/parallel.hpp"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

namespace ember::host {
namespace {

// How long a worker watches for the next job before it sleeps: back-to-back ops find it awake, and a program
// that does something else (OpenBLAS's threads in a matmul, its own work) gets the core back within this
// time.
constexpr auto kPoolSpin = std::chrono::microseconds(20);
// Indices of a job fit a share word's 16-bit fields.
constexpr std::int64_t kMaxTasks = 0xffff;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}

constexpr std::uint64_t share_word(std::uint32_t epoch, std::uint64_t next, std::uint64_t end) {
  return (std::uint64_t{epoch} << 32) | (next << 16) | end;
}
constexpr std::uint32_t epoch_of(std::uint64_t w) {
  return static_cast<std::uint32_t>(w >> 32);
}
constexpr std::uint64_t next_of(std::uint64_t w) {
  return (w >> 16) & 0xffff;
}
constexpr std::uint64_t end_of(std::uint64_t w) {
  return w & 0xffff;
}

// Runs every task of the calling thread, the first exception rethrown after the last task.
void run_alone(std::int64_t tasks, void (*task)(void*, std::int64_t), void* context) {
  std::exception_ptr error;
  for (std::int64_t i = 0; i < tasks; ++i) {
    try {
      task(context, i);
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

class Pool {
 public:
  // As many workers as the system lets it start, up to `workers` (none: every job runs on its caller).
  explicit Pool(int workers) {
    threads_.reserve(static_cast<std::size_t>(workers));
    for (int w = 1; w <= workers; ++w) {
      try {
        threads_.emplace_back([this, w] { work(w); });
      } catch (const std::system_error&) {  // a thread limit (EAGAIN)
        break;
      }
      started_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  int workers() const { return static_cast<int>(threads_.size()); }

  void run(std::int64_t tasks, int threads, bool wake, void (*task)(void*, std::int64_t), void* context) {
    const std::unique_lock busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) {  // another thread's job: no worker to spare
      alone_.fetch_add(1, std::memory_order_relaxed);
      run_alone(tasks, task, context);
      return;
    }
    // Waking a sleeping worker costs more than a small job saves (a futex wake and the worker's cold start:
    // 13 us more for a 64K add after a matmul, in a virtual machine). A small job wakes the workers only
    // when the previous job ended within kPoolSpin: ops come back to back, and the workers, awake from now
    // on, spin between them.
    const bool recent = std::chrono::steady_clock::now() - last_end_ < kPoolSpin;
    if (!wake && !recent && sleepers_.load(std::memory_order_seq_cst) == workers()) {
      alone_.fetch_add(1, std::memory_order_relaxed);
      struct Chunk {  // nested calls stay on this thread (this one holds busy_), also when a task throws
        std::chrono::steady_clock::time_point& end;
        explicit Chunk(std::chrono::steady_clock::time_point& e) : end(e) { in_parallel_chunk() = true; }
        ~Chunk() {
          in_parallel_chunk() = false;
          end = std::chrono::steady_clock::now();
        }
      } chunk{last_end_};
      run_alone(tasks, task, context);
      return;
    }
    jobs_.fetch_add(1, std::memory_order_relaxed);
    const int p = std::min(threads, workers() + 1);
    task_ = task;
    context_ = context;
    error_ = nullptr;
    failed_.store(false, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    const std::uint32_t epoch = ++epoch_;
    for (int s = 0; s < p; ++s) {
      shares_[s].word.store(share_word(epoch, static_cast<std::uint64_t>(tasks * s / p),
                                       static_cast<std::uint64_t>(tasks * (s + 1) / p)),
                            std::memory_order_release);
    }
    const std::uint64_t generation = (std::uint64_t{epoch} << 16) | static_cast<std::uint64_t>(p);
    generation_.store(generation, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      const std::lock_guard lock(sleep_mutex_);
      wake_.notify_all();
    }
    in_parallel_chunk() = true;
    take(0, generation);
    in_parallel_chunk() = false;
    for (int spins = 0; done_.load(std::memory_order_acquire) < tasks; ++spins) {
      if (spins < 4096) {
        cpu_relax();
      } else {
        std::this_thread::yield();  // a worker was preempted inside its task
      }
    }
    last_end_ = std::chrono::steady_clock::now();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  HostThreadsInfo info() const {
    HostThreadsInfo i;
    i.threads = host_threads();
    i.workers_started = static_cast<std::size_t>(started_.load(std::memory_order_relaxed));
    i.parallel_jobs = static_cast<std::size_t>(jobs_.load(std::memory_order_relaxed));
    i.jobs_run_alone = static_cast<std::size_t>(alone_.load(std::memory_order_relaxed));
    i.workers_asleep = sleepers_.load(std::memory_order_relaxed);
    return i;
  }

 private:
  // Claims and runs the tasks of job `generation`, from thread `slot`'s own share first, then the others'.
  void take(int slot, std::uint64_t generation) {
    const auto epoch = static_cast<std::uint32_t>(generation >> 16);
    const int p = static_cast<int>(generation & 0xffff);
    if (slot >= p) return;
    // Finished tasks are counted once at the end: one hand-over of done_'s cache line a thread, not one a
    // task. (The job cannot end before they are counted, so a stale epoch is only ever seen with none to
    // count.)
    std::int64_t finished = 0;
    for (int k = 0; k < p; ++k) {
      std::atomic<std::uint64_t>& word = shares_[(slot + k) % p].word;
      std::uint64_t w = word.load(std::memory_order_acquire);
      while (epoch_of(w) == epoch && next_of(w) < end_of(w)) {
        if (!word.compare_exchange_weak(w, w + (std::uint64_t{1} << 16), std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
          continue;
        }
        const auto i = static_cast<std::int64_t>(next_of(w));
        try {
          task_(context_, i);
        } catch (...) {
          if (!failed_.exchange(true, std::memory_order_acq_rel)) error_ = std::current_exception();
        }
        ++finished;
        w = word.load(std::memory_order_acquire);
      }
      if (epoch_of(w) != epoch) break;  // the job is over: a later one owns the shares
    }
    if (finished > 0) done_.fetch_add(finished, std::memory_order_acq_rel);
  }

  void work(int slot) {
    in_parallel_chunk() = true;
    std::uint64_t seen = 0;  // jobs start at epoch 1
    for (;;) {
      std::uint64_t g = generation_.load(std::memory_order_acquire);
      const auto until = std::chrono::steady_clock::now() + kPoolSpin;
      for (int i = 1; g == seen; ++i, g = generation_.load(std::memory_order_acquire)) {
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) break;
        cpu_relax();
      }
      if (g == seen) {
        std::unique_lock lock(sleep_mutex_);
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        while ((g = generation_.load(std::memory_order_seq_cst)) == seen) wake_.wait(lock);
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
      }
      seen = g;
      take(slot, g);
    }
  }

  struct alignas(64) Share {
    std::atomic<std::uint64_t> word{0};
  };

  std::vector<std::thread> threads_;
  std::mutex busy_;  // held by the thread whose job the pool runs; guards what follows up to error_
  std::chrono::steady_clock::time_point last_end_;  // when the last job ended
  std::uint32_t epoch_ = 0;
  void (*task_)(void*, std::int64_t) = nullptr;
  void* context_ = nullptr;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
  alignas(64) std::atomic<std::int64_t> done_{0};
  alignas(64) std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> sleepers_{0};
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  Share shares_[64];
  std::atomic<std::int64_t> started_{0}, jobs_{0}, alone_{0};
};

std::mutex pool_mutex;  // guards creating the pool; held across fork()
std::atomic<Pool*> current_pool{nullptr};

// The pool, started on first use. A child process (fork) has none of its parent's threads: it abandons the
// parent's pool, whose workers do not exist there, and starts its own when it first needs one.
Pool& pool() {
  if (Pool* p = current_pool.load(std::memory_order_acquire)) return *p;
  const std::lock_guard lock(pool_mutex);
  if (Pool* p = current_pool.load(std::memory_order_acquire)) return *p;
  static const bool registered = [] {
    pthread_atfork([] { pool_mutex.lock(); }, [] { pool_mutex.unlock(); },
                   [] {
                     current_pool.store(nullptr, std::memory_order_release);
                     pool_mutex.unlock();
                   });
    return true;
  }();
  (void)registered;
  // Deliberately never freed: a worker may still be spinning on it while the program exits.
  Pool* p = new Pool(host_threads() - 1);  // NOLINT(cppcoreguidelines-owning-memory)
  current_pool.store(p, std::memory_order_release);
  return *p;
}

}  // namespace

bool& in_parallel_chunk() {
  thread_local bool inside = false;
  return inside;
}

void run_tasks(std::int64_t tasks, int threads, bool wake, void (*task)(void*, std::int64_t), void* context) {
  if (tasks <= 0) return;
  if (threads <= 1 || tasks == 1 || tasks > kMaxTasks || in_parallel_chunk() || host_threads() < 2) {
    run_alone(tasks, task, context);
    return;
  }
  pool().run(tasks, threads, wake, task, context);
}

HostThreadsInfo pool_info() {
  if (host_threads() < 2) {
    HostThreadsInfo i;
    i.threads = 1;
    return i;
  }
  return pool().info();
}

}  // namespace ember::host
