// EL201: tensors and tensor comparisons used as conditions.
#include <ember/tensor.hpp>

int conditions(const ember::Tensor& a, const ember::Tensor& b, ember::BasicTensor<float> f) {
  int n = 0;
  if (a) ++n;                // expect: EL201
  if (a > b) ++n;            // expect: EL201 EL200
  while (a) break;           // expect: EL201
  for (; b;) break;          // expect: EL201
  do ++n; while (a && n < 3);  // expect: EL201
  n += a ? 1 : 2;            // expect: EL201
  n += !a.size() || b ? 1 : 0;  // expect: EL201
  if (f) ++n;                // expect: EL201
  // Not conditions on tensors: plain conditions, and an explicit cast (EL300's).
  if (n > 0 && a.size() > 1) ++n;
  for (int i = 0; i < n; ++i) n -= 1;
  bool ok = static_cast<bool>(a);  // expect: EL300
  return n + ok;
}
