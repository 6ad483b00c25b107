// Running backend-parameterized tests on backends this machine may lack. A backend that reports itself
// unavailable has its tests skipped with the backend's own reason, unless this machine is expected to run it:
// EMBER_REQUIRE_BACKENDS="opencl,blas" (or "all") names required backends, and an installed pocl ICD
// (/etc/OpenCL/vendors/pocl.icd, as CI installs) makes "opencl" required. A required backend that is
// unavailable fails the test instead of skipping it.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "ember/backend.hpp"
#include "ember/selection.hpp"

namespace ember::test {

inline bool backend_required(const std::string& name) {
  if (const char* list = std::getenv("EMBER_REQUIRE_BACKENDS")) {
    std::stringstream items(list);
    std::string item;
    while (std::getline(items, item, ',')) {
      if (item == "all" || item == name) return true;
    }
  }
  std::error_code ec;
  return name == "opencl" && std::filesystem::exists("/etc/OpenCL/vendors/pocl.icd", ec);
}

// Names a backend-parameterized test after its backend ("Backends/Suite.Test/opencl").
inline std::string backend_param_name(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

// Empty when `name` can run here, else why not.
inline std::string unavailable_reason(const std::string& name) {
  Backend& backend = get_backend(name);
  return backend.is_available() ? std::string() : backend.unavailable_reason();
}

}  // namespace ember::test

// Use first in a test body or SetUp(): skips (or fails, when required) on an unavailable backend.
#define EMBER_REQUIRE_BACKEND(name)                                                              \
  do {                                                                                           \
    const std::string ember_backend_name_ = (name);                                              \
    const std::string ember_reason_ = ::ember::test::unavailable_reason(ember_backend_name_);    \
    if (!ember_reason_.empty()) {                                                                \
      if (::ember::test::backend_required(ember_backend_name_)) {                                \
        FAIL() << "backend " << ember_backend_name_                                              \
               << " is required on this machine but unavailable: " << ember_reason_;             \
      }                                                                                          \
      GTEST_SKIP() << "backend " << ember_backend_name_ << " is unavailable: " << ember_reason_; \
    }                                                                                            \
  } while (false)
