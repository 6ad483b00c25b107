// EL303: per-element tensor access in loops over a tensor's extent.
#include <ember/tensor.hpp>

double loops(const ember::Tensor& t) {
  double total = 0;
  for (std::int64_t i = 0; i < t.size(); ++i) total += t[i].item();  // expect: EL303
  const std::int64_t n = t.size();
  std::int64_t i = 0;
  while (i < n) {
    total += t(i, 0);  // expect: EL303
    ++i;
  }
  for (const auto& e : t) total += e.item();  // expect: EL303
  // Not element loops: over dimensions, over a std container, and a loop that reads no element.
  for (std::int64_t d = 0; d < t.ndim(); ++d) total += double(t.dim(d));
  std::vector<double> host(4);
  for (std::size_t k = 0; k < host.size(); ++k) total += host[k];
  for (std::int64_t k = 0; k < t.size(); ++k) total += double(k);
  return total;
}
