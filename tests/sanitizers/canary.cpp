// The sanitizer build's canary: each mode commits one kind of bug that the asan-ubsan and fuzz presets must
// still report (tests/sanitizers/CMakeLists.txt checks the report), and one mode reproduces the thread-exit
// abort that tests/sanitizers/sanitizer_defaults.cpp exists to prevent.
//   canary leak | undefined | stack-overflow | heap-overflow | foreign-altstack
#include <signal.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

volatile int sink;

void* volatile leaked;  // cleared before exit, so the block is unreachable when LeakSanitizer looks

int leak() {
  leaked = std::malloc(4096);
  std::memset(leaked, 1, 4096);
  leaked = nullptr;
  return 0;
}

int undefined(int argc) {
  int big = INT_MAX - 2 + argc;  // INT_MAX: argc is 2
  sink = big + 1;                // signed overflow
  return 0;
}

int recurse(int depth) {
  if (depth < 0) return 0;  // never: depth starts at argc and grows until the stack overflows
  volatile char frame[512];
  frame[depth % 512] = static_cast<char>(depth);
  return recurse(depth + 1) + frame[(depth * 7) % 512];
}

int heap_overflow(int argc) {
  char* block = static_cast<char*>(std::malloc(16));
  asm volatile("" : "+r"(block));  // hides the block's size from UBSan's object-size check: ASan's to report
  sink = block[16 + argc - 2];     // one past the end
  std::free(block);
  return 0;
}

// What LLVM's signal handling does on the thread that first registers its crash handlers: replace a smaller
// alternate signal stack with a malloc()ed one, kept in a static. The runtime used to unmap it at thread
// exit.
void* foreign_stack;

int foreign_altstack() {
  std::thread worker([] {
    stack_t current{};
    sigaltstack(nullptr, &current);
    const std::size_t needed = static_cast<std::size_t>(SIGSTKSZ) + 65536;
    if (current.ss_sp && !(current.ss_flags & SS_DISABLE) && current.ss_size >= needed) return;
    foreign_stack = std::malloc(needed);
    stack_t replacement{};
    replacement.ss_sp = foreign_stack;
    replacement.ss_size = needed;
    sigaltstack(&replacement, nullptr);
  });
  worker.join();
  std::puts("canary: the worker thread exited cleanly");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(mode, "leak")) return leak();
  if (!std::strcmp(mode, "undefined")) return undefined(argc);
  if (!std::strcmp(mode, "stack-overflow")) return recurse(argc);
  if (!std::strcmp(mode, "heap-overflow")) return heap_overflow(argc);
  if (!std::strcmp(mode, "foreign-altstack")) return foreign_altstack();
  std::fprintf(stderr, "usage: canary leak|undefined|stack-overflow|heap-overflow|foreign-altstack\n");
  return 2;
}
