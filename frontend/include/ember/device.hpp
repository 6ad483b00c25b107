// Where a tensor's memory lives: the host (`cpu`) or an OpenCL device (`opencl:N`).
#pragma once

#include <compare>
#include <string>
#include <string_view>

namespace ember {

class Device {
 public:
  enum class Kind : unsigned char { cpu, opencl };

  constexpr Device() = default;
  constexpr Device(Kind kind, int index) : kind_(kind), index_(index) {}

  static constexpr Device cpu() { return {}; }
  static constexpr Device opencl(int index = 0) { return {Kind::opencl, index}; }
  // Parses "cpu", "opencl" and "opencl:N"; throws DeviceError naming the text otherwise.
  static Device parse(std::string_view text);

  constexpr Kind kind() const { return kind_; }
  constexpr int index() const { return index_; }
  std::string str() const;

  friend constexpr bool operator==(const Device&, const Device&) = default;

 private:
  Kind kind_ = Kind::cpu;
  int index_ = 0;
};

}  // namespace ember
