// EL301: configured scalar extractors outside the allowed places.
#include <ember/tensor.hpp>

using ember::ops::item;

double extract(const ember::Tensor& t) {
  double a = ember::ops::item(t);  // expect: EL301
  double b = item(t);              // expect: EL301
  double c = t.to_scalar();        // expect: EL301
  return a + b + c + t.item();     // Tensor::item is not configured as an extractor here
}

struct Derived : ember::Tensor {};
double derived(const Derived& d) { return d.to_scalar(); }  // expect: EL301

namespace ember::report {
double print(const Tensor& t) { return ops::item(t); }  // an allowed function
}  // namespace ember::report

namespace ember::ops {
// An extractor built on another is the API itself.
template <class T>
T item_as(const Tensor& t) {
  return static_cast<T>(item(t));
}
}  // namespace ember::ops
