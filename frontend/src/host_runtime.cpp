// ember/host.hpp: the public face of the host block cache (host/host_memory.hpp), the thread pool
// (host/parallel.hpp) and the vector kernels' instruction set (host/vector_kernels.hpp).
#include "ember/host.hpp"

#include "ember/error.hpp"
#include "host/host_memory.hpp"
#include "host/parallel.hpp"
#include "host/vector_kernels.hpp"

namespace ember {

HostCacheInfo host_cache_info() {
  const host::HostBlockCache::Stats s = host::HostBlockCache::instance().stats();
  HostCacheInfo info;
  info.cached_bytes = s.cached_bytes;
  info.cached_blocks = s.cached_blocks;
  info.limit_bytes = s.limit;
  info.hits = s.hits;
  info.misses = s.misses;
  info.trimmed_bytes = s.trimmed_bytes;
  return info;
}

std::size_t trim_host_cache() {
  return host::HostBlockCache::instance().trim();
}

std::size_t set_host_cache_limit(std::size_t bytes) {
  return host::HostBlockCache::instance().set_limit(bytes);
}

HostThreadsInfo host_threads_info() {
  return host::pool_info();
}

std::string host_simd_level() {
  return host::simd_level_name(host::simd_level());
}

std::string set_host_simd_level(const std::string& level) {
  host::SimdLevel want;
  if (level == "baseline") {
    want = host::SimdLevel::baseline;
  } else if (level == "avx2") {
    want = host::SimdLevel::avx2;
  } else if (level == "avx512") {
    want = host::SimdLevel::avx512;
  } else {
    throw ValueError("set_host_simd_level: unknown level '" + level + "' (baseline, avx2 or avx512)");
  }
  return host::simd_level_name(host::set_simd_level(want));
}

}  // namespace ember
