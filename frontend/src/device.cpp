#include "ember/device.hpp"

#include <charconv>
#include <string>

#include "ember/error.hpp"

namespace ember {

Device Device::parse(std::string_view text) {
  if (text == "cpu") return cpu();
  if (text == "opencl") return opencl(0);
  constexpr std::string_view prefix = "opencl:";
  if (text.substr(0, prefix.size()) == prefix) {
    const std::string_view digits = text.substr(prefix.size());
    int index = -1;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec == std::errc() && ptr == digits.data() + digits.size() && index >= 0 && !digits.empty()) {
      return opencl(index);
    }
  }
  throw DeviceError("unknown device \"" + std::string(text) + "\": expected \"cpu\" or \"opencl:N\"");
}

std::string Device::str() const {
  return kind_ == Kind::cpu ? std::string("cpu") : "opencl:" + std::to_string(index_);
}

}  // namespace ember
