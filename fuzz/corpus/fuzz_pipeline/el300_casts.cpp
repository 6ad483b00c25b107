// EL300: tensors converted to arithmetic types.
#include <ember/tensor.hpp>

double casts(const ember::Tensor& t, ember::BasicTensor<double> b, ember::BasicTensor<float> f) {
  double s = static_cast<double>(t);  // expect: EL300
  double c = (double)t;               // expect: EL300
  double fn = double(t);              // expect: EL300
  double ex = t.operator double();    // expect: EL300
  double im = b;                      // expect: EL300
  float g = f + f;                    // expect: EL200 EL300
  // Not tensors.
  int i = static_cast<int>(t.size());
  long n = static_cast<long>(t.item());
  void* p = nullptr;
  auto q = reinterpret_cast<char*>(p);
  return s + c + fn + ex + im + g + i + double(n) + (q != nullptr ? 1 : 0);
}
