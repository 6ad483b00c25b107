// kiln: one class per op, each backend defines the op's evaluation method out of line in its own folder.
#pragma once

#include <vector>

namespace kiln {

struct Array {
  std::vector<float> data;
};

class Primitive {
 public:
  virtual ~Primitive() = default;
  virtual void eval_host(const std::vector<Array>& inputs, Array& out) = 0;
  virtual void eval_device(const std::vector<Array>& inputs, Array& out) = 0;
  virtual const char* name() const = 0;
};

// Abstract: shares code between the element-wise ops, is no op itself.
class Unary : public Primitive {
 public:
  float apply_scalar(float x) const { return x; }
};

class Negate : public Unary {
 public:
  void eval_host(const std::vector<Array>& inputs, Array& out) override;
  void eval_device(const std::vector<Array>& inputs, Array& out) override;
  const char* name() const override { return "negate"; }
};

class Exp : public Unary {
 public:
  void eval_host(const std::vector<Array>& inputs, Array& out) override;
  void eval_device(const std::vector<Array>& inputs, Array& out) override;
  const char* name() const override { return "exp"; }
};

class Add : public Primitive {
 public:
  void eval_host(const std::vector<Array>& inputs, Array& out) override;
  void eval_device(const std::vector<Array>& inputs, Array& out) override;
  const char* name() const override { return "add"; }
};

class Reduce : public Primitive {
 public:
  explicit Reduce(int axis) : axis_(axis) {}
  void eval_host(const std::vector<Array>& inputs, Array& out) override;
  void eval_device(const std::vector<Array>& inputs, Array& out) override;
  const char* name() const override { return "reduce"; }

 private:
  int axis_;
};

class Sort : public Primitive {
 public:
  void eval_host(const std::vector<Array>& inputs, Array& out) override;
  void eval_device(const std::vector<Array>& inputs, Array& out) override;
  const char* name() const override { return "sort"; }
};

namespace host {
// Runs a primitive's host evaluation on device data: what a device backend calls when it has no kernel.
void run(Primitive& p, const std::vector<Array>& inputs, Array& out);
}  // namespace host

}  // namespace kiln
