// Fault injection for the crash-safety tests (tests/lint/fault_test.cpp, tests/analyze/fault_test.cpp).
// With EMBERLINT_FAULT_AFTER_WRITES=N in the environment, the process kills itself with SIGKILL (as a power
// cut or `kill -9` would end it) right after its N-th file system write step: a temporary file created or
// filled, a rename, a deletion, a folder created or removed. The steps are those of write_file_atomically
// (lint/findings/fixes.cpp) and of the migration applier (analyze/migrate.cpp). Unset, a step costs one getenv.
#pragma once

#include <atomic>
#include <csignal>
#include <cstdlib>

namespace emberlint {

inline void file_write_step() {
  const char* limit = std::getenv("EMBERLINT_FAULT_AFTER_WRITES");
  if (limit == nullptr || *limit == '\0') return;
  static std::atomic<long> steps{0};
  if (++steps == std::strtol(limit, nullptr, 10)) std::raise(SIGKILL);
}

}  // namespace emberlint
