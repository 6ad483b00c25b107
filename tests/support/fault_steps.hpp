// Which kill points the crash tests try (EMBERLINT_FAULT_AFTER_WRITES=N, lint/fault_injection.hpp). Every
// write step by default. With EMBERLINT_TEST_FAULT_STRIDE=K (K > 1; the asan-ubsan test preset sets it, where
// one step costs a sanitized run) the first step, every K-th after it and the last: once a run finishes past
// a gap, the steps of the gap are tried from the top down until one is killed, so the count of steps is
// still exact.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>

namespace emberlint::test {

// EMBERLINT_TEST_FAULT_STRIDE, or 1 when it is unset or not a positive number.
inline long fault_stride() {
  const char* text = std::getenv("EMBERLINT_TEST_FAULT_STRIDE");
  if (text == nullptr) return 1;
  char* end = nullptr;
  const long k = std::strtol(text, &end, 10);
  return (end != text && *end == '\0' && k > 0) ? k : 1;
}

// Calls `killed_at(n)` for the steps to try: it runs the operation killed after step n and checks what it
// left, and returns true when the kill happened, false when the operation finished first (n is past its last
// step). Returns the number of steps (the last one killed at), or 0 after a failure when no run below step
// `limit` finished.
inline long for_each_kill_step(const std::function<bool(long)>& killed_at, long limit,
                               long stride = fault_stride()) {
  long last_killed = 0, n = 1;
  while (killed_at(n)) {
    last_killed = n;
    if (n >= limit - 1) {
      ADD_FAILURE() << "the operation never finished within " << limit << " write steps";
      return 0;
    }
    n = std::min(n + stride, limit - 1);
  }
  for (long m = n - 1; m > last_killed; --m) {  // the gap below the first finished run, top down
    if (killed_at(m)) return m;
  }
  return last_killed;
}

}  // namespace emberlint::test
