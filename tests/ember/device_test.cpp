// Devices, default devices, copies between devices and the memory counters, on every registered backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "backend_support.hpp"
#include "ember/ember.hpp"

namespace {

using ember::Device;
using ember::DType;
using ember::Tensor;
namespace ops = ember::ops;

class DeviceOps : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { EMBER_REQUIRE_BACKEND(GetParam()); }
  ember::BackendScope scope_{GetParam()};
};

TEST_P(DeviceOps, DevicesAndDefaults) {
  const auto devices = ops::available_devices();
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(ops::default_device(), devices.front());
  EXPECT_TRUE(ops::is_available(devices.front()));
  EXPECT_FALSE(ops::is_available(Device::opencl(99)));
  EXPECT_THROW(ops::set_default_device(Device::opencl(99)), ember::DeviceError);
  ops::set_default_device(devices.back());
  EXPECT_EQ(ops::default_device(), devices.back());
  EXPECT_EQ(ops::zeros({2}).device(), devices.back());
  ops::set_default_device(devices.front());
  EXPECT_THROW(ops::zeros({2}, DType::float32, Device::opencl(99)), ember::DeviceError);
  EXPECT_NO_THROW(ops::synchronize());
  EXPECT_THROW(ops::synchronize(Device::opencl(99)), ember::DeviceError);
}

TEST_P(DeviceOps, ToDeviceCopiesBetweenDevicesOfOneBackend) {
  const Tensor x = ops::from_data(std::vector<std::int32_t>{1, 2, 3}, {3});
  for (const Device& d : ops::available_devices()) {
    const Tensor y = ops::to_device(x, d);
    EXPECT_EQ(y.device(), d);
    EXPECT_EQ(ops::to_host<std::int32_t>(y), (std::vector<std::int32_t>{1, 2, 3}));
    EXPECT_EQ(ops::to_host<std::int32_t>(ops::to_device(y, x.device())),
              (std::vector<std::int32_t>{1, 2, 3}));
  }
  EXPECT_EQ(ops::to_device(x, x.device()).buffer(), x.buffer());
  EXPECT_THROW(ops::to_device(x, Device::opencl(99)), ember::DeviceError);
  EXPECT_THROW(ops::to_device(Tensor(), Device::cpu()), ember::BackendError);
}

TEST_P(DeviceOps, MemoryCountersFollowAllocations) {
  const auto before = ops::memory_info();
  EXPECT_GT(before.total_bytes, 0u);
  EXPECT_LE(before.free_bytes, before.total_bytes);
  std::size_t during_in_use = 0;
  {
    const Tensor big = ops::zeros({1 << 16}, DType::float64);  // 512 KiB
    const auto during = ops::memory_info();
    during_in_use = during.bytes_in_use;
    EXPECT_GE(during.bytes_in_use, before.bytes_in_use + big.nbytes());
    EXPECT_GE(during.peak_bytes_in_use, during.bytes_in_use);
    EXPECT_GT(during.allocations, before.allocations);
  }
  const auto after = ops::memory_info();
  EXPECT_LE(after.bytes_in_use + (std::size_t{1} << 19), during_in_use);
  EXPECT_GE(after.peak_bytes_in_use, during_in_use);
}

// Freed host blocks are reused (a caching allocator): a new tensor may get a block that held another
// tensor's values, and every op that promises values must write them all.
TEST_P(DeviceOps, ReusedMemoryNeverLeaksOldValues) {
  for (int round = 0; round < 3; ++round) {
    for (std::int64_t n : {std::int64_t{1000}, std::int64_t{1} << 20}) {
      { const Tensor filled = ember::eval(ops::full({n}, 7.0)); }
      const std::vector<double> zeros = ops::to_host<double>(ops::zeros({n}, DType::float64));
      EXPECT_EQ(std::count(zeros.begin(), zeros.end(), 0.0), n) << n;
      { const Tensor filled = ember::eval(ops::full({n}, 7.0)); }
      const std::vector<double> ramp = ops::to_host<double>(ops::arange(0, n, 1, DType::float64));
      EXPECT_EQ(ramp.back(), static_cast<double>(n - 1));
      EXPECT_EQ(ramp[static_cast<std::size_t>(n / 2)], static_cast<double>(n / 2));
    }
  }
  const auto info = ops::memory_info();
  EXPECT_LE(info.bytes_in_use, info.peak_bytes_in_use);
}

TEST_P(DeviceOps, ZeroSizeAndHugeAllocations) {
  const Tensor e = ops::zeros({0});
  EXPECT_NE(e.buffer(), nullptr);
  EXPECT_EQ(e.nbytes(), 0u);
  // More than the machine has: a clean BackendError that names the op, shape and dtype.
  try {
    ops::zeros({std::int64_t{1} << 50}, DType::int16);
    FAIL() << "expected BackendError";
  } catch (const ember::BackendError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("zeros"), std::string::npos) << msg;
    EXPECT_NE(msg.find("int16"), std::string::npos) << msg;
  }
  EXPECT_THROW(ops::zeros({std::int64_t{1} << 40, std::int64_t{1} << 30}), ember::ShapeError);
}

INSTANTIATE_TEST_SUITE_P(Backends, DeviceOps, ::testing::ValuesIn(ember::registered_backends()),
                         ember::test::backend_param_name);

}  // namespace
