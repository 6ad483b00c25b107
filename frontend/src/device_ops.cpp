// ember::ops, category "device": device discovery, the per-backend default device, copies between devices.
#include "ember/ops/device.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

#include "dispatch.hpp"
#include "ember/error.hpp"
#include "ember/selection.hpp"

namespace ember::ops {

namespace {

// The default device each backend has been given with set_default_device (absent = its first device).
struct DefaultDevices {
  std::mutex mutex;
  std::map<const Backend*, Device> chosen;
};

DefaultDevices& default_devices() {
  static DefaultDevices instance;
  return instance;
}

bool has_device(Backend& backend, Device device) {
  const auto devices = backend.devices();
  return std::find(devices.begin(), devices.end(), device) != devices.end();
}

std::string device_list(Backend& backend) {
  std::string names;
  for (const Device& d : backend.devices()) names += (names.empty() ? "" : ", ") + d.str();
  return names.empty() ? "none" : names;
}

void require_device(const char* op, Backend& backend, Device device) {
  if (!has_device(backend, device)) {
    throw DeviceError(std::string(op) + ": device " + device.str() + " is not available on backend " +
                      backend.name() + " (devices: " + device_list(backend) + ")");
  }
}

}  // namespace

std::vector<Device> available_devices() {
  return current_backend().devices();
}

Device default_device() {
  Backend& backend = current_backend();
  {
    auto& defaults = default_devices();
    std::lock_guard<std::mutex> lock(defaults.mutex);
    if (auto it = defaults.chosen.find(&backend); it != defaults.chosen.end()) return it->second;
  }
  const auto devices = backend.devices();
  return devices.empty() ? Device::cpu() : devices.front();
}

void set_default_device(Device device) {
  Backend& backend = current_backend();
  require_device("set_default_device", backend, device);
  auto& defaults = default_devices();
  std::lock_guard<std::mutex> lock(defaults.mutex);
  defaults.chosen[&backend] = device;
}

Tensor to_device(const Tensor& x, Device device) {
  Backend& backend = detail::common_backend("to_device", {&x});
  if (x.device() == device) return x;
  require_device("to_device", backend, device);
  Tensor out = detail::empty("to_device", backend, device, x.shape(), x.dtype());
  backend.to_device(x, out);
  return out;
}

bool is_available(Device device) {
  Backend& backend = current_backend();
  return backend.is_available() && has_device(backend, device);
}

void synchronize(std::optional<Device> device) {
  Backend& backend = current_backend();
  const Device d = device ? *device : default_device();
  require_device("synchronize", backend, d);
  backend.synchronize(d);
}

MemoryInfo memory_info(std::optional<Device> device) {
  Backend& backend = current_backend();
  const Device d = device ? *device : default_device();
  require_device("memory_info", backend, d);
  return backend.memory_info(d);
}

}  // namespace ember::ops
