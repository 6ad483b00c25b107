// The platform registry: every platform maps kernel keys to the factory that makes its implementation, and
// the process knows every platform, so an add-on can install its kernels on the ones it supports.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace quill {

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual void apply(float* values, int n) = 0;
};

class Factory {
 public:
  virtual ~Factory() = default;
  virtual std::unique_ptr<Kernel> create(const std::string& key) const = 0;
};

class Platform {
 public:
  virtual ~Platform() = default;
  void install(const std::string& key, std::shared_ptr<Factory> factory) {
    factories_[key] = std::move(factory);
  }

  static std::vector<Platform*>& all() {
    static std::vector<Platform*> platforms;
    return platforms;
  }

 private:
  std::map<std::string, std::shared_ptr<Factory>> factories_;
};

// A platform some other program defines: no backend here is one.
class ForeignPlatform : public Platform {};

}  // namespace quill
