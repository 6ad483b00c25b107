// The kernel interface and the platform registry: a platform maps kernel names to the factory that makes
// its implementation of them.
#pragma once

#include <map>
#include <memory>
#include <string>

namespace loom {

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual void run(const float* in, float* out, int n) = 0;
};

class KernelFactory {
 public:
  virtual ~KernelFactory() = default;
  virtual std::unique_ptr<Kernel> make(const std::string& name) const = 0;
};

class Platform {
 public:
  virtual ~Platform() = default;
  void add_factory(const std::string& kernel, std::shared_ptr<KernelFactory> factory) {
    factories_[kernel] = std::move(factory);
  }
  std::unique_ptr<Kernel> make(const std::string& kernel) const {
    auto it = factories_.find(kernel);
    return it == factories_.end() ? nullptr : it->second->make(kernel);
  }

 private:
  std::map<std::string, std::shared_ptr<KernelFactory>> factories_;
};

}  // namespace loom
