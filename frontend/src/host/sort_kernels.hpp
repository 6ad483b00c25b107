// A vectorized sort of 4-byte keys for the host backends' sort (host/tensor_kernels.hpp). Backend-agnostic:
// no backend library header may be included here.
#pragma once

#include <cstdint>

namespace ember::host {

// How 4-byte values map to unsigned keys whose ascending order is the values' order.
enum class Key32 { float32, int32, uint32 };

// Writes the n values of src (4 bytes each, of the given kind), sorted ascending (or descending), to dst,
// and returns true; or returns false, having written nothing to dst, when this sort does not apply: the
// kernels do not run at AVX-512 (simd_level()), or a float32 value is NaN or -0 (their keys do not stand for
// one value each: the caller's stable sort keeps their input order). Each key stands for one value, so a
// sorted sequence of them is the only one and the bytes are those of any other sort: an AVX-512 quicksort
// (median-of-16 pivots, out-of-place compress partitions, bitonic networks in registers for the last 256 or
// fewer keys, std::sort past a depth bound), one thread. dst must not overlap src unless it is src.
bool sort_exact_32(Key32 kind, const void* src, void* dst, std::int64_t n, bool descending);

}  // namespace ember::host
