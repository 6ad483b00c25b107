// EL200: operators applied to tensors, however the tensor type arrives; plain arithmetic stays silent.
#include <ember/tensor.hpp>

#include <string>

namespace {
using Alias = ember::Tensor;
typedef const ember::Tensor& Ref;
struct Derived : ember::Tensor {};
#define ADD(x, y) ((x) + (y))
}  // namespace

ember::Tensor member_and_free(const ember::Tensor& a, const ember::Tensor& b) {
  ember::Tensor c = a - b;  // expect: EL200
  c = a + b;                // expect: EL200
  c = a * 2.0;              // expect: EL200
  c = 2.0 * a;              // expect: EL200
  c = 2.0 - a;              // expect: EL200
  c = -a;                   // expect: EL200
  c = !a;                   // expect: EL200
  c += b;                   // expect: EL200
  c -= 1.0;                 // expect: EL200
  ++c;                      // expect: EL200
  c = a & b;                // expect: EL200
  c = a + b;                // emberlint: ignore[EL200] measured: the operator is the point of this line
  return c;
}

ember::Tensor comparisons(const ember::Tensor& a, const ember::Tensor& b) {
  ember::Tensor lt = a < b;   // expect: EL200
  ember::Tensor gt = a > b;   // expect: EL200
  ember::Tensor eq = a == b;  // expect: EL200
  return 1.0 < lt;            // expect: EL200
}

ember::Tensor through_types(Alias a, Ref b, const Derived& d) {
  auto sum = a + b;  // expect: EL200
  const auto& s = sum;
  Alias twice = s * d;  // expect: EL200
  return twice + d;     // expect: EL200
}

template <class T>
ember::BasicTensor<T> spelled_template(const ember::BasicTensor<T>& a, const ember::BasicTensor<T>& b) {
  return a + b;  // expect: EL200
}

template <class T>
ember::Tensor dependent_operand(const ember::Tensor& a, T scale) {
  return a * scale;  // expect: EL200
}

ember::Tensor from_macro(const ember::Tensor& a, const ember::Tensor& b) {
  return ADD(a, b);  // expect: EL200
}

// Not tensors: index and size arithmetic, strings, a tensor's scalar, text in comments and strings.
int plain(int n, std::size_t size, const ember::Tensor& t) {
  std::string s = std::string("a + b") + "-t";  // a + b, -t, t < u
  double x = t.item() * 2.0 - 1.0;
  return n - 1 + static_cast<int>(size * 2) + static_cast<int>(s.size()) + (x < 0 ? -1 : 1);
}

// A function template whose operator meets a tensor only once instantiated; with ints it is plain arithmetic.
template <class T>
T twice(const T& x) {
  return x + x;  // expect: EL200
}
ember::Tensor twice_tensor(const ember::Tensor& t) { return twice(t); }
int twice_int(int i) { return twice(i) + twice(i + 1); }
template <class T>
T thrice(const T& x) {
  return x * 3;
}
int thrice_int(int i) { return thrice(i); }
