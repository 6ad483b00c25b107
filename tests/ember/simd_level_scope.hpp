// Tests that switch the host kernels' instruction-set level (ember::set_host_simd_level) restore the level
// the process started with.
#pragma once

#include <string>

#include "ember/host.hpp"

namespace ember::test {

class SimdLevelScope {
 public:
  SimdLevelScope() : saved_(host_simd_level()) {}
  ~SimdLevelScope() { set_host_simd_level(saved_); }
  SimdLevelScope(const SimdLevelScope&) = delete;
  SimdLevelScope& operator=(const SimdLevelScope&) = delete;

 private:
  std::string saved_;
};

}  // namespace ember::test
