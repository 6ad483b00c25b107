// STREAM-style loops of our own (bench/memory_bandwidth.cpp): the memory limit bench/report.sh measures
// ember's memory-bound cases against.
#pragma once

namespace ember_bench {

// Registers stream_<read|copy|add|triad>_16M_f32/threads_<N>[_nt] for N = 1 and `threads`.
void register_memory_bandwidth(int threads);

}  // namespace ember_bench
