// ember::ops, category "device": devices and memory.
#pragma once

#include <optional>
#include <vector>

#include "ember/backend/device_ops.hpp"
#include "ember/device.hpp"
#include "ember/tensor.hpp"

namespace ember::ops {

// The devices of the current backend.
std::vector<Device> available_devices();
// The device creation ops use on the current backend (cpu unless set).
Device default_device();
// DeviceError if the current backend has no such device.
void set_default_device(Device device);
// A copy of x on `device` of x's backend (x itself if it is there already).
Tensor to_device(const Tensor& x, Device device);
// Whether `device` exists on the current backend.
bool is_available(Device device);
void synchronize(std::optional<Device> device = std::nullopt);
MemoryInfo memory_info(std::optional<Device> device = std::nullopt);

}  // namespace ember::ops
