// EL302: host copies that go back into a tensor in the same function.
#include <ember/tensor.hpp>

ember::Tensor roundtrip(const ember::Tensor& x) {
  std::vector<float> v = ember::ops::to_host<float>(x);
  for (auto& e : v) e = e * 2.0f;
  return ember::ops::from_data(v);  // expect: EL302
}

ember::Tensor nested(const ember::Tensor& x) {
  return ember::ops::from_data(ember::ops::to_host<double>(x));  // expect: EL302
}

ember::Tensor through_a_copy(const ember::Tensor& x) {
  auto host = ember::ops::to_host<float>(x);
  std::vector<float> copy = host;
  return ember::ops::from_data(copy);  // expect: EL302
}

// Not round trips: fresh host data, a copy that stays on the host, data from another function.
ember::Tensor fresh() {
  std::vector<float> v(3, 1.0f);
  return ember::ops::from_data(v);
}
std::vector<float> only_out(const ember::Tensor& x) { return ember::ops::to_host<float>(x); }
ember::Tensor only_in(const std::vector<float>& v) { return ember::ops::from_data(v); }
