// Linked into every executable of a sanitizer build (the asan-ubsan and fuzz presets; CMakeLists.txt adds
// it), so the setting holds wherever sanitized code runs: ctest, fuzz/run.sh, scripts, or a binary started by
// hand.
//
// Why use_sigaltstack=0. LLVM (inside libclang, which emberlint loads, and inside pocl, which compiles
// ember's OpenCL kernels) installs an alternate signal stack of its own, malloc()ed, on the thread that first
// registers its crash handlers, whenever that thread's current one is smaller than MINSIGSTKSZ + 64 KiB. The
// sanitizer runtime gives each thread 4 * SIGSTKSZ, and glibc 2.34+ computes SIGSTKSZ from the CPU's signal
// frame size: 54,016 bytes against LLVM's 79,040 on an AVX-512 host without AMX, so LLVM replaces it (on AMX
// hosts the runtime's stack is big enough and nothing happens, which is why one green CI hid this). When that
// thread exits, the runtime unmaps whatever stack is registered, LLVM's malloc()ed block included, and aborts
// with "CHECK failed: sanitizer_posix.cpp:61 unable to unmap". GCC 12's libasan and clang 14 to 19's
// compiler-rt all do this (LLVM fixed it in 2026, in no runtime Debian 12 ships). With use_sigaltstack=0 the
// runtime neither installs nor unmaps per-thread stacks. tests/sanitizers/canary.cpp reproduces the abort.
//
// What that setting would cost, and how it is kept: the runtime's SIGSEGV handler then runs on the faulting
// stack, so a stack overflow kills the process with a bare SIGSEGV instead of an "AddressSanitizer:
// stack-overflow" report. The constructor below gives the main thread an alternate stack of our own, large
// enough that LLVM keeps it, and makes the runtime's handlers run on it, so a stack overflow on the main
// thread is still reported with its stack (a canary test proves it); on other threads it still fails the
// test, with a SIGSEGV. Leaks and undefined behaviour are unaffected (canary tests prove those too).
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <initializer_list>

extern "C" const char* __asan_default_options() {
  return "use_sigaltstack=0";
}

namespace {

__attribute__((constructor)) void report_main_thread_stack_overflows() {
  const long page = sysconf(_SC_PAGESIZE);
  const long frame = sysconf(_SC_SIGSTKSZ);
  if (page <= 0 || frame <= 0) return;
  // Four signal frames (what the runtime would have given) and LLVM's MINSIGSTKSZ + 64 KiB, whichever is
  // larger.
  std::size_t size = static_cast<std::size_t>(frame) * 4;
  if (size < static_cast<std::size_t>(frame) + 65536) size = static_cast<std::size_t>(frame) + 65536;
  size = (size + static_cast<std::size_t>(page) - 1) / static_cast<std::size_t>(page) *
         static_cast<std::size_t>(page);
  // Kept for the life of the process: the main thread never exits before it does.
  void* stack = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack == MAP_FAILED) return;
  stack_t alt{};
  alt.ss_sp = stack;
  alt.ss_size = size;
  if (sigaltstack(&alt, nullptr) != 0) return;
  for (int signal_number : {SIGSEGV, SIGBUS}) {
    struct sigaction action {};
    if (sigaction(signal_number, nullptr, &action) != 0) continue;
    if (!(action.sa_flags & SA_SIGINFO) && (action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN))
      continue;
    action.sa_flags |= SA_ONSTACK;
    sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace
