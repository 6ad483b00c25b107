// PLACEHOLDER: replaced by the real frontend device ops.
#include "ember/ops/device.hpp"
#include "ember/error.hpp"

namespace ember::ops {

std::vector<Device> available_devices() { throw Error("available_devices: pending"); }
Device default_device() { throw Error("default_device: pending"); }
void set_default_device(Device /*device*/) { throw Error("set_default_device: pending"); }
Tensor to_device(const Tensor& /*x*/, Device /*device*/) { throw Error("to_device: pending"); }
bool is_available(Device /*device*/) { throw Error("is_available: pending"); }
void synchronize(std::optional<Device> /*device*/) { throw Error("synchronize: pending"); }
MemoryInfo memory_info(std::optional<Device> /*device*/) { throw Error("memory_info: pending"); }

}  // namespace ember::ops
